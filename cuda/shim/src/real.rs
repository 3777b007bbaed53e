//! The dynamic linker's functions as the shim calls them itself: the real `dlsym` (past the
//! shim's own), lookups that leave no error behind, which object holds an address, and handles
//! of objects already loaded.

use core::ffi::{c_char, c_void, CStr};
use core::sync::atomic::{AtomicUsize, Ordering};

/// `dlsym`'s type.
pub(crate) type DlsymFn = unsafe extern "C" fn(*mut c_void, *const c_char) -> *mut c_void;

/// glibc's `dlsym` (0: not resolved yet).
static REAL_DLSYM: AtomicUsize = AtomicUsize::new(0);

/// The version `dlsym` was defined under before glibc 2.34 moved it into libc (this
/// architecture's first glibc version).
#[cfg(target_arch = "x86_64")]
const BASE_VERSION: &CStr = c"GLIBC_2.2.5";
#[cfg(target_arch = "aarch64")]
const BASE_VERSION: &CStr = c"GLIBC_2.17";
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const BASE_VERSION: &CStr = c"GLIBC_2.0";

/// The address of glibc's `dlsym` (0 if it cannot be found, which no glibc process sees):
/// `dlsym@GLIBC_2.34`, else the base version, looked up past the shim. Resolved at the first
/// call and kept (racing threads find the same address).
pub(crate) fn dlsym_address() -> usize {
    let known = REAL_DLSYM.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    let found = [c"GLIBC_2.34", BASE_VERSION]
        .iter()
        .map(|version| {
            // SAFETY: C string literals; `dlvsym` is not interposed, and RTLD_NEXT from the shim
            // finds libc's (or libdl's) definition.
            unsafe { libc::dlvsym(libc::RTLD_NEXT, c"dlsym".as_ptr(), version.as_ptr()) }
        })
        .find(|p| !p.is_null())
        .map_or(0, |p| p as usize);
    REAL_DLSYM.store(found, Ordering::Relaxed);
    found
}

/// The real `dlsym(handle, name)`, called from the shim (so `RTLD_NEXT` means "after the
/// shim"). On failure the dynamic linker's error is left for the app's `dlerror` (the shim's
/// `dlsym` returns it as the real one would have).
///
/// # Safety
/// `handle` is a handle `dlsym` accepts and `name` a C string.
pub(crate) unsafe fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void {
    let address = dlsym_address();
    if address == 0 {
        return core::ptr::null_mut();
    }
    // SAFETY: `address` is glibc's dlsym; the arguments are the caller's contract.
    unsafe { core::mem::transmute::<usize, DlsymFn>(address)(handle, name) }
}

/// `dlsym(handle, name)` for the shim's own needs: NULL when not found, with the error taken
/// off `dlerror` so that the app never sees one it did not cause.
///
/// # Safety
/// As [`dlsym`].
pub(crate) unsafe fn lookup_quietly(handle: *mut c_void, name: &CStr) -> *mut c_void {
    // SAFETY: the caller's contract.
    let found = unsafe { dlsym(handle, name.as_ptr()) };
    if found.is_null() {
        // SAFETY: dlerror has no precondition.
        unsafe { libc::dlerror() };
    }
    found
}

/// `name` looked up after the shim in the process's global scope (what a reference of the
/// app's, linked, is bound to when the shim is not there), quietly.
pub(crate) fn next_after_shim(name: &CStr) -> *mut c_void {
    // SAFETY: RTLD_NEXT is a valid handle and `name` a C string.
    unsafe { lookup_quietly(libc::RTLD_NEXT, name) }
}

/// The base address of the loaded object that holds `address` (0: none does).
fn object_base(address: *const c_void) -> usize {
    // SAFETY: Dl_info is plain data, written by dladdr.
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    // SAFETY: dladdr accepts any address.
    if unsafe { libc::dladdr(address, &mut info) } == 0 {
        0
    } else {
        info.dli_fbase as usize
    }
}

/// The name of the dynamic symbol at `address`, if one is there.
pub(crate) fn symbol_name(address: *const c_void) -> Option<&'static CStr> {
    // SAFETY: Dl_info is plain data, written by dladdr.
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    // SAFETY: dladdr accepts any address.
    if unsafe { libc::dladdr(address, &mut info) } == 0
        || info.dli_sname.is_null()
        || !core::ptr::eq(info.dli_saddr.cast_const(), address)
    {
        return None;
    }
    // SAFETY: the symbol's name, a C string in the object's string table, mapped while the
    // object is loaded (the shim's own, here, loaded for the process's life).
    Some(unsafe { CStr::from_ptr(info.dli_sname) })
}

/// Whether `address` is in the shim (one of its own wrappers).
pub(crate) fn is_own(address: *const c_void) -> bool {
    static OWN_BASE: AtomicUsize = AtomicUsize::new(0);
    let mut own = OWN_BASE.load(Ordering::Relaxed);
    if own == 0 {
        own = object_base(is_own as *const c_void);
        OWN_BASE.store(own, Ordering::Relaxed);
    }
    own != 0 && object_base(address) == own
}

/// A handle of an object the process has loaded already (`RTLD_NOLOAD`), closed on drop (which
/// only gives back the reference the handle took).
pub(crate) struct Loaded(*mut c_void);

impl Loaded {
    /// The object that holds `address` (a function of the driver), if `dlopen` finds it again
    /// by its name (the main program is not found this way).
    pub(crate) fn holding(address: *const c_void) -> Option<Self> {
        // SAFETY: Dl_info is plain data, written by dladdr.
        let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
        // SAFETY: dladdr accepts any address.
        if unsafe { libc::dladdr(address, &mut info) } == 0 || info.dli_fname.is_null() {
            return None;
        }
        // SAFETY: dli_fname is the object's name, a C string the dynamic linker keeps.
        Self::named(unsafe { CStr::from_ptr(info.dli_fname) })
    }

    /// The loaded object `name` (a path or a soname), if loaded.
    pub(crate) fn named(name: &CStr) -> Option<Self> {
        if name.is_empty() {
            return None;
        }
        // SAFETY: a C string; RTLD_NOLOAD never loads anything.
        let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOLOAD | libc::RTLD_LAZY) };
        if handle.is_null() {
            // SAFETY: dlerror has no precondition (the failure is the shim's, not the app's).
            unsafe { libc::dlerror() };
            return None;
        }
        Some(Self(handle))
    }

    /// `name` in this object and its dependencies, quietly; never one of the shim's own.
    pub(crate) fn lookup(&self, name: &CStr) -> *mut c_void {
        // SAFETY: a handle from dlopen, open until drop.
        let found = unsafe { lookup_quietly(self.0, name) };
        if is_own(found) {
            core::ptr::null_mut()
        } else {
            found
        }
    }
}

impl Drop for Loaded {
    fn drop(&mut self) {
        // SAFETY: the handle dlopen returned, closed once.
        unsafe { libc::dlclose(self.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_dlsym_is_found_and_finds() {
        assert_ne!(dlsym_address(), 0);
        // SAFETY: C string literals.
        let malloc = unsafe { dlsym(libc::RTLD_DEFAULT, c"malloc".as_ptr()) };
        assert_eq!(malloc as usize, libc::malloc as *const () as usize);
        assert!(next_after_shim(c"exportcheck_no_such_symbol").is_null());
        // SAFETY: dlerror has no precondition.
        assert!(
            unsafe { libc::dlerror() }.is_null(),
            "the failure was taken off dlerror"
        );
    }

    #[test]
    fn own_addresses_are_told_apart() {
        assert!(is_own(own_addresses_are_told_apart as *const c_void));
        assert_eq!(symbol_name(libc::malloc as *const c_void), Some(c"malloc"));
        assert!(!is_own(libc::malloc as *const c_void));
        assert!(!is_own(core::ptr::null()));
    }

    #[test]
    fn loaded_objects_are_found_and_never_loaded() {
        let libc_object = Loaded::holding(libc::malloc as *const c_void).expect("libc");
        assert!(!libc_object.lookup(c"free").is_null());
        assert!(Loaded::named(c"libexportcheck-not-there.so.1").is_none());
    }
}
