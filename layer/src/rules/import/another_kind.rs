//! An fd import that takes the opaque-fd export of another kind of object: a memory object's fd
//! imported into a semaphore or fence, a semaphore's or fence's into memory or the other sync
//! object. An `OPAQUE_FD` handle of each kind is the one its own export command returned (a
//! semaphore's "owns a reference to the underlying synchronization primitive represented by its
//! Vulkan semaphore object"; memory's is one `vkGetMemoryFdKHR` returned); NVIDIA's driver and
//! SwiftShader accept a memory fd imported into a semaphore with `VK_SUCCESS` (measured), so the
//! mistake shows later, if ever. For memory the spec's rule is
//! `VUID-VkImportMemoryFdInfoKHR-handleType-00670` ("fd must be a valid handle of the type
//! specified by handleType"); the semaphore and fence fd imports have no such rule (their
//! `-fd-01544` and `-fd-01541` speak of the compatibility table's UUIDs only), so theirs is the
//! layer's `EXPORTCHECK-fd-of-another-kind`. The call is not passed to the driver.

use crate::features::import_matching::rules::import_match::exporting_process;
use crate::features::import_matching::state::known_export::{ExportKind, KnownExport};
use crate::finding::{Finding, ObjectRef};
use crate::vk_names;

/// What imports the fd: the command, the member that holds it, its handle type's name, and the
/// kind of object it imports into.
#[derive(Clone, Copy, Debug)]
pub struct Importing {
    pub id: &'static str,
    pub command: &'static str,
    pub field: &'static str,
    pub handle_type: &'static str,
    pub kind: ExportKind,
}

/// The finding of an import (`at`) of `fd`, which the layer knows as `export`.
#[cold]
pub fn describe(at: &Importing, fd: i32, export: &KnownExport, into: &str) -> Finding {
    let object = vk_names::handle(export.kind.object_type(), export.object);
    let device = vk_names::handle(ash::vk::ObjectType::DEVICE, export.device);
    let exported = match &export.process {
        Some(process) => format!(
            "{object} of {} (on that process's {device})",
            exporting_process(process)
        ),
        None => format!("{object} (on {device})"),
    };
    let (command, field) = (at.command, at.field);
    let finding = Finding::new(
        at.id,
        command,
        field,
        format!(
            "{command}(): {field} ({fd}) is an opaque fd {} exported from {exported}: {}, not \
             {}. It is imported{into} as {}, which takes only an fd {} returned. The call was \
             not passed to the driver (NVIDIA's driver and SwiftShader accept such an import \
             and return VK_SUCCESS).",
            export.kind.export_command(),
            export.kind.payload(),
            at.kind.payload(),
            at.handle_type,
            at.kind.export_command(),
        ),
    );
    match export.process {
        None => finding.with(ObjectRef {
            ty: export.kind.object_type(),
            handle: export.object,
        }),
        Some(_) => finding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_finding_names_both_kinds_and_the_export() {
        let at = Importing {
            id: crate::vuid::FD_OF_ANOTHER_KIND,
            command: "vkImportSemaphoreFdKHR",
            field: "pImportSemaphoreFdInfo->fd",
            handle_type: "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
            kind: ExportKind::Semaphore,
        };
        let export = KnownExport {
            kind: ExportKind::Memory,
            device: 0xd0,
            object: 0x3000,
            process: None,
        };
        let f = describe(&at, 7, &export, " into VkSemaphore 0x5e");
        assert_eq!(f.id, crate::vuid::FD_OF_ANOTHER_KIND);
        assert!(
            f.message.starts_with(
                "vkImportSemaphoreFdKHR(): pImportSemaphoreFdInfo->fd (7) is an opaque fd \
                 vkGetMemoryFdKHR exported from VkDeviceMemory 0x3000 (on VkDevice 0xd0): \
                 memory, not a semaphore's payload. It is imported into VkSemaphore 0x5e as \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, which takes only an fd \
                 vkGetSemaphoreFdKHR returned."
            ),
            "{}",
            f.message
        );
    }
}
