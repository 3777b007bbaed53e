//! Exported-fd leaks (setting `check_fd_leaks`): what the commands record and when they look.
//! The identities and the fd-table scans come from [`crate::os`]; the rule is the pure
//! [`crate::rules::fd_leaks::check_leaks`].

use crate::finding::ObjectRef;
use crate::os::{self, FileId};
use crate::pipeline::policy::report_only;
use crate::rules::fd_leaks::{check_leaks, Checkpoint};
use crate::state::fd_exports::{remember_import, was_imported, FreedExport};
use crate::state::registry::lookup_memory;
use crate::state::{DeviceState, MemoryLookup, MemoryRecord, PackedAllocation};
use std::sync::Once;

/// After a valid `vkGetMemoryFdKHR` returned `fd` for `memory`.
#[inline]
pub fn record_export(state: &DeviceState, memory: u64, fd: i32) {
    let Some(exports) = &state.fd_exports else {
        return;
    };
    if let Some(file) = os::file_id(fd) {
        exports.record(memory, file, fd);
        register_exit_check();
    }
}

/// Before `vkAllocateMemory` imports `fd`: the identity of its file, to remember after success.
#[inline]
pub fn import_identity(state: &DeviceState, fd: Option<i32>) -> Option<FileId> {
    state.fd_exports.as_ref()?;
    os::file_id(fd?)
}

/// After a successful import of `file`.
#[inline]
pub fn record_import(file: Option<FileId>) {
    if let Some(file) = file {
        remember_import(file);
    }
}

/// At `vkFreeMemory` of a live allocation (`record`), before the call goes down (the driver may
/// reuse the handle as soon as it freed it): takes what was exported from it, if anything.
#[inline]
pub fn take_export(state: &DeviceState, memory: &MemoryRecord) -> Option<FreedExport> {
    let exports = state.fd_exports.as_ref()?;
    exports.adopt();
    let (_, exported) = exports.live.remove(&memory.memory)?;
    let name = state.name_of(ObjectRef::memory(memory.memory));
    Some(FreedExport {
        record: *memory,
        name,
        exported,
    })
}

/// After the driver freed the memory of `freed` (so its own fd of the file is closed): a
/// warning when an fd exported from it is still open under the number the driver returned;
/// otherwise the export waits for the vkDestroyDevice/exit check (an fd may have been
/// duplicated or moved).
#[inline]
pub fn after_free(state: &DeviceState, freed: Option<FreedExport>) {
    let (Some(exports), Some(freed)) = (&state.fd_exports, freed) else {
        return;
    };
    let open = open_under_returned_numbers(&freed);
    if !open.is_empty() {
        let outcome = check_leaks(
            Checkpoint::Free,
            state.handle(),
            &[freed],
            &open,
            was_imported,
        );
        report_only(state, Checkpoint::Free.command(), &outcome);
        return;
    }
    let due = exports.keep_pending(freed);
    if !due.is_empty() {
        let outcome = scan(Checkpoint::FreedEarlier, state.handle(), &due);
        report_only(state, Checkpoint::Free.command(), &outcome);
    }
}

/// At `vkDestroyDevice`: every export of the device whose file is still open.
pub fn at_destroy(state: &DeviceState) {
    let outcome = check_all(state, Checkpoint::DestroyDevice);
    report_only(state, Checkpoint::DestroyDevice.command(), &outcome);
}

fn check_all(state: &DeviceState, checkpoint: Checkpoint) -> crate::finding::Outcome {
    let Some(exports) = &state.fd_exports else {
        return Default::default();
    };
    let (live, pending) = exports.take_all(|memory| {
        let record = match lookup_memory(state, memory) {
            MemoryLookup::Live(record) => record,
            // Not live (a race with vkFreeMemory): described by its handle alone.
            _ => PackedAllocation::EMPTY.record(memory, state.handle()),
        };
        let name = state.name_of(ObjectRef::memory(memory));
        (record, name)
    });
    // Live memory: the driver's own fds of the same file are open too, so only the numbers it
    // returned are looked at. Freed memory: the driver closed its own, so the whole table.
    let open: Vec<(i32, FileId)> = live.iter().flat_map(open_under_returned_numbers).collect();
    let mut outcome = check_leaks(checkpoint, state.handle(), &live, &open, was_imported);
    outcome
        .findings
        .extend(scan(checkpoint, state.handle(), &pending).findings);
    outcome
}

/// The fd numbers the driver returned for `export` that still refer to its file.
fn open_under_returned_numbers(export: &FreedExport) -> Vec<(i32, FileId)> {
    let file = export.exported.file;
    let held = super::opaque_imports::held_numbers();
    export
        .exported
        .fds
        .iter()
        .filter(|fd| !held.contains(fd))
        .filter(|&&fd| os::file_id(fd) == Some(file))
        .map(|&fd| (fd, file))
        .collect()
}

/// One scan of the process's fd table for the files of `exports`.
fn scan(checkpoint: Checkpoint, device: u64, exports: &[FreedExport]) -> crate::finding::Outcome {
    if exports.is_empty() {
        return Default::default();
    }
    let mut files: Vec<FileId> = exports.iter().map(|e| e.exported.file).collect();
    files.sort_by_key(|f| (f.dev, f.ino));
    files.dedup();
    // The layer's own descriptors (of exports, of consumed fds) are not the app's.
    let held = super::opaque_imports::held_numbers();
    let mut open = os::open_fds_of(&files);
    open.retain(|(fd, _)| !held.contains(fd));
    check_leaks(checkpoint, device, exports, &open, was_imported)
}

/// Registers the exit check once, at the first export (after the process report's own exit
/// hook, so that it runs before the report is written).
fn register_exit_check() {
    static REGISTERED: Once = Once::new();
    REGISTERED.call_once(|| {
        #[cfg(unix)]
        // SAFETY: registers a plain extern "C" function that catches every panic.
        unsafe {
            libc::atexit(check_at_exit);
        }
    });
}

#[cfg(unix)]
extern "C" fn check_at_exit() {
    let _ = std::panic::catch_unwind(|| {
        for state in crate::state::registry::DEVICES.values() {
            let outcome = crate::boundary::contain("exit", || check_all(&state, Checkpoint::Exit));
            crate::report::report_at_exit(&state, &outcome);
        }
    });
}
