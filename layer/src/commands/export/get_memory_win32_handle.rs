//! `vkGetMemoryWin32HandleKHR`: the descriptor. Its rules are `rules::export::get_memory_win32_handle`; the device
//! remembers the NT handle types each memory was exported as (in its record's rare facts, `state::live_memory`), for 00663,
//! and the process the global share handles returned (`features::import_matching::state::kmt_exports`), for their imports.

use crate::args::StructArg;
use crate::boundary::Down;
use crate::commands::allocate::memory_lifecycle::{self, ExportedHandle};
use crate::features::driver_contract::rules::Returned;
use crate::handle_kinds::Memory;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw;
use crate::rules::export::get_memory_win32_handle;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::{DeviceState, MemoryRecord};
use ash::vk;

pub struct GetMemoryWin32Handle;

type Info = vk::MemoryGetWin32HandleInfoKHR<'static>;

impl ExportEntry for GetMemoryWin32Handle {
    type Args = (*const Info, *mut vk::HANDLE);
    type Own = get_memory_win32_handle::GetMemoryWin32HandleRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_win32_handle::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_handle): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.memory, i.handle_type))
        };
        (info, p_handle.is_null())
    }

    #[inline(always)]
    fn evaluate_history(
        state: &DeviceState,
        info: &InfoFields,
        memory: &MemoryRecord,
    ) -> Self::Own {
        let exported = state.memories.rare(memory).nt_handle_exports;
        get_memory_win32_handle::evaluate_history(info, exported)
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_handle): Self::Args,
        judged: &Judged<'_, Memory>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_win32_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_handle) });
        export::hold_to_contract(
            s,
            Self::RULES,
            judged,
            (result, Returned::Win32HandleKhr),
            || {
                // SAFETY: not NULL (the gate); the driver wrote it (success).
                unsafe { raw::read_out(p_handle) }.unwrap_or(0) as u64
            },
        );
        if result == vk::Result::SUCCESS {
            // The handle type the gate read and judged (a valid call's, or one with warnings).
            let t = vk::ExternalMemoryHandleTypeFlags::from_raw(judged.handle_type);
            // SAFETY: the gate found pHandle not NULL; the driver has just written it.
            let handle = unsafe { raw::read_out(p_handle) }.unwrap_or(0) as u64;
            memory_lifecycle::exported(s, judged.object, t, ExportedHandle::Win32(handle));
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_win32_handle_khr(
    device: vk::Device,
    p_info: *const Info,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryWin32Handle>(device, (p_info, p_handle)) }
}
