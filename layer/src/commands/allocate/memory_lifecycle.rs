//! The lifecycle of a `VkDeviceMemory`, in one place: what each feature does when memory is
//! made (`allocated`), when an export of it succeeded (`exported`), when it is freed (`freeing`,
//! before the call goes down, and `freed`, after), and when its device is destroyed
//! (`device_destroyed`). `commands/allocate/memory.rs`, the export descriptors
//! (`commands/export/`) and `commands/device.rs` call only these; a feature that tracks memory
//! adds its hook here:
//!
//! | hook | the memory map (`state::live_memory`: one record per allocation) | imports checked against exports (`import_matching`) | fd leaks (`fd_leaks`) | Android hardware buffer exports |
//! |---|---|---|---|---|
//! | `allocated` | the record (`registry::record_allocation`) | the dedicated resource and device mask of memory exportable as an opaque fd or global share handle, in the record's rare facts; an fd import's consumed fd | the imported file | the dedicated image not bound yet (01883), in the record's rare facts |
//! | `exported` | the NT handle types exported (00663), in the record's rare facts | an opaque fd's open file description held, a global share handle's origin; with a shared directory, the export for other processes | the exported fd's file | |
//! | `freeing` | the record taken out, with all it held, and remembered among the recently freed | the held exports, global share handles and consumed fds of the memory | the memory's exports, taken | (the record) |
//! | `freed` | | | the exports judged against what the process still holds | |
//! | `device_destroyed` | every table of the device (`DeviceState::forget_everything`) | the device's | every export, judged | (the records) |

use crate::args::ChainRead;
use crate::commands::export::get_memory_android_hardware_buffer;
use crate::features::fd_leaks::hooks as fd_leaks;
use crate::features::import_matching::hooks as import_matching;
use crate::os::HeldFile;
use crate::rules::export::get_memory_win32_handle::{
    is_counted_nt_export, GLOBAL_SHARE_HANDLE_TYPES,
};
use crate::rules::export::is_one_of;
use crate::state::registry::{record_allocation, remember_free};
use crate::state::{AllocationFacts, DeviceState, MemoryRecord, PackedAllocation};
use ash::vk;

/// What an import handed to the driver, taken before `vkAllocateMemory` went down.
pub struct Imported {
    /// The layer's hold of the open file description of the imported fd.
    pub held: Option<HeldFile>,
    /// What the leak check knows of the imported file.
    pub file: Option<fd_leaks::ImportedFile>,
}

/// After `vkAllocateMemory` made `memory` (`allocation`: what the layer records of it).
#[inline(always)]
pub fn allocated(
    state: &DeviceState,
    memory: u64,
    allocation: PackedAllocation,
    (facts, chain): (&AllocationFacts, &ChainRead),
    imported: Imported,
) {
    record_allocation(state, memory, allocation);
    if chain.dedicated_to.is_some() {
        get_memory_android_hardware_buffer::after_allocate(state, memory, facts, chain);
    }
    if facts.dedicated || chain.device_mask.is_some() {
        import_matching::after_allocate(state, memory, facts, chain);
    }
    if let Some(held) = imported.held {
        import_matching::after_import(state, memory, chain, held);
    }
    if imported.file.is_some() {
        fd_leaks::record_import(imported.file);
    }
}

/// What a successful export returned to the app.
#[derive(Clone, Copy, Debug)]
pub enum ExportedHandle {
    /// `vkGetMemoryFdKHR`'s fd, of a call the layer found valid.
    Fd(i32),
    /// `vkGetMemoryWin32HandleKHR`'s handle (0 where the driver wrote none).
    Win32(u64),
}

/// After an export of `memory` as `handle_type` (the type the layer read and judged) returned
/// `handle`.
#[inline(always)]
pub fn exported(
    state: &DeviceState,
    memory: &MemoryRecord,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: ExportedHandle,
) {
    match handle {
        ExportedHandle::Fd(fd) => {
            fd_leaks::record_export(state, memory.memory, fd);
            import_matching::after_export(state, memory, handle_type.as_raw(), fd);
        }
        ExportedHandle::Win32(value) => {
            if is_counted_nt_export(handle_type, memory) {
                let t = handle_type;
                state
                    .memories
                    .update_rare(memory.memory, |rare| rare.nt_handle_exports |= t);
            }
            // A NULL handle names nothing (the driver contract reports it).
            if is_one_of(handle_type, GLOBAL_SHARE_HANDLE_TYPES) && value != 0 {
                import_matching::after_global_share_export(state, memory, handle_type, value);
            }
        }
    }
}

/// What `freeing` took for `freed`: the memory's exports the leak check judges after the free.
pub struct Freeing(Option<Box<fd_leaks::Freeing>>);

/// Before `vkFreeMemory` of live `memory` goes down (its record already taken out of the map:
/// `allocation`).
#[inline(always)]
pub fn freeing(state: &DeviceState, memory: u64, allocation: PackedAllocation) -> Freeing {
    // What was exported from it (fd-leak tracking only), read before its name goes.
    let mut exported = None;
    if state.fd_exports.is_some() {
        let live = MemoryRecord {
            memory,
            device: state.handle(),
            allocation,
        };
        exported = fd_leaks::take_export(state, &live);
    }
    remember_free(state, memory, allocation);
    import_matching::before_free(state, memory);
    Freeing(exported)
}

/// After `vkFreeMemory` went down.
#[inline(always)]
pub fn freed(state: &DeviceState, freeing: Freeing) {
    if freeing.0.is_some() {
        fd_leaks::after_free(state, freeing.0);
    }
}

/// At `vkDestroyDevice`, before the call goes down: everything the layer holds for the device.
pub fn device_destroyed(state: &DeviceState) {
    fd_leaks::at_destroy(state);
    import_matching::at_destroy(state);
    state.forget_everything();
}
