//! `VkMemoryAllocateFlagsInfo::flags` with `VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT` needs the
//! `bufferDeviceAddress` feature (`VUID-VkMemoryAllocateInfo-flags-03331`), through the real
//! loader over lavapipe, which supports the feature: without it the allocation is reported and
//! goes down; with it, silent. The other feature rules need what lavapipe lacks
//! (tests/tests/memory_features.rs, on the test driver).

use ash::vk;
use exportcheck_tests::expect::device_name;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, Instance};

const FLAGS_03331: &str = "VUID-VkMemoryAllocateInfo-flags-03331";
const ADDRESS: vk::MemoryAllocateFlags = vk::MemoryAllocateFlags::DEVICE_ADDRESS;

#[test]
fn device_address_flag_without_buffer_device_address_is_03331_on_lavapipe() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let result = dev.allocate_flagged(0, ADDRESS, 0);
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
    dev.free_if_made(result);
}

#[test]
fn device_address_flag_with_buffer_device_address_is_silent_on_lavapipe() {
    let inst = Instance::new();
    let mut bda =
        vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
    let dev = inst.device_with_features(
        &[
            ash::khr::external_memory_fd::NAME,
            ash::khr::buffer_device_address::NAME,
        ],
        Some((&mut bda as *mut vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>).cast()),
    );
    let memory = dev
        .allocate_flagged(0, ADDRESS, 0)
        .expect("an addressable allocation");
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
}
