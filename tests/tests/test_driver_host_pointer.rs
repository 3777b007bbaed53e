//! Host-pointer imports on the project's test driver (`tests/icd`), through the loader with the
//! layer on: the imported memory is the app's host memory, as on every real driver. A write
//! through the app's pointer shows in a vkMapMemory mapping of the import and the other way
//! round, and neither vkUnmapMemory nor vkFreeMemory unmaps the app's memory.

use ash::vk;
use exportcheck_tests::ids::{ALLOCATE, FREE};
use exportcheck_tests::test_driver::instance;
use exportcheck_tests::{expect, Device, Instance};
use std::ffi::c_void;

const HOST_ALLOCATION: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
/// The test driver's minImportedHostPointerAlignment (a page).
const ALIGNMENT: usize = 4096;
const LEN: usize = 2 * ALIGNMENT;

fn host_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::ext::external_memory_host::NAME,
    ])
}

/// `LEN` bytes of anonymous, page-aligned host memory of the test's own: were the driver to
/// unmap it, touching it afterwards would crash the test.
struct HostPages(*mut u8);

impl HostPages {
    fn new() -> Self {
        // SAFETY: a fresh private anonymous mapping; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                LEN,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED, "mmap");
        Self(p.cast())
    }

    fn write(&self, offset: usize, bytes: &[u8]) {
        assert!(offset + bytes.len() <= LEN);
        // SAFETY: in bounds of the live mapping (checked above).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.0.add(offset), bytes.len()) };
    }

    fn read(&self, offset: usize) -> [u8; 4] {
        read4(self.0.cast(), offset)
    }
}

impl Drop for HostPages {
    fn drop(&mut self) {
        // SAFETY: the mapping made by `new`, unmapped once.
        unsafe { libc::munmap(self.0.cast(), LEN) };
    }
}

fn read4(base: *const c_void, offset: usize) -> [u8; 4] {
    let mut seen = [0u8; 4];
    // SAFETY: callers pass a live mapping of at least `offset + 4` bytes.
    unsafe { std::ptr::copy_nonoverlapping(base.cast::<u8>().add(offset), seen.as_mut_ptr(), 4) };
    seen
}

fn write4(base: *mut c_void, offset: usize, bytes: &[u8; 4]) {
    // SAFETY: callers pass a live mapping of at least `offset + 4` bytes.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), base.cast::<u8>().add(offset), 4) };
}

/// Imports all of `host` with the first memory type the driver offers for it.
fn import(inst: &Instance, dev: &Device, host: &HostPages) -> vk::DeviceMemory {
    let ext = ash::ext::external_memory_host::Device::new(&inst.instance, &dev.device);
    let mut answer = vk::MemoryHostPointerPropertiesEXT::default();
    // SAFETY: live, aligned host memory and a valid output structure.
    let r = unsafe {
        (ext.fp().get_memory_host_pointer_properties_ext)(
            dev.handle(),
            HOST_ALLOCATION,
            host.0.cast(),
            &mut answer,
        )
    };
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(answer.memory_type_bits, 0);
    let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
        .handle_type(HOST_ALLOCATION)
        .host_pointer(host.0.cast());
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(LEN as u64)
        .memory_type_index(answer.memory_type_bits.trailing_zeros())
        .push_next(&mut import);
    dev.allocate_with(&info).expect("host-pointer import")
}

fn map(dev: &Device, memory: vk::DeviceMemory, offset: usize) -> *mut c_void {
    // SAFETY: a live, unmapped, host-visible allocation of LEN bytes; offset within it.
    unsafe {
        dev.device.map_memory(
            memory,
            offset as u64,
            vk::WHOLE_SIZE,
            vk::MemoryMapFlags::empty(),
        )
    }
    .expect("vkMapMemory")
}

fn unmap(dev: &Device, memory: vk::DeviceMemory) {
    // SAFETY: mapped by the caller; the pointer is not used after this.
    unsafe { dev.device.unmap_memory(memory) };
}

#[test]
fn a_write_through_the_host_pointer_shows_in_the_mapping() {
    let inst = instance(None);
    let dev = host_device(&inst);
    let host = HostPages::new();
    let memory = import(&inst, &dev, &host);
    host.write(100, b"app!");
    host.write(ALIGNMENT + 8, b"page");
    let whole = map(&dev, memory, 0);
    assert_eq!(whole, host.0.cast(), "the mapping is the app's pointer");
    assert_eq!(&read4(whole, 100), b"app!");
    unmap(&dev, memory);
    let second_page = map(&dev, memory, ALIGNMENT);
    assert_eq!(second_page, host.0.wrapping_add(ALIGNMENT).cast());
    assert_eq!(&read4(second_page, 8), b"page");
    unmap(&dev, memory);
    dev.free(memory);
    expect::silent_for(&inst, &[ALLOCATE, "vkMapMemory", "vkUnmapMemory", FREE]);
    // Neither vkUnmapMemory nor vkFreeMemory unmapped the app's memory.
    host.write(100, b"mine");
    assert_eq!(&host.read(100), b"mine");
}

#[test]
fn a_write_through_the_mapping_shows_through_the_host_pointer() {
    let inst = instance(None);
    let dev = host_device(&inst);
    let host = HostPages::new();
    let memory = import(&inst, &dev, &host);
    let mapped = map(&dev, memory, ALIGNMENT);
    write4(mapped, 12, b"drv!");
    assert_eq!(&host.read(ALIGNMENT + 12), b"drv!");
    dev.free(memory); // implicitly unmaps: the app's memory stays
    expect::silent_for(&inst, &[ALLOCATE, "vkMapMemory", FREE]);
    assert_eq!(&host.read(ALIGNMENT + 12), b"drv!");
    host.write(0, b"mine");
    assert_eq!(&host.read(0), b"mine");
}
