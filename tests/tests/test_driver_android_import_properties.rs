//! An Android hardware buffer import against the driver's answer for the buffer, on the test
//! driver (VK_ANDROID_external_memory_android_hardware_buffer): the layer asks
//! `vkGetAndroidHardwareBufferPropertiesANDROID` itself; the test driver gives a buffer it
//! exported its allocation's size, its memory type alone, and the format R8G8B8A8_UNORM.
//! `allocationSize` must be the buffer's (02383), `memoryTypeIndex` one of its types (02385), a
//! dedicated image's format UNDEFINED or the buffer's (02387).

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, SIZE};
use std::ffi::c_void;

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

/// Memory of type 0 and [`SIZE`] bytes exported as an Android hardware buffer, and the buffer.
fn exported_buffer(dev: &Device) -> (vk::DeviceMemory, *mut c_void) {
    let memory = dev.allocate(SIZE, Some(AHB));
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID is enabled");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
    let mut buffer = std::ptr::null_mut();
    // SAFETY: a live info structure and output pointer.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut buffer) },
        vk::Result::SUCCESS
    );
    (memory, buffer)
}

/// An import of `buffer` of `size` bytes of `memory_type`, dedicated to `image` when not null.
fn import(
    dev: &Device,
    buffer: *mut c_void,
    (size, memory_type): (u64, u32),
    image: vk::Image,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut android = vk::ImportAndroidHardwareBufferInfoANDROID::default().buffer(buffer.cast());
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(memory_type)
        .push_next(&mut android);
    if !image.is_null() {
        info = info.push_next(&mut dedicated);
    }
    dev.allocate_with(&info)
}

/// A 16x16 image of `format` made for Android hardware buffer memory.
fn image(dev: &Device, format: vk::Format) -> vk::Image {
    let mut external = vk::ExternalMemoryImageCreateInfo::default().handle_types(AHB);
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D {
            width: 16,
            height: 16,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED)
        .push_next(&mut external);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_image(&info, None) }.expect("vkCreateImage")
}

fn free(dev: &Device, memory: Result<vk::DeviceMemory, vk::Result>) {
    if let Ok(memory) = memory {
        dev.free(memory);
    }
}

#[test]
fn an_import_as_the_buffer_says_is_silent_and_asks_the_driver() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let (exported, buffer) = exported_buffer(&dev);
    let rgba = image(&dev, vk::Format::R8G8B8A8_UNORM);
    let mut asked = Calls::of(c"vkGetAndroidHardwareBufferPropertiesANDROID");
    let memory = import(&dev, buffer, (SIZE, 0), vk::Image::null());
    assert!(memory.is_ok(), "{memory:?}");
    expect::silent(&inst, ALLOCATE);
    asked.assert(1, "the layer asks for the buffer's size and memory types");
    free(&dev, memory);
    let memory = import(&dev, buffer, (SIZE, 0), rgba);
    assert!(memory.is_ok(), "{memory:?}");
    expect::silent(&inst, ALLOCATE);
    asked.assert(
        2,
        "and, for a dedicated image with a format, the buffer's format",
    );
    free(&dev, memory);
    dev.destroy_image(rgba);
    dev.free(exported);
}

#[test]
fn another_size_is_02383_another_memory_type_02385() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let (exported, buffer) = exported_buffer(&dev);
    let memory = import(&dev, buffer, (2 * SIZE, 0), vk::Image::null());
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_02383);
    expect::mentions(
        &m,
        &[
            &format!("allocationSize is {}", 2 * SIZE),
            &format!(
                "gives the AHardwareBuffer {:#x} (pAllocateInfo->pNext<VkImportAndroidHardwareBufferInfoANDROID>.buffer) an allocationSize of {SIZE}",
                buffer as usize
            ),
        ],
    );
    free(&dev, memory);
    let memory = import(&dev, buffer, (SIZE, 1), vk::Image::null());
    let m = expect::one(&inst, ALLOCATE, ALLOC_TYPE_INDEX_02385);
    expect::mentions(
        &m,
        &[
            "memoryTypeIndex is 1",
            "the memoryTypeBits 0x1, which do not include it",
        ],
    );
    free(&dev, memory);
    dev.free(exported);
}

#[test]
fn a_dedicated_image_of_another_format_is_02387() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let (exported, buffer) = exported_buffer(&dev);
    let r8 = image(&dev, vk::Format::R8_UNORM);
    let memory = import(&dev, buffer, (SIZE, 0), r8);
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_02387);
    expect::mentions(
        &m,
        &[
            &format!(
                "image is VkImage {:#x}, created with format R8_UNORM",
                r8.as_raw()
            ),
            "the format R8G8B8A8_UNORM",
            "must be VK_FORMAT_UNDEFINED or the buffer's",
        ],
    );
    expect::object(&m, vk::ObjectType::IMAGE, r8.as_raw());
    free(&dev, memory);
    dev.destroy_image(r8);
    dev.free(exported);
}
