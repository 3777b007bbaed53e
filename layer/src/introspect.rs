//! What the layer is tracking, for tests and tools that check it does not grow: the exported
//! `exportcheck_tracked_counts` (look it up with `dlsym` in the loaded layer library).

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
    /// Per-memory entries of the driver-contract probes, over all devices.
    pub probe_entries: u64,
    /// Per-memory entries of the rules about earlier calls (NT handles exported with
    /// `vkGetMemoryWin32HandleKHR`, memory waiting for its dedicated image), over all devices.
    pub history_entries: u64,
    /// Live buffers and images (`state::live_resources`), over all devices.
    pub resources: u64,
}

/// Counts what the registries hold.
pub fn tracked_counts() -> TrackedCounts {
    let devices = DEVICES.values();
    TrackedCounts {
        instances: INSTANCES.values().len() as u64,
        devices: devices.len() as u64,
        memory_objects: devices.iter().map(|d| d.memories.count() as u64).sum(),
        debug_names: devices.iter().map(|d| d.names.len() as u64).sum(),
        probe_entries: devices
            .iter()
            .map(|d| d.contract.probe_entries() as u64)
            .sum(),
        history_entries: devices
            .iter()
            .map(|d| (d.nt_handle_exports.len() + d.unbound_dedicated_images.len()) as u64)
            .sum(),
        resources: devices.iter().map(|d| d.live.len() as u64).sum(),
    }
}
