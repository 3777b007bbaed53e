//! `VkMemoryDedicatedAllocateInfo` rules the layer checks on any allocation, on the test driver
//! (which creates sparse and disjoint resources without the features lavapipe would need):
//! not both an image and a buffer (01432), no sparse image (01434), no disjoint image (01797),
//! no sparse buffer (01436). Flags are known for every live resource of a device whose buffer and
//! image commands the layer intercepts. And a handle the layer does not know is judged
//! (`-image-parameter`) only while every device of the process shows the layer every image.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, instance, options};
use exportcheck_tests::{expect, Device, Options, FAILED, OPAQUE_FD, SIZE};

/// A 16x16 image for external opaque-fd memory, with `flags`.
fn image(dev: &Device, flags: vk::ImageCreateFlags) -> vk::Image {
    let mut external = vk::ExternalMemoryImageCreateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::ImageCreateInfo::default()
        .flags(flags)
        .image_type(vk::ImageType::TYPE_2D)
        .format(vk::Format::R8G8B8A8_UNORM)
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
    // SAFETY: a valid create info (the test driver takes any flags).
    unsafe { dev.device.create_image(&info, None) }.expect("vkCreateImage")
}

/// A 4 KiB buffer for external opaque-fd memory, with `flags`.
fn buffer(dev: &Device, flags: vk::BufferCreateFlags) -> vk::Buffer {
    let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::BufferCreateInfo::default()
        .flags(flags)
        .size(4096)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC)
        .push_next(&mut external);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_buffer(&info, None) }.expect("vkCreateBuffer")
}

/// A plain (not exported) allocation dedicated to `image` and/or `buffer`.
fn allocate_dedicated(
    dev: &Device,
    image: vk::Image,
    buffer: vk::Buffer,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .image(image)
        .buffer(buffer);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut dedicated);
    dev.allocate_with(&info)
}

#[test]
fn dedicated_to_a_plain_image_or_buffer_is_silent() {
    let inst = instance(None);
    let dev = inst.fd_device();
    let (i, b) = (
        image(&dev, vk::ImageCreateFlags::MUTABLE_FORMAT),
        buffer(&dev, vk::BufferCreateFlags::empty()),
    );
    for (image, buffer) in [(i, vk::Buffer::null()), (vk::Image::null(), b)] {
        let memory = allocate_dedicated(&dev, image, buffer).expect("dedicated allocation");
        expect::silent(&inst, ALLOCATE);
        dev.free(memory);
    }
    dev.destroy_image(i);
    dev.destroy_buffer(b);
}

#[test]
fn both_an_image_and_a_buffer_is_01432() {
    let inst = instance(None);
    let dev = inst.fd_device();
    let (i, b) = (
        image(&dev, vk::ImageCreateFlags::empty()),
        buffer(&dev, vk::BufferCreateFlags::empty()),
    );
    let result = allocate_dedicated(&dev, i, b);
    let m = expect::one(&inst, ALLOCATE, DEDICATED_IMAGE_01432);
    expect::mentions(
        &m,
        &[
            "names both an image",
            "at least one of them must be VK_NULL_HANDLE",
        ],
    );
    if let Ok(memory) = result {
        dev.free(memory);
    }
    dev.destroy_image(i);
    dev.destroy_buffer(b);
}

#[test]
fn sparse_or_disjoint_resources_are_01434_01797_01436() {
    let inst = instance(None);
    let dev = inst.fd_device();
    let sparse_image = image(&dev, vk::ImageCreateFlags::SPARSE_BINDING);
    let disjoint_image = image(&dev, vk::ImageCreateFlags::DISJOINT);
    let sparse_buffer = buffer(&dev, vk::BufferCreateFlags::SPARSE_BINDING);
    for (image, buffer, id, says) in [
        (
            sparse_image,
            vk::Buffer::null(),
            DEDICATED_IMAGE_01434,
            "which was created with VK_IMAGE_CREATE_SPARSE_BINDING_BIT in VkImageCreateInfo::flags",
        ),
        (
            disjoint_image,
            vk::Buffer::null(),
            DEDICATED_IMAGE_01797,
            "which was created with VK_IMAGE_CREATE_DISJOINT_BIT in VkImageCreateInfo::flags",
        ),
        (
            vk::Image::null(),
            sparse_buffer,
            DEDICATED_BUFFER_01436,
            "which was created with VK_BUFFER_CREATE_SPARSE_BINDING_BIT in VkBufferCreateInfo::flags",
        ),
    ] {
        let result = allocate_dedicated(&dev, image, buffer);
        let m = expect::one(&inst, ALLOCATE, id);
        expect::mentions(&m, &[says, "memory cannot be dedicated to it"]);
        if let Ok(memory) = result {
            dev.free(memory);
        }
    }
    dev.destroy_image(sparse_image);
    dev.destroy_image(disjoint_image);
    dev.destroy_buffer(sparse_buffer);
}

#[test]
fn an_unknown_image_is_judged_only_while_every_device_shows_every_image() {
    let inst = exclusive(None);
    let dev = inst.fd_device();
    let gone = image(&dev, vk::ImageCreateFlags::empty());
    dev.destroy_image(gone);
    // A Vulkan 1.0 device without VK_KHR_external_memory: the layer does not intercept its
    // image commands, so a handle it does not know may be one of that device's images.
    let old = inst.another(Options {
        api_version: vk::API_VERSION_1_0,
        ..options(None)
    });
    let blind = old.device(&[]);
    let result = allocate_dedicated(&dev, gone, vk::Buffer::null());
    expect::silent(&inst, ALLOCATE);
    assert!(result.is_ok(), "not judged: the call goes down");
    if let Ok(memory) = result {
        dev.free(memory);
    }
    drop(blind);
    drop(old);
    // Now every device shows the layer every image: the destroyed one is no image.
    let result = allocate_dedicated(&dev, gone, vk::Buffer::null());
    assert_eq!(result, Err(FAILED), "the call must not reach the driver");
    let m = expect::one(&inst, ALLOCATE, DEDICATED_IMAGE_PARAM);
    expect::mentions(&m, &["which is not a live VkImage"]);
}
