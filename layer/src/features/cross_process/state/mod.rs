//! What the layers of several processes share about their exports, so that an import in one
//! process is checked against the export another process made (setting
//! `shared_exports_dir`; `exportcheck run` gives every process of a run the same directory).
//! docs/cross-process.md tells the user's side.
//!
//! **The directory** is private to the user: the layer creates it with mode 0700 if it does not
//! exist, and uses none that is not a directory owned by the effective user and closed to group
//! and others. Each process appends to a file of its own (`<pid>-<hex nanoseconds>-<n>.exports`,
//! created with `O_EXCL` and mode 0600; a forked child makes its own at its first export), so
//! writers never share a file.
//!
//! **A record** ([`record`]) is written by `vkGetMemoryFdKHR` (`OPAQUE_FD` and `DMA_BUF`)
//! before it returns the fd to the app, so before the fd can reach another process: an import
//! anywhere finds it, even after the exporter exited or crashed. The payload is named by its
//! identity as the OS gives it ([`crate::os::payload`]): device, inode and the inode's change
//! time, which a later file that reused the inode number does not share. An export whose file
//! is shared with other payloads (a driver's device file, such as NVIDIA's `/dev/nvidiactl`) is
//! recorded with the exporting process's start time and the layer's descriptor of its open file
//! description, which an importer compares with its own fd by `kcmp(KCMP_FILE)` (across
//! processes, as the kernel allows a process of the same user); such a record is good while the
//! exporting allocation lives. Each memory object's export is recorded
//! once per handle type and payload, and at most [`writer::MAX_RECORDS`] per process.
//! `vkGetSemaphoreFdKHR` records an `OPAQUE_FD` export of a semaphore the same way (a semaphore
//! record: its type and create flags): by its payload's file where it has one of its own, else
//! by the layer's descriptor of its open file description, held while the semaphore lives
//! (`features::import_matching::state::sync_exports`) and retired before it is let go.
//!
//! **A reader** ([`index`]) indexes the directory's files incrementally at an import it cannot
//! match in the process: a file it cannot trust (not a regular file of the user's, another
//! format, a damaged record that is not the last one, which is being written) is ignored, with
//! a warning, once. The payload's origin is the one record of an allocation that created it; if
//! several allocations claim the same payload the layer matches nothing.

pub mod index;
pub mod record;
mod writer;

pub use record::SharedExport;
pub use writer::release;

use crate::features::import_matching::state::opaque_exports::ExportOrigin;
use crate::os::payload::PayloadId;
use ash::vk;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The shared directory of this process, once an instance named one.
static DIR: OnceLock<PathBuf> = OnceLock::new();

/// Whether the process shares its exports (an instance named a usable directory).
#[inline(always)]
pub fn enabled() -> bool {
    DIR.get().is_some()
}

/// The shared directory, if any.
pub fn dir() -> Option<&'static Path> {
    DIR.get().map(PathBuf::as_path)
}

/// At `vkCreateInstance` with the setting `shared_exports_dir = dir`: makes `dir` the process's
/// shared directory (creating it, mode 0700, if it does not exist). A warning if it cannot be
/// used, or if an earlier instance named another directory (the first one stays).
pub fn configure(dir: &str) -> Result<(), String> {
    let path = PathBuf::from(dir);
    if let Some(current) = DIR.get() {
        return if *current == path {
            Ok(())
        } else {
            Err(format!(
                "shared_exports_dir: the process already shares its exports in {}; {} is not used",
                current.display(),
                path.display()
            ))
        };
    }
    usable(&path).map_err(|why| {
        format!(
            "shared_exports_dir: {} cannot be used ({why}); imports are not checked against \
             exports of other processes",
            path.display()
        )
    })?;
    match DIR.set(path) {
        Ok(()) => Ok(()),
        // Another instance named one at the same time: that one stays.
        Err(path) => configure(&path.to_string_lossy()),
    }
}

/// Whether `dir` is a directory private to the effective user, creating it if need be.
#[cfg(unix)]
fn usable(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    if !dir.is_absolute() {
        return Err("not an absolute path".to_owned());
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create it: {e}")),
    }
    let meta = std::fs::symlink_metadata(dir).map_err(|e| e.to_string())?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.file_type().is_dir() {
        Err("not a directory (or a symbolic link)".to_owned())
    } else if meta.uid() != me {
        Err(format!(
            "owned by uid {}, not by this user ({me})",
            meta.uid()
        ))
    } else if meta.mode() & 0o077 != 0 {
        Err(format!(
            "mode {:o}: open to group or others, it must be private to the user (0700)",
            meta.mode() & 0o777
        ))
    } else {
        Ok(())
    }
}

#[cfg(not(unix))]
fn usable(_dir: &Path) -> Result<(), String> {
    Err("cross-process checking needs a POSIX system".to_owned())
}

/// After `vkGetMemoryFdKHR` returned an fd of `payload` as `handle_type` for `memory` of
/// `device`: records it in the process's file, with the allocation `origin` describes (asked only
/// the first time). A warning, once per process, if the file cannot be written.
pub fn publish(
    device_memory: (u64, u64),
    payload: PayloadId,
    held_fd: Option<i32>,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    origin: &dyn Fn() -> ExportOrigin,
) -> Option<String> {
    let dir = DIR.get()?;
    writer::publish(dir, device_memory, payload, held_fd, handle_type, origin)
}

/// The export of `payload` as `exported_as` some process of the run recorded, with its
/// `exporter` set: the one allocation that created the payload, or (none did) the one allocation
/// that exported it. `None` if no record names it, several allocations claim it, or its exports
/// were made on devices of different UUIDs.
pub fn find(
    payload: PayloadId,
    exported_as: vk::ExternalMemoryHandleTypeFlags,
) -> Option<ExportOrigin> {
    let dir = DIR.get()?;
    index::find(dir, payload, exported_as)
}

/// A semaphore's `OPAQUE_FD` handle type, as the records' handle-type field holds it.
const SEMAPHORE_OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(
        vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw(),
    );

/// After `vkGetSemaphoreFdKHR` returned an opaque fd of `payload` for `semaphore` of `device`:
/// records it, with what `origin` (its UUIDs) and `kind` (its type and create flags) say. A
/// payload whose file is shared with other payloads (a driver's device file) is recorded with
/// the layer's descriptor `held_fd` of the export's open file description, as memory's is
/// ([`publish`]), and retired before the layer lets that descriptor go ([`retire`]). A warning,
/// once per process, if the file cannot be written.
pub fn publish_semaphore(
    (device, semaphore): (u64, u64),
    payload: PayloadId,
    held_fd: Option<i32>,
    kind: record::Kind,
    origin: &dyn Fn() -> ExportOrigin,
) -> Option<String> {
    let dir = DIR.get()?;
    writer::publish_kind(
        dir,
        (device, semaphore),
        payload,
        held_fd,
        SEMAPHORE_OPAQUE_FD,
        kind,
        origin,
    )
}

/// The semaphore export of `payload` (an opaque fd's own file) some process of the run recorded:
/// `None` if no record names it, or records of several semaphores do.
pub fn find_semaphore(payload: PayloadId) -> Option<SharedExport> {
    let dir = DIR.get()?;
    index::find_semaphore(dir, payload)
}

/// The semaphore export some process of the run recorded whose open file description is the one
/// `fd` refers to, for an fd whose file (`file`: device and inode) is shared with other payloads:
/// as [`find_open_file`] finds memory's.
pub fn find_open_semaphore(file: (u64, u64), fd: i32) -> Result<Option<SharedExport>, i32> {
    let Some(dir) = DIR.get() else {
        return Ok(None);
    };
    index::find_open_file(dir, file, fd, SEMAPHORE_OPAQUE_FD, true)
}

/// Before the layer lets go its descriptor `held_fd` of an export of the shared file `file`:
/// records that (see `record`), if it recorded that export. `false` when it cannot: the number
/// must then never refer to another export's file again.
pub fn retire(file: crate::os::FileId, held_fd: i32) -> bool {
    !enabled() || writer::retire(file, held_fd)
}

/// The export as `exported_as` some process of the run recorded whose open file description is
/// the one `fd` refers to, for an fd whose file (`file`: device and inode) is shared with other
/// payloads: compared by `kcmp` with the exporting process's descriptor of it, in that process
/// if it is still the one that recorded it. `Err(errno)` when kcmp was refused for every
/// candidate (`EPERM`: the processes may not read each other, as with ptrace).
pub fn find_open_file(
    file: (u64, u64),
    fd: i32,
    exported_as: vk::ExternalMemoryHandleTypeFlags,
) -> Result<Option<ExportOrigin>, i32> {
    let Some(dir) = DIR.get() else {
        return Ok(None);
    };
    let found = index::find_open_file(dir, file, fd, exported_as, false)?;
    Ok(found.map(|e| e.origin))
}

/// The warnings about the directory's files not yet reported (each once).
pub fn take_warnings() -> Vec<String> {
    if !enabled() {
        return Vec::new();
    }
    index::take_warnings()
}

#[cfg(all(test, unix))]
mod tests {
    use super::usable;
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};

    #[test]
    #[cfg_attr(miri, ignore = "makes directories: system calls Miri isolates")]
    fn only_a_directory_private_to_the_user_is_used() {
        let base = std::env::temp_dir().join(format!("exportcheck-usable-{}", std::process::id()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&base)
            .expect("mkdir");
        // Made if missing, mode 0700.
        let made = base.join("made");
        assert_eq!(usable(&made), Ok(()));
        let mode = std::fs::metadata(&made).expect("made").permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(usable(&made), Ok(()), "an existing private directory");
        // Open to group or others; a file; a symbolic link; a relative path; no parent.
        let open = base.join("open");
        std::fs::DirBuilder::new()
            .mode(0o755)
            .create(&open)
            .expect("mkdir");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert!(usable(&open).unwrap_err().contains("mode 755"));
        let file = base.join("file");
        std::fs::write(&file, "").expect("write");
        assert!(usable(&file).unwrap_err().contains("not a directory"));
        let link = base.join("link");
        std::os::unix::fs::symlink(&made, &link).expect("symlink");
        assert!(usable(&link).unwrap_err().contains("not a directory"));
        assert!(usable(std::path::Path::new("relative"))
            .unwrap_err()
            .contains("absolute"));
        assert!(usable(&base.join("no/parent"))
            .unwrap_err()
            .contains("cannot create it"));
        std::fs::remove_dir_all(&base).expect("clean up");
    }
}
