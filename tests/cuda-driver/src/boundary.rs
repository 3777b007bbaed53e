//! The C boundary: each entry point's body runs in [`entry`], which turns a panic into
//! `CUDA_ERROR_UNKNOWN`; the app's pointers are read and written only through [`input`] and
//! [`Out`], which refuse NULL with `CUDA_ERROR_INVALID_VALUE`.

use exportcheck_cuda_abi::{CUresult, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_UNKNOWN, CUDA_SUCCESS};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard};

/// An entry point's outcome: `Err` holds the `CUresult` to return.
pub type Outcome = Result<(), CUresult>;

/// Runs an entry point's body; never unwinds.
pub fn entry(body: impl FnOnce() -> Outcome) -> CUresult {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CUDA_SUCCESS,
        Ok(Err(result)) => result,
        Err(_) => CUDA_ERROR_UNKNOWN,
    }
}

/// The structure an input pointer points at.
///
/// # Safety
/// `ptr` is NULL or points to a valid `T` for the call's duration (`cuda.h`'s contract with the
/// caller).
pub unsafe fn input<'a, T>(ptr: *const T) -> Result<&'a T, CUresult> {
    // SAFETY: the caller's contract.
    unsafe { ptr.as_ref() }.ok_or(CUDA_ERROR_INVALID_VALUE)
}

/// An output parameter, checked for NULL before the call does anything, written at its end.
pub struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    /// # Safety
    /// `ptr` is NULL or valid for writing a `T` for the call's duration (`cuda.h`'s contract with
    /// the caller).
    pub unsafe fn new(ptr: *mut T) -> Result<Self, CUresult> {
        NonNull::new(ptr).map(Out).ok_or(CUDA_ERROR_INVALID_VALUE)
    }

    /// Writes `value`.
    pub fn set(self, value: T) {
        // SAFETY: non-NULL and valid for writes (the contract of `new`); `write`, as the
        // destination may be uninitialised.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// Locks `mutex`, whatever a panicking holder left behind (every critical section leaves its
/// data consistent before anything that may panic).
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_cuda_error_unknown() {
        assert_eq!(entry(|| panic!("inside")), CUDA_ERROR_UNKNOWN);
        assert_eq!(entry(|| Ok(())), CUDA_SUCCESS);
        assert_eq!(
            entry(|| Err(CUDA_ERROR_INVALID_VALUE)),
            CUDA_ERROR_INVALID_VALUE
        );
    }

    #[test]
    fn null_pointers_are_invalid_values() {
        // SAFETY: NULL, which the helpers refuse.
        unsafe {
            assert_eq!(
                input::<u32>(std::ptr::null()).err(),
                Some(CUDA_ERROR_INVALID_VALUE)
            );
            assert!(Out::<u32>::new(std::ptr::null_mut()).is_err());
        }
        let mut value = 0u32;
        // SAFETY: a local.
        unsafe { Out::new(&mut value) }.unwrap().set(7);
        assert_eq!(value, 7);
    }
}
