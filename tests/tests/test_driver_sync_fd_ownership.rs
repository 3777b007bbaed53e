//! Who owns a semaphore's or fence's fd after a successful import, end to end on the project's
//! test driver (`tests/icd`), which closes an fd it imports (`sync_payload.rs`), as Mesa's
//! drivers do: "Importing a semaphore [fence] payload from a file descriptor transfers ownership
//! of the file descriptor from the application to the Vulkan implementation. The application
//! must not perform any operations on the file descriptor after a successful import." The layer
//! holds the number the driver closed, so a second import of it is
//! `EXPORTCHECK-fd-imported-twice` (blocked: the driver never sees it), and the app's own close
//! of it is `EXPORTCHECK-fd-closed-after-import`, found when the semaphore or fence is destroyed
//! or imported into again. A duplicate made before the import, a fresh export, and a `SYNC_FD`
//! of -1 (a signaled sync file, no fd) are the app's own: silent.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{call_count, exclusive};
use exportcheck_tests::{semaphores, Device, Instance};
use std::ffi::c_int;

const DESTROY_SEMAPHORE: &str = "vkDestroySemaphore";
const DESTROY_FENCE: &str = "vkDestroyFence";
type SemaphoreTypes = vk::ExternalSemaphoreHandleTypeFlags;
type FenceTypes = vk::ExternalFenceHandleTypeFlags;

fn dup(fd: c_int) -> c_int {
    // SAFETY: dup of an fd the test owns.
    let copy = unsafe { libc::dup(fd) };
    assert!(copy >= 0, "dup");
    copy
}

fn close(fd: c_int) {
    // SAFETY: the test's (deliberate) close of a number it names.
    unsafe { libc::close(fd) };
}

// ---- semaphores ----

fn semaphore_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
    ])
}

fn semaphore(dev: &Device, export: bool) -> vk::Semaphore {
    let mut exportable = vk::ExportSemaphoreCreateInfo::default()
        .handle_types(SemaphoreTypes::OPAQUE_FD | SemaphoreTypes::SYNC_FD);
    let mut info = vk::SemaphoreCreateInfo::default();
    if export {
        info = info.push_next(&mut exportable);
    }
    // SAFETY: a live device and a valid create info.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

fn destroy_semaphore(dev: &Device, semaphore: vk::Semaphore) {
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(semaphore, None) };
}

fn semaphore_fd(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_fd::Device {
    ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
}

fn export_semaphore(inst: &Instance, dev: &Device, semaphore: vk::Semaphore) -> c_int {
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(SemaphoreTypes::OPAQUE_FD);
    // SAFETY: a live info structure.
    let fd = unsafe { semaphore_fd(inst, dev).get_semaphore_fd(&info) }.expect("export");
    expect::silent(inst, GET_SEMAPHORE_FD);
    fd
}

/// The import of `fd` into `semaphore` as `handle_type` (temporarily for `SYNC_FD`). The fd is
/// left as it is, whatever the result.
fn import_semaphore(
    inst: &Instance,
    dev: &Device,
    semaphore: vk::Semaphore,
    handle_type: SemaphoreTypes,
    fd: c_int,
) -> vk::Result {
    let flags = if handle_type == SemaphoreTypes::SYNC_FD {
        vk::SemaphoreImportFlags::TEMPORARY
    } else {
        vk::SemaphoreImportFlags::empty()
    };
    let info = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type)
        .flags(flags)
        .fd(fd);
    let f = semaphore_fd(inst, dev).fp().import_semaphore_fd_khr;
    // SAFETY: a live info structure.
    unsafe { f(dev.handle(), &info) }
}

#[test]
fn a_semaphore_fd_imported_twice_is_reported_and_blocked() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let exporter = semaphore(&dev, true);
    let (first, second) = (semaphore(&dev, false), semaphore(&dev, false));
    let fd = export_semaphore(&inst, &dev, exporter);
    let copy = dup(fd);
    let opaque = SemaphoreTypes::OPAQUE_FD;
    let r = import_semaphore(&inst, &dev, first, opaque, fd);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    let before = call_count(c"vkImportSemaphoreFdKHR");
    let r = import_semaphore(&inst, &dev, second, opaque, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    assert_eq!(
        call_count(c"vkImportSemaphoreFdKHR"),
        before,
        "not passed down"
    );
    let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, FD_IMPORTED_TWICE);
    expect::mentions(
        &m,
        &[
            &format!(
                "pImportSemaphoreFdInfo->fd is {fd} (importing into VkSemaphore 0x{:x} ",
                second.as_raw()
            ),
            &format!(
                "which a successful import into VkSemaphore 0x{:x} (on {}) already handed to the \
                 driver, and the driver closed it then, and the layer has held the number since",
                first.as_raw(),
                device_name(&dev)
            ),
            "export it anew (vkGetSemaphoreFdKHR)",
            "The call was not passed to the driver.",
        ],
    );
    // The app's duplicate, made before the import, is its own; so is a signaled sync fd (-1),
    // twice.
    assert_eq!(
        import_semaphore(&inst, &dev, second, opaque, copy),
        vk::Result::SUCCESS
    );
    for _ in 0..2 {
        let r = import_semaphore(&inst, &dev, second, SemaphoreTypes::SYNC_FD, -1);
        assert_eq!(r, vk::Result::SUCCESS);
    }
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    // Once the importing semaphore is destroyed, the number is anyone's (untouched: silent).
    destroy_semaphore(&dev, first);
    expect::silent(&inst, DESTROY_SEMAPHORE);
    let fresh = export_semaphore(&inst, &dev, exporter);
    let r = import_semaphore(&inst, &dev, second, opaque, fresh);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    destroy_semaphore(&dev, second);
    destroy_semaphore(&dev, exporter);
    expect::silent(&inst, DESTROY_SEMAPHORE);
}

#[test]
fn a_semaphore_fd_closed_after_its_import_is_reported_at_destroy_and_at_the_next_import() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let exporter = semaphore(&dev, true);
    let into = semaphore(&dev, false);
    let opaque = SemaphoreTypes::OPAQUE_FD;
    for app_closes in [false, true] {
        let fd = export_semaphore(&inst, &dev, exporter);
        assert_eq!(
            import_semaphore(&inst, &dev, into, opaque, fd),
            vk::Result::SUCCESS
        );
        expect::silent(&inst, IMPORT_SEMAPHORE_FD);
        if !app_closes {
            // The next import into the semaphore lets the untouched number go: silent.
            continue;
        }
        close(fd);
        let next = export_semaphore(&inst, &dev, exporter);
        assert_eq!(
            import_semaphore(&inst, &dev, into, opaque, next),
            vk::Result::SUCCESS
        );
        let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, FD_CLOSED_AFTER_IMPORT);
        expect::mentions(
            &m,
            &[&format!(
                "vkImportSemaphoreFdKHR(): fd {fd}, which a successful vkImportSemaphoreFdKHR \
                 import into VkSemaphore 0x{:x} handed to the driver, was closed or replaced",
                into.as_raw()
            )],
        );
        // The latest import's number closed by the app, found when the semaphore goes.
        close(next);
        destroy_semaphore(&dev, into);
        let m = expect::one(&inst, DESTROY_SEMAPHORE, FD_CLOSED_AFTER_IMPORT);
        expect::mentions(
            &m,
            &[&format!(
                "vkDestroySemaphore(): fd {next}, which a successful vkImportSemaphoreFdKHR \
                 import into VkSemaphore 0x{:x} handed to the driver",
                into.as_raw()
            )],
        );
    }
    destroy_semaphore(&dev, exporter);
    expect::silent(&inst, DESTROY_SEMAPHORE);
}

/// A driver that keeps an imported fd until the wait that consumes its temporary payload, as
/// SwiftShader does, closes it then, and its next export hands the app the same number, of the
/// same open file description: that number is the app's new fd, and its import is silent and
/// reaches the driver (issue #33: the layer took it for the consumed fd, and blocked it).
#[test]
fn a_number_an_export_hands_out_again_is_the_apps() {
    let kept = r#"{"sync_quirks": {"imported_semaphore_fd_kept": true}}"#;
    let inst = exclusive(Some(kept));
    let dev = semaphore_device(&inst);
    let imports = call_count(c"vkImportSemaphoreFdKHR");
    let again = semaphores::export_again_after_a_consumed_temporary_import(&inst, &dev);
    assert_eq!(
        again.second, again.first,
        "the driver closed the first fd at the wait, and the export got its number"
    );
    assert_eq!(again.result, vk::Result::SUCCESS);
    assert_eq!(
        call_count(c"vkImportSemaphoreFdKHR"),
        imports + 2,
        "both imports reached the driver"
    );
    expect::silent_for(
        &inst,
        &[GET_SEMAPHORE_FD, IMPORT_SEMAPHORE_FD, DESTROY_SEMAPHORE],
    );
    // The number the driver still holds is the consumed fd while it holds it: imported again
    // before the wait, it is reported and blocked, as without the quirk.
    let exporter = semaphore(&dev, true);
    let (first, second) = (semaphore(&dev, false), semaphore(&dev, false));
    let fd = export_semaphore(&inst, &dev, exporter);
    let temporary = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(first)
        .handle_type(SemaphoreTypes::OPAQUE_FD)
        .flags(vk::SemaphoreImportFlags::TEMPORARY)
        .fd(fd);
    let import = semaphore_fd(&inst, &dev).fp().import_semaphore_fd_khr;
    // SAFETY: a live info structure.
    assert_eq!(
        unsafe { import(dev.handle(), &temporary) },
        vk::Result::SUCCESS
    );
    let r = import_semaphore(&inst, &dev, second, SemaphoreTypes::OPAQUE_FD, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, FD_IMPORTED_TWICE);
    expect::mentions(&m, &["the driver still holds it"]);
    for s in [first, second, exporter] {
        destroy_semaphore(&dev, s);
    }
}

// ---- fences ----

fn fence_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_fence::NAME,
        ash::khr::external_fence_fd::NAME,
    ])
}

fn fence(dev: &Device, export: bool) -> vk::Fence {
    let mut exportable = vk::ExportFenceCreateInfo::default()
        .handle_types(FenceTypes::OPAQUE_FD | FenceTypes::SYNC_FD);
    let mut info = vk::FenceCreateInfo::default();
    if export {
        info = info.push_next(&mut exportable);
    }
    // SAFETY: a live device and a valid create info.
    unsafe { dev.device.create_fence(&info, None) }.expect("vkCreateFence")
}

fn destroy_fence(dev: &Device, fence: vk::Fence) {
    // SAFETY: a fence of the device that no queue uses.
    unsafe { dev.device.destroy_fence(fence, None) };
}

fn fence_fd(inst: &Instance, dev: &Device) -> ash::khr::external_fence_fd::Device {
    ash::khr::external_fence_fd::Device::new(&inst.instance, &dev.device)
}

fn export_fence(inst: &Instance, dev: &Device, fence: vk::Fence) -> c_int {
    let info = vk::FenceGetFdInfoKHR::default()
        .fence(fence)
        .handle_type(FenceTypes::OPAQUE_FD);
    // SAFETY: a live info structure.
    let fd = unsafe { fence_fd(inst, dev).get_fence_fd(&info) }.expect("export");
    expect::silent(inst, GET_FENCE_FD);
    fd
}

fn import_fence(
    inst: &Instance,
    dev: &Device,
    fence: vk::Fence,
    handle_type: FenceTypes,
    fd: c_int,
) -> vk::Result {
    let flags = if handle_type == FenceTypes::SYNC_FD {
        vk::FenceImportFlags::TEMPORARY
    } else {
        vk::FenceImportFlags::empty()
    };
    let info = vk::ImportFenceFdInfoKHR::default()
        .fence(fence)
        .handle_type(handle_type)
        .flags(flags)
        .fd(fd);
    let f = fence_fd(inst, dev).fp().import_fence_fd_khr;
    // SAFETY: a live info structure.
    unsafe { f(dev.handle(), &info) }
}

#[test]
fn a_fence_fd_imported_twice_is_reported_and_blocked() {
    let inst = exclusive(None);
    let dev = fence_device(&inst);
    let exporter = fence(&dev, true);
    let (first, second) = (fence(&dev, false), fence(&dev, false));
    let fd = export_fence(&inst, &dev, exporter);
    let copy = dup(fd);
    let opaque = FenceTypes::OPAQUE_FD;
    assert_eq!(
        import_fence(&inst, &dev, first, opaque, fd),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, IMPORT_FENCE_FD);
    let before = call_count(c"vkImportFenceFdKHR");
    let r = import_fence(&inst, &dev, second, opaque, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    assert_eq!(call_count(c"vkImportFenceFdKHR"), before, "not passed down");
    let m = expect::one(&inst, IMPORT_FENCE_FD, FD_IMPORTED_TWICE);
    expect::mentions(
        &m,
        &[
            &format!(
                "pImportFenceFdInfo->fd is {fd} (importing into VkFence 0x{:x} ",
                second.as_raw()
            ),
            &format!(
                "which a successful import into VkFence 0x{:x} (on {}) already handed to the \
                 driver",
                first.as_raw(),
                device_name(&dev)
            ),
            "export it anew (vkGetFenceFdKHR)",
            "The call was not passed to the driver.",
        ],
    );
    assert_eq!(
        import_fence(&inst, &dev, second, opaque, copy),
        vk::Result::SUCCESS
    );
    for _ in 0..2 {
        let r = import_fence(&inst, &dev, second, FenceTypes::SYNC_FD, -1);
        assert_eq!(r, vk::Result::SUCCESS);
    }
    expect::silent(&inst, IMPORT_FENCE_FD);
    destroy_fence(&dev, first);
    expect::silent(&inst, DESTROY_FENCE);
    destroy_fence(&dev, second);
    destroy_fence(&dev, exporter);
    expect::silent(&inst, DESTROY_FENCE);
}

#[test]
fn a_fence_fd_closed_after_its_import_is_reported_at_destroy() {
    let inst = exclusive(None);
    let dev = fence_device(&inst);
    let exporter = fence(&dev, true);
    let into = fence(&dev, false);
    let opaque = FenceTypes::OPAQUE_FD;
    let fd = export_fence(&inst, &dev, exporter);
    assert_eq!(
        import_fence(&inst, &dev, into, opaque, fd),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, IMPORT_FENCE_FD);
    close(fd);
    destroy_fence(&dev, into);
    let m = expect::one(&inst, DESTROY_FENCE, FD_CLOSED_AFTER_IMPORT);
    expect::mentions(
        &m,
        &[&format!(
            "vkDestroyFence(): fd {fd}, which a successful vkImportFenceFdKHR import into \
             VkFence 0x{:x} handed to the driver, was closed or replaced",
            into.as_raw()
        )],
    );
    // Untouched: silent at destroy.
    let into = fence(&dev, false);
    let fd = export_fence(&inst, &dev, exporter);
    assert_eq!(
        import_fence(&inst, &dev, into, opaque, fd),
        vk::Result::SUCCESS
    );
    destroy_fence(&dev, into);
    expect::silent_for(&inst, &[IMPORT_FENCE_FD, DESTROY_FENCE]);
    destroy_fence(&dev, exporter);
}
