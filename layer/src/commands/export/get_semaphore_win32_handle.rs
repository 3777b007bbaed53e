//! `vkGetSemaphoreWin32HandleKHR`: the descriptor. Its rules are
//! `rules::export::get_semaphore_win32_handle`; after an NT handle export that succeeded, the
//! semaphore's record remembers its type (`SemaphoreFacts::nt_handle_exports`), for 01127.
//!
//! The handle it returns is not held to a driver contract yet.

use crate::boundary::Down;
use crate::handle_kinds::Semaphore;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::StructArg;
use crate::rules::export::get_semaphore_win32_handle::{self, is_counted_nt_export};
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use ash::vk;

pub struct GetSemaphoreWin32Handle;

type Info = vk::SemaphoreGetWin32HandleInfoKHR<'static>;

impl ExportEntry for GetSemaphoreWin32Handle {
    type Args = (*const Info, *mut vk::HANDLE);
    type Own = get_semaphore_win32_handle::GetSemaphoreWin32HandleRules;
    type Object = Semaphore;
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
        if result == vk::Result::SUCCESS && is_counted_nt_export(judged.handle_type, semaphore) {
            let t = vk::ExternalSemaphoreHandleTypeFlags::from_raw(judged.handle_type);
            s.semaphores.nt_handle_exported(semaphore.semaphore, t);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_semaphore_win32_handle_khr(
    device: vk::Device,
    p_get_win32_handle_info: *const Info,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetSemaphoreWin32Handle>(device, (p_get_win32_handle_info, p_handle)) }
}
