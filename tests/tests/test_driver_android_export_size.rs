//! The `allocationSize` of memory exported as an Android hardware buffer, on the test driver
//! (VK_ANDROID_external_memory_android_hardware_buffer): 0 when dedicated to an image (01874),
//! greater than 0 without a `VkMemoryDedicatedAllocateInfo` (07900) or dedicated to a valid
//! buffer (07901).

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, Device, Instance, SIZE};

const AHB: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;

fn android_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ])
}

/// `size` bytes of memory type 0 exported as an Android hardware buffer, without a dedicated
/// structure.
fn plain(dev: &Device, size: u64) -> Result<vk::DeviceMemory, vk::Result> {
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(AHB);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(0)
        .push_next(&mut export);
    dev.allocate_with(&info)
}

fn free(dev: &Device, memory: Result<vk::DeviceMemory, vk::Result>) {
    if let Ok(memory) = memory {
        dev.free(memory);
    }
}

#[test]
fn android_exports_of_the_right_size_are_silent() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let image = dev.external_image(vk::ImageUsageFlags::SAMPLED, AHB);
    let buffer = dev.external_buffer(vk::BufferUsageFlags::STORAGE_BUFFER, AHB);
    for memory in [
        dev.allocate_dedicated(0, AHB, image, vk::Buffer::null()),
        dev.allocate_dedicated(SIZE, AHB, vk::Image::null(), buffer),
        plain(&dev, SIZE),
    ] {
        assert!(memory.is_ok(), "{memory:?}");
        expect::silent(&inst, ALLOCATE);
        free(&dev, memory);
    }
    dev.destroy_image(image);
    dev.destroy_buffer(buffer);
}

#[test]
fn a_sized_export_dedicated_to_an_image_is_01874() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let image = dev.external_image(vk::ImageUsageFlags::SAMPLED, AHB);
    let memory = dev.allocate_dedicated(SIZE, AHB, image, vk::Buffer::null());
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_01874);
    expect::mentions(
        &m,
        &[
            &format!("allocationSize is {SIZE}"),
            "dedicated to an image",
            "allocationSize must be 0",
        ],
    );
    free(&dev, memory);
    dev.destroy_image(image);
}

#[test]
fn a_zero_size_export_without_a_dedicated_structure_is_07900() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let memory = plain(&dev, 0);
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_07900);
    expect::mentions(
        &m,
        &[
            "allocationSize is 0",
            "has no VkMemoryDedicatedAllocateInfo",
        ],
    );
    free(&dev, memory);
}

#[test]
fn a_zero_size_export_dedicated_to_a_buffer_is_07901() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let buffer = dev.external_buffer(vk::BufferUsageFlags::STORAGE_BUFFER, AHB);
    let memory = dev.allocate_dedicated(0, AHB, vk::Image::null(), buffer);
    // 0 bytes are less than the buffer needs, too (02965).
    let found = expect::only(
        &inst,
        ALLOCATE,
        &[DEDICATED_BUFFER_02965, ALLOC_PNEXT_07901],
    );
    expect::mentions(
        &found[1],
        &[
            "allocationSize is 0",
            "dedicated to a buffer",
            "greater than 0",
        ],
    );
    free(&dev, memory);
    dev.destroy_buffer(buffer);
}
