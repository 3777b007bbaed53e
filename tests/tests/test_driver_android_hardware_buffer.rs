//! vkGetMemoryAndroidHardwareBufferANDROID end to end: the real loader, the layer, and the
//! project's test driver (`tests/icd`), which exposes
//! VK_ANDROID_external_memory_android_hardware_buffer on Linux with made-up `AHardwareBuffer*`
//! values: valid exports and 01882 (the memory was not exported as an Android hardware buffer).
//! Each bad call yields exactly the IDs of the rules it breaks, is reported and goes down (the
//! driver's call counter moves once). The structural cases (NULL pointers, sType, pNext, bad
//! memory, unknown devices, a device without the extension) are rows of
//! tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = GET_ANDROID_HARDWARE_BUFFER;
const COUNTED: &CStr = c"vkGetMemoryAndroidHardwareBufferANDROID";

type Types = vk::ExternalMemoryHandleTypeFlags;
const AHB: Types = Types::ANDROID_HARDWARE_BUFFER_ANDROID;
const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";
/// What `*pBuffer` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = exportcheck_tests::POINTER_SENTINEL;

/// A device with VK_ANDROID_external_memory_android_hardware_buffer and VK_KHR_external_memory.
fn android_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// Memory of type 0, exported with `export` if given.
fn memory(dev: &Device, export: Option<Types>) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, export, None)
}

/// `vkGetMemoryAndroidHardwareBufferANDROID` of `memory`; `*pBuffer` is pre-filled with
/// [`SENTINEL`].
fn call(dev: &Device, memory: vk::DeviceMemory) -> (vk::Result, usize) {
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID is enabled");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
    let mut buffer = SENTINEL as *mut c_void;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), &info, &mut buffer) };
    (result, buffer as usize)
}

#[test]
fn memory_exported_as_a_hardware_buffer_exports_one_silently() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let mem = memory(&dev, Some(AHB));
    let both = memory(&dev, Some(AHB | OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut buffers = Vec::new();
    for m in [mem, both, mem] {
        let (r, buffer) = call(&dev, m);
        assert_eq!(r, vk::Result::SUCCESS);
        calls.assert(1, "a valid call goes down once");
        assert!(buffer != 0 && buffer != SENTINEL, "{buffer:#x}");
        buffers.push(buffer);
        expect::silent(&inst, CMD);
    }
    assert_ne!(buffers[0], buffers[1], "distinct per allocation");
    assert_eq!(buffers[0], buffers[2], "stable");
    dev.free(mem);
    dev.free(both);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn memory_not_exported_as_a_hardware_buffer_is_01882_with_either_cause() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let fd_only = memory(&dev, Some(OPAQUE_FD));
    let plain = memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, fd_only);
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, AHB_HANDLE_TYPES_01882);
    expect::mentions(
        &m,
        &[
            &format!(
                "pInfo->memory is {} (allocated on {}",
                memory_name(fd_only),
                device_name(&dev)
            ),
            &format!(
                "and when it was allocated VkExportMemoryAllocateInfo::handleTypes \
                 ({OPAQUE_FD_NAME}) did not include \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID."
            ),
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, fd_only.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());

    let (r, _) = call(&dev, plain);
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, AHB_HANDLE_TYPES_01882);
    expect::mentions(
        &m,
        &["its VkMemoryAllocateInfo had no VkExportMemoryAllocateInfo in the pNext chain"],
    );
    dev.free(fd_only);
    dev.free(plain);
    drop(dev);
}
