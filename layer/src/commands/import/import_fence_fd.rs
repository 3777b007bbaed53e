//! `vkImportFenceFdKHR`: the descriptor. Its rules are `rules::import::import_fence_fd`; the
//! export an opaque fd came from is `features::import_matching::state::fence_exports`'. After a
//! successful import the fence is marked imported (`state::fences`).

use super::sync_import::{self, FdImport, SyncImport};
use crate::features::import_matching::hooks::export_of_another_kind;
use crate::features::import_matching::state::fence_exports::{self, FenceOrigin};
use crate::features::import_matching::state::known_export::{ExportKind, KnownExport};
use crate::finding::Outcome;
use crate::handle_kinds::Fence;
use crate::pipeline::policy::report_only;
use crate::report::sync_sharing_calls::SyncSharingCommand;
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields};
use crate::rules::import::another_kind::{self, Importing};
use crate::rules::import::import_fence_fd::{self as rules, ImportArguments, ImportFenceFdRules};
use crate::state::{DeviceState, FenceRecord};
use crate::vuid;
use ash::vk;

pub struct ImportFenceFd;

type Info = vk::ImportFenceFdInfoKHR<'static>;

const OPAQUE_FD: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw();

impl SyncImport for ImportFenceFd {
    type Info = Info;
    type Own = ImportFenceFdRules;
    /// The info's flags and fd, the export the fd came from, and, where that is unknown, the
    /// export of another kind the layer knows the fd to be.
    type Arguments = (
        ImportArguments,
        Option<FenceOrigin>,
        Option<Box<KnownExport>>,
    );
    const RULES: &'static ExportCommand<Self::Own, Fence> = &rules::COMMAND;
    const COUNTED: SyncSharingCommand = SyncSharingCommand::ImportFenceFd;
    const FD: Option<FdImport<Info, Self::Own>> = Some(FdImport {
        fd: |i| i.fd,
        consumed: ImportFenceFdRules::CONSUMED_FD,
    });
    const IN_FLIGHT: Option<(Self::Own, &'static str)> = Some((
        ImportFenceFdRules::IN_FLIGHT,
        vuid::IMPORT_FENCE_FD_FENCE_01463,
    ));

    /// The export an opaque fd came from: one the layer holds.
    fn arguments(state: &DeviceState, info: &Info, fields: &InfoFields) -> Self::Arguments {
        let fd = info.fd;
        let opaque = fields.handle_type == OPAQUE_FD;
        let exporter = opaque.then(|| fence_exports::origin_of(fd)).flatten();
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
        _: &FenceRecord,
    ) -> Self::Own {
        rules::evaluate_arguments(info, args, &super::importer(state), exporter.as_ref())
            .with(ImportFenceFdRules::EXPORT_OF_ANOTHER_KIND, other.is_some())
    }

    fn describe(
        info: &InfoFields,
        (args, exporter, other): &Self::Arguments,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        rules::describe_arguments(info, args, fence, exporter.as_ref(), broken, outcome);
        if let (Some(other), true) = (other, broken.has(Self::Own::EXPORT_OF_ANOTHER_KIND)) {
            let into = format!(" into {}", Fence::describe(fence));
            outcome.block(another_kind::describe(&IMPORTING, args.fd, other, &into));
        }
    }
}

/// What the layer reports of a fence import of another kind's opaque fd.
const IMPORTING: Importing = Importing {
    id: vuid::FD_OF_ANOTHER_KIND,
    command: "vkImportFenceFdKHR",
    field: "pImportFenceFdInfo->fd",
    handle_type: "VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT",
    kind: ExportKind::Fence,
};

/// The export of another kind (memory, a semaphore) the layer knows `fd` to be; the shared
/// directory's warnings reported.
#[cold]
#[inline(never)]
fn another_kind(state: &DeviceState, fd: i32) -> Option<Box<KnownExport>> {
    let report = |command: &'static str, outcome: &Outcome| report_only(state, command, outcome);
    export_of_another_kind(fd, ExportKind::Fence, rules::COMMAND.name, &report).map(Box::new)
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_fence_fd_khr(
    device: vk::Device,
    p_import_fence_fd_info: *const Info,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { sync_import::run::<ImportFenceFd>(device, p_import_fence_fd_info) }
}
