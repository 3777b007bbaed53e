//! Imports dedicated to an image or a buffer, on the test driver: an import is as large as the
//! resource it is dedicated to needs (`VUID-VkMemoryDedicatedAllocateInfo-image-02964`,
//! `-buffer-02965`), unless it imports an Android hardware buffer or a QNX Screen buffer, the
//! only memory those rules exclude.
//!
//! Every test holds the binary exclusively: opaque-fd imports are matched to their exports.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, fds, Device, Instance, OPAQUE_FD, SIZE};

const DMA_BUF: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
const FD_TYPES: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(OPAQUE_FD.as_raw() | DMA_BUF.as_raw());

fn fd_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory_fd::NAME,
        ash::ext::external_memory_dma_buf::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ])
}

/// A `side` x `side` image for external memory of `types`.
fn image(dev: &Device, side: u32, types: vk::ExternalMemoryHandleTypeFlags) -> vk::Image {
    let mut external = vk::ExternalMemoryImageCreateInfo::default().handle_types(types);
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
        .usage(vk::ImageUsageFlags::SAMPLED)
        .push_next(&mut external);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_image(&info, None) }.expect("vkCreateImage")
}

/// A buffer of `size` bytes for external memory of `types`.
fn buffer(dev: &Device, size: u64, types: vk::ExternalMemoryHandleTypeFlags) -> vk::Buffer {
    let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(types);
    let info = vk::BufferCreateInfo::default()
        .size(size)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC)
        .push_next(&mut external);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_buffer(&info, None) }.expect("vkCreateBuffer")
}

/// [`SIZE`] bytes of memory type 0, exportable as an opaque fd and a dma-buf, dedicated to
/// `image` or `buffer`.
fn exported(dev: &Device, image: vk::Image, buffer: vk::Buffer) -> vk::DeviceMemory {
    dev.allocate_dedicated(SIZE, FD_TYPES, image, buffer)
        .expect("dedicated exportable allocation")
}

/// Imports an fd of `memory` exported as `handle_type` as [`SIZE`] bytes of memory type 0
/// dedicated to `image` or `buffer`; frees what the driver made, else closes the fd.
fn import(
    dev: &Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    (image, buffer): (vk::Image, vk::Buffer),
) {
    let (r, fd) = dev.get_fd(memory, handle_type);
    assert_eq!(r, vk::Result::SUCCESS);
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(handle_type)
        .fd(fd);
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .image(image)
        .buffer(buffer);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import)
        .push_next(&mut dedicated);
    match dev.allocate_with(&info) {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }
}

fn requirement_image(dev: &Device, image: vk::Image) -> u64 {
    // SAFETY: a live image of the device.
    unsafe { dev.device.get_image_memory_requirements(image) }.size
}

fn requirement_buffer(dev: &Device, buffer: vk::Buffer) -> u64 {
    // SAFETY: a live buffer of the device.
    unsafe { dev.device.get_buffer_memory_requirements(buffer) }.size
}

#[test]
fn an_fd_import_smaller_than_its_dedicated_resource_is_02964_or_02965() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let (small_image, big_image) = (image(&dev, 16, FD_TYPES), image(&dev, 256, FD_TYPES));
    let (small_buffer, big_buffer) = (
        buffer(&dev, 4096, FD_TYPES),
        buffer(&dev, 1 << 20, FD_TYPES),
    );
    let big_image_needs = requirement_image(&dev, big_image);
    let big_buffer_needs = requirement_buffer(&dev, big_buffer);
    assert!(big_image_needs > SIZE && big_buffer_needs > SIZE);
    let of_image = exported(&dev, small_image, vk::Buffer::null());
    let of_buffer = exported(&dev, vk::Image::null(), small_buffer);
    expect::silent(&inst, ALLOCATE);
    for handle_type in [OPAQUE_FD, DMA_BUF] {
        for (memory, to, id, what, needed) in [
            (
                of_image,
                (big_image, vk::Buffer::null()),
                DEDICATED_IMAGE_02964,
                "image",
                big_image_needs,
            ),
            (
                of_buffer,
                (vk::Image::null(), big_buffer),
                DEDICATED_BUFFER_02965,
                "buffer",
                big_buffer_needs,
            ),
        ] {
            import(&dev, memory, handle_type, to);
            let m = expect::one(&inst, ALLOCATE, id);
            expect::mentions(
                &m,
                &[
                    &format!("allocationSize is {SIZE}, less than the VkMemoryRequirements::size"),
                    &format!("VkMemoryDedicatedAllocateInfo>.{what}"),
                    &format!("), {needed};"),
                ],
            );
        }
    }
    // Dedicated to resources the size covers: silent.
    for handle_type in [OPAQUE_FD, DMA_BUF] {
        import(
            &dev,
            of_image,
            handle_type,
            (small_image, vk::Buffer::null()),
        );
        import(
            &dev,
            of_buffer,
            handle_type,
            (vk::Image::null(), small_buffer),
        );
        expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    }
    dev.free(of_image);
    dev.free(of_buffer);
    dev.destroy_image(small_image);
    dev.destroy_image(big_image);
    dev.destroy_buffer(small_buffer);
    dev.destroy_buffer(big_buffer);
}

const AHB: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
const QNX: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::SCREEN_BUFFER_QNX;

/// The default extensions and VK_QNX_external_memory_screen_buffer.
const WITH_QNX: &str = r#"{"device_extensions": [
    "VK_KHR_external_memory", "VK_KHR_external_memory_fd", "VK_EXT_external_memory_dma_buf",
    "VK_ANDROID_external_memory_android_hardware_buffer", "VK_QNX_external_memory_screen_buffer",
    "VK_KHR_dedicated_allocation", "VK_KHR_get_memory_requirements2", "VK_KHR_bind_memory2"]}"#;

#[test]
fn an_android_or_qnx_import_is_not_held_to_its_dedicated_resource_s_size() {
    let inst = exclusive(Some(WITH_QNX));
    let dev = inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::qnx::external_memory_screen_buffer::NAME,
        ash::khr::external_memory::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ]);
    let big = buffer(&dev, 1 << 20, AHB | QNX);
    // An Android hardware buffer the driver exported, of SIZE bytes.
    let exported = dev.allocate(SIZE, Some(AHB));
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID is enabled");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(exported);
    let mut ahb = std::ptr::null_mut();
    // SAFETY: a live info structure and output pointer.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut ahb) },
        vk::Result::SUCCESS
    );
    let mut android = vk::ImportAndroidHardwareBufferInfoANDROID::default().buffer(ahb.cast());
    // A made-up screen buffer: the test driver does not read it.
    let mut screen = vk::ImportScreenBufferInfoQNX {
        buffer: 0x5c_0000 as *mut _,
        ..Default::default()
    };
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(big);
    for qnx in [false, true] {
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(SIZE)
            .memory_type_index(0)
            .push_next(&mut dedicated);
        let info = if qnx {
            info.push_next(&mut screen)
        } else {
            info.push_next(&mut android)
        };
        if let Ok(memory) = dev.allocate_with(&info) {
            dev.free(memory);
        }
        expect::silent(&inst, ALLOCATE);
    }
    // The same without the import structure: 02965 (the negative).
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut dedicated);
    if let Ok(memory) = dev.allocate_with(&info) {
        dev.free(memory);
    }
    expect::one(&inst, ALLOCATE, DEDICATED_BUFFER_02965);
    dev.free(exported);
    dev.destroy_buffer(big);
}
