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
