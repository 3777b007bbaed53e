//! Semaphores through the real loader, with no layer: the extensions and the compatibility
//! table, binary and timeline semaphores signalled and waited by submissions and from the host,
//! `OPAQUE_FD` exports that share the payload (and are taken by an import), `SYNC_FD` copies
//! (the export is a wait, the import is temporary), temporary imports consumed by the next wait,
//! the Win32 and Zircon handles, and the SwiftShader quirk.

#![warn(clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod common;

use ash::vk;
use common::sync::*;
use common::*;

type Types = vk::ExternalSemaphoreHandleTypeFlags;
const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
const TEMPORARY: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::TEMPORARY;
const PERMANENT: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::empty();

/// Whether a binary semaphore is signalled, found out the only way an app can: a `SYNC_FD`
/// export succeeds only then (and unsignals it).
fn take_signal(fns: &SyncFns, semaphore: vk::Semaphore) -> bool {
    match fns.semaphore_fd(semaphore, Types::SYNC_FD) {
        Ok(fd) => {
            if fd >= 0 {
                close(fd);
            }
            true
        }
        Err(_) => false,
    }
}

fn counter(device: &ash::Device, semaphore: vk::Semaphore) -> u64 {
    // SAFETY: a live semaphore.
    unsafe { device.get_semaphore_counter_value(semaphore) }.expect("counter")
}

#[test]
fn extensions_features_and_the_compatibility_table() {
    let instance = create_instance_1_3("{}");
    let pd = physical_device(&instance);
    // SAFETY: valid instance and physical device.
    let (instance_extensions, device_extensions) = unsafe {
        (
            entry()
                .enumerate_instance_extension_properties(None)
                .unwrap(),
            instance.enumerate_device_extension_properties(pd).unwrap(),
        )
    };
    let has = |list: &[vk::ExtensionProperties], name: &str| {
        list.iter()
            .any(|e| e.extension_name_as_c_str().unwrap().to_str() == Ok(name))
    };
    for name in [
        "VK_KHR_external_semaphore_capabilities",
        "VK_KHR_external_fence_capabilities",
    ] {
        assert!(has(&instance_extensions, name), "{name}");
    }
    for name in SYNC_EXTENSIONS {
        assert!(has(&device_extensions, name), "{name}");
    }

    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut timeline = vk::PhysicalDeviceTimelineSemaphoreFeatures::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut features = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut v12)
        .push_next(&mut timeline)
        .push_next(&mut v13);
    // SAFETY: valid chain.
    unsafe { instance.get_physical_device_features2(pd, &mut features) };
    assert_eq!(
        (v12.timeline_semaphore, timeline.timeline_semaphore),
        (vk::TRUE, vk::TRUE)
    );
    assert_eq!(v13.synchronization2, vk::TRUE, "vkQueueSubmit2 is there");
    let mut limits = vk::PhysicalDeviceTimelineSemaphoreProperties::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut limits);
    // SAFETY: valid chain.
    unsafe { instance.get_physical_device_properties2(pd, &mut properties) };
    assert_eq!(limits.max_timeline_semaphore_value_difference, u64::MAX);

    let query = |handle_type: Types, timeline: bool| {
        let mut ty =
            vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
        let mut info = vk::PhysicalDeviceExternalSemaphoreInfo::default().handle_type(handle_type);
        if timeline {
            info = info.push_next(&mut ty);
        }
        let mut out = vk::ExternalSemaphoreProperties::default();
        // SAFETY: valid arguments.
        unsafe { instance.get_physical_device_external_semaphore_properties(pd, &info, &mut out) };
        (
            out.external_semaphore_features,
            out.compatible_handle_types,
            out.export_from_imported_handle_types,
        )
    };
    let both = vk::ExternalSemaphoreFeatureFlags::EXPORTABLE
        | vk::ExternalSemaphoreFeatureFlags::IMPORTABLE;
    let opaque = Types::OPAQUE_FD | Types::OPAQUE_WIN32 | Types::OPAQUE_WIN32_KMT;
    let binary = opaque | Types::SYNC_FD;
    let none = (
        vk::ExternalSemaphoreFeatureFlags::empty(),
        Types::empty(),
        Types::empty(),
    );
    for t in [
        Types::OPAQUE_FD,
        Types::OPAQUE_WIN32,
        Types::OPAQUE_WIN32_KMT,
        Types::SYNC_FD,
    ] {
        assert_eq!(query(t, false), (both, binary, binary), "{t:?} binary");
    }
    let zircon = Types::ZIRCON_EVENT_FUCHSIA;
    assert_eq!(
        query(zircon, false),
        (both, zircon, zircon),
        "compatible only with itself"
    );
    for t in [
        Types::OPAQUE_FD,
        Types::OPAQUE_WIN32,
        Types::OPAQUE_WIN32_KMT,
    ] {
        assert_eq!(query(t, true), (both, opaque, opaque), "{t:?} timeline");
    }
    for t in [Types::SYNC_FD, Types::ZIRCON_EVENT_FUCHSIA] {
        assert_eq!(query(t, true), none, "{t:?} timeline");
    }
    assert_eq!(query(Types::D3D12_FENCE, false), none);
    assert_eq!(query(Types::OPAQUE_FD | Types::SYNC_FD, false), none);
    assert_eq!(query(Types::empty(), false), none);
    destroy_instance(&instance);
}

#[test]
fn commands_need_their_extension_and_timeline_semaphores_their_feature() {
    let instance = create_instance_1_3("{}");
    let plain = create_device(&instance, &[], false).expect("device");
    for name in [
        "vkGetSemaphoreFdKHR",
        "vkImportSemaphoreWin32HandleKHR",
        "vkGetSemaphoreZirconHandleFUCHSIA",
        "vkGetFenceFdKHR",
        "vkImportFenceWin32HandleKHR",
        "vkGetSemaphoreCounterValueKHR",
    ] {
        assert!(device_proc(&instance, &plain, name).is_none(), "{name}");
    }
    for name in [
        "vkCreateSemaphore",
        "vkQueueSubmit",
        "vkQueueSubmit2",
        "vkWaitSemaphores",
        "vkWaitForFences",
    ] {
        assert!(device_proc(&instance, &plain, name).is_some(), "{name}");
    }
    destroy_device(&plain);
    let device = sync_device(&instance, true).expect("timeline feature enabled");
    assert!(device_proc(&instance, &device, "vkGetSemaphoreCounterValueKHR").is_some());
    destroy_device(&device);
    destroy_instance(&instance);

    let instance = create_instance_1_3(r#"{"features": {"timeline_semaphore": false}}"#);
    assert_eq!(
        sync_device(&instance, true).err(),
        Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
    );
    destroy_instance(&instance);
}

#[test]
fn binary_semaphores_are_signalled_and_waited_by_submissions() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, false).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, b) = (semaphore(&device, None), semaphore(&device, None));
    assert!(
        !take_signal(&fns, a),
        "no signal submitted: no SYNC_FD export"
    );
    submit(&device, &[], &[a], vk::Fence::null());
    assert!(take_signal(&fns, a));
    assert!(!take_signal(&fns, a), "the export was a wait");
    submit(&device, &[], &[a, b], vk::Fence::null());
    submit(&device, &[a], &[], vk::Fence::null());
    assert!(!take_signal(&fns, a), "the submitted wait unsignalled it");
    assert!(take_signal(&fns, b));
    // vkQueueSubmit2 likewise.
    let signal = [vk::SemaphoreSubmitInfo::default().semaphore(a)];
    let submit2 = vk::SubmitInfo2::default().signal_semaphore_infos(&signal);
    // SAFETY: valid submission.
    unsafe { device.queue_submit2(queue(&device), &[submit2], vk::Fence::null()) }.unwrap();
    assert!(take_signal(&fns, a));
    // SAFETY: the queue exists.
    unsafe { device.queue_wait_idle(queue(&device)) }.unwrap();
    // SAFETY: destroying what was created.
    unsafe {
        device.device_wait_idle().unwrap();
        device.destroy_semaphore(a, None);
        device.destroy_semaphore(b, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn timeline_semaphores_count_and_wait() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let t = semaphore(&device, Some(5));
    assert_eq!(counter(&device, t), 5);
    let signal = vk::SemaphoreSignalInfo::default().semaphore(t).value(7);
    // SAFETY: valid signal.
    unsafe { device.signal_semaphore(&signal) }.unwrap();
    assert_eq!(counter(&device, t), 7);
    let wait = |value: u64, timeout: u64| {
        let (semaphores, values) = ([t], [value]);
        let info = vk::SemaphoreWaitInfo::default()
            .semaphores(&semaphores)
            .values(&values);
        // SAFETY: valid wait.
        unsafe { device.wait_semaphores(&info, timeout) }
    };
    assert_eq!(wait(7, 0), Ok(()));
    assert_eq!(wait(8, 1_000_000), Err(vk::Result::TIMEOUT));

    let values = [10u64];
    let mut timeline = vk::TimelineSemaphoreSubmitInfo::default().signal_semaphore_values(&values);
    let signals = [t];
    let info = vk::SubmitInfo::default()
        .signal_semaphores(&signals)
        .push_next(&mut timeline);
    // SAFETY: valid submission.
    unsafe { device.queue_submit(queue(&device), &[info], vk::Fence::null()) }.unwrap();
    assert_eq!(counter(&device, t), 10);
    let signal2 = [vk::SemaphoreSubmitInfo::default().semaphore(t).value(12)];
    let submit2 = vk::SubmitInfo2::default().signal_semaphore_infos(&signal2);
    // SAFETY: valid submission.
    unsafe { device.queue_submit2(queue(&device), &[submit2], vk::Fence::null()) }.unwrap();
    assert_eq!(counter(&device, t), 12);

    // A host wait ends when another thread signals.
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            let signal = vk::SemaphoreSignalInfo::default().semaphore(t).value(20);
            // SAFETY: valid signal.
            unsafe { device.signal_semaphore(&signal) }.unwrap();
        });
        assert_eq!(wait(20, 10_000_000_000), Ok(()));
    });
    // The KHR alias reads the same counter.
    let get = device_fn!(
        &instance,
        &device,
        "vkGetSemaphoreCounterValueKHR",
        vk::PFN_vkGetSemaphoreCounterValue
    );
    let mut value = 0;
    // SAFETY: valid arguments.
    let r = unsafe { get(device.handle(), t, &mut value) };
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(value, 20);
    // No SYNC_FD export of a timeline semaphore.
    assert_eq!(
        fns.semaphore_fd(t, Types::SYNC_FD),
        Err(vk::Result::ERROR_UNKNOWN)
    );
    // SAFETY: destroying what was created.
    unsafe { device.destroy_semaphore(t, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn opaque_fds_share_the_payload_and_are_taken_by_the_import() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, b) = (semaphore(&device, None), semaphore(&device, None));
    let fd = fns.semaphore_fd(a, Types::OPAQUE_FD).expect("export");
    let file = inode(fd).expect("a real fd");
    let again = fns.semaphore_fd(a, Types::OPAQUE_FD).expect("export");
    assert_ne!(again, fd);
    assert_eq!(inode(again), Some(file), "one file per payload");
    close(again);
    assert_eq!(
        fns.import_semaphore(b, Types::OPAQUE_FD, fd, PERMANENT),
        vk::Result::SUCCESS
    );
    assert_ne!(inode(fd), Some(file), "the import took (closed) the fd");
    submit(&device, &[], &[a], vk::Fence::null());
    assert!(take_signal(&fns, b), "b has a's payload");
    assert!(!take_signal(&fns, a), "and b's wait was a's");

    // Timeline semaphores share their counter.
    let (t, u) = (semaphore(&device, Some(1)), semaphore(&device, Some(0)));
    let fd = fns.semaphore_fd(t, Types::OPAQUE_FD).expect("export");
    assert_eq!(
        fns.import_semaphore(u, Types::OPAQUE_FD, fd, PERMANENT),
        vk::Result::SUCCESS
    );
    let signal = vk::SemaphoreSignalInfo::default().semaphore(t).value(3);
    // SAFETY: valid signal.
    unsafe { device.signal_semaphore(&signal) }.unwrap();
    assert_eq!(counter(&device, u), 3);

    // Refused, and the fd left to the app: another semaphore type's or a fence's payload, a
    // file that is no payload, a closed fd, -1, a handle type the command does not take.
    let binary_fd = fns.semaphore_fd(a, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_semaphore(t, Types::OPAQUE_FD, binary_fd, PERMANENT),
        INVALID
    );
    let timeline_fd = fns.semaphore_fd(t, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_semaphore(a, Types::OPAQUE_FD, timeline_fd, PERMANENT),
        INVALID
    );
    let f = fence(&device, false);
    let fence_fd = fns
        .fence_fd(f, vk::ExternalFenceHandleTypeFlags::OPAQUE_FD)
        .unwrap();
    assert_eq!(
        fns.import_semaphore(a, Types::OPAQUE_FD, fence_fd, PERMANENT),
        INVALID
    );
    // SAFETY: a NUL-terminated name and valid flags.
    let memfd = unsafe { libc::memfd_create(c"not-a-payload".as_ptr(), 0) };
    assert_eq!(
        fns.import_semaphore(a, Types::OPAQUE_FD, memfd, PERMANENT),
        INVALID
    );
    for fd in [binary_fd, timeline_fd, fence_fd, memfd] {
        close(fd);
    }
    assert_eq!(
        fns.import_semaphore(a, Types::OPAQUE_FD, -1, PERMANENT),
        INVALID
    );
    assert_eq!(
        fns.import_semaphore(a, Types::OPAQUE_WIN32, 0, PERMANENT),
        INVALID
    );
    // SAFETY: destroying what was created.
    unsafe {
        for s in [a, b, t, u] {
            device.destroy_semaphore(s, None);
        }
        device.destroy_fence(f, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn temporary_imports_are_consumed_by_the_next_wait() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, false).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, b) = (semaphore(&device, None), semaphore(&device, None));
    let fd = fns.semaphore_fd(a, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_semaphore(b, Types::OPAQUE_FD, fd, TEMPORARY),
        vk::Result::SUCCESS
    );
    submit(&device, &[], &[a], vk::Fence::null());
    // A wait on b consumes a's signal and ends the temporary import.
    submit(&device, &[b], &[], vk::Fence::null());
    submit(&device, &[], &[a], vk::Fence::null());
    assert!(!take_signal(&fns, b), "b has its own payload again");
    assert!(take_signal(&fns, a));
    // SAFETY: destroying what was created.
    unsafe {
        device.destroy_semaphore(a, None);
        device.destroy_semaphore(b, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn sync_fds_are_signalled_copies_imported_temporarily() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, b, c) = (
        semaphore(&device, None),
        semaphore(&device, None),
        semaphore(&device, None),
    );
    // b's permanent payload is c's.
    let fd = fns.semaphore_fd(c, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_semaphore(b, Types::OPAQUE_FD, fd, PERMANENT),
        vk::Result::SUCCESS
    );
    submit(&device, &[], &[a], vk::Fence::null());
    let sync_fd = fns.semaphore_fd(a, Types::SYNC_FD).expect("signalled");
    let file = inode(sync_fd).expect("a real sync file by default");
    // Imported without the TEMPORARY flag (invalid usage), still temporary.
    assert_eq!(
        fns.import_semaphore(b, Types::SYNC_FD, sync_fd, PERMANENT),
        vk::Result::SUCCESS
    );
    assert_ne!(inode(sync_fd), Some(file), "the import took the fd");
    submit(&device, &[], &[c], vk::Fence::null());
    assert!(take_signal(&fns, b), "the sync file's signal");
    assert!(
        take_signal(&fns, b),
        "then c's payload, restored and signalled"
    );
    assert!(!take_signal(&fns, c), "consumed through b");
    // -1 is a signalled sync file.
    assert_eq!(
        fns.import_semaphore(a, Types::SYNC_FD, -1, TEMPORARY),
        vk::Result::SUCCESS
    );
    assert!(take_signal(&fns, a));
    // Not into a timeline semaphore; not an opaque fd.
    let t = semaphore(&device, Some(0));
    assert_eq!(
        fns.import_semaphore(t, Types::SYNC_FD, -1, TEMPORARY),
        INVALID
    );
    let opaque = fns.semaphore_fd(a, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_semaphore(b, Types::SYNC_FD, opaque, TEMPORARY),
        INVALID
    );
    close(opaque);
    // SAFETY: destroying what was created.
    unsafe {
        for s in [a, b, c, t] {
            device.destroy_semaphore(s, None);
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
    let a = semaphore(&device, None);
    assert_eq!(
        fns.semaphore_fd(a, Types::SYNC_FD),
        Err(vk::Result::ERROR_UNKNOWN)
    );
    submit(&device, &[], &[a], vk::Fence::null());
    assert_eq!(fns.semaphore_fd(a, Types::SYNC_FD), Ok(-1));
    assert!(!take_signal(&fns, a), "the export was a wait");
    // SAFETY: destroying what was created.
    unsafe { device.destroy_semaphore(a, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}

#[test]
fn win32_and_zircon_handles_name_their_payload() {
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, b, t) = (
        semaphore(&device, None),
        semaphore(&device, None),
        semaphore(&device, Some(0)),
    );
    let win32 = |s, handle_type| {
        let info = vk::SemaphoreGetWin32HandleInfoKHR::default()
            .semaphore(s)
            .handle_type(handle_type);
        let mut handle: vk::HANDLE = 0;
        // SAFETY: valid arguments.
        let r = unsafe { (fns.get_semaphore_win32)(device.handle(), &info, &mut handle) };
        r.result_with_success(handle)
    };
    let import_win32 = |s, handle_type, handle, name: *const u16| {
        let mut info = vk::ImportSemaphoreWin32HandleInfoKHR::default()
            .semaphore(s)
            .handle_type(handle_type)
            .handle(handle)
            .flags(PERMANENT);
        info.name = name;
        // SAFETY: valid arguments.
        unsafe { (fns.import_semaphore_win32)(device.handle(), &info) }
    };
    let nt = win32(a, Types::OPAQUE_WIN32).unwrap();
    let kmt = win32(a, Types::OPAQUE_WIN32_KMT).unwrap();
    assert!(nt != 0 && kmt != 0 && nt != kmt);
    assert_eq!(win32(a, Types::OPAQUE_WIN32), Ok(nt), "stable");
    assert_ne!(win32(b, Types::OPAQUE_WIN32).unwrap(), nt);
    assert_eq!(win32(a, Types::D3D12_FENCE), Err(vk::Result::ERROR_UNKNOWN));
    let none = std::ptr::null();
    assert_eq!(import_win32(b, Types::OPAQUE_WIN32_KMT, nt, none), INVALID);
    assert_eq!(import_win32(b, Types::OPAQUE_WIN32, 0x1234, none), INVALID);
    assert_eq!(import_win32(t, Types::OPAQUE_WIN32, nt, none), INVALID);
    let name = [0u16; 2];
    assert_eq!(
        import_win32(b, Types::OPAQUE_WIN32, nt, name.as_ptr()),
        INVALID
    );
    assert_eq!(
        import_win32(b, Types::OPAQUE_WIN32_KMT, kmt, none),
        vk::Result::SUCCESS
    );
    submit(&device, &[], &[a], vk::Fence::null());
    assert!(take_signal(&fns, b), "b has a's payload");

    let zircon = |s| {
        let info = vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
            .semaphore(s)
            .handle_type(Types::ZIRCON_EVENT_FUCHSIA);
        let mut handle = 0;
        // SAFETY: valid arguments.
        let r = unsafe { (fns.get_semaphore_zircon)(device.handle(), &info, &mut handle) };
        r.result_with_success(handle)
    };
    let import_zircon = |s, handle| {
        let info = vk::ImportSemaphoreZirconHandleInfoFUCHSIA::default()
            .semaphore(s)
            .handle_type(Types::ZIRCON_EVENT_FUCHSIA)
            .zircon_handle(handle)
            .flags(TEMPORARY);
        // SAFETY: valid arguments.
        unsafe { (fns.import_semaphore_zircon)(device.handle(), &info) }
    };
    let c = semaphore(&device, None);
    let event = zircon(c).unwrap();
    assert_ne!(event, 0);
    assert_eq!(zircon(c), Ok(event), "stable");
    assert_eq!(zircon(t), Err(vk::Result::ERROR_UNKNOWN), "binary only");
    assert_eq!(import_zircon(t, event), INVALID);
    assert_eq!(import_zircon(b, 0x1234), INVALID);
    assert_eq!(import_zircon(b, event), vk::Result::SUCCESS);
    submit(&device, &[], &[c], vk::Fence::null());
    assert!(take_signal(&fns, b), "b has c's payload, for one wait");
    // SAFETY: destroying what was created.
    unsafe {
        for s in [a, b, c, t] {
            device.destroy_semaphore(s, None);
        }
    }
    destroy_device(&device);
    destroy_instance(&instance);
}

/// Set in the child process of the quirk test.
const QUIRK_CHILD: &str = "EXPORTCHECK_TEST_ICD_QUIRK_CHILD";

#[test]
fn binary_fd_into_timeline_aborts_only_on_demand() {
    if std::env::var_os(QUIRK_CHILD).is_some() {
        return;
    }
    // Off (the default): refused.
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, t) = (semaphore(&device, None), semaphore(&device, Some(0)));
    let fd = fns.semaphore_fd(a, Types::OPAQUE_FD).unwrap();
    assert_eq!(
        fns.import_semaphore(t, Types::OPAQUE_FD, fd, PERMANENT),
        INVALID
    );
    close(fd);
    // SAFETY: destroying what was created.
    unsafe {
        device.destroy_semaphore(a, None);
        device.destroy_semaphore(t, None);
    }
    destroy_device(&device);
    destroy_instance(&instance);

    // On: the process aborts (in a child process running the test below).
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "quirk_child_imports_a_binary_fd_into_a_timeline"])
        .args(["--nocapture", "--test-threads", "1"])
        .env(QUIRK_CHILD, "1")
        .output()
        .expect("run the child");
    let stderr = String::from_utf8_lossy(&out.stderr);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(libc::SIGABRT), "{stderr}");
    assert!(
        stderr.contains("binary semaphore imported into a timeline semaphore: aborting"),
        "{stderr}"
    );
}

/// Run by the test above in a child process; does nothing otherwise.
#[test]
fn quirk_child_imports_a_binary_fd_into_a_timeline() {
    if std::env::var_os(QUIRK_CHILD).is_none() {
        return;
    }
    let instance =
        create_instance_1_3(r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true}}"#);
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let (a, t) = (semaphore(&device, None), semaphore(&device, Some(0)));
    let fd = fns.semaphore_fd(a, Types::OPAQUE_FD).unwrap();
    let _ = fns.import_semaphore(t, Types::OPAQUE_FD, fd, PERMANENT);
    unreachable!("the driver aborts");
}

/// Set in the child process of the cross-process test.
const SHARED_FD_CHILD: &str = "EXPORTCHECK_TEST_ICD_SHARED_FD_CHILD";
/// The descriptor number the child finds the exported fd at.
const CHILD_FD: i32 = 100;

#[test]
fn an_opaque_fd_shares_the_payload_with_another_process() {
    if std::env::var_os(SHARED_FD_CHILD).is_some() {
        return;
    }
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let t = semaphore(&device, Some(3));
    let fd = fns.semaphore_fd(t, Types::OPAQUE_FD).unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child
        .args(["--exact", "shared_fd_child_imports_and_signals"])
        .args(["--nocapture", "--test-threads", "1"])
        .env(SHARED_FD_CHILD, "1");
    use std::os::unix::process::CommandExt;
    // SAFETY: only dup2 (async-signal-safe) runs between fork and exec.
    unsafe {
        child.pre_exec(move || {
            if libc::dup2(fd, CHILD_FD) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    };
    let out = child.output().expect("run the child");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 passed"),
        "the child ran"
    );
    close(fd);
    assert_eq!(counter(&device, t), 42, "signalled by the other process");
    // SAFETY: destroying what was created.
    unsafe { device.destroy_semaphore(t, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}

/// Run by the test above in a child process that has the fd at [`CHILD_FD`]; does nothing
/// otherwise.
#[test]
fn shared_fd_child_imports_and_signals() {
    if std::env::var_os(SHARED_FD_CHILD).is_none() {
        return;
    }
    let instance = create_instance_1_3("{}");
    let device = sync_device(&instance, true).expect("device");
    let fns = SyncFns::load(&instance, &device);
    let u = semaphore(&device, Some(0));
    assert_eq!(
        fns.import_semaphore(u, Types::OPAQUE_FD, CHILD_FD, PERMANENT),
        vk::Result::SUCCESS
    );
    assert_eq!(inode(CHILD_FD), None, "the import took the fd");
    assert_eq!(counter(&device, u), 3, "the exporting process's value");
    let signal = vk::SemaphoreSignalInfo::default().semaphore(u).value(42);
    // SAFETY: valid signal.
    unsafe { device.signal_semaphore(&signal) }.unwrap();
    // SAFETY: destroying what was created.
    unsafe { device.destroy_semaphore(u, None) };
    destroy_device(&device);
    destroy_instance(&instance);
}
