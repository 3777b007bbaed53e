//! `vkGetMemoryZirconHandlePropertiesFUCHSIA`: the descriptor. Its rules are
//! `rules::query::get_memory_zircon_handle_properties`.

use crate::pipeline::query::{self, HandlePropertiesQuery, PropertiesFn};
use crate::rules::query::get_memory_zircon_handle_properties;
use crate::rules::query::QueryCommand;
use crate::state::DeviceState;
use ash::vk;

type Properties = vk::MemoryZirconHandlePropertiesFUCHSIA<'static>;

pub struct GetMemoryZirconHandleProperties;

impl HandlePropertiesQuery for GetMemoryZirconHandleProperties {
    type Handle = vk::zx_handle_t;
    type Properties = Properties;
    type Own = get_memory_zircon_handle_properties::GetMemoryZirconHandlePropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_zircon_handle_properties::COMMAND;

    /// The handle's value.
    #[inline(always)]
    fn value(zircon_handle: vk::zx_handle_t) -> i64 {
        i64::from(zircon_handle)
    }

    #[inline(always)]
    fn next(s: &DeviceState) -> Option<PropertiesFn<Self::Handle, Self::Properties>> {
        s.next.get_memory_zircon_handle_properties
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
        query::run_handle_query::<GetMemoryZirconHandleProperties>(
            device,
            handle_type,
            zircon_handle,
            p_memory_zircon_handle_properties,
        )
    }
}
