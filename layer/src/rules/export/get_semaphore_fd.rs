//! `vkGetSemaphoreFdKHR` (VK_KHR_external_semaphore_fd): its names, IDs and own rules, those a
//! call breaks whatever happened to the semaphore since it was created, and the sync-file rules
//! of its signal state as the layer followed it through queue operations (`-01135`, `-03254`).
//! `-semaphore-01133` (an imported payload's export types) is judged from the payload the layer
//! follows and the driver's answer (`rules::export::imported_payload`); `-handleType-01134` (no
//! queue waiting) cannot be judged (its catalog note).

use super::semaphore::{not_exported_message, payload_not_exportable};
use super::with_object;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::semaphores::UnsubmittedWait;
use crate::state::{DeviceFacts, SemaphoreRecord, SignalState};
use crate::vuid;
use ash::vk;

const OPAQUE_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();

pub const COMMAND: ExportCommand<GetSemaphoreFdRules, Semaphore> = ExportCommand {
    name: "vkGetSemaphoreFdKHR",
    extension: "VK_KHR_external_semaphore_fd",
    is_enabled: |e| e.khr_external_semaphore_fd,
    info: Some(InfoStructure {
        param: "pGetFdInfo",
        type_name: "VkSemaphoreGetFdInfoKHR",
        s_type: vk::StructureType::SEMAPHORE_GET_FD_INFO_KHR,
        info_vuid: vuid::SEM_FD_INFO_PARAM,
        s_type_vuid: vuid::SEM_FD_STYPE,
        p_next_vuid: vuid::SEM_FD_PNEXT,
    }),
    output_param: "pFd",
    device_vuid: vuid::SEM_FD_DEVICE_PARAM,
    output_vuid: vuid::SEM_FD_PFD_PARAM,
    object_vuid: vuid::SEM_FD_SEMAPHORE_PARAM,
    other_device_vuid: vuid::SEMAPHORE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::SEM_FD_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetSemaphoreFdKHR` of its own (the shared ones are `ExportRules`).
    pub struct GetSemaphoreFdRules {
        /// `VUID-VkSemaphoreGetFdInfoKHR-handleType-01136`: `OPAQUE_FD` or `SYNC_FD`.
        NOT_AN_FD_TYPE,
        /// `VUID-VkSemaphoreGetFdInfoKHR-handleType-01132`: exportable as it, as created.
        NOT_EXPORTED,
        /// `VUID-VkSemaphoreGetFdInfoKHR-handleType-03253`: `SYNC_FD` of a timeline semaphore.
        SYNC_FD_OF_TIMELINE,
        /// `VUID-VkSemaphoreGetFdInfoKHR-handleType-01135` and `-03254`: `SYNC_FD` of a
        /// semaphore certainly unsignaled with no signal operation submitted.
        SYNC_FD_WITHOUT_SIGNAL,
        /// `VUID-VkSemaphoreGetFdInfoKHR-handleType-03254`'s second half: `SYNC_FD` of a
        /// semaphore whose submitted signal depends on a wait on a semaphore for which no signal
        /// operation was submitted (an `evaluate_history` rule: it reads the other semaphore).
        SYNC_FD_DEPENDS_ON_UNSUBMITTED,
        /// `VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133`: the current payload is an imported one whose handle type is not in
        /// `exportFromImportedHandleTypes` of the driver's answer for `handleType` (an
        /// `evaluate_history` rule: it asks the driver).
        IMPORTED_PAYLOAD_NOT_EXPORTABLE,
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
) -> GetSemaphoreFdRules {
    let t = info.handle_type;
    let f = &record.facts;
    GetSemaphoreFdRules::NONE
        .with(
            GetSemaphoreFdRules::NOT_AN_FD_TYPE,
            t != OPAQUE_FD && t != SYNC_FD,
        )
        .with(
            GetSemaphoreFdRules::NOT_EXPORTED,
            payload_not_exportable(t, record),
        )
        .with(
            GetSemaphoreFdRules::SYNC_FD_OF_TIMELINE,
            t == SYNC_FD && f.known && f.timeline,
        )
        .with(
            GetSemaphoreFdRules::SYNC_FD_WITHOUT_SIGNAL,
            t == SYNC_FD && f.shared && !f.payload_escaped && f.signal.certainly_unsignaled(),
        )
}

fn describe_values(
    cmd: &ExportCommand<GetSemaphoreFdRules, Semaphore>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
    broken: GetSemaphoreFdRules,
    outcome: &mut Outcome,
) {
    let field = "pGetFdInfo->handleType";
    let handle_type = Semaphore::names(info.handle_type);
    let semaphore = Semaphore::describe(record);
    let finding = |id, message: String| {
        with_object::<Semaphore>(Finding::new(id, cmd.name, field, message), record)
    };
    if broken.has(GetSemaphoreFdRules::NOT_AN_FD_TYPE) {
        outcome.push(finding(
            vuid::SEM_FD_HANDLE_TYPE_01136,
            format!(
                "vkGetSemaphoreFdKHR(): {field} is {handle_type}; vkGetSemaphoreFdKHR exports \
                 only VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT or \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT (semaphore: {semaphore})."
            ),
        ));
    }
    if broken.has(GetSemaphoreFdRules::NOT_EXPORTED) {
        let message = not_exported_message(cmd.name, field, info.handle_type, record);
        outcome.push(finding(vuid::SEM_FD_HANDLE_TYPE_01132, message));
    }
    if broken.has(GetSemaphoreFdRules::SYNC_FD_WITHOUT_SIGNAL) {
        let since = match record.facts.signal {
            SignalState::UnsignaledSinceSyncFdExport => {
                "since its payload was last exported as a sync file (a SYNC_FD export acts as a \
                 wait: it takes the signal with it)"
            }
            SignalState::UnsignaledSinceWaitCompleted => {
                "since a wait on it was submitted, which has completed (its queue went idle: \
                 vkQueueWaitIdle, vkDeviceWaitIdle; or a fence of that submission, or of a later \
                 one to the queue, was waited on: vkWaitForFences, vkGetFenceStatus); the wait \
                 took the signal"
            }
            _ => "since it was created",
        };
        let seen = "no vkQueueSubmit, vkQueueSubmit2, vkQueueBindSparse or \
                    vkAcquireNextImageKHR/vkAcquireNextImage2KHR signaled it";
        outcome.push(finding(
            vuid::SEM_FD_HANDLE_TYPE_01135,
            format!(
                "vkGetSemaphoreFdKHR(): {field} is {handle_type}, which has copy payload \
                 transference semantics, but {semaphore} is unsignaled and has no signal \
                 operation pending: {seen} {since}."
            ),
        ));
        outcome.push(finding(
            vuid::SEM_FD_HANDLE_TYPE_03254,
            format!(
                "vkGetSemaphoreFdKHR(): {field} is {handle_type}, but no semaphore signal \
                 operation was submitted for {semaphore} {since}: a sync file can only be \
                 exported from a semaphore whose signal was submitted for execution."
            ),
        ));
    }
    if broken.has(GetSemaphoreFdRules::SYNC_FD_OF_TIMELINE) {
        outcome.push(finding(
            vuid::SEM_FD_HANDLE_TYPE_03253,
            format!(
                "vkGetSemaphoreFdKHR(): {field} is {handle_type}, which has copy payload \
                 transference semantics, but {semaphore} is a timeline semaphore \
                 (VkSemaphoreTypeCreateInfo::semaphoreType VK_SEMAPHORE_TYPE_TIMELINE); it must \
                 be VK_SEMAPHORE_TYPE_BINARY."
            ),
        ));
    }
    if broken.has(GetSemaphoreFdRules::IMPORTED_PAYLOAD_NOT_EXPORTABLE) {
        let at = (
            cmd.name,
            vuid::SEM_FD_SEMAPHORE_01133,
            "pGetFdInfo->semaphore",
        );
        outcome.push(super::semaphore::imported_payload_finding(at, info, record));
    }
}

/// Whether `record`'s submitted signal depends on a wait on a semaphore for which no signal
/// operation was submitted (`still_unsubmitted`: the state's answer for that wait), and a
/// `SYNC_FD` export of it breaks `-03254`'s second half.
#[inline(always)]
pub fn depends_on_unsubmitted(
    handle_type: u32,
    record: &SemaphoreRecord,
    still_unsubmitted: impl FnOnce(UnsubmittedWait) -> bool,
) -> bool {
    let f = &record.facts;
    handle_type == SYNC_FD
        && f.shared
        && !f.payload_escaped
        && f.signal == SignalState::SignalSubmitted
        && f.awaits_unsubmitted.is_some_and(still_unsubmitted)
}

/// The finding of [`depends_on_unsubmitted`]: the semaphore, and the one its signal's batch
/// waited on (`awaited`: its record, while it lives).
pub fn depends_on_unsubmitted_finding(
    record: &SemaphoreRecord,
    awaited: &SemaphoreRecord,
) -> Finding {
    let field = "pGetFdInfo->handleType";
    let message = format!(
        "vkGetSemaphoreFdKHR(): {field} is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, but the \
         semaphore signal operation submitted for {} depends on a semaphore signal operation \
         that was not submitted: the batch that signals it waits on {}, for which no signal \
         operation had been submitted (it was unsignaled with nothing pending), and none was \
         submitted since (vkQueueSubmit, vkQueueSubmit2, vkQueueBindSparse). A sync file can \
         only be exported once every signal operation the semaphore's signal depends on was \
         submitted for execution.",
        Semaphore::describe(record),
        Semaphore::describe(awaited),
    );
    let finding = Finding::new(vuid::SEM_FD_HANDLE_TYPE_03254, COMMAND.name, field, message);
    with_object::<Semaphore>(finding, record).with(ObjectRef {
        ty: vk::ObjectType::SEMAPHORE,
        handle: awaited.semaphore,
    })
}

#[cfg(test)]
#[path = "get_semaphore_fd_tests.rs"]
mod tests;
