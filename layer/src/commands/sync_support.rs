//! What the layer asks the driver itself about exporting and importing semaphores and fences:
//! `vkGetPhysicalDeviceExternalSemaphoreProperties` / `vkGetPhysicalDeviceExternalFenceProperties`
//! (or their `KHR` names, `DriverQueries`), once per device, handle type and semaphore type,
//! cached in `state::sync_support`. Generic over the kind of object ([`SyncKind`]): a rule asks
//! [`sync_support_for::<Semaphore>`] or [`sync_support_for::<Fence>`].
//!
//! The layer's calls go through the layers below it, so each is valid: only handle types valid
//! on the device (core, or of an extension the device enabled, hence supports) are asked about,
//! and a timeline semaphore is asked about with a `VkSemaphoreTypeCreateInfo` chained (only a
//! device with timeline semaphores makes one).

use crate::handle_kinds::{Fence, HandleKind, Semaphore};
use crate::rules::export::imported_payload;
use crate::state::sync_payload::ImportedPayload;
use crate::state::sync_support::{SyncObject, SyncQuery, SyncTypeSupport};
use crate::state::DeviceState;
use ash::vk;

/// A kind of object whose external handle types the driver reports on.
pub trait SyncKind: HandleKind {
    const OBJECT: SyncObject;

    /// One query of the driver (through the next layer) about the one bit `handle_type`;
    /// `None` when the layer may not call it.
    fn ask(state: &DeviceState, handle_type: u32, timeline: bool) -> Option<SyncTypeSupport>;
}

impl SyncKind for Semaphore {
    const OBJECT: SyncObject = SyncObject::Semaphore;

    fn ask(state: &DeviceState, handle_type: u32, timeline: bool) -> Option<SyncTypeSupport> {
        let get = state.queries.external_semaphore?;
        let mut ty =
            vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
        let mut info = vk::PhysicalDeviceExternalSemaphoreInfo::default()
            .handle_type(vk::ExternalSemaphoreHandleTypeFlags::from_raw(handle_type));
        if timeline {
            info = info.push_next(&mut ty);
        }
        let mut properties = vk::ExternalSemaphoreProperties::default();
        // SAFETY: a live physical device, an input chain and an output structure of ours.
        unsafe { get(state.physical_device, &info, &mut properties) };
        Some(SyncTypeSupport {
            features: properties.external_semaphore_features.as_raw(),
            compatible: properties.compatible_handle_types.as_raw(),
            export_from_imported: properties.export_from_imported_handle_types.as_raw(),
        })
    }
}

impl SyncKind for Fence {
    const OBJECT: SyncObject = SyncObject::Fence;

    fn ask(state: &DeviceState, handle_type: u32, _timeline: bool) -> Option<SyncTypeSupport> {
        let get = state.queries.external_fence?;
        let info = vk::PhysicalDeviceExternalFenceInfo::default()
            .handle_type(vk::ExternalFenceHandleTypeFlags::from_raw(handle_type));
        let mut properties = vk::ExternalFenceProperties::default();
        // SAFETY: a live physical device, an input and an output structure of ours.
        unsafe { get(state.physical_device, &info, &mut properties) };
        Some(SyncTypeSupport {
            features: properties.external_fence_features.as_raw(),
            compatible: properties.compatible_handle_types.as_raw(),
            export_from_imported: properties.export_from_imported_handle_types.as_raw(),
        })
    }
}

/// The driver's answer for each bit of `types` that is valid on the device, in bit order (a bit
/// the layer may not ask about is left out: nothing is judged of it). `timeline`: a timeline
/// semaphore (`false` for a fence).
pub fn sync_support_for<K: SyncKind>(
    state: &DeviceState,
    types: u32,
    timeline: bool,
) -> Vec<(u32, SyncTypeSupport)> {
    let timeline = timeline && K::OBJECT == SyncObject::Semaphore;
    let mut rest = types & K::valid_on(|name| state.facts.extensions.has(name));
    let mut answers = Vec::new();
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest &= rest - 1;
        let query = SyncQuery {
            object: K::OBJECT,
            handle_type: bit,
            timeline,
        };
        let answer = state
            .sync_support
            .answer(query, || K::ask(state, bit, timeline));
        if let Some(answer) = answer {
            answers.push((bit, answer));
        }
    }
    answers
}

/// Whether exporting `handle_type` from an object of kind `K` whose current payload is certainly
/// the import `imported` (`None`: it is not, or the layer cannot say) is refused by the driver's
/// `exportFromImportedHandleTypes` for `handle_type` (`imported_payload`'s rule). Costs nothing
/// more than the test of `imported` unless there is one; the driver is asked only about one valid
/// bit, and nothing is judged without its answer.
#[inline(always)]
pub fn export_from_import_refused<K: SyncKind>(
    state: &DeviceState,
    handle_type: u32,
    timeline: bool,
    imported: Option<ImportedPayload>,
) -> bool {
    imported.is_some() && ask_export_from_import::<K>(state, handle_type, timeline, imported)
}

#[cold]
#[inline(never)]
fn ask_export_from_import<K: SyncKind>(
    state: &DeviceState,
    handle_type: u32,
    timeline: bool,
    imported: Option<ImportedPayload>,
) -> bool {
    if !handle_type.is_power_of_two() {
        return false;
    }
    let answer = sync_support_for::<K>(state, handle_type, timeline)
        .first()
        .map(|&(_, answer)| answer);
    imported_payload::export_from_import_refused(imported, answer)
}
