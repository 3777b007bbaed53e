//! The layer library and its manifest.

use std::path::{Path, PathBuf};

/// The layer's name in manifests and in `VK_INSTANCE_LAYERS`.
pub const LAYER_NAME: &str = "VK_LAYER_EXPORTCHECK_validation";

/// The manifest's file name.
pub const MANIFEST_FILE: &str = "VkLayer_exportcheck.json";

/// The repository's explicit-layer manifest; generated manifests are this one with an absolute
/// `library_path`, so the two never drift apart.
const MANIFEST_TEMPLATE: &str = include_str!("../../manifest/VkLayer_exportcheck.json");

/// The layer library's file name on this platform.
#[must_use]
pub fn library_file_name() -> &'static str {
    if cfg!(windows) {
        "VkLayer_exportcheck.dll"
    } else if cfg!(target_os = "macos") {
        "libVkLayer_exportcheck.dylib"
    } else {
        "libVkLayer_exportcheck.so"
    }
}

/// The layer library to use: `explicit` (made absolute) when given, else the library next to
/// this executable (`cargo build` puts both in `target/<profile>/`).
///
/// # Errors
///
/// A message for the user when the file does not exist.
pub fn resolve(explicit: Option<&Path>) -> Result<PathBuf, String> {
    let path = match explicit {
        Some(p) => absolute(p)?,
        None => next_to_executable(library_file_name())?,
    };
    if path.is_file() {
        Ok(path)
    } else if explicit.is_some() {
        Err(format!(
            "the layer library {} does not exist",
            path.display()
        ))
    } else {
        Err(format!(
            "the layer library {} does not exist: build it next to this executable \
             (`cargo build --release` builds both), or pass --layer PATH",
            path.display()
        ))
    }
}

/// `file_name` in the directory of this executable (where `cargo build` puts the libraries of
/// the workspace).
///
/// # Errors
///
/// When the executable's path cannot be read.
pub fn next_to_executable(file_name: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot tell where this executable is: {e}"))?;
    let dir = exe
        .parent()
        .ok_or_else(|| format!("{} has no parent directory", exe.display()))?;
    Ok(dir.join(file_name))
}

/// `p` as an absolute path (not resolving symbolic links: the loader opens what it is given).
///
/// # Errors
///
/// When the current directory cannot be read.
pub fn absolute(p: &Path) -> Result<PathBuf, String> {
    std::path::absolute(p).map_err(|e| format!("cannot make {} absolute: {e}", p.display()))
}

/// The explicit-layer manifest for the library at `library` (an absolute path).
///
/// # Errors
///
/// When the path is not UTF-8 (manifests are JSON text).
pub fn manifest_json(library: &Path) -> Result<String, String> {
    let library = library
        .to_str()
        .ok_or_else(|| format!("the layer path {} is not UTF-8", library.display()))?;
    let mut manifest: serde_json::Value =
        serde_json::from_str(MANIFEST_TEMPLATE).expect("manifest/VkLayer_exportcheck.json");
    manifest["layer"]["library_path"] = serde_json::Value::from(library);
    let mut text = serde_json::to_string_pretty(&manifest).expect("JSON value");
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_is_the_repositorys_with_an_absolute_path() {
        let text = manifest_json(Path::new("/opt/x y/libVkLayer_exportcheck.so")).unwrap();
        let m: serde_json::Value = serde_json::from_str(&text).unwrap();
        let template: serde_json::Value = serde_json::from_str(MANIFEST_TEMPLATE).unwrap();
        assert_eq!(m["layer"]["name"], LAYER_NAME);
        assert_eq!(
            m["layer"]["library_path"],
            "/opt/x y/libVkLayer_exportcheck.so"
        );
        for key in [
            "type",
            "api_version",
            "implementation_version",
            "description",
        ] {
            assert_eq!(m["layer"][key], template["layer"][key], "{key}");
        }
        assert_eq!(m["file_format_version"], template["file_format_version"]);
    }

    #[test]
    fn resolve_checks_the_file_exists_and_makes_it_absolute() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib.so");
        assert!(resolve(Some(&lib)).unwrap_err().contains("does not exist"));
        std::fs::write(&lib, b"").unwrap();
        assert_eq!(resolve(Some(&lib)).unwrap(), lib);
        let relative = Path::new("Cargo.toml"); // tests run in the crate's directory
        let resolved = resolve(Some(relative)).unwrap();
        assert!(resolved.is_absolute() && resolved.ends_with("Cargo.toml"));
    }

    #[test]
    fn library_name_matches_the_platform() {
        #[cfg(target_os = "linux")]
        assert_eq!(library_file_name(), "libVkLayer_exportcheck.so");
    }
}
