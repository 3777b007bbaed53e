//! Findings grouped by ID and command: one row of the summary, one JUnit testcase.

use std::collections::BTreeMap;

use super::model::{Finding, Severity};

/// Every finding of one ID in one command.
#[derive(Debug, Clone, PartialEq)]
pub struct Group<'a> {
    /// The ID.
    pub id: &'a str,
    /// The command.
    pub command: &'a str,
    /// The highest severity of its findings.
    pub severity: Severity,
    /// The sum of their counts.
    pub count: u64,
    /// Its distinct findings (different messages), earliest first.
    pub findings: Vec<&'a Finding>,
}

impl Group<'_> {
    /// The message of the earliest finding.
    #[must_use]
    pub fn first_message(&self) -> &str {
        self.findings.first().map_or("", |f| f.message.as_str())
    }
}

/// Groups `findings` (already in first-sighting order, as [`super::merge::merge`] leaves them)
/// by ID and command. Groups are ordered by severity (errors first), then by ID and command.
#[must_use]
pub fn by_id_and_command(findings: &[Finding]) -> Vec<Group<'_>> {
    let mut groups: BTreeMap<(&str, &str), Group<'_>> = BTreeMap::new();
    for f in findings {
        let g = groups
            .entry((f.id.as_str(), f.command.as_str()))
            .or_insert_with(|| Group {
                id: &f.id,
                command: &f.command,
                severity: f.severity,
                count: 0,
                findings: Vec::new(),
            });
        g.severity = g.severity.max(f.severity);
        g.count = g.count.saturating_add(f.count);
        g.findings.push(f);
    }
    let mut out: Vec<Group<'_>> = groups.into_values().collect();
    out.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.id.cmp(b.id))
            .then_with(|| a.command.cmp(b.command))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::merge::tests::finding;

    #[test]
    fn groups_by_id_and_command_errors_first() {
        let mut other_command = finding("E", Severity::Error, "m", 1);
        other_command.command = "vkAllocateMemory".to_owned();
        let findings = vec![
            finding("W", Severity::Warning, "w", 4),
            finding("E", Severity::Error, "first", 2),
            finding("E", Severity::Error, "second", 3),
            other_command,
        ];
        let groups = by_id_and_command(&findings);
        let keys: Vec<(&str, &str, u64)> =
            groups.iter().map(|g| (g.id, g.command, g.count)).collect();
        assert_eq!(
            keys,
            [
                ("E", "vkAllocateMemory", 1),
                ("E", "vkGetMemoryFdKHR", 5),
                ("W", "vkGetMemoryFdKHR", 4)
            ]
        );
        assert_eq!(groups[1].first_message(), "first");
        assert_eq!(groups[1].findings.len(), 2);
    }
}
