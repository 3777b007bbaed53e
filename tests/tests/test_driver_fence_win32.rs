//! vkGetFenceWin32HandleKHR and vkCreateFence's VkExportFenceWin32HandleInfoKHR end to end: the
//! real loader, the layer, and the project's test driver (`tests/icd`), which exposes
//! VK_KHR_external_fence_win32 on Linux with made-up HANDLE values it maps back to the fence's
//! payload (docs/test-driver.md, "Semaphores and fences"). Valid exports are silent; each bad call
//! yields exactly the IDs of the rules it breaks: the shared export rules, the rules of the fence
//! as it was created (01448, 01452) and the rule about earlier calls (01449: an NT handle of a
//! fence is exported at most once; the layer remembers successful exports per live fence while
//! its payload is the one it was created with). At vkCreateFence, a Win32 export info without
//! OPAQUE_WIN32 in VkExportFenceCreateInfo::handleTypes is 01447.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::fences::{
    self, destroy, fence_device, fence_name, win32_loader, Made, Types,
};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{Device, Instance};

const CMD: &str = GET_FENCE_WIN32;
const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const WIN32_NAME: &str = "VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT";
/// What `*pHandle` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = exportcheck_tests::POINTER_SENTINEL;

/// A device with VK_KHR_external_fence and VK_KHR_external_fence_win32.
fn win32_device(inst: &Instance) -> Device {
    fence_device(inst, &[ash::khr::external_fence_win32::NAME])
}

/// A fence exportable as `export` when given, with a VkExportFenceWin32HandleInfoKHR when
/// `win32_info`.
fn fence_with(dev: &Device, export: Option<Types>, win32_info: bool) -> vk::Fence {
    let made = Made {
        export,
        win32_info,
        ..Made::default()
    };
    fences::create(dev, made)
}

fn fence(dev: &Device, export: Option<Types>) -> vk::Fence {
    fences::fence(dev, false, export)
}

fn info(fence: vk::Fence, handle_type: Types) -> vk::FenceGetWin32HandleInfoKHR<'static> {
    vk::FenceGetWin32HandleInfoKHR::default()
        .fence(fence)
        .handle_type(handle_type)
}

/// `vkGetFenceWin32HandleKHR` with `info`; `*pHandle` is pre-filled with [`SENTINEL`].
fn call(
    inst: &Instance,
    dev: &Device,
    info: &vk::FenceGetWin32HandleInfoKHR<'_>,
) -> (vk::Result, usize) {
    let get = win32_loader(inst, dev).fp().get_fence_win32_handle_khr;
    let mut handle = SENTINEL as vk::HANDLE;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), info, &mut handle) };
    (result, handle as usize)
}

#[test]
fn exports_as_created_are_silent_and_a_kmt_handle_may_be_exported_again() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let f = fence_with(&dev, Some(WIN32 | KMT), true);
    expect::silent(&inst, CREATE_FENCE);
    let mut calls = Calls::of(c"vkGetFenceWin32HandleKHR");
    for handle_type in [KMT, WIN32, KMT] {
        let (r, handle) = call(&inst, &dev, &info(f, handle_type));
        assert_eq!(r, vk::Result::SUCCESS, "{handle_type:?}");
        calls.assert(1, "a valid call goes down once");
        assert!(handle != 0 && handle != SENTINEL, "{handle:#x}");
        expect::silent(&inst, CMD);
    }
    // Another fence's NT handle is its own first export.
    let other = fence(&dev, Some(WIN32));
    let (r, _) = call(&inst, &dev, &info(other, WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, f);
    destroy(&dev, other);
}

#[test]
fn a_second_nt_handle_export_is_01449() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let f = fence(&dev, Some(WIN32));
    dev.name(f, c"present-fence");
    let (r, _) = call(&inst, &dev, &info(f, WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    let mut calls = Calls::of(c"vkGetFenceWin32HandleKHR");
    let _ = call(&inst, &dev, &info(f, WIN32));
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, FENCE_WIN32_HANDLE_TYPE_01449);
    expect::mentions(
        &m,
        &[
            &format!("pGetWin32HandleInfo->handleType is {WIN32_NAME}, an NT handle type"),
            &format!("already exported from {}", fence_name(f)),
            "at most once for each fence and NT handle type",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::FENCE, f.as_raw());
    assert_eq!(name.as_deref(), Some("present-fence"));
    // A fence not exportable as an NT handle: its exports are 01448, never counted for 01449.
    let kmt_only = fence(&dev, Some(KMT));
    for _ in 0..2 {
        let _ = call(&inst, &dev, &info(kmt_only, WIN32));
        expect::one(&inst, CMD, FENCE_WIN32_HANDLE_TYPE_01448);
    }
    destroy(&dev, f);
    destroy(&dev, kmt_only);
}

#[test]
fn after_an_import_neither_the_create_info_nor_earlier_exports_are_judged() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let exporter = fence(&dev, Some(WIN32));
    let importer = fence(&dev, Some(WIN32));
    let (r, _) = call(&inst, &dev, &info(importer, WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    let (r, handle) = call(&inst, &dev, &info(exporter, WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    let import = vk::ImportFenceWin32HandleInfoKHR::default()
        .fence(importer)
        .handle_type(WIN32)
        .handle(handle as vk::HANDLE);
    // SAFETY: a live info structure naming a handle the driver exported.
    unsafe { win32_loader(&inst, &dev).import_fence_win32_handle(&import) }
        .expect("vkImportFenceWin32HandleKHR");
    // Its payload is now the exporter's: the earlier NT export was of another payload.
    let (r, _) = call(&inst, &dev, &info(importer, WIN32));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    let plain = fence(&dev, None);
    // SAFETY: as above.
    unsafe { win32_loader(&inst, &dev).import_fence_win32_handle(&import.fence(plain)) }
        .expect("vkImportFenceWin32HandleKHR");
    let (r, _) = call(&inst, &dev, &info(plain, KMT));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, exporter);
    destroy(&dev, importer);
    destroy(&dev, plain);
}

#[test]
fn a_type_the_fence_was_not_created_exportable_as_is_01448() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let f = fence(&dev, Some(KMT));
    let _ = call(&inst, &dev, &info(f, WIN32));
    let m = expect::one(&inst, CMD, FENCE_WIN32_HANDLE_TYPE_01448);
    expect::mentions(
        &m,
        &[
            &format!("pGetWin32HandleInfo->handleType is {WIN32_NAME}, which was not included"),
            &fence_name(f),
            &format!("created on {} with", device_name(&dev)),
            "VkExportFenceCreateInfo::handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        ],
    );
    let plain = fence(&dev, None);
    let _ = call(&inst, &dev, &info(plain, KMT));
    let m = expect::one(&inst, CMD, FENCE_WIN32_HANDLE_TYPE_01448);
    expect::mentions(&m, &["without VkExportFenceCreateInfo"]);
    destroy(&dev, f);
    destroy(&dev, plain);
}

#[test]
fn a_type_that_is_no_win32_handle_is_01452() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let fd = Types::OPAQUE_FD;
    let f = fence(&dev, Some(fd | WIN32));
    let _ = call(&inst, &dev, &info(f, fd));
    let m = expect::one(&inst, CMD, FENCE_WIN32_HANDLE_TYPE_01452);
    expect::mentions(
        &m,
        &[
            "pGetWin32HandleInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT",
            "defined as an NT handle",
            &fence_name(f),
        ],
    );
    // A copy-transference type, of a fence never signaled: its signal-state rule too (01451).
    let _ = call(&inst, &dev, &info(f, Types::SYNC_FD));
    expect::only(
        &inst,
        CMD,
        &[
            FENCE_WIN32_HANDLE_TYPE_01452,
            FENCE_WIN32_HANDLE_TYPE_01448,
            FENCE_WIN32_HANDLE_TYPE_01451,
        ],
    );
    destroy(&dev, f);
}

#[test]
fn bad_pointers_structures_and_values_are_reported() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let get = win32_loader(&inst, &dev).fp().get_fence_win32_handle_khr;
    let f = fence(&dev, Some(WIN32 | KMT));
    let mut handle = SENTINEL as vk::HANDLE;
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { get(dev.handle(), std::ptr::null(), &mut handle) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, FENCE_WIN32_INFO_PARAM);
    // SAFETY: NULL output: the layer blocks the call.
    let r = unsafe { get(dev.handle(), &info(f, KMT), std::ptr::null_mut()) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, FENCE_WIN32_PHANDLE_PARAM);
    let mut wrong = info(f, KMT);
    wrong.s_type = vk::StructureType::FENCE_GET_FD_INFO_KHR;
    let (r, written) = call(&inst, &dev, &wrong);
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    assert_eq!(written, SENTINEL, "nothing written");
    let m = expect::one(&inst, CMD, FENCE_WIN32_STYPE);
    expect::mentions(&m, &["VK_STRUCTURE_TYPE_FENCE_GET_WIN32_HANDLE_INFO_KHR"]);
    let chained = vk::ExportFenceCreateInfo::default();
    let mut with_next = info(f, KMT);
    with_next.p_next = (&chained as *const vk::ExportFenceCreateInfo).cast();
    let _ = call(&inst, &dev, &with_next);
    expect::one(&inst, CMD, FENCE_WIN32_PNEXT);
    let _ = call(&inst, &dev, &info(f, WIN32 | KMT));
    expect::only(
        &inst,
        CMD,
        &[FENCE_WIN32_HANDLE_TYPE_PARAM, FENCE_WIN32_HANDLE_TYPE_01452],
    );
    let (r, _) = call(&inst, &dev, &info(vk::Fence::null(), KMT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, FENCE_WIN32_FENCE_PARAM);
    expect::mentions(&m, &["pGetWin32HandleInfo->fence is VK_NULL_HANDLE"]);
    destroy(&dev, f);
    let (r, _) = call(&inst, &dev, &info(f, KMT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, FENCE_WIN32_FENCE_PARAM);
    expect::mentions(
        &m,
        &["already destroyed with vkDestroyFence", &fence_name(f)],
    );
}

#[test]
fn a_fence_of_another_device_and_an_unknown_device_are_reported() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let other = win32_device(&inst);
    let f = fence(&other, Some(KMT));
    let (r, _) = call(&inst, &dev, &info(f, KMT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, FENCE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[
            &format!("created on {}", device_name(&other)),
            &format!("which belongs to another device than {}", device_name(&dev)),
        ],
    );
    let get = win32_loader(&inst, &dev).fp().get_fence_win32_handle_khr;
    let mut handle = SENTINEL as vk::HANDLE;
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { get(vk::Device::from_raw(0x1234), &info(f, KMT), &mut handle) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::unknown_device(&[&inst], CMD, FENCE_WIN32_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, f);
}

#[test]
fn a_win32_export_info_without_opaque_win32_is_01447() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mut calls = Calls::of(c"vkCreateFence");
    let f = fence_with(&dev, Some(KMT), true);
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CREATE_FENCE, EXPORT_FENCE_WIN32_HANDLE_TYPES_01447);
    expect::mentions(
        &m,
        &[
            "the pNext chain of pCreateInfo has a VkExportFenceWin32HandleInfoKHR",
            "VkExportFenceCreateInfo::handleTypes (VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT) does not include",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    destroy(&dev, f);
    // Undefined bits and no OPAQUE_WIN32: both rules.
    let f = fence_with(&dev, Some(Types::from_raw(0x40) | KMT), true);
    expect::only(
        &inst,
        CREATE_FENCE,
        &[
            EXPORT_FENCE_HANDLE_TYPES_PARAM,
            EXPORT_FENCE_WIN32_HANDLE_TYPES_01447,
        ],
    );
    destroy(&dev, f);
    // With OPAQUE_WIN32, or without VkExportFenceCreateInfo (no handleTypes to judge): silent.
    let with_nt = fence_with(&dev, Some(WIN32), true);
    let without_export = fence_with(&dev, None, true);
    expect::silent(&inst, CREATE_FENCE);
    destroy(&dev, with_nt);
    destroy(&dev, without_export);
}
