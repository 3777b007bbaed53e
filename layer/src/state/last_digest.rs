//! A lock-free memo of the last export some thread found recorded, for the registries of
//! exports (`opaque_exports`, `kmt_exports`): a repeated export of the same thing, the common
//! case, is known recorded with two atomic loads and no lock.
//!
//! The memo is a digest of the export's key and of a generation that every forget bumps, so a
//! digest stored before an export was dropped matches nothing after (a freed handle value may
//! be reused by a new allocation). Two keys with one digest only make a registry skip recording
//! an export, whose imports then go unchecked: never a finding.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The digest of the key some thread last found recorded, and the generation it is good for.
pub struct LastDigest {
    generation: AtomicUsize,
    last: AtomicU64,
}

impl Default for LastDigest {
    fn default() -> Self {
        Self::new()
    }
}

impl LastDigest {
    pub const fn new() -> Self {
        Self {
            generation: AtomicUsize::new(0),
            last: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    fn digest(key: u64, generation: usize) -> u64 {
        let key = key ^ (generation as u64).rotate_left(47);
        // Never 0, the digest of nothing recorded.
        key.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
    }

    /// Whether `key` is the last one recorded in the current generation (`false` only means: ask
    /// the registry).
    #[inline(always)]
    pub fn is_last(&self, key: u64) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        self.last.load(Ordering::Relaxed) == Self::digest(key, generation)
    }

    /// After `key` was found or put in the registry (under its lock).
    #[inline(always)]
    pub fn set_last(&self, key: u64) {
        let generation = self.generation.load(Ordering::Acquire);
        self.last
            .store(Self::digest(key, generation), Ordering::Relaxed);
    }

    /// After an export was dropped from the registry (under its lock): no earlier digest
    /// matches any more.
    #[inline(always)]
    pub fn invalidate(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_last_until_another_is_set_or_an_export_is_dropped() {
        let memo = LastDigest::new();
        assert!(!memo.is_last(0), "nothing recorded yet");
        memo.set_last(7);
        assert!(memo.is_last(7));
        assert!(!memo.is_last(8));
        memo.set_last(8);
        assert!(!memo.is_last(7));
        memo.invalidate();
        assert!(
            !memo.is_last(8),
            "a digest of an earlier generation matches nothing"
        );
    }
}
