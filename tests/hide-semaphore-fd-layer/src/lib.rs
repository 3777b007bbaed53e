//! A **test-only** Vulkan layer, `VK_LAYER_EXPORTCHECK_TEST_hide_semaphore_fd`, so that piglit's
//! `ext_external_objects-vk-*` tests run on Mesa lavapipe (docs/real-programs.md).
//!
//! Those tests create their `VkDevice` with two extensions, `VK_KHR_external_memory_fd` and
//! `VK_KHR_external_semaphore_fd`, and give up when `vkCreateDevice` fails. Lavapipe (Mesa 22.3)
//! has the first and lacks the second. The memory tests never create, export or import a
//! semaphore (the semaphore tests skip anyway: llvmpipe's GL lacks `GL_EXT_semaphore`), so this
//! layer hides exactly that one requirement, and only when the driver below lacks it:
//!
//! * `vkEnumerateDeviceExtensionProperties` lists `VK_KHR_external_semaphore_fd` besides what
//!   the next layer lists (its manifest lists it too: the loader checks the enabled extensions
//!   of `vkCreateDevice` against the driver and the enabled layers' manifests);
//! * `vkCreateDevice` removes it from `ppEnabledExtensionNames` before calling down.
//!
//! Nothing else is intercepted: no semaphore command is implemented, so
//! `vkGetDeviceProcAddr(device, "vkGetSemaphoreFdKHR")` stays NULL (as the driver says), and
//! every other call, the memory-export commands included, reaches the next layer untouched
//! (the next layer's own pointers are handed out). It cannot hide a memory-export finding:
//! ordered below exportcheck (`VK_INSTANCE_LAYERS=VK_LAYER_EXPORTCHECK_validation:<this>`),
//! exportcheck sees the app's calls exactly as made, and this layer changes none of the calls
//! exportcheck checks.
//!
//! Never ship it: an app that believes it has external semaphores, and uses them, gets NULL
//! function pointers.

// The library is named VkLayer_exportcheck_hide_semaphore_fd, as its manifest says.
#![allow(non_snake_case)]

mod commands;
pub mod extensions;
mod link;
mod state;

use ash::vk;
use ash_layer::{NegotiateLayerInterface, NegotiateLayerStructType};
use std::ffi::{c_char, CStr};

/// The layer's name, as in its manifest.
pub const LAYER_NAME: &CStr = c"VK_LAYER_EXPORTCHECK_TEST_hide_semaphore_fd";

/// Runs `body`; a panic becomes `fallback` instead of unwinding into the loader.
fn contained<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Loader entry point: negotiates the loader-layer interface (version 2).
///
/// # Safety
/// Called by the Vulkan loader with its negotiation structure (or NULL, which is refused).
#[no_mangle]
pub unsafe extern "system" fn vkNegotiateLoaderLayerInterfaceVersion(
    p_version_struct: *mut NegotiateLayerInterface,
) -> vk::Result {
    contained(vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: the loader's negotiation structure, writable for this call; NULL is refused.
        let Some(negotiate) = (unsafe { p_version_struct.as_mut() }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        if negotiate.s_type != NegotiateLayerStructType::INTERFACE_STRUCT
            || negotiate.loader_layer_interface_version < 2
        {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        }
        negotiate.loader_layer_interface_version = 2;
        negotiate.pfn_get_instance_proc_addr = Some(get_instance_proc_addr);
        negotiate.pfn_get_device_proc_addr = Some(get_device_proc_addr);
        negotiate.pfn_get_physical_device_proc_addr = None;
        vk::Result::SUCCESS
    })
}

/// Exported for loaders and tools that look the symbol up directly.
///
/// # Safety
/// `p_name` is NULL or a NUL-terminated string; `instance` is NULL or one the loader created.
#[no_mangle]
pub unsafe extern "system" fn vkGetInstanceProcAddr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: forwarded unchanged.
    unsafe { get_instance_proc_addr(instance, p_name) }
}

/// Exported for loaders and tools that look the symbol up directly.
///
/// # Safety
/// `p_name` is NULL or a NUL-terminated string; `device` is one the loader created.
#[no_mangle]
pub unsafe extern "system" fn vkGetDeviceProcAddr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: forwarded unchanged.
    unsafe { get_device_proc_addr(device, p_name) }
}

/// The layer's functions for the instance commands it changes, else the next layer's. Not the
/// exported symbol itself: a reference to an exported name may bind to the loader's
/// `vkGetInstanceProcAddr` (ELF symbol interposition), which would loop back into the loader.
pub(crate) unsafe extern "system" fn get_instance_proc_addr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    contained(None, || {
        if p_name.is_null() {
            return None;
        }
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        let name = unsafe { CStr::from_ptr(p_name) };
        if let Some(ours) = commands::instance_command(name.to_bytes()) {
            return Some(ours);
        }
        // SAFETY: a handle the loader created (NULL is looked up as nothing).
        let next = unsafe { state::instance_of(instance) }?;
        // SAFETY: the next layer's vkGetInstanceProcAddr, with its own instance and the name.
        unsafe { (next.get_instance_proc_addr)(instance, p_name) }
    })
}

/// The next layer's pointer for every device command: this layer changes none (not the exported
/// symbol, as for [`get_instance_proc_addr`]).
pub(crate) unsafe extern "system" fn get_device_proc_addr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    contained(None, || {
        if p_name.is_null() {
            return None;
        }
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        if unsafe { CStr::from_ptr(p_name) }.to_bytes() == b"vkGetDeviceProcAddr" {
            return commands::void_fn(get_device_proc_addr as *const ());
        }
        // SAFETY: a device the loader created through this layer's vkCreateDevice.
        let next = unsafe { state::device_next(device) }?;
        // SAFETY: the next layer's vkGetDeviceProcAddr, with its own device and the name.
        unsafe { next(device, p_name) }
    })
}
