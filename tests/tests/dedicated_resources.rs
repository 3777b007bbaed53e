//! The image or buffer a `VkMemoryDedicatedAllocateInfo` names, on lavapipe: a live one of the
//! device (`-image-parameter`, `-buffer-parameter`: judged where the layer sees every resource
//! made and destroyed on every device it knows; `-commonparent`: a live one of another device),
//! and an allocation at least as large as its memory requirements (`-image-02964`,
//! `-buffer-02965`: the layer asks the driver once per resource).
//!
//! Every test takes the process to itself (`Instance::exclusive`): whether a handle the layer
//! does not know is judged depends on every device of the process.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::layer_stats::tracked_counts;
use exportcheck_tests::{expect, Device, Instance, FAILED};

/// A plain (no external memory) 2D `R8G8B8A8_UNORM` image of `side` x `side`.
fn image(dev: &Device, side: u32) -> vk::Image {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(vk::Format::R8G8B8A8_UNORM)
        .extent(vk::Extent3D {
            width: side,
            height: side,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_image(&info, None) }.expect("vkCreateImage")
}

/// A plain buffer of `size` bytes.
fn buffer(dev: &Device, size: u64) -> vk::Buffer {
    let info = vk::BufferCreateInfo::default()
        .size(size)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_buffer(&info, None) }.expect("vkCreateBuffer")
}

fn image_size(dev: &Device, image: vk::Image) -> u64 {
    // SAFETY: a live image of the device.
    unsafe { dev.device.get_image_memory_requirements(image) }.size
}

fn buffer_size(dev: &Device, buffer: vk::Buffer) -> u64 {
    // SAFETY: a live buffer of the device.
    unsafe { dev.device.get_buffer_memory_requirements(buffer) }.size
}

/// A plain allocation of `size` bytes of memory type 0 dedicated to `image` or `buffer`.
fn allocate_dedicated(
    dev: &Device,
    size: u64,
    image: vk::Image,
    buffer: vk::Buffer,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .image(image)
        .buffer(buffer);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(0)
        .push_next(&mut dedicated);
    dev.allocate_with(&info)
}

#[test]
fn live_resources_of_the_device_large_enough_are_silent() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let before = tracked_counts().resources;
    let (i, b) = (image(&dev, 64), buffer(&dev, 100_000));
    assert_eq!(
        tracked_counts().resources,
        before + 2,
        "every image and buffer is live"
    );
    let (isize, bsize) = (image_size(&dev, i), buffer_size(&dev, b));
    for (size, image, buffer) in [
        (isize, i, vk::Buffer::null()),
        (isize + 4096, i, vk::Buffer::null()),
        (bsize, vk::Image::null(), b),
    ] {
        let memory = allocate_dedicated(&dev, size, image, buffer).expect("dedicated allocation");
        expect::silent(&inst, ALLOCATE);
        dev.free(memory);
    }
    dev.destroy_image(i);
    dev.destroy_buffer(b);
    assert_eq!(tracked_counts().resources, before, "destroyed: forgotten");
}

#[test]
fn a_destroyed_image_or_buffer_is_parameter_and_not_passed_down() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (i, b) = (image(&dev, 16), buffer(&dev, 4096));
    dev.destroy_image(i);
    dev.destroy_buffer(b);
    for (image, buffer, id, says) in [
        (
            i,
            vk::Buffer::null(),
            DEDICATED_IMAGE_PARAM,
            "which is not a live VkImage",
        ),
        (
            vk::Image::null(),
            b,
            DEDICATED_BUFFER_PARAM,
            "which is not a live VkBuffer",
        ),
    ] {
        let result = allocate_dedicated(&dev, 65536, image, buffer);
        assert_eq!(result, Err(FAILED), "the call must not reach the driver");
        let m = expect::one(&inst, ALLOCATE, id);
        expect::mentions(
            &m,
            &[
                says,
                "or it was destroyed",
                "The call was not passed to the driver.",
            ],
        );
    }
}

#[test]
fn an_image_or_buffer_of_another_device_is_commonparent() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let other = inst.fd_device();
    let (i, b) = (image(&other, 16), buffer(&other, 4096));
    let owner = expect::device_name(&other);
    for (image, buffer) in [(i, vk::Buffer::null()), (vk::Image::null(), b)] {
        let result = allocate_dedicated(&dev, 65536, image, buffer);
        assert_eq!(result, Err(FAILED), "the call must not reach the driver");
        let m = expect::one(&inst, ALLOCATE, DEDICATED_COMMONPARENT);
        expect::mentions(
            &m,
            &[
                &format!("of {owner}, not of {}", expect::device_name(&dev)),
                "must come from the same VkDevice",
            ],
        );
    }
    // Each is a live resource of its own device.
    let memory = allocate_dedicated(&other, image_size(&other, i), i, vk::Buffer::null())
        .expect("dedicated allocation");
    expect::silent(&inst, ALLOCATE);
    other.free(memory);
    other.destroy_image(i);
    other.destroy_buffer(b);
}

#[test]
fn an_allocation_smaller_than_the_resource_needs_is_02964_or_02965() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (i, b) = (image(&dev, 256), buffer(&dev, 1 << 20));
    let (isize, bsize) = (image_size(&dev, i), buffer_size(&dev, b));
    for (size, image, buffer, id, what) in [
        (
            isize - 1,
            i,
            vk::Buffer::null(),
            DEDICATED_IMAGE_02964,
            "image",
        ),
        (4096, vk::Image::null(), b, DEDICATED_BUFFER_02965, "buffer"),
    ] {
        let result = allocate_dedicated(&dev, size, image, buffer);
        let m = expect::one(&inst, ALLOCATE, id);
        let needed = if what == "image" { isize } else { bsize };
        expect::mentions(
            &m,
            &[
                &format!("allocationSize is {size}, less than the VkMemoryRequirements::size"),
                &format!("VkMemoryDedicatedAllocateInfo>.{what}"),
                &format!("), {needed};"),
            ],
        );
        // Reported, not blocked: the handle is good.
        if let Ok(memory) = result {
            dev.free(memory);
        }
    }
    dev.destroy_image(i);
    dev.destroy_buffer(b);
}
