//! `vkImportSemaphoreWin32HandleKHR`: the descriptor. Its rules are
//! `rules::import::import_semaphore_win32`; the export a global share handle came from is
//! `features::import_matching::state::semaphore_kmt_exports`'. After a successful import the
//! semaphore is marked imported (`commands::import::semaphore_imported`).

use super::sync_import::{self, SyncImport};
use crate::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use crate::features::import_matching::state::semaphore_kmt_exports;
use crate::finding::Outcome;
use crate::handle_kinds::Semaphore;
use crate::report::sync_sharing_calls::SyncSharingCommand;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::import_semaphore_win32::{
    self as rules, ImportArguments, ImportSemaphoreWin32Rules,
};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;

pub struct ImportSemaphoreWin32;

type Info = vk::ImportSemaphoreWin32HandleInfoKHR<'static>;

impl SyncImport for ImportSemaphoreWin32 {
    type Info = Info;
    type Own = ImportSemaphoreWin32Rules;
    /// The info's flags, handle and name, and the export a global share handle came from.
    type Arguments = (ImportArguments, Option<SemaphoreOrigin>);
    const RULES: &'static ExportCommand<Self::Own, Semaphore> = &rules::COMMAND;
    const COUNTED: SyncSharingCommand = SyncSharingCommand::ImportSemaphoreWin32Handle;

    /// A global share handle is matched to an export the layer recorded.
    fn arguments(_: &DeviceState, info: &Info, fields: &InfoFields) -> Self::Arguments {
        let args = ImportArguments {
            flags: info.flags.as_raw(),
            handle: info.handle as usize as u64,
            has_name: !info.name.is_null(),
        };
        let exporter = args
            .global_share_handle(fields.handle_type)
            .and_then(semaphore_kmt_exports::origin_of);
        (args, exporter)
    }

    /// The handle types the exporter the layer matched was created exportable as.
    #[inline(always)]
    fn exportable(args: &Self::Arguments) -> Option<u32> {
        args.1.and_then(|exporter| exporter.exportable)
    }

    fn evaluate(
        _: &DeviceState,
        info: &InfoFields,
        (args, exporter): &Self::Arguments,
        semaphore: &SemaphoreRecord,
    ) -> Self::Own {
        rules::evaluate_arguments(info, args, semaphore, exporter.as_ref())
    }

    fn describe(
        info: &InfoFields,
        (args, exporter): &Self::Arguments,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        rules::describe_arguments(info, args, semaphore, exporter.as_ref(), broken, outcome);
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_semaphore_win32_handle_khr(
    device: vk::Device,
    p_import_semaphore_win32_handle_info: *const Info,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        sync_import::run::<ImportSemaphoreWin32>(device, p_import_semaphore_win32_handle_info)
    }
}
