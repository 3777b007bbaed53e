//! Merging the reports of several processes into one.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::model::{Finding, MergedReport, ProcessInfo, Report, REPORT_VERSION};
use super::time;

/// Merges `reports`: findings with the same ID, command and message become one, whose count is
/// the sum, `first_seen` the earliest and `last_seen` the latest (objects and thread of the
/// earliest; the highest severity if they disagree). Findings are ordered by first sighting,
/// processes by pid; layer and settings are those of the first report that has them.
#[must_use]
pub fn merge<'a>(reports: impl IntoIterator<Item = &'a Report>) -> MergedReport {
    let mut merged = MergedReport {
        exportcheck_report_version: REPORT_VERSION,
        layer: None,
        processes: Vec::new(),
        settings: None,
        findings: Vec::new(),
    };
    let mut index: HashMap<(String, String, String), usize> = HashMap::new();
    for report in reports {
        if merged.layer.is_none() {
            merged.layer.clone_from(&report.layer);
        }
        if merged.settings.is_none() {
            merged.settings.clone_from(&report.settings);
        }
        if let Some(p) = &report.process {
            merged.processes.push(p.clone());
        }
        for f in &report.findings {
            let key = (f.id.clone(), f.command.clone(), f.message.clone());
            match index.get(&key) {
                Some(&i) => absorb(&mut merged.findings[i], f),
                None => {
                    index.insert(key, merged.findings.len());
                    merged.findings.push(f.clone());
                }
            }
        }
    }
    merged.processes.sort_by_key(|p: &ProcessInfo| p.pid);
    merged.processes.dedup();
    merged.findings.sort_by(order);
    merged
}

/// Adds `other`, a sighting of the same finding, to `into`.
fn absorb(into: &mut Finding, other: &Finding) {
    into.count = into.count.saturating_add(other.count);
    into.severity = into.severity.max(other.severity);
    if time::compare(other.first_seen.as_deref(), into.first_seen.as_deref()) == Ordering::Less {
        into.first_seen.clone_from(&other.first_seen);
        into.objects.clone_from(&other.objects);
        into.thread.clone_from(&other.thread);
    }
    let later = match (other.last_seen.as_deref(), into.last_seen.as_deref()) {
        (Some(_), None) => true,
        (Some(o), Some(i)) => time::compare(Some(o), Some(i)) == Ordering::Greater,
        _ => false,
    };
    if later {
        into.last_seen.clone_from(&other.last_seen);
    }
}

/// Earliest first; ties by ID, command, message.
fn order(a: &Finding, b: &Finding) -> Ordering {
    time::compare(a.first_seen.as_deref(), b.first_seen.as_deref())
        .then_with(|| a.id.cmp(&b.id))
        .then_with(|| a.command.cmp(&b.command))
        .then_with(|| a.message.cmp(&b.message))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::model::{Object, Severity};

    pub(crate) fn finding(id: &str, severity: Severity, message: &str, count: u64) -> Finding {
        Finding {
            id: id.to_owned(),
            severity,
            command: "vkGetMemoryFdKHR".to_owned(),
            message: message.to_owned(),
            objects: Vec::new(),
            count,
            first_seen: None,
            last_seen: None,
            thread: None,
            extra: Default::default(),
        }
    }

    pub(crate) fn report(pid: u32, findings: Vec<Finding>) -> Report {
        Report {
            exportcheck_report_version: 1,
            layer: None,
            process: Some(ProcessInfo {
                pid,
                executable: Some("/bin/app".to_owned()),
                sync_sharing_calls: std::collections::BTreeMap::new(),
                cuda_calls: std::collections::BTreeMap::new(),
            }),
            settings: None,
            journal: None,
            findings,
        }
    }

    fn seen(mut f: Finding, first: &str, last: &str, object: &str) -> Finding {
        f.first_seen = Some(first.to_owned());
        f.last_seen = Some(last.to_owned());
        f.objects = vec![Object {
            ty: "VK_OBJECT_TYPE_DEVICE_MEMORY".to_owned(),
            handle: "0x10".to_owned(),
            name: Some(object.to_owned()),
        }];
        f
    }

    const ID: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";

    #[test]
    fn same_id_command_and_message_are_summed() {
        let a = seen(
            finding(ID, Severity::Error, "m", 3),
            "2026-11-21T05:00:01.000Z",
            "2026-11-21T05:00:02.000Z",
            "from-a",
        );
        let b = seen(
            finding(ID, Severity::Error, "m", 2),
            "2026-11-21T05:00:00.5Z",
            "2026-11-21T05:00:01.5Z",
            "from-b",
        );
        let merged = merge(&[report(20, vec![a]), report(10, vec![b])]);
        assert_eq!(merged.findings.len(), 1);
        let f = &merged.findings[0];
        assert_eq!(f.count, 5);
        assert_eq!(f.first_seen.as_deref(), Some("2026-11-21T05:00:00.5Z"));
        assert_eq!(f.last_seen.as_deref(), Some("2026-11-21T05:00:02.000Z"));
        assert_eq!(
            f.objects[0].name.as_deref(),
            Some("from-b"),
            "earliest's objects"
        );
        let pids: Vec<u32> = merged.processes.iter().map(|p| p.pid).collect();
        assert_eq!(pids, [10, 20]);
    }

    #[test]
    fn different_messages_or_commands_stay_apart() {
        let a = finding(ID, Severity::Error, "m1", 1);
        let b = finding(ID, Severity::Error, "m2", 1);
        let mut c = finding(ID, Severity::Error, "m1", 1);
        c.command = "vkGetMemoryFdKHR2".to_owned();
        let merged = merge(&[report(1, vec![a, b]), report(2, vec![c])]);
        assert_eq!(merged.findings.len(), 3);
        assert!(merged.findings.iter().all(|f| f.count == 1));
    }

    #[test]
    fn findings_are_ordered_by_first_sighting() {
        let late = seen(
            finding("B", Severity::Warning, "m", 1),
            "2026-11-21T05:00:09Z",
            "2026-11-21T05:00:09Z",
            "x",
        );
        let early = seen(
            finding("Z", Severity::Error, "m", 1),
            "2026-11-21T05:00:01Z",
            "2026-11-21T05:00:01Z",
            "x",
        );
        let undated = finding("A", Severity::Error, "m", 1);
        let merged = merge(&[report(1, vec![undated, late, early])]);
        let ids: Vec<&str> = merged.findings.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["Z", "B", "A"]);
    }

    #[test]
    fn counts_saturate_and_severity_takes_the_highest() {
        let a = finding(ID, Severity::Warning, "m", u64::MAX);
        let b = finding(ID, Severity::Error, "m", 5);
        let merged = merge(&[report(1, vec![a]), report(2, vec![b])]);
        assert_eq!(merged.findings[0].count, u64::MAX);
        assert_eq!(merged.findings[0].severity, Severity::Error);
    }

    #[test]
    fn nothing_merges_into_an_empty_report() {
        let merged = merge(&[]);
        assert!(merged.findings.is_empty() && merged.processes.is_empty());
        let json = serde_json::to_value(&merged).unwrap();
        assert_eq!(json["exportcheck_report_version"], 1);
        assert!(json["processes"].as_array().unwrap().is_empty());
        assert!(json.get("process").is_none());
    }

    #[test]
    fn layer_and_settings_come_from_the_first_report_that_has_them() {
        let mut r1 = report(1, vec![]);
        let mut r2 = report(2, vec![]);
        r2.layer = Some(crate::report::model::LayerInfo {
            name: "VK_LAYER_EXPORTCHECK_validation".to_owned(),
            version: Some("0.1.0".to_owned()),
        });
        r1.settings = Some(Default::default());
        let merged = merge(&[r1, r2]);
        assert_eq!(
            merged.layer.unwrap().name,
            "VK_LAYER_EXPORTCHECK_validation"
        );
        assert!(merged.settings.is_some());
    }
}
