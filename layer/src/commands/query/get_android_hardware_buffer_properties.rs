//! `vkGetAndroidHardwareBufferPropertiesANDROID`: the descriptor. Its rules are
//! `rules::query::get_android_hardware_buffer_properties`.

use crate::pipeline::query::{self, QueryEntry};
use crate::rules::query::get_android_hardware_buffer_properties::{self as rules, HANDLE_TYPE};
use crate::rules::query::{QueryCall, QueryCommand};
use crate::state::DeviceState;
use ash::vk;

pub struct GetAndroidHardwareBufferProperties;

type Properties = vk::AndroidHardwareBufferPropertiesANDROID<'static>;

impl QueryEntry for GetAndroidHardwareBufferProperties {
    type Args = (*const vk::AHardwareBuffer, *mut Properties);
    type Own = rules::GetAndroidHardwareBufferPropertiesRules;
    const RULES: &'static QueryCommand<Self::Own> = &rules::COMMAND;

    #[inline(always)]
    unsafe fn read(&(buffer, p_properties): &Self::Args) -> QueryCall {
        // SAFETY: the app's pointer (this function's contract).
        let (output, output_loops) =
            unsafe { query::read_extended_output(Self::RULES, p_properties.cast_const()) };
        QueryCall {
            // The query has no handleType: it is always about an Android hardware buffer.
            handle_type: HANDLE_TYPE.as_raw(),
            // The address only: the buffer is never read.
            handle: buffer as usize as i64,
            handle_open: None,
            output,
            output_loops,
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (buffer, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = s.next.get_android_hardware_buffer_properties?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, buffer, p_properties) })
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_android_hardware_buffer_properties_android(
    device: vk::Device,
    buffer: *const vk::AHardwareBuffer,
    p_properties: *mut Properties,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { query::run::<GetAndroidHardwareBufferProperties>(device, (buffer, p_properties)) }
}
