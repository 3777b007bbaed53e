//! `exportcheck run` when the user already has loader variables set, with the real layer, the
//! real Vulkan loader and Mesa lavapipe, on the bundled demo (whose bad exports the layer
//! reports): whatever the variable, the layer is loaded exactly once, from `--layer`, above the
//! user's own layers, which stay loaded, and the run fails on the demo's findings. The loader's
//! own log (`VK_LOADER_DEBUG=layer`, on the app's stderr) shows the stack. Needs the layer, the
//! demo and the helper layer of tests/hide-semaphore-fd-layer next to this binary, built first
//! if need be (`common::built`).

#![cfg(target_os = "linux")]

mod common;

use common::{built, exportcheck, texts};
use std::path::{Path, PathBuf};
use std::process::Command;

const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const OURS: &str = "VK_LAYER_EXPORTCHECK_validation";
const KHRONOS: &str = "VK_LAYER_KHRONOS_validation";
const HELPER: &str = "VK_LAYER_EXPORTCHECK_TEST_hide_semaphore_fd";
const DEVICE_SELECT: &str = "VK_LAYER_MESA_device_select";
const SYSTEM_LAYERS: &str = "/usr/share/vulkan/explicit_layer.d";
const FD_00671: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";

/// The layer library `exportcheck run` loads by default.
fn our_library() -> PathBuf {
    built("libVkLayer_exportcheck.so")
}

/// What one run showed: exit code, stderr, the merged report's finding IDs, and the layers of
/// the device's call chain from the app down, each with the library the loader loaded.
struct Seen {
    code: Option<i32>,
    stderr: String,
    ids: Vec<String>,
    stack: Vec<(String, String)>,
    instance: Vec<(String, String)>,
}

impl Seen {
    fn names(&self) -> Vec<&str> {
        self.stack.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The run failed on the demo's findings, and the layer ran once, from `--layer`.
    fn assert_ours_once_with_findings(&self) {
        let s = &self.stderr;
        assert_eq!(self.code, Some(86), "{s}");
        assert!(
            self.ids.iter().any(|i| i == FD_00671),
            "{:?}\n{s}",
            self.ids
        );
        let ours: Vec<&(String, String)> = self.stack.iter().filter(|(n, _)| n == OURS).collect();
        let library = our_library().display().to_string();
        assert_eq!(
            ours.len(),
            1,
            "the layer exactly once: {:?}\n{s}",
            self.stack
        );
        assert_eq!(
            ours[0].1, library,
            "the --layer library: {:?}\n{s}",
            self.stack
        );
        let in_instance: Vec<&(String, String)> =
            self.instance.iter().filter(|(n, _)| n == OURS).collect();
        assert_eq!(in_instance.len(), 1, "{:?}\n{s}", self.instance);
        assert_eq!(in_instance[0].1, library, "{:?}\n{s}", self.instance);
    }

    /// The explicit layers, from the app down.
    fn explicit(&self) -> Vec<&str> {
        self.names()
            .into_iter()
            .filter(|n| *n != DEVICE_SELECT)
            .collect()
    }
}

/// `exportcheck run --report <dir>/report.json -- exportcheck-demo` with `env` added.
fn run_demo(dir: &Path, env: &[(&str, &std::ffi::OsStr)]) -> Seen {
    let report = dir.join("report.json");
    let mut c: Command = exportcheck();
    c.env_remove("XDG_DATA_HOME")
        .env_remove("EXPORTCHECK_ENABLE")
        .env_remove("EXPORTCHECK_DISABLE")
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .env("VK_LOADER_DEBUG", "layer");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c
        .args(["run", "--report"])
        .arg(&report)
        .arg("--")
        .arg(built("exportcheck-demo"))
        .output()
        .expect("run exportcheck");
    let (_, stderr) = texts(&out);
    let ids = std::fs::read_to_string(&report)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .map(|j| {
            j["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Seen {
        code: out.status.code(),
        stack: call_chain(&stderr, "vkCreateDevice"),
        instance: call_chain(&stderr, "vkCreateInstance"),
        stderr,
        ids,
    }
}

/// The layers of the first call chain `command` set up in the loader's log, from the app down,
/// each with its `Library:` line.
fn call_chain(log: &str, command: &str) -> Vec<(String, String)> {
    let mut stack: Vec<(String, String)> = Vec::new();
    let marker = format!("{command} layer callstack setup to:");
    let lines = log.lines().skip_while(|l| !l.contains(&marker));
    for line in lines.skip(1) {
        let word = line.trim_start_matches("LAYER:").trim();
        if word == "<Device>" || word == "<Drivers>" || word.contains("callstack setup to:") {
            break;
        }
        if word.starts_with("VK_LAYER_") {
            stack.push((word.to_owned(), String::new()));
        } else if let (Some(lib), Some(last)) = (word.strip_prefix("Library:"), stack.last_mut()) {
            lib.trim().clone_into(&mut last.1);
        }
    }
    stack
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// Writes the helper layer's manifest into `dir`, naming the library built next to this binary.
fn helper_manifest_dir(dir: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/hide-semaphore-fd-layer/VkLayer_exportcheck_hide_semaphore_fd.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(source).expect("helper manifest"))
            .expect("JSON");
    m["layer"]["library_path"] = built("libVkLayer_exportcheck_hide_semaphore_fd.so")
        .display()
        .to_string()
        .into();
    let out = dir.join("helper");
    std::fs::create_dir_all(&out).expect("helper dir");
    std::fs::write(out.join("helper.json"), m.to_string()).expect("write");
    out
}

/// Installs the repository's implicit manifest under `<dir>/data` (an `XDG_DATA_HOME`), naming
/// another path to the layer library, as an earlier install would; returns `<dir>/data`.
fn implicit_install(dir: &Path) -> PathBuf {
    let installed = dir.join("installed");
    std::fs::create_dir_all(&installed).expect("dir");
    let library = installed.join("libVkLayer_exportcheck.so");
    std::os::unix::fs::symlink(our_library(), &library).expect("symlink");
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../manifest/implicit/VkLayer_exportcheck.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(source).expect("manifest")).expect("JSON");
    m["layer"]["library_path"] = library.display().to_string().into();
    let data = dir.join("data");
    let layers = data.join("vulkan/implicit_layer.d");
    std::fs::create_dir_all(&layers).expect("dir");
    std::fs::write(layers.join("VkLayer_exportcheck.json"), m.to_string()).expect("write");
    data
}

#[test]
fn a_layer_path_of_the_users_own_is_searched_after_ours() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("no-layers-here");
    std::fs::create_dir(&empty).expect("dir");
    run_demo(dir.path(), &[("VK_LAYER_PATH", empty.as_os_str())]).assert_ours_once_with_findings();

    // The user's directory still counts: the Khronos layer they enable is found in it.
    let seen = run_demo(
        dir.path(),
        &[
            ("VK_LAYER_PATH", os(SYSTEM_LAYERS)),
            ("VK_INSTANCE_LAYERS", os(KHRONOS)),
        ],
    );
    seen.assert_ours_once_with_findings();
    assert_eq!(seen.explicit(), [OURS, KHRONOS], "{}", seen.stderr);
}

#[test]
fn added_layer_paths_of_the_users_own_stay_searched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let helper = helper_manifest_dir(dir.path());
    let seen = run_demo(
        dir.path(),
        &[
            ("VK_ADD_LAYER_PATH", helper.as_os_str()),
            ("VK_INSTANCE_LAYERS", os(HELPER)),
        ],
    );
    seen.assert_ours_once_with_findings();
    assert_eq!(seen.explicit(), [OURS, HELPER], "{}", seen.stderr);
}

#[test]
fn instance_layers_of_the_users_own_stay_enabled_below_ours() {
    let dir = tempfile::tempdir().expect("tempdir");
    for layers in [KHRONOS.to_owned(), format!("{KHRONOS}:{OURS}")] {
        let seen = run_demo(dir.path(), &[("VK_INSTANCE_LAYERS", os(&layers))]);
        seen.assert_ours_once_with_findings();
        assert_eq!(
            seen.explicit(),
            [OURS, KHRONOS],
            "{layers}: {}",
            seen.stderr
        );
    }
}

#[test]
fn a_disable_filter_of_the_users_own_disables_their_layers_but_not_ours() {
    let dir = tempfile::tempdir().expect("tempdir");
    for filter in ["~all~", "~explicit~", "*EXPORTCHECK*", OURS] {
        let seen = run_demo(
            dir.path(),
            &[
                ("VK_LOADER_LAYERS_DISABLE", os(filter)),
                ("VK_INSTANCE_LAYERS", os(KHRONOS)),
            ],
        );
        seen.assert_ours_once_with_findings();
        // The user's layers stay disabled as they asked: Khronos by the first two filters,
        // Mesa's implicit device_select by `~all~`.
        let expected: &[&str] = match filter {
            "~all~" | "~explicit~" => &[OURS],
            _ => &[OURS, KHRONOS],
        };
        assert_eq!(seen.explicit(), expected, "{filter}: {}", seen.stderr);
        let instance: Vec<&str> = seen.instance.iter().map(|(n, _)| n.as_str()).collect();
        let device_select = instance.contains(&DEVICE_SELECT);
        assert_eq!(device_select, filter != "~all~", "{filter}: {instance:?}");
    }
}

#[test]
fn an_enable_filter_of_the_users_own_is_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    // "Only the Khronos layer among the explicit ones."
    let seen = run_demo(
        dir.path(),
        &[
            ("VK_LOADER_LAYERS_DISABLE", os("~explicit~")),
            ("VK_LOADER_LAYERS_ENABLE", os("*KHRONOS*")),
        ],
    );
    seen.assert_ours_once_with_findings();
    assert_eq!(seen.explicit(), [OURS, KHRONOS], "{}", seen.stderr);
}

#[test]
fn an_installed_implicit_manifest_does_not_replace_or_double_the_layer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = implicit_install(dir.path());
    let empty = dir.path().join("no-layers-here");
    std::fs::create_dir(&empty).expect("dir");
    let enabled = [
        ("XDG_DATA_HOME", data.as_os_str()),
        ("EXPORTCHECK_ENABLE", os("1")),
    ];
    let variants: [&[(&str, &std::ffi::OsStr)]; 4] = [
        &[("XDG_DATA_HOME", data.as_os_str())],
        &enabled,
        &[enabled[0], enabled[1], ("VK_LAYER_PATH", empty.as_os_str())],
        &[
            enabled[0],
            enabled[1],
            ("VK_LOADER_LAYERS_DISABLE", os("~explicit~")),
        ],
    ];
    for env in variants {
        let seen = run_demo(dir.path(), env);
        seen.assert_ours_once_with_findings();
    }
}
