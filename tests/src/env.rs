//! Points the real Vulkan loader at the freshly built layer and at lavapipe, once per process.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Lavapipe's driver manifest, from Debian's mesa-vulkan-drivers.
pub const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
pub const LAYER_NAME: &str = "VK_LAYER_EXPORTCHECK_validation";

/// `target/<profile>` of the running test binary (`target/<profile>/deps/<test>`).
pub fn target_profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("deps dir");
    deps.parent().expect("profile dir").to_path_buf()
}

/// The layer library built by `cargo build` for this profile.
pub fn layer_library() -> PathBuf {
    let lib = target_profile_dir().join("libVkLayer_exportcheck.so");
    assert!(
        lib.exists(),
        "{} is missing: build the workspace first (`cargo build --workspace`, as scripts/test.sh does)",
        lib.display()
    );
    lib
}

/// Writes a layer manifest for `library` into `dir` and returns the directory.
pub fn write_manifest(dir: &Path, library: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("manifest dir");
    let manifest = format!(
        r#"{{
    "file_format_version": "1.2.0",
    "layer": {{
        "name": "{LAYER_NAME}",
        "type": "GLOBAL",
        "library_path": "{}",
        "api_version": "1.4.0",
        "implementation_version": "1",
        "description": "exportcheck (test build)"
    }}
}}
"#,
        library.display()
    );
    let path = dir.join("VkLayer_exportcheck.json");
    // Test binaries re-run themselves as child processes (and several may run at once): a loader
    // in another process may be reading the manifest right now. Never truncate it in place: leave
    // an identical manifest alone, else write a private file and rename it over (atomic).
    if std::fs::read_to_string(&path).ok().as_deref() != Some(manifest.as_str()) {
        let tmp = dir.join(format!(".VkLayer_exportcheck.json.{}", std::process::id()));
        std::fs::write(&tmp, manifest).expect("write manifest");
        std::fs::rename(&tmp, &path).expect("install manifest");
    }
    dir.to_path_buf()
}

/// Sets the loader's environment once, before the loader is first loaded.
pub fn setup() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let dir = target_profile_dir().join("exportcheck-test-manifest");
        let dir = write_manifest(&dir, &layer_library());
        assert!(
            Path::new(LAVAPIPE_ICD).exists(),
            "{LAVAPIPE_ICD} is missing: install mesa-vulkan-drivers (scripts/setup.sh does)"
        );
        // Set before any thread loads the loader; the values are the same for every test.
        std::env::set_var("VK_LAYER_PATH", &dir);
        std::env::set_var("VK_INSTANCE_LAYERS", LAYER_NAME);
        std::env::set_var("VK_DRIVER_FILES", LAVAPIPE_ICD);
        std::env::set_var("VK_ICD_FILENAMES", LAVAPIPE_ICD);
    });
}
