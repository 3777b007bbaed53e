//! The process's own file of the shared directory: created at its first export (again in a
//! forked child, whose exports are its own), appended one whole record per `write`.

use super::record::{self, Kind, OpenFileRef, SharedExport};
use crate::features::import_matching::state::opaque_exports::{ExportOrigin, Exporter};
#[cfg(unix)]
use crate::os;
use crate::os::payload::PayloadId;
use crate::os::FileId;
use ash::vk;
use parking_lot::Mutex;
use rustc_hash::FxHashSet;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// The most records one process writes (4 MiB).
pub const MAX_RECORDS: usize = 16_384;

/// One memory object's (or semaphore's) export of one payload as one handle type (and, for an
/// export known by its open file description, the layer's descriptor of it).
type Key = (u64, u64, u32, PayloadId, Option<i32>, Kind);

struct ProcessFile {
    pid: u32,
    /// The layer's descriptor of the file, with what it is, to tell it is still the layer's:
    /// `None` until the first export, and again after the last `vkDestroyInstance`
    /// ([`release`]) or when the program took the descriptor (the file is then opened again by
    /// `path`).
    file: Option<(File, FileId)>,
    /// The file's path and identity once it was made.
    made: Option<(std::path::PathBuf, FileId)>,
    /// The file could not be made or written: the process records no more.
    failed: bool,
    name: [u8; 16],
    written: FxHashSet<Key>,
    /// Records in the file.
    records: usize,
    /// Records of exports known by their open file description not retired yet: each may need
    /// one more record, its retirement, which the file keeps room for.
    outstanding: usize,
}

static FILE: Mutex<Option<ProcessFile>> = Mutex::new(None);

/// This process's start time, where the OS tells it.
fn os_start_time() -> Option<u64> {
    crate::os::own_start_time()
}

/// The process's name (`/proc/self/comm`), NUL-padded.
fn process_name() -> [u8; 16] {
    let mut name = [0u8; 16];
    if let Ok(comm) = std::fs::read("/proc/self/comm") {
        let comm = comm.strip_suffix(b"\n").unwrap_or(&comm);
        let n = comm.len().min(15);
        name[..n].copy_from_slice(&comm[..n]);
    }
    name
}

/// A new file of this process in `dir`, private to the user, with its path.
#[cfg(unix)]
fn create(dir: &Path, pid: u32) -> std::io::Result<(File, std::path::PathBuf)> {
    use std::os::unix::fs::OpenOptionsExt;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut attempt = 0u32;
    loop {
        let path = dir.join(format!("{pid}-{nanos:x}-{attempt}.exports"));
        let made = std::fs::OpenOptions::new()
            .append(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path);
        match made {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 => {
                attempt += 1;
            }
            other => return other.map(|file| (file, path)),
        }
    }
}

#[cfg(not(unix))]
fn create(_dir: &Path, _pid: u32) -> std::io::Result<(File, std::path::PathBuf)> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// The process's file opened again at `path` (appended, never made, never through a symbolic
/// link), if it is still the file of identity `id`.
#[cfg(unix)]
fn reopen(path: &Path, id: FileId) -> std::io::Result<(File, FileId)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let (file, now) = held(file)?;
    if now != id {
        return Err(std::io::Error::other("another file took its name"));
    }
    Ok((file, now))
}

#[cfg(not(unix))]
fn reopen(_path: &Path, _id: FileId) -> std::io::Result<(File, FileId)> {
    Err(std::io::ErrorKind::Unsupported.into())
}

impl ProcessFile {
    /// The layer's descriptor of the process's file, made at the first export and opened again
    /// by its path where it was let go or the program closed it or put another file on its
    /// number (that number is then left alone: never written, never closed).
    fn file(&mut self, dir: Option<&Path>) -> Result<&mut File, String> {
        if let Some((file, id)) = &self.file {
            if !still_ours(file, *id) {
                std::mem::forget(self.file.take());
            }
        }
        if self.file.is_none() {
            let opened = match &self.made {
                Some((path, id)) => reopen(path, *id).map_err(|e| {
                    format!(
                        "shared_exports_dir: cannot open this process's file {} again ({e}); \
                         its later exports are not shared with other processes",
                        path.display()
                    )
                }),
                None => dir
                    .ok_or_else(|| std::io::Error::other("not made yet"))
                    .and_then(|dir| create(dir, self.pid))
                    .and_then(|(file, path)| held(file).map(|held| (held, path)))
                    .map(|(held, path)| {
                        self.made = Some((path, held.1));
                        held
                    })
                    .map_err(|e| {
                        format!(
                            "shared_exports_dir: cannot create this process's file in {} \
                             ({e}); its exports are not shared with other processes",
                            dir.map_or(std::borrow::Cow::Borrowed(""), |d| d.to_string_lossy())
                        )
                    }),
            };
            self.file = Some(opened?);
        }
        Ok(&mut self.file.as_mut().expect("opened above").0)
    }
}

/// At the last `vkDestroyInstance`: the layer's descriptor of the process's file is closed (if
/// it is still the layer's), so that the program has no more descriptors open than before it
/// used Vulkan; a later export opens the file again.
pub fn release() {
    let pid = std::process::id();
    let mut guard = FILE.lock();
    if let Some(process) = guard.as_mut().filter(|p| p.pid == pid) {
        if let Some((file, id)) = process.file.take() {
            if !still_ours(&file, id) {
                std::mem::forget(file);
            }
        }
    }
}

/// The new file at a high descriptor number, with its identity.
#[cfg(unix)]
fn held(file: File) -> std::io::Result<(File, FileId)> {
    let file = os::numbered_high(file);
    let id = os::file_id(std::os::fd::AsRawFd::as_raw_fd(&file));
    id.map(|id| (file, id))
        .ok_or_else(|| std::io::Error::other("fstat failed"))
}

#[cfg(not(unix))]
fn held(_file: File) -> std::io::Result<(File, FileId)> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Whether the layer's descriptor still refers to its file (the app may have closed it, or put
/// another file on its number).
#[cfg(unix)]
fn still_ours(file: &File, id: FileId) -> bool {
    os::file_id(std::os::fd::AsRawFd::as_raw_fd(file)) == Some(id)
}

#[cfg(not(unix))]
fn still_ours(_file: &File, _id: FileId) -> bool {
    false
}

/// Records the export of `payload` from `memory` of `device` (see `super::publish`), asking
/// `origin` only when it was not recorded yet; a warning when the process's file cannot be made
/// or written, or is full (once: the process then records no more).
pub fn publish(
    dir: &Path,
    (device, memory): (u64, u64),
    payload: PayloadId,
    held_fd: Option<i32>,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    origin: &dyn Fn() -> ExportOrigin,
) -> Option<String> {
    publish_kind(
        dir,
        (device, memory),
        payload,
        held_fd,
        handle_type,
        Kind::Memory,
        origin,
    )
}

/// As [`publish`], of an export of `kind` (`memory` is the exported object's handle).
pub fn publish_kind(
    dir: &Path,
    (device, memory): (u64, u64),
    payload: PayloadId,
    held_fd: Option<i32>,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    kind: Kind,
    origin: &dyn Fn() -> ExportOrigin,
) -> Option<String> {
    // An export known by its open file description is found by the process's start time and
    // the layer's descriptor: without the start time (no /proc), it cannot be.
    let open_file = match held_fd {
        Some(held_fd) => Some(OpenFileRef {
            held_fd,
            start_time: os_start_time()?,
            retired: false,
        }),
        None => None,
    };
    let pid = std::process::id();
    let mut guard = FILE.lock();
    if guard.as_ref().is_some_and(|f| f.pid != pid) {
        // A forked child: the parent's file and what it wrote are the parent's.
        *guard = None;
    }
    let process = guard.get_or_insert_with(|| ProcessFile {
        pid,
        file: None,
        made: None,
        failed: false,
        name: process_name(),
        written: FxHashSet::default(),
        records: 0,
        outstanding: 0,
    });
    let key = (device, memory, handle_type.as_raw(), payload, held_fd, kind);
    if process.written.contains(&key) {
        return None;
    }
    // An export known by its open file description takes its record and its retirement's room.
    let need = if open_file.is_some() { 2 } else { 1 };
    if process.failed || process.records + process.outstanding + need > MAX_RECORDS {
        return None;
    }
    let export = SharedExport {
        payload,
        origin: ExportOrigin {
            exporter: Some(Exporter {
                pid,
                name: process.name,
                handle_type,
            }),
            ..origin()
        },
        boot: record::boot_id(),
        open_file,
        kind,
    };
    let file = match process.file(Some(dir)) {
        Ok(file) => file,
        Err(warning) => {
            process.failed = true;
            return Some(warning);
        }
    };
    let written = file.write_all(&record::encode(&export));
    process.written.insert(key);
    process.records += 1;
    process.outstanding += usize::from(open_file.is_some());
    let full = process.records + process.outstanding >= MAX_RECORDS;
    match written {
        Err(e) => {
            process.failed = true;
            Some(format!(
                "shared_exports_dir: cannot write this process's file in {} ({e}); its later \
                 exports are not shared with other processes",
                dir.display()
            ))
        }
        Ok(()) if full => Some(format!(
            "shared_exports_dir: this process recorded {MAX_RECORDS} exports in {}, the most \
             it records; its later exports are not shared with other processes",
            dir.display()
        )),
        Ok(()) => None,
    }
}

/// Records that this process let go its descriptor `held_fd` of an export of the shared file
/// `file` (before it is closed: see `record`), and forgets what it recorded under that number,
/// so that a later export held under it is recorded anew. `false` when it recorded an export
/// under that number and cannot record its retirement: the number must then never refer to
/// another export's file again.
pub fn retire(file: FileId, held_fd: i32) -> bool {
    let pid = std::process::id();
    let mut guard = FILE.lock();
    let Some(process) = guard.as_mut().filter(|p| p.pid == pid) else {
        return true;
    };
    let before = process.written.len();
    process.written.retain(|key| key.4 != Some(held_fd));
    if process.written.len() == before {
        return true; // Nothing recorded under that number.
    }
    process.outstanding = process.outstanding.saturating_sub(1);
    let start_time = os_start_time();
    let (Some(start_time), false) = (start_time, process.failed) else {
        return false;
    };
    let export = SharedExport {
        payload: PayloadId {
            dev: file.dev,
            ino: file.ino,
            ctime_sec: 0,
            ctime_nsec: 0,
        },
        origin: ExportOrigin {
            device: 0,
            memory: 0,
            size: 0,
            memory_type_index: 0,
            created_here: false,
            dedicated_to: None,
            device_uuid: None,
            driver_uuid: None,
            physical_devices: Default::default(),
            device_mask: None,
            exporter: Some(Exporter {
                pid,
                name: process.name,
                handle_type: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
            }),
        },
        boot: record::boot_id(),
        open_file: Some(OpenFileRef {
            held_fd,
            start_time,
            retired: true,
        }),
        kind: Kind::Memory,
    };
    let Ok(out) = process.file(None) else {
        return false;
    };
    if out.write_all(&record::encode(&export)).is_err() {
        process.failed = true;
        return false;
    }
    process.records += 1;
    true
}
