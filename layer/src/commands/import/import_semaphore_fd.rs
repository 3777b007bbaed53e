//! `vkImportSemaphoreFdKHR`: the descriptor. Its rules are `rules::import::import_semaphore_fd`;
//! the export an opaque fd came from is `features::import_matching::state::semaphore_exports`'.
//! After a successful import the semaphore is marked imported (`state::semaphores`).

use super::sync_import::{self, FdImport, SyncImport};
use crate::features::import_matching::hooks::{export_of_another_kind, shared_semaphore_export_of};
use crate::features::import_matching::state::known_export::{ExportKind, KnownExport};
use crate::features::import_matching::state::semaphore_exports::{self, SemaphoreOrigin};
use crate::finding::Outcome;
use crate::handle_kinds::Semaphore;
use crate::pipeline::policy::report_only;
use crate::report::sync_sharing_calls::SyncSharingCommand;
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields};
use crate::rules::import::another_kind::{self, Importing};
use crate::rules::import::import_semaphore_fd::{
    self as rules, ImportArguments, ImportSemaphoreFdRules,
};
use crate::state::{DeviceState, SemaphoreRecord};
use crate::vuid;
use ash::vk;

pub struct ImportSemaphoreFd;

type Info = vk::ImportSemaphoreFdInfoKHR<'static>;

const OPAQUE_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();

impl SyncImport for ImportSemaphoreFd {
    type Info = Info;
    type Own = ImportSemaphoreFdRules;
    /// The info's flags and fd, the export the fd came from, and, where that is unknown, the
    /// export of another kind the layer knows the fd to be.
    type Arguments = (
        ImportArguments,
        Option<SemaphoreOrigin>,
        Option<Box<KnownExport>>,
    );
    const RULES: &'static ExportCommand<Self::Own, Semaphore> = &rules::COMMAND;
    const COUNTED: SyncSharingCommand = SyncSharingCommand::ImportSemaphoreFd;
    const FD: Option<FdImport<Info, Self::Own>> = Some(FdImport {
        fd: |i| i.fd,
        consumed: ImportSemaphoreFdRules::CONSUMED_FD,
    });
    const IN_FLIGHT: Option<(Self::Own, &'static str)> = Some((
        ImportSemaphoreFdRules::IN_FLIGHT,
        vuid::IMPORT_SEMAPHORE_FD_SEMAPHORE_01142,
    ));

    /// The export an opaque fd came from: one the layer holds, or, with a shared directory, one
    /// a process of the run recorded there.
    fn arguments(state: &DeviceState, info: &Info, fields: &InfoFields) -> Self::Arguments {
        let fd = info.fd;
        let opaque = fields.handle_type == OPAQUE_FD;
        let exporter = opaque
            .then(|| semaphore_exports::origin_of(fd).or_else(|| shared_origin(state, fd)))
            .flatten();
        let other = (opaque && exporter.is_none())
            .then(|| another_kind(state, fd))
            .flatten();
        let flags = info.flags.as_raw();
        (ImportArguments { flags, fd }, exporter, other)
    }

    /// The handle types the exporter the layer matched was created exportable as.
    #[inline(always)]
    fn exportable(args: &Self::Arguments) -> Option<u32> {
        args.1.and_then(|exporter| exporter.exportable)
    }

    fn evaluate(
        state: &DeviceState,
        info: &InfoFields,
        (args, exporter, other): &Self::Arguments,
        semaphore: &SemaphoreRecord,
    ) -> Self::Own {
        let importer = super::importer(state);
        rules::evaluate_arguments(info, args, semaphore, &importer, exporter.as_ref()).with(
            ImportSemaphoreFdRules::EXPORT_OF_ANOTHER_KIND,
            other.is_some(),
        )
    }

    fn describe(
        info: &InfoFields,
        (args, exporter, other): &Self::Arguments,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        rules::describe_arguments(info, args, semaphore, exporter.as_ref(), broken, outcome);
        if let (Some(other), true) = (other, broken.has(Self::Own::EXPORT_OF_ANOTHER_KIND)) {
            let into = format!(" into {}", Semaphore::describe(semaphore));
            outcome.block(another_kind::describe(&IMPORTING, args.fd, other, &into));
        }
    }
}

/// What the layer reports of a semaphore import of another kind's opaque fd.
const IMPORTING: Importing = Importing {
    id: vuid::FD_OF_ANOTHER_KIND,
    command: "vkImportSemaphoreFdKHR",
    field: "pImportSemaphoreFdInfo->fd",
    handle_type: "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
    kind: ExportKind::Semaphore,
};

/// The export of another kind (memory, a fence) the layer knows `fd` to be; the shared
/// directory's warnings reported.
#[cold]
#[inline(never)]
fn another_kind(state: &DeviceState, fd: i32) -> Option<Box<KnownExport>> {
    let report = |command: &'static str, outcome: &Outcome| report_only(state, command, outcome);
    export_of_another_kind(fd, ExportKind::Semaphore, rules::COMMAND.name, &report).map(Box::new)
}

/// The semaphore export of the payload of `fd` a process of the run (another, or this one in an
/// export the layer no longer holds) recorded in the shared directory, if any; the directory's
/// warnings reported. A payload with a file of its own is found by that file's identity; one
/// whose file is shared with other payloads (a driver's device file) by its open file
/// description, with `kcmp` against the exporting process's descriptor of it, as memory's.
#[cold]
#[inline(never)]
fn shared_origin(state: &DeviceState, fd: i32) -> Option<SemaphoreOrigin> {
    let report = |command: &'static str, outcome: &Outcome| report_only(state, command, outcome);
    shared_semaphore_export_of(fd, rules::COMMAND.name, &report)
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_semaphore_fd_khr(
    device: vk::Device,
    p_import_semaphore_fd_info: *const Info,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { sync_import::run::<ImportSemaphoreFd>(device, p_import_semaphore_fd_info) }
}
