//! The rule of exporting a semaphore or fence whose current payload an import put there
//! (`VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133`, `...Win32HandleInfoKHR-semaphore-01128`,
//! `...ZirconHandleInfoFUCHSIA-semaphore-04759`, `VUID-VkFenceGetFdInfoKHR-fence-01455`,
//! `VUID-VkFenceGetWin32HandleInfoKHR-fence-01450`): the imported payload's handle type must be
//! in `exportFromImportedHandleTypes` of the driver's answer for the exported `handleType`
//! (`VkExternalSemaphoreProperties` asked with the semaphore's type, or
//! `VkExternalFenceProperties`). Judged only when the layer is sure the current payload is that
//! import (`state::sync_payload`) and it could ask the driver.

use super::{with_object, ExportedObject, InfoFields};
use crate::finding::Finding;
use crate::handle_kinds::HandleKind;
use crate::state::sync_payload::ImportedPayload;
use crate::state::sync_support::SyncTypeSupport;

/// Whether the driver's answer for the exported handle type (`None`: not asked, nothing judged)
/// leaves out the type of the import that is the current payload (`None`: not certainly one).
#[inline(always)]
pub fn export_from_import_refused(
    imported: Option<ImportedPayload>,
    answer: Option<SyncTypeSupport>,
) -> bool {
    match (imported, answer) {
        (Some(imported), Some(answer)) => answer.export_from_imported & imported.handle_type == 0,
        _ => false,
    }
}

/// The message: the export's handle type, the import that replaced the payload, and the driver's
/// answer (`properties`: `VkExternalSemaphoreProperties` or `VkExternalFenceProperties`;
/// `restored_by`: what would have restored a temporary import).
pub fn refused_message<K: HandleKind>(
    (command, field): (&str, &str),
    handle_type: u32,
    imported: ImportedPayload,
    (object, properties, restored_by): (&str, &str, &str),
) -> String {
    let export = K::names(handle_type);
    let import = K::names(imported.handle_type);
    let permanence = permanence(imported, restored_by);
    format!(
        "{command}(): {field} is {export}, but the current payload of {object} was imported as \
         {import} ({permanence}), and the driver's {properties}::exportFromImportedHandleTypes \
         for {export} does not include {import}: that payload cannot be exported as {export}."
    )
}

/// The finding of the rule (`id` of `command`, at `field`), the object named. `imported`: the
/// current payload's import (the rule is broken only with one; a placeholder type otherwise).
pub fn refused_finding<K: ExportedObject + HandleKind>(
    (command, id, field): (&'static str, &'static str, &'static str),
    (info, record): (&InfoFields, &K::Record),
    imported: Option<ImportedPayload>,
    (properties, restored_by): (&str, &str),
) -> Finding {
    let imported = imported.unwrap_or(ImportedPayload {
        handle_type: 0,
        temporary: false,
        exportable: None,
    });
    // `pGetFdInfo->fence` -> `pGetFdInfo->handleType`.
    let type_field = match field.rsplit_once("->") {
        Some((info, _)) => format!("{info}->handleType"),
        None => "handleType".to_owned(),
    };
    let message = refused_message::<K>(
        (command, &type_field),
        info.handle_type,
        imported,
        (&K::describe(record), properties, restored_by),
    );
    with_object::<K>(Finding::new(id, command, field, message), record)
}

/// How `imported` replaced the payload, as the messages say it (`restored_by`: what would have
/// restored a temporary import).
fn permanence(imported: ImportedPayload, restored_by: &str) -> String {
    if imported.temporary {
        format!("a temporary import, not restored since: {restored_by}")
    } else {
        "a permanent import".to_owned()
    }
}

/// The message of an export of `handle_type` that the current payload, imported (`imported`),
/// may not be exported as: its exporter was created exportable as `exportable` only
/// (`kind`: `semaphore` or `fence`; `create_info`: `VkExportSemaphoreCreateInfo` or
/// `VkExportFenceCreateInfo`; `restored_by`: what would have restored a temporary import).
pub fn import_not_exportable_message<K: HandleKind>(
    (command, field): (&str, &str),
    (handle_type, exportable): (u32, u32),
    imported: ImportedPayload,
    (object, kind, create_info, restored_by): (&str, &str, &str, &str),
) -> String {
    let export = K::names(handle_type);
    let import = K::names(imported.handle_type);
    let permanence = permanence(imported, restored_by);
    let exportable = if exportable == 0 {
        "no handle type".to_owned()
    } else {
        K::names(exportable)
    };
    format!(
        "{command}(): {field} is {export}, but the current payload of {object} was imported as \
         {import} ({permanence}) from an export the layer saw, whose {kind} was created with \
         {create_info}::handleTypes = {exportable}: an imported payload can be exported only as a \
         handle type the {kind} it was exported from was created exportable as."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handle_kinds::Semaphore;

    #[test]
    fn refused_only_for_a_certain_import_and_an_answer_without_its_type() {
        let answer = |from| SyncTypeSupport {
            features: SyncTypeSupport::EXPORTABLE,
            compatible: 0x1,
            export_from_imported: from,
        };
        let import = Some(ImportedPayload {
            handle_type: 0x80,
            temporary: false,
            exportable: None,
        });
        assert!(export_from_import_refused(import, Some(answer(0x1))));
        assert!(!export_from_import_refused(import, Some(answer(0x81))));
        assert!(!export_from_import_refused(import, None), "not asked");
        assert!(
            !export_from_import_refused(None, Some(answer(0))),
            "created"
        );
        let m = refused_message::<Semaphore>(
            ("vkGetSemaphoreFdKHR", "pGetFdInfo->handleType"),
            0x1,
            ImportedPayload {
                handle_type: 0x10,
                temporary: true,
                exportable: None,
            },
            (
                "VkSemaphore 0x1",
                "VkExternalSemaphoreProperties",
                "no wait",
            ),
        );
        assert!(
            m.contains("is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT"),
            "{m}"
        );
        assert!(m.contains("imported as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT"));
        assert!(m.contains("a temporary import, not restored since: no wait"));
    }
}
