//! How the export rules name a semaphore ([`ExportedObject`] for `Semaphore`): its handle, its
//! device, its type and the handle types it was created exportable as. The report adds its
//! debug name.

use super::imported_payload::refused_finding;
use super::{ExportedObject, InfoFields};
use crate::finding::Finding;
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::state::{Lookup, SemaphoreRecord};
use crate::vk_names;
use ash::vk;

impl ExportedObject for Semaphore {
    fn describe(record: &SemaphoreRecord) -> String {
        format!(
            "{} ({})",
            vk_names::handle(vk::ObjectType::SEMAPHORE, record.semaphore),
            semaphore_details(record)
        )
    }

    fn describe_gone(handle: u64, lookup: &Lookup<Self>) -> String {
        let name = vk_names::handle(vk::ObjectType::SEMAPHORE, handle);
        match lookup {
            Lookup::Gone(destroyed) => format!(
                "{name}, which was already destroyed with vkDestroySemaphore (it had been {})",
                semaphore_details(&destroyed.record)
            ),
            _ => format!(
                "{name}, which is not a live VkSemaphore: it was never created, or was destroyed \
                 long ago"
            ),
        }
    }
}

/// `created on VkDevice 0x.. as a binary semaphore, VkExportSemaphoreCreateInfo::handleTypes = ..`
fn semaphore_details(record: &SemaphoreRecord) -> String {
    let device = vk_names::handle(vk::ObjectType::DEVICE, record.device);
    let f = &record.facts;
    if !f.known {
        return format!("created on {device}");
    }
    let ty = if f.timeline { "timeline" } else { "binary" };
    let export = match f.export {
        Some(types) => format!(
            "VkExportSemaphoreCreateInfo::handleTypes = {}",
            Semaphore::names(types.as_raw())
        ),
        None => "no VkExportSemaphoreCreateInfo".to_owned(),
    };
    format!("created on {device} as a {ty} semaphore, {export}")
}

/// Whether `record`'s current payload is the one it was created with, and `handle_type` was not
/// among the types it was created exportable as (`VUID-VkSemaphoreGetFdInfoKHR-handleType-01132`,
/// `VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01126`,
/// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04758`). The current payload is the
/// created one while nothing was imported, and again once every temporary import was restored
/// (`state::sync_payload`); after a permanent import, while a temporary one is or may be in
/// place, or when the create info was unreadable, nothing is said.
#[inline(always)]
pub fn created_payload_not_exportable(handle_type: u32, record: &SemaphoreRecord) -> bool {
    let f = &record.facts;
    let created_payload = f.known && f.payload.is_created();
    let exportable = f
        .export
        .is_some_and(|types| types.as_raw() & handle_type == handle_type);
    created_payload && !exportable
}

/// The message of [`created_payload_not_exportable`]'s rule, with its cause: a type missing from
/// `VkExportSemaphoreCreateInfo::handleTypes`, or no such structure at all.
pub fn not_exported_message(
    command: &str,
    field: &str,
    handle_type: u32,
    record: &SemaphoreRecord,
) -> String {
    let handle_type = Semaphore::names(handle_type);
    let semaphore = Semaphore::describe(record);
    match record.facts.export {
        Some(_) => format!(
            "{command}(): {field} is {handle_type}, which was not included in \
             VkExportSemaphoreCreateInfo::handleTypes when {semaphore} was created (its current \
             payload is the one it was created with: nothing was imported into it, or a \
             temporary import was restored since)."
        ),
        None => format!(
            "{command}(): {field} is {handle_type}, but {semaphore}: a semaphore's payload can \
             be exported only as a handle type that a VkExportSemaphoreCreateInfo chained to its \
             VkSemaphoreCreateInfo named."
        ),
    }
}

/// The finding of the rule of an imported payload's export types
/// (`VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133`, `...Win32HandleInfoKHR-semaphore-01128`,
/// `...ZirconHandleInfoFUCHSIA-semaphore-04759`): `rules::export::imported_payload`.
pub fn imported_payload_finding(
    (command, id, field): (&'static str, &'static str, &'static str),
    info: &InfoFields,
    record: &SemaphoreRecord,
) -> Finding {
    refused_finding::<Semaphore>(
        (command, id, field),
        (info, record),
        record.facts.payload.current_import(),
        (
            "VkExternalSemaphoreProperties",
            "no wait on it was submitted (vkQueueSubmit, vkQueueSubmit2, vkQueueBindSparse) \
             and it was not exported as a SYNC_FD",
        ),
    )
}
