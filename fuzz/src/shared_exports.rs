//! The `shared_exports` target: arbitrary files in a shared directory of cross-process checking
//! (docs/cross-process.md), read by the layer's index in two steps (the files, then bytes
//! appended to each, as writers do), and arbitrary records decoded.
//!
//! Properties:
//! - nothing panics, whatever the files hold;
//! - a record that decodes as an export encodes back to bytes that decode to the same export;
//! - reading is incremental: an index that read the files before and after the appends holds
//!   as many records, and gave as many warnings, as one that reads the final files at once.

use crate::layer::features::cross_process::state::index::Index;
use crate::layer::features::cross_process::state::record::{self, Decoded, SIZE};
use arbitrary::Arbitrary;
use std::path::{Path, PathBuf};

/// One file of the directory: its content, what is appended later, and whether its name is one
/// the layer writes (`*.exports`).
#[derive(Arbitrary, Debug)]
pub struct FileIn {
    pub content: Vec<u8>,
    pub appended: Vec<u8>,
    pub exports_name: bool,
}

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub files: Vec<FileIn>,
    /// Bytes decoded as one record (padded or cut to its size).
    pub record: Vec<u8>,
}

/// The directory this process's runs use, emptied.
fn fresh_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("exportcheck-fuzz-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir).expect("create the fuzz directory");
    dir
}

fn name(i: usize, file: &FileIn) -> String {
    if file.exports_name {
        format!("{i}.exports")
    } else {
        format!("{i}.other")
    }
}

fn write(dir: &Path, files: &[FileIn], appended: bool) {
    for (i, f) in files.iter().enumerate() {
        let mut bytes = f.content.clone();
        if appended {
            bytes.extend_from_slice(&f.appended);
        }
        std::fs::write(dir.join(name(i, f)), bytes).expect("write a fuzz file");
    }
}

/// Checks the properties; panics when one does not hold.
pub fn run(input: &Input) {
    let mut bytes = [0u8; SIZE];
    let n = input.record.len().min(SIZE);
    bytes[..n].copy_from_slice(&input.record[..n]);
    if let Decoded::Export(export) = record::decode(&bytes) {
        assert_eq!(
            record::decode(&record::encode(&export)),
            Decoded::Export(export),
            "round trip"
        );
    }
    let files = &input.files[..input.files.len().min(8)];
    let dir = fresh_dir();
    write(&dir, files, false);
    let mut stepwise = Index::new();
    stepwise.refresh(&dir);
    let mut warned = stepwise.take_warnings().len();
    write(&dir, files, true);
    stepwise.refresh(&dir);
    warned += stepwise.take_warnings().len();
    let mut at_once = Index::new();
    at_once.refresh(&dir);
    assert_eq!(stepwise.indexed(), at_once.indexed(), "records indexed");
    assert_eq!(warned, at_once.take_warnings().len(), "warnings");
    let _ = std::fs::remove_dir_all(&dir);
}
