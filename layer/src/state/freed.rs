//! A small memory of the most recently freed `VkDeviceMemory` objects, so a use after free or a
//! double free can say which allocation it was ("staging", 1 MiB, exported as OPAQUE_FD) rather
//! than only "unknown handle". A fixed ring per device: freeing stores into the next slot
//! (one atomic increment, no lock); only the error path reads it.

use super::memory::MemoryRecord;
use arc_swap::ArcSwapOption;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How many of its latest frees a device remembers.
pub const FREED_SLOTS: usize = 64;

/// A freed allocation: its record and the debug name it had.
#[derive(Debug)]
pub struct FreedMemory {
    pub record: Arc<MemoryRecord>,
    pub name: Option<String>,
}

pub struct RecentlyFreed {
    slots: Box<[ArcSwapOption<FreedMemory>]>,
    next: AtomicUsize,
}

impl Default for RecentlyFreed {
    fn default() -> Self {
        Self {
            slots: (0..FREED_SLOTS).map(|_| ArcSwapOption::empty()).collect(),
            next: AtomicUsize::new(0),
        }
    }
}

impl RecentlyFreed {
    pub fn remember(&self, record: Arc<MemoryRecord>, name: Option<String>) {
        let slot = self.next.fetch_add(1, Ordering::Relaxed) % FREED_SLOTS;
        self.slots[slot].store(Some(Arc::new(FreedMemory { record, name })));
    }

    /// The latest freed allocation with this handle, if it is among the last [`FREED_SLOTS`]
    /// frees. A handle the driver reused for a live allocation is found live before this is
    /// asked, so a stale entry never names a live object.
    pub fn find(&self, memory: u64) -> Option<Arc<FreedMemory>> {
        let newest = self.next.load(Ordering::Relaxed);
        (1..=FREED_SLOTS)
            .map(|back| &self.slots[newest.wrapping_sub(back) % FREED_SLOTS])
            .filter_map(|slot| slot.load_full())
            .find(|freed| freed.record.memory == memory)
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
