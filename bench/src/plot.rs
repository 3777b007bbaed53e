//! `exportcheck-bench plot`: the two SVG figures of docs/performance.md, from a `results.json`.
//!
//! plotters' SVG backend without a font feature: text is sized with plotters' built-in estimate
//! and written as SVG `<text>` (the viewer's sans-serif font draws it), so nothing needs
//! fontconfig or a font file.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::{Path, PathBuf};

use crate::model::{keys, Config, CycleExport, Driver};
use crate::parent::{read_results, Results};
use crate::report::{fmt_num, throughput_key, Row, Unit};
use crate::suite_calls::THREADS;

pub const ADDED_COST_SVG: &str = "performance-added-cost.svg";
pub const THROUGHPUT_SVG: &str = "performance-throughput.svg";

const GRAY: RGBColor = RGBColor(150, 150, 150);
const EXPORTCHECK: RGBColor = RGBColor(31, 119, 180);
const KHRONOS: RGBColor = RGBColor(230, 120, 20);

fn color(c: Config) -> RGBColor {
    match c {
        Config::None => GRAY,
        Config::Exportcheck => EXPORTCHECK,
        Config::Khronos => KHRONOS,
    }
}

fn legend(c: Config) -> &'static str {
    match c {
        Config::None => "no layer",
        Config::Exportcheck => "exportcheck",
        Config::Khronos => "Khronos validation",
    }
}

/// `plot [RESULTS] [--out-dir DIR]`: defaults `target/bench/results.json` and `docs`.
pub fn main(args: &[String]) -> Result<(), String> {
    let mut input = None;
    let mut out_dir = PathBuf::from("docs");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out-dir" => out_dir = it.next().ok_or("--out-dir needs a value")?.into(),
            s if !s.starts_with("--") && input.is_none() => input = Some(PathBuf::from(s)),
            _ => return Err(format!("unknown plot argument {a:?}")),
        }
    }
    let input = match input {
        Some(p) => p,
        None => crate::setup::Paths::new(None, None)?
            .bench_dir
            .join("results.json"),
    };
    let results = read_results(&input)?;
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let added = out_dir.join(ADDED_COST_SVG);
    added_cost(&results, &added)?;
    let tput = out_dir.join(THROUGHPUT_SVG);
    throughput(&results, &tput)?;
    eprintln!(
        "exportcheck-bench: wrote {} and {}",
        added.display(),
        tput.display()
    );
    Ok(())
}

/// The per-call rows shown in the bar chart.
fn call_rows(r: &Results) -> Vec<&Row> {
    let shown = [
        keys::UNCHECKED,
        keys::EXPORT_FD,
        keys::EXPORT_RDMA,
        keys::EXPORT_WIN32,
        keys::EXPORT_METAL,
        keys::ALLOC_FREE,
        keys::ALLOC_FREE_RDMA,
        keys::CYCLE_RDMA,
        keys::CYCLE_RDMA_AFTER,
    ];
    r.rows
        .iter()
        .filter(|row| row.unit == Unit::Ns && shown.contains(&row.key.as_str()))
        .collect()
}

/// The measurement's name, short enough for the chart's label column.
fn short_label(row: &Row) -> &str {
    match row.key.as_str() {
        keys::UNCHECKED => "vkGetBufferMemoryRequirements (unchecked)",
        keys::EXPORT_FD => "vkGetMemoryFdKHR + close",
        keys::ALLOC_FREE => "allocate + free (OPAQUE_FD)",
        keys::ALLOC_FREE_RDMA => "allocate + free (OPAQUE_FD | RDMA)",
        keys::CYCLE_RDMA => "allocate + RDMA export + free",
        keys::CYCLE_RDMA_AFTER => "the same, after the threaded runs",
        _ => &row.measurement,
    }
}

fn figure(row: &Row, c: Config) -> Option<f64> {
    match c {
        Config::None => row.none,
        Config::Exportcheck => row.exportcheck,
        Config::Khronos => row.khronos,
    }
}

fn added(row: &Row, c: Config) -> Option<f64> {
    match c {
        Config::None => None,
        Config::Exportcheck => row.added_exportcheck,
        Config::Khronos => row.added_khronos,
    }
}

fn err(e: impl std::fmt::Debug) -> String {
    format!("plot: {e:?}")
}

/// Horizontal grouped bars: ns per call for each configuration (log scale), each layer's bar
/// labelled with what it adds.
fn added_cost(r: &Results, path: &Path) -> Result<(), String> {
    let rows = call_rows(r);
    let n = rows.len().max(1);
    let values: Vec<f64> = rows
        .iter()
        .flat_map(|row| Config::ALL.map(|c| figure(row, c)))
        .flatten()
        .filter(|v| *v > 0.0)
        .collect();
    let lo = values
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .min(10.0)
        / 2.0;
    let hi = values.iter().copied().fold(1.0, f64::max) * 6.0;
    let height = 120 + 56 * n as u32;
    let root = SVGBackend::new(path, (1050, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Cost per call, without a layer and with each layer ({} mode)",
                r.mode.name()
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(340)
        .build_cartesian_2d((lo..hi).log_scale(), 0f64..n as f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_desc("ns per call (log scale); labels: added by the layer")
        .light_line_style(TRANSPARENT)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(err)?;
    let bar = 0.26;
    for (ci, c) in Config::ALL.into_iter().enumerate() {
        let style = color(c).filled();
        let bars = rows.iter().enumerate().filter_map(|(g, row)| {
            let v = figure(row, c)?;
            // Group g from the top; configurations top to bottom inside it.
            let top = (n - g) as f64 - 0.1 - bar * ci as f64;
            Some(Rectangle::new(
                [(lo, top - bar + 0.02), (v.max(lo), top)],
                style,
            ))
        });
        chart
            .draw_series(bars)
            .map_err(err)?
            .label(legend(c))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], style));
    }
    let text = TextStyle::from(("sans-serif", 13).into_font());
    for (g, row) in rows.iter().enumerate() {
        let mid = (n - g) as f64 - 0.5;
        let (px, py) = chart.backend_coord(&(lo, mid));
        let label = format!("{} — {}", short_label(row), row.driver.name());
        root.draw(&Text::new(
            label,
            (px - 8, py),
            text.clone().pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(err)?;
        for (ci, c) in Config::ALL.into_iter().enumerate() {
            let y = (n - g) as f64 - 0.1 - bar * ci as f64 - bar / 2.0;
            let label = match (figure(row, c), added(row, c)) {
                (Some(v), Some(a)) => {
                    let sign = if a >= 0.0 { "+" } else { "−" };
                    Some((v, format!("{sign}{} ns", fmt_num(a.abs()))))
                }
                // A configuration that ran but could not make this measurement.
                (None, _) if r.configs.contains(&c) => {
                    Some((lo, format!("{}: not measured (see the table)", legend(c))))
                }
                _ => None,
            };
            let Some((v, label)) = label else {
                continue;
            };
            let (bx, by) = chart.backend_coord(&(v.max(lo), y));
            root.draw(&Text::new(
                label,
                (bx + 4, by),
                ("sans-serif", 11)
                    .into_font()
                    .color(&color(c))
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// Throughput against thread count, one panel per (driver, export), a line per configuration.
fn throughput(r: &Results, path: &Path) -> Result<(), String> {
    let panels: Vec<(Driver, CycleExport)> = r
        .drivers
        .iter()
        .flat_map(|&d| [(d, CycleExport::Fd), (d, CycleExport::Rdma)])
        .filter(|&(d, e)| !series(r, d, e, Config::None).is_empty())
        .collect();
    let root = SVGBackend::new(path, (340 * panels.len().max(1) as u32, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let root = root
        .titled(
            &format!(
                "Allocate + export + free cycles per second, all threads together ({} mode)",
                r.mode.name()
            ),
            ("sans-serif", 18),
        )
        .map_err(err)?;
    let areas = root.split_evenly((1, panels.len().max(1)));
    for (area, &(driver, export)) in areas.iter().zip(&panels) {
        draw_throughput_panel(r, driver, export, area)?;
    }
    root.present().map_err(err)
}

/// One configuration's (log2 threads, ops/s) points.
fn series(r: &Results, driver: Driver, export: CycleExport, c: Config) -> Vec<(f64, f64)> {
    THREADS
        .iter()
        .filter_map(|&t| {
            let key = throughput_key(export, t);
            let row = r
                .rows
                .iter()
                .find(|row| row.driver == driver && row.key == key)?;
            Some(((t as f64).log2(), figure(row, c)?))
        })
        .collect()
}

fn draw_throughput_panel(
    r: &Results,
    driver: Driver,
    export: CycleExport,
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
) -> Result<(), String> {
    let all: Vec<(Config, Vec<(f64, f64)>)> = r
        .configs
        .iter()
        .map(|&c| (c, series(r, driver, export, c)))
        .collect();
    let max = all
        .iter()
        .flat_map(|(_, s)| s.iter().map(|p| p.1))
        .fold(1.0, f64::max);
    let last = (*THREADS.last().unwrap_or(&8) as f64).log2();
    let caption = match export {
        CycleExport::Fd => format!("{driver}: fd export (+ close)"),
        CycleExport::Rdma => format!("{driver}: RDMA export (no system call)"),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 15))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.2..last + 0.2, 0.0..max * 1.6)
        .map_err(err)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(THREADS.len())
        .x_label_formatter(&|x| format!("{}", 2f64.powf(x.round()) as u64))
        .x_desc("threads")
        .y_label_formatter(&|y| {
            if max >= 1e6 {
                format!("{:.1}M", y / 1e6)
            } else {
                format!("{:.0}k", y / 1e3)
            }
        })
        .y_desc("cycles per second")
        .draw()
        .map_err(err)?;
    for (c, points) in all {
        let style = color(c).stroke_width(2);
        chart
            .draw_series(LineSeries::new(points.clone(), style))
            .map_err(err)?
            .label(legend(c))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], style));
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, color(c).filled())))
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}
