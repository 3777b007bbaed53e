//! Tracked state: what the layer knows about instances, devices and memory objects.
//!
//! Records are immutable snapshots behind `Arc`s. A lookup hands out a reference, so no map lock
//! is held while checking, reporting or calling down.

pub mod contract;
pub mod device;
pub mod freed;
pub mod instance;
pub mod maps;
pub mod memory;
pub mod registry;

pub use device::{DeviceFacts, DeviceState, EnabledExtensions, ExternalMemorySupport};
pub use freed::{FreedMemory, RecentlyFreed};
pub use instance::{InstanceState, Messenger};
pub use memory::{AllocationFacts, MemoryLookup, MemoryRecord};
