//! The live `VkSemaphore` objects of one device, one small record each (what `vkCreateSemaphore`
//! was given that the export rules read), and a short ring of the latest destroyed ones, so a
//! use after destroy can say which semaphore it was. Creating and destroying one costs a map
//! insertion or removal (a sharded `DashMap`), and a destroy a short lock of the ring.

use super::maps::{handle_map, HandleMap};
use ash::vk;
use parking_lot::Mutex;
use std::collections::VecDeque;

/// How many destroyed semaphores a device remembers.
pub const DESTROYED_SLOTS: usize = 16;
/// Shards of the semaphore map.
const SHARDS: usize = 16;

/// What `vkCreateSemaphore` was given, as far as the export rules read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SemaphoreFacts {
    /// `VkSemaphoreTypeCreateInfo::semaphoreType` was `VK_SEMAPHORE_TYPE_TIMELINE`.
    pub timeline: bool,
    /// `VkExportSemaphoreCreateInfo::handleTypes`; `None` without the structure.
    pub export: Option<vk::ExternalSemaphoreHandleTypeFlags>,
    /// The create info could be read (NULL or another `sType`: nothing of it is judged).
    pub known: bool,
    /// A payload was imported into it (`vkImportSemaphore*`, permanent or temporary): its
    /// current payload may be another than the one it was created with, which the layer does not
    /// follow yet, so nothing about the payload's creation is judged from then on.
    pub imported: bool,
    /// The NT handle types (`OPAQUE_WIN32`, `D3D12_FENCE`) its created payload was exported as
    /// by a `vkGetSemaphoreWin32HandleKHR` that succeeded, each a type it was created exportable
    /// as (`VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01127`: at most once each).
    pub nt_handle_exports: vk::ExternalSemaphoreHandleTypeFlags,
}

/// A semaphore as the rules see it: its handle, its device and what it was created with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemaphoreRecord {
    pub semaphore: u64,
    pub device: u64,
    pub facts: SemaphoreFacts,
}

/// A semaphore its device destroyed lately: its record and the debug name it had.
#[derive(Clone, Debug)]
pub struct DestroyedSemaphore {
    pub record: SemaphoreRecord,
    pub name: Option<String>,
}

#[derive(Default)]
struct Destroyed {
    ring: VecDeque<DestroyedSemaphore>,
}

pub struct Semaphores {
    live: HandleMap<u64, SemaphoreFacts>,
    destroyed: Mutex<Destroyed>,
}

impl Default for Semaphores {
    fn default() -> Self {
        Self {
            live: handle_map(SHARDS),
            destroyed: Mutex::default(),
        }
    }
}

impl Semaphores {
    /// A semaphore `vkCreateSemaphore` made (a handle value the driver reuses is forgotten as
    /// destroyed first).
    pub fn insert(&self, semaphore: u64, facts: SemaphoreFacts) {
        self.live.insert(semaphore, facts);
    }

    /// What the device knows of a live semaphore.
    pub fn get(&self, semaphore: u64, device: u64) -> Option<SemaphoreRecord> {
        let facts = *self.live.get(&semaphore)?;
        Some(SemaphoreRecord {
            semaphore,
            device,
            facts,
        })
    }

    /// At `vkDestroySemaphore`: the record leaves the map for the ring, with its debug name.
    pub fn remove(&self, semaphore: u64, device: u64, name: Option<String>) {
        let Some((_, facts)) = self.live.remove(&semaphore) else {
            return;
        };
        let record = SemaphoreRecord {
            semaphore,
            device,
            facts,
        };
        let mut destroyed = self.destroyed.lock();
        if destroyed.ring.len() == DESTROYED_SLOTS {
            destroyed.ring.pop_front();
        }
        destroyed
            .ring
            .push_back(DestroyedSemaphore { record, name });
    }

    /// A successful `vkImportSemaphore*` into `semaphore`.
    pub fn imported(&self, semaphore: u64) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            facts.imported = true;
        }
    }

    /// A successful `vkGetSemaphoreWin32HandleKHR` of `semaphore` as the NT handle type `t`.
    pub fn nt_handle_exported(&self, semaphore: u64, t: vk::ExternalSemaphoreHandleTypeFlags) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            facts.nt_handle_exports |= t;
        }
    }

    /// The latest destroyed semaphore of this handle value, if the ring still has it.
    pub fn find_destroyed(&self, semaphore: u64) -> Option<DestroyedSemaphore> {
        let destroyed = self.destroyed.lock();
        destroyed
            .ring
            .iter()
            .rev()
            .find(|d| d.record.semaphore == semaphore)
            .cloned()
    }

    /// Whether `semaphore` is live.
    pub fn contains(&self, semaphore: u64) -> bool {
        self.live.contains_key(&semaphore)
    }

    /// Live semaphores (for `introspect`).
    pub fn count(&self) -> usize {
        self.live.len()
    }

    /// At `vkDestroyDevice`.
    pub fn clear(&self) {
        self.live.clear();
        self.destroyed.lock().ring.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destroyed_semaphores_are_remembered_in_a_short_ring() {
        let s = Semaphores::default();
        let facts = SemaphoreFacts {
            timeline: true,
            ..Default::default()
        };
        for h in 1..=(DESTROYED_SLOTS as u64 + 1) {
            s.insert(h, facts);
        }
        assert_eq!(s.count(), DESTROYED_SLOTS + 1);
        assert_eq!(s.get(1, 9).map(|r| r.facts), Some(facts));
        for h in 1..=(DESTROYED_SLOTS as u64 + 1) {
            s.remove(h, 9, None);
        }
        assert_eq!(s.count(), 0);
        assert!(s.find_destroyed(1).is_none(), "pushed out");
        let last = s.find_destroyed(DESTROYED_SLOTS as u64 + 1).unwrap();
        assert!(last.record.facts.timeline);
        s.clear();
        assert!(s.find_destroyed(2).is_none());
    }

    #[test]
    fn nt_handle_exports_and_imports_are_marked_on_live_semaphores_only() {
        let s = Semaphores::default();
        s.insert(7, SemaphoreFacts::default());
        let win32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32;
        let d3d12 = vk::ExternalSemaphoreHandleTypeFlags::D3D12_FENCE;
        s.nt_handle_exported(7, win32);
        s.nt_handle_exported(7, d3d12);
        s.nt_handle_exported(8, win32);
        s.imported(7);
        let facts = s.get(7, 9).unwrap().facts;
        assert_eq!(facts.nt_handle_exports, win32 | d3d12);
        assert!(facts.imported);
        assert!(s.get(8, 9).is_none(), "nothing made up");
    }
}
