//! The driver contract of the export commands that return a Win32 `HANDLE` (the KHR command), a
//! Zircon handle or an Android hardware buffer, end to end on the project's test driver
//! (`tests/icd`), which returns NULL / `ZX_HANDLE_INVALID` on demand (`misbehave`, see
//! docs/test-driver.md): a valid call that succeeded with nothing in the output is a driver
//! defect, reported once per device; an invalid call's result is not held against the driver; a
//! well-behaved driver gets nothing. The scenarios are `exportcheck_tests::test_driver`'s, shared
//! with every export command.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{self, Misbehaving};
use exportcheck_tests::{Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::c_void;

type Types = vk::ExternalMemoryHandleTypeFlags;
const OPAQUE_WIN32: Types = Types::OPAQUE_WIN32;
const OPAQUE_WIN32_KMT: Types = Types::OPAQUE_WIN32_KMT;
const VMO: Types = Types::ZIRCON_VMO_FUCHSIA;
const AHB: Types = Types::ANDROID_HARDWARE_BUFFER_ANDROID;

/// Memory of type 0, exported as `export`.
fn exported(dev: &Device, export: Types) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, Some(export), None)
}

fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory_win32::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// `vkGetMemoryWin32HandleKHR`: the result and the handle written.
fn win32_export(dev: &Device, memory: vk::DeviceMemory, handle_type: Types) -> (vk::Result, isize) {
    let get = dev.win32_handle_khr.expect("vkGetMemoryWin32HandleKHR");
    let info = vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(handle_type);
    let mut handle: vk::HANDLE = 7;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), &info, &mut handle) };
    (result, handle)
}

fn fuchsia_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::fuchsia::external_memory::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// `vkGetMemoryZirconHandleFUCHSIA`: the result and the handle written.
fn zircon_export(dev: &Device, memory: vk::DeviceMemory) -> (vk::Result, u32) {
    let get = dev.zircon_handle.expect("vkGetMemoryZirconHandleFUCHSIA");
    let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
        .memory(memory)
        .handle_type(VMO);
    let mut handle = 7;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), &info, &mut handle) };
    (result, handle)
}

fn android_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// `vkGetMemoryAndroidHardwareBufferANDROID`: the result and the buffer written.
fn android_export(dev: &Device, memory: vk::DeviceMemory) -> (vk::Result, usize) {
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
    let mut buffer = 7usize as *mut c_void;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), &info, &mut buffer) };
    (result, buffer as usize)
}

const NULL_WIN32: &str = r#"{"misbehave":{"null_win32_handle_khr":true}}"#;
const INVALID_ZIRCON: &str = r#"{"misbehave":{"invalid_zircon_handle":true}}"#;
const NULL_AHB: &str = r#"{"misbehave":{"null_android_hardware_buffer":true}}"#;

#[test]
fn a_null_win32_handle_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: NULL_WIN32,
            device: win32_device,
            memory: |_, dev| exported(dev, OPAQUE_WIN32 | OPAQUE_WIN32_KMT),
            // A KMT handle may be exported again; the NT handle once (00663).
            export: |dev, mem| {
                for handle_type in [OPAQUE_WIN32_KMT, OPAQUE_WIN32, OPAQUE_WIN32_KMT] {
                    let answer = win32_export(dev, mem, handle_type);
                    assert_eq!(answer, (vk::Result::SUCCESS, 0), "the misbehaving driver");
                }
            },
        },
        GET_WIN32_HANDLE_KHR,
        DRIVER_NULL_WIN32_HANDLE_KHR,
        &["but *pHandle is NULL"],
    );
}

#[test]
fn an_invalid_zircon_handle_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: INVALID_ZIRCON,
            device: fuchsia_device,
            memory: |_, dev| exported(dev, VMO),
            export: |dev, mem| {
                for _ in 0..3 {
                    let answer = zircon_export(dev, mem);
                    assert_eq!(answer, (vk::Result::SUCCESS, 0), "the misbehaving driver");
                }
            },
        },
        GET_ZIRCON_HANDLE,
        DRIVER_INVALID_ZIRCON_HANDLE,
        &["but *pZirconHandle is ZX_HANDLE_INVALID"],
    );
}

#[test]
fn a_null_android_hardware_buffer_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: NULL_AHB,
            device: android_device,
            memory: |_, dev| exported(dev, AHB),
            export: |dev, mem| {
                for _ in 0..3 {
                    let answer = android_export(dev, mem);
                    assert_eq!(answer, (vk::Result::SUCCESS, 0), "the misbehaving driver");
                }
            },
        },
        GET_ANDROID_HARDWARE_BUFFER,
        DRIVER_NULL_ANDROID_HARDWARE_BUFFER,
        &["but *pBuffer is NULL"],
    );
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: NULL_WIN32,
            device: win32_device,
            memory: |_, dev| exported(dev, OPAQUE_FD),
            export: |dev, mem| {
                let answer = win32_export(dev, mem, OPAQUE_WIN32_KMT);
                assert_eq!(answer, (vk::Result::SUCCESS, 0));
            },
        },
        GET_WIN32_HANDLE_KHR,
        WIN32_KHR_HANDLE_TYPE_00662,
    );
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: INVALID_ZIRCON,
            device: fuchsia_device,
            memory: |_, dev| exported(dev, OPAQUE_FD),
            export: |dev, mem| assert_eq!(zircon_export(dev, mem), (vk::Result::SUCCESS, 0)),
        },
        GET_ZIRCON_HANDLE,
        ZIRCON_HANDLE_TYPE_04776,
    );
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: NULL_AHB,
            device: android_device,
            memory: |_, dev| exported(dev, OPAQUE_FD),
            export: |dev, mem| assert_eq!(android_export(dev, mem), (vk::Result::SUCCESS, 0)),
        },
        GET_ANDROID_HARDWARE_BUFFER,
        AHB_HANDLE_TYPES_01882,
    );
}

#[test]
fn well_behaved_drivers_get_no_warning() {
    test_driver::assert_well_behaved_driver_gets_no_warning(
        win32_device,
        GET_WIN32_HANDLE_KHR,
        |_, dev| {
            let mem = exported(dev, OPAQUE_WIN32 | OPAQUE_WIN32_KMT);
            for handle_type in [OPAQUE_WIN32, OPAQUE_WIN32_KMT] {
                let (result, handle) = win32_export(dev, mem, handle_type);
                assert_eq!(result, vk::Result::SUCCESS);
                assert!(handle != 0 && handle != 7, "{handle:#x}");
            }
            dev.free(mem);
        },
    );
    test_driver::assert_well_behaved_driver_gets_no_warning(
        fuchsia_device,
        GET_ZIRCON_HANDLE,
        |_, dev| {
            let mem = exported(dev, VMO);
            let (result, handle) = zircon_export(dev, mem);
            assert_eq!(result, vk::Result::SUCCESS);
            assert!(handle != 0 && handle != 7, "{handle:#x}");
            dev.free(mem);
        },
    );
    test_driver::assert_well_behaved_driver_gets_no_warning(
        android_device,
        GET_ANDROID_HARDWARE_BUFFER,
        |_, dev| {
            let mem = exported(dev, AHB);
            let (result, buffer) = android_export(dev, mem);
            assert_eq!(result, vk::Result::SUCCESS);
            assert!(buffer != 0 && buffer != 7, "{buffer:#x}");
            dev.free(mem);
        },
    );
}
