//! `vkGetMemoryRemoteAddressNV`: the descriptor. Its rules are `rules::export::get_memory_remote_address`.

use crate::args::StructArg;
use crate::boundary::Down;
use crate::features::driver_contract::rules::Returned;
use crate::handle_kinds::Memory;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::rules::export::get_memory_remote_address;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use ash::vk;

pub struct GetMemoryRemoteAddress;

type Info = vk::MemoryGetRemoteAddressInfoNV<'static>;

impl ExportEntry for GetMemoryRemoteAddress {
    type Args = (*const Info, *mut vk::RemoteAddressNV);
    type Own = get_memory_remote_address::GetMemoryRemoteAddressRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_remote_address::COMMAND;

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
        judged: &Judged<'_, Memory>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_remote_address?;
        let output = (
            Returned::RemoteAddress,
            p_address.cast::<usize>().cast_const(),
        );
        // SAFETY: the output pointer passed the gate and is pointer-sized; the app's own
        // arguments, which passed the gate, go to the next layer's entry point.
        Some(unsafe {
            export::call_down_returning(s, Self::RULES, (judged, down), output, || {
                next(device, p_info, p_address)
            })
        })
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
