//! A valid app's use of the external semaphore and fence capability queries on a real driver:
//! every defined semaphore and fence handle type asked about (a semaphore's as binary and as
//! timeline), then a semaphore created exportable as each type the driver reports exportable,
//! and as all of them that it reports compatible with each other. The layer must stay silent
//! (its own queries at `vkCreateSemaphore` agree with the driver's).

use crate::app::Instance;
use crate::expect;
use crate::ids::{CREATE_SEMAPHORE, FENCE_CAPS, SEM_CAPS};
use ash::vk;

type Types = vk::ExternalSemaphoreHandleTypeFlags;

/// The semaphore handle types a Linux driver may know: every defined one but Fuchsia's, which
/// is valid only where the physical device supports `VK_FUCHSIA_external_semaphore`.
const SEMAPHORE_TYPES: [u32; 5] = [0x1, 0x2, 0x4, 0x8, 0x10];
const FENCE_TYPES: [u32; 4] = [0x1, 0x2, 0x4, 0x8];

/// Runs the queries and the creations on `inst`'s physical device; returns how many semaphore
/// types the driver reported exportable from a binary semaphore.
pub fn queries_and_exportable_semaphores_are_silent(inst: &Instance) -> usize {
    let pd = inst.physical_device;
    let mut exportable = Vec::new();
    for bit in SEMAPHORE_TYPES {
        for timeline in [false, true] {
            let mut ty =
                vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
            let mut info = vk::PhysicalDeviceExternalSemaphoreInfo::default()
                .handle_type(Types::from_raw(bit));
            if timeline {
                info = info.push_next(&mut ty);
            }
            let mut out = vk::ExternalSemaphoreProperties::default();
            // SAFETY: a live physical device and structures.
            unsafe {
                inst.instance
                    .get_physical_device_external_semaphore_properties(pd, &info, &mut out)
            };
            let features = out.external_semaphore_features;
            if !timeline && features.contains(vk::ExternalSemaphoreFeatureFlags::EXPORTABLE) {
                exportable.push((bit, out.compatible_handle_types.as_raw()));
            }
        }
    }
    expect::silent(inst, SEM_CAPS);
    for bit in FENCE_TYPES {
        let info = vk::PhysicalDeviceExternalFenceInfo::default()
            .handle_type(vk::ExternalFenceHandleTypeFlags::from_raw(bit));
        let mut out = vk::ExternalFenceProperties::default();
        // SAFETY: a live physical device and structures.
        unsafe {
            inst.instance
                .get_physical_device_external_fence_properties(pd, &info, &mut out)
        };
    }
    expect::silent(inst, FENCE_CAPS);

    let dev = inst.device(&[ash::khr::external_semaphore::NAME]);
    let create = |types: u32| {
        let mut export =
            vk::ExportSemaphoreCreateInfo::default().handle_types(Types::from_raw(types));
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut export);
        // SAFETY: a live device and a valid create info (the driver reported the types).
        let s = unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore");
        // SAFETY: a semaphore of the device that no queue uses.
        unsafe { dev.device.destroy_semaphore(s, None) };
    };
    for (bit, _) in &exportable {
        create(*bit);
    }
    // The exportable types each compatible with all the others.
    let together = exportable
        .iter()
        .filter(|(bit, _)| {
            exportable
                .iter()
                .all(|(other, compatible)| other == bit || compatible & bit != 0)
        })
        .fold(0, |all, (bit, _)| all | bit);
    if together != 0 {
        create(together);
    }
    expect::silent(inst, CREATE_SEMAPHORE);
    exportable.len()
}
