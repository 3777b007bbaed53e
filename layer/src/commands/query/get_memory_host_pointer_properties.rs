//! `vkGetMemoryHostPointerPropertiesEXT`: the descriptor. Its rules are
//! `rules::query::get_memory_host_pointer_properties`.

use crate::pipeline::query::{self, HandlePropertiesQuery, PropertiesFn};
use crate::rules::query::get_memory_host_pointer_properties;
use crate::rules::query::QueryCommand;
use crate::state::DeviceState;
use ash::vk;
use std::ffi::c_void;

type Properties = vk::MemoryHostPointerPropertiesEXT<'static>;

pub struct GetMemoryHostPointerProperties;

impl HandlePropertiesQuery for GetMemoryHostPointerProperties {
    type Handle = *const c_void;
    type Properties = Properties;
    type Own = get_memory_host_pointer_properties::GetMemoryHostPointerPropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_host_pointer_properties::COMMAND;

    /// The address only: the host memory is never read.
    #[inline(always)]
    fn value(p_host_pointer: *const c_void) -> i64 {
        p_host_pointer as usize as i64
    }

    #[inline(always)]
    fn next(s: &DeviceState) -> Option<PropertiesFn<Self::Handle, Self::Properties>> {
        s.next.get_memory_host_pointer_properties
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_host_pointer_properties_ext(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    p_host_pointer: *const c_void,
    p_memory_host_pointer_properties: *mut Properties,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        query::run_handle_query::<GetMemoryHostPointerProperties>(
            device,
            handle_type,
            p_host_pointer,
            p_memory_host_pointer_properties,
        )
    }
}
