//! `exportcheck run` with the real layer, the real Vulkan loader and Mesa lavapipe, on the bundled
//! demo: with its bad exports it fails the run and writes a report naming the VUIDs; with
//! `--correct-only` it exits 0. The layer library and the demo next to this binary are built first
//! if need be (`common::built`).

mod common;

use common::{built, exportcheck, texts};
use std::path::PathBuf;

const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// The demo (built with the layer, next to the `exportcheck` binary).
fn demo() -> PathBuf {
    built("libVkLayer_exportcheck.so");
    built("exportcheck-demo")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("exportcheck-real-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn the_demo_with_bad_exports_fails_the_run_and_the_report_names_the_vuids() {
    let dir = temp_dir("bad");
    let report = dir.join("report.json");
    let junit = dir.join("junit.xml");
    let out = exportcheck()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .args(["run", "--report"])
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .arg("--")
        .arg(demo())
        .output()
        .expect("run exportcheck");
    let (stdout, stderr) = texts(&out);
    assert_eq!(
        out.status.code(),
        Some(86),
        "findings exit code\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    for id in [
        "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
        "VUID-VkMemoryGetFdInfoKHR-memory-parameter",
        "VUID-vkFreeMemory-memory-parameter",
        "EXPORTCHECK-driver-fd-not-cloexec",
    ] {
        assert!(stderr.contains(id), "the summary names {id}:\n{stderr}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report written"))
            .expect("JSON");
    let ids: Vec<&str> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["id"].as_str().unwrap_or(""))
        .collect();
    assert!(
        ids.contains(&"VUID-VkMemoryGetFdInfoKHR-handleType-00671"),
        "{ids:?}"
    );
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(
        xml.contains("VUID-VkMemoryGetFdInfoKHR-handleType-00671"),
        "{xml}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_demo_without_the_bugs_passes_the_run() {
    let out = exportcheck()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .args(["run", "--"])
        .arg(demo())
        .arg("--correct-only")
        .output()
        .expect("run exportcheck");
    let (stdout, stderr) = texts(&out);
    // Lavapipe's own defect (fds without FD_CLOEXEC) is a warning: below --fail-on error.
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(!stderr.contains("VUID-"), "{stderr}");
}
