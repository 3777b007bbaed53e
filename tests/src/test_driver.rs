//! The test driver's per-command call counters (`exportcheck_test_icd_call_count`), read from the
//! copy of `libexportcheck_test_icd.so` that the loader already loaded into this process.
//!
//! The counts are process-wide: every instance and device of every test thread adds to them. A
//! test that asserts on a count must hold [`crate::Instance::exclusive_with`], so that no other
//! test of the binary calls the driver meanwhile.

use std::ffi::{c_char, CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;

type CallCount = unsafe extern "C" fn(*const c_char) -> u64;

/// The driver's `exportcheck_test_icd_call_count`; panics if the driver is not loaded yet (make
/// an `Instance` on the test driver first).
fn call_count_fn() -> CallCount {
    static FN: OnceLock<usize> = OnceLock::new();
    let f = *FN.get_or_init(|| {
        let path = CString::new(crate::env::test_driver_library().as_os_str().as_bytes())
            .expect("library path without NUL");
        // SAFETY: RTLD_NOLOAD only looks up a library that is already loaded; nothing is run.
        let lib = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
        assert!(
            !lib.is_null(),
            "{} is not loaded: create an Instance on the test driver first",
            path.to_string_lossy()
        );
        // SAFETY: a live handle and a NUL-terminated symbol name. The handle is kept open
        // (never dlclose'd), so the symbol stays valid for the life of the process.
        let sym = unsafe { libc::dlsym(lib, c"exportcheck_test_icd_call_count".as_ptr()) };
        assert!(
            !sym.is_null(),
            "the test driver exports no exportcheck_test_icd_call_count"
        );
        sym as usize
    });
    // SAFETY: the symbol is the driver's `extern "C" fn(*const c_char) -> u64` (see
    // tests/icd/src/lib.rs); a data pointer and a function pointer share one size here.
    unsafe { std::mem::transmute::<usize, CallCount>(f) }
}

/// How many times the driver's entry point for `command` was called in this process.
pub fn call_count(command: &CStr) -> u64 {
    // SAFETY: a NUL-terminated name; the function only reads it.
    unsafe { call_count_fn()(command.as_ptr()) }
}

/// A count of one command taken now, to compare against later.
#[derive(Debug)]
pub struct Calls {
    command: &'static CStr,
    at_start: u64,
}

impl Calls {
    /// Starts counting calls of `command` (e.g. `c"vkGetMemoryFdKHR"`).
    pub fn of(command: &'static CStr) -> Self {
        Self {
            command,
            at_start: call_count(command),
        }
    }

    /// Calls of the command since [`Calls::of`].
    pub fn since(&self) -> u64 {
        call_count(self.command) - self.at_start
    }

    /// Asserts that the driver was called `n` times since [`Calls::of`], then counts anew.
    #[track_caller]
    pub fn assert(&mut self, n: u64, why: &str) {
        let now = call_count(self.command);
        assert_eq!(
            now - self.at_start,
            n,
            "calls of the driver's {:?}: {why}",
            self.command
        );
        self.at_start = now;
    }
}
