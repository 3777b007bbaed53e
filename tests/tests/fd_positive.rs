//! vkGetMemoryFdKHR: correct exports are silent and give a usable file descriptor.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, DMA_BUF, OPAQUE_FD, SENTINEL, SIZE};

/// Maps `memory` (memory type 0 is host-visible on lavapipe) and runs `f` on its bytes.
fn with_mapped<R>(dev: &Device, memory: vk::DeviceMemory, f: impl FnOnce(&mut [u8]) -> R) -> R {
    // SAFETY: a live, unmapped, host-visible allocation of at least SIZE bytes.
    let p = unsafe {
        dev.device
            .map_memory(memory, 0, SIZE, vk::MemoryMapFlags::empty())
    }
    .expect("vkMapMemory");
    // SAFETY: the mapping is SIZE bytes long and stays mapped until unmap_memory below.
    let bytes = unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), SIZE as usize) };
    let r = f(bytes);
    // SAFETY: mapped above; `bytes` is not used after this.
    unsafe { dev.device.unmap_memory(memory) };
    r
}

#[test]
fn opaque_fd_export_is_silent_and_the_fd_imports_back() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);

    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let st = fds::assert_open(fd);
    assert!(st.st_size >= SIZE as i64, "fd size {}", st.st_size);
    expect::silent(&inst, GET_FD);

    // The import consumes the fd; the new allocation shares the exported memory.
    let imported = dev.import_fd(fd, SIZE).expect("import of the exported fd");
    expect::silent(&inst, ALLOCATE);
    with_mapped(&dev, mem, |b| b[..4].copy_from_slice(b"xchk"));
    let seen = with_mapped(&dev, imported, |b| b[..4].to_vec());
    assert_eq!(seen, b"xchk", "the imported memory is the exported memory");

    dev.free(imported);
    dev.free(mem);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn on_memory_exported_for_dma_buf_without_its_extension_only_dma_buf_is_reported() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD | DMA_BUF));
    // Lavapipe 22.3 has no VK_EXT_external_memory_dma_buf, so the device was created without it
    // and DMA_BUF is not a valid handle type on it: the allocation is -parameter (the fully
    // silent dma-buf path is tested on the test driver).
    let dma_buf_not_enabled = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
                               VK_EXT_external_memory_dma_buf, which the device was created without";
    let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
    expect::mentions(&m, &[dma_buf_not_enabled]);

    // A DMA_BUF export breaks only that rule: the memory was exported with DMA_BUF (00671 holds)
    // and DMA_BUF is an fd type (00672 holds).
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    // Lavapipe (no VK_EXT_external_memory_dma_buf) hands out its memfd either way.
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_PARAM);
    expect::mentions(
        &m,
        &[&format!(
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which \
                 is not a valid VkExternalMemoryHandleTypeFlagBits value on {}: \
                 {dma_buf_not_enabled}.",
            expect::device_name(&dev)
        )],
    );

    // The OPAQUE_FD export of the same memory is valid, and silent.
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let st = fds::assert_open(fd);
    assert!(st.st_size >= SIZE as i64, "fd size {}", st.st_size);
    fds::close(fd);
    expect::silent(&inst, GET_FD);
    dev.free(mem);
    drop(dev);
}

#[test]
fn export_of_named_memory_is_silent() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    dev.name(mem, c"my-name");
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close(fd);
    expect::silent(&inst, GET_FD);
    dev.free(mem);
    drop(dev);
}

#[test]
fn every_export_of_a_long_lived_allocation_is_silent() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    let mut seen = Vec::new();
    for _ in 0..8 {
        let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
        assert_eq!(r, vk::Result::SUCCESS);
        let st = fds::assert_open(fd);
        seen.push((st.st_dev, st.st_ino));
        fds::close(fd);
    }
    seen.dedup();
    assert_eq!(
        seen.len(),
        1,
        "every fd refers to the same memory: {seen:?}"
    );
    expect::silent(&inst, GET_FD);
    dev.free(mem);
    drop(dev);
}
