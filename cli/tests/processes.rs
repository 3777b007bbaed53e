//! `exportcheck run` with the real layer, the real loader and lavapipe, on an app of several
//! processes (cli/tests/programs/processes.c, compiled here with `cc -lvulkan`): a worker forked
//! without exec, a child that outlives its parent, a child inheriting exported fds, and apps that
//! crash after a finding. Every process's findings must reach the summary, the JSON and the
//! JUnit report; and an fd exported in one process and imported in another (cross-process
//! checking, on by default). The layer library next to the `exportcheck` binary is built first
//! if need be (`common::exportcheck_with_layer`).

#![cfg(target_os = "linux")]

mod common;

use common::{exportcheck_with_layer, read_json, texts};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const FD_00671: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";
const LEAKED: &str = "EXPORTCHECK-exported-fd-leaked";
const SIZE_01742: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01742";

/// The test program, compiled once per test binary.
fn program() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/processes.c");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exportcheck-processes");
        let status = std::process::Command::new("cc")
            .args(["-Wall", "-Werror", "-o"])
            .arg(&out)
            .arg(&source)
            .arg("-lvulkan")
            .status()
            .expect("run cc");
        assert!(status.success(), "cc {} failed", source.display());
        out
    })
}

/// `exportcheck run --report R --junit J [extra] -- processes MODE...` on lavapipe (`mode`: the
/// program's arguments, separated by spaces).
fn run(mode: &str, extra: &[&str], envs: &[(&str, &str)]) -> (Output, serde_json::Value, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, junit) = (dir.path().join("report.json"), dir.path().join("junit.xml"));
    let out = exportcheck_with_layer()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .envs(envs.iter().copied())
        .arg("run")
        .arg("--report")
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .args(extra)
        .arg("--")
        .arg(program())
        .args(mode.split(' '))
        .output()
        .expect("run exportcheck");
    let json = read_json(&report);
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    (out, json, xml)
}

fn ids(json: &serde_json::Value) -> Vec<String> {
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["id"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn a_forked_workers_error_fails_the_run() {
    let (out, json, xml) = run("fork-worker", &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert!(
        stderr.contains("FAILED: 1 finding at or above --fail-on error"),
        "{stderr}"
    );
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
    assert_eq!(
        json["processes"].as_array().unwrap().len(),
        2,
        "the runner and its worker each reported: {json}"
    );
    assert!(xml.contains(&format!("name=\"{FD_00671}\"")), "{xml}");
}

#[test]
fn a_child_exiting_last_does_not_replace_its_parents_report() {
    let (out, json, _) = run("child-last", &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert_eq!(ids(&json), [FD_00671], "{json}");
    let finding = &json["findings"][0];
    assert_eq!(finding["count"], 1, "{json}");
}

#[test]
fn a_daemon_that_finds_something_after_the_app_ended_fails_the_run() {
    let (out, json, xml) = run("daemon", &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert_eq!(ids(&json), [FD_00671], "{json}");
    assert!(xml.contains(&format!("name=\"{FD_00671}\"")), "{xml}");
}

#[test]
fn a_child_that_never_touched_vulkan_reports_no_inherited_fd_as_leaked() {
    let on = [("VK_EXPORTCHECK_VALIDATION_CHECK_FD_LEAKS", "true")];
    let (out, json, _) = run("fd-child", &["--fail-on", "warning"], &on);
    let (_, stderr) = texts(&out);
    assert_eq!(
        json["settings"]["check_fd_leaks"], true,
        "the setting is on: {json}"
    );
    assert!(!stderr.contains(LEAKED), "{stderr}");
    assert!(!ids(&json).contains(&LEAKED.to_owned()), "{json}");
}

fn assert_crash_reported(mode: &str, signal: i32, name: &str) {
    let (out, json, xml) = run(mode, &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(128 + signal), "{stderr}");
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
    let pid = json["processes"][0]["pid"].as_u64().expect("the process");
    let said = format!("the app (pid {pid}) was killed by signal {signal} ({name})");
    assert!(stderr.contains(&said), "{said}:\n{stderr}");
    assert!(
        stderr.contains(FD_00671) && stderr.contains("1 distinct finding"),
        "the summary lists the finding: {stderr}"
    );
    assert!(xml.contains(&format!("name=\"{FD_00671}\"")), "{xml}");
    assert!(xml.contains(&said), "the crash is a failure too: {xml}");
}

#[test]
fn an_app_that_aborts_after_a_finding_fails_the_run_with_the_finding_reported() {
    assert_crash_reported("abort", libc::SIGABRT, "SIGABRT");
}

#[test]
fn an_app_that_segfaults_after_a_finding_fails_the_run_with_the_finding_reported() {
    assert_crash_reported("segv", libc::SIGSEGV, "SIGSEGV");
}

/// The IDs of the app's findings, without lavapipe's driver-contract warnings (its exported fds
/// lack FD_CLOEXEC).
fn app_ids(json: &serde_json::Value) -> Vec<String> {
    let mut ids = ids(json);
    ids.retain(|id| !id.starts_with("EXPORTCHECK-driver-"));
    ids
}

#[test]
fn an_import_of_another_size_than_the_exporting_process_gave_fails_the_run() {
    let (out, json, xml) = run("share 131072", &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert_eq!(app_ids(&json), [SIZE_01742], "{json}");
    let processes: Vec<u64> = json["processes"]
        .as_array()
        .expect("processes")
        .iter()
        .map(|p| p["pid"].as_u64().expect("pid"))
        .collect();
    assert_eq!(processes.len(), 2, "the exporter and the importer: {json}");
    let finding = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == SIZE_01742)
        .expect("01742");
    let message = finding["message"].as_str().expect("message");
    let named = processes
        .iter()
        .any(|pid| message.contains(&format!("exported by pid {pid} (`exportcheck-pro`)")));
    assert!(named, "the exporting process is named: {message}");
    assert!(
        message.contains("with allocationSize 65536, memoryTypeIndex 0, not dedicated")
            && message.contains("imported here with allocationSize 131072, memoryTypeIndex 0"),
        "{message}"
    );
    assert!(xml.contains(&format!("name=\"{SIZE_01742}\"")), "{xml}");
}

#[test]
fn an_import_of_the_exporting_process_s_size_passes_the_run() {
    let (out, json, _) = run("share 65536", &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(app_ids(&json).is_empty(), "{json}");
    let dir = json["settings"]["shared_exports_dir"].clone();
    assert!(
        dir.as_str().is_some_and(|d| d.ends_with("/exports")),
        "on by default, in the run's directory: {json}"
    );
}

#[test]
fn an_empty_shared_exports_dir_turns_cross_process_checking_off() {
    let off = [("VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR", "")];
    let (out, json, _) = run("share 131072", &[], &off);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(app_ids(&json).is_empty(), "{json}");
}

#[test]
fn a_gpu_process_that_ends_with_exit_and_found_nothing_counts_and_the_run_passes() {
    let (out, json, xml) = run("gpu-process", &[], &[]);
    let (stdout, stderr) = texts(&out);
    let gpu: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("gpu-process "))
        .and_then(|pid| pid.trim().parse().ok())
        .unwrap_or_else(|| panic!("the app names its GPU process:\n{stdout}"));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("exportcheck: no findings (1 process reported)"),
        "the GPU process counts: {stderr}"
    );
    assert!(stderr.contains("exportcheck: PASSED"), "{stderr}");
    assert!(!stderr.contains("never loaded"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "process {gpu} (" // its executable, then why it left no report
        )) && stderr.contains("ended without writing its report")
            && stderr.contains("0 findings read from its journal"),
        "the run says how the GPU process ended: {stderr}"
    );
    let processes: Vec<u64> = json["processes"]
        .as_array()
        .expect("processes")
        .iter()
        .map(|p| p["pid"].as_u64().expect("pid"))
        .collect();
    assert_eq!(
        processes,
        [gpu],
        "only the GPU process loaded the layer: {json}"
    );
    assert!(ids(&json).is_empty(), "{json}");
    assert!(
        xml.contains(&format!("<property name=\"processes\" value=\"{gpu}\"")),
        "{xml}"
    );
}

/// Issue #34: a program that closes every descriptor from 3 up and puts its data file on every
/// number (as daemons, sandboxes and `subprocess` do) keeps its files: the layer writes no
/// finding into them, closes none of them at `vkFreeMemory`, and journals both findings in its
/// own file, so the gate fails although the process ends with `_exit`.
#[test]
fn a_program_that_takes_the_layers_descriptor_numbers_keeps_its_files_and_fails_the_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let mode = format!("reuse-descriptors {}", data.display());
    let (out, json, _) = run(&mode, &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(
        std::fs::read_to_string(&data).expect("the data file"),
        "data",
        "nothing but the program's own bytes in its file: {stderr}"
    );
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert!(stderr.contains("exportcheck: FAILED"), "{stderr}");
    let found = json["findings"].as_array().expect("findings");
    let broken = found.iter().find(|f| f["id"] == FD_00671);
    assert_eq!(
        broken.map(|f| f["count"].as_u64()),
        Some(Some(2)),
        "both findings journaled: {json}"
    );
}

/// `exportcheck run --report R -- sh -c SCRIPT` on lavapipe, the script given `processes` as
/// `$1`; its exit status and output, within a minute (a gate that hangs fails the test).
fn run_script(script: &str) -> (Output, Option<serde_json::Value>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report.json");
    let mut child = exportcheck_with_layer()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .arg("run")
        .arg("--report")
        .arg(&report)
        .args(["--", "sh", "-c", script, "sh"])
        .arg(program())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run exportcheck");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("exportcheck run hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let json = std::fs::read_to_string(&report)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    (out, json)
}

/// Issue #34: a FIFO, a symbolic link or a device named like a report in the run's directory
/// neither blocks the gate nor is read: each is unreadable, and the run fails (88) with the
/// process's own findings still reported.
#[test]
fn files_named_like_reports_that_are_no_regular_files_fail_the_run_without_a_hang() {
    let script = r#"d=$(dirname "$VK_EXPORTCHECK_VALIDATION_REPORT_FILE")
        mkfifo "$d/report-1.json" "$d/report-2.1.jsonl"
        ln -s /dev/zero "$d/report-3.json"
        "$1" abort; exit 0"#;
    let (out, json) = run_script(script);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    for name in ["report-1.json", "report-2.1.jsonl", "report-3.json"] {
        assert!(
            stderr.contains(name) && stderr.contains("not a regular file")
                || stderr.contains(name) && stderr.contains("Too many levels of symbolic links"),
            "{name} is named unreadable: {stderr}"
        );
    }
    let json = json.expect("the report is written");
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
}

/// Issue #34: with a temporary directory whose path is not UTF-8, the run's reports are still
/// read (the run's files go under /tmp, and the run says so), and a finding fails the run.
#[test]
fn a_temporary_directory_that_is_not_utf8_loses_no_finding() {
    use std::os::unix::ffi::OsStrExt;
    let parent = tempfile::tempdir().expect("temp dir");
    let odd = parent.path().join(std::ffi::OsStr::from_bytes(b"tmp-\xff"));
    std::fs::create_dir(&odd).expect("a directory whose name is not UTF-8");
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report.json");
    let out = exportcheck_with_layer()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .env("TMPDIR", &odd)
        .arg("run")
        .arg("--report")
        .arg(&report)
        .arg("--")
        .arg(program())
        .arg("abort")
        .output()
        .expect("run exportcheck");
    let (_, stderr) = texts(&out);
    assert!(
        stderr.contains("is not UTF-8; the run's files are under /tmp"),
        "{stderr}"
    );
    assert_ne!(
        out.status.code(),
        Some(87),
        "the layer's reports were read: {stderr}"
    );
    let json = read_json(&report);
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
}

/// Issue #34: a process whose journal cannot be created (a directory out of inodes, simulated by
/// the layer's fault injection) notes it in the file the run made for that beforehand, and the
/// run fails (88) naming the process, even with `--allow-no-vulkan` and a process that ends with
/// `_exit` after its findings (before: no report, no journal, and the run passed).
#[test]
fn findings_a_process_could_not_journal_fail_the_run() {
    let layer = exportcheck_tests::panic_layer::build_injecting_layer();
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let out = exportcheck_with_layer()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .env("EXPORTCHECK_INJECT_JOURNAL_ERROR", "1")
        .arg("run")
        .arg("--layer")
        .arg(&layer)
        .arg("--allow-no-vulkan")
        .arg("--")
        .arg(program())
        .arg("reuse-descriptors")
        .arg(&data)
        .output()
        .expect("run exportcheck");
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(
        stderr.contains("cannot create the report journal")
            && stderr.contains("injected")
            && stderr.contains("that process's findings may be missing"),
        "{stderr}"
    );
    assert!(!stderr.contains("exportcheck: PASSED"), "{stderr}");
}

/// Issue #34: a debug name's ESC, CR and LF bytes never reach the terminal raw, from the layer
/// (its own stderr lines) or from the gate (the summary): no line the name makes up, such as a
/// fake `exportcheck: PASSED`.
#[test]
fn control_characters_of_a_debug_name_are_escaped_on_stderr() {
    let (out, json, _) = run("escape-name", &[], &[]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\r'),
        "{stderr:?}"
    );
    assert!(
        !stderr.lines().any(|l| l.trim() == "exportcheck: PASSED"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\\x1b[2K\\x0dexportcheck: PASSED\\x0a"),
        "{stderr}"
    );
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
}

/// Issue #34: `--report` and `--junit` naming a symbolic link replace the link with the new
/// file; the file it pointed to is not written.
#[test]
fn report_paths_that_are_symbolic_links_are_replaced_not_written_through() {
    let dir = tempfile::tempdir().expect("temp dir");
    let precious = dir.path().join("precious");
    std::fs::write(&precious, "keep").expect("write");
    let (report, junit) = (dir.path().join("report.json"), dir.path().join("junit.xml"));
    std::os::unix::fs::symlink(&precious, &report).expect("link");
    std::os::unix::fs::symlink(&precious, &junit).expect("link");
    let out = exportcheck_with_layer()
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .arg("run")
        .arg("--report")
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .arg("--")
        .arg(program())
        .arg("gpu-process")
        .output()
        .expect("run exportcheck");
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(&precious).expect("read"), "keep");
    read_json(&report);
    assert!(std::fs::read_to_string(&junit)
        .expect("junit")
        .contains("<testsuite"));
}

/// Issue #34: after the last `vkDestroyInstance` the program has as many descriptors open as
/// before its first `vkCreateInstance`: the layer's journal, its shared-directory file and its
/// canary are let go (an app's own descriptor-leak check passes), and a finding still fails the
/// run.
#[test]
fn the_layer_keeps_no_file_open_after_the_last_instance() {
    let (out, json, _) = run("fd-count", &[], &[]);
    let (stdout, stderr) = texts(&out);
    let counts: Vec<u32> = stdout
        .lines()
        .find_map(|l| l.strip_prefix("fds "))
        .map(|c| c.split(' ').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(counts.len(), 2, "{stdout}");
    assert_eq!(
        counts[0], counts[1],
        "descriptors before and after: {stdout}"
    );
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
}

/// The test program built with gcc's AddressSanitizer (its runtime a shared library), once.
fn asan_program() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/processes.c");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exportcheck-processes-asan");
        let status = std::process::Command::new("gcc")
            .args(["-fsanitize=address", "-Wall", "-Werror", "-o"])
            .arg(&out)
            .arg(&source)
            .arg("-lvulkan")
            .status()
            .expect("run gcc");
        assert!(status.success(), "gcc -fsanitize=address failed");
        out
    })
}

/// Issue #34: a program built with `-fsanitize=address` (dynamic libasan) runs under
/// `exportcheck run` and its finding fails the run. It aborted at start ("ASan runtime does not
/// come first"): the CUDA interposer was preloaded in front of its runtime. Now the run leaves
/// it out (and says how to keep it); with the user's `LD_PRELOAD=libasan.so`, as ASan advises,
/// the interposer comes after it and stays.
#[test]
fn a_program_built_with_address_sanitizer_runs_and_reports() {
    let libasan = std::process::Command::new("gcc")
        .arg("-print-file-name=libasan.so")
        .output()
        .expect("gcc");
    let libasan = String::from_utf8(libasan.stdout).expect("utf-8");
    for preload in [None, Some(libasan.trim())] {
        let dir = tempfile::tempdir().expect("temp dir");
        let report = dir.path().join("report.json");
        let mut command = exportcheck_with_layer();
        command
            .env("VK_DRIVER_FILES", LAVAPIPE)
            .env("ASAN_OPTIONS", "detect_leaks=0")
            .env_remove("LD_PRELOAD");
        if let Some(preload) = preload {
            command.env("LD_PRELOAD", preload);
        }
        let out = command
            .arg("run")
            .arg("--report")
            .arg(&report)
            .arg("--")
            .arg(asan_program())
            .arg("escape-name")
            .output()
            .expect("run exportcheck");
        let (_, stderr) = texts(&out);
        assert!(!stderr.contains("does not come first"), "{stderr}");
        assert_eq!(out.status.code(), Some(86), "{preload:?}: {stderr}");
        let note = stderr.contains("needs its sanitizer runtime (libasan) as its first library");
        assert_eq!(note, preload.is_none(), "{preload:?}: {stderr}");
        assert!(ids(&read_json(&report)).contains(&FD_00671.to_owned()));
    }
}

/// Issue #34: a made-up report claiming a crashed process's journal does not hide its lines:
/// the journal is read whole, the finding is reported, and the claim fails the run.
#[test]
fn a_made_up_report_claiming_another_processs_journal_hides_nothing() {
    let script = r#"d=$(dirname "$VK_EXPORTCHECK_VALIDATION_REPORT_FILE")
        "$1" abort
        j=$(cd "$d" && ls report-*.jsonl | head -n 1)
        printf '{"exportcheck_report_version": 1, "process": {"pid": 1},
                 "journal": {"file": "%s", "findings": 1}, "findings": []}' "$j" \
            > "$d/report-1.json"
        exit 0"#;
    let (out, json) = run_script(script);
    let (_, stderr) = texts(&out);
    assert!(stderr.contains("claims lines of the journal"), "{stderr}");
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    let json = json.expect("the report is written");
    assert!(ids(&json).contains(&FD_00671.to_owned()), "{json}");
}
