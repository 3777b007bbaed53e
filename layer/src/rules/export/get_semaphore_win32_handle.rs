//! `vkGetSemaphoreWin32HandleKHR` (VK_KHR_external_semaphore_win32): its names, IDs and own
//! rules, those a call breaks whatever happened to the semaphore's queue work: the handle type
//! (01131), the created payload's export types (01126), and an NT handle exported twice (01127,
//! from the NT handle types the semaphore's record says earlier calls exported from its created
//! payload, judged while that payload is certainly the current one). An imported payload's
//! export types (`-semaphore-01128`) are `rules::export::imported_payload`'s rule; of the rules
//! about queue operations, `-handleType-01130` applies only to a call that breaks 01131 already,
//! and `-01129` cannot be judged (its catalog note).

use super::semaphore::{not_exported_message, payload_not_exportable};
use super::with_object;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, SemaphoreRecord};
use crate::vuid;
use ash::vk;

type Types = vk::ExternalSemaphoreHandleTypeFlags;

/// The semaphore handle types the spec defines as NT handles.
pub const NT_HANDLE_TYPES: Types =
    Types::from_raw(Types::OPAQUE_WIN32.as_raw() | Types::D3D12_FENCE.as_raw());

/// The semaphore handle type the spec defines as a global share (KMT) handle.
pub const GLOBAL_SHARE_HANDLE_TYPES: Types = Types::OPAQUE_WIN32_KMT;

pub const COMMAND: ExportCommand<GetSemaphoreWin32HandleRules, Semaphore> = ExportCommand {
    name: "vkGetSemaphoreWin32HandleKHR",
    extension: "VK_KHR_external_semaphore_win32",
    is_enabled: |e| e.khr_external_semaphore_win32,
    info: Some(InfoStructure {
        param: "pGetWin32HandleInfo",
        type_name: "VkSemaphoreGetWin32HandleInfoKHR",
        s_type: vk::StructureType::SEMAPHORE_GET_WIN32_HANDLE_INFO_KHR,
        info_vuid: vuid::SEM_WIN32_INFO_PARAM,
        s_type_vuid: vuid::SEM_WIN32_STYPE,
        p_next_vuid: vuid::SEM_WIN32_PNEXT,
    }),
    output_param: "pHandle",
    device_vuid: vuid::SEM_WIN32_DEVICE_PARAM,
    output_vuid: vuid::SEM_WIN32_PHANDLE_PARAM,
    object_vuid: vuid::SEM_WIN32_SEMAPHORE_PARAM,
    other_device_vuid: vuid::SEMAPHORE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::SEM_WIN32_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetSemaphoreWin32HandleKHR` of its own (the shared ones are `ExportRules`).
    pub struct GetSemaphoreWin32HandleRules {
        /// `VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01131`: an NT handle or global
        /// share handle type.
        NOT_A_WIN32_TYPE,
        /// `VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01126`: exportable as it, as
        /// created.
        NOT_EXPORTED,
        /// `VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01127`: an NT handle of this type
        /// was already exported from the semaphore (by a call that succeeded).
        NT_HANDLE_EXPORTED_BEFORE,
        /// `VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-01128`: the current payload is an imported one whose handle type is not in
        /// `exportFromImportedHandleTypes` of the driver's answer for `handleType` (an
        /// `evaluate_history` rule: it asks the driver).
        IMPORTED_PAYLOAD_NOT_EXPORTABLE,
        /// `VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01130`: a copy-transference type
        /// (`SYNC_FD`, which already breaks 01131) of a semaphore certainly unsignaled with no
        /// signal operation pending.
        COPY_WITHOUT_SIGNAL,
    }
}

/// Whether `t` is exactly one of the bits of `types`.
#[inline(always)]
fn is_one_of(t: u32, types: Types) -> bool {
    t.is_power_of_two() && types.as_raw() & t != 0
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
) -> GetSemaphoreWin32HandleRules {
    let t = info.handle_type;
    let f = &record.facts;
    let win32_types = NT_HANDLE_TYPES | GLOBAL_SHARE_HANDLE_TYPES;
    // Earlier exports count only while its payload is certainly the created one (nothing
    // imported since, or every temporary import restored by a wait).
    let again = is_one_of(t, NT_HANDLE_TYPES)
        && f.created_payload()
        && f.nt_handle_exports.as_raw() & t != 0;
    GetSemaphoreWin32HandleRules::NONE
        .with(
            GetSemaphoreWin32HandleRules::NOT_A_WIN32_TYPE,
            !is_one_of(t, win32_types),
        )
        .with(
            GetSemaphoreWin32HandleRules::NOT_EXPORTED,
            payload_not_exportable(t, record),
        )
        .with(
            GetSemaphoreWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE,
            again,
        )
        .with(
            GetSemaphoreWin32HandleRules::COPY_WITHOUT_SIGNAL,
            t == SYNC_FD && f.shared && !f.payload_escaped && f.signal.certainly_unsignaled(),
        )
}

const SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();

/// Whether a successful export of `handle_type` from the semaphore is one 01127 counts: an NT
/// handle type its created payload (certainly the current one: nothing imported into it, or
/// every temporary import restored) was created exportable as (a "valid unique combination").
pub fn is_counted_nt_export(handle_type: u32, record: &SemaphoreRecord) -> bool {
    let f = &record.facts;
    is_one_of(handle_type, NT_HANDLE_TYPES)
        && f.created_payload()
        && f.export
            .is_some_and(|types| types.as_raw() & handle_type != 0)
}

fn describe_values(
    cmd: &ExportCommand<GetSemaphoreWin32HandleRules, Semaphore>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
    broken: GetSemaphoreWin32HandleRules,
    outcome: &mut Outcome,
) {
    let field = "pGetWin32HandleInfo->handleType";
    let handle_type = Semaphore::names(info.handle_type);
    let finding = |id, message: String| {
        with_object::<Semaphore>(Finding::new(id, cmd.name, field, message), record)
    };
    if broken.has(GetSemaphoreWin32HandleRules::NOT_A_WIN32_TYPE) {
        outcome.push(finding(
            vuid::SEM_WIN32_HANDLE_TYPE_01131,
            format!(
                "vkGetSemaphoreWin32HandleKHR(): {field} is {handle_type}; it must be a handle \
                 type defined as an NT handle (VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT, \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT) or a global share handle \
                 (VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT) (semaphore: {}).",
                Semaphore::describe(record)
            ),
        ));
    }
    if broken.has(GetSemaphoreWin32HandleRules::NOT_EXPORTED) {
        let message = not_exported_message(cmd.name, field, info.handle_type, record);
        outcome.push(finding(vuid::SEM_WIN32_HANDLE_TYPE_01126, message));
    }
    if broken.has(GetSemaphoreWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE) {
        outcome.push(finding(
            vuid::SEM_WIN32_HANDLE_TYPE_01127,
            format!(
                "vkGetSemaphoreWin32HandleKHR(): {field} is {handle_type}, an NT handle type, and \
                 an NT handle of this type was already exported from {} by an earlier \
                 vkGetSemaphoreWin32HandleKHR call that succeeded; the command may be called at \
                 most once for each semaphore and NT handle type (the app owns the first handle \
                 and may duplicate it with DuplicateHandle).",
                Semaphore::describe(record)
            ),
        ));
    }
    if broken.has(GetSemaphoreWin32HandleRules::IMPORTED_PAYLOAD_NOT_EXPORTABLE) {
        let at = (
            cmd.name,
            vuid::SEM_WIN32_SEMAPHORE_01128,
            "pGetWin32HandleInfo->semaphore",
        );
        outcome.push(super::semaphore::imported_payload_finding(at, info, record));
    }
    if broken.has(GetSemaphoreWin32HandleRules::COPY_WITHOUT_SIGNAL) {
        outcome.push(finding(
            vuid::SEM_WIN32_HANDLE_TYPE_01130,
            format!(
                "vkGetSemaphoreWin32HandleKHR(): {field} is {handle_type}, which has copy payload \
                 transference semantics, but {} is unsignaled and has no signal operation \
                 pending (no signal was submitted since it was created or since its payload was \
                 last exported as a sync file).",
                Semaphore::describe(record)
            ),
        ));
    }
}

#[cfg(test)]
#[path = "get_semaphore_win32_handle_tests.rs"]
mod tests;
