//! Combines the children's results: per-call timings pooled over rounds (median of every batch of
//! every round), throughput as the median over rounds.

use std::collections::BTreeMap;

use crate::model::{ChildResult, Config, CycleExport, Driver, ProcInfo, ScalePoint, Suite};
use crate::timing::median;

/// Every child's results, indexed.
#[derive(Default)]
pub struct Merged {
    /// (driver, config, key) → median ns/op over all batches of all rounds.
    pub calls: BTreeMap<(Driver, Config, String), f64>,
    /// (driver, config, key) → round → that round's median ns/op.
    pub by_round: BTreeMap<(Driver, Config, String), BTreeMap<usize, f64>>,
    /// (driver, config, command) → where `vkGetDeviceProcAddr` pointed (first round).
    pub procs: BTreeMap<(Driver, Config, String), ProcInfo>,
    /// (driver, config, export, threads) → median ops/s over rounds.
    pub throughput: BTreeMap<(Driver, Config, CycleExport, usize), f64>,
    /// config → the memory suite's points (test driver).
    pub scale: BTreeMap<Config, Vec<ScalePoint>>,
    /// (driver, config, key) → why a measurement was not made.
    pub skipped: BTreeMap<(Driver, Config, String), String>,
}

impl Merged {
    pub fn new(children: &[ChildResult]) -> Merged {
        let mut m = Merged::default();
        let mut samples: BTreeMap<(Driver, Config, String), Vec<f64>> = BTreeMap::new();
        let mut tput: BTreeMap<(Driver, Config, CycleExport, usize), Vec<f64>> = BTreeMap::new();
        for c in children {
            match c.suite {
                Suite::Calls => {
                    for (key, t) in &c.calls {
                        m.by_round
                            .entry((c.driver, c.config, key.clone()))
                            .or_default()
                            .insert(c.round, t.ns_per_op);
                        samples
                            .entry((c.driver, c.config, key.clone()))
                            .or_default()
                            .extend(&t.samples);
                    }
                    for (name, p) in &c.procs {
                        m.procs
                            .entry((c.driver, c.config, name.clone()))
                            .or_insert_with(|| p.clone());
                    }
                    for (key, why) in &c.skipped {
                        m.skipped
                            .insert((c.driver, c.config, key.clone()), why.clone());
                    }
                    for p in &c.throughput {
                        tput.entry((c.driver, c.config, p.export, p.threads))
                            .or_default()
                            .push(p.ops_per_s);
                    }
                }
                Suite::Memory => {
                    m.scale.insert(c.config, c.scale.clone());
                }
            }
        }
        m.calls = samples.into_iter().map(|(k, v)| (k, median(&v))).collect();
        m.throughput = tput.into_iter().map(|(k, v)| (k, median(&v))).collect();
        m
    }

    pub fn call(&self, driver: Driver, config: Config, key: &str) -> Option<f64> {
        self.calls.get(&(driver, config, key.to_string())).copied()
    }

    /// What `config` adds to `key` in each round (its child minus the no-layer child of the same
    /// round): the spread shows how much of a figure is noise between processes.
    pub fn added_by_round(&self, driver: Driver, config: Config, key: &str) -> Vec<f64> {
        let get = |c: Config| self.by_round.get(&(driver, c, key.to_string()));
        let (Some(none), Some(with)) = (get(Config::None), get(config)) else {
            return Vec::new();
        };
        with.iter()
            .filter_map(|(round, w)| Some(w - none.get(round)?))
            .collect()
    }

    pub fn proc_info(&self, driver: Driver, config: Config, command: &str) -> Option<&ProcInfo> {
        self.procs.get(&(driver, config, command.to_string()))
    }

    /// The scale point of `config` with `live` allocations.
    pub fn scale_point(&self, config: Config, live: u64) -> Option<&ScalePoint> {
        self.scale.get(&config)?.iter().find(|p| p.live == live)
    }

    /// Resident bytes per allocation between the first point and the one with `live` live.
    pub fn bytes_per_allocation(&self, config: Config, live: u64) -> Option<f64> {
        let points = self.scale.get(&config)?;
        let first = points.first()?;
        let p = points.iter().find(|p| p.live == live)?;
        (p.live > first.live)
            .then(|| (p.rss_bytes as f64 - first.rss_bytes as f64) / (p.live - first.live) as f64)
    }

    /// Every live count measured by the memory suite (of any configuration).
    pub fn scale_levels(&self) -> Vec<u64> {
        let mut levels: Vec<u64> = self
            .scale
            .values()
            .flat_map(|ps| ps.iter().map(|p| p.live))
            .collect();
        levels.sort_unstable();
        levels.dedup();
        levels
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Mode, ThroughputPoint, Timing};

    fn child(config: Config, round: usize, samples: Vec<f64>, ops: f64) -> ChildResult {
        ChildResult {
            driver: Driver::TestDriver,
            config,
            suite: Suite::Calls,
            mode: Mode::Quick,
            round,
            calls: [(
                "export_fd".to_string(),
                Timing {
                    ns_per_op: median(&samples),
                    batch: 1,
                    samples,
                },
            )]
            .into(),
            procs: Default::default(),
            throughput: vec![ThroughputPoint {
                export: CycleExport::Fd,
                threads: 8,
                ops_per_s: ops,
                ops: 1,
                seconds: 1.0,
            }],
            scale: vec![],
            skipped: Default::default(),
            layer_log_lines: 0,
            wall_seconds: 0.0,
        }
    }

    #[test]
    fn rounds_are_pooled() {
        let m = Merged::new(&[
            child(Config::None, 0, vec![1.0, 2.0, 3.0], 10.0),
            child(Config::None, 1, vec![4.0, 5.0], 30.0),
            child(Config::None, 2, vec![6.0], 20.0),
        ]);
        assert_eq!(
            m.call(Driver::TestDriver, Config::None, "export_fd"),
            Some(3.5)
        );
        assert_eq!(
            m.throughput[&(Driver::TestDriver, Config::None, CycleExport::Fd, 8)],
            20.0
        );
        assert_eq!(m.call(Driver::Lavapipe, Config::None, "export_fd"), None);
    }
}
