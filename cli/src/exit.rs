//! Exit codes, and how `exportcheck run` picks one.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | the app exited 0 and nothing at or above `--fail-on` was found |
//! | the app's | the app exited non-zero: its own code wins (findings are still reported) |
//! | 128+N | the app was killed by signal N (a crash: the verdict names its pid and signal) |
//! | 1 | `coverage`: below `--fail-under` |
//! | 2 | bad command line (clap) |
//! | 86 | [`EXIT_FINDINGS`] |
//! | 87 | [`EXIT_LAYER_NOT_LOADED`] |
//! | 88 | [`EXIT_TOOL_ERROR`] |
//! | 126, 127 | the app could not be started: not executable, not found (as in shells) |

/// Everything passed.
pub const EXIT_OK: i32 = 0;
/// `coverage --fail-under`: the spec coverage is below the threshold.
pub const EXIT_BELOW_THRESHOLD: i32 = 1;
/// `run`: the layer found something at or above `--fail-on`.
pub const EXIT_FINDINGS: i32 = 86;
/// `run`: no process wrote a report: the layer never loaded (wrong library, an app that does
/// not use Vulkan, a loader older than 1.3.234 with layers disabled, ...).
pub const EXIT_LAYER_NOT_LOADED: i32 = 87;
/// exportcheck itself failed: the layer library or registry is missing, a report is unreadable,
/// an output file cannot be written.
pub const EXIT_TOOL_ERROR: i32 = 88;
/// `run`: the app was found but could not be executed.
pub const EXIT_CANNOT_EXECUTE: i32 = 126;
/// `run`: the app was not found.
pub const EXIT_NOT_FOUND: i32 = 127;

/// How the app ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppExit {
    /// It exited with this code.
    Code(i32),
    /// It was killed by this signal (Unix).
    Signal(i32),
}

impl AppExit {
    /// The shell-style code: the exit code, or 128 + the signal number.
    #[must_use]
    pub fn code(self) -> i32 {
        match self {
            AppExit::Code(c) => c,
            AppExit::Signal(s) => 128 + s,
        }
    }

    /// Converts a finished child's status.
    #[must_use]
    pub fn from_status(status: std::process::ExitStatus) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(sig) = status.signal() {
                return AppExit::Signal(sig);
            }
        }
        // Without a code and without a signal (not possible on Unix after wait): a failure.
        AppExit::Code(status.code().unwrap_or(1))
    }
}

/// What `run` knows when the app has ended and the reports are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOutcome {
    /// How the app ended.
    pub app: AppExit,
    /// How many report files were found (readable or not).
    pub reports: usize,
    /// How many of them could not be read or parsed.
    pub unreadable: usize,
    /// How many distinct findings are at or above `--fail-on`.
    pub failing: usize,
    /// `--allow-no-vulkan`.
    pub allow_no_vulkan: bool,
    /// Whether writing `--report` or `--junit` failed.
    pub output_failed: bool,
}

/// The exit code of `run`, first match wins:
///
/// 1. the app's own non-zero code (128+N for signal N);
/// 2. [`EXIT_LAYER_NOT_LOADED`] when no report appeared (unless `--allow-no-vulkan`);
/// 3. [`EXIT_TOOL_ERROR`] when a report was unreadable or an output file could not be written;
/// 4. [`EXIT_FINDINGS`] when a finding is at or above `--fail-on`;
/// 5. [`EXIT_OK`].
#[must_use]
pub fn decide(o: &RunOutcome) -> i32 {
    let app = o.app.code();
    if app != 0 {
        app
    } else if o.reports == 0 && !o.allow_no_vulkan {
        EXIT_LAYER_NOT_LOADED
    } else if o.unreadable > 0 || o.output_failed {
        EXIT_TOOL_ERROR
    } else if o.failing > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome() -> RunOutcome {
        RunOutcome {
            app: AppExit::Code(0),
            reports: 1,
            unreadable: 0,
            failing: 0,
            allow_no_vulkan: false,
            output_failed: false,
        }
    }

    #[test]
    fn clean_run_is_zero() {
        assert_eq!(decide(&outcome()), EXIT_OK);
    }

    #[test]
    fn findings_fail_with_86() {
        let o = RunOutcome {
            failing: 2,
            ..outcome()
        };
        assert_eq!(decide(&o), EXIT_FINDINGS);
    }

    #[test]
    fn the_apps_own_failure_wins() {
        let o = RunOutcome {
            app: AppExit::Code(3),
            failing: 2,
            reports: 0,
            ..outcome()
        };
        assert_eq!(decide(&o), 3);
        let o = RunOutcome {
            app: AppExit::Signal(9),
            failing: 2,
            ..outcome()
        };
        assert_eq!(decide(&o), 137);
    }

    #[test]
    fn no_report_is_87_unless_allowed() {
        let o = RunOutcome {
            reports: 0,
            ..outcome()
        };
        assert_eq!(decide(&o), EXIT_LAYER_NOT_LOADED);
        let o = RunOutcome {
            allow_no_vulkan: true,
            ..o
        };
        assert_eq!(decide(&o), EXIT_OK);
    }

    #[test]
    fn unreadable_reports_and_output_errors_are_tool_errors() {
        let o = RunOutcome {
            unreadable: 1,
            failing: 1,
            ..outcome()
        };
        assert_eq!(decide(&o), EXIT_TOOL_ERROR);
        let o = RunOutcome {
            output_failed: true,
            ..outcome()
        };
        assert_eq!(decide(&o), EXIT_TOOL_ERROR);
    }

    #[cfg(unix)]
    #[test]
    fn statuses_convert() {
        use std::os::unix::process::ExitStatusExt;
        let s = std::process::ExitStatus::from_raw(3 << 8);
        assert_eq!(AppExit::from_status(s), AppExit::Code(3));
        let s = std::process::ExitStatus::from_raw(15);
        assert_eq!(AppExit::from_status(s), AppExit::Signal(15));
        assert_eq!(AppExit::Signal(15).code(), 143);
    }
}
