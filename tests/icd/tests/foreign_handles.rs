//! The Win32 (`VK_KHR_external_memory_win32`), Zircon (`VK_FUCHSIA_external_memory`) and Android
//! hardware buffer (`VK_ANDROID_external_memory_android_hardware_buffer`) exports through the
//! real loader, with no layer: distinct stable values, the property queries of the driver's own
//! handles, imports of them (an import exports the handle it was given), and the refusal of
//! handles the driver did not export.

#![warn(clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod common;

use ash::vk;
use common::*;
use std::ffi::c_void;

type Types = vk::ExternalMemoryHandleTypeFlags;
const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
const SIZE: u64 = 65536;

fn device_with(instance: &ash::Instance, extension: &str) -> ash::Device {
    create_device(instance, &["VK_KHR_external_memory", extension], false).expect("device")
}

fn exporting(device: &ash::Device, types: Types) -> vk::DeviceMemory {
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(types);
    allocate(
        device,
        SIZE,
        0,
        (&mut export as *mut vk::ExportMemoryAllocateInfo).cast(),
    )
    .expect("allocate")
}

#[test]
fn win32_handles_round_trip_and_foreign_ones_are_refused() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = device_with(&instance, "VK_KHR_external_memory_win32");
    let get = device_fn!(
        &instance,
        &device,
        "vkGetMemoryWin32HandleKHR",
        vk::PFN_vkGetMemoryWin32HandleKHR
    );
    let properties = device_fn!(
        &instance,
        &device,
        "vkGetMemoryWin32HandlePropertiesKHR",
        vk::PFN_vkGetMemoryWin32HandlePropertiesKHR
    );
    let (nt, kmt) = (Types::OPAQUE_WIN32, Types::OPAQUE_WIN32_KMT);
    let memory = exporting(&device, nt | kmt);
    let export = |memory, handle_type| {
        let info = vk::MemoryGetWin32HandleInfoKHR::default()
            .memory(memory)
            .handle_type(handle_type);
        let mut handle: vk::HANDLE = 0;
        // SAFETY: valid arguments.
        let r = unsafe { get(device.handle(), &info, &mut handle) };
        assert_eq!(r, vk::Result::SUCCESS);
        handle
    };
    let (a, b) = (export(memory, nt), export(memory, kmt));
    assert!(a != 0 && b != 0 && a != b);
    assert_eq!(export(memory, nt), a, "stable");

    let query = |handle_type, handle| {
        let mut props = vk::MemoryWin32HandlePropertiesKHR::default();
        // SAFETY: valid arguments.
        let r = unsafe { properties(device.handle(), handle_type, handle, &mut props) };
        (r, props.memory_type_bits)
    };
    assert!(matches!(query(nt, a), (vk::Result::SUCCESS, bits) if bits != 0));
    assert_eq!(query(kmt, a).0, INVALID, "another type's handle");
    assert_eq!(query(nt, 0x1234).0, INVALID, "not the driver's");

    let import = |handle_type, handle| {
        let info = vk::ImportMemoryWin32HandleInfoKHR::default()
            .handle_type(handle_type)
            .handle(handle);
        allocate(
            &device,
            SIZE,
            0,
            (&info as *const vk::ImportMemoryWin32HandleInfoKHR).cast(),
        )
    };
    let imported = import(nt, a).expect("import");
    assert_eq!(export(imported, nt), a, "exports what it imported");
    assert_eq!(import(nt, 0x1234), Err(INVALID));
    assert_eq!(import(kmt, a), Err(INVALID));
    let mut by_name = vk::ImportMemoryWin32HandleInfoKHR::default()
        .handle_type(nt)
        .handle(a);
    by_name.name = [0u16; 2].as_ptr();
    let r = allocate(
        &device,
        SIZE,
        0,
        (&by_name as *const vk::ImportMemoryWin32HandleInfoKHR).cast(),
    );
    assert_eq!(r, Err(INVALID), "no named objects");
    // SAFETY: destroying what was created.
    unsafe {
        device.free_memory(imported, None);
        device.free_memory(memory, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn zircon_handles_round_trip_and_foreign_ones_are_refused() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = device_with(&instance, "VK_FUCHSIA_external_memory");
    let get = device_fn!(
        &instance,
        &device,
        "vkGetMemoryZirconHandleFUCHSIA",
        vk::PFN_vkGetMemoryZirconHandleFUCHSIA
    );
    let properties = device_fn!(
        &instance,
        &device,
        "vkGetMemoryZirconHandlePropertiesFUCHSIA",
        vk::PFN_vkGetMemoryZirconHandlePropertiesFUCHSIA
    );
    let vmo = Types::ZIRCON_VMO_FUCHSIA;
    let (first, second) = (exporting(&device, vmo), exporting(&device, vmo));
    let export = |memory| {
        let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
            .memory(memory)
            .handle_type(vmo);
        let mut handle = 0;
        // SAFETY: valid arguments.
        let r = unsafe { get(device.handle(), &info, &mut handle) };
        assert_eq!(r, vk::Result::SUCCESS);
        handle
    };
    let (a, b) = (export(first), export(second));
    assert!(a != 0 && b != 0 && a != b);
    let query = |handle_type, handle| {
        let mut props = vk::MemoryZirconHandlePropertiesFUCHSIA::default();
        // SAFETY: valid arguments.
        let r = unsafe { properties(device.handle(), handle_type, handle, &mut props) };
        (r, props.memory_type_bits)
    };
    assert!(matches!(query(vmo, a), (vk::Result::SUCCESS, bits) if bits != 0));
    assert_eq!(query(Types::OPAQUE_FD, a).0, INVALID);
    assert_eq!(query(vmo, 7).0, INVALID);
    let import = |handle| {
        let info = vk::ImportMemoryZirconHandleInfoFUCHSIA::default()
            .handle_type(vmo)
            .handle(handle);
        allocate(
            &device,
            SIZE,
            0,
            (&info as *const vk::ImportMemoryZirconHandleInfoFUCHSIA).cast(),
        )
    };
    let imported = import(a).expect("import");
    assert_eq!(export(imported), a, "exports what it imported");
    assert_eq!(import(7), Err(INVALID));
    // SAFETY: destroying what was created.
    unsafe {
        device.free_memory(imported, None);
        device.free_memory(first, None);
        device.free_memory(second, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn android_hardware_buffers_round_trip_and_foreign_ones_are_refused() {
    let instance = create_instance(Some("{}")).expect("instance");
    let device = device_with(
        &instance,
        "VK_ANDROID_external_memory_android_hardware_buffer",
    );
    let get = device_fn!(
        &instance,
        &device,
        "vkGetMemoryAndroidHardwareBufferANDROID",
        vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID
    );
    let properties = device_fn!(
        &instance,
        &device,
        "vkGetAndroidHardwareBufferPropertiesANDROID",
        vk::PFN_vkGetAndroidHardwareBufferPropertiesANDROID
    );
    let memory = exporting(&device, Types::ANDROID_HARDWARE_BUFFER_ANDROID);
    let export = |memory| {
        let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
        let mut buffer: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid arguments.
        let r = unsafe { get(device.handle(), &info, &mut buffer) };
        assert_eq!(r, vk::Result::SUCCESS);
        buffer
    };
    let buffer = export(memory);
    assert!(!buffer.is_null());
    let query = |buffer: *const c_void| {
        let mut props = vk::AndroidHardwareBufferPropertiesANDROID::default();
        // SAFETY: valid arguments (the driver never dereferences a buffer).
        let r = unsafe { properties(device.handle(), buffer, &mut props) };
        (r, props.allocation_size, props.memory_type_bits)
    };
    assert!(matches!(query(buffer), (vk::Result::SUCCESS, SIZE, bits) if bits != 0));
    assert_eq!(query(0x1000 as *const c_void).0, INVALID);
    let import = |buffer: *mut c_void| {
        let info = vk::ImportAndroidHardwareBufferInfoANDROID {
            buffer,
            ..Default::default()
        };
        allocate(
            &device,
            SIZE,
            0,
            (&info as *const vk::ImportAndroidHardwareBufferInfoANDROID).cast(),
        )
    };
    let imported = import(buffer).expect("import");
    assert_eq!(export(imported), buffer, "exports what it imported");
    assert_eq!(import(0x1000 as *mut c_void), Err(INVALID));
    // SAFETY: destroying what was created.
    unsafe {
        device.free_memory(imported, None);
        device.free_memory(memory, None);
    }
    // Its allocation freed, the buffer has no size to report.
    assert_eq!(query(buffer).0, INVALID);
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn misbehaving_modes_return_null_handles_with_success() {
    let config = r#"{"misbehave": {"null_win32_handle_khr": true, "invalid_zircon_handle": true,
        "null_android_hardware_buffer": true}}"#;
    let instance = create_instance(Some(config)).expect("instance");
    let device = create_device(
        &instance,
        &[
            "VK_KHR_external_memory",
            "VK_KHR_external_memory_win32",
            "VK_FUCHSIA_external_memory",
            "VK_ANDROID_external_memory_android_hardware_buffer",
        ],
        false,
    )
    .expect("device");
    let all =
        Types::OPAQUE_WIN32 | Types::ZIRCON_VMO_FUCHSIA | Types::ANDROID_HARDWARE_BUFFER_ANDROID;
    let memory = exporting(&device, all);
    let win32 = device_fn!(
        &instance,
        &device,
        "vkGetMemoryWin32HandleKHR",
        vk::PFN_vkGetMemoryWin32HandleKHR
    );
    let zircon = device_fn!(
        &instance,
        &device,
        "vkGetMemoryZirconHandleFUCHSIA",
        vk::PFN_vkGetMemoryZirconHandleFUCHSIA
    );
    let ahb = device_fn!(
        &instance,
        &device,
        "vkGetMemoryAndroidHardwareBufferANDROID",
        vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID
    );
    let info = vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(Types::OPAQUE_WIN32);
    let mut handle: vk::HANDLE = 1;
    // SAFETY: valid arguments.
    let r = unsafe { win32(device.handle(), &info, &mut handle) };
    assert_eq!((r, handle), (vk::Result::SUCCESS, 0));
    let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
        .memory(memory)
        .handle_type(Types::ZIRCON_VMO_FUCHSIA);
    let mut handle = 1;
    // SAFETY: valid arguments.
    let r = unsafe { zircon(device.handle(), &info, &mut handle) };
    assert_eq!((r, handle), (vk::Result::SUCCESS, 0));
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
    let mut buffer = 0x5e5e_usize as *mut c_void;
    // SAFETY: valid arguments.
    let r = unsafe { ahb(device.handle(), &info, &mut buffer) };
    assert_eq!((r, buffer), (vk::Result::SUCCESS, std::ptr::null_mut()));
    // SAFETY: destroying what was created.
    unsafe { device.free_memory(memory, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}
