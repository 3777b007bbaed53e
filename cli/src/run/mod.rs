//! `exportcheck run [options] -- <app> [args...]`: the app under the layer, with no install.
//!
//! 1. Finds the layer library ([`crate::layer_lib::resolve`]) and writes a manifest with its
//!    absolute path into `<tmp>/layer/`.
//! 2. Runs the app with the loader variables of [`env::child_env`]; every process that loads the
//!    layer writes `<tmp>/reports/report-<pid>.json`, and shares its fd exports with the others
//!    in `<tmp>/exports/` (docs/cross-process.md). The CUDA interposer ([`crate::cuda_shim`])
//!    is preloaded into them, so that the layer checks their CUDA imports too (docs/cuda.md).
//!    Each also appends every finding, as it happens, to its journal `report-<pid>.<token>.jsonl`.
//!    Processes the app leaves running are re-parented to `run` ([`descendants`]), which waits
//!    for them (up to [`descendants::WAIT`]) once the app has ended.
//! 3. When the app and its descendants have ended, merges the reports and the journal lines no report accounts for
//!    (a process that crashed), prints the summary, writes `--report` and `--junit`, and picks
//!    the exit code ([`crate::exit::decide`]).

pub mod descendants;
pub mod env;
pub mod signals;
pub mod tempdir;

use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::args::RunArgs;
use crate::cuda_shim::{self, CudaShim};
use crate::exit::{self, AppExit, RunOutcome};
use crate::junit::Junit;
use crate::layer_lib;
use crate::report::group::by_id_and_command;
use crate::report::journal::add_journals;
use crate::report::load::{load_dir, REPORT_PATTERN};
use crate::report::loaded::Loaded;
use crate::report::loaded::LOST_FILE;
use crate::report::merge::merge;
use crate::report::model::MergedReport;
use crate::report::read_file::read_text;
use crate::summary::{self, plural};

/// The temporary directory of one run: the manifest in `layer/`, the reports in `reports/`
/// (apart, because the loader reads every `*.json` of a layer directory as a manifest), and
/// the processes' shared exports in `exports/` (mode 0700: the layer uses no directory open to
/// others).
struct Scratch {
    _dir: tempdir::TempDir,
    layer_dir: PathBuf,
    reports_dir: PathBuf,
    exports_dir: PathBuf,
}

impl Scratch {
    fn create(library: &Path) -> Result<Self, String> {
        let dir = tempdir::TempDir::new("exportcheck-run-")
            .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let layer_dir = dir.path().join("layer");
        let reports_dir = dir.path().join("reports");
        let exports_dir = dir.path().join("exports");
        for d in [&layer_dir, &reports_dir, &exports_dir] {
            private_dir(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        }
        // Where a process notes findings it could not journal: made now, so that noting one
        // needs no new inode (the layer never creates it).
        let lost = reports_dir.join(LOST_FILE);
        std::fs::write(&lost, "").map_err(|e| format!("cannot create {}: {e}", lost.display()))?;
        let manifest = layer_dir.join(layer_lib::MANIFEST_FILE);
        std::fs::write(&manifest, layer_lib::manifest_json(library)?)
            .map_err(|e| format!("cannot write {}: {e}", manifest.display()))?;
        Ok(Self {
            _dir: dir,
            layer_dir,
            reports_dir,
            exports_dir,
        })
    }
}

/// A new directory only the user can enter.
#[cfg(unix)]
fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700).create(dir)
}

/// A new directory (in the user's own temporary directory, which is private to them).
#[cfg(not(unix))]
fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir(dir)
}

/// Runs the command; returns the exit code.
#[must_use]
pub fn run(args: &RunArgs) -> i32 {
    let library = match layer_lib::resolve(args.layer.as_deref()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("exportcheck: {e}");
            return exit::EXIT_TOOL_ERROR;
        }
    };
    let cuda = match cuda_shim::choose(args.cuda_shim.as_deref(), args.no_cuda) {
        Ok(c) => keep_the_runtime_first(c, args),
        Err(e) => {
            eprintln!("exportcheck: {e}");
            return exit::EXIT_TOOL_ERROR;
        }
    };
    let scratch = match Scratch::create(&library) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("exportcheck: {e}");
            return exit::EXIT_TOOL_ERROR;
        }
    };
    descendants::adopt_orphans();
    let preload = match &cuda {
        CudaShim::Preload(shim) => Some(env::CudaPreload {
            shim,
            layer: &library,
        }),
        CudaShim::Off(_) => None,
    };
    let (app, pid) = match run_app(&args.command, &scratch, preload) {
        Ok(app) => app,
        Err(code) => return code,
    };
    // Processes the app left running may still find something: wait for them first.
    let waited = descendants::wait_for_descendants(descendants::WAIT);
    let mut loaded = load_dir(&scratch.reports_dir);
    add_journals(&scratch.reports_dir, &mut loaded);
    add_lost(&scratch.reports_dir, &mut loaded);
    let cuda_note = match cuda {
        CudaShim::Off(note) => note,
        CudaShim::Preload(_) => None,
    };
    finish(args, (app, pid), &loaded, &library, &waited, cuda_note)
}

/// Spawns the app with the layer's environment and waits for it.
fn run_app(
    command: &[OsString],
    scratch: &Scratch,
    cuda: Option<env::CudaPreload<'_>>,
) -> Result<(AppExit, u32), i32> {
    let (program, app_args) = command.split_first().expect("clap requires the app");
    let pattern = scratch.reports_dir.join(REPORT_PATTERN);
    let vars = env::child_env(
        &|name| std::env::var_os(name),
        &scratch.layer_dir,
        &pattern,
        &scratch.exports_dir,
        cuda,
    );
    let mut child = Command::new(program)
        .args(app_args)
        .envs(vars)
        .spawn()
        .map_err(|e| {
            let program = Path::new(program).display();
            let (code, why) = match e.kind() {
                ErrorKind::NotFound => (exit::EXIT_NOT_FOUND, "not found".to_owned()),
                ErrorKind::PermissionDenied => {
                    (exit::EXIT_CANNOT_EXECUTE, "permission denied".to_owned())
                }
                _ if cannot_execute(&e) => (exit::EXIT_CANNOT_EXECUTE, e.to_string()),
                _ => (exit::EXIT_TOOL_ERROR, e.to_string()),
            };
            eprintln!("exportcheck: cannot run {program}: {why}");
            code
        })?;
    let status = {
        // Signal handling changes only while the app runs.
        let _signals = signals::while_child_runs(child.id());
        child.wait()
    };
    match status {
        Ok(status) => Ok((AppExit::from_status(status), child.id())),
        Err(e) => {
            eprintln!("exportcheck: waiting for the app failed: {e}");
            Err(exit::EXIT_TOOL_ERROR)
        }
    }
}

/// `cuda`, unless the app needs a sanitizer runtime as its first library and the user's
/// `LD_PRELOAD` does not put it first: the interposer in front of it would make it abort at
/// start (`crate::sanitizer`); the run then goes without the CUDA side, and says how to keep it.
fn keep_the_runtime_first(cuda: CudaShim, args: &RunArgs) -> CudaShim {
    let (CudaShim::Preload(_), Some(program)) = (&cuda, args.command.first()) else {
        return cuda;
    };
    let preload = std::env::var_os(env::PRELOAD_VAR);
    if !crate::sanitizer::needs_its_runtime_first(
        program,
        std::env::var_os("PATH"),
        preload.as_deref(),
    ) {
        return cuda;
    }
    CudaShim::Off(Some(format!(
        "{} needs its sanitizer runtime (libasan) as its first library, which a preloaded \
         library would come before: CUDA calls are not checked in this run. To check them, \
         preload the runtime yourself: LD_PRELOAD=$(gcc -print-file-name=libasan.so) \
         exportcheck run ...",
        Path::new(program).display()
    )))
}

/// Whether `e`, from starting the app, says the program cannot be executed as given (as shells
/// report it with 126): the arguments and environment too long (`E2BIG`), not a format the
/// kernel runs (`ENOEXEC`), a directory, a file being written, a loop of links, a name too long.
#[cfg(unix)]
fn cannot_execute(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(
            libc::E2BIG
                | libc::ENOEXEC
                | libc::EISDIR
                | libc::ETXTBSY
                | libc::ELOOP
                | libc::ENAMETOOLONG
        )
    )
}

#[cfg(not(unix))]
fn cannot_execute(_: &std::io::Error) -> bool {
    false
}

/// Everything after the app ended: merge, print, write, decide.
fn finish(
    args: &RunArgs,
    (app, pid): (AppExit, u32),
    loaded: &Loaded,
    library: &Path,
    waited: &descendants::Waited,
    cuda_note: Option<String>,
) -> i32 {
    let mut notes: Vec<String> = Vec::new();
    notes.extend(cuda_note.map(|n| format!("exportcheck: {n}")));
    for ended in waited.ended.iter().filter(|e| e.signal.is_some()) {
        let signal = ended.signal.unwrap_or_default();
        notes.push(format!(
            "exportcheck: process {}, which the app left running, was killed by signal {signal} \
             ({})",
            ended.pid,
            signals::name(signal)
        ));
    }
    if waited.still_running {
        notes.push(format!(
            "exportcheck: processes the app left running were still running {} s after it \
             ended; what they find from now on is not in this report",
            descendants::WAIT.as_secs()
        ));
    }
    for u in &loaded.unfinished {
        notes.push(format!(
            "exportcheck: process {} ({}) ended without writing its report (it crashed, was \
             killed, called _exit or exec'd): {} read from its journal {}",
            u.process.pid,
            u.process
                .executable
                .as_deref()
                .unwrap_or("unknown executable"),
            plural(u.findings, "finding"),
            u.journal.display()
        ));
    }
    let crash = crashed(app, pid);
    for (path, why) in &loaded.unreadable {
        notes.push(format!(
            "exportcheck: cannot read the report {}: {why}",
            path.display()
        ));
    }
    for (report, journal) in &loaded.false_claims {
        notes.push(format!(
            "exportcheck: the report {} claims lines of the journal {} that it does not hold \
             (another process's journal, or more lines than it reported): the journal is read \
             whole, and the run fails",
            report.display(),
            journal.display()
        ));
    }
    for line in &loaded.lost {
        notes.push(format!(
            "exportcheck: {line} (that process's findings may be missing: the run fails)"
        ));
    }
    for (path, version) in &loaded.newer {
        notes.push(format!(
            "exportcheck: {} has report version {version}; this exportcheck reads version {} \
             (read anyway: update exportcheck)",
            path.display(),
            crate::report::model::REPORT_VERSION
        ));
    }
    let merged = merge(loaded.reports.iter().map(|(_, r)| r));
    let no_report = loaded.files() == 0;
    let problem = no_report.then(|| no_report_message(app, library));
    let failing = by_id_and_command(&merged.findings)
        .iter()
        .filter(|g| args.fail_on.fails(g.severity))
        .count();

    let command_line = shell_words(&args.command);
    let junit_problem = problem.as_deref().filter(|_| !args.allow_no_vulkan);
    let mut output_failed = false;
    let mut written = Vec::new();
    if let Some(path) = &args.report {
        match write_report(path, &merged) {
            Ok(()) => written.push(format!("exportcheck: report written to {}", path.display())),
            Err(e) => {
                output_failed = true;
                notes.push(format!("exportcheck: {e}"));
            }
        }
    }
    if let Some(path) = &args.junit {
        let xml = Junit {
            merged: &merged,
            fail_on: args.fail_on,
            command_line: &command_line,
            problem: junit_problem,
            crash: crash.as_deref(),
        }
        .render();
        match write_new_file(path, xml.as_bytes()) {
            Ok(()) => written.push(format!("exportcheck: JUnit written to {}", path.display())),
            Err(e) => {
                output_failed = true;
                notes.push(format!("exportcheck: cannot write {}: {e}", path.display()));
            }
        }
    }

    let outcome = RunOutcome {
        app,
        reports: loaded.files(),
        unreadable: loaded.unreadable.len() + loaded.lost.len() + loaded.false_claims.len(),
        failing,
        allow_no_vulkan: args.allow_no_vulkan,
        output_failed,
    };
    let code = exit::decide(&outcome);
    if !(args.quiet && code == exit::EXIT_OK) {
        let mut err = String::new();
        for n in &notes {
            err.push_str(n);
            err.push('\n');
        }
        match &problem {
            Some(_) if args.allow_no_vulkan => err.push_str(
                "exportcheck: no process wrote a report (the app did not load Vulkan, or the \
                 layer never loaded); --allow-no-vulkan: no findings\n",
            ),
            Some(p) => {
                err.push_str("exportcheck: ");
                err.push_str(p);
                err.push('\n');
            }
            None => err.push_str(&summary::render(&merged)),
        }
        for w in &written {
            err.push_str(w);
            err.push('\n');
        }
        err.push_str(&verdict(code, (app, pid), failing, &merged, args));
        err.push('\n');
        // Each line as the gate made it: what processes and apps named (debug names,
        // executables) cannot add a line or rewrite one.
        let lines: Vec<String> = err.lines().map(summary::printable).collect();
        eprintln!("{}", lines.join("\n"));
    }
    code
}

fn no_report_message(app: AppExit, library: &Path) -> String {
    let why = match app {
        AppExit::Code(0) => "the layer never loaded".to_owned(),
        AppExit::Code(c) => format!(
            "the app exited with code {c}, before the layer wrote one or without loading it"
        ),
        AppExit::Signal(s) => format!(
            "the app was killed by signal {s}, before the layer wrote one or without loading it"
        ),
    };
    format!(
        "no process wrote a report: {why}. Does the app use Vulkan? Is {} the exportcheck \
         layer? VK_LOADER_DEBUG=layer shows what the loader did; --allow-no-vulkan accepts apps that never load Vulkan.",
        library.display()
    )
}

/// `the app (pid N) was killed by signal S (SIGNAME)`, when it was.
fn crashed(app: AppExit, pid: u32) -> Option<String> {
    match app {
        AppExit::Signal(s) => Some(format!(
            "the app (pid {pid}) was killed by signal {s} ({})",
            signals::name(s)
        )),
        AppExit::Code(_) => None,
    }
}

fn verdict(
    code: i32,
    (app, pid): (AppExit, u32),
    failing: usize,
    merged: &MergedReport,
    args: &RunArgs,
) -> String {
    let threshold = args.fail_on.name();
    match code {
        exit::EXIT_OK => {
            let below = by_id_and_command(&merged.findings).len();
            if below > 0 {
                format!(
                    "exportcheck: PASSED ({} below --fail-on {threshold})",
                    plural(below, "finding")
                )
            } else {
                "exportcheck: PASSED".to_owned()
            }
        }
        exit::EXIT_FINDINGS => format!(
            "exportcheck: FAILED: {} at or above --fail-on {threshold} (exit code {code})",
            plural(failing, "finding")
        ),
        exit::EXIT_LAYER_NOT_LOADED => {
            format!("exportcheck: FAILED: the layer never loaded (exit code {code})")
        }
        exit::EXIT_TOOL_ERROR => {
            format!("exportcheck: FAILED: see the errors above (exit code {code})")
        }
        _ => match crashed(app, pid) {
            Some(crash) => format!("exportcheck: FAILED: {crash} (exit code {code})"),
            None => format!("exportcheck: the app exited with code {code}"),
        },
    }
}

fn write_report(path: &Path, merged: &MergedReport) -> Result<(), String> {
    let mut text = serde_json::to_string_pretty(merged).expect("serializable");
    text.push('\n');
    write_new_file(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes `bytes` to `path` as a new file: first to a file of its own beside it (made
/// exclusively, never through a symbolic link), then renamed over `path`. A symbolic link at
/// `path` is replaced, not written through: `--report /ci/out.json` cannot be turned into a
/// write into whatever file the link names.
fn write_new_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("no file name"))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o644).custom_flags(libc::O_NOFOLLOW);
    }
    let written = options.open(&temp).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}

/// The command line as a shell would read it back (for messages and the JUnit properties).
#[must_use]
pub fn shell_words(words: &[OsString]) -> String {
    words
        .iter()
        .map(|w| {
            let w = w.to_string_lossy();
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                w.into_owned()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The notes of findings the processes could not journal ([`LOST_FILE`]); the file itself
/// unreadable (gone, replaced) is one more.
fn add_lost(reports_dir: &std::path::Path, loaded: &mut Loaded) {
    let path = reports_dir.join(LOST_FILE);
    match read_text(&path) {
        Ok(text) => loaded
            .lost
            .extend(text.lines().filter(|l| !l.is_empty()).map(str::to_owned)),
        Err(e) => loaded.unreadable.push((path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_report_path_that_is_a_symbolic_link_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("report.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_new_file(&link, b"{}").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "{}");
        assert!(!std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file left");
    }

    #[test]
    fn shell_words_quotes_what_needs_it() {
        let words: Vec<OsString> = ["./app", "--x=1", "a b", "it's", ""]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(shell_words(&words), r"./app --x=1 'a b' 'it'\''s' ''");
    }

    #[test]
    fn the_no_report_message_says_why() {
        let lib = Path::new("/x/lib.so");
        assert!(no_report_message(AppExit::Code(0), lib).contains("never loaded"));
        assert!(no_report_message(AppExit::Code(0), lib).contains("/x/lib.so"));
        assert!(no_report_message(AppExit::Code(2), lib).contains("code 2"));
        assert!(no_report_message(AppExit::Signal(9), lib).contains("signal 9"));
    }
}
