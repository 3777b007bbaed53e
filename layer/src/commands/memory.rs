//! `vkAllocateMemory` and `vkFreeMemory`: they feed the memory map.

use super::fd_leaks;
use super::policy::{decide, decide_without_device, Decision};
use crate::boundary;
use crate::checks::alloc::{check_allocate, check_free};
use crate::checks::export::unknown_device;
use crate::raw::{self, AllocateInfoRead};
use crate::state::registry::{
    lookup_dead_memory, record_allocation, remember_free, take_allocation, with_device,
};
use crate::state::{MemoryLookup, PackedAllocation};
use crate::vuid;
use ash::vk::{self, Handle};

const ALLOCATE: &str = "vkAllocateMemory";
const FREE: &str = "vkFreeMemory";

pub unsafe extern "system" fn allocate_memory(
    device: vk::Device,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_memory: *mut vk::DeviceMemory,
) -> vk::Result {
    boundary::ffi(ALLOCATE, vk::Result::ERROR_UNKNOWN, || {
        // 1. Validate.
        with_device(
            device.as_raw(),
            #[inline(always)]
            |state| {
                let Some(state) = state else {
                    let outcome =
                        unknown_device(ALLOCATE, vuid::ALLOC_DEVICE_PARAM, device.as_raw());
                    decide_without_device(ALLOCATE, &outcome);
                    return Decision::SKIPPED_RESULT;
                };
                // SAFETY: the app's argument; NULL, sType and the chain are checked while reading.
                let info = unsafe { raw::read_allocate_info(p_allocate_info) };
                let outcome = boundary::contain(ALLOCATE, || {
                    check_allocate(&state.facts, &info, p_memory.is_null())
                });
                if decide(state, ALLOCATE, &outcome) == Decision::Skip {
                    return Decision::SKIPPED_RESULT;
                }
                let Some(next) = state.next.allocate_memory else {
                    return vk::Result::ERROR_INITIALIZATION_FAILED;
                };
                // Before the call: a successful import hands the fd to the driver, which may close it.
                let imported = match &info {
                    AllocateInfoRead::Valid(_, chain) => {
                        fd_leaks::import_identity(state, chain.import_fd)
                    }
                    _ => None,
                };
                // 2. Call down.
                // SAFETY: validated arguments, passed to the next layer's own entry point.
                let result = unsafe { next(device, p_allocate_info, p_allocator, p_memory) };
                // 3. Record after success.
                if result == vk::Result::SUCCESS {
                    fd_leaks::record_import(imported);
                    // SAFETY: the driver wrote *p_memory (checked non-NULL above).
                    let memory = unsafe { raw::read_out(p_memory) }.unwrap_or_default();
                    if let AllocateInfoRead::Valid(facts, _) = info {
                        let type_flags = state.facts.type_flags(facts.memory_type_index);
                        let allocation = PackedAllocation::pack(&facts, type_flags);
                        record_allocation(state, memory.as_raw(), allocation);
                    }
                }
                result
            },
        )
    })
}

pub unsafe extern "system" fn free_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi(FREE, (), || {
        with_device(
            device.as_raw(),
            #[inline(always)]
            |state| {
                let Some(state) = state else {
                    let outcome = unknown_device(FREE, vuid::FREE_DEVICE_PARAM, device.as_raw());
                    decide_without_device(FREE, &outcome);
                    return;
                };
                let handle = memory.as_raw();
                // Taken out of the map before the call goes down: the driver may hand the handle to
                // another thread's allocation as soon as it is freed.
                let taken = take_allocation(state, handle);
                let lookup = match taken {
                    Some(allocation) => {
                        MemoryLookup::Live(allocation.unpack(handle, state.handle()))
                    }
                    None => lookup_dead_memory(state, handle),
                };
                let outcome = boundary::contain(FREE, || check_free(&state.facts, handle, &lookup));
                if decide(state, FREE, &outcome) == Decision::Skip {
                    if let Some(allocation) = taken {
                        record_allocation(state, handle, allocation); // Not freed after all.
                    }
                    return;
                }
                let exported = taken.and_then(|allocation| {
                    let exported =
                        fd_leaks::take_export(state, &allocation.unpack(handle, state.handle()));
                    remember_free(state, handle, allocation);
                    exported
                });
                if let Some(next) = state.next.free_memory {
                    // SAFETY: validated arguments, passed to the next layer's own entry point.
                    unsafe { next(device, memory, p_allocator) }
                }
                fd_leaks::after_free(state, exported);
            },
        )
    })
}
