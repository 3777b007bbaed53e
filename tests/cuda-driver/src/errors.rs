//! `cuGetErrorName` and `cuGetErrorString` for the results this driver returns, in the real
//! driver's words. They need no `cuInit`.

use crate::boundary::{entry, Out};
use exportcheck_cuda_abi::*;
use std::ffi::{c_char, CStr};

/// Each result: its name and its description.
const ERRORS: [(CUresult, &CStr, &CStr); 13] = [
    (CUDA_SUCCESS, c"CUDA_SUCCESS", c"no error"),
    (
        CUDA_ERROR_INVALID_VALUE,
        c"CUDA_ERROR_INVALID_VALUE",
        c"invalid argument",
    ),
    (
        CUDA_ERROR_OUT_OF_MEMORY,
        c"CUDA_ERROR_OUT_OF_MEMORY",
        c"out of memory",
    ),
    (
        CUDA_ERROR_NOT_INITIALIZED,
        c"CUDA_ERROR_NOT_INITIALIZED",
        c"initialization error",
    ),
    (
        CUDA_ERROR_DEINITIALIZED,
        c"CUDA_ERROR_DEINITIALIZED",
        c"driver shutting down",
    ),
    (
        CUDA_ERROR_NO_DEVICE,
        c"CUDA_ERROR_NO_DEVICE",
        c"no CUDA-capable device is detected",
    ),
    (
        CUDA_ERROR_INVALID_DEVICE,
        c"CUDA_ERROR_INVALID_DEVICE",
        c"invalid device ordinal",
    ),
    (
        CUDA_ERROR_INVALID_CONTEXT,
        c"CUDA_ERROR_INVALID_CONTEXT",
        c"invalid device context",
    ),
    (
        CUDA_ERROR_OPERATING_SYSTEM,
        c"CUDA_ERROR_OPERATING_SYSTEM",
        c"OS call failed or operation not supported on this OS",
    ),
    (
        CUDA_ERROR_INVALID_HANDLE,
        c"CUDA_ERROR_INVALID_HANDLE",
        c"invalid resource handle",
    ),
    (
        CUDA_ERROR_NOT_FOUND,
        c"CUDA_ERROR_NOT_FOUND",
        c"named symbol not found",
    ),
    (
        CUDA_ERROR_NOT_SUPPORTED,
        c"CUDA_ERROR_NOT_SUPPORTED",
        c"operation not supported",
    ),
    (CUDA_ERROR_UNKNOWN, c"CUDA_ERROR_UNKNOWN", c"unknown error"),
];

/// `error`'s name (`name` true) or description; `CUDA_ERROR_INVALID_VALUE` and NULL for a result
/// this driver does not know.
fn describe(error: CUresult, text: *mut *const c_char, name: bool) -> CUresult {
    entry(|| {
        // SAFETY: the caller's pointer (cuda.h's contract).
        let text = unsafe { Out::new(text) }?;
        match ERRORS.iter().find(|(code, ..)| *code == error) {
            Some((_, n, s)) => {
                text.set(if name { n } else { s }.as_ptr());
                Ok(())
            }
            None => {
                text.set(std::ptr::null());
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        }
    })
}

/// `cuGetErrorName`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(error: CUresult, p_str: *mut *const c_char) -> CUresult {
    describe(error, p_str, true)
}

/// `cuGetErrorString`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(error: CUresult, p_str: *mut *const c_char) -> CUresult {
    describe(error, p_str, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(
        f: unsafe extern "C" fn(CUresult, *mut *const c_char) -> CUresult,
        e: CUresult,
    ) -> String {
        let mut p = std::ptr::null();
        // SAFETY: a valid pointer.
        assert_eq!(unsafe { f(e, &mut p) }, CUDA_SUCCESS);
        // SAFETY: one of the static strings above.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned()
    }

    #[test]
    fn results_have_their_cuda_h_names() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            assert_eq!(text(cuGetErrorName, 1), "CUDA_ERROR_INVALID_VALUE");
            assert_eq!(text(cuGetErrorName, 500), "CUDA_ERROR_NOT_FOUND");
            assert_eq!(text(cuGetErrorString, 400), "invalid resource handle");
            let mut p = c"x".as_ptr();
            assert_eq!(cuGetErrorName(12345, &mut p), CUDA_ERROR_INVALID_VALUE);
            assert!(p.is_null());
            assert_eq!(
                cuGetErrorName(0, std::ptr::null_mut()),
                CUDA_ERROR_INVALID_VALUE
            );
        }
    }
}
