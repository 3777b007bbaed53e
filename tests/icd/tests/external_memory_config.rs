//! End to end through the real Vulkan loader, with no layer: the `external_memory`
//! configuration as applications see it — `vkGetPhysicalDeviceExternalBufferProperties` and the
//! `VkExternalImageFormatProperties` of `vkGetPhysicalDeviceImageFormatProperties2`, per kind of
//! resource and per usage, and `DEDICATED_ONLY` turned into dedicated memory requirements.

#![warn(clippy::undocumented_unsafe_blocks)]

mod common;

use ash::vk;
use common::*;

const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
const EXPORTABLE: vk::ExternalMemoryFeatureFlags = vk::ExternalMemoryFeatureFlags::EXPORTABLE;
const IMPORTABLE: vk::ExternalMemoryFeatureFlags = vk::ExternalMemoryFeatureFlags::IMPORTABLE;
const DEDICATED_ONLY: vk::ExternalMemoryFeatureFlags =
    vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY;
const TRANSFER: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw() | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);
const SAMPLED: vk::ImageUsageFlags = vk::ImageUsageFlags::SAMPLED;

/// OPAQUE_FD exportable and importable for images, not usable for buffers.
const IMAGES_ONLY: &str = r#"{"external_memory": {"OPAQUE_FD": {
    "features": ["EXPORTABLE", "IMPORTABLE"], "buffers": {"features": []}}}}"#;
/// OPAQUE_FD exportable for buffers, except buffers with STORAGE_BUFFER usage.
const NOT_FOR_STORAGE_BUFFERS: &str = r#"{"external_memory": {"OPAQUE_FD": {
    "features": ["EXPORTABLE", "IMPORTABLE"], "buffer_usage_not_exportable": ["STORAGE_BUFFER"]}}}"#;
/// OPAQUE_FD memory of images must be a dedicated allocation (buffers: not).
const DEDICATED_IMAGES: &str = r#"{"external_memory": {"OPAQUE_FD": {
    "features": ["EXPORTABLE", "IMPORTABLE"],
    "images": {"features": ["DEDICATED_ONLY", "EXPORTABLE", "IMPORTABLE"]}}}}"#;

fn buffer_properties(
    instance: &ash::Instance,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    usage: vk::BufferUsageFlags,
) -> vk::ExternalMemoryProperties {
    let info = vk::PhysicalDeviceExternalBufferInfo::default()
        .usage(usage)
        .handle_type(handle_type);
    let mut props = vk::ExternalBufferProperties::default();
    // SAFETY: valid physical device, input and output.
    unsafe {
        instance.get_physical_device_external_buffer_properties(
            physical_device(instance),
            &info,
            &mut props,
        )
    };
    props.external_memory_properties
}

/// `vkGetPhysicalDeviceImageFormatProperties2` for a 2D RGBA8 image of `usage`, with
/// `VkPhysicalDeviceExternalImageFormatInfo { handle_type }` chained. The output's
/// `VkExternalImageFormatProperties` starts as garbage, to see that the driver writes it.
fn image_properties(
    instance: &ash::Instance,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
) -> Result<(vk::ImageFormatProperties, vk::ExternalMemoryProperties), vk::Result> {
    let mut external_info =
        vk::PhysicalDeviceExternalImageFormatInfo::default().handle_type(handle_type);
    let info = vk::PhysicalDeviceImageFormatInfo2::default()
        .format(vk::Format::R8G8B8A8_UNORM)
        .ty(vk::ImageType::TYPE_2D)
        .tiling(tiling)
        .usage(usage)
        .push_next(&mut external_info);
    let mut external = vk::ExternalImageFormatProperties::default();
    external.external_memory_properties.external_memory_features =
        vk::ExternalMemoryFeatureFlags::from_raw(0x7);
    let mut props = vk::ImageFormatProperties2::default().push_next(&mut external);
    props.image_format_properties.max_mip_levels = 99;
    // SAFETY: valid physical device, input chain and output chain.
    let r = unsafe {
        instance.get_physical_device_image_format_properties2(
            physical_device(instance),
            &info,
            &mut props,
        )
    };
    let limits = props.image_format_properties;
    match r {
        Ok(()) => Ok((limits, external.external_memory_properties)),
        Err(e) => {
            let zeroed = (
                limits.max_extent.width,
                limits.max_mip_levels,
                limits.max_array_layers,
                limits.sample_counts,
                limits.max_resource_size,
            );
            assert_eq!(
                zeroed,
                (0, 0, 0, vk::SampleCountFlags::empty(), 0),
                "zeroed on failure"
            );
            Err(e)
        }
    }
}

#[test]
fn by_default_images_and_buffers_report_the_same_support() {
    let instance = create_instance(Some("{}")).expect("instance");
    let buffer = buffer_properties(&instance, OPAQUE_FD, TRANSFER);
    let (limits, image) =
        image_properties(&instance, OPAQUE_FD, vk::ImageTiling::OPTIMAL, SAMPLED).expect("image");
    assert_eq!(buffer.external_memory_features, EXPORTABLE | IMPORTABLE);
    assert_eq!(image.external_memory_features, EXPORTABLE | IMPORTABLE);
    assert_eq!(
        image.compatible_handle_types,
        buffer.compatible_handle_types
    );
    assert!(image
        .compatible_handle_types
        .contains(OPAQUE_FD | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT));
    assert_eq!(limits.max_mip_levels, 15);

    // RDMA is export-only by default, for images too.
    let rdma = vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV;
    let (_, image) = image_properties(&instance, rdma, vk::ImageTiling::LINEAR, SAMPLED).unwrap();
    assert_eq!(image.external_memory_features, EXPORTABLE);
    destroy_instance(&instance);
}

#[test]
fn unsupported_handle_types_are_not_supported_for_images() {
    let instance = create_instance(Some("{}")).expect("instance");
    // No entry for D3D12_HEAP: buffers report zeros, images VK_ERROR_FORMAT_NOT_SUPPORTED.
    let win32 = vk::ExternalMemoryHandleTypeFlags::D3D12_HEAP;
    assert_eq!(
        buffer_properties(&instance, win32, TRANSFER).external_memory_features,
        vk::ExternalMemoryFeatureFlags::empty()
    );
    let r = image_properties(&instance, win32, vk::ImageTiling::OPTIMAL, SAMPLED);
    assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    // Two bits at once are no handle type either.
    let two = OPAQUE_FD | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
    let r = image_properties(&instance, two, vk::ImageTiling::OPTIMAL, SAMPLED);
    assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    // Handle type 0: as if the structure were absent; the external properties are zeros.
    let (limits, external) = image_properties(
        &instance,
        vk::ExternalMemoryHandleTypeFlags::empty(),
        vk::ImageTiling::OPTIMAL,
        SAMPLED,
    )
    .expect("handle type 0");
    assert_eq!(limits.max_mip_levels, 15);
    assert_eq!(
        (
            external.external_memory_features,
            external.compatible_handle_types,
            external.export_from_imported_handle_types
        ),
        Default::default()
    );
    destroy_instance(&instance);
}

#[test]
fn a_handle_type_can_be_exportable_for_images_only() {
    let instance = create_instance(Some(IMAGES_ONLY)).expect("instance");
    let buffer = buffer_properties(&instance, OPAQUE_FD, TRANSFER);
    assert_eq!(
        buffer.external_memory_features,
        vk::ExternalMemoryFeatureFlags::empty()
    );
    for tiling in [vk::ImageTiling::OPTIMAL, vk::ImageTiling::LINEAR] {
        let (_, image) = image_properties(&instance, OPAQUE_FD, tiling, SAMPLED).expect("image");
        assert_eq!(image.external_memory_features, EXPORTABLE | IMPORTABLE);
        assert_eq!(image.compatible_handle_types, OPAQUE_FD);
        assert_eq!(image.export_from_imported_handle_types, OPAQUE_FD);
    }
    destroy_instance(&instance);

    // And the other way round: not usable for images.
    let buffers_only = r#"{"external_memory": {"OPAQUE_FD": {
        "features": ["EXPORTABLE"], "images": {"features": []}}}}"#;
    let instance = create_instance(Some(buffers_only)).expect("instance");
    let buffer = buffer_properties(&instance, OPAQUE_FD, TRANSFER);
    assert_eq!(buffer.external_memory_features, EXPORTABLE);
    let r = image_properties(&instance, OPAQUE_FD, vk::ImageTiling::OPTIMAL, SAMPLED);
    assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    destroy_instance(&instance);
}

#[test]
fn buffer_usage_can_make_a_handle_type_not_exportable() {
    let instance = create_instance(Some(NOT_FOR_STORAGE_BUFFERS)).expect("instance");
    let transfer = buffer_properties(&instance, OPAQUE_FD, TRANSFER);
    assert_eq!(transfer.external_memory_features, EXPORTABLE | IMPORTABLE);
    let storage = TRANSFER | vk::BufferUsageFlags::STORAGE_BUFFER;
    let storage = buffer_properties(&instance, OPAQUE_FD, storage);
    assert_eq!(storage.external_memory_features, IMPORTABLE);
    assert_eq!(storage.compatible_handle_types, OPAQUE_FD);
    // Images are not concerned.
    let usage = SAMPLED | vk::ImageUsageFlags::STORAGE;
    let (_, image) =
        image_properties(&instance, OPAQUE_FD, vk::ImageTiling::OPTIMAL, usage).expect("image");
    assert_eq!(image.external_memory_features, EXPORTABLE | IMPORTABLE);
    destroy_instance(&instance);
}

#[test]
fn image_usage_can_make_a_handle_type_not_exportable() {
    let config = r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE"],
        "image_usage_not_exportable": ["STORAGE"]}}}"#;
    let instance = create_instance(Some(config)).expect("instance");
    let optimal = vk::ImageTiling::OPTIMAL;
    let (_, sampled) = image_properties(&instance, OPAQUE_FD, optimal, SAMPLED).expect("image");
    assert_eq!(sampled.external_memory_features, EXPORTABLE);
    // Export-only and not exportable with this usage: not supported at all.
    let usage = SAMPLED | vk::ImageUsageFlags::STORAGE;
    let r = image_properties(&instance, OPAQUE_FD, optimal, usage);
    assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let buffer = buffer_properties(&instance, OPAQUE_FD, storage);
    assert_eq!(buffer.external_memory_features, EXPORTABLE);
    destroy_instance(&instance);
}

/// Whether the memory of a new 64x64 image (`image`) or 4 KiB buffer made with `handle_types`
/// in its external-memory create info must be dedicated, as `VkMemoryDedicatedRequirements`
/// reports (checking that prefers is set along with requires).
fn requires_dedicated(
    device: &ash::Device,
    image: bool,
    handle_types: vk::ExternalMemoryHandleTypeFlags,
) -> bool {
    let mut dedicated = vk::MemoryDedicatedRequirements {
        prefers_dedicated_allocation: vk::TRUE,
        requires_dedicated_allocation: vk::TRUE,
        ..Default::default()
    };
    let mut requirements = vk::MemoryRequirements2::default().push_next(&mut dedicated);
    if image {
        let mut external = vk::ExternalMemoryImageCreateInfo::default().handle_types(handle_types);
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D {
                width: 64,
                height: 64,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .usage(SAMPLED)
            .push_next(&mut external);
        // SAFETY: valid device and create info.
        let image = unsafe { device.create_image(&info, None) }.expect("vkCreateImage");
        let info = vk::ImageMemoryRequirementsInfo2::default().image(image);
        // SAFETY: valid device, info and output chain; the image is destroyed once.
        unsafe {
            device.get_image_memory_requirements2(&info, &mut requirements);
            device.destroy_image(image, None);
        }
    } else {
        let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(handle_types);
        let info = vk::BufferCreateInfo::default()
            .size(4096)
            .usage(TRANSFER)
            .push_next(&mut external);
        // SAFETY: valid device and create info.
        let buffer = unsafe { device.create_buffer(&info, None) }.expect("vkCreateBuffer");
        let info = vk::BufferMemoryRequirementsInfo2::default().buffer(buffer);
        // SAFETY: valid device, info and output chain; the buffer is destroyed once.
        unsafe {
            device.get_buffer_memory_requirements2(&info, &mut requirements);
            device.destroy_buffer(buffer, None);
        }
    }
    assert_eq!(
        dedicated.prefers_dedicated_allocation, dedicated.requires_dedicated_allocation,
        "a resource that requires dedicated memory prefers it"
    );
    dedicated.requires_dedicated_allocation == vk::TRUE
}

#[test]
fn dedicated_only_for_images_requires_dedicated_image_memory() {
    let instance = create_instance(Some(DEDICATED_IMAGES)).expect("instance");
    let (_, image) =
        image_properties(&instance, OPAQUE_FD, vk::ImageTiling::OPTIMAL, SAMPLED).expect("image");
    assert_eq!(
        image.external_memory_features,
        DEDICATED_ONLY | EXPORTABLE | IMPORTABLE
    );
    let buffer = buffer_properties(&instance, OPAQUE_FD, TRANSFER);
    assert_eq!(buffer.external_memory_features, EXPORTABLE | IMPORTABLE);

    let device = create_device(&instance, &["VK_KHR_external_memory"], false).expect("device");
    let none = vk::ExternalMemoryHandleTypeFlags::empty();
    assert!(requires_dedicated(&device, true, OPAQUE_FD));
    let with_dma_buf = OPAQUE_FD | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
    assert!(requires_dedicated(&device, true, with_dma_buf));
    assert!(!requires_dedicated(&device, true, none));
    assert!(!requires_dedicated(
        &device,
        true,
        vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT
    ));
    assert!(!requires_dedicated(&device, false, OPAQUE_FD));
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn dedicated_only_for_buffers_requires_dedicated_buffer_memory() {
    let config = r#"{"external_buffer": {"OPAQUE_FD": {
        "features": ["DEDICATED_ONLY", "EXPORTABLE"], "images": {"features": ["EXPORTABLE"]}}}}"#;
    let instance = create_instance(Some(config)).expect("instance");
    let buffer = buffer_properties(&instance, OPAQUE_FD, TRANSFER);
    assert_eq!(buffer.external_memory_features, DEDICATED_ONLY | EXPORTABLE);
    let device = create_device(&instance, &[], false).expect("device");
    assert!(requires_dedicated(&device, false, OPAQUE_FD));
    assert!(!requires_dedicated(
        &device,
        false,
        vk::ExternalMemoryHandleTypeFlags::empty()
    ));
    assert!(!requires_dedicated(&device, true, OPAQUE_FD));
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn configuring_both_names_fails_instance_creation() {
    let both = r#"{"external_buffer": {}, "external_memory": {}}"#;
    let err = create_instance(Some(both)).err().expect("must fail");
    assert!(
        err == vk::Result::ERROR_INCOMPATIBLE_DRIVER
            || err == vk::Result::ERROR_INITIALIZATION_FAILED,
        "{err:?}"
    );
    let bad_usage =
        r#"{"external_memory": {"OPAQUE_FD": {"buffer_usage_not_exportable": ["SAMPLED"]}}}"#;
    assert!(create_instance(Some(bad_usage)).is_err());
}
