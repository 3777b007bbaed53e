//! `exportcheck-test-icd`: a Vulkan driver (ICD) for tests, loaded by the real Vulkan loader
//! through a driver manifest (`VK_DRIVER_FILES`). It exposes the memory-export extensions that
//! no available driver has — `VK_KHR_external_memory_fd`, `VK_EXT_external_memory_dma_buf`,
//! `VK_NV_external_memory_rdma`, `VK_NV_external_memory_win32`, `VK_EXT_external_memory_metal` —
//! with real results (memfd-backed memory, real file descriptors), external semaphores and fences
//! (`VK_KHR_external_semaphore_fd` and `_fence_fd` with `SYNC_FD`, Win32, Zircon, timeline
//! semaphores), a configuration per instance,
//! deliberate misbehaviour on demand, and per-command call counters. It renders nothing.
//!
//! See `docs/test-driver.md`.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod buffer;
pub mod config;
pub mod counters;
pub mod device;
pub mod device_file;
pub mod fence;
mod ffi;
pub mod format;
pub mod image;
pub mod instance;
pub mod memory;
pub mod objects;
pub mod physical_device;
pub mod procs;
pub mod queue_submit;
pub mod resource;
pub mod semaphore;
pub mod sync_payload;
pub mod sync_properties;
pub mod sync_wait;

use ash::vk;
use std::ffi::c_char;

pub use config::{Config, ConfigCreateInfo, CONFIG_ENV, STRUCTURE_TYPE_TEST_ICD_CONFIG};
use procs::Level;

/// The loader–driver interface version this driver implements at most.
pub const ICD_INTERFACE_VERSION: u32 = 5;
/// The oldest interface version accepted: older loaders are refused.
const MIN_ICD_INTERFACE_VERSION: u32 = 3;

/// Loader–driver interface negotiation: agrees on `min(loader's, 5)`.
///
/// # Safety
/// `p_supported_version` is NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "system" fn vk_icdNegotiateLoaderICDInterfaceVersion(
    p_supported_version: *mut u32,
) -> vk::Result {
    ffi::entry(
        "vk_icdNegotiateLoaderICDInterfaceVersion",
        vk::Result::ERROR_INCOMPATIBLE_DRIVER,
        || {
            // SAFETY: the loader passes a valid pointer; NULL is refused.
            let Some(v) = (unsafe { p_supported_version.as_mut() }) else {
                return vk::Result::ERROR_INCOMPATIBLE_DRIVER;
            };
            if *v < MIN_ICD_INTERFACE_VERSION {
                return vk::Result::ERROR_INCOMPATIBLE_DRIVER;
            }
            *v = (*v).min(ICD_INTERFACE_VERSION);
            vk::Result::SUCCESS
        },
    )
}

/// Every command the driver implements. With a NULL instance only the global commands.
///
/// # Safety
/// `p_name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetInstanceProcAddr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    ffi::entry("vk_icdGetInstanceProcAddr", None, || {
        // SAFETY: NULL or NUL-terminated (caller's contract).
        let p = procs::lookup(unsafe { ffi::c_str(p_name) }?)?;
        if instance == vk::Instance::null() && p.level != Level::Global {
            return None;
        }
        p.pfn
    })
}

/// Physical-device-level commands (for the loader's unknown-physical-device-command support).
///
/// # Safety
/// `p_name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetPhysicalDeviceProcAddr(
    _instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    ffi::entry("vk_icdGetPhysicalDeviceProcAddr", None, || {
        // SAFETY: NULL or NUL-terminated (caller's contract).
        let p = procs::lookup(unsafe { ffi::c_str(p_name) }?)?;
        if p.level != Level::PhysicalDevice {
            return None;
        }
        p.pfn
    })
}

/// How many times this driver's entry point for the Vulkan command `name` was called in this
/// process (aliases such as `...KHR` read their core command's count). 0 for NULL or unknown.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn exportcheck_test_icd_call_count(name: *const c_char) -> u64 {
    ffi::guard("exportcheck_test_icd_call_count", 0, || {
        // SAFETY: NULL or NUL-terminated (caller's contract).
        unsafe { ffi::c_str(name) }.map_or(0, counters::get)
    })
}

/// The `pNext` address of the info structure the command `name` (`vkGetMemoryFdKHR`,
/// `vkGetMemoryRemoteAddressNV`, `vkGetMemoryMetalHandleEXT`) was last called with in this process:
/// what reached the driver. 0 for NULL, never called, or another command.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn exportcheck_test_icd_last_p_next(name: *const c_char) -> usize {
    ffi::guard("exportcheck_test_icd_last_p_next", 0, || {
        // SAFETY: NULL or NUL-terminated (caller's contract).
        unsafe { ffi::c_str(name) }.map_or(0, counters::last_p_next)
    })
}

/// Sets every call count back to 0.
#[no_mangle]
pub extern "C" fn exportcheck_test_icd_reset_call_counts() {
    ffi::guard(
        "exportcheck_test_icd_reset_call_counts",
        (),
        counters::reset,
    )
}
