//! `vkGetMemoryZirconHandleFUCHSIA`: the descriptor. Its rules are `rules::export::get_memory_zircon_handle`.

use crate::args::StructArg;
use crate::boundary::Down;
use crate::features::driver_contract::rules::Returned;
use crate::handle_kinds::Memory;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw;
use crate::rules::export::get_memory_zircon_handle;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use ash::vk;

pub struct GetMemoryZirconHandle;

type Info = vk::MemoryGetZirconHandleInfoFUCHSIA<'static>;

impl ExportEntry for GetMemoryZirconHandle {
    type Args = (*const Info, *mut vk::zx_handle_t);
    type Own = get_memory_zircon_handle::GetMemoryZirconHandleRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_zircon_handle::COMMAND;

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
        let next = s.next.get_memory_zircon_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_handle) });
        let returned = (result, Returned::ZirconHandle);
        export::hold_to_contract(s, Self::RULES, judged, returned, || {
            // SAFETY: not NULL (the gate); the driver wrote it (success).
            u64::from(unsafe { raw::read_out(p_handle) }.unwrap_or(0))
        });
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_zircon_handle_fuchsia(
    device: vk::Device,
    p_info: *const Info,
    p_handle: *mut vk::zx_handle_t,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryZirconHandle>(device, (p_info, p_handle)) }
}
