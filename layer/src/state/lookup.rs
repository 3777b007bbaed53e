//! The kinds of object whose sharing the layer tracks, as the pipelines see them
//! ([`TrackedObject`]: memory, semaphores and fences), and what a handle argument of
//! one turned out to be ([`Lookup`]).

use super::device::DeviceFacts;
use super::enabled_extensions::EnabledExtensions;
use super::fences::{DestroyedFence, FenceRecord};
use super::freed::FreedMemory;
use super::memory::MemoryRecord;
use super::registry::DEVICES;
use super::semaphores::{DestroyedSemaphore, SemaphoreRecord};
use super::this_thread::ThreadMemos;
use super::DeviceState;
use crate::handle_kinds::{Fence, HandleKind, Memory, Semaphore};
use ash::vk;
use std::fmt;

/// A kind of object whose sharing the layer tracks: its handle types ([`HandleKind`]), what the
/// layer keeps of a live one and of one that is gone, and how a handle argument is resolved.
/// The export pipeline (`pipeline::export`) and the export rules are written once over it.
pub trait TrackedObject: HandleKind + Sized + 'static {
    /// Its Vulkan handle type: `VkDeviceMemory`, `VkSemaphore`, `VkFence`.
    type Handle: vk::Handle + Copy;
    /// What the layer knows of a live object (copied out of its device's table).
    type Record: Clone + fmt::Debug;
    /// What the layer remembers of one its device lately let go (freed, destroyed).
    type Gone: Clone + fmt::Debug;
    const OBJECT_TYPE: vk::ObjectType;
    /// The member of an info structure (or the parameter) that names the object: `memory`.
    const MEMBER: &'static str;

    /// The handle of a live object.
    fn handle(record: &Self::Record) -> u64;

    /// The handle of its device.
    fn device(record: &Self::Record) -> u64;

    /// The handle-type bits valid on a device.
    fn valid_handle_types(device: &DeviceFacts) -> u32;

    /// What `handle`, an argument of a command called on `state`, is: from the thread's memos
    /// or the device's table on the hot path; the error path looks further.
    fn lookup(state: &DeviceState, handle: u64, memos: &ThreadMemos) -> Lookup<Self>;
}

/// What a handle argument of a tracked kind turned out to be.
pub enum Lookup<K: TrackedObject> {
    /// `VK_NULL_HANDLE`.
    Null,
    /// Not a live object of any device the layer knows: never made, or let go long ago.
    Unknown,
    /// An object the device the command was called on lately let go (freed, destroyed).
    Gone(Box<K::Gone>),
    /// A live object of the device the command was called on.
    Live(K::Record),
    /// A live object of another device.
    OtherDevice(K::Record),
}

impl<K: TrackedObject> Clone for Lookup<K> {
    fn clone(&self) -> Self {
        match self {
            Self::Null => Self::Null,
            Self::Unknown => Self::Unknown,
            Self::Gone(gone) => Self::Gone(gone.clone()),
            Self::Live(record) => Self::Live(record.clone()),
            Self::OtherDevice(record) => Self::OtherDevice(record.clone()),
        }
    }
}

impl<K: TrackedObject> fmt::Debug for Lookup<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("Null"),
            Self::Unknown => f.write_str("Unknown"),
            Self::Gone(gone) => f.debug_tuple("Gone").field(gone).finish(),
            Self::Live(record) => f.debug_tuple("Live").field(record).finish(),
            Self::OtherDevice(record) => f.debug_tuple("OtherDevice").field(record).finish(),
        }
    }
}

/// What a `VkDeviceMemory` argument turned out to be.
pub type MemoryLookup = Lookup<Memory>;

impl TrackedObject for Memory {
    type Handle = vk::DeviceMemory;
    type Record = MemoryRecord;
    type Gone = FreedMemory;
    const OBJECT_TYPE: vk::ObjectType = vk::ObjectType::DEVICE_MEMORY;
    const MEMBER: &'static str = "memory";

    #[inline(always)]
    fn handle(record: &MemoryRecord) -> u64 {
        record.memory
    }

    #[inline(always)]
    fn device(record: &MemoryRecord) -> u64 {
        record.device
    }

    #[inline(always)]
    fn valid_handle_types(device: &DeviceFacts) -> u32 {
        device.handle_types.as_raw()
    }

    #[inline(always)]
    fn lookup(state: &DeviceState, memory: u64, memos: &ThreadMemos) -> MemoryLookup {
        match state.memories.get(memory, &memos.allocations) {
            Some(allocation) => Lookup::Live(allocation.record(memory, state.handle())),
            None => lookup_dead_memory(state, memory),
        }
    }
}

/// Resolves a `VkDeviceMemory` argument of a command called on `device`.
pub fn lookup_memory(device: &DeviceState, memory: u64) -> MemoryLookup {
    if memory == 0 {
        return MemoryLookup::Null;
    }
    if let Some(allocation) = device.memories.get_from_map(memory) {
        return MemoryLookup::Live(allocation.record(memory, device.handle()));
    }
    lookup_dead_memory(device, memory)
}

/// [`lookup_memory`] for a handle that is not a live allocation of `device` (the error path).
#[cold]
pub fn lookup_dead_memory(device: &DeviceState, memory: u64) -> MemoryLookup {
    if memory == 0 {
        return MemoryLookup::Null;
    }
    for other in DEVICES.values() {
        if other.handle() == device.handle() {
            continue;
        }
        if let Some(allocation) = other.memories.get_from_map(memory) {
            return MemoryLookup::OtherDevice(allocation.record(memory, other.handle()));
        }
    }
    match device.freed.find(memory, device.handle()) {
        Some(freed) => MemoryLookup::Gone(Box::new(freed)),
        None => MemoryLookup::Unknown,
    }
}

/// What a `VkSemaphore` argument turned out to be.
pub type SemaphoreLookup = Lookup<Semaphore>;

impl TrackedObject for Semaphore {
    type Handle = vk::Semaphore;
    type Record = SemaphoreRecord;
    type Gone = DestroyedSemaphore;
    const OBJECT_TYPE: vk::ObjectType = vk::ObjectType::SEMAPHORE;
    const MEMBER: &'static str = "semaphore";

    fn handle(record: &SemaphoreRecord) -> u64 {
        record.semaphore
    }

    fn device(record: &SemaphoreRecord) -> u64 {
        record.device
    }

    /// The core bits, and each bit whose extension the device enabled.
    #[inline(always)]
    fn valid_handle_types(device: &DeviceFacts) -> u32 {
        semaphore_handle_types(&device.extensions)
    }

    /// The device's table (every semaphore a device makes is recorded: `vkCreateSemaphore` is
    /// intercepted wherever the next layer has it).
    fn lookup(state: &DeviceState, semaphore: u64, _: &ThreadMemos) -> SemaphoreLookup {
        match state.semaphores.get(semaphore, state.handle()) {
            Some(record) => Lookup::Live(record),
            None => lookup_dead_semaphore(state, semaphore),
        }
    }
}

/// A `VkSemaphore` argument that is no live semaphore of `device` (the error path): NULL, one of
/// another device, one `device` destroyed lately, or unknown.
#[cold]
fn lookup_dead_semaphore(device: &DeviceState, semaphore: u64) -> SemaphoreLookup {
    if semaphore == 0 {
        return Lookup::Null;
    }
    for other in DEVICES.values() {
        if other.handle() == device.handle() {
            continue;
        }
        if let Some(record) = other.semaphores.get(semaphore, other.handle()) {
            return Lookup::OtherDevice(record);
        }
    }
    match device.semaphores.find_destroyed(semaphore) {
        Some(destroyed) => Lookup::Gone(Box::new(destroyed)),
        None => Lookup::Unknown,
    }
}

/// What a `VkFence` argument turned out to be.
pub type FenceLookup = Lookup<Fence>;

impl TrackedObject for Fence {
    type Handle = vk::Fence;
    type Record = FenceRecord;
    type Gone = DestroyedFence;
    const OBJECT_TYPE: vk::ObjectType = vk::ObjectType::FENCE;
    const MEMBER: &'static str = "fence";

    fn handle(record: &FenceRecord) -> u64 {
        record.fence
    }

    fn device(record: &FenceRecord) -> u64 {
        record.device
    }

    /// Every fence bit is core wherever fences can be shared.
    #[inline(always)]
    fn valid_handle_types(_: &DeviceFacts) -> u32 {
        Fence::CORE
    }

    /// The device's table (every fence a device makes is recorded: `vkCreateFence` is
    /// intercepted wherever the next layer has it).
    fn lookup(state: &DeviceState, fence: u64, _: &ThreadMemos) -> FenceLookup {
        match state.fences.get(fence, state.handle()) {
            Some(record) => Lookup::Live(record),
            None => lookup_dead_fence(state, fence),
        }
    }
}

/// A `VkFence` argument that is no live fence of `device` (the error path): NULL, one of another
/// device, one `device` destroyed lately, or unknown.
#[cold]
fn lookup_dead_fence(device: &DeviceState, fence: u64) -> FenceLookup {
    if fence == 0 {
        return Lookup::Null;
    }
    for other in DEVICES.values() {
        if other.handle() == device.handle() {
            continue;
        }
        if let Some(record) = other.fences.get(fence, other.handle()) {
            return Lookup::OtherDevice(record);
        }
    }
    match device.fences.find_destroyed(fence) {
        Some(destroyed) => Lookup::Gone(Box::new(destroyed)),
        None => Lookup::Unknown,
    }
}

/// The semaphore handle-type bits valid on a device with `extensions`: what
/// `Semaphore::valid_on` says, written out so that an export or import reads one flag instead
/// of matching extension names (`semaphore_bits_are_the_registrys` keeps the two equal).
#[inline(always)]
fn semaphore_handle_types(extensions: &EnabledExtensions) -> u32 {
    const ZIRCON_EVENT: u32 = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();
    Semaphore::CORE
        | if extensions.fuchsia_external_semaphore {
            ZIRCON_EVENT
        } else {
            0
        }
}

#[cfg(test)]
mod valid_bits_tests {
    use super::*;

    #[test]
    fn semaphore_bits_are_the_registrys() {
        for fuchsia in [false, true] {
            let mut e = EnabledExtensions::default();
            if fuchsia {
                e.enable(b"VK_FUCHSIA_external_semaphore");
            }
            assert_eq!(
                semaphore_handle_types(&e),
                Semaphore::valid_on(|name| e.has(name))
            );
        }
        assert_eq!(
            Fence::CORE,
            Fence::valid_on(|_| false),
            "every fence bit is core"
        );
        assert_eq!(Fence::CORE, Fence::valid_on(|_| true));
    }
}
