//! `vkGetSemaphoreZirconHandleFUCHSIA`: the descriptor. Its rules are
//! `rules::export::get_semaphore_zircon_handle`.
//!
//! The handle it returns is not held to a driver contract yet.

use crate::boundary::Down;
use crate::commands::sync_support::export_from_import_refused;
use crate::handle_kinds::Semaphore;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::StructArg;
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::get_semaphore_zircon_handle;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;

pub struct GetSemaphoreZirconHandle;

type Info = vk::SemaphoreGetZirconHandleInfoFUCHSIA<'static>;

impl ExportEntry for GetSemaphoreZirconHandle {
    type Args = (*const Info, *mut vk::zx_handle_t);
    type Own = get_semaphore_zircon_handle::GetSemaphoreZirconHandleRules;
    type Object = Semaphore;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own, Semaphore> =
        &get_semaphore_zircon_handle::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_handle): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| {
                (i.p_next, i.semaphore, i.handle_type)
            })
        };
        (info, p_handle.is_null())
    }

    #[inline(always)]
    fn evaluate_history(
        state: &DeviceState,
        info: &InfoFields,
        semaphore: &SemaphoreRecord,
    ) -> Self::Own {
        let f = &semaphore.facts;
        let imported = f.payload.current_import().filter(|_| f.known);
        let refused =
            export_from_import_refused::<Semaphore>(state, info.handle_type, f.timeline, imported);
        Self::Own::NONE.with(Self::Own::IMPORTED_PAYLOAD_NOT_EXPORTABLE, refused)
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_handle): Self::Args,
        judged: &Judged<'_, Semaphore>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_semaphore_zircon_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_handle) });
        if result == vk::Result::SUCCESS {
            // A Zircon event has reference transference: the payload is shared.
            s.semaphores.payload_escaped(judged.object.semaphore);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_semaphore_zircon_handle_fuchsia(
    device: vk::Device,
    p_get_zircon_handle_info: *const Info,
    p_zircon_handle: *mut vk::zx_handle_t,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::GetSemaphoreZirconHandle);
    // SAFETY: the app's arguments to this command.
    unsafe {
        export::run::<GetSemaphoreZirconHandle>(device, (p_get_zircon_handle_info, p_zircon_handle))
    }
}
