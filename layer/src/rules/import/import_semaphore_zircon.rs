//! `vkImportSemaphoreZirconHandleFUCHSIA` (VK_FUCHSIA_external_semaphore): its names, IDs and
//! own rules. The shared rules of a command on one semaphore named by an info structure
//! (pointers, `sType`, `pNext`, the semaphore handle, the handle-type value, the device) are the
//! export pipeline's (`rules::export`); this file has the rules of the import itself:
//! - of the handle type and the semaphore ([`evaluate_values`]): `-handleType-04765`
//!   (`ZIRCON_EVENT`), `-semaphoreType-04768` (the importing semaphore is not a timeline one);
//! - of the flags ([`evaluate_arguments`]): `-flags-parameter`.
//!
//! What the Zircon handle is (`-zirconHandle-04766`, `-04767`) is the kernel's to know.

use super::import_semaphore_win32::import_flags;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::export::{with_object, ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, SemaphoreRecord};
use crate::vuid;
use ash::vk;

const ZIRCON_EVENT: u32 = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();
const TEMPORARY: u32 = vk::SemaphoreImportFlags::TEMPORARY.as_raw();

pub const COMMAND: ExportCommand<ImportSemaphoreZirconRules, Semaphore> = ExportCommand {
    name: "vkImportSemaphoreZirconHandleFUCHSIA",
    extension: "VK_FUCHSIA_external_semaphore",
    is_enabled: |e| e.fuchsia_external_semaphore,
    info: Some(InfoStructure {
        param: "pImportSemaphoreZirconHandleInfo",
        type_name: "VkImportSemaphoreZirconHandleInfoFUCHSIA",
        s_type: vk::StructureType::IMPORT_SEMAPHORE_ZIRCON_HANDLE_INFO_FUCHSIA,
        info_vuid: vuid::SEM_IMPORT_ZIRCON_INFO_PARAM,
        s_type_vuid: vuid::SEM_IMPORT_ZIRCON_STYPE,
        p_next_vuid: vuid::SEM_IMPORT_ZIRCON_PNEXT,
    }),
    // An import has no output: its descriptor never reports one NULL.
    output_param: "",
    device_vuid: vuid::SEM_IMPORT_ZIRCON_DEVICE_PARAM,
    output_vuid: "",
    object_vuid: vuid::SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM,
    other_device_vuid: vuid::SEMAPHORE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkImportSemaphoreZirconHandleFUCHSIA` of its own (the shared ones are
    /// `ExportRules`).
    pub struct ImportSemaphoreZirconRules {
        /// `VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-04765`: `ZIRCON_EVENT`.
        NOT_AN_EVENT,
        /// `VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphoreType-04768`: a binary
        /// semaphore.
        TIMELINE,
        /// `VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-flags-parameter`: bits other than
        /// `TEMPORARY`.
        FLAGS_VALUE,
        /// `VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764`: the latest submission
        /// that waited on or signaled it has not completed (`rules::import::fence_in_flight`).
        IN_FLIGHT,
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
) -> ImportSemaphoreZirconRules {
    let f = &record.facts;
    ImportSemaphoreZirconRules::NONE
        .with(
            ImportSemaphoreZirconRules::NOT_AN_EVENT,
            info.handle_type != ZIRCON_EVENT,
        )
        .with(ImportSemaphoreZirconRules::TIMELINE, f.known && f.timeline)
}

/// The rules of the flags (`VkImportSemaphoreZirconHandleInfoFUCHSIA::flags`).
pub fn evaluate_arguments(flags: u32) -> ImportSemaphoreZirconRules {
    ImportSemaphoreZirconRules::NONE.with(
        ImportSemaphoreZirconRules::FLAGS_VALUE,
        flags & !TEMPORARY != 0,
    )
}

fn describe_values(
    cmd: &ExportCommand<ImportSemaphoreZirconRules, Semaphore>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
    broken: ImportSemaphoreZirconRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let semaphore = Semaphore::describe(record);
    let finding = |id, field: &str, message: String| {
        with_object::<Semaphore>(Finding::new(id, name, field, message), record)
    };
    if broken.has(ImportSemaphoreZirconRules::NOT_AN_EVENT) {
        let field = "pImportSemaphoreZirconHandleInfo->handleType";
        outcome.push(finding(
            vuid::SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765,
            field,
            format!(
                "{name}(): {field} is {}; a semaphore imports a Zircon handle only as \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA (semaphore: \
                 {semaphore}).",
                Semaphore::names(info.handle_type)
            ),
        ));
    }
    if broken.has(ImportSemaphoreZirconRules::TIMELINE) {
        outcome.push(finding(
            vuid::SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768,
            "pImportSemaphoreZirconHandleInfo->semaphore",
            format!(
                "{name}(): pImportSemaphoreZirconHandleInfo->semaphore is {semaphore}, created \
                 with VkSemaphoreTypeCreateInfo::semaphoreType VK_SEMAPHORE_TYPE_TIMELINE: a \
                 Zircon event payload is imported only into a binary semaphore."
            ),
        ));
    }
}

/// The findings of the rules [`evaluate_arguments`] said are broken.
pub fn describe_arguments(
    flags: u32,
    record: &SemaphoreRecord,
    broken: ImportSemaphoreZirconRules,
    outcome: &mut Outcome,
) {
    if broken.has(ImportSemaphoreZirconRules::FLAGS_VALUE) {
        let name = COMMAND.name;
        let field = "pImportSemaphoreZirconHandleInfo->flags";
        outcome.push(with_object::<Semaphore>(
            Finding::new(
                vuid::SEM_IMPORT_ZIRCON_FLAGS_PARAM,
                name,
                field,
                format!(
                    "{name}(): {field} is {}, which has bits that are not \
                     VkSemaphoreImportFlagBits values (the only one is \
                     VK_SEMAPHORE_IMPORT_TEMPORARY_BIT) (semaphore: {}).",
                    import_flags(flags),
                    Semaphore::describe(record)
                ),
            ),
            record,
        ));
    }
}

#[cfg(test)]
#[path = "import_semaphore_zircon_tests.rs"]
mod tests;
