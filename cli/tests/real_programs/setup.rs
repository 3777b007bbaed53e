//! What the piglit runs need: the programs, lavapipe, the helper layer's manifest, the Khronos
//! layer's settings, and the loader's layer stack as it reports it.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const SWIFTSHADER: &str = "/usr/lib/chromium/vk_swiftshader_icd.json";
pub const OURS: &str = "VK_LAYER_EXPORTCHECK_validation";
pub const HELPER: &str = "VK_LAYER_EXPORTCHECK_TEST_hide_semaphore_fd";
pub const KHRONOS: &str = "VK_LAYER_KHRONOS_validation";
pub const KHRONOS_MANIFEST: &str =
    "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json";
const INSTALL_HINT: &str = "run scripts/install-deps.sh (scripts/test.sh does)";

/// piglit's directory (`/usr/lib/<multiarch>/piglit`), holding `bin/` and the shaders the
/// tests load from `tests/spec/` (`PIGLIT_SOURCE_DIR`).
pub fn piglit_dir() -> PathBuf {
    let found = std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("piglit"))
        .find(|d| {
            d.join("bin/ext_external_objects-vk-image-overwrite")
                .exists()
        });
    found.unwrap_or_else(|| panic!("piglit is not installed: {INSTALL_HINT}"))
}

/// SwiftShader's ICD manifest (Debian's `chromium-common`), which has
/// `VK_KHR_external_semaphore_fd` (opaque fd, binary semaphores).
pub fn swiftshader() -> &'static str {
    assert!(
        Path::new(SWIFTSHADER).exists(),
        "SwiftShader is not installed ({SWIFTSHADER}): {INSTALL_HINT}"
    );
    SWIFTSHADER
}

/// A fresh temporary directory.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// Writes the helper layer's manifest into `dir`, naming the library cargo built next to the
/// `exportcheck` binary (same profile), and returns `dir`.
pub fn helper_manifest_dir(dir: &Path) -> PathBuf {
    let library = crate::common::built("libVkLayer_exportcheck_hide_semaphore_fd.so");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/hide-semaphore-fd-layer/VkLayer_exportcheck_hide_semaphore_fd.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&source).expect("helper manifest"))
            .expect("helper manifest JSON");
    manifest["layer"]["library_path"] = library.display().to_string().into();
    let out = dir.join("helper");
    std::fs::create_dir_all(&out).expect("helper dir");
    std::fs::write(
        out.join("VkLayer_exportcheck_hide_semaphore_fd.json"),
        manifest.to_string(),
    )
    .expect("write helper manifest");
    out
}

/// Makes the Khronos layer an implicit layer under `xdg_data_home`: implicit layers sit above
/// every explicit one, the only way to put it above exportcheck with loader 1.3.239, which
/// stacks explicit layers in the order their manifests are found, not in the order of
/// `VK_INSTANCE_LAYERS` (and `exportcheck run` puts its manifest first).
pub fn khronos_as_implicit(xdg_data_home: &Path) {
    let text = std::fs::read_to_string(KHRONOS_MANIFEST)
        .unwrap_or_else(|e| panic!("{KHRONOS_MANIFEST}: {e}: {INSTALL_HINT}"));
    let mut manifest: serde_json::Value = serde_json::from_str(&text).expect("Khronos manifest");
    manifest["layer"]["disable_environment"] =
        serde_json::json!({ "EXPORTCHECK_TEST_KHRONOS_IMPLICIT_OFF": "1" });
    let dir = xdg_data_home.join("vulkan/implicit_layer.d");
    std::fs::create_dir_all(&dir).expect("implicit layer dir");
    std::fs::write(
        dir.join("VkLayer_khronos_validation.json"),
        manifest.to_string(),
    )
    .expect("write implicit Khronos manifest");
}

/// A settings directory for the Khronos layer (`VK_LAYER_SETTINGS_PATH`): every message
/// severity, logged to `log`.
pub fn khronos_settings(dir: &Path, log: &Path) -> PathBuf {
    let out = dir.join("khronos-settings");
    std::fs::create_dir_all(&out).expect("settings dir");
    std::fs::write(
        out.join("vk_layer_settings.txt"),
        format!(
            "khronos_validation.report_flags = error,warn,perf,info\n\
             khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n\
             khronos_validation.log_filename = {}\n",
            log.display()
        ),
    )
    .expect("write settings");
    out
}

/// The environment every piglit run gets: headless EGL, llvmpipe GL, lavapipe Vulkan, and none
/// of the caller's layer variables.
pub fn piglit_env(c: &mut Command, piglit: &Path) {
    for var in [
        "VK_LAYER_PATH",
        "VK_ADD_LAYER_PATH",
        "VK_INSTANCE_LAYERS",
        "VK_LOADER_LAYERS_ENABLE",
        "VK_LOADER_LAYERS_DISABLE",
        "VK_LAYER_SETTINGS_PATH",
        "XDG_DATA_HOME",
    ] {
        c.env_remove(var);
    }
    c.env("PIGLIT_PLATFORM", "surfaceless_egl")
        .env("PIGLIT_SOURCE_DIR", piglit)
        .env("VK_DRIVER_FILES", LAVAPIPE)
        .env("VK_LOADER_DEBUG", "layer")
        .env("XDG_CACHE_HOME", own_cache_dir());
}

/// A cache directory of this run's own: the Khronos layer reads and writes its validation cache
/// under `XDG_CACHE_HOME`, and two runs at once (the tests run in parallel) sharing one file
/// made it report `UNASSIGNED-cache-file-error` in one run and not the other (seen in CI's
/// set-up on a fresh machine), which the tests comparing the Khronos layer's messages with and
/// without ours took for a difference. Each run starts without a cache: the same for both.
fn own_cache_dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "exportcheck-real-programs-cache-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a cache directory");
    dir
}

/// The layers of the (first) device chain as the loader reports them (`VK_LOADER_DEBUG=layer`),
/// from the app down, without Mesa's implicit device-select layer.
pub fn device_stack(loader_log: &str) -> Vec<String> {
    device_stacks(loader_log)
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// The layers of every device chain the loader set up, in order, as [`device_stack`] reads one.
pub fn device_stacks(loader_log: &str) -> Vec<Vec<String>> {
    let mut stacks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in loader_log.lines() {
        if line.contains("vkCreateDevice layer callstack setup to:") {
            current = Some(Vec::new());
            continue;
        }
        let Some(stack) = current.as_mut() else {
            continue;
        };
        let word = line.trim_start_matches("LAYER:").trim();
        if word == "<Device>" {
            stacks.extend(current.take());
        } else if word.starts_with("VK_LAYER_") && word != "VK_LAYER_MESA_device_select" {
            stack.push(word.to_owned());
        }
    }
    stacks
}

/// The IDs of the Khronos layer's messages in its log, sorted (handles differ between runs).
pub fn khronos_ids(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut ids: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let start = l.find("[ ")? + 2;
            let len = l[start..].find(" ]")?;
            Some(l[start..start + len].to_owned())
        })
        .collect();
    ids.sort();
    ids
}
