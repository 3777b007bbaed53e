//! Real programs, not only ours: piglit's `ext_external_objects-vk-*` tests (Vulkan exports
//! memory as an opaque fd, Mesa's llvmpipe OpenGL imports it) under `exportcheck run`, on
//! lavapipe, with the real layer and loader. They must pass, the layer must have checked their
//! exports, and it must find nothing wrong with them; the Khronos validation layer, stacked
//! above or below ours, must say the same with our layer as without it.
//!
//! Lavapipe lacks `VK_KHR_external_semaphore_fd`, which the tests require at device creation
//! though the memory tests never use a semaphore: the test-only layer in
//! `tests/hide-semaphore-fd-layer`, below ours, hides that one requirement. See
//! docs/real-programs.md. `semaphores` runs piglit's semaphore tests on SwiftShader, with OpenGL
//! on zink over it, and counts the semaphores shared.
//!
//! Needs piglit, SwiftShader and the Khronos layer (scripts/install-deps.sh); the layer
//! and the helper layer next to the `exportcheck` binary are built first if need be
//! (`common::built`).

#[path = "../common/mod.rs"]
mod common;
mod semaphores;
mod setup;
mod zink;

use common::{exportcheck, texts};
use setup::{HELPER, KHRONOS, OURS};
use std::path::Path;
use std::process::{Command, Output};

/// The piglit tests that pass on lavapipe + llvmpipe (Mesa 22.3). The others skip or fail on
/// the OpenGL side, whatever the layers: the display and semaphore tests require
/// GL_EXT_semaphore, which llvmpipe lacks; the buffer tests fail in glBufferStorageMemEXT
/// (GL_OUT_OF_MEMORY) after the export.
const PIGLIT_TESTS: &[&str] = &["ext_external_objects-vk-image-overwrite"];

const PASS_LINE: &str = r#"PIGLIT: {"result": "pass" }"#;

/// Runs `test` under `exportcheck run --report <dir>/report.json` with `layers` enabled and the
/// helper layer's manifest directory added; returns the output and the merged report.
fn run_under_exportcheck(
    test: &str,
    dir: &Path,
    layers: &[&str],
    extra_env: &[(&str, &Path)],
) -> (Output, serde_json::Value) {
    let piglit = setup::piglit_dir();
    let report = dir.join("report.json");
    let mut c = exportcheck();
    setup::piglit_env(&mut c, &piglit);
    c.env("VK_ADD_LAYER_PATH", setup::helper_manifest_dir(dir))
        .env("VK_INSTANCE_LAYERS", layers.join(":"));
    for (k, v) in extra_env {
        c.env(k, v);
    }
    c.args(["run", "--report"])
        .arg(&report)
        .arg("--")
        .arg(piglit.join("bin").join(test))
        .args(["-auto", "-fbo"]);
    let out = c.output().expect("run exportcheck");
    let json = std::fs::read_to_string(&report)
        .unwrap_or_else(|e| panic!("no report ({e}):\n{}", texts(&out).1));
    (out, serde_json::from_str(&json).expect("report JSON"))
}

/// Runs `test` without exportcheck: `layer_path` as `VK_LAYER_PATH`, `layers` enabled.
fn run_without_exportcheck(
    test: &str,
    layer_path: &str,
    layers: &[&str],
    extra_env: &[(&str, &Path)],
) -> Output {
    let piglit = setup::piglit_dir();
    let mut c = Command::new(piglit.join("bin").join(test));
    setup::piglit_env(&mut c, &piglit);
    c.env("VK_LAYER_PATH", layer_path)
        .env("VK_INSTANCE_LAYERS", layers.join(":"))
        .args(["-auto", "-fbo"]);
    for (k, v) in extra_env {
        c.env(k, v);
    }
    c.output().expect("run piglit")
}

/// The piglit test passed, by its exit status and its result line.
fn assert_passed(test: &str, out: &Output) {
    let (stdout, stderr) = texts(out);
    assert!(
        out.status.success() && stdout.contains(PASS_LINE),
        "{test} did not pass ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
}

/// The layer saw the program's exports and found nothing wrong with the program.
fn assert_exports_checked_and_clean(test: &str, report: &serde_json::Value) {
    let findings = report["findings"].as_array().expect("findings");
    // Findings about the driver (lavapipe's exported fds lack FD_CLOEXEC) are the driver's
    // defects, not the program's; every other finding would be one against the program.
    let about_the_program: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| {
            !f["id"]
                .as_str()
                .unwrap_or("")
                .starts_with("EXPORTCHECK-driver-")
        })
        .collect();
    assert!(
        about_the_program.is_empty(),
        "{test}: findings against a correct program: {about_the_program:#?}"
    );
    // The driver-contract check runs only after the layer intercepted a vkGetMemoryFdKHR that
    // succeeded, on memory it tracked from vkAllocateMemory with its export structure: this
    // finding is the proof that the layer saw the program's exports.
    let seen = findings.iter().any(|f| {
        f["id"] == "EXPORTCHECK-driver-fd-not-cloexec"
            && f["command"] == "vkGetMemoryFdKHR"
            && f["severity"] == "warning"
            && f["message"].as_str().unwrap_or("").contains(
                "VkExportMemoryAllocateInfo::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            )
    });
    assert!(
        seen,
        "{test}: the layer did not report checking a vkGetMemoryFdKHR of an allocation exported \
         as an opaque fd (if lavapipe's exported fds now have FD_CLOEXEC, this proof must change): \
         {findings:#?}"
    );
    let processes = report["processes"].as_array().expect("processes");
    assert_eq!(processes.len(), 1, "{processes:?}");
    assert!(
        processes[0]["executable"]
            .as_str()
            .is_some_and(|e| e.ends_with(test)),
        "{processes:?}"
    );
}

#[test]
fn piglit_exports_pass_under_exportcheck_run_with_their_exports_checked_and_nothing_found() {
    for test in PIGLIT_TESTS {
        let dir = setup::temp_dir();
        let (out, report) = run_under_exportcheck(test, dir.path(), &[OURS, HELPER], &[]);
        assert_passed(test, &out);
        let (_, stderr) = texts(&out);
        assert_eq!(
            setup::device_stack(&stderr),
            [OURS, HELPER],
            "ours must see the program's calls as made, above the helper:\n{stderr}"
        );
        assert!(stderr.contains("exportcheck: PASSED"), "{stderr}");
        assert_exports_checked_and_clean(test, &report);
    }
}

/// One placement of the Khronos layer: the stack below the program with and without ours.
struct Stacking {
    name: &'static str,
    khronos_implicit: bool,
    with_ours: &'static [&'static str],
    without_ours: &'static [&'static str],
}

const KHRONOS_ABOVE_OURS: Stacking = Stacking {
    name: "Khronos above ours",
    khronos_implicit: true,
    with_ours: &[KHRONOS, OURS, HELPER],
    without_ours: &[KHRONOS, HELPER],
};

const KHRONOS_BELOW_OURS: Stacking = Stacking {
    name: "Khronos below ours",
    khronos_implicit: false,
    with_ours: &[OURS, HELPER, KHRONOS],
    without_ours: &[HELPER, KHRONOS],
};

#[test]
fn the_khronos_layer_above_ours_says_the_same_about_piglit_with_and_without_ours() {
    the_khronos_layer_says_the_same(&KHRONOS_ABOVE_OURS);
}

/// Our layer's own calls go through the Khronos layer here: they must be valid (it once asked
/// vkGetPhysicalDeviceExternalBufferProperties about handle types of extensions lavapipe does not
/// support, five Khronos errors per device).
#[test]
fn the_khronos_layer_below_ours_says_the_same_about_piglit_with_and_without_ours() {
    the_khronos_layer_says_the_same(&KHRONOS_BELOW_OURS);
}

fn the_khronos_layer_says_the_same(s: &Stacking) {
    for test in PIGLIT_TESTS {
        let dir = setup::temp_dir();
        let xdg = dir.path().join("xdg");
        std::fs::create_dir_all(&xdg).expect("xdg dir");
        if s.khronos_implicit {
            setup::khronos_as_implicit(&xdg);
        }
        // An implicit Khronos layer is on without being listed.
        let enabled = |stack: &[&'static str]| -> Vec<&'static str> {
            let implicit = |l: &&str| s.khronos_implicit && *l == KHRONOS;
            stack.iter().copied().filter(|l| !implicit(l)).collect()
        };

        let log_without = dir.path().join("khronos-without.txt");
        let settings = setup::khronos_settings(&dir.path().join("without"), &log_without);
        let helper_dir = setup::helper_manifest_dir(dir.path());
        let out = run_without_exportcheck(
            test,
            &format!(
                "{}:/usr/share/vulkan/explicit_layer.d",
                helper_dir.display()
            ),
            &enabled(s.without_ours),
            &[
                ("VK_LAYER_SETTINGS_PATH", &settings),
                ("XDG_DATA_HOME", &xdg),
            ],
        );
        assert_passed(test, &out);
        let (_, stderr) = texts(&out);
        assert_eq!(
            setup::device_stack(&stderr),
            s.without_ours,
            "{}: {stderr}",
            s.name
        );
        let without = setup::khronos_ids(&log_without);
        assert!(
            without
                .iter()
                .any(|id| id == "UNASSIGNED-khronos-validation-createinstance-status-message"),
            "{}: the Khronos layer did not log (is it installed and reading {}?): {without:?}",
            s.name,
            settings.display()
        );

        let log_with = dir.path().join("khronos-with.txt");
        let settings = setup::khronos_settings(&dir.path().join("with"), &log_with);
        let (out, report) = run_under_exportcheck(
            test,
            dir.path(),
            &enabled(s.with_ours),
            &[
                ("VK_LAYER_SETTINGS_PATH", &settings),
                ("XDG_DATA_HOME", &xdg),
            ],
        );
        assert_passed(test, &out);
        let (_, stderr) = texts(&out);
        assert_eq!(
            setup::device_stack(&stderr),
            s.with_ours,
            "{}: {stderr}",
            s.name
        );
        assert_exports_checked_and_clean(test, &report);
        assert_eq!(
            setup::khronos_ids(&log_with),
            without,
            "{}: {test}: the Khronos layer's messages changed with our layer present",
            s.name
        );
    }
}
