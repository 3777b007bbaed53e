//! `vkImportSemaphoreWin32HandleKHR`: the descriptor. Its rules are
//! `rules::import::import_semaphore_win32`; the export a global share handle came from is
//! `features::import_matching::state::semaphore_kmt_exports`'. After a successful import the
//! semaphore is marked imported (`commands::import::semaphore_imported`).

use crate::boundary::Down;
use crate::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use crate::features::import_matching::state::semaphore_kmt_exports;
use crate::finding::Outcome;
use crate::handle_kinds::Semaphore;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::import_semaphore_win32::{
    self as rules, ImportArguments, ImportSemaphoreWin32Rules,
};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;

pub struct ImportSemaphoreWin32;

type Info = vk::ImportSemaphoreWin32HandleInfoKHR<'static>;

/// The info's flags, handle and name, and the export a global share handle came from (one the
/// layer recorded).
///
/// # Safety
/// `p_info` was read as a valid `VkImportSemaphoreWin32HandleInfoKHR` (the pipeline's gate).
unsafe fn arguments(
    p_info: *const Info,
    info: &InfoFields,
) -> (ImportArguments, Option<SemaphoreOrigin>) {
    // SAFETY: this function's contract.
    let read = unsafe { raw::read_out(p_info) };
    let Some(read) = read else {
        let none = ImportArguments {
            flags: 0,
            handle: 0,
            has_name: false,
        };
        return (none, None);
    };
    let args = ImportArguments {
        flags: read.flags.as_raw(),
        handle: read.handle as usize as u64,
        has_name: !read.name.is_null(),
    };
    let exporter = args
        .global_share_handle(info.handle_type)
        .and_then(semaphore_kmt_exports::origin_of);
    (args, exporter)
}

impl ExportEntry for ImportSemaphoreWin32 {
    type Args = (*const Info,);
    type Own = ImportSemaphoreWin32Rules;
    type Object = Semaphore;
    const RULES: &'static ExportCommand<Self::Own, Semaphore> = &rules::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info,): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| {
                (i.p_next, i.semaphore, i.handle_type)
            })
        };
        (info, false)
    }

    fn evaluate_arguments(
        _: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        semaphore: &SemaphoreRecord,
    ) -> Self::Own {
        // SAFETY: called only after the gate read the info as valid.
        let (args, exporter) = unsafe { arguments(p_info, info) };
        rules::evaluate_arguments(info, &args, semaphore, exporter.as_ref())
    }

    fn describe_arguments(
        _: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        // SAFETY: as in `evaluate_arguments`.
        let (args, exporter) = unsafe { arguments(p_info, info) };
        rules::describe_arguments(info, &args, semaphore, exporter.as_ref(), broken, outcome);
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info,): Self::Args,
        judged: &Judged<'_, Semaphore>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.import_semaphore_win32_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info) });
        if result == vk::Result::SUCCESS {
            // SAFETY: the info passed the gate (read as valid).
            let flags = unsafe { raw::read_out(p_info) }.map(|i| i.flags.as_raw());
            let (semaphore, handle_type) = (judged.object.semaphore, judged.handle_type);
            super::semaphore_imported(s, semaphore, handle_type, flags);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_semaphore_win32_handle_khr(
    device: vk::Device,
    p_import_semaphore_win32_handle_info: *const Info,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::ImportSemaphoreWin32Handle);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<ImportSemaphoreWin32>(device, (p_import_semaphore_win32_handle_info,)) }
}
