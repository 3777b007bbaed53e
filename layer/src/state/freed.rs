//! A small memory of the most recently freed `VkDeviceMemory` objects, so a use after free or a
//! double free can say which allocation it was ("staging", 1 MiB, exported as OPAQUE_FD) rather
//! than only "unknown handle". Per device, a few rings, one per group of threads, each on its own
//! cache line: freeing stores into the next slot of the calling thread's ring (one uncontended
//! atomic increment, no lock); only the error path reads them.

use super::memory::MemoryRecord;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How many of its latest frees each thread's ring remembers.
pub const FREED_SLOTS: usize = 64;
/// Rings per device; threads are spread over them.
const RINGS: usize = 8;

/// A freed allocation: its record and the debug name it had.
#[derive(Clone, Debug)]
pub struct FreedMemory {
    pub record: Arc<MemoryRecord>,
    pub name: Option<String>,
}

#[repr(align(64))]
struct Ring {
    next: AtomicUsize,
    /// Plain locks: a ring is written by its own threads, so they are uncontended, and cheaper
    /// to write than a lock-free slot (frees are on the hot path, reads are not).
    slots: Box<[Mutex<Option<FreedMemory>>]>,
}

pub struct RecentlyFreed {
    rings: Box<[Ring]>,
}

impl Default for RecentlyFreed {
    fn default() -> Self {
        let ring = || Ring {
            next: AtomicUsize::new(0),
            slots: (0..FREED_SLOTS).map(|_| Mutex::new(None)).collect(),
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
    RING.with(|r| *r)
}

impl RecentlyFreed {
    pub fn remember(&self, record: Arc<MemoryRecord>, name: Option<String>) {
        let ring = &self.rings[thread_ring()];
        let slot = ring.next.fetch_add(1, Ordering::Relaxed) % FREED_SLOTS;
        let old = ring.slots[slot]
            .lock()
            .replace(FreedMemory { record, name });
        drop(old); // The oldest record goes now, outside no lock that matters.
    }

    /// A freed allocation with this handle, if it is among the last [`FREED_SLOTS`] frees of
    /// the thread that freed it (its latest free when one thread freed it twice). A handle the
    /// driver reused for a live allocation is found live before this is asked, so a stale entry
    /// never names a live object.
    pub fn find(&self, memory: u64) -> Option<FreedMemory> {
        self.rings.iter().find_map(|ring| {
            let newest = ring.next.load(Ordering::Relaxed);
            (1..=FREED_SLOTS)
                .map(|back| &ring.slots[newest.wrapping_sub(back) % FREED_SLOTS])
                .find_map(|slot| {
                    slot.lock()
                        .as_ref()
                        .filter(|freed| freed.record.memory == memory)
                        .cloned()
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AllocationFacts;

    fn record(memory: u64, size: u64) -> Arc<MemoryRecord> {
        let facts = AllocationFacts {
            size,
            ..Default::default()
        };
        Arc::new(MemoryRecord {
            memory,
            device: 1,
            facts,
            type_flags: Default::default(),
        })
    }

    #[test]
    fn the_last_frees_are_all_remembered() {
        let freed = RecentlyFreed::default();
        freed.remember(record(0x1000, 1), Some("staging".into()));
        assert_eq!(
            freed.find(0x1000).expect("remembered").name.as_deref(),
            Some("staging")
        );
        assert!(freed.find(0x2000).is_none());
        for i in 0..FREED_SLOTS as u64 {
            freed.remember(record(0x10_0000 + i * 16, 1), None);
        }
        assert!(freed.find(0x1000).is_none(), "pushed out by 64 newer frees");
        assert!((0..FREED_SLOTS as u64).all(|i| freed.find(0x10_0000 + i * 16).is_some()));
    }

    #[test]
    fn a_reused_handle_finds_its_latest_free() {
        let freed = RecentlyFreed::default();
        freed.remember(record(0x1000, 1), Some("first".into()));
        freed.remember(record(0x1000, 2), Some("second".into()));
        let found = freed.find(0x1000).expect("remembered");
        assert_eq!(
            (found.record.facts.size, found.name.as_deref()),
            (2, Some("second"))
        );
    }
}
