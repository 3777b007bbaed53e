//! The live objects of one kind. A handle is the address of its object's heap allocation, as the
//! real driver's are; it is only ever looked up here, never dereferenced, so a destroyed or
//! made-up handle is simply not found.

use crate::boundary::lock;
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Mutex;

pub struct Registry<T> {
    objects: Mutex<BTreeMap<usize, Box<T>>>,
}

impl<T> Registry<T> {
    pub const fn new() -> Self {
        Registry {
            objects: Mutex::new(BTreeMap::new()),
        }
    }

    /// Keeps `object`; returns its handle.
    pub fn insert(&self, object: T) -> *mut c_void {
        const {
            assert!(
                size_of::<T>() > 0,
                "a zero-sized object has no address of its own"
            )
        };
        let object = Box::new(object);
        let handle = &*object as *const T as usize;
        lock(&self.objects).insert(handle, object);
        handle as *mut c_void
    }

    /// Whether `handle` is a live object's.
    pub fn contains(&self, handle: *mut c_void) -> bool {
        lock(&self.objects).contains_key(&(handle as usize))
    }

    /// Runs `f` on `handle`'s object, if it is live.
    pub fn with<R>(&self, handle: *mut c_void, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        lock(&self.objects)
            .get_mut(&(handle as usize))
            .map(|object| f(object))
    }

    /// Removes `handle`'s object, if it is live.
    pub fn remove(&self, handle: *mut c_void) -> Option<T> {
        lock(&self.objects)
            .remove(&(handle as usize))
            .map(|object| *object)
    }
}

impl<T> Default for Registry<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_found_until_removed() {
        let registry = Registry::new();
        let a = registry.insert(1u32);
        let b = registry.insert(2u32);
        assert_ne!(a, b);
        assert_eq!(registry.with(a, |v| *v), Some(1));
        assert_eq!(registry.remove(a), Some(1));
        assert!(!registry.contains(a));
        assert_eq!(registry.with(a, |v| *v), None);
        assert!(!registry.contains(std::ptr::null_mut()));
        assert!(registry.contains(b));
    }
}
