//! The live `VkDeviceMemory` objects of one device, one record each, and each thread's memo of
//! the ones it looked up lately.
//!
//! A record holds what every call reads inline ([`PackedAllocation`], 32 bytes, which the memo
//! copies) and what only some extensions' commands record ([`RareMemoryFacts`]) in a box made
//! on the first of them: an allocation that never needs them costs a null pointer, and freeing
//! it forgets everything the device knew of it in one removal.
//!
//! The map is a sharded `DashMap`; a lookup in it takes a shard's read lock, two atomic
//! read-modify-writes. The memo lets an export skip that: a thread remembers a few allocations
//! with the *change generation* of their shard at the time it read them. Removing a handle, or
//! changing a record's inline part, bumps its shard's generation, so a memo entry whose
//! generation is still current names an allocation that is still live with the same inline
//! part: the check costs one atomic load of a counter only frees (and a record's first rare
//! fact) write.
//!
//! Why a current generation proves the entry right: the generation is read before the map, and
//! bumped after the removal or change. A thread that read the map before it read the generation
//! before the bump, so its entry is stale from the bump on; a thread that reads the map after
//! the removal does not find the handle (after a change, it reads the changed record). A handle
//! value the driver reuses for a new allocation was removed first, so it cannot match an entry
//! of its previous life. Memo entries name the table by a process-unique id, never reused, so a
//! destroyed device's entries match nothing.

use super::maps::{handle_map, HandleMap, MEMORY_SHARDS};
use super::memory::{MemoryRecord, PackedAllocation};
use ash::vk;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Counters are this many words apart, so each has a cache line of its own (frees of one shard
/// do not disturb readers of another) without an over-aligned allocation.
const SPACING: usize = 8;

/// What the layer learns of an allocation after it is made, from the calls of a few extensions:
/// kept in its record, boxed on the first, gone when it is freed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RareMemoryFacts {
    /// The image or buffer the allocation was dedicated to, for memory exportable as an opaque fd
    /// or a global share handle: what an export of it records.
    pub dedicated_to: Option<(vk::ObjectType, u64)>,
    /// `VkMemoryAllocateFlagsInfo::deviceMask`, for memory exportable as an opaque fd or a global
    /// share handle that named one (`VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT`): what an export of it
    /// records, for `VUID-VkMemoryAllocateInfo-None-00643`.
    pub device_mask: Option<u32>,
    /// The NT handle types the memory was exported as (`vkGetMemoryWin32HandleKHR`;
    /// `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663`).
    pub nt_handle_exports: vk::ExternalMemoryHandleTypeFlags,
    /// The fd the driver returned on the latest export the driver-contract checks probed.
    pub last_probed_fd: Option<i32>,
    /// The dedicated image of memory allocated to export an Android hardware buffer, while it is
    /// not bound to the memory (`VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883`).
    pub unbound_dedicated_image: Option<u64>,
}

/// One live allocation.
struct LiveMemory {
    allocation: PackedAllocation,
    rare: Option<Box<RareMemoryFacts>>,
}

pub struct LiveMemories {
    map: HandleMap<u64, LiveMemory>,
    /// Per shard of handles (every [`SPACING`]th word), bumped after every removal from the
    /// shard and every change of a record's inline part.
    changes: Box<[AtomicU64; MEMORY_SHARDS * SPACING]>,
    /// Names this table in the memos, unique in the process.
    id: u64,
    /// How many allocations are in the map (`VUID-vkAllocateMemory-maxMemoryAllocationCount-04101`
    /// reads it before each allocation): one counter, counted as the map changes.
    live: AtomicU64,
    /// How many records hold an unbound dedicated image: destroying or binding an image looks
    /// through the records only when some do.
    unbound_images: AtomicUsize,
}

impl Default for LiveMemories {
    fn default() -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Self {
            map: handle_map(MEMORY_SHARDS),
            changes: Box::new(std::array::from_fn(|_| AtomicU64::new(0))),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            live: AtomicU64::new(0),
            unbound_images: AtomicUsize::new(0),
        }
    }
}

impl LiveMemories {
    #[inline(always)]
    fn changes_of(&self, memory: u64) -> &AtomicU64 {
        &self.changes[spread(memory) as usize % MEMORY_SHARDS * SPACING]
    }

    /// What `memory` was allocated with, if it is live: from the thread's memo when it holds a
    /// current entry, else from the map (and then remembered).
    #[inline(always)]
    pub fn get(&self, memory: u64, memo: &AllocationMemo) -> Option<PackedAllocation> {
        let generation = self.changes_of(memory).load(Ordering::Acquire);
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
        self.map.get(&memory).map(|live| live.allocation)
    }

    /// Records a new allocation (the thread's memo learns it at its first lookup).
    #[inline]
    pub fn insert(&self, memory: u64, allocation: PackedAllocation) {
        // A handle already in the map (a driver that returned a live handle again) replaces
        // its record: still one allocation.
        let record = LiveMemory {
            allocation,
            rare: None,
        };
        match self.map.insert(memory, record) {
            None => {
                self.live.fetch_add(1, Ordering::Relaxed);
            }
            Some(replaced) => self.forgot(&replaced),
        }
    }

    /// Takes `memory` out of the table (it is being freed): what it was allocated with.
    #[inline]
    pub fn remove(&self, memory: u64) -> Option<PackedAllocation> {
        let (_, record) = self.map.remove(&memory)?;
        self.live.fetch_sub(1, Ordering::Relaxed);
        self.changes_of(memory).fetch_add(1, Ordering::Release);
        self.forgot(&record);
        Some(record.allocation)
    }

    /// The counters let go of a record's rare facts (it was removed or replaced).
    #[inline(always)]
    fn forgot(&self, record: &LiveMemory) {
        if record
            .rare
            .as_ref()
            .is_some_and(|rare| rare.unbound_dedicated_image.is_some())
        {
            self.unbound_images.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The rare facts of a live allocation (none recorded: the default). One bit of the inline
    /// part tells whether to look, so an allocation that has none costs no lookup.
    #[inline(always)]
    pub fn rare(&self, memory: &MemoryRecord) -> RareMemoryFacts {
        if !memory.allocation.may_have_rare_facts() {
            return RareMemoryFacts::default();
        }
        self.rare_from_map(memory.memory)
    }

    /// The rare facts of `memory`, read from the map (none, or not live: the default).
    pub fn rare_from_map(&self, memory: u64) -> RareMemoryFacts {
        self.map
            .get(&memory)
            .and_then(|live| live.rare.as_deref().copied())
            .unwrap_or_default()
    }

    /// Changes the rare facts of `memory` with `change`, if it is live (boxing them on the first
    /// change): whether it was.
    pub fn update_rare(&self, memory: u64, change: impl FnOnce(&mut RareMemoryFacts)) -> bool {
        let Some(mut live) = self.map.get_mut(&memory) else {
            return false;
        };
        let first = live.rare.is_none();
        if first {
            live.allocation.mark_rare_facts();
        }
        let rare = live.rare.get_or_insert_with(Default::default);
        let had_image = rare.unbound_dedicated_image.is_some();
        change(rare);
        match (had_image, rare.unbound_dedicated_image.is_some()) {
            (false, true) => {
                self.unbound_images.fetch_add(1, Ordering::Relaxed);
            }
            (true, false) => {
                self.unbound_images.fetch_sub(1, Ordering::Relaxed);
            }
            _ => {}
        }
        drop(live);
        if first {
            // The inline part changed (its rare-facts bit): memo entries of it are stale.
            self.changes_of(memory).fetch_add(1, Ordering::Release);
        }
        true
    }

    /// Whether some record holds an unbound dedicated image (one load).
    #[inline]
    pub fn has_unbound_images(&self) -> bool {
        self.unbound_images.load(Ordering::Relaxed) != 0
    }

    /// `image` went down to be bound to `memory`: the memory no longer waits for it.
    pub fn bound_image(&self, image: u64, memory: u64) {
        if !self.has_unbound_images() {
            return;
        }
        let Some(mut live) = self.map.get_mut(&memory) else {
            return;
        };
        if let Some(rare) = live.rare.as_deref_mut() {
            if rare.unbound_dedicated_image == Some(image) {
                rare.unbound_dedicated_image = None;
                self.unbound_images.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// Every record that waits for `image` (or, with `None`, for any image) stops waiting: the
    /// image was destroyed, bound, or the layer lost track of which images were bound.
    pub fn forget_unbound_image(&self, image: Option<u64>) {
        if !self.has_unbound_images() {
            return;
        }
        for mut live in self.map.iter_mut() {
            let Some(rare) = live.rare.as_deref_mut() else {
                continue;
            };
            let Some(waiting) = rare.unbound_dedicated_image else {
                continue;
            };
            if image.unwrap_or(waiting) == waiting {
                rare.unbound_dedicated_image = None;
                self.unbound_images.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// How many live records hold a probed fd, and how many hold facts about earlier calls (NT
    /// handle types exported, an unbound dedicated image): one count for each fact.
    pub fn rare_counts(&self) -> (usize, usize) {
        self.map
            .iter()
            .filter_map(|live| live.rare.as_deref().copied())
            .fold((0, 0), |(probed, history), rare| {
                (
                    probed + usize::from(rare.last_probed_fd.is_some()),
                    history
                        + usize::from(!rare.nt_handle_exports.is_empty())
                        + usize::from(rare.unbound_dedicated_image.is_some()),
                )
            })
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
        self.unbound_images.store(0, Ordering::Relaxed);
        for changes in self.changes.iter().step_by(SPACING) {
            changes.fetch_add(1, Ordering::Release);
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

    #[test]
    fn rare_facts_live_in_the_record_and_go_with_it() {
        let table = LiveMemories::default();
        let memo = AllocationMemo::new();
        assert!(!table.update_rare(0x1000, |_| ()), "not live: nothing kept");
        table.insert(0x1000, allocation(1));
        let before = table.get(0x1000, &memo).expect("live");
        assert!(!before.may_have_rare_facts());
        assert_eq!(table.rare(&before.record(0x1000, 0xd)), Default::default());
        let win32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
        assert!(table.update_rare(0x1000, |rare| rare.nt_handle_exports |= win32));
        // The memo's copy of the inline part is stale: the next lookup sees the bit.
        let after = table.get(0x1000, &memo).expect("live");
        assert!(after.may_have_rare_facts());
        assert_eq!(
            table.rare(&after.record(0x1000, 0xd)).nt_handle_exports,
            win32
        );
        assert_eq!(table.rare_counts(), (0, 1));
        table.remove(0x1000);
        table.insert(0x1000, allocation(2));
        assert_eq!(
            table.rare_from_map(0x1000),
            Default::default(),
            "a new life"
        );
    }

    #[test]
    fn unbound_images_are_counted_as_they_come_and_go() {
        let table = LiveMemories::default();
        let wait = |memory: u64, image: u64| {
            table.insert(memory, allocation(memory));
            table.update_rare(memory, |rare| rare.unbound_dedicated_image = Some(image));
        };
        let waiting = |memory: u64| table.rare_from_map(memory).unbound_dedicated_image;
        wait(1, 10);
        wait(2, 20);
        wait(3, 30);
        table.bound_image(10, 9);
        table.bound_image(11, 1);
        assert_eq!(
            (waiting(1), table.rare_counts().1),
            (Some(10), 3),
            "other bindings"
        );
        table.bound_image(10, 1);
        assert_eq!(waiting(1), None);
        table.forget_unbound_image(Some(20));
        assert_eq!((waiting(2), waiting(3)), (None, Some(30)));
        table.remove(3);
        assert!(!table.has_unbound_images(), "the last one was freed");
        wait(4, 40);
        wait(5, 50);
        table.forget_unbound_image(None);
        assert!(!table.has_unbound_images());
        assert_eq!(table.rare_counts(), (0, 0));
        wait(6, 60);
        table.clear();
        assert!(!table.has_unbound_images());
    }
}
