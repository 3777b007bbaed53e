//! Re-running the current test in a child process, for what is process-wide: the environment
//! and working directory the layer reads its settings from, stderr, the process's report file.
//!
//! The test calls [`is_child`] first: in the child it does the work (and asserts); in the parent
//! it builds a [`Child`] with the environment the child needs and [`Child::run`]s it. The child
//! keeps the loader environment the harness sets (it calls the same harness).

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};

/// Set in a child test process (to `1`, or to a mode the test chooses).
pub const CHILD_ENV: &str = "EXPORTCHECK_TEST_CHILD";

/// Whether this process is a child started by [`Child::run`].
pub fn is_child() -> bool {
    std::env::var_os(CHILD_ENV).is_some()
}

/// What a child printed, and its process ID.
#[derive(Debug)]
pub struct ChildRun {
    pub pid: u32,
    pub stdout: String,
    pub stderr: String,
}

impl ChildRun {
    /// The layer's lines on stderr (`exportcheck: ...`).
    pub fn stderr_layer_lines(&self) -> Vec<&str> {
        layer_lines(&self.stderr)
    }

    /// The layer's lines on stdout (`exportcheck: ...`).
    pub fn stdout_layer_lines(&self) -> Vec<&str> {
        layer_lines(&self.stdout)
    }
}

fn layer_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("exportcheck:"))
        .collect()
}

/// The process-wide inputs of the layer's settings, which a child must not inherit from the
/// parent: the `VK_EXPORTCHECK_VALIDATION_*` variables and `VK_LAYER_SETTINGS_PATH`.
fn is_settings_variable(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with("VK_EXPORTCHECK_VALIDATION_") || name == "VK_LAYER_SETTINGS_PATH"
}

/// A child run of the current test (the test named after the current thread).
pub struct Child {
    command: Command,
}

impl Child {
    /// The current test binary, running only the current test, with [`CHILD_ENV`] set to `mode`
    /// and none of the parent's layer-settings variables.
    pub fn new(mode: &str) -> Self {
        let mut command = Command::new(std::env::current_exe().expect("current_exe"));
        command
            .args(["--exact", &crate::expect::test_name(), "--nocapture"])
            .env(CHILD_ENV, mode)
            .stdin(Stdio::null());
        for (name, _) in std::env::vars_os() {
            if is_settings_variable(&name) {
                command.env_remove(name);
            }
        }
        Self { command }
    }

    /// Sets an environment variable of the child only.
    pub fn env(mut self, name: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.command.env(name, value);
        self
    }

    /// Adds an argument to the child's command line, e.g. `--include-ignored` for a child of an
    /// `#[ignore]`d test (without it, the child would skip the test it is to run).
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.command.arg(arg);
        self
    }

    /// The child's working directory.
    pub fn current_dir(mut self, dir: &Path) -> Self {
        self.command.current_dir(dir);
        self
    }

    /// Runs the child to the end; asserts that it ran this very test and passed.
    #[track_caller]
    pub fn run(self) -> ChildRun {
        self.spawn().wait()
    }

    /// Starts the child; [`Running::wait`] for it.
    #[track_caller]
    pub fn spawn(mut self) -> Running {
        let child = self
            .command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run the test binary again");
        Running(child)
    }
}

/// A child started by [`Child::spawn`].
pub struct Running(std::process::Child);

impl Running {
    /// Its process ID.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }

    /// Waits for it to end; asserts that it ran this very test and passed.
    #[track_caller]
    pub fn wait(self) -> ChildRun {
        let pid = self.0.id();
        let out = self.0.wait_with_output().expect("wait for the child");
        let run = ChildRun {
            pid,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        assert!(
            out.status.success(),
            "child failed: {}\nstdout:\n{}\nstderr:\n{}",
            out.status,
            run.stdout,
            run.stderr
        );
        assert!(
            run.stdout.contains("test result: ok. 1 passed"),
            "the child ran no test:\n{}",
            run.stdout
        );
        run
    }
}
