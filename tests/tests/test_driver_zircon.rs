//! vkGetMemoryZirconHandleFUCHSIA end to end: the real loader, the layer, and the project's test
//! driver (`tests/icd`), which exposes VK_FUCHSIA_external_memory on Linux with made-up
//! `zx_handle_t` values: valid exports, the value rules (04775, 04776, every rule an invalid
//! `handleType` breaks). Each bad call yields exactly the IDs of the rules it breaks, is reported
//! and goes down (the driver's call counter moves once). The structural cases (NULL pointers,
//! sType, pNext, bad memory, unknown devices, a device without the extension) are rows of
//! tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::CStr;

const CMD: &str = GET_ZIRCON_HANDLE;
const COUNTED: &CStr = c"vkGetMemoryZirconHandleFUCHSIA";

type Types = vk::ExternalMemoryHandleTypeFlags;
const VMO: Types = Types::ZIRCON_VMO_FUCHSIA;
const VMO_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA";
const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";
/// What `*pZirconHandle` is pre-filled with, to see whether anything was written.
const SENTINEL: u32 = exportcheck_tests::calls::ZIRCON_SENTINEL;

/// A device with VK_FUCHSIA_external_memory and VK_KHR_external_memory.
fn fuchsia_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::fuchsia::external_memory::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// Memory of type 0, exported with `export` if given.
fn memory(dev: &Device, export: Option<Types>) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, export, None)
}

fn info(
    memory: vk::DeviceMemory,
    handle_type: Types,
) -> vk::MemoryGetZirconHandleInfoFUCHSIA<'static> {
    vk::MemoryGetZirconHandleInfoFUCHSIA::default()
        .memory(memory)
        .handle_type(handle_type)
}

/// `vkGetMemoryZirconHandleFUCHSIA` with `info`; `*pZirconHandle` is pre-filled with
/// [`SENTINEL`].
fn call(dev: &Device, info: &vk::MemoryGetZirconHandleInfoFUCHSIA<'_>) -> (vk::Result, u32) {
    let get = dev
        .zircon_handle
        .expect("vkGetMemoryZirconHandleFUCHSIA is enabled");
    let mut handle = SENTINEL;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), info, &mut handle) };
    (result, handle)
}

#[test]
fn vmo_exports_are_distinct_non_zero_handles_silently() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let mem = memory(&dev, Some(VMO | OPAQUE_FD));
    let other = memory(&dev, Some(VMO));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut handles = Vec::new();
    for m in [mem, other, mem] {
        let (r, handle) = call(&dev, &info(m, VMO));
        assert_eq!(r, vk::Result::SUCCESS);
        calls.assert(1, "a valid call goes down once");
        assert!(handle != 0 && handle != SENTINEL, "{handle:#x}");
        handles.push(handle);
        expect::silent(&inst, CMD);
    }
    assert_ne!(handles[0], handles[1], "distinct per allocation");
    dev.free(mem);
    dev.free(other);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn vmo_not_exported_is_04776_with_either_cause() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let fd_only = memory(&dev, Some(OPAQUE_FD));
    let plain = memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(fd_only, VMO));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, ZIRCON_HANDLE_TYPE_04776);
    expect::mentions(
        &m,
        &[&format!(
            "pGetZirconHandleInfo->handleType is {VMO_NAME}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({OPAQUE_FD_NAME}) when {} (allocated on {}",
            memory_name(fd_only),
            device_name(&dev)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, fd_only.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());

    let (r, _) = call(&dev, &info(plain, VMO));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, ZIRCON_HANDLE_TYPE_04776);
    expect::mentions(
        &m,
        &["was allocated without a VkExportMemoryAllocateInfo in the pNext chain"],
    );
    dev.free(fd_only);
    dev.free(plain);
    drop(dev);
}

#[test]
fn other_handle_type_is_04775() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    // Exported as OPAQUE_FD too, so 04776 holds: exactly 04775.
    let mem = memory(&dev, Some(OPAQUE_FD | VMO));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(mem, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, ZIRCON_HANDLE_TYPE_04775);
    expect::mentions(
        &m,
        &[&format!(
            "pGetZirconHandleInfo->handleType is {OPAQUE_FD_NAME}; it must be {VMO_NAME}."
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());

    // Not exported as OPAQUE_FD either: both rules, both said.
    let vmo_only = memory(&dev, Some(VMO));
    let (r, _) = call(&dev, &info(vmo_only, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let both = expect::only(
        &inst,
        CMD,
        &[ZIRCON_HANDLE_TYPE_04775, ZIRCON_HANDLE_TYPE_04776],
    );
    expect::mentions(
        &both[1],
        &[&format!(
            "handleType is {OPAQUE_FD_NAME}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({VMO_NAME})"
        )],
    );
    dev.free(mem);
    dev.free(vmo_only);
    drop(dev);
}

#[test]
fn invalid_handle_type_values_get_every_rule_they_break() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let both = VMO | OPAQUE_FD;
    let mem = memory(&dev, Some(both));
    let cases: [(Types, &[&str], &str); 3] = [
        (
            Types::empty(),
            &[ZIRCON_HANDLE_TYPE_PARAM, ZIRCON_HANDLE_TYPE_04775],
            "0 is no VkExternalMemoryHandleTypeFlagBits value",
        ),
        (
            both,
            &[ZIRCON_HANDLE_TYPE_PARAM, ZIRCON_HANDLE_TYPE_04775],
            "it has more than one bit, and must be a single value",
        ),
        (
            Types::from_raw(1 << 19),
            &[
                ZIRCON_HANDLE_TYPE_PARAM,
                ZIRCON_HANDLE_TYPE_04775,
                ZIRCON_HANDLE_TYPE_04776,
            ],
            "0x80000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
    ];
    for (handle_type, ids, why) in cases {
        let mut calls = Calls::of(COUNTED);
        let (r, handle) = call(&dev, &info(mem, handle_type));
        calls.assert(1, &format!("{handle_type:?}: reported, then passed down"));
        assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
        assert_ne!(handle, SENTINEL);
        let m = expect::only(&inst, CMD, ids);
        expect::mentions(
            &m[0],
            &[
                "pGetZirconHandleInfo->handleType is ",
                &format!(
                    "which is not a valid VkExternalMemoryHandleTypeFlagBits value on {}: {why}.",
                    device_name(&dev)
                ),
            ],
        );
        for m in &m {
            expect::object(m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        }
    }
    dev.free(mem);
    drop(dev);
}

#[test]
fn the_vmo_type_without_the_extension_is_a_parameter_error_too() {
    // A device without VK_FUCHSIA_external_memory: the command is not the layer's there, but a
    // pointer fetched for another device reaches it (EXPORTCHECK-extension-not-enabled), and
    // ZIRCON_VMO is no valid value on it.
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let plain_dev = inst.device(&[ash::khr::external_memory::NAME]);
    let mem = memory(&plain_dev, Some(OPAQUE_FD));
    let get = dev.zircon_handle.expect("enabled on dev");
    let mut handle = SENTINEL;
    // SAFETY: a live info structure and output pointer; the device lacks the extension (the
    // point of the test).
    let r = unsafe { get(plain_dev.handle(), &info(mem, VMO), &mut handle) };
    // Reported and passed on, but the next layer has no such command on this device.
    assert_eq!(r, vk::Result::ERROR_EXTENSION_NOT_PRESENT);
    assert_eq!(handle, SENTINEL, "nothing written");
    expect::only(
        &inst,
        CMD,
        &[
            EXTENSION_NOT_ENABLED,
            ZIRCON_HANDLE_TYPE_PARAM,
            ZIRCON_HANDLE_TYPE_04776,
        ],
    );
    plain_dev.free(mem);
    drop(plain_dev);
    drop(dev);
}
