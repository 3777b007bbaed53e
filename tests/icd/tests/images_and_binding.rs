//! End to end through the real Vulkan loader, with no layer: format queries, images and their
//! memory requirements, dedicated allocations, binding memory to buffers and images (core 1.0
//! and 1.1 commands and the KHR aliases of VK_KHR_get_memory_requirements2 and
//! VK_KHR_bind_memory2).

#![warn(clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod common;

use ash::vk;
use common::*;

const HOST_VISIBLE_TYPE: u32 = 1;
const RGBA8: vk::Format = vk::Format::R8G8B8A8_UNORM;
const DEDICATED_EXTENSIONS: [&str; 4] = [
    "VK_KHR_external_memory",
    "VK_KHR_dedicated_allocation",
    "VK_KHR_get_memory_requirements2",
    "VK_KHR_bind_memory2",
];

type GetImageMemoryRequirements2 = unsafe extern "system" fn(
    vk::Device,
    *const vk::ImageMemoryRequirementsInfo2<'_>,
    *mut vk::MemoryRequirements2<'_>,
);
type BindBufferMemory2 =
    unsafe extern "system" fn(vk::Device, u32, *const vk::BindBufferMemoryInfo<'_>) -> vk::Result;

fn image_info<'a>(width: u32, height: u32, usage: vk::ImageUsageFlags) -> vk::ImageCreateInfo<'a> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(RGBA8)
        .extent(vk::Extent3D {
            width,
            height,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
}

#[test]
fn format_queries_answer_for_rgba8() {
    let instance = create_instance(Some("{}")).expect("instance");
    let pd = physical_device(&instance);
    // SAFETY: valid physical device.
    let rgba8 = unsafe { instance.get_physical_device_format_properties(pd, RGBA8) };
    let needed = vk::FormatFeatureFlags::COLOR_ATTACHMENT
        | vk::FormatFeatureFlags::SAMPLED_IMAGE
        | vk::FormatFeatureFlags::TRANSFER_SRC
        | vk::FormatFeatureFlags::TRANSFER_DST;
    assert!(rgba8.optimal_tiling_features.contains(needed));
    assert!(rgba8.linear_tiling_features.contains(needed));
    // SAFETY: valid physical device.
    let depth =
        unsafe { instance.get_physical_device_format_properties(pd, vk::Format::D32_SFLOAT) };
    assert!(depth.optimal_tiling_features.is_empty());

    let mut props3 = vk::FormatProperties3::default();
    let mut props2 = vk::FormatProperties2::default().push_next(&mut props3);
    // SAFETY: valid physical device and output chain.
    unsafe { instance.get_physical_device_format_properties2(pd, RGBA8, &mut props2) };
    assert_eq!(
        props2.format_properties.optimal_tiling_features,
        rgba8.optimal_tiling_features
    );
    assert_eq!(
        props3.optimal_tiling_features.as_raw(),
        u64::from(rgba8.optimal_tiling_features.as_raw())
    );

    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT
        | vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_SRC
        | vk::ImageUsageFlags::TRANSFER_DST;
    for tiling in [vk::ImageTiling::OPTIMAL, vk::ImageTiling::LINEAR] {
        // SAFETY: valid physical device.
        let p = unsafe {
            instance.get_physical_device_image_format_properties(
                pd,
                RGBA8,
                vk::ImageType::TYPE_2D,
                tiling,
                usage,
                vk::ImageCreateFlags::empty(),
            )
        }
        .expect("RGBA8 2D is supported");
        assert_eq!(p.max_extent.width, 16384);
        assert!(p.max_mip_levels >= 1 && p.sample_counts.contains(vk::SampleCountFlags::TYPE_1));
    }
    // SAFETY: valid physical device.
    let r = unsafe {
        instance.get_physical_device_image_format_properties(
            pd,
            vk::Format::D32_SFLOAT,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
            vk::ImageCreateFlags::empty(),
        )
    };
    assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    destroy_instance(&instance);
}

#[test]
fn images_have_memory_requirements_and_bind_memory() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = create_device(&instance, &DEDICATED_EXTENSIONS, false).expect("device");
    let counters = Counters::get();
    let (creates, binds) = (
        counters.count("vkCreateImage"),
        counters.count("vkBindImageMemory2"),
    );
    let mut external = vk::ExternalMemoryImageCreateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let info = image_info(100, 50, vk::ImageUsageFlags::SAMPLED).push_next(&mut external);
    // SAFETY: valid device and create info.
    let image = unsafe { device.create_image(&info, None) }.expect("vkCreateImage");
    // SAFETY: valid device and image.
    let r = unsafe { device.get_image_memory_requirements(image) };
    // 100 x 50 texels of 4 bytes, rounded up to the 4096-byte alignment.
    assert_eq!(
        (r.size, r.alignment, r.memory_type_bits),
        (20480, 4096, 0b111)
    );
    let mut dedicated = vk::MemoryDedicatedRequirements {
        prefers_dedicated_allocation: vk::TRUE,
        requires_dedicated_allocation: vk::TRUE,
        ..Default::default()
    };
    let mut r2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
    let info2 = vk::ImageMemoryRequirementsInfo2::default().image(image);
    // SAFETY: valid device, info and output chain.
    unsafe { device.get_image_memory_requirements2(&info2, &mut r2) };
    assert_eq!(r2.memory_requirements.size, r.size);
    assert_eq!(
        (
            dedicated.prefers_dedicated_allocation,
            dedicated.requires_dedicated_allocation
        ),
        (vk::FALSE, vk::FALSE),
        "the defaults are not DEDICATED_ONLY"
    );

    // A dedicated, exportable allocation for the image, bound through both commands.
    let mut dedicated_info = vk::MemoryDedicatedAllocateInfo::default().image(image);
    let mut export = vk::ExportMemoryAllocateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let alloc = vk::MemoryAllocateInfo::default()
        .allocation_size(r.size)
        .memory_type_index(HOST_VISIBLE_TYPE)
        .push_next(&mut dedicated_info)
        .push_next(&mut export);
    // SAFETY: valid device and allocate info.
    let memory = unsafe { device.allocate_memory(&alloc, None) }.expect("dedicated allocation");
    // SAFETY: valid device, image and memory.
    unsafe { device.bind_image_memory(image, memory, 0) }.expect("vkBindImageMemory");
    let bind = [vk::BindImageMemoryInfo::default()
        .image(image)
        .memory(memory)];
    // SAFETY: valid device and bind infos.
    unsafe { device.bind_image_memory2(&bind) }.expect("vkBindImageMemory2");
    assert!(counters.count("vkCreateImage") > creates);
    assert!(counters.count("vkBindImageMemory2") > binds);

    // Unknown memory or image: VK_ERROR_UNKNOWN, nothing dereferenced.
    let unknown_memory: vk::DeviceMemory = vk::Handle::from_raw(0xEC00_0000_DEAD_0001);
    // SAFETY: a made-up memory handle on purpose: the driver looks it up.
    let r = unsafe { device.bind_image_memory(image, unknown_memory, 0) };
    assert_eq!(r.err(), Some(vk::Result::ERROR_UNKNOWN));
    let unknown_image: vk::Image = vk::Handle::from_raw(0xE100_0000_DEAD_0001);
    let bind = [
        vk::BindImageMemoryInfo::default()
            .image(image)
            .memory(memory),
        vk::BindImageMemoryInfo::default()
            .image(unknown_image)
            .memory(memory),
    ];
    // SAFETY: as above, for the image.
    let r = unsafe { device.bind_image_memory2(&bind) };
    assert_eq!(r.err(), Some(vk::Result::ERROR_UNKNOWN));

    // An empty image is refused; a destroyed image has no requirements.
    let empty = image_info(0, 16, vk::ImageUsageFlags::SAMPLED);
    // SAFETY: valid pointers; the driver refuses the zero extent.
    assert!(unsafe { device.create_image(&empty, None) }.is_err());
    // SAFETY: the image is destroyed once, then looked up (not dereferenced) as a stale handle.
    let stale = unsafe {
        device.destroy_image(image, None);
        device.get_image_memory_requirements(image)
    };
    assert_eq!((stale.size, stale.memory_type_bits), (0, 0));
    // SAFETY: freed once.
    unsafe { device.free_memory(memory, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn buffers_bind_memory_and_take_dedicated_allocations() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = create_device(&instance, &DEDICATED_EXTENSIONS, false).expect("device");
    let info = vk::BufferCreateInfo::default()
        .size(4096)
        .usage(vk::BufferUsageFlags::STORAGE_BUFFER);
    // SAFETY: valid device and create info.
    let buffer = unsafe { device.create_buffer(&info, None) }.expect("vkCreateBuffer");
    let mut dedicated_info = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
    let alloc = vk::MemoryAllocateInfo::default()
        .allocation_size(4096)
        .memory_type_index(HOST_VISIBLE_TYPE)
        .push_next(&mut dedicated_info);
    // SAFETY: valid device and allocate info.
    let memory = unsafe { device.allocate_memory(&alloc, None) }.expect("dedicated allocation");
    // SAFETY: valid device, buffer and memory.
    unsafe { device.bind_buffer_memory(buffer, memory, 0) }.expect("vkBindBufferMemory");
    let bind = [vk::BindBufferMemoryInfo::default()
        .buffer(buffer)
        .memory(memory)];
    // SAFETY: valid device and bind infos.
    unsafe { device.bind_buffer_memory2(&bind) }.expect("vkBindBufferMemory2");

    let unknown: vk::Buffer = vk::Handle::from_raw(0xEB00_0000_DEAD_0001);
    // SAFETY: a made-up buffer handle on purpose: the driver looks it up.
    let r = unsafe { device.bind_buffer_memory(unknown, memory, 0) };
    assert_eq!(r.err(), Some(vk::Result::ERROR_UNKNOWN));
    // SAFETY: destroyed and freed once; binding to freed memory is then refused.
    let r = unsafe {
        device.free_memory(memory, None);
        device.bind_buffer_memory(buffer, memory, 0)
    };
    assert_eq!(r.err(), Some(vk::Result::ERROR_UNKNOWN));
    // SAFETY: destroyed once.
    unsafe { device.destroy_buffer(buffer, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn khr_aliases_come_with_their_extensions_and_count_as_core() {
    let instance = create_instance(Some("{}")).expect("instance");
    let pd = physical_device(&instance);
    // SAFETY: valid physical device.
    let exposed = unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap();
    for name in DEDICATED_EXTENSIONS {
        assert!(
            exposed
                .iter()
                .any(|e| e.extension_name_as_c_str().unwrap().to_str() == Ok(name)),
            "{name} exposed"
        );
    }

    let plain = create_device(&instance, &[], false).expect("device");
    for alias in ["vkBindBufferMemory2KHR", "vkGetImageMemoryRequirements2KHR"] {
        assert!(device_proc(&instance, &plain, alias).is_none(), "{alias}");
    }
    assert!(device_proc(&instance, &plain, "vkBindBufferMemory2").is_some());
    destroy_device(&plain);

    let device = create_device(&instance, &DEDICATED_EXTENSIONS, false).expect("device");
    let counters = Counters::get();
    let get_requirements = device_fn!(
        &instance,
        &device,
        "vkGetImageMemoryRequirements2KHR",
        GetImageMemoryRequirements2
    );
    let bind_buffer = device_fn!(
        &instance,
        &device,
        "vkBindBufferMemory2KHR",
        BindBufferMemory2
    );
    // SAFETY: valid device and create info.
    let image =
        unsafe { device.create_image(&image_info(64, 64, vk::ImageUsageFlags::SAMPLED), None) }
            .expect("vkCreateImage");
    let before = counters.count("vkGetImageMemoryRequirements2");
    let info = vk::ImageMemoryRequirementsInfo2::default().image(image);
    let mut r = vk::MemoryRequirements2::default();
    // SAFETY: valid device, info and output.
    unsafe { get_requirements(device.handle(), &info, &mut r) };
    assert_eq!(r.memory_requirements.size, 64 * 64 * 4);
    assert!(counters.count("vkGetImageMemoryRequirements2KHR") > before);

    let info = vk::BufferCreateInfo::default()
        .size(256)
        .usage(vk::BufferUsageFlags::TRANSFER_DST);
    // SAFETY: valid device and create info.
    let buffer = unsafe { device.create_buffer(&info, None) }.expect("vkCreateBuffer");
    let memory = allocate(&device, 256, HOST_VISIBLE_TYPE, std::ptr::null()).expect("allocate");
    let bind = [vk::BindBufferMemoryInfo::default()
        .buffer(buffer)
        .memory(memory)];
    // SAFETY: valid device and one bind info.
    let r = unsafe { bind_buffer(device.handle(), 1, bind.as_ptr()) };
    assert_eq!(r, vk::Result::SUCCESS);
    // SAFETY: every object destroyed or freed once.
    unsafe {
        device.destroy_image(image, None);
        device.destroy_buffer(buffer, None);
        device.free_memory(memory, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}
