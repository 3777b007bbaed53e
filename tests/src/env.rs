//! Points the real Vulkan loader at the freshly built layer and at a driver (lavapipe by default,
//! SwiftShader, or the project's test driver), once per process.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Lavapipe's driver manifest, from Debian's mesa-vulkan-drivers.
pub const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
/// SwiftShader's driver manifest, from Debian's chromium-common (Chromium's own copy of Google's
/// CPU Vulkan driver; not on the loader's default search path).
pub const SWIFTSHADER_ICD: &str = "/usr/lib/chromium/vk_swiftshader_icd.json";
pub const LAYER_NAME: &str = "VK_LAYER_EXPORTCHECK_validation";

pub use crate::built::target_profile_dir;

/// Names another build of the layer for this process's tests (e.g. the panic-injection build);
/// read once, when the first instance of the process sets the loader up.
pub const LAYER_LIBRARY_OVERRIDE: &str = "EXPORTCHECK_TEST_LAYER_LIBRARY";

/// The layer library built by `cargo build` for this profile (built now if need be: see
/// [`crate::built`]), or the one [`LAYER_LIBRARY_OVERRIDE`] names.
pub fn layer_library() -> PathBuf {
    if let Some(lib) = std::env::var_os(LAYER_LIBRARY_OVERRIDE) {
        let lib = PathBuf::from(lib);
        assert!(lib.exists(), "{} is missing", lib.display());
        return lib;
    }
    crate::built::artifact("libVkLayer_exportcheck.so")
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

/// The Khronos validation layer's name, and the directory of its manifest as Debian's
/// `vulkan-validationlayers` installs it.
pub const KHRONOS_LAYER_NAME: &str = "VK_LAYER_KHRONOS_validation";
pub const KHRONOS_LAYER_DIR: &str = "/usr/share/vulkan/explicit_layer.d";

/// Set (to `1`) in the child processes of the tests that stack the Khronos validation layer with
/// ours: `VK_LAYER_PATH` gets the Khronos layer's directory too, and `VK_INSTANCE_LAYERS` is not
/// set, since the app enables both layers itself, in its order ([`crate::Options::layers`]).
/// (The loader here, 1.3.239, builds the same chain for `VK_INSTANCE_LAYERS=A:B` and `B:A`.)
pub const LAYERS_FROM_APP: &str = "EXPORTCHECK_TEST_LAYERS_FROM_APP";

/// The Khronos layer's manifest; panics, saying how to install it, when it is missing.
pub fn khronos_layer_manifest() -> PathBuf {
    let manifest = Path::new(KHRONOS_LAYER_DIR).join("VkLayer_khronos_validation.json");
    assert!(
        manifest.exists(),
        "{} is missing: the stacked-layer tests need the Khronos validation layer \
         (vulkan-validationlayers): run scripts/install-deps.sh",
        manifest.display()
    );
    manifest
}

/// The driver a test binary runs on: one per process, since the loader reads its environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// Mesa lavapipe (Debian's mesa-vulkan-drivers): exposes VK_KHR_external_memory_fd.
    Lavapipe,
    /// The project's test driver (`tests/icd`): exposes every export extension.
    TestDriver,
    /// Both, in that order: two physical devices of different drivers in one instance.
    LavapipeAndTestDriver,
    /// Google's SwiftShader (Debian's chromium-common): exposes VK_KHR_external_memory_fd and
    /// VK_KHR_external_semaphore_fd, and keeps an imported fd open until the memory is freed.
    SwiftShader,
    /// The real driver whose manifest [`REAL_DRIVER_ICD`] names (NVIDIA's on a GPU machine): the
    /// tests that use it are `#[ignore]`d, and run with `--ignored` where one is installed.
    Real,
}

/// The variable naming a real driver's manifest for [`Driver::Real`], e.g.
/// `/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json`.
pub const REAL_DRIVER_ICD: &str = "EXPORTCHECK_TEST_REAL_ICD";

/// The real driver's manifest; panics, saying how to name it, when it is not named.
pub fn real_driver_icd() -> PathBuf {
    let icd = std::env::var_os(REAL_DRIVER_ICD)
        .unwrap_or_else(|| panic!("{REAL_DRIVER_ICD} names no driver manifest"));
    PathBuf::from(icd)
}

/// Lavapipe's manifest; panics, saying how to install it, when it is missing.
pub fn lavapipe_icd() -> PathBuf {
    assert!(
        Path::new(LAVAPIPE_ICD).exists(),
        "{LAVAPIPE_ICD} is missing: install mesa-vulkan-drivers (scripts/install-deps.sh does)"
    );
    PathBuf::from(LAVAPIPE_ICD)
}

/// SwiftShader's manifest; panics, saying how to install it, when it is missing.
pub fn swiftshader_icd() -> PathBuf {
    assert!(
        Path::new(SWIFTSHADER_ICD).exists(),
        "{SWIFTSHADER_ICD} is missing: install chromium-common (scripts/install-deps.sh does)"
    );
    PathBuf::from(SWIFTSHADER_ICD)
}

/// The test driver library built by `cargo build` for this profile (built now if need be: see
/// [`crate::built`]).
pub fn test_driver_library() -> PathBuf {
    crate::built::artifact("libexportcheck_test_icd.so")
}

/// Writes a driver manifest for the test driver `library` into `dir`; returns its path.
pub fn write_driver_manifest(dir: &Path, library: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("manifest dir");
    let manifest = format!(
        r#"{{
    "file_format_version": "1.0.1",
    "ICD": {{
        "library_path": "{}",
        "api_version": "1.3.0"
    }}
}}
"#,
        library.display()
    );
    let path = dir.join("exportcheck_test_icd.json");
    // As for the layer manifest: never rewrite in place what another process may be reading.
    if std::fs::read_to_string(&path).ok().as_deref() != Some(manifest.as_str()) {
        let tmp = dir.join(format!(".exportcheck_test_icd.json.{}", std::process::id()));
        std::fs::write(&tmp, manifest).expect("write driver manifest");
        std::fs::rename(&tmp, &path).expect("install driver manifest");
    }
    path
}

/// Sets the loader's environment for lavapipe, once, before the loader is first loaded.
pub fn setup() {
    setup_with(Driver::Lavapipe);
}

/// Sets the loader's environment for `driver`, once per process, before the loader is first
/// loaded. Asking for another driver later in the same process is a test-suite bug.
pub fn setup_with(driver: Driver) {
    static CHOSEN: OnceLock<Driver> = OnceLock::new();
    let chosen = *CHOSEN.get_or_init(|| {
        // A manifest directory per library, so builds never overwrite each other's manifest.
        let library = layer_library();
        let dir = match std::env::var_os(LAYER_LIBRARY_OVERRIDE) {
            None => target_profile_dir().join("exportcheck-test-manifest"),
            Some(_) => library
                .parent()
                .expect("library dir")
                .join("exportcheck-test-manifest"),
        };
        let dir = write_manifest(&dir, &library);
        let driver_files = match driver {
            Driver::Lavapipe => lavapipe_icd(),
            Driver::SwiftShader => swiftshader_icd(),
            Driver::Real => real_driver_icd(),
            // Not in the layer directory, where the loader would warn about a manifest
            // without a layer (a message the stacked-layer tests would see).
            Driver::TestDriver => {
                write_driver_manifest(&dir.join("driver"), &test_driver_library())
            }
            Driver::LavapipeAndTestDriver => {
                let test_driver =
                    write_driver_manifest(&dir.join("driver"), &test_driver_library());
                let mut both = PathBuf::from(LAVAPIPE_ICD).into_os_string();
                both.push(":");
                both.push(test_driver);
                PathBuf::from(both)
            }
        };
        // Set before any thread loads the loader; the values are the same for every test.
        if std::env::var_os(LAYERS_FROM_APP).is_none() {
            std::env::set_var("VK_LAYER_PATH", &dir);
            std::env::set_var("VK_INSTANCE_LAYERS", LAYER_NAME);
        } else {
            khronos_layer_manifest();
            let mut path = dir.into_os_string();
            path.push(":");
            path.push(KHRONOS_LAYER_DIR);
            std::env::set_var("VK_LAYER_PATH", path);
            std::env::remove_var("VK_INSTANCE_LAYERS");
        }
        std::env::set_var("VK_DRIVER_FILES", &driver_files);
        std::env::set_var("VK_ICD_FILENAMES", &driver_files);
        driver
    });
    assert_eq!(chosen, driver, "one driver per test binary");
}
