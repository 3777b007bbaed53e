//! The plain-text coverage report: aligned tables, one per section.

use std::fmt::Write as _;

use super::compute::{checked_name, in_registry_name, where_name, Row, Tally};
use super::context::Context;

const HEADER: [&str; 8] = [
    "ID",
    "COVERED",
    "CHECKED",
    "NEGATIVE",
    "POSITIVE",
    "WHERE",
    "IN REGISTRY",
    "NOTE",
];

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn cells(r: &Row) -> [String; 8] {
    [
        r.id.clone(),
        yes_no(r.covered).to_owned(),
        checked_name(r).to_owned(),
        r.negative.name().to_owned(),
        r.positive.name().to_owned(),
        where_name(r.where_).to_owned(),
        in_registry_name(r).to_owned(),
        r.note.clone().unwrap_or_default(),
    ]
}

/// `covered/total (pct%)` and the column totals.
#[must_use]
pub fn tally_line(t: &Tally) -> String {
    format!(
        "{} of {} covered ({:.1}%); checked {}, negative test {}, positive test {}{}",
        t.covered,
        t.total,
        t.percent,
        t.checked,
        t.negative,
        t.positive,
        uncounted(t)
    )
}

/// The rows listed but not counted, if any: `; not counted: N not checkable, M out of scope`.
fn uncounted(t: &Tally) -> String {
    if t.not_checkable + t.out_of_scope == 0 {
        return String::new();
    }
    format!(
        "; not counted: {} not checkable, {} out of scope",
        t.not_checkable, t.out_of_scope
    )
}

/// Rows grouped under their command, the columns aligned across the whole section.
fn section(out: &mut String, rows: &[Row]) {
    let all: Vec<[String; 8]> = rows.iter().map(cells).collect();
    let mut widths = [0usize; 8];
    for r in std::iter::once(&HEADER.map(str::to_owned)).chain(&all) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String; 8]| -> String {
        let mut s = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            if i == 7 {
                s.push_str(c);
            } else {
                let _ = write!(s, "{c:<w$}  ", w = widths[i]);
            }
        }
        s.trim_end().to_owned()
    };
    let mut command: Option<&str> = None;
    for (r, c) in rows.iter().zip(&all) {
        if command != Some(r.command.as_str()) {
            command = Some(&r.command);
            let title = if r.command == "*" {
                "Several commands"
            } else {
                &r.command
            };
            let _ = writeln!(out, "\n{title}");
            let _ = writeln!(out, "{}", line(&HEADER.map(str::to_owned)));
        }
        let _ = writeln!(out, "{}", line(c));
    }
}

/// The report.
#[must_use]
pub fn render(ctx: &Context<'_>) -> String {
    let c = ctx.coverage;
    let mut out = String::from("exportcheck VUID coverage\n\n");
    let _ = writeln!(out, "Registry: {}", ctx.registry_line());
    let _ = writeln!(out, "Catalog:  {}", ctx.catalog_line());
    let _ = writeln!(out, "Observed: {}", ctx.observed_line());
    let _ = writeln!(out, "\nSpec VUIDs: {}", tally_line(&c.spec_tally));
    out.push_str(
        "  covered = checked by the layer, reported in a negative test, and silent in a \
         positive test of its command\n",
    );
    section(&mut out, &c.spec);
    let _ = writeln!(
        out,
        "\nThe layer's own IDs (not in the coverage above): {}",
        tally_line(&c.layer_tally)
    );
    section(&mut out, &c.layer);
    out.push_str(
        "\n\"unit\": the catalog marks the ID unit-only (an end-to-end test is impossible, see \
         the note); it counts as tested.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::tests::render_synthetic;

    #[test]
    fn text_report_has_totals_sections_and_aligned_rows() {
        let text = render_synthetic(render, true);
        assert!(
            text.contains("Registry: /r/validusage.json (Vulkan 1.3.239)"),
            "{text}"
        );
        assert!(
            text.contains("Spec VUIDs: 1 of 6 covered (16.7%)"),
            "{text}"
        );
        assert!(text.contains("\nvkGetMemoryFdKHR\n"));
        assert!(text.contains("\nSeveral commands\n"));
        let row = text
            .lines()
            .find(|l| {
                l.trim_start()
                    .starts_with("VUID-VkMemoryGetFdInfoKHR-sType-sType")
            })
            .unwrap();
        let header = text
            .lines()
            .find(|l| l.trim_start().starts_with("ID "))
            .unwrap();
        assert_eq!(
            row.find(" no ").unwrap() + 1,
            header.find("COVERED").unwrap()
        );
        let unit = text
            .lines()
            .find(|l| l.contains("EXPORTCHECK-internal-error"))
            .unwrap();
        assert!(unit.contains("unit") && unit.ends_with("only through a layer defect"));
    }

    #[test]
    fn without_observations_it_says_to_run_the_tests() {
        let text = render_synthetic(render, false);
        assert!(
            text.contains("run the tests first: scripts/test.sh"),
            "{text}"
        );
        assert!(text.contains("0 of 6 covered (0.0%)"));
    }
}
