//! The interposed `dlsym` (x86_64).
//!
//! glibc's `dlsym` resolves `RTLD_NEXT` and `RTLD_DEFAULT` relative to its caller, which it
//! finds from its return address. So the shim's `dlsym` is a naked function that never becomes a
//! frame of its own: it saves the argument registers, asks [`route`] where the call should go,
//! restores them and jumps there, with the app's return address still on top of the stack. For
//! every name but the intercepted ones that is the real `dlsym`, which sees the call as the app
//! made it; for those it is [`intercepted`], which hands out the shim's wrapper.

use core::ffi::{c_char, c_void, CStr};

use exportcheck_cuda_abi::hooks::{is_intercepted, ReachedThrough};

use crate::boundary::guard;
use crate::real::{self, Loaded};
use crate::slots::{self, Entry};

/// `dlsym`, interposed.
///
/// # Safety
/// `dlsym`'s contract.
#[no_mangle]
#[unsafe(naked)]
pub unsafe extern "C" fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void {
    // At entry the stack holds the return address: rsp is 8 past a 16-byte boundary. Two
    // pushes and 8 bytes more put it on a boundary for the call, as the ABI wants. `route`
    // preserves the callee-saved registers; the argument registers are restored from the stack.
    // rdx (not an argument of dlsym) carries the caller's return address to `intercepted`.
    core::arch::naked_asm!(
        "push rdi",
        "push rsi",
        "sub rsp, 8",
        "call {route}",
        "add rsp, 8",
        "pop rsi",
        "pop rdi",
        "mov rdx, [rsp]",
        "jmp rax",
        route = sym route,
    )
}

/// Where a `dlsym` call goes: [`intercepted`] for the names the shim wraps, else the real
/// `dlsym` ([`not_found`] in a process without one, which no glibc process is).
extern "C" fn route(_handle: *mut c_void, symbol: *const c_char) -> usize {
    // SAFETY: dlsym's contract: `symbol` is a C string (is_intercepted also takes NULL).
    if unsafe { is_intercepted(symbol) } {
        return intercepted as *const () as usize;
    }
    match real::dlsym_address() {
        0 => not_found as *const () as usize,
        address => address,
    }
}

/// `dlsym` with no real `dlsym` to go to.
extern "C" fn not_found(_handle: *mut c_void, _symbol: *const c_char) -> *mut c_void {
    core::ptr::null_mut()
}

/// `dlsym(handle, symbol)` for an intercepted name, called by `caller` (its return address): the
/// function the real `dlsym` finds ([`find`]), wrapped; NULL (with the real `dlsym`'s error)
/// when there is none.
///
/// # Safety
/// `dlsym`'s contract, `symbol` one of the intercepted names.
unsafe extern "C" fn intercepted(
    handle: *mut c_void,
    symbol: *const c_char,
    caller: *const c_void,
) -> *mut c_void {
    guard(core::ptr::null_mut(), || {
        // SAFETY: route checked it is a C string naming an intercepted entry point.
        let name = unsafe { CStr::from_ptr(symbol) };
        let Some(entry) = Entry::named(name) else {
            // SAFETY: dlsym's contract.
            return unsafe { real::dlsym(handle, symbol) };
        };
        // SAFETY: dlsym's contract.
        let function = unsafe { find(handle, symbol, caller) };
        if function.is_null() {
            return function;
        }
        slots::wrap(entry, ReachedThrough::Symbol, function)
    })
}

/// The function an intercepted name stands for: `handle`'s definition, or for `RTLD_NEXT` and
/// `RTLD_DEFAULT` (which the shim's own exported symbol answers first) the one after the shim
/// in the global scope; `RTLD_DEFAULT` then also searches the caller's own dependencies, as
/// glibc does (an object `dlopen`ed `RTLD_LOCAL` with the driver among its dependencies).
/// Never one of the shim's own functions.
///
/// # Safety
/// `dlsym`'s contract.
unsafe fn find(handle: *mut c_void, symbol: *const c_char, caller: *const c_void) -> *mut c_void {
    if handle != libc::RTLD_NEXT && handle != libc::RTLD_DEFAULT {
        // SAFETY: the app's handle and name.
        let found = unsafe { real::dlsym(handle, symbol) };
        if !real::is_own(found) {
            return found;
        }
        // The handle's scope starts with the shim (the main program's, or the shim's own).
    }
    // SAFETY: RTLD_NEXT from the shim, the app's name.
    let next = unsafe { real::dlsym(libc::RTLD_NEXT, symbol) };
    if !next.is_null() || handle != libc::RTLD_DEFAULT {
        return next;
    }
    // SAFETY: the caller's C string.
    let name = unsafe { CStr::from_ptr(symbol) };
    if let Some(found) = Loaded::holding(caller)
        .map(|scope| scope.lookup(name))
        .filter(|f| !f.is_null())
    {
        return found;
    }
    // Not found: the global scope's error for `dlerror`.
    // SAFETY: as above.
    unsafe { real::dlsym(libc::RTLD_NEXT, symbol) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This test binary defines `dlsym` too: calling it is calling the naked function.
    #[test]
    fn other_names_reach_the_real_dlsym_as_made() {
        // SAFETY: C string literals.
        unsafe {
            let malloc = dlsym(libc::RTLD_DEFAULT, c"malloc".as_ptr());
            assert_eq!(malloc as usize, libc::malloc as *const () as usize);
            // RTLD_NEXT from this binary (the caller, not the shim's code) finds libc's.
            let free = dlsym(libc::RTLD_NEXT, c"free".as_ptr());
            assert_eq!(free as usize, libc::free as *const () as usize);
            assert!(dlsym(libc::RTLD_DEFAULT, c"exportcheck_nothing".as_ptr()).is_null());
            assert!(
                !libc::dlerror().is_null(),
                "the real dlsym's error is the app's"
            );
        }
    }

    #[test]
    fn intercepted_names_without_a_driver_are_not_found() {
        // SAFETY: C string literals.
        unsafe {
            for name in [c"cuImportExternalMemory", c"cuGetProcAddress_v2"] {
                assert!(dlsym(libc::RTLD_DEFAULT, name.as_ptr()).is_null());
                assert!(dlsym(libc::RTLD_NEXT, name.as_ptr()).is_null());
                assert!(!libc::dlerror().is_null());
            }
        }
    }

    #[test]
    fn route_decides_by_name() {
        assert_eq!(
            route(libc::RTLD_DEFAULT, c"cuDestroyExternalMemory".as_ptr()),
            intercepted as *const () as usize
        );
        assert_eq!(
            route(libc::RTLD_DEFAULT, c"cuMemAlloc_v2".as_ptr()),
            real::dlsym_address()
        );
        assert_eq!(
            route(libc::RTLD_DEFAULT, core::ptr::null()),
            real::dlsym_address()
        );
    }
}
