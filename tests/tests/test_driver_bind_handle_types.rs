//! An Android hardware buffer import bound to a buffer or image, on the test driver
//! (VK_ANDROID_external_memory_android_hardware_buffer): the resource must have been created with
//! `VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID` in its
//! `VkExternalMemory{Buffer,Image}CreateInfo::handleTypes` (`VUID-vkBindBufferMemory-memory-02986`,
//! `VUID-vkBindImageMemory-memory-02990` and their `VkBind*MemoryInfo` twins). The other
//! bind-time handle-type rules are tested over lavapipe in bind_handle_types.rs.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, Device, Instance, SIZE};
use std::ffi::c_void;

const USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::TRANSFER_SRC;
const SAMPLED: vk::ImageUsageFlags = vk::ImageUsageFlags::SAMPLED;
const AHB: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
const AHB_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID";

/// The test driver's device with Android hardware buffers.
fn android_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ])
}

/// Memory imported from an Android hardware buffer the test driver exported (a
/// `VkImportAndroidHardwareBufferInfoANDROID` with that buffer), and the exporting memory.
fn android_import(dev: &Device) -> (vk::DeviceMemory, vk::DeviceMemory) {
    let exported = dev.allocate(SIZE, Some(AHB));
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID is enabled");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(exported);
    let mut buffer: *mut c_void = std::ptr::null_mut();
    // SAFETY: a live info structure and output pointer.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut buffer) },
        vk::Result::SUCCESS
    );
    let mut import = vk::ImportAndroidHardwareBufferInfoANDROID::default().buffer(buffer.cast());
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import);
    let memory = dev
        .allocate_with(&info)
        .expect("an Android hardware buffer import");
    (memory, exported)
}

#[test]
fn an_android_hardware_buffer_import_bound_without_its_type_is_02986_or_02990() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let imports: Vec<_> = (0..8).map(|_| android_import(&dev)).collect();
    expect::silent(&inst, ALLOCATE);
    let memory = |i: usize| imports[i].0;
    let buffers = [dev.plain_buffer(USAGE), dev.plain_buffer(USAGE)];
    let images = [dev.plain_image(SAMPLED), dev.plain_image(SAMPLED)];
    let good_buffers = [
        dev.external_buffer(USAGE, AHB),
        dev.external_buffer(USAGE, AHB),
    ];
    let good_images = [
        dev.external_image(SAMPLED, AHB),
        dev.external_image(SAMPLED, AHB),
    ];

    assert_eq!(dev.bind_buffer(buffers[0], memory(0)), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_BUFFER, BIND_BUFFER_MEMORY_02986);
    expect::mentions(
        &m,
        &[
            &format!(
                "vkBindBufferMemory(): memory: {}",
                expect::memory_name(memory(0))
            ),
            "was imported from an Android hardware buffer \
             (VkImportAndroidHardwareBufferInfoANDROID with a buffer)",
            "VkExternalMemoryBufferCreateInfo::handleTypes = 0",
            &format!("it must include {AHB_NAME}"),
        ],
    );
    assert_eq!(
        dev.bind_buffers2(&[(buffers[1], memory(1))]),
        vk::Result::SUCCESS
    );
    expect::one(&inst, BIND_BUFFER2, BIND_BUFFER_INFO_02986);
    assert_eq!(dev.bind_image(images[0], memory(2)), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_IMAGE, BIND_IMAGE_MEMORY_02990);
    expect::mentions(&m, &["VkExternalMemoryImageCreateInfo::handleTypes = 0"]);
    assert_eq!(
        dev.bind_images2(&[(images[1], memory(3))]),
        vk::Result::SUCCESS
    );
    expect::one(&inst, BIND_IMAGE2, BIND_IMAGE_INFO_02990);

    // Resources made for Android hardware buffers: silent.
    assert_eq!(
        dev.bind_buffer(good_buffers[0], memory(4)),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_BUFFER);
    assert_eq!(
        dev.bind_buffers2(&[(good_buffers[1], memory(5))]),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_BUFFER2);
    assert_eq!(
        dev.bind_image(good_images[0], memory(6)),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_IMAGE);
    assert_eq!(
        dev.bind_images2(&[(good_images[1], memory(7))]),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_IMAGE2);

    let all_images: Vec<_> = images.iter().chain(&good_images).copied().collect();
    let all_buffers: Vec<_> = buffers.iter().chain(&good_buffers).copied().collect();
    let all_memory: Vec<_> = imports.iter().flat_map(|(m, e)| [*m, *e]).collect();
    for b in all_buffers {
        dev.destroy_buffer(b);
    }
    for i in all_images {
        dev.destroy_image(i);
    }
    for m in all_memory {
        dev.free(m);
    }
}
