//! vkGetMemoryWin32HandleKHR end to end: the real loader, the layer, and the project's test driver
//! (`tests/icd`), which exposes VK_KHR_external_memory_win32 on Linux with made-up HANDLE values:
//! valid exports, the value rules (00662, 00664, every rule an invalid `handleType` breaks) and
//! the rule about earlier calls (00663: an NT handle of a memory and handle type is exported at
//! most once; the layer remembers successful exports per live memory and forgets them at
//! vkFreeMemory). Each bad call yields exactly the IDs of the rules it breaks, is reported and
//! goes down (the driver's call counter moves once). The structural cases (NULL pointers, sType,
//! pNext, bad memory, unknown devices, a device without the extension) are rows of
//! tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, OPAQUE_WIN32, SIZE};
use std::ffi::CStr;

const CMD: &str = GET_WIN32_HANDLE_KHR;
const COUNTED: &CStr = c"vkGetMemoryWin32HandleKHR";

type Types = vk::ExternalMemoryHandleTypeFlags;
const OPAQUE_WIN32_KMT: Types = Types::OPAQUE_WIN32_KMT;
const D3D12_HEAP: Types = Types::D3D12_HEAP;
const OPAQUE_WIN32_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT";
const OPAQUE_WIN32_KMT_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT";
const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";
/// What `*pHandle` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = exportcheck_tests::POINTER_SENTINEL;

/// A device with VK_KHR_external_memory_win32 and VK_KHR_external_memory.
fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory_win32::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// Memory of type 0, exported with `export` if given.
fn memory(dev: &Device, export: Option<Types>) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, export, None)
}

fn info(memory: vk::DeviceMemory, handle_type: Types) -> vk::MemoryGetWin32HandleInfoKHR<'static> {
    vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(handle_type)
}

/// `vkGetMemoryWin32HandleKHR` with `info`; `*pHandle` is pre-filled with [`SENTINEL`].
fn call(dev: &Device, info: &vk::MemoryGetWin32HandleInfoKHR<'_>) -> (vk::Result, usize) {
    let get = dev
        .win32_handle_khr
        .expect("vkGetMemoryWin32HandleKHR is enabled");
    let mut handle = SENTINEL as vk::HANDLE;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), info, &mut handle) };
    (result, handle as usize)
}

#[test]
fn each_win32_handle_type_exports_a_distinct_non_null_handle_silently() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mem = memory(&dev, Some(OPAQUE_WIN32 | OPAQUE_WIN32_KMT));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut handles = Vec::new();
    // A global share handle may be exported any number of times; the NT handle once.
    for handle_type in [OPAQUE_WIN32_KMT, OPAQUE_WIN32, OPAQUE_WIN32_KMT] {
        let (r, handle) = call(&dev, &info(mem, handle_type));
        assert_eq!(r, vk::Result::SUCCESS, "{handle_type:?}");
        calls.assert(1, "a valid call goes down once");
        assert!(
            handle != 0 && handle != SENTINEL,
            "{handle_type:?}: the driver wrote no handle: {handle:#x}"
        );
        handles.push(handle);
        expect::silent(&inst, CMD);
    }
    assert_eq!(
        handles[0], handles[2],
        "the test driver's values are stable"
    );
    assert_ne!(handles[0], handles[1], "and distinct per handle type");
    // Another memory's NT handle is its own first export: silent.
    let other = memory(&dev, Some(OPAQUE_WIN32));
    let (r, handle) = call(&dev, &info(other, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle != 0 && !handles.contains(&handle), "{handle:#x}");
    expect::silent(&inst, CMD);
    dev.free(mem);
    dev.free(other);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn handle_type_not_exported_is_00662_with_either_cause() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let kmt_only = memory(&dev, Some(OPAQUE_WIN32_KMT));
    let plain = memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(kmt_only, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, WIN32_KHR_HANDLE_TYPE_00662);
    expect::mentions(
        &m,
        &[&format!(
            "pGetWin32HandleInfo->handleType is {OPAQUE_WIN32_NAME}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({OPAQUE_WIN32_KMT_NAME}) when {} \
             (allocated on {}",
            memory_name(kmt_only),
            device_name(&dev)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, kmt_only.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());

    let (r, _) = call(&dev, &info(plain, OPAQUE_WIN32_KMT));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, WIN32_KHR_HANDLE_TYPE_00662);
    expect::mentions(
        &m,
        &[&format!(
            "pGetWin32HandleInfo->handleType is {OPAQUE_WIN32_KMT_NAME}, but {} (allocated on",
            memory_name(plain)
        )],
    );
    expect::mentions(
        &m,
        &["was allocated without a VkExportMemoryAllocateInfo in the pNext chain"],
    );
    dev.free(kmt_only);
    dev.free(plain);
    drop(dev);
}

#[test]
fn non_win32_handle_type_is_00664() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    // Exported as OPAQUE_FD too, so 00662 holds: exactly 00664.
    let mem = memory(&dev, Some(OPAQUE_FD | OPAQUE_WIN32));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(mem, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, WIN32_KHR_HANDLE_TYPE_00664);
    expect::mentions(
        &m,
        &[&format!(
            "pGetWin32HandleInfo->handleType is {OPAQUE_FD_NAME}; it must be a handle type \
             defined as an NT handle"
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());

    // Not exported as OPAQUE_FD either: both rules are broken, and both are said.
    let win32_only = memory(&dev, Some(OPAQUE_WIN32));
    let (r, _) = call(&dev, &info(win32_only, OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let both = expect::only(
        &inst,
        CMD,
        &[WIN32_KHR_HANDLE_TYPE_00664, WIN32_KHR_HANDLE_TYPE_00662],
    );
    expect::mentions(
        &both[1],
        &[&format!(
            "handleType is {OPAQUE_FD_NAME}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({OPAQUE_WIN32_NAME})"
        )],
    );
    dev.free(mem);
    dev.free(win32_only);
    drop(dev);
}

#[test]
fn invalid_handle_type_values_get_every_rule_they_break() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let both = OPAQUE_WIN32 | OPAQUE_WIN32_KMT;
    let mem = memory(&dev, Some(both));
    let cases: [(Types, &[&str]); 2] = [
        // "Included" in the export types (no bit is missing), but no single type.
        (
            Types::empty(),
            &[WIN32_KHR_HANDLE_TYPE_PARAM, WIN32_KHR_HANDLE_TYPE_00664],
        ),
        (
            both,
            &[WIN32_KHR_HANDLE_TYPE_PARAM, WIN32_KHR_HANDLE_TYPE_00664],
        ),
    ];
    for (handle_type, ids) in cases {
        let mut calls = Calls::of(COUNTED);
        let (r, handle) = call(&dev, &info(mem, handle_type));
        calls.assert(1, &format!("{handle_type:?}: reported, then passed down"));
        assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
        assert_ne!(handle, SENTINEL);
        let m = expect::only(&inst, CMD, ids);
        expect::mentions(
            &m[0],
            &[
                "pGetWin32HandleInfo->handleType is ",
                "which is not a valid VkExternalMemoryHandleTypeFlagBits value on",
            ],
        );
        for m in &m {
            expect::object(m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        }
    }
    // Neither multi-bit call counted as an NT export: the NT handle is still exported silently.
    let (r, _) = call(&dev, &info(mem, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    dev.free(mem);
    drop(dev);
}

#[test]
fn a_second_nt_handle_export_of_the_same_memory_and_type_is_00663() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mem = memory(&dev, Some(OPAQUE_WIN32 | D3D12_HEAP | OPAQUE_WIN32_KMT));
    let (r, first) = call(&dev, &info(mem, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    // Another NT type of the same memory is its own first export.
    let (r, _) = call(&dev, &info(mem, D3D12_HEAP));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);

    let mut calls = Calls::of(COUNTED);
    let (r, second) = call(&dev, &info(mem, OPAQUE_WIN32));
    calls.assert(1, "reported, then passed down");
    assert_eq!(
        (r, second),
        (vk::Result::SUCCESS, first),
        "the driver answers"
    );
    let m = expect::one(&inst, CMD, WIN32_KHR_HANDLE_TYPE_00663);
    expect::mentions(
        &m,
        &[&format!(
            "pGetWin32HandleInfo->handleType is {OPAQUE_WIN32_NAME}, an NT handle type, and an \
             NT handle of this type was already exported from {} (allocated on {}",
            memory_name(mem),
            device_name(&dev)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    // Every later call too.
    let (r, _) = call(&dev, &info(mem, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, WIN32_KHR_HANDLE_TYPE_00663);
    dev.free(mem);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn invalid_or_blocked_exports_are_not_counted_and_freeing_forgets() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    // An export the memory was not allocated with (00662) is no valid combination: not counted.
    let kmt_only = memory(&dev, Some(OPAQUE_WIN32_KMT));
    for _ in 0..2 {
        let (r, _) = call(&dev, &info(kmt_only, OPAQUE_WIN32));
        assert_eq!(r, vk::Result::SUCCESS);
        expect::one(&inst, CMD, WIN32_KHR_HANDLE_TYPE_00662);
    }
    // A blocked call (NULL pHandle) never reached the driver: not counted.
    let mem = memory(&dev, Some(OPAQUE_WIN32));
    let get = dev.win32_handle_khr.expect("enabled");
    // SAFETY: a live info structure; the NULL output is the point (the layer blocks it).
    let r = unsafe { get(dev.handle(), &info(mem, OPAQUE_WIN32), std::ptr::null_mut()) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, CMD, WIN32_KHR_PHANDLE_PARAM);
    let (r, _) = call(&dev, &info(mem, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    // Freed: a new allocation (whatever handle value the driver gives it) starts afresh.
    dev.free(mem);
    let again = memory(&dev, Some(OPAQUE_WIN32));
    let (r, _) = call(&dev, &info(again, OPAQUE_WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    dev.free(again);
    dev.free(kmt_only);
    drop(dev);
}

/// `vkAllocateMemory` of `SIZE` bytes of type 0 with a `VkExportMemoryAllocateInfo` of `export`
/// and a `VkExportMemoryWin32HandleInfoKHR`.
fn allocate_with_win32_info(dev: &Device, export: Types) -> vk::DeviceMemory {
    let mut export_info = vk::ExportMemoryAllocateInfo::default().handle_types(export);
    let mut win32 = vk::ExportMemoryWin32HandleInfoKHR::default();
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export_info)
        .push_next(&mut win32);
    dev.allocate_with(&info).expect("vkAllocateMemory")
}

#[test]
fn a_win32_export_structure_without_opaque_win32_in_the_export_is_00657() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let good = allocate_with_win32_info(&dev, OPAQUE_WIN32 | OPAQUE_FD);
    expect::silent(&inst, ALLOCATE);
    let bad = allocate_with_win32_info(&dev, OPAQUE_WIN32_KMT);
    let m = expect::one(&inst, ALLOCATE, EXPORT_WIN32_HANDLE_TYPES_00657);
    expect::mentions(
        &m,
        &[&format!(
            "the pNext chain of pAllocateInfo has a VkExportMemoryWin32HandleInfoKHR, but \
             VkExportMemoryAllocateInfo::handleTypes ({OPAQUE_WIN32_KMT_NAME}) does not include \
             {OPAQUE_WIN32_NAME}."
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    // Reported, then allocated: the memory is the app's.
    let (r, _) = call(&dev, &info(bad, OPAQUE_WIN32_KMT));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    dev.free(good);
    dev.free(bad);
    drop(dev);
}

#[test]
fn a_win32_export_structure_without_the_extension_is_pnext_pnext() {
    let inst = exclusive(None);
    let dev = inst.device(&[ash::khr::external_memory::NAME]);
    let mem = allocate_with_win32_info(&dev, OPAQUE_WIN32);
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_PNEXT);
    expect::mentions(
        &m,
        &[
            "has a VkExportMemoryWin32HandleInfoKHR, but",
            "was created without \
           VK_KHR_external_memory_win32 in VkDeviceCreateInfo::ppEnabledExtensionNames.",
        ],
    );
    dev.free(mem);
    let mem = allocate_with_win32_info(&dev, OPAQUE_FD);
    expect::only(
        &inst,
        ALLOCATE,
        &[ALLOC_PNEXT_PNEXT, EXPORT_WIN32_HANDLE_TYPES_00657],
    );
    dev.free(mem);
    drop(dev);
}
