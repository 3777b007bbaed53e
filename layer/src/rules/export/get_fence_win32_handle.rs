//! `vkGetFenceWin32HandleKHR` (VK_KHR_external_fence_win32): its names, IDs and own rules,
//! including the one about earlier calls (01449: an NT handle is exported at most once per fence
//! and handle type), judged from the NT handle types the fence's record says were exported. An
//! imported payload's export types (`-fence-01450`) are `rules::export::imported_payload`'s rule;
//! `-handleType-01451` (copy transference) concerns no Win32 fence type.

use super::get_fence_fd::{not_exportable_finding, payload_not_exportable};
use super::with_object;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{Fence, HandleKind};
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, FenceRecord};
use crate::vuid;
use ash::vk;

/// The one fence handle type defined as an NT handle.
pub const NT_HANDLE: vk::ExternalFenceHandleTypeFlags =
    vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32;
/// The one fence handle type defined as a global share (KMT) handle.
const GLOBAL_SHARE_HANDLE: vk::ExternalFenceHandleTypeFlags =
    vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32_KMT;

pub const COMMAND: ExportCommand<GetFenceWin32HandleRules, Fence> = ExportCommand {
    name: "vkGetFenceWin32HandleKHR",
    extension: "VK_KHR_external_fence_win32",
    is_enabled: |e| e.khr_external_fence_win32,
    info: Some(InfoStructure {
        param: "pGetWin32HandleInfo",
        type_name: "VkFenceGetWin32HandleInfoKHR",
        s_type: vk::StructureType::FENCE_GET_WIN32_HANDLE_INFO_KHR,
        info_vuid: vuid::FENCE_WIN32_INFO_PARAM,
        s_type_vuid: vuid::FENCE_WIN32_STYPE,
        p_next_vuid: vuid::FENCE_WIN32_PNEXT,
    }),
    output_param: "pHandle",
    device_vuid: vuid::FENCE_WIN32_DEVICE_PARAM,
    output_vuid: vuid::FENCE_WIN32_PHANDLE_PARAM,
    object_vuid: vuid::FENCE_WIN32_FENCE_PARAM,
    other_device_vuid: vuid::FENCE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::FENCE_WIN32_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetFenceWin32HandleKHR` of its own (the shared ones are `ExportRules`).
    pub struct GetFenceWin32HandleRules {
        /// `VUID-VkFenceGetWin32HandleInfoKHR-handleType-01452`: an NT handle or global share
        /// handle type.
        NOT_A_WIN32_TYPE,
        /// `VUID-VkFenceGetWin32HandleInfoKHR-handleType-01448`: exportable as it, as created.
        NOT_EXPORTED,
        /// `VUID-VkFenceGetWin32HandleInfoKHR-handleType-01449`: an NT handle of this fence was
        /// already exported (by a call that succeeded).
        NT_HANDLE_EXPORTED_BEFORE,
        /// `VUID-VkFenceGetWin32HandleInfoKHR-fence-01450`: the current payload is an imported one whose handle type is not in
        /// `exportFromImportedHandleTypes` of the driver's answer for `handleType` (an
        /// `evaluate_history` rule: it asks the driver).
        IMPORTED_PAYLOAD_NOT_EXPORTABLE,
        /// `VUID-VkFenceGetWin32HandleInfoKHR-handleType-01451`: a copy-transference type
        /// (`SYNC_FD`, which already breaks 01452) of a fence certainly unsignaled with no signal
        /// operation pending.
        COPY_WITHOUT_SIGNAL,
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &FenceRecord,
) -> GetFenceWin32HandleRules {
    let t = info.handle_type;
    let f = &record.facts;
    let again = t == NT_HANDLE.as_raw() && f.created_payload() && f.nt_exported.contains(NT_HANDLE);
    GetFenceWin32HandleRules::NONE
        .with(
            GetFenceWin32HandleRules::NOT_A_WIN32_TYPE,
            t != NT_HANDLE.as_raw() && t != GLOBAL_SHARE_HANDLE.as_raw(),
        )
        .with(
            GetFenceWin32HandleRules::NOT_EXPORTED,
            payload_not_exportable(record, t),
        )
        .with(GetFenceWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE, again)
        .with(
            GetFenceWin32HandleRules::COPY_WITHOUT_SIGNAL,
            t == vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw()
                && f.shared
                && !f.payload_escaped
                && super::get_fence_fd::since_unsignaled(f.signal).is_some(),
        )
}

/// Whether a successful export of `handle_type` from the fence of `record` is one 01449 counts:
/// the NT handle type, from the payload the fence was created with, which was created
/// exportable as it (a "valid unique combination").
pub fn is_counted_nt_export(record: &FenceRecord, handle_type: u32) -> bool {
    handle_type == NT_HANDLE.as_raw()
        && record.facts.created_payload()
        && record.facts.export.is_some_and(|t| t.contains(NT_HANDLE))
}

fn describe_values(
    cmd: &ExportCommand<GetFenceWin32HandleRules, Fence>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &FenceRecord,
    broken: GetFenceWin32HandleRules,
    outcome: &mut Outcome,
) {
    let field = "pGetWin32HandleInfo->handleType";
    let handle_type = Fence::names(info.handle_type);
    let fence = Fence::describe(record);
    let finding = |id, message: String| {
        with_object::<Fence>(Finding::new(id, cmd.name, field, message), record)
    };
    if broken.has(GetFenceWin32HandleRules::NOT_A_WIN32_TYPE) {
        outcome.push(finding(
            vuid::FENCE_WIN32_HANDLE_TYPE_01452,
            format!(
                "vkGetFenceWin32HandleKHR(): {field} is {handle_type}; it must be a handle type \
                 defined as an NT handle (VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT) or a \
                 global share handle (VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT) \
                 (fence: {fence})."
            ),
        ));
    }
    if broken.has(GetFenceWin32HandleRules::NOT_EXPORTED) {
        outcome.push(not_exportable_finding(
            (cmd.name, vuid::FENCE_WIN32_HANDLE_TYPE_01448, field),
            info,
            record,
        ));
    }
    if broken.has(GetFenceWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE) {
        outcome.push(finding(
            vuid::FENCE_WIN32_HANDLE_TYPE_01449,
            format!(
                "vkGetFenceWin32HandleKHR(): {field} is {handle_type}, an NT handle type, and an \
                 NT handle of this type was already exported from {fence} by an earlier \
                 vkGetFenceWin32HandleKHR call that succeeded; the command may be called at most \
                 once for each fence and NT handle type (the app owns the first handle and may \
                 duplicate it with DuplicateHandle)."
            ),
        ));
    }
    if broken.has(GetFenceWin32HandleRules::IMPORTED_PAYLOAD_NOT_EXPORTABLE) {
        let at = (
            cmd.name,
            vuid::FENCE_WIN32_FENCE_01450,
            "pGetWin32HandleInfo->fence",
        );
        outcome.push(super::fence::imported_payload_finding(at, info, record));
    }
    if broken.has(GetFenceWin32HandleRules::COPY_WITHOUT_SIGNAL) {
        let since = super::get_fence_fd::since_unsignaled(record.facts.signal).unwrap_or_default();
        outcome.push(finding(
            vuid::FENCE_WIN32_HANDLE_TYPE_01451,
            format!(
                "vkGetFenceWin32HandleKHR(): {field} is {handle_type}, which has copy payload \
                 transference semantics, but {fence} is unsignaled and has no signal operation \
                 pending: nothing signaled it {since}."
            ),
        ));
    }
}

#[cfg(test)]
#[path = "get_fence_win32_handle_tests.rs"]
mod tests;
