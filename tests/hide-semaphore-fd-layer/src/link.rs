//! The loader's link info in `vkCreateInstance` / `vkCreateDevice`: where the next layer is.

use ash::vk;
use ash_layer::{LayerDeviceCreateInfo, LayerFunction, LayerInstanceCreateInfo};
use std::ffi::c_void;

/// The first structure of a `pNext` chain with `s_type` whose `function` is LAYER_LINK_INFO
/// (the loader's instance and device create infos share that layout up to `function`).
///
/// # Safety
/// Every structure of the chain is readable as a `VkBaseInStructure`; those with `s_type` are a
/// `T` laid out as `{ sType, pNext, function, ... }`.
unsafe fn find_link<T>(mut node: *const c_void, s_type: vk::StructureType) -> *mut T {
    while !node.is_null() {
        // SAFETY: a chain node, by the caller's contract.
        let base = unsafe { &*node.cast::<vk::BaseInStructure>() };
        if base.s_type == s_type {
            // SAFETY: its sType says it is the loader's create info: `function` follows pNext.
            let function = unsafe {
                std::ptr::addr_of!((*node.cast::<LayerInstanceCreateInfo>()).function).read()
            };
            if function == LayerFunction::LAYER_LINK_INFO {
                return node.cast_mut().cast();
            }
        }
        node = base.p_next.cast();
    }
    std::ptr::null_mut()
}

/// Takes this layer's link from a `vkCreateInstance` chain: the next `vkGetInstanceProcAddr`.
///
/// # Safety
/// `info` is the create info the loader passed to this layer's `vkCreateInstance`.
pub unsafe fn take_instance_link(
    info: &vk::InstanceCreateInfo<'_>,
) -> Option<vk::PFN_vkGetInstanceProcAddr> {
    // SAFETY: the loader's chain, by the caller's contract.
    let found: *mut LayerInstanceCreateInfo =
        unsafe { find_link(info.p_next, vk::StructureType::LOADER_INSTANCE_CREATE_INFO) };
    // SAFETY: the loader's link node, which it lets each layer advance past itself.
    unsafe {
        let found = found.as_mut()?;
        let link = found.u.p_layer_info.as_ref()?;
        found.u.p_layer_info = link.p_next;
        link.pfn_next_get_instance_proc_addr
    }
}

/// Takes this layer's link from a `vkCreateDevice` chain: the next `vkGetInstanceProcAddr` and
/// `vkGetDeviceProcAddr`.
///
/// # Safety
/// `info` is the create info the loader passed to this layer's `vkCreateDevice`.
pub unsafe fn take_device_link(
    info: &vk::DeviceCreateInfo<'_>,
) -> Option<(vk::PFN_vkGetInstanceProcAddr, vk::PFN_vkGetDeviceProcAddr)> {
    // SAFETY: the loader's chain, by the caller's contract.
    let found: *mut LayerDeviceCreateInfo =
        unsafe { find_link(info.p_next, vk::StructureType::LOADER_DEVICE_CREATE_INFO) };
    // SAFETY: as for the instance link: the loader owns the list and lets us advance it.
    unsafe {
        let found = found.as_mut()?;
        let link = found.u.p_layer_info.as_ref()?;
        found.u.p_layer_info = link.p_next;
        Some((
            link.pfn_next_get_instance_proc_addr?,
            link.pfn_next_get_device_proc_addr?,
        ))
    }
}
