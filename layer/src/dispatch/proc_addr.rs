//! `vkNegotiateLoaderLayerInterfaceVersion`, `vkGetInstanceProcAddr`, `vkGetDeviceProcAddr`.
//!
//! Both read the one table of intercepted commands (`intercepts.rs`, `intercept_table.rs`).

use super::chain::void_fn;
use super::intercept_table::INTERCEPTS;
use super::intercepts::{Intercept, Level};
use crate::boundary;
use crate::raw;
use crate::state::registry::{DEVICES, INSTANCES};
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
        if name == b"vkGetDeviceProcAddr" {
            return void_fn!(get_device_proc_addr);
        }
        if let Some(Intercept {
            function,
            level: Level::Device { on },
            ..
        }) = find(name)
        {
            if on(&state) {
                return function();
            }
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
        match name {
            b"vkGetInstanceProcAddr" => return void_fn!(get_instance_proc_addr),
            b"vkGetDeviceProcAddr" => return void_fn!(get_device_proc_addr),
            _ => {}
        }
        // Device-level commands too: the loader asks the layer for them with the instance.
        if let Some(row) = find(name) {
            return (row.function)();
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

/// The row of `name` in the table of intercepted commands.
fn find(name: &[u8]) -> Option<&'static Intercept> {
    INTERCEPTS.iter().find(|row| row.name == name)
}
