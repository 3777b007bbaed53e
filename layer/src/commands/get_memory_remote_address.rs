//! `vkGetMemoryRemoteAddressNV`: the descriptor. Its rules are `rules::rdma`.

use crate::boundary::Down;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::pipeline::policy::report_driver_contract;
use crate::raw::{self, StructArg};
use crate::rules::driver_contract::Returned;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::{driver_contract, rdma};
use crate::state::DeviceState;
use ash::vk;

pub struct GetMemoryRemoteAddress;

type Info = vk::MemoryGetRemoteAddressInfoNV<'static>;

impl ExportEntry for GetMemoryRemoteAddress {
    type Args = (*const Info, *mut vk::RemoteAddressNV);
    const RULES: &'static ExportCommand = &rdma::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_address): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.memory, i.handle_type))
        };
        (info, p_address.is_null())
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_address): Self::Args,
        judged: &Judged<'_>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_remote_address?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_address) });
        if result == vk::Result::SUCCESS && judged.valid_call {
            // SAFETY: not NULL (the gate), and the driver wrote it.
            let address = unsafe { raw::read_out(p_address.cast::<usize>()) }.unwrap_or(0);
            let broken = driver_contract::evaluate_returned(address);
            if !broken.is_empty() {
                let outcome = driver_contract::describe_returned(
                    Returned::RemoteAddress,
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
pub unsafe extern "system" fn get_memory_remote_address_nv(
    device: vk::Device,
    p_info: *const Info,
    p_address: *mut vk::RemoteAddressNV,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryRemoteAddress>(device, (p_info, p_address)) }
}
