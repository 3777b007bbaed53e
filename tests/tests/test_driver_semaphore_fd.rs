//! vkGetSemaphoreFdKHR end to end: the real loader, the layer, and the project's test driver
//! (`tests/icd`), which exports binary and timeline semaphores as real opaque fds and binary ones
//! as sync files (docs/test-driver.md, "Semaphores and fences"). Valid exports are silent; each
//! bad call yields exactly the IDs of the rules it breaks: the shared export rules (pointers,
//! sType, pNext, the semaphore handle, the handle-type value, the device) and the rules of the
//! semaphore as it was created (01132, 01136, 03253). An export after an import is not judged
//! against the create info (the layer does not follow imported payloads yet).
//! The opaque-fd positive case on SwiftShader is swiftshader_semaphore_fd.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::layer_stats::tracked_counts;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

const CMD: &str = GET_SEMAPHORE_FD;
type Types = vk::ExternalSemaphoreHandleTypeFlags;
const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;

/// A device with VK_KHR_external_semaphore_fd and timeline semaphores (the feature enabled).
fn semaphore_device(inst: &Instance) -> Device {
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

/// A binary (or timeline) semaphore, exportable as `export` when given.
fn semaphore(dev: &Device, timeline: bool, export: Option<Types>) -> vk::Semaphore {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut exportable = vk::ExportSemaphoreCreateInfo::default();
    let mut info = vk::SemaphoreCreateInfo::default();
    if timeline {
        info = info.push_next(&mut ty);
    }
    if let Some(types) = export {
        exportable = exportable.handle_types(types);
        info = info.push_next(&mut exportable);
    }
    // SAFETY: a live device and a valid create info.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

fn destroy(dev: &Device, semaphore: vk::Semaphore) {
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(semaphore, None) };
}

/// Submits a batch that only signals the binary `semaphore` (the test driver completes it at once).
fn signal(dev: &Device, semaphore: vk::Semaphore) {
    let signals = [semaphore];
    let submit = [vk::SubmitInfo::default().signal_semaphores(&signals)];
    // SAFETY: queue 0 of family 0 exists (the device was made with it); a valid submission.
    unsafe {
        let queue = dev.device.get_device_queue(0, 0);
        dev.device
            .queue_submit(queue, &submit, vk::Fence::null())
            .expect("vkQueueSubmit");
        dev.device.queue_wait_idle(queue).expect("vkQueueWaitIdle");
    }
}

/// `vkGetSemaphoreFdKHR` as `vkGetDeviceProcAddr` gives it.
fn get_fd_fn(inst: &Instance, dev: &Device) -> vk::PFN_vkGetSemaphoreFdKHR {
    ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
        .fp()
        .get_semaphore_fd_khr
}

fn info(semaphore: vk::Semaphore, handle_type: Types) -> vk::SemaphoreGetFdInfoKHR<'static> {
    vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type)
}

/// The call with `info`; `*pFd` is pre-filled with -7. A descriptor the driver returned is closed.
fn call(
    inst: &Instance,
    dev: &Device,
    info: &vk::SemaphoreGetFdInfoKHR<'_>,
) -> (vk::Result, c_int) {
    let mut fd: c_int = -7;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get_fd_fn(inst, dev)(dev.handle(), info, &mut fd) };
    if result == vk::Result::SUCCESS && fd >= 0 {
        // SAFETY: a descriptor the driver gave the app, closed once.
        unsafe { libc::close(fd) };
    }
    (result, fd)
}

fn semaphore_name(semaphore: vk::Semaphore) -> String {
    format!("VkSemaphore 0x{:x}", semaphore.as_raw())
}

#[test]
fn exports_as_created_are_silent_and_return_fds() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let before = tracked_counts().semaphores;
    let binary = semaphore(&dev, false, Some(OPAQUE | SYNC));
    let timeline = semaphore(&dev, true, Some(OPAQUE));
    assert_eq!(tracked_counts().semaphores, before + 2, "tracked");
    for s in [binary, timeline] {
        let (r, fd) = call(&inst, &dev, &info(s, OPAQUE));
        assert_eq!(r, vk::Result::SUCCESS);
        assert!(fd >= 0, "{fd}");
        expect::silent(&inst, CMD);
    }
    signal(&dev, binary);
    let (r, fd) = call(&inst, &dev, &info(binary, SYNC));
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(fd, -7, "written");
    expect::silent(&inst, CMD);
    destroy(&dev, binary);
    destroy(&dev, timeline);
    assert_eq!(
        tracked_counts().semaphores,
        before,
        "forgotten at vkDestroySemaphore"
    );
}

#[test]
fn a_type_the_semaphore_was_not_created_exportable_as_is_01132() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE));
    dev.name(s, c"render-done");
    signal(&dev, s);
    let _ = call(&inst, &dev, &info(s, SYNC));
    let m = expect::one(&inst, CMD, SEM_FD_HANDLE_TYPE_01132);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, which was not included",
            &semaphore_name(s),
            &format!("created on {} as a binary semaphore", device_name(&dev)),
            "VkExportSemaphoreCreateInfo::handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("render-done"));
    let plain = semaphore(&dev, false, None);
    let _ = call(&inst, &dev, &info(plain, OPAQUE));
    let m = expect::one(&inst, CMD, SEM_FD_HANDLE_TYPE_01132);
    expect::mentions(
        &m,
        &[
            "as a binary semaphore, no VkExportSemaphoreCreateInfo",
            "exported only as a handle type that a VkExportSemaphoreCreateInfo",
        ],
    );
    destroy(&dev, s);
    destroy(&dev, plain);
}

#[test]
fn after_an_import_the_create_info_is_not_judged() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let exporter = semaphore(&dev, false, Some(OPAQUE));
    let importer = semaphore(&dev, false, None);
    let mut fd: c_int = -1;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get_fd_fn(&inst, &dev)(dev.handle(), &info(exporter, OPAQUE), &mut fd) };
    assert_eq!(r, vk::Result::SUCCESS);
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(importer)
        .handle_type(OPAQUE)
        .fd(fd);
    let loader = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    // SAFETY: a live info structure; the driver takes the fd on success.
    unsafe { loader.import_semaphore_fd(&import) }.expect("vkImportSemaphoreFdKHR");
    expect::silent(&inst, CMD);
    // Its payload is now the exporter's, created exportable as an opaque fd.
    let (r, _) = call(&inst, &dev, &info(importer, OPAQUE));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn a_type_that_is_no_fd_is_01136() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let win32 = Types::OPAQUE_WIN32;
    let s = semaphore(&dev, false, Some(win32 | OPAQUE));
    let _ = call(&inst, &dev, &info(s, win32));
    let m = expect::one(&inst, CMD, SEM_FD_HANDLE_TYPE_01136);
    expect::mentions(
        &m,
        &["pGetFdInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT"],
    );
    let other = semaphore(&dev, false, Some(OPAQUE));
    let _ = call(&inst, &dev, &info(other, win32));
    expect::only(
        &inst,
        CMD,
        &[SEM_FD_HANDLE_TYPE_01136, SEM_FD_HANDLE_TYPE_01132],
    );
    destroy(&dev, s);
    destroy(&dev, other);
}

#[test]
fn a_sync_fd_of_a_timeline_semaphore_is_03253() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let s = semaphore(&dev, true, Some(OPAQUE));
    let _ = call(&inst, &dev, &info(s, SYNC));
    let ms = expect::only(
        &inst,
        CMD,
        &[SEM_FD_HANDLE_TYPE_01132, SEM_FD_HANDLE_TYPE_03253],
    );
    expect::mentions(&ms[1], &["is a timeline semaphore", &semaphore_name(s)]);
    destroy(&dev, s);
}

#[test]
fn bad_pointers_structures_and_values_are_reported() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let get = get_fd_fn(&inst, &dev);
    let s = semaphore(&dev, false, Some(OPAQUE));
    let mut fd: c_int = -7;
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { get(dev.handle(), std::ptr::null(), &mut fd) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, SEM_FD_INFO_PARAM);
    // SAFETY: NULL output: the layer blocks the call.
    let r = unsafe { get(dev.handle(), &info(s, OPAQUE), std::ptr::null_mut()) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, SEM_FD_PFD_PARAM);
    let mut wrong = info(s, OPAQUE);
    wrong.s_type = vk::StructureType::MEMORY_GET_FD_INFO_KHR;
    let _ = call(&inst, &dev, &wrong);
    let m = expect::one(&inst, CMD, SEM_FD_STYPE);
    expect::mentions(&m, &["VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR"]);
    let chained = vk::ExportSemaphoreCreateInfo::default();
    let mut with_next = info(s, OPAQUE);
    with_next.p_next = (&chained as *const vk::ExportSemaphoreCreateInfo).cast();
    let _ = call(&inst, &dev, &with_next);
    expect::one(&inst, CMD, SEM_FD_PNEXT);
    let _ = call(&inst, &dev, &info(s, Types::empty()));
    expect::only(
        &inst,
        CMD,
        &[SEM_FD_HANDLE_TYPE_PARAM, SEM_FD_HANDLE_TYPE_01136],
    );
    let (r, _) = call(&inst, &dev, &info(vk::Semaphore::null(), OPAQUE));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_FD_SEMAPHORE_PARAM);
    expect::mentions(&m, &["pGetFdInfo->semaphore is VK_NULL_HANDLE"]);
    destroy(&dev, s);
    let (r, _) = call(&inst, &dev, &info(s, OPAQUE));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_FD_SEMAPHORE_PARAM);
    expect::mentions(
        &m,
        &[
            "already destroyed with vkDestroySemaphore",
            &semaphore_name(s),
        ],
    );
    let _ = call(
        &inst,
        &dev,
        &info(vk::Semaphore::from_raw(0xbad0_5e00), OPAQUE),
    );
    let m = expect::one(&inst, CMD, SEM_FD_SEMAPHORE_PARAM);
    expect::mentions(&m, &["not a live VkSemaphore"]);
}

#[test]
fn a_semaphore_of_another_device_and_an_unknown_device_are_reported() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let other = semaphore_device(&inst);
    let s = semaphore(&other, false, Some(OPAQUE));
    let (r, _) = call(&inst, &dev, &info(s, OPAQUE));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEMAPHORE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[
            &format!("created on {}", device_name(&other)),
            &format!("which belongs to another device than {}", device_name(&dev)),
        ],
    );
    expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    let get = get_fd_fn(&inst, &dev);
    let mut fd: c_int = -7;
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { get(vk::Device::from_raw(0x1234), &info(s, OPAQUE), &mut fd) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::unknown_device(&[&inst], CMD, SEM_FD_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, s);
}
