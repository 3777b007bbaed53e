//! The held exports' index by allocation: an open-addressing table of `SLOTS` slots (at least
//! twice the most allocations that can have a held export, so a probe always meets an empty
//! slot), each an allocation and the numbers of its held descriptors (at most `PER`). A lookup hashes
//! the allocation and compares a slot or two: a few instructions, where a general map's
//! lookup cost about thirty on `vkGetMemoryFdKHR`'s path. Deleting shifts the slots after
//! the hole back (no tombstones), so a probe stops at the first empty slot.

/// An allocation: its device and memory handles.
pub type Key = (u64, u64);

#[derive(Clone, Copy)]
struct Slot<const PER: usize> {
    key: Key,
    numbers: [i32; PER],
    /// How many of `numbers` are held (0: the slot is empty).
    len: u8,
}

impl<const PER: usize> Slot<PER> {
    const EMPTY: Self = Self {
        key: (0, 0),
        numbers: [0; PER],
        len: 0,
    };
}

/// `SLOTS`: a power of two, at least twice the most allocations indexed at once; `PER`: the
/// most numbers of one allocation.
pub struct Index<const SLOTS: usize, const PER: usize> {
    slots: [Slot<PER>; SLOTS],
}

impl<const SLOTS: usize, const PER: usize> Index<SLOTS, PER> {
    const MASK: usize = {
        assert!(SLOTS.is_power_of_two() && SLOTS > 1 && PER <= u8::MAX as usize);
        SLOTS - 1
    };

    pub const fn new() -> Self {
        Self {
            slots: [Slot::EMPTY; SLOTS],
        }
    }

    /// The slot a probe for `key` starts at.
    #[inline(always)]
    fn home((device, memory): Key) -> usize {
        let mixed = (memory ^ device.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// The slot of `key`, if it has one.
    #[inline(always)]
    fn find(&self, key: Key) -> Option<usize> {
        let mut i = Self::home(key);
        for _ in 0..SLOTS {
            let slot = &self.slots[i];
            if slot.len == 0 {
                return None;
            }
            if slot.key == key {
                return Some(i);
            }
            i = (i + 1) & Self::MASK;
        }
        None
    }

    /// The numbers held of `key`'s exports, oldest first.
    #[inline(always)]
    pub fn numbers_of(&self, key: Key) -> &[i32] {
        match self.find(key) {
            Some(i) => {
                let slot = &self.slots[i];
                &slot.numbers[..usize::from(slot.len)]
            }
            None => &[],
        }
    }

    /// Adds `number`, the newest of `key`'s. The caller keeps each allocation within `PER`
    /// numbers and the allocations within half of `SLOTS`; past the first, the oldest number is
    /// dropped from the index (past the second, the new allocation is not indexed).
    pub fn insert(&mut self, key: Key, number: i32) {
        let i = match self.find(key) {
            Some(i) => i,
            None => {
                let Some(i) = (0..SLOTS)
                    .map(|step| (Self::home(key) + step) & Self::MASK)
                    .find(|&i| self.slots[i].len == 0)
                else {
                    return;
                };
                self.slots[i] = Slot { key, ..Slot::EMPTY };
                i
            }
        };
        let slot = &mut self.slots[i];
        if usize::from(slot.len) == PER {
            slot.numbers.rotate_left(1);
            slot.len -= 1;
        }
        slot.numbers[usize::from(slot.len)] = number;
        slot.len += 1;
    }

    /// Removes `number` from `key`'s, and `key`'s slot when it was its last.
    pub fn remove(&mut self, key: Key, number: i32) {
        let Some(i) = self.find(key) else {
            return;
        };
        let slot = &mut self.slots[i];
        let len = usize::from(slot.len);
        let Some(at) = slot.numbers[..len].iter().position(|&n| n == number) else {
            return;
        };
        slot.numbers.copy_within(at + 1..len, at);
        slot.len -= 1;
        if slot.len == 0 {
            self.delete(i);
        }
    }

    /// Empties slot `hole`, moving back each slot after it that a probe would no longer reach.
    fn delete(&mut self, mut hole: usize) {
        let mut j = (hole + 1) & Self::MASK;
        while self.slots[j].len != 0 && j != hole {
            let start = Self::home(self.slots[j].key);
            // The slot at `j` may move to `hole` when `hole` lies on its probe, from `start` to `j`.
            if (hole.wrapping_sub(start) & Self::MASK) < (j.wrapping_sub(start) & Self::MASK) {
                self.slots[hole] = self.slots[j];
                hole = j;
            }
            j = (j + 1) & Self::MASK;
        }
        self.slots[hole] = Slot::EMPTY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Inserts and removes a few thousand times over more allocations than fit at once (within
    /// the table's bounds), with handles that crowd the same slots, against a plain map.
    #[test]
    fn the_index_agrees_with_a_map_through_inserts_and_removes() {
        const LIMIT: usize = 256;
        const PER: usize = 4;
        let mut index = Box::new(Index::<{ 2 * LIMIT }, PER>::new());
        let mut model: HashMap<Key, Vec<i32>> = HashMap::new();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut number = 0;
        // Miri interprets every step: fewer rounds there (each round is a full check).
        let rounds = if cfg!(miri) { 300 } else { 20_000 };
        for _ in 0..rounds {
            let key = (next() % 3, (next() % 600) << 12);
            let held: usize = model.values().map(Vec::len).sum();
            let numbers = model.get(&key).cloned().unwrap_or_default();
            if next() % 2 == 0 && held < LIMIT && numbers.len() < PER {
                number += 1;
                index.insert(key, number);
                model.entry(key).or_default().push(number);
            } else if let Some(&n) = numbers.get(next() as usize % numbers.len().max(1)) {
                index.remove(key, n);
                let list = model.get_mut(&key).expect("listed");
                list.retain(|&m| m != n);
                if list.is_empty() {
                    model.remove(&key);
                }
            }
            for (key, numbers) in &model {
                assert_eq!(index.numbers_of(*key), numbers.as_slice());
            }
            assert_eq!(index.numbers_of((7, 7)), &[] as &[i32]);
        }
        let used = index.slots.iter().filter(|s| s.len != 0).count();
        assert_eq!(used, model.len());
    }
}
