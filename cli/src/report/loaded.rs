//! What a directory of reports held: the reports `load` read, with what `journal` added.
//! Below both, which fill it in.

use std::path::PathBuf;

use super::model::{ProcessInfo, Report};

/// What a directory of reports held.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The reports that parsed, by file name.
    pub reports: Vec<(PathBuf, Report)>,
    /// The files that did not: path and why.
    pub unreadable: Vec<(PathBuf, String)>,
    /// Reports of a newer version than this CLI knows (read anyway).
    pub newer: Vec<(PathBuf, u32)>,
    /// Processes that never wrote the report their journal belongs to.
    pub unfinished: Vec<Unfinished>,
    /// What processes noted of findings they could not journal (the lines of
    /// [`LOST_FILE`]): each fails the run.
    pub lost: Vec<String>,
    /// Reports that claimed journal lines they do not hold (the report, the journal): the
    /// journal was read whole instead, and the claim fails the run.
    pub false_claims: Vec<(PathBuf, PathBuf)>,
}

/// The file beside the reports where a process notes findings it could not journal (a directory
/// out of inodes, a journal it could not open again); `run` creates it empty before the app
/// starts. The layer's name for it is `report::journal::LOST_FILE`.
pub const LOST_FILE: &str = "lost-findings.log";

impl Loaded {
    /// How many report files there were, readable or not.
    #[must_use]
    pub fn files(&self) -> usize {
        self.reports.len() + self.unreadable.len()
    }
}

/// A process that left a journal its report does not account for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The process, as its journal names it.
    pub process: ProcessInfo,
    /// The journal.
    pub journal: PathBuf,
    /// How many findings were read from it.
    pub findings: usize,
}
