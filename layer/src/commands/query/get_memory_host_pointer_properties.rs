//! `vkGetMemoryHostPointerPropertiesEXT`: the descriptor. Its rules are
//! `rules::query::get_memory_host_pointer_properties`.

use crate::pipeline::query::{self, QueryEntry};
use crate::rules::query::get_memory_host_pointer_properties;
use crate::rules::query::{QueryCall, QueryCommand};
use crate::state::DeviceState;
use ash::vk;
use std::ffi::c_void;

pub struct GetMemoryHostPointerProperties;

type Properties = vk::MemoryHostPointerPropertiesEXT<'static>;

impl QueryEntry for GetMemoryHostPointerProperties {
    type Args = (
        vk::ExternalMemoryHandleTypeFlags,
        *const c_void,
        *mut Properties,
    );
    type Own = get_memory_host_pointer_properties::GetMemoryHostPointerPropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_host_pointer_properties::COMMAND;

    #[inline(always)]
    unsafe fn read(&(handle_type, p_host_pointer, p_properties): &Self::Args) -> QueryCall {
        QueryCall {
            handle_type: handle_type.as_raw(),
            // The address only: the host memory is never read.
            handle: p_host_pointer as usize as i64,
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
        (handle_type, p_host_pointer, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_host_pointer_properties?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, handle_type, p_host_pointer, p_properties) })
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
        query::run::<GetMemoryHostPointerProperties>(
            device,
            (
                handle_type,
                p_host_pointer,
                p_memory_host_pointer_properties,
            ),
        )
    }
}
