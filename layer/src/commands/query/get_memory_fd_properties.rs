//! `vkGetMemoryFdPropertiesKHR`: the descriptor. Its rules are `rules::query::get_memory_fd_properties`.

use crate::os;
use crate::pipeline::query::{self, HandlePropertiesQuery, PropertiesFn};
use crate::rules::query::get_memory_fd_properties;
use crate::rules::query::QueryCommand;
use crate::state::DeviceState;
use ash::vk;
use std::ffi::c_int;

type Properties = vk::MemoryFdPropertiesKHR<'static>;

pub struct GetMemoryFdProperties;

impl HandlePropertiesQuery for GetMemoryFdProperties {
    type Handle = c_int;
    type Properties = Properties;
    type Own = get_memory_fd_properties::GetMemoryFdPropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_fd_properties::COMMAND;

    /// The fd's number.
    #[inline(always)]
    fn value(fd: c_int) -> i64 {
        i64::from(fd)
    }

    /// What the OS says of the fd (one `fcntl`).
    #[inline(always)]
    fn is_open(fd: c_int) -> Option<bool> {
        os::is_open(fd)
    }

    #[inline(always)]
    fn next(s: &DeviceState) -> Option<PropertiesFn<Self::Handle, Self::Properties>> {
        s.next.get_memory_fd_properties
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
        query::run_handle_query::<GetMemoryFdProperties>(
            device,
            handle_type,
            fd,
            p_memory_fd_properties,
        )
    }
}
