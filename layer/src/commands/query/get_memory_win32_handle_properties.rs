//! `vkGetMemoryWin32HandlePropertiesKHR`: the descriptor. Its rules are
//! `rules::query::get_memory_win32_handle_properties`.

use crate::pipeline::query::{self, HandlePropertiesQuery, PropertiesFn};
use crate::rules::query::get_memory_win32_handle_properties;
use crate::rules::query::QueryCommand;
use crate::state::DeviceState;
use ash::vk;

type Properties = vk::MemoryWin32HandlePropertiesKHR<'static>;

pub struct GetMemoryWin32HandleProperties;

impl HandlePropertiesQuery for GetMemoryWin32HandleProperties {
    type Handle = vk::HANDLE;
    type Properties = Properties;
    type Own = get_memory_win32_handle_properties::GetMemoryWin32HandlePropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_win32_handle_properties::COMMAND;

    /// The value only (`HANDLE` is a signed integer in ash; `INVALID_HANDLE_VALUE` is -1): a
    /// Windows handle is never dereferenced.
    #[inline(always)]
    fn value(handle: vk::HANDLE) -> i64 {
        handle as i64
    }

    #[inline(always)]
    fn next(s: &DeviceState) -> Option<PropertiesFn<Self::Handle, Self::Properties>> {
        s.next.get_memory_win32_handle_properties
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_win32_handle_properties_khr(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: vk::HANDLE,
    p_memory_win32_handle_properties: *mut Properties,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        query::run_handle_query::<GetMemoryWin32HandleProperties>(
            device,
            handle_type,
            handle,
            p_memory_win32_handle_properties,
        )
    }
}
