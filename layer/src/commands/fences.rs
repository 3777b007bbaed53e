//! `vkCreateFence` and `vkDestroyFence`: each fence a device makes (`vkRegisterDeviceEventEXT`
//! and `vkRegisterDisplayEventEXT` make fences too) is recorded with what the
//! export rules read of its create info (`state::fences`), and forgotten when it is destroyed
//! (with the opaque fds exported from it, `fence_exports`). The imports
//! (`vkImportFenceFdKHR`, `vkImportFenceWin32HandleKHR`) are checked in `commands::import`,
//! which marks the fence imported after a success (`state::fences` follows which payload is
//! current from then on). `vkCreateFence` judges the sharing structures of its chain
//! (`rules::fences::create_fence`) only when the chain has one; nothing blocks the call, which
//! goes down as the app made it.

use crate::boundary;
use crate::commands::record_after::call_down_and_record;
use crate::commands::sync_support::sync_support_for;
use crate::features::fd_ownership::hooks as fd_ownership;
use crate::features::fd_ownership::state::ImportKind;
use crate::features::import_matching::state::fence_exports;
use crate::handle_kinds::Fence;
use crate::pipeline::policy::{decide, Decision};
use crate::raw::{read_node, read_out, read_struct, walk_chain, StructArg};
use crate::rules::fences::create_fence::{self, FenceExportChain};
use crate::rules::sync::export_fence;
use crate::state::this_thread::with_device;
use crate::state::{DeviceState, FenceFacts, FenceSignal};
use ash::vk::{self, Handle};
use std::cell::Cell;

/// What the rules read of a `VkFenceCreateInfo`: the record's facts and the chain's sharing
/// structures (nothing known when it is NULL or of another `sType`).
///
/// # Safety
/// `p` is what the app passed to `vkCreateFence`: NULL or a readable create info and chain.
unsafe fn read_create_info(p: *const vk::FenceCreateInfo<'_>) -> (FenceFacts, FenceExportChain) {
    // SAFETY: the caller's contract; NULL and sType are checked first.
    let StructArg::Valid(info) = (unsafe { read_struct(p, vk::StructureType::FENCE_CREATE_INFO) })
    else {
        return Default::default();
    };
    let mut chain = FenceExportChain::default();
    // SAFETY: each node is read as the structure its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::EXPORT_FENCE_CREATE_INFO => {
                let e: vk::ExportFenceCreateInfo = read_node(node);
                chain.export = Some(chain.export.unwrap_or_default() | e.handle_types);
            }
            vk::StructureType::EXPORT_FENCE_WIN32_HANDLE_INFO_KHR => chain.export_win32 = true,
            _ => {}
        })
    };
    let signal = if info.flags.contains(vk::FenceCreateFlags::SIGNALED) {
        FenceSignal::Signaled
    } else {
        FenceSignal::UnsignaledSinceCreation
    };
    let facts = FenceFacts {
        export: chain.export,
        known: true,
        signal,
        ..FenceFacts::default()
    };
    (facts, chain)
}

/// The cold path of a fence created with sharing structures: the findings of the rules they
/// break, reported; whether the call still goes down (an app callback may ask to skip it).
#[cold]
#[inline(never)]
fn judge_create(state: &DeviceState, chain: &FenceExportChain) -> Decision {
    let broken = create_fence::evaluate(chain);
    let types = chain.export.map_or(0, |t| t.as_raw());
    let answers = if types != 0 {
        sync_support_for::<Fence>(state, types, false)
    } else {
        Vec::new()
    };
    let support = export_fence::evaluate(&answers);
    if broken.is_empty() && support.is_none() {
        return Decision::CallDown;
    }
    let outcome = boundary::contain("vkCreateFence", || {
        let mut outcome = create_fence::describe(state.handle(), chain, broken);
        if let Some(verdict) = &support {
            outcome.absorb(export_fence::describe(
                state.handle(),
                types,
                &answers,
                verdict,
            ));
        }
        outcome
    });
    decide(state, "vkCreateFence", &outcome)
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn create_fence(
    device: vk::Device,
    p_create_info: *const vk::FenceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    let facts = Cell::new(FenceFacts::default());
    call_down_and_record(
        "vkCreateFence",
        device,
        |s| {
            let next = s.next.create_fence?;
            // SAFETY: the app's create info, read before it goes down.
            let (read, chain) = unsafe { read_create_info(p_create_info) };
            facts.set(read);
            if chain.shares() && judge_create(s, &chain) == Decision::Skip {
                return Some(Decision::SKIPPED_RESULT);
            }
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            Some(unsafe { next(device, p_create_info, p_allocator, p_fence) })
        },
        |state| {
            // SAFETY: *p_fence was written by the call that succeeded.
            if let Some(fence) = unsafe { read_out(p_fence) } {
                state.fences.insert(fence.as_raw(), facts.get());
            }
        },
    )
}

/// A fence made by a `VK_EXT_display_control` command, recorded after success so that a later
/// export or import finds it; it has no `VkFenceCreateInfo`, so nothing about its creation is
/// judged (`known` stays false).
fn record_event_fence(state: &DeviceState, p_fence: *const vk::Fence) {
    // SAFETY: *p_fence was written by the call that succeeded.
    if let Some(fence) = unsafe { read_out(p_fence) } {
        state.fences.insert(fence.as_raw(), FenceFacts::default());
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn register_device_event(
    device: vk::Device,
    p_device_event_info: *const vk::DeviceEventInfoEXT<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    call_down_and_record(
        "vkRegisterDeviceEventEXT",
        device,
        |s| {
            let next = s.next.register_device_event?;
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            Some(unsafe { next(device, p_device_event_info, p_allocator, p_fence) })
        },
        |state| record_event_fence(state, p_fence),
    )
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn register_display_event(
    device: vk::Device,
    display: vk::DisplayKHR,
    p_display_event_info: *const vk::DisplayEventInfoEXT<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    call_down_and_record(
        "vkRegisterDisplayEventEXT",
        device,
        |s| {
            let next = s.next.register_display_event?;
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            Some(unsafe { next(device, display, p_display_event_info, p_allocator, p_fence) })
        },
        |state| record_event_fence(state, p_fence),
    )
}

/// What the export and import tables hold of `fence`, which its device destroys: let go, and
/// the numbers of its fd import the process closed since reported.
#[cold]
#[inline(never)]
fn forget_tracked(state: &DeviceState, fence: u64) {
    fence_exports::forget_fence(state.handle(), fence);
    let kind = ImportKind::Fence;
    fd_ownership::destroyed(state, "vkDestroyFence", kind, fence);
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn destroy_fence(
    device: vk::Device,
    fence: vk::Fence,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down("vkDestroyFence", (), |down| {
        with_device(device.as_raw(), |state, _| {
            let Some(state) = state else {
                return;
            };
            let handle = fence.as_raw();
            if handle != 0 {
                let name = state.names.remove(&(vk::ObjectType::FENCE, handle));
                let name = name.map(|(_, name)| name);
                if state.fences.remove(handle, state.handle(), name) {
                    forget_tracked(state, handle);
                }
            }
            if let Some(next) = state.next.destroy_fence {
                // SAFETY: the app's arguments, passed unchanged to the next layer.
                unsafe { next(device, fence, p_allocator) }
            }
            down.went(());
        })
    })
}

/// At `vkDestroyDevice`: what the layer holds of the device's fences outside its state (the
/// opaque fds exported, `fence_exports`). The records go with the device state.
pub fn device_destroyed(state: &DeviceState) {
    fence_exports::forget_device(state.handle());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vuid;

    /// The chain `VkExportFenceCreateInfo` (as `export`) -> `VkExportFenceWin32HandleInfoKHR`
    /// (as `win32`), read as `vkCreateFence` reads it.
    fn read_with(
        export: vk::StructureType,
        win32: vk::StructureType,
    ) -> (FenceFacts, FenceExportChain) {
        let mut win32 = vk::ExportFenceWin32HandleInfoKHR {
            s_type: win32,
            ..Default::default()
        };
        let export = vk::ExportFenceCreateInfo {
            s_type: export,
            p_next: (&mut win32 as *mut vk::ExportFenceWin32HandleInfoKHR).cast(),
            handle_types: vk::ExternalFenceHandleTypeFlags::OPAQUE_FD,
            ..Default::default()
        };
        let info = vk::FenceCreateInfo {
            p_next: (&export as *const vk::ExportFenceCreateInfo).cast(),
            ..Default::default()
        };
        // SAFETY: a live create info and chain.
        unsafe { read_create_info(&info) }
    }

    /// `vuid::EXPORT_FENCE_STYPE` and `vuid::EXPORT_FENCE_WIN32_STYPE` hold by construction: a
    /// node with another `sType` is not read as the export structures.
    #[test]
    fn chained_structures_are_recognised_by_their_stype() {
        let _ = (vuid::EXPORT_FENCE_STYPE, vuid::EXPORT_FENCE_WIN32_STYPE);
        let (facts, chain) = read_with(
            vk::StructureType::EXPORT_FENCE_CREATE_INFO,
            vk::StructureType::EXPORT_FENCE_WIN32_HANDLE_INFO_KHR,
        );
        assert!(facts.known && chain.export_win32);
        assert_eq!(
            facts.export,
            Some(vk::ExternalFenceHandleTypeFlags::OPAQUE_FD)
        );
        let (facts, chain) = read_with(
            vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO,
            vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
        );
        assert!(facts.known);
        assert_eq!(chain, FenceExportChain::default());
        // SAFETY: NULL is read as nothing known.
        let (facts, _) = unsafe { read_create_info(std::ptr::null()) };
        assert!(!facts.known);
    }
}
