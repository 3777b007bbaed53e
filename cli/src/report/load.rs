//! Reading the per-process report files (`report-<pid>.json`) of a directory.

use std::path::{Path, PathBuf};

use super::loaded::Loaded;
use super::model::{Report, REPORT_VERSION};
use super::read_file;

/// The file name pattern the layer is given: `%p` becomes the process id.
pub const REPORT_PATTERN: &str = "report-%p.json";

/// Whether `name` is a report file name: `report-*.json`. The layer's temporary files (written
/// first, then renamed) must not match.
#[must_use]
pub fn is_report_name(name: &str) -> bool {
    name.len() > "report-.json".len() && name.starts_with("report-") && name.ends_with(".json")
}

/// Reads every `report-*.json` in `dir` (not recursively), in file-name order. A missing
/// directory holds no reports. The journals are [`super::journal::add_journals`]'s.
#[must_use]
pub fn load_dir(dir: &Path) -> Loaded {
    let mut loaded = Loaded::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return loaded;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| read_file::name_matches(&e.file_name(), "report-", ".json"))
        .map(|e| e.path())
        .collect();
    paths.sort();
    for path in paths {
        match read_file::read_text(&path).and_then(|text| parse(&text)) {
            Ok(report) => {
                if report.exportcheck_report_version > REPORT_VERSION {
                    loaded
                        .newer
                        .push((path.clone(), report.exportcheck_report_version));
                }
                loaded.reports.push((path, report));
            }
            Err(e) => loaded.unreadable.push((path, e)),
        }
    }
    loaded
}

/// Parses one report's text.
///
/// # Errors
///
/// The JSON error, when it is not a report.
pub fn parse(text: &str) -> Result<Report, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_names() {
        assert!(is_report_name("report-1234.json"));
        assert!(is_report_name("report-x.json"));
        assert!(!is_report_name("report-.json"));
        assert!(!is_report_name("report-1234.json.tmp"));
        assert!(!is_report_name(".report-1234.json.XXXX"));
        assert!(!is_report_name("VkLayer_exportcheck.json"));
    }

    #[test]
    fn loads_good_bad_and_newer_reports_and_ignores_others() {
        let dir = tempfile::tempdir().unwrap();
        let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        w(
            "report-2.json",
            r#"{"exportcheck_report_version": 1, "process": {"pid": 2}}"#,
        );
        w(
            "report-1.json",
            r#"{"exportcheck_report_version": 2, "process": {"pid": 1}}"#,
        );
        w(
            "report-3.json",
            "{\"exportcheck_report_version\": 1, \"findings\": [",
        );
        w("report-4.json.tmp", "garbage");
        w("notes.txt", "garbage");
        let loaded = load_dir(dir.path());
        let pids: Vec<u32> = loaded
            .reports
            .iter()
            .map(|(_, r)| r.process.as_ref().unwrap().pid)
            .collect();
        assert_eq!(pids, [1, 2]);
        assert_eq!(loaded.unreadable.len(), 1);
        assert!(loaded.unreadable[0].0.ends_with("report-3.json"));
        assert_eq!(loaded.newer.len(), 1);
        assert_eq!(loaded.files(), 3);
    }

    #[test]
    fn a_missing_directory_has_no_reports() {
        let loaded = load_dir(Path::new("/nonexistent/exportcheck/reports"));
        assert_eq!(loaded.files(), 0);
    }
}
