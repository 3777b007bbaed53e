//! The layer's journals (`report-<pid>.<token>.jsonl`): each process appends every finding as it
//! happens, so that the findings of a process that never wrote its report (it crashed, was
//! killed, called `_exit`, or `exec`'d) are not lost, nor those it found after its last report.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::loaded::{Loaded, Unfinished};
use super::model::{Finding, JournalHeader, Report, REPORT_VERSION};
use super::read_file;

/// Whether `name` is a journal's file name: `report-*.jsonl`.
#[must_use]
pub fn is_journal_name(name: &str) -> bool {
    name.starts_with("report-") && name.ends_with(".jsonl")
}

/// A journal: its header and its finding lines (a last line cut short by a crash is dropped).
fn read(path: &Path) -> Result<(JournalHeader, Vec<Finding>), String> {
    let text = read_file::read_text(path)?;
    let mut lines = text.lines();
    let header: JournalHeader = serde_json::from_str(lines.next().unwrap_or(""))
        .map_err(|e| format!("not a journal: {e}"))?;
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = lines.collect();
    let mut findings = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<Finding>(line) {
            Ok(f) => findings.push(f),
            Err(_) if i + 1 == lines.len() && !complete => {}
            Err(e) => return Err(format!("line {}: {e}", i + 2)),
        }
    }
    Ok((header, findings))
}

/// Whether `findings` (a report's, with their counts) hold each of `lines` (journal lines it
/// claims to account for): a report accounts for a line only if it has that finding (the same
/// ID, command and message), as many times as the lines have it.
fn accounts_for<'a>(findings: &[Finding], lines: impl Iterator<Item = &'a Finding>) -> bool {
    let mut left: Vec<u64> = findings.iter().map(|f| f.count).collect();
    for line in lines {
        let held = findings.iter().enumerate().find(|(i, f)| {
            left[*i] > 0
                && f.id == line.id
                && f.command == line.command
                && f.message == line.message
        });
        match held {
            Some((i, _)) => left[i] -= 1,
            None => return false,
        }
    }
    true
}

/// Adds the journals of `dir` to `loaded`: to each report, the lines after those it accounts
/// for; each journal no report names becomes the report of an unfinished process.
pub fn add_journals(dir: &Path, loaded: &mut Loaded) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| read_file::name_matches(&e.file_name(), "report-", ".jsonl"))
        .map(|e| e.path())
        .collect();
    paths.sort();
    let mut claimed: HashSet<String> = HashSet::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (header, findings) = match read(&path) {
            Ok(j) => j,
            Err(e) => {
                loaded.unreadable.push((path, e));
                continue;
            }
        };
        let owner = loaded.reports.iter_mut().find(|(_, r)| {
            r.journal.as_ref().is_some_and(|j| j.file == name) && claimed.insert(name.clone())
        });
        if let Some((report_path, report)) = owner {
            let seen = report.journal.as_ref().map_or(0, |j| j.findings);
            let skip = usize::try_from(seen).unwrap_or(usize::MAX);
            let owns = report.process.as_ref().map(|p| p.pid) == Some(header.process.pid);
            if owns && accounts_for(&report.findings, findings.iter().take(skip)) {
                report.findings.extend(findings.into_iter().skip(skip));
                continue;
            }
            // A report that claims lines it does not hold (another process's journal, more
            // lines than it has): the claim is not taken; the journal is read whole, as a
            // process's of its own, and the run says so.
            loaded
                .false_claims
                .push((report_path.clone(), path.clone()));
        }
        loaded.unfinished.push(Unfinished {
            process: header.process.clone(),
            journal: path.clone(),
            findings: findings.len(),
        });
        let report = Report {
            exportcheck_report_version: REPORT_VERSION.min(header.exportcheck_journal_version),
            layer: None,
            process: Some(header.process),
            settings: None,
            journal: None,
            findings,
        };
        loaded.reports.push((path, report));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::load::load_dir;

    const HEADER: &str = r#"{"exportcheck_journal_version": 1, "process": {"pid": 7, "executable": "/bin/app"}, "report": "x"}"#;

    fn line(message: &str) -> String {
        format!(
            r#"{{"id": "X", "severity": "error", "command": "vkX", "message": "{message}", "count": 1}}"#
        )
    }

    #[test]
    fn unclaimed_journals_and_unaccounted_lines_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        w(
            "report-5.json",
            r#"{"exportcheck_report_version": 1, "process": {"pid": 5},
                "journal": {"file": "report-5.1.jsonl", "findings": 1},
                "findings": [{"id": "X", "severity": "error", "command": "vkX", "message": "a"}]}"#,
        );
        let header_5 = HEADER.replace(r#""pid": 7"#, r#""pid": 5"#);
        w(
            "report-5.1.jsonl",
            &format!("{header_5}\n{}\n{}\n", line("a"), line("late")),
        );
        // Cut short by a crash: the last line is dropped.
        w(
            "report-7.2.jsonl",
            &format!("{HEADER}\n{}\n{{\"id\": \"Y", line("crash")),
        );
        let mut loaded = load_dir(dir.path());
        add_journals(dir.path(), &mut loaded);
        assert!(loaded.unreadable.is_empty(), "{:?}", loaded.unreadable);
        let messages = |i: usize| -> Vec<String> {
            loaded.reports[i]
                .1
                .findings
                .iter()
                .map(|f| f.message.clone())
                .collect()
        };
        assert_eq!(messages(0), ["a", "late"]);
        assert_eq!(messages(1), ["crash"]);
        assert_eq!(loaded.unfinished.len(), 1);
        assert_eq!(loaded.unfinished[0].process.pid, 7);
        assert_eq!(loaded.unfinished[0].findings, 1);
    }

    #[test]
    fn a_report_claiming_lines_it_does_not_hold_claims_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        // Process 9's made-up report claims process 7's journal, which it does not hold.
        w(
            "report-9.json",
            r#"{"exportcheck_report_version": 1, "process": {"pid": 9},
                "journal": {"file": "report-7.1.jsonl", "findings": 1}, "findings": []}"#,
        );
        w(
            "report-7.1.jsonl",
            &format!("{HEADER}\n{}\n", line("hidden")),
        );
        // Process 5's report claims two lines of its own journal but holds one.
        let header_5 = HEADER.replace(r#""pid": 7"#, r#""pid": 5"#);
        w(
            "report-5.json",
            r#"{"exportcheck_report_version": 1, "process": {"pid": 5},
                "journal": {"file": "report-5.1.jsonl", "findings": 2},
                "findings": [{"id": "X", "severity": "error", "command": "vkX", "message": "a"}]}"#,
        );
        w(
            "report-5.1.jsonl",
            &format!("{header_5}\n{}\n{}\n", line("a"), line("b")),
        );
        let mut loaded = load_dir(dir.path());
        add_journals(dir.path(), &mut loaded);
        assert_eq!(loaded.false_claims.len(), 2, "{:?}", loaded.false_claims);
        let messages: Vec<&str> = loaded
            .reports
            .iter()
            .flat_map(|(_, r)| r.findings.iter().map(|f| f.message.as_str()))
            .collect();
        assert!(messages.contains(&"hidden"), "{messages:?}");
        assert!(messages.contains(&"b"), "{messages:?}");
    }

    #[test]
    fn a_journal_is_not_a_report_and_garbage_is_unreadable() {
        assert!(is_journal_name("report-1.123.jsonl"));
        assert!(!is_journal_name("report-1.json"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("report-1.2.jsonl"), "garbage\n").unwrap();
        let mut loaded = load_dir(dir.path());
        add_journals(dir.path(), &mut loaded);
        assert_eq!(loaded.unreadable.len(), 1);
    }
}
