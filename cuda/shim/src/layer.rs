//! The layer's hooks, loaded at the first intercepted call of the process.

use core::ffi::c_void;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStringExt;

use exportcheck_cuda_abi::hooks::{CudaHooks, HOOKS_SYMBOL, HOOKS_VERSION, LAYER_PATH_ENV};

use crate::real;

/// [`HOOKS`] before the first look.
const NOT_LOOKED: usize = 0;
/// [`HOOKS`] when the process has no usable layer.
const ABSENT: usize = 1;

/// The layer's hook table (its address), or one of the states above.
static HOOKS: AtomicUsize = AtomicUsize::new(NOT_LOOKED);

/// The layer's hooks, loaded at the first call: `None` when [`LAYER_PATH_ENV`] is not set or
/// the layer cannot be used (said once on stderr). Threads racing at the first call may each
/// load the layer; they get the same instance (the dynamic linker counts the references).
pub(crate) fn hooks() -> Option<&'static CudaHooks> {
    match HOOKS.load(Ordering::Acquire) {
        NOT_LOOKED => {
            let found = load();
            let state = found.map_or(ABSENT, |h| h as *const CudaHooks as usize);
            HOOKS.store(state, Ordering::Release);
            found
        }
        ABSENT => None,
        // SAFETY: a table the layer returned and keeps for the process's life (the shim never
        // closes the layer).
        table => Some(unsafe { &*(table as *const CudaHooks) }),
    }
}

fn load() -> Option<&'static CudaHooks> {
    let path = std::env::var_os(LAYER_PATH_ENV).filter(|p| !p.is_empty())?;
    match load_from(path) {
        Ok(table) => Some(table),
        Err(why) => {
            eprintln!("exportcheck: the CUDA calls of this process are not checked: {why}");
            None
        }
    }
}

fn load_from(path: OsString) -> Result<&'static CudaHooks, String> {
    let shown = path.to_string_lossy().into_owned();
    let c_path = CString::new(path.into_vec())
        .map_err(|_| format!("{LAYER_PATH_ENV} ({shown}) holds a NUL byte"))?;
    // SAFETY: a C string. RTLD_LOCAL: the Vulkan loader's later dlopen of the same file shares
    // this instance and its symbols stay out of the app's way.
    let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Err(format!("cannot load the layer {shown}: {}", dl_error()));
    }
    // SAFETY: a handle from dlopen (kept open) and a C string.
    let symbol = unsafe { real::lookup_quietly(handle, HOOKS_SYMBOL) };
    if symbol.is_null() {
        return Err(format!(
            "the layer {shown} has no {} (a layer older than this shim?)",
            HOOKS_SYMBOL.to_string_lossy()
        ));
    }
    // SAFETY: the layer defines the symbol as `extern "C" fn() -> *const CudaHooks`.
    let get = unsafe {
        core::mem::transmute::<*mut c_void, unsafe extern "C" fn() -> *const CudaHooks>(symbol)
    };
    // SAFETY: the layer's function, which takes nothing and never unwinds.
    let table = unsafe { get() };
    if table.is_null() {
        return Err(format!("the layer {shown} gave no hook table"));
    }
    // SAFETY: the table starts with its version in every version; only that is read before the
    // check.
    let version = unsafe { core::ptr::addr_of!((*table).version).read() };
    if version != HOOKS_VERSION {
        return Err(format!(
            "the layer {shown} has hook table version {version}, this shim {HOOKS_VERSION} \
             (the shim and the layer come from different builds)"
        ));
    }
    // SAFETY: version checked; the layer keeps the table for the process's life.
    Ok(unsafe { &*table })
}

/// The dynamic linker's last error, as text.
fn dl_error() -> String {
    // SAFETY: dlerror has no precondition; its result is NULL or a C string valid until the
    // next dl call of this thread.
    let text = unsafe { libc::dlerror() };
    if text.is_null() {
        "unknown error".to_owned()
    } else {
        // SAFETY: see above.
        unsafe { core::ffi::CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_layer_or_table_is_said() {
        let error = |path: &str| load_from(OsString::from(path)).err().expect("no table");
        let err = error("/nonexistent/libVkLayer_exportcheck.so");
        assert!(err.contains("cannot load the layer /nonexistent/"), "{err}");
        // libc has no hook table.
        let err = error("libc.so.6");
        assert!(err.contains("has no exportcheck_cuda_hooks"), "{err}");
    }
}
