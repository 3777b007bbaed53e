//! What a `VkDeviceMemory` argument of a command is.

use super::freed::FreedMemory;
use super::memory::MemoryRecord;

/// What a `VkDeviceMemory` argument turned out to be.
#[derive(Clone, Debug)]
pub enum MemoryLookup {
    /// `VK_NULL_HANDLE`.
    Null,
    /// Not a live allocation of any device the layer knows: never allocated, or freed long ago.
    Unknown,
    /// A recently freed allocation of the device the command was called on.
    Freed(Box<FreedMemory>),
    /// A live allocation of the device the command was called on.
    Live(MemoryRecord),
    /// A live allocation of another device.
    OtherDevice(MemoryRecord),
}
