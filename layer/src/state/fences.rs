//! The live `VkFence` objects of one device, one small record each (what `vkCreateFence` was
//! given that the export rules read, and the NT handle types exported from it since), and a
//! short ring of the latest destroyed ones, so a use after destroy can say which fence it was.
//! Shaped as `state::semaphores`: creating and destroying one costs a map insertion or removal
//! (a sharded `DashMap`), and a destroy a short lock of the ring.

use super::maps::{handle_map, HandleMap};
use super::submissions::Submission;
use super::sync_payload::{Import, Permanence, SyncPayload, Temporary};
use ash::vk;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many destroyed fences a device remembers.
pub const DESTROYED_SLOTS: usize = 16;
/// Shards of the fence map.
const SHARDS: usize = 16;

/// What `vkCreateFence` was given, as far as the export rules read it, and what the device
/// remembers of the fence's exports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FenceFacts {
    /// `VkExportFenceCreateInfo::handleTypes`; `None` without the structure.
    pub export: Option<vk::ExternalFenceHandleTypeFlags>,
    /// The create info could be read (NULL or another `sType`: nothing of it is judged).
    pub known: bool,
    /// A payload was imported into it (`vkImportFence*`, permanent or temporary): the import
    /// tables may hold something of it. Which payload is current is `payload`'s to say.
    pub imported: bool,
    /// Where its current payload came from (the created one, or an import, permanent or
    /// temporary until the next reset), as far as the layer follows it.
    pub payload: SyncPayload,
    /// The NT handle types `vkGetFenceWin32HandleKHR` exported from its created payload, by calls
    /// that succeeded (`VUID-VkFenceGetWin32HandleInfoKHR-handleType-01449`).
    pub nt_exported: vk::ExternalFenceHandleTypeFlags,
    /// A fence whose signal state is followed through queue operations and resets: every fence
    /// whose create info the layer read, exportable or not (a plain fence is the usual target of
    /// a sync-file import, which `VUID-vkImportFenceFdKHR-fence-01463` judges against its
    /// pending signal), and one imported into.
    pub shared: bool,
    /// Its signal state, followed while `shared`.
    pub signal: FenceSignal,
    /// The submission that signals it, while `signal` is `Submitted`.
    pub signaled_by: Option<Submission>,
    /// Its payload reached a handle of reference transference (an `OPAQUE_FD` or Win32 export)
    /// or came from one (an import): other holders may signal or reset it where the layer cannot
    /// see, so its signal state is never judged again.
    pub payload_escaped: bool,
}

/// What the layer knows of a shared fence's signal state, from the commands it saw: only a state
/// it is sure of is ever judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FenceSignal {
    /// Created unsignaled, and no signal operation submitted since.
    #[default]
    UnsignaledSinceCreation,
    /// Reset with `vkResetFences`, and no signal operation submitted since.
    UnsignaledSinceReset,
    /// Its payload went to a sync file (`vkGetFenceFdKHR` of `SYNC_FD`, which acts as a reset),
    /// and no signal operation was submitted since.
    UnsignaledSinceSyncFdExport,
    /// Created signaled, or signaled by the presentation engine (an acquire, a present's fence).
    Signaled,
    /// A queue submission signals it (`vkQueueSubmit`, `vkQueueSubmit2`, `vkQueueBindSparse`):
    /// pending or done, which the driver can say (`vkGetFenceStatus`); by the submission
    /// `FenceFacts::signaled_by`.
    Submitted,
    /// Something the layer cannot follow happened (an import, a failed submission).
    Unknown,
}

impl FenceFacts {
    /// Its current payload is certainly the one it was created with (nothing imported, or every
    /// temporary import restored since), and the create info is known: the rules about the
    /// payload's creation may judge it.
    pub fn created_payload(&self) -> bool {
        self.known && self.payload.is_created()
    }

    /// The handle types its current payload was created exportable as, while that is its created
    /// one (`VkExportFenceCreateInfo::handleTypes`, 0 without one): what an export of it tells
    /// an import (`sync_payload::Import::exportable`).
    pub fn created_export_types(&self) -> Option<u32> {
        self.created_payload()
            .then(|| self.export.map_or(0, |t| t.as_raw()))
    }
}

/// A fence as the rules see it: its handle, its device and what it was created with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenceRecord {
    pub fence: u64,
    pub device: u64,
    pub facts: FenceFacts,
}

/// A fence its device destroyed lately: its record and the debug name it had.
#[derive(Clone, Debug)]
pub struct DestroyedFence {
    pub record: FenceRecord,
    pub name: Option<String>,
}

pub struct Fences {
    live: HandleMap<u64, FenceFacts>,
    destroyed: Mutex<VecDeque<DestroyedFence>>,
    /// How many live fences are `shared`: a submission or reset on a device with none reads only
    /// this.
    shared: AtomicUsize,
    /// How many live fences had a payload imported: a reset or an acquire on a device with none
    /// reads only this.
    imported: AtomicUsize,
}

impl Default for Fences {
    fn default() -> Self {
        Self {
            live: handle_map(SHARDS),
            destroyed: Mutex::default(),
            shared: AtomicUsize::new(0),
            imported: AtomicUsize::new(0),
        }
    }
}

impl Fences {
    /// A fence `vkCreateFence` made (a handle value the driver reuses replaces the old record).
    /// It is followed through queue operations and resets from now on, exportable or not: an
    /// import may give it a payload any time.
    pub fn insert(&self, fence: u64, mut facts: FenceFacts) {
        facts.shared = facts.known;
        if facts.shared {
            self.shared.fetch_add(1, Ordering::AcqRel);
        }
        if let Some(old) = self.live.insert(fence, facts) {
            self.forget(&old);
        }
    }

    /// A record leaves the map: the counts it was part of go down.
    fn forget(&self, facts: &FenceFacts) {
        if facts.shared {
            self.shared.fetch_sub(1, Ordering::AcqRel);
        }
        if facts.imported {
            self.imported.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Whether any live fence of the device is followed.
    #[inline(always)]
    pub fn any_shared(&self) -> bool {
        self.shared.load(Ordering::Acquire) != 0
    }

    /// Sets the signal state of a shared `fence` to `signal`.
    pub fn set_signal(&self, fence: u64, signal: FenceSignal) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            if facts.shared {
                facts.signal = signal;
            }
        }
    }

    /// A queue submission `by` signals a shared `fence`.
    pub fn submitted(&self, fence: u64, by: Submission) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            if facts.shared {
                facts.signal = FenceSignal::Submitted;
                facts.signaled_by = Some(by);
            }
        }
    }

    /// An export of `fence` as a handle of reference transference succeeded: its payload is
    /// shared with whoever holds the handle.
    pub fn payload_escaped(&self, fence: u64) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            facts.payload_escaped = true;
        }
    }

    /// Whether any live fence of the device had a payload imported.
    #[inline(always)]
    pub fn any_imported(&self) -> bool {
        self.imported.load(Ordering::Acquire) != 0
    }

    /// `vkResetFences` succeeded on `fence`, or a `SYNC_FD` export of it (which acts as a reset):
    /// a temporarily imported payload is restored to the permanent one.
    pub fn reset(&self, fence: u64) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            facts.payload.restore();
        }
    }

    /// `vkResetFences` failed on `fence`: it may or may not have been reset.
    pub fn maybe_reset(&self, fence: u64) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            facts.payload.maybe_restored();
        }
    }

    /// A swapchain acquire was given `fence` (and succeeded, or failed with an error): a
    /// temporary import of a payload the layer cannot name, or maybe one.
    pub fn acquired(&self, fence: u64) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            facts.payload.opaque_temporary();
        }
    }

    /// The submission whose completion a successful wait on `fence` (`vkWaitForFences`,
    /// `vkGetFenceStatus`) shows: its last followed signal, a queue submission's, if its payload
    /// is its own (not shared by reference, no temporary import in place: another payload's
    /// signal would say nothing of the submission).
    pub fn signaled_by(&self, fence: u64) -> Option<Submission> {
        let facts = self.live.get(&fence)?;
        match facts.signal {
            FenceSignal::Submitted
                if !facts.payload_escaped && facts.payload.temporary == Temporary::None =>
            {
                facts.signaled_by
            }
            _ => None,
        }
    }

    /// What the device knows of a live fence.
    pub fn get(&self, fence: u64, device: u64) -> Option<FenceRecord> {
        let facts = *self.live.get(&fence)?;
        Some(FenceRecord {
            fence,
            device,
            facts,
        })
    }

    /// The live fence of `device` whose signal the submission numbered `serial` carries, if it still does
    /// (no reset, import or later submission since): the fence a submission's completion can be
    /// asked of. A walk of the device's fences, made only where a rule needs it.
    #[cold]
    #[inline(never)]
    pub fn signaled_by_submission(&self, serial: NonZeroU64, device: u64) -> Option<FenceRecord> {
        self.live.iter().find_map(|entry| {
            let facts = *entry.value();
            let carries = facts.signal == FenceSignal::Submitted
                && facts.signaled_by.is_some_and(|by| by.serial == serial);
            carries.then_some(FenceRecord {
                fence: *entry.key(),
                device,
                facts,
            })
        })
    }

    /// At `vkDestroyFence`: the record leaves the map for the ring, with its debug name.
    ///
    /// Whether the export and import tables may hold something of it (its payload was exported
    /// by reference or imported into, or its create info is not known): only then must they be
    /// searched.
    pub fn remove(&self, fence: u64, device: u64, name: Option<String>) -> bool {
        let Some((_, facts)) = self.live.remove(&fence) else {
            return true;
        };
        // The tables hold only exports of reference transference (which mark the payload escaped)
        // and fds imported into it.
        let tracked = !facts.known || facts.imported || facts.payload_escaped;
        self.forget(&facts);
        let record = FenceRecord {
            fence,
            device,
            facts,
        };
        let mut ring = self.destroyed.lock();
        if ring.len() == DESTROYED_SLOTS {
            ring.pop_front();
        }
        ring.push_back(DestroyedFence { record, name });
        tracked
    }

    /// A successful `vkImportFence*` of `handle_type` into `fence`, permanent or temporary (until
    /// the next reset): its payload's signal state is not known; it is followed from here. Only
    /// a payload of reference transference is shared with others from then on (its signal state
    /// never judged again): a temporary `SYNC_FD` import is a copy of a signal state, and the
    /// next reset (or `SYNC_FD` export) makes the fence's own payload unsignaled again.
    pub fn imported(&self, fence: u64, import: Import, permanence: Permanence) {
        let handle_type = import.handle_type;
        if let Some(mut facts) = self.live.get_mut(&fence) {
            let copy = handle_type == vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw()
                && permanence == Permanence::Temporary;
            if !copy {
                facts.payload_escaped = true;
            }
            if !facts.imported {
                facts.imported = true;
                self.imported.fetch_add(1, Ordering::AcqRel);
            }
            facts.payload.import(import, permanence);
            if facts.known && !facts.shared {
                facts.shared = true;
                self.shared.fetch_add(1, Ordering::AcqRel);
            }
            facts.signal = FenceSignal::Unknown;
        }
    }

    /// A successful `vkGetFenceWin32HandleKHR` of the NT handle type `handle_type` from `fence`.
    pub fn nt_exported(&self, fence: u64, handle_type: vk::ExternalFenceHandleTypeFlags) {
        if let Some(mut facts) = self.live.get_mut(&fence) {
            facts.nt_exported |= handle_type;
        }
    }

    /// The latest destroyed fence of this handle value, if the ring still has it.
    pub fn find_destroyed(&self, fence: u64) -> Option<DestroyedFence> {
        let ring = self.destroyed.lock();
        ring.iter().rev().find(|d| d.record.fence == fence).cloned()
    }

    /// Whether `fence` is live.
    pub fn contains(&self, fence: u64) -> bool {
        self.live.contains_key(&fence)
    }

    /// Live fences (for `introspect`).
    pub fn count(&self) -> usize {
        self.live.len()
    }

    /// At `vkDestroyDevice`.
    pub fn clear(&self) {
        self.live.clear();
        self.shared.store(0, Ordering::Release);
        self.imported.store(0, Ordering::Release);
        self.destroyed.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destroyed_fences_are_remembered_in_a_short_ring() {
        let f = Fences::default();
        let facts = FenceFacts {
            export: Some(vk::ExternalFenceHandleTypeFlags::OPAQUE_FD),
            known: true,
            ..Default::default()
        };
        for h in 1..=(DESTROYED_SLOTS as u64 + 1) {
            f.insert(h, facts);
        }
        assert_eq!(f.count(), DESTROYED_SLOTS + 1);
        let followed = FenceFacts {
            shared: true,
            ..facts
        };
        assert_eq!(
            f.get(1, 9).map(|r| r.facts),
            Some(followed),
            "exportable: followed"
        );
        for h in 1..=(DESTROYED_SLOTS as u64 + 1) {
            f.remove(h, 9, None);
        }
        assert!(!f.any_shared());
        assert_eq!(f.count(), 0);
        assert!(f.find_destroyed(1).is_none(), "pushed out");
        let last = f.find_destroyed(DESTROYED_SLOTS as u64 + 1).unwrap();
        assert_eq!(last.record.facts, followed);
        f.clear();
        assert!(f.find_destroyed(2).is_none());
    }

    #[test]
    fn imports_and_nt_exports_are_remembered_per_live_fence() {
        let f = Fences::default();
        let win32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32;
        f.insert(
            7,
            FenceFacts {
                known: true,
                ..Default::default()
            },
        );
        assert!(f.get(7, 9).unwrap().facts.created_payload());
        f.nt_exported(7, win32);
        f.imported(7, Import::of_unknown_export(0x1), Permanence::Permanent);
        f.nt_exported(8, win32);
        f.imported(8, Import::of_unknown_export(0x1), Permanence::Permanent);
        let facts = f.get(7, 9).unwrap().facts;
        assert_eq!(facts.nt_exported, win32);
        assert!(facts.imported && !facts.created_payload());
        assert!(f.get(8, 9).is_none(), "not live: nothing recorded");
    }

    #[test]
    fn known_fences_follow_signals_and_resets() {
        let f = Fences::default();
        let exportable = FenceFacts {
            export: Some(vk::ExternalFenceHandleTypeFlags::SYNC_FD),
            known: true,
            ..Default::default()
        };
        f.insert(1, exportable);
        // Plain, but followed: a sync-file import may give it a payload any time.
        let plain = FenceFacts {
            known: true,
            ..Default::default()
        };
        f.insert(2, plain);
        // A create info the layer could not read: not followed.
        f.insert(3, FenceFacts::default());
        assert!(f.any_shared());
        let signal = |h| f.get(h, 9).unwrap().facts.signal;
        assert_eq!(signal(1), FenceSignal::UnsignaledSinceCreation);
        f.set_signal(1, FenceSignal::Signaled);
        assert_eq!(signal(1), FenceSignal::Signaled);
        f.set_signal(2, FenceSignal::Signaled);
        assert_eq!(signal(2), FenceSignal::Signaled);
        f.set_signal(3, FenceSignal::Signaled);
        assert_eq!(
            signal(3),
            FenceSignal::UnsignaledSinceCreation,
            "not followed"
        );
        f.remove(1, 9, None);
        f.remove(2, 9, None);
        assert!(!f.any_shared());
        // A temporary sync-file import is a copy: the fence's own payload is judged again once
        // a reset restored it; an opaque import shares the payload for good.
        f.insert(2, plain);
        let sync_fd = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();
        f.imported(2, Import::of_unknown_export(sync_fd), Permanence::Temporary);
        assert_eq!(signal(2), FenceSignal::Unknown);
        assert!(!f.get(2, 9).unwrap().facts.payload_escaped);
        f.imported(2, Import::of_unknown_export(0x1), Permanence::Permanent);
        assert!(f.get(2, 9).unwrap().facts.payload_escaped);
        f.remove(2, 9, None);
        f.remove(3, 9, None);
        assert!(!f.any_shared());
    }

    #[test]
    fn a_temporary_import_lasts_until_the_next_reset() {
        let f = Fences::default();
        f.insert(1, FenceFacts::default());
        assert!(!f.any_imported());
        let current = |h| f.get(h, 9).unwrap().facts.payload.current_import();
        f.imported(1, Import::of_unknown_export(0x8), Permanence::Temporary);
        f.imported(1, Import::of_unknown_export(0x8), Permanence::Temporary);
        assert!(f.any_imported());
        assert_eq!(
            current(1).map(|i| (i.handle_type, i.temporary)),
            Some((0x8, true))
        );
        f.reset(1);
        assert_eq!(current(1), None);
        f.imported(1, Import::of_unknown_export(0x1), Permanence::Permanent);
        f.acquired(1);
        assert_eq!(current(1), None, "an acquire imports an opaque payload");
        f.reset(1);
        assert_eq!(
            current(1).map(|i| (i.handle_type, i.temporary)),
            Some((0x1, false))
        );
        f.remove(1, 9, None);
        assert!(!f.any_imported());
    }
}
