//! The environment `run` gives the app so that the Vulkan loader enables the layer.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::layer_lib::LAYER_NAME;

/// The layer setting that names the report file; `%p` in it becomes the process id.
pub const REPORT_FILE_VAR: &str = "VK_EXPORTCHECK_VALIDATION_REPORT_FILE";
/// The layer setting that turns the exported-fd leak check on.
pub const FD_LEAKS_VAR: &str = "VK_EXPORTCHECK_VALIDATION_CHECK_FD_LEAKS";
/// The layer setting that names the directory where the processes of the run share their
/// exports (cross-process checking, docs/cross-process.md).
pub const SHARED_EXPORTS_VAR: &str = "VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR";

/// Additional explicit-layer directories (loader 1.3.234 and later), searched besides the
/// standard ones.
pub const ADD_LAYER_PATH_VAR: &str = "VK_ADD_LAYER_PATH";

/// Explicit-layer directories replacing the standard ones (every loader).
pub const LAYER_PATH_VAR: &str = "VK_LAYER_PATH";

/// The layers to enable.
pub const INSTANCE_LAYERS_VAR: &str = "VK_INSTANCE_LAYERS";

/// Layer-name globs to enable, comma-separated (loader 1.3.234 and later): they win over
/// `VK_LOADER_LAYERS_DISABLE`, which `VK_INSTANCE_LAYERS` does not.
pub const LOADER_LAYERS_ENABLE_VAR: &str = "VK_LOADER_LAYERS_ENABLE";

/// The dynamic linker's list of libraries to load before the app's own (space- or
/// colon-separated).
pub const PRELOAD_VAR: &str = "LD_PRELOAD";

/// Where the CUDA interposer finds the layer ([`exportcheck_cuda_abi::hooks::LAYER_PATH_ENV`]).
pub const CUDA_LAYER_VAR: &str = exportcheck_cuda_abi::hooks::LAYER_PATH_ENV;

/// What the app's processes need for the CUDA side of the run (docs/cuda.md).
#[derive(Debug, Clone, Copy)]
pub struct CudaPreload<'a> {
    /// The interposer (`libexportcheck_cuda.so`), an absolute path `LD_PRELOAD` can name.
    pub shim: &'a Path,
    /// The layer library (absolute): the interposer loads it at the first CUDA call it
    /// intercepts, and the Vulkan loader's later load of the same file shares it.
    pub layer: &'a Path,
}

/// The separator of `VK_LOADER_LAYERS_ENABLE` (and `_DISABLE`), on every platform.
pub const FILTER_SEPARATOR: &str = ",";

/// The separator of path and layer lists in the loader's variables.
pub const LIST_SEPARATOR: &str = if cfg!(windows) { ";" } else { ":" };

/// The variables to set for the app, given the current environment (`lookup`), the directory
/// holding the generated manifest and the report file pattern. Whatever loader variables the
/// user already has, the loader must find the layer, enable it once, and keep the user's own
/// layers (docs/cli.md, "The loader variables"):
///
/// * `VK_ADD_LAYER_PATH`: the manifest directory, before any existing value;
/// * `VK_LAYER_PATH`: when the user has set it, the manifest directory before their value (a
///   loader that knows both ignores `VK_ADD_LAYER_PATH` whenever `VK_LAYER_PATH` is set: Debian's
///   1.3.239 does). When they have not (loaders before 1.3.234 know no `VK_ADD_LAYER_PATH`): the
///   manifest directory, then the user's own `VK_ADD_LAYER_PATH` directories, then the loader's
///   standard explicit-layer directories, since `VK_LAYER_PATH` replaces them and other layers
///   the user enables (`VK_LAYER_KHRONOS_validation`, or one in a directory of their own) must
///   still be found; not on Windows, whose loader finds layers through the registry, which no
///   path list can stand for. The manifest directory comes first: the loader stacks explicit
///   layers in the order it finds their manifests, so the layer sits above the user's;
/// * `VK_INSTANCE_LAYERS`: the existing list and the layer (unless listed already);
/// * `VK_LOADER_LAYERS_ENABLE`: the existing filter and the layer's name (unless listed
///   already), so that a `VK_LOADER_LAYERS_DISABLE` of the user's (`~all~`, `~explicit~`, a
///   glob) disables their other layers but not this one;
/// * `VK_EXPORTCHECK_VALIDATION_REPORT_FILE`: the report pattern;
/// * `VK_EXPORTCHECK_VALIDATION_CHECK_FD_LEAKS=true`, unless the user set it: a CI gate wants
///   exported-fd leaks too, whose `fstat` per export the layer's default spares interactive use;
/// * `VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR`: the run's private exports directory, unless
///   the user set it (to a directory of their own, or to nothing to turn cross-process checking
///   off), so that every process of the run checks its imports against the others' exports
///   (POSIX systems only: elsewhere the layer has no cross-process checking);
/// * with `cuda`: `LD_PRELOAD`: the CUDA interposer, after the user's own list (unless it is
///   listed already): every preloaded library comes before the CUDA driver library, and the
///   user's own come first, as without the run (a sanitizer runtime that must be the first
///   library, `LD_PRELOAD=libasan.so`, another interposer of the same functions); and
///   `EXPORTCHECK_CUDA_LAYER`: the layer library's path, which the interposer loads.
#[must_use]
pub fn child_env(
    lookup: &dyn Fn(&str) -> Option<OsString>,
    manifest_dir: &Path,
    report_pattern: &Path,
    exports_dir: &Path,
    cuda: Option<CudaPreload<'_>>,
) -> Vec<(&'static str, OsString)> {
    let present = |name: &str| lookup(name).filter(|v| !v.is_empty());
    let mut vars = Vec::new();

    let mut add = vec![manifest_dir.as_os_str().to_owned()];
    add.extend(present(ADD_LAYER_PATH_VAR));
    vars.push((ADD_LAYER_PATH_VAR, join(&add)));

    if let Some(users) = present(LAYER_PATH_VAR) {
        vars.push((
            LAYER_PATH_VAR,
            join(&[manifest_dir.as_os_str().to_owned(), users]),
        ));
    } else if !cfg!(windows) {
        let mut dirs = vec![manifest_dir.as_os_str().to_owned()];
        dirs.extend(present(ADD_LAYER_PATH_VAR));
        dirs.extend(
            standard_explicit_layer_dirs(lookup)
                .into_iter()
                .map(PathBuf::into_os_string),
        );
        vars.push((LAYER_PATH_VAR, join(&dirs)));
    }

    let layers = match present(INSTANCE_LAYERS_VAR) {
        Some(existing) => {
            if lists(&existing, LAYER_NAME) {
                existing
            } else {
                join(&[existing, OsString::from(LAYER_NAME)])
            }
        }
        None => OsString::from(LAYER_NAME),
    };
    vars.push((INSTANCE_LAYERS_VAR, layers));

    let enable = match present(LOADER_LAYERS_ENABLE_VAR) {
        Some(existing) if filter_lists(&existing, LAYER_NAME) => existing,
        Some(mut existing) => {
            existing.push(FILTER_SEPARATOR);
            existing.push(LAYER_NAME);
            existing
        }
        None => OsString::from(LAYER_NAME),
    };
    vars.push((LOADER_LAYERS_ENABLE_VAR, enable));

    vars.push((REPORT_FILE_VAR, report_pattern.as_os_str().to_owned()));
    if lookup(FD_LEAKS_VAR).is_none() {
        vars.push((FD_LEAKS_VAR, OsString::from("true")));
    }
    if cfg!(unix) && lookup(SHARED_EXPORTS_VAR).is_none() {
        vars.push((SHARED_EXPORTS_VAR, exports_dir.as_os_str().to_owned()));
    }
    if let Some(cuda) = cuda {
        vars.push((PRELOAD_VAR, preload_last(present(PRELOAD_VAR), cuda.shim)));
        vars.push((CUDA_LAYER_VAR, cuda.layer.as_os_str().to_owned()));
    }
    vars
}

/// `LD_PRELOAD` with `library` last: the user's value first, unless it lists `library` already
/// (then as it is: the user chose the order).
fn preload_last(users: Option<OsString>, library: &Path) -> OsString {
    match users {
        Some(users) if preload_lists(&users, library) => users,
        Some(users) => join(&[users, library.as_os_str().to_owned()]),
        None => library.as_os_str().to_owned(),
    }
}

/// Whether the `LD_PRELOAD` value `value` names `library`.
fn preload_lists(value: &OsStr, library: &Path) -> bool {
    let library = library.to_string_lossy();
    value
        .to_string_lossy()
        .split([' ', ':'])
        .any(|entry| entry == library)
}

fn join(parts: &[OsString]) -> OsString {
    let mut out = OsString::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push(LIST_SEPARATOR);
        }
        out.push(p);
    }
    out
}

/// The directories the Vulkan loader searches for explicit layers on Linux and other Unix
/// systems when `VK_LAYER_PATH` is not set, in its order: `$XDG_CONFIG_HOME`,
/// `$XDG_CONFIG_DIRS`, `/etc`, `$XDG_DATA_HOME`, `$XDG_DATA_DIRS`, each followed by
/// `vulkan/explicit_layer.d` (XDG defaults when unset).
#[must_use]
pub fn standard_explicit_layer_dirs(lookup: &dyn Fn(&str) -> Option<OsString>) -> Vec<PathBuf> {
    let var = |name: &str| lookup(name).filter(|v| !v.is_empty());
    let home = var("HOME").map(PathBuf::from);
    let under_home = |rel: &str| home.as_ref().map(|h| h.join(rel));
    let list = |name: &str, default: &str| -> Vec<PathBuf> {
        let value = var(name).unwrap_or_else(|| OsString::from(default));
        std::env::split_paths(&value)
            .filter(|p| !p.as_os_str().is_empty())
            .collect()
    };
    let mut bases: Vec<PathBuf> = Vec::new();
    bases.extend(
        var("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| under_home(".config")),
    );
    bases.extend(list("XDG_CONFIG_DIRS", "/etc/xdg"));
    bases.push(PathBuf::from("/etc"));
    bases.extend(
        var("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| under_home(".local/share")),
    );
    bases.extend(list("XDG_DATA_DIRS", "/usr/local/share:/usr/share"));
    let mut dirs: Vec<PathBuf> = Vec::new();
    for base in bases {
        let dir = base.join("vulkan").join("explicit_layer.d");
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// Whether `value` lists `item` in a loader list variable.
#[must_use]
pub fn lists(value: &OsStr, item: &str) -> bool {
    value
        .to_string_lossy()
        .split(LIST_SEPARATOR)
        .any(|l| l == item)
}

/// Whether the comma-separated loader filter `value` names `item` itself (not by a glob).
#[must_use]
pub fn filter_lists(value: &OsStr, item: &str) -> bool {
    value
        .to_string_lossy()
        .split(FILTER_SEPARATOR)
        .any(|l| l.trim() == item)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(v)))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn vars(pairs: &[(&str, &str)]) -> HashMap<&'static str, String> {
        vars_with(pairs, None)
    }

    fn vars_with(
        pairs: &[(&str, &str)],
        cuda: Option<CudaPreload<'_>>,
    ) -> HashMap<&'static str, String> {
        child_env(
            &env_of(pairs),
            Path::new("/tmp/ec/layer"),
            Path::new("/tmp/ec/reports/report-%p.json"),
            Path::new("/tmp/ec/exports"),
            cuda,
        )
        .into_iter()
        .map(|(k, v)| (k, v.into_string().unwrap()))
        .collect()
    }

    #[test]
    fn a_clean_environment() {
        let v = vars(&[("HOME", "/home/u")]);
        assert_eq!(v[ADD_LAYER_PATH_VAR], "/tmp/ec/layer");
        assert_eq!(v[INSTANCE_LAYERS_VAR], LAYER_NAME);
        assert_eq!(v[REPORT_FILE_VAR], "/tmp/ec/reports/report-%p.json");
        assert_eq!(v[FD_LEAKS_VAR], "true");
        assert!(!vars(&[(FD_LEAKS_VAR, "false")]).contains_key(FD_LEAKS_VAR));
        assert_eq!(v[SHARED_EXPORTS_VAR], "/tmp/ec/exports");
        assert!(!vars(&[(SHARED_EXPORTS_VAR, "")]).contains_key(SHARED_EXPORTS_VAR));
        assert_eq!(
            v[LAYER_PATH_VAR],
            "/tmp/ec/layer:/home/u/.config/vulkan/explicit_layer.d:\
             /etc/xdg/vulkan/explicit_layer.d:/etc/vulkan/explicit_layer.d:\
             /home/u/.local/share/vulkan/explicit_layer.d:\
             /usr/local/share/vulkan/explicit_layer.d:/usr/share/vulkan/explicit_layer.d"
        );
    }

    #[test]
    fn existing_values_are_kept() {
        let v = vars(&[
            (ADD_LAYER_PATH_VAR, "/opt/layers"),
            (LAYER_PATH_VAR, "/my/layers"),
            (INSTANCE_LAYERS_VAR, "VK_LAYER_KHRONOS_validation"),
        ]);
        assert_eq!(v[ADD_LAYER_PATH_VAR], "/tmp/ec/layer:/opt/layers");
        assert_eq!(
            v[LAYER_PATH_VAR], "/tmp/ec/layer:/my/layers",
            "the user's VK_LAYER_PATH is kept, after the manifest directory"
        );
        assert_eq!(
            v[INSTANCE_LAYERS_VAR],
            format!("VK_LAYER_KHRONOS_validation:{LAYER_NAME}")
        );
    }

    #[test]
    fn the_layer_is_enabled_past_the_users_disable_filter() {
        let v = vars(&[]);
        assert_eq!(v[LOADER_LAYERS_ENABLE_VAR], LAYER_NAME);
        let v = vars(&[(LOADER_LAYERS_ENABLE_VAR, "*KHRONOS*")]);
        assert_eq!(
            v[LOADER_LAYERS_ENABLE_VAR],
            format!("*KHRONOS*,{LAYER_NAME}")
        );
        let listed = format!("VK_LAYER_X, {LAYER_NAME}");
        let v = vars(&[(LOADER_LAYERS_ENABLE_VAR, &listed)]);
        assert_eq!(v[LOADER_LAYERS_ENABLE_VAR], listed);
        assert!(!filter_lists(OsStr::new("*EXPORTCHECK*"), LAYER_NAME));
    }

    #[test]
    fn the_users_added_layer_dirs_stay_searched_when_layer_path_is_generated() {
        let v = vars(&[("HOME", "/home/u"), (ADD_LAYER_PATH_VAR, "/opt/a:/opt/b")]);
        assert_eq!(v[ADD_LAYER_PATH_VAR], "/tmp/ec/layer:/opt/a:/opt/b");
        assert!(
            v[LAYER_PATH_VAR].starts_with("/tmp/ec/layer:/opt/a:/opt/b:/home/u/.config/"),
            "{}",
            v[LAYER_PATH_VAR]
        );
    }

    #[test]
    fn the_layer_is_not_listed_twice_and_empty_values_count_as_unset() {
        let v = vars(&[
            (INSTANCE_LAYERS_VAR, &format!("{LAYER_NAME}:VK_LAYER_X")),
            (LAYER_PATH_VAR, ""),
            (ADD_LAYER_PATH_VAR, ""),
        ]);
        assert_eq!(v[INSTANCE_LAYERS_VAR], format!("{LAYER_NAME}:VK_LAYER_X"));
        assert_eq!(v[ADD_LAYER_PATH_VAR], "/tmp/ec/layer");
        assert!(v[LAYER_PATH_VAR].starts_with("/tmp/ec/layer:"));
    }

    #[test]
    fn xdg_variables_are_honoured() {
        let dirs = standard_explicit_layer_dirs(&env_of(&[
            ("XDG_CONFIG_HOME", "/c"),
            ("XDG_CONFIG_DIRS", "/c1:/c2"),
            ("XDG_DATA_HOME", "/d"),
            ("XDG_DATA_DIRS", "/d1::/usr/share"),
        ]));
        let dirs: Vec<String> = dirs
            .iter()
            .map(|d| {
                d.to_str()
                    .unwrap()
                    .trim_end_matches("/vulkan/explicit_layer.d")
                    .to_owned()
            })
            .collect();
        assert_eq!(
            dirs,
            ["/c", "/c1", "/c2", "/etc", "/d", "/d1", "/usr/share"]
        );
    }

    #[test]
    fn the_cuda_interposer_is_preloaded_first() {
        let cuda = CudaPreload {
            shim: Path::new("/opt/ec/libexportcheck_cuda.so"),
            layer: Path::new("/opt/ec/libVkLayer_exportcheck.so"),
        };
        let v = vars_with(&[], Some(cuda));
        assert_eq!(v[PRELOAD_VAR], "/opt/ec/libexportcheck_cuda.so");
        assert_eq!(v[CUDA_LAYER_VAR], "/opt/ec/libVkLayer_exportcheck.so");
        let v = vars_with(&[(PRELOAD_VAR, "libfaketime.so.1 /x/y.so")], Some(cuda));
        assert_eq!(
            v[PRELOAD_VAR], "libfaketime.so.1 /x/y.so:/opt/ec/libexportcheck_cuda.so",
            "the user's own libraries first"
        );
        let listed = "/x/y.so /opt/ec/libexportcheck_cuda.so";
        let v = vars_with(&[(PRELOAD_VAR, listed)], Some(cuda));
        assert_eq!(v[PRELOAD_VAR], listed, "the user's order is kept");
        let v = vars_with(&[(PRELOAD_VAR, "/x/y.so")], None);
        assert!(!v.contains_key(PRELOAD_VAR) && !v.contains_key(CUDA_LAYER_VAR));
    }

    #[test]
    fn lists_matches_whole_names() {
        assert!(lists(OsStr::new("A:B"), "B"));
        assert!(!lists(OsStr::new("AB"), "B"));
    }
}
