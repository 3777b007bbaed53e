//! What the end-to-end tests load or run but `cargo test` does not put where they look: the
//! layer and test-driver libraries, the helper layer and the demo, in `target/<profile>/`
//! (`cargo test` builds libraries into `deps/` only). The first test of a process that needs one
//! runs `cargo build --workspace` for the test's own target directory and profile, so a plain
//! `cargo test` of a fresh clone passes and never loads a stale layer; scripts that build first
//! set [`PREBUILT`] to skip it. Used by the tests of `tests/` and of `cli/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Set (to anything) when what the tests load is built already (scripts/test.sh and
/// scripts/sanitize.sh build first; the sanitizer builds cannot be redone from a test). Also set
/// by the first build of a process, so that the test processes it starts do not build again.
pub const PREBUILT: &str = "EXPORTCHECK_TEST_PREBUILT";

/// `target/<profile>` of the running test binary (`target/<profile>/deps/<test>`).
pub fn target_profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("deps dir");
    deps.parent().expect("profile dir").to_path_buf()
}

/// `name` (a file cargo builds into `target/<profile>/`, e.g. `libVkLayer_exportcheck.so`) for
/// this test's profile, built first unless [`PREBUILT`] is set; panics, saying how to build it,
/// when it is still missing.
pub fn artifact(name: &str) -> PathBuf {
    build_once();
    let path = target_profile_dir().join(name);
    assert!(
        path.exists(),
        "{} is missing: build the workspace first (`cargo build --workspace`, as scripts/test.sh does)",
        path.display()
    );
    path
}

/// Runs [`build_command`] once per process, unless [`PREBUILT`] is set; panics if it fails.
fn build_once() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        if std::env::var_os(PREBUILT).is_some() {
            return;
        }
        let mut build = build_command(&target_profile_dir());
        let status = build
            .status()
            .unwrap_or_else(|e| panic!("running {build:?}: {e}"));
        assert!(
            status.success(),
            "{build:?} failed ({status}): the tests need the workspace built"
        );
        // Before any Vulkan call of this process (the harness builds first), so no other
        // thread reads the environment meanwhile; inherited by the test processes it starts.
        std::env::set_var(PREBUILT, "1");
    });
}

/// `cargo build --workspace` for the target directory and profile of `profile_dir`
/// (`<target>/<profile>`, or `<target>/<triple>/<profile>` for a `--target` build), in the
/// workspace root. Cargo's own lock of the target directory keeps test binaries that build at
/// once from racing.
pub fn build_command(profile_dir: &Path) -> Command {
    let profile = profile_dir
        .file_name()
        .and_then(|p| p.to_str())
        .expect("profile dir name");
    let parent = profile_dir.parent().expect("target dir");
    // Cargo marks the root of a target directory with CACHEDIR.TAG.
    let (target_dir, triple) = match parent.parent() {
        Some(root)
            if !parent.join("CACHEDIR.TAG").exists() && root.join("CACHEDIR.TAG").exists() =>
        {
            (root, parent.file_name())
        }
        _ => (parent, None),
    };
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(workspace)
        .args(["build", "-q", "--workspace", "--target-dir"])
        .arg(target_dir)
        .args(["--profile", cargo_profile(profile)]);
    if let Some(triple) = triple {
        build.arg("--target").arg(triple);
    }
    build
}

/// The cargo profile whose output directory is `dir_name` (`dev` builds into `debug`).
fn cargo_profile(dir_name: &str) -> &str {
    match dir_name {
        "debug" => "dev",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(c: &Command) -> Vec<String> {
        c.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn builds_for_the_tests_own_target_dir_and_profile() {
        let dir = tempfile_dir();
        std::fs::write(dir.join("CACHEDIR.TAG"), "").unwrap();
        let debug = args(&build_command(&dir.join("debug")));
        let target = dir.display().to_string();
        assert_eq!(
            debug,
            [
                "build",
                "-q",
                "--workspace",
                "--target-dir",
                &target,
                "--profile",
                "dev"
            ]
        );
        let release = args(&build_command(&dir.join("release")));
        assert_eq!(release[5..], ["--profile", "release"]);
        let triple = args(&build_command(&dir.join("x86_64-unknown-linux-gnu/debug")));
        assert_eq!(
            triple[3..],
            [
                "--target-dir",
                &target,
                "--profile",
                "dev",
                "--target",
                "x86_64-unknown-linux-gnu"
            ]
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("exportcheck-built-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
