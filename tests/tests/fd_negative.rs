//! vkGetMemoryFdKHR: every check's bad call, through the real loader over lavapipe. Each test
//! asserts the exact list of IDs the app's messenger received, the return code, whether the
//! driver saw the call (the fd slot is pre-filled with SENTINEL) and what the message says.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name, still_exports_fd as still_exports};
use exportcheck_tests::ids::*;
use exportcheck_tests::{
    expect, fds, Instance, Options, DMA_BUF, FAILED, OPAQUE_FD, OPAQUE_WIN32, SENTINEL, SIZE,
};
use std::ffi::c_void;

#[test]
fn null_get_fd_info_is_blocked_and_pfd_untouched() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mut fd = SENTINEL;
    // SAFETY: NULL pGetFdInfo on purpose; pFd is valid.
    let r = unsafe { dev.get_fd_raw(std::ptr::null(), &mut fd) };
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL, "the driver must not have been called");
    let m = expect::one(&inst, GET_FD, FD_INFO_PARAM);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo is NULL",
            "VkMemoryGetFdInfoKHR",
            "not passed to the driver",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    drop(dev);
}

#[test]
fn null_pfd_is_blocked() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem)
        .handle_type(OPAQUE_FD);
    // SAFETY: a valid info and a NULL pFd on purpose.
    let r = unsafe { dev.get_fd_raw(&info, std::ptr::null_mut()) };
    assert_eq!(r, FAILED);
    let m = expect::one(&inst, GET_FD, FD_PFD_PARAM);
    expect::mentions(&m, &["pFd is NULL", "not passed to the driver"]);
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
}

#[test]
fn wrong_s_type_is_blocked_and_pfd_untouched() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    // Otherwise a good request: only the sType is wrong.
    let mut info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem)
        .handle_type(OPAQUE_FD);
    info.s_type = vk::StructureType::MEMORY_ALLOCATE_INFO;
    let (r, fd) = dev.get_fd_with(&info);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL, "the driver must not have been called");
    let m = expect::one(&inst, GET_FD, FD_STYPE);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->sType is VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO",
            "it must be VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
        ],
    );
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
}

#[test]
fn p_next_is_reported_and_the_call_goes_down_as_the_app_made_it() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    // A valid structure, but none extends VkMemoryGetFdInfoKHR.
    let stray = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem)
        .handle_type(OPAQUE_FD);
    info.p_next = (&raw const stray).cast::<c_void>();
    let (r, fd) = dev.get_fd_with(&info);
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(
        info.p_next,
        (&raw const stray).cast::<c_void>(),
        "the layer never rewrites the app's structure"
    );
    let st = fds::assert_open(fd);
    assert!(
        st.st_size >= SIZE as i64,
        "the fd is the memory: {}",
        st.st_size
    );
    fds::close(fd);
    let m = expect::one(&inst, GET_FD, FD_PNEXT);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->pNext is not NULL",
            "The call goes down as the app made it",
        ],
    );
    dev.free(mem);
    drop(dev);
}

#[test]
fn null_memory_is_blocked() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let (r, fd) = dev.get_fd(vk::DeviceMemory::null(), OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    let m = expect::one(&inst, GET_FD, FD_MEMORY_PARAM);
    expect::mentions(&m, &["pGetFdInfo->memory is VK_NULL_HANDLE"]);
    drop(dev);
}

#[test]
fn freed_memory_is_blocked_and_named() {
    // Exclusive: no other test may allocate (and so reuse) the freed handle meanwhile.
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    let named = dev.allocate(SIZE, Some(OPAQUE_FD));
    dev.name(named, c"staging");
    // Both freed before either is used: the layer remembers its last 64 frees.
    dev.free(mem);
    dev.free(named);
    expect::silent(&inst, FREE);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    let m = expect::one(&inst, GET_FD, FD_MEMORY_PARAM);
    // The layer still remembers what the freed object was.
    expect::mentions(
        &m,
        &[
            &format!(
                "pGetFdInfo->memory is {}, which was already freed",
                memory_name(mem)
            ),
            &format!(
                "allocated on {} with allocationSize {SIZE}",
                device_name(&dev)
            ),
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            "not passed to the driver",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());

    // A use after free of a named object says which one it was, in the text and in pObjects.
    let (r, fd) = dev.get_fd(named, OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    let m = expect::one(&inst, GET_FD, FD_MEMORY_PARAM);
    expect::mentions(
        &m,
        &[&format!(
            "pGetFdInfo->memory is {} \"staging\", which was already freed",
            memory_name(named)
        )],
    );
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, named.as_raw()).as_deref(),
        Some("staging")
    );
    drop(dev);
}

#[test]
fn garbage_memory_is_blocked() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let garbage = vk::DeviceMemory::from_raw(0xdead_0000);
    let (r, fd) = dev.get_fd(garbage, OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    expect::garbage_memory(&inst, GET_FD, FD_MEMORY_PARAM, "pGetFdInfo->memory");
    drop(dev);
}

#[test]
fn invalid_handle_type_values_get_every_rule_they_break() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    let not_fd_or_dma_buf =
        "vkGetMemoryFdKHR exports only VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT \
                             or VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT";
    let every_rule = [
        FD_HANDLE_TYPE_PARAM,
        FD_HANDLE_TYPE_00672,
        FD_HANDLE_TYPE_00671,
    ];
    // (value, the IDs it gets, how the value is named, why it is not a valid value)
    let cases: [(u32, &[&str], &str, &str); 5] = [
        // 0 is no single fd type (00672), but trivially "included" in the export types.
        (
            0,
            &[FD_HANDLE_TYPE_PARAM, FD_HANDLE_TYPE_00672],
            "0",
            "0 is no VkExternalMemoryHandleTypeFlagBits value",
        ),
        (
            (OPAQUE_FD | OPAQUE_WIN32).as_raw(),
            &every_rule,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "it has more than one bit, and must be a single value",
        ),
        // Lavapipe has no VK_EXT_external_memory_dma_buf: the DMA_BUF bit is not valid here.
        (
            (OPAQUE_FD | DMA_BUF).as_raw(),
            &every_rule,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
             VK_EXT_external_memory_dma_buf, which the device was created without; it has more \
             than one bit, and must be a single value",
        ),
        (
            1 << 13,
            &every_rule,
            "0x2000 (unknown bits)",
            "0x2000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
        (
            1 << 31,
            &every_rule,
            "0x80000000 (unknown bits)",
            "0x80000000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
    ];
    for (raw, ids, named, why) in cases {
        let (r, fd) = dev.get_fd(mem, vk::ExternalMemoryHandleTypeFlags::from_raw(raw));
        // Not a bad pointer or handle: reported, and the call goes down (the driver writes pFd;
        // lavapipe does not validate and exports anyway).
        assert_eq!(r, vk::Result::SUCCESS, "{raw:#x}");
        assert_ne!(fd, SENTINEL, "{raw:#x}: the call must reach the driver");
        fds::close_if_open(fd);
        // Every rule the value breaks, each said once, in this order.
        let m = expect::only(&inst, GET_FD, ids);
        expect::mentions(
            &m[0],
            &[&format!(
                "pGetFdInfo->handleType is {named}, which is not a valid \
                     VkExternalMemoryHandleTypeFlagBits value on {}: {why}.",
                device_name(&dev)
            )],
        );
        expect::mentions(
            &m[1],
            &[&format!(
                "pGetFdInfo->handleType is {named}; {not_fd_or_dma_buf}"
            )],
        );
        if let Some(m) = m.get(2) {
            expect::mentions(
                m,
                &[
                    &format!(
                        "pGetFdInfo->handleType is {named}, which was not included in \
                         VkExportMemoryAllocateInfo::handleTypes \
                         (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)"
                    ),
                    &memory_name(mem),
                ],
            );
        }
    }
    dev.free(mem);
    drop(dev);
}

#[test]
fn non_fd_handle_type_is_00672() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD | OPAQUE_WIN32));
    // OPAQUE_WIN32 is a core bit, valid on any device. Whether lavapipe can export it
    // (VUID-VkExportMemoryAllocateInfo-handleTypes-09860) is judged against the buffer or image
    // the memory is bound to, not at a plain allocation: nothing to say yet.
    expect::silent(&inst, ALLOCATE);
    let (r, fd) = dev.get_fd(mem, OPAQUE_WIN32);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    // Exported with OPAQUE_WIN32, so 00671 holds: only 00672.
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00672);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "exports only VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT or \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn export_of_memory_allocated_without_export_info_is_00671() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    // Reported, then passed to lavapipe, which "exports" a non-exportable allocation as fd -1.
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            &format!("{} (allocated on {}", memory_name(mem), device_name(&dev)),
            "allocated without a VkExportMemoryAllocateInfo",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn dma_buf_on_a_device_without_its_extension_is_handle_type_parameter() {
    // Lavapipe has no VK_EXT_external_memory_dma_buf, so no device of it can be created with it:
    // the DMA_BUF bit is not a valid value on the device.
    let dma_buf_not_enabled = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
                               VK_EXT_external_memory_dma_buf, which the device was created without";
    let inst = Instance::new();
    let dev = inst.fd_device();

    // On memory exported with OPAQUE_FD only: the bit is invalid and was not exported either.
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::only(&inst, GET_FD, &[FD_HANDLE_TYPE_PARAM, FD_HANDLE_TYPE_00671]);
    expect::mentions(
        &m[0],
        &[&format!(
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which \
                 is not a valid VkExternalMemoryHandleTypeFlagBits value on {}: \
                 {dma_buf_not_enabled}.",
            device_name(&dev)
        )],
    );
    expect::object(&m[0], vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::mentions(
        &m[1],
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which was \
             not included in VkExportMemoryAllocateInfo::handleTypes \
             (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)",
            &memory_name(mem),
        ],
    );
    dev.free(mem);

    // On memory exported with DMA_BUF: the allocation already breaks the -parameter rule of
    // VkExportMemoryAllocateInfo, and the export only the -parameter rule of handleType.
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD | DMA_BUF));
    let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes is \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, \
             which is not a valid combination of VkExternalMemoryHandleTypeFlagBits values",
            &format!("on {}: {dma_buf_not_enabled}.", device_name(&dev)),
        ],
    );
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_PARAM);
    expect::mentions(&m, &[dma_buf_not_enabled]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn unknown_device_is_blocked_and_reported_to_every_instance() {
    let inst = Instance::exclusive();
    let other = inst.another(Options::default());
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    // The layer's own function: vkGetDeviceProcAddr hands it out for a device with the extension.
    // SAFETY: the PFN type of vkGetMemoryFdKHR.
    let get_fd: vk::PFN_vkGetMemoryFdKHR = unsafe { inst.device_fn(&dev, c"vkGetMemoryFdKHR") };
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem)
        .handle_type(OPAQUE_FD);
    let mut fd = SENTINEL;
    // SAFETY: a garbage VkDevice on purpose; the layer must not dereference it. Other pointers
    // are valid.
    let r = unsafe { get_fd(vk::Device::from_raw(0x1234), &info, &mut fd) };
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    expect::unknown_device(
        &[&inst, &other],
        GET_FD,
        FD_DEVICE_PARAM,
        &["device (0x1234) is not a VkDevice created through this layer"],
    );
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
    drop(other);
}

#[test]
fn destroyed_device_is_blocked_as_unknown() {
    // Exclusive: the finding goes to every instance, and the device address may be reused.
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    // SAFETY: the PFN type of vkGetMemoryFdKHR.
    let get_fd: vk::PFN_vkGetMemoryFdKHR = unsafe { inst.device_fn(&dev, c"vkGetMemoryFdKHR") };
    let handle = dev.handle();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    // Freed first: destroying a device with live memory is itself invalid
    // (VUID-vkDestroyDevice-device-00378), and the driver's record of it would leak.
    dev.free(mem);
    drop(dev); // vkDestroyDevice.
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem)
        .handle_type(OPAQUE_FD);
    let mut fd = SENTINEL;
    // SAFETY: a destroyed VkDevice on purpose; the layer must not pass it to the driver.
    let r = unsafe { get_fd(handle, &info, &mut fd) };
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    let m = expect::one(&inst, GET_FD, FD_DEVICE_PARAM);
    expect::mentions(
        &m,
        &[&format!(
            "device (0x{:x}) is not a VkDevice created through this layer (never created, or \
             already destroyed)",
            handle.as_raw()
        )],
    );
}

#[test]
fn memory_of_another_device_is_blocked() {
    let inst = Instance::new();
    let a = inst.fd_device();
    let b = inst.fd_device();
    let mem_b = b.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = a.get_fd(mem_b, OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    expect::memory_of_another_device(
        &inst,
        GET_FD,
        MEMORY_OF_OTHER_DEVICE,
        "pGetFdInfo->memory",
        &a,
        (&b, mem_b),
        &[&format!(
            "which belongs to another device than {}",
            device_name(&a)
        )],
    );
    still_exports(&inst, &b, mem_b);
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn call_on_a_device_without_the_extension_is_a_warning() {
    let inst = Instance::new();
    let a = inst.fd_device();
    let b = inst.device(&[]);
    assert!(
        inst.device_proc_addr(&b, c"vkGetMemoryFdKHR").is_none(),
        "no vkGetMemoryFdKHR for a device without the extension"
    );
    let mem_b = b.allocate(SIZE, Some(OPAQUE_FD));
    // SAFETY: the PFN type of vkGetMemoryFdKHR.
    let get_fd: vk::PFN_vkGetMemoryFdKHR = unsafe { inst.device_fn(&a, c"vkGetMemoryFdKHR") };
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem_b)
        .handle_type(OPAQUE_FD);
    let mut fd = SENTINEL;
    // SAFETY: valid pointers; device B has no vkGetMemoryFdKHR, which is what is tested.
    let r = unsafe { get_fd(b.handle(), &info, &mut fd) };
    // Not blocked, but B's driver has no vkGetMemoryFdKHR to call down to: the layer says so.
    assert_eq!(r, vk::Result::ERROR_EXTENSION_NOT_PRESENT);
    assert_eq!(fd, SENTINEL);
    let m = expect::one(&inst, GET_FD, EXTENSION_NOT_ENABLED);
    assert_eq!(m.severity, vk::DebugUtilsMessageSeverityFlagsEXT::WARNING);
    expect::mentions(
        &m,
        &[&format!(
            "{}, which was created without VK_KHR_external_memory_fd",
            device_name(&b)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE, b.handle().as_raw());
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn callback_returning_true_skips_a_non_blocking_call() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    // Not exported: exporting it breaks exactly one rule (00671), which does not block the call.
    let mem = dev.allocate(SIZE, None);

    inst.answer(true);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL, "a skipped call writes no fd");
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(&m, &["allocated without a VkExportMemoryAllocateInfo"]);

    inst.answer(false);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    // Lavapipe "exports" a non-exportable allocation as fd -1.
    fds::close_if_open(fd);
    expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);

    dev.free(mem);
    drop(dev);
}
