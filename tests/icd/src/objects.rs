//! Dispatchable objects (what a `VkInstance`, `VkPhysicalDevice`, `VkDevice` or `VkQueue` points
//! to) and the registries that turn handles back into driver state.
//!
//! The driver never dereferences a handle it is given: it looks the handle's value up in a
//! registry, so a stale or made-up handle is an unknown key, not a wild read.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, DefaultHasher};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use crate::device::{Device, Queue};
use crate::instance::Instance;
use crate::physical_device::PhysicalDevice;

/// `ICD_LOADER_MAGIC` from `vk_icd.h`.
pub const ICD_LOADER_MAGIC: usize = 0x01CD_C0DE;

/// What a dispatchable handle points to: one pointer-sized word that starts as
/// [`ICD_LOADER_MAGIC`] and that the loader then overwrites with its dispatch table pointer.
#[repr(C)]
struct LoaderData {
    loader_data: usize,
}

/// One dispatchable object. The driver only ever uses its address (the handle): the word
/// inside belongs to the loader once the handle has been handed out.
///
/// Its memory (one word) is never freed. The loader may still read the first word of a destroyed
/// object (1.3.239 walks its device lists without a lock while another thread destroys a device),
/// and a destroyed handle's address is never reused, so a stale handle stays unknown instead of
/// naming a newer object.
pub struct Dispatchable {
    ptr: *mut LoaderData,
}

// SAFETY: the driver never reads or writes through `ptr` after creation; the pointer is only an
// address owned by this value, so moving or sharing it across threads is sound.
unsafe impl Send for Dispatchable {}
// SAFETY: as above, no access through `&Dispatchable` touches the pointee.
unsafe impl Sync for Dispatchable {}

impl Dispatchable {
    pub fn new() -> Self {
        let ptr = Box::into_raw(Box::new(LoaderData {
            loader_data: ICD_LOADER_MAGIC,
        }));
        Dispatchable { ptr }
    }

    /// The handle value (the object's address).
    pub fn handle(&self) -> usize {
        self.ptr as usize
    }
}

impl Default for Dispatchable {
    fn default() -> Self {
        Self::new()
    }
}

/// The driver's hash maps: std's SipHash with fixed keys instead of a per-process random seed, so
/// that the driver runs the same instructions in every process (a random seed changes which
/// lookups meet a false tag match, about 20 instructions each): the benchmark's instruction
/// counts under callgrind (docs/performance.md) are exactly reproducible. Keys are handle values
/// and command names, not attacker-chosen, so a fixed seed costs nothing.
pub type Map<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;
/// A set hashed like [`Map`].
pub type Set<T> = HashSet<T, BuildHasherDefault<DefaultHasher>>;

/// Locks a mutex, also after a panic poisoned it (the panic was caught at the boundary; the
/// maps stay consistent because every update is a single insert or remove).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Live objects of one kind, keyed by handle value.
pub struct Registry<T> {
    map: Mutex<Map<usize, Arc<T>>>,
}

impl<T> Registry<T> {
    fn new() -> Self {
        Registry {
            map: Mutex::new(Map::default()),
        }
    }

    pub fn insert(&self, handle: usize, object: Arc<T>) {
        lock(&self.map).insert(handle, object);
    }

    pub fn get(&self, handle: usize) -> Option<Arc<T>> {
        lock(&self.map).get(&handle).cloned()
    }

    pub fn remove(&self, handle: usize) -> Option<Arc<T>> {
        lock(&self.map).remove(&handle)
    }
}

macro_rules! registry {
    ($name:ident, $ty:ty) => {
        pub fn $name() -> &'static Registry<$ty> {
            static R: OnceLock<Registry<$ty>> = OnceLock::new();
            R.get_or_init(Registry::new)
        }
    };
}

registry!(instances, Instance);
registry!(physical_devices, PhysicalDevice);
registry!(devices, Device);
registry!(queues, Queue);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_start_with_the_loader_magic() {
        let d = Dispatchable::new();
        // SAFETY: the object was not handed to a loader; reading it in a test is fine.
        let word = unsafe { *(d.handle() as *const usize) };
        assert_eq!(word, ICD_LOADER_MAGIC);
        assert_ne!(Dispatchable::new().handle(), d.handle());
        // Addresses are not reused after an object is dropped.
        let old = Dispatchable::new().handle();
        assert_ne!(Dispatchable::new().handle(), old);
    }
}
