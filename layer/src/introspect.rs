//! What the layer is tracking, for tests and tools that check it does not grow: the exported
//! `exportcheck_tracked_counts` (look it up with `dlsym` in the loaded layer library).

use crate::features::import_matching::state::opaque_exports;
use crate::state::driver_dma_bufs;
use crate::state::registry::{DEVICES, INSTANCES};

/// How many objects the layer tracks right now.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrackedCounts {
    pub instances: u64,
    pub devices: u64,
    /// Live `VkDeviceMemory` records, over all devices.
    pub memory_objects: u64,
    /// Debug names set with `vkSetDebugUtilsObjectNameEXT`, over all devices.
    pub debug_names: u64,
    /// Live memory records holding the fd of a driver-contract probe, over all devices.
    pub probe_entries: u64,
    /// Facts of live memory records about earlier calls (NT handles exported with
    /// `vkGetMemoryWin32HandleKHR`, memory waiting for its dedicated image), over all devices.
    pub history_entries: u64,
    /// Live buffers and images (`state::resources`), over all devices.
    pub resources: u64,
    /// Live buffers and images made for external memory (those whose record carries an export
    /// query) and the driver's answers about them (`state::resources`), over all devices.
    pub resource_entries: u64,
    /// Exports the fd-leak check watches (`features::fd_leaks::state`), over all devices.
    pub fd_export_entries: u64,
    /// The process-wide tables: held exports, global share handles, consumed fds
    /// (`opaque_exports`, `kmt_exports`, `consumed_fds`) and the payloads a driver returned as
    /// dma-bufs (`driver_dma_bufs`, at most 256, kept for the process's life).
    pub process_entries: u64,
    /// Live semaphores (`state::semaphores`), over all devices.
    pub semaphores: u64,
    /// Live fences (`state::fences`), over all devices.
    pub fences: u64,
}

/// Counts what the registries hold.
pub fn tracked_counts() -> TrackedCounts {
    let devices = DEVICES.values();
    let rare: Vec<_> = devices.iter().map(|d| d.memories.rare_counts()).collect();
    TrackedCounts {
        instances: INSTANCES.values().len() as u64,
        devices: devices.len() as u64,
        memory_objects: devices.iter().map(|d| d.memories.count() as u64).sum(),
        debug_names: devices.iter().map(|d| d.names.len() as u64).sum(),
        probe_entries: rare.iter().map(|&(probed, _)| probed as u64).sum(),
        history_entries: rare.iter().map(|&(_, history)| history as u64).sum(),
        resources: devices.iter().map(|d| d.resources.len() as u64).sum(),
        resource_entries: devices
            .iter()
            .map(|d| d.resources.export_entries() as u64)
            .sum(),
        fd_export_entries: devices
            .iter()
            .filter_map(|d| d.fd_exports.as_ref())
            .map(|f| f.entries() as u64)
            .sum(),
        process_entries: (opaque_exports::entries() + driver_dma_bufs::entries()) as u64,
        semaphores: devices.iter().map(|d| d.semaphores.count() as u64).sum(),
        fences: devices.iter().map(|d| d.fences.count() as u64).sum(),
    }
}
