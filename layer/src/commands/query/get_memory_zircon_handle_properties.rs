//! `vkGetMemoryZirconHandlePropertiesFUCHSIA`: the descriptor. Its rules are
//! `rules::query::get_memory_zircon_handle_properties`.

use crate::pipeline::query::{self, QueryEntry};
use crate::rules::query::get_memory_zircon_handle_properties;
use crate::rules::query::{QueryCall, QueryCommand};
use crate::state::DeviceState;
use ash::vk;

pub struct GetMemoryZirconHandleProperties;

type Properties = vk::MemoryZirconHandlePropertiesFUCHSIA<'static>;

impl QueryEntry for GetMemoryZirconHandleProperties {
    type Args = (
        vk::ExternalMemoryHandleTypeFlags,
        vk::zx_handle_t,
        *mut Properties,
    );
    type Own = get_memory_zircon_handle_properties::GetMemoryZirconHandlePropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_zircon_handle_properties::COMMAND;

    #[inline(always)]
    unsafe fn read(&(handle_type, zircon_handle, p_properties): &Self::Args) -> QueryCall {
        QueryCall {
            handle_type: handle_type.as_raw(),
            handle: i64::from(zircon_handle),
            handle_open: None,
            // SAFETY: the app's pointer (this function's contract).
            output: unsafe { query::read_output(Self::RULES, p_properties.cast_const()) },
            output_loops: false,
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (handle_type, zircon_handle, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_zircon_handle_properties?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, handle_type, zircon_handle, p_properties) })
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_zircon_handle_properties_fuchsia(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    zircon_handle: vk::zx_handle_t,
    p_memory_zircon_handle_properties: *mut Properties,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        query::run::<GetMemoryZirconHandleProperties>(
            device,
            (
                handle_type,
                zircon_handle,
                p_memory_zircon_handle_properties,
            ),
        )
    }
}
