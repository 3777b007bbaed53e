//! `vkGetSemaphoreWin32HandleKHR`: the descriptor. Its rules are
//! `rules::export::get_semaphore_win32_handle`; after an NT handle export that succeeded, the
//! semaphore's record remembers its type (`SemaphoreFacts::nt_handle_exports`), for 01127.
//!
//! A global share (KMT) handle it returns from a semaphore whose payload is its created one is
//! recorded with that semaphore (`features::import_matching::state::semaphore_kmt_exports`), for
//! `vkImportSemaphoreWin32HandleKHR` to check an import of it against.
//!
//! The handle it returns is not held to a driver contract yet.

use crate::boundary::Down;
use crate::commands::sync_support::export_from_import_refused;
use crate::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use crate::features::import_matching::state::semaphore_kmt_exports;
use crate::handle_kinds::Semaphore;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::get_semaphore_win32_handle::{self, is_counted_nt_export};
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;

pub struct GetSemaphoreWin32Handle;

type Info = vk::SemaphoreGetWin32HandleInfoKHR<'static>;

impl ExportEntry for GetSemaphoreWin32Handle {
    type Args = (*const Info, *mut vk::HANDLE);
    type Own = get_semaphore_win32_handle::GetSemaphoreWin32HandleRules;
    type Object = Semaphore;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own, Semaphore> =
        &get_semaphore_win32_handle::COMMAND;

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
        let next = s.next.get_semaphore_win32_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_handle) });
        let semaphore = judged.object;
        if result == vk::Result::SUCCESS {
            // Every type the command exports has reference transference: the payload is shared.
            s.semaphores.payload_escaped(semaphore.semaphore);
        }
        if result == vk::Result::SUCCESS && is_counted_nt_export(judged.handle_type, semaphore) {
            let t = vk::ExternalSemaphoreHandleTypeFlags::from_raw(judged.handle_type);
            s.semaphores.nt_handle_exported(semaphore.semaphore, t);
        }
        if result == vk::Result::SUCCESS && judged.handle_type == KMT {
            // SAFETY: the gate found pHandle not NULL; the driver has just written it.
            if let Some(handle) = unsafe { raw::read_out(p_handle) } {
                remember_kmt_export(s, semaphore, handle as u64);
            }
        }
        Some(result)
    }
}

const KMT: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw();

/// A global share handle of `semaphore`, recorded with what it was created with when its payload
/// is the created one (nothing imported into it), for its imports to be checked against.
#[inline(never)]
fn remember_kmt_export(state: &DeviceState, semaphore: &SemaphoreRecord, handle: u64) {
    let f = &semaphore.facts;
    if handle == 0 || !f.known || f.imported {
        return;
    }
    let origin = SemaphoreOrigin {
        device: semaphore.device,
        semaphore: semaphore.semaphore,
        timeline: f.timeline,
        create_flags: f.create_flags,
        driver_uuid: state.driver_uuid,
        devices: state.physical_devices.set(),
        exportable: f.created_export_types(),
        process: None,
    };
    semaphore_kmt_exports::remember(handle, origin);
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_semaphore_win32_handle_khr(
    device: vk::Device,
    p_get_win32_handle_info: *const Info,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::GetSemaphoreWin32Handle);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetSemaphoreWin32Handle>(device, (p_get_win32_handle_info, p_handle)) }
}
