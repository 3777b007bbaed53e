//! Semaphores and fences shared on a real driver, named by `EXPORTCHECK_TEST_REAL_ICD` (NVIDIA's
//! on the GPU machine, which exports semaphores and fences as opaque fds and sync files). Ignored
//! where no such driver is named; run with
//! `EXPORTCHECK_TEST_REAL_ICD=/path/to/icd.json cargo test --test real_driver_sync -- --ignored`
//! (SwiftShader's manifest works too: it has opaque-fd binary semaphores and no sync files, and
//! the parts it lacks are skipped and said so).
//!
//! What it shows: valid exports and imports of what the driver reports exportable are silent;
//! a binary semaphore's fd imported into a timeline semaphore is reported and kept from the
//! driver; sync-file exports follow the signal state (silent after a submitted signal; a second
//! export with no new signal is reported).

use ash::vk::{self, Handle};
use exportcheck_tests::env::Driver;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{self, exportable as semaphore_exportable};
use exportcheck_tests::{expect, Device, Instance, Options, OPAQUE_FD, SIZE};
use std::ffi::{c_int, CStr};

type SemTypes = vk::ExternalSemaphoreHandleTypeFlags;
type FenceTypes = vk::ExternalFenceHandleTypeFlags;

fn exclusive() -> Instance {
    Instance::exclusive_with(Options {
        driver: Driver::Real,
        layer_settings: &[("duplicate_message_limit", "0")],
        api_version: vk::API_VERSION_1_2,
        ..Options::default()
    })
}

/// The device extensions of the instance's physical device.
fn has(inst: &Instance, name: &CStr) -> bool {
    // SAFETY: a live instance and physical device.
    let all = unsafe {
        inst.instance
            .enumerate_device_extension_properties(inst.physical_device)
    }
    .unwrap_or_default();
    all.iter()
        .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
}

/// A device with the semaphore and fence fd extensions the driver has, and timeline semaphores
/// (Vulkan 1.2's feature) when it has them; what it got.
fn device(inst: &Instance) -> (Device, bool) {
    let mut names = vec![
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
        ash::khr::external_memory_fd::NAME,
    ];
    let fences = has(inst, ash::khr::external_fence_fd::NAME);
    if fences {
        names.extend([
            ash::khr::external_fence::NAME,
            ash::khr::external_fence_fd::NAME,
        ]);
    }
    let mut timeline =
        vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
    let features = (&mut timeline as *mut vk::PhysicalDeviceTimelineSemaphoreFeatures).cast();
    (inst.device_with_features(&names, Some(features)), fences)
}

fn fence_exportable(inst: &Instance, handle_type: FenceTypes) -> bool {
    let info = vk::PhysicalDeviceExternalFenceInfo::default().handle_type(handle_type);
    let mut props = vk::ExternalFenceProperties::default();
    // SAFETY: a live instance and physical device, valid structures.
    unsafe {
        inst.instance.get_physical_device_external_fence_properties(
            inst.physical_device,
            &info,
            &mut props,
        )
    };
    println!(
        "fence, {handle_type:?}: features {:?}, compatible {:?}",
        props.external_fence_features, props.compatible_handle_types
    );
    props
        .external_fence_features
        .contains(vk::ExternalFenceFeatureFlags::EXPORTABLE)
}

fn semaphore(dev: &Device, timeline: bool, export: Option<SemTypes>) -> vk::Semaphore {
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

fn semaphore_fds(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_fd::Device {
    ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
}

/// `vkGetSemaphoreFdKHR`: the driver's result and fd.
fn export_semaphore(
    inst: &Instance,
    dev: &Device,
    semaphore: vk::Semaphore,
    handle_type: SemTypes,
) -> (vk::Result, c_int) {
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type);
    let mut fd: c_int = -1;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe {
        (semaphore_fds(inst, dev).fp().get_semaphore_fd_khr)(dev.handle(), &info, &mut fd)
    };
    (r, fd)
}

fn close(fd: c_int) {
    if fd >= 0 {
        // SAFETY: a descriptor the test owns, closed once.
        unsafe { libc::close(fd) };
    }
}

/// One submission to queue 0 that signals `semaphores` and `fence`, then the queue waited idle.
fn submit_signal(dev: &Device, semaphores: &[vk::Semaphore], fence: vk::Fence) {
    let batch = [vk::SubmitInfo::default().signal_semaphores(semaphores)];
    // SAFETY: queue 0 of family 0 exists; a valid submission.
    unsafe {
        let queue = dev.device.get_device_queue(0, 0);
        dev.device
            .queue_submit(queue, &batch, fence)
            .expect("vkQueueSubmit");
        dev.device.queue_wait_idle(queue).expect("vkQueueWaitIdle");
    }
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn opaque_semaphore_fds_export_and_import_silently_and_a_wrong_type_is_kept_from_the_driver() {
    let inst = exclusive();
    let (dev, _) = device(&inst);
    let fds = semaphore_fds(&inst, &dev);
    assert!(
        semaphore_exportable(&inst, false, SemTypes::OPAQUE_FD),
        "binary OPAQUE_FD"
    );
    let exporter = semaphore(&dev, false, Some(SemTypes::OPAQUE_FD));
    let importer = semaphore(&dev, false, None);
    let (r, fd) = export_semaphore(&inst, &dev, exporter, SemTypes::OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(importer)
        .handle_type(SemTypes::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a live info structure; the driver takes the fd.
    unsafe { fds.import_semaphore_fd(&import) }.expect("vkImportSemaphoreFdKHR");
    expect::silent_for(
        &inst,
        &[GET_SEMAPHORE_FD, IMPORT_SEMAPHORE_FD, "vkCreateSemaphore"],
    );
    // The binary semaphore's fd into a timeline semaphore: reported, and not passed down.
    let timeline = semaphore(&dev, true, None);
    let (r, fd) = export_semaphore(&inst, &dev, exporter, SemTypes::OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let import = import.semaphore(timeline).fd(fd);
    // SAFETY: a live info structure; the layer keeps the call from the driver.
    let r = unsafe { (fds.fp().import_semaphore_fd_khr)(dev.handle(), &import) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, IMPORT_SEMAPHORE_FD, SEM_IMPORT_FD_HANDLE_TYPE_03264);
    close(fd);
    if semaphore_exportable(&inst, true, SemTypes::OPAQUE_FD) {
        let exporter = semaphore(&dev, true, Some(SemTypes::OPAQUE_FD));
        let (r, fd) = export_semaphore(&inst, &dev, exporter, SemTypes::OPAQUE_FD);
        assert_eq!(r, vk::Result::SUCCESS);
        let import = import.semaphore(timeline).fd(fd);
        // SAFETY: a live info structure; the driver takes the fd.
        unsafe { fds.import_semaphore_fd(&import) }.expect("timeline vkImportSemaphoreFdKHR");
        expect::silent_for(
            &inst,
            &[GET_SEMAPHORE_FD, IMPORT_SEMAPHORE_FD, "vkCreateSemaphore"],
        );
        // SAFETY: a semaphore no queue uses.
        unsafe { dev.device.destroy_semaphore(exporter, None) };
    } else {
        println!("the driver exports no timeline semaphore as OPAQUE_FD: that part skipped");
    }
    for s in [exporter, importer, timeline] {
        // SAFETY: semaphores no queue uses.
        unsafe { dev.device.destroy_semaphore(s, None) };
    }
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn sync_file_exports_follow_the_signal_state() {
    let inst = exclusive();
    let (dev, fences) = device(&inst);
    if semaphore_exportable(&inst, false, SemTypes::SYNC_FD) {
        let s = semaphore(&dev, false, Some(SemTypes::SYNC_FD));
        submit_signal(&dev, &[s], vk::Fence::null());
        let (r, fd) = export_semaphore(&inst, &dev, s, SemTypes::SYNC_FD);
        println!("semaphore SYNC_FD export after a signal: {r:?}, fd {fd}");
        assert_eq!(r, vk::Result::SUCCESS);
        close(fd);
        expect::silent_for(&inst, &[GET_SEMAPHORE_FD, "vkQueueSubmit"]);
        // The export took the signal: a second one has nothing to take.
        let (r, fd) = export_semaphore(&inst, &dev, s, SemTypes::SYNC_FD);
        println!("semaphore SYNC_FD export again: {r:?}, fd {fd}");
        close(fd);
        expect::only(
            &inst,
            GET_SEMAPHORE_FD,
            &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
        );
        // SAFETY: a semaphore no queue uses.
        unsafe { dev.device.destroy_semaphore(s, None) };
    } else {
        println!("the driver exports no binary semaphore as SYNC_FD: that part skipped");
    }
    if fences && fence_exportable(&inst, FenceTypes::SYNC_FD) {
        let mut exportable = vk::ExportFenceCreateInfo::default().handle_types(FenceTypes::SYNC_FD);
        let info = vk::FenceCreateInfo::default().push_next(&mut exportable);
        // SAFETY: a live device and a valid create info.
        let f = unsafe { dev.device.create_fence(&info, None) }.expect("vkCreateFence");
        submit_signal(&dev, &[], f);
        let get = ash::khr::external_fence_fd::Device::new(&inst.instance, &dev.device);
        let export = || {
            let info = vk::FenceGetFdInfoKHR::default()
                .fence(f)
                .handle_type(FenceTypes::SYNC_FD);
            let mut fd: c_int = -1;
            // SAFETY: a live info structure and output pointer.
            let r = unsafe { (get.fp().get_fence_fd_khr)(dev.handle(), &info, &mut fd) };
            (r, fd)
        };
        let (r, fd) = export();
        println!("fence SYNC_FD export after a signal: {r:?}, fd {fd}");
        assert_eq!(r, vk::Result::SUCCESS);
        close(fd);
        expect::silent_for(&inst, &[GET_FENCE_FD, "vkQueueSubmit", "vkCreateFence"]);
        let (r, fd) = export();
        println!("fence SYNC_FD export again (a reset since): {r:?}, fd {fd}");
        close(fd);
        expect::only(&inst, GET_FENCE_FD, &[FENCE_FD_HANDLE_TYPE_01454]);
        // SAFETY: a fence no queue uses.
        unsafe { dev.device.destroy_fence(f, None) };
    } else {
        println!("the driver exports no fence as SYNC_FD: that part skipped");
    }
    assert_ne!(dev.handle().as_raw(), 0);
}

/// Issue #33 on a real driver: a memory object's opaque fd imported into a semaphore (NVIDIA's
/// driver returns `VK_SUCCESS` for it) is reported and kept from the driver; the valid sequence
/// of an fd re-exported after a consumed temporary import is silent (SwiftShader hands the
/// number out again; what this driver does is printed); a temporary sync-file import is a copy:
/// once a wait consumed it, a sync-file export with no signal of the semaphore's own is
/// reported again.
#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn another_kinds_fd_is_kept_from_the_driver_and_numbers_and_copies_are_followed() {
    let inst = exclusive();
    let (dev, _) = device(&inst);
    let fds = semaphore_fds(&inst, &dev);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let into = semaphore(&dev, false, None);
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(into)
        .handle_type(SemTypes::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a live info structure; the layer keeps the call from the driver.
    let r = unsafe { (fds.fp().import_semaphore_fd_khr)(dev.handle(), &import) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, IMPORT_SEMAPHORE_FD, FD_OF_ANOTHER_KIND);
    close(fd);
    dev.free(memory);
    let again = semaphores::export_again_after_a_consumed_temporary_import(&inst, &dev);
    println!(
        "re-export after a consumed temporary import: fd {} then {} ({}), import {:?}",
        again.first,
        again.second,
        if again.first == again.second {
            "the same number"
        } else {
            "another number"
        },
        again.result
    );
    assert_eq!(again.result, vk::Result::SUCCESS);
    expect::silent_for(&inst, &[GET_SEMAPHORE_FD, IMPORT_SEMAPHORE_FD]);
    if semaphore_exportable(&inst, false, SemTypes::SYNC_FD) {
        let s = semaphore(&dev, false, Some(SemTypes::SYNC_FD));
        let copy = vk::ImportSemaphoreFdInfoKHR::default()
            .semaphore(s)
            .handle_type(SemTypes::SYNC_FD)
            .flags(vk::SemaphoreImportFlags::TEMPORARY)
            .fd(-1);
        // SAFETY: a live info structure (-1: a signaled sync file).
        let r = unsafe { (fds.fp().import_semaphore_fd_khr)(dev.handle(), &copy) };
        println!("SYNC_FD import of -1: {r:?}");
        if r == vk::Result::SUCCESS {
            let batch = [vk::SubmitInfo::default()
                .wait_semaphores(std::slice::from_ref(&s))
                .wait_dst_stage_mask(&[vk::PipelineStageFlags::ALL_COMMANDS])];
            // SAFETY: a submission that waits on the signaled copy, then the queue idle.
            unsafe {
                let queue = dev.device.get_device_queue(0, 0);
                dev.device
                    .queue_submit(queue, &batch, vk::Fence::null())
                    .expect("vkQueueSubmit");
                dev.device.queue_wait_idle(queue).expect("vkQueueWaitIdle");
            }
            let (r, fd) = export_semaphore(&inst, &dev, s, SemTypes::SYNC_FD);
            println!("SYNC_FD export of the restored payload, never signaled: {r:?}, fd {fd}");
            close(fd);
            expect::only(
                &inst,
                GET_SEMAPHORE_FD,
                &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
            );
        }
        // SAFETY: a semaphore no queue uses (the queue is idle).
        unsafe { dev.device.destroy_semaphore(s, None) };
    }
    // SAFETY: a semaphore no queue uses.
    unsafe { dev.device.destroy_semaphore(into, None) };
}
