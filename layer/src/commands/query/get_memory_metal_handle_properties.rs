//! `vkGetMemoryMetalHandlePropertiesEXT`: the descriptor. Its rules are
//! `rules::query::get_memory_metal_handle_properties`.

use crate::pipeline::query::{self, QueryEntry};
use crate::rules::query::get_memory_metal_handle_properties;
use crate::rules::query::{QueryCall, QueryCommand};
use crate::state::DeviceState;
use crate::vk_ext::MemoryMetalHandlePropertiesEXT as Properties;
use ash::vk;
use std::ffi::c_void;

pub struct GetMemoryMetalHandleProperties;

impl QueryEntry for GetMemoryMetalHandleProperties {
    type Args = (
        vk::ExternalMemoryHandleTypeFlags,
        *const c_void,
        *mut Properties,
    );
    type Own = get_memory_metal_handle_properties::GetMemoryMetalHandlePropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_metal_handle_properties::COMMAND;

    #[inline(always)]
    unsafe fn read(&(handle_type, p_handle, p_properties): &Self::Args) -> QueryCall {
        QueryCall {
            handle_type: handle_type.as_raw(),
            // The address only: the Metal object is never read.
            handle: p_handle as usize as i64,
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
        (handle_type, p_handle, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_metal_handle_properties?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, handle_type, p_handle, p_properties) })
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
        query::run::<GetMemoryMetalHandleProperties>(
            device,
            (handle_type, p_handle, p_memory_metal_handle_properties),
        )
    }
}
