//! The live `VkSemaphore` objects of one device, one small record each (what `vkCreateSemaphore`
//! was given that the export rules read), and a short ring of the latest destroyed ones, so a
//! use after destroy can say which semaphore it was. Creating and destroying one costs a map
//! insertion or removal (a sharded `DashMap`), and a destroy a short lock of the ring.

use super::maps::{handle_map, HandleMap};
use super::submissions::Submission;
use super::sync_payload::{Import, Permanence, SyncPayload, Temporary};
use ash::vk;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicUsize, Ordering};

const SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();

/// How many destroyed semaphores a device remembers.
pub const DESTROYED_SLOTS: usize = 16;
/// Shards of the semaphore map.
const SHARDS: usize = 16;

/// What the layer knows of a shared binary semaphore's signal state, from the queue operations
/// it saw (`commands::queues`): only a state it is sure of is ever judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SignalState {
    /// Certainly unsignaled, with no signal operation submitted since what it names.
    #[default]
    UnsignaledSinceCreation,
    /// Its payload went to a sync file (`vkGetSemaphoreFdKHR` of `SYNC_FD`, which acts as a wait)
    /// and no signal operation was submitted since.
    UnsignaledSinceSyncFdExport,
    /// A wait on it was submitted after its last signal (by the submission
    /// `SemaphoreFacts::waited_by`; none: by a present, whose completion no queue or fence wait
    /// tells): either that wait is still pending (a queue waits on it) or it is unsignaled with
    /// nothing pending; the layer cannot tell which until the submission is known to have
    /// completed.
    Waited,
    /// A wait on it was submitted after its last signal, and has completed (its queue went
    /// idle, or a fence of it or of a later submission to the queue was waited on): unsignaled,
    /// with no signal operation submitted since.
    UnsignaledSinceWaitCompleted,
    /// A signal operation on it was submitted (pending or done).
    SignalSubmitted,
    /// Something the layer cannot follow happened (an import, a failed submission).
    Unknown,
}

impl SignalState {
    /// Whether the layer is sure no signal operation was submitted for the semaphore since it
    /// was last unsignaled. After a submitted wait it is not: the wait may still be pending (a
    /// queue waiting on it), which the layer cannot see.
    #[inline(always)]
    pub fn certainly_unsignaled(self) -> bool {
        matches!(
            self,
            SignalState::UnsignaledSinceCreation
                | SignalState::UnsignaledSinceSyncFdExport
                | SignalState::UnsignaledSinceWaitCompleted
        )
    }
}

/// A wait a batch submitted on a semaphore for which no signal operation had been submitted
/// (the semaphore, and how many signals of it had been submitted then): the batch's signals
/// depend on a signal operation not submitted, until one of that semaphore is
/// (`VUID-VkSemaphoreGetFdInfoKHR-handleType-03254`'s second half).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsubmittedWait {
    pub semaphore: NonZeroU64,
    pub signals_submitted: u32,
}

/// What `vkCreateSemaphore` was given, as far as the export rules read it, and what the layer
/// saw happen to it since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SemaphoreFacts {
    /// `VkSemaphoreTypeCreateInfo::semaphoreType` was `VK_SEMAPHORE_TYPE_TIMELINE`.
    pub timeline: bool,
    /// `VkExportSemaphoreCreateInfo::handleTypes`; `None` without the structure.
    pub export: Option<vk::ExternalSemaphoreHandleTypeFlags>,
    /// `VkSemaphoreCreateInfo::flags`.
    pub create_flags: vk::SemaphoreCreateFlags,
    /// The create info could be read (NULL or another `sType`: nothing of it is judged).
    pub known: bool,
    /// A payload was imported into it (`vkImportSemaphore*`, permanent or temporary): the import
    /// tables may hold something of it. Which payload is current is `payload`'s to say.
    pub imported: bool,
    /// Where its current payload came from (the created one, or an import, permanent or
    /// temporary until the next wait), as far as the layer follows it.
    pub payload: SyncPayload,
    /// A binary semaphore that can share its payload (created exportable, or imported into):
    /// its signal state is followed through queue operations.
    pub shared: bool,
    /// Its signal state, followed while `shared` (binary semaphores only).
    pub signal: SignalState,
    /// The signal state of its permanent payload while a temporary `SYNC_FD` import (a copy of
    /// a signal state, which shares nothing) replaces it, for the wait or `SYNC_FD` export that
    /// restores it.
    pub permanent_signal: Option<SignalState>,
    /// The submission of the wait, while `signal` is `Waited` (none: a present's).
    pub waited_by: Option<Submission>,
    /// The latest queue submission that waited on it or signaled it, while followed (none: a
    /// present, an acquire or a failed call came after): the queue command it is associated
    /// with, until that completes (`VUID-vkImportSemaphoreFdKHR-semaphore-01142`).
    pub used_by: Option<NonZeroU64>,
    /// How many signal operations on it were submitted while it was followed (wrapping): a
    /// wait recorded in an [`UnsubmittedWait`] is unsatisfied while this count is unchanged.
    pub signals_submitted: u32,
    /// While `signal` is `SignalSubmitted` by a submission: a wait of that signal's batch on a
    /// semaphore with no signal operation submitted then.
    pub awaits_unsubmitted: Option<UnsubmittedWait>,
    /// Its payload reached a handle of reference transference (an `OPAQUE_FD`, Win32 or Zircon
    /// export) or came from one (an import): other holders may signal or wait on it where the
    /// layer cannot see, so its signal state is never judged again.
    pub payload_escaped: bool,
    /// The NT handle types (`OPAQUE_WIN32`, `D3D12_FENCE`) its created payload was exported as
    /// by a `vkGetSemaphoreWin32HandleKHR` that succeeded, each a type it was created exportable
    /// as (`VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01127`: at most once each).
    pub nt_handle_exports: vk::ExternalSemaphoreHandleTypeFlags,
}

impl SemaphoreFacts {
    /// Its current payload is certainly the one it was created with (nothing imported, or every
    /// temporary import restored by a wait since), and the create info is known: the rules about
    /// the payload's creation may judge it.
    pub fn created_payload(&self) -> bool {
        self.known && self.payload.is_created()
    }

    /// The handle types its current payload was created exportable as, while that is its created
    /// one (`VkExportSemaphoreCreateInfo::handleTypes`, 0 without one): what an export of it
    /// tells an import (`sync_payload::Import::exportable`).
    pub fn created_export_types(&self) -> Option<u32> {
        self.created_payload()
            .then(|| self.export.map_or(0, |t| t.as_raw()))
    }
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
    /// How many live semaphores are `shared`: a queue operation on a device with none reads only
    /// this.
    shared: AtomicUsize,
}

impl Default for Semaphores {
    fn default() -> Self {
        Self {
            live: handle_map(SHARDS),
            destroyed: Mutex::default(),
            shared: AtomicUsize::new(0),
        }
    }
}

/// What a queue operation did to a semaphore, as far as its signal state goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueUse {
    /// A wait, by this submission (none: a present's).
    Wait(Option<Submission>),
    /// A signal, by this submission, in a batch that waited on a semaphore with no signal
    /// submitted (one such wait, if any).
    Signal(Option<Submission>, Option<UnsubmittedWait>),
    /// The operation failed: its effect on the semaphore is not known.
    Failed,
    /// A swapchain acquire succeeded: a signal, and a temporary import of a payload the layer
    /// cannot name.
    Acquired,
    /// A swapchain acquire failed: maybe such an import, maybe not.
    AcquireFailed,
}

impl Semaphores {
    /// A semaphore `vkCreateSemaphore` made (a handle value the driver reuses is forgotten as
    /// destroyed first). A binary semaphore created exportable is followed through queue
    /// operations from now on.
    pub fn insert(&self, semaphore: u64, mut facts: SemaphoreFacts) {
        facts.shared = facts.known && !facts.timeline && facts.export.is_some();
        if facts.shared {
            self.shared.fetch_add(1, Ordering::AcqRel);
        }
        if let Some(old) = self.live.insert(semaphore, facts) {
            self.unshare(&old);
        }
    }

    fn unshare(&self, facts: &SemaphoreFacts) {
        if facts.shared {
            self.shared.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Whether any live semaphore of the device is followed through queue operations.
    #[inline(always)]
    pub fn any_shared(&self) -> bool {
        self.shared.load(Ordering::Acquire) != 0
    }

    /// A queue operation used `semaphore` (a wait or a signal), or failed with it: the signal
    /// state of a shared binary semaphore follows. For a wait on one the layer is sure had no
    /// signal operation submitted (and whose payload no one else holds): that wait, for the
    /// batch's signals ([`UnsubmittedWait`]).
    pub fn queue_used(&self, semaphore: u64, operation: QueueUse) -> Option<UnsubmittedWait> {
        match operation {
            QueueUse::Wait(by) => return self.waited(semaphore, by),
            QueueUse::Signal(by, awaits) => self.signaled(semaphore, by, awaits),
            QueueUse::Failed => self.failed(semaphore),
            QueueUse::Acquired => self.acquired(semaphore, SignalState::SignalSubmitted),
            QueueUse::AcquireFailed => self.acquired(semaphore, SignalState::Unknown),
        }
        None
    }

    /// [`Semaphores::queue_used`] of a wait, by the submission `by` (none: a present's). A
    /// submitted wait restores a temporarily imported payload, and the signal state the
    /// permanent one had.
    #[inline(always)]
    pub fn waited(&self, semaphore: u64, by: Option<Submission>) -> Option<UnsubmittedWait> {
        let mut facts = self.live.get_mut(&semaphore)?;
        if !facts.shared {
            return None;
        }
        let unsubmitted = (!facts.payload_escaped && facts.signal.certainly_unsignaled())
            .then_some(())
            .and_then(|()| NonZeroU64::new(semaphore))
            .map(|semaphore| UnsubmittedWait {
                semaphore,
                signals_submitted: facts.signals_submitted,
            });
        facts.used_by = by.map(|b| b.serial);
        facts.waited_by = by;
        facts.awaits_unsubmitted = None;
        facts.payload.restore();
        facts.signal = facts.permanent_signal.take().unwrap_or(SignalState::Waited);
        unsubmitted
    }

    /// [`Semaphores::queue_used`] of a signal, by the submission `by`, in a batch that waited on
    /// `awaits` (a semaphore with no signal submitted), if any.
    #[inline(always)]
    pub fn signaled(
        &self,
        semaphore: u64,
        by: Option<Submission>,
        awaits: Option<UnsubmittedWait>,
    ) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            if facts.shared {
                facts.used_by = by.map(|b| b.serial);
                facts.awaits_unsubmitted = awaits;
                facts.signals_submitted = facts.signals_submitted.wrapping_add(1);
                facts.signal = SignalState::SignalSubmitted;
            }
        }
    }

    /// [`Semaphores::queue_used`] of a queue operation that failed: its effect is not known (a
    /// temporary payload may or may not have been consumed).
    #[inline]
    pub fn failed(&self, semaphore: u64) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            if facts.shared {
                facts.used_by = None;
                facts.awaits_unsubmitted = None;
                facts.signal = SignalState::Unknown;
                facts.payload.maybe_restored();
                facts.permanent_signal = None;
            }
        }
    }

    /// A swapchain acquire that signals `semaphore` (`signal`: `SignalSubmitted`, or `Unknown`
    /// when it failed): maybe a temporary import of a payload the layer cannot name.
    fn acquired(&self, semaphore: u64, signal: SignalState) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            if facts.shared {
                facts.used_by = None;
                facts.awaits_unsubmitted = None;
                facts.signal = signal;
                facts.payload.opaque_temporary();
            }
        }
    }

    /// Whether the wait `wait` is still unsatisfied: no signal operation of its semaphore was
    /// submitted since, and its payload is still followed and no one else's (another holder
    /// could signal it where the layer cannot see).
    pub fn still_unsubmitted(&self, wait: UnsubmittedWait) -> bool {
        self.live.get(&wait.semaphore.get()).is_some_and(|facts| {
            facts.shared
                && !facts.payload_escaped
                && facts.signals_submitted == wait.signals_submitted
        })
    }

    /// The submissions to `queue` (every queue: `None`) numbered `through` and before have
    /// completed: a shared semaphore whose last followed operation was a wait by one of them is
    /// unsignaled with nothing pending.
    pub fn completed(&self, queue: Option<u64>, through: u64) {
        for mut facts in self.live.iter_mut() {
            if let (SignalState::Waited, Some(by)) = (facts.signal, facts.waited_by) {
                if by.serial.get() <= through && queue.map_or(true, |q| q == by.queue) {
                    facts.signal = SignalState::UnsignaledSinceWaitCompleted;
                }
            }
        }
    }

    /// An export of `semaphore` as a handle of reference transference succeeded: its payload is
    /// shared with whoever holds the handle.
    pub fn payload_escaped(&self, semaphore: u64) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            facts.payload_escaped = true;
        }
    }

    /// A `SYNC_FD` export of `semaphore` succeeded: its payload went to the sync file, as a wait
    /// would take it (and, as a wait, it restored a temporarily imported payload).
    pub fn exported_sync_fd(&self, semaphore: u64) {
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            facts.payload.restore();
            if facts.shared {
                // The export took a temporary payload's state, if one was in place, and the
                // permanent payload is back as it was; else it took the semaphore's own.
                facts.signal = facts
                    .permanent_signal
                    .take()
                    .unwrap_or(SignalState::UnsignaledSinceSyncFdExport);
            }
        }
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
    ///
    /// Whether the export and import tables may hold something of it (its payload was exported
    /// by reference or imported into, or its create info is not known): only then must they be
    /// searched.
    pub fn remove(&self, semaphore: u64, device: u64, name: Option<String>) -> bool {
        let Some((_, facts)) = self.live.remove(&semaphore) else {
            return true;
        };
        // The tables hold only exports of reference transference (which mark the payload escaped)
        // and fds imported into it.
        let tracked = !facts.known || facts.imported || facts.payload_escaped;
        self.unshare(&facts);
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
        tracked
    }

    /// A successful `vkImportSemaphore*` of `handle_type` into `semaphore`: its payload is
    /// another from now on, whose signal state the layer does not know; a binary one is followed
    /// from here. A temporary import is followed until the next wait only into a binary semaphore
    /// the layer knows (the layer sees every command that waits on one: `commands::queues`);
    /// into one whose create info it could not read, whether it is still in place is not known.
    ///
    /// Only a payload of reference transference is shared with others from then on (its signal
    /// state never judged again). A temporary `SYNC_FD` import is a copy of a signal state: the
    /// permanent payload stays the semaphore's own, and its signal state (kept aside while the
    /// copy is in place) is the semaphore's again once a wait or `SYNC_FD` export restores it.
    pub fn imported(&self, semaphore: u64, import: Import, permanence: Permanence) {
        let handle_type = import.handle_type;
        if let Some(mut facts) = self.live.get_mut(&semaphore) {
            if handle_type != SYNC_FD {
                facts.payload_escaped = true;
                facts.permanent_signal = None;
            } else if permanence == Permanence::Temporary && facts.known && !facts.timeline {
                if facts.payload.temporary == Temporary::None {
                    facts.permanent_signal = Some(facts.signal);
                }
            } else {
                facts.payload_escaped = true;
                facts.permanent_signal = None;
            }
            facts.imported = true;
            match permanence {
                Permanence::Temporary if facts.known && facts.timeline => {
                    facts.payload.import(import, Permanence::Unknown)
                }
                Permanence::Temporary if !facts.known => facts.payload.opaque_temporary(),
                _ => facts.payload.import(import, permanence),
            }
            if facts.known && !facts.timeline && !facts.shared {
                facts.shared = true;
                self.shared.fetch_add(1, Ordering::AcqRel);
            }
            facts.signal = SignalState::Unknown;
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
        self.shared.store(0, Ordering::Release);
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
    fn a_wait_known_completed_leaves_the_semaphore_unsignaled() {
        use crate::state::submissions::Submission;
        let s = Semaphores::default();
        let exportable = SemaphoreFacts {
            known: true,
            export: Some(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD),
            ..Default::default()
        };
        for h in 1..=4 {
            s.insert(h, exportable);
        }
        let signal = |h| s.get(h, 9).unwrap().facts.signal;
        let on = |queue, serial| {
            Some(Submission {
                queue,
                serial: std::num::NonZeroU64::new(serial).unwrap(),
            })
        };
        s.queue_used(1, QueueUse::Wait(on(0xa, 1)));
        s.queue_used(2, QueueUse::Wait(on(0xa, 3)));
        s.queue_used(3, QueueUse::Wait(on(0xb, 2)));
        s.queue_used(4, QueueUse::Wait(None));
        // Queue 0xa through submission 2: the first wait only.
        s.completed(Some(0xa), 2);
        assert_eq!(signal(1), SignalState::UnsignaledSinceWaitCompleted);
        assert_eq!(signal(2), SignalState::Waited);
        assert_eq!(signal(3), SignalState::Waited);
        // Every queue: all but a present's wait.
        s.completed(None, 3);
        for h in 1..=3 {
            assert_eq!(signal(h), SignalState::UnsignaledSinceWaitCompleted);
        }
        assert_eq!(signal(4), SignalState::Waited);
    }

    #[test]
    fn a_temporary_sync_file_import_keeps_the_permanent_signal_state_aside() {
        let s = Semaphores::default();
        let exportable = SemaphoreFacts {
            known: true,
            export: Some(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD),
            ..Default::default()
        };
        s.insert(1, exportable);
        let facts = |h| s.get(h, 9).unwrap().facts;
        s.imported(1, Import::of_unknown_export(SYNC_FD), Permanence::Temporary);
        assert_eq!(facts(1).signal, SignalState::Unknown);
        assert!(!facts(1).payload_escaped, "a copy shares nothing");
        // A second copy replaces the first; the permanent payload's state stays aside.
        s.queue_used(1, QueueUse::Signal(None, None));
        s.imported(1, Import::of_unknown_export(SYNC_FD), Permanence::Temporary);
        s.queue_used(1, QueueUse::Wait(None));
        assert_eq!(facts(1).signal, SignalState::UnsignaledSinceCreation);
        assert!(facts(1).payload.is_created());
        // Consumed by a sync-file export, after a signal of the permanent payload.
        s.queue_used(1, QueueUse::Signal(None, None));
        s.imported(1, Import::of_unknown_export(SYNC_FD), Permanence::Temporary);
        s.exported_sync_fd(1);
        assert_eq!(facts(1).signal, SignalState::SignalSubmitted);
        // A failed submission: nothing known.
        s.imported(1, Import::of_unknown_export(SYNC_FD), Permanence::Temporary);
        s.queue_used(1, QueueUse::Failed);
        assert_eq!(facts(1).signal, SignalState::Unknown);
        assert_eq!(facts(1).permanent_signal, None);
        // A payload of reference transference is shared for good.
        s.imported(
            1,
            Import::of_unknown_export(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw()),
            Permanence::Temporary,
        );
        assert!(facts(1).payload_escaped);
        s.remove(1, 9, None);
    }

    #[test]
    fn shared_binary_semaphores_follow_queue_operations() {
        let s = Semaphores::default();
        let exportable = SemaphoreFacts {
            known: true,
            export: Some(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD),
            ..Default::default()
        };
        s.insert(1, exportable);
        s.insert(
            2,
            SemaphoreFacts {
                known: true,
                ..Default::default()
            },
        );
        s.insert(
            3,
            SemaphoreFacts {
                timeline: true,
                ..exportable
            },
        );
        assert!(s.any_shared());
        let signal = |h| s.get(h, 9).unwrap().facts.signal;
        assert_eq!(signal(1), SignalState::UnsignaledSinceCreation);
        s.queue_used(1, QueueUse::Signal(None, None));
        assert_eq!(signal(1), SignalState::SignalSubmitted);
        s.exported_sync_fd(1);
        assert_eq!(signal(1), SignalState::UnsignaledSinceSyncFdExport);
        s.queue_used(1, QueueUse::Wait(None));
        assert_eq!(signal(1), SignalState::Waited);
        s.queue_used(1, QueueUse::Failed);
        assert_eq!(signal(1), SignalState::Unknown);
        s.queue_used(2, QueueUse::Signal(None, None));
        assert_eq!(
            signal(2),
            SignalState::UnsignaledSinceCreation,
            "not followed"
        );
        assert!(!s.get(3, 9).unwrap().facts.shared, "timeline");
        s.remove(1, 9, None);
        assert!(!s.any_shared());
        s.imported(2, Import::of_unknown_export(1), Permanence::Permanent);
        assert!(s.any_shared(), "an import shares it");
        assert_eq!(signal(2), SignalState::Unknown);
        s.remove(2, 9, None);
        assert!(!s.any_shared());
    }

    #[test]
    fn a_temporary_import_is_followed_until_the_next_wait_on_a_known_binary_semaphore() {
        let s = Semaphores::default();
        let known = SemaphoreFacts {
            known: true,
            ..Default::default()
        };
        s.insert(1, known);
        s.insert(2, known);
        s.insert(
            3,
            SemaphoreFacts {
                timeline: true,
                ..known
            },
        );
        s.insert(4, SemaphoreFacts::default());
        let current = |h| s.get(h, 9).unwrap().facts.payload.current_import();
        s.imported(1, Import::of_unknown_export(0x10), Permanence::Temporary);
        assert_eq!(
            current(1).map(|i| (i.handle_type, i.temporary)),
            Some((0x10, true))
        );
        s.queue_used(1, QueueUse::Signal(None, None));
        assert!(current(1).is_some(), "a signal restores nothing");
        s.queue_used(1, QueueUse::Wait(None));
        assert_eq!(current(1), None, "restored to the created payload");
        s.imported(1, Import::of_unknown_export(0x10), Permanence::Temporary);
        s.exported_sync_fd(1);
        assert_eq!(current(1), None, "a SYNC_FD export is a wait");
        s.imported(1, Import::of_unknown_export(0x10), Permanence::Temporary);
        s.queue_used(1, QueueUse::Failed);
        assert_eq!(current(1), None, "maybe restored");
        s.imported(4, Import::of_unknown_export(0x10), Permanence::Temporary);
        assert_eq!(current(4), None, "its create info is not known");
        s.imported(2, Import::of_unknown_export(0x1), Permanence::Permanent);
        s.queue_used(2, QueueUse::Acquired);
        assert_eq!(current(2), None, "an acquire imports an opaque payload");
        s.queue_used(2, QueueUse::Wait(None));
        assert_eq!(
            current(2).map(|i| (i.handle_type, i.temporary)),
            Some((0x1, false))
        );
        s.imported(3, Import::of_unknown_export(0x1), Permanence::Temporary);
        assert_eq!(
            current(3),
            None,
            "no temporary import into a timeline semaphore"
        );
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
        s.imported(7, Import::of_unknown_export(1), Permanence::Permanent);
        let facts = s.get(7, 9).unwrap().facts;
        assert_eq!(facts.nt_handle_exports, win32 | d3d12);
        assert!(facts.imported);
        assert!(s.get(8, 9).is_none(), "nothing made up");
    }
}
