//! The live `VkDeviceMemory` objects of one device, and each thread's memo of the ones it
//! looked up lately.
//!
//! The map is a sharded `DashMap`; a lookup in it takes a shard's read lock, two atomic
//! read-modify-writes. The memo lets an export skip that: a thread remembers a few allocations
//! with the *removal generation* of their shard at the time it read them. Removing a handle
//! bumps its shard's generation, so a memo entry whose generation is still current names an
//! allocation that is still live with the same record: the check costs one atomic load of a
//! counter only frees write.
//!
//! Why a current generation proves the entry right: the generation is read before the map, and
//! bumped after the removal. A thread that read the map before a removal read the generation
//! before the bump, so its entry is stale from the bump on; a thread that reads the map after
//! the removal does not find the handle. A handle value the driver reuses for a new allocation
//! was removed first, so it cannot match an entry of its previous life. Memo entries name the
//! table by a process-unique id, never reused, so a destroyed device's entries match nothing.

use super::maps::{handle_map, HandleMap, MEMORY_SHARDS};
use super::memory::PackedAllocation;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters are this many words apart, so each has a cache line of its own (frees of one shard
/// do not disturb readers of another) without an over-aligned allocation.
const SPACING: usize = 8;

pub struct LiveMemories {
    map: HandleMap<u64, PackedAllocation>,
    /// Per shard of handles (every [`SPACING`]th word), bumped after every removal from the
    /// shard.
    removals: Box<[AtomicU64; MEMORY_SHARDS * SPACING]>,
    /// Names this table in the memos, unique in the process.
    id: u64,
    /// How many allocations are in the map (`VUID-vkAllocateMemory-maxMemoryAllocationCount-04101`
    /// reads it before each allocation): one counter, counted as the map changes.
    live: AtomicU64,
}

impl Default for LiveMemories {
    fn default() -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Self {
            map: handle_map(MEMORY_SHARDS),
            removals: Box::new(std::array::from_fn(|_| AtomicU64::new(0))),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            live: AtomicU64::new(0),
        }
    }
}

impl LiveMemories {
    #[inline(always)]
    fn removals_of(&self, memory: u64) -> &AtomicU64 {
        &self.removals[spread(memory) as usize % MEMORY_SHARDS * SPACING]
    }

    /// What `memory` was allocated with, if it is live: from the thread's memo when it holds a
    /// current entry, else from the map (and then remembered).
    #[inline(always)]
    pub fn get(&self, memory: u64, memo: &AllocationMemo) -> Option<PackedAllocation> {
        let generation = self.removals_of(memory).load(Ordering::Acquire);
        let slot = memo.slot(memory);
        let entry = slot.get();
        if entry.memory == memory && entry.table == self.id && entry.generation == generation {
            return Some(entry.allocation);
        }
        let found = self.get_from_map(memory)?;
        slot.set(MemoEntry {
            memory,
            table: self.id,
            generation,
            allocation: found,
        });
        Some(found)
    }

    /// What `memory` was allocated with, if it is live, read from the map.
    pub fn get_from_map(&self, memory: u64) -> Option<PackedAllocation> {
        self.map.get(&memory).map(|allocation| *allocation)
    }

    /// Records a new allocation (the thread's memo learns it at its first lookup).
    #[inline]
    pub fn insert(&self, memory: u64, allocation: PackedAllocation) {
        // A handle already in the map (a driver that returned a live handle again) replaces
        // its record: still one allocation.
        if self.map.insert(memory, allocation).is_none() {
            self.live.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Takes `memory` out of the table (it is being freed): what it was allocated with.
    #[inline]
    pub fn remove(&self, memory: u64) -> Option<PackedAllocation> {
        let (_, allocation) = self.map.remove(&memory)?;
        self.live.fetch_sub(1, Ordering::Relaxed);
        self.removals_of(memory).fetch_add(1, Ordering::Release);
        Some(allocation)
    }

    /// How many allocations are live, from the counter: one load. Never more than the map
    /// holds once every insertion and removal that happened before the call has returned
    /// (each counts after its map operation).
    /// A removal that overtook its insertion's count (a free racing the allocation that made
    /// the handle, on another thread) leaves the counter below zero for a moment: read as 0.
    #[inline(always)]
    pub fn live(&self) -> u64 {
        (self.live.load(Ordering::Relaxed) as i64).max(0) as u64
    }

    pub fn contains(&self, memory: u64) -> bool {
        self.map.contains_key(&memory)
    }

    /// How many allocations are live.
    pub fn count(&self) -> usize {
        self.map.len()
    }

    /// Forgets every allocation (the device is destroyed).
    pub fn clear(&self) {
        self.map.clear();
        self.live.store(0, Ordering::Relaxed);
        for removals in self.removals.iter().step_by(SPACING) {
            removals.fetch_add(1, Ordering::Release);
        }
    }
}

/// Spreads handle values (pointers or counters) over the high bits (Fibonacci hashing).
#[inline(always)]
fn spread(memory: u64) -> u64 {
    memory.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32
}

/// How many allocations a thread remembers.
const MEMO_SLOTS: usize = 8;

#[derive(Clone, Copy)]
struct MemoEntry {
    memory: u64,
    /// The [`LiveMemories::id`] of the table it was read from; 0 for an empty slot.
    table: u64,
    generation: u64,
    allocation: PackedAllocation,
}

const EMPTY: MemoEntry = MemoEntry {
    memory: 0,
    table: 0,
    generation: 0,
    allocation: PackedAllocation::EMPTY,
};

/// One thread's memo of allocations: a few entries, by handle (kept in the thread's state, see
/// `registry::with_device`).
pub struct AllocationMemo {
    slots: [Cell<MemoEntry>; MEMO_SLOTS],
}

impl AllocationMemo {
    pub const fn new() -> Self {
        Self {
            slots: [const { Cell::new(EMPTY) }; MEMO_SLOTS],
        }
    }

    #[inline(always)]
    fn slot(&self, memory: u64) -> &Cell<MemoEntry> {
        &self.slots[(spread(memory) >> 16) as usize % MEMO_SLOTS]
    }
}

impl Default for AllocationMemo {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allocation(size: u64) -> PackedAllocation {
        PackedAllocation::of_size(size)
    }

    #[test]
    fn a_memo_entry_dies_with_its_allocation() {
        let table = LiveMemories::default();
        let memo = AllocationMemo::new();
        table.insert(0x1000, allocation(1));
        assert_eq!(table.get(0x1000, &memo), Some(allocation(1)));
        // Freed, and the handle reused for another allocation.
        assert_eq!(table.remove(0x1000), Some(allocation(1)));
        assert_eq!(table.get(0x1000, &memo), None, "freed: the memo is stale");
        table.insert(0x1000, allocation(2));
        assert_eq!(table.get(0x1000, &memo), Some(allocation(2)));
    }

    #[test]
    fn memos_tell_tables_and_handles_apart() {
        let (a, b) = (LiveMemories::default(), LiveMemories::default());
        let memo = AllocationMemo::new();
        a.insert(0x1000, allocation(1));
        assert_eq!(a.get(0x1000, &memo), Some(allocation(1)), "now in the memo");
        assert_eq!(b.get(0x1000, &memo), None, "another device's table");
        // Two handles on one memo slot evict each other, and both stay right.
        let same_slot = |m: u64| std::ptr::eq(memo.slot(m), memo.slot(0x1000));
        let next = (0x1010..)
            .step_by(16)
            .find(|&m| same_slot(m))
            .expect("a handle");
        a.insert(next, allocation(3));
        assert_eq!(a.get(0x1000, &memo), Some(allocation(1)));
        assert_eq!(a.get(next, &memo), Some(allocation(3)));
        a.clear();
        assert_eq!((a.get(0x1000, &memo), a.get(next, &memo)), (None, None));
        assert_eq!(a.count(), 0);
    }
}
