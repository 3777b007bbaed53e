//! vkGetSemaphoreFdKHR and vkImportSemaphoreFdKHR end to end over SwiftShader, a real driver
//! that exports binary semaphores as opaque fds and imports them: a semaphore created exportable
//! as one exports silently, and its fd imports silently into a binary semaphore; imported into a
//! timeline semaphore (on which SwiftShader crashes), it is reported and kept from the driver
//! (the other cases are test_driver_semaphore_fd.rs and test_driver_semaphore_import_fd.rs).

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::swiftshader::exclusive;
use exportcheck_tests::{semaphores, Device, Instance};

const OPAQUE: vk::ExternalSemaphoreHandleTypeFlags =
    vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;

#[test]
fn an_opaque_fd_export_as_created_is_silent() {
    let inst = exclusive();
    let dev = inst.device(&[
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
    ]);
    let mut export = vk::ExportSemaphoreCreateInfo::default().handle_types(OPAQUE);
    let create = vk::SemaphoreCreateInfo::default().push_next(&mut export);
    // SAFETY: a live device and a valid create info.
    let s = unsafe { dev.device.create_semaphore(&create, None) }.expect("vkCreateSemaphore");
    let get = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(s)
        .handle_type(OPAQUE);
    // SAFETY: a live info structure.
    let fd = unsafe { get.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    assert!(fd >= 0, "{fd}");
    // SAFETY: the descriptor the driver gave the app, closed once.
    unsafe { libc::close(fd) };
    expect::silent(&inst, GET_SEMAPHORE_FD);
    assert_ne!(s.as_raw(), 0);
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(s, None) };
}

/// A device of SwiftShader's with the semaphore-fd extensions and timeline semaphores.
fn timeline_device(inst: &Instance) -> Device {
    let mut timeline =
        vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
    let features = (&mut timeline as *mut vk::PhysicalDeviceTimelineSemaphoreFeatures).cast();
    inst.device_with_features(
        &[
            ash::khr::external_semaphore::NAME,
            ash::khr::external_semaphore_fd::NAME,
            ash::khr::timeline_semaphore::NAME,
        ],
        Some(features),
    )
}

fn create(dev: &Device, timeline: bool, export: bool) -> vk::Semaphore {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut exportable = vk::ExportSemaphoreCreateInfo::default().handle_types(OPAQUE);
    let mut info = vk::SemaphoreCreateInfo::default();
    if timeline {
        info = info.push_next(&mut ty);
    }
    if export {
        info = info.push_next(&mut exportable);
    }
    // SAFETY: a live device and a valid create info.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

#[test]
fn an_opaque_fd_imports_into_a_binary_semaphore_and_is_kept_from_a_timeline_one() {
    let inst = exclusive();
    let dev = timeline_device(&inst);
    let fd_loader = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let exporter = create(&dev, false, true);
    let export = || {
        let info = vk::SemaphoreGetFdInfoKHR::default()
            .semaphore(exporter)
            .handle_type(OPAQUE);
        // SAFETY: a live info structure.
        unsafe { fd_loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR")
    };
    let binary = create(&dev, false, false);
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(binary)
        .handle_type(OPAQUE)
        .fd(export());
    // SAFETY: a live info structure; the driver takes the fd.
    unsafe { fd_loader.import_semaphore_fd(&import) }.expect("vkImportSemaphoreFdKHR");
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    let timeline = create(&dev, true, false);
    let fd = export();
    let import = import.semaphore(timeline).fd(fd);
    // SAFETY: a live info structure; the layer keeps the call from the driver (which would
    // crash), so the fd stays the test's.
    let r = unsafe { (fd_loader.fp().import_semaphore_fd_khr)(dev.handle(), &import) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, IMPORT_SEMAPHORE_FD, SEM_IMPORT_FD_HANDLE_TYPE_03264);
    // SAFETY: the fd the blocked import did not take.
    unsafe { libc::close(fd) };
    for s in [exporter, binary, timeline] {
        // SAFETY: semaphores of the device that no queue uses.
        unsafe { dev.device.destroy_semaphore(s, None) };
    }
}

/// Fd ownership on a real driver that keeps the fd of an opaque import open (SwiftShader does;
/// the test driver closes it: test_driver_sync_fd_ownership.rs): the same number, still the
/// open file description the driver holds, imported again is `EXPORTCHECK-fd-imported-twice`
/// ("the driver still holds it"), kept from the driver; a duplicate the app made before the
/// import is its own and imports silently.
#[test]
fn an_opaque_fd_imported_twice_is_reported_and_blocked_a_duplicate_is_not() {
    let inst = exclusive();
    let dev = timeline_device(&inst);
    let fd_loader = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let exporter = create(&dev, false, true);
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(exporter)
        .handle_type(OPAQUE);
    // SAFETY: a live info structure.
    let fd = unsafe { fd_loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    // SAFETY: dup of the fd the test owns.
    let copy = unsafe { libc::dup(fd) };
    assert!(copy >= 0);
    let (first, second) = (create(&dev, false, false), create(&dev, false, false));
    let import = |semaphore, fd| {
        let info = vk::ImportSemaphoreFdInfoKHR::default()
            .semaphore(semaphore)
            .handle_type(OPAQUE)
            .fd(fd);
        // SAFETY: a live info structure.
        unsafe { (fd_loader.fp().import_semaphore_fd_khr)(dev.handle(), &info) }
    };
    assert_eq!(import(first, fd), vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    // SAFETY: F_GETFD only reads the descriptor's flags.
    assert!(
        unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0,
        "SwiftShader keeps the fd"
    );
    assert_eq!(import(second, fd), vk::Result::ERROR_VALIDATION_FAILED_EXT);
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
                 driver, and the driver still holds it",
                first.as_raw(),
                expect::device_name(&dev)
            ),
            "The call was not passed to the driver.",
        ],
    );
    assert_eq!(import(second, copy), vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    for s in [first, second, exporter] {
        // SAFETY: semaphores of the device that no queue uses.
        unsafe { dev.device.destroy_semaphore(s, None) };
    }
    expect::silent(&inst, "vkDestroySemaphore");
}

/// SwiftShader keeps an imported opaque fd until the wait that consumes its temporary payload,
/// closes it then, and its next export hands the app that number again, of the same open file
/// description: the number is the app's new fd, so its import is silent and reaches the driver
/// (issue #33: the layer took it for the consumed fd, reported it and blocked the call).
#[test]
fn a_number_swiftshader_hands_out_again_after_a_consumed_import_is_the_apps() {
    let inst = exclusive();
    let dev = inst.device(&[
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
    ]);
    let again = semaphores::export_again_after_a_consumed_temporary_import(&inst, &dev);
    assert_eq!(
        again.second, again.first,
        "SwiftShader closed the first fd at the wait, and the export got its number"
    );
    assert_eq!(again.result, vk::Result::SUCCESS);
    expect::silent_for(&inst, &[GET_SEMAPHORE_FD, IMPORT_SEMAPHORE_FD]);
}
