//! Exporting a semaphore whose current payload an import put there, end to end on the project's
//! test driver: the imported payload's handle type must be in `exportFromImportedHandleTypes` of
//! the driver's answer for the exported `handleType` (`VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133`,
//! `VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-01128`,
//! `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04759`). The test driver answers that a
//! Zircon event is compatible only with itself (docs/test-driver.md), and, with
//! `sync_quirks.no_export_from_sync_fd_imports`, that a payload imported from a sync file is
//! exportable as nothing. A temporary import lasts until the next wait submitted on the semaphore
//! or its next `SYNC_FD` export, which restore the permanent payload: silent from then on, and
//! the created payload's export types are judged again (`-handleType-01132`, `-01126`).
//!
//! An imported payload may be exported only as the types the semaphore it was exported from was
//! created exportable as (`-handleType-01132`, `-01126`, `-04758`: "when a semaphore is using an
//! imported payload, its `VkExportSemaphoreCreateInfo::handleTypes` value is specified when
//! creating the semaphore from which the payload was exported"): judged where the layer matched
//! the import to that export; the importing semaphore's own export types do not count.

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{
    destroy, semaphore, semaphore_device, semaphore_name, submit_and_idle, Types,
};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;
const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const EVENT: Types = Types::ZIRCON_EVENT_FUCHSIA;
const PERMANENT: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::empty();
const TEMPORARY: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::TEMPORARY;
const NO_EXPORT_FROM_SYNC_FD: &str = r#"{"sync_quirks": {"no_export_from_sync_fd_imports": true}}"#;

fn device(inst: &Instance) -> Device {
    semaphore_device(
        inst,
        &[
            ash::khr::external_semaphore_fd::NAME,
            ash::khr::external_semaphore_win32::NAME,
            ash::fuchsia::external_semaphore::NAME,
        ],
    )
}

/// `vkGetSemaphoreFdKHR`: its result, and the fd (closed here).
fn export_fd(inst: &Instance, dev: &Device, s: vk::Semaphore, t: Types) -> vk::Result {
    let (r, fd) = get_fd(inst, dev, s, t);
    close(fd);
    r
}

fn get_fd(inst: &Instance, dev: &Device, s: vk::Semaphore, t: Types) -> (vk::Result, c_int) {
    let get = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
        .fp()
        .get_semaphore_fd_khr;
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(s)
        .handle_type(t);
    let mut fd: c_int = -1;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get(dev.handle(), &info, &mut fd) };
    (r, if r == vk::Result::SUCCESS { fd } else { -1 })
}

fn close(fd: c_int) {
    if fd >= 0 {
        // SAFETY: a descriptor the driver gave the test, closed once.
        unsafe { libc::close(fd) };
    }
}

fn import_fd(
    inst: &Instance,
    dev: &Device,
    s: vk::Semaphore,
    (t, flags): (Types, vk::SemaphoreImportFlags),
    fd: c_int,
) {
    let f = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
        .fp()
        .import_semaphore_fd_khr;
    let info = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(s)
        .handle_type(t)
        .flags(flags)
        .fd(fd);
    // SAFETY: a live info structure.
    let r = unsafe { f(dev.handle(), &info) };
    assert_eq!(r, vk::Result::SUCCESS, "vkImportSemaphoreFdKHR");
    expect::silent(inst, IMPORT_SEMAPHORE_FD);
}

fn win32_export(inst: &Instance, dev: &Device, s: vk::Semaphore, t: Types) {
    let get = ash::khr::external_semaphore_win32::Device::new(&inst.instance, &dev.device)
        .fp()
        .get_semaphore_win32_handle_khr;
    let info = vk::SemaphoreGetWin32HandleInfoKHR::default()
        .semaphore(s)
        .handle_type(t);
    let mut handle: vk::HANDLE = 0;
    // SAFETY: a live info structure and output pointer.
    let _ = unsafe { get(dev.handle(), &info, &mut handle) };
}

fn zircon(inst: &Instance, dev: &Device) -> ash::fuchsia::external_semaphore::Device {
    ash::fuchsia::external_semaphore::Device::new(&inst.instance, &dev.device)
}

fn zircon_export(inst: &Instance, dev: &Device, s: vk::Semaphore) -> (vk::Result, u32) {
    let info = vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
        .semaphore(s)
        .handle_type(EVENT);
    let mut handle: vk::zx_handle_t = 0;
    let get = zircon(inst, dev).fp().get_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get(dev.handle(), &info, &mut handle) };
    (r, handle)
}

/// A Zircon event of a new binary semaphore, imported into `s` with `flags`.
fn import_event(inst: &Instance, dev: &Device, s: vk::Semaphore, flags: vk::SemaphoreImportFlags) {
    let exporter = semaphore(dev, false, Some(EVENT));
    let (r, event) = zircon_export(inst, dev, exporter);
    assert_eq!(r, vk::Result::SUCCESS, "vkGetSemaphoreZirconHandleFUCHSIA");
    expect::silent(inst, GET_SEMAPHORE_ZIRCON_HANDLE);
    let info = vk::ImportSemaphoreZirconHandleInfoFUCHSIA::default()
        .semaphore(s)
        .handle_type(EVENT)
        .flags(flags)
        .zircon_handle(event);
    let f = zircon(inst, dev)
        .fp()
        .import_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure.
    let r = unsafe { f(dev.handle(), &info) };
    assert_eq!(
        r,
        vk::Result::SUCCESS,
        "vkImportSemaphoreZirconHandleFUCHSIA"
    );
    expect::silent(inst, IMPORT_SEMAPHORE_ZIRCON);
    destroy(dev, exporter);
}

/// An opaque fd of a new binary semaphore created exportable as `exportable`, imported into `s`
/// permanently.
fn import_opaque(inst: &Instance, dev: &Device, s: vk::Semaphore, exportable: Types) {
    let exporter = semaphore(dev, false, Some(exportable));
    let (r, fd) = get_fd(inst, dev, exporter, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS);
    import_fd(inst, dev, s, (OPAQUE, PERMANENT), fd);
    destroy(dev, exporter);
}

/// A sync file of a new binary semaphore, signaled first, imported into `s` temporarily.
fn import_sync_file(inst: &Instance, dev: &Device, s: vk::Semaphore) {
    let exporter = semaphore(dev, false, Some(SYNC));
    submit_and_idle(dev, &[], &[exporter]);
    let (r, fd) = get_fd(inst, dev, exporter, SYNC);
    assert_eq!(r, vk::Result::SUCCESS, "a sync file");
    expect::silent(inst, GET_SEMAPHORE_FD);
    import_fd(inst, dev, s, (SYNC, TEMPORARY), fd);
    destroy(dev, exporter);
}

#[test]
fn an_event_imported_then_exported_as_an_fd_or_win32_handle_is_01133_and_01128() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE | WIN32));
    dev.name(s, c"compositor-acquire");
    import_event(&inst, &dev, s, PERMANENT);
    let _ = export_fd(&inst, &dev, s, OPAQUE);
    let m = expect::one(&inst, GET_SEMAPHORE_FD, SEM_FD_SEMAPHORE_01133);
    expect::mentions(
        &m,
        &[
            "vkGetSemaphoreFdKHR(): pGetFdInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
            &format!("the current payload of {}", semaphore_name(s)),
            "was imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA (a \
             permanent import)",
            "VkExternalSemaphoreProperties::exportFromImportedHandleTypes for \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT does not include \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("compositor-acquire"));
    win32_export(&inst, &dev, s, WIN32);
    let m = expect::one(&inst, GET_SEMAPHORE_WIN32_HANDLE, SEM_WIN32_SEMAPHORE_01128);
    expect::mentions(
        &m,
        &[
            "vkGetSemaphoreWin32HandleKHR(): pGetWin32HandleInfo->handleType is \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA",
        ],
    );
    destroy(&dev, s);
}

#[test]
fn an_fd_imported_then_exported_as_an_event_is_04759_and_04758() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(EVENT));
    import_opaque(&inst, &dev, s, OPAQUE);
    let _ = zircon_export(&inst, &dev, s);
    let found = expect::only(
        &inst,
        GET_SEMAPHORE_ZIRCON_HANDLE,
        &[SEM_ZIRCON_HANDLE_TYPE_04758, SEM_ZIRCON_SEMAPHORE_04759],
    );
    let driver = found.iter().find(|m| m.id == SEM_ZIRCON_SEMAPHORE_04759);
    expect::mentions(
        driver.expect("04759"),
        &[
            "vkGetSemaphoreZirconHandleFUCHSIA(): pGetZirconHandleInfo->handleType is \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA",
            "imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT (a permanent import)",
        ],
    );
    let exporter = found.iter().find(|m| m.id == SEM_ZIRCON_HANDLE_TYPE_04758);
    expect::mentions(
        exporter.expect("04758"),
        &[
            "whose semaphore was created with VkExportSemaphoreCreateInfo::handleTypes = \
           VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    destroy(&dev, s);
}

#[test]
fn an_imported_payload_exports_as_its_exporters_types_not_the_importers_01132_01126() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE | SYNC | WIN32));
    dev.name(s, c"interop-done");
    import_opaque(&inst, &dev, s, OPAQUE);
    win32_export(&inst, &dev, s, WIN32);
    let m = expect::one(
        &inst,
        GET_SEMAPHORE_WIN32_HANDLE,
        SEM_WIN32_HANDLE_TYPE_01126,
    );
    expect::mentions(
        &m,
        &[
            "vkGetSemaphoreWin32HandleKHR(): pGetWin32HandleInfo->handleType is \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            &format!("the current payload of {}", semaphore_name(s)),
            "was imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT (a permanent \
             import) from an export the layer saw, whose semaphore was created with \
             VkExportSemaphoreCreateInfo::handleTypes = \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("interop-done"));
    let _ = export_fd(&inst, &dev, s, SYNC);
    expect::only(&inst, GET_SEMAPHORE_FD, &[SEM_FD_HANDLE_TYPE_01132]);
    assert_eq!(export_fd(&inst, &dev, s, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_SEMAPHORE_FD);
    destroy(&dev, s);
}

#[test]
fn an_imported_payload_into_a_semaphore_not_exportable_exports_as_its_exporters_types() {
    // The Khronos layer reports 01132 here, from the importing semaphore's create info.
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, false, None);
    import_opaque(&inst, &dev, s, OPAQUE | WIN32);
    assert_eq!(export_fd(&inst, &dev, s, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_SEMAPHORE_FD);
    win32_export(&inst, &dev, s, WIN32);
    expect::silent(&inst, GET_SEMAPHORE_WIN32_HANDLE);
    destroy(&dev, s);
}

#[test]
fn imported_payloads_exported_as_types_the_driver_allows_are_silent() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE));
    import_opaque(&inst, &dev, s, OPAQUE | WIN32);
    assert_eq!(export_fd(&inst, &dev, s, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_SEMAPHORE_FD);
    win32_export(&inst, &dev, s, WIN32);
    expect::silent(&inst, GET_SEMAPHORE_WIN32_HANDLE);
    let e = semaphore(&dev, false, Some(EVENT));
    import_event(&inst, &dev, e, PERMANENT);
    let (r, _) = zircon_export(&inst, &dev, e);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, GET_SEMAPHORE_ZIRCON_HANDLE);
    destroy(&dev, s);
    destroy(&dev, e);
}

#[test]
fn a_temporary_import_is_judged_until_a_submitted_wait_restores_the_payload() {
    let inst = exclusive(Some(NO_EXPORT_FROM_SYNC_FD));
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE | WIN32));
    import_sync_file(&inst, &dev, s);
    let _ = export_fd(&inst, &dev, s, OPAQUE);
    let m = expect::one(&inst, GET_SEMAPHORE_FD, SEM_FD_SEMAPHORE_01133);
    expect::mentions(
        &m,
        &[
            "imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT (a temporary import, not \
             restored since: no wait on it was submitted",
        ],
    );
    win32_export(&inst, &dev, s, WIN32);
    expect::one(&inst, GET_SEMAPHORE_WIN32_HANDLE, SEM_WIN32_SEMAPHORE_01128);
    // Not a type the semaphore was created exportable as, but the current payload is the
    // import: only its rule is judged.
    win32_export(&inst, &dev, s, KMT);
    expect::only(
        &inst,
        GET_SEMAPHORE_WIN32_HANDLE,
        &[SEM_WIN32_SEMAPHORE_01128],
    );
    submit_and_idle(&dev, &[s], &[]);
    assert_eq!(export_fd(&inst, &dev, s, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_SEMAPHORE_FD);
    win32_export(&inst, &dev, s, WIN32);
    expect::silent(&inst, GET_SEMAPHORE_WIN32_HANDLE);
    // The created payload again: its export types are judged again.
    win32_export(&inst, &dev, s, KMT);
    expect::only(
        &inst,
        GET_SEMAPHORE_WIN32_HANDLE,
        &[SEM_WIN32_HANDLE_TYPE_01126],
    );
    destroy(&dev, s);
}

#[test]
fn a_sync_fd_export_restores_a_temporary_import_as_a_wait_does() {
    let inst = exclusive(Some(NO_EXPORT_FROM_SYNC_FD));
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE | SYNC));
    import_sync_file(&inst, &dev, s);
    assert_eq!(export_fd(&inst, &dev, s, SYNC), vk::Result::SUCCESS);
    expect::one(&inst, GET_SEMAPHORE_FD, SEM_FD_SEMAPHORE_01133);
    assert_eq!(export_fd(&inst, &dev, s, OPAQUE), vk::Result::SUCCESS);
    expect::silent(&inst, GET_SEMAPHORE_FD);
    destroy(&dev, s);
}

#[test]
fn a_permanent_import_outlasts_a_temporary_one_and_its_restoration() {
    let inst = exclusive(Some(NO_EXPORT_FROM_SYNC_FD));
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE));
    import_event(&inst, &dev, s, PERMANENT);
    import_sync_file(&inst, &dev, s);
    submit_and_idle(&dev, &[s], &[]);
    let _ = export_fd(&inst, &dev, s, OPAQUE);
    let m = expect::one(&inst, GET_SEMAPHORE_FD, SEM_FD_SEMAPHORE_01133);
    expect::mentions(
        &m,
        &["imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA (a permanent"],
    );
    destroy(&dev, s);
}
