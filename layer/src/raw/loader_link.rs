//! The loader's link info in `vkCreateInstance` / `vkCreateDevice`: where the next layer is.

use super::read::walk_chain;
use ash::vk;
use ash_layer::{LayerDeviceCreateInfo, LayerFunction, LayerInstanceCreateInfo};
use std::ffi::c_void;

/// Finds the loader's `VkLayerInstanceCreateInfo` (LAYER_LINK_INFO), returns the next layer's
/// `vkGetInstanceProcAddr` and advances the link for the layers below us.
///
/// # Safety
/// `info` is the create info the loader passed to this layer's `vkCreateInstance`.
pub unsafe fn take_instance_link(
    info: &vk::InstanceCreateInfo<'_>,
) -> Option<vk::PFN_vkGetInstanceProcAddr> {
    let mut found: *mut LayerInstanceCreateInfo = std::ptr::null_mut();
    // SAFETY: loader-owned chain; the node is only read as the type its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| {
            if found.is_null() && s_type == vk::StructureType::LOADER_INSTANCE_CREATE_INFO {
                let candidate = node as *mut LayerInstanceCreateInfo;
                if (*candidate).function == LayerFunction::LAYER_LINK_INFO {
                    found = candidate;
                }
            }
        });
    }
    if found.is_null() {
        return None;
    }
    // SAFETY: the loader's link node: its p_layer_info points to our link, which it owns and lets
    // each layer advance past itself.
    unsafe {
        let link = (*found).u.p_layer_info;
        if link.is_null() {
            return None;
        }
        let gipa = (*link).pfn_next_get_instance_proc_addr;
        (*found).u.p_layer_info = (*link).p_next;
        gipa
    }
}

/// Finds the loader's `VkLayerDeviceCreateInfo` (LAYER_LINK_INFO), returns the next layer's
/// `vkGetInstanceProcAddr` and `vkGetDeviceProcAddr`, and advances the link.
///
/// # Safety
/// `info` is the create info the loader passed to this layer's `vkCreateDevice`.
pub unsafe fn take_device_link(
    info: &vk::DeviceCreateInfo<'_>,
) -> Option<(vk::PFN_vkGetInstanceProcAddr, vk::PFN_vkGetDeviceProcAddr)> {
    let mut found: *mut LayerDeviceCreateInfo = std::ptr::null_mut();
    // SAFETY: loader-owned chain; the node is only read as the type its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node: *const c_void| {
            if found.is_null() && s_type == vk::StructureType::LOADER_DEVICE_CREATE_INFO {
                let candidate = node as *mut LayerDeviceCreateInfo;
                if (*candidate).function == LayerFunction::LAYER_LINK_INFO {
                    found = candidate;
                }
            }
        });
    }
    if found.is_null() {
        return None;
    }
    // SAFETY: as for the instance link: the loader owns the link list and lets us advance it.
    unsafe {
        let link = (*found).u.p_layer_info;
        if link.is_null() {
            return None;
        }
        let gipa = (*link).pfn_next_get_instance_proc_addr?;
        let gdpa = (*link).pfn_next_get_device_proc_addr?;
        (*found).u.p_layer_info = (*link).p_next;
        Some((gipa, gdpa))
    }
}
