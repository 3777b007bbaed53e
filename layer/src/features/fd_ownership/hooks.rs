//! The fds `vkImportSemaphoreFdKHR` and `vkImportFenceFdKHR` hand to the driver: "Importing a
//! semaphore [fence] payload from a file descriptor transfers ownership of the file descriptor
//! from the application to the Vulkan implementation. The application must not perform any
//! operations on the file descriptor after a successful import." A `SYNC_FD` of -1 (a signaled
//! sync file) is no fd: nothing is held or judged for it. What memory's imports do is
//! `features::import_matching::hooks`; the table of consumed fds is shared (`state`), so an fd
//! a semaphore took and an allocation imports again is found too.

use crate::boundary;
use crate::features::fd_ownership::rules::{self, Reimport};
use crate::features::fd_ownership::state::{self, HeldBy, ImportKind, ImportedInto};
use crate::features::import_matching::hooks::report_lost;
use crate::finding::Outcome;
use crate::os::HeldFile;
use crate::state::DeviceState;

/// The consumed fd an import names, if it is one (-1 is none).
#[inline(always)]
pub fn consumed(fd: i32) -> Option<(ImportedInto, HeldBy)> {
    if fd < 0 {
        return None;
    }
    state::imported_into(fd)
}

/// The finding of an import (`at`) of `fd`, a consumed fd (if it still is one), added to
/// `outcome`: it blocks the call.
#[cold]
#[inline(never)]
pub fn report_imported_twice(state: &DeviceState, at: &Reimport, fd: i32, outcome: &mut Outcome) {
    if let Some((into, by)) = consumed(fd) {
        let found = boundary::contain(at.command, || {
            rules::imported_twice(state.handle(), at, fd, into, by)
        });
        outcome.absorb(found);
        outcome.blocked = true;
    }
}

/// Before an import of `fd` goes down: the layer's hold of the open file description it hands
/// over.
#[inline(always)]
pub fn before_import(fd: i32) -> Option<HeldFile> {
    if fd < 0 {
        return None;
    }
    state::before_import(fd)
}

/// After an import of `fd` into `object` (a semaphore or fence, `kind`) succeeded, with what
/// [`before_import`] held: the fd is the driver's now. The numbers of the object's earlier import
/// the process closed since are reported.
pub fn after_import(
    state: &DeviceState,
    fd: i32,
    held: Option<HeldFile>,
    kind: ImportKind,
    object: u64,
) {
    let Some(held) = held else {
        return;
    };
    let into = ImportedInto {
        device: state.handle(),
        object,
        kind,
    };
    let lost = state::remember_replacing(fd, held, into);
    report_lost(state, kind.command(), &lost);
}

/// Before `vkDestroySemaphore` or `vkDestroyFence` (`command`) of `object` goes down: the number
/// of its import the process closed since, reported.
#[inline(always)]
pub fn destroyed(state: &DeviceState, command: &'static str, kind: ImportKind, object: u64) {
    if state::any() {
        forget_destroyed(state, command, kind, object);
    }
}

#[cold]
#[inline(never)]
fn forget_destroyed(state: &DeviceState, command: &'static str, kind: ImportKind, object: u64) {
    let lost = state::forget_object(ImportedInto {
        device: state.handle(),
        object,
        kind,
    });
    if !lost.is_empty() {
        report_lost(state, command, &lost);
    }
}
