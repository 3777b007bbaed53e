//! How the export rules name a fence ([`ExportedObject`] for `Fence`): its handle, its device and
//! the handle types it was created exportable as. The report adds its debug name.

use super::imported_payload::refused_finding;
use super::{ExportedObject, InfoFields};
use crate::finding::Finding;
use crate::handle_kinds::{Fence, HandleKind};
use crate::state::{FenceRecord, Lookup};
use crate::vk_names;
use ash::vk;

impl ExportedObject for Fence {
    fn describe(record: &FenceRecord) -> String {
        format!(
            "{} ({})",
            vk_names::handle(vk::ObjectType::FENCE, record.fence),
            fence_details(record)
        )
    }

    fn describe_gone(handle: u64, lookup: &Lookup<Self>) -> String {
        let name = vk_names::handle(vk::ObjectType::FENCE, handle);
        match lookup {
            Lookup::Gone(destroyed) => format!(
                "{name}, which was already destroyed with vkDestroyFence (it had been {})",
                fence_details(&destroyed.record)
            ),
            _ => format!(
                "{name}, which is not a live VkFence: it was never created, or was destroyed long \
                 ago"
            ),
        }
    }
}

/// `created on VkDevice 0x.. with VkExportFenceCreateInfo::handleTypes = ..`
fn fence_details(record: &FenceRecord) -> String {
    let device = vk_names::handle(vk::ObjectType::DEVICE, record.device);
    let f = &record.facts;
    if !f.known {
        return format!("created on {device}");
    }
    match f.export {
        Some(types) => format!(
            "created on {device} with VkExportFenceCreateInfo::handleTypes = {}",
            Fence::names(types.as_raw())
        ),
        None => format!("created on {device} without VkExportFenceCreateInfo"),
    }
}

/// The finding of the rule of an imported payload's export types
/// (`VUID-VkFenceGetFdInfoKHR-fence-01455`, `VUID-VkFenceGetWin32HandleInfoKHR-fence-01450`):
/// `rules::export::imported_payload`.
pub fn imported_payload_finding(
    (command, id, field): (&'static str, &'static str, &'static str),
    info: &InfoFields,
    record: &FenceRecord,
) -> Finding {
    refused_finding::<Fence>(
        (command, id, field),
        (info, record),
        record.facts.payload.current_import(),
        ("VkExternalFenceProperties", RESTORED_BY),
    )
}

/// What would have restored a temporary import into a fence.
pub const RESTORED_BY: &str = "it was not passed to vkResetFences nor exported as a SYNC_FD";
