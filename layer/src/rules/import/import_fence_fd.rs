//! `vkImportFenceFdKHR` (VK_KHR_external_fence_fd): its names, IDs and own rules. The shared
//! rules of a command on one fence named by an info structure (pointers, `sType`, `pNext`, the
//! fence handle, the handle-type value, the device) are the export pipeline's (`rules::export`);
//! this file has the rules of the import itself:
//! - of the handle type alone ([`evaluate_values`]): `-handleType-01464`;
//! - of the flags ([`evaluate_arguments`]): `-flags-parameter`, `-handleType-07306`;
//! - of the import against the device an opaque fd was exported from, when the layer saw that
//!   export ([`FenceOrigin`]): `-fd-01541`.
//!
//! A `SYNC_FD` fd of -1 is a valid, signaled sync file: nothing here judges a sync fd's value.
//! `vkImportFenceFdKHR-fence-01463` (queue work not completed) is `rules::import::fence_in_flight`'s,
//! from the fence's signal state and the driver's `vkGetFenceStatus`.

use super::import_semaphore_fd::Importer;
use crate::features::import_matching::state::fence_exports::FenceOrigin;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{Fence, HandleKind};
use crate::rules::export::{with_object, ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, FenceRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

const OPAQUE_FD: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();
pub(crate) const TEMPORARY: u32 = vk::FenceImportFlags::TEMPORARY.as_raw();

pub const COMMAND: ExportCommand<ImportFenceFdRules, Fence> = ExportCommand {
    name: "vkImportFenceFdKHR",
    extension: "VK_KHR_external_fence_fd",
    is_enabled: |e| e.khr_external_fence_fd,
    info: Some(InfoStructure {
        param: "pImportFenceFdInfo",
        type_name: "VkImportFenceFdInfoKHR",
        s_type: vk::StructureType::IMPORT_FENCE_FD_INFO_KHR,
        info_vuid: vuid::FENCE_IMPORT_FD_INFO_PARAM,
        s_type_vuid: vuid::FENCE_IMPORT_FD_STYPE,
        p_next_vuid: vuid::FENCE_IMPORT_FD_PNEXT,
    }),
    // An import has no output: its descriptor never reports one NULL.
    output_param: "",
    device_vuid: vuid::FENCE_IMPORT_FD_DEVICE_PARAM,
    output_vuid: "",
    object_vuid: vuid::FENCE_IMPORT_FD_FENCE_PARAM,
    other_device_vuid: vuid::FENCE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::FENCE_IMPORT_FD_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkImportFenceFdKHR` of its own (the shared ones are `ExportRules`).
    pub struct ImportFenceFdRules {
        /// `VUID-VkImportFenceFdInfoKHR-handleType-01464`: `OPAQUE_FD` or `SYNC_FD`.
        NOT_AN_FD_TYPE,
        /// `VUID-VkImportFenceFdInfoKHR-flags-parameter`: bits other than `TEMPORARY`.
        FLAGS_VALUE,
        /// `VUID-VkImportFenceFdInfoKHR-handleType-07306`: `SYNC_FD` without `TEMPORARY`.
        COPY_NOT_TEMPORARY,
        /// `VUID-VkImportFenceFdInfoKHR-fd-01541`: an opaque fd exported by another device or
        /// driver.
        OTHER_DEVICE_OR_DRIVER,
        /// The fence's queue signal is still pending (`rules::import::fence_in_flight`).
        IN_FLIGHT,
        /// `EXPORTCHECK-fd-imported-twice`: an fd an earlier successful import handed to the
        /// driver (`features::fd_ownership`, which writes its finding; it blocks the call).
        CONSUMED_FD,
        /// `EXPORTCHECK-fd-of-another-kind`: an `OPAQUE_FD` the layer knows as a memory object's
        /// or a semaphore's export (`rules::import::another_kind`, which writes its finding; it
        /// blocks the call).
        EXPORT_OF_ANOTHER_KIND,
    }
}

/// The members of `VkImportFenceFdInfoKHR` beyond the shared ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportArguments {
    pub flags: u32,
    pub fd: i32,
}

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, info: &InfoFields, _: &FenceRecord) -> ImportFenceFdRules {
    let t = info.handle_type;
    ImportFenceFdRules::NONE.with(
        ImportFenceFdRules::NOT_AN_FD_TYPE,
        t != OPAQUE_FD && t != SYNC_FD,
    )
}

/// The rules of the flags, and of the import against `exporter`, the fence an `OPAQUE_FD` fd
/// was exported from (an export the layer saw), if known.
pub fn evaluate_arguments(
    info: &InfoFields,
    args: &ImportArguments,
    importer: &Importer,
    exporter: Option<&FenceOrigin>,
) -> ImportFenceFdRules {
    let other_device = exporter.is_some_and(|e| {
        info.handle_type == OPAQUE_FD && importer.differs_from(e.devices, e.driver_uuid)
    });
    ImportFenceFdRules::NONE
        .with(
            ImportFenceFdRules::FLAGS_VALUE,
            args.flags & !TEMPORARY != 0,
        )
        .with(
            ImportFenceFdRules::COPY_NOT_TEMPORARY,
            info.handle_type == SYNC_FD && args.flags & TEMPORARY == 0,
        )
        .with(ImportFenceFdRules::OTHER_DEVICE_OR_DRIVER, other_device)
}

fn describe_values(
    cmd: &ExportCommand<ImportFenceFdRules, Fence>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &FenceRecord,
    broken: ImportFenceFdRules,
    outcome: &mut Outcome,
) {
    if broken.has(ImportFenceFdRules::NOT_AN_FD_TYPE) {
        let field = "pImportFenceFdInfo->handleType";
        outcome.push(with_object::<Fence>(
            Finding::new(
                vuid::FENCE_IMPORT_FD_HANDLE_TYPE_01464,
                cmd.name,
                field,
                format!(
                    "vkImportFenceFdKHR(): {field} is {}; a fence imports from a file descriptor \
                     only as VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT or \
                     VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT (fence: {}).",
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
    exporter: Option<&FenceOrigin>,
    broken: ImportFenceFdRules,
    outcome: &mut Outcome,
) {
    let name = COMMAND.name;
    let fence = Fence::describe(record);
    let flags = import_flags(args.flags);
    let finding = |id, field: &str, message: String| {
        with_object::<Fence>(Finding::new(id, name, field, message), record)
    };
    let flags_field = "pImportFenceFdInfo->flags";
    if broken.has(ImportFenceFdRules::FLAGS_VALUE) {
        outcome.push(finding(
            vuid::FENCE_IMPORT_FD_FLAGS_PARAM,
            flags_field,
            format!(
                "{name}(): {flags_field} is {flags}, which has bits that are not \
                 VkFenceImportFlagBits values (the only one is VK_FENCE_IMPORT_TEMPORARY_BIT) \
                 (fence: {fence})."
            ),
        ));
    }
    if broken.has(ImportFenceFdRules::COPY_NOT_TEMPORARY) {
        outcome.push(finding(
            vuid::FENCE_IMPORT_FD_HANDLE_TYPE_07306,
            flags_field,
            format!(
                "{name}(): pImportFenceFdInfo->handleType is {}, which has copy payload \
                 transference semantics, but {flags_field} ({flags}) lacks \
                 VK_FENCE_IMPORT_TEMPORARY_BIT: a sync file can only be imported temporarily \
                 (fence: {fence}).",
                Fence::names(info.handle_type)
            ),
        ));
    }
    if let (Some(exporter), true) = (
        exporter,
        broken.has(ImportFenceFdRules::OTHER_DEVICE_OR_DRIVER),
    ) {
        outcome.push(finding(
            vuid::FENCE_IMPORT_FD_FD_01541,
            "pImportFenceFdInfo->fd",
            format!(
                "{name}(): pImportFenceFdInfo->fd ({}) is an opaque fd exported from {} (a fence \
                 of {}, exported with vkGetFenceFdKHR in this process), whose physical devices \
                 have other deviceUUIDs, or another driverUUID, than this device's: \
                 VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT payloads are shared only between \
                 devices of the same deviceUUID and driverUUID (external fence handle types \
                 compatibility) (fence: {fence}).",
                args.fd,
                vk_names::handle(vk::ObjectType::FENCE, exporter.fence),
                vk_names::handle(vk::ObjectType::DEVICE, exporter.device)
            ),
        ));
    }
}

/// `0` or `VK_FENCE_IMPORT_TEMPORARY_BIT` or the raw value.
pub(crate) fn import_flags(flags: u32) -> String {
    match flags {
        0 => "0".to_owned(),
        TEMPORARY => "VK_FENCE_IMPORT_TEMPORARY_BIT".to_owned(),
        other => format!("{other:#x}"),
    }
}

#[cfg(test)]
#[path = "import_fence_fd_tests.rs"]
mod tests;
