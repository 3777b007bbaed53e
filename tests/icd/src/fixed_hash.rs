//! Maps and sets with a fixed hash: the driver runs the same instructions in every process, so the
//! benchmark's instruction counts (what the layer adds, taken as a difference between two
//! processes) do not move with std's per-process random hash keys.

use std::collections::hash_map::DefaultHasher;
use std::hash::BuildHasherDefault;

pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<DefaultHasher>>;
pub type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<DefaultHasher>>;
