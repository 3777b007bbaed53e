//! `exportcheck run` on a CUDA program (cli/tests/programs/cuda_calls.c, compiled here with `cc`
//! and linked with the project's test CUDA library as `libcuda.so.1`): the interposer the run
//! preloads hands the layer every call of the eight external-resource entry points, however the
//! program reached them (linked, `dlsym` on the driver, `cuGetProcAddress_v2`), and the layer
//! counts them in the report's `process.cuda_calls`; with `--no-cuda` none is seen.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

mod common;

use common::{exportcheck_with_layer, read_json, texts};
use exportcheck_cuda_abi::hooks::INTERCEPTED;
use exportcheck_tests::test_cuda;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The program, compiled once per test binary, linked with `libcuda.so.1`.
fn program() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/cuda_calls.c");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exportcheck-cuda-calls");
        let status = std::process::Command::new("cc")
            .args(["-Wall", "-Werror", "-o"])
            .arg(&out)
            .arg(&source)
            .arg("-L")
            .arg(test_cuda::library_dir())
            .arg("-l:libcuda.so.1")
            .status()
            .expect("run cc");
        assert!(status.success(), "cc {} failed", source.display());
        out
    })
}

/// A directory with cli/tests/programs/fake_cuda.c compiled as `libcuda.so.1`, once per test
/// binary.
fn fake_driver_dir() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/fake_cuda.c");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exportcheck-fake-cuda");
        std::fs::create_dir_all(&dir).expect("create the fake driver's directory");
        let status = std::process::Command::new("cc")
            .args(["-Wall", "-Werror", "-fPIC", "-shared"])
            .args(["-Wl,-soname,libcuda.so.1", "-Wl,-Bsymbolic-functions", "-o"])
            .arg(dir.join("libcuda.so.1"))
            .arg(&source)
            .status()
            .expect("run cc");
        assert!(status.success(), "cc {} failed", source.display());
        dir
    })
}

/// `exportcheck run --report R [extra] -- cuda_calls`, the program finding `libcuda.so.1` in
/// `driver_dir`; the run's stderr and the report.
fn run(driver_dir: &Path, extra: &[&str]) -> (String, serde_json::Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report.json");
    let out = exportcheck_with_layer()
        .env("LD_LIBRARY_PATH", driver_dir)
        .env_remove("LD_PRELOAD")
        .arg("run")
        .arg("--allow-no-vulkan")
        .arg("--report")
        .arg(&report)
        .args(extra)
        .arg("--")
        .arg(program())
        .output()
        .expect("run exportcheck");
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(stdout, "ok\n", "{stderr}");
    (stderr, read_json(&report))
}

/// Every entry point counted once per way of reaching it (four: cuda_calls.c).
fn assert_every_call_counted(stderr: &str, report: &serde_json::Value) {
    let processes = report["processes"].as_array().expect("processes");
    assert_eq!(
        processes.len(),
        1,
        "the CUDA-only process reported: {report:#}\n{stderr}"
    );
    let calls = &processes[0]["cuda_calls"];
    for name in INTERCEPTED {
        assert_eq!(
            calls[name], 4,
            "{name}: linked, dlsym, cuGetProcAddress_v2, and the cuGetProcAddress it returned: \
             {calls:#}"
        );
    }
    assert_eq!(calls.as_object().map(|c| c.len()), Some(8), "{calls:#}");
    assert_eq!(
        report["findings"].as_array().map(Vec::len),
        Some(0),
        "{report:#}"
    );
}

#[test]
fn every_way_of_reaching_the_entry_points_is_counted() {
    let (stderr, report) = run(&test_cuda::library_dir(), &[]);
    assert_every_call_counted(&stderr, &report);
}

/// The test CUDA library's cuGetProcAddress hands out its exported symbols' addresses, which
/// are the interposer's: a driver that hands out its own functions' takes the other path.
#[test]
fn every_way_is_counted_with_a_driver_that_hands_out_its_own_functions() {
    let (stderr, report) = run(fake_driver_dir(), &[]);
    assert_every_call_counted(&stderr, &report);
}

#[test]
fn no_cuda_sees_none() {
    let (_, report) = run(&test_cuda::library_dir(), &["--no-cuda"]);
    assert_eq!(
        report["processes"].as_array().map(Vec::len),
        Some(0),
        "no process loaded the layer: {report:#}"
    );
}
