//! How the export rules name a semaphore ([`ExportedObject`] for `Semaphore`): its handle, its
//! device, its type and the handle types it was created exportable as. The report adds its
//! debug name.

use super::imported_payload::{import_not_exportable_message, refused_finding};
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

/// Whether `handle_type` is not among the types `record`'s current payload may be exported as
/// (`VUID-VkSemaphoreGetFdInfoKHR-handleType-01132`,
/// `VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01126`,
/// `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04758`): those it was created
/// exportable as while its payload is the created one (nothing imported, or every temporary
/// import restored: `state::sync_payload`); while an import's payload is certainly the current
/// one, those the semaphore it was exported from was created exportable as, where the layer
/// matched the import to that export ("when a semaphore is using an imported payload, its
/// `VkExportSemaphoreCreateInfo::handleTypes` value is specified when creating the semaphore
/// from which the payload was exported"). Otherwise nothing is said.
#[inline(always)]
pub fn payload_not_exportable(handle_type: u32, record: &SemaphoreRecord) -> bool {
    let f = &record.facts;
    let created = f.known.then(|| f.export.map_or(0, |t| t.as_raw()));
    f.payload
        .exportable(created)
        .is_some_and(|types| types & handle_type != handle_type)
}

/// The message of [`payload_not_exportable`]'s rule, with its cause: a type missing from the
/// semaphore's `VkExportSemaphoreCreateInfo::handleTypes`, no such structure at all, or a type
/// the imported payload's exporter was not created exportable as.
pub fn not_exported_message(
    command: &str,
    field: &str,
    handle_type: u32,
    record: &SemaphoreRecord,
) -> String {
    let semaphore = Semaphore::describe(record);
    let f = &record.facts;
    if let (false, Some(import)) = (f.payload.is_created(), f.payload.current_import()) {
        return import_not_exportable_message::<Semaphore>(
            (command, field),
            (handle_type, import.exportable.unwrap_or(0)),
            import,
            (
                &semaphore,
                "semaphore",
                "VkExportSemaphoreCreateInfo",
                RESTORED_BY,
            ),
        );
    }
    let handle_type = Semaphore::names(handle_type);
    match f.export {
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

/// What would have restored a temporary import into a semaphore.
const RESTORED_BY: &str = "no wait on it was submitted (vkQueueSubmit, vkQueueSubmit2, \
                           vkQueueBindSparse) and it was not exported as a SYNC_FD";

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
        ("VkExternalSemaphoreProperties", RESTORED_BY),
    )
}
