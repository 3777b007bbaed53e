//! The journal of the process report: every finding, one JSON line each, appended to a file next
//! to the report as it happens, so that a process that crashes (or is killed, or calls `_exit`,
//! or `exec`s) before it writes its report loses none. The first line says which process wrote
//! it; it is written at the process's first `vkCreateInstance`, so that a process that loaded the
//! layer is known to `exportcheck run` however it ends, findings or not. `exportcheck run` reads the lines the process's report does not account for. The format
//! is documented in docs/report.md.

use serde::Serialize;
use std::fs::File;
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

pub const JOURNAL_VERSION: u32 = 1;

/// One process image's open journal.
pub struct Journal {
    file: File,
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
        // Opened close-on-exec (std's default): an exec'd image starts a journal of its own.
        let file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path);
        let mut file = match file {
            Ok(f) => f,
            Err(e) => {
                eprintln!("exportcheck: cannot create the report journal {path}: {e}");
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
            file,
            name,
            lines: 0,
        })
    }

    /// Appends one finding, in one write (the file is unbuffered: the line is in the kernel's
    /// hands when this returns, so a crash of the process does not lose it).
    pub fn append(&mut self, finding: &impl Serialize) {
        let Ok(mut line) = serde_json::to_string(finding) else {
            return;
        };
        line.push('\n');
        if self.file.write_all(line.as_bytes()).is_ok() {
            self.lines += 1;
        }
    }

    pub fn reference(&self) -> JournalRef {
        JournalRef {
            file: self.name.clone(),
            findings: self.lines,
        }
    }
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
}
