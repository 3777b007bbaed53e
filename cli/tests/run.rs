//! `exportcheck run` end to end, with a shell script standing in for the app and the layer
//! (it writes the report file the layer would): merging, summary, `--report`, `--junit` and
//! every exit code.

#![cfg(unix)]

mod common;

use common::{finding, read_json, texts, Fixture};

const FD_00671: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";
const CLOEXEC: &str = "EXPORTCHECK-driver-fd-not-cloexec";
const T0: &str = "2026-11-21T05:00:00.123Z";
const T1: &str = "2026-11-21T05:00:01.456Z";

fn error_finding(count: u64) -> String {
    format!(
        "[{}]",
        finding(FD_00671, "error", "vkGetMemoryFdKHR", count, T0)
    )
}

fn warning_finding() -> String {
    format!(
        "[{}]",
        finding(CLOEXEC, "warning", "vkGetMemoryFdKHR", 1, T1)
    )
}

#[test]
fn a_clean_app_passes_and_writes_both_files() {
    let f = Fixture::new();
    let (report, junit) = (f.path("out.json"), f.path("out.xml"));
    let out = f
        .run(&[
            "--report",
            report.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ])
        .env("FAKE_FINDINGS", "[]")
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.is_empty(), "run prints to stderr only: {stdout}");
    assert!(
        stderr.contains("exportcheck: no findings (1 process reported)"),
        "{stderr}"
    );
    assert!(stderr.contains("exportcheck: PASSED"), "{stderr}");

    let merged = read_json(&report);
    assert_eq!(merged["exportcheck_report_version"], 1);
    assert_eq!(merged["processes"].as_array().unwrap().len(), 1);
    assert!(merged.get("process").is_none());
    assert_eq!(merged["findings"].as_array().unwrap().len(), 0);
    assert_eq!(merged["layer"]["name"], "VK_LAYER_EXPORTCHECK_validation");

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"1\" failures=\"0\""), "{xml}");
    assert!(xml.contains("<testcase classname=\"exportcheck\" name=\"exportcheck\"/>"));
}

#[test]
fn an_error_fails_with_86_and_is_summarised() {
    let f = Fixture::new();
    let junit = f.path("out.xml");
    let out = f
        .run(&["--junit", junit.to_str().unwrap()])
        .env("FAKE_FINDINGS", error_finding(3))
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    let row = stderr
        .lines()
        .find(|l| l.starts_with(FD_00671))
        .unwrap_or_else(|| panic!("no summary row: {stderr}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[1..4], ["error", "3", "vkGetMemoryFdKHR"], "{row}");
    assert!(row.ends_with("something is wrong. (https://x)"), "{row}");
    assert!(stderr.contains("FAILED: 1 finding at or above --fail-on error (exit code 86)"));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert!(xml.contains(&format!(
        "<testcase classname=\"exportcheck.vkGetMemoryFdKHR\" name=\"{FD_00671}\">"
    )));
    assert!(xml.contains("<failure message=\"something is wrong. (https://x)\" type=\"error\">"));
}

#[test]
fn warnings_fail_only_with_fail_on_warning() {
    let f = Fixture::new();
    let out = f
        .run(&[])
        .env("FAKE_FINDINGS", warning_finding())
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(CLOEXEC),
        "the summary still lists it: {stderr}"
    );
    assert!(
        stderr.contains("PASSED (1 finding below --fail-on error)"),
        "{stderr}"
    );

    let out = f
        .run(&["--fail-on", "warning"])
        .env("FAKE_FINDINGS", warning_finding())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(86), "{}", texts(&out).1);
}

#[test]
fn the_apps_own_exit_code_wins() {
    let f = Fixture::new();
    let out = f
        .run(&[])
        .env("FAKE_FINDINGS", error_finding(1))
        .env("FAKE_EXIT", "3")
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(FD_00671),
        "findings are still shown: {stderr}"
    );
    assert!(stderr.contains("the app exited with code 3"), "{stderr}");
}

#[test]
fn an_app_killed_by_a_signal_gives_128_plus_the_signal() {
    let f = Fixture::new();
    let out = f
        .run(&[])
        .env("FAKE_FINDINGS", "[]")
        .env("FAKE_SIGNAL", "TERM")
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(128 + 15), "{stderr}");
    assert!(stderr.contains("killed by signal 15"), "{stderr}");
}

#[test]
fn no_report_means_the_layer_never_loaded() {
    let f = Fixture::new();
    let junit = f.path("out.xml");
    let out = f
        .run(&["--junit", junit.to_str().unwrap()])
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(87), "{stderr}");
    assert!(stderr.contains("no process wrote a report"), "{stderr}");
    assert!(stderr.contains("the layer never loaded"), "{stderr}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("type=\"layer-not-loaded\""), "{xml}");

    let out = f.run(&["--allow-no-vulkan"]).output().unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("--allow-no-vulkan: no findings"),
        "{stderr}"
    );
}

#[test]
fn reports_of_every_process_are_merged() {
    let f = Fixture::new();
    let report = f.path("merged.json");
    let findings = format!(
        "[{}, {}]",
        finding(FD_00671, "error", "vkGetMemoryFdKHR", 2, T0),
        finding(CLOEXEC, "warning", "vkGetMemoryFdKHR", 1, T1)
    );
    let out = f
        .run(&["--report", report.to_str().unwrap()])
        .env("FAKE_FINDINGS", findings)
        .env("FAKE_CHILDREN", "2")
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    assert!(stderr.contains("from 3 processes"), "{stderr}");
    let merged = read_json(&report);
    let pids: Vec<u64> = merged["processes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["pid"].as_u64().unwrap())
        .collect();
    assert_eq!(pids.len(), 3);
    assert!(
        pids.windows(2).all(|w| w[0] < w[1]),
        "sorted by pid: {pids:?}"
    );
    let findings = merged["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2);
    assert_eq!(findings[0]["id"], FD_00671);
    assert_eq!(findings[0]["count"], 6, "2 in each of 3 processes");
    assert_eq!(findings[0]["first_seen"], T0);
    assert_eq!(findings[0]["objects"][0]["name"], "staging");
    assert_eq!(findings[1]["count"], 3);
    let row = stderr.lines().find(|l| l.starts_with(FD_00671)).unwrap();
    assert_eq!(row.split_whitespace().nth(2), Some("6"));
}

#[test]
fn the_app_gets_the_loader_variables_and_an_absolute_manifest() {
    let f = Fixture::new();
    let (dump, manifest) = (f.path("env.txt"), f.path("manifest.json"));
    // A relative --layer, resolved against the current directory.
    let out = common::exportcheck()
        .current_dir(f.dir.path())
        .args([
            "run",
            "--allow-no-vulkan",
            "--layer",
            "libVkLayer_exportcheck.so",
            "--",
        ])
        .arg(&f.app)
        .env("FAKE_ENV_DUMP", &dump)
        .env("FAKE_MANIFEST_COPY", &manifest)
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation")
        .env("VK_LAYER_PATH", "/my/layers")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let env = std::fs::read_to_string(&dump).unwrap();
    let var = |name: &str| {
        env.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no {name} in {env}"))
            .to_owned()
    };
    assert_eq!(
        var("VK_INSTANCE_LAYERS"),
        "VK_LAYER_KHRONOS_validation:VK_LAYER_EXPORTCHECK_validation"
    );
    let report_file = var("VK_EXPORTCHECK_VALIDATION_REPORT_FILE");
    assert!(
        report_file.ends_with("/reports/report-%p.json"),
        "{report_file}"
    );
    let layer_dir = var("VK_ADD_LAYER_PATH");
    assert!(layer_dir.ends_with("/layer"), "{layer_dir}");
    assert_eq!(
        var("VK_LAYER_PATH"),
        format!("{layer_dir}:/my/layers"),
        "the user's value is kept, after the manifest's directory"
    );
    assert_eq!(
        var("VK_LOADER_LAYERS_ENABLE"),
        "VK_LAYER_EXPORTCHECK_validation"
    );

    let m = read_json(&manifest);
    assert_eq!(m["layer"]["name"], "VK_LAYER_EXPORTCHECK_validation");
    assert_eq!(
        m["layer"]["library_path"].as_str().unwrap(),
        f.layer.to_str().unwrap()
    );

    // Without a VK_LAYER_PATH of the user's, one is set: the manifest's directory first.
    let out = f
        .run(&["--allow-no-vulkan"])
        .env("FAKE_ENV_DUMP", &dump)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let env = std::fs::read_to_string(&dump).unwrap();
    let layer_path = env
        .lines()
        .find_map(|l| l.strip_prefix("VK_LAYER_PATH="))
        .unwrap();
    assert!(layer_path.contains("/layer:"), "{layer_path}");
    assert!(
        layer_path.ends_with("/usr/share/vulkan/explicit_layer.d"),
        "{layer_path}"
    );
}

#[test]
fn quiet_prints_nothing_when_it_passes() {
    let f = Fixture::new();
    let out = f
        .run(&["--quiet"])
        .env("FAKE_FINDINGS", warning_finding())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(texts(&out).1, "");
    let out = f
        .run(&["-q"])
        .env("FAKE_FINDINGS", error_finding(1))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(86));
    assert!(texts(&out).1.contains(FD_00671));
}

#[test]
fn an_unreadable_report_is_a_tool_error() {
    let f = Fixture::new();
    let out = f.run(&[]).env("FAKE_GARBAGE", "1").output().unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(stderr.contains("cannot read the report"), "{stderr}");
}

#[test]
fn a_missing_layer_or_app_is_reported() {
    let f = Fixture::new();
    let out = common::exportcheck()
        .args(["run", "--layer"])
        .arg(f.path("nope.so"))
        .arg("--")
        .arg(&f.app)
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(stderr.contains("nope.so does not exist"), "{stderr}");

    let out = common::exportcheck()
        .args(["run", "--layer"])
        .arg(&f.layer)
        .arg("--")
        .arg(f.path("no-such-app"))
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(127), "{stderr}");
    assert!(stderr.contains("not found"), "{stderr}");

    // Arguments at ARG_MAX: the run itself starts, but the app's arguments with the variables
    // the run adds do not fit; the kernel refuses to execute it (E2BIG), which shells report
    // with 126. The largest padding with which the run starts is found by bisection.
    let run_with = |padding: usize| {
        let mut args = vec!["x".repeat(65_536); padding / 65_536];
        args.push("x".repeat(padding % 65_536));
        common::exportcheck()
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .args(["run", "--layer"])
            .arg(&f.layer)
            .args(["--", "/bin/true"])
            .args(args)
            .output()
    };
    let (mut starts, mut refused) = (0usize, 1usize << 23);
    while refused - starts > 1 {
        let mid = (starts + refused) / 2;
        match run_with(mid) {
            Ok(_) => starts = mid,
            Err(_) => refused = mid,
        }
    }
    let out = run_with(starts).expect("the run starts");
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(126), "{stderr}");
    assert!(
        stderr.contains("cannot run /bin/true") && stderr.contains("Argument list too long"),
        "{stderr}"
    );
}

#[test]
fn an_unwritable_output_file_is_a_tool_error() {
    let f = Fixture::new();
    let out = f
        .run(&["--report", "/nonexistent-dir/out.json"])
        .env("FAKE_FINDINGS", "[]")
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(
        stderr.contains("cannot write /nonexistent-dir/out.json"),
        "{stderr}"
    );
}

#[test]
fn sigint_is_left_to_the_app_and_sigterm_is_passed_on() {
    let f = Fixture::new();
    let ready = f.path("ready");
    let mut child = f
        .run(&[])
        .env("FAKE_FINDINGS", error_finding(1))
        .env("FAKE_READY", &ready)
        .env("FAKE_SLEEP", "30")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !ready.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the fake app never got ready"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    let kill = |signal: &str| {
        let status = std::process::Command::new("kill")
            .args(["-s", signal, &pid])
            .status()
            .unwrap();
        assert!(status.success());
    };
    // SIGINT to exportcheck alone (a terminal sends it to the app too): exportcheck survives.
    kill("INT");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "exportcheck died of SIGINT"
    );
    // SIGTERM to exportcheck alone: passed on to the app, whose report is still read.
    kill("TERM");
    let out = child.wait_with_output().unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(128 + 15), "{stderr}");
    assert!(stderr.contains(FD_00671), "{stderr}");
    assert!(stderr.contains("killed by signal 15"), "{stderr}");
}
