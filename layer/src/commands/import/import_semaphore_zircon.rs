//! `vkImportSemaphoreZirconHandleFUCHSIA`: the descriptor. Its rules are
//! `rules::import::import_semaphore_zircon`. After a successful import the semaphore is marked
//! imported (`commands::import::semaphore_imported`).

use crate::boundary::Down;
use crate::finding::Outcome;
use crate::handle_kinds::Semaphore;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::import_semaphore_zircon::{self as rules, ImportSemaphoreZirconRules};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;

pub struct ImportSemaphoreZircon;

type Info = vk::ImportSemaphoreZirconHandleInfoFUCHSIA<'static>;

/// The info's flags.
///
/// # Safety
/// `p_info` was read as a valid `VkImportSemaphoreZirconHandleInfoFUCHSIA` (the pipeline's gate).
unsafe fn flags(p_info: *const Info) -> u32 {
    // SAFETY: this function's contract.
    unsafe { raw::read_out(p_info) }.map_or(0, |i| i.flags.as_raw())
}

impl ExportEntry for ImportSemaphoreZircon {
    type Args = (*const Info,);
    type Own = ImportSemaphoreZirconRules;
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
        _: &InfoFields,
        _: &SemaphoreRecord,
    ) -> Self::Own {
        // SAFETY: called only after the gate read the info as valid.
        rules::evaluate_arguments(unsafe { flags(p_info) })
    }

    fn describe_arguments(
        _: &DeviceState,
        &(p_info,): &Self::Args,
        _: &InfoFields,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        // SAFETY: as in `evaluate_arguments`.
        rules::describe_arguments(unsafe { flags(p_info) }, semaphore, broken, outcome);
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info,): Self::Args,
        judged: &Judged<'_, Semaphore>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.import_semaphore_zircon_handle?;
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
pub unsafe extern "system" fn import_semaphore_zircon_handle_fuchsia(
    device: vk::Device,
    p_import_semaphore_zircon_handle_info: *const Info,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::ImportSemaphoreZirconHandle);
    // SAFETY: the app's arguments to this command.
    unsafe {
        export::run::<ImportSemaphoreZircon>(device, (p_import_semaphore_zircon_handle_info,))
    }
}
