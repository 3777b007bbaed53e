//! `exportcheck coverage` against the registry built in (Vulkan 1.4.360's IDs of the
//! memory-sharing surface) and the layer's catalog, with observations written by the test; and
//! against Debian's full `validusage.json` (`libvulkan-dev`, Vulkan 1.3.239) given with
//! `--registry`.

mod common;

use std::path::Path;

use common::{exportcheck, texts};
use serde_json::Value;

const REGISTRY: &str = "/usr/share/vulkan/registry/validusage.json";

fn registry() -> &'static str {
    assert!(
        Path::new(REGISTRY).is_file(),
        "{REGISTRY} is missing: install libvulkan-dev (scripts/install-deps.sh does)"
    );
    REGISTRY
}

/// An observations directory with a few lines, as `tests/src/expect.rs` writes them.
fn observed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fd_negative.jsonl"),
        concat!(
            r#"{"test":"bad_handle_type","kind":"negative","ids":["VUID-VkMemoryGetFdInfoKHR-handleType-00671"],"command":"vkGetMemoryFdKHR"}"#,
            "\n",
            r#"{"test":"null_fd","kind":"negative","ids":["VUID-vkGetMemoryFdKHR-pFd-parameter"],"command":"vkGetMemoryFdKHR"}"#,
            "\n",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("fd_positive.jsonl"),
        concat!(
            r#"{"test":"opaque_fd_export","kind":"positive","ids":[],"command":"vkGetMemoryFdKHR"}"#,
            "\n"
        ),
    )
    .unwrap();
    dir
}

fn coverage_json(observed: &Path, registry: Option<&str>) -> Value {
    let registry_args = registry.map(|r| ["--registry", r]);
    let out = exportcheck()
        .args(["coverage", "--format", "json"])
        .args(registry_args.iter().flatten())
        .arg("--observed")
        .arg(observed)
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    serde_json::from_str(&stdout).expect("JSON on stdout")
}

fn row<'a>(rows: &'a Value, id: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no row {id}"))
}

#[test]
fn a_full_validusage_json_is_read_too() {
    let dir = observed();
    let v = coverage_json(dir.path(), Some(registry()));
    assert_eq!(v["registry"]["api_version"], "1.3.239");
    let rows = &v["spec"]["rows"];
    let r = row(rows, "VUID-VkMemoryGetFdInfoKHR-handleType-00671");
    assert_eq!(r["registry_key"], "VkMemoryGetFdInfoKHR");
    assert_eq!(r["covered"], true);
    // Newer than 1.3.239: rows from the catalog.
    let r = row(rows, "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414");
    assert_eq!(r["in_registry"], false);
    assert_eq!(r["checked"], true);
    assert_eq!(r["registry_key"], Value::Null);
}

#[test]
fn json_against_the_built_in_registry() {
    let dir = observed();
    let v = coverage_json(dir.path(), None);
    assert_eq!(v["registry"]["api_version"], "1.4.360");
    assert_eq!(v["observed"]["present"], true);
    assert_eq!(v["observed"]["lines"], 3);
    assert_eq!(v["observed"]["tests"], 3);
    let rows = &v["spec"]["rows"];
    let catalog = exportcheck_vuids::catalog();

    // Observed negative and positive: covered.
    let r = row(rows, "VUID-VkMemoryGetFdInfoKHR-handleType-00671");
    assert_eq!(
        (&r["checked"], &r["negative"], &r["positive"], &r["covered"]),
        (
            &Value::from(true),
            &Value::from("yes"),
            &Value::from("yes"),
            &Value::from(true)
        )
    );
    assert_eq!(r["negative_tests"], serde_json::json!(["bad_handle_type"]));
    assert_eq!(r["registry_key"], "VkMemoryGetFdInfoKHR");
    assert_eq!(r["in_registry"], true);
    assert_eq!(r["where"], "lavapipe");

    // Checked and positive (same command) but no negative line: not covered.
    let r = row(rows, "VUID-VkMemoryGetFdInfoKHR-handleType-00672");
    assert_eq!(
        (&r["negative"], &r["positive"]),
        (&Value::from("no"), &Value::from("yes"))
    );
    assert_eq!(r["covered"], false);

    // RDMA: checked, nothing observed.
    let r = row(rows, "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966");
    assert_eq!(
        (&r["negative"], &r["positive"]),
        (&Value::from("no"), &Value::from("no"))
    );
    assert_eq!(r["where"], "test-driver");

    // In the current registry: under its structure.
    let r = row(rows, "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414");
    assert_eq!(r["in_registry"], true);
    assert_eq!(r["checked"], true);
    assert_eq!(r["registry_key"], "VkMemoryGetMetalHandleInfoEXT");

    // Every registry VUID in scope is a row, checked exactly when the catalog has it.
    for id in [
        "VUID-VkExportMemoryAllocateInfo-handleTypes-09860",
        "VUID-VkExportMemoryAllocateInfo-sType-sType",
        "VUID-VkExportMemoryAllocateInfoNV-sType-sType",
        "VUID-vkGetMemoryWin32HandleNV-memory-parent",
    ] {
        let r = row(rows, id);
        assert_eq!(r["in_registry"], true, "{id}");
        assert_eq!(
            r["checked"],
            catalog
                .get(id)
                .is_some_and(exportcheck_vuids::Entry::is_checked),
            "{id}"
        );
        assert!(r["command"].as_str().unwrap().starts_with("vk"), "{id}");
    }
    // ...and every catalog spec ID too.
    for e in catalog.entries() {
        let section = match e.origin {
            exportcheck_vuids::Origin::Spec => &v["spec"]["rows"],
            exportcheck_vuids::Origin::Layer => &v["layer"]["rows"],
        };
        let r = row(section, &e.id);
        if e.e2e == exportcheck_vuids::E2e::UnitOnly {
            assert_eq!(
                (&r["negative"], &r["covered"]),
                (&Value::from("unit"), &Value::from(true))
            );
            assert!(r["note"].is_string(), "{}", e.id);
        }
        if !e.is_checked() {
            assert_eq!(r["checked"], false, "{}", e.id);
            assert_eq!(r["note"], e.note.as_deref().unwrap(), "{}", e.id);
        }
    }
    let spec_rows = rows.as_array().unwrap().len();
    assert!(
        spec_rows >= 31 + 10,
        "31 registry VUIDs in scope and the Metal ones: {spec_rows}"
    );

    let t = &v["spec"]["tally"];
    let uncounted = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "not-checkable" || r["status"] == "out-of-scope")
        .count();
    assert!(
        uncounted > 50,
        "SciBuf, QNX, OHOS and Metal objects are listed: {uncounted}"
    );
    assert_eq!(
        t["not_checkable"].as_u64().unwrap() + t["out_of_scope"].as_u64().unwrap(),
        uncounted as u64
    );
    let spec_rows = spec_rows - uncounted;
    assert_eq!(t["total"], spec_rows);
    let covered = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["covered"] == true)
        .count();
    assert_eq!(t["covered"], covered);
    let percent = t["percent"].as_f64().unwrap();
    #[allow(clippy::cast_precision_loss)]
    let expected = covered as f64 * 100.0 / spec_rows as f64;
    assert!((percent - expected).abs() < 1e-9);
    assert!(percent < 50.0, "only three lines were observed");
}

#[test]
fn fail_under_exits_1_below_the_threshold() {
    let dir = observed();
    let out = exportcheck()
        .args(["coverage", "--fail-under", "90", "--observed"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stdout.contains("exportcheck VUID coverage"));
    assert!(stderr.contains("is below --fail-under 90%"), "{stderr}");

    let out = exportcheck()
        .args(["coverage", "--fail-under", "0", "--observed"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_reader_that_stops_reading_does_not_change_the_verdict() {
    // `exportcheck coverage | head`: the reader goes away; writing the rest fails with EPIPE,
    // which is no tool error. Here the read end is closed before anything is written.
    let dir = observed();
    for (threshold, code) in [("90", 1), ("0", 0)] {
        let mut child = exportcheck()
            .args(["coverage", "--format", "html", "--fail-under", threshold])
            .arg("--observed")
            .arg(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(!stderr.contains("cannot write the report"), "{stderr}");
    }
}

#[test]
fn without_observations_it_says_to_run_the_tests() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("exportcheck-observed");
    let out = exportcheck()
        .args(["coverage", "--observed"])
        .arg(&missing)
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("run the tests first: scripts/test.sh"),
        "{stderr}"
    );
    assert!(
        stdout.contains("run the tests first: scripts/test.sh"),
        "{stdout}"
    );
    let v = coverage_json(&missing, None);
    assert_eq!(v["observed"]["present"], false);
    for r in v["spec"]["rows"].as_array().unwrap() {
        assert_ne!(r["negative"], "yes", "{r}");
        assert_ne!(r["positive"], "yes", "{r}");
    }
}

#[test]
fn every_format_renders() {
    let dir = observed();
    for (format, marker) in [
        ("text", "Spec VUIDs: "),
        (
            "markdown",
            "| [`VUID-VkMemoryGetFdInfoKHR-handleType-00671`](",
        ),
        ("html", "<!DOCTYPE html>"),
        ("json", "\"exportcheck_coverage_version\": 1"),
    ] {
        let out = exportcheck()
            .args(["coverage", "--format", format, "--observed"])
            .arg(dir.path())
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(0), "{format}: {stderr}");
        assert!(stdout.contains(marker), "{format}: {stdout}");
    }
}

#[test]
fn a_missing_registry_is_a_tool_error() {
    let out = exportcheck()
        .args(["coverage", "--registry", "/nonexistent/validusage.json"])
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(stderr.contains("built in"), "{stderr}");
}
