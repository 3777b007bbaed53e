//! The panic-injection build of the layer (feature `panic-injection`, see
//! `layer/src/boundary.rs`), for the tests that make the layer panic where
//! `EXPORTCHECK_INJECT_PANIC` says (`tests/tests/panic_injection.rs`, `panic_after_call.rs`).

use crate::env::{target_profile_dir, LAYER_LIBRARY_OVERRIDE};
use crate::test_driver::options;
use crate::{Instance, Options};
use std::path::PathBuf;
use std::process::Command;

/// A prebuilt panic-injection layer (scripts/sanitize.sh builds one with its sanitizer's flags).
const PREBUILT: &str = "EXPORTCHECK_TEST_PANIC_LAYER";

/// Builds the panic-injection layer for this test profile (unless [`PREBUILT`] names one);
/// returns the library.
pub fn build_injecting_layer() -> PathBuf {
    if let Some(lib) = std::env::var_os(PREBUILT) {
        return PathBuf::from(lib);
    }
    let profile_dir = target_profile_dir();
    let profile = profile_dir
        .file_name()
        .and_then(|p| p.to_str())
        .expect("profile dir name")
        .to_owned();
    let target_dir = profile_dir
        .parent()
        .expect("target dir")
        .join("panic-injection");
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(&workspace)
        .args(["build", "-q", "-p", "exportcheck-layer"])
        .args(["--features", "panic-injection", "--target-dir"])
        .arg(&target_dir);
    if profile == "release" {
        build.arg("--release");
    }
    let status = build.status().expect("running cargo build");
    assert!(
        status.success(),
        "building the panic-injection layer failed"
    );
    let lib = target_dir.join(&profile).join("libVkLayer_exportcheck.so");
    assert!(lib.exists(), "{} was not built", lib.display());
    lib
}

/// An exclusive instance on the test driver whose layer is the panic-injection build, panicking
/// as `rules` says (`site:command[:count],...`). Call it once per test binary, before any other
/// instance: the loader loads the layer, and the layer reads the rules, once per process.
pub fn injecting_instance(rules: &str) -> Instance {
    let lib = build_injecting_layer();
    std::env::set_var(LAYER_LIBRARY_OVERRIDE, &lib);
    std::env::set_var("EXPORTCHECK_INJECT_PANIC", rules);
    Instance::exclusive_with(Options {
        layer_settings: &[("duplicate_message_limit", "0")],
        ..options(None)
    })
}
