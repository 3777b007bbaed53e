//! `vkImportSemaphoreWin32HandleKHR` (VK_KHR_external_semaphore_win32): its names, IDs and own
//! rules. The shared rules of a command on one semaphore named by an info structure (pointers,
//! `sType`, `pNext`, the semaphore handle, the device) are the export pipeline's
//! (`rules::export`); `handleType` has no `-parameter` rule of its own (`noautovalidity` in the
//! registry: `-handleType-01140` covers every value). This file has the rules of the import
//! itself:
//! - of the handle type alone ([`evaluate_values`]): `-handleType-01140`;
//! - of the flags, handle and name ([`evaluate_arguments`]): `-flags-parameter`, `-handle-01469`,
//!   `-handleType-01466`;
//! - of the import against the semaphore a global share (KMT) handle was exported from, when the
//!   layer saw that export and the semaphore still holds that payload ([`SemaphoreOrigin`],
//!   `semaphore_kmt_exports`): `-handleType-03261`, `-03262`, `-flags-03322`. NT handles are not
//!   matched to exports: their values may be closed and reused.
//!
//! An import whose handle came from a semaphore of another type (03262), or that takes a
//! timeline semaphore's payload temporarily (03322), is not passed to the driver, as
//! `vkImportSemaphoreFdKHR`'s 03264 and 03323 are not.

use crate::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::export::{with_object, ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, SemaphoreRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

type Types = vk::ExternalSemaphoreHandleTypeFlags;
const OPAQUE_WIN32: u32 = Types::OPAQUE_WIN32.as_raw();
const KMT: u32 = Types::OPAQUE_WIN32_KMT.as_raw();
const D3D12_FENCE: u32 = Types::D3D12_FENCE.as_raw();
const TEMPORARY: u32 = vk::SemaphoreImportFlags::TEMPORARY.as_raw();

pub const COMMAND: ExportCommand<ImportSemaphoreWin32Rules, Semaphore> = ExportCommand {
    name: "vkImportSemaphoreWin32HandleKHR",
    extension: "VK_KHR_external_semaphore_win32",
    is_enabled: |e| e.khr_external_semaphore_win32,
    info: Some(InfoStructure {
        param: "pImportSemaphoreWin32HandleInfo",
        type_name: "VkImportSemaphoreWin32HandleInfoKHR",
        s_type: vk::StructureType::IMPORT_SEMAPHORE_WIN32_HANDLE_INFO_KHR,
        info_vuid: vuid::SEM_IMPORT_WIN32_INFO_PARAM,
        s_type_vuid: vuid::SEM_IMPORT_WIN32_STYPE,
        p_next_vuid: vuid::SEM_IMPORT_WIN32_PNEXT,
    }),
    // An import has no output: its descriptor never reports one NULL.
    output_param: "",
    device_vuid: vuid::SEM_IMPORT_WIN32_DEVICE_PARAM,
    output_vuid: "",
    object_vuid: vuid::SEM_IMPORT_WIN32_SEMAPHORE_PARAM,
    other_device_vuid: vuid::SEMAPHORE_OF_OTHER_DEVICE,
    // `noautovalidity`: 01140 says which values are allowed.
    handle_type_vuid: None,
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkImportSemaphoreWin32HandleKHR` of its own (the shared ones are
    /// `ExportRules`).
    pub struct ImportSemaphoreWin32Rules {
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01140`: `OPAQUE_WIN32`,
        /// `OPAQUE_WIN32_KMT` or `D3D12_FENCE`.
        NOT_A_WIN32_TYPE,
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-parameter`: bits other than
        /// `TEMPORARY`.
        FLAGS_VALUE,
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-handle-01469`: a handle and a name.
        HANDLE_AND_NAME,
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01466`: a name with a type that
        /// has none.
        NAME_OF_UNNAMED_TYPE,
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03261`: create flags unlike the
        /// exporter's.
        FLAGS_OF_EXPORTER,
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03262`: a type unlike the
        /// exporter's.
        TYPE_OF_EXPORTER,
        /// `VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-03322`: a timeline's payload,
        /// temporarily.
        TEMPORARY_FROM_TIMELINE,
    }
}

impl ImportSemaphoreWin32Rules {
    /// The rules whose import is not passed to the driver: the handle cannot be this
    /// semaphore's.
    pub const BLOCKING: Self = Self::TYPE_OF_EXPORTER.and(Self::TEMPORARY_FROM_TIMELINE);
}

/// The members of `VkImportSemaphoreWin32HandleInfoKHR` beyond the shared ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportArguments {
    pub flags: u32,
    /// `handle`, as a number (0 is NULL).
    pub handle: u64,
    /// `name` is not NULL.
    pub has_name: bool,
}

impl ImportArguments {
    /// The global share handle the import names, if it names one by `handle` alone: the one
    /// [`evaluate_arguments`] looks up among the exports the layer saw.
    pub fn global_share_handle(&self, handle_type: u32) -> Option<u64> {
        (handle_type == KMT && self.handle != 0 && !self.has_name).then_some(self.handle)
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    _: &SemaphoreRecord,
) -> ImportSemaphoreWin32Rules {
    let t = info.handle_type;
    ImportSemaphoreWin32Rules::NONE.with(
        ImportSemaphoreWin32Rules::NOT_A_WIN32_TYPE,
        !matches!(t, OPAQUE_WIN32 | KMT | D3D12_FENCE),
    )
}

/// The rules of the flags, handle and name, and of the import against `exporter`, the semaphore
/// the global share handle was exported from (an export the layer saw, the semaphore still
/// holding that payload), if known.
pub fn evaluate_arguments(
    info: &InfoFields,
    args: &ImportArguments,
    record: &SemaphoreRecord,
    exporter: Option<&SemaphoreOrigin>,
) -> ImportSemaphoreWin32Rules {
    let t = info.handle_type;
    let broken = ImportSemaphoreWin32Rules::NONE
        .with(
            ImportSemaphoreWin32Rules::FLAGS_VALUE,
            args.flags & !TEMPORARY != 0,
        )
        .with(
            ImportSemaphoreWin32Rules::HANDLE_AND_NAME,
            args.handle != 0 && args.has_name,
        )
        .with(
            ImportSemaphoreWin32Rules::NAME_OF_UNNAMED_TYPE,
            args.has_name && t != OPAQUE_WIN32 && t != D3D12_FENCE,
        );
    let known = record.facts.known;
    let Some(exporter) = exporter else {
        // Whatever semaphore the handle came from: of this one's type (03262), so a timeline
        // semaphore's payload, which cannot be imported temporarily. (A D3D12 fence comes from
        // no Vulkan semaphore.)
        let opaque = matches!(t, OPAQUE_WIN32 | KMT);
        return broken.with(
            ImportSemaphoreWin32Rules::TEMPORARY_FROM_TIMELINE,
            opaque && args.flags & TEMPORARY != 0 && known && record.facts.timeline,
        );
    };
    broken
        .with(
            ImportSemaphoreWin32Rules::FLAGS_OF_EXPORTER,
            known && record.facts.create_flags != exporter.create_flags,
        )
        .with(
            ImportSemaphoreWin32Rules::TYPE_OF_EXPORTER,
            known && record.facts.timeline != exporter.timeline,
        )
        .with(
            ImportSemaphoreWin32Rules::TEMPORARY_FROM_TIMELINE,
            args.flags & TEMPORARY != 0 && exporter.timeline,
        )
}

fn describe_values(
    cmd: &ExportCommand<ImportSemaphoreWin32Rules, Semaphore>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
    broken: ImportSemaphoreWin32Rules,
    outcome: &mut Outcome,
) {
    if broken.has(ImportSemaphoreWin32Rules::NOT_A_WIN32_TYPE) {
        let field = "pImportSemaphoreWin32HandleInfo->handleType";
        outcome.push(with_object::<Semaphore>(
            Finding::new(
                vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_01140,
                cmd.name,
                field,
                format!(
                    "{}(): {field} is {}; a semaphore imports from a Windows handle only as \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT, \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT or \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT (semaphore: {}).",
                    cmd.name,
                    Semaphore::names(info.handle_type),
                    Semaphore::describe(record)
                ),
            ),
            record,
        ));
    }
}

/// The findings of the rules [`evaluate_arguments`] said are broken.
pub fn describe_arguments(
    info: &InfoFields,
    args: &ImportArguments,
    record: &SemaphoreRecord,
    exporter: Option<&SemaphoreOrigin>,
    broken: ImportSemaphoreWin32Rules,
    outcome: &mut Outcome,
) {
    let name = COMMAND.name;
    let semaphore = Semaphore::describe(record);
    let handle_type = Semaphore::names(info.handle_type);
    let flags = import_flags(args.flags);
    let finding = |id, field: &str, message: String| {
        with_object::<Semaphore>(Finding::new(id, name, field, message), record)
    };
    let flags_field = "pImportSemaphoreWin32HandleInfo->flags";
    let name_field = "pImportSemaphoreWin32HandleInfo->name";
    let type_field = "pImportSemaphoreWin32HandleInfo->handleType";
    if broken.has(ImportSemaphoreWin32Rules::FLAGS_VALUE) {
        outcome.push(finding(
            vuid::SEM_IMPORT_WIN32_FLAGS_PARAM,
            flags_field,
            format!(
                "{name}(): {flags_field} is {flags}, which has bits that are not \
                 VkSemaphoreImportFlagBits values (the only one is \
                 VK_SEMAPHORE_IMPORT_TEMPORARY_BIT) (semaphore: {semaphore})."
            ),
        ));
    }
    if broken.has(ImportSemaphoreWin32Rules::HANDLE_AND_NAME) {
        outcome.push(finding(
            vuid::SEM_IMPORT_WIN32_HANDLE_01469,
            name_field,
            format!(
                "{name}(): pImportSemaphoreWin32HandleInfo->handle is {:#x} and {name_field} is \
                 not NULL: a semaphore imports a handle or a name, not both (semaphore: \
                 {semaphore}).",
                args.handle
            ),
        ));
    }
    if broken.has(ImportSemaphoreWin32Rules::NAME_OF_UNNAMED_TYPE) {
        outcome.push(finding(
            vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_01466,
            name_field,
            format!(
                "{name}(): {name_field} is not NULL and {type_field} is {handle_type}: only \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT and \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT payloads are imported by name \
                 (semaphore: {semaphore})."
            ),
        ));
    }
    let Some(exporter) = exporter else {
        if broken.has(ImportSemaphoreWin32Rules::TEMPORARY_FROM_TIMELINE) {
            outcome.block(finding(
                vuid::SEM_IMPORT_WIN32_FLAGS_03322,
                flags_field,
                format!(
                    "{name}(): {flags_field} is {flags}, but the semaphore imported into is a \
                     timeline semaphore ({semaphore}): a {handle_type} handle imported into it must have been exported \
                     from a timeline semaphore \
                     (VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03262: the \
                     semaphoreType must match), and a timeline semaphore's payload cannot be \
                     imported temporarily. Import it permanently (flags 0). The call was not \
                     passed to the driver."
                ),
            ));
        }
        return;
    };
    let from = describe_exporter(exporter);
    let blocked = if broken.has(ImportSemaphoreWin32Rules::BLOCKING) {
        " The call was not passed to the driver."
    } else {
        ""
    };
    let handle = args.handle;
    if broken.has(ImportSemaphoreWin32Rules::FLAGS_OF_EXPORTER) {
        outcome.push(finding(
            vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_03261,
            type_field,
            format!(
                "{name}(): pImportSemaphoreWin32HandleInfo->handle ({handle:#x}) is a global \
                 share handle exported from {from}, created with VkSemaphoreCreateInfo::flags \
                 {:#x}; {semaphore} was created with flags {:#x}. An OPAQUE_WIN32_KMT import \
                 needs the same flags.",
                exporter.create_flags.as_raw(),
                record.facts.create_flags.as_raw()
            ),
        ));
    }
    if broken.has(ImportSemaphoreWin32Rules::TYPE_OF_EXPORTER) {
        outcome.block(finding(
            vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_03262,
            type_field,
            format!(
                "{name}(): pImportSemaphoreWin32HandleInfo->handle ({handle:#x}) is a global \
                 share handle exported from {from}, and is imported into {semaphore}: \
                 VkSemaphoreTypeCreateInfo::semaphoreType must match that of the semaphore the \
                 handle was exported from.{blocked}"
            ),
        ));
    }
    if broken.has(ImportSemaphoreWin32Rules::TEMPORARY_FROM_TIMELINE) {
        outcome.block(finding(
            vuid::SEM_IMPORT_WIN32_FLAGS_03322,
            flags_field,
            format!(
                "{name}(): {flags_field} is {flags}, but pImportSemaphoreWin32HandleInfo->handle \
                 ({handle:#x}) was exported from {from}: a timeline semaphore's payload cannot \
                 be imported temporarily (semaphore: {semaphore}).{blocked}"
            ),
        ));
    }
}

/// `VkSemaphore 0x.. (a binary semaphore of VkDevice 0x.., ...)`: the export's side.
fn describe_exporter(exporter: &SemaphoreOrigin) -> String {
    let ty = if exporter.timeline {
        "timeline"
    } else {
        "binary"
    };
    format!(
        "{} (a {ty} semaphore of {}, exported with vkGetSemaphoreWin32HandleKHR as \
         VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT in this process, and still \
         holding that payload)",
        vk_names::handle(vk::ObjectType::SEMAPHORE, exporter.semaphore),
        vk_names::handle(vk::ObjectType::DEVICE, exporter.device)
    )
}

/// `0` or `VK_SEMAPHORE_IMPORT_TEMPORARY_BIT` or the raw value.
pub(crate) fn import_flags(flags: u32) -> String {
    match flags {
        0 => "0".to_owned(),
        TEMPORARY => "VK_SEMAPHORE_IMPORT_TEMPORARY_BIT".to_owned(),
        other => format!("{other:#x}"),
    }
}

#[cfg(test)]
#[path = "import_semaphore_win32_tests.rs"]
mod tests;
