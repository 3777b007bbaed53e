//! `vkGetMemoryWin32HandleNV`: the descriptor. Its rules are `rules::export::get_memory_win32_handle_nv`. The command has
//! no info structure: its memory and handle type are plain parameters, read as one that is
//! always there.

use crate::args::StructArg;
use crate::boundary::Down;
use crate::features::driver_contract::rules::Returned;
use crate::handle_kinds::Memory;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::rules::export::get_memory_win32_handle_nv;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use ash::vk::{self, Handle};

pub struct GetMemoryWin32HandleNv;

impl ExportEntry for GetMemoryWin32HandleNv {
    type Args = (
        vk::DeviceMemory,
        vk::ExternalMemoryHandleTypeFlagsNV,
        *mut vk::HANDLE,
    );
    type Own = get_memory_win32_handle_nv::GetMemoryWin32HandleNvRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_win32_handle_nv::COMMAND;

    #[inline(always)]
    unsafe fn read(&(memory, handle_type, p_handle): &Self::Args) -> (StructArg<InfoFields>, bool) {
        let info = InfoFields {
            has_p_next: false,
            object: memory.as_raw(),
            handle_type: handle_type.as_raw(),
        };
        (StructArg::Valid(info), p_handle.is_null())
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (memory, handle_type, p_handle): Self::Args,
        judged: &Judged<'_, Memory>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_win32_handle_nv?;
        let output = (Returned::Win32Handle, p_handle.cast::<usize>().cast_const());
        // SAFETY: the output pointer passed the gate and is pointer-sized; the app's own
        // arguments, which passed the gate, go to the next layer's entry point.
        Some(unsafe {
            export::call_down_returning(s, Self::RULES, (judged, down), output, || {
                next(device, memory, handle_type, p_handle)
            })
        })
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_win32_handle_nv(
    device: vk::Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryWin32HandleNv>(device, (memory, handle_type, p_handle)) }
}
