//! Exported memory against the buffer or image it is for, on the test driver, whose answers are
//! configured per resource: `VUID-VkExportMemoryAllocateInfo-handleTypes-09860` (the handle types
//! must be exportable and compatible for that resource) and `VUID-VkMemoryAllocateInfo-pNext-00639`
//! (a `DEDICATED_ONLY` type needs a dedicated allocation). A dedicated export is judged at
//! `vkAllocateMemory` against the image's or buffer's own create info; other exported memory when
//! it is bound (`vkBind{Buffer,Image}Memory` and their `2` variants). Each bad call with the exact
//! IDs it breaks, each good one silent.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, instance, Calls};
use exportcheck_tests::{expect, Device, Instance, DMA_BUF, OPAQUE_FD, SIZE};

/// OPAQUE_FD exportable for images only: buffers report no features.
const IMAGES_ONLY: &str = r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE", "IMPORTABLE"], "buffers": {"features": []}}}}"#;
/// OPAQUE_FD exportable for buffers, except with STORAGE_BUFFER usage.
const NOT_FOR_STORAGE: &str = r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE", "IMPORTABLE"], "buffer_usage_not_exportable": ["STORAGE_BUFFER"]}}}"#;
/// OPAQUE_FD needs a dedicated allocation for images (not for buffers).
const DEDICATED_IMAGES: &str = r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE", "IMPORTABLE"], "images": {"features": ["DEDICATED_ONLY", "EXPORTABLE", "IMPORTABLE"]}}}}"#;
/// OPAQUE_FD supported for buffers only: the image query fails for it.
const BUFFERS_ONLY: &str = r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE", "IMPORTABLE"], "images": {"features": []}}}}"#;
/// OPAQUE_FD compatible only with itself (DMA_BUF with both).
const FD_ALONE: &str = r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE", "IMPORTABLE"], "compatible": ["OPAQUE_FD"]}, "DMA_BUF_EXT": {"features": ["EXPORTABLE", "IMPORTABLE"], "compatible": ["OPAQUE_FD", "DMA_BUF_EXT"]}}}"#;

const TRANSFER: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw() | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);
const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;
const SAMPLED: vk::ImageUsageFlags = vk::ImageUsageFlags::SAMPLED;

fn device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::khr::external_memory_fd::NAME,
        ash::ext::external_memory_dma_buf::NAME,
    ])
}

#[test]
fn a_type_exportable_for_images_only_is_silent_for_an_image_and_09860_for_a_buffer() {
    let inst = instance(Some(IMAGES_ONLY));
    let dev = device(&inst);
    // The false error of old: a dedicated image export the driver supports.
    let image = dev.external_image(SAMPLED, OPAQUE_FD);
    let dedicated = dev
        .allocate_dedicated(SIZE, OPAQUE_FD, image, vk::Buffer::null())
        .expect("vkAllocateMemory");
    assert_eq!(dev.bind_image(image, dedicated), vk::Result::SUCCESS);
    // Memory bound to an image, not dedicated: silent too.
    let other_image = dev.external_image(SAMPLED, OPAQUE_FD);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_image(other_image, memory), vk::Result::SUCCESS);
    expect::silent_for(&inst, &[ALLOCATE, BIND_IMAGE]);

    // The same type bound to a buffer: the driver cannot export it for buffers.
    let buffer = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let for_buffer = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(
        dev.bind_buffer(buffer, for_buffer),
        vk::Result::SUCCESS,
        "reported, then passed down"
    );
    let m = expect::one(&inst, BIND_BUFFER, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(
        &m,
        &[
            "vkBindBufferMemory(): memory: VkDeviceMemory",
            "is exported as VkExportMemoryAllocateInfo::handleTypes = \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, but for VkBuffer",
            "usage TRANSFER_SRC | TRANSFER_DST",
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT is not exportable for it \
             (externalMemoryFeatures = 0)",
            "as vkGetPhysicalDeviceExternalBufferProperties reports",
        ],
    );
    expect::object(&m, vk::ObjectType::BUFFER, buffer.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, for_buffer.as_raw());

    // A dedicated buffer allocation is judged at vkAllocateMemory.
    let dedicated_buffer = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let memory_b = dev
        .allocate_dedicated(SIZE, OPAQUE_FD, vk::Image::null(), dedicated_buffer)
        .expect("reported, then passed down");
    let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(
        &m,
        &[
            "vkAllocateMemory(): pAllocateInfo: the allocation (allocationSize 65536, \
             memoryTypeIndex 0, dedicated to the buffer of VkMemoryDedicatedAllocateInfo)",
            "is not exportable for it",
        ],
    );
    // Bound to it afterwards: already judged, not said again.
    assert_eq!(
        dev.bind_buffer(dedicated_buffer, memory_b),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_BUFFER);
    for b in [buffer, dedicated_buffer] {
        dev.destroy_buffer(b);
    }
    for i in [image, other_image] {
        dev.destroy_image(i);
    }
    for m in [dedicated, memory, for_buffer, memory_b] {
        dev.free(m);
    }
}

#[test]
fn a_usage_the_driver_cannot_export_is_09860_and_others_are_silent() {
    let inst = instance(Some(NOT_FOR_STORAGE));
    let dev = device(&inst);
    let transfer = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let storage = dev.external_buffer(STORAGE, OPAQUE_FD);
    let a = dev.allocate(SIZE, Some(OPAQUE_FD));
    let b = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_buffer(transfer, a), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER);
    assert_eq!(dev.bind_buffers2(&[(storage, b)]), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_BUFFER2, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(
        &m,
        &[
            "vkBindBufferMemory2(): pBindInfos[0].memory: VkDeviceMemory",
            "usage STORAGE_BUFFER",
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT is not exportable for it \
             (externalMemoryFeatures = IMPORTABLE)",
        ],
    );
    // Several bindings in one call: only the bad one is reported, under its own index.
    let storage_2 = dev.external_buffer(STORAGE, OPAQUE_FD);
    let transfer_2 = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let c = dev.allocate(SIZE, Some(OPAQUE_FD));
    let d = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(
        dev.bind_buffers2(&[(transfer_2, c), (storage_2, d)]),
        vk::Result::SUCCESS
    );
    let m = expect::one(&inst, BIND_BUFFER2, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(&m, &["pBindInfos[1].memory"]);
    for buffer in [transfer, storage, storage_2, transfer_2] {
        dev.destroy_buffer(buffer);
    }
    for memory in [a, b, c, d] {
        dev.free(memory);
    }
}

#[test]
fn the_drivers_answers_are_asked_once_per_kind_of_resource() {
    // Exclusive: the driver's call counts are process-wide.
    let inst = exclusive(Some(NOT_FOR_STORAGE));
    let dev = device(&inst);
    let mut asked = Calls::of(c"vkGetPhysicalDeviceExternalBufferProperties");
    let mut kept = Vec::new();
    for _ in 0..4 {
        let buffer = dev.external_buffer(TRANSFER, OPAQUE_FD);
        let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
        assert_eq!(dev.bind_buffer(buffer, memory), vk::Result::SUCCESS);
        kept.push((buffer, memory));
    }
    asked.assert(1, "four buffers alike: one query of OPAQUE_FD for them");
    let buffer = dev.external_buffer(STORAGE, OPAQUE_FD);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_buffer(buffer, memory), vk::Result::SUCCESS);
    asked.assert(1, "another usage: one more query");
    expect::one(&inst, BIND_BUFFER, EXPORT_HANDLE_TYPES_09860);
    kept.push((buffer, memory));
    for (buffer, memory) in kept {
        dev.destroy_buffer(buffer);
        dev.free(memory);
    }
}

#[test]
fn dedicated_only_for_images_is_00639_without_a_dedicated_allocation() {
    let inst = instance(Some(DEDICATED_IMAGES));
    let dev = device(&inst);
    let image = dev.external_image(SAMPLED, OPAQUE_FD);
    let shared = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_images2(&[(image, shared)]), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_IMAGE2, ALLOC_PNEXT_00639);
    expect::mentions(
        &m,
        &[
            "vkBindImageMemory2(): pBindInfos[0].memory: VkDeviceMemory",
            "was not allocated with a VkMemoryDedicatedAllocateInfo naming a buffer or image, but \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT of its \
             VkExportMemoryAllocateInfo::handleTypes requires a dedicated allocation for VkImage",
            "format R8G8B8A8_UNORM",
            "as vkGetPhysicalDeviceImageFormatProperties2 reports",
        ],
    );
    expect::object(&m, vk::ObjectType::IMAGE, image.as_raw());
    // Dedicated: silent. Buffers need no dedicated allocation here: silent too.
    let image_2 = dev.external_image(SAMPLED, OPAQUE_FD);
    let dedicated = dev
        .allocate_dedicated(SIZE, OPAQUE_FD, image_2, vk::Buffer::null())
        .expect("vkAllocateMemory");
    assert_eq!(dev.bind_image(image_2, dedicated), vk::Result::SUCCESS);
    let buffer = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let for_buffer = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_buffer(buffer, for_buffer), vk::Result::SUCCESS);
    expect::silent_for(&inst, &[ALLOCATE, BIND_IMAGE, BIND_BUFFER]);
    dev.destroy_image(image);
    dev.destroy_image(image_2);
    dev.destroy_buffer(buffer);
    for memory in [shared, dedicated, for_buffer] {
        dev.free(memory);
    }
}

#[test]
fn an_image_query_the_driver_refuses_is_09860() {
    let inst = instance(Some(BUFFERS_ONLY));
    let dev = device(&inst);
    let image = dev.external_image(SAMPLED, OPAQUE_FD);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_image(image, memory), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_IMAGE, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(
        &m,
        &[
            "vkGetPhysicalDeviceImageFormatProperties2 returned ERROR_FORMAT_NOT_SUPPORTED for \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT with its create info",
        ],
    );
    dev.destroy_image(image);
    dev.free(memory);
}

#[test]
fn types_incompatible_for_the_resource_are_09860() {
    let inst = instance(Some(FD_ALONE));
    let dev = device(&inst);
    let both = OPAQUE_FD | DMA_BUF;
    let buffer = dev.external_buffer(TRANSFER, both);
    let memory = dev.allocate(SIZE, Some(both));
    assert_eq!(dev.bind_buffer(buffer, memory), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_BUFFER, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(
        &m,
        &[
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT is compatible only with \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    // Exported as one of them: silent.
    let buffer_fd = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let memory_fd = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_buffer(buffer_fd, memory_fd), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER);
    dev.destroy_buffer(buffer);
    dev.destroy_buffer(buffer_fd);
    dev.free(memory);
    dev.free(memory_fd);
}

#[test]
fn a_callback_returning_true_skips_the_bind() {
    let inst = exclusive(Some(IMAGES_ONLY));
    let dev = device(&inst);
    let buffer = dev.external_buffer(TRANSFER, OPAQUE_FD);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    // Exclusive (above): the driver's call counts are process-wide.
    let mut binds = Calls::of(c"vkBindBufferMemory");
    inst.answer(true);
    assert_eq!(
        dev.bind_buffer(buffer, memory),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    inst.answer(false);
    binds.assert(0, "the app's callback asked to skip it");
    expect::one(&inst, BIND_BUFFER, EXPORT_HANDLE_TYPES_09860);
    dev.destroy_buffer(buffer);
    dev.free(memory);
}
