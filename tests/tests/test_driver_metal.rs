//! vkGetMemoryMetalHandleEXT end to end: the real loader, the layer, and the project's test driver
//! (`tests/icd`), which exposes VK_EXT_external_memory_metal on Linux with made-up Metal object
//! pointers: valid exports, the value rules (10413, 10414, 10415, every rule an invalid
//! `handleType` breaks) and the driver contract. Each bad call yields exactly the IDs of the rules
//! it breaks, is reported and goes down (the driver's call counter moves once). The structural
//! cases (NULL pointers, sType, pNext, bad memory, unknown devices, a device without the
//! extension) are rows of tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::app::{
    MemoryGetMetalHandleInfo, METAL_INFO_STYPE, MTLBUFFER, MTLHEAP, MTLTEXTURE,
};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{self, exclusive, Calls, Misbehaving};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = GET_METAL_HANDLE;
const COUNTED: &CStr = c"vkGetMemoryMetalHandleEXT";
const EXTENSION: &CStr = c"VK_EXT_external_memory_metal";

const MTLBUFFER_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT";
const MTLHEAP_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT";
const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";
/// What `*pHandle` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = exportcheck_tests::POINTER_SENTINEL;
const NULL_HANDLE: &str = r#"{"misbehave":{"null_metal_handle":true}}"#;

fn all_metal() -> vk::ExternalMemoryHandleTypeFlags {
    MTLBUFFER | MTLTEXTURE | MTLHEAP
}

/// A device with VK_EXT_external_memory_metal and VK_KHR_external_memory.
fn metal_device(inst: &Instance) -> Device {
    inst.device(&[EXTENSION, ash::khr::external_memory::NAME])
}

/// Memory of type 0, exported with `export` if given.
fn memory(dev: &Device, export: Option<vk::ExternalMemoryHandleTypeFlags>) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, export, None)
}

fn info(
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
) -> MemoryGetMetalHandleInfo {
    MemoryGetMetalHandleInfo {
        s_type: METAL_INFO_STYPE,
        p_next: std::ptr::null(),
        memory,
        handle_type,
    }
}

/// `vkGetMemoryMetalHandleEXT` with `info`; `*pHandle` is pre-filled with [`SENTINEL`].
fn call(dev: &Device, info: *const MemoryGetMetalHandleInfo) -> (vk::Result, usize) {
    let mut handle = SENTINEL as *mut c_void;
    // SAFETY: `info` is NULL or points to a live structure (NULL on purpose in a test); the
    // output pointer is valid.
    let result = unsafe { dev.get_metal_handle_raw(info, &mut handle) };
    (result, handle as usize)
}

#[test]
fn each_metal_handle_type_exports_a_distinct_non_null_handle_silently() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mem = memory(&dev, Some(all_metal()));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut handles = Vec::new();
    for handle_type in [MTLBUFFER, MTLTEXTURE, MTLHEAP] {
        let (r, handle) = call(&dev, &info(mem, handle_type));
        assert_eq!(r, vk::Result::SUCCESS, "{handle_type:?}");
        calls.assert(1, "a valid call goes down once");
        assert!(
            handle != 0 && handle != SENTINEL,
            "{handle_type:?}: the driver wrote no handle: {handle:#x}"
        );
        assert!(!handles.contains(&handle), "{handle:#x} handed out twice");
        handles.push(handle);
        expect::silent(&inst, CMD);
    }
    // Memory exported as one type only exports that type, silently.
    let buffer_only = memory(&dev, Some(MTLBUFFER));
    let (r, handle) = call(&dev, &info(buffer_only, MTLBUFFER));
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle != 0 && !handles.contains(&handle), "{handle:#x}");
    expect::silent(&inst, CMD);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    dev.free(buffer_only);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn memory_allocated_without_export_info_is_10413() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let plain = memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(plain, MTLBUFFER));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, METAL_MEMORY_10413);
    expect::mentions(
        &m,
        &[
            &format!(
                "pGetMetalHandleInfo->memory is {} (allocated on {} with allocationSize {SIZE}",
                memory_name(plain),
                device_name(&dev)
            ),
            "no VkExportMemoryAllocateInfo), which was allocated without a \
             VkExportMemoryAllocateInfo in the pNext chain of VkMemoryAllocateInfo, so it cannot \
             be exported.",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, plain.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());

    // With a type that is no Metal type either: both rules are broken, and both are said.
    let (r, _) = call(&dev, &info(plain, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let both = expect::only(&inst, CMD, &[METAL_MEMORY_10413, METAL_HANDLE_TYPE_10415]);
    expect::mentions(
        &both[0],
        &["which was allocated without a VkExportMemoryAllocateInfo"],
    );
    expect::mentions(
        &both[1],
        &[&format!(
            "pGetMetalHandleInfo->handleType is {OPAQUE_FD_NAME}; it must be"
        )],
    );
    dev.free(plain);
    drop(dev);
}

#[test]
fn metal_type_not_exported_is_10414() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mem = memory(&dev, Some(MTLBUFFER));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(mem, MTLHEAP));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, METAL_HANDLE_TYPE_10414);
    expect::mentions(
        &m,
        &[&format!(
            "pGetMetalHandleInfo->handleType is {MTLHEAP_NAME}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({MTLBUFFER_NAME}) when {} (allocated on {}",
            memory_name(mem),
            device_name(&dev)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn non_metal_handle_type_is_10415() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    // Exported with OPAQUE_FD too, so 10414 holds: exactly 10415.
    let mem = memory(&dev, Some(OPAQUE_FD | MTLBUFFER));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(mem, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, METAL_HANDLE_TYPE_10415);
    expect::mentions(
        &m,
        &[&format!(
            "pGetMetalHandleInfo->handleType is {OPAQUE_FD_NAME}; it must be \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT, \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT or \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT."
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());

    // Not exported as OPAQUE_FD either: both rules are broken, and both are said.
    let buffer_only = memory(&dev, Some(MTLBUFFER));
    let (r, _) = call(&dev, &info(buffer_only, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let both = expect::only(
        &inst,
        CMD,
        &[METAL_HANDLE_TYPE_10415, METAL_HANDLE_TYPE_10414],
    );
    expect::mentions(
        &both[1],
        &[&format!(
            "handleType is {OPAQUE_FD_NAME}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({MTLBUFFER_NAME})"
        )],
    );
    dev.free(mem);
    dev.free(buffer_only);
    drop(dev);
}

#[test]
fn invalid_handle_type_values_get_every_rule_they_break() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mem = memory(&dev, Some(all_metal()));
    // (value, the IDs it gets, how the value is named, why it is not a valid value)
    let cases: [(u32, &[&str], &str, &str); 3] = [
        // No single Metal type (10415), but trivially "included" in the export types.
        (
            0,
            &[METAL_HANDLE_TYPE_PARAM, METAL_HANDLE_TYPE_10415],
            "0",
            "0 is no VkExternalMemoryHandleTypeFlagBits value",
        ),
        // Both bits were exported (10414 holds), but they are two.
        (
            (MTLBUFFER | MTLHEAP).as_raw(),
            &[METAL_HANDLE_TYPE_PARAM, METAL_HANDLE_TYPE_10415],
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT|\
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT",
            "it has more than one bit, and must be a single value",
        ),
        (
            1 << 19,
            &[
                METAL_HANDLE_TYPE_PARAM,
                METAL_HANDLE_TYPE_10415,
                METAL_HANDLE_TYPE_10414,
            ],
            "0x80000 (unknown bits)",
            "0x80000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
    ];
    for (raw, ids, named, why) in cases {
        let mut calls = Calls::of(COUNTED);
        let (r, handle) = call(
            &dev,
            &info(mem, vk::ExternalMemoryHandleTypeFlags::from_raw(raw)),
        );
        calls.assert(1, &format!("{raw:#x}: reported, then passed down"));
        assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
        assert_ne!(handle, SENTINEL, "{raw:#x}");
        // Every rule the value breaks, each said once, in this order.
        let m = expect::only(&inst, CMD, ids);
        expect::mentions(
            &m[0],
            &[&format!(
                "pGetMetalHandleInfo->handleType is {named}, which is not a valid \
                 VkExternalMemoryHandleTypeFlagBits value on {}: {why}.",
                device_name(&dev)
            )],
        );
        expect::mentions(
            &m[1],
            &[&format!(
                "pGetMetalHandleInfo->handleType is {named}; it must be \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT"
            )],
        );
        if let Some(m) = m.get(2) {
            expect::mentions(
                m,
                &[&format!(
                    "pGetMetalHandleInfo->handleType is {named}, which was not included in \
                     VkExportMemoryAllocateInfo::handleTypes ({MTLBUFFER_NAME}|\
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT|{MTLHEAP_NAME})"
                )],
            );
        }
        for m in &m {
            expect::object(m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        }
    }
    dev.free(mem);
    drop(dev);
}

#[test]
fn driver_returning_a_null_handle_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: NULL_HANDLE,
            device: metal_device,
            memory: |_, dev| memory(dev, Some(all_metal())),
            export: |dev, mem| {
                for handle_type in [MTLBUFFER, MTLTEXTURE, MTLHEAP] {
                    let (r, handle) = call(dev, &info(mem, handle_type));
                    assert_eq!(
                        (r, handle),
                        (vk::Result::SUCCESS, 0),
                        "the misbehaving driver"
                    );
                }
            },
        },
        CMD,
        DRIVER_NULL_METAL_HANDLE,
        &["but *pHandle is NULL"],
    );
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: NULL_HANDLE,
            device: metal_device,
            memory: |_, dev| memory(dev, Some(MTLBUFFER)),
            export: |dev, mem| {
                let (r, handle) = call(dev, &info(mem, MTLHEAP));
                assert_eq!((r, handle), (vk::Result::SUCCESS, 0));
            },
        },
        CMD,
        METAL_HANDLE_TYPE_10414,
    );
}

#[test]
fn well_behaved_driver_gets_no_warning() {
    test_driver::assert_well_behaved_driver_gets_no_warning(metal_device, CMD, |_, dev| {
        let mem = memory(dev, Some(all_metal()));
        for handle_type in [MTLBUFFER, MTLTEXTURE, MTLHEAP, MTLBUFFER] {
            let (r, handle) = call(dev, &info(mem, handle_type));
            assert_eq!(r, vk::Result::SUCCESS);
            assert!(handle != 0 && handle != SENTINEL);
        }
        dev.free(mem);
    });
}
