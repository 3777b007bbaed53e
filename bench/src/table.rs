//! The table as text: a Markdown table (so it can be pasted into docs/performance.md as is),
//! followed by one note per row with a target.

use crate::report::{fmt_ratio, Row, Unit, Verdict};

/// A figure in its unit.
fn value(unit: Unit, x: Option<f64>) -> String {
    let Some(x) = x else {
        return "—".to_string();
    };
    match unit {
        Unit::Ns => duration(x),
        Unit::OpsPerSecond if x >= 1e6 => format!("{:.2} M/s", x / 1e6),
        Unit::OpsPerSecond => format!("{:.0} k/s", x / 1e3),
        Unit::Bytes => format!("{x:.0} B"),
    }
}

fn duration(ns: f64) -> String {
    let a = ns.abs();
    if a >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if a >= 1e4 {
        format!("{:.1} µs", ns / 1e3)
    } else if a >= 100.0 {
        format!("{ns:.0} ns")
    } else {
        format!("{ns:.1} ns")
    }
}

/// What a layer adds, in the row's unit.
fn added(unit: Unit, x: Option<f64>) -> String {
    let Some(x) = x else {
        return "—".to_string();
    };
    let sign = if x >= 0.0 { "+" } else { "−" };
    match unit {
        Unit::Ns => format!("{sign}{}", duration(x.abs())),
        Unit::Bytes => format!("{sign}{:.0} B", x.abs()),
        Unit::OpsPerSecond => format!("{x:.1}%"),
    }
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "PASS",
        Verdict::Miss => "MISS",
        Verdict::None => "",
    }
}

const HEADER: [&str; 10] = [
    "measurement",
    "driver",
    "none",
    "exportcheck",
    "khronos",
    "+exportcheck",
    "+khronos",
    "khronos/exportcheck",
    "target",
    "result",
];

/// The cells of one row.
fn cells(r: &Row) -> [String; 10] {
    [
        r.measurement.clone(),
        r.driver.name().to_string(),
        value(r.unit, r.none),
        value(r.unit, r.exportcheck),
        value(r.unit, r.khronos),
        added(r.unit, r.added_exportcheck),
        added(r.unit, r.added_khronos),
        r.ratio.map(fmt_ratio).unwrap_or_default(),
        r.target.clone(),
        verdict(r.verdict).to_string(),
    ]
}

/// The Markdown table; numeric columns right-aligned.
pub fn render(rows: &[Row]) -> String {
    // A `|` inside a cell would end it in Markdown.
    let body: Vec<[String; 10]> = rows
        .iter()
        .map(|r| cells(r).map(|c| c.replace('|', "\\|")))
        .collect();
    markdown(&HEADER, &body, |i| (2..=7).contains(&i))
}

/// A Markdown table of `header` and `body`, padded to align; the columns `numeric` accepts are
/// right-aligned.
pub fn markdown<const N: usize>(
    header: &[&str; N],
    body: &[[String; N]],
    numeric: impl Fn(usize) -> bool,
) -> String {
    let mut widths = header.map(|h| h.chars().count());
    for r in body {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(widths[i] - c.chars().count());
                if numeric(i) {
                    format!("{pad}{c}")
                } else {
                    format!("{c}{pad}")
                }
            })
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(&header.map(String::from));
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if numeric(i) {
                format!("{}:", "-".repeat(w - 1))
            } else {
                "-".repeat(w)
            }
        })
        .collect();
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for r in body {
        out.push_str(&line(r));
    }
    out
}

/// One line per row with a note: why it passed or missed, or what else the figure says.
pub fn notes(rows: &[Row]) -> String {
    rows.iter()
        .filter(|r| !r.note.is_empty())
        .map(|r| {
            let v = match r.verdict {
                Verdict::None => "NOTE",
                v => verdict(v),
            };
            format!("- {v} {} ({}): {}\n", r.measurement, r.driver, r.note)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Driver;

    #[test]
    fn units_format() {
        assert_eq!(value(Unit::Ns, Some(12.345)), "12.3 ns");
        assert_eq!(value(Unit::Ns, Some(1234.0)), "1234 ns");
        assert_eq!(value(Unit::Ns, Some(12_345.0)), "12.3 µs");
        assert_eq!(value(Unit::Ns, Some(2_500_000.0)), "2.50 ms");
        assert_eq!(value(Unit::OpsPerSecond, Some(1_500_000.0)), "1.50 M/s");
        assert_eq!(value(Unit::OpsPerSecond, Some(250_000.0)), "250 k/s");
        assert_eq!(added(Unit::Ns, Some(-3.0)), "−3.0 ns");
        assert_eq!(added(Unit::OpsPerSecond, Some(97.25)), "97.2%");
        assert_eq!(value(Unit::Bytes, None), "—");
    }

    #[test]
    fn table_has_a_header_a_rule_and_a_line_per_row() {
        let rows: Vec<Row> = serde_json::from_value(serde_json::json!([{
            "key": "k", "measurement": "m", "driver": "lavapipe", "unit": "ns",
            "none": 1.0, "exportcheck": 2.0, "khronos": 3.0,
            "added_exportcheck": 1.0, "added_khronos": 2.0, "ratio": 2.0,
            "target": "t", "verdict": "miss", "note": "why"
        }]))
        .unwrap();
        assert_eq!(rows[0].driver, Driver::Lavapipe);
        let t = render(&rows);
        assert_eq!(t.lines().count(), 3);
        assert!(t.lines().all(|l| l.starts_with("| ") && l.ends_with(" |")));
        assert!(t.contains("MISS"));
        let mut piped = rows[0].clone();
        piped.measurement = "a|b".into();
        assert!(render(&[piped]).contains("a\\|b"));
        assert_eq!(notes(&rows), "- MISS m (lavapipe): why\n");
    }
}
