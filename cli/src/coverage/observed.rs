//! What the end-to-end tests observed: `*.jsonl` files, one line per passing assertion,
//! `{"test":"<name>","kind":"negative"|"positive","ids":[...],"command":"vkGetMemoryFdKHR"}`
//! (written by `tests/src/expect.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Deserialize)]
struct Line {
    test: String,
    kind: Kind,
    #[serde(default)]
    ids: Vec<String>,
    command: String,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Negative,
    Positive,
}

/// The observations of one directory.
#[derive(Debug, Default, Clone)]
pub struct Observed {
    /// The directory read.
    pub dir: PathBuf,
    /// How many `*.jsonl` files it had.
    pub files: usize,
    /// How many lines they had (not counting blank ones).
    pub lines: usize,
    /// Lines that were not observations: `file:line: why`.
    pub bad_lines: Vec<String>,
    /// ID → the tests whose negative assertion saw it.
    pub negative: BTreeMap<String, BTreeSet<String>>,
    /// Command → the tests whose positive assertion (no finding) was about it.
    pub positive: BTreeMap<String, BTreeSet<String>>,
    /// Every test that recorded something.
    pub tests: BTreeSet<String>,
}

impl Observed {
    /// Reads every `*.jsonl` in `dir`. A missing directory reads as no observations.
    ///
    /// # Errors
    ///
    /// When a file cannot be read.
    pub fn load(dir: &Path) -> Result<Self, String> {
        let mut observed = Observed {
            dir: dir.to_owned(),
            ..Observed::default()
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(observed);
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl") && p.is_file())
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            observed.files += 1;
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            for (i, line) in text.lines().enumerate() {
                if let Err(e) = observed.add_line(line) {
                    observed.bad_lines.push(format!("{name}:{}: {e}", i + 1));
                }
            }
        }
        Ok(observed)
    }

    /// Adds one line; blank lines are skipped.
    ///
    /// # Errors
    ///
    /// When the line is not an observation.
    pub fn add_line(&mut self, line: &str) -> Result<(), String> {
        if line.trim().is_empty() {
            return Ok(());
        }
        self.lines += 1;
        let l: Line = serde_json::from_str(line).map_err(|e| e.to_string())?;
        self.tests.insert(l.test.clone());
        match l.kind {
            Kind::Negative => {
                for id in l.ids {
                    self.negative.entry(id).or_default().insert(l.test.clone());
                }
            }
            Kind::Positive => {
                self.positive.entry(l.command).or_default().insert(l.test);
            }
        }
        Ok(())
    }

    /// Whether nothing was observed (no directory, no files or no lines).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// The tests that saw `id` in a negative assertion.
    #[must_use]
    pub fn negative_tests(&self, id: &str) -> Vec<String> {
        self.negative
            .get(id)
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// How many tests asserted silence for `command`.
    #[must_use]
    pub fn positive_tests(&self, command: &str) -> usize {
        self.positive.get(command).map_or(0, BTreeSet::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const LINES: &str = r#"{"test":"t1","kind":"negative","ids":["VUID-A","VUID-B"],"command":"vkGetMemoryFdKHR"}
{"test":"t2","kind":"positive","ids":[],"command":"vkGetMemoryFdKHR"}

{"test":"t3","kind":"positive","command":"vkAllocateMemory"}
{"test":"t1","kind":"negative","ids":["VUID-A"],"command":"vkGetMemoryFdKHR"}
"#;

    #[test]
    fn lines_become_observations() {
        let mut o = Observed::default();
        for line in LINES.lines() {
            o.add_line(line).unwrap();
        }
        assert_eq!(o.lines, 4);
        assert_eq!(o.negative_tests("VUID-A"), ["t1"]);
        assert_eq!(o.negative_tests("VUID-B"), ["t1"]);
        assert!(o.negative_tests("VUID-C").is_empty());
        assert_eq!(o.positive_tests("vkGetMemoryFdKHR"), 1);
        assert_eq!(o.positive_tests("vkAllocateMemory"), 1);
        assert_eq!(o.positive_tests("vkFreeMemory"), 0);
        assert_eq!(o.tests.len(), 3);
    }

    #[test]
    fn bad_lines_are_reported_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.jsonl"),
            format!("{LINES}not json\n{{\"test\":\"x\",\"kind\":\"neutral\",\"command\":\"c\"}}\n"),
        )
        .unwrap();
        std::fs::write(dir.path().join("ignored.txt"), "not json").unwrap();
        let o = Observed::load(dir.path()).unwrap();
        assert_eq!(o.files, 1);
        assert_eq!(o.bad_lines.len(), 2, "{:?}", o.bad_lines);
        assert!(o.bad_lines[0].starts_with("a.jsonl:6:"));
        assert!(!o.is_empty());
    }

    #[test]
    fn missing_or_empty_directories_are_empty() {
        let o = Observed::load(Path::new("/nonexistent/observed")).unwrap();
        assert!(o.is_empty() && o.files == 0);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.jsonl"), "\n").unwrap();
        let o = Observed::load(dir.path()).unwrap();
        assert!(o.is_empty() && o.files == 1);
    }
}
