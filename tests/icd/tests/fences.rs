//! Fences through the real loader, with no layer: the compatibility table, status, reset and
//! host waits, fences signalled by submissions, `OPAQUE_FD` exports that share the payload,
//! `SYNC_FD` copies (the export is a reset, the import is temporary), temporary imports ended by
//! the next reset, and the Win32 handles.

#![warn(clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod common;

use ash::vk;
use common::sync::*;
use common::*;

type Types = vk::ExternalFenceHandleTypeFlags;
const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
const TEMPORARY: vk::FenceImportFlags = vk::FenceImportFlags::TEMPORARY;
const PERMANENT: vk::FenceImportFlags = vk::FenceImportFlags::empty();

fn signaled(device: &ash::Device, fence: vk::Fence) -> bool {
    // SAFETY: a live fence.
    unsafe { device.get_fence_status(fence) }.expect("status")
}

fn reset(device: &ash::Device, fence: vk::Fence) {
    // SAFETY: a live fence.
    unsafe { device.reset_fences(&[fence]) }.expect("reset");
}

#[test]
fn the_compatibility_table() {
    let instance = create_instance_1_3("{}");
    let pd = physical_device(&instance);
    let query = |handle_type: Types| {
        let info = vk::PhysicalDeviceExternalFenceInfo::default().handle_type(handle_type);
        let mut out = vk::ExternalFenceProperties::default();
        // SAFETY: valid arguments.
        unsafe { instance.get_physical_device_external_fence_properties(pd, &info, &mut out) };
        (
            out.external_fence_features,
            out.compatible_handle_types,
            out.export_from_imported_handle_types,
        )
    };
    let both =
        vk::ExternalFenceFeatureFlags::EXPORTABLE | vk::ExternalFenceFeatureFlags::IMPORTABLE;
    let all = Types::OPAQUE_FD | Types::SYNC_FD | Types::OPAQUE_WIN32 | Types::OPAQUE_WIN32_KMT;
    for t in [
        Types::OPAQUE_FD,
        Types::SYNC_FD,
        Types::OPAQUE_WIN32,
        Types::OPAQUE_WIN32_KMT,
    ] {
        assert_eq!(query(t), (both, all, all), "{t:?}");
    }
    let none = (
        vk::ExternalFenceFeatureFlags::empty(),
        Types::empty(),
        Types::empty(),
    );
    assert_eq!(query(Types::OPAQUE_FD | Types::SYNC_FD), none);
    assert_eq!(query(Types::from_raw(0x10)), none);
    destroy_instance(&instance);
}

#[test]
fn fences_are_signalled_by_submissions_and_reset() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, false).expect("device");
    let (f, g) = (fence(&device, false), fence(&device, true));
    assert!(!signaled(&device, f));
    assert!(signaled(&device, g), "created signalled");
    // SAFETY: live fences.
    let wait = |fences: &[vk::Fence], all: bool, timeout: u64| unsafe {
        device.wait_for_fences(fences, all, timeout)
    };
    assert_eq!(wait(&[f], true, 0), Err(vk::Result::TIMEOUT));
    assert_eq!(wait(&[f, g], true, 1_000_000), Err(vk::Result::TIMEOUT));
    assert_eq!(wait(&[f, g], false, 0), Ok(()), "any of them");
    submit(&device, &[], &[], f);
    assert!(signaled(&device, f));
    assert_eq!(wait(&[f, g], true, 0), Ok(()));
    // SAFETY: live fences.
    unsafe { device.reset_fences(&[f, g]) }.unwrap();
    assert!(!signaled(&device, f) && !signaled(&device, g));
    // A host wait ends when another thread submits.
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            submit(&device, &[], &[], g);
        });
        assert_eq!(wait(&[g], true, 10_000_000_000), Ok(()));
    });
    // vkQueueSubmit2 signals its fence too.
    // SAFETY: valid submission.
    unsafe { device.queue_submit2(queue(&device), &[], f) }.unwrap();
    assert!(signaled(&device, f));
    // SAFETY: destroying what was created.
    unsafe {
        device.destroy_fence(f, None);
        device.destroy_fence(g, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn opaque_fds_share_the_payload_and_are_taken_by_the_import() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, false).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (f, g) = (fence(&device, false), fence(&device, false));
    let fd = fns.fence_fd(f, Types::OPAQUE_FD).expect("export");
    let file = inode(fd).expect("a real fd");
    assert_eq!(
        fns.import_fence(g, Types::OPAQUE_FD, fd, PERMANENT),
        vk::Result::SUCCESS
    );
    assert_ne!(inode(fd), Some(file), "the import took the fd");
    submit(&device, &[], &[], f);
    assert!(signaled(&device, g), "g has f's payload");
    reset(&device, g);
    assert!(!signaled(&device, f));

    // A semaphore's payload, a file that is no payload, -1: refused, fd left to the app.
    let s = semaphore(&device, None);
    let semaphore_fd = fns
        .semaphore_fd(s, vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD)
        .unwrap();
    assert_eq!(
        fns.import_fence(f, Types::OPAQUE_FD, semaphore_fd, PERMANENT),
        INVALID
    );
    close(semaphore_fd);
    assert_eq!(
        fns.import_fence(f, Types::OPAQUE_FD, -1, PERMANENT),
        INVALID
    );
    assert_eq!(
        fns.import_fence(f, Types::OPAQUE_WIN32, 0, PERMANENT),
        INVALID
    );
    // SAFETY: destroying what was created.
    unsafe {
        device.destroy_fence(f, None);
        device.destroy_fence(g, None);
        device.destroy_semaphore(s, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn sync_fds_are_copies_and_temporary_imports_end_at_the_next_reset() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, false).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (f, g, h) = (
        fence(&device, false),
        fence(&device, false),
        fence(&device, false),
    );
    assert_eq!(
        fns.fence_fd(f, Types::SYNC_FD),
        Err(vk::Result::ERROR_UNKNOWN),
        "no signal submitted"
    );
    submit(&device, &[], &[], f);
    let sync_fd = fns.fence_fd(f, Types::SYNC_FD).expect("signalled");
    let file = inode(sync_fd).expect("a real sync file by default");
    assert!(!signaled(&device, f), "the export was a reset");
    // g's permanent payload is h's; the sync file goes in (always temporarily).
    let fd = fns.fence_fd(h, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_fence(g, Types::OPAQUE_FD, fd, PERMANENT),
        vk::Result::SUCCESS
    );
    assert_eq!(
        fns.import_fence(g, Types::SYNC_FD, sync_fd, PERMANENT),
        vk::Result::SUCCESS
    );
    assert_ne!(inode(sync_fd), Some(file), "the import took the fd");
    assert!(signaled(&device, g) && !signaled(&device, h));
    reset(&device, g);
    assert!(!signaled(&device, g));
    submit(&device, &[], &[], h);
    assert!(signaled(&device, g), "h's payload is g's again");
    // A temporary opaque import ends at the reset too.
    let other = fence(&device, true);
    let fd = fns.fence_fd(other, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_fence(f, Types::OPAQUE_FD, fd, TEMPORARY),
        vk::Result::SUCCESS
    );
    assert!(signaled(&device, f));
    reset(&device, f);
    assert!(signaled(&device, other), "the reset was of f's own payload");
    // -1 is a signalled sync file.
    assert_eq!(
        fns.import_fence(f, Types::SYNC_FD, -1, TEMPORARY),
        vk::Result::SUCCESS
    );
    assert!(signaled(&device, f));
    // SAFETY: destroying what was created.
    unsafe {
        for x in [f, g, h, other] {
            device.destroy_fence(x, None);
        }
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn signalled_sync_fds_are_minus_one_on_demand() {
    let instance = create_instance_1_3(r#"{"sync_quirks": {"signaled_sync_fd_minus_one": true}}"#);
    let device = sync_device(&instance, false).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let f = fence(&device, true);
    assert_eq!(fns.fence_fd(f, Types::SYNC_FD), Ok(-1));
    assert!(!signaled(&device, f), "the export was a reset");
    // SAFETY: destroying what was created.
    unsafe { device.destroy_fence(f, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn win32_handles_name_their_payload() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, false).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (f, g) = (fence(&device, false), fence(&device, false));
    let export = |x, handle_type| {
        let info = vk::FenceGetWin32HandleInfoKHR::default()
            .fence(x)
            .handle_type(handle_type);
        let mut handle: vk::HANDLE = 0;
        // SAFETY: valid arguments.
        let r = unsafe { (fns.get_fence_win32)(device.handle(), &info, &mut handle) };
        r.result_with_success(handle)
    };
    let import = |x, handle_type, handle, name: *const u16| {
        let mut info = vk::ImportFenceWin32HandleInfoKHR::default()
            .fence(x)
            .handle_type(handle_type)
            .handle(handle)
            .flags(PERMANENT);
        info.name = name;
        // SAFETY: valid arguments.
        unsafe { (fns.import_fence_win32)(device.handle(), &info) }
    };
    let nt = export(f, Types::OPAQUE_WIN32).unwrap();
    let kmt = export(f, Types::OPAQUE_WIN32_KMT).unwrap();
    assert!(nt != 0 && kmt != 0 && nt != kmt);
    assert_eq!(export(f, Types::OPAQUE_WIN32), Ok(nt), "stable");
    assert_eq!(export(f, Types::SYNC_FD), Err(vk::Result::ERROR_UNKNOWN));
    let none = std::ptr::null();
    assert_eq!(import(g, Types::OPAQUE_WIN32_KMT, nt, none), INVALID);
    assert_eq!(import(g, Types::OPAQUE_WIN32, 0x1234, none), INVALID);
    let name = [0u16; 2];
    assert_eq!(import(g, Types::OPAQUE_WIN32, nt, name.as_ptr()), INVALID);
    // A semaphore's handle is no fence's.
    let s = semaphore(&device, None);
    let info = vk::SemaphoreGetWin32HandleInfoKHR::default()
        .semaphore(s)
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32);
    let mut semaphore_handle: vk::HANDLE = 0;
    // SAFETY: valid arguments.
    let r = unsafe { (fns.get_semaphore_win32)(device.handle(), &info, &mut semaphore_handle) };
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(
        import(g, Types::OPAQUE_WIN32, semaphore_handle, none),
        INVALID
    );
    assert_eq!(
        import(g, Types::OPAQUE_WIN32, nt, none),
        vk::Result::SUCCESS
    );
    submit(&device, &[], &[], f);
    assert!(signaled(&device, g), "g has f's payload");
    // SAFETY: destroying what was created.
    unsafe {
        device.destroy_fence(f, None);
        device.destroy_fence(g, None);
        device.destroy_semaphore(s, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}
