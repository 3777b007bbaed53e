//! The process-wide maps from handles to state.
//!
//! Instances and devices change rarely and are read on every call, so each registry is an
//! immutable map behind an `ArcSwap`: readers never lock, writers copy the map. Memory objects
//! live in a sharded `DashMap` inside each device, so devices never contend with each other.

use super::device::DeviceState;
use super::instance::InstanceState;
use super::maps::FastMap;
use super::memory::{MemoryLookup, MemoryRecord};
use arc_swap::ArcSwap;
use parking_lot::Mutex;
use std::sync::atomic::Ordering;
use std::sync::{Arc, LazyLock};

type Map<T> = FastMap<u64, Arc<T>>;

/// A copy-on-write map from a handle (or dispatch key) to shared state.
pub struct Registry<T> {
    map: ArcSwap<Map<T>>,
    writer: Mutex<()>,
}

impl<T> Default for Registry<T> {
    fn default() -> Self {
        Self {
            map: ArcSwap::from_pointee(Map::default()),
            writer: Mutex::new(()),
        }
    }
}

impl<T> Registry<T> {
    pub fn get(&self, key: u64) -> Option<Arc<T>> {
        self.map.load().get(&key).cloned()
    }

    /// Runs `f` with the value of `key`, borrowed: no reference count is touched, so threads
    /// calling at once share nothing but reads (the hot path of every intercepted call).
    pub fn with<R>(&self, key: u64, f: impl FnOnce(Option<&T>) -> R) -> R {
        let map = self.map.load();
        f(map.get(&key).map(|value| &**value))
    }

    pub fn insert(&self, key: u64, value: Arc<T>) {
        let _w = self.writer.lock();
        let mut next = Map::clone(&self.map.load());
        next.insert(key, value);
        self.map.store(Arc::new(next));
    }

    pub fn remove(&self, key: u64) -> Option<Arc<T>> {
        let _w = self.writer.lock();
        let mut next = Map::clone(&self.map.load());
        let removed = next.remove(&key);
        self.map.store(Arc::new(next));
        removed
    }

    /// Every value, for the rare paths that must look across all of them.
    pub fn values(&self) -> Vec<Arc<T>> {
        self.map.load().values().cloned().collect()
    }
}

/// Instances, keyed by the loader's dispatch key (shared with their physical devices).
pub static INSTANCES: LazyLock<Registry<InstanceState>> = LazyLock::new(Registry::default);
/// Devices, keyed by the `VkDevice` handle value: looking one up never dereferences it.
pub static DEVICES: LazyLock<Registry<DeviceState>> = LazyLock::new(Registry::default);

/// Resolves a `VkDeviceMemory` argument of a command called on `device`.
pub fn lookup_memory(device: &DeviceState, memory: u64) -> MemoryLookup {
    if memory == 0 {
        return MemoryLookup::Null;
    }
    if let Some(record) = device.memories.get(&memory) {
        return MemoryLookup::Live(Arc::clone(&record));
    }
    // Error path only: is it a live allocation of another device?
    for other in DEVICES.values() {
        if other.handle() == device.handle() {
            continue;
        }
        if let Some(record) = other.memories.get(&memory) {
            return MemoryLookup::OtherDevice(Arc::clone(&record));
        }
    }
    match device.freed.find(memory) {
        Some(freed) => MemoryLookup::Freed(freed),
        None => MemoryLookup::Unknown,
    }
}

/// Inserts the record of a successful allocation.
pub fn record_allocation(device: &DeviceState, record: MemoryRecord) {
    device.memories.insert(record.memory, Arc::new(record));
}

/// Removes the record of a memory object about to be freed, and its debug name; remembers both
/// among the recently freed.
pub fn forget_allocation(device: &DeviceState, memory: u64) {
    let name = if device.memory_names.load(Ordering::Relaxed) {
        device
            .names
            .remove(&(ash::vk::ObjectType::DEVICE_MEMORY, memory))
            .map(|(_, name)| name)
    } else {
        None
    };
    if let Some((_, record)) = device.memories.remove(&memory) {
        device.freed.remember(record, name);
    }
}
