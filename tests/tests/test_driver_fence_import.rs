//! vkImportFenceFdKHR and vkImportFenceWin32HandleKHR end to end: the real loader, the layer, and
//! the project's test driver (`tests/icd`), whose fences export real opaque fds (a memfd per
//! payload), sync files (-1 among them: a signaled sync file) and made-up Win32 handles, and take
//! them back in imports (docs/test-driver.md, "Semaphores and fences"). Valid imports are silent;
//! each bad call yields exactly the IDs of the rules it breaks: the shared rules (pointers,
//! sType, pNext, the fence handle, the handle-type value, the device), the fd import's own
//! (01464, flags, 07306) and, for an opaque fd exported in this process, the exporting device
//! against the importing one (01541); the Win32 import's own (01457, flags, 01462, 01459).

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::fences::{
    destroy, export_fd, fd_loader, fence, fence_device, fence_name, win32_loader, Types,
};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;
const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const TEMPORARY: vk::FenceImportFlags = vk::FenceImportFlags::TEMPORARY;
const PERMANENT: vk::FenceImportFlags = vk::FenceImportFlags::empty();
/// `L"exportcheck-fence"`: a name for a Win32 import by name.
const NAME: [u16; 18] = {
    let text = *b"exportcheck-fence\0";
    let mut wide = [0u16; 18];
    let mut i = 0;
    while i < text.len() {
        wide[i] = text[i] as u16;
        i += 1;
    }
    wide
};

const EXTENSIONS: [&std::ffi::CStr; 3] = [
    ash::khr::external_fence::NAME,
    ash::khr::external_fence_fd::NAME,
    ash::khr::external_fence_win32::NAME,
];

/// A device with every fence extension ([`EXTENSIONS`]).
fn import_device(inst: &Instance) -> Device {
    fence_device(inst, &EXTENSIONS[1..])
}

/// A Win32 handle of `fence` exported as `handle_type` (valid: the test's setup).
fn export_handle(inst: &Instance, dev: &Device, fence: vk::Fence, handle_type: Types) -> isize {
    let info = vk::FenceGetWin32HandleInfoKHR::default()
        .fence(fence)
        .handle_type(handle_type);
    // SAFETY: a live info structure.
    let handle = unsafe { win32_loader(inst, dev).get_fence_win32_handle(&info) }
        .expect("vkGetFenceWin32HandleKHR");
    expect::silent(inst, GET_FENCE_WIN32);
    handle
}

fn fd_info(
    fence: vk::Fence,
    handle_type: Types,
    flags: vk::FenceImportFlags,
    fd: c_int,
) -> vk::ImportFenceFdInfoKHR<'static> {
    vk::ImportFenceFdInfoKHR::default()
        .fence(fence)
        .handle_type(handle_type)
        .flags(flags)
        .fd(fd)
}

fn win32_info(
    fence: vk::Fence,
    handle_type: Types,
    flags: vk::FenceImportFlags,
    handle: isize,
    named: bool,
) -> vk::ImportFenceWin32HandleInfoKHR<'static> {
    let mut info = vk::ImportFenceWin32HandleInfoKHR::default()
        .fence(fence)
        .handle_type(handle_type)
        .flags(flags)
        .handle(handle);
    if named {
        info.name = NAME.as_ptr();
    }
    info
}

/// The fd import with `info`, through the `vkGetDeviceProcAddr` pointer. An fd the call did not
/// take (it failed, or the layer blocked it) is closed.
fn import_fd(inst: &Instance, dev: &Device, info: &vk::ImportFenceFdInfoKHR<'_>) -> vk::Result {
    let f = fd_loader(inst, dev).fp().import_fence_fd_khr;
    // SAFETY: a live info structure (or the deliberately bad one a test passes).
    let result = unsafe { f(dev.handle(), info) };
    if result != vk::Result::SUCCESS && info.fd >= 0 {
        // SAFETY: the fd was not taken; the test owns it.
        unsafe { libc::close(info.fd) };
    }
    result
}

/// The Win32 import with `info`, through the `vkGetDeviceProcAddr` pointer.
fn import_win32(
    inst: &Instance,
    dev: &Device,
    info: &vk::ImportFenceWin32HandleInfoKHR<'_>,
) -> vk::Result {
    let f = win32_loader(inst, dev).fp().import_fence_win32_handle_khr;
    // SAFETY: a live info structure (or the deliberately bad one a test passes).
    unsafe { f(dev.handle(), info) }
}

#[test]
fn valid_fd_imports_are_silent_a_sync_fd_of_minus_one_included() {
    let inst = exclusive(None);
    let dev = import_device(&inst);
    let exporter = fence(&dev, true, Some(OPAQUE | SYNC));
    let importer = fence(&dev, false, None);
    let mut calls = Calls::of(c"vkImportFenceFdKHR");
    for flags in [PERMANENT, TEMPORARY] {
        let fd = export_fd(&inst, &dev, exporter, OPAQUE);
        let r = import_fd(&inst, &dev, &fd_info(importer, OPAQUE, flags, fd));
        assert_eq!(r, vk::Result::SUCCESS);
        expect::silent(&inst, IMPORT_FENCE_FD);
    }
    let fd = export_fd(&inst, &dev, exporter, SYNC);
    let r = import_fd(&inst, &dev, &fd_info(importer, SYNC, TEMPORARY, fd));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_FENCE_FD);
    // -1 is a valid SYNC_FD: a sync file already signaled.
    let r = import_fd(&inst, &dev, &fd_info(importer, SYNC, TEMPORARY, -1));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_FENCE_FD);
    calls.assert(4, "every import reached the driver");
    // SAFETY: a live fence of the device.
    let signaled = unsafe { dev.device.get_fence_status(importer) };
    assert_eq!(
        signaled,
        Ok(true),
        "the driver took the sync file's payload"
    );
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn flags_and_handle_types_of_an_fd_import() {
    let inst = exclusive(None);
    let dev = import_device(&inst);
    let f = fence(&dev, false, None);
    dev.name(f, c"present-done");
    let mut calls = Calls::of(c"vkImportFenceFdKHR");
    let _ = import_fd(&inst, &dev, &fd_info(f, SYNC, PERMANENT, -1));
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_HANDLE_TYPE_07306);
    expect::mentions(
        &m,
        &[
            "pImportFenceFdInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT",
            "pImportFenceFdInfo->flags (0) lacks VK_FENCE_IMPORT_TEMPORARY_BIT",
            &fence_name(f),
        ],
    );
    let name = expect::object(&m, vk::ObjectType::FENCE, f.as_raw());
    assert_eq!(name.as_deref(), Some("present-done"));
    let odd = vk::FenceImportFlags::from_raw(0x2);
    let _ = import_fd(&inst, &dev, &fd_info(f, SYNC, odd | TEMPORARY, -1));
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_FLAGS_PARAM);
    expect::mentions(&m, &["pImportFenceFdInfo->flags is 0x3"]);
    let _ = import_fd(&inst, &dev, &fd_info(f, WIN32, TEMPORARY, -1));
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_HANDLE_TYPE_01464);
    expect::mentions(
        &m,
        &["pImportFenceFdInfo->handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT"],
    );
    let _ = import_fd(
        &inst,
        &dev,
        &fd_info(f, Types::from_raw(1 << 7), TEMPORARY, -1),
    );
    expect::only(
        &inst,
        IMPORT_FENCE_FD,
        &[
            FENCE_IMPORT_FD_HANDLE_TYPE_PARAM,
            FENCE_IMPORT_FD_HANDLE_TYPE_01464,
        ],
    );
    // All at once: each rule its finding.
    let _ = import_fd(&inst, &dev, &fd_info(f, SYNC, odd, -1));
    expect::only(
        &inst,
        IMPORT_FENCE_FD,
        &[
            FENCE_IMPORT_FD_FLAGS_PARAM,
            FENCE_IMPORT_FD_HANDLE_TYPE_07306,
        ],
    );
    destroy(&dev, f);
}

#[test]
fn an_opaque_fd_of_another_physical_device_is_01541() {
    let inst = exclusive(Some(r#"{"physical_device_count": 2}"#));
    let devices = inst.physical_devices();
    let first = inst.device_on(devices[0].0, &EXTENSIONS[..2], false);
    let second = inst.device_on(devices[1].0, &EXTENSIONS[..2], false);
    let exporter = fence(&first, false, Some(OPAQUE));
    let importer = fence(&second, false, None);
    let fd = export_fd(&inst, &first, exporter, OPAQUE);
    let _ = import_fd(&inst, &second, &fd_info(importer, OPAQUE, PERMANENT, fd));
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_FD_01541);
    expect::mentions(
        &m,
        &[
            &format!(
                "is an opaque fd exported from {} (a fence of {}",
                fence_name(exporter),
                device_name(&first)
            ),
            "other deviceUUIDs, or another driverUUID",
            &fence_name(importer),
        ],
    );
    // The same import on the exporting physical device is silent.
    let same = fence(&first, false, None);
    let fd = export_fd(&inst, &first, exporter, OPAQUE);
    let r = import_fd(&inst, &first, &fd_info(same, OPAQUE, PERMANENT, fd));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_FENCE_FD);
    // A sync file has no device requirement.
    let r = import_fd(&inst, &second, &fd_info(importer, SYNC, TEMPORARY, -1));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_FENCE_FD);
    destroy(&first, exporter);
    destroy(&first, same);
    destroy(&second, importer);
}

#[test]
fn an_fd_imports_bad_pointers_structures_and_handles_are_reported() {
    let inst = exclusive(None);
    let dev = import_device(&inst);
    let f = fd_loader(&inst, &dev).fp().import_fence_fd_khr;
    let fence_ = fence(&dev, false, None);
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { f(dev.handle(), std::ptr::null()) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_INFO_PARAM);
    let mut wrong = fd_info(fence_, SYNC, TEMPORARY, -1);
    wrong.s_type = vk::StructureType::FENCE_GET_FD_INFO_KHR;
    assert_eq!(
        import_fd(&inst, &dev, &wrong),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_STYPE);
    expect::mentions(&m, &["VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR"]);
    let chained = vk::ExportFenceCreateInfo::default();
    let mut with_next = fd_info(fence_, SYNC, TEMPORARY, -1);
    with_next.p_next = (&chained as *const vk::ExportFenceCreateInfo).cast();
    assert_eq!(
        import_fd(&inst, &dev, &with_next),
        vk::Result::SUCCESS,
        "goes down"
    );
    expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_PNEXT);
    let r = import_fd(
        &inst,
        &dev,
        &fd_info(vk::Fence::null(), SYNC, TEMPORARY, -1),
    );
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_FENCE_PARAM);
    expect::mentions(&m, &["pImportFenceFdInfo->fence is VK_NULL_HANDLE"]);
    destroy(&dev, fence_);
    let r = import_fd(&inst, &dev, &fd_info(fence_, SYNC, TEMPORARY, -1));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_FENCE_PARAM);
    expect::mentions(&m, &["already destroyed with vkDestroyFence"]);
    let other = import_device(&inst);
    let theirs = fence(&other, false, None);
    let r = import_fd(&inst, &dev, &fd_info(theirs, SYNC, TEMPORARY, -1));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[&format!(
            "which belongs to another device than {}",
            device_name(&dev)
        )],
    );
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe {
        f(
            vk::Device::from_raw(0x1234),
            &fd_info(theirs, SYNC, TEMPORARY, -1),
        )
    };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::unknown_device(
        &[&inst],
        IMPORT_FENCE_FD,
        FENCE_IMPORT_FD_DEVICE_PARAM,
        &["0x1234"],
    );
    destroy(&other, theirs);
}

#[test]
fn valid_win32_imports_are_silent() {
    let inst = exclusive(None);
    let dev = import_device(&inst);
    let exporter = fence(&dev, true, Some(WIN32 | KMT));
    let importer = fence(&dev, false, None);
    let mut calls = Calls::of(c"vkImportFenceWin32HandleKHR");
    let nt = export_handle(&inst, &dev, exporter, WIN32);
    let kmt = export_handle(&inst, &dev, exporter, KMT);
    for (handle_type, handle) in [(WIN32, nt), (KMT, kmt)] {
        for flags in [PERMANENT, TEMPORARY] {
            let info = win32_info(importer, handle_type, flags, handle, false);
            assert_eq!(import_win32(&inst, &dev, &info), vk::Result::SUCCESS);
            expect::silent(&inst, IMPORT_FENCE_WIN32);
        }
    }
    // By name, with no handle: valid usage (the test driver knows no names, and fails it).
    let by_name = win32_info(importer, WIN32, PERMANENT, 0, true);
    let _ = import_win32(&inst, &dev, &by_name);
    expect::silent(&inst, IMPORT_FENCE_WIN32);
    calls.assert(5, "every import reached the driver");
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn flags_handle_name_and_handle_types_of_a_win32_import() {
    let inst = exclusive(None);
    let dev = import_device(&inst);
    let exporter = fence(&dev, false, Some(WIN32));
    let f = fence(&dev, false, None);
    let nt = export_handle(&inst, &dev, exporter, WIN32);
    let mut calls = Calls::of(c"vkImportFenceWin32HandleKHR");
    let _ = import_win32(&inst, &dev, &win32_info(f, WIN32, PERMANENT, nt, true));
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_HANDLE_01462);
    expect::mentions(
        &m,
        &[
            "pImportFenceWin32HandleInfo->handle and pImportFenceWin32HandleInfo->name are both not NULL",
            &fence_name(f),
        ],
    );
    let _ = import_win32(&inst, &dev, &win32_info(f, KMT, PERMANENT, 0, true));
    let m = expect::one(
        &inst,
        IMPORT_FENCE_WIN32,
        FENCE_IMPORT_WIN32_HANDLE_TYPE_01459,
    );
    expect::mentions(
        &m,
        &[
            "pImportFenceWin32HandleInfo->name is not NULL",
            "handleType is VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        ],
    );
    let _ = import_win32(&inst, &dev, &win32_info(f, KMT, PERMANENT, nt, true));
    expect::only(
        &inst,
        IMPORT_FENCE_WIN32,
        &[
            FENCE_IMPORT_WIN32_HANDLE_01462,
            FENCE_IMPORT_WIN32_HANDLE_TYPE_01459,
        ],
    );
    let odd = vk::FenceImportFlags::from_raw(0x4);
    let _ = import_win32(&inst, &dev, &win32_info(f, WIN32, odd, nt, false));
    let m = expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_FLAGS_PARAM);
    expect::mentions(&m, &["pImportFenceWin32HandleInfo->flags is 0x4"]);
    for t in [SYNC, Types::from_raw(1 << 7)] {
        let _ = import_win32(&inst, &dev, &win32_info(f, t, TEMPORARY, nt, false));
        let m = expect::one(
            &inst,
            IMPORT_FENCE_WIN32,
            FENCE_IMPORT_WIN32_HANDLE_TYPE_01457,
        );
        expect::mentions(&m, &["pImportFenceWin32HandleInfo->handleType is"]);
    }
    destroy(&dev, exporter);
    destroy(&dev, f);
}

#[test]
fn a_win32_imports_bad_pointers_structures_and_handles_are_reported() {
    let inst = exclusive(None);
    let dev = import_device(&inst);
    let f = win32_loader(&inst, &dev).fp().import_fence_win32_handle_khr;
    let exporter = fence(&dev, false, Some(WIN32));
    let nt = export_handle(&inst, &dev, exporter, WIN32);
    let fence_ = fence(&dev, false, None);
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { f(dev.handle(), std::ptr::null()) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_INFO_PARAM);
    let mut wrong = win32_info(fence_, WIN32, PERMANENT, nt, false);
    wrong.s_type = vk::StructureType::FENCE_GET_WIN32_HANDLE_INFO_KHR;
    assert_eq!(
        import_win32(&inst, &dev, &wrong),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_STYPE);
    expect::mentions(
        &m,
        &["VK_STRUCTURE_TYPE_IMPORT_FENCE_WIN32_HANDLE_INFO_KHR"],
    );
    let chained = vk::ExportFenceCreateInfo::default();
    let mut with_next = win32_info(fence_, WIN32, PERMANENT, nt, false);
    with_next.p_next = (&chained as *const vk::ExportFenceCreateInfo).cast();
    assert_eq!(
        import_win32(&inst, &dev, &with_next),
        vk::Result::SUCCESS,
        "goes down"
    );
    expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_PNEXT);
    let null = win32_info(vk::Fence::null(), WIN32, PERMANENT, nt, false);
    assert_eq!(
        import_win32(&inst, &dev, &null),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_FENCE_PARAM);
    expect::mentions(
        &m,
        &["pImportFenceWin32HandleInfo->fence is VK_NULL_HANDLE"],
    );
    destroy(&dev, fence_);
    let gone = win32_info(fence_, WIN32, PERMANENT, nt, false);
    assert_eq!(
        import_win32(&inst, &dev, &gone),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_IMPORT_WIN32_FENCE_PARAM);
    expect::mentions(&m, &["already destroyed with vkDestroyFence"]);
    let other = import_device(&inst);
    let theirs = fence(&other, false, None);
    let info = win32_info(theirs, WIN32, PERMANENT, nt, false);
    assert_eq!(
        import_win32(&inst, &dev, &info),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, IMPORT_FENCE_WIN32, FENCE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[&format!(
            "which belongs to another device than {}",
            device_name(&dev)
        )],
    );
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { f(vk::Device::from_raw(0x1234), &info) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::unknown_device(
        &[&inst],
        IMPORT_FENCE_WIN32,
        FENCE_IMPORT_WIN32_DEVICE_PARAM,
        &["0x1234"],
    );
    destroy(&other, theirs);
    destroy(&dev, exporter);
}

/// A plain fence (no `VkExportFenceCreateInfo`) is the usual target of a sync-file import: its
/// pending queue signal is followed too, and a sync-file import, a copy that shares nothing,
/// does not end that (issue #33: only exportable fences were followed). Waited on, it is silent.
#[test]
fn a_sync_file_import_into_a_plain_fence_whose_signal_is_pending_is_01463() {
    let inst = exclusive(Some(r#"{"sync_quirks": {"pending_fence_signals": true}}"#));
    let dev = import_device(&inst);
    let plain = fence(&dev, false, None);
    // SAFETY: queue 0 of family 0 exists.
    let queue = unsafe { dev.device.get_device_queue(0, 0) };
    for _ in 0..2 {
        // SAFETY: an empty submission that signals `plain`, whose earlier signal completed.
        unsafe { dev.device.queue_submit(queue, &[], plain) }.expect("vkQueueSubmit");
        let r = import_fd(&inst, &dev, &fd_info(plain, SYNC, TEMPORARY, -1));
        assert_eq!(r, vk::Result::SUCCESS, "passed down");
        let m = expect::one(&inst, IMPORT_FENCE_FD, IMPORT_FENCE_FD_FENCE_01463);
        expect::mentions(
            &m,
            &[&fence_name(plain), "vkGetFenceStatus says VK_NOT_READY"],
        );
        // SAFETY: the pending signal completes, then the fence is reset (its own payload back).
        unsafe {
            dev.device
                .wait_for_fences(&[plain], true, u64::MAX)
                .expect("vkWaitForFences");
            dev.device.reset_fences(&[plain]).expect("vkResetFences");
        }
    }
    // Submitted and waited on: the signal completed, the import is silent.
    // SAFETY: a submission of a fence no queue uses, then a wait on it.
    unsafe {
        dev.device
            .queue_submit(queue, &[], plain)
            .expect("vkQueueSubmit");
        dev.device
            .wait_for_fences(&[plain], true, u64::MAX)
            .expect("vkWaitForFences");
    }
    let r = import_fd(&inst, &dev, &fd_info(plain, SYNC, TEMPORARY, -1));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_FENCE_FD);
    // SAFETY: the queue's pending work completes before the fence goes.
    unsafe { dev.device.queue_wait_idle(queue) }.expect("vkQueueWaitIdle");
    destroy(&dev, plain);
}

#[test]
fn an_import_into_a_fence_whose_queue_signal_is_pending_is_01463_and_04448() {
    // The test driver keeps a submission's fence signal pending until the app waits.
    let inst = exclusive(Some(r#"{"sync_quirks": {"pending_fence_signals": true}}"#));
    let dev = import_device(&inst);
    let exporter = fence(&dev, true, Some(OPAQUE | WIN32));
    let busy = fence(&dev, false, Some(OPAQUE));
    dev.name(busy, c"frame-fence");
    // SAFETY: queue 0 of family 0 exists; an empty submission that signals `busy`.
    let queue = unsafe { dev.device.get_device_queue(0, 0) };
    // SAFETY: as above.
    unsafe { dev.device.queue_submit(queue, &[], busy) }.expect("vkQueueSubmit");
    let fd = export_fd(&inst, &dev, exporter, OPAQUE);
    let _ = import_fd(&inst, &dev, &fd_info(busy, OPAQUE, TEMPORARY, fd));
    let m = expect::one(&inst, IMPORT_FENCE_FD, IMPORT_FENCE_FD_FENCE_01463);
    expect::mentions(
        &m,
        &[
            "pImportFenceFdInfo->fence is",
            &fence_name(busy),
            "vkGetFenceStatus says VK_NOT_READY",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::FENCE, busy.as_raw());
    assert_eq!(name.as_deref(), Some("frame-fence"));
    // After an import the payload is another's too (they may reset it): not asked about again.
    // SAFETY: a fence no queue uses (the import replaced its payload): reset, then submitted.
    unsafe {
        dev.device.reset_fences(&[busy]).expect("vkResetFences");
        dev.device
            .queue_submit(queue, &[], busy)
            .expect("vkQueueSubmit");
    }
    let fd = export_fd(&inst, &dev, exporter, OPAQUE);
    let _ = import_fd(&inst, &dev, &fd_info(busy, OPAQUE, TEMPORARY, fd));
    expect::silent(&inst, IMPORT_FENCE_FD);
    // Another fence, submitted: the Win32 import.
    let other = fence(&dev, false, Some(WIN32));
    // SAFETY: an empty submission that signals `other`.
    unsafe { dev.device.queue_submit(queue, &[], other) }.expect("vkQueueSubmit");
    let handle = export_handle(&inst, &dev, exporter, WIN32);
    let _ = import_win32(
        &inst,
        &dev,
        &win32_info(other, WIN32, TEMPORARY, handle, false),
    );
    expect::one(&inst, IMPORT_FENCE_WIN32, IMPORT_FENCE_WIN32_FENCE_04448);
    // Waited on: the signal completed, and an import is silent.
    let third = fence(&dev, false, Some(OPAQUE));
    // SAFETY: a submission of a fence no queue uses, then a wait on it.
    unsafe {
        dev.device
            .queue_submit(queue, &[], third)
            .expect("vkQueueSubmit");
        dev.device
            .wait_for_fences(&[third], true, u64::MAX)
            .expect("vkWaitForFences");
    }
    let fd = export_fd(&inst, &dev, exporter, OPAQUE);
    assert_eq!(
        import_fd(&inst, &dev, &fd_info(third, OPAQUE, TEMPORARY, fd)),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, IMPORT_FENCE_FD);
    // SAFETY: the queue's pending work completes before the fences go.
    unsafe { dev.device.queue_wait_idle(queue) }.expect("vkQueueWaitIdle");
    for f in [exporter, busy, other, third] {
        destroy(&dev, f);
    }
}
