//! `vkGetMemoryMetalHandleEXT`: the descriptor. Its rules are `rules::metal`.

use crate::boundary::Down;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::pipeline::policy::report_driver_contract;
use crate::raw::{self, StructArg};
use crate::rules::driver_contract::Returned;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::{driver_contract, metal};
use crate::state::DeviceState;
use crate::vk_ext::MemoryGetMetalHandleInfoEXT as Info;
use ash::vk;
use std::ffi::c_void;

pub struct GetMemoryMetalHandle;

impl ExportEntry for GetMemoryMetalHandle {
    type Args = (*const Info, *mut *mut c_void);
    const RULES: &'static ExportCommand = &metal::COMMAND;

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
        judged: &Judged<'_>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_metal_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_handle) });
        if result == vk::Result::SUCCESS && judged.valid_call {
            // SAFETY: not NULL (the gate), and the driver wrote it.
            let handle = unsafe { raw::read_out(p_handle) }.map_or(0, |h| h as usize);
            let broken = driver_contract::evaluate_returned(handle);
            if !broken.is_empty() {
                let outcome = driver_contract::describe_returned(
                    Returned::MetalHandle,
                    judged.memory,
                    broken,
                );
                report_driver_contract(s, Self::RULES.name, outcome);
            }
        }
        Some(result)
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
