//! Which library a function pointer points into (`dladdr`), to tell whether
//! `vkGetDeviceProcAddr` handed the application the driver's own function or a layer's.

use std::ffi::{c_void, CStr};
use std::path::Path;

use crate::model::ProcInfo;

/// Resolves `f` with `dladdr`. `driver_library` is the file name of the driver's library.
pub fn resolve(f: unsafe extern "system" fn(), driver_library: &str) -> Option<ProcInfo> {
    let addr = f as *const c_void;
    // SAFETY: an all-zero Dl_info (NULL pointers, zero addresses) is a valid value to overwrite.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the dynamic linker's tables for `addr` and writes `info`.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr succeeded, so dli_fname is a NUL-terminated string owned by the linker.
    let path = unsafe { CStr::from_ptr(info.dli_fname) }.to_string_lossy();
    let library = Path::new(path.as_ref())
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
    let symbol = (!info.dli_sname.is_null()).then(|| {
        // SAFETY: non-NULL dli_sname is a NUL-terminated string owned by the linker.
        unsafe { CStr::from_ptr(info.dli_sname) }
            .to_string_lossy()
            .into_owned()
    });
    Some(ProcInfo {
        in_driver: library == driver_library,
        offset: (addr as u64).wrapping_sub(info.dli_fbase as u64),
        library,
        symbol,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "system" fn probe() {}

    #[test]
    fn resolves_a_function_of_this_executable() {
        let info = resolve(probe, "no-such-driver.so").expect("dladdr");
        assert!(!info.in_driver);
        assert!(info.offset > 0);
        assert!(!info.library.is_empty());
    }
}
