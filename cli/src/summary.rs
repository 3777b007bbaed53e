//! The summary table `run` prints to stderr.

use std::fmt::Write as _;

use crate::report::group::{by_id_and_command, Group};
use crate::report::model::{MergedReport, Severity};

/// The longest message shown in the table, in characters.
pub const MESSAGE_WIDTH: usize = 100;

/// `n thing` or `n things`.
#[must_use]
pub fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("{n} {thing}")
    } else if thing.ends_with('s') {
        format!("{n} {thing}es")
    } else {
        format!("{n} {thing}s")
    }
}

/// The message reduced to one line of at most `width` characters: without the
/// `Validation Error: [ <id> ] ` head and the `<command>(): ` prefix the table already shows,
/// whitespace runs collapsed, cut with `…`.
#[must_use]
pub fn one_line(message: &str, id: &str, command: &str, width: usize) -> String {
    let mut m = message.trim_start();
    for head in [
        "Validation Error: ",
        "Validation Warning: ",
        "Validation Info: ",
    ] {
        if let Some(rest) = m.strip_prefix(head) {
            m = rest;
            break;
        }
    }
    if let Some(rest) = m.strip_prefix(&format!("[ {id} ]")) {
        m = rest.trim_start();
    }
    if let Some(rest) = m.strip_prefix(&format!("{command}():")) {
        m = rest.trim_start();
    }
    let first_line = m.lines().next().unwrap_or("");
    let collapsed = first_line.split_whitespace().collect::<Vec<_>>().join(" ");
    truncate(&printable(&collapsed), width)
}

/// `text` with its control characters escaped (`\x1b` as `\x1b`): a message quotes debug names
/// the app set, which may hold any bytes; on a terminal or in a CI log an ESC sequence or a
/// carriage return of theirs would rewrite what the gate printed.
#[must_use]
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                format!("\\x{:02x}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `s` cut to `width` characters, the last one `…` when cut.
#[must_use]
pub fn truncate(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// The headline: how many findings of which severity, from how many processes.
#[must_use]
pub fn headline(merged: &MergedReport) -> String {
    let groups = by_id_and_command(&merged.findings);
    let processes = plural(merged.processes.len(), "process");
    if groups.is_empty() {
        return format!("exportcheck: no findings ({processes} reported)");
    }
    let count = |s: Severity| groups.iter().filter(|g| g.severity == s).count();
    let occurrences: u64 = groups
        .iter()
        .fold(0u64, |acc, g| acc.saturating_add(g.count));
    let mut parts = vec![
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
    ];
    let info = count(Severity::Info);
    if info > 0 {
        parts.push(format!("{info} info"));
    }
    format!(
        "exportcheck: {} ({}; {} in all) from {processes}",
        plural(groups.len(), "distinct finding"),
        parts.join(", "),
        plural(
            usize::try_from(occurrences).unwrap_or(usize::MAX),
            "occurrence"
        ),
    )
}

/// The table: one row per ID and command (see [`by_id_and_command`]), columns ID, SEVERITY,
/// COUNT, COMMAND and the first message on one line. Empty when there are no findings.
#[must_use]
pub fn table(merged: &MergedReport) -> String {
    let groups = by_id_and_command(&merged.findings);
    if groups.is_empty() {
        return String::new();
    }
    let rows: Vec<[String; 5]> = groups.iter().map(row).collect();
    let header = ["ID", "SEVERITY", "COUNT", "COMMAND", "MESSAGE"].map(str::to_owned);
    let mut widths = [0usize; 4];
    for r in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for r in std::iter::once(&header).chain(&rows) {
        let _ = writeln!(
            out,
            "{:<w0$}  {:<w1$}  {:>w2$}  {:<w3$}  {}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
        );
    }
    out
}

fn row(g: &Group<'_>) -> [String; 5] {
    [
        g.id.to_owned(),
        g.severity.name().to_owned(),
        g.count.to_string(),
        g.command.to_owned(),
        one_line(g.first_message(), g.id, g.command, MESSAGE_WIDTH),
    ]
}

/// Headline and table together.
#[must_use]
pub fn render(merged: &MergedReport) -> String {
    let mut out = headline(merged);
    out.push('\n');
    out.push_str(&table(merged));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::merge::merge;
    use crate::report::merge::tests::{finding, report};

    const ID: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";

    #[test]
    fn one_line_strips_what_the_columns_show() {
        let m = format!(
            "Validation Error: [ {ID} ] vkGetMemoryFdKHR(): pGetFdInfo->handleType is\n  \
             DMA_BUF. (https://x)"
        );
        assert_eq!(
            one_line(&m, ID, "vkGetMemoryFdKHR", 100),
            "pGetFdInfo->handleType is"
        );
        assert_eq!(one_line("a  b\tc", ID, "vkX", 100), "a b c");
        assert_eq!(one_line("abcdef", ID, "vkX", 4), "abc…");
        assert_eq!(one_line("", ID, "vkX", 4), "");
        // Multi-byte characters are cut on character boundaries.
        assert_eq!(truncate("ééééé", 3), "éé…");
    }

    #[test]
    fn table_aligns_columns_and_puts_errors_first() {
        let long_message = format!(
            "Validation Error: [ {ID} ] vkGetMemoryFdKHR(): {}",
            "x".repeat(300)
        );
        let merged = merge(&[report(
            7,
            vec![
                finding(
                    "EXPORTCHECK-driver-fd-not-cloexec",
                    Severity::Warning,
                    "w",
                    1,
                ),
                finding(ID, Severity::Error, &long_message, 12),
            ],
        )]);
        let table = table(&merged);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert!(lines[0].starts_with("ID "));
        assert!(lines[1].starts_with(ID));
        assert!(lines[2].starts_with("EXPORTCHECK-driver-fd-not-cloexec"));
        let col = |line: &str, word: &str| line.find(word).unwrap();
        assert_eq!(col(lines[0], "SEVERITY"), col(lines[1], "error"));
        assert_eq!(col(lines[1], "error"), col(lines[2], "warning"));
        assert_eq!(col(lines[0], "COMMAND"), col(lines[1], "vkGetMemoryFdKHR"));
        // COUNT is right-aligned.
        assert_eq!(
            col(lines[0], "COUNT") + "COUNT".len(),
            col(lines[1], "12") + 2
        );
        assert!(lines[1].ends_with('…'));
        assert!(lines[1].chars().count() < 250);
    }

    #[test]
    fn headline_counts_findings_processes_and_occurrences() {
        let merged = merge(&[
            report(1, vec![finding(ID, Severity::Error, "m", 2)]),
            report(2, vec![finding(ID, Severity::Error, "m", 3)]),
        ]);
        assert_eq!(
            headline(&merged),
            "exportcheck: 1 distinct finding (1 error, 0 warnings; 5 occurrences in all) \
             from 2 processes"
        );
        let empty = merge(&[report(1, vec![])]);
        assert_eq!(
            headline(&empty),
            "exportcheck: no findings (1 process reported)"
        );
        assert_eq!(table(&empty), "");
        assert!(render(&empty).starts_with("exportcheck: no findings"));
    }
}
