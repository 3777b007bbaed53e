//! End to end through the real Vulkan loader, with no layer: what the benchmark (`bench/`) uses —
//! the buffer commands (enough for `vkGetBufferMemoryRequirements`), `"memory_backing": "none"`
//! (allocations without a memfd until one is needed) and `"max_memory_allocation_count"`.

#![warn(clippy::undocumented_unsafe_blocks)]

mod common;

use ash::vk;
use common::*;

const SIZE: u64 = 64 * 1024;
const HOST_VISIBLE_TYPE: u32 = 1;

/// Open file descriptors of this process.
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .count()
}

#[test]
fn buffers_report_memory_requirements() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = create_device(&instance, &[], false).expect("device");
    let counters = Counters::get();
    let before = counters.count("vkGetBufferMemoryRequirements");
    let info = vk::BufferCreateInfo::default()
        .size(1000)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC);
    // SAFETY: valid device and create info.
    let buffer = unsafe { device.create_buffer(&info, None) }.expect("vkCreateBuffer");
    // SAFETY: valid device and buffer.
    let r = unsafe { device.get_buffer_memory_requirements(buffer) };
    assert_eq!(
        (r.size, r.alignment, r.memory_type_bits),
        (1024, 256, 0b111)
    );
    let mut dedicated = vk::MemoryDedicatedRequirements {
        prefers_dedicated_allocation: vk::TRUE,
        ..Default::default()
    };
    let mut r2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
    let info2 = vk::BufferMemoryRequirementsInfo2::default().buffer(buffer);
    // SAFETY: valid device, info and output chain.
    unsafe { device.get_buffer_memory_requirements2(&info2, &mut r2) };
    let r2 = r2.memory_requirements;
    assert_eq!(
        (r2.size, r2.alignment, r2.memory_type_bits),
        (1024, 256, 0b111)
    );
    assert_eq!(dedicated.prefers_dedicated_allocation, vk::FALSE);
    assert!(counters.count("vkGetBufferMemoryRequirements") > before);

    // A zero-sized buffer is refused; a destroyed or unknown buffer has no requirements.
    let zero = vk::BufferCreateInfo::default().size(0);
    // SAFETY: valid pointers; size 0 is refused by the driver.
    assert!(unsafe { device.create_buffer(&zero, None) }.is_err());
    // SAFETY: valid device and buffer, destroyed once.
    unsafe { device.destroy_buffer(buffer, None) };
    // SAFETY: a stale handle on purpose: the driver looks it up, never dereferences it.
    let stale = unsafe { device.get_buffer_memory_requirements(buffer) };
    assert_eq!((stale.size, stale.memory_type_bits), (0, 0));

    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn memory_backing_none_makes_the_memfd_at_first_export_or_map() {
    let instance = create_instance(Some(r#"{"memory_backing": "none"}"#)).expect("instance");
    let extensions = ["VK_KHR_external_memory", "VK_KHR_external_memory_fd"];
    let device = create_device(&instance, &extensions, false).expect("device");
    let fd_device = ash::khr::external_memory_fd::Device::new(&instance, &device);
    let mut export = vk::ExportMemoryAllocateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let export_ptr = (&mut export as *mut vk::ExportMemoryAllocateInfo).cast();

    // 200 allocations take no file descriptor (other tests of this binary run concurrently and
    // open fds of their own, hence the slack).
    let fds_before = open_fds();
    let many: Vec<_> = (0..200)
        .map(|_| allocate(&device, SIZE, HOST_VISIBLE_TYPE, export_ptr).expect("allocate"))
        .collect();
    assert!(open_fds() < fds_before + 50, "allocations took fds");

    // The first export makes the memfd; exports are real descriptors of it, of its size.
    let memory = many[0];
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(memory)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    // SAFETY: valid device and info.
    let fd = unsafe { fd_device.get_memory_fd(&info) }.expect("vkGetMemoryFdKHR");
    // SAFETY: fstat into a local buffer.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    assert_eq!(unsafe { libc::fstat(fd, &mut st) }, 0);
    assert_eq!(st.st_size as u64, SIZE);

    // Mapping uses the same memfd: bytes written through the map are seen through the fd.
    // SAFETY: valid device and memory, not mapped yet.
    let mapped = unsafe { device.map_memory(memory, 0, SIZE, vk::MemoryMapFlags::empty()) }
        .expect("vkMapMemory")
        .cast::<u8>();
    // SAFETY: the mapping is SIZE bytes long.
    unsafe { *mapped.add(10) = 0x5A };
    let mut byte = [0u8; 1];
    // SAFETY: reads one byte at offset 10 of the exported descriptor into a local buffer.
    let n = unsafe { libc::pread(fd, byte.as_mut_ptr().cast(), 1, 10) };
    assert_eq!(
        (n, byte[0]),
        (1, 0x5A),
        "the export and the mapping share memory"
    );

    // Another allocation, mapped before any export, gets a memfd of its own.
    // SAFETY: valid device and memory.
    let other = unsafe { device.map_memory(many[1], 0, SIZE, vk::MemoryMapFlags::empty()) }
        .expect("vkMapMemory of another allocation");
    assert_ne!(other.cast::<u8>(), mapped);

    // SAFETY: every handle freed once; `fd` is ours.
    unsafe {
        for m in many {
            device.free_memory(m, None);
        }
        libc::close(fd);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn max_memory_allocation_count_is_reported_as_configured() {
    let limit = |json: &str| {
        let instance = create_instance(Some(json)).expect("instance");
        let pd = physical_device(&instance);
        // SAFETY: valid instance and physical device.
        let props = unsafe { instance.get_physical_device_properties(pd) };
        destroy_instance(&instance);
        props.limits.max_memory_allocation_count
    };
    assert_eq!(limit("{}"), 4096);
    assert_eq!(
        limit(r#"{"max_memory_allocation_count": 4294967295}"#),
        u32::MAX
    );
}

#[test]
fn nv_external_memory_capabilities_is_an_instance_extension() {
    let entry = entry();
    // SAFETY: valid loader entry.
    let exposed = unsafe { entry.enumerate_instance_extension_properties(None) }.unwrap();
    let name = c"VK_NV_external_memory_capabilities";
    assert!(exposed
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(name)));
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
    let names = [name.as_ptr()];
    let info = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_extension_names(&names);
    let instance = {
        let _lock = loader_lock();
        // SAFETY: valid create info.
        unsafe { entry.create_instance(&info, None) }.expect("instance")
    };
    let caps = ash::nv::external_memory_capabilities::Instance::new(entry, &instance);
    let pd = physical_device(&instance);
    let mut props = vk::ExternalImageFormatPropertiesNV::default();
    // SAFETY: valid physical device and output; the driver supports no image format.
    let r = unsafe {
        (caps
            .fp()
            .get_physical_device_external_image_format_properties_nv)(
            pd,
            vk::Format::R8G8B8A8_UNORM,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            vk::ImageUsageFlags::SAMPLED,
            vk::ImageCreateFlags::empty(),
            vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32,
            &mut props,
        )
    };
    assert_eq!(r, vk::Result::ERROR_FORMAT_NOT_SUPPORTED);
    destroy_instance(&instance);
}
