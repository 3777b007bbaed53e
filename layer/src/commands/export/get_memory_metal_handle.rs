//! `vkGetMemoryMetalHandleEXT`: the descriptor. Its rules are `rules::export::get_memory_metal_handle`.

use crate::args::StructArg;
use crate::boundary::Down;
use crate::features::driver_contract::rules::Returned;
use crate::handle_kinds::Memory;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::rules::export::get_memory_metal_handle;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use crate::vk_ext::MemoryGetMetalHandleInfoEXT as Info;
use ash::vk;
use std::ffi::c_void;

pub struct GetMemoryMetalHandle;

impl ExportEntry for GetMemoryMetalHandle {
    type Args = (*const Info, *mut *mut c_void);
    type Own = get_memory_metal_handle::GetMemoryMetalHandleRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_metal_handle::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_handle): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.memory, i.handle_type))
        };
        (info, p_handle.is_null())
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_handle): Self::Args,
        judged: &Judged<'_, Memory>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_metal_handle?;
        let output = (Returned::MetalHandle, p_handle.cast::<usize>().cast_const());
        // SAFETY: the output pointer passed the gate and is pointer-sized; the app's own
        // arguments, which passed the gate, go to the next layer's entry point.
        Some(unsafe {
            export::call_down_returning(s, Self::RULES, (judged, down), output, || {
                next(device, p_info, p_handle)
            })
        })
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_metal_handle_ext(
    device: vk::Device,
    p_info: *const Info,
    p_handle: *mut *mut c_void,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryMetalHandle>(device, (p_info, p_handle)) }
}
