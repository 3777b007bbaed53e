//! The parent: runs one child per (round, driver, configuration, suite), collects their JSON,
//! prints the table and writes `target/bench/results.json`.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::child::ChildArgs;
use crate::instructions::{self, Instructions};
use crate::merge::Merged;
use crate::model::{ChildResult, Config, Driver, Mode, Suite};
use crate::report::{self, Row, Verdict};
use crate::reporting_child::run_reporting_child;
use crate::setup::{self, LibraryInfo, Paths};
use crate::table;

/// Options of a benchmark run.
#[derive(Debug, Default)]
pub struct Options {
    pub quick: bool,
    pub rounds: Option<usize>,
    pub out: Option<PathBuf>,
    pub layer: Option<PathBuf>,
    pub test_driver: Option<PathBuf>,
    pub drivers: Option<Vec<Driver>>,
    pub configs: Option<Vec<Config>>,
    pub fail_on_miss: bool,
    pub instructions: InstructionChoice,
}

/// Whether a run counts instructions (under callgrind) besides timing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InstructionChoice {
    /// Timings, then instruction counts when valgrind is present (the default).
    #[default]
    Both,
    /// Instruction counts only (`--instructions`).
    Only,
    /// Timings only (`--no-instructions`).
    Off,
}

pub const USAGE: &str = "\
usage: exportcheck-bench [--quick] [--rounds N] [--drivers test-driver,lavapipe] [--out FILE]
                         [--configs none,exportcheck,khronos] [--layer LIB] [--test-driver LIB]
                         [--fail-on-miss] [--instructions | --no-instructions]
       exportcheck-bench plot [RESULTS] [--out-dir DIR]

Measures what exportcheck adds to Vulkan calls, through the real loader, on the test driver and
on lavapipe, against no layer and the Khronos validation layer. Prints a table and writes
target/bench/results.json (--quick: target/bench/results-quick.json).
Then, when valgrind is installed, counts the instructions per call on the test driver under
callgrind (deterministic: the same figures every run) and prints a second table.
--instructions counts instructions only (seconds; target/bench/results-instructions.json);
--no-instructions times only.
Exit status: 0 when every measurement ran (1 if one failed; 2 with --fail-on-miss and a target,
timing or instructions, missed).";

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{a} needs a value"))
            };
            match a.as_str() {
                "--quick" => o.quick = true,
                "--full" => o.quick = false,
                "--fail-on-miss" => o.fail_on_miss = true,
                "--instructions" => o.instructions = InstructionChoice::Only,
                "--no-instructions" => o.instructions = InstructionChoice::Off,
                "--rounds" => {
                    let v = value()?;
                    let n: usize = v.parse().map_err(|_| format!("bad --rounds {v:?}"))?;
                    o.rounds = Some(n.max(1));
                }
                "--out" => o.out = Some(value()?.into()),
                "--layer" => o.layer = Some(value()?.into()),
                "--test-driver" => o.test_driver = Some(value()?.into()),
                "--drivers" => {
                    let v = value()?;
                    let list = v
                        .split(',')
                        .map(|d| {
                            Driver::parse(d.trim()).ok_or_else(|| format!("unknown driver {d:?}"))
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    o.drivers = Some(list);
                }
                "--configs" => {
                    let v = value()?;
                    let list = v
                        .split(',')
                        .map(|c| {
                            Config::parse(c.trim())
                                .ok_or_else(|| format!("unknown configuration {c:?}"))
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    o.configs = Some(list);
                }
                _ => return Err(format!("unknown argument {a:?}\n\n{USAGE}")),
            }
        }
        Ok(o)
    }

    pub fn mode(&self) -> Mode {
        if self.quick {
            Mode::Quick
        } else {
            Mode::Full
        }
    }
}

/// The machine the figures come from.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    pub cpus: usize,
    pub kernel: String,
    pub cpu_model: String,
}

impl Machine {
    fn probe() -> Machine {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        Machine {
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            kernel: read("/proc/sys/kernel/osrelease").trim().to_string(),
            cpu_model: read("/proc/cpuinfo")
                .lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
                .unwrap_or_default(),
        }
    }
}

/// `results.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    pub mode: Mode,
    /// Timing rounds; 0 in an instructions-only run (`--instructions`).
    pub rounds: usize,
    pub machine: Machine,
    /// The layer and test driver builds measured (copied at the start of the run).
    pub layer: LibraryInfo,
    pub test_driver: LibraryInfo,
    pub test_driver_config: String,
    pub drivers: Vec<Driver>,
    pub configs: Vec<Config>,
    pub rows: Vec<Row>,
    /// Children that failed, with why.
    pub failures: Vec<String>,
    pub wall_seconds: f64,
    /// Every child's own result (per-batch samples included).
    pub children: Vec<ChildResult>,
    /// Instructions per call under callgrind (absent in a `--no-instructions` run).
    #[serde(default)]
    pub instructions: Option<Instructions>,
}

/// One child to run.
struct Job {
    args: ChildArgs,
    label: String,
}

fn jobs(
    paths: &Paths,
    mode: Mode,
    rounds: usize,
    drivers: &[Driver],
    configs: &[Config],
) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    let job = |driver: Driver, config: Config, suite: Suite, round: usize| -> Result<Job, String> {
        Ok(Job {
            label: format!("{driver}-{config}-{}-r{round}", suite.name()),
            args: ChildArgs {
                driver,
                config,
                suite,
                mode,
                round,
                driver_library: paths.driver_library_name(driver)?,
            },
        })
    };
    for round in 0..rounds {
        for &driver in drivers {
            // Rotate the order each round, so no configuration always runs first or last.
            for i in 0..configs.len() {
                let config = configs[(i + round) % configs.len()];
                jobs.push(job(driver, config, Suite::Calls, round)?);
            }
        }
    }
    if drivers.contains(&Driver::TestDriver) {
        for &config in configs {
            jobs.push(job(Driver::TestDriver, config, Suite::Memory, 0)?);
        }
    }
    Ok(jobs)
}

/// Runs one child; its stdout is scanned for the result line, anything else is passed on to
/// stderr.
fn run_child(paths: &Paths, job: &Job) -> Result<ChildResult, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.args(job.args.to_args())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let log = paths.configure(&mut cmd, job.args.driver, &job.label)?;
    let start = Instant::now();
    let mut result: ChildResult = run_reporting_child(&mut cmd, &job.label)?;
    result.wall_seconds = start.elapsed().as_secs_f64();
    result.layer_log_lines = std::fs::read_to_string(&log)
        .map(|t| t.lines().count())
        .unwrap_or(0);
    Ok(result)
}

fn default_out(paths: &Paths, mode: Mode, choice: InstructionChoice) -> PathBuf {
    paths.bench_dir.join(match (choice, mode) {
        (InstructionChoice::Only, _) => "results-instructions.json",
        (_, Mode::Quick) => "results-quick.json",
        (_, Mode::Full) => "results.json",
    })
}

/// Runs the benchmark; returns the process exit code.
pub fn main(opts: &Options) -> Result<u8, String> {
    let mode = opts.mode();
    let rounds = opts.rounds.unwrap_or(match mode {
        Mode::Quick => 1,
        Mode::Full => 3,
    });
    let mut paths = Paths::new(opts.layer.clone(), opts.test_driver.clone())?;
    let only_instructions = opts.instructions == InstructionChoice::Only;
    let mut drivers = opts.drivers.clone().unwrap_or(Driver::ALL.to_vec());
    if only_instructions {
        // The instruction counts run on the test driver only.
        drivers = vec![Driver::TestDriver];
    }
    require(
        &paths.layer_library,
        "the layer (cargo build --release -p exportcheck-layer)",
    )?;
    if drivers.contains(&Driver::TestDriver) {
        require(
            &paths.test_driver_library,
            "the test driver (cargo build --release -p exportcheck-test-icd)",
        )?;
    }
    if drivers.contains(&Driver::Lavapipe) && !Path::new(setup::LAVAPIPE_ICD).exists() {
        eprintln!(
            "exportcheck-bench: {} is missing (install mesa-vulkan-drivers): lavapipe skipped",
            setup::LAVAPIPE_ICD
        );
        drivers.retain(|d| *d != Driver::Lavapipe);
    }
    let mut configs = opts.configs.clone().unwrap_or(Config::ALL.to_vec());
    if configs.contains(&Config::Khronos) && !Path::new(setup::KHRONOS_MANIFEST).exists() {
        eprintln!(
            "exportcheck-bench: {} is missing (install vulkan-validationlayers): the Khronos configuration is skipped",
            setup::KHRONOS_MANIFEST
        );
        configs.retain(|c| *c != Config::Khronos);
    }
    let [layer, test_driver] = paths.snapshot_libraries()?;
    paths.write_manifests()?;
    let jobs = if only_instructions {
        Vec::new()
    } else {
        jobs(&paths, mode, rounds, &drivers, &configs)?
    };
    let start = Instant::now();
    let mut children = Vec::new();
    let mut failures = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        eprint!("[{:>2}/{}] {:<40}", i + 1, jobs.len(), job.label);
        match run_child(&paths, job) {
            Ok(r) => {
                eprintln!(" {:6.1} s", r.wall_seconds);
                if r.layer_log_lines > 0 {
                    eprintln!(
                        "        the layer logged {} line(s): {}",
                        r.layer_log_lines,
                        paths.log_file(&job.label).display()
                    );
                }
                children.push(r);
            }
            Err(e) => {
                eprintln!(" FAILED: {e}");
                failures.push(e);
            }
        }
    }
    let merged = Merged::new(&children);
    let rows = report::rows(&merged, &drivers);
    let instructions = match opts.instructions {
        InstructionChoice::Off => None,
        _ => {
            let i = instructions::run(&paths, &configs, drivers.contains(&Driver::TestDriver));
            if let Some(why) = &i.skipped {
                eprintln!("exportcheck-bench: {why}: instruction counts skipped");
            }
            failures.extend(i.failures.iter().cloned());
            Some(i)
        }
    };
    let results = Results {
        mode,
        rounds: if only_instructions { 0 } else { rounds },
        machine: Machine::probe(),
        layer,
        test_driver,
        test_driver_config: setup::TEST_DRIVER_CONFIG.to_string(),
        drivers,
        configs,
        rows,
        failures,
        wall_seconds: start.elapsed().as_secs_f64(),
        children,
        instructions,
    };
    print_summary(&results);
    let out = opts
        .out
        .clone()
        .unwrap_or_else(|| default_out(&paths, mode, opts.instructions));
    write_results(&out, &results)?;
    eprintln!("exportcheck-bench: wrote {}", out.display());
    let instructions_missed = results.instructions.as_ref().map_or(0, |i| i.missed());
    Ok(if !results.failures.is_empty() {
        1
    } else if opts.fail_on_miss
        && (results.rows.iter().any(|r| r.verdict == Verdict::Miss) || instructions_missed > 0)
    {
        2
    } else {
        0
    })
}

fn require(path: &Path, what: &str) -> Result<(), String> {
    if path.exists() {
        Ok(())
    } else {
        Err(format!("{} is missing: build {what}", path.display()))
    }
}

/// Prints the timing table (unless the run counted instructions only), then the instruction
/// table last, so that a `tail` of the output shows it.
fn print_summary(r: &Results) {
    let only_instructions = r.rounds == 0;
    if only_instructions {
        println!(
            "exportcheck-bench: instruction counts, {:.0} s",
            r.wall_seconds
        );
    } else {
        println!(
            "exportcheck-bench: {} mode, {} round(s), {} CPUs ({}), {:.0} s",
            r.mode.name(),
            r.rounds,
            r.machine.cpus,
            r.machine.cpu_model,
            r.wall_seconds
        );
    }
    println!(
        "layer: {} ({} bytes, fnv1a64 {}); test driver config: {}",
        r.layer.source, r.layer.bytes, r.layer.fnv1a64, r.test_driver_config
    );
    println!();
    if !only_instructions {
        print!("{}", table::render(&r.rows));
        println!();
        print!("{}", table::notes(&r.rows));
        let passed = r.rows.iter().filter(|x| x.verdict == Verdict::Pass).count();
        let missed = r.rows.iter().filter(|x| x.verdict == Verdict::Miss).count();
        println!();
        println!("targets: {passed} met, {missed} missed");
    }
    if let Some(i) = &r.instructions {
        if !only_instructions {
            println!();
        }
        print!("{}", instructions::summary(i));
    }
    for f in &r.failures {
        println!("FAILED: {f}");
    }
}

fn write_results(path: &Path, r: &Results) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(r).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a `results.json`.
pub fn read_results(path: &Path) -> Result<Results, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse() {
        let args: Vec<String> = [
            "--quick",
            "--rounds",
            "2",
            "--drivers",
            "lavapipe,test",
            "--configs",
            "none,exportcheck",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let o = Options::parse(&args).unwrap();
        assert_eq!(o.mode(), Mode::Quick);
        assert_eq!(o.rounds, Some(2));
        assert_eq!(o.drivers, Some(vec![Driver::Lavapipe, Driver::TestDriver]));
        assert_eq!(o.configs, Some(vec![Config::None, Config::Exportcheck]));
        assert!(Options::parse(&["--configs".to_string(), "gpu".to_string()]).is_err());
        assert!(Options::parse(&["--bogus".to_string()]).is_err());
        assert!(Options::parse(&["--rounds".to_string()]).is_err());
        assert_eq!(Options::parse(&[]).unwrap().mode(), Mode::Full);
        assert_eq!(
            Options::parse(&[]).unwrap().instructions,
            InstructionChoice::Both
        );
        let only = Options::parse(&["--quick".to_string(), "--instructions".to_string()]).unwrap();
        assert_eq!(only.instructions, InstructionChoice::Only);
        assert_eq!(
            Options::parse(&["--no-instructions".to_string()])
                .unwrap()
                .instructions,
            InstructionChoice::Off
        );
    }
}
