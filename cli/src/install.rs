//! `exportcheck install` / `uninstall`: the explicit-layer manifest where the loader looks.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::args::{InstallArgs, ScopeArgs};
use crate::exit;
use crate::layer_lib::{self, LAYER_NAME, MANIFEST_FILE};

/// Where `--system` installs.
pub const SYSTEM_DIR: &str = "/usr/share/vulkan/explicit_layer.d";

/// The explicit-layer directory for `scope`: `--system` is [`SYSTEM_DIR`]; `--user` (the
/// default) is `$XDG_DATA_HOME/vulkan/explicit_layer.d`, where an unset, empty or relative
/// `XDG_DATA_HOME` means `$HOME/.local/share` (as the XDG specification says).
///
/// # Errors
///
/// When neither `XDG_DATA_HOME` nor `HOME` gives a directory.
pub fn layer_dir(
    scope: &ScopeArgs,
    lookup: &dyn Fn(&str) -> Option<OsString>,
) -> Result<PathBuf, String> {
    if scope.system {
        return Ok(PathBuf::from(SYSTEM_DIR));
    }
    let absolute = |name: &str| lookup(name).map(PathBuf::from).filter(|p| p.is_absolute());
    let data_home = absolute("XDG_DATA_HOME")
        .or_else(|| absolute("HOME").map(|h| h.join(".local").join("share")))
        .ok_or("neither XDG_DATA_HOME nor HOME is set to an absolute directory")?;
    Ok(data_home.join("vulkan").join("explicit_layer.d"))
}

fn lookup_env(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// Writes the manifest into `dir` (created if needed), atomically; returns its path.
///
/// # Errors
///
/// A message for the user.
pub fn install(dir: &Path, library: &Path) -> Result<PathBuf, String> {
    let text = layer_lib::manifest_json(library)?;
    std::fs::create_dir_all(dir).map_err(|e| denied(dir, &e))?;
    let path = dir.join(MANIFEST_FILE);
    let tmp = dir.join(format!(".{MANIFEST_FILE}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| denied(&tmp, &e))?;
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        denied(&path, &e)
    })?;
    Ok(path)
}

/// Removes the manifest from `dir`; `Ok(None)` when there was none.
///
/// # Errors
///
/// A message for the user.
pub fn uninstall(dir: &Path) -> Result<Option<PathBuf>, String> {
    let path = dir.join(MANIFEST_FILE);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(Some(path)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(denied(&path, &e)),
    }
}

fn denied(path: &Path, e: &std::io::Error) -> String {
    let hint = if e.kind() == std::io::ErrorKind::PermissionDenied {
        " (--system needs root: try sudo)"
    } else {
        ""
    };
    format!("cannot write {}: {e}{hint}", path.display())
}

/// `exportcheck install`.
#[must_use]
pub fn install_command(args: &InstallArgs) -> i32 {
    let result = layer_lib::resolve(args.layer.as_deref()).and_then(|library| {
        let dir = layer_dir(&args.scope, &lookup_env)?;
        install(&dir, &library).map(|path| (path, library))
    });
    match result {
        Ok((path, library)) => {
            println!("installed {LAYER_NAME}: {}", path.display());
            println!("  library_path: {}", library.display());
            println!("enable it for an app with VK_INSTANCE_LAYERS={LAYER_NAME}");
            exit::EXIT_OK
        }
        Err(e) => {
            eprintln!("exportcheck: {e}");
            exit::EXIT_TOOL_ERROR
        }
    }
}

/// `exportcheck uninstall`.
#[must_use]
pub fn uninstall_command(args: &ScopeArgs) -> i32 {
    match layer_dir(args, &lookup_env).and_then(|dir| uninstall(&dir).map(|r| (dir, r))) {
        Ok((_, Some(path))) => {
            println!("removed {}", path.display());
            exit::EXIT_OK
        }
        Ok((dir, None)) => {
            println!("not installed: no {MANIFEST_FILE} in {}", dir.display());
            exit::EXIT_OK
        }
        Err(e) => {
            eprintln!("exportcheck: {e}");
            exit::EXIT_TOOL_ERROR
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scope(system: bool) -> ScopeArgs {
        ScopeArgs {
            user: !system,
            system,
        }
    }

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn directories() {
        let user = |pairs| layer_dir(&scope(false), &env(pairs));
        assert_eq!(
            user(&[("XDG_DATA_HOME", "/x"), ("HOME", "/h")]).unwrap(),
            PathBuf::from("/x/vulkan/explicit_layer.d")
        );
        assert_eq!(
            user(&[("XDG_DATA_HOME", "relative"), ("HOME", "/h")]).unwrap(),
            PathBuf::from("/h/.local/share/vulkan/explicit_layer.d")
        );
        assert_eq!(
            user(&[("HOME", "/h")]).unwrap(),
            PathBuf::from("/h/.local/share/vulkan/explicit_layer.d")
        );
        assert!(user(&[]).is_err());
        assert_eq!(
            layer_dir(&scope(true), &env(&[("XDG_DATA_HOME", "/x")])).unwrap(),
            PathBuf::from(SYSTEM_DIR)
        );
    }

    #[test]
    fn install_then_uninstall() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a/b");
        let path = install(&target, Path::new("/opt/libVkLayer_exportcheck.so")).unwrap();
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(m["layer"]["library_path"], "/opt/libVkLayer_exportcheck.so");
        // Reinstalling replaces it; no temporary file is left.
        install(&target, Path::new("/opt/other.so")).unwrap();
        assert_eq!(std::fs::read_dir(&target).unwrap().count(), 1);
        assert_eq!(uninstall(&target).unwrap(), Some(path));
        assert_eq!(uninstall(&target).unwrap(), None);
    }
}
