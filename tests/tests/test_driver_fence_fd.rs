//! vkGetFenceFdKHR and vkCreateFence's VkExportFenceCreateInfo end to end: the real loader, the
//! layer, and the project's test driver (`tests/icd`), which exports fences as real opaque fds
//! and, once signaled, as sync files (docs/test-driver.md, "Semaphores and fences"). Valid
//! exports are silent; each bad call yields exactly the IDs of the rules it breaks: the shared
//! export rules (pointers, sType, pNext, the fence handle, the handle-type value, the device) and
//! the rules of the fence as it was created (01453, 01456). An export after an import is not
//! judged against the create info (the layer does not follow imported payloads yet). SwiftShader
//! has VK_KHR_external_fence but not VK_KHR_external_fence_fd, so no SwiftShader case.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::fences::{destroy, fd_loader, fence, fence_device, fence_name, Types};
use exportcheck_tests::ids::*;
use exportcheck_tests::layer_stats::tracked_counts;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

const CMD: &str = GET_FENCE_FD;
const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;

/// A device with VK_KHR_external_fence and VK_KHR_external_fence_fd.
fn fd_device(inst: &Instance) -> Device {
    fence_device(inst, &[ash::khr::external_fence_fd::NAME])
}

/// `vkGetFenceFdKHR` as `vkGetDeviceProcAddr` gives it.
fn get_fd_fn(inst: &Instance, dev: &Device) -> vk::PFN_vkGetFenceFdKHR {
    fd_loader(inst, dev).fp().get_fence_fd_khr
}

fn info(fence: vk::Fence, handle_type: Types) -> vk::FenceGetFdInfoKHR<'static> {
    vk::FenceGetFdInfoKHR::default()
        .fence(fence)
        .handle_type(handle_type)
}

/// The call with `info`; `*pFd` is pre-filled with -7. A descriptor the driver returned is closed.
fn call(inst: &Instance, dev: &Device, info: &vk::FenceGetFdInfoKHR<'_>) -> (vk::Result, c_int) {
    let mut fd: c_int = -7;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get_fd_fn(inst, dev)(dev.handle(), info, &mut fd) };
    if result == vk::Result::SUCCESS && fd >= 0 {
        // SAFETY: a descriptor the driver gave the app, closed once.
        unsafe { libc::close(fd) };
    }
    (result, fd)
}

#[test]
fn exports_as_created_are_silent_and_return_fds() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let before = tracked_counts().fences;
    let opaque = fence(&dev, false, Some(OPAQUE));
    let signaled = fence(&dev, true, Some(OPAQUE | SYNC));
    expect::silent(&inst, CREATE_FENCE);
    assert_eq!(tracked_counts().fences, before + 2, "tracked");
    for f in [opaque, signaled] {
        let (r, fd) = call(&inst, &dev, &info(f, OPAQUE));
        assert_eq!(r, vk::Result::SUCCESS);
        assert!(fd >= 0, "{fd}");
        expect::silent(&inst, CMD);
    }
    let (r, fd) = call(&inst, &dev, &info(signaled, SYNC));
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(fd, -7, "written");
    expect::silent(&inst, CMD);
    destroy(&dev, opaque);
    destroy(&dev, signaled);
    assert_eq!(
        tracked_counts().fences,
        before,
        "forgotten at vkDestroyFence"
    );
}

#[test]
fn a_type_the_fence_was_not_created_exportable_as_is_01453() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let f = fence(&dev, true, Some(OPAQUE));
    dev.name(f, c"frame-done");
    let mut calls = Calls::of(c"vkGetFenceFdKHR");
    let _ = call(&inst, &dev, &info(f, SYNC));
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, FENCE_FD_HANDLE_TYPE_01453);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT, which was not included",
            &fence_name(f),
            &format!("created on {} with", device_name(&dev)),
            "VkExportFenceCreateInfo::handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::FENCE, f.as_raw());
    assert_eq!(name.as_deref(), Some("frame-done"));
    let plain = fence(&dev, false, None);
    let _ = call(&inst, &dev, &info(plain, OPAQUE));
    let m = expect::one(&inst, CMD, FENCE_FD_HANDLE_TYPE_01453);
    expect::mentions(
        &m,
        &[
            "without VkExportFenceCreateInfo",
            "exported only as a handle type that a VkExportFenceCreateInfo",
        ],
    );
    destroy(&dev, f);
    destroy(&dev, plain);
}

#[test]
fn after_an_import_the_create_info_is_not_judged() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let exporter = fence(&dev, false, Some(OPAQUE));
    let importer = fence(&dev, false, None);
    let mut fd: c_int = -1;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get_fd_fn(&inst, &dev)(dev.handle(), &info(exporter, OPAQUE), &mut fd) };
    assert_eq!(r, vk::Result::SUCCESS);
    let import = vk::ImportFenceFdInfoKHR::default()
        .fence(importer)
        .handle_type(OPAQUE)
        .fd(fd);
    let loader = ash::khr::external_fence_fd::Device::new(&inst.instance, &dev.device);
    // SAFETY: a live info structure; the driver takes the fd on success.
    unsafe { loader.import_fence_fd(&import) }.expect("vkImportFenceFdKHR");
    expect::silent(&inst, CMD);
    // Its payload is now the exporter's, created exportable as an opaque fd.
    let (r, _) = call(&inst, &dev, &info(importer, OPAQUE));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn a_type_that_is_no_fd_is_01456() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let win32 = Types::OPAQUE_WIN32;
    let f = fence(&dev, false, Some(win32 | OPAQUE));
    let _ = call(&inst, &dev, &info(f, win32));
    let m = expect::one(&inst, CMD, FENCE_FD_HANDLE_TYPE_01456);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            &fence_name(f),
        ],
    );
    let other = fence(&dev, false, Some(OPAQUE));
    let _ = call(&inst, &dev, &info(other, win32));
    expect::only(
        &inst,
        CMD,
        &[FENCE_FD_HANDLE_TYPE_01456, FENCE_FD_HANDLE_TYPE_01453],
    );
    destroy(&dev, f);
    destroy(&dev, other);
}

#[test]
fn bad_pointers_structures_and_values_are_reported() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let get = get_fd_fn(&inst, &dev);
    let f = fence(&dev, false, Some(OPAQUE));
    let mut fd: c_int = -7;
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { get(dev.handle(), std::ptr::null(), &mut fd) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, FENCE_FD_INFO_PARAM);
    // SAFETY: NULL output: the layer blocks the call.
    let r = unsafe { get(dev.handle(), &info(f, OPAQUE), std::ptr::null_mut()) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, FENCE_FD_PFD_PARAM);
    let mut wrong = info(f, OPAQUE);
    wrong.s_type = vk::StructureType::SEMAPHORE_GET_FD_INFO_KHR;
    let _ = call(&inst, &dev, &wrong);
    let m = expect::one(&inst, CMD, FENCE_FD_STYPE);
    expect::mentions(&m, &["VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR"]);
    let chained = vk::ExportFenceCreateInfo::default();
    let mut with_next = info(f, OPAQUE);
    with_next.p_next = (&chained as *const vk::ExportFenceCreateInfo).cast();
    let _ = call(&inst, &dev, &with_next);
    expect::one(&inst, CMD, FENCE_FD_PNEXT);
    let _ = call(&inst, &dev, &info(f, Types::empty()));
    expect::only(
        &inst,
        CMD,
        &[FENCE_FD_HANDLE_TYPE_PARAM, FENCE_FD_HANDLE_TYPE_01456],
    );
    let (r, _) = call(&inst, &dev, &info(vk::Fence::null(), OPAQUE));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, FENCE_FD_FENCE_PARAM);
    expect::mentions(&m, &["pGetFdInfo->fence is VK_NULL_HANDLE"]);
    destroy(&dev, f);
    let (r, _) = call(&inst, &dev, &info(f, OPAQUE));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, FENCE_FD_FENCE_PARAM);
    expect::mentions(
        &m,
        &["already destroyed with vkDestroyFence", &fence_name(f)],
    );
    let _ = call(&inst, &dev, &info(vk::Fence::from_raw(0xbad0_fe00), OPAQUE));
    let m = expect::one(&inst, CMD, FENCE_FD_FENCE_PARAM);
    expect::mentions(&m, &["not a live VkFence"]);
}

#[test]
fn a_fence_of_another_device_and_an_unknown_device_are_reported() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let other = fd_device(&inst);
    let f = fence(&other, false, Some(OPAQUE));
    let (r, _) = call(&inst, &dev, &info(f, OPAQUE));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, FENCE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[
            &format!("created on {}", device_name(&other)),
            &format!("which belongs to another device than {}", device_name(&dev)),
        ],
    );
    expect::object(&m, vk::ObjectType::FENCE, f.as_raw());
    let get = get_fd_fn(&inst, &dev);
    let mut fd: c_int = -7;
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { get(vk::Device::from_raw(0x1234), &info(f, OPAQUE), &mut fd) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::unknown_device(&[&inst], CMD, FENCE_FD_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, f);
}

#[test]
fn undefined_export_handle_types_at_vkcreatefence_are_the_parameter_rule() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let mut calls = Calls::of(c"vkCreateFence");
    let f = fence(&dev, false, Some(Types::from_raw(0x10) | OPAQUE));
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CREATE_FENCE, EXPORT_FENCE_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &[
            "pCreateInfo->pNext<VkExportFenceCreateInfo>.handleTypes is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT|0x10 (unknown bits)",
            "0x10 is not a VkExternalFenceHandleTypeFlagBits value",
            &device_name(&dev),
        ],
    );
    // The fence was made and is tracked with what it was created with.
    let (r, _) = call(&inst, &dev, &info(f, OPAQUE));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, f);
    let every = fence(&dev, false, Some(Types::from_raw(0xf)));
    expect::silent(&inst, CREATE_FENCE);
    destroy(&dev, every);
}

#[test]
fn export_types_the_driver_cannot_export_together_are_01446() {
    // The driver reports SYNC_FD importable only, compatible with nothing.
    let inst = exclusive(Some(
        r#"{"sync_quirks": {"fence_sync_fd_import_only": true}}"#,
    ));
    let dev = fd_device(&inst);
    let f = fence(&dev, true, Some(OPAQUE | SYNC));
    let ms = expect::only(&inst, "vkCreateFence", &[EXPORT_FENCE_HANDLE_TYPES_01446]);
    expect::mentions(
        &ms[0],
        &[
            "pCreateInfo->pNext<VkExportFenceCreateInfo>.handleTypes is",
            "VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT (externalFenceFeatures = VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT) cannot be exported from a fence",
            &format!("the physical device of {}", device_name(&dev)),
        ],
    );
    destroy(&dev, f);
    // What the driver can export, alone: silent.
    let f = fence(&dev, true, Some(OPAQUE));
    expect::silent(&inst, "vkCreateFence");
    destroy(&dev, f);
    drop(dev);
    drop(inst);
    // Without the quirk every type is exportable with every other.
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let f = fence(
        &dev,
        true,
        Some(OPAQUE | SYNC | Types::OPAQUE_WIN32 | Types::OPAQUE_WIN32_KMT),
    );
    expect::silent(&inst, "vkCreateFence");
    destroy(&dev, f);
}
