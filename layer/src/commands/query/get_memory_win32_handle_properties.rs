//! `vkGetMemoryWin32HandlePropertiesKHR`: the descriptor. Its rules are
//! `rules::query::get_memory_win32_handle_properties`.

use crate::pipeline::query::{self, QueryEntry};
use crate::rules::query::get_memory_win32_handle_properties;
use crate::rules::query::{QueryCall, QueryCommand};
use crate::state::DeviceState;
use ash::vk;

pub struct GetMemoryWin32HandleProperties;

type Properties = vk::MemoryWin32HandlePropertiesKHR<'static>;

impl QueryEntry for GetMemoryWin32HandleProperties {
    type Args = (
        vk::ExternalMemoryHandleTypeFlags,
        vk::HANDLE,
        *mut Properties,
    );
    type Own = get_memory_win32_handle_properties::GetMemoryWin32HandlePropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &get_memory_win32_handle_properties::COMMAND;

    #[inline(always)]
    unsafe fn read(&(handle_type, handle, p_properties): &Self::Args) -> QueryCall {
        QueryCall {
            handle_type: handle_type.as_raw(),
            // The value only (`HANDLE` is a signed integer in ash; `INVALID_HANDLE_VALUE` is
            // -1): a Windows handle is never dereferenced.
            handle: handle as i64,
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
        (handle_type, handle, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_win32_handle_properties?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, handle_type, handle, p_properties) })
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
        query::run::<GetMemoryWin32HandleProperties>(
            device,
            (handle_type, handle, p_memory_win32_handle_properties),
        )
    }
}
