//! `vkGetMemoryAndroidHardwareBufferANDROID`: the descriptor. Its rules are
//! `rules::android_hardware_buffer`. The info structure has no `handleType`: it is read as the
//! command's one handle type.

use crate::args::StructArg;
use crate::boundary::Down;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::rules::android_hardware_buffer;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use ash::vk;

pub struct GetMemoryAndroidHardwareBuffer;

type Info = vk::MemoryGetAndroidHardwareBufferInfoANDROID<'static>;

impl ExportEntry for GetMemoryAndroidHardwareBuffer {
    type Args = (*const Info, *mut *mut vk::AHardwareBuffer);
    const RULES: &'static ExportCommand = &android_hardware_buffer::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_buffer): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| {
                (i.p_next, i.memory, android_hardware_buffer::HANDLE_TYPE)
            })
        };
        (info, p_buffer.is_null())
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_buffer): Self::Args,
        _: &Judged<'_>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_android_hardware_buffer?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(down.went(unsafe { next(device, p_info, p_buffer) }))
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_android_hardware_buffer_android(
    device: vk::Device,
    p_info: *const Info,
    p_buffer: *mut *mut vk::AHardwareBuffer,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryAndroidHardwareBuffer>(device, (p_info, p_buffer)) }
}
