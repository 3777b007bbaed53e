//! The CUDA interposer (`cuda/shim`, `libexportcheck_cuda.so`) that `run` preloads into the
//! app's processes, so that the layer checks their CUDA imports of Vulkan exports
//! (docs/cuda.md).

use std::path::{Path, PathBuf};

use crate::layer_lib::{absolute, next_to_executable};

/// The interposer's file name (Linux only: elsewhere there is none).
pub const LIBRARY_FILE_NAME: &str = "libexportcheck_cuda.so";

/// What `run` does about CUDA.
#[derive(Debug, PartialEq, Eq)]
pub enum CudaShim {
    /// Preload the interposer at this absolute path.
    Preload(PathBuf),
    /// Do not; with a note for the user when they did not ask for that.
    Off(Option<String>),
}

/// The interposer to preload: `explicit` (`--cuda-shim`, made absolute) when given, else the
/// one next to this executable; none with `--no-cuda` (`disabled`) or off Linux.
///
/// # Errors
///
/// When `explicit` does not exist or cannot be preloaded (`LD_PRELOAD` cannot name a path with
/// a space or a colon). The default one missing or unusable is only a note: the Vulkan side of
/// the run still works.
pub fn choose(explicit: Option<&Path>, disabled: bool) -> Result<CudaShim, String> {
    choose_with_default(explicit, disabled, || next_to_executable(LIBRARY_FILE_NAME))
}

/// [`choose`], the default path given by `default`.
fn choose_with_default(
    explicit: Option<&Path>,
    disabled: bool,
    default: impl FnOnce() -> Result<PathBuf, String>,
) -> Result<CudaShim, String> {
    if disabled || !cfg!(target_os = "linux") {
        return Ok(CudaShim::Off(None));
    }
    match explicit {
        Some(path) => usable(&absolute(path)?).map(CudaShim::Preload),
        None => Ok(match default().and_then(|p| usable(&p)) {
            Ok(path) => CudaShim::Preload(path),
            Err(why) => CudaShim::Off(Some(format!(
                "{why}: CUDA calls are not checked in this run (--cuda-shim PATH names \
                     another, --no-cuda turns this note off)"
            ))),
        }),
    }
}

/// `path` when it exists and `LD_PRELOAD` can name it.
fn usable(path: &Path) -> Result<PathBuf, String> {
    if !path.is_file() {
        return Err(format!(
            "the CUDA interposer {} does not exist",
            path.display()
        ));
    }
    if path.to_string_lossy().contains([' ', ':']) {
        return Err(format!(
            "the CUDA interposer {} cannot be preloaded: LD_PRELOAD cannot name a path with a \
             space or a colon",
            path.display()
        ));
    }
    Ok(path.to_path_buf())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn explicit_paths_must_exist_and_be_preloadable() {
        let dir = tempfile::tempdir().unwrap();
        let shim = dir.path().join(LIBRARY_FILE_NAME);
        let err = choose(Some(&shim), false).unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
        std::fs::write(&shim, b"").unwrap();
        assert_eq!(choose(Some(&shim), false), Ok(CudaShim::Preload(shim)));
        let spaced = dir.path().join("a b.so");
        std::fs::write(&spaced, b"").unwrap();
        let err = choose(Some(&spaced), false).unwrap_err();
        assert!(err.contains("cannot be preloaded"), "{err}");
    }

    #[test]
    fn no_cuda_wins_and_a_missing_default_is_a_note() {
        assert_eq!(choose(None, true), Ok(CudaShim::Off(None)));
        assert_eq!(
            choose(Some(Path::new("/nonexistent.so")), true),
            Ok(CudaShim::Off(None))
        );
        let missing = || Ok(PathBuf::from("/nonexistent/libexportcheck_cuda.so"));
        match choose_with_default(None, false, missing).unwrap() {
            CudaShim::Off(Some(note)) => {
                assert!(note.contains("CUDA calls are not checked"), "{note}")
            }
            other => panic!("{other:?}"),
        }
    }
}
