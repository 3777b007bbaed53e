//! A small memory of the most recently freed `VkDeviceMemory` objects, so a use after free or a
//! double free can say which allocation it was ("staging", 1 MiB, exported as OPAQUE_FD) rather
//! than only "unknown handle". Per device, a few rings, one per group of threads, each behind its
//! own lock on its own cache line: freeing takes the calling thread's ring lock (uncontended: the
//! ring is its own) and stores into the next slot; only the error path reads them.

use super::memory::{MemoryRecord, PackedAllocation};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many of its latest frees each thread's ring remembers.
pub const FREED_SLOTS: usize = 64;
/// Rings per device; threads are spread over them.
const RINGS: usize = 8;

/// A freed allocation: its record and the debug name it had.
#[derive(Clone, Debug)]
pub struct FreedMemory {
    pub record: MemoryRecord,
    pub name: Option<String>,
}

/// One remembered free: the handle, what it was allocated with, its debug name.
#[derive(Default)]
struct Slot {
    memory: u64,
    allocation: Option<PackedAllocation>,
    name: Option<String>,
}

struct Ring {
    /// The slot the next free goes to.
    next: usize,
    slots: [Slot; FREED_SLOTS],
}

/// A ring on its own cache line, so threads of different rings do not share one.
#[repr(align(64))]
struct PaddedRing(Mutex<Ring>);

pub struct RecentlyFreed {
    rings: Box<[PaddedRing]>,
}

impl Default for RecentlyFreed {
    fn default() -> Self {
        let ring = || {
            PaddedRing(Mutex::new(Ring {
                next: 0,
                slots: std::array::from_fn(|_| Slot::default()),
            }))
        };
        Self {
            rings: (0..RINGS).map(|_| ring()).collect(),
        }
    }
}

/// The ring of the calling thread (threads are numbered as they first free).
fn thread_ring() -> usize {
    static NEXT_THREAD: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static RING: usize = NEXT_THREAD.fetch_add(1, Ordering::Relaxed) % RINGS;
    }
    // A thread whose locals are gone (exiting) shares ring 0.
    RING.try_with(|r| *r).unwrap_or(0)
}

impl RecentlyFreed {
    pub fn remember(&self, memory: u64, allocation: PackedAllocation, name: Option<String>) {
        let new = Slot {
            memory,
            allocation: Some(allocation),
            name,
        };
        let old = {
            let mut ring = self.rings[thread_ring()].0.lock();
            let slot = ring.next;
            ring.next = (slot + 1) % FREED_SLOTS;
            std::mem::replace(&mut ring.slots[slot], new)
        };
        drop(old); // The oldest name (if any) is freed here, after the lock.
    }

    /// A freed allocation with this handle, if it is among the last [`FREED_SLOTS`] frees of
    /// the thread that freed it (its latest free when one thread freed it twice). A handle the
    /// driver reused for a live allocation is found live before this is asked, so a stale entry
    /// never names a live object. `device` is the handle of the device these frees belong to.
    pub fn find(&self, memory: u64, device: u64) -> Option<FreedMemory> {
        self.rings.iter().find_map(|ring| {
            let ring = ring.0.lock();
            (1..=FREED_SLOTS)
                .map(|back| &ring.slots[(ring.next + FREED_SLOTS - back) % FREED_SLOTS])
                .find_map(|slot| {
                    let allocation = slot.allocation.filter(|_| slot.memory == memory)?;
                    Some(FreedMemory {
                        record: allocation.record(memory, device),
                        name: slot.name.clone(),
                    })
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allocation(size: u64) -> PackedAllocation {
        PackedAllocation::of_size(size)
    }

    #[test]
    fn the_last_frees_are_all_remembered() {
        let freed = RecentlyFreed::default();
        freed.remember(0x1000, allocation(1), Some("staging".into()));
        let found = freed.find(0x1000, 7).expect("remembered");
        assert_eq!(found.name.as_deref(), Some("staging"));
        assert_eq!((found.record.memory, found.record.device), (0x1000, 7));
        assert!(freed.find(0x2000, 7).is_none());
        for i in 0..FREED_SLOTS as u64 {
            freed.remember(0x10_0000 + i * 16, allocation(1), None);
        }
        assert!(
            freed.find(0x1000, 7).is_none(),
            "pushed out by 64 newer frees"
        );
        assert!((0..FREED_SLOTS as u64).all(|i| freed.find(0x10_0000 + i * 16, 7).is_some()));
    }

    #[test]
    fn a_reused_handle_finds_its_latest_free() {
        let freed = RecentlyFreed::default();
        freed.remember(0x1000, allocation(1), Some("first".into()));
        freed.remember(0x1000, allocation(2), Some("second".into()));
        let found = freed.find(0x1000, 7).expect("remembered");
        assert_eq!(
            (found.record.facts().size, found.name.as_deref()),
            (2, Some("second"))
        );
    }
}
