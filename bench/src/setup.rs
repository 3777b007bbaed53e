//! Where everything is, and the loader environment of each child: which driver manifest, which
//! layer manifests, the layer settings (logs to a file, off stdout).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::model::Driver;

/// Mesa lavapipe's driver manifest (Debian's mesa-vulkan-drivers).
pub const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
/// The Khronos validation layer's manifest (Debian's vulkan-validationlayers).
pub const KHRONOS_MANIFEST: &str =
    "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json";
/// The test driver's configuration in every benchmark child: allocations without a memfd until
/// exported or mapped, so that a million live allocations fit under the open-file limit and an
/// allocation costs no system call.
/// It reports no allocation-count limit (as NVIDIA's Linux driver does) and 16 GiB heaps, so that
/// a million live 4 KiB allocations are valid usage.
pub const TEST_DRIVER_CONFIG: &str = r#"{"memory_backing": "none", "max_memory_allocation_count": 4294967295, "memory_heaps": [{"size": 17179869184, "flags": ["DEVICE_LOCAL"]}, {"size": 17179869184}]}"#;

/// The files the benchmark uses and writes.
#[derive(Clone, Debug)]
pub struct Paths {
    /// `target/bench`: manifests, settings, logs, results.
    pub bench_dir: PathBuf,
    pub layer_library: PathBuf,
    pub test_driver_library: PathBuf,
}

impl Paths {
    /// Defaults: the libraries next to this executable (`target/release`), output in
    /// `target/bench`.
    pub fn new(layer: Option<PathBuf>, test_driver: Option<PathBuf>) -> Result<Paths, String> {
        let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
        let profile_dir = exe.parent().ok_or("executable without a directory")?;
        let target = profile_dir.parent().unwrap_or(profile_dir);
        let absolute = |p: PathBuf| std::path::absolute(&p).unwrap_or(p);
        Ok(Paths {
            bench_dir: target.join("bench"),
            layer_library: absolute(
                layer.unwrap_or_else(|| profile_dir.join("libVkLayer_exportcheck.so")),
            ),
            test_driver_library: absolute(
                test_driver.unwrap_or_else(|| profile_dir.join("libexportcheck_test_icd.so")),
            ),
        })
    }

    pub fn layer_manifest_dir(&self) -> PathBuf {
        self.bench_dir.join("layer-manifest")
    }

    pub fn test_driver_manifest(&self) -> PathBuf {
        self.bench_dir
            .join("driver-manifest")
            .join("exportcheck_test_icd.json")
    }

    /// The log file of one child.
    pub fn log_file(&self, label: &str) -> PathBuf {
        self.bench_dir.join("logs").join(format!("{label}.log"))
    }

    /// The settings file (`vk_layer_settings.txt`) of one child.
    pub fn settings_file(&self, label: &str) -> PathBuf {
        self.bench_dir
            .join("settings")
            .join(label)
            .join("vk_layer_settings.txt")
    }

    /// Copies the layer and test driver libraries into `target/bench/libs` and uses the copies
    /// from then on, so every child of a run loads the same build even when `target/release` is
    /// rebuilt meanwhile. Returns what was copied.
    pub fn snapshot_libraries(&mut self) -> Result<[LibraryInfo; 2], String> {
        let dir = self.bench_dir.join("libs");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let copy = |lib: &mut PathBuf| -> Result<LibraryInfo, String> {
            let bytes = std::fs::read(&*lib).map_err(|e| format!("{}: {e}", lib.display()))?;
            let name = lib.file_name().ok_or("library path without a file name")?;
            let info = LibraryInfo {
                source: lib.display().to_string(),
                bytes: bytes.len() as u64,
                fnv1a64: format!("{:016x}", fnv1a64(&bytes)),
                modified_unix: std::fs::metadata(&*lib)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_secs()),
            };
            let dst = dir.join(name);
            // Through a rename: a child of an earlier run may still have the old copy mapped.
            let tmp = dst.with_extension(format!("tmp{}", std::process::id()));
            std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
            std::fs::rename(&tmp, &dst).map_err(|e| format!("{}: {e}", dst.display()))?;
            *lib = dst;
            Ok(info)
        };
        Ok([
            copy(&mut self.layer_library)?,
            copy(&mut self.test_driver_library)?,
        ])
    }

    /// Writes the layer manifest (pointing at the layer library) and the test driver manifest.
    pub fn write_manifests(&self) -> Result<(), String> {
        let layer = format!(
            r#"{{
    "file_format_version": "1.2.0",
    "layer": {{
        "name": "VK_LAYER_EXPORTCHECK_validation",
        "type": "GLOBAL",
        "library_path": {},
        "api_version": "1.4.0",
        "implementation_version": "1",
        "description": "exportcheck (benchmark)"
    }}
}}
"#,
            json_string(&self.layer_library)
        );
        write(
            &self.layer_manifest_dir().join("VkLayer_exportcheck.json"),
            &layer,
        )?;
        let driver = format!(
            r#"{{
    "file_format_version": "1.0.1",
    "ICD": {{
        "library_path": {},
        "api_version": "1.3.0"
    }}
}}
"#,
            json_string(&self.test_driver_library)
        );
        write(&self.test_driver_manifest(), &driver)
    }

    /// The driver manifest of `driver`.
    pub fn driver_manifest(&self, driver: Driver) -> PathBuf {
        match driver {
            Driver::TestDriver => self.test_driver_manifest(),
            Driver::Lavapipe => PathBuf::from(LAVAPIPE_ICD),
        }
    }

    /// File name of `driver`'s library, from its manifest.
    pub fn driver_library_name(&self, driver: Driver) -> Result<String, String> {
        let library = match driver {
            Driver::TestDriver => self.test_driver_library.clone(),
            Driver::Lavapipe => {
                let text = std::fs::read_to_string(LAVAPIPE_ICD)
                    .map_err(|e| format!("{LAVAPIPE_ICD}: {e}"))?;
                let v: serde_json::Value =
                    serde_json::from_str(&text).map_err(|e| format!("{LAVAPIPE_ICD}: {e}"))?;
                PathBuf::from(
                    v["ICD"]["library_path"]
                        .as_str()
                        .ok_or_else(|| format!("{LAVAPIPE_ICD}: no ICD.library_path"))?,
                )
            }
        };
        Ok(library
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default())
    }

    /// Sets the loader environment of a child on `driver` (the same for every configuration:
    /// the child's application enables the layer); the layers log to a file of the child's own,
    /// whose path is returned, so stdout carries only the result.
    pub fn configure(
        &self,
        cmd: &mut Command,
        driver: Driver,
        label: &str,
    ) -> Result<PathBuf, String> {
        // Nothing inherited may change what the loader loads or how the layers behave.
        for (key, _) in std::env::vars_os() {
            let k = key.to_string_lossy();
            if k.starts_with("VK_") || k.starts_with("EXPORTCHECK_") {
                cmd.env_remove(&key);
            }
        }
        let manifest = self.driver_manifest(driver);
        cmd.env("VK_DRIVER_FILES", &manifest)
            .env("VK_ICD_FILENAMES", &manifest)
            // Implicit layers (Mesa's device-select, ...) stay out of every configuration.
            .env("VK_LOADER_LAYERS_DISABLE", "~implicit~");
        // The same layers are found in every configuration (the loader reads every manifest on
        // its path at vkCreateInstance); only which one the application enables differs.
        let khronos_dir = Path::new(KHRONOS_MANIFEST)
            .parent()
            .unwrap_or(Path::new("/"));
        let layer_path = std::env::join_paths([self.layer_manifest_dir().as_path(), khronos_dir])
            .map_err(|e| format!("VK_LAYER_PATH: {e}"))?;
        cmd.env("VK_LAYER_PATH", layer_path);
        if driver == Driver::TestDriver {
            cmd.env("EXPORTCHECK_TEST_ICD_CONFIG", TEST_DRIVER_CONFIG);
        }
        let log = self.log_file(label);
        if let Some(dir) = log.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let _ = std::fs::remove_file(&log);
        let settings = self.settings_file(label);
        let log_path = log.display();
        // Cross-process checking, measured on demand (docs/performance.md): the layer then
        // records every fd export in this directory.
        let shared = std::env::var(SHARED_EXPORTS_VAR)
            .map(|dir| format!("exportcheck_validation.shared_exports_dir = {dir}\n"))
            .unwrap_or_default();
        write(
            &settings,
            &format!(
                "# Written by exportcheck-bench: layer messages go to a file, not to stdout.\n\
                 khronos_validation.log_filename = {log_path}\n\
                 exportcheck_validation.log_filename = {log_path}\n{shared}"
            ),
        )?;
        cmd.env("VK_LAYER_SETTINGS_PATH", &settings);
        Ok(log)
    }
}

/// The bench's own variable naming a directory for the layer's `shared_exports_dir` in every
/// configuration (unset: cross-process checking is off, as by default).
pub const SHARED_EXPORTS_VAR: &str = "EXPORTCHECK_BENCH_SHARED_EXPORTS_DIR";

/// A library a run used: where it was copied from, and what it was.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LibraryInfo {
    pub source: String,
    pub bytes: u64,
    /// FNV-1a (64-bit) of the file: tells two builds apart.
    pub fnv1a64: String,
    pub modified_unix: u64,
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `path` as a JSON string literal.
fn json_string(path: &Path) -> String {
    serde_json::Value::String(path.display().to_string()).to_string()
}

/// Writes `text` to `path` (creating its directory) through a rename, so a reader never sees a
/// half-written file.
fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_and_settings_are_written_where_the_child_looks() {
        let dir = std::env::temp_dir().join(format!("exportcheck-bench-{}", std::process::id()));
        let paths = Paths {
            bench_dir: dir.clone(),
            layer_library: PathBuf::from("/x/lib\"q.so"),
            test_driver_library: PathBuf::from("/y/libexportcheck_test_icd.so"),
        };
        paths.write_manifests().unwrap();
        let layer: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(paths.layer_manifest_dir().join("VkLayer_exportcheck.json"))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(layer["layer"]["library_path"], "/x/lib\"q.so");
        assert_eq!(
            paths.driver_library_name(Driver::TestDriver).unwrap(),
            "libexportcheck_test_icd.so"
        );
        let mut cmd = Command::new("true");
        let log = paths.configure(&mut cmd, Driver::TestDriver, "t").unwrap();
        let envs: Vec<_> = cmd.get_envs().collect();
        let get = |k: &str| {
            envs.iter()
                .find(|(key, _)| *key == k)
                .and_then(|(_, v)| *v)
                .map(|v| v.to_string_lossy().into_owned())
        };
        assert!(get("VK_LAYER_PATH")
            .unwrap()
            .starts_with(&paths.layer_manifest_dir().display().to_string()));
        assert!(log.parent().unwrap().is_dir());
        assert_eq!(
            get("EXPORTCHECK_TEST_ICD_CONFIG").unwrap(),
            TEST_DRIVER_CONFIG
        );
        let settings = std::fs::read_to_string(paths.settings_file("t")).unwrap();
        assert!(settings.contains(&format!(
            "exportcheck_validation.log_filename = {}",
            log.display()
        )));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn snapshots_are_copies_with_the_same_name() {
        let dir = std::env::temp_dir().join(format!("exportcheck-bench-s{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let layer = dir.join("libVkLayer_exportcheck.so");
        let driver = dir.join("libexportcheck_test_icd.so");
        std::fs::write(&layer, b"layer").unwrap();
        std::fs::write(&driver, b"driver").unwrap();
        let mut paths = Paths {
            bench_dir: dir.join("bench"),
            layer_library: layer.clone(),
            test_driver_library: driver,
        };
        let [l, d] = paths.snapshot_libraries().unwrap();
        assert_eq!(l.source, layer.display().to_string());
        assert_eq!((l.bytes, d.bytes), (5, 6));
        assert_ne!(l.fnv1a64, d.fnv1a64);
        assert_eq!(
            paths.layer_library,
            dir.join("bench/libs/libVkLayer_exportcheck.so")
        );
        assert_eq!(
            std::fs::read(&paths.test_driver_library).unwrap(),
            b"driver"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
