//! The process-wide maps from handles to state.
//!
//! Instances and devices change rarely and are read on every call, so each registry is an
//! immutable map behind an `ArcSwap`: writers copy the map and bump a version. Readers of the
//! device registry (the hot path of every intercepted call) keep the snapshot they last used in a
//! thread-local and only reload it when the version moved (`this_thread`): a call costs one
//! shared atomic load, no atomic read-modify-write, so threads calling at once share nothing but
//! reads. Memory objects live in each device's own table (`live_memory`), so devices never
//! contend.

use super::device::DeviceState;
use super::instance::InstanceState;
use super::maps::FastMap;
use super::memory::PackedAllocation;
use arc_swap::ArcSwap;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

type Map<T> = FastMap<u64, Arc<T>>;
/// The device registry's map (each thread keeps a snapshot of it: `this_thread`).
pub type DeviceMap = Map<DeviceState>;

/// A copy-on-write map from a handle (or dispatch key) to shared state.
pub struct Registry<T> {
    map: ArcSwap<Map<T>>,
    /// Bumped (under `writer`) after each store of `map`.
    pub(super) version: AtomicU64,
    writer: Mutex<()>,
}

impl<T> Default for Registry<T> {
    fn default() -> Self {
        Self {
            map: ArcSwap::from_pointee(Map::default()),
            version: AtomicU64::new(1),
            writer: Mutex::new(()),
        }
    }
}

impl<T> Registry<T> {
    pub fn get(&self, key: u64) -> Option<Arc<T>> {
        self.map.load().get(&key).cloned()
    }

    /// Runs `f` with the value of `key`, borrowed from the current map.
    pub fn with<R>(&self, key: u64, f: impl FnOnce(Option<&T>) -> R) -> R {
        let map = self.map.load();
        f(map.get(&key).map(|value| &**value))
    }

    pub fn insert(&self, key: u64, value: Arc<T>) {
        self.update(|map| {
            map.insert(key, value);
        });
    }

    pub fn remove(&self, key: u64) -> Option<Arc<T>> {
        let mut removed = None;
        self.update(|map| removed = map.remove(&key));
        removed
    }

    fn update(&self, change: impl FnOnce(&mut Map<T>)) {
        let _w = self.writer.lock();
        let mut next = Map::clone(&self.map.load());
        change(&mut next);
        self.map.store(Arc::new(next));
        self.version.fetch_add(1, Ordering::Release);
    }

    /// The current map and its version (read in that order: a reader that sees this version
    /// later sees at least this map).
    pub(super) fn snapshot(&self) -> (u64, Arc<Map<T>>) {
        let version = self.version.load(Ordering::Acquire);
        (version, self.map.load_full())
    }

    /// Removes every key whose value is `value` (a device's queues, at `vkDestroyDevice`).
    pub fn remove_value(&self, value: &Arc<T>) {
        if self.map.load().values().any(|v| Arc::ptr_eq(v, value)) {
            self.update(|map| map.retain(|_, v| !Arc::ptr_eq(v, value)));
        }
    }

    /// Every value once (a device is also held under its queues' keys), for the rare paths that
    /// must look across all of them.
    pub fn values(&self) -> Vec<Arc<T>> {
        let mut values: Vec<Arc<T>> = Vec::new();
        for value in self.map.load().values() {
            if !values.iter().any(|v| Arc::ptr_eq(v, value)) {
                values.push(Arc::clone(value));
            }
        }
        values
    }
}

/// Instances, keyed by the loader's dispatch key (shared with their physical devices).
pub static INSTANCES: LazyLock<Registry<InstanceState>> = LazyLock::new(Registry::default);
/// Devices, keyed by the `VkDevice` handle value: looking one up never dereferences it.
pub static DEVICES: LazyLock<Registry<DeviceState>> = LazyLock::new(Registry::default);

/// The key under which `DEVICES` also holds the device of a queue `vkGetDeviceQueue*` returned:
/// the `VkQueue` handle value with the top bit set, which no handle of a dispatchable object (a
/// pointer into user space) has, so that a queue handle passed where a `VkDevice` belongs is
/// never taken for its device. A queue command finds its device through the thread's snapshot
/// of the registry, as every device command does (`this_thread::with_device`).
#[inline(always)]
pub const fn queue_key(queue: u64) -> u64 {
    queue | 1 << 63
}

/// Inserts the record of a successful allocation.
#[inline]
pub fn record_allocation(device: &DeviceState, memory: u64, allocation: PackedAllocation) {
    device.memories.insert(memory, allocation);
}

/// Removes a live allocation of `device` from the map (the first step of `vkFreeMemory`):
/// what it was allocated with, or `None` if `memory` is not a live allocation of `device`.
pub fn take_allocation(device: &DeviceState, memory: u64) -> Option<PackedAllocation> {
    if memory == 0 {
        return None;
    }
    device.memories.remove(memory)
}

/// Remembers a taken allocation among the recently freed, with its debug name (which is
/// dropped from the names map).
pub fn remember_free(device: &DeviceState, memory: u64, allocation: PackedAllocation) {
    let name = if device.memory_names.load(Ordering::Relaxed) {
        device
            .names
            .remove(&(ash::vk::ObjectType::DEVICE_MEMORY, memory))
            .map(|(_, name)| name)
    } else {
        None
    };
    device.freed.remember(memory, allocation, name);
}

/// What a buffer or image handle that is not a live resource of the calling device is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceElsewhere {
    /// A live resource of this other device.
    OtherDevice(u64),
    /// No live resource of any device the layer knows, and the layer sees every resource of
    /// that type made and destroyed on each of them.
    Nowhere,
    /// Not known: a device the layer does not see every resource of may have made it.
    Unknown,
}

/// Where `handle`, a buffer (`BUFFER`) or image (`IMAGE`) that is not a live one of `device`,
/// lives (the error path: it looks through every device).
#[cold]
pub fn find_resource_elsewhere(
    device: &DeviceState,
    ty: ash::vk::ObjectType,
    handle: u64,
) -> ResourceElsewhere {
    let mut every_one_seen = true;
    for other in DEVICES.values() {
        if other.handle() == device.handle() {
            continue;
        }
        if other.resources.contains(ty, handle) {
            return ResourceElsewhere::OtherDevice(other.handle());
        }
        every_one_seen &= match ty {
            ash::vk::ObjectType::IMAGE => other.sees_every_image(),
            _ => other.sees_every_buffer(),
        };
    }
    if every_one_seen {
        ResourceElsewhere::Nowhere
    } else {
        ResourceElsewhere::Unknown
    }
}
