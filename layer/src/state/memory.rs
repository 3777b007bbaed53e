//! One record per live `VkDeviceMemory`, inserted after `vkAllocateMemory` succeeded and removed
//! before `vkFreeMemory` goes down.

use ash::vk;
use std::sync::Arc;

/// What `vkAllocateMemory` was given, read from `VkMemoryAllocateInfo` and its pNext chain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllocationFacts {
    pub size: vk::DeviceSize,
    pub memory_type_index: u32,
    /// `VkExportMemoryAllocateInfo::handleTypes`, or `None` when the chain had no such structure.
    pub export: Option<vk::ExternalMemoryHandleTypeFlags>,
    /// `VkExportMemoryAllocateInfoNV::handleTypes`, or `None` when absent.
    pub export_nv: Option<vk::ExternalMemoryHandleTypeFlagsNV>,
    /// The chain had a `VkExportMemoryWin32HandleInfoNV`.
    pub export_win32_nv: bool,
    /// The handle type imported from, when the chain had an import structure.
    pub import: Option<vk::ExternalMemoryHandleTypeFlags>,
    /// The chain had a `VkMemoryDedicatedAllocateInfo` (or the NV variant).
    pub dedicated: bool,
}

/// The immutable snapshot the layer keeps for a live `VkDeviceMemory`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryRecord {
    pub memory: u64,
    pub device: u64,
    pub facts: AllocationFacts,
    /// Property flags of `facts.memory_type_index` on the owning device (empty if out of range).
    pub type_flags: vk::MemoryPropertyFlags,
}

/// What a `VkDeviceMemory` argument turned out to be.
#[derive(Clone, Debug)]
pub enum MemoryLookup {
    /// `VK_NULL_HANDLE`.
    Null,
    /// Not a live allocation of any device the layer knows: never allocated, or freed long ago.
    Unknown,
    /// A recently freed allocation of the device the command was called on.
    Freed(super::freed::FreedMemory),
    /// A live allocation of the device the command was called on.
    Live(Arc<MemoryRecord>),
    /// A live allocation of another device.
    OtherDevice(Arc<MemoryRecord>),
}
