//! `vkGetMemoryFdPropertiesKHR`: the descriptor. Its rules are `rules::query::get_memory_fd_properties`.

use crate::os;
use crate::pipeline::query::{self, QueryEntry};
use crate::rules::query::get_memory_fd_properties;
use crate::rules::query::{QueryCall, QueryCommand};
use crate::state::DeviceState;
use ash::vk;
use std::ffi::c_int;

pub struct GetMemoryFdProperties;

type Properties = vk::MemoryFdPropertiesKHR<'static>;

impl QueryEntry for GetMemoryFdProperties {
    type Args = (vk::ExternalMemoryHandleTypeFlags, c_int, *mut Properties);
    type Own = get_memory_fd_properties::GetMemoryFdPropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_fd_properties::COMMAND;

    #[inline(always)]
    unsafe fn read(&(handle_type, fd, p_properties): &Self::Args) -> QueryCall {
        QueryCall {
            handle_type: handle_type.as_raw(),
            handle: i64::from(fd),
            handle_open: os::is_open(fd),
            // SAFETY: the app's pointer (this function's contract).
            output: unsafe { query::read_output(Self::RULES, p_properties.cast_const()) },
            output_loops: false,
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (handle_type, fd, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_fd_properties?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, handle_type, fd, p_properties) })
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_fd_properties_khr(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    fd: c_int,
    p_memory_fd_properties: *mut Properties,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        query::run::<GetMemoryFdProperties>(device, (handle_type, fd, p_memory_fd_properties))
    }
}
