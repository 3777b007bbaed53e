//! The command line, declared with clap's derive API.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::report::model::Severity;

/// The default directory of the end-to-end tests' observations, relative to the workspace.
pub const DEFAULT_OBSERVED: &str = "target/debug/exportcheck-observed";

/// exportcheck: run Vulkan apps under the exportcheck validation layer for shared memory, semaphores
/// and fences, report its VUID coverage, install the layer.
#[derive(Debug, Parser)]
#[command(name = "exportcheck", version, propagate_version = true)]
#[command(
    after_help = "Exit codes of `run`: the app's own code if non-zero (128+N if killed \
by signal N), 86 findings at or above --fail-on, 87 the layer never loaded, 88 exportcheck's own \
error. See docs/cli.md."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run an app with the layer enabled and report what it found.
    #[command(override_usage = "exportcheck run [OPTIONS] [--] <APP> [ARGS]...")]
    #[command(after_help = RUN_EXIT_CODES)]
    Run(RunArgs),
    /// Report which spec VUIDs the layer checks and which the tests observed.
    Coverage(CoverageArgs),
    /// Install the layer manifest where the Vulkan loader finds explicit layers.
    Install(InstallArgs),
    /// Remove the manifest that `install` wrote.
    Uninstall(ScopeArgs),
}

/// The exit codes of `run`, for its help.
const RUN_EXIT_CODES: &str = "Exit codes:
  0        the app exited 0 and nothing was found at or above --fail-on
  N        the app's own non-zero exit code (findings are still reported)
  128+N    the app was killed by signal N
  86       findings at or above --fail-on
  87       no process wrote a report: the layer never loaded (see --allow-no-vulkan)
  88       exportcheck's own error (layer library missing, unreadable report, a process that
           could not journal its findings, output file)
  126/127  the app could not be executed / was not found";

/// The lowest severity that fails a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Only errors fail the run.
    Error,
    /// Errors and warnings fail the run.
    Warning,
}

impl FailOn {
    /// Whether a finding of `severity` is at or above this threshold.
    #[must_use]
    pub fn fails(self, severity: Severity) -> bool {
        match self {
            FailOn::Error => severity == Severity::Error,
            FailOn::Warning => matches!(severity, Severity::Error | Severity::Warning),
        }
    }

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FailOn::Error => "error",
            FailOn::Warning => "warning",
        }
    }
}

/// `exportcheck run [options] -- <app> [args...]`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Write the merged report of every process (JSON) to this file.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,

    /// Write a JUnit XML file: one testcase per distinct finding (ID and command).
    #[arg(long, value_name = "FILE.xml")]
    pub junit: Option<PathBuf>,

    /// The lowest severity that fails the run (exit code 86).
    #[arg(long, value_enum, default_value_t = FailOn::Error, value_name = "SEVERITY")]
    pub fail_on: FailOn,

    /// The layer library to load [default: libVkLayer_exportcheck.so next to this executable].
    #[arg(long, value_name = "PATH")]
    pub layer: Option<PathBuf>,

    /// The CUDA interposer to preload, so that the layer checks CUDA's imports of Vulkan
    /// exports [default: libexportcheck_cuda.so next to this executable; Linux only].
    #[arg(long, value_name = "PATH", conflicts_with = "no_cuda")]
    pub cuda_shim: Option<PathBuf>,

    /// Do not preload the CUDA interposer (CUDA calls go unchecked).
    #[arg(long)]
    pub no_cuda: bool,

    /// Print nothing when the run passes (exit code 0).
    #[arg(long, short)]
    pub quiet: bool,

    /// Treat "no report appeared" (the app never loaded Vulkan) as "no findings", not exit 87.
    #[arg(long)]
    pub allow_no_vulkan: bool,

    /// The app to run, and its arguments.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "APP"
    )]
    pub command: Vec<OsString>,
}

/// Output format of `coverage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// An aligned plain-text table.
    Text,
    /// Machine-readable JSON.
    Json,
    /// GitHub-flavoured Markdown tables.
    Markdown,
    /// A standalone HTML page.
    Html,
}

/// `exportcheck coverage [options]`
#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// A Vulkan registry file: a validusage.json, or a subset in the form of the one built in
    /// [default: the built-in Vulkan 1.4.360 IDs of the memory-sharing surface].
    #[arg(long, value_name = "PATH")]
    pub registry: Option<PathBuf>,

    /// The directory of the end-to-end tests' observations (*.jsonl)
    /// [default: target/debug/exportcheck-observed].
    #[arg(long, value_name = "DIR")]
    pub observed: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Exit with code 1 when the spec coverage is below PCT percent.
    #[arg(long, value_name = "PCT", value_parser = parse_percent)]
    pub fail_under: Option<f64>,
}

fn parse_percent(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=100.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not between 0 and 100"))
    }
}

/// `--user` (the default) or `--system`.
#[derive(Debug, Args)]
#[group(multiple = false)]
pub struct ScopeArgs {
    /// For the current user: $XDG_DATA_HOME/vulkan/explicit_layer.d
    /// (default ~/.local/share/vulkan/explicit_layer.d). The default.
    #[arg(long)]
    pub user: bool,

    /// For every user: /usr/share/vulkan/explicit_layer.d (needs root).
    #[arg(long)]
    pub system: bool,
}

/// `exportcheck install [--user|--system] [--layer PATH]`
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// Where to install.
    #[command(flatten)]
    pub scope: ScopeArgs,

    /// The layer library the manifest points at
    /// [default: libVkLayer_exportcheck.so next to this executable].
    #[arg(long, value_name = "PATH")]
    pub layer: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("exportcheck").chain(args.iter().copied()))
    }

    #[test]
    fn run_takes_the_app_after_the_options() {
        let cli = parse(&["run", "--fail-on", "warning", "--", "./app", "--flag", "x"]).unwrap();
        let Command::Run(run) = cli.command else {
            panic!("not run")
        };
        assert_eq!(run.fail_on, FailOn::Warning);
        assert_eq!(run.command, ["./app", "--flag", "x"]);
        // Without `--` too; the app's own options stay the app's.
        let cli = parse(&["run", "-q", "./app", "--report", "r.json"]).unwrap();
        let Command::Run(run) = cli.command else {
            panic!("not run")
        };
        assert!(run.quiet);
        assert!(run.report.is_none());
        assert_eq!(run.command, ["./app", "--report", "r.json"]);
        assert!(parse(&["run"]).is_err());
        assert!(parse(&["run", "--fail-on", "info", "--", "x"]).is_err());
    }

    #[test]
    fn cuda_options() {
        let Command::Run(run) = parse(&["run", "--no-cuda", "./app"]).unwrap().command else {
            panic!("not run")
        };
        assert!(run.no_cuda && run.cuda_shim.is_none());
        let Command::Run(run) = parse(&["run", "--cuda-shim", "/x.so", "./app"])
            .unwrap()
            .command
        else {
            panic!("not run")
        };
        assert_eq!(
            run.cuda_shim.as_deref(),
            Some(std::path::Path::new("/x.so"))
        );
        assert!(parse(&["run", "--no-cuda", "--cuda-shim", "/x.so", "./app"]).is_err());
    }

    #[test]
    fn coverage_defaults_and_percent() {
        let Command::Coverage(c) = parse(&["coverage"]).unwrap().command else {
            panic!("not coverage")
        };
        assert_eq!(c.registry, None);
        assert_eq!(c.format, Format::Text);
        assert!(c.observed.is_none() && c.fail_under.is_none());
        let Command::Coverage(c) = parse(&["coverage", "--fail-under", "87.5%"])
            .unwrap()
            .command
        else {
            panic!("not coverage")
        };
        assert_eq!(c.fail_under, Some(87.5));
        assert!(parse(&["coverage", "--fail-under", "120"]).is_err());
        assert!(parse(&["coverage", "--format", "pdf"]).is_err());
    }

    #[test]
    fn user_and_system_exclude_each_other() {
        assert!(parse(&["install", "--user", "--system"]).is_err());
        assert!(parse(&["uninstall", "--system"]).is_ok());
    }

    #[test]
    fn fail_on_thresholds() {
        assert!(FailOn::Error.fails(Severity::Error));
        assert!(!FailOn::Error.fails(Severity::Warning));
        assert!(FailOn::Warning.fails(Severity::Warning));
        assert!(!FailOn::Warning.fails(Severity::Info));
    }
}
