//! `vkImportFenceFdKHR`: the descriptor. Its rules are `rules::import::import_fence_fd`; the
//! export an opaque fd came from is `features::import_matching::state::fence_exports`'. After a
//! successful import the fence is marked imported (`state::fences`).

use super::sync_import::{self, FdImport, SyncImport};
use crate::features::import_matching::state::fence_exports::{self, FenceOrigin};
use crate::finding::Outcome;
use crate::handle_kinds::Fence;
use crate::report::sync_sharing_calls::SyncSharingCommand;
use crate::rules::export::{ExportCommand, InfoFields};
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
    /// The info's flags and fd, and the export the fd came from.
    type Arguments = (ImportArguments, Option<FenceOrigin>);
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
    fn arguments(_: &DeviceState, info: &Info, fields: &InfoFields) -> Self::Arguments {
        let fd = info.fd;
        let exporter = (fields.handle_type == OPAQUE_FD)
            .then(|| fence_exports::origin_of(fd))
            .flatten();
        let flags = info.flags.as_raw();
        (ImportArguments { flags, fd }, exporter)
    }

    fn evaluate(
        state: &DeviceState,
        info: &InfoFields,
        (args, exporter): &Self::Arguments,
        _: &FenceRecord,
    ) -> Self::Own {
        rules::evaluate_arguments(info, args, &super::importer(state), exporter.as_ref())
    }

    fn describe(
        info: &InfoFields,
        (args, exporter): &Self::Arguments,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        rules::describe_arguments(info, args, fence, exporter.as_ref(), broken, outcome);
    }
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
