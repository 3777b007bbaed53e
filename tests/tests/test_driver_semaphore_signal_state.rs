//! The signal state of shared binary semaphores, followed through queue operations, end to end
//! on the project's test driver: a `SYNC_FD` export of a semaphore with no signal submitted since
//! it was created, or since its last `SYNC_FD` export (which acts as a wait), is
//! `VUID-VkSemaphoreGetFdInfoKHR-handleType-01135` and `-03254`; after a signal submitted with
//! `vkQueueSubmit` or `vkQueueSubmit2`, after a submitted wait (the layer cannot tell whether it is
//! still pending), after an import, and for a semaphore that shares nothing, it is silent.

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{queue, submit_and_idle, submit_batch};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

type Types = vk::ExternalSemaphoreHandleTypeFlags;
const SYNC: Types = Types::SYNC_FD;
const OPAQUE: Types = Types::OPAQUE_FD;

fn device(inst: &Instance) -> Device {
    let mut sync2 = vk::PhysicalDeviceVulkan13Features::default().synchronization2(true);
    let features = (&mut sync2 as *mut vk::PhysicalDeviceVulkan13Features).cast();
    inst.device_with_features(
        &[
            ash::khr::external_semaphore::NAME,
            ash::khr::external_semaphore_fd::NAME,
        ],
        Some(features),
    )
}

fn semaphore(dev: &Device, export: Types) -> vk::Semaphore {
    let mut exportable = vk::ExportSemaphoreCreateInfo::default().handle_types(export);
    let info = vk::SemaphoreCreateInfo::default().push_next(&mut exportable);
    // SAFETY: a live device and a valid create info.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

/// A `vkQueueSubmit2` batch that signals `semaphore`.
fn submit2_signal(inst: &Instance, dev: &Device, semaphore: vk::Semaphore) {
    let signal = [vk::SemaphoreSubmitInfo::default()
        .semaphore(semaphore)
        .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
    let batch = [vk::SubmitInfo2::default().signal_semaphore_infos(&signal)];
    let _ = inst;
    // SAFETY: a valid submission to the device's queue (Vulkan 1.3, synchronization2 enabled).
    unsafe {
        dev.device
            .queue_submit2(queue(dev), &batch, vk::Fence::null())
    }
    .expect("vkQueueSubmit2");
}

/// `vkGetSemaphoreFdKHR` of `handle_type`: the fd, or -1 where the driver refused (the test
/// driver refuses a sync file of a semaphore with no signal, as the call is invalid).
fn export(inst: &Instance, dev: &Device, semaphore: vk::Semaphore, handle_type: Types) -> c_int {
    let get = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
        .fp()
        .get_semaphore_fd_khr;
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type);
    let mut fd: c_int = -1;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get(dev.handle(), &info, &mut fd) };
    if r == vk::Result::SUCCESS {
        fd
    } else {
        -1
    }
}

fn close(fd: c_int) {
    if fd >= 0 {
        // SAFETY: a descriptor the driver gave the test, closed once.
        unsafe { libc::close(fd) };
    }
}

fn destroy(dev: &Device, semaphores: &[vk::Semaphore]) {
    for &s in semaphores {
        // SAFETY: semaphores of the device that no queue uses any more (the queue is idle).
        unsafe { dev.device.destroy_semaphore(s, None) };
    }
}

#[test]
fn a_sync_fd_of_a_semaphore_never_signaled_is_01135_and_03254() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC);
    dev.name(s, c"client-release");
    close(export(&inst, &dev, s, SYNC));
    let ms = expect::only(
        &inst,
        GET_SEMAPHORE_FD,
        &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
    );
    expect::mentions(
        &ms[0],
        &[
            &format!("VkSemaphore 0x{:x}", s.as_raw()),
            "is unsignaled and has no signal operation pending",
            "since it was created",
        ],
    );
    expect::mentions(&ms[1], &["no semaphore signal operation was submitted"]);
    let name = expect::object(&ms[0], vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("client-release"));
    destroy(&dev, &[s]);
}

#[test]
fn a_second_sync_fd_without_a_new_signal_is_01135_and_03254() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC);
    submit_and_idle(&dev, &[], &[s]);
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    close(export(&inst, &dev, s, SYNC));
    let ms = expect::only(
        &inst,
        GET_SEMAPHORE_FD,
        &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
    );
    expect::mentions(
        &ms[0],
        &["since its payload was last exported as a sync file"],
    );
    // Signaled again (vkQueueSubmit2 this time): silent.
    submit2_signal(&inst, &dev, s);
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    destroy(&dev, &[s]);
}

#[test]
fn after_a_wait_an_import_or_on_a_semaphore_that_shares_nothing_it_is_silent() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC | OPAQUE);
    // Signaled, then waited on, nothing waited for since: the wait may still be pending (01134)
    // or done (01135), which the layer cannot tell, so nothing is said.
    submit_and_idle(&dev, &[], &[s]);
    submit_batch(&dev, &[s], &[], vk::Fence::null());
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    // SAFETY: the device's queue, which no other thread uses.
    unsafe { dev.device.queue_wait_idle(queue(&dev)) }.expect("vkQueueWaitIdle");
    // An import: the payload's state is not known.
    let other = semaphore(&dev, SYNC | OPAQUE);
    let fd = export(&inst, &dev, other, OPAQUE);
    let fds = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(s)
        .handle_type(OPAQUE)
        .fd(fd);
    // SAFETY: a live info structure; the driver takes the fd.
    unsafe { fds.import_semaphore_fd(&import) }.expect("vkImportSemaphoreFdKHR");
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    // Submissions on semaphores that share nothing change nothing the layer follows.
    let plain = {
        // SAFETY: a live device and a valid create info.
        unsafe {
            dev.device
                .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
        }
        .expect("vkCreateSemaphore")
    };
    submit_and_idle(&dev, &[], &[plain]);
    submit_and_idle(&dev, &[plain], &[]);
    expect::silent(&inst, "vkQueueSubmit");
    destroy(&dev, &[s, other, plain]);
}

#[test]
fn after_an_opaque_export_the_signal_state_is_not_judged() {
    // Whoever holds the opaque fd shares the payload, and may signal it where the layer cannot
    // see: a sync-file export with nothing submitted here is not reported.
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC | OPAQUE);
    close(export(&inst, &dev, s, OPAQUE));
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    destroy(&dev, &[s]);
}

/// `vkImportSemaphoreFdKHR` of the signaled sync file -1 into `semaphore`, temporarily.
fn import_signaled_sync_file(inst: &Instance, dev: &Device, semaphore: vk::Semaphore) {
    let fds = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(SYNC)
        .flags(vk::SemaphoreImportFlags::TEMPORARY)
        .fd(-1);
    // SAFETY: a live info structure (-1 is a signaled sync file, no fd).
    unsafe { fds.import_semaphore_fd(&import) }.expect("vkImportSemaphoreFdKHR");
    expect::silent(inst, IMPORT_SEMAPHORE_FD);
}

/// A temporary sync-file import is a copy of a signal state that shares nothing: once a wait or
/// a sync-file export consumed it, the permanent payload is the semaphore's own again, in the
/// state it was in, and its sync-file export is judged again (issue #33: any import switched
/// the signal state off for good).
#[test]
fn once_a_temporary_sync_file_import_is_consumed_the_semaphores_own_state_is_judged_again() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC);
    // Consumed by a wait: the permanent payload was never signaled.
    import_signaled_sync_file(&inst, &dev, s);
    submit_and_idle(&dev, &[s], &[]);
    close(export(&inst, &dev, s, SYNC));
    let ms = expect::only(
        &inst,
        GET_SEMAPHORE_FD,
        &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
    );
    expect::mentions(&ms[0], &["since it was created"]);
    // Consumed by a sync-file export (of the signaled copy: silent), then exported again.
    import_signaled_sync_file(&inst, &dev, s);
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    close(export(&inst, &dev, s, SYNC));
    expect::only(
        &inst,
        GET_SEMAPHORE_FD,
        &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
    );
    // Signaled before the import: the permanent payload keeps that signal under the copy.
    submit_and_idle(&dev, &[], &[s]);
    import_signaled_sync_file(&inst, &dev, s);
    submit_and_idle(&dev, &[s], &[]);
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    destroy(&dev, &[s]);
}

/// Once the submission that waited on the semaphore is known to have completed (its queue went
/// idle, the device did, or a fence of it or of a later submission to the queue was waited on
/// or found signaled), the semaphore is unsignaled with nothing pending: a sync-file export is
/// 01135 and 03254 (issue #33: the layer said nothing after any wait). A wait for one fence of
/// several, or a fence another submission signals, says nothing of the semaphore's.
#[test]
fn a_sync_fd_export_after_a_wait_known_to_have_completed_is_01135_and_03254() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC);
    let expect_reported = |how: &str| {
        close(export(&inst, &dev, s, SYNC));
        let ms = expect::only(
            &inst,
            GET_SEMAPHORE_FD,
            &[SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254],
        );
        expect::mentions(
            &ms[0],
            &["since a wait on it was submitted, which has completed"],
        );
        println!("after {how}: reported");
    };
    // vkQueueWaitIdle.
    submit_and_idle(&dev, &[], &[s]);
    submit_and_idle(&dev, &[s], &[]);
    expect_reported("vkQueueWaitIdle");
    // vkDeviceWaitIdle.
    submit_and_idle(&dev, &[], &[s]);
    submit_batch(&dev, &[s], &[], vk::Fence::null());
    // SAFETY: a live device whose queues no other thread uses.
    unsafe { dev.device.device_wait_idle() }.expect("vkDeviceWaitIdle");
    expect_reported("vkDeviceWaitIdle");
    // A fence of a later submission to the queue, waited on; then vkGetFenceStatus.
    let fences = [fence(&dev), fence(&dev)];
    for by_status in [false, true] {
        submit_and_idle(&dev, &[], &[s]);
        submit_batch(&dev, &[s], &[], vk::Fence::null());
        submit_batch(&dev, &[], &[], fences[0]);
        // SAFETY: a fence of the device, signaled by the submission above.
        unsafe {
            if by_status {
                while dev.device.get_fence_status(fences[0]) != Ok(true) {}
            } else {
                dev.device
                    .wait_for_fences(&fences[..1], true, u64::MAX)
                    .expect("vkWaitForFences");
            }
            dev.device
                .reset_fences(&fences[..1])
                .expect("vkResetFences");
        }
        expect_reported(if by_status {
            "vkGetFenceStatus"
        } else {
            "vkWaitForFences"
        });
    }
    // Any one of two fences: which one signaled is not known.
    submit_and_idle(&dev, &[], &[s]);
    submit_batch(&dev, &[s], &[], fences[0]);
    submit_batch(&dev, &[], &[], fences[1]);
    // SAFETY: fences of the device, signaled by the submissions above.
    unsafe { dev.device.wait_for_fences(&fences, false, u64::MAX) }.expect("vkWaitForFences");
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    // SAFETY: the queue's work completes before the fences and semaphore go.
    unsafe { dev.device.queue_wait_idle(queue(&dev)) }.expect("vkQueueWaitIdle");
    for f in fences {
        // SAFETY: a fence no queue uses any more.
        unsafe { dev.device.destroy_fence(f, None) };
    }
    destroy(&dev, &[s]);
}

/// A plain fence of the device.
fn fence(dev: &Device) -> vk::Fence {
    // SAFETY: a live device and a valid create info.
    unsafe {
        dev.device
            .create_fence(&vk::FenceCreateInfo::default(), None)
    }
    .expect("vkCreateFence")
}

/// `-03254`'s second half: the batch that signals the semaphore waits on one for which no
/// signal operation was submitted. Reported until a signal of that one is submitted; the first
/// half's `-01135` is not broken (a signal of the exported semaphore is pending).
#[test]
fn a_sync_fd_whose_signal_depends_on_a_signal_never_submitted_is_03254() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let (s, t) = (semaphore(&dev, SYNC), semaphore(&dev, OPAQUE | SYNC));
    dev.name(t, c"upstream-ready");
    submit_batch(&dev, &[t], &[s], vk::Fence::null());
    close(export(&inst, &dev, s, SYNC));
    let m = expect::one(&inst, GET_SEMAPHORE_FD, SEM_FD_HANDLE_TYPE_03254);
    expect::mentions(
        &m,
        &[
            &format!(
                "the semaphore signal operation submitted for VkSemaphore 0x{:x}",
                s.as_raw()
            ),
            &format!(
                "the batch that signals it waits on VkSemaphore 0x{:x}",
                t.as_raw()
            ),
            "for which no signal operation had been submitted",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, t.as_raw());
    assert_eq!(name.as_deref(), Some("upstream-ready"));
    // The same, then the awaited semaphore's signal is submitted: silent.
    submit_batch(&dev, &[t], &[s], vk::Fence::null());
    submit_batch(&dev, &[], &[t], vk::Fence::null());
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    // SAFETY: the device's queue, which no other thread uses.
    unsafe { dev.device.queue_wait_idle(queue(&dev)) }.expect("vkQueueWaitIdle");
    destroy(&dev, &[s, t]);
}

/// A batch that waits on a semaphore whose signal was submitted before it, or on one the layer
/// does not follow (it shares nothing), or whose payload others hold, signals as any other.
#[test]
fn a_sync_fd_whose_signal_depends_on_submitted_or_unknown_signals_is_silent() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let s = semaphore(&dev, SYNC);
    let t = semaphore(&dev, SYNC);
    submit_batch(&dev, &[], &[t], vk::Fence::null());
    submit_batch(&dev, &[t], &[s], vk::Fence::null());
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    // SAFETY: a live device and a default create info (a semaphore the layer does not follow).
    let plain = unsafe {
        dev.device
            .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
    }
    .expect("vkCreateSemaphore");
    submit_batch(&dev, &[plain], &[s], vk::Fence::null());
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    let escaped = semaphore(&dev, OPAQUE);
    close(export(&inst, &dev, escaped, OPAQUE));
    submit_batch(&dev, &[escaped], &[s], vk::Fence::null());
    close(export(&inst, &dev, s, SYNC));
    expect::silent(&inst, GET_SEMAPHORE_FD);
    // SAFETY: the device's queue, which no other thread uses.
    unsafe { dev.device.queue_wait_idle(queue(&dev)) }.expect("vkQueueWaitIdle");
    destroy(&dev, &[s, t, plain, escaped]);
}
