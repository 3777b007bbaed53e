//! Exporting a fence whose current payload an import put there, end to end on the project's test
//! driver: the imported payload's handle type must be in `exportFromImportedHandleTypes` of the
//! driver's answer for the exported `handleType` (`VUID-VkFenceGetFdInfoKHR-fence-01455`,
//! `VUID-VkFenceGetWin32HandleInfoKHR-fence-01450`). With
//! `sync_quirks.no_export_from_sync_fd_imports` the test driver answers that a payload imported
//! from a sync file is exportable as nothing (docs/test-driver.md). A temporary import lasts until
//! the next `vkResetFences` of the fence or its next `SYNC_FD` export, which restore the permanent
//! payload: silent from then on, and the created payload's export types are judged again
//! (`VUID-VkFenceGetFdInfoKHR-handleType-01453`).
//!
//! An imported payload may be exported only as the types the fence it was exported from was
//! created exportable as (`-handleType-01453`, `VUID-VkFenceGetWin32HandleInfoKHR-handleType-01448`:
//! "included in `VkExportFenceCreateInfo::handleTypes` when fence's current payload was
//! created"): judged where the layer matched the import to that export.

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::fds::close_if_open;
use exportcheck_tests::fences::{
    self, destroy, fd_loader, fence_device, get_fd, reset, win32_loader, Types,
};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};

const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;
const WIN32: Types = Types::OPAQUE_WIN32;
const TEMPORARY: vk::FenceImportFlags = vk::FenceImportFlags::TEMPORARY;
const PERMANENT: vk::FenceImportFlags = vk::FenceImportFlags::empty();
const NO_EXPORT_FROM_SYNC_FD: &str = r#"{"sync_quirks": {"no_export_from_sync_fd_imports": true}}"#;

fn payload_device(inst: &Instance) -> Device {
    fence_device(
        inst,
        &[
            ash::khr::external_fence_fd::NAME,
            ash::khr::external_fence_win32::NAME,
        ],
    )
}

/// A fence, signaled or not, exportable as `export`.
fn fence(dev: &Device, signaled: bool, export: Types) -> vk::Fence {
    fences::fence(dev, signaled, Some(export))
}

/// `vkGetFenceFdKHR`: its result (the fd is closed).
fn try_export_fd(inst: &Instance, dev: &Device, fence: vk::Fence, t: Types) -> vk::Result {
    let (r, fd) = get_fd(inst, dev, fence, t);
    close_if_open(fd);
    r
}

/// `vkGetFenceWin32HandleKHR` of `OPAQUE_WIN32`: its result.
fn export_win32(inst: &Instance, dev: &Device, fence: vk::Fence) -> vk::Result {
    let get = win32_loader(inst, dev).fp().get_fence_win32_handle_khr;
    let info = vk::FenceGetWin32HandleInfoKHR::default()
        .fence(fence)
        .handle_type(WIN32);
    let mut handle: vk::HANDLE = 0;
    // SAFETY: a live info structure and output pointer.
    unsafe { get(dev.handle(), &info, &mut handle) }
}

/// An fd of a new signaled fence exported as `t` and imported into `fence` with `flags`.
fn import(inst: &Instance, dev: &Device, fence: vk::Fence, t: Types, flags: vk::FenceImportFlags) {
    import_from(inst, dev, fence, (t, t), flags);
}

/// An fd of a new signaled fence created exportable as `exportable`, exported as `t` and imported
/// into `fence` with `flags`.
fn import_from(
    inst: &Instance,
    dev: &Device,
    fence: vk::Fence,
    (t, exportable): (Types, Types),
    flags: vk::FenceImportFlags,
) {
    let exporter = self::fence(dev, true, exportable);
    let fd = fences::export_fd(inst, dev, exporter, t);
    let f = fd_loader(inst, dev).fp().import_fence_fd_khr;
    let info = vk::ImportFenceFdInfoKHR::default()
        .fence(fence)
        .handle_type(t)
        .flags(flags)
        .fd(fd);
    // SAFETY: a live info structure.
    let r = unsafe { f(dev.handle(), &info) };
    assert_eq!(r, vk::Result::SUCCESS, "vkImportFenceFdKHR");
    expect::silent(inst, IMPORT_FENCE_FD);
    destroy(dev, exporter);
}

#[test]
fn a_sync_file_imported_then_exported_is_01455_and_01450_until_vk_reset_fences() {
    let inst = exclusive(Some(NO_EXPORT_FROM_SYNC_FD));
    let dev = payload_device(&inst);
    let f = fence(&dev, false, OPAQUE | WIN32);
    dev.name(f, c"frame-done");
    import(&inst, &dev, f, SYNC, TEMPORARY);
    let _ = try_export_fd(&inst, &dev, f, OPAQUE);
    let m = expect::one(&inst, GET_FENCE_FD, FENCE_FD_FENCE_01455);
    expect::mentions(
        &m,
        &[
            "vkGetFenceFdKHR(): pGetFdInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT",
            &format!("the current payload of VkFence 0x{:x}", f.as_raw()),
            "was imported as VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT (a temporary import, not \
             restored since: it was not passed to vkResetFences",
            "VkExternalFenceProperties::exportFromImportedHandleTypes for \
             VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT does not include \
             VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::FENCE, f.as_raw());
    assert_eq!(name.as_deref(), Some("frame-done"));
    let _ = export_win32(&inst, &dev, f);
    let m = expect::one(&inst, GET_FENCE_WIN32, FENCE_WIN32_FENCE_01450);
    expect::mentions(
        &m,
        &[
            "vkGetFenceWin32HandleKHR(): pGetWin32HandleInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "imported as VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT",
        ],
    );
    // Not a type the fence was created exportable as, but the current payload is the import:
    // only its rule is judged (a SYNC_FD export that succeeds acts as a reset).
    let _ = try_export_fd(&inst, &dev, f, SYNC);
    expect::only(&inst, GET_FENCE_FD, &[FENCE_FD_FENCE_01455]);
    reset(&dev, f);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    assert_eq!(export_win32(&inst, &dev, f), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_WIN32);
    // The created payload again: its export types are judged again (its signal state is not:
    // payloads of reference transference were exported from it and imported into it, so others
    // may signal it where the layer cannot see).
    let _ = try_export_fd(&inst, &dev, f, SYNC);
    expect::only(&inst, GET_FENCE_FD, &[FENCE_FD_HANDLE_TYPE_01453]);
    destroy(&dev, f);
}

#[test]
fn a_sync_fd_export_restores_a_temporary_import_as_a_reset_does() {
    let inst = exclusive(Some(NO_EXPORT_FROM_SYNC_FD));
    let dev = payload_device(&inst);
    let f = fence(&dev, false, OPAQUE | SYNC);
    import(&inst, &dev, f, SYNC, TEMPORARY);
    assert_eq!(try_export_fd(&inst, &dev, f, SYNC), vk::Result::SUCCESS);
    expect::one(&inst, GET_FENCE_FD, FENCE_FD_FENCE_01455);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    destroy(&dev, f);
}

#[test]
fn imported_payloads_exported_as_types_the_driver_allows_are_silent() {
    let inst = exclusive(None);
    let dev = payload_device(&inst);
    let f = fence(&dev, false, OPAQUE | WIN32);
    import(&inst, &dev, f, SYNC, TEMPORARY);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    import_from(&inst, &dev, f, (OPAQUE, OPAQUE | WIN32), PERMANENT);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    assert_eq!(export_win32(&inst, &dev, f), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_WIN32);
    destroy(&dev, f);
}

#[test]
fn an_imported_payload_exports_as_its_exporters_types_not_the_importers_01453_01448() {
    let inst = exclusive(None);
    let dev = payload_device(&inst);
    let f = fence(&dev, false, OPAQUE | SYNC | WIN32);
    import(&inst, &dev, f, OPAQUE, PERMANENT);
    let _ = export_win32(&inst, &dev, f);
    let m = expect::one(&inst, GET_FENCE_WIN32, FENCE_WIN32_HANDLE_TYPE_01448);
    expect::mentions(
        &m,
        &[
            "vkGetFenceWin32HandleKHR(): pGetWin32HandleInfo->handleType is \
             VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            &format!("the current payload of VkFence 0x{:x}", f.as_raw()),
            "was imported as VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT (a permanent import) \
             from an export the layer saw, whose fence was created with \
             VkExportFenceCreateInfo::handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    let _ = try_export_fd(&inst, &dev, f, SYNC);
    expect::only(&inst, GET_FENCE_FD, &[FENCE_FD_HANDLE_TYPE_01453]);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    destroy(&dev, f);
}

#[test]
fn an_imported_payload_into_a_fence_not_exportable_exports_as_its_exporters_types() {
    let inst = exclusive(None);
    let dev = payload_device(&inst);
    let f = fences::fence(&dev, false, None);
    import_from(&inst, &dev, f, (OPAQUE, OPAQUE | WIN32), PERMANENT);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    assert_eq!(export_win32(&inst, &dev, f), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_WIN32);
    destroy(&dev, f);
}

#[test]
fn a_permanent_import_is_judged_after_a_reset_restores_it() {
    let inst = exclusive(Some(NO_EXPORT_FROM_SYNC_FD));
    let dev = payload_device(&inst);
    let f = fence(&dev, false, OPAQUE);
    import(&inst, &dev, f, OPAQUE, PERMANENT);
    import(&inst, &dev, f, SYNC, TEMPORARY);
    let _ = try_export_fd(&inst, &dev, f, OPAQUE);
    expect::one(&inst, GET_FENCE_FD, FENCE_FD_FENCE_01455);
    reset(&dev, f);
    assert_eq!(try_export_fd(&inst, &dev, f, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_FENCE_FD);
    destroy(&dev, f);
}
