//! The table: one row per measurement and driver, its figures for the three configurations, what
//! the layers add, and the verdict against the targets.

use serde::{Deserialize, Serialize};

use crate::merge::Merged;
use crate::model::{keys, Config, CycleExport, Driver};
use crate::suite_calls::THREADS;
use crate::suite_memory::FEW;

/// The unit of a row's figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// Nanoseconds per call; "added" is with the layer minus without.
    Ns,
    /// Operations per second; "added" is with the layer as a percentage of without.
    OpsPerSecond,
    /// Resident bytes per live allocation; "added" is with the layer minus without.
    Bytes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    Miss,
    /// No target for this row, or not enough data.
    None,
}

/// One row of the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// Machine-readable name, e.g. `export_fd`, `throughput_fd_8`, `memory_1000000`.
    pub key: String,
    pub measurement: String,
    pub driver: Driver,
    pub unit: Unit,
    pub none: Option<f64>,
    pub exportcheck: Option<f64>,
    pub khronos: Option<f64>,
    /// ns or bytes added (Ns, Bytes), or percent of `none` (OpsPerSecond).
    pub added_exportcheck: Option<f64>,
    pub added_khronos: Option<f64>,
    /// What exportcheck and Khronos added in each round (calls only).
    #[serde(default)]
    pub added_exportcheck_by_round: Vec<f64>,
    #[serde(default)]
    pub added_khronos_by_round: Vec<f64>,
    /// Khronos's added cost over exportcheck's (calls only; infinite when exportcheck adds
    /// nothing measurable).
    pub ratio: Option<f64>,
    /// The target, in words; empty when the row has none.
    pub target: String,
    pub verdict: Verdict,
    /// Why, in a few words.
    pub note: String,
}

impl Row {
    fn new(key: &str, measurement: &str, driver: Driver, unit: Unit) -> Row {
        Row {
            key: key.to_string(),
            measurement: measurement.to_string(),
            driver,
            unit,
            none: None,
            exportcheck: None,
            khronos: None,
            added_exportcheck: None,
            added_khronos: None,
            added_exportcheck_by_round: Vec::new(),
            added_khronos_by_round: Vec::new(),
            ratio: None,
            target: String::new(),
            verdict: Verdict::None,
            note: String::new(),
        }
    }

    /// Sets the three figures and what each layer adds.
    fn figures(mut self, none: Option<f64>, e: Option<f64>, k: Option<f64>) -> Row {
        let added = |with: Option<f64>| {
            let (n, w) = (none?, with?);
            Some(match self.unit {
                Unit::OpsPerSecond => 100.0 * w / n,
                Unit::Ns | Unit::Bytes => w - n,
            })
        };
        self.added_exportcheck = added(e);
        self.added_khronos = added(k);
        (self.none, self.exportcheck, self.khronos) = (none, e, k);
        if self.unit == Unit::Ns
            && (self.key.starts_with("export_") || self.key.starts_with(keys::ALLOC_FREE))
        {
            self.ratio = match (self.added_exportcheck, self.added_khronos) {
                (Some(a), Some(b)) if a > 0.0 => Some(b / a),
                (Some(_), Some(_)) => Some(f64::INFINITY),
                _ => None,
            };
        }
        self
    }

    /// Records the per-round added costs of a call measurement.
    fn rounds(mut self, m: &Merged) -> Row {
        self.added_exportcheck_by_round =
            m.added_by_round(self.driver, Config::Exportcheck, &self.key);
        self.added_khronos_by_round = m.added_by_round(self.driver, Config::Khronos, &self.key);
        self
    }

    /// " (per round: +a, +b, +c ns)" when there was more than one round.
    fn spread(&self) -> String {
        if self.added_exportcheck_by_round.len() < 2 {
            return String::new();
        }
        let ms = self
            .added_exportcheck_by_round
            .iter()
            .any(|a| a.abs() >= 10_000.0);
        let list: Vec<String> = self
            .added_exportcheck_by_round
            .iter()
            .map(|a| {
                let sign = if *a >= 0.0 { "+" } else { "−" };
                if ms {
                    format!("{sign}{:.3}", a.abs() / 1e6)
                } else {
                    format!("{sign}{}", fmt_num(a.abs()))
                }
            })
            .collect();
        let unit = if ms { "ms" } else { "ns" };
        format!(" (per round: {} {unit})", list.join(", "))
    }

    /// Whether the rounds disagree about what exportcheck adds by more than the target itself
    /// (`bound`, ns): the driver's own variation between processes is then too large for the
    /// row to say whether the target was met.
    fn unresolved(&self, bound: f64) -> bool {
        let by_round = &self.added_exportcheck_by_round;
        let (min, max) = by_round
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
                (lo.min(*a), hi.max(*a))
            });
        by_round.len() >= 2 && max - min > bound
    }

    /// [`Self::judge`], unless the rounds cannot resolve a target of `bound` ns: then the row
    /// is a note that says so, with the figures.
    fn judge_resolved(self, target: &str, bound: f64, pass: Option<bool>, note: String) -> Row {
        if !self.unresolved(bound) {
            return self.judge(target, pass, note);
        }
        let note = format!(
            "not judged: the rounds disagree by more than the {} ns target, from the driver's own \
             variation between processes; {note}",
            fmt_num(bound)
        );
        self.judge(target, None, note)
    }

    fn judge(mut self, target: &str, pass: Option<bool>, note: String) -> Row {
        self.target = target.to_string();
        self.verdict = match pass {
            Some(true) => Verdict::Pass,
            Some(false) => Verdict::Miss,
            None => Verdict::None,
        };
        self.note = note;
        self
    }
}

/// Targets of the issue.
pub const EXPORT_ADDED_MAX_NS: f64 = 30.0;
pub const EXPORT_KHRONOS_FACTOR: f64 = 10.0;
pub const ALLOC_FREE_ADDED_MAX_NS: f64 = 100.0;
pub const THROUGHPUT_MIN_PERCENT: f64 = 90.0;
pub const BYTES_PER_ALLOCATION_MAX: f64 = 128.0;
pub const SCALE_MAX_FACTOR: f64 = 2.0;
pub const CREATE_ADDED_MAX_NS: f64 = 1_000_000.0;

/// Every row, in the order printed.
pub fn rows(m: &Merged, drivers: &[Driver]) -> Vec<Row> {
    let mut rows = Vec::new();
    for &d in drivers {
        rows.push(unchecked_row(m, d));
        for key in [
            keys::EXPORT_FD,
            keys::EXPORT_RDMA,
            keys::EXPORT_WIN32,
            keys::EXPORT_METAL,
        ] {
            if m.call(d, Config::None, key).is_some() {
                rows.push(export_row(m, d, key));
            }
        }
        rows.push(alloc_free_row(m, d, keys::ALLOC_FREE));
        if m.call(d, Config::None, keys::ALLOC_FREE_RDMA).is_some() {
            rows.push(alloc_free_row(m, d, keys::ALLOC_FREE_RDMA));
        }
        for key in [keys::CYCLE_RDMA, keys::CYCLE_RDMA_AFTER] {
            if m.call(d, Config::None, key).is_some() {
                rows.push(cycle_row(m, d, key));
            }
        }
        for export in [CycleExport::Fd, CycleExport::Rdma] {
            for threads in THREADS {
                rows.push(throughput_row(m, d, export, threads));
            }
        }
        rows.push(create_row(m, d));
    }
    rows.extend(memory_rows(m));
    rows.retain(|r| r.none.is_some() || r.exportcheck.is_some());
    rows
}

fn calls3(m: &Merged, d: Driver, key: &str) -> [Option<f64>; 3] {
    Config::ALL.map(|c| m.call(d, c, key))
}

fn unchecked_row(m: &Merged, d: Driver) -> Row {
    let [n, e, k] = calls3(m, d, keys::UNCHECKED);
    let row = Row::new(
        keys::UNCHECKED,
        "vkGetBufferMemoryRequirements (not checked)",
        d,
        Unit::Ns,
    )
    .figures(n, e, k)
    .rounds(m);
    let cmd = "vkGetBufferMemoryRequirements";
    let (pass, note) = match (
        m.proc_info(d, Config::None, cmd),
        m.proc_info(d, Config::Exportcheck, cmd),
    ) {
        (Some(a), Some(b)) => {
            let same = a.library == b.library && a.offset == b.offset && b.in_driver;
            let place = format!("{}+{:#x}", b.library, b.offset);
            let note = if same {
                format!("vkGetDeviceProcAddr gives the driver's own function ({place}), as without the layer")
            } else {
                format!(
                    "vkGetDeviceProcAddr gives {place}, without the layer {}+{:#x}",
                    a.library, a.offset
                )
            };
            (Some(same), note + &row.spread())
        }
        _ => (None, "pointer not recorded".to_string()),
    };
    row.judge("identical pointer (no added cost)", pass, note)
}

fn export_row(m: &Merged, d: Driver, key: &str) -> Row {
    let [n, e, k] = calls3(m, d, key);
    let cmd = keys::command(key).unwrap_or(key);
    let label = if key == keys::EXPORT_FD {
        format!("{cmd} (+ close)")
    } else {
        cmd.to_string()
    };
    let row = Row::new(key, &label, d, Unit::Ns)
        .figures(n, e, k)
        .rounds(m);
    let khronos_checks = m.proc_info(d, Config::Khronos, cmd).map(|p| !p.in_driver);
    let skipped = m.skipped.get(&(d, Config::Khronos, key.to_string()));
    let Some(added) = row.added_exportcheck else {
        return row.judge("", None, String::new());
    };
    let within = added <= EXPORT_ADDED_MAX_NS;
    let (pass, note) = match (khronos_checks, row.ratio) {
        _ if skipped.is_some() => (
            within,
            format!(
                "{} ns {} 30; no Khronos figure: {}",
                fmt_added(added),
                if within { "≤" } else { ">" },
                skipped.map_or("", |s| s.as_str())
            ),
        ),
        (Some(true), Some(ratio)) => {
            let factor = ratio >= EXPORT_KHRONOS_FACTOR;
            (
                within && factor,
                format!(
                    "{} ns {} 30; Khronos adds {} ({})",
                    fmt_added(added),
                    if within { "≤" } else { ">" },
                    fmt_ratio(ratio),
                    if factor { "≥ 10x" } else { "< 10x" }
                ),
            )
        }
        (Some(false), _) => (
            within,
            format!(
                "{} ns {} 30; the Khronos layer does not intercept {cmd} (10x not applicable)",
                fmt_added(added),
                if within { "≤" } else { ">" }
            ),
        ),
        _ => (
            within,
            format!("{} ns; no Khronos figure", fmt_added(added)),
        ),
    };
    let note = note + &row.spread();
    let target = "≤ 30 ns added, ≥ 10x less than Khronos";
    row.judge_resolved(target, EXPORT_ADDED_MAX_NS, Some(pass), note)
}

fn alloc_free_row(m: &Merged, d: Driver, key: &str) -> Row {
    let [n, e, k] = calls3(m, d, key);
    let label = if key == keys::ALLOC_FREE_RDMA {
        "vkAllocateMemory + vkFreeMemory (export OPAQUE_FD + RDMA_ADDRESS_NV)"
    } else {
        "vkAllocateMemory + vkFreeMemory (export OPAQUE_FD)"
    };
    let row = Row::new(key, label, d, Unit::Ns).figures(n, e, k).rounds(m);
    let pass = row.added_exportcheck.map(|a| a <= ALLOC_FREE_ADDED_MAX_NS);
    let note = row
        .added_exportcheck
        .map(|a| format!("{} ns per pair{}", fmt_added(a), row.spread()))
        .unwrap_or_default();
    row.judge_resolved(
        "≤ 100 ns added per pair",
        ALLOC_FREE_ADDED_MAX_NS,
        pass,
        note,
    )
}

/// A throughput cycle on one thread, in ns: compared with the allocate + free pair and the
/// export of one allocation, it shows what the first export of a fresh allocation costs.
fn cycle_row(m: &Merged, d: Driver, key: &str) -> Row {
    let [n, e, k] = calls3(m, d, key);
    let label = if key == keys::CYCLE_RDMA_AFTER {
        "allocate + RDMA export + free, one cycle, after the threaded runs"
    } else {
        "allocate + RDMA export + free, one cycle"
    };
    let row = Row::new(key, label, d, Unit::Ns).figures(n, e, k).rounds(m);
    let added =
        |key: &str| Some(m.call(d, Config::Exportcheck, key)? - m.call(d, Config::None, key)?);
    let note = match (row.added_exportcheck, key) {
        (Some(a), keys::CYCLE_RDMA_AFTER) => match added(keys::CYCLE_RDMA) {
            Some(before) => format!(
                "+{} ns per cycle once up to 8 threads have called the layer at once, against \
                 +{} ns in the same process before them{}",
                fmt_num(a),
                fmt_num(before),
                row.spread()
            ),
            None => String::new(),
        },
        (Some(a), _) => match (added(keys::ALLOC_FREE_RDMA), added(keys::EXPORT_RDMA)) {
            (Some(pair), Some(export)) => format!(
                "+{} ns per cycle, while the pair adds +{} ns and an export of a long-lived \
                 allocation +{} ns{}",
                fmt_num(a),
                fmt_num(pair),
                fmt_num(export),
                row.spread()
            ),
            _ => String::new(),
        },
        _ => String::new(),
    };
    Row { note, ..row }
}

/// The key of a throughput row.
pub fn throughput_key(export: CycleExport, threads: usize) -> String {
    format!("throughput_{}_{threads}", export.name())
}

fn throughput_row(m: &Merged, d: Driver, export: CycleExport, threads: usize) -> Row {
    let [n, e, k] = Config::ALL.map(|c| m.throughput.get(&(d, c, export, threads)).copied());
    let what = match export {
        CycleExport::Fd => "allocate + fd export + close + free",
        CycleExport::Rdma => "allocate + RDMA export + free",
    };
    let row = Row::new(
        &throughput_key(export, threads),
        &format!(
            "{what}, {threads} thread{}",
            if threads == 1 { "" } else { "s" }
        ),
        d,
        Unit::OpsPerSecond,
    )
    .figures(n, e, k);
    if threads != 8 {
        return row;
    }
    let pass = row.added_exportcheck.map(|p| p >= THROUGHPUT_MIN_PERCENT);
    let note = row
        .added_exportcheck
        .map(|p| format!("{p:.1}% of the throughput without a layer"))
        .unwrap_or_default();
    row.judge("≥ 90% of no-layer throughput", pass, note)
}

fn create_row(m: &Merged, d: Driver) -> Row {
    let [n, e, k] = calls3(m, d, keys::CREATE);
    let row = Row::new(
        keys::CREATE,
        "vkCreateInstance + vkCreateDevice",
        d,
        Unit::Ns,
    )
    .figures(n, e, k)
    .rounds(m);
    let pass = row.added_exportcheck.map(|a| a <= CREATE_ADDED_MAX_NS);
    let note = row
        .added_exportcheck
        .map(|a| {
            format!(
                "{}{:.3} ms",
                if a >= 0.0 { "+" } else { "−" },
                a.abs() / 1e6
            )
        })
        .unwrap_or_default()
        + &row.spread();
    row.judge("≤ 1 ms added", pass, note)
}

/// Memory per allocation and export cost with many live allocations (test driver).
fn memory_rows(m: &Merged) -> Vec<Row> {
    let d = Driver::TestDriver;
    let mut rows = Vec::new();
    let levels = m.scale_levels();
    for &live in levels.iter().filter(|&&l| l > FEW) {
        let [n, e, k] = Config::ALL.map(|c| m.bytes_per_allocation(c, live));
        let row = Row::new(
            &format!("memory_{live}"),
            &format!(
                "resident bytes per live allocation, {} live",
                fmt_count(live)
            ),
            d,
            Unit::Bytes,
        )
        .figures(n, e, k);
        let pass = row.added_exportcheck.map(|b| b <= BYTES_PER_ALLOCATION_MAX);
        let note = row
            .added_exportcheck
            .map(|b| format!("the layer keeps {b:.0} B per live allocation"))
            .unwrap_or_default();
        rows.push(row.judge("≤ 128 B of layer memory", pass, note));
    }
    let scale_keys = [
        (
            keys::SCALE_FD_SAME,
            "vkGetMemoryFdKHR (+ close), one allocation",
        ),
        (
            keys::SCALE_RDMA_SAME,
            "vkGetMemoryRemoteAddressNV, one allocation",
        ),
        (
            keys::SCALE_RDMA_CYCLE,
            "vkGetMemoryRemoteAddressNV, every live allocation in turn",
        ),
    ];
    for (key, label) in scale_keys {
        let at = |c: Config, live: u64| {
            m.scale_point(c, live)
                .and_then(|p| p.exports.get(key))
                .map(|t| t.ns_per_op)
        };
        let few_added = match (at(Config::Exportcheck, FEW), at(Config::None, FEW)) {
            (Some(e), Some(n)) => Some(e - n),
            _ => None,
        };
        for &live in &levels {
            let row = Row::new(
                &format!("scale_{key}_{live}"),
                &format!("{label}, {} live", fmt_count(live)),
                d,
                Unit::Ns,
            )
            .figures(
                at(Config::None, live),
                at(Config::Exportcheck, live),
                at(Config::Khronos, live),
            );
            if live == FEW || live != *levels.last().unwrap_or(&0) {
                rows.push(row);
                continue;
            }
            let (pass, note) = match (row.added_exportcheck, few_added) {
                (Some(a), Some(f)) => {
                    let limit = SCALE_MAX_FACTOR * f.max(0.0);
                    (
                        Some(a <= limit),
                        format!(
                            "+{} ns vs +{} ns with {FEW} live ({})",
                            fmt_num(a),
                            fmt_num(f),
                            if f > 0.0 {
                                format!("{:.1}x", a / f)
                            } else {
                                "no added cost with 10 live".to_string()
                            }
                        ),
                    )
                }
                _ => (None, String::new()),
            };
            rows.push(row.judge(&format!("added ≤ 2x added with {FEW} live"), pass, note));
        }
    }
    rows
}

/// A number of ns or bytes for notes: no decimals from 100 on.
/// An added amount with its sign: `+12.5`, `−3.0`.
pub fn fmt_added(x: f64) -> String {
    let sign = if x >= 0.0 { "+" } else { "−" };
    format!("{sign}{}", fmt_num(x.abs()))
}

pub fn fmt_num(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

pub fn fmt_ratio(r: f64) -> String {
    if r.is_infinite() {
        "∞".to_string()
    } else if r >= 100.0 {
        format!("{r:.0}x")
    } else {
        format!("{r:.1}x")
    }
}

/// 1000000 → "1,000,000".
pub fn fmt_count(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ChildResult, Mode, ProcInfo, Suite, Timing};

    #[test]
    fn figures_compute_added_costs_and_ratio() {
        let r = Row::new("export_fd", "m", Driver::TestDriver, Unit::Ns).figures(
            Some(100.0),
            Some(110.0),
            Some(300.0),
        );
        assert_eq!(r.added_exportcheck, Some(10.0));
        assert_eq!(r.added_khronos, Some(200.0));
        assert_eq!(r.ratio, Some(20.0));
        let r = Row::new("export_fd", "m", Driver::TestDriver, Unit::Ns).figures(
            Some(100.0),
            Some(99.0),
            Some(300.0),
        );
        assert_eq!(r.ratio, Some(f64::INFINITY));
        let create = Row::new("create", "m", Driver::TestDriver, Unit::Ns).figures(
            Some(100.0),
            Some(110.0),
            Some(300.0),
        );
        assert_eq!(create.ratio, None, "ratios only where a target uses them");
        let t = Row::new("k", "m", Driver::TestDriver, Unit::OpsPerSecond).figures(
            Some(200.0),
            Some(190.0),
            None,
        );
        assert_eq!(t.added_exportcheck, Some(95.0));
        assert_eq!(t.added_khronos, None);
        assert_eq!(t.ratio, None);
    }

    /// A calls-suite child of the test driver with one export and one unchecked figure.
    fn child(config: Config, export_ns: f64, proc_in_driver: bool) -> ChildResult {
        let timing = |ns: f64| Timing {
            ns_per_op: ns,
            batch: 1,
            samples: vec![ns],
        };
        let place = |in_driver: bool| ProcInfo {
            library: if in_driver {
                "libdriver.so"
            } else {
                "liblayer.so"
            }
            .into(),
            offset: if in_driver { 0x100 } else { 0x200 },
            symbol: None,
            in_driver,
        };
        ChildResult {
            driver: Driver::TestDriver,
            config,
            suite: Suite::Calls,
            mode: Mode::Full,
            round: 0,
            calls: [
                (keys::EXPORT_RDMA.to_string(), timing(export_ns)),
                (keys::UNCHECKED.to_string(), timing(50.0)),
            ]
            .into(),
            procs: [
                (
                    "vkGetBufferMemoryRequirements".to_string(),
                    place(proc_in_driver),
                ),
                (
                    "vkGetMemoryRemoteAddressNV".to_string(),
                    place(config == Config::None),
                ),
            ]
            .into(),
            throughput: vec![],
            scale: vec![],
            skipped: Default::default(),
            layer_log_lines: 0,
            wall_seconds: 0.0,
        }
    }

    #[test]
    fn export_and_unchecked_verdicts() {
        let verdicts = |e_ns: f64, k_ns: f64, unchecked_in_driver: bool| {
            let m = Merged::new(&[
                child(Config::None, 100.0, true),
                child(Config::Exportcheck, e_ns, unchecked_in_driver),
                child(Config::Khronos, k_ns, false),
            ]);
            let rows = rows(&m, &[Driver::TestDriver]);
            let get = |key: &str| rows.iter().find(|r| r.key == key).unwrap().verdict;
            (get(keys::EXPORT_RDMA), get(keys::UNCHECKED))
        };
        // +10 ns, Khronos +200 ns: both targets met; the unchecked call keeps the driver's pointer.
        assert_eq!(verdicts(110.0, 300.0, true), (Verdict::Pass, Verdict::Pass));
        // +25 ns is under 30 ns but Khronos adds only 4x as much.
        assert_eq!(verdicts(125.0, 200.0, true).0, Verdict::Miss);
        // +40 ns is over 30 ns.
        assert_eq!(verdicts(140.0, 10_000.0, true).0, Verdict::Miss);
        // The layer's own function handed out for an unchecked call.
        assert_eq!(verdicts(110.0, 300.0, false).1, Verdict::Miss);
    }

    #[test]
    fn rounds_that_disagree_by_more_than_the_target_are_not_judged() {
        let row = |by_round: Vec<f64>| {
            let mut r = Row::new(keys::ALLOC_FREE, "m", Driver::Lavapipe, Unit::Ns).figures(
                Some(17_000.0),
                Some(17_050.0),
                None,
            );
            r.added_exportcheck_by_round = by_round;
            r
        };
        let judged = row(vec![40.0, 60.0, 55.0]).judge_resolved("t", 100.0, Some(true), "n".into());
        assert_eq!(judged.verdict, Verdict::Pass);
        let noisy =
            row(vec![-589.0, 166.0, 498.0]).judge_resolved("t", 100.0, Some(false), "n".into());
        assert_eq!(noisy.verdict, Verdict::None);
        assert!(noisy.note.starts_with("not judged"), "{}", noisy.note);
        let one_round = row(vec![500.0]).judge_resolved("t", 100.0, Some(false), "n".into());
        assert_eq!(
            one_round.verdict,
            Verdict::Miss,
            "one round cannot disagree with itself"
        );
    }

    #[test]
    fn counts_and_ratios_format() {
        assert_eq!(fmt_count(1_000_000), "1,000,000");
        assert_eq!(fmt_count(10), "10");
        assert_eq!(fmt_count(100_000), "100,000");
        assert_eq!(fmt_ratio(f64::INFINITY), "∞");
        assert_eq!(fmt_ratio(12.34), "12.3x");
        assert_eq!(fmt_num(1234.5), "1234");
    }
}
