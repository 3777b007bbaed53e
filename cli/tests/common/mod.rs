//! Helpers of the integration tests: the built binary and a fake "app".

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `exportcheck` binary cargo built for these tests.
pub fn exportcheck() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_exportcheck"));
    // The tests' own environment must not leak into what they check.
    for var in [
        "VK_LAYER_PATH",
        "VK_ADD_LAYER_PATH",
        "VK_INSTANCE_LAYERS",
        "VK_LOADER_LAYERS_ENABLE",
        "VK_LOADER_LAYERS_DISABLE",
        "VK_EXPORTCHECK_VALIDATION_REPORT_FILE",
    ] {
        c.env_remove(var);
    }
    c
}

/// A file cargo builds next to the `exportcheck` binary (the layer, the demo, the helper layer),
/// built first if need be (`cargo build --workspace`, once per process: see
/// `exportcheck_tests::built`).
pub fn built(name: &str) -> PathBuf {
    exportcheck_tests::built::artifact(name)
}

/// [`exportcheck`], with the real layer built next to it (for `exportcheck run` without
/// `--layer`).
pub fn exportcheck_with_layer() -> Command {
    built("libVkLayer_exportcheck.so");
    exportcheck()
}

/// stdout and stderr as text.
pub fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fake "app": a shell script standing in for a Vulkan app under the layer. What it does is
/// set by variables, which exportcheck passes through:
///
/// * `FAKE_FINDINGS`: a JSON array of findings; when set, the script writes a report with them
///   to `$VK_EXPORTCHECK_VALIDATION_REPORT_FILE` (`%p` replaced by its pid), as the layer does
///   (a temporary file, then a rename);
/// * `FAKE_GARBAGE`: write a report file that is not JSON instead;
/// * `FAKE_CHILDREN=N`: first run itself N times as child processes (each writes its report);
/// * `FAKE_ENV_DUMP=FILE`: write the `VK_*` variables it got to FILE;
/// * `FAKE_MANIFEST_COPY=FILE`: copy the layer manifest found in `VK_ADD_LAYER_PATH` to FILE;
/// * `FAKE_READY=FILE`: create FILE once the report is written;
/// * `FAKE_SLEEP=N`: then become `sleep N` (same process, so a signal to the app reaches it);
/// * `FAKE_SIGNAL=SIG`: kill itself with SIG at the end;
/// * `FAKE_EXIT=N`: exit with N.
pub const FAKE_APP: &str = r#"#!/bin/sh
set -e
if [ -n "$FAKE_ENV_DUMP" ]; then env | grep '^VK_' > "$FAKE_ENV_DUMP" || true; fi
if [ -n "$FAKE_MANIFEST_COPY" ]; then
    cp "${VK_ADD_LAYER_PATH%%:*}/VkLayer_exportcheck.json" "$FAKE_MANIFEST_COPY"
fi
if [ -n "$FAKE_CHILDREN" ]; then
    n=$FAKE_CHILDREN
    FAKE_CHILDREN=
    export FAKE_CHILDREN
    i=0
    while [ "$i" -lt "$n" ]; do "$0"; i=$((i + 1)); done
fi
if [ -n "$VK_EXPORTCHECK_VALIDATION_REPORT_FILE" ]; then
    out=$(printf '%s' "$VK_EXPORTCHECK_VALIDATION_REPORT_FILE" | sed "s/%p/$$/g")
    if [ -n "$FAKE_GARBAGE" ]; then
        printf 'this is not JSON' > "$out"
    elif [ -n "$FAKE_FINDINGS" ]; then
        printf '{"exportcheck_report_version": 1, "layer": {"name": "VK_LAYER_EXPORTCHECK_validation", "version": "0.1.0"}, "process": {"pid": %s, "executable": "%s"}, "settings": {"report_file": "%s"}, "findings": %s}\n' \
            "$$" "$0" "$VK_EXPORTCHECK_VALIDATION_REPORT_FILE" "$FAKE_FINDINGS" > "$out.tmp"
        mv "$out.tmp" "$out"
    fi
fi
if [ -n "$FAKE_READY" ]; then : > "$FAKE_READY"; fi
if [ -n "$FAKE_SLEEP" ]; then exec sleep "$FAKE_SLEEP"; fi
if [ -n "$FAKE_SIGNAL" ]; then kill -s "$FAKE_SIGNAL" $$; sleep 5; fi
exit "${FAKE_EXIT:-0}"
"#;

/// A temporary directory with the fake app (`app.sh`) and a stand-in layer library
/// (`libVkLayer_exportcheck.so`, empty: the fake app never loads it).
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub app: PathBuf,
    pub layer: PathBuf,
}

impl Fixture {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let app = dir.path().join("app.sh");
        std::fs::write(&app, FAKE_APP).expect("write the fake app");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&app, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        let layer = dir.path().join("libVkLayer_exportcheck.so");
        std::fs::write(&layer, b"").expect("write the stand-in layer");
        Self { dir, app, layer }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `exportcheck run --layer <stand-in> <extra...> -- <fake app>`.
    pub fn run(&self, extra: &[&str]) -> Command {
        let mut c = exportcheck();
        c.arg("run").arg("--layer").arg(&self.layer);
        c.args(extra);
        c.arg("--").arg(&self.app);
        c
    }
}

/// One finding as the layer writes it.
pub fn finding(id: &str, severity: &str, command: &str, count: u64, first_seen: &str) -> String {
    format!(
        r#"{{"id": "{id}", "severity": "{severity}", "command": "{command}",
            "message": "Validation {}: [ {id} ] {command}(): something is wrong. (https://x)",
            "objects": [{{"type": "VK_OBJECT_TYPE_DEVICE_MEMORY", "handle": "0x10", "name": "staging"}}],
            "count": {count}, "first_seen": "{first_seen}", "last_seen": "{first_seen}",
            "thread": {{"id": 1, "name": "main"}}}}"#,
        if severity == "error" {
            "Error"
        } else {
            "Warning"
        }
    )
}

/// Reads a JSON file.
pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON")
}
