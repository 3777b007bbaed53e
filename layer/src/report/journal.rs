//! The journal of the process report: every finding, one JSON line each, appended to a file next
//! to the report as it happens, so that a process that crashes (or is killed, or calls `_exit`,
//! or `exec`s) before it writes its report loses none. The first line says which process wrote
//! it; it is written at the process's first `vkCreateInstance`, so that a process that loaded the
//! layer is known to `exportcheck run` however it ends, findings or not. `exportcheck run` reads the lines the process's report does not account for. The format
//! is documented in docs/report.md.

use crate::os::FileId;
use serde::Serialize;
use std::fs::File;
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

pub const JOURNAL_VERSION: u32 = 1;

/// The file beside the reports where a process notes findings it could not journal:
/// `exportcheck run` creates it empty before the app starts (so that a note needs no new inode:
/// a directory out of inodes cannot take a journal, but can take a line of an existing file),
/// and fails the run on any line in it. Outside a run it does not exist, and nothing is noted.
pub const LOST_FILE: &str = "lost-findings.log";

/// One process image's open journal.
pub struct Journal {
    /// The layer's descriptor of the journal (numbered high, away from the program's own files),
    /// with the file's identity: the program may close any descriptor or put another file on its
    /// number (`close_range`, `dup2`), and the layer writes only into the file it opened.
    file: Option<(File, FileId)>,
    /// The journal's path, to open it again when the program took the descriptor.
    path: String,
    /// The report's path, beside which lost findings are noted ([`LOST_FILE`]).
    report_path: String,
    /// The file name (no directory), as the report names it.
    name: String,
    /// How many finding lines were written (the header not counted).
    lines: u64,
}

/// What the report says of its journal: which file, and how many of its lines the report
/// accounts for.
#[derive(Serialize)]
pub struct JournalRef {
    pub file: String,
    pub findings: u64,
}

/// The journal's path for the report at `report_path`: `report-<pid>.json` becomes
/// `report-<pid>.<token>.jsonl`, where the token (the time it was opened, in nanoseconds)
/// tells apart the images of one pid (before and after `exec`).
fn path_for(report_path: &str) -> String {
    let stem = report_path.strip_suffix(".json").unwrap_or(report_path);
    let token = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{stem}.{token}.jsonl")
}

impl Journal {
    /// Creates the journal of this process image, with its header line.
    pub fn open(report_path: &str) -> Option<Journal> {
        let path = path_for(report_path);
        let opened = if crate::fault_injection::journal_fails() {
            Err(std::io::Error::other(
                "injected (EXPORTCHECK_INJECT_JOURNAL_ERROR)",
            ))
        } else {
            open_at_high_number(&path)
        };
        let (mut file, id) = match opened {
            Ok(opened) => opened,
            Err(e) => {
                let why = format!("cannot create the report journal {path}: {e}");
                eprintln!("exportcheck: {why}");
                note_lost(report_path, &why);
                return None;
            }
        };
        let header = serde_json::json!({
            "exportcheck_journal_version": JOURNAL_VERSION,
            "process": {
                "pid": std::process::id(),
                "executable": std::env::current_exe().ok().map(|p| p.display().to_string()),
            },
            "report": report_path,
        });
        file.write_all(format!("{header}\n").as_bytes()).ok()?;
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
        Some(Journal {
            file: Some((file, id)),
            path,
            report_path: report_path.to_owned(),
            name,
            lines: 0,
        })
    }

    /// Appends one finding, in one write (the file is unbuffered: the line is in the kernel's
    /// hands when this returns, so a crash of the process does not lose it). Only into the
    /// journal: where the program closed the layer's descriptor or put another file on its
    /// number, that number is left alone (never written, never closed) and the journal is opened
    /// again by its path.
    pub fn append(&mut self, finding: &impl Serialize) {
        let Ok(mut line) = serde_json::to_string(finding) else {
            return;
        };
        line.push('\n');
        let Some((file, _)) = self.own_file() else {
            let why = format!(
                "cannot open the report journal {} again: a finding is not journaled",
                self.path
            );
            eprintln!("exportcheck: {why}");
            note_lost(&self.report_path, &why);
            return;
        };
        match file.write_all(line.as_bytes()) {
            Ok(()) => self.lines += 1,
            Err(e) => {
                let why = format!("cannot write to the report journal {}: {e}", self.path);
                note_lost(&self.report_path, &why);
            }
        }
    }

    /// At the last `vkDestroyInstance`: the layer's descriptor is closed (if it is still the
    /// layer's), so that the program has no more descriptors open than before it used Vulkan;
    /// a later finding opens the journal again by its path.
    pub fn release(&mut self) {
        if let Some((file, id)) = self.file.take() {
            if !still_ours(&file, id) {
                let _ = into_raw(file);
            }
        }
    }

    /// The layer's descriptor of the journal, opened again where the program took it.
    fn own_file(&mut self) -> Option<&mut (File, FileId)> {
        let ours = self
            .file
            .as_ref()
            .is_some_and(|(file, id)| still_ours(file, *id));
        if !ours {
            if let Some((file, _)) = self.file.take() {
                // The number is the program's now (or nobody's): forgotten, not closed.
                let _ = into_raw(file);
            }
            self.file = open_at_high_number(&self.path).ok();
        }
        self.file.as_mut()
    }

    pub fn reference(&self) -> JournalRef {
        JournalRef {
            file: self.name.clone(),
            findings: self.lines,
        }
    }
}

/// Notes beside the report at `report_path` that this process lost a finding (`why`), where
/// `exportcheck run` made the file for it ([`LOST_FILE`]): appended, never created, never
/// through a symbolic link.
pub fn note_lost(report_path: &str, why: &str) {
    let dir = std::path::Path::new(report_path)
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let mut options = std::fs::OpenOptions::new();
    options.append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    if let Ok(mut file) = options.open(dir.join(LOST_FILE)) {
        let _ = file.write_all(format!("process {}: {why}\n", std::process::id()).as_bytes());
    }
}

/// Opens the journal at `path` for appending (made if missing; never through a symbolic link),
/// close-on-exec (an exec'd image starts a journal of its own), at a high descriptor number,
/// with its identity.
fn open_at_high_number(path: &str) -> std::io::Result<(File, FileId)> {
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let file = options.open(path)?;
    #[cfg(unix)]
    let file = crate::os::numbered_high(file);
    let id = identity(&file).ok_or_else(|| std::io::Error::other("fstat failed"))?;
    Ok((file, id))
}

#[cfg(unix)]
fn identity(file: &File) -> Option<FileId> {
    crate::os::file_id(std::os::fd::AsRawFd::as_raw_fd(file))
}

#[cfg(not(unix))]
fn identity(_file: &File) -> Option<FileId> {
    Some(FileId { dev: 0, ino: 0 })
}

/// Whether the descriptor still refers to the journal.
fn still_ours(file: &File, id: FileId) -> bool {
    identity(file) == Some(id)
}

/// The descriptor given up without closing it.
#[cfg(unix)]
fn into_raw(file: File) -> i32 {
    std::os::fd::IntoRawFd::into_raw_fd(file)
}

#[cfg(not(unix))]
fn into_raw(file: File) -> i32 {
    std::mem::forget(file);
    -1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "the journal's token is the wall-clock time, which Miri's isolation refuses"
    )]
    fn the_journal_sits_next_to_the_report() {
        let p = path_for("/tmp/r/report-12.json");
        assert!(
            p.starts_with("/tmp/r/report-12.") && p.ends_with(".jsonl"),
            "{p}"
        );
        let p = path_for("/tmp/r/out");
        assert!(p.starts_with("/tmp/r/out.") && p.ends_with(".jsonl"), "{p}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and duplicates descriptors: Miri isolates them"
    )]
    fn a_descriptor_the_program_took_is_left_alone_and_the_journal_opened_again() {
        use std::io::Read;
        use std::os::fd::AsRawFd;
        let dir = std::env::temp_dir().join(format!("exportcheck-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let report = dir.join("report-1.json");
        let mut journal = Journal::open(report.to_str().expect("utf-8")).expect("journal");
        let number = journal.file.as_ref().expect("open").0.as_raw_fd();
        // The program's data file put on the journal's number, as close_range + open or dup2 do.
        let data_path = dir.join("data");
        let data = std::fs::File::create(&data_path).expect("data");
        // SAFETY: replaces the journal's descriptor with the test's data file.
        assert_eq!(unsafe { libc::dup2(data.as_raw_fd(), number) }, number);
        journal.append(&serde_json::json!({"finding": 1}));
        let mut written = String::new();
        std::fs::File::open(&data_path)
            .expect("data")
            .read_to_string(&mut written)
            .expect("read");
        assert_eq!(written, "", "nothing written into the program's file");
        assert!(
            crate::os::is_open(number) == Some(true),
            "the program's number not closed"
        );
        let text = std::fs::read_to_string(dir.join(&journal.name)).expect("journal");
        assert_eq!(text.lines().count(), 2, "header and the finding: {text}");
        assert_eq!(journal.lines, 1);
        // SAFETY: the test's copy of its data file at the old number.
        unsafe { libc::close(number) };
        let _ = std::fs::remove_dir_all(&dir);
    }
}
