//! exportcheck: a Vulkan validation layer for the API that shares memory, semaphores and fences.
//!
//! Rooms, from the top down (each uses only the ones after it; `tests/module_layers.rs`):
//! `dispatch` (`vkGet*ProcAddr` and the table of intercepted commands), `commands` (one
//! descriptor per command), `pipeline` (the steps every call goes through), `boundary` (no
//! panic crosses the C ABI), [`report`] (rendering and delivery), [`rules`] (pure: `evaluate`
//! and `describe` per command), [`raw`] (the only module that reads app pointers), [`args`]
//! (what the app passed, as plain values), [`state`] (tracked devices and memory). See
//! docs/architecture.md.

// The library is named VkLayer_exportcheck, as the loader and its manifest expect.
#![allow(non_snake_case)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod args;
mod boundary;
mod commands;
mod dispatch;
mod fault_injection;
pub mod features;
pub mod finding;
pub mod handle_kinds;
pub mod introspect;
mod next_layer;
mod os;
mod pipeline;
pub mod raw;
pub mod report;
pub mod rules;
pub mod settings;
pub mod state;
pub mod vk_ext;
pub mod vk_names;
pub mod vuid;

use ash::vk;
use std::ffi::c_char;

/// Loader entry point: negotiates the loader-layer interface (version 2).
///
/// # Safety
/// `p_version_struct` is NULL or points to the loader's writable `VkNegotiateLayerInterface`.
#[no_mangle]
pub unsafe extern "system" fn vkNegotiateLoaderLayerInterfaceVersion(
    p_version_struct: *mut ash_layer::NegotiateLayerInterface,
) -> vk::Result {
    // SAFETY: forwarded unchanged: the callee's contract is this function's.
    unsafe { dispatch::proc_addr::negotiate_loader_layer_interface_version(p_version_struct) }
}

/// The hooks the CUDA interposer (`cuda/shim`, preloaded by `exportcheck run`) calls around each
/// intercepted CUDA external-resource call (`features::cuda_interop`). Never NULL.
#[no_mangle]
pub extern "C" fn exportcheck_cuda_hooks() -> *const exportcheck_cuda_abi::hooks::CudaHooks {
    &features::cuda_interop::hooks::HOOKS
}

/// Exported for loaders and tools that look the symbol up directly.
///
/// # Safety
/// `p_name` is NULL or a NUL-terminated string. `instance` is `VK_NULL_HANDLE` or a live
/// `VkInstance` the loader created: for a name the layer does not implement itself, the layer
/// reads the handle's first word (the loader's dispatch key) to find the next layer.
#[no_mangle]
pub unsafe extern "system" fn vkGetInstanceProcAddr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: forwarded unchanged: the callee's contract is this function's.
    unsafe { dispatch::proc_addr::get_instance_proc_addr(instance, p_name) }
}

/// Exported for loaders and tools that look the symbol up directly.
///
/// # Safety
/// `p_name` is NULL or a NUL-terminated string. `device` may be any value: the layer looks it up
/// by value and never reads through it (an unknown device gets NULL).
#[no_mangle]
pub unsafe extern "system" fn vkGetDeviceProcAddr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: forwarded unchanged: the callee's contract is this function's.
    unsafe { dispatch::proc_addr::get_device_proc_addr(device, p_name) }
}

/// Writes how many objects the layer tracks (instances, devices, memory records, debug names,
/// probe entries) to `*p_counts`, an [`introspect::TrackedCounts`]. Returns `VK_SUCCESS`, or
/// `VK_ERROR_VALIDATION_FAILED_EXT` when `p_counts` is NULL. Not a Vulkan command: a diagnostic
/// for tests and tools, found with `dlsym`.
///
/// # Safety
/// `p_counts` is NULL or points to writable memory for a `TrackedCounts`.
#[no_mangle]
pub unsafe extern "C" fn exportcheck_tracked_counts(
    p_counts: *mut introspect::TrackedCounts,
) -> vk::Result {
    if p_counts.is_null() {
        return vk::Result::ERROR_VALIDATION_FAILED_EXT;
    }
    let counts = boundary::ffi("exportcheck_tracked_counts", None, || {
        Some(introspect::tracked_counts())
    });
    match counts {
        // SAFETY: non-NULL and writable by the caller's contract.
        Some(counts) => unsafe {
            p_counts.write_unaligned(counts);
            vk::Result::SUCCESS
        },
        None => vk::Result::ERROR_UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_reported_id_is_in_the_catalog_and_back() {
        let catalog = exportcheck_vuids::catalog();
        for id in crate::vuid::ALL {
            assert!(
                catalog
                    .get(id)
                    .is_some_and(exportcheck_vuids::Entry::is_checked),
                "{id} is not in vuids/catalog.json as a checked ID"
            );
        }
        for entry in catalog.entries().iter().filter(|e| e.is_checked()) {
            assert!(
                crate::vuid::ALL.contains(&entry.id.as_str()),
                "{} is not in vuid.rs",
                entry.id
            );
        }
    }
}
