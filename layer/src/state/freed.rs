//! A small, lossy memory of recently freed `VkDeviceMemory` objects, so a use after free or a
//! double free can say which allocation it was ("staging", 1 MiB, exported as OPAQUE_FD) rather
//! than only "unknown handle". Fixed size per device, lock-free: freeing stores into one slot.

use super::memory::MemoryRecord;
use arc_swap::ArcSwapOption;
use std::sync::Arc;

/// How many freed objects a device remembers (older ones are overwritten, by slot).
pub const FREED_SLOTS: usize = 64;

/// A freed allocation: its record and the debug name it had.
#[derive(Debug)]
pub struct FreedMemory {
    pub record: Arc<MemoryRecord>,
    pub name: Option<String>,
}

pub struct RecentlyFreed {
    slots: Box<[ArcSwapOption<FreedMemory>]>,
}

impl Default for RecentlyFreed {
    fn default() -> Self {
        Self {
            slots: (0..FREED_SLOTS).map(|_| ArcSwapOption::empty()).collect(),
        }
    }
}

impl RecentlyFreed {
    fn slot(&self, memory: u64) -> &ArcSwapOption<FreedMemory> {
        // Handles are often pointers: skip the alignment bits, then mix.
        let mixed = (memory >> 4).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58;
        &self.slots[mixed as usize % FREED_SLOTS]
    }

    pub fn remember(&self, record: Arc<MemoryRecord>, name: Option<String>) {
        let memory = record.memory;
        self.slot(memory)
            .store(Some(Arc::new(FreedMemory { record, name })));
    }

    /// The freed allocation with this handle, if it is still remembered.
    pub fn find(&self, memory: u64) -> Option<Arc<FreedMemory>> {
        self.slot(memory)
            .load_full()
            .filter(|freed| freed.record.memory == memory)
    }

    /// Forgets a handle the driver handed out again for a new allocation.
    pub fn forget(&self, memory: u64) {
        let slot = self.slot(memory);
        if slot
            .load()
            .as_ref()
            .is_some_and(|f| f.record.memory == memory)
        {
            slot.store(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AllocationFacts;

    fn record(memory: u64) -> Arc<MemoryRecord> {
        Arc::new(MemoryRecord {
            memory,
            device: 1,
            facts: AllocationFacts::default(),
            type_flags: Default::default(),
        })
    }

    #[test]
    fn remembers_finds_and_forgets() {
        let freed = RecentlyFreed::default();
        freed.remember(record(0x1000), Some("staging".into()));
        let found = freed.find(0x1000).expect("remembered");
        assert_eq!(found.name.as_deref(), Some("staging"));
        assert!(freed.find(0x2000).is_none());
        freed.forget(0x1000);
        assert!(freed.find(0x1000).is_none());
    }

    #[test]
    fn is_bounded() {
        let freed = RecentlyFreed::default();
        for i in 0..10_000u64 {
            freed.remember(record(0x1000 + i * 16), None);
        }
        let remembered = (0..10_000u64)
            .filter(|i| freed.find(0x1000 + i * 16).is_some())
            .count();
        assert!(remembered <= FREED_SLOTS, "{remembered}");
    }
}
