//! The signal state of shared fences, followed through the commands that signal and reset them,
//! end to end on the project's test driver: a `SYNC_FD` export of a fence with no signal
//! submitted since it was created unsignaled, last reset, or last exported as a sync file (which
//! acts as a reset) is `VUID-VkFenceGetFdInfoKHR-handleType-01454`; a fence created signaled, or
//! signaled by `vkQueueSubmit`, exports silently, and so does one whose payload was imported.

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::fds::close_if_open;
use exportcheck_tests::fences::{self, fd_loader, fence_device, fence_name, get_fd, reset, Types};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

const SYNC: Types = Types::SYNC_FD;
const OPAQUE: Types = Types::OPAQUE_FD;

fn device(inst: &Instance) -> Device {
    fence_device(inst, &[ash::khr::external_fence_fd::NAME])
}

fn fence(dev: &Device, signaled: bool, export: Types) -> vk::Fence {
    fences::fence(dev, signaled, Some(export))
}

/// An empty `vkQueueSubmit` that signals `fence`, then the fence waited on.
fn signal(dev: &Device, fence: vk::Fence) {
    // SAFETY: a valid submission to queue 0 of family 0, then a wait on its fence.
    unsafe {
        let queue = dev.device.get_device_queue(0, 0);
        dev.device
            .queue_submit(queue, &[], fence)
            .expect("vkQueueSubmit");
        dev.device
            .wait_for_fences(&[fence], true, u64::MAX)
            .expect("vkWaitForFences");
    }
}

/// `vkGetFenceFdKHR` of `handle_type`: the fd, or -1 where the driver refused (the test driver
/// refuses a sync file of an unsignaled fence).
fn export(inst: &Instance, dev: &Device, fence: vk::Fence, handle_type: Types) -> c_int {
    get_fd(inst, dev, fence, handle_type).1
}

fn destroy(dev: &Device, made: &[vk::Fence]) {
    for &f in made {
        fences::destroy(dev, f);
    }
}

#[test]
fn a_sync_fd_of_a_fence_never_signaled_or_reset_is_01454() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let f = fence(&dev, false, SYNC);
    dev.name(f, c"present-done");
    close_if_open(export(&inst, &dev, f, SYNC));
    let m = expect::one(&inst, GET_FENCE_FD, FENCE_FD_HANDLE_TYPE_01454);
    expect::mentions(
        &m,
        &[
            &fence_name(f),
            "is unsignaled and has no signal operation pending",
            "since it was created (unsignaled)",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::FENCE, f.as_raw());
    assert_eq!(name.as_deref(), Some("present-done"));
    // Signaled, then reset: unsignaled again.
    signal(&dev, f);
    reset(&dev, f);
    close_if_open(export(&inst, &dev, f, SYNC));
    let m = expect::one(&inst, GET_FENCE_FD, FENCE_FD_HANDLE_TYPE_01454);
    expect::mentions(&m, &["since it was last reset with vkResetFences"]);
    destroy(&dev, &[f]);
}

#[test]
fn a_second_sync_fd_without_a_new_signal_is_01454() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let f = fence(&dev, false, SYNC);
    signal(&dev, f);
    close_if_open(export(&inst, &dev, f, SYNC));
    expect::silent(&inst, GET_FENCE_FD);
    close_if_open(export(&inst, &dev, f, SYNC));
    let m = expect::one(&inst, GET_FENCE_FD, FENCE_FD_HANDLE_TYPE_01454);
    expect::mentions(&m, &["since its payload was last exported as a sync file"]);
    destroy(&dev, &[f]);
}

#[test]
fn a_fence_created_signaled_signaled_or_imported_exports_silently() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let created_signaled = fence(&dev, true, SYNC);
    close_if_open(export(&inst, &dev, created_signaled, SYNC));
    expect::silent(&inst, GET_FENCE_FD);
    let submitted = fence(&dev, false, SYNC);
    signal(&dev, submitted);
    close_if_open(export(&inst, &dev, submitted, SYNC));
    expect::silent(&inst, GET_FENCE_FD);
    // An imported payload: its state is not known, nothing is said.
    let exporter = fence(&dev, true, OPAQUE | SYNC);
    let importer = fence(&dev, false, SYNC);
    let fd = export(&inst, &dev, exporter, OPAQUE);
    let fds = fd_loader(&inst, &dev);
    let import = vk::ImportFenceFdInfoKHR::default()
        .fence(importer)
        .handle_type(OPAQUE)
        .fd(fd);
    // SAFETY: a live info structure; the driver takes the fd.
    unsafe { fds.import_fence_fd(&import) }.expect("vkImportFenceFdKHR");
    close_if_open(export(&inst, &dev, importer, SYNC));
    expect::silent(&inst, GET_FENCE_FD);
    destroy(&dev, &[created_signaled, submitted, exporter, importer]);
}

#[test]
fn after_an_opaque_export_the_signal_state_is_not_judged() {
    // Whoever holds the opaque fd shares the payload, and may signal it where the layer cannot
    // see: a sync-file export with nothing submitted here is not reported.
    let inst = exclusive(None);
    let dev = device(&inst);
    let f = fence(&dev, false, SYNC | OPAQUE);
    close_if_open(export(&inst, &dev, f, OPAQUE));
    close_if_open(export(&inst, &dev, f, SYNC));
    expect::silent(&inst, GET_FENCE_FD);
    destroy(&dev, &[f]);
}

/// A temporary sync-file import is a copy of a signal state that shares nothing: the reset that
/// restores the fence's own payload leaves it unsignaled, so a sync-file export with no signal
/// since is 01454 again; signaled after the reset, it is silent (issue #33: any import switched
/// the signal state off for good).
#[test]
fn after_a_sync_file_import_and_a_reset_a_sync_fd_export_is_judged_again() {
    let inst = exclusive(None);
    let dev = device(&inst);
    let f = fence(&dev, false, SYNC);
    let import = vk::ImportFenceFdInfoKHR::default()
        .fence(f)
        .handle_type(SYNC)
        .flags(vk::FenceImportFlags::TEMPORARY)
        .fd(-1);
    // SAFETY: a live info structure (-1 is a signaled sync file, no fd).
    unsafe { fd_loader(&inst, &dev).import_fence_fd(&import) }.expect("vkImportFenceFdKHR");
    reset(&dev, f);
    close_if_open(export(&inst, &dev, f, SYNC));
    let m = expect::one(&inst, GET_FENCE_FD, FENCE_FD_HANDLE_TYPE_01454);
    expect::mentions(&m, &[&fence_name(f)]);
    // SAFETY: as above.
    unsafe { fd_loader(&inst, &dev).import_fence_fd(&import) }.expect("vkImportFenceFdKHR");
    reset(&dev, f);
    signal(&dev, f);
    close_if_open(export(&inst, &dev, f, SYNC));
    expect::silent(&inst, GET_FENCE_FD);
    destroy(&dev, &[f]);
}
