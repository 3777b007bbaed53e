//! CUDA's imports the interposer reported: each `CUexternalMemory` and `CUexternalSemaphore`
//! with what its import declared and what the layer knew of its Vulkan export, for the calls
//! that use it later (a mapped range against the import; its destroy). And the imports between
//! their `before` and `after` hooks, by token. CUDA's interop calls are few (an import per
//! shared resource): one lock each, no fast path needed.

use crate::os::HeldFile;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;

/// A `cuImportExternalMemory` that succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryImportRecord {
    /// `memHandleDesc->size`.
    pub declared: u64,
    /// The exporting Vulkan allocation's `allocationSize`, where the layer knew the export.
    pub allocation: Option<u64>,
    /// The Vulkan side as the messages name it, where known.
    pub vulkan: Option<String>,
}

/// An import between its hooks: the fd handed over, the layer's descriptor of it, and what the
/// record will be if the import succeeds.
#[derive(Debug)]
pub struct Pending {
    pub fd: i32,
    pub held: Option<HeldFile>,
    /// The fd is one an earlier successful import took (reported as such).
    pub reused: bool,
    pub memory: Option<MemoryImportRecord>,
}

static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);
static PENDING: LazyLock<Mutex<HashMap<u64, Pending>>> = LazyLock::new(Default::default);
static MEMORY: LazyLock<Mutex<HashMap<u64, MemoryImportRecord>>> = LazyLock::new(Default::default);

/// The most imports remembered at once (the oldest ones are not judged beyond it).
const LIMIT: usize = 4096;

/// Keeps `pending` until its import returns: the token for the `after` hook.
pub fn begin(pending: Pending) -> u64 {
    let token = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
    let mut map = PENDING.lock();
    if map.len() < LIMIT {
        map.insert(token, pending);
        token
    } else {
        0
    }
}

/// The import of `token`, as its `before` hook left it.
pub fn finish(token: u64) -> Option<Pending> {
    PENDING.lock().remove(&token)
}

/// A successful memory import: `handle` (the `CUexternalMemory`) is `record`.
pub fn memory_imported(handle: u64, record: MemoryImportRecord) {
    let mut map = MEMORY.lock();
    if map.len() < LIMIT {
        map.insert(handle, record);
    }
}

/// The memory import `handle` is, if the layer saw it succeed and it is not destroyed.
pub fn memory_import(handle: u64) -> Option<MemoryImportRecord> {
    MEMORY.lock().get(&handle).cloned()
}

/// `cuDestroyExternalMemory` of `handle` succeeded.
pub fn memory_destroyed(handle: u64) {
    MEMORY.lock().remove(&handle);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_are_kept_until_destroyed_and_tokens_until_finished() {
        let token = begin(Pending {
            fd: 5,
            held: None,
            reused: false,
            memory: None,
        });
        assert_ne!(token, 0);
        assert_eq!(finish(token).map(|p| p.fd), Some(5));
        assert!(finish(token).is_none());
        let record = MemoryImportRecord {
            declared: 64,
            allocation: Some(64),
            vulkan: None,
        };
        memory_imported(0xc0da, record.clone());
        assert_eq!(memory_import(0xc0da), Some(record));
        memory_destroyed(0xc0da);
        assert_eq!(memory_import(0xc0da), None);
    }
}
