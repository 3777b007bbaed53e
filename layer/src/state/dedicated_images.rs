//! Live memory objects exported as Android hardware buffers and dedicated to an image that has
//! not been bound to them yet, for
//! `VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883` ("that image must already be
//! bound to memory"). An entry is made after `vkAllocateMemory` succeeded, only when the layer
//! sees every way that image can be bound on the device; it goes when a bind of the image to the
//! memory goes down (whatever the driver answers), when the image is destroyed, and when the
//! memory is freed. A bind call the layer could not read in full forgets every entry of the
//! device: an entry is kept only while the layer is sure the image is not bound.

use super::maps::{handle_map, HandleMap};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct UnboundDedicatedImages {
    /// The dedicated image of a memory object, by the memory's handle value.
    pending: HandleMap<u64, u64>,
    /// How many entries `pending` holds: on a device that has none, binding, destroying and
    /// freeing cost one load.
    entries: AtomicUsize,
}

impl Default for UnboundDedicatedImages {
    fn default() -> Self {
        Self {
            pending: handle_map(4),
            entries: AtomicUsize::new(0),
        }
    }
}

impl UnboundDedicatedImages {
    fn is_empty_fast(&self) -> bool {
        self.entries.load(Ordering::Relaxed) == 0
    }

    /// `memory` was allocated dedicated to `image`, which is not bound yet.
    pub fn remember(&self, memory: u64, image: u64) {
        if self.pending.insert(memory, image).is_none() {
            self.entries.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The dedicated image of `memory`, if it is known not to be bound to it.
    #[inline]
    pub fn image_of(&self, memory: u64) -> Option<u64> {
        if self.is_empty_fast() {
            return None;
        }
        self.pending.get(&memory).map(|image| *image)
    }

    /// A bind of `image` to `memory` went down.
    pub fn bound(&self, image: u64, memory: u64) {
        if !self.is_empty_fast()
            && self
                .pending
                .remove_if(&memory, |_, i| *i == image)
                .is_some()
        {
            self.entries.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// `memory` is being freed.
    pub fn forget_memory(&self, memory: u64) {
        if !self.is_empty_fast() && self.pending.remove(&memory).is_some() {
            self.entries.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// `image` is being destroyed.
    pub fn forget_image(&self, image: u64) {
        if self.is_empty_fast() {
            return;
        }
        self.pending.retain(|_, i| {
            let keep = *i != image;
            if !keep {
                self.entries.fetch_sub(1, Ordering::Relaxed);
            }
            keep
        });
    }

    /// A bind the layer could not read in full went down: nothing is certain any more.
    pub fn forget_all(&self) {
        if self.is_empty_fast() {
            return;
        }
        self.pending.retain(|_, _| {
            self.entries.fetch_sub(1, Ordering::Relaxed);
            false
        });
    }

    /// How many memory objects wait for their dedicated image.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_goes_when_its_image_is_bound_to_its_memory_destroyed_or_freed() {
        let u = UnboundDedicatedImages::default();
        assert_eq!(u.image_of(1), None);
        u.remember(1, 10);
        u.remember(2, 20);
        u.remember(3, 30);
        u.bound(10, 9);
        u.bound(11, 1);
        assert_eq!((u.image_of(1), u.len()), (Some(10), 3), "another binding");
        u.bound(10, 1);
        assert_eq!((u.image_of(1), u.len()), (None, 2));
        u.forget_image(20);
        u.forget_memory(3);
        u.forget_memory(3);
        assert!(u.is_empty());
        assert_eq!(u.entries.load(Ordering::Relaxed), 0);
        u.remember(4, 40);
        u.remember(5, 50);
        u.forget_all();
        assert!(u.is_empty() && u.image_of(4).is_none());
        assert_eq!(u.entries.load(Ordering::Relaxed), 0);
    }
}
