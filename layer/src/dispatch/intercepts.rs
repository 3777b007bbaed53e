//! The one table of the commands the layer intercepts: `vkGetInstanceProcAddr` and
//! `vkGetDeviceProcAddr` both read it (they answer for themselves, in `proc_addr.rs`). A row says the command's name, the layer's function, and
//! on which devices the layer intercepts it (only what it checks, only when its extension is
//! enabled and the next layer has it); every other device, and every other name, gets the next
//! layer's own pointer, so the app pays nothing for calls the layer does not check.

use super::chain::void_fn;
use crate::commands::get_android_hardware_buffer_properties::get_android_hardware_buffer_properties_android;
use crate::commands::get_memory_android_hardware_buffer::get_memory_android_hardware_buffer_android;
use crate::commands::get_memory_fd::get_memory_fd_khr;
use crate::commands::get_memory_fd_properties::get_memory_fd_properties_khr;
use crate::commands::get_memory_host_pointer_properties::get_memory_host_pointer_properties_ext;
use crate::commands::get_memory_metal_handle::get_memory_metal_handle_ext;
use crate::commands::get_memory_metal_handle_properties::get_memory_metal_handle_properties_ext;
use crate::commands::get_memory_remote_address::get_memory_remote_address_nv;
use crate::commands::get_memory_win32_handle::get_memory_win32_handle_khr;
use crate::commands::get_memory_win32_handle_nv::get_memory_win32_handle_nv;
use crate::commands::get_memory_win32_handle_properties::get_memory_win32_handle_properties_khr;
use crate::commands::get_memory_zircon_handle::get_memory_zircon_handle_fuchsia;
use crate::commands::get_memory_zircon_handle_properties::get_memory_zircon_handle_properties_fuchsia;
use crate::commands::{device, instance, memory, names, resources};
use crate::rules::{
    get_android_hardware_buffer_properties, get_memory_android_hardware_buffer, get_memory_fd,
    get_memory_fd_properties, get_memory_host_pointer_properties, get_memory_metal_handle,
    get_memory_metal_handle_properties, get_memory_remote_address, get_memory_win32_handle,
    get_memory_win32_handle_nv, get_memory_win32_handle_properties, get_memory_zircon_handle,
    get_memory_zircon_handle_properties,
};
use crate::state::DeviceState;
use ash::vk;

/// Where a command belongs.
pub enum Level {
    /// Instance-level: `vkGetInstanceProcAddr` only.
    Instance,
    /// Device-level: `vkGetDeviceProcAddr`, on the devices `on` accepts, and
    /// `vkGetInstanceProcAddr` (which cannot know the device).
    Device { on: fn(&DeviceState) -> bool },
}

pub struct Intercept {
    pub name: &'static [u8],
    /// The layer's function, as the loader's `PFN_vkVoidFunction`.
    pub function: fn() -> vk::PFN_vkVoidFunction,
    pub level: Level,
}

const fn device(on: fn(&DeviceState) -> bool) -> Level {
    Level::Device { on }
}

/// Every device.
fn always(_: &DeviceState) -> bool {
    true
}

/// Whether memory can be exported on the device (`VK_KHR_external_memory` or Vulkan 1.1):
/// buffers and images are tracked only there, since exported memory is judged against them.
fn can_export(state: &DeviceState) -> bool {
    state.can_export()
}

fn buffers(s: &DeviceState) -> bool {
    s.intercepts_buffers()
}

fn images(s: &DeviceState) -> bool {
    s.intercepts_images()
}

pub const INTERCEPTS: &[Intercept] = &[
    Intercept {
        name: b"vkCreateInstance",
        function: || void_fn!(instance::create_instance),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyInstance",
        function: || void_fn!(instance::destroy_instance),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkCreateDevice",
        function: || void_fn!(device::create_device),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkCreateDebugUtilsMessengerEXT",
        function: || void_fn!(instance::create_debug_utils_messenger),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyDebugUtilsMessengerEXT",
        function: || void_fn!(instance::destroy_debug_utils_messenger),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkCreateDebugReportCallbackEXT",
        function: || void_fn!(instance::create_debug_report_callback),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyDebugReportCallbackEXT",
        function: || void_fn!(instance::destroy_debug_report_callback),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyDevice",
        function: || void_fn!(device::destroy_device),
        level: device(always),
    },
    Intercept {
        name: b"vkAllocateMemory",
        function: || void_fn!(memory::allocate_memory),
        level: device(|s| s.next.allocate_memory.is_some()),
    },
    Intercept {
        name: b"vkFreeMemory",
        function: || void_fn!(memory::free_memory),
        level: device(|s| s.next.free_memory.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryFdKHR",
        function: || void_fn!(get_memory_fd_khr),
        level: device(|s| {
            (get_memory_fd::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_fd.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryFdPropertiesKHR",
        function: || void_fn!(get_memory_fd_properties_khr),
        level: device(|s| {
            (get_memory_fd_properties::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_fd_properties.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryHostPointerPropertiesEXT",
        function: || void_fn!(get_memory_host_pointer_properties_ext),
        level: device(|s| {
            (get_memory_host_pointer_properties::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_host_pointer_properties.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryRemoteAddressNV",
        function: || void_fn!(get_memory_remote_address_nv),
        level: device(|s| {
            (get_memory_remote_address::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_remote_address.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryWin32HandleNV",
        function: || void_fn!(get_memory_win32_handle_nv),
        level: device(|s| {
            (get_memory_win32_handle_nv::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_win32_handle_nv.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryMetalHandleEXT",
        function: || void_fn!(get_memory_metal_handle_ext),
        level: device(|s| {
            (get_memory_metal_handle::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_metal_handle.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryMetalHandlePropertiesEXT",
        function: || void_fn!(get_memory_metal_handle_properties_ext),
        level: device(|s| {
            (get_memory_metal_handle_properties::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_metal_handle_properties.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryWin32HandleKHR",
        function: || void_fn!(get_memory_win32_handle_khr),
        level: device(|s| {
            (get_memory_win32_handle::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_win32_handle.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryZirconHandleFUCHSIA",
        function: || void_fn!(get_memory_zircon_handle_fuchsia),
        level: device(|s| {
            (get_memory_zircon_handle::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_zircon_handle.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryAndroidHardwareBufferANDROID",
        function: || void_fn!(get_memory_android_hardware_buffer_android),
        level: device(|s| {
            (get_memory_android_hardware_buffer::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_android_hardware_buffer.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryWin32HandlePropertiesKHR",
        function: || void_fn!(get_memory_win32_handle_properties_khr),
        level: device(|s| {
            (get_memory_win32_handle_properties::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_win32_handle_properties.is_some()
        }),
    },
    Intercept {
        name: b"vkGetMemoryZirconHandlePropertiesFUCHSIA",
        function: || void_fn!(get_memory_zircon_handle_properties_fuchsia),
        level: device(|s| {
            (get_memory_zircon_handle_properties::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_memory_zircon_handle_properties.is_some()
        }),
    },
    Intercept {
        name: b"vkGetAndroidHardwareBufferPropertiesANDROID",
        function: || void_fn!(get_android_hardware_buffer_properties_android),
        level: device(|s| {
            (get_android_hardware_buffer_properties::COMMAND.is_enabled)(&s.facts.extensions)
                && s.next.get_android_hardware_buffer_properties.is_some()
        }),
    },
    Intercept {
        name: b"vkSetDebugUtilsObjectNameEXT",
        function: || void_fn!(names::set_debug_utils_object_name),
        level: device(|s| {
            s.instance.debug_utils_enabled && s.next.set_debug_utils_object_name.is_some()
        }),
    },
    Intercept {
        name: b"vkCreateBuffer",
        function: || void_fn!(resources::create_buffer),
        level: device(buffers),
    },
    Intercept {
        name: b"vkDestroyBuffer",
        function: || void_fn!(resources::destroy_buffer),
        level: device(buffers),
    },
    Intercept {
        name: b"vkBindBufferMemory",
        function: || void_fn!(resources::bind_buffer_memory),
        level: device(buffers),
    },
    Intercept {
        name: b"vkCreateImage",
        function: || void_fn!(resources::create_image),
        level: device(images),
    },
    Intercept {
        name: b"vkDestroyImage",
        function: || void_fn!(resources::destroy_image),
        level: device(images),
    },
    Intercept {
        name: b"vkBindImageMemory",
        function: || void_fn!(resources::bind_image_memory),
        level: device(images),
    },
    Intercept {
        name: b"vkBindBufferMemory2",
        function: || void_fn!(resources::bind_buffer_memory2),
        level: device(|s| can_export(s) && s.next.bind_buffer_memory2.is_some()),
    },
    Intercept {
        name: b"vkBindBufferMemory2KHR",
        function: || void_fn!(resources::bind_buffer_memory2),
        level: device(|s| can_export(s) && s.next.bind_buffer_memory2.is_some()),
    },
    Intercept {
        name: b"vkBindImageMemory2",
        function: || void_fn!(resources::bind_image_memory2),
        level: device(|s| can_export(s) && s.next.bind_image_memory2.is_some()),
    },
    Intercept {
        name: b"vkBindImageMemory2KHR",
        function: || void_fn!(resources::bind_image_memory2),
        level: device(|s| can_export(s) && s.next.bind_image_memory2.is_some()),
    },
];

/// The row of `name`.
pub fn find(name: &[u8]) -> Option<&'static Intercept> {
    INTERCEPTS.iter().find(|row| row.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_each_has_a_function() {
        for (i, row) in INTERCEPTS.iter().enumerate() {
            assert!(
                INTERCEPTS[i + 1..]
                    .iter()
                    .all(|other| other.name != row.name),
                "{} twice",
                String::from_utf8_lossy(row.name)
            );
            assert!((row.function)().is_some());
        }
    }
}
