//! The report format (`"exportcheck_report_version": 1`).
//!
//! The layer writes one [`Report`] per process; `exportcheck run --report` writes one
//! [`MergedReport`], the same format with `"processes"` instead of `"process"`. Unknown fields
//! are tolerated everywhere (and kept where a struct has an `extra` map), so a newer layer's
//! report still reads.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The report version this CLI reads and writes.
pub const REPORT_VERSION: u32 = 1;

/// How serious a finding is. Ordered by seriousness: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A broken rule of the spec.
    Error,
    /// Legal but almost certainly a mistake, or a driver defect.
    Warning,
    /// Any severity this CLI does not know (never fails a run).
    #[serde(other)]
    Info,
}

impl Severity {
    fn rank(self) -> u8 {
        match self {
            Severity::Info => 0,
            Severity::Warning => 1,
            Severity::Error => 2,
        }
    }
}

impl PartialOrd for Severity {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Severity {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl Severity {
    /// The name as written in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One process's report.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Report {
    /// The format version ([`REPORT_VERSION`]).
    pub exportcheck_report_version: u32,
    /// Which layer wrote it.
    #[serde(default)]
    pub layer: Option<LayerInfo>,
    /// Which process it is about.
    #[serde(default)]
    pub process: Option<ProcessInfo>,
    /// The layer's settings in that process.
    #[serde(default)]
    pub settings: Option<Settings>,
    /// The process's journal, and how many of its lines this report accounts for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<JournalRef>,
    /// What the layer found.
    #[serde(default)]
    pub findings: Vec<Finding>,
}

/// `"journal"`: the file (next to the report) where the process appended each finding as it
/// happened, one JSON line each after a header line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct JournalRef {
    /// The journal's file name.
    pub file: String,
    /// How many of its finding lines the report accounts for.
    pub findings: u64,
}

/// The journal's first line.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct JournalHeader {
    /// The journal format version.
    pub exportcheck_journal_version: u32,
    /// The process that wrote it.
    pub process: ProcessInfo,
}

/// The reports of several processes, merged.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct MergedReport {
    /// The format version ([`REPORT_VERSION`]).
    pub exportcheck_report_version: u32,
    /// The layer (from the first report that names it).
    pub layer: Option<LayerInfo>,
    /// Every process that wrote a report, by pid.
    pub processes: Vec<ProcessInfo>,
    /// The settings (from the first report that has them).
    pub settings: Option<Settings>,
    /// Every distinct finding (ID + command + message), by first sighting.
    pub findings: Vec<Finding>,
}

/// `"layer"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct LayerInfo {
    /// `VK_LAYER_EXPORTCHECK_validation`.
    pub name: String,
    /// The layer's version, e.g. `0.1.0`.
    #[serde(default)]
    pub version: Option<String>,
}

/// `"process"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ProcessInfo {
    /// The process id.
    pub pid: u32,
    /// The executable's path, if the layer knew it.
    #[serde(default)]
    pub executable: Option<String>,
    /// How many calls of each semaphore and fence export and import command the layer
    /// intercepted in the process (those called at least once), at the time of the report.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sync_sharing_calls: BTreeMap<String, u64>,
    /// How many calls of each CUDA external-resource entry point the CUDA interposer handed to
    /// the layer in the process (those called at least once), at the time of the report.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cuda_calls: BTreeMap<String, u64>,
}

/// `"settings"`: the layer's effective settings.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
pub struct Settings {
    /// Which severities are reported (`error`, `warn`, ...).
    #[serde(default)]
    pub report_flags: Vec<String>,
    /// Where findings go (`log`, `callback`, ...).
    #[serde(default)]
    pub debug_action: Vec<String>,
    /// The log file, if any.
    #[serde(default)]
    pub log_filename: Option<String>,
    /// IDs that are not reported.
    #[serde(default)]
    pub message_id_filter: Vec<String>,
    /// How often one finding is delivered before it is only counted.
    #[serde(default)]
    pub duplicate_message_limit: Option<u64>,
    /// Whether log messages are JSON.
    #[serde(default)]
    pub message_format_json: Option<bool>,
    /// The report file pattern (`%p` is the pid).
    #[serde(default)]
    pub report_file: Option<String>,
    /// Settings this CLI does not know, kept as they were.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// One distinct finding: the same ID, command and message, counted.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Finding {
    /// The VUID or the layer's own ID.
    pub id: String,
    /// Error or warning.
    pub severity: Severity,
    /// The Vulkan command, e.g. `vkGetMemoryFdKHR`.
    pub command: String,
    /// The full message, as delivered to the app.
    pub message: String,
    /// The objects involved.
    #[serde(default)]
    pub objects: Vec<Object>,
    /// How many times it happened.
    #[serde(default = "one")]
    pub count: u64,
    /// When it first happened (RFC 3339, UTC).
    #[serde(default)]
    pub first_seen: Option<String>,
    /// When it last happened (RFC 3339, UTC).
    #[serde(default)]
    pub last_seen: Option<String>,
    /// The thread it first happened on.
    #[serde(default)]
    pub thread: Option<ThreadInfo>,
    /// Fields this CLI does not know, kept as they were.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

fn one() -> u64 {
    1
}

/// One object of a finding.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Object {
    /// `VK_OBJECT_TYPE_...`.
    #[serde(rename = "type")]
    pub ty: String,
    /// The handle, as `0x...`.
    pub handle: String,
    /// The debug name the app gave it.
    #[serde(default)]
    pub name: Option<String>,
}

/// `"thread"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ThreadInfo {
    /// The OS thread id.
    pub id: u64,
    /// The thread's name.
    #[serde(default)]
    pub name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the format's description, verbatim.
    pub(crate) const EXAMPLE: &str = r#"{
      "exportcheck_report_version": 1,
      "layer": {"name": "VK_LAYER_EXPORTCHECK_validation", "version": "0.1.0"},
      "process": {"pid": 1234, "executable": "/path/to/app"},
      "settings": {"report_flags": ["error", "warn"], "debug_action": ["log"], "log_filename": null, "message_id_filter": [], "duplicate_message_limit": 10, "message_format_json": false, "report_file": "/tmp/x/report-%p.json"},
      "findings": [
        {"id": "VUID-VkMemoryGetFdInfoKHR-handleType-00671", "severity": "error", "command": "vkGetMemoryFdKHR",
         "message": "Validation Error: [ VUID-... ] vkGetMemoryFdKHR(): ... (https://...)",
         "objects": [{"type": "VK_OBJECT_TYPE_DEVICE", "handle": "0x55d0c0ffee00", "name": null},
                     {"type": "VK_OBJECT_TYPE_DEVICE_MEMORY", "handle": "0x55d0c0ffee10", "name": "staging"}],
         "count": 3, "first_seen": "2026-11-21T05:00:00.123Z", "last_seen": "2026-11-21T05:00:01.456Z",
         "thread": {"id": 4321, "name": "main"}}
      ]
    }"#;

    #[test]
    fn the_documented_example_parses() {
        let r: Report = serde_json::from_str(EXAMPLE).unwrap();
        assert_eq!(r.exportcheck_report_version, 1);
        assert_eq!(r.process.as_ref().unwrap().pid, 1234);
        let s = r.settings.as_ref().unwrap();
        assert_eq!(s.duplicate_message_limit, Some(10));
        assert_eq!(s.report_file.as_deref(), Some("/tmp/x/report-%p.json"));
        let f = &r.findings[0];
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(f.count, 3);
        assert_eq!(f.objects[1].name.as_deref(), Some("staging"));
        assert_eq!(f.objects[0].ty, "VK_OBJECT_TYPE_DEVICE");
        assert_eq!(f.thread.as_ref().unwrap().name.as_deref(), Some("main"));
    }

    #[test]
    fn unknown_fields_and_severities_are_tolerated_and_kept() {
        let text = r#"{"exportcheck_report_version": 1, "future": true,
            "settings": {"new_setting": [1, 2]},
            "findings": [{"id": "X", "severity": "perf", "command": "vkX", "message": "m",
                          "pNext_depth": 3}]}"#;
        let r: Report = serde_json::from_str(text).unwrap();
        let f = &r.findings[0];
        assert_eq!(f.severity, Severity::Info);
        assert_eq!(f.count, 1);
        assert_eq!(f.extra["pNext_depth"], 3);
        assert_eq!(r.settings.as_ref().unwrap().extra["new_setting"][1], 2);
        let back = serde_json::to_value(f).unwrap();
        assert_eq!(back["pNext_depth"], 3);
        assert_eq!(back["severity"], "info");
    }

    #[test]
    fn a_report_without_findings_is_fine() {
        let r: Report = serde_json::from_str(r#"{"exportcheck_report_version": 1}"#).unwrap();
        assert!(r.findings.is_empty() && r.process.is_none());
        assert!(serde_json::from_str::<Report>(r#"{"findings": []}"#).is_err());
    }

    #[test]
    fn severities_order_by_seriousness() {
        assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
    }
}
