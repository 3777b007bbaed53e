//! Running a child process that reports its result as JSON: for the timing children (`parent`)
//! and the instruction-counting ones (`instructions`), below both.

use std::io::{BufRead, BufReader};
use std::process::Command;

use crate::model::RESULT_MARKER;

/// Runs a child that prints its result as one JSON line after `RESULT_MARKER` (every other line
/// is shown, under `label`); the parsed result, or why there is none.
pub fn run_reporting_child<T: serde::de::DeserializeOwned>(
    cmd: &mut Command,
    label: &str,
) -> Result<T, String> {
    let mut child = cmd.spawn().map_err(|e| format!("{label}: spawn: {e}"))?;
    let mut result = None;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading the child's stdout: {e}"))?;
            match line.strip_prefix(RESULT_MARKER) {
                Some(json) => {
                    result = Some(
                        serde_json::from_str::<T>(json)
                            .map_err(|e| format!("bad result JSON: {e}"))?,
                    )
                }
                None => eprintln!("  {label}: {line}"),
            }
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    match (status.success(), result) {
        (true, Some(r)) => Ok(r),
        _ => Err(format!("{label}: child exited with {status}")),
    }
}
