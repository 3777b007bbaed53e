//! Per-`VkDevice` state: one shared, immutable record made at `vkCreateDevice`.

use super::contract::ContractState;
use super::fd_exports::FdExports;
use super::freed::RecentlyFreed;
use super::instance::InstanceState;
use super::live_memory::LiveMemories;
use super::maps::HandleMap;
use crate::dispatch::table::DeviceDispatch;
use crate::finding::ObjectRef;
use ash::vk;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The device extensions whose commands or structures the layer checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnabledExtensions {
    pub khr_external_memory: bool,
    pub khr_external_memory_fd: bool,
    pub ext_external_memory_dma_buf: bool,
    pub nv_external_memory_rdma: bool,
    pub nv_external_memory: bool,
    pub nv_external_memory_win32: bool,
    pub ext_external_memory_metal: bool,
}

impl EnabledExtensions {
    /// Sets the flag of one extension name; unknown names are ignored.
    pub fn enable(&mut self, name: &[u8]) {
        match name {
            b"VK_KHR_external_memory" => self.khr_external_memory = true,
            b"VK_KHR_external_memory_fd" => self.khr_external_memory_fd = true,
            b"VK_EXT_external_memory_dma_buf" => self.ext_external_memory_dma_buf = true,
            b"VK_NV_external_memory_rdma" => self.nv_external_memory_rdma = true,
            b"VK_NV_external_memory" => self.nv_external_memory = true,
            b"VK_NV_external_memory_win32" => self.nv_external_memory_win32 = true,
            b"VK_EXT_external_memory_metal" => self.ext_external_memory_metal = true,
            _ => {}
        }
    }
}

/// What the checks need to know about a device: plain data, so checks stay pure functions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceFacts {
    pub handle: u64,
    pub extensions: EnabledExtensions,
    /// `VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA` was enabled.
    pub rdma_feature: bool,
    /// Property flags of each memory type of the physical device.
    pub memory_types: Vec<vk::MemoryPropertyFlags>,
    /// What the driver reports for exporting memory of each handle type (for buffers), or
    /// `None` when it could not be asked. Boxed: only allocation reads it, and the export path
    /// reads the other facts, which then share a cache line with the dispatch table.
    pub external_memory: Option<Box<ExternalMemorySupport>>,
}

/// `VkExternalMemoryProperties` of each `VkExternalMemoryHandleTypeFlagBits` bit, as
/// `vkGetPhysicalDeviceExternalBufferProperties` reported them at `vkCreateDevice`: a table by
/// bit index, so a check costs one load per bit. Only the bits valid to ask about are asked
/// (`state::queryable`); the others have no features.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExternalMemorySupport {
    table: [(
        vk::ExternalMemoryFeatureFlags,
        vk::ExternalMemoryHandleTypeFlags,
    ); 32],
    /// The bits the driver was asked about.
    asked: vk::ExternalMemoryHandleTypeFlags,
}

impl ExternalMemorySupport {
    /// Records what the driver reported for one handle type bit.
    pub fn set(
        &mut self,
        bit: vk::ExternalMemoryHandleTypeFlags,
        features: vk::ExternalMemoryFeatureFlags,
        compatible: vk::ExternalMemoryHandleTypeFlags,
    ) {
        if let Some(entry) = self.table.get_mut(bit.as_raw().trailing_zeros() as usize) {
            *entry = (features, compatible);
            self.asked |= bit;
        }
    }

    /// Whether the driver was asked about this handle type bit (else its extension is not
    /// supported by the physical device, and asking would have been invalid).
    pub fn asked(&self, bit: vk::ExternalMemoryHandleTypeFlags) -> bool {
        self.asked.contains(bit)
    }

    /// Features and compatible types of one handle type bit (none if the driver said nothing).
    pub fn of(
        &self,
        bit: vk::ExternalMemoryHandleTypeFlags,
    ) -> (
        vk::ExternalMemoryFeatureFlags,
        vk::ExternalMemoryHandleTypeFlags,
    ) {
        self.table
            .get(bit.as_raw().trailing_zeros() as usize)
            .copied()
            .unwrap_or_default()
    }
}

impl DeviceFacts {
    /// Property flags of a memory type index, empty when out of range.
    pub fn type_flags(&self, index: u32) -> vk::MemoryPropertyFlags {
        self.memory_types
            .get(index as usize)
            .copied()
            .unwrap_or_default()
    }
}

/// Everything the layer keeps for one `VkDevice`.
pub struct DeviceState {
    pub facts: DeviceFacts,
    pub physical_device: vk::PhysicalDevice,
    pub instance: Arc<InstanceState>,
    pub next: DeviceDispatch,
    /// Live memory objects of this device, by handle value.
    pub memories: LiveMemories,
    /// The driver-contract checks' own state.
    pub contract: ContractState,
    /// Recently freed memory, to name the object of a use after free.
    pub freed: RecentlyFreed,
    /// Whether the app ever named a `VkDeviceMemory` (else freeing skips the names map).
    pub memory_names: AtomicBool,
    /// Debug names set with `vkSetDebugUtilsObjectNameEXT`, by object type and handle value.
    pub names: HandleMap<(vk::ObjectType, u64), String>,
    /// The fds exported from this device's memory, when the `check_fd_leaks` setting is on.
    pub fd_exports: Option<FdExports>,
}

impl DeviceState {
    pub fn handle(&self) -> u64 {
        self.facts.handle
    }

    /// The debug name of an object of this device, if the app set one.
    /// For memory that is no longer live, the name it had when it was freed.
    pub fn name_of(&self, object: ObjectRef) -> Option<String> {
        if let Some(name) = self.names.get(&(object.ty, object.handle)) {
            return Some(name.clone());
        }
        if object.ty != vk::ObjectType::DEVICE_MEMORY || self.memories.contains(object.handle) {
            return None;
        }
        self.freed
            .find(object.handle, self.handle())
            .and_then(|f| f.name)
    }
}
