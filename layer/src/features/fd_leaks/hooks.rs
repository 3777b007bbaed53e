//! Exported-fd leaks (setting `check_fd_leaks`): what the commands record and when they look.
//! The identities and the fd-table scans come from [`crate::os`]; the rule is the pure
//! [`crate::features::fd_leaks::rules::check_leaks`].

use crate::features::cross_process::state as shared_exports;
use crate::features::fd_leaks::rules::{check_leaks, Checkpoint};
use crate::features::fd_leaks::state::{remember_import, was_imported, FdExports, FreedExport};
use crate::features::import_matching::state::opaque_exports;
use crate::finding::ObjectRef;
use crate::os::{self, payload, FileId, HeldFile};
use crate::pipeline::policy::report_only;
use crate::state::lookup::lookup_memory;
use crate::state::{DeviceState, MemoryLookup, MemoryRecord, PackedAllocation};
use std::sync::Once;

/// After a valid `vkGetMemoryFdKHR` returned `fd` for `memory`. Inlined to its test of the
/// setting: a process that does not check leaks pays no call.
#[inline(always)]
pub fn record_export(state: &DeviceState, memory: u64, fd: i32) {
    if let Some(exports) = &state.fd_exports {
        record_checked_export(exports, memory, fd);
    }
}

/// [`record_export`] where leaks are checked.
#[inline(never)]
fn record_checked_export(exports: &FdExports, memory: u64, fd: i32) {
    if let Some(file) = os::file_id(fd) {
        // A file of its own (a memfd, a dma-buf) names the payload; any other (a driver's
        // device file) only its open file description does.
        let shared_file = payload::payload_id(fd).is_none();
        exports.record(memory, file, shared_file, fd);
        register_exit_check();
    }
}

/// What an import hands the driver, as the leak check knows it: the file, and the layer's
/// descriptor of the export whose open file description it is, if the layer holds one.
#[derive(Clone, Copy, Debug)]
pub struct ImportedFile {
    file: FileId,
    export: Option<i32>,
}

/// Before `vkAllocateMemory` imports `fd`: what it hands the driver, to remember after success.
#[inline]
pub fn import_identity(state: &DeviceState, fd: Option<i32>) -> Option<ImportedFile> {
    state.fd_exports.as_ref()?;
    let fd = fd?;
    Some(ImportedFile {
        file: os::file_id(fd)?,
        export: opaque_exports::held_number_of(fd),
    })
}

/// After a successful import of `imported`.
#[inline]
pub fn record_import(imported: Option<ImportedFile>) {
    if let Some(imported) = imported {
        remember_import(imported.file);
        if let Some(held) = imported.export {
            opaque_exports::mark_imported(held);
        }
    }
}

/// The exports of an allocation being freed, and, for a file shared with other payloads, the
/// layer's descriptors of their open file descriptions, closed once the process's fds were
/// looked at after the free.
pub struct Freeing {
    export: FreedExport,
    held: Vec<HeldFile>,
}

/// At `vkFreeMemory` of a live allocation (`record`), before the call goes down (the driver may
/// reuse the handle as soon as it freed it): takes what was exported from it, if anything (boxed:
/// a free of memory never exported moves only a pointer).
#[inline]
pub fn take_export(state: &DeviceState, memory: &MemoryRecord) -> Option<Box<Freeing>> {
    let exports = state.fd_exports.as_ref()?;
    exports.adopt();
    let (_, exported) = exports.live.remove(&memory.memory)?;
    let name = state.name_of(ObjectRef::memory(memory.memory));
    let held = if exported.shared_file {
        opaque_exports::take_held(memory.device, memory.memory, &shared_exports::retire)
    } else {
        Vec::new()
    };
    Some(Box::new(Freeing {
        export: FreedExport {
            record: *memory,
            name,
            exported,
        },
        held,
    }))
}

/// After the driver freed the memory of `freed` (so its own fd of the file is closed): a
/// warning when an fd exported from it is still open under the number the driver returned;
/// otherwise the export waits for the vkDestroyDevice/exit check (an fd may have been
/// duplicated or moved). An export of a file shared with other payloads is looked for under the
/// numbers the driver returned, by its open file description, and not later: the layer lets its
/// own descriptor of it go with the allocation, so that it never keeps the memory alive.
#[inline]
pub fn after_free(state: &DeviceState, freeing: Option<Box<Freeing>>) {
    let (Some(exports), Some(freeing)) = (&state.fd_exports, freeing) else {
        return;
    };
    let Freeing {
        export: freed,
        held,
    } = *freeing;
    let shared_file = freed.exported.shared_file;
    let open = if shared_file {
        // Only the numbers the driver returned: a copy may still be in a correct program's
        // hands for a moment (a library that duplicates what it sends, an import under way in
        // another thread), and the layer cannot look for it later.
        let held: Vec<i32> = held
            .iter()
            .filter(|h| h.is_ours())
            .map(HeldFile::number)
            .collect();
        descriptions_among(&freed, &held, freed.exported.fds.iter().copied())
    } else {
        open_under_returned_numbers(&freed)
    };
    // The layer's descriptors of the export go now (after the look).
    drop(held);
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
    if shared_file {
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

/// The fd numbers the driver returned for `export` that still refer to it: to its file, or,
/// for a file shared with other payloads, to an open file description of its exports the layer
/// holds.
fn open_under_returned_numbers(export: &FreedExport) -> Vec<(i32, FileId)> {
    let file = export.exported.file;
    let layers = crate::features::import_matching::hooks::held_numbers();
    let open: Vec<i32> = export
        .exported
        .fds
        .iter()
        .copied()
        .filter(|fd| !layers.contains(fd))
        .filter(|&fd| os::file_id(fd) == Some(file))
        .collect();
    let open = if export.exported.shared_file {
        let (device, memory) = (export.record.device, export.record.memory);
        opaque_exports::described(device, memory, &open)
    } else {
        open
    };
    open.into_iter().map(|fd| (fd, file)).collect()
}

/// The fds among `numbers` that refer to one of the open file descriptions of `export` the
/// layer holds as `held` (never a descriptor of the layer's own): `kcmp` tells them from the
/// driver's own descriptors of the same file and from its other exports.
fn descriptions_among(
    export: &FreedExport,
    held: &[i32],
    numbers: impl IntoIterator<Item = i32>,
) -> Vec<(i32, FileId)> {
    if held.is_empty() {
        return Vec::new();
    }
    let file = export.exported.file;
    let layers = crate::features::import_matching::hooks::held_numbers();
    numbers
        .into_iter()
        .filter(|fd| !layers.contains(fd) && !held.contains(fd))
        .filter(|&fd| os::file_id(fd) == Some(file))
        .filter(|&fd| {
            held.iter()
                .any(|&h| os::same_open_file(h, fd) == Some(true))
        })
        .map(|fd| (fd, file))
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
    let held = crate::features::import_matching::hooks::held_numbers();
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
