//! The coverage report as a standalone HTML page (inline style, no scripts).

use std::fmt::Write as _;

use super::compute::{checked_name, in_registry_name, where_name, Row, Tally, Tested};
use super::context::Context;
use super::text::tally_line;

/// Escapes text and attribute values.
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em;width:100%}\
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}td.id{font-family:monospace}\
.yes{background:#e3f6e3}.no{background:#fbe2e2}.unit{background:#e8eefb}\
.bar{background:#fbe2e2;width:20em;height:1em;display:inline-block;vertical-align:middle}\
.bar span{background:#5cb85c;height:100%;display:block}\
caption{text-align:left;font-weight:bold;padding:.3em 0}";

fn yes_no(b: bool) -> (&'static str, &'static str) {
    if b {
        ("yes", "yes")
    } else {
        ("no", "no")
    }
}

fn tested(t: Tested) -> (&'static str, &'static str) {
    (t.name(), t.name())
}

fn bar(t: &Tally) -> String {
    format!(
        "<span class=\"bar\" title=\"{:.1}%\"><span style=\"width:{:.1}%\"></span></span> \
         <strong>{:.1}%</strong>",
        t.percent, t.percent, t.percent
    )
}

fn section(out: &mut String, ctx: &Context<'_>, rows: &[Row]) {
    let mut command: Option<&str> = None;
    for r in rows {
        if command != Some(r.command.as_str()) {
            if command.is_some() {
                out.push_str("</table>\n");
            }
            command = Some(&r.command);
            let title = if r.command == "*" {
                "Several commands".to_owned()
            } else {
                format!("<code>{}</code>", escape(&r.command))
            };
            let _ = writeln!(
                out,
                "<table><caption>{title}</caption>\n<tr><th>ID</th><th>Covered</th>\
                 <th>Checked</th><th>Negative test</th><th>Positive test</th><th>Where</th>\
                 <th>In registry</th><th>Note</th></tr>"
            );
        }
        let link = ctx.catalog.spec_link(&r.id);
        let title = r
            .spec_text
            .as_deref()
            .map(|t| format!(" title=\"{}\"", escape(t)))
            .unwrap_or_default();
        let _ = write!(
            out,
            "<tr><td class=\"id\"{title}><a href=\"{}\">{}</a></td>",
            escape(&link),
            escape(&r.id)
        );
        let negative_title = r.negative_tests.join(", ");
        let cells = [
            (yes_no(r.covered), String::new()),
            ((yes_no(r.checked).0, checked_name(r)), String::new()),
            (tested(r.negative), negative_title),
            (
                tested(r.positive),
                format!("{} positive tests of {}", r.positive_tests, r.command),
            ),
        ];
        for ((class, label), title) in cells {
            let _ = write!(
                out,
                "<td class=\"{class}\" title=\"{}\">{label}</td>",
                escape(&title)
            );
        }
        let _ = writeln!(
            out,
            "<td>{}</td><td>{}</td><td>{}</td></tr>",
            where_name(r.where_),
            in_registry_name(r),
            escape(r.note.as_deref().unwrap_or(""))
        );
    }
    if command.is_some() {
        out.push_str("</table>\n");
    }
}

/// The page.
#[must_use]
pub fn render(ctx: &Context<'_>) -> String {
    let c = ctx.coverage;
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>exportcheck VUID coverage</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>exportcheck VUID coverage</h1>\n<ul>\n<li>Registry: {}</li>\n<li>Catalog: {}</li>\n\
         <li>Observed: {}</li>\n</ul>\n",
        escape(&ctx.registry_line()),
        escape(&ctx.catalog_line()),
        escape(&ctx.observed_line())
    );
    let _ = writeln!(
        out,
        "<h2>Spec VUIDs {}</h2>\n<p>{}. Covered = checked by the layer, reported in a negative \
         test, and silent in a positive test of its command. Hover an ID for the rule's text.</p>",
        bar(&c.spec_tally),
        escape(&tally_line(&c.spec_tally))
    );
    section(&mut out, ctx, &c.spec);
    let _ = writeln!(
        out,
        "<h2>The layer's own IDs {}</h2>\n<p>Not part of the coverage above. {}.</p>",
        bar(&c.layer_tally),
        escape(&tally_line(&c.layer_tally))
    );
    section(&mut out, ctx, &c.layer);
    out.push_str(
        "<p><em>unit</em>: the catalog marks the ID unit-only (an end-to-end test is \
         impossible, see the note); it counts as tested.</p>\n</body>\n</html>\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::tests::render_synthetic;

    #[test]
    fn html_is_a_standalone_page_with_a_row_per_id() {
        let html = render_synthetic(render, true);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.trim_end().ends_with("</html>"));
        assert_eq!(html.matches("<td class=\"id\"").count(), 8);
        assert_eq!(
            html.matches("<table>").count(),
            html.matches("</table>").count()
        );
        assert!(html.contains("href=\"https://example/#VUID-VkMemoryGetFdInfoKHR-sType-sType\""));
        assert!(html.contains("title=\"compatible\""));
        assert!(!html.contains("<script"));
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
