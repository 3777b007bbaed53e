//! The fds `vkGetMemoryFdKHR` returned, by file identity (`fstat` device and inode), so that a
//! leak is found whatever the app did with the numbers: `dup`, `dup2` over each other, close and
//! reuse, or sending the fd to another process. Per device: the exports of live memory, and those
//! of freed memory whose exported fds were closed or moved when it was freed (checked again at
//! `vkDestroyDevice` and at exit, with one scan of the process's fd table). Process-wide: the
//! files imported with `VkImportMemoryFdInfoKHR` (the driver owns those fds).

use crate::os::FileId;
use crate::state::maps::{handle_map, HandleMap};
use crate::state::memory::MemoryRecord;
use parking_lot::Mutex;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::LazyLock;

/// How many of the latest exported fd numbers are kept per memory object.
const KEPT_NUMBERS: usize = 8;
/// Freed exports kept for the destroy/exit check before the oldest is checked early.
const PENDING_LIMIT: usize = 4096;
/// Imported files remembered (the oldest are forgotten past this).
const IMPORTED_LIMIT: usize = 65_536;

/// What was exported from one memory object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportedFile {
    pub file: FileId,
    /// The fd numbers the driver returned (the latest [`KEPT_NUMBERS`]).
    pub fds: Vec<i32>,
    /// The file is shared with other payloads (a driver's device file, every export a new open
    /// file description of it, as NVIDIA's `/dev/nvidiactl`): an fd is this export's only when
    /// `kcmp` says it is the open file description the layer holds
    /// (`features::import_matching::state::opaque_exports::described`), never by the file alone.
    pub shared_file: bool,
}

/// The exports of a memory object that is gone (or going): what it was, its debug name then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreedExport {
    pub record: MemoryRecord,
    pub name: Option<String>,
    pub exported: ExportedFile,
}

pub struct FdExports {
    /// Exports of live memory, by `VkDeviceMemory` handle.
    pub live: HandleMap<u64, ExportedFile>,
    /// Exports of freed memory whose fds were not open under their numbers at the free.
    pub pending: Mutex<Vec<FreedExport>>,
    /// The process the exports belong to: a child forked without exec inherits the parent's
    /// fds, which are not its leaks (see [`FdExports::adopt`]).
    owner: AtomicU32,
}

impl Default for FdExports {
    fn default() -> Self {
        Self::new()
    }
}

impl FdExports {
    pub fn new() -> Self {
        Self {
            live: handle_map(16),
            pending: Mutex::new(Vec::new()),
            owner: AtomicU32::new(std::process::id()),
        }
    }

    /// In a child forked without exec, at its first use: forgets the parent's exports (the
    /// child inherited their fds; they are the parent's to close). A no-op in the owner.
    /// How many exports are watched, of live and of freed memory (introspection).
    pub fn entries(&self) -> usize {
        self.live.len() + self.pending.lock().len()
    }

    pub fn adopt(&self) {
        let pid = std::process::id();
        if self.owner.swap(pid, Ordering::SeqCst) != pid {
            self.live.clear();
            self.pending.lock().clear();
        }
    }

    /// Records that `fd`, of file `file` (shared with other payloads: `shared_file`), was
    /// exported from `memory`.
    pub fn record(&self, memory: u64, file: FileId, shared_file: bool, fd: i32) {
        self.adopt();
        let exported = || ExportedFile {
            file,
            fds: Vec::new(),
            shared_file,
        };
        let mut entry = self.live.entry(memory).or_insert_with(exported);
        if entry.file != file || entry.shared_file != shared_file {
            // A driver that exports another file for the same memory: follow the latest.
            *entry = exported();
        }
        if entry.fds.len() == KEPT_NUMBERS {
            entry.fds.remove(0);
        }
        entry.fds.push(fd);
    }

    /// Keeps a freed export for the destroy/exit check. When [`PENDING_LIMIT`] are kept, returns
    /// them all, to be checked now with one scan (most were closed long ago).
    pub fn keep_pending(&self, freed: FreedExport) -> Vec<FreedExport> {
        self.adopt();
        let mut pending = self.pending.lock();
        pending.push(freed);
        if pending.len() < PENDING_LIMIT {
            return Vec::new();
        }
        std::mem::take(&mut *pending)
    }

    /// Everything still to check (at `vkDestroyDevice`, at exit): the exports of live memory,
    /// with the record and name `describe` gives for a live memory handle, and the pending
    /// exports of freed memory. Empties both.
    pub fn take_all(
        &self,
        describe: impl Fn(u64) -> (MemoryRecord, Option<String>),
    ) -> (Vec<FreedExport>, Vec<FreedExport>) {
        self.adopt();
        let live: Vec<FreedExport> = self
            .live
            .iter()
            .map(|e| {
                let (record, name) = describe(*e.key());
                FreedExport {
                    record,
                    name,
                    exported: e.value().clone(),
                }
            })
            .collect();
        self.live.clear();
        (live, std::mem::take(&mut *self.pending.lock()))
    }
}

/// Files imported through `VkImportMemoryFdInfoKHR`: their fds belong to the driver now.
static IMPORTED: LazyLock<Mutex<(HashSet<FileId>, Vec<FileId>)>> =
    LazyLock::new(|| Mutex::new((HashSet::new(), Vec::new())));

/// Remembers that the file `file` was imported.
pub fn remember_import(file: FileId) {
    let mut imported = IMPORTED.lock();
    let (set, order) = &mut *imported;
    if set.insert(file) {
        order.push(file);
        if order.len() > IMPORTED_LIMIT {
            let oldest = order.remove(0);
            set.remove(&oldest);
        }
    }
}

/// Whether the file was imported (so open fds of it may be the driver's).
pub fn was_imported(file: FileId) -> bool {
    IMPORTED.lock().0.contains(&file)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: FileId = FileId { dev: 1, ino: 2 };

    fn record(memory: u64) -> MemoryRecord {
        crate::state::PackedAllocation::EMPTY.record(memory, 0xd)
    }

    #[test]
    fn keeps_the_latest_numbers_and_follows_a_new_file() {
        let exports = FdExports::new();
        for fd in 0..10 {
            exports.record(0x10, FILE, false, fd);
        }
        assert_eq!(
            exports.live.get(&0x10).unwrap().fds,
            (2..10).collect::<Vec<_>>()
        );
        let other = FileId { dev: 1, ino: 3 };
        exports.record(0x10, other, false, 42);
        assert_eq!(
            *exports.live.get(&0x10).unwrap(),
            ExportedFile {
                file: other,
                fds: vec![42],
                shared_file: false,
            }
        );
    }

    #[test]
    fn pending_is_bounded_and_taken_whole() {
        let exports = FdExports::new();
        let freed = |memory| FreedExport {
            record: record(memory),
            name: None,
            exported: ExportedFile {
                file: FILE,
                fds: vec![3],
                shared_file: false,
            },
        };
        for m in 1..PENDING_LIMIT as u64 {
            assert!(exports.keep_pending(freed(m)).is_empty());
        }
        let full = exports.keep_pending(freed(u64::MAX));
        assert_eq!(full.len(), PENDING_LIMIT, "all handed back at the limit");
        assert_eq!(full[0].record.memory, 1);
        exports.keep_pending(freed(7));
        exports.record(0x99, FILE, false, 5);
        let (live, pending) = exports.take_all(|m| (record(m), Some("live".into())));
        assert_eq!((live.len(), pending.len()), (1, 1));
        assert_eq!(
            (live[0].record.memory, live[0].name.as_deref()),
            (0x99, Some("live"))
        );
        assert!(exports.live.is_empty() && exports.pending.lock().is_empty());
    }

    #[test]
    fn imports_are_remembered() {
        let file = FileId { dev: 7, ino: 7 };
        assert!(!was_imported(file));
        remember_import(file);
        assert!(was_imported(file));
    }
}
