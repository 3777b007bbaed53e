//! `vkGetFenceFdKHR` (VK_KHR_external_fence_fd): its names, IDs and own rules, those a call
//! breaks whatever happened to the fence since it was created, the sync-file rule of its signal
//! state as the layer followed it (`-handleType-01454`), and `-fence-01455` (an imported
//! payload's export types, `rules::export::imported_payload`).

use super::fence::RESTORED_BY;
use super::imported_payload::import_not_exportable_message;
use super::with_object;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{Fence, HandleKind};
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, FenceRecord, FenceSignal};
use crate::vuid;
use ash::vk;

const OPAQUE_FD: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();

pub const COMMAND: ExportCommand<GetFenceFdRules, Fence> = ExportCommand {
    name: "vkGetFenceFdKHR",
    extension: "VK_KHR_external_fence_fd",
    is_enabled: |e| e.khr_external_fence_fd,
    info: Some(InfoStructure {
        param: "pGetFdInfo",
        type_name: "VkFenceGetFdInfoKHR",
        s_type: vk::StructureType::FENCE_GET_FD_INFO_KHR,
        info_vuid: vuid::FENCE_FD_INFO_PARAM,
        s_type_vuid: vuid::FENCE_FD_STYPE,
        p_next_vuid: vuid::FENCE_FD_PNEXT,
    }),
    output_param: "pFd",
    device_vuid: vuid::FENCE_FD_DEVICE_PARAM,
    output_vuid: vuid::FENCE_FD_PFD_PARAM,
    object_vuid: vuid::FENCE_FD_FENCE_PARAM,
    other_device_vuid: vuid::FENCE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::FENCE_FD_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetFenceFdKHR` of its own (the shared ones are `ExportRules`).
    pub struct GetFenceFdRules {
        /// `VUID-VkFenceGetFdInfoKHR-handleType-01456`: `OPAQUE_FD` or `SYNC_FD`.
        NOT_AN_FD_TYPE,
        /// `VUID-VkFenceGetFdInfoKHR-handleType-01453`: exportable as it, as created.
        NOT_EXPORTED,
        /// `VUID-VkFenceGetFdInfoKHR-handleType-01454`: `SYNC_FD` of a fence certainly
        /// unsignaled with no signal operation pending.
        SYNC_FD_WITHOUT_SIGNAL,
        /// `VUID-VkFenceGetFdInfoKHR-fence-01455`: the current payload is an imported one whose handle type is not in
        /// `exportFromImportedHandleTypes` of the driver's answer for `handleType` (an
        /// `evaluate_history` rule: it asks the driver).
        IMPORTED_PAYLOAD_NOT_EXPORTABLE,
    }
}

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, info: &InfoFields, record: &FenceRecord) -> GetFenceFdRules {
    let t = info.handle_type;
    GetFenceFdRules::NONE
        .with(
            GetFenceFdRules::NOT_AN_FD_TYPE,
            t != OPAQUE_FD && t != SYNC_FD,
        )
        .with(
            GetFenceFdRules::NOT_EXPORTED,
            payload_not_exportable(record, t),
        )
        .with(
            GetFenceFdRules::SYNC_FD_WITHOUT_SIGNAL,
            t == SYNC_FD
                && record.facts.shared
                && !record.facts.payload_escaped
                && since_unsignaled(record.facts.signal).is_some(),
        )
}

/// Since what the fence is certainly unsignaled with no signal operation submitted, if the layer
/// is sure it is.
#[inline(always)]
pub(super) fn since_unsignaled(signal: FenceSignal) -> Option<&'static str> {
    match signal {
        FenceSignal::UnsignaledSinceCreation => Some("since it was created (unsignaled)"),
        FenceSignal::UnsignaledSinceReset => Some("since it was last reset with vkResetFences"),
        FenceSignal::UnsignaledSinceSyncFdExport => Some(
            "since its payload was last exported as a sync file (a SYNC_FD export acts as a \
             reset)",
        ),
        FenceSignal::Signaled | FenceSignal::Submitted | FenceSignal::Unknown => None,
    }
}

/// `handle_type` is not among the types the fence's current payload may be exported as ("was
/// included in `VkExportFenceCreateInfo::handleTypes` when fence's current payload was
/// created"): its own while the payload is the one it was created with (nothing imported, or a
/// temporary import restored since); an import's exporter's while that import is certainly the
/// current payload and the layer matched it to that export. Otherwise (after an import of an
/// unknown export, while a temporary one may be in place, with an unread create info) the layer
/// cannot know, and says nothing.
#[inline(always)]
pub fn payload_not_exportable(record: &FenceRecord, handle_type: u32) -> bool {
    let f = &record.facts;
    let created = f.known.then(|| f.export.map_or(0, |t| t.as_raw()));
    f.payload
        .exportable(created)
        .is_some_and(|types| types & handle_type != handle_type)
}

/// The finding of `NOT_EXPORTED` (01453, 01448): either cause, the fence named.
pub fn not_exportable_finding(
    (command, id, field): (&'static str, &'static str, &'static str),
    info: &InfoFields,
    record: &FenceRecord,
) -> Finding {
    let fence = Fence::describe(record);
    let payload = &record.facts.payload;
    let message = match (payload.is_created(), payload.current_import()) {
        (false, Some(import)) => import_not_exportable_message::<Fence>(
            (command, field),
            (info.handle_type, import.exportable.unwrap_or(0)),
            import,
            (&fence, "fence", "VkExportFenceCreateInfo", RESTORED_BY),
        ),
        _ => created_not_exportable_message((command, field), info.handle_type, record, &fence),
    };
    with_object::<Fence>(Finding::new(id, command, field, message), record)
}

/// The message of an export of a created payload as a type the fence was not created
/// exportable as.
fn created_not_exportable_message(
    (command, field): (&str, &str),
    handle_type: u32,
    record: &FenceRecord,
    fence: &str,
) -> String {
    let handle_type = Fence::names(handle_type);
    match record.facts.export {
        Some(_) => format!(
            "{command}(): {field} is {handle_type}, which was not included in \
             VkExportFenceCreateInfo::handleTypes when {fence} was created (its current payload \
             is the one it was created with: nothing was imported into it, or a temporary \
             import was restored since)."
        ),
        None => format!(
            "{command}(): {field} is {handle_type}, but {fence}: a fence's payload can be \
             exported only as a handle type that a VkExportFenceCreateInfo chained to its \
             VkFenceCreateInfo named."
        ),
    }
}

fn describe_values(
    cmd: &ExportCommand<GetFenceFdRules, Fence>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &FenceRecord,
    broken: GetFenceFdRules,
    outcome: &mut Outcome,
) {
    let field = "pGetFdInfo->handleType";
    if broken.has(GetFenceFdRules::NOT_AN_FD_TYPE) {
        let message = format!(
            "vkGetFenceFdKHR(): {field} is {}; vkGetFenceFdKHR exports only \
             VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT or \
             VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT (fence: {}).",
            Fence::names(info.handle_type),
            Fence::describe(record)
        );
        outcome.push(with_object::<Fence>(
            Finding::new(vuid::FENCE_FD_HANDLE_TYPE_01456, cmd.name, field, message),
            record,
        ));
    }
    if broken.has(GetFenceFdRules::NOT_EXPORTED) {
        outcome.push(not_exportable_finding(
            (cmd.name, vuid::FENCE_FD_HANDLE_TYPE_01453, field),
            info,
            record,
        ));
    }
    if broken.has(GetFenceFdRules::SYNC_FD_WITHOUT_SIGNAL) {
        let since = since_unsignaled(record.facts.signal).unwrap_or_default();
        let message = format!(
            "vkGetFenceFdKHR(): {field} is {}, which has copy payload transference semantics, \
             but {} is unsignaled and has no signal operation pending: no vkQueueSubmit, \
             vkQueueSubmit2, vkQueueBindSparse, vkAcquireNextImageKHR/vkAcquireNextImage2KHR or \
             present (VkSwapchainPresentFenceInfoEXT) signaled it {since}.",
            Fence::names(info.handle_type),
            Fence::describe(record)
        );
        outcome.push(with_object::<Fence>(
            Finding::new(vuid::FENCE_FD_HANDLE_TYPE_01454, cmd.name, field, message),
            record,
        ));
    }
    if broken.has(GetFenceFdRules::IMPORTED_PAYLOAD_NOT_EXPORTABLE) {
        let at = (cmd.name, vuid::FENCE_FD_FENCE_01455, "pGetFdInfo->fence");
        outcome.push(super::fence::imported_payload_finding(at, info, record));
    }
}

#[cfg(test)]
#[path = "get_fence_fd_tests.rs"]
mod tests;
