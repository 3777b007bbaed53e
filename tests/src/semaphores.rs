//! Semaphores for the end-to-end tests of the semaphore export commands: a device with the
//! semaphore extensions and timeline semaphores, and semaphores made and destroyed as a test asks.

use crate::app::{Device, Instance};
use ash::vk::{self, Handle};
use std::ffi::CStr;

/// A handle-type set of `VkExternalSemaphoreHandleTypeFlags`.
pub type Types = vk::ExternalSemaphoreHandleTypeFlags;

/// A device with `VK_KHR_external_semaphore`, timeline semaphores (the feature enabled) and
/// `extensions`.
pub fn semaphore_device(inst: &Instance, extensions: &[&CStr]) -> Device {
    let mut timeline =
        vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
    let features = (&mut timeline as *mut vk::PhysicalDeviceTimelineSemaphoreFeatures).cast();
    let mut all = vec![
        ash::khr::external_semaphore::NAME,
        ash::khr::timeline_semaphore::NAME,
    ];
    all.extend_from_slice(extensions);
    inst.device_with_features(&all, Some(features))
}

/// How a test semaphore is made.
#[derive(Clone, Copy, Debug, Default)]
pub struct Made {
    /// A timeline semaphore (else binary).
    pub timeline: bool,
    /// `VkExportSemaphoreCreateInfo::handleTypes`, when chained.
    pub export: Option<Types>,
    /// A `VkExportSemaphoreWin32HandleInfoKHR` chained.
    pub win32_info: bool,
}

/// `vkCreateSemaphore` as `made` says: its result, and the semaphore on success.
pub fn try_create(dev: &Device, made: Made) -> Result<vk::Semaphore, vk::Result> {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut exportable = vk::ExportSemaphoreCreateInfo::default();
    let mut win32 = vk::ExportSemaphoreWin32HandleInfoKHR::default();
    let mut info = vk::SemaphoreCreateInfo::default();
    if made.timeline {
        info = info.push_next(&mut ty);
    }
    if let Some(types) = made.export {
        exportable = exportable.handle_types(types);
        info = info.push_next(&mut exportable);
    }
    if made.win32_info {
        info = info.push_next(&mut win32);
    }
    // SAFETY: a live device and a create info whose chain lives through the call.
    unsafe { dev.device.create_semaphore(&info, None) }
}

/// A binary (or timeline) semaphore, exportable as `export` when given.
pub fn semaphore(dev: &Device, timeline: bool, export: Option<Types>) -> vk::Semaphore {
    let made = Made {
        timeline,
        export,
        win32_info: false,
    };
    try_create(dev, made).expect("vkCreateSemaphore")
}

pub fn destroy(dev: &Device, semaphore: vk::Semaphore) {
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(semaphore, None) };
}

/// How the messages name a semaphore: `VkSemaphore 0x<handle>`.
pub fn semaphore_name(semaphore: vk::Semaphore) -> String {
    format!("VkSemaphore 0x{:x}", semaphore.as_raw())
}

/// Whether the driver reports a semaphore (timeline if `timeline`) exportable and importable as
/// `handle_type` (what it reports printed).
pub fn exportable(inst: &Instance, timeline: bool, handle_type: Types) -> bool {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut info = vk::PhysicalDeviceExternalSemaphoreInfo::default().handle_type(handle_type);
    if timeline {
        info = info.push_next(&mut ty);
    }
    let mut props = vk::ExternalSemaphoreProperties::default();
    // SAFETY: a live instance and physical device, valid structures.
    unsafe {
        inst.instance
            .get_physical_device_external_semaphore_properties(
                inst.physical_device,
                &info,
                &mut props,
            )
    };
    println!(
        "{} semaphore, {handle_type:?}: features {:?}, compatible {:?}",
        if timeline { "timeline" } else { "binary" },
        props.external_semaphore_features,
        props.compatible_handle_types
    );
    props.external_semaphore_features.contains(
        vk::ExternalSemaphoreFeatureFlags::EXPORTABLE
            | vk::ExternalSemaphoreFeatureFlags::IMPORTABLE,
    )
}

/// The queue the tests submit to: queue 0 of family 0 (every test device is made with it).
pub fn queue(dev: &Device) -> vk::Queue {
    // SAFETY: queue 0 of family 0 exists (the device was made with it).
    unsafe { dev.device.get_device_queue(0, 0) }
}

/// One `vkQueueSubmit` batch that waits on `waits` and signals `signals`, then
/// `vkQueueWaitIdle`.
pub fn submit_and_idle(dev: &Device, waits: &[vk::Semaphore], signals: &[vk::Semaphore]) {
    submit_batch(dev, waits, signals, vk::Fence::null());
    // SAFETY: the device's queue, which no other thread uses.
    unsafe { dev.device.queue_wait_idle(queue(dev)) }.expect("vkQueueWaitIdle");
}

/// One `vkQueueSubmit` batch that waits on `waits` and signals `signals` and `fence`; nothing
/// waited for.
pub fn submit_batch(
    dev: &Device,
    waits: &[vk::Semaphore],
    signals: &[vk::Semaphore],
    fence: vk::Fence,
) {
    let stages = vec![vk::PipelineStageFlags::ALL_COMMANDS; waits.len()];
    let batch = [vk::SubmitInfo::default()
        .wait_semaphores(waits)
        .wait_dst_stage_mask(&stages)
        .signal_semaphores(signals)];
    // SAFETY: a valid submission to the device's queue.
    unsafe { dev.device.queue_submit(queue(dev), &batch, fence) }.expect("vkQueueSubmit");
}

/// What [`export_again_after_a_consumed_temporary_import`] saw: the two exports' fds and the
/// second import's result.
#[derive(Clone, Copy, Debug)]
pub struct ExportedAgain {
    pub first: std::ffi::c_int,
    pub second: std::ffi::c_int,
    pub result: vk::Result,
}

/// The valid sequence of issue #33's first case, on a device with the semaphore-fd extensions:
/// the `OPAQUE_FD` *a* of an exportable semaphore S is imported temporarily into X; X is
/// signalled and waited on (the wait consumes the temporary payload and restores X's permanent
/// one); a new export of S gives *b*, imported (permanently) into Y. A driver that keeps an
/// imported fd until its payload is consumed (SwiftShader) closes *a* at that wait, and *b* gets
/// its number. The semaphores are destroyed at the end.
pub fn export_again_after_a_consumed_temporary_import(
    inst: &Instance,
    dev: &Device,
) -> ExportedAgain {
    let fd = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let s = semaphore(dev, false, Some(Types::OPAQUE_FD));
    let (x, y) = (semaphore(dev, false, None), semaphore(dev, false, None));
    let get = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(s)
        .handle_type(Types::OPAQUE_FD);
    let import = |into: vk::Semaphore, flags: vk::SemaphoreImportFlags, from: std::ffi::c_int| {
        let info = vk::ImportSemaphoreFdInfoKHR::default()
            .semaphore(into)
            .handle_type(Types::OPAQUE_FD)
            .flags(flags)
            .fd(from);
        // SAFETY: a live info structure.
        unsafe { (fd.fp().import_semaphore_fd_khr)(dev.handle(), &info) }
    };
    // SAFETY: a live info structure.
    let first = unsafe { fd.get_semaphore_fd(&get) }.expect("vkGetSemaphoreFdKHR");
    let r = import(x, vk::SemaphoreImportFlags::TEMPORARY, first);
    assert_eq!(
        r,
        vk::Result::SUCCESS,
        "the temporary import of the first fd"
    );
    submit_and_idle(dev, &[], &[x]);
    submit_and_idle(dev, &[x], &[]);
    // SAFETY: a live info structure.
    let second = unsafe { fd.get_semaphore_fd(&get) }.expect("vkGetSemaphoreFdKHR");
    let result = import(y, vk::SemaphoreImportFlags::empty(), second);
    for semaphore in [x, y, s] {
        destroy(dev, semaphore);
    }
    ExportedAgain {
        first,
        second,
        result,
    }
}

/// `vkImportSemaphoreFdKHR` of `fd` as an `OPAQUE_FD` (permanent) into `into`, through the
/// `vkGetDeviceProcAddr` pointer: the result. An fd the call did not take is closed.
pub fn import_opaque_fd(
    inst: &Instance,
    dev: &Device,
    into: vk::Semaphore,
    fd: std::ffi::c_int,
) -> vk::Result {
    let import = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let info = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(into)
        .handle_type(Types::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a live info structure.
    let r = unsafe { (import.fp().import_semaphore_fd_khr)(dev.handle(), &info) };
    if r != vk::Result::SUCCESS {
        crate::fds::close_if_open(fd);
    }
    r
}

/// `vkGetSemaphoreFdKHR` of `semaphore` as an `OPAQUE_FD`: a valid export (the test's setup).
pub fn export_opaque_fd(
    inst: &Instance,
    dev: &Device,
    semaphore: vk::Semaphore,
) -> std::ffi::c_int {
    let get = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(Types::OPAQUE_FD);
    // SAFETY: a live info structure.
    unsafe { get.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR")
}
