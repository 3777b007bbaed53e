//! `vkGetMemoryMetalHandlePropertiesEXT`: the descriptor. Its rules are
//! `rules::query::get_memory_metal_handle_properties`.

use crate::pipeline::query::{self, HandlePropertiesQuery, PropertiesFn};
use crate::rules::query::get_memory_metal_handle_properties;
use crate::rules::query::QueryCommand;
use crate::state::DeviceState;
use crate::vk_ext::MemoryMetalHandlePropertiesEXT as Properties;
use ash::vk;
use std::ffi::c_void;

pub struct GetMemoryMetalHandleProperties;

impl HandlePropertiesQuery for GetMemoryMetalHandleProperties {
    type Handle = *const c_void;
    type Properties = Properties;
    type Own = get_memory_metal_handle_properties::GetMemoryMetalHandlePropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_metal_handle_properties::COMMAND;

    /// The address only: the Metal object is never read.
    #[inline(always)]
    fn value(p_handle: *const c_void) -> i64 {
        p_handle as usize as i64
    }

    #[inline(always)]
    fn next(s: &DeviceState) -> Option<PropertiesFn<Self::Handle, Self::Properties>> {
        s.next.get_memory_metal_handle_properties
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_metal_handle_properties_ext(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    p_handle: *const c_void,
    p_memory_metal_handle_properties: *mut Properties,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        query::run_handle_query::<GetMemoryMetalHandleProperties>(
            device,
            handle_type,
            p_handle,
            p_memory_metal_handle_properties,
        )
    }
}
