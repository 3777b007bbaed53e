//! The held exports' table: in the order they were held (the oldest is let go first), and
//! indexed by allocation, so that an export, or a free, of one allocation finds that
//! allocation's held descriptors without a pass over all of them.

use super::index::{Index, Key};

/// What the table needs of an entry: the allocation it is of, and the number of the layer's
/// descriptor (unique among the entries).
pub trait Entry {
    fn key(&self) -> Key;
    fn number(&self) -> i32;
}

/// `SLOTS` and `PER` as [`Index`]'s.
pub struct Table<T, const SLOTS: usize, const PER: usize> {
    /// Oldest first.
    held: Vec<T>,
    /// The numbers of each allocation's held descriptors, oldest first.
    by_memory: Index<SLOTS, PER>,
}

impl<T: Entry, const SLOTS: usize, const PER: usize> Table<T, SLOTS, PER> {
    pub const fn new() -> Self {
        Self {
            held: Vec::new(),
            by_memory: Index::new(),
        }
    }

    /// The held exports, oldest first.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.held.iter()
    }

    /// The held exports, oldest first, to mark.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.held.iter_mut()
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// The numbers of the descriptors held of `key`'s exports, oldest first.
    #[inline(always)]
    pub fn numbers_of(&self, key: Key) -> &[i32] {
        self.by_memory.numbers_of(key)
    }

    /// Whether the table holds an export of `key`.
    #[inline(always)]
    pub fn holds_any_of(&self, key: Key) -> bool {
        !self.by_memory.numbers_of(key).is_empty()
    }

    /// The export at `i` (in age order), taken out.
    pub fn remove(&mut self, i: usize) -> T {
        let e = self.held.remove(i);
        self.by_memory.remove(e.key(), e.number());
        e
    }

    /// `e`, the newest.
    pub fn push(&mut self, e: T) {
        self.by_memory.insert(e.key(), e.number());
        self.held.push(e);
    }
}
