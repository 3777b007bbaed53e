//! Instruction counts: what the layer adds to a call in instructions, counted by valgrind's
//! callgrind, a figure that does not move with the machine's noise (docs/performance.md,
//! "Instruction counts (deterministic)").
//!
//! The parent runs one child per configuration on the test driver, under
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=SYMBOL --dump-after=SYMBOL`,
//! where SYMBOL is [`exportcheck_bench_counted`](crate::counted::exportcheck_bench_counted): nothing is counted but the calls made inside
//! it, and callgrind writes one profile (`callgrind.out.K`, K = 1, 2, ...) each time it returns.
//! The child warms each operation up outside it, then calls it with N and with 2N iterations;
//! it prints which (operation, iterations) each call was. Per operation, instructions per call
//! = (Ir(2N) − Ir(N)) / N, so what happens once per measurement (the call of the counted
//! function, a lazy initialisation, a thread-local's first use) cancels out.

use ash::vk;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::counted::{count, ChildCounts, Count, Op, ALLOCATION_SIZE, ITERATIONS, SYMBOL, WARMUP};
use crate::model::{Config, Driver, RESULT_MARKER};
use crate::report::Verdict;
use crate::setup::Paths;
use crate::vkctx::{ExportKind, Vk};

// ---------------------------------------------------------------------------------------------
// The child.

/// `exportcheck-bench instructions-child --config C [--iterations N]`, run under callgrind by
/// the parent with the loader's environment set.
pub fn child_main(args: &[String]) -> Result<(), String> {
    let mut config = None;
    let mut n = ITERATIONS;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--config" => config = Config::parse(value),
            "--iterations" => n = value.parse().map_err(|_| format!("bad {flag} {value:?}"))?,
            _ => return Err(format!("unknown instructions-child argument {flag}")),
        }
    }
    let config = config.ok_or("--config none|exportcheck|khronos is required")?;
    // SAFETY: loads the system's Vulkan loader (libvulkan.so.1); the parent set its environment.
    let entry =
        unsafe { ash::Entry::load() }.map_err(|e| format!("loading libvulkan.so.1: {e}"))?;
    let vk = Vk::new(&entry, Driver::TestDriver, config)?;
    let mut out = ChildCounts {
        fixed_addresses: randomization_off(),
        ..Default::default()
    };
    for op in Op::ALL {
        count_op(&vk, config, op, n, &mut out)?;
    }
    let json = serde_json::to_string(&out).map_err(|e| e.to_string())?;
    println!("{RESULT_MARKER}{json}");
    Ok(())
}

/// Whether this process runs with `ADDR_NO_RANDOMIZE`.
fn randomization_off() -> bool {
    // SAFETY: 0xffffffff only queries the execution domain.
    let persona = unsafe { libc::personality(0xffff_ffff) };
    persona != -1 && persona & libc::ADDR_NO_RANDOMIZE != 0
}

/// Sets `op` up (an allocation to export, a buffer), counts it, and tears it down.
fn count_op(vk: &Vk, config: Config, op: Op, n: u64, out: &mut ChildCounts) -> Result<(), String> {
    let export_memory = |kind: ExportKind| {
        vk.allocate(kind, ALLOCATION_SIZE)
            .map_err(|e| format!("vkAllocateMemory ({kind:?}): {e:?}"))
    };
    let missing = |command: &str| format!("vkGetDeviceProcAddr({command}) returns NULL");
    match op {
        Op::ExportFd => {
            let memory = export_memory(ExportKind::Fd)?;
            let r = count(config, op, n, out, &mut || vk.export_fd_and_close(memory));
            vk.free(memory);
            r
        }
        Op::AllocFree => count(config, op, n, out, &mut || match vk
            .allocate(ExportKind::Fd, ALLOCATION_SIZE)
        {
            Ok(m) => {
                vk.free(m);
                vk::Result::SUCCESS
            }
            Err(e) => e,
        }),
        Op::Unchecked => {
            let info = vk::BufferCreateInfo::default()
                .size(ALLOCATION_SIZE)
                .usage(vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST);
            // SAFETY: valid device and create info.
            let buffer = unsafe { vk.device.create_buffer(&info, None) }
                .map_err(|e| format!("vkCreateBuffer: {e:?}"))?;
            // ash loaded it with vkGetDeviceProcAddr.
            let f = vk.device.fp_v1_0().get_buffer_memory_requirements;
            let device = vk.device.handle();
            let r = count(config, op, n, out, &mut || {
                let mut reqs = vk::MemoryRequirements::default();
                // SAFETY: valid device, buffer and output.
                unsafe { f(device, buffer, &mut reqs) };
                std::hint::black_box(&reqs);
                vk::Result::SUCCESS
            });
            // SAFETY: the buffer is no longer used.
            unsafe { vk.device.destroy_buffer(buffer, None) };
            r
        }
        Op::ExportRdma => {
            let Some(f) = vk.get_remote_address else {
                out.skipped
                    .insert(op, missing("vkGetMemoryRemoteAddressNV"));
                return Ok(());
            };
            let memory = export_memory(ExportKind::FdAndRdma)?;
            let r = count(config, op, n, out, &mut || vk.export_rdma(f, memory));
            vk.free(memory);
            r
        }
        Op::ExportWin32 => {
            let Some(f) = vk.get_win32_handle else {
                out.skipped.insert(op, missing("vkGetMemoryWin32HandleNV"));
                return Ok(());
            };
            let memory = export_memory(ExportKind::Win32)?;
            let r = count(config, op, n, out, &mut || vk.export_win32(f, memory));
            vk.free(memory);
            r
        }
        Op::ExportMetal => {
            let Some(f) = vk.get_metal_handle else {
                out.skipped.insert(op, missing("vkGetMemoryMetalHandleEXT"));
                return Ok(());
            };
            let memory = export_memory(ExportKind::Metal)?;
            let r = count(config, op, n, out, &mut || vk.export_metal(f, memory));
            vk.free(memory);
            r
        }
        Op::ExportWin32Khr => {
            let Some(f) = vk.get_win32_handle_khr else {
                out.skipped.insert(op, missing("vkGetMemoryWin32HandleKHR"));
                return Ok(());
            };
            let memory = export_memory(ExportKind::Win32Kmt)?;
            let r = count(config, op, n, out, &mut || vk.export_win32_kmt(f, memory));
            vk.free(memory);
            r
        }
        Op::ExportZircon => {
            let Some(f) = vk.get_zircon_handle else {
                out.skipped
                    .insert(op, missing("vkGetMemoryZirconHandleFUCHSIA"));
                return Ok(());
            };
            let memory = export_memory(ExportKind::Zircon)?;
            let r = count(config, op, n, out, &mut || vk.export_zircon(f, memory));
            vk.free(memory);
            r
        }
        Op::QueryFdProperties => {
            let Some(f) = vk.get_fd_properties else {
                out.skipped
                    .insert(op, missing("vkGetMemoryFdPropertiesKHR"));
                return Ok(());
            };
            // A dma-buf fd the driver exported: a handle of the queried type, open throughout.
            let memory = export_memory(ExportKind::DmaBuf)?;
            let fd = match vk.export_dma_buf(memory) {
                Ok(fd) => fd,
                Err(e) => {
                    vk.free(memory);
                    return Err(format!("vkGetMemoryFdKHR (DMA_BUF): {e:?}"));
                }
            };
            let r = count(config, op, n, out, &mut || vk.query_fd_properties(f, fd));
            // SAFETY: the exported fd belongs to the application and is no longer used.
            unsafe { libc::close(fd) };
            vk.free(memory);
            r
        }
        Op::QueryHostPointerProperties => {
            let Some(f) = vk.get_host_pointer_properties else {
                out.skipped
                    .insert(op, missing("vkGetMemoryHostPointerPropertiesEXT"));
                return Ok(());
            };
            // Host memory with an address aligned to minImportedHostPointerAlignment
            // (VUID-vkGetMemoryHostPointerPropertiesEXT-pHostPointer-01753).
            let alignment = vk.min_imported_host_pointer_alignment() as usize;
            if !alignment.is_power_of_two() {
                return Err(format!("minImportedHostPointerAlignment is {alignment}"));
            }
            let buffer = vec![0u8; 2 * alignment];
            let pointer = buffer
                .as_ptr()
                .wrapping_add(buffer.as_ptr().align_offset(alignment));
            let r = count(config, op, n, out, &mut || {
                vk.query_host_pointer_properties(f, pointer.cast())
            });
            drop(buffer);
            r
        }
        Op::ExportAhb
        | Op::QueryWin32Properties
        | Op::QueryZirconProperties
        | Op::QueryAhbProperties
        | Op::ImportFd
        | Op::ImportHostPointer => crate::sharing_counts::count_op(vk, config, op, n, out),
        Op::CreateDestroySemaphore
        | Op::SubmitPlainSemaphore
        | Op::ExportSemaphoreFd
        | Op::ImportSemaphoreFd
        | Op::SubmitSharedSemaphore => crate::semaphore_counts::count_op(vk, config, op, n, out),
    }
}

// ---------------------------------------------------------------------------------------------
// The parent.

/// One configuration's child: what callgrind counted.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ConfigCounts {
    pub config: Config,
    /// Whether the child ran with address-space randomisation off.
    #[serde(default)]
    pub fixed_addresses: bool,
    pub counts: Vec<Count>,
    pub skipped: BTreeMap<Op, String>,
    /// Lines the layers wrote to their log file.
    pub layer_log_lines: usize,
    pub wall_seconds: f64,
}

impl ConfigCounts {
    /// Instructions per call of `op`: (Ir(2N) − Ir(N)) / N.
    pub fn per_call(&self, op: Op) -> Option<f64> {
        let ir = |k: u64| {
            self.counts
                .iter()
                .find(|c| c.op == op && c.iterations == k)
                .map(|c| c.ir)
        };
        let n = self
            .counts
            .iter()
            .filter(|c| c.op == op)
            .map(|c| c.iterations)
            .min()?;
        let (one, two) = (ir(n)?, ir(2 * n)?);
        Some((two as f64 - one as f64) / n as f64)
    }
}

/// One row of the instruction table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InstructionRow {
    pub op: Op,
    pub operation: String,
    /// Instructions per call of each configuration.
    pub none: Option<f64>,
    pub exportcheck: Option<f64>,
    pub khronos: Option<f64>,
    /// With the layer − without.
    pub added_exportcheck: Option<f64>,
    pub added_khronos: Option<f64>,
    /// The most instructions the layer may add.
    pub target_max: u64,
    pub verdict: Verdict,
    /// Why a figure is missing.
    #[serde(default)]
    pub note: String,
}

/// The instruction counts of a run (`instructions` in results.json).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Instructions {
    /// Why nothing was counted (valgrind missing, no test driver), if so.
    pub skipped: Option<String>,
    /// `valgrind --version`.
    pub valgrind: String,
    pub driver: Option<Driver>,
    /// N (the counted calls run N and 2N iterations).
    pub iterations: u64,
    pub warmup: u64,
    pub allocation_size: u64,
    pub configs: Vec<ConfigCounts>,
    pub rows: Vec<InstructionRow>,
    /// Children that failed, with why.
    pub failures: Vec<String>,
    pub wall_seconds: f64,
}

impl Instructions {
    pub fn missed(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict == Verdict::Miss)
            .count()
    }
}

/// `valgrind --version`, or None when valgrind cannot be run.
pub fn valgrind_version() -> Option<String> {
    let out = Command::new("valgrind")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Counts every operation in each configuration (a child each, under callgrind).
pub fn run(paths: &Paths, configs: &[Config], test_driver: bool) -> Instructions {
    let mut result = Instructions {
        iterations: ITERATIONS,
        warmup: WARMUP,
        allocation_size: ALLOCATION_SIZE,
        ..Default::default()
    };
    if !test_driver {
        result.skipped = Some("the instruction counts run on the test driver only".into());
        return result;
    }
    let Some(version) = valgrind_version() else {
        result.skipped = Some("valgrind not found (install valgrind)".into());
        return result;
    };
    result.valgrind = version;
    result.driver = Some(Driver::TestDriver);
    let start = Instant::now();
    for (i, &config) in configs.iter().enumerate() {
        let label = format!("instructions-{}-{config}", Driver::TestDriver);
        eprint!("[{:>2}/{}] {:<40}", i + 1, configs.len(), label);
        match run_child(paths, config, &label) {
            Ok(c) => {
                eprintln!(" {:6.1} s", c.wall_seconds);
                result.configs.push(c);
            }
            Err(e) => {
                eprintln!(" FAILED: {e}");
                result.failures.push(format!("{label}: {e}"));
            }
        }
    }
    result.rows = rows(&result.configs);
    result.wall_seconds = start.elapsed().as_secs_f64();
    result
}

/// Where the callgrind profiles of `label` go.
fn out_dir(paths: &Paths, label: &str) -> PathBuf {
    paths.bench_dir.join("callgrind").join(label)
}

fn run_child(paths: &Paths, config: Config, label: &str) -> Result<ConfigCounts, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = out_dir(paths, label);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut cmd = Command::new("valgrind");
    cmd.arg("--tool=callgrind")
        .arg("-q")
        .arg("--collect-atstart=no")
        .arg(format!("--toggle-collect={SYMBOL}"))
        .arg(format!("--dump-after={SYMBOL}"))
        .arg(format!(
            "--callgrind-out-file={}",
            dir.join("callgrind.out").display()
        ))
        .arg(&exe)
        .args(["instructions-child", "--config", config.name()])
        .args(["--iterations", &ITERATIONS.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let log = paths.configure(&mut cmd, Driver::TestDriver, label)?;
    no_randomization(&mut cmd);
    let start = Instant::now();
    let mut counts: ChildCounts = crate::reporting_child::run_reporting_child(&mut cmd, label)?;
    let dumps = read_dumps(&dir)?;
    if dumps.len() != counts.counts.len() {
        return Err(format!(
            "{} callgrind profiles in {} for {} counted calls",
            dumps.len(),
            dir.display(),
            counts.counts.len()
        ));
    }
    for (c, ir) in counts.counts.iter_mut().zip(dumps) {
        c.ir = ir;
    }
    Ok(ConfigCounts {
        config,
        fixed_addresses: counts.fixed_addresses,
        counts: counts.counts,
        skipped: counts.skipped,
        layer_log_lines: std::fs::read_to_string(&log)
            .map(|t| t.lines().count())
            .unwrap_or(0),
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

/// Runs `cmd` with address-space randomisation off (`setarch -R`): where the loader, the layers
/// and the driver hash a pointer (a dispatch key, a handle that is a heap address), the bucket it
/// lands in, and so whether a lookup meets another entry first, depends on the address. With it
/// on, the Khronos layer's figures moved by 20 instructions per call in about one process of
/// four. Best effort: the child reports whether it took ([`ChildCounts::fixed_addresses`]).
fn no_randomization(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the hook runs in the forked child before exec and makes only the personality
    // system call, which is async-signal-safe; it allocates nothing and takes no lock.
    unsafe {
        cmd.pre_exec(|| {
            let persona = libc::personality(0xffff_ffff);
            if persona != -1 {
                libc::personality((persona | libc::ADDR_NO_RANDOMIZE) as libc::c_ulong);
            }
            Ok(())
        });
    }
}

/// The instructions of each `--dump-after` profile (`callgrind.out.1`, `.2`, ...), in order.
fn read_dumps(dir: &Path) -> Result<Vec<u64>, String> {
    let mut dumps: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| {
            let path = e.ok()?.path();
            let k = path
                .file_name()?
                .to_str()?
                .strip_prefix("callgrind.out.")?
                .parse()
                .ok()?;
            Some((k, path))
        })
        .collect();
    dumps.sort();
    dumps
        .iter()
        .map(|(_, path)| {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            total_ir(&text).ok_or_else(|| format!("{}: no totals: line", path.display()))
        })
        .collect()
}

/// The first event (Ir) of a callgrind profile's `totals:` line (`summary:` in older ones).
pub fn total_ir(profile: &str) -> Option<u64> {
    let find = |prefix: &str| {
        profile
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
    };
    find("totals:").or_else(|| find("summary:"))
}

/// The rows: per operation, each configuration's instructions per call and what the layers add.
pub fn rows(configs: &[ConfigCounts]) -> Vec<InstructionRow> {
    let of = |c: Config| configs.iter().find(|x| x.config == c);
    let per_call = |c: Config, op: Op| of(c).and_then(|x| x.per_call(op));
    Op::ALL
        .iter()
        .filter_map(|&op| {
            let [none, e, k] = Config::ALL.map(|c| per_call(c, op));
            if none.is_none() && e.is_none() {
                return None;
            }
            let added = |with: Option<f64>| Some(with? - none?);
            let added_exportcheck = added(e);
            let verdict = match added_exportcheck {
                Some(a) if a <= op.target() as f64 => Verdict::Pass,
                Some(_) => Verdict::Miss,
                None => Verdict::None,
            };
            let note = Config::ALL
                .iter()
                .filter_map(|&c| Some(format!("{c}: {}", of(c)?.skipped.get(&op)?)))
                .collect::<Vec<_>>()
                .join("; ");
            Some(InstructionRow {
                op,
                operation: op.label().to_string(),
                none,
                exportcheck: e,
                khronos: k,
                added_exportcheck,
                added_khronos: added(k),
                target_max: op.target(),
                verdict,
                note,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Printing.

/// An instruction count: `1,234`, or `1,234.5` when not whole.
pub fn fmt_ir(x: f64) -> String {
    let tenths = (x.abs() * 10.0).round() as u64;
    let mut s = crate::report::fmt_count(tenths / 10);
    if tenths % 10 != 0 {
        s.push_str(&format!(".{}", tenths % 10));
    }
    if x < 0.0 && tenths != 0 {
        format!("−{s}")
    } else {
        s
    }
}

/// An added count with its sign: `+190`, `0`, `−3`.
pub fn fmt_added(x: Option<f64>) -> String {
    match x {
        None => "—".to_string(),
        Some(x) if (x * 10.0).round() == 0.0 => "0".to_string(),
        Some(x) if x > 0.0 => format!("+{}", fmt_ir(x)),
        Some(x) => fmt_ir(x),
    }
}

fn target_text(max: u64) -> String {
    if max == 0 {
        "0 added".to_string()
    } else {
        format!("≤ {} added", fmt_ir(max as f64))
    }
}

const HEADER: [&str; 6] = [
    "operation",
    "none (Ir/call)",
    "exportcheck added",
    "khronos added",
    "target",
    "verdict",
];

/// The Markdown table; figure columns right-aligned.
pub fn render(rows: &[InstructionRow]) -> String {
    let body: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.operation.clone(),
                r.none.map(fmt_ir).unwrap_or_else(|| "—".into()),
                fmt_added(r.added_exportcheck),
                fmt_added(r.added_khronos),
                target_text(r.target_max),
                match r.verdict {
                    Verdict::Pass => "met",
                    Verdict::Miss => "MISSED",
                    Verdict::None => "",
                }
                .to_string(),
            ]
        })
        .collect();
    crate::table::markdown(&HEADER, &body, |i| (1..=3).contains(&i))
}

/// One line per target: met or missed, and why.
pub fn verdict_lines(rows: &[InstructionRow]) -> String {
    rows.iter()
        .map(|r| {
            let word = match r.verdict {
                Verdict::Pass => "met",
                Verdict::Miss => "missed",
                Verdict::None => "not judged",
            };
            let khronos = match r.added_khronos {
                Some(k) => format!("; Khronos adds {}", fmt_added(Some(k))),
                None => String::new(),
            };
            let note = if r.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.note)
            };
            let added = match r.added_exportcheck {
                Some(a) => format!("exportcheck adds {}", fmt_added(Some(a))),
                None => "no exportcheck figure".to_string(),
            };
            format!(
                "instructions: {}: {word}: {added} per call, target {}{khronos}{note}\n",
                r.operation,
                target_text(r.target_max)
            )
        })
        .collect()
}

/// The instruction section of the summary: the table, a line per target, and the count.
pub fn summary(i: &Instructions) -> String {
    if let Some(why) = &i.skipped {
        return format!("instructions: skipped: {why}\n");
    }
    let mut out = format!(
        "Instructions per call (callgrind, {}; test driver; (Ir({}) − Ir({})) / {}; deterministic):\n\n",
        i.valgrind,
        2 * i.iterations,
        i.iterations,
        i.iterations
    );
    out.push_str(&render(&i.rows));
    let random: Vec<&str> = i
        .configs
        .iter()
        .filter(|c| !c.fixed_addresses)
        .map(|c| c.config.name())
        .collect();
    if !random.is_empty() {
        out.push_str(&format!(
            "\nnote: address randomisation could not be turned off for {}: figures may move by \
             a few instructions per call between runs\n",
            random.join(", ")
        ));
    }
    out.push('\n');
    out.push_str(&verdict_lines(&i.rows));
    let met = i.rows.iter().filter(|r| r.verdict == Verdict::Pass).count();
    out.push_str(&format!(
        "instruction targets: {met} met, {} missed\n",
        i.missed()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::keys;

    #[test]
    fn totals_line_is_read() {
        let profile = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\n\nfn=(1) x\n5 10\n\ntotals: 12345\n";
        assert_eq!(total_ir(profile), Some(12345));
        assert_eq!(total_ir("events: Ir\nsummary: 77 3\n"), Some(77));
        assert_eq!(total_ir("events: Ir\n"), None);
    }

    fn counts(config: Config, per: &[(Op, u64, u64)]) -> ConfigCounts {
        ConfigCounts {
            config,
            counts: per
                .iter()
                .flat_map(|&(op, once, each)| {
                    [
                        Count {
                            op,
                            iterations: 256,
                            ir: once + 256 * each,
                        },
                        Count {
                            op,
                            iterations: 512,
                            ir: once + 512 * each,
                        },
                    ]
                })
                .collect(),
            fixed_addresses: true,
            skipped: Default::default(),
            layer_log_lines: 0,
            wall_seconds: 0.0,
        }
    }

    #[test]
    fn one_time_costs_cancel_and_targets_are_judged() {
        let none = counts(
            Config::None,
            &[(Op::ExportFd, 5000, 400), (Op::Unchecked, 10, 20)],
        );
        let mut e = counts(
            Config::Exportcheck,
            &[(Op::ExportFd, 90_000, 500), (Op::Unchecked, 10, 20)],
        );
        e.skipped.insert(Op::ExportMetal, "why".into());
        let k = counts(Config::Khronos, &[(Op::ExportFd, 0, 2400)]);
        assert_eq!(e.per_call(Op::ExportFd), Some(500.0));
        let rows = rows(&[none, e, k]);
        assert_eq!(rows.len(), 2);
        let fd = &rows[0];
        assert_eq!(fd.added_exportcheck, Some(100.0));
        assert_eq!(fd.added_khronos, Some(2000.0));
        assert_eq!(fd.verdict, Verdict::Pass);
        let unchecked = &rows[1];
        assert_eq!(unchecked.added_exportcheck, Some(0.0));
        assert_eq!(unchecked.added_khronos, None);
        assert_eq!(unchecked.verdict, Verdict::Pass);
        let e2 = counts(Config::Exportcheck, &[(Op::Unchecked, 0, 21)]);
        let none2 = counts(Config::None, &[(Op::Unchecked, 0, 20)]);
        assert_eq!(rows_verdict(&[none2, e2]), Verdict::Miss);
        let text = render(&rows);
        assert_eq!(text.lines().count(), 4);
        assert!(text.contains("| +2,000 |") || text.contains("+2,000"));
        assert!(verdict_lines(&rows).contains("met: exportcheck adds +100 per call"));
    }

    fn rows_verdict(c: &[ConfigCounts]) -> Verdict {
        rows(c)[0].verdict
    }

    /// The timing suite's key of the same measurement: the operation's name in results.json.
    fn key(op: Op) -> &'static str {
        match op {
            Op::ExportFd => keys::EXPORT_FD,
            Op::AllocFree => keys::ALLOC_FREE,
            Op::Unchecked => keys::UNCHECKED,
            Op::ExportRdma => keys::EXPORT_RDMA,
            Op::ExportWin32 => keys::EXPORT_WIN32,
            Op::ExportMetal => keys::EXPORT_METAL,
            Op::ExportWin32Khr => keys::EXPORT_WIN32_KHR,
            Op::ExportZircon => keys::EXPORT_ZIRCON,
            Op::QueryFdProperties => keys::QUERY_FD_PROPERTIES,
            Op::QueryHostPointerProperties => keys::QUERY_HOST_POINTER_PROPERTIES,
            Op::ExportAhb => keys::EXPORT_AHB,
            Op::QueryWin32Properties => keys::QUERY_WIN32_PROPERTIES,
            Op::QueryZirconProperties => keys::QUERY_ZIRCON_PROPERTIES,
            Op::QueryAhbProperties => keys::QUERY_AHB_PROPERTIES,
            Op::ImportFd => keys::IMPORT_FD,
            Op::ImportHostPointer => keys::IMPORT_HOST_POINTER,
            Op::CreateDestroySemaphore => keys::CREATE_DESTROY_SEMAPHORE,
            Op::SubmitPlainSemaphore => keys::SUBMIT_PLAIN_SEMAPHORE,
            Op::ExportSemaphoreFd => keys::EXPORT_SEMAPHORE_FD,
            Op::ImportSemaphoreFd => keys::IMPORT_SEMAPHORE_FD,
            Op::SubmitSharedSemaphore => keys::SUBMIT_SHARED_SEMAPHORE,
        }
    }

    #[test]
    fn op_names_are_the_timing_suite_keys() {
        for op in Op::ALL {
            let name = serde_json::to_string(&op).unwrap();
            assert_eq!(name, format!("\"{}\"", key(op)), "{op:?}");
        }
        let keys: std::collections::BTreeSet<&str> = Op::ALL.iter().map(|&op| key(op)).collect();
        assert_eq!(keys.len(), Op::ALL.len(), "one key per operation");
    }

    #[test]
    fn counts_format() {
        assert_eq!(fmt_ir(1234.0), "1,234");
        assert_eq!(fmt_ir(190.5), "190.5");
        assert_eq!(fmt_added(Some(0.0)), "0");
        assert_eq!(fmt_added(Some(-0.01)), "0");
        assert_eq!(fmt_added(Some(-3.0)), "−3");
        assert_eq!(fmt_added(Some(11_350.25)), "+11,350.3");
        assert_eq!(fmt_ir(99.96), "100");
        assert_eq!(fmt_added(None), "—");
    }
}
