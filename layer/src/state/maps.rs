//! The maps of tracked state. Keys are handle values the driver chose (pointers or counters),
//! not attacker-chosen strings, so a fast non-cryptographic hash (FxHash) is right; SipHash cost
//! more than the whole check on the hot path. Memory maps get many shards, so threads that
//! allocate and free at once rarely meet on a shard lock.

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::hash::Hash;

/// A concurrent map by handle value.
pub type HandleMap<K, V> = DashMap<K, V, FxBuildHasher>;

/// A plain map by handle value (inside the copy-on-write registries).
pub type FastMap<K, V> = HashMap<K, V, FxBuildHasher>;

/// Shards of the per-device memory map: enough that 8+ threads rarely share one.
pub const MEMORY_SHARDS: usize = 64;

/// A new concurrent map with the given number of shards (a power of two).
pub fn handle_map<K: Eq + Hash, V>(shards: usize) -> HandleMap<K, V> {
    DashMap::with_hasher_and_shard_amount(FxBuildHasher, shards)
}
