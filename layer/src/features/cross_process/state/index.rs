//! The exports of the shared directory's files, read incrementally: each lookup reads only the
//! records appended since the last one.

use super::record::{self, Decoded, SharedExport, SIZE};
use super::writer::MAX_RECORDS;
use crate::features::import_matching::state::opaque_exports::ExportOrigin;
use crate::os::{self, payload::PayloadId};
use ash::vk;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::LazyLock;

/// The most records the process indexes from all files together (64 MiB of files).
const MAX_INDEXED: usize = 1 << 18;

#[derive(Default)]
struct Cursor {
    /// Bytes read and indexed.
    offset: u64,
    /// The file cannot be trusted: it is not read again.
    ignored: bool,
    /// The offset of a record found damaged by the last read: one a writer may have been
    /// writing. Damaged again at the next read, it is.
    damaged_at: Option<u64>,
}

/// Why a file was not read (whole).
enum Unread {
    /// It cannot be trusted: ignored from now on, with a warning.
    Untrusted(String),
    /// It could not be read now (out of descriptors, an I/O error): tried again at the next
    /// lookup.
    NotNow,
}

impl From<std::io::Error> for Unread {
    fn from(_: std::io::Error) -> Self {
        Unread::NotNow
    }
}

/// The exports of one shared directory's files, as far as read (the process has one, behind
/// [`find`]; tools and the fuzz target make their own).
#[derive(Default)]
pub struct Index {
    files: HashMap<OsString, Cursor>,
    exports: HashMap<PayloadId, Vec<SharedExport>>,
    /// Exports known by their open file description, by the device and inode of the file they
    /// share with other payloads, in the order they were read, with the name of the file that
    /// records each.
    open_files: HashMap<(u64, u64), Vec<(SharedExport, OsString)>>,
    /// Semaphores' opaque-fd exports, by payload: apart, so that no memory lookup finds one.
    semaphores: HashMap<PayloadId, Vec<SharedExport>>,
    indexed: usize,
    /// Warnings not yet reported.
    warnings: Vec<String>,
    full_warned: bool,
}

static INDEX: LazyLock<Mutex<Index>> = LazyLock::new(|| Mutex::new(Index::default()));

/// See `super::find`.
pub fn find(
    dir: &Path,
    payload: PayloadId,
    exported_as: vk::ExternalMemoryHandleTypeFlags,
) -> Option<ExportOrigin> {
    let mut index = INDEX.lock();
    index.refresh(dir);
    index.origin(payload, exported_as)
}

/// See `super::find_open_file` (`semaphore`: a semaphore's export is looked for, else memory's).
pub fn find_open_file(
    dir: &Path,
    file: (u64, u64),
    fd: i32,
    exported_as: vk::ExternalMemoryHandleTypeFlags,
    semaphore: bool,
) -> Result<Option<SharedExport>, i32> {
    let candidates = {
        let mut index = INDEX.lock();
        index.refresh(dir);
        index.open_file_candidates(file, exported_as, semaphore)
    };
    let me = std::process::id();
    let (mut found, mut compared, mut refused) = (None::<SharedExport>, false, None);
    for e in candidates {
        let Some(open) = e.open_file else {
            continue;
        };
        let pid = e.exporter().pid;
        // A process that reused the pid is not the exporter.
        if os::process_start_time(pid) != Some(open.start_time) {
            continue;
        }
        match os::kcmp_files(pid, open.held_fd, me, fd) {
            Ok(true) if found.is_some_and(|f| f.origin != e.origin) => return Ok(None),
            Ok(true) => found = Some(e),
            Ok(false) => compared = true,
            Err(errno) if REFUSED.contains(&errno) => refused = Some(errno),
            // The exporter let the descriptor go (its allocation was freed) or exited.
            Err(_) => compared = true,
        }
    }
    // The descriptor may have been let go (and its number reused) since the records were
    // read: its retirement, recorded before it was closed, is read now.
    // The record itself (the same process, start time and descriptor number, still its latest
    // and not retired), not only the same origin.
    if let Some(matched) = found {
        let still = INDEX
            .lock()
            .refreshed(dir)
            .open_file_candidates(file, exported_as, semaphore)
            .contains(&matched);
        return Ok(still.then_some(matched));
    }
    match refused {
        Some(errno) if !compared => Err(errno),
        _ => Ok(None),
    }
}

/// See `super::find_semaphore`.
pub fn find_semaphore(dir: &Path, payload: PayloadId) -> Option<SharedExport> {
    let mut index = INDEX.lock();
    index.refresh(dir);
    index.semaphore(payload)
}

/// The errors of a kcmp the kernel refused (rather than one about a closed fd or a process gone).
#[cfg(unix)]
const REFUSED: [i32; 3] = [libc::EPERM, libc::EACCES, libc::ENOSYS];
#[cfg(not(unix))]
const REFUSED: [i32; 3] = [1, 13, 38];

/// See `super::take_warnings`.
pub fn take_warnings() -> Vec<String> {
    INDEX.lock().take_warnings()
}

/// The origin the records of one payload exported as `exported_as` give: the allocation that
/// created it if exactly one did; if none did, the allocation that exported it if exactly one
/// did; else none (the records disagree, and the layer does not guess). Also none when those
/// exports were made on physical devices or drivers of different UUIDs: the payload went from
/// one device to another (as a dma-buf, say), and which export the imported fd came from, the
/// one whose device the UUID rules speak of, cannot be known.
fn origin_among(
    records: &[SharedExport],
    exported_as: vk::ExternalMemoryHandleTypeFlags,
) -> Option<ExportOrigin> {
    let allocation = |e: &SharedExport| (e.exporter().pid, e.origin.device, e.origin.memory);
    let uuids = |e: &SharedExport| (e.origin.device_uuid, e.origin.driver_uuid);
    let of_type = || {
        records
            .iter()
            .filter(|e| e.exporter().handle_type == exported_as)
    };
    let first = of_type().next()?;
    if !of_type().all(|e| uuids(e) == uuids(first)) {
        return None;
    }
    let created = of_type().any(|e| e.origin.created_here);
    let mut candidates = of_type().filter(|e| e.origin.created_here == created);
    let first = candidates.next()?;
    candidates
        .all(|e| allocation(e) == allocation(first))
        .then_some(first.origin)
}

impl Index {
    /// An index that has read nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The origin of `payload` exported as `exported_as` the records read so far give (see
    /// [`origin_among`]).
    pub fn origin(
        &self,
        payload: PayloadId,
        exported_as: vk::ExternalMemoryHandleTypeFlags,
    ) -> Option<ExportOrigin> {
        origin_among(self.exports.get(&payload)?, exported_as)
    }

    /// The one semaphore whose opaque-fd export of `payload` the records read so far give: none
    /// if no record names it, or records of several semaphores (or processes) do.
    pub fn semaphore(&self, payload: PayloadId) -> Option<SharedExport> {
        let records = self.semaphores.get(&payload)?;
        let which = |e: &SharedExport| (e.exporter().pid, e.origin.device, e.origin.memory);
        let first = records.first()?;
        records
            .iter()
            .all(|e| which(e) == which(first) && e.kind == first.kind)
            .then_some(*first)
    }

    /// The latest record of each descriptor an exporting process held of an export of `file`
    /// (device, inode) as `exported_as`, of a semaphore if `semaphore` (else of memory), unless
    /// it says the descriptor was let go: a later one under the same number is a later export
    /// (the earlier one's descriptor was let go with its allocation or semaphore, and a
    /// retirement recorded before it was closed). The latest record of a number is taken
    /// whatever its kind: a number that held a semaphore's export and now holds memory's is no
    /// semaphore's candidate.
    pub fn open_file_candidates(
        &self,
        file: (u64, u64),
        exported_as: vk::ExternalMemoryHandleTypeFlags,
        semaphore: bool,
    ) -> Vec<SharedExport> {
        // Past the index's bound, retirements may be unread: no record is trusted.
        if self.full_warned {
            return Vec::new();
        }
        let entries = self.open_files.get(&file).map_or(&[][..], Vec::as_slice);
        // A program image's file per process: exec keeps the pid and the start time, closes the
        // held descriptors and makes a new file; the newest file (its name's time) speaks.
        let mut newest: HashMap<(u32, u64), u128> = HashMap::new();
        for (e, name) in entries {
            if let Some(open) = e.open_file {
                let stamp = newest
                    .entry((e.exporter().pid, open.start_time))
                    .or_default();
                *stamp = (*stamp).max(file_stamp(name));
            }
        }
        let mut latest: HashMap<(u32, u64, i32), SharedExport> = HashMap::new();
        for (e, name) in entries {
            let Some(open) = e.open_file else {
                continue;
            };
            let process = (e.exporter().pid, open.start_time);
            // A file found untrusted since: its later records, retirements among them, are unread.
            let trusted = self.files.get(name).is_some_and(|c| !c.ignored);
            if trusted && newest.get(&process) == Some(&file_stamp(name)) {
                latest.insert((process.0, process.1, open.held_fd), *e);
            }
        }
        latest
            .into_values()
            .filter(|e| {
                e.exporter().handle_type == exported_as
                    && e.kind.is_semaphore() == semaphore
                    && e.open_file.is_some_and(|o| !o.retired)
            })
            .collect()
    }

    /// How many records were indexed.
    pub fn indexed(&self) -> usize {
        self.indexed
    }

    /// The warnings not yet taken.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    fn warn(&mut self, text: String) {
        self.warnings.push(text);
    }

    /// This, having read what the directory's files gained.
    fn refreshed(&mut self, dir: &Path) -> &mut Self {
        self.refresh(dir);
        self
    }

    /// Reads what the directory's files gained since the last call.
    pub fn refresh(&mut self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let cursor = self.files.entry(name.clone()).or_default();
            if cursor.ignored {
                continue;
            }
            let path = entry.path();
            if !name.to_string_lossy().ends_with(".exports") {
                cursor.ignored = true;
                self.warn(format!(
                    "shared_exports_dir: {} is not a file the layer writes; it is ignored",
                    path.display()
                ));
                continue;
            }
            // The entry's own type and size (lstat: a symbolic link is not followed). A file
            // that has not grown since the last read is not opened.
            let offset = cursor.offset;
            let read = match entry.metadata() {
                Err(_) => Err(Unread::NotNow),
                Ok(m) if m.file_type().is_symlink() => {
                    Err(Unread::Untrusted("is a symbolic link".to_owned()))
                }
                Ok(m) if !m.file_type().is_file() => {
                    Err(Unread::Untrusted("is not a regular file".to_owned()))
                }
                Ok(m) if m.len() == offset => Ok(()),
                Ok(_) => self.read_file(&name, &path),
            };
            if let Err(Unread::Untrusted(why)) = read {
                if let Some(cursor) = self.files.get_mut(&name) {
                    cursor.ignored = true;
                }
                self.warn(format!(
                    "shared_exports_dir: {} {why}; the file is ignored, and imports of the \
                     payloads it records are not checked against their exports",
                    path.display()
                ));
            }
        }
    }

    /// Indexes the whole records `path` gained.
    fn read_file(&mut self, name: &OsString, path: &Path) -> Result<(), Unread> {
        let mut file = open(path)?;
        let (offset, damaged_at) = self
            .files
            .get(name)
            .map_or((0, None), |c| (c.offset, c.damaged_at));
        let cap = (MAX_RECORDS * SIZE) as u64;
        let len = file.metadata()?.len();
        if len > cap {
            return Err(Unread::Untrusted(format!(
                "holds {len} bytes, more than a process writes ({cap})"
            )));
        }
        if len <= offset {
            return Ok(());
        }
        let mut bytes = Vec::new();
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(offset))?;
        (&mut file).take(len - offset).read_to_end(&mut bytes)?;
        let mut read = 0u64;
        let mut damaged = None;
        for chunk in bytes.chunks_exact(SIZE) {
            let at = offset + read;
            let chunk: &[u8; SIZE] = chunk.try_into().expect("a whole record");
            match record::decode(chunk) {
                Decoded::Export(export) => self.add(export, name),
                Decoded::Foreign => {
                    return Err(Unread::Untrusted(format!(
                        "is not in the layer's format (record {} has another magic or version)",
                        at / SIZE as u64
                    )))
                }
                Decoded::Damaged if damaged_at == Some(at) => {
                    return Err(Unread::Untrusted(format!(
                        "has a damaged record ({}: its checksum does not match)",
                        at / SIZE as u64
                    )))
                }
                // Perhaps one a writer had not finished when it was read: read again later.
                Decoded::Damaged => {
                    damaged = Some(at);
                    break;
                }
            }
            read += SIZE as u64;
        }
        if let Some(cursor) = self.files.get_mut(name) {
            cursor.offset = offset + read;
            cursor.damaged_at = damaged;
        }
        Ok(())
    }

    fn add(&mut self, export: SharedExport, name: &OsString) {
        if export.boot != record::boot_id() {
            // A payload of another boot: nothing of this one.
            return;
        }
        if self.indexed >= MAX_INDEXED {
            if !self.full_warned {
                self.full_warned = true;
                self.warn(format!(
                    "shared_exports_dir: {MAX_INDEXED} exports indexed, the most the layer \
                     reads; later exports of other processes are not matched"
                ));
            }
            return;
        }
        self.indexed += 1;
        if export.open_file.is_some() {
            // Memory's and semaphores' exports of a shared file, and the retirements of their
            // descriptors' numbers, together: a number's latest record says what it holds.
            let file = (export.payload.dev, export.payload.ino);
            let entry = (export, name.clone());
            self.open_files.entry(file).or_default().push(entry);
        } else if export.kind.is_semaphore() {
            self.semaphores
                .entry(export.payload)
                .or_default()
                .push(export);
        } else {
            self.exports.entry(export.payload).or_default().push(export);
        }
    }
}

/// When the process file `name` (`<pid>-<hex nanoseconds>-<n>.exports`) was made: its name's
/// time (0 if it has none).
fn file_stamp(name: &OsString) -> u128 {
    name.to_str()
        .and_then(|n| n.split('-').nth(1))
        .and_then(|hex| u128::from_str_radix(hex, 16).ok())
        .unwrap_or(0)
}

/// `path` opened for reading, if it is a regular file of the effective user's.
#[cfg(unix)]
fn open(path: &Path) -> Result<File, Unread> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            // A symbolic link (O_NOFOLLOW), or a file the user may not read: for good.
            Some(libc::ELOOP | libc::EACCES | libc::EPERM | libc::ENXIO) => {
                Unread::Untrusted(format!("cannot be opened ({e})"))
            }
            _ => Unread::NotNow,
        })?;
    let meta = file.metadata()?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.file_type().is_file() {
        Err(Unread::Untrusted("is not a regular file".to_owned()))
    } else if meta.uid() != me {
        Err(Unread::Untrusted(format!(
            "is owned by uid {}, not by this user ({me})",
            meta.uid()
        )))
    } else {
        Ok(file)
    }
}

#[cfg(not(unix))]
fn open(_path: &Path) -> Result<File, Unread> {
    Err(Unread::Untrusted(
        "cannot be read on this system".to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::record::Kind;
    use super::*;
    use crate::features::import_matching::state::opaque_exports::Exporter;

    fn export(pid: u32, memory: u64, created_here: bool, size: u64) -> SharedExport {
        let mut e = super::super::record::tests::sample();
        e.origin.memory = memory;
        e.origin.created_here = created_here;
        e.origin.size = size;
        e.origin.exporter = Some(Exporter {
            pid,
            ..e.exporter()
        });
        e
    }

    /// A fresh private directory under the system's temporary directory.
    fn private_dir(name: &str) -> std::path::PathBuf {
        use std::os::unix::fs::DirBuilderExt;
        let dir = std::env::temp_dir().join(format!(
            "exportcheck-index-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .expect("mkdir");
        dir
    }

    const OPAQUE: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

    fn lookup(index: &mut Index, dir: &Path, payload: PayloadId) -> Option<ExportOrigin> {
        index.refresh(dir);
        index.origin(payload, OPAQUE)
    }

    #[test]
    #[cfg_attr(miri, ignore = "reads directories: system calls Miri isolates")]
    fn a_record_is_found_by_its_whole_identity_and_a_reused_inode_is_not() {
        let dir = private_dir("identity");
        let e = export(10, 0x1, true, 4096);
        std::fs::write(dir.join("10-1-0.exports"), record::encode(&e)).expect("write");
        let mut index = Index::default();
        assert_eq!(lookup(&mut index, &dir, e.payload), Some(e.origin));
        // The same device and inode with another change time: a later file that reused the
        // inode number, not the payload.
        let reused = PayloadId {
            ctime_nsec: e.payload.ctime_nsec + 1,
            ..e.payload
        };
        assert_eq!(lookup(&mut index, &dir, reused), None);
        assert!(take(&mut index).is_empty());
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    #[cfg_attr(miri, ignore = "reads directories: system calls Miri isolates")]
    fn memory_and_semaphore_lookups_never_match_each_other_s_records() {
        let dir = private_dir("kinds");
        let memory = export(10, 0x1, true, 4096);
        let mut semaphore = export(11, 0x5e, false, 0);
        semaphore.payload.ino += 1;
        semaphore.kind = Kind::Semaphore {
            timeline: false,
            create_flags: 0,
            exportable: Some(0x1),
        };
        let mut bytes = record::encode(&memory).to_vec();
        bytes.extend_from_slice(&record::encode(&semaphore));
        std::fs::write(dir.join("10-1-0.exports"), bytes).expect("write");
        let mut index = Index::default();
        assert_eq!(
            lookup(&mut index, &dir, memory.payload),
            Some(memory.origin)
        );
        assert_eq!(
            lookup(&mut index, &dir, semaphore.payload),
            None,
            "a semaphore's"
        );
        let found = index
            .semaphore(semaphore.payload)
            .expect("the semaphore's export");
        assert_eq!((found.origin.memory, found.kind), (0x5e, semaphore.kind));
        assert_eq!(index.semaphore(memory.payload), None, "memory's");
        // Two semaphores claim one payload: nothing is matched.
        let other = SharedExport {
            origin: ExportOrigin {
                memory: 0x5f,
                ..semaphore.origin
            },
            ..semaphore
        };
        std::fs::write(dir.join("11-1-0.exports"), record::encode(&other)).expect("write");
        index.refresh(&dir);
        assert_eq!(index.semaphore(semaphore.payload), None);
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    fn take(index: &mut Index) -> Vec<String> {
        std::mem::take(&mut index.warnings)
    }

    #[test]
    #[cfg_attr(miri, ignore = "reads directories: system calls Miri isolates")]
    fn a_record_being_written_is_read_once_whole_and_nothing_is_read_twice() {
        let dir = private_dir("torn");
        let (a, b) = (export(10, 0x1, true, 4096), export(10, 0x2, true, 8192));
        let mut b = b;
        b.payload.ino += 1;
        let path = dir.join("10-1-0.exports");
        let (ra, rb) = (record::encode(&a), record::encode(&b));
        // The first record and half of the second.
        std::fs::write(&path, [&ra[..], &rb[..100]].concat()).expect("write");
        let mut index = Index::default();
        assert_eq!(lookup(&mut index, &dir, a.payload), Some(a.origin));
        assert_eq!(lookup(&mut index, &dir, b.payload), None);
        // The second one whole, but its checksum not yet right (read while being written), and
        // a third being written after it: not read yet, nor ignored.
        let mut torn = rb;
        torn[200] ^= 1;
        std::fs::write(&path, [&ra[..], &torn[..], &ra[..10]].concat()).expect("write");
        assert_eq!(lookup(&mut index, &dir, b.payload), None);
        std::fs::write(&path, [&ra[..], &rb[..]].concat()).expect("write");
        assert_eq!(lookup(&mut index, &dir, b.payload), Some(b.origin));
        assert!(take(&mut index).is_empty());
        // The first record was indexed once.
        assert_eq!(index.exports[&a.payload].len(), 1);
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    #[cfg_attr(miri, ignore = "reads directories: system calls Miri isolates")]
    fn an_untrusted_file_is_ignored_with_one_warning_and_the_others_still_read() {
        let dir = private_dir("untrusted");
        let good = export(10, 0x1, true, 4096);
        std::fs::write(dir.join("10-1-0.exports"), record::encode(&good)).expect("write");
        // Another format; a damaged record that is not the last; a file of another name; a
        // symbolic link; a file larger than any process writes.
        std::fs::write(dir.join("foreign.exports"), [0x5a; SIZE]).expect("write");
        let mut damaged = record::encode(&export(11, 0x1, true, 8192));
        damaged[100] ^= 1;
        let second = record::encode(&export(11, 0x2, true, 8192));
        std::fs::write(
            dir.join("11-1-0.exports"),
            [&damaged[..], &second[..]].concat(),
        )
        .expect("write");
        std::fs::write(dir.join("notes.txt"), "x").expect("write");
        std::os::unix::fs::symlink(dir.join("10-1-0.exports"), dir.join("link.exports"))
            .expect("symlink");
        let big = std::fs::File::create(dir.join("big.exports")).expect("create");
        big.set_len((MAX_RECORDS * SIZE + SIZE) as u64)
            .expect("set_len");
        let mut index = Index::default();
        assert_eq!(lookup(&mut index, &dir, good.payload), Some(good.origin));
        // A damaged record is damage only when it still is at the next read (a record being
        // written is read again).
        assert_eq!(lookup(&mut index, &dir, good.payload), Some(good.origin));
        let mut warnings = take(&mut index);
        warnings.sort();
        assert_eq!(warnings.len(), 5, "{warnings:#?}");
        for (warning, says) in warnings.iter().zip([
            "11-1-0.exports has a damaged record (0: its checksum does not match)",
            "big.exports holds",
            "foreign.exports is not in the layer's format",
            "link.exports is a symbolic link",
            "notes.txt is not a file the layer writes",
        ]) {
            assert!(warning.contains(says), "{warning} / {says}");
        }
        // Once: the files are not read again.
        assert_eq!(lookup(&mut index, &dir, good.payload), Some(good.origin));
        assert!(take(&mut index).is_empty());
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn the_latest_record_of_a_held_descriptor_counts_and_a_retired_one_matches_nothing() {
        use super::super::record::OpenFileRef;
        let open = |memory, retired| {
            let mut e = export(10, memory, true, 4096);
            e.open_file = Some(OpenFileRef {
                held_fd: 900,
                start_time: 77,
                retired,
            });
            e
        };
        let file = (open(0x1, false).payload.dev, open(0x1, false).payload.ino);
        let mut index = Index::default();
        let name = OsString::from("10-1f-0.exports");
        index.files.insert(name.clone(), Cursor::default());
        let memories = |index: &Index| -> Vec<u64> {
            index
                .open_file_candidates(file, OPAQUE, false)
                .iter()
                .map(|e| e.origin.memory)
                .collect()
        };
        index.add(open(0x1, false), &name);
        assert_eq!(memories(&index), [0x1]);
        // Let go: until the number holds another export, it is none.
        index.add(open(0x1, true), &name);
        assert!(memories(&index).is_empty());
        index.add(open(0x2, false), &name);
        assert_eq!(memories(&index), [0x2]);
        // A record by inode alone is no candidate of the shared file's.
        assert!(index.exports.is_empty());
        // The same process after exec (a newer file): its old image's records say nothing.
        let after_exec = OsString::from("10-2a-0.exports");
        index.files.insert(after_exec.clone(), Cursor::default());
        index.add(open(0x3, true), &after_exec);
        assert!(memories(&index).is_empty());
        index.add(open(0x4, false), &after_exec);
        assert_eq!(memories(&index), [0x4]);
        // A file found untrusted since: its records are no candidates.
        index.files.get_mut(&after_exec).expect("file").ignored = true;
        assert!(memories(&index).is_empty());
    }

    #[test]
    fn a_held_number_s_latest_record_speaks_whatever_kind_of_export_it_held() {
        use super::super::record::OpenFileRef;
        let open = |memory, retired, kind| {
            let mut e = export(10, memory, true, 4096);
            e.open_file = Some(OpenFileRef {
                held_fd: 901,
                start_time: 77,
                retired,
            });
            e.kind = kind;
            e
        };
        let binary = Kind::Semaphore {
            timeline: false,
            create_flags: 0,
            exportable: Some(0x1),
        };
        let sample = open(0x1, false, Kind::Memory);
        let file = (sample.payload.dev, sample.payload.ino);
        let mut index = Index::default();
        let name = OsString::from("10-1f-0.exports");
        index.files.insert(name.clone(), Cursor::default());
        let found = |index: &Index, semaphore: bool| -> Vec<u64> {
            index
                .open_file_candidates(file, OPAQUE, semaphore)
                .iter()
                .map(|e| e.origin.memory)
                .collect()
        };
        index.add(open(0x5e, false, binary), &name);
        assert_eq!(found(&index, true), [0x5e], "a semaphore's, by its number");
        assert!(found(&index, false).is_empty(), "no memory lookup finds it");
        assert!(
            index.semaphores.is_empty(),
            "not by the shared file's inode"
        );
        // The semaphore destroyed: retired, then the number holds memory's export.
        index.add(open(0x5e, true, Kind::Memory), &name);
        assert!(found(&index, true).is_empty());
        index.add(open(0x2, false, Kind::Memory), &name);
        assert!(found(&index, true).is_empty(), "the number is memory's now");
        assert_eq!(found(&index, false), [0x2]);
        // And a semaphore's again after memory's was retired.
        index.add(open(0x2, true, Kind::Memory), &name);
        index.add(open(0x5f, false, binary), &name);
        assert_eq!(found(&index, true), [0x5f]);
        assert!(found(&index, false).is_empty());
    }

    #[test]
    fn the_creating_allocation_wins_and_two_creators_match_nothing() {
        let among = |records: &[SharedExport]| origin_among(records, OPAQUE);
        let a = export(10, 0x1, true, 4096);
        let b_reexport = export(11, 0x2, false, 8192);
        assert_eq!(among(&[b_reexport, a]), Some(a.origin));
        // Only re-exports, all of one allocation: that one.
        assert_eq!(among(&[b_reexport, b_reexport]), Some(b_reexport.origin));
        // Two allocations claim to have created the payload: nothing is matched.
        let c = export(12, 0x1, true, 4096);
        assert_eq!(among(&[a, c]), None);
        let d = export(11, 0x3, false, 4096);
        assert_eq!(among(&[b_reexport, d]), None);
        assert_eq!(among(&[]), None);
    }

    #[test]
    fn only_exports_of_the_handle_type_count_and_devices_that_differ_match_nothing() {
        // A creates the payload on one GPU and exports it as a dma-buf; B imports it on another
        // GPU and exports it as an opaque fd: an opaque-fd import is of B's export, whose
        // allocation did not create the payload.
        let mut a = export(10, 0x1, true, 4096);
        a.origin.exporter = Some(Exporter {
            handle_type: vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
            ..a.exporter()
        });
        let mut b = export(11, 0x2, false, 4096);
        b.origin.device_uuid = Some([9; 16]);
        assert_eq!(origin_among(&[a, b], OPAQUE), Some(b.origin));
        assert_eq!(
            origin_among(&[a, b], vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT),
            Some(a.origin)
        );
        // Opaque-fd exports of one payload on two devices: which one the fd came from is not
        // known.
        let c = export(12, 0x3, true, 4096);
        assert_eq!(origin_among(&[b, c], OPAQUE), None);
    }
}
