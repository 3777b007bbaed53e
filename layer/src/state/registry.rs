//! The process-wide maps from handles to state.
//!
//! Instances and devices change rarely and are read on every call, so each registry is an
//! immutable map behind an `ArcSwap`: writers copy the map and bump a version. Readers of the
//! device registry (the hot path of every intercepted call) keep the snapshot they last used in a
//! thread-local and only reload it when the version moved: a call costs one shared atomic load,
//! no atomic read-modify-write, so threads calling at once share nothing but reads. Memory
//! objects live in a sharded `DashMap` inside each device, so devices never contend.

use super::device::DeviceState;
use super::instance::InstanceState;
use super::maps::FastMap;
use super::memory::{MemoryLookup, PackedAllocation};
use arc_swap::ArcSwap;
use parking_lot::Mutex;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

type Map<T> = FastMap<u64, Arc<T>>;

/// A copy-on-write map from a handle (or dispatch key) to shared state.
pub struct Registry<T> {
    map: ArcSwap<Map<T>>,
    /// Bumped (under `writer`) after each store of `map`.
    version: AtomicU64,
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
    fn snapshot(&self) -> (u64, Arc<Map<T>>) {
        let version = self.version.load(Ordering::Acquire);
        (version, self.map.load_full())
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

/// A thread's view of the device registry: the map of one version, and the device it last found
/// in it (threads usually call on one device).
struct ThreadDevices {
    /// The registry version `map` is of (0: no map yet).
    version: Cell<u64>,
    /// The handle of the device last looked up, and its state in `map` (NULL: no such device).
    last: Cell<(u64, *const DeviceState)>,
    /// Calls of this thread under way (a debug callback may call Vulkan from inside one): `map`
    /// is only replaced when there are none, so no state a call borrowed from it is freed.
    depth: Cell<u32>,
    map: RefCell<Option<Arc<Map<DeviceState>>>>,
}

impl ThreadDevices {
    /// The state of `device` (NULL if it is no device) in this thread's map of registry version
    /// `current`; `None` when the map is older and a call of this thread is using it.
    #[inline(always)]
    fn find(&self, device: u64, current: u64) -> Option<*const DeviceState> {
        let (handle, state) = self.last.get();
        if handle == device && self.version.get() == current {
            return Some(state);
        }
        self.find_again(device, current)
    }

    /// [`Self::find`] for another device than the last one, or a newer registry.
    fn find_again(&self, device: u64, current: u64) -> Option<*const DeviceState> {
        if self.version.get() != current {
            if self.depth.get() != 0 {
                return None;
            }
            let (version, map) = DEVICES.snapshot();
            // No call of this thread borrows from the old map (depth is 0): it may go.
            *self.map.try_borrow_mut().ok()? = Some(map);
            self.version.set(version);
        }
        let map = self.map.try_borrow().ok()?;
        let state = map
            .as_ref()
            .and_then(|map| map.get(&device))
            .map_or(std::ptr::null(), Arc::as_ptr);
        self.last.set((device, state));
        Some(state)
    }
}

/// Marks a call of this thread under way for as long as it lives (also when the call panics).
struct CallDepth<'a>(&'a Cell<u32>);

impl<'a> CallDepth<'a> {
    fn enter(depth: &'a Cell<u32>) -> Self {
        depth.set(depth.get() + 1);
        Self(depth)
    }
}

impl Drop for CallDepth<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

thread_local! {
    /// The device map this thread last used.
    static THREAD_DEVICES: ThreadDevices = const {
        ThreadDevices {
            version: Cell::new(0),
            last: Cell::new((0, std::ptr::null())),
            depth: Cell::new(0),
            map: RefCell::new(None),
        }
    };
}

/// Runs `f` with the state of `device`, borrowed: the hot path of every intercepted device
/// command. The thread's snapshot of the device map is reused while no device was created or
/// destroyed since it was taken, so no reference count is touched: one shared atomic load and
/// a thread-local compare.
#[inline(always)]
pub fn with_device<R>(device: u64, f: impl FnOnce(Option<&DeviceState>) -> R) -> R {
    let current = DEVICES.version.load(Ordering::Acquire);
    let mut f = Some(f);
    let done = THREAD_DEVICES.try_with(|thread| {
        let state = thread.find(device, current)?;
        let _depth = CallDepth::enter(&thread.depth);
        // SAFETY: NULL or a state in `thread.map`, which is not replaced while `_depth` lives.
        let state = unsafe { state.as_ref() };
        f.take().map(|f| f(state))
    });
    match (done, f) {
        (Ok(Some(result)), _) => result,
        // The thread is exiting (its thread-locals are gone) or an outer call on this thread
        // holds a stale snapshot: read the registry directly.
        (_, Some(f)) => with_device_from_registry(device, f),
        (_, None) => unreachable!("f is taken only to be called, and then the result is Some"),
    }
}

/// [`with_device`] without the thread's snapshot (out of line, so the command's body is inlined
/// once, on the fast path).
#[cold]
#[inline(never)]
fn with_device_from_registry<R>(device: u64, f: impl FnOnce(Option<&DeviceState>) -> R) -> R {
    DEVICES.with(device, f)
}

/// What `memory` was allocated with, if it is a live allocation of `device` (copied out: no
/// lock is held afterwards). The commands' fast path; [`lookup_memory`] says what else it is.
#[inline(always)]
pub fn live_allocation(device: &DeviceState, memory: u64) -> Option<PackedAllocation> {
    device.memories.get(&memory).map(|allocation| *allocation)
}

/// Resolves a `VkDeviceMemory` argument of a command called on `device`.
pub fn lookup_memory(device: &DeviceState, memory: u64) -> MemoryLookup {
    if memory == 0 {
        return MemoryLookup::Null;
    }
    if let Some(allocation) = live_allocation(device, memory) {
        return MemoryLookup::Live(allocation.unpack(memory, device.handle()));
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
        if let Some(allocation) = other.memories.get(&memory) {
            return MemoryLookup::OtherDevice(allocation.unpack(memory, other.handle()));
        }
    }
    match device.freed.find(memory, device.handle()) {
        Some(freed) => MemoryLookup::Freed(freed),
        None => MemoryLookup::Unknown,
    }
}

/// Inserts the record of a successful allocation.
pub fn record_allocation(device: &DeviceState, memory: u64, allocation: PackedAllocation) {
    device.memories.insert(memory, allocation);
}

/// Removes a live allocation of `device` from the map (the first step of `vkFreeMemory`):
/// what it was allocated with, or `None` if `memory` is not a live allocation of `device`.
pub fn take_allocation(device: &DeviceState, memory: u64) -> Option<PackedAllocation> {
    if memory == 0 {
        return None;
    }
    device
        .memories
        .remove(&memory)
        .map(|(_, allocation)| allocation)
}

/// Remembers a taken allocation among the recently freed, with its debug name (which is
/// dropped from the names map); the driver-contract probes forget it.
pub fn remember_free(device: &DeviceState, memory: u64, allocation: PackedAllocation) {
    device.contract.forget(memory);
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
