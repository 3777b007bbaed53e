//! The coverage report as GitHub-flavoured Markdown.

use std::fmt::Write as _;

use super::compute::{checked_name, in_registry_name, where_name, Row, Tested};
use super::context::Context;
use super::text::tally_line;

/// Escapes table-cell text (`|` would end the cell; line breaks the row).
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn mark(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "**no**"
    }
}

fn tested(t: Tested) -> &'static str {
    match t {
        Tested::Yes => "yes",
        Tested::No => "**no**",
        Tested::Unit => "unit",
    }
}

fn section(out: &mut String, ctx: &Context<'_>, rows: &[Row]) {
    let mut command: Option<&str> = None;
    for r in rows {
        if command != Some(r.command.as_str()) {
            command = Some(&r.command);
            let title = if r.command == "*" {
                "Several commands".to_owned()
            } else {
                format!("`{}`", r.command)
            };
            let _ = write!(
                out,
                "\n### {title}\n\n| ID | Covered | Checked | Negative test | Positive test | \
                 Where | In registry | Note |\n|---|---|---|---|---|---|---|---|\n"
            );
        }
        let link = ctx.catalog.spec_link(&r.id);
        let id = if link.starts_with("http") {
            format!("[`{}`]({link})", r.id)
        } else {
            format!("`{}`", r.id)
        };
        let _ = writeln!(
            out,
            "| {id} | {} | {} | {} | {} | {} | {} | {} |",
            mark(r.covered),
            if r.checked || !r.counted() {
                checked_name(r)
            } else {
                mark(false)
            },
            tested(r.negative),
            tested(r.positive),
            where_name(r.where_),
            in_registry_name(r),
            cell(r.note.as_deref().unwrap_or("")),
        );
    }
}

/// The report.
#[must_use]
pub fn render(ctx: &Context<'_>) -> String {
    let c = ctx.coverage;
    let mut out = String::from("# exportcheck VUID coverage\n\n");
    let _ = writeln!(out, "- Registry: {}", cell(&ctx.registry_line()));
    let _ = writeln!(out, "- Catalog: {}", cell(&ctx.catalog_line()));
    let _ = writeln!(out, "- Observed: {}", cell(&ctx.observed_line()));
    let _ = write!(
        out,
        "\n## Spec VUIDs: {:.1}% covered\n\n{}. Covered = checked by the layer, reported in a \
         negative test, and silent in a positive test of its command.\n",
        c.spec_tally.percent,
        tally_line(&c.spec_tally)
    );
    section(&mut out, ctx, &c.spec);
    let _ = write!(
        out,
        "\n## The layer's own IDs\n\nNot part of the coverage above. {}.\n",
        tally_line(&c.layer_tally)
    );
    section(&mut out, ctx, &c.layer);
    out.push_str(
        "\n*unit*: the catalog marks the ID unit-only (an end-to-end test is impossible, see \
         the note); it counts as tested.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::tests::render_synthetic;

    #[test]
    fn markdown_tables_have_one_row_per_id() {
        let md = render_synthetic(render, true);
        assert!(md.starts_with("# exportcheck VUID coverage"));
        assert!(md.contains("## Spec VUIDs: 16.7% covered"), "{md}");
        let rows: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with("| [`VUID-") || l.starts_with("| `EXPORTCHECK-"))
            .collect();
        assert_eq!(rows.len(), 8, "{md}");
        for r in &rows {
            assert_eq!(r.matches(" | ").count(), 7, "{r}");
        }
        assert!(md.contains(
            "| [`VUID-VkMemoryGetFdInfoKHR-sType-sType`](https://example/#VUID-VkMemoryGetFdInfoKHR-sType-sType) | **no** | **no** |"
        ));
        assert_eq!(cell("a|b\nc"), "a\\|b c");
    }
}
