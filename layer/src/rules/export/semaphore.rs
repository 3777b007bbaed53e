//! How the export rules name a semaphore ([`ExportedObject`] for `Semaphore`): its handle, its
//! device, its type and the handle types it was created exportable as. The report adds its
//! debug name.

use super::ExportedObject;
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
