//! Host-pointer imports at vkAllocateMemory end to end on lavapipe (VK_EXT_external_memory_host,
//! minImportedHostPointerAlignment 4096): VkImportMemoryHostPointerInfoEXT (handleType-parameter,
//! 01748, 01749) and the VkMemoryAllocateInfo rules of a host-pointer import (allocationSize-01745,
//! pNext-02806, pNext-02805, pNext-03332). Each bad allocation yields exactly the IDs of the rules
//! it breaks, and goes down (none of them is a bad pointer the layer would block on).

use ash::vk::{self, Handle};
use exportcheck_tests::expect::device_name;
use exportcheck_tests::{expect, Device, Instance};
use std::ffi::c_void;

const CMD: &str = "vkAllocateMemory";
const HANDLE_TYPE_PARAM: &str = "VUID-VkImportMemoryHostPointerInfoEXT-handleType-parameter";
const HANDLE_TYPE_01748: &str = "VUID-VkImportMemoryHostPointerInfoEXT-handleType-01748";
const POINTER_01749: &str = "VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749";
const SIZE_01745: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01745";
const DEDICATED_02806: &str = "VUID-VkMemoryAllocateInfo-pNext-02806";
const DEDICATED_NV_02805: &str = "VUID-VkMemoryAllocateInfo-pNext-02805";
const CAPTURE_03332: &str = "VUID-VkMemoryAllocateInfo-pNext-03332";
const ALLOC_PNEXT_PNEXT: &str = "VUID-VkMemoryAllocateInfo-pNext-pNext";
const HOST_ALLOCATION: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;

/// Lavapipe's minImportedHostPointerAlignment (checked against the driver by [`Host::new`]).
const ALIGNMENT: usize = 4096;

/// A device taking host-pointer imports, and `VkMemoryOpaqueCaptureAddressAllocateInfo` (on the
/// Vulkan 1.1 instance of the tests, its extension: `VUID-VkMemoryAllocateInfo-pNext-pNext`).
fn host_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::ext::external_memory_host::NAME,
        ash::khr::buffer_device_address::NAME,
    ])
}

/// Host memory of 4 * ALIGNMENT bytes past its first aligned address, and the memory type the
/// driver says an import of it may use.
struct Host {
    _buffer: Vec<u8>,
    aligned: *mut c_void,
    memory_type: u32,
}

impl Host {
    fn new(inst: &Instance, dev: &Device) -> Self {
        let mut limits = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut limits);
        // SAFETY: the instance's own physical device and valid output structures.
        unsafe {
            inst.instance
                .get_physical_device_properties2(inst.physical_device, &mut properties)
        };
        assert_eq!(limits.min_imported_host_pointer_alignment, ALIGNMENT as u64);
        let mut buffer = vec![0u8; 5 * ALIGNMENT];
        let offset = buffer.as_ptr().align_offset(ALIGNMENT);
        let aligned = buffer[offset..].as_mut_ptr().cast::<c_void>();
        let ext = ash::ext::external_memory_host::Device::new(&inst.instance, &dev.device);
        let mut answer = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: live, aligned host memory and a valid output structure.
        let r = unsafe {
            (ext.fp().get_memory_host_pointer_properties_ext)(
                dev.handle(),
                HOST_ALLOCATION,
                aligned,
                &mut answer,
            )
        };
        assert_eq!(r, vk::Result::SUCCESS);
        assert_ne!(answer.memory_type_bits, 0);
        Self {
            _buffer: buffer,
            aligned,
            memory_type: answer.memory_type_bits.trailing_zeros(),
        }
    }
}

/// `vkAllocateMemory` importing `pointer` as `handle_type`, with `size` bytes and `more` chained
/// after the import structure; frees what the driver made.
fn import(
    dev: &Device,
    host: &Host,
    (handle_type, pointer, size): (vk::ExternalMemoryHandleTypeFlags, *mut c_void, u64),
    more: *const c_void,
) -> vk::Result {
    let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
        .handle_type(handle_type)
        .host_pointer(pointer);
    import.p_next = more;
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(host.memory_type);
    info.p_next = (&import as *const vk::ImportMemoryHostPointerInfoEXT<'_>).cast();
    match dev.allocate_with(&info) {
        Ok(memory) => {
            dev.free(memory);
            vk::Result::SUCCESS
        }
        Err(e) => e,
    }
}

const SIZE: u64 = 2 * ALIGNMENT as u64;

/// [`import`] of an invalid allocation: the layer reports it and passes it down; what the driver
/// answers an invalid call is undefined, so it is not asserted.
fn bad_import(
    dev: &Device,
    host: &Host,
    args: (vk::ExternalMemoryHandleTypeFlags, *mut c_void, u64),
    more: *const c_void,
) {
    let _undefined = import(dev, host, args, more);
}

#[test]
fn an_aligned_host_pointer_import_is_silent() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let host = Host::new(&inst, &dev);
    let r = import(
        &dev,
        &host,
        (HOST_ALLOCATION, host.aligned, SIZE),
        std::ptr::null(),
    );
    assert_eq!(r, vk::Result::SUCCESS);
    // A dedicated structure naming nothing and a zero capture address are allowed.
    let capture = vk::MemoryOpaqueCaptureAddressAllocateInfo::default();
    let dedicated = vk::MemoryDedicatedAllocateInfo {
        p_next: (&capture as *const vk::MemoryOpaqueCaptureAddressAllocateInfo<'_>).cast(),
        ..Default::default()
    };
    let more = (&dedicated as *const vk::MemoryDedicatedAllocateInfo<'_>).cast();
    let r = import(&dev, &host, (HOST_ALLOCATION, host.aligned, SIZE), more);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent_for(
        &inst,
        &["vkGetMemoryHostPointerPropertiesEXT", CMD, "vkFreeMemory"],
    );
}

#[test]
fn a_handle_type_that_is_no_host_pointer_is_01748() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let host = Host::new(&inst, &dev);
    let opaque = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
    bad_import(&dev, &host, (opaque, host.aligned, SIZE), std::ptr::null());
    let m = expect::one(&inst, CMD, HANDLE_TYPE_01748);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkImportMemoryHostPointerInfoEXT>.handleType is \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; it must be",
        ],
    );
    let two = HOST_ALLOCATION | vk::ExternalMemoryHandleTypeFlags::HOST_MAPPED_FOREIGN_MEMORY_EXT;
    bad_import(&dev, &host, (two, host.aligned, SIZE), std::ptr::null());
    let both = expect::only(&inst, CMD, &[HANDLE_TYPE_PARAM, HANDLE_TYPE_01748]);
    expect::mentions(
        &both[0],
        &[&format!(
            "which is not a valid VkExternalMemoryHandleTypeFlagBits value on {}",
            device_name(&dev)
        )],
    );
}

#[test]
fn misalignment_of_the_pointer_and_the_size_is_01749_and_01745() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let host = Host::new(&inst, &dev);
    let odd = host.aligned.wrapping_byte_add(256);
    bad_import(&dev, &host, (HOST_ALLOCATION, odd, SIZE), std::ptr::null());
    let m = expect::one(&inst, CMD, POINTER_01749);
    expect::mentions(
        &m,
        &[&format!(
            "pHostPointer is {odd:p}, which is not a multiple of \
             VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment \
             ({ALIGNMENT}) (it is 256 bytes past a multiple)."
        )],
    );
    bad_import(
        &dev,
        &host,
        (HOST_ALLOCATION, host.aligned, SIZE + 100),
        std::ptr::null(),
    );
    let m = expect::one(&inst, CMD, SIZE_01745);
    expect::mentions(
        &m,
        &[&format!(
            "pAllocateInfo->allocationSize is {}, which is not a multiple of",
            SIZE + 100
        )],
    );
    bad_import(
        &dev,
        &host,
        (HOST_ALLOCATION, odd, SIZE + 100),
        std::ptr::null(),
    );
    expect::only(&inst, CMD, &[POINTER_01749, SIZE_01745]);
}

#[test]
fn a_dedicated_host_pointer_import_is_02806_or_02805() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let host = Host::new(&inst, &dev);
    let create = vk::BufferCreateInfo::default()
        .size(SIZE)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC);
    // SAFETY: a valid create info on a live device.
    let buffer = unsafe { dev.device.create_buffer(&create, None) }.expect("vkCreateBuffer");
    let dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
    let more = (&dedicated as *const vk::MemoryDedicatedAllocateInfo<'_>).cast();
    bad_import(&dev, &host, (HOST_ALLOCATION, host.aligned, SIZE), more);
    let m = expect::one(&inst, CMD, DEDICATED_02806);
    expect::mentions(
        &m,
        &[
            "the pNext chain has a VkMemoryDedicatedAllocateInfo that names an image or a buffer, \
           but the allocation imports a host pointer",
        ],
    );
    // The NV structure (VK_NV_dedicated_allocation, which lavapipe lacks: the device may not be
    // given it, pNext-pNext), naming the same buffer.
    let nv = vk::DedicatedAllocationMemoryAllocateInfoNV::default().buffer(buffer);
    let more = (&nv as *const vk::DedicatedAllocationMemoryAllocateInfoNV<'_>).cast();
    bad_import(&dev, &host, (HOST_ALLOCATION, host.aligned, SIZE), more);
    let m = expect::only(&inst, CMD, &[ALLOC_PNEXT_PNEXT, DEDICATED_NV_02805]);
    expect::mentions(
        &m[0],
        &["has a VkDedicatedAllocationMemoryAllocateInfoNV, but VkDevice 0x"],
    );
    expect::mentions(&m[1], &["VkDedicatedAllocationMemoryAllocateInfoNV"]);
    // SAFETY: the buffer was never bound; no memory uses it.
    unsafe { dev.device.destroy_buffer(buffer, None) };
    assert_ne!(buffer.as_raw(), 0);
}

#[test]
fn an_opaque_capture_address_with_a_host_pointer_import_is_03332() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let host = Host::new(&inst, &dev);
    let capture =
        vk::MemoryOpaqueCaptureAddressAllocateInfo::default().opaque_capture_address(0x10000);
    let more = (&capture as *const vk::MemoryOpaqueCaptureAddressAllocateInfo<'_>).cast();
    bad_import(&dev, &host, (HOST_ALLOCATION, host.aligned, SIZE), more);
    // The address breaks two more rules of the same structure, each reported once: it lacks
    // the capture-replay flag (03329; lavapipe cannot enable the feature the flag needs) and
    // the host-pointer import is an import operation (03333).
    let m = expect::only(
        &inst,
        CMD,
        &[
            CAPTURE_03332,
            "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329",
            "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333",
        ],
    );
    expect::mentions(
        &m[0],
        &["opaqueCaptureAddress is not 0, but the pNext chain has a \
           VkImportMemoryHostPointerInfoEXT: it must be 0."],
    );
}

/// `VkImportMemoryHostPointerInfoEXT` extends `VkMemoryAllocateInfo` only on a device created
/// with `VK_EXT_external_memory_host` (`VUID-VkMemoryAllocateInfo-pNext-pNext`); on such a device
/// (`an_aligned_host_pointer_import_is_silent`) it is silent.
#[test]
fn a_host_pointer_import_structure_needs_its_extension() {
    let inst = Instance::new();
    let without = inst.device(&[ash::khr::external_memory::NAME]);
    // handleType 0 imports nothing (and is no valid value: -parameter, as on any device).
    let import = vk::ImportMemoryHostPointerInfoEXT::default();
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0);
    info.p_next = (&import as *const vk::ImportMemoryHostPointerInfoEXT<'_>).cast();
    let memory = without.allocate_with(&info).expect("a plain allocation");
    let m = expect::only(&inst, CMD, &[ALLOC_PNEXT_PNEXT, HANDLE_TYPE_PARAM]);
    expect::mentions(
        &m[0],
        &[
            "has a VkImportMemoryHostPointerInfoEXT, but VkDevice 0x",
            "was created without VK_EXT_external_memory_host",
        ],
    );
    without.free(memory);
}
