//! `vkImportSemaphoreFdKHR` (VK_KHR_external_semaphore_fd): its names, IDs and own rules. The
//! shared rules of a command on one semaphore named by an info structure (pointers, `sType`,
//! `pNext`, the semaphore handle, the handle-type value, the device) are the export pipeline's
//! (`rules::export`); this file has the rules of the import itself:
//! - of the handle type alone ([`evaluate_values`]): `-handleType-01143`;
//! - of the flags ([`evaluate_arguments`]): `-flags-parameter`, `-handleType-07307`;
//! - of the import against the semaphore the fd was exported from, when the layer saw that
//!   export, in this process or (the shared directory) another process of the run
//!   ([`SemaphoreOrigin`]): `-handleType-03263`, `-03264`, `-flags-03323`, `-fd-01544`.
//!
//! An import whose fd came from a semaphore of another type (03264), or that takes a timeline
//! semaphore's payload temporarily (03323), is not passed to the driver: the fd is known to be
//! unusable for that semaphore, and drivers do not survive it (SwiftShader dereferences a
//! binary semaphore's payload as a timeline's and crashes).

use crate::features::import_matching::rules::import_match::exporting_process;
use crate::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use crate::finding::{Finding, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::export::{with_object, ExportCommand, ExportedObject, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::device_groups::DeviceSet;
use crate::state::{DeviceFacts, SemaphoreRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

const OPAQUE_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();
const TEMPORARY: u32 = vk::SemaphoreImportFlags::TEMPORARY.as_raw();

pub const COMMAND: ExportCommand<ImportSemaphoreFdRules, Semaphore> = ExportCommand {
    name: "vkImportSemaphoreFdKHR",
    extension: "VK_KHR_external_semaphore_fd",
    is_enabled: |e| e.khr_external_semaphore_fd,
    info: Some(InfoStructure {
        param: "pImportSemaphoreFdInfo",
        type_name: "VkImportSemaphoreFdInfoKHR",
        s_type: vk::StructureType::IMPORT_SEMAPHORE_FD_INFO_KHR,
        info_vuid: vuid::SEM_IMPORT_FD_INFO_PARAM,
        s_type_vuid: vuid::SEM_IMPORT_FD_STYPE,
        p_next_vuid: vuid::SEM_IMPORT_FD_PNEXT,
    }),
    // An import has no output: its descriptor never reports one NULL.
    output_param: "",
    device_vuid: vuid::SEM_IMPORT_FD_DEVICE_PARAM,
    output_vuid: "",
    object_vuid: vuid::SEM_IMPORT_FD_SEMAPHORE_PARAM,
    other_device_vuid: vuid::SEMAPHORE_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::SEM_IMPORT_FD_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkImportSemaphoreFdKHR` of its own (the shared ones are `ExportRules`).
    pub struct ImportSemaphoreFdRules {
        /// `VUID-VkImportSemaphoreFdInfoKHR-handleType-01143`: `OPAQUE_FD` or `SYNC_FD`.
        NOT_AN_FD_TYPE,
        /// `VUID-VkImportSemaphoreFdInfoKHR-flags-parameter`: bits other than `TEMPORARY`.
        FLAGS_VALUE,
        /// `VUID-VkImportSemaphoreFdInfoKHR-handleType-07307`: `SYNC_FD` without `TEMPORARY`.
        COPY_NOT_TEMPORARY,
        /// `VUID-VkImportSemaphoreFdInfoKHR-handleType-03263`: create flags unlike the exporter's.
        FLAGS_OF_EXPORTER,
        /// `VUID-VkImportSemaphoreFdInfoKHR-handleType-03264`: a type unlike the exporter's.
        TYPE_OF_EXPORTER,
        /// `VUID-VkImportSemaphoreFdInfoKHR-flags-03323`: a timeline's payload, temporarily.
        TEMPORARY_FROM_TIMELINE,
        /// `VUID-VkImportSemaphoreFdInfoKHR-fd-01544`: exported by another device or driver.
        OTHER_DEVICE_OR_DRIVER,
        /// `EXPORTCHECK-fd-imported-twice`: an fd an earlier successful import handed to the
        /// driver (`features::fd_ownership`, which writes its finding).
        CONSUMED_FD,
        /// `EXPORTCHECK-fd-of-another-kind`: an `OPAQUE_FD` the layer knows as a memory object's
        /// or a fence's export (`rules::import::another_kind`, which writes its finding).
        EXPORT_OF_ANOTHER_KIND,
        /// `VUID-vkImportSemaphoreFdKHR-semaphore-01142`: the latest submission that waited on
        /// or signaled it has not completed (`rules::import::fence_in_flight`).
        IN_FLIGHT,
    }
}

impl ImportSemaphoreFdRules {
    /// The rules whose import is not passed to the driver: the fd cannot be this semaphore's,
    /// or is the driver's already.
    pub const BLOCKING: Self = Self::TYPE_OF_EXPORTER
        .and(Self::TEMPORARY_FROM_TIMELINE)
        .and(Self::CONSUMED_FD)
        .and(Self::EXPORT_OF_ANOTHER_KIND);
}

/// The members of `VkImportSemaphoreFdInfoKHR` beyond the shared ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportArguments {
    pub flags: u32,
    pub fd: i32,
}

/// The importing device's physical devices (their `deviceUUID`s) and `driverUUID`, where the
/// layer knows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Importer {
    pub devices: DeviceSet,
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
}

impl Importer {
    /// The exporting device, made of `devices` under the driver of `driver_uuid`, is
    /// known to be on none of this one's physical devices, or under another driver (an unknown
    /// UUID on either side: not known). Devices of one device group share their physical
    /// devices whichever member each was created with.
    pub fn differs_from(
        &self,
        devices: DeviceSet,
        driver_uuid: Option<[u8; vk::UUID_SIZE]>,
    ) -> bool {
        let other_driver = matches!((self.driver_uuid, driver_uuid), (Some(a), Some(b)) if a != b);
        other_driver || self.devices.known_apart(devices)
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    _: &SemaphoreRecord,
) -> ImportSemaphoreFdRules {
    let t = info.handle_type;
    ImportSemaphoreFdRules::NONE.with(
        ImportSemaphoreFdRules::NOT_AN_FD_TYPE,
        t != OPAQUE_FD && t != SYNC_FD,
    )
}

/// The rules of the flags, and of the import against `exporter`, the semaphore the fd was
/// exported from (an `OPAQUE_FD` export the layer saw), if known.
pub fn evaluate_arguments(
    info: &InfoFields,
    args: &ImportArguments,
    record: &SemaphoreRecord,
    importer: &Importer,
    exporter: Option<&SemaphoreOrigin>,
) -> ImportSemaphoreFdRules {
    let temporary = args.flags & TEMPORARY != 0;
    let broken = ImportSemaphoreFdRules::NONE
        .with(
            ImportSemaphoreFdRules::FLAGS_VALUE,
            args.flags & !TEMPORARY != 0,
        )
        .with(
            ImportSemaphoreFdRules::COPY_NOT_TEMPORARY,
            info.handle_type == SYNC_FD && !temporary,
        );
    let opaque = info.handle_type == OPAQUE_FD;
    let known = record.facts.known;
    let Some(exporter) = exporter else {
        // Whatever semaphore the fd came from: of this one's type (03264), so a timeline
        // semaphore's payload, which cannot be imported temporarily.
        return broken.with(
            ImportSemaphoreFdRules::TEMPORARY_FROM_TIMELINE,
            opaque && temporary && known && record.facts.timeline,
        );
    };
    broken
        .with(
            ImportSemaphoreFdRules::FLAGS_OF_EXPORTER,
            opaque && known && record.facts.create_flags != exporter.create_flags,
        )
        .with(
            ImportSemaphoreFdRules::TYPE_OF_EXPORTER,
            opaque && known && record.facts.timeline != exporter.timeline,
        )
        .with(
            ImportSemaphoreFdRules::TEMPORARY_FROM_TIMELINE,
            temporary && exporter.timeline,
        )
        .with(
            ImportSemaphoreFdRules::OTHER_DEVICE_OR_DRIVER,
            opaque && importer.differs_from(exporter.devices, exporter.driver_uuid),
        )
}

fn describe_values(
    cmd: &ExportCommand<ImportSemaphoreFdRules, Semaphore>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &SemaphoreRecord,
    broken: ImportSemaphoreFdRules,
    outcome: &mut Outcome,
) {
    if broken.has(ImportSemaphoreFdRules::NOT_AN_FD_TYPE) {
        let field = "pImportSemaphoreFdInfo->handleType";
        outcome.push(with_object::<Semaphore>(
            Finding::new(
                vuid::SEM_IMPORT_FD_HANDLE_TYPE_01143,
                cmd.name,
                field,
                format!(
                    "vkImportSemaphoreFdKHR(): {field} is {}; a semaphore imports from a file \
                     descriptor only as VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT or \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT (semaphore: {}).",
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
    broken: ImportSemaphoreFdRules,
    outcome: &mut Outcome,
) {
    let name = COMMAND.name;
    let semaphore = Semaphore::describe(record);
    let handle_type = Semaphore::names(info.handle_type);
    let flags = import_flags(args.flags);
    let finding = |id, field: &str, message: String| {
        with_object::<Semaphore>(Finding::new(id, name, field, message), record)
    };
    let flags_field = "pImportSemaphoreFdInfo->flags";
    if broken.has(ImportSemaphoreFdRules::FLAGS_VALUE) {
        outcome.push(finding(
            vuid::SEM_IMPORT_FD_FLAGS_PARAM,
            flags_field,
            format!(
                "{name}(): {flags_field} is {flags}, which has bits that are not \
                 VkSemaphoreImportFlagBits values (the only one is \
                 VK_SEMAPHORE_IMPORT_TEMPORARY_BIT) (semaphore: {semaphore})."
            ),
        ));
    }
    if broken.has(ImportSemaphoreFdRules::COPY_NOT_TEMPORARY) {
        outcome.push(finding(
            vuid::SEM_IMPORT_FD_HANDLE_TYPE_07307,
            flags_field,
            format!(
                "{name}(): pImportSemaphoreFdInfo->handleType is {handle_type}, which has copy \
                 payload transference semantics, but {flags_field} ({flags}) lacks \
                 VK_SEMAPHORE_IMPORT_TEMPORARY_BIT: a sync file can only be imported \
                 temporarily (semaphore: {semaphore})."
            ),
        ));
    }
    let Some(exporter) = exporter else {
        if broken.has(ImportSemaphoreFdRules::TEMPORARY_FROM_TIMELINE) {
            outcome.block(finding(
                vuid::SEM_IMPORT_FD_FLAGS_03323,
                flags_field,
                format!(
                    "{name}(): {flags_field} is {flags}, but the semaphore imported into is a \
                     timeline semaphore ({semaphore}): an OPAQUE_FD imported into it must have been exported from a \
                     timeline semaphore (VUID-VkImportSemaphoreFdInfoKHR-handleType-03264: the \
                     semaphoreType must match), and a timeline semaphore's payload cannot be \
                     imported temporarily. Import it permanently (flags 0). The call was not \
                     passed to the driver."
                ),
            ));
        }
        return;
    };
    let from = describe_exporter(exporter);
    let type_field = "pImportSemaphoreFdInfo->handleType";
    let blocked = if broken.has(ImportSemaphoreFdRules::BLOCKING) {
        " The call was not passed to the driver."
    } else {
        ""
    };
    if broken.has(ImportSemaphoreFdRules::FLAGS_OF_EXPORTER) {
        outcome.push(finding(
            vuid::SEM_IMPORT_FD_HANDLE_TYPE_03263,
            type_field,
            format!(
                "{name}(): pImportSemaphoreFdInfo->fd ({}) is an opaque fd exported from {from}, \
                 created with VkSemaphoreCreateInfo::flags {:#x}; {semaphore} was created with \
                 flags {:#x}. An OPAQUE_FD import needs the same flags.",
                args.fd,
                exporter.create_flags.as_raw(),
                record.facts.create_flags.as_raw()
            ),
        ));
    }
    if broken.has(ImportSemaphoreFdRules::TYPE_OF_EXPORTER) {
        outcome.block(finding(
            vuid::SEM_IMPORT_FD_HANDLE_TYPE_03264,
            type_field,
            format!(
                "{name}(): pImportSemaphoreFdInfo->fd ({}) is an opaque fd exported from {from}, \
                 and is imported into {semaphore}: VkSemaphoreTypeCreateInfo::semaphoreType must \
                 match that of the semaphore the fd was exported from.{blocked}",
                args.fd
            ),
        ));
    }
    if broken.has(ImportSemaphoreFdRules::TEMPORARY_FROM_TIMELINE) {
        outcome.block(finding(
            vuid::SEM_IMPORT_FD_FLAGS_03323,
            flags_field,
            format!(
                "{name}(): {flags_field} is {flags}, but pImportSemaphoreFdInfo->fd ({}) was \
                 exported from {from}: a timeline semaphore's payload cannot be imported \
                 temporarily (semaphore: {semaphore}).{blocked}",
                args.fd
            ),
        ));
    }
    if broken.has(ImportSemaphoreFdRules::OTHER_DEVICE_OR_DRIVER) {
        outcome.push(finding(
            vuid::SEM_IMPORT_FD_FD_01544,
            "pImportSemaphoreFdInfo->fd",
            format!(
                "{name}(): pImportSemaphoreFdInfo->fd ({}) is an opaque fd exported from {from}, \
                 whose physical devices have other deviceUUIDs, or another driverUUID, than this \
                 device's: \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT payloads are shared only between \
                 devices of the same deviceUUID and driverUUID (external semaphore handle types \
                 compatibility) (semaphore: {semaphore}).",
                args.fd
            ),
        ));
    }
}

/// `VkSemaphore 0x.. (a binary semaphore of VkDevice 0x..)`: the export's side, and the
/// process that exported it when the shared directory told of it (its handles are that
/// process's).
fn describe_exporter(exporter: &SemaphoreOrigin) -> String {
    let ty = if exporter.timeline {
        "timeline"
    } else {
        "binary"
    };
    let semaphore = vk_names::handle(vk::ObjectType::SEMAPHORE, exporter.semaphore);
    let device = vk_names::handle(vk::ObjectType::DEVICE, exporter.device);
    match &exporter.process {
        None => format!(
            "{semaphore} (a {ty} semaphore of {device}, exported with vkGetSemaphoreFdKHR in \
             this process)"
        ),
        Some(process) => format!(
            "{semaphore} (a {ty} semaphore of {device}, exported with vkGetSemaphoreFdKHR by \
             {}; that process's handles)",
            exporting_process(process)
        ),
    }
}

/// `0` or `VK_SEMAPHORE_IMPORT_TEMPORARY_BIT` or the raw value.
fn import_flags(flags: u32) -> String {
    match flags {
        0 => "0".to_owned(),
        TEMPORARY => "VK_SEMAPHORE_IMPORT_TEMPORARY_BIT".to_owned(),
        other => format!("{other:#x}"),
    }
}

#[cfg(test)]
#[path = "import_semaphore_fd_tests.rs"]
mod tests;
