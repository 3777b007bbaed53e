//! `vkGetSemaphoreZirconHandleFUCHSIA` (VK_FUCHSIA_external_semaphore): its names, IDs and own
//! rules, those a call breaks whatever happened to the semaphore's queue work: the handle type
//! (04762), the created payload's export types (04758) and the semaphore's type (04763). An
//! imported payload's export types (`-semaphore-04759`) are `rules::export::imported_payload`'s
//! rule. Of those about queue operations, `-handleType-04761` applies only to a call that breaks
//! 04762 already, and `-04760` (no queue waiting) cannot be judged (its catalog note).

use super::semaphore::{not_exported_message, payload_not_exportable};
use super::with_object;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, SemaphoreRecord};
use crate::vuid;
use ash::vk;

const ZIRCON_EVENT: u32 = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();

pub const COMMAND: ExportCommand<GetSemaphoreZirconHandleRules, Semaphore> = ExportCommand {
    name: "vkGetSemaphoreZirconHandleFUCHSIA",
    extension: "VK_FUCHSIA_external_semaphore",
    is_enabled: |e| e.fuchsia_external_semaphore,
    info: Some(InfoStructure {
        param: "pGetZirconHandleInfo",
        type_name: "VkSemaphoreGetZirconHandleInfoFUCHSIA",
        s_type: vk::StructureType::SEMAPHORE_GET_ZIRCON_HANDLE_INFO_FUCHSIA,
        info_vuid: vuid::SEM_ZIRCON_INFO_PARAM,
        s_type_vuid: vuid::SEM_ZIRCON_STYPE,
        p_next_vuid: vuid::SEM_ZIRCON_PNEXT,
    }),
    output_param: "pZirconHandle",
    device_vuid: vuid::SEM_ZIRCON_DEVICE_PARAM,
    output_vuid: vuid::SEM_ZIRCON_PHANDLE_PARAM,
    object_vuid: vuid::SEM_ZIRCON_SEMAPHORE_PARAM,
    other_device_vuid: vuid::SEMAPHORE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::SEM_ZIRCON_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetSemaphoreZirconHandleFUCHSIA` of its own (the shared ones are
    /// `ExportRules`).
    pub struct GetSemaphoreZirconHandleRules {
        /// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04762`: `ZIRCON_EVENT`.
        NOT_AN_EVENT,
        /// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04758`: exportable as it, as
        /// created.
        NOT_EXPORTED,
        /// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04763`: a binary semaphore.
        TIMELINE,
        /// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04759`: the current payload is an imported one whose handle type is not in
        /// `exportFromImportedHandleTypes` of the driver's answer for `handleType` (an
        /// `evaluate_history` rule: it asks the driver).
        IMPORTED_PAYLOAD_NOT_EXPORTABLE,
        /// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04761`: a copy-transference
        /// type (`SYNC_FD`, which already breaks 04762) of a semaphore certainly unsignaled with
        /// no signal operation pending.
        COPY_WITHOUT_SIGNAL,
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
) -> GetSemaphoreZirconHandleRules {
    let t = info.handle_type;
    let f = &record.facts;
    GetSemaphoreZirconHandleRules::NONE
        .with(
            GetSemaphoreZirconHandleRules::NOT_AN_EVENT,
            t != ZIRCON_EVENT,
        )
        .with(
            GetSemaphoreZirconHandleRules::NOT_EXPORTED,
            payload_not_exportable(t, record),
        )
        .with(
            GetSemaphoreZirconHandleRules::TIMELINE,
            f.known && f.timeline,
        )
        .with(
            GetSemaphoreZirconHandleRules::COPY_WITHOUT_SIGNAL,
            t == vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw()
                && f.shared
                && !f.payload_escaped
                && f.signal.certainly_unsignaled(),
        )
}

fn describe_values(
    cmd: &ExportCommand<GetSemaphoreZirconHandleRules, Semaphore>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
    broken: GetSemaphoreZirconHandleRules,
    outcome: &mut Outcome,
) {
    let type_field = "pGetZirconHandleInfo->handleType";
    let handle_type = Semaphore::names(info.handle_type);
    let semaphore = Semaphore::describe(record);
    let finding = |id, field: &str, message: String| {
        with_object::<Semaphore>(Finding::new(id, cmd.name, field, message), record)
    };
    if broken.has(GetSemaphoreZirconHandleRules::NOT_AN_EVENT) {
        outcome.push(finding(
            vuid::SEM_ZIRCON_HANDLE_TYPE_04762,
            type_field,
            format!(
                "vkGetSemaphoreZirconHandleFUCHSIA(): {type_field} is {handle_type}; it must be \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA, the one handle type \
                 defined as a Zircon event handle (semaphore: {semaphore})."
            ),
        ));
    }
    if broken.has(GetSemaphoreZirconHandleRules::NOT_EXPORTED) {
        let message = not_exported_message(cmd.name, type_field, info.handle_type, record);
        outcome.push(finding(
            vuid::SEM_ZIRCON_HANDLE_TYPE_04758,
            type_field,
            message,
        ));
    }
    if broken.has(GetSemaphoreZirconHandleRules::TIMELINE) {
        let field = "pGetZirconHandleInfo->semaphore";
        outcome.push(finding(
            vuid::SEM_ZIRCON_SEMAPHORE_04763,
            field,
            format!(
                "vkGetSemaphoreZirconHandleFUCHSIA(): {field} is {semaphore}, a timeline \
                 semaphore (VkSemaphoreTypeCreateInfo::semaphoreType \
                 VK_SEMAPHORE_TYPE_TIMELINE); only a binary semaphore \
                 (VK_SEMAPHORE_TYPE_BINARY) can be exported as a Zircon event."
            ),
        ));
    }
    if broken.has(GetSemaphoreZirconHandleRules::IMPORTED_PAYLOAD_NOT_EXPORTABLE) {
        let at = (
            cmd.name,
            vuid::SEM_ZIRCON_SEMAPHORE_04759,
            "pGetZirconHandleInfo->semaphore",
        );
        outcome.push(super::semaphore::imported_payload_finding(at, info, record));
    }
    if broken.has(GetSemaphoreZirconHandleRules::COPY_WITHOUT_SIGNAL) {
        outcome.push(finding(
            vuid::SEM_ZIRCON_HANDLE_TYPE_04761,
            type_field,
            format!(
                "vkGetSemaphoreZirconHandleFUCHSIA(): {type_field} is {handle_type}, which has \
                 copy payload transference semantics, but {semaphore} is unsignaled and has no \
                 signal operation pending (no signal was submitted since it was created or since \
                 its payload was last exported as a sync file)."
            ),
        ));
    }
}

#[cfg(test)]
#[path = "get_semaphore_zircon_handle_tests.rs"]
mod tests;
