//! vkGetMemoryWin32HandleNV end to end: the real loader, the layer, and the project's test driver
//! (`tests/icd`), which exposes VK_NV_external_memory_win32 on Linux with made-up HANDLE values.
//! Valid exports, the value rules of `handleType` (01326, requiredbitmask, -parameter, more than
//! one bit), the driver contract, and the NV export structure's own rules in vkAllocateMemory.
//! Each bad call yields exactly the IDs of the rules it breaks, is reported and goes down (the
//! driver's call counter moves once). The structural cases (NULL pHandle, bad memory, unknown
//! devices, a device without the extension) are rows of tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{self, exclusive, instance, Calls, Misbehaving};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = GET_WIN32_HANDLE;
const COUNTED: &CStr = c"vkGetMemoryWin32HandleNV";

const OPAQUE: vk::ExternalMemoryHandleTypeFlagsNV =
    vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
const KMT: vk::ExternalMemoryHandleTypeFlagsNV =
    vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT;
const OPAQUE_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT_NV";
const KMT_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT_NV";
/// What `*pHandle` is pre-filled with, to see whether anything was written.
const SENTINEL: vk::HANDLE = exportcheck_tests::SENTINEL as vk::HANDLE;
const NULL_HANDLE: &str = r#"{"misbehave":{"null_win32_handle":true}}"#;

/// A device with VK_NV_external_memory and VK_NV_external_memory_win32.
fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::nv::external_memory::NAME,
        ash::nv::external_memory_win32::NAME,
    ])
}

/// Memory of type 0 with `VkExportMemoryAllocateInfoNV { handleTypes: export_nv }` if given.
fn nv_memory(
    dev: &Device,
    export_nv: Option<vk::ExternalMemoryHandleTypeFlagsNV>,
) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, None, export_nv)
}

/// `vkGetMemoryWin32HandleNV`; `*pHandle` is pre-filled with [`SENTINEL`].
fn call(
    dev: &Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
) -> (vk::Result, vk::HANDLE) {
    let mut handle = SENTINEL;
    // SAFETY: a valid output pointer; the memory and type may be bad on purpose.
    let result = unsafe { dev.get_win32_handle_raw(memory, handle_type, &mut handle) };
    (result, handle)
}

#[test]
fn handles_are_non_zero_distinct_per_allocation_and_type_and_silent() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let a = nv_memory(&dev, Some(OPAQUE | KMT));
    let b = nv_memory(&dev, Some(OPAQUE | KMT));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut handles = Vec::new();
    for memory in [a, b] {
        for handle_type in [OPAQUE, KMT] {
            let (r, handle) = call(&dev, memory, handle_type);
            assert_eq!(r, vk::Result::SUCCESS);
            calls.assert(1, "a valid call goes down once");
            assert!(
                handle != 0 && handle != SENTINEL,
                "the driver wrote no handle: {handle:#x}"
            );
            assert!(!handles.contains(&handle), "{handle:#x} handed out twice");
            handles.push(handle);
        }
    }
    expect::silent(&inst, CMD);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(a);
    dev.free(b);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn handle_type_not_in_the_nv_export_info_is_01326() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, mem, KMT);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, WIN32_HANDLE_TYPE_01326);
    expect::mentions(
        &m,
        &[
            &format!(
                "vkGetMemoryWin32HandleNV(): handleType is {KMT_NAME}, which was not in \
                 VkExportMemoryAllocateInfoNV::handleTypes ({OPAQUE_NAME}) when {} (allocated on {}",
                memory_name(mem),
                device_name(&dev)
            ),
            &format!("VkExportMemoryAllocateInfoNV::handleTypes = {OPAQUE_NAME}) was allocated."),
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn memory_without_nv_export_info_is_01326() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let plain = nv_memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, plain, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, WIN32_HANDLE_TYPE_01326);
    expect::mentions(
        &m,
        &[
            &format!(
                "handleType is {OPAQUE_NAME}, but {} (allocated on {}",
                memory_name(plain),
                device_name(&dev)
            ),
            "no VkExportMemoryAllocateInfo) was allocated without a VkExportMemoryAllocateInfoNV \
             in the pNext chain of VkMemoryAllocateInfo.",
        ],
    );
    assert!(!m.text.contains("which was not in"), "{}", m.text);
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, plain.as_raw());

    // The KHR structure does not count: vkGetMemoryWin32HandleNV needs the NV one.
    let khr = dev.allocate_exporting(
        SIZE,
        0,
        Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32),
        None,
    );
    // OPAQUE_WIN32 is a core handle type, valid on any device; whether the test driver can
    // export it (it offers only the NV path) is judged against a buffer or image bound to the
    // memory (09860), not at a plain allocation.
    expect::silent(&inst, ALLOCATE);
    let (r, _) = call(&dev, khr, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, WIN32_HANDLE_TYPE_01326);
    expect::mentions(
        &m,
        &[
            "VkExportMemoryAllocateInfo::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT)",
            "was allocated without a VkExportMemoryAllocateInfoNV",
        ],
    );
    dev.free(plain);
    dev.free(khr);
    drop(dev);
}

#[test]
fn undefined_handle_type_bits_are_handle_type_parameter_and_01326_when_not_exported() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let garbage = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x100);
    // On memory exported with defined bits only, the bit was not exported either (01326); on
    // memory whose NV export structure claimed the same undefined bit, it was.
    for (export, ids) in [
        (
            OPAQUE | KMT,
            &[WIN32_HANDLE_TYPE_PARAM, WIN32_HANDLE_TYPE_01326][..],
        ),
        (garbage, &[WIN32_HANDLE_TYPE_PARAM][..]),
    ] {
        let mem = nv_memory(&dev, Some(export));
        if export == garbage {
            expect::one(&inst, ALLOCATE, EXPORT_NV_HANDLE_TYPES_PARAM);
        } else {
            expect::silent(&inst, ALLOCATE);
        }
        let mut calls = Calls::of(COUNTED);
        let (r, handle) = call(&dev, mem, garbage);
        calls.assert(1, "reported, then passed down");
        assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
        assert_ne!(handle, SENTINEL);
        let m = expect::only(&inst, CMD, ids);
        expect::mentions(
            &m[0],
            &[
                "handleType is 0x100 (unknown bits), which is not a combination of \
               VkExternalMemoryHandleTypeFlagBitsNV values",
            ],
        );
        if let Some(m) = m.get(1) {
            expect::mentions(
                m,
                &[&format!(
                    "handleType is 0x100 (unknown bits), which was not in \
                     VkExportMemoryAllocateInfoNV::handleTypes ({OPAQUE_NAME}|{KMT_NAME}) when {}",
                    memory_name(mem)
                )],
            );
        }
        for m in &m {
            expect::object(m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        }
        dev.free(mem);
    }
    expect::driver_only(&inst, CMD, &[]);
    drop(dev);
}

#[test]
fn zero_handle_type_is_requiredbitmask() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, mem, vk::ExternalMemoryHandleTypeFlagsNV::empty());
    calls.assert(1, "reported, then passed down");
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    let m = expect::one(&inst, CMD, WIN32_HANDLE_TYPE_REQUIRED);
    expect::mentions(
        &m,
        &["vkGetMemoryWin32HandleNV(): handleType is 0; it must name the handle type to export."],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());

    // On memory without a VkExportMemoryAllocateInfoNV, nothing can be exported (01326) either.
    let plain = nv_memory(&dev, None);
    let (r, _) = call(&dev, plain, vk::ExternalMemoryHandleTypeFlagsNV::empty());
    calls.assert(1, "reported, then passed down");
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    let m = expect::only(
        &inst,
        CMD,
        &[WIN32_HANDLE_TYPE_REQUIRED, WIN32_HANDLE_TYPE_01326],
    );
    expect::mentions(
        &m[1],
        &[&format!(
            "handleType is 0, but {} (allocated on {}",
            memory_name(plain),
            device_name(&dev)
        )],
    );
    expect::mentions(
        &m[1],
        &["was allocated without a VkExportMemoryAllocateInfoNV"],
    );
    dev.free(plain);
    dev.free(mem);
    drop(dev);
}

#[test]
fn two_handle_types_at_once_is_a_warning_and_goes_down() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE | KMT));
    let calls = Calls::of(COUNTED);
    let (r, handle) = call(&dev, mem, OPAQUE | KMT);
    assert_eq!(calls.since(), 1, "a warning does not stop the call");
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle != 0 && handle != SENTINEL, "{handle:#x}");
    let m = expect::one(&inst, CMD, WIN32_MULTIPLE_BITS);
    expect::mentions(
        &m,
        &[&format!(
            "handleType is {OPAQUE_NAME}|{KMT_NAME}: more than one bit, but the command returns a \
             single HANDLE of one type; pass one bit."
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn khr_and_nv_export_structures_together_are_00640() {
    let inst = instance(None);
    let dev = win32_device(&inst);
    let mut khr = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut nv = vk::ExportMemoryAllocateInfoNV::default().handle_types(OPAQUE);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut khr)
        .push_next(&mut nv);
    let mem = dev
        .allocate_with(&info)
        .expect("reported, then passed down to the test driver, which allocates");
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_00640);
    expect::mentions(
        &m,
        &[
            "the pNext chain of pAllocateInfo has a VkExportMemoryAllocateInfo together with \
             VkExportMemoryAllocateInfoNV",
            "the KHR and NV export structures cannot be mixed",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);

    // The Win32 NV structure counts as an NV export structure too.
    let mut khr = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut win32 = vk::ExportMemoryWin32HandleInfoNV::default();
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut khr)
        .push_next(&mut win32);
    let mem = dev.allocate_with(&info).expect("passed down");
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_00640);
    expect::mentions(
        &m,
        &["VkExportMemoryAllocateInfo together with VkExportMemoryWin32HandleInfoNV"],
    );
    dev.free(mem);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn undefined_bits_in_the_nv_export_structure_are_handle_types_parameter() {
    let inst = instance(None);
    let dev = win32_device(&inst);
    let mem = nv_memory(
        &dev,
        Some(vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x10)),
    );
    let m = expect::one(&inst, ALLOCATE, EXPORT_NV_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes is 0x10 (unknown bits), which is not a \
           combination of VkExternalMemoryHandleTypeFlagBitsNV values",
        ],
    );
    dev.free(mem);
    // Every defined NV bit is accepted.
    let all = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0xf);
    let mem = nv_memory(&dev, Some(all));
    dev.free(mem);
    expect::silent_for(&inst, &[ALLOCATE, FREE]);
    drop(dev);
}

#[test]
fn driver_returning_a_null_handle_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: NULL_HANDLE,
            device: win32_device,
            memory: |_, dev| nv_memory(dev, Some(OPAQUE | KMT)),
            export: |dev, mem| {
                for handle_type in [OPAQUE, KMT, OPAQUE] {
                    let (r, handle) = call(dev, mem, handle_type);
                    assert_eq!(
                        (r, handle),
                        (vk::Result::SUCCESS, 0),
                        "the misbehaving driver"
                    );
                }
            },
        },
        CMD,
        DRIVER_NULL_WIN32_HANDLE,
        &["but *pHandle is NULL"],
    );
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: NULL_HANDLE,
            device: win32_device,
            memory: |_, dev| nv_memory(dev, Some(OPAQUE)),
            export: |dev, mem| {
                let (r, handle) = call(dev, mem, KMT);
                assert_eq!((r, handle), (vk::Result::SUCCESS, 0));
            },
        },
        CMD,
        WIN32_HANDLE_TYPE_01326,
    );
}

#[test]
fn well_behaved_driver_gets_no_warning() {
    test_driver::assert_well_behaved_driver_gets_no_warning(win32_device, CMD, |_, dev| {
        let mem = nv_memory(dev, Some(OPAQUE | KMT));
        for handle_type in [OPAQUE, KMT, OPAQUE] {
            let (r, handle) = call(dev, mem, handle_type);
            assert_eq!(r, vk::Result::SUCCESS);
            assert!(handle != 0 && handle != SENTINEL);
        }
        dev.free(mem);
    });
}

// The driver writes a `void*` through `pHandle`: ash's HANDLE must be that size.
const _: () = assert!(size_of::<vk::HANDLE>() == size_of::<*mut c_void>());
