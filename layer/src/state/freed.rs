//! A small memory of the most recently freed `VkDeviceMemory` objects, so a use after free or a
//! double free can say which allocation it was ("staging", 1 MiB, exported as OPAQUE_FD) rather
//! than only "unknown handle". Per device, a few rings, each behind its own lock on its own cache
//! line; a handle always goes to the same ring (by a hash of its value), so threads that free at
//! once rarely meet on a lock, and finding a handle reads one ring. Only the error path reads
//! them.

use super::memory::{MemoryRecord, PackedAllocation};
use parking_lot::Mutex;

/// How many of the latest frees of its handles each ring remembers.
pub const FREED_SLOTS: usize = 64;
/// Rings per device; handles are spread over them.
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

/// The ring of `memory` (Fibonacci hashing: handle values are pointers or counters).
fn ring_of(memory: u64) -> usize {
    (memory.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize % RINGS
}

impl RecentlyFreed {
    #[inline]
    pub fn remember(&self, memory: u64, allocation: PackedAllocation, name: Option<String>) {
        let old_name = {
            let mut ring = self.rings[ring_of(memory)].0.lock();
            let next = ring.next;
            ring.next = (next + 1) % FREED_SLOTS;
            let slot = &mut ring.slots[next];
            slot.memory = memory;
            slot.allocation = Some(allocation);
            std::mem::replace(&mut slot.name, name)
        };
        drop(old_name); // The oldest name (if any) is freed here, after the lock.
    }

    /// A freed allocation with this handle, if it is among the last [`FREED_SLOTS`] frees of
    /// its ring (its latest free when it was freed twice). A handle the
    /// driver reused for a live allocation is found live before this is asked, so a stale entry
    /// never names a live object. `device` is the handle of the device these frees belong to.
    pub fn find(&self, memory: u64, device: u64) -> Option<FreedMemory> {
        let ring = self.rings[ring_of(memory)].0.lock();
        (1..=FREED_SLOTS)
            .map(|back| &ring.slots[(ring.next + FREED_SLOTS - back) % FREED_SLOTS])
            .find_map(|slot| {
                let allocation = slot.allocation.filter(|_| slot.memory == memory)?;
                Some(FreedMemory {
                    record: allocation.record(memory, device),
                    name: slot.name.clone(),
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
        // 64 newer frees of handles of the same ring push it out.
        let same_ring: Vec<u64> = (0x10_0000u64..)
            .step_by(16)
            .filter(|&m| ring_of(m) == ring_of(0x1000))
            .take(FREED_SLOTS)
            .collect();
        for &m in &same_ring {
            freed.remember(m, allocation(1), None);
        }
        assert!(
            freed.find(0x1000, 7).is_none(),
            "pushed out by 64 newer frees"
        );
        assert!(same_ring.iter().all(|&m| freed.find(m, 7).is_some()));
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
