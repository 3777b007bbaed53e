//! `VkMemoryAllocateFlagsInfo::flags` with `VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT` needs the
//! `bufferDeviceAddress` feature (`VUID-VkMemoryAllocateInfo-flags-03331`), through the real
//! loader over lavapipe, which supports the feature: without it the allocation is reported and
//! goes down; with it, silent. The other feature rules need what lavapipe lacks
//! (tests/tests/memory_features.rs, on the test driver).

use ash::vk;
use exportcheck_tests::expect::device_name;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, Device, Instance, SIZE};
use std::ffi::CStr;

const FLAGS_03331: &str = "VUID-VkMemoryAllocateInfo-flags-03331";
const ADDRESS: vk::MemoryAllocateFlags = vk::MemoryAllocateFlags::DEVICE_ADDRESS;

/// A device of `extensions` with `features` chained (or nothing), one queue.
fn device_with_features(
    inst: &Instance,
    extensions: &[&CStr],
    features: Option<*mut std::ffi::c_void>,
) -> Device {
    let priorities = [1.0f32];
    let queue = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
    let mut create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queue)
        .enabled_extension_names(&names);
    if let Some(features) = features {
        create.p_next = features.cast_const();
    }
    inst.device_from(inst.physical_device, &create, extensions, false)
        .expect("vkCreateDevice")
}

/// `vkAllocateMemory` of `SIZE` bytes of `memory_type` with `VkMemoryAllocateFlagsInfo::flags`
/// and a `VkMemoryOpaqueCaptureAddressAllocateInfo` of `capture_address` (0: none chained).
fn allocate_flagged(
    dev: &Device,
    memory_type: u32,
    flags: vk::MemoryAllocateFlags,
    capture_address: u64,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut flags_info = vk::MemoryAllocateFlagsInfo::default().flags(flags);
    let mut capture = vk::MemoryOpaqueCaptureAddressAllocateInfo::default()
        .opaque_capture_address(capture_address);
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(memory_type)
        .push_next(&mut flags_info);
    if capture_address != 0 {
        info = info.push_next(&mut capture);
    }
    dev.allocate_with(&info)
}

fn free_if_made(dev: &Device, result: Result<vk::DeviceMemory, vk::Result>) {
    assert_ne!(
        result,
        Err(vk::Result::ERROR_VALIDATION_FAILED_EXT),
        "the call goes down"
    );
    if let Ok(memory) = result {
        dev.free(memory);
    }
}

#[test]
fn device_address_flag_without_buffer_device_address_is_03331_on_lavapipe() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let result = allocate_flagged(&dev, 0, ADDRESS, 0);
    let m = expect::one(&inst, ALLOCATE, FLAGS_03331);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkMemoryAllocateFlagsInfo>.flags is DEVICE_ADDRESS, which \
             includes VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT",
            &format!(
                "bufferDeviceAddress feature was not enabled when {}",
                device_name(&dev)
            ),
        ],
    );
    free_if_made(&dev, result);
}

#[test]
fn device_address_flag_with_buffer_device_address_is_silent_on_lavapipe() {
    let inst = Instance::new();
    let mut bda =
        vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
    let dev = device_with_features(
        &inst,
        &[
            ash::khr::external_memory_fd::NAME,
            ash::khr::buffer_device_address::NAME,
        ],
        Some((&mut bda as *mut vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>).cast()),
    );
    let memory = allocate_flagged(&dev, 0, ADDRESS, 0).expect("an addressable allocation");
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
}
