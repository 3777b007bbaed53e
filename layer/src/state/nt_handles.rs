//! Which NT handle types each live memory object of a device was exported as
//! (`vkGetMemoryWin32HandleKHR` calls that succeeded), for
//! `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663`: an NT handle of a memory and handle
//! type is exported at most once. Forgotten when the memory is freed.

use super::maps::{handle_map, HandleMap};
use ash::vk;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct NtHandleExports {
    /// The NT handle types exported from a live memory object, by its handle value.
    exported: HandleMap<u64, vk::ExternalMemoryHandleTypeFlags>,
    /// How many entries `exported` holds: on a device that never exports an NT handle, freeing
    /// memory costs one load instead of a map lookup.
    entries: AtomicUsize,
}

impl Default for NtHandleExports {
    fn default() -> Self {
        Self {
            exported: handle_map(4),
            entries: AtomicUsize::new(0),
        }
    }
}

impl NtHandleExports {
    /// The NT handle types already exported from `memory` (empty for most memory).
    #[inline]
    pub fn of(&self, memory: u64) -> vk::ExternalMemoryHandleTypeFlags {
        if self.entries.load(Ordering::Relaxed) == 0 {
            return vk::ExternalMemoryHandleTypeFlags::empty();
        }
        self.exported.get(&memory).map(|t| *t).unwrap_or_default()
    }

    /// Remembers that an NT handle of `handle_type` was exported from `memory`.
    pub fn record(&self, memory: u64, handle_type: vk::ExternalMemoryHandleTypeFlags) {
        let mut added = false;
        self.exported
            .entry(memory)
            .and_modify(|t| *t |= handle_type)
            .or_insert_with(|| {
                added = true;
                handle_type
            });
        if added {
            self.entries.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Forgets `memory` (it is being freed). The app synchronises an export of `memory` with its
    /// free, so the entry count seen here includes that export's.
    #[inline]
    pub fn forget(&self, memory: u64) {
        if self.entries.load(Ordering::Relaxed) != 0 && self.exported.remove(&memory).is_some() {
            self.entries.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Forgets every memory object (its device is being destroyed).
    pub fn forget_all(&self) {
        self.exported.clear();
        self.entries.store(0, Ordering::Relaxed);
    }

    /// How many memory objects have an NT handle export remembered.
    pub fn len(&self) -> usize {
        self.exported.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exported.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIN32: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
    const D3D12: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::D3D12_HEAP;

    #[test]
    fn exports_accumulate_per_memory_and_are_forgotten_at_free() {
        let e = NtHandleExports::default();
        assert!(e.of(1).is_empty());
        e.record(1, WIN32);
        e.record(1, D3D12);
        e.record(2, WIN32);
        assert_eq!((e.of(1), e.of(2), e.len()), (WIN32 | D3D12, WIN32, 2));
        e.forget(1);
        e.forget(1);
        assert_eq!(
            (e.of(1), e.of(2), e.len()),
            (vk::ExternalMemoryHandleTypeFlags::empty(), WIN32, 1)
        );
        e.forget(2);
        assert!(e.is_empty());
        assert_eq!(e.entries.load(Ordering::Relaxed), 0);
    }
}
