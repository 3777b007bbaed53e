//! An import into a semaphore associated with a queue command that has not completed
//! (`VUID-vkImportSemaphoreFdKHR-semaphore-01142`,
//! `VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764`), end to end on the project's test
//! driver, which keeps a submission's fence signal pending until the app waits
//! (`sync_quirks.pending_fence_signals`, as a GPU still busy would). The layer is sure of it when
//! the latest submission that waited on or signaled the semaphore signals a fence the driver says
//! is not signaled yet; a submission without a fence, or one whose fence was waited on, is silent.

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::fences::{self, fence_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{
    destroy, export_opaque_fd, import_opaque_fd, queue, semaphore, semaphore_device,
    semaphore_name, submit_and_idle, submit_batch, Types,
};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};

const PENDING: &str = r#"{"sync_quirks": {"pending_fence_signals": true}}"#;
const OPAQUE: Types = Types::OPAQUE_FD;
const EVENT: Types = Types::ZIRCON_EVENT_FUCHSIA;

fn device(inst: &Instance) -> Device {
    semaphore_device(
        inst,
        &[
            ash::khr::external_semaphore_fd::NAME,
            ash::fuchsia::external_semaphore::NAME,
        ],
    )
}

/// An opaque fd of a new exportable semaphore imported (permanently) into `into`: the result.
fn import_from_another(inst: &Instance, dev: &Device, into: vk::Semaphore) -> vk::Result {
    let exporter = semaphore(dev, false, Some(OPAQUE));
    let fd = export_opaque_fd(inst, dev, exporter);
    let r = import_opaque_fd(inst, dev, into, fd);
    destroy(dev, exporter);
    r
}

fn wait(dev: &Device, fence: vk::Fence) {
    // SAFETY: a fence of the device, submitted.
    unsafe { dev.device.wait_for_fences(&[fence], true, u64::MAX) }.expect("vkWaitForFences");
}

fn idle_and_destroy(dev: &Device, semaphores: &[vk::Semaphore], fences: &[vk::Fence]) {
    // SAFETY: the device's queue, which no other thread uses.
    unsafe { dev.device.queue_wait_idle(queue(dev)) }.expect("vkQueueWaitIdle");
    for &s in semaphores {
        destroy(dev, s);
    }
    for &f in fences {
        fences::destroy(dev, f);
    }
}

#[test]
fn an_import_while_the_semaphores_signal_or_wait_has_not_completed_is_01142() {
    let inst = exclusive(Some(PENDING));
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE));
    dev.name(s, c"render-done");
    let frame = fences::fence(&dev, false, None);
    dev.name(frame, c"frame-fence");
    submit_batch(&dev, &[], &[s], frame);
    assert_eq!(
        import_from_another(&inst, &dev, s),
        vk::Result::SUCCESS,
        "reported, and passed down"
    );
    let m = expect::one(
        &inst,
        IMPORT_SEMAPHORE_FD,
        IMPORT_SEMAPHORE_FD_SEMAPHORE_01142,
    );
    expect::mentions(
        &m,
        &[
            "vkImportSemaphoreFdKHR(): pImportSemaphoreFdInfo->semaphore is",
            &semaphore_name(s),
            "the latest queue submission (vkQueueSubmit, vkQueueSubmit2 or vkQueueBindSparse) \
             that signaled it has not completed execution",
            &format!("the fence it signals, {}", fence_name(frame)),
            "vkGetFenceStatus says VK_NOT_READY",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("render-done"));
    wait(&dev, frame);
    // A wait on it, submitted with another fence, pending: the same.
    let waiting = fences::fence(&dev, false, None);
    submit_and_idle(&dev, &[], &[s]);
    submit_batch(&dev, &[s], &[], waiting);
    let _ = import_from_another(&inst, &dev, s);
    let m = expect::one(
        &inst,
        IMPORT_SEMAPHORE_FD,
        IMPORT_SEMAPHORE_FD_SEMAPHORE_01142,
    );
    expect::mentions(&m, &["that waited on it has not completed execution"]);
    idle_and_destroy(&dev, &[s], &[frame, waiting]);
}

#[test]
fn an_import_after_the_submissions_fence_was_waited_on_or_without_a_fence_is_silent() {
    let inst = exclusive(Some(PENDING));
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE));
    let frame = fences::fence(&dev, false, None);
    submit_batch(&dev, &[], &[s], frame);
    wait(&dev, frame);
    assert_eq!(import_from_another(&inst, &dev, s), vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    // No fence: nothing the layer can ask says whether the submission completed.
    let t = semaphore(&dev, false, Some(OPAQUE));
    submit_batch(&dev, &[], &[t], vk::Fence::null());
    assert_eq!(import_from_another(&inst, &dev, t), vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    // The fence went on to a later submission that does not use the semaphore: it says
    // nothing of the one that did.
    let u = semaphore(&dev, false, Some(OPAQUE));
    let reused = fences::fence(&dev, false, None);
    submit_batch(&dev, &[], &[u], reused);
    wait(&dev, reused);
    fences::reset(&dev, reused);
    submit_batch(&dev, &[], &[], reused);
    assert_eq!(import_from_another(&inst, &dev, u), vk::Result::SUCCESS);
    expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    idle_and_destroy(&dev, &[s, t, u], &[frame, reused]);
}

#[test]
fn a_zircon_event_import_while_the_semaphores_signal_has_not_completed_is_04764() {
    let inst = exclusive(Some(PENDING));
    let dev = device(&inst);
    let s = semaphore(&dev, false, Some(EVENT));
    let frame = fences::fence(&dev, false, None);
    submit_batch(&dev, &[], &[s], frame);
    let zircon = ash::fuchsia::external_semaphore::Device::new(&inst.instance, &dev.device);
    let exporter = semaphore(&dev, false, Some(EVENT));
    let get = vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
        .semaphore(exporter)
        .handle_type(EVENT);
    let mut event: vk::zx_handle_t = 0;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe {
        (zircon.fp().get_semaphore_zircon_handle_fuchsia)(dev.handle(), &get, &mut event)
    };
    assert_eq!(r, vk::Result::SUCCESS);
    let import = vk::ImportSemaphoreZirconHandleInfoFUCHSIA::default()
        .semaphore(s)
        .handle_type(EVENT)
        .zircon_handle(event);
    let import_event = zircon.fp().import_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure.
    let r = unsafe { import_event(dev.handle(), &import) };
    assert_eq!(r, vk::Result::SUCCESS, "reported, and passed down");
    let m = expect::one(
        &inst,
        IMPORT_SEMAPHORE_ZIRCON,
        IMPORT_SEMAPHORE_ZIRCON_SEMAPHORE_04764,
    );
    expect::mentions(&m, &[&semaphore_name(s), &fence_name(frame)]);
    idle_and_destroy(&dev, &[s, exporter], &[frame]);
}
