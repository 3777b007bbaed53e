//! `vkImportFenceWin32HandleKHR` (VK_KHR_external_fence_win32): its names, IDs and own rules.
//! The shared rules of a command on one fence named by an info structure (pointers, `sType`,
//! `pNext`, the fence handle, the device) are the export pipeline's (`rules::export`); the
//! structure has no `handleType-parameter` ID, so an undefined value is `-handleType-01457`
//! alone. This file has the rules of the import itself:
//! - of the handle type alone ([`evaluate_values`]): `-handleType-01457`;
//! - of the flags, handle and name ([`evaluate_arguments`]): `-flags-parameter`,
//!   `-handle-01462`, `-handleType-01459`.
//!
//! What a non-NULL handle or name refers to (01460, 01461, 01539, 01540) is the OS's to say;
//! `vkImportFenceWin32HandleKHR-fence-04448` (queue work not completed) needs queue state.

use super::import_fence_fd::{import_flags, TEMPORARY};
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{Fence, HandleKind};
use crate::rules::export::{with_object, ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, FenceRecord};
use crate::vuid;
use ash::vk;

const OPAQUE_WIN32: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32.as_raw();
const OPAQUE_WIN32_KMT: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw();

pub const COMMAND: ExportCommand<ImportFenceWin32HandleRules, Fence> = ExportCommand {
    name: "vkImportFenceWin32HandleKHR",
    extension: "VK_KHR_external_fence_win32",
    is_enabled: |e| e.khr_external_fence_win32,
    info: Some(InfoStructure {
        param: "pImportFenceWin32HandleInfo",
        type_name: "VkImportFenceWin32HandleInfoKHR",
        s_type: vk::StructureType::IMPORT_FENCE_WIN32_HANDLE_INFO_KHR,
        info_vuid: vuid::FENCE_IMPORT_WIN32_INFO_PARAM,
        s_type_vuid: vuid::FENCE_IMPORT_WIN32_STYPE,
        p_next_vuid: vuid::FENCE_IMPORT_WIN32_PNEXT,
    }),
    // An import has no output: its descriptor never reports one NULL.
    output_param: "",
    device_vuid: vuid::FENCE_IMPORT_WIN32_DEVICE_PARAM,
    output_vuid: "",
    object_vuid: vuid::FENCE_IMPORT_WIN32_FENCE_PARAM,
    other_device_vuid: vuid::FENCE_OF_OTHER_DEVICE,
    handle_type_vuid: None,
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkImportFenceWin32HandleKHR` of its own (the shared ones are
    /// `ExportRules`).
    pub struct ImportFenceWin32HandleRules {
        /// `VUID-VkImportFenceWin32HandleInfoKHR-handleType-01457`: `OPAQUE_WIN32` or
        /// `OPAQUE_WIN32_KMT`.
        NOT_A_WIN32_TYPE,
        /// `VUID-VkImportFenceWin32HandleInfoKHR-flags-parameter`: bits other than `TEMPORARY`.
        FLAGS_VALUE,
        /// `VUID-VkImportFenceWin32HandleInfoKHR-handle-01462`: a handle and a name.
        HANDLE_AND_NAME,
        /// `VUID-VkImportFenceWin32HandleInfoKHR-handleType-01459`: a name with a type other
        /// than `OPAQUE_WIN32`.
        NAME_NOT_NT,
        /// The fence's queue signal is still pending (`rules::import::fence_in_flight`).
        IN_FLIGHT,
    }
}

/// The members of `VkImportFenceWin32HandleInfoKHR` beyond the shared ones, as the rules read
/// them: the flags, and whether `handle` and `name` are NULL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportArguments {
    pub flags: u32,
    pub has_handle: bool,
    pub has_name: bool,
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    _: &FenceRecord,
) -> ImportFenceWin32HandleRules {
    let t = info.handle_type;
    ImportFenceWin32HandleRules::NONE.with(
        ImportFenceWin32HandleRules::NOT_A_WIN32_TYPE,
        t != OPAQUE_WIN32 && t != OPAQUE_WIN32_KMT,
    )
}

/// The rules of the flags, the handle and the name.
pub fn evaluate_arguments(
    info: &InfoFields,
    args: &ImportArguments,
) -> ImportFenceWin32HandleRules {
    ImportFenceWin32HandleRules::NONE
        .with(
            ImportFenceWin32HandleRules::FLAGS_VALUE,
            args.flags & !TEMPORARY != 0,
        )
        .with(
            ImportFenceWin32HandleRules::HANDLE_AND_NAME,
            args.has_handle && args.has_name,
        )
        .with(
            ImportFenceWin32HandleRules::NAME_NOT_NT,
            args.has_name && info.handle_type != OPAQUE_WIN32,
        )
}

fn describe_values(
    cmd: &ExportCommand<ImportFenceWin32HandleRules, Fence>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &FenceRecord,
    broken: ImportFenceWin32HandleRules,
    outcome: &mut Outcome,
) {
    if broken.has(ImportFenceWin32HandleRules::NOT_A_WIN32_TYPE) {
        let field = "pImportFenceWin32HandleInfo->handleType";
        outcome.push(with_object::<Fence>(
            Finding::new(
                vuid::FENCE_IMPORT_WIN32_HANDLE_TYPE_01457,
                cmd.name,
                field,
                format!(
                    "vkImportFenceWin32HandleKHR(): {field} is {}; a fence imports a Win32 \
                     handle only as VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT or \
                     VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT (fence: {}).",
                    Fence::names(info.handle_type),
                    Fence::describe(record)
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
    record: &FenceRecord,
    broken: ImportFenceWin32HandleRules,
    outcome: &mut Outcome,
) {
    let name = COMMAND.name;
    let fence = Fence::describe(record);
    let finding = |id, field: &str, message: String| {
        with_object::<Fence>(Finding::new(id, name, field, message), record)
    };
    if broken.has(ImportFenceWin32HandleRules::FLAGS_VALUE) {
        let field = "pImportFenceWin32HandleInfo->flags";
        outcome.push(finding(
            vuid::FENCE_IMPORT_WIN32_FLAGS_PARAM,
            field,
            format!(
                "{name}(): {field} is {}, which has bits that are not VkFenceImportFlagBits \
                 values (the only one is VK_FENCE_IMPORT_TEMPORARY_BIT) (fence: {fence}).",
                import_flags(args.flags)
            ),
        ));
    }
    let name_field = "pImportFenceWin32HandleInfo->name";
    if broken.has(ImportFenceWin32HandleRules::HANDLE_AND_NAME) {
        outcome.push(finding(
            vuid::FENCE_IMPORT_WIN32_HANDLE_01462,
            name_field,
            format!(
                "{name}(): pImportFenceWin32HandleInfo->handle and {name_field} are both not \
                 NULL; a fence payload is imported from a handle or by a name, not both \
                 (fence: {fence})."
            ),
        ));
    }
    if broken.has(ImportFenceWin32HandleRules::NAME_NOT_NT) {
        outcome.push(finding(
            vuid::FENCE_IMPORT_WIN32_HANDLE_TYPE_01459,
            name_field,
            format!(
                "{name}(): {name_field} is not NULL, but pImportFenceWin32HandleInfo->handleType \
                 is {}; only VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT (an NT handle) \
                 imports a named object (fence: {fence}).",
                Fence::names(info.handle_type)
            ),
        ));
    }
}

#[cfg(test)]
#[path = "import_fence_win32_handle_tests.rs"]
mod tests;
