//! `vkSetDebugUtilsObjectNameEXT`: remembers names so findings can show them.

use crate::boundary;
use crate::pipeline::policy::Decision;
use crate::raw::{self, StructArg};
use crate::state::registry::DEVICES;
use ash::vk::{self, Handle};
use std::sync::atomic::Ordering;

pub unsafe extern "system" fn set_debug_utils_object_name(
    device: vk::Device,
    p_name_info: *const vk::DebugUtilsObjectNameInfoEXT<'_>,
) -> vk::Result {
    boundary::ffi_down(
        "vkSetDebugUtilsObjectNameEXT",
        vk::Result::ERROR_UNKNOWN,
        |down| {
            let Some(state) = DEVICES.get(device.as_raw()) else {
                return Decision::SKIPPED_RESULT;
            };
            // SAFETY: the app's argument; NULL and sType are checked first.
            let info = unsafe {
                raw::read_struct(
                    p_name_info,
                    vk::StructureType::DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                )
            };
            if let StructArg::Valid(info) = info {
                let key = (info.object_type, info.object_handle);
                // SAFETY: pObjectName is NULL or a NUL-terminated string.
                match unsafe { raw::c_string(info.p_object_name) }.filter(|n| !n.is_empty()) {
                    Some(name) => {
                        if info.object_type == vk::ObjectType::DEVICE_MEMORY {
                            state.memory_names.store(true, Ordering::Relaxed);
                        }
                        state.names.insert(key, name);
                    }
                    None => {
                        state.names.remove(&key);
                    }
                }
            }
            match state.next.set_debug_utils_object_name {
                // SAFETY: the app's arguments, passed unchanged to the next layer.
                Some(next) => down.went(unsafe { next(device, p_name_info) }),
                None => vk::Result::ERROR_EXTENSION_NOT_PRESENT,
            }
        },
    )
}
