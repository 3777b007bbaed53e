//! `vkNegotiateLoaderLayerInterfaceVersion`, `vkGetInstanceProcAddr`, `vkGetDeviceProcAddr`.
//!
//! `vkGetDeviceProcAddr` hands out the layer's function only for the commands it checks, and
//! only when their extension is enabled on that device; every other name gets the next layer's
//! pointer, so the app pays nothing for calls the layer does not check.

use super::chain::void_fn;
use crate::boundary;
use crate::commands::{device, export, instance, memory, names, resources};
use crate::raw;
use crate::state::registry::{DEVICES, INSTANCES};
use crate::state::DeviceState;
use ash::vk::{self, Handle};
use ash_layer::{NegotiateLayerInterface, NegotiateLayerStructType};
use std::ffi::c_char;

/// The loader-layer interface version this layer implements.
pub const LAYER_INTERFACE_VERSION: u32 = 2;

/// # Safety
/// `p_version_struct` is NULL or points to the loader's writable `VkNegotiateLayerInterface`.
pub unsafe extern "system" fn negotiate_loader_layer_interface_version(
    p_version_struct: *mut NegotiateLayerInterface,
) -> vk::Result {
    boundary::ffi(
        "vkNegotiateLoaderLayerInterfaceVersion",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            // SAFETY: NULL or the loader's writable negotiation structure (this function's
            // contract); NULL is refused.
            let Some(negotiate) = (unsafe { p_version_struct.as_mut() }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            if negotiate.s_type != NegotiateLayerStructType::INTERFACE_STRUCT
                || negotiate.loader_layer_interface_version < LAYER_INTERFACE_VERSION
            {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            }
            negotiate.loader_layer_interface_version = LAYER_INTERFACE_VERSION;
            negotiate.pfn_get_instance_proc_addr = Some(get_instance_proc_addr);
            negotiate.pfn_get_device_proc_addr = Some(get_device_proc_addr);
            negotiate.pfn_get_physical_device_proc_addr = None;
            vk::Result::SUCCESS
        },
    )
}

/// The device-level commands the layer implements, whatever the device.
fn layer_device_command(name: &[u8]) -> vk::PFN_vkVoidFunction {
    match name {
        b"vkGetDeviceProcAddr" => void_fn!(get_device_proc_addr),
        b"vkDestroyDevice" => void_fn!(device::destroy_device),
        b"vkAllocateMemory" => void_fn!(memory::allocate_memory),
        b"vkFreeMemory" => void_fn!(memory::free_memory),
        b"vkGetMemoryFdKHR" => void_fn!(export::get_memory_fd_khr),
        b"vkGetMemoryRemoteAddressNV" => void_fn!(export::get_memory_remote_address_nv),
        b"vkGetMemoryWin32HandleNV" => void_fn!(export::get_memory_win32_handle_nv),
        b"vkGetMemoryMetalHandleEXT" => void_fn!(export::get_memory_metal_handle_ext),
        b"vkSetDebugUtilsObjectNameEXT" => void_fn!(names::set_debug_utils_object_name),
        b"vkCreateBuffer" => void_fn!(resources::create_buffer),
        b"vkDestroyBuffer" => void_fn!(resources::destroy_buffer),
        b"vkCreateImage" => void_fn!(resources::create_image),
        b"vkDestroyImage" => void_fn!(resources::destroy_image),
        b"vkBindBufferMemory" => void_fn!(resources::bind_buffer_memory),
        b"vkBindImageMemory" => void_fn!(resources::bind_image_memory),
        b"vkBindBufferMemory2" | b"vkBindBufferMemory2KHR" => {
            void_fn!(resources::bind_buffer_memory2)
        }
        b"vkBindImageMemory2" | b"vkBindImageMemory2KHR" => {
            void_fn!(resources::bind_image_memory2)
        }
        _ => None,
    }
}

/// Whether the layer intercepts `name` on this device: only what it checks, only when enabled.
fn intercepts_on(name: &[u8], state: &DeviceState) -> bool {
    let ext = &state.facts.extensions;
    let next = &state.next;
    match name {
        b"vkGetDeviceProcAddr" | b"vkDestroyDevice" => true,
        b"vkAllocateMemory" => next.allocate_memory.is_some(),
        b"vkFreeMemory" => next.free_memory.is_some(),
        b"vkGetMemoryFdKHR" => ext.khr_external_memory_fd && next.get_memory_fd.is_some(),
        b"vkGetMemoryRemoteAddressNV" => {
            ext.nv_external_memory_rdma && next.get_memory_remote_address.is_some()
        }
        b"vkGetMemoryWin32HandleNV" => {
            ext.nv_external_memory_win32 && next.get_memory_win32_handle_nv.is_some()
        }
        b"vkGetMemoryMetalHandleEXT" => {
            ext.ext_external_memory_metal && next.get_memory_metal_handle.is_some()
        }
        b"vkSetDebugUtilsObjectNameEXT" => {
            state.instance.debug_utils_enabled && next.set_debug_utils_object_name.is_some()
        }
        // Buffers and images, only where memory can be exported (VK_KHR_external_memory or
        // Vulkan 1.1): exported memory is judged against the resource it is for.
        b"vkCreateBuffer" | b"vkDestroyBuffer" | b"vkBindBufferMemory" => {
            can_export(state)
                && next.create_buffer.is_some()
                && next.destroy_buffer.is_some()
                && next.bind_buffer_memory.is_some()
        }
        b"vkCreateImage" | b"vkDestroyImage" | b"vkBindImageMemory" => {
            can_export(state)
                && next.create_image.is_some()
                && next.destroy_image.is_some()
                && next.bind_image_memory.is_some()
        }
        b"vkBindBufferMemory2" | b"vkBindBufferMemory2KHR" => {
            can_export(state) && next.bind_buffer_memory2.is_some()
        }
        b"vkBindImageMemory2" | b"vkBindImageMemory2KHR" => {
            can_export(state) && next.bind_image_memory2.is_some()
        }
        _ => false,
    }
}

/// Whether the device can export memory: `VkExportMemoryAllocateInfo` is available on it.
fn can_export(state: &DeviceState) -> bool {
    state.facts.extensions.khr_external_memory || state.facts.api_version >= vk::API_VERSION_1_1
}

/// # Safety
/// `p_name` is NULL or a NUL-terminated string; `device` may be any value (looked up by value,
/// never read through; an unknown device gets NULL).
pub unsafe extern "system" fn get_device_proc_addr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    boundary::ffi("vkGetDeviceProcAddr", None, || {
        // SAFETY: NULL (refused) or NUL-terminated, by this function's contract.
        let name = unsafe { raw::c_name(p_name) }?;
        let state = DEVICES.get(device.as_raw())?;
        if intercepts_on(name, &state) {
            return layer_device_command(name);
        }
        // SAFETY: the next layer's GDPA, with a device the layer tracks (so live: it is removed
        // before vkDestroyDevice goes down) and the app's NUL-terminated name.
        unsafe { (state.next.get_device_proc_addr)(device, p_name) }
    })
}

/// # Safety
/// `p_name` is NULL or a NUL-terminated string. `instance` is `VK_NULL_HANDLE` or a live
/// `VkInstance` the loader created: for a name the layer does not implement, its first word
/// (the loader's dispatch key) is read.
pub unsafe extern "system" fn get_instance_proc_addr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    boundary::ffi("vkGetInstanceProcAddr", None, || {
        // SAFETY: NULL (refused) or NUL-terminated, by this function's contract.
        let name = unsafe { raw::c_name(p_name) }?;
        let ours = match name {
            b"vkGetInstanceProcAddr" => void_fn!(get_instance_proc_addr),
            b"vkCreateInstance" => void_fn!(instance::create_instance),
            b"vkDestroyInstance" => void_fn!(instance::destroy_instance),
            b"vkCreateDevice" => void_fn!(device::create_device),
            b"vkCreateDebugUtilsMessengerEXT" => void_fn!(instance::create_debug_utils_messenger),
            b"vkDestroyDebugUtilsMessengerEXT" => {
                void_fn!(instance::destroy_debug_utils_messenger)
            }
            b"vkCreateDebugReportCallbackEXT" => void_fn!(instance::create_debug_report_callback),
            b"vkDestroyDebugReportCallbackEXT" => {
                void_fn!(instance::destroy_debug_report_callback)
            }
            _ => layer_device_command(name),
        };
        if ours.is_some() {
            return ours;
        }
        if instance == vk::Instance::null() {
            return None;
        }
        // SAFETY: not NULL, so a live VkInstance the loader created, by this function's
        // contract: a dispatchable object whose first word is readable.
        let state = INSTANCES.get(unsafe { raw::dispatch_key(instance.as_raw()) })?;
        // SAFETY: the next layer's GIPA, with an instance the layer tracks and the app's
        // NUL-terminated name.
        unsafe { (state.next.get_instance_proc_addr)(instance, p_name) }
    })
}
