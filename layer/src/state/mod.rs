//! Tracked state: what the layer knows about instances, devices and memory objects.
//!
//! Instances and devices are immutable snapshots behind `Arc`s, borrowed by each call. Memory
//! records are small values stored inline in their device's map and copied out on lookup, so no
//! map lock is held while checking, reporting or calling down.

pub mod device;
pub mod device_groups;
pub mod driver_dma_bufs;
#[rustfmt::skip]
mod enabled_extensions;
pub mod fences;
pub mod freed;
pub mod instance;
pub mod live_memory;
pub mod lookup;
pub mod maps;
pub mod memory;
pub mod queryable;
pub mod registry;
pub mod resources;
pub mod semaphores;
pub mod submissions;
pub mod sync_payload;
pub mod sync_support;
pub mod this_thread;

pub use device::{DeviceFacts, DeviceState, EnabledExtensions, EnabledFeatures, MemoryTypeFacts};
pub use fences::{DestroyedFence, FenceFacts, FenceRecord, FenceSignal};
pub use freed::{FreedMemory, RecentlyFreed};
pub use instance::{InstanceState, Messenger};
pub use lookup::{FenceLookup, Lookup, MemoryLookup, SemaphoreLookup, TrackedObject};
pub use memory::{AllocationFacts, MemoryRecord, PackedAllocation};
pub use resources::driver_answers::{ExternalMemorySupport, HandleTypeSupport};
pub use semaphores::{DestroyedSemaphore, QueueUse, SemaphoreFacts, SemaphoreRecord, SignalState};
