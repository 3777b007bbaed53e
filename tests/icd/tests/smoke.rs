//! End to end through the real Vulkan loader, with no layer: the driver is found through its
//! manifest, exposes the export extensions, and every export entry point gives a usable result.

#![warn(clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod common;

use ash::vk;
use common::*;
use exportcheck_test_icd::config::{
    HANDLE_TYPE_MTLBUFFER, HANDLE_TYPE_MTLHEAP, HANDLE_TYPE_MTLTEXTURE,
};
use exportcheck_test_icd::memory::{
    ImportMemoryMetalHandleInfoEXT, MemoryGetMetalHandleInfoEXT, MemoryMetalHandlePropertiesEXT,
    STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
    STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
    STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT,
};
use std::ffi::c_void;

type GetMemoryFd = unsafe extern "system" fn(
    vk::Device,
    *const vk::MemoryGetFdInfoKHR<'_>,
    *mut i32,
) -> vk::Result;
type GetMemoryFdProperties = unsafe extern "system" fn(
    vk::Device,
    vk::ExternalMemoryHandleTypeFlags,
    i32,
    *mut vk::MemoryFdPropertiesKHR<'_>,
) -> vk::Result;
type GetRemoteAddress = unsafe extern "system" fn(
    vk::Device,
    *const vk::MemoryGetRemoteAddressInfoNV<'_>,
    *mut *mut c_void,
) -> vk::Result;
type GetWin32Handle = unsafe extern "system" fn(
    vk::Device,
    vk::DeviceMemory,
    vk::ExternalMemoryHandleTypeFlagsNV,
    *mut *mut c_void,
) -> vk::Result;
type GetMetalHandle = unsafe extern "system" fn(
    vk::Device,
    *const MemoryGetMetalHandleInfoEXT,
    *mut *mut c_void,
) -> vk::Result;
type GetMetalHandleProperties = unsafe extern "system" fn(
    vk::Device,
    vk::ExternalMemoryHandleTypeFlags,
    *const c_void,
    *mut MemoryMetalHandlePropertiesEXT,
) -> vk::Result;

const FD_EXTENSIONS: [&str; 3] = [
    "VK_KHR_external_memory",
    "VK_KHR_external_memory_fd",
    "VK_EXT_external_memory_dma_buf",
];
const HOST_VISIBLE_TYPE: u32 = 1;
const RDMA_TYPE: u32 = 2;
const SIZE: u64 = 64 * 1024;

fn fd_flags(fd: i32) -> i32 {
    // SAFETY: F_GETFD only queries the descriptor.
    unsafe { libc::fcntl(fd, libc::F_GETFD) }
}

/// The first bytes of the memory behind `fd`, through a mapping of its own.
fn read_through_fd(fd: i32, len: usize) -> Vec<u8> {
    // SAFETY: maps `len` bytes of a descriptor the test owns; the result is checked.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    assert_ne!(p, libc::MAP_FAILED, "mmap of the exported fd");
    // SAFETY: `p` maps `len` readable bytes.
    let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec();
    // SAFETY: unmapping what was mapped above.
    unsafe { libc::munmap(p, len) };
    bytes
}

/// Maps the whole allocation through Vulkan.
fn map(device: &ash::Device, memory: vk::DeviceMemory) -> *mut u8 {
    // SAFETY: valid device and memory, not mapped yet.
    unsafe { device.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
        .expect("vkMapMemory")
        .cast()
}

#[test]
fn opaque_fd_and_dma_buf_exports_are_real_memfds() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = create_device(&instance, &FD_EXTENSIONS, false).expect("device");
    let counters = Counters::get();
    let (fds_before, allocs_before, frees_before) = (
        counters.count("vkGetMemoryFdKHR"),
        counters.count("vkAllocateMemory"),
        counters.count("vkFreeMemory"),
    );
    let get_fd = device_fn!(&instance, &device, "vkGetMemoryFdKHR", GetMemoryFd);
    let get_fd_properties = device_fn!(
        &instance,
        &device,
        "vkGetMemoryFdPropertiesKHR",
        GetMemoryFdProperties
    );

    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD
            | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
    );
    let memory = allocate(
        &device,
        SIZE,
        HOST_VISIBLE_TYPE,
        (&mut export as *mut vk::ExportMemoryAllocateInfo).cast(),
    )
    .expect("allocate");
    let pattern = b"exportcheck test driver: real bytes";
    let mapped = map(&device, memory);
    // SAFETY: the mapping is SIZE bytes long.
    unsafe { std::ptr::copy_nonoverlapping(pattern.as_ptr(), mapped, pattern.len()) };

    let mut fds = Vec::new();
    for handle_type in [
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
    ] {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(handle_type);
        let mut fd = -1;
        // SAFETY: valid device, info and output.
        let r = unsafe { get_fd(device.handle(), &info, &mut fd) };
        assert_eq!(r, vk::Result::SUCCESS);
        assert!(fd >= 0);
        // SAFETY: fstat into a local buffer.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        assert_eq!(unsafe { libc::fstat(fd, &mut st) }, 0, "fstat");
        assert_eq!(st.st_size as u64, SIZE);
        assert_ne!(fd_flags(fd) & libc::FD_CLOEXEC, 0, "FD_CLOEXEC");
        assert_eq!(read_through_fd(fd, pattern.len()), pattern);
        assert!(!fds.contains(&fd), "every export is a new descriptor");
        fds.push(fd);
    }

    let mut props = vk::MemoryFdPropertiesKHR::default();
    // SAFETY: valid arguments.
    let r = unsafe {
        get_fd_properties(
            device.handle(),
            vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
            fds[2],
            &mut props,
        )
    };
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(props.memory_type_bits, 0);

    // Import the first fd back: the driver takes ownership, both allocations share the bytes.
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
        .fd(fds[0]);
    let imported = allocate(
        &device,
        SIZE,
        HOST_VISIBLE_TYPE,
        (&mut import as *mut vk::ImportMemoryFdInfoKHR).cast(),
    )
    .expect("import");
    let imported_map = map(&device, imported);
    // SAFETY: both mappings are SIZE bytes long.
    unsafe {
        assert_eq!(
            std::slice::from_raw_parts(imported_map, pattern.len()),
            pattern
        );
        *imported_map.add(100) = 0xA5;
        assert_eq!(*mapped.add(100), 0xA5, "imported memory is the same memory");
    }
    // A descriptor the driver already owns cannot be imported a second time.
    assert_eq!(
        allocate(
            &device,
            SIZE,
            HOST_VISIBLE_TYPE,
            (&mut import as *mut vk::ImportMemoryFdInfoKHR).cast()
        ),
        Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE)
    );

    // SAFETY: valid handles, freed once; fds[1..] are still ours.
    unsafe {
        device.unmap_memory(memory);
        device.free_memory(memory, None);
        device.free_memory(imported, None);
        destroy_device(&device);
        destroy_instance(&instance);
        for fd in &fds[1..] {
            libc::close(*fd);
        }
    }
    assert!(counters.count("vkGetMemoryFdKHR") >= fds_before + 3);
    assert!(counters.count("vkAllocateMemory") >= allocs_before + 3);
    assert!(counters.count("vkFreeMemory") >= frees_before + 2);
    assert!(counters.count("vkGetMemoryFdPropertiesKHR") >= 1);
}

#[test]
fn rdma_addresses_are_distinct_and_stable() {
    let instance = create_instance(Some("{}")).expect("instance");
    let pd = physical_device(&instance);
    let mut rdma = vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV::default();
    let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut rdma);
    // SAFETY: valid physical device and output chain.
    unsafe { instance.get_physical_device_features2(pd, &mut features) };
    assert_eq!(rdma.external_memory_rdma, vk::TRUE);

    let device = create_device(
        &instance,
        &["VK_KHR_external_memory", "VK_NV_external_memory_rdma"],
        true,
    )
    .expect("device");
    let before = Counters::get().count("vkGetMemoryRemoteAddressNV");
    let get_address = device_fn!(
        &instance,
        &device,
        "vkGetMemoryRemoteAddressNV",
        GetRemoteAddress
    );
    let mut addresses = Vec::new();
    for _ in 0..2 {
        let mut export = vk::ExportMemoryAllocateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV);
        let memory = allocate(
            &device,
            SIZE,
            RDMA_TYPE,
            (&mut export as *mut vk::ExportMemoryAllocateInfo).cast(),
        )
        .expect("allocate");
        let info = vk::MemoryGetRemoteAddressInfoNV::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV);
        let (mut a, mut b) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: valid arguments.
        unsafe {
            assert_eq!(
                get_address(device.handle(), &info, &mut a),
                vk::Result::SUCCESS
            );
            assert_eq!(
                get_address(device.handle(), &info, &mut b),
                vk::Result::SUCCESS
            );
        }
        assert!(!a.is_null());
        assert_eq!(a, b, "stable for the same allocation");
        addresses.push(a);
    }
    assert_ne!(addresses[0], addresses[1]);
    assert!(Counters::get().count("vkGetMemoryRemoteAddressNV") >= before + 4);
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn win32_handles_are_distinct_per_type_and_allocation() {
    let instance = create_instance(None).expect("instance");
    let device = create_device(
        &instance,
        &["VK_NV_external_memory", "VK_NV_external_memory_win32"],
        false,
    )
    .expect("device");
    let before = Counters::get().count("vkGetMemoryWin32HandleNV");
    let get_handle = device_fn!(
        &instance,
        &device,
        "vkGetMemoryWin32HandleNV",
        GetWin32Handle
    );
    let types = [
        vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32,
        vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT,
    ];
    let mut handles = Vec::new();
    for _ in 0..2 {
        let mut export =
            vk::ExportMemoryAllocateInfoNV::default().handle_types(types[0] | types[1]);
        let memory = allocate(
            &device,
            SIZE,
            0,
            (&mut export as *mut vk::ExportMemoryAllocateInfoNV).cast(),
        )
        .expect("allocate");
        for ty in types {
            let (mut a, mut b) = (std::ptr::null_mut(), std::ptr::null_mut());
            // SAFETY: valid arguments.
            unsafe {
                assert_eq!(
                    get_handle(device.handle(), memory, ty, &mut a),
                    vk::Result::SUCCESS
                );
                assert_eq!(
                    get_handle(device.handle(), memory, ty, &mut b),
                    vk::Result::SUCCESS
                );
            }
            assert!(!a.is_null());
            assert_eq!(a, b);
            handles.push(a as usize);
        }
    }
    let mut unique = handles.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 4, "{handles:x?}");
    assert!(Counters::get().count("vkGetMemoryWin32HandleNV") >= before + 8);
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn metal_handles_are_distinct_and_imports_round_trip() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = create_device(
        &instance,
        &["VK_KHR_external_memory", "VK_EXT_external_memory_metal"],
        false,
    )
    .expect("device");
    let before = Counters::get().count("vkGetMemoryMetalHandleEXT");
    let get_handle = device_fn!(
        &instance,
        &device,
        "vkGetMemoryMetalHandleEXT",
        GetMetalHandle
    );
    let get_properties = device_fn!(
        &instance,
        &device,
        "vkGetMemoryMetalHandlePropertiesEXT",
        GetMetalHandleProperties
    );
    let types = [
        HANDLE_TYPE_MTLBUFFER,
        HANDLE_TYPE_MTLTEXTURE,
        HANDLE_TYPE_MTLHEAP,
    ]
    .map(vk::ExternalMemoryHandleTypeFlags::from_raw);
    let mut export =
        vk::ExportMemoryAllocateInfo::default().handle_types(types[0] | types[1] | types[2]);
    let memory = allocate(
        &device,
        SIZE,
        0,
        (&mut export as *mut vk::ExportMemoryAllocateInfo).cast(),
    )
    .expect("allocate");
    let export_handle = |memory, handle_type| {
        let info = MemoryGetMetalHandleInfoEXT {
            s_type: STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
            p_next: std::ptr::null(),
            memory,
            handle_type,
        };
        let mut handle = std::ptr::null_mut();
        // SAFETY: valid arguments.
        let r = unsafe { get_handle(device.handle(), &info, &mut handle) };
        assert_eq!(r, vk::Result::SUCCESS);
        handle
    };
    let handles = types.map(|t| export_handle(memory, t));
    assert!(handles.iter().all(|h| !h.is_null()));
    assert!(handles[0] != handles[1] && handles[1] != handles[2] && handles[0] != handles[2]);
    assert_eq!(export_handle(memory, types[0]), handles[0], "stable");

    let mut props = MemoryMetalHandlePropertiesEXT {
        s_type: STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT,
        p_next: std::ptr::null_mut(),
        memory_type_bits: 0,
    };
    // SAFETY: valid arguments.
    let r = unsafe { get_properties(device.handle(), types[0], handles[0], &mut props) };
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(props.memory_type_bits, 0);

    // Memory imported from a Metal buffer exports that same buffer.
    let import = ImportMemoryMetalHandleInfoEXT {
        s_type: STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
        p_next: std::ptr::null(),
        handle_type: types[0],
        handle: handles[0],
    };
    let imported = allocate(
        &device,
        SIZE,
        0,
        (&import as *const ImportMemoryMetalHandleInfoEXT).cast(),
    )
    .expect("import");
    assert_eq!(export_handle(imported, types[0]), handles[0]);
    assert!(Counters::get().count("vkGetMemoryMetalHandleEXT") >= before + 5);
    // SAFETY: destroying what was created.
    unsafe {
        device.free_memory(imported, None);
        device.free_memory(memory, None);
        destroy_device(&device);
        destroy_instance(&instance);
    }
}

#[test]
fn host_pointer_properties_follow_the_reported_alignment() {
    let instance = create_instance(Some("{}")).expect("instance");
    let pd = physical_device(&instance);
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
    // SAFETY: valid physical device and output chain.
    unsafe { instance.get_physical_device_properties2(pd, &mut properties) };
    let alignment = host.min_imported_host_pointer_alignment as usize;
    assert_eq!(alignment, 4096);
    let device = create_device(
        &instance,
        &["VK_KHR_external_memory", "VK_EXT_external_memory_host"],
        false,
    )
    .expect("device");
    let query = device_fn!(
        &instance,
        &device,
        "vkGetMemoryHostPointerPropertiesEXT",
        vk::PFN_vkGetMemoryHostPointerPropertiesEXT
    );
    let buffer = vec![0u8; 3 * alignment];
    let aligned = buffer
        .as_ptr()
        .wrapping_add(buffer.as_ptr().align_offset(alignment));
    let ask = |handle_type, pointer: *const u8| {
        let mut out = vk::MemoryHostPointerPropertiesEXT {
            memory_type_bits: 0x5e47,
            ..Default::default()
        };
        // SAFETY: valid device and output; the pointer is never read by the driver.
        let r = unsafe { query(device.handle(), handle_type, pointer.cast(), &mut out) };
        (r, out.memory_type_bits)
    };
    let host_allocation = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
    // The default memory types: only type 1 is host-visible.
    assert_eq!(ask(host_allocation, aligned), (vk::Result::SUCCESS, 0b010));
    assert_eq!(
        ask(
            vk::ExternalMemoryHandleTypeFlags::HOST_MAPPED_FOREIGN_MEMORY_EXT,
            aligned
        ),
        (vk::Result::SUCCESS, 0b010)
    );
    let refused = (vk::Result::ERROR_INVALID_EXTERNAL_HANDLE, 0x5e47);
    assert_eq!(ask(host_allocation, aligned.wrapping_add(64)), refused);
    assert_eq!(ask(host_allocation, std::ptr::null()), refused);
    assert_eq!(
        ask(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD, aligned),
        refused
    );
    drop(buffer);
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn device_proc_addr_is_null_for_extensions_not_enabled() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = create_device(&instance, &["VK_KHR_external_memory"], false).expect("device");
    for name in [
        "vkGetMemoryFdKHR",
        "vkGetMemoryFdPropertiesKHR",
        "vkGetMemoryRemoteAddressNV",
        "vkGetMemoryWin32HandleNV",
        "vkGetMemoryMetalHandleEXT",
        "vkGetMemoryMetalHandlePropertiesEXT",
        "vkGetMemoryWin32HandleKHR",
        "vkGetMemoryWin32HandlePropertiesKHR",
        "vkGetMemoryZirconHandleFUCHSIA",
        "vkGetMemoryZirconHandlePropertiesFUCHSIA",
        "vkGetMemoryAndroidHardwareBufferANDROID",
        "vkGetAndroidHardwareBufferPropertiesANDROID",
        "vkGetMemoryHostPointerPropertiesEXT",
    ] {
        assert!(
            device_proc(&instance, &device, name).is_none(),
            "{name} returned for a device without its extension"
        );
    }
    assert!(device_proc(&instance, &device, "vkAllocateMemory").is_some());
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn misbehaving_driver_breaks_the_export_contract_on_demand() {
    let config = r#"{"misbehave": {"fd_without_cloexec": true, "same_fd_twice": true,
        "zero_remote_address": true, "null_win32_handle": true, "null_metal_handle": true}}"#;
    let instance = create_instance(Some(config)).expect("instance");
    let device = create_device(
        &instance,
        &[
            "VK_KHR_external_memory",
            "VK_KHR_external_memory_fd",
            "VK_NV_external_memory_rdma",
            "VK_NV_external_memory",
            "VK_NV_external_memory_win32",
            "VK_EXT_external_memory_metal",
        ],
        true,
    )
    .expect("device");
    let memory = allocate(&device, SIZE, RDMA_TYPE, std::ptr::null()).expect("allocate");

    let get_fd = device_fn!(&instance, &device, "vkGetMemoryFdKHR", GetMemoryFd);
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(memory)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let (mut a, mut b) = (-1, -1);
    // SAFETY: valid arguments.
    unsafe {
        assert_eq!(get_fd(device.handle(), &info, &mut a), vk::Result::SUCCESS);
        assert_eq!(get_fd(device.handle(), &info, &mut b), vk::Result::SUCCESS);
    }
    assert!(a >= 0);
    assert_eq!(a, b, "same_fd_twice");
    assert_eq!(fd_flags(a) & libc::FD_CLOEXEC, 0, "fd_without_cloexec");

    let get_address = device_fn!(
        &instance,
        &device,
        "vkGetMemoryRemoteAddressNV",
        GetRemoteAddress
    );
    let info = vk::MemoryGetRemoteAddressInfoNV::default()
        .memory(memory)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV);
    let mut address = std::ptr::dangling_mut::<c_void>();
    // SAFETY: valid arguments.
    let r = unsafe { get_address(device.handle(), &info, &mut address) };
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address.is_null(), "zero_remote_address");

    let get_win32 = device_fn!(
        &instance,
        &device,
        "vkGetMemoryWin32HandleNV",
        GetWin32Handle
    );
    let mut handle = std::ptr::dangling_mut::<c_void>();
    // SAFETY: valid arguments.
    let r = unsafe {
        get_win32(
            device.handle(),
            memory,
            vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32,
            &mut handle,
        )
    };
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle.is_null(), "null_win32_handle");

    let get_metal = device_fn!(
        &instance,
        &device,
        "vkGetMemoryMetalHandleEXT",
        GetMetalHandle
    );
    let info = MemoryGetMetalHandleInfoEXT {
        s_type: STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
        p_next: std::ptr::null(),
        memory,
        handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(HANDLE_TYPE_MTLBUFFER),
    };
    let mut handle = std::ptr::dangling_mut::<c_void>();
    // SAFETY: valid arguments.
    let r = unsafe { get_metal(device.handle(), &info, &mut handle) };
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle.is_null(), "null_metal_handle");

    // SAFETY: destroying what was created; the one fd handed out is ours to close.
    unsafe {
        destroy_device(&device);
        destroy_instance(&instance);
        libc::close(a);
    }

    let instance =
        create_instance(Some(r#"{"misbehave": {"invalid_fd": true}}"#)).expect("instance");
    let device = create_device(&instance, &FD_EXTENSIONS, false).expect("device");
    let memory = allocate(&device, SIZE, 0, std::ptr::null()).expect("allocate");
    let get_fd = device_fn!(&instance, &device, "vkGetMemoryFdKHR", GetMemoryFd);
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(memory)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT);
    let mut fd = 0;
    // SAFETY: valid arguments.
    let r = unsafe { get_fd(device.handle(), &info, &mut fd) };
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(fd, -1, "invalid_fd");
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn chained_configuration_shapes_the_device() {
    let config = r#"{
        "device_extensions": ["VK_KHR_external_memory", "VK_NV_external_memory_rdma"],
        "memory_types": [{"flags": ["HOST_VISIBLE", "HOST_COHERENT"], "heap": 0}],
        "memory_heaps": [{"size": 1048576, "flags": []}],
        "features": {"external_memory_rdma": false},
        "external_buffer": {"OPAQUE_FD": {"features": ["IMPORTABLE"]}}
    }"#;
    let instance = create_instance(Some(config)).expect("instance");
    let pd = physical_device(&instance);
    // SAFETY: valid physical device.
    let (props, memory_props, extensions) = unsafe {
        (
            instance.get_physical_device_properties(pd),
            instance.get_physical_device_memory_properties(pd),
            instance.enumerate_device_extension_properties(pd).unwrap(),
        )
    };
    assert_eq!(
        props.device_name_as_c_str().unwrap(),
        c"exportcheck test driver"
    );
    assert_eq!(memory_props.memory_type_count, 1);
    assert_eq!(memory_props.memory_heaps[0].size, 1 << 20);
    let names: Vec<_> = extensions
        .iter()
        .map(|e| e.extension_name_as_c_str().unwrap().to_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let buffer_info = vk::PhysicalDeviceExternalBufferInfo::default()
        .usage(vk::BufferUsageFlags::TRANSFER_SRC)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let mut buffer_props = vk::ExternalBufferProperties::default();
    // SAFETY: valid arguments.
    unsafe {
        instance.get_physical_device_external_buffer_properties(pd, &buffer_info, &mut buffer_props)
    };
    let m = buffer_props.external_memory_properties;
    assert_eq!(
        m.external_memory_features,
        vk::ExternalMemoryFeatureFlags::IMPORTABLE
    );
    assert_eq!(
        m.compatible_handle_types,
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD
    );

    // Not exposed now: refused (by the loader, before the driver sees it).
    assert_eq!(
        create_device(&instance, &["VK_KHR_external_memory_fd"], false).err(),
        Some(vk::Result::ERROR_EXTENSION_NOT_PRESENT)
    );
    // The feature is off: enabling it fails like on a real driver.
    assert_eq!(
        create_device(&instance, &["VK_NV_external_memory_rdma"], true).err(),
        Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
    );
    // SAFETY: destroying what was created.
    destroy_instance(&instance);
}

#[test]
fn bad_chained_configuration_fails_instance_creation() {
    let result = create_instance(Some("{this is not json"));
    // The driver fails with VK_ERROR_INITIALIZATION_FAILED; the loader, having no other driver
    // that succeeded, reports VK_ERROR_INCOMPATIBLE_DRIVER to the application.
    let err = result.err().expect("instance creation must fail");
    assert!(
        err == vk::Result::ERROR_INCOMPATIBLE_DRIVER
            || err == vk::Result::ERROR_INITIALIZATION_FAILED,
        "{err:?}"
    );
    // One instance failing does not disturb the next.
    let instance = create_instance(Some("{}")).expect("instance");
    // SAFETY: destroying what was created.
    destroy_instance(&instance);
}

#[test]
fn garbage_input_is_refused_without_crashing() {
    let instance = create_instance(Some("{}")).expect("instance");
    let extensions = [
        "VK_KHR_external_memory",
        "VK_KHR_external_memory_fd",
        "VK_EXT_external_memory_dma_buf",
        "VK_NV_external_memory_rdma",
        "VK_NV_external_memory",
        "VK_NV_external_memory_win32",
        "VK_EXT_external_memory_metal",
    ];
    let device = create_device(&instance, &extensions, false).expect("device");
    let other = create_device(&instance, &extensions, false).expect("second device");
    let bogus: vk::DeviceMemory = vk::Handle::from_raw(0xDEAD_BEEF);
    let memory = allocate(&device, SIZE, 0, std::ptr::null()).expect("allocate");
    let get_fd = device_fn!(&instance, &device, "vkGetMemoryFdKHR", GetMemoryFd);
    let get_fd_properties = device_fn!(
        &instance,
        &device,
        "vkGetMemoryFdPropertiesKHR",
        GetMemoryFdProperties
    );
    let get_address = device_fn!(
        &instance,
        &device,
        "vkGetMemoryRemoteAddressNV",
        GetRemoteAddress
    );
    let get_win32 = device_fn!(
        &instance,
        &device,
        "vkGetMemoryWin32HandleNV",
        GetWin32Handle
    );
    let get_metal_properties = device_fn!(
        &instance,
        &device,
        "vkGetMemoryMetalHandlePropertiesEXT",
        GetMetalHandleProperties
    );
    let opaque = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

    let fd_info = |memory| {
        vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(opaque)
    };
    let mut fd = 7;
    // SAFETY: invalid usage on purpose; every pointer passed is valid or NULL.
    unsafe {
        assert_eq!(
            get_fd(device.handle(), &fd_info(bogus), &mut fd),
            vk::Result::ERROR_UNKNOWN
        );
        // Memory of another device is unknown to this one.
        assert_eq!(
            get_fd(other.handle(), &fd_info(memory), &mut fd),
            vk::Result::ERROR_UNKNOWN
        );
        assert_eq!(
            get_fd(device.handle(), &fd_info(memory), std::ptr::null_mut()),
            vk::Result::ERROR_UNKNOWN
        );
        assert_eq!(
            get_fd(device.handle(), std::ptr::null(), &mut fd),
            vk::Result::ERROR_UNKNOWN
        );
        let win32_info =
            fd_info(memory).handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32);
        assert_eq!(
            get_fd(device.handle(), &win32_info, &mut fd),
            vk::Result::ERROR_UNKNOWN
        );
        assert_eq!(fd, 7, "nothing written on failure");

        let mut props = vk::MemoryFdPropertiesKHR::default();
        assert_eq!(
            get_fd_properties(device.handle(), opaque, 0, &mut props),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );
        let dma_buf = vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
        assert_eq!(
            get_fd_properties(device.handle(), dma_buf, 100_000, &mut props),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );

        let info = vk::MemoryGetRemoteAddressInfoNV::default()
            .memory(bogus)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV);
        let mut address = std::ptr::null_mut();
        assert_eq!(
            get_address(device.handle(), &info, &mut address),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );
        let win32 = vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
        assert_eq!(
            get_win32(device.handle(), memory, win32, std::ptr::null_mut()),
            vk::Result::ERROR_UNKNOWN
        );
        let mut metal_props = MemoryMetalHandlePropertiesEXT {
            s_type: STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT,
            p_next: std::ptr::null_mut(),
            memory_type_bits: 0,
        };
        let mtlbuffer = vk::ExternalMemoryHandleTypeFlags::from_raw(HANDLE_TYPE_MTLBUFFER);
        assert_eq!(
            get_metal_properties(
                device.handle(),
                mtlbuffer,
                std::ptr::null(),
                &mut metal_props
            ),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );

        assert_eq!(
            device.map_memory(bogus, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()),
            Err(vk::Result::ERROR_MEMORY_MAP_FAILED)
        );
        assert_eq!(
            device.map_memory(memory, SIZE, 1, vk::MemoryMapFlags::empty()),
            Err(vk::Result::ERROR_MEMORY_MAP_FAILED)
        );
        device.unmap_memory(bogus);
        device.free_memory(bogus, None);
        other.free_memory(memory, None);
    }

    // Imports of descriptors that are not open, or too small, are refused (and not taken).
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(opaque)
        .fd(-1);
    let chain = (&mut import as *mut vk::ImportMemoryFdInfoKHR).cast();
    assert_eq!(
        allocate(&device, SIZE, 0, chain),
        Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE)
    );
    let mut pipe = [0; 2];
    // SAFETY: a fresh pipe, both ends ours.
    let r = unsafe { libc::pipe(pipe.as_mut_ptr()) };
    assert_eq!(r, 0);
    import.fd = pipe[0];
    let chain = (&mut import as *mut vk::ImportMemoryFdInfoKHR).cast();
    assert!(
        allocate(&device, SIZE, 0, chain).is_ok(),
        "a non-file descriptor is not size-checked"
    );
    let mut get = vk::MemoryGetFdInfoKHR::default()
        .memory(memory)
        .handle_type(opaque);
    get.p_next = std::ptr::null();
    let mut small = -1;
    // SAFETY: valid arguments.
    let r = unsafe { get_fd(device.handle(), &get, &mut small) };
    assert_eq!(r, vk::Result::SUCCESS);
    import.fd = small;
    let chain = (&mut import as *mut vk::ImportMemoryFdInfoKHR).cast();
    assert_eq!(
        allocate(&device, 2 * SIZE, 0, chain),
        Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE)
    );
    assert_ne!(
        fd_flags(small),
        -1,
        "a refused descriptor stays open (not taken)"
    );

    // The first allocation still works after all that.
    let mut good = -1;
    // SAFETY: valid arguments.
    let r = unsafe { get_fd(device.handle(), &fd_info(memory), &mut good) };
    assert_eq!(r, vk::Result::SUCCESS);
    // SAFETY: our descriptors; destroying what was created (the pipe's read end now belongs to
    // the driver and is closed with its allocation).
    unsafe {
        libc::close(good);
        libc::close(small);
        libc::close(pipe[1]);
        destroy_device(&other);
        destroy_device(&device);
        destroy_instance(&instance);
    }
    assert_eq!(
        fd_flags(pipe[0]),
        -1,
        "the imported pipe end was closed with the device"
    );
}

#[test]
fn physical_device_count_makes_one_device_group_of_distinct_devices() {
    let instance =
        common::create_instance(Some(r#"{"physical_device_count": 2}"#)).expect("vkCreateInstance");
    // SAFETY: a live instance.
    let devices = unsafe { instance.enumerate_physical_devices() }.expect("enumerate");
    assert_eq!(devices.len(), 2);
    let uuid = |pd| {
        let mut id = vk::PhysicalDeviceIDProperties::default();
        let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
        // SAFETY: a physical device of this instance and output structures of ours.
        unsafe { instance.get_physical_device_properties2(pd, &mut properties) };
        id.device_uuid
    };
    assert_eq!(uuid(devices[0]), *b"exportcheck-dev1");
    assert_eq!(uuid(devices[1]), *b"exportcheck-dev2");
    // SAFETY: a live instance.
    let count = unsafe { instance.enumerate_physical_device_groups_len() }.expect("groups");
    assert_eq!(count, 1);
    let mut groups = [vk::PhysicalDeviceGroupProperties::default()];
    // SAFETY: room for the one group.
    unsafe { instance.enumerate_physical_device_groups(&mut groups) }.expect("groups");
    let group = &groups[0];
    assert_eq!(group.physical_device_count, 2);
    assert_eq!(&group.physical_devices[..2], &devices[..]);
    assert_eq!(group.subset_allocation, vk::TRUE);
    // A device of the whole group.
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let mut members = vk::DeviceGroupDeviceCreateInfo::default().physical_devices(&devices);
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .push_next(&mut members);
    let device = {
        let _lock = common::loader_lock();
        // SAFETY: valid create info naming the group's physical devices.
        unsafe { instance.create_device(devices[0], &info, None) }.expect("vkCreateDevice")
    };
    common::destroy_device(&device);
    common::destroy_instance(&instance);
}
