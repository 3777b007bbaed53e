//! `cuGetProcAddress` and `cuGetProcAddress_v2`: how the CUDA runtime (and an app asking by name
//! and version) reaches the driver's functions. The wrappers pass the call down and, when it
//! returned one of the intercepted functions, put the shim's wrapper of it in `*pfn`
//! ([`ReachedThrough::ProcAddress`]).

#![allow(non_snake_case)]

use core::ffi::{c_char, c_int, c_void, CStr};

use exportcheck_cuda_abi::hooks::{is_intercepted, ReachedThrough};
use exportcheck_cuda_abi::*;

use crate::boundary::guard;
use crate::real::{self, Loaded};
use crate::slots::{self, Entry};

/// The first CUDA version whose `cuGetProcAddress` (the name asked for) is
/// `cuGetProcAddress_v2` (cuda.h 12.0: `PFN_cuGetProcAddress_v12000`).
const V2_SINCE: c_int = 12000;

/// The wrapper of `cuGetProcAddress` (CUDA 11.3's signature) for `SLOT`'s real function.
pub(crate) unsafe extern "C" fn get_proc_address<const SLOT: usize>(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: cuuint64_t,
) -> CUresult {
    let address = slots::real(Entry::GetProcAddress, SLOT);
    if address == 0 {
        return CUDA_ERROR_NOT_FOUND;
    }
    // SAFETY: the slot holds the driver's cuGetProcAddress.
    let real = unsafe { core::mem::transmute::<usize, PFN_cuGetProcAddress>(address) };
    // SAFETY: the app's call, passed down as made.
    let result = unsafe { real(symbol, pfn, cuda_version, flags) };
    if result == CUDA_SUCCESS {
        // SAFETY: the driver succeeded, so `symbol` is a C string and `pfn` was written.
        guard((), || unsafe {
            hand_out_wrapper(symbol, pfn, cuda_version, address)
        });
    }
    result
}

/// The wrapper of `cuGetProcAddress_v2` (CUDA 12.0) for `SLOT`'s real function.
pub(crate) unsafe extern "C" fn get_proc_address_v2<const SLOT: usize>(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: cuuint64_t,
    symbol_status: *mut CUdriverProcAddressQueryResult,
) -> CUresult {
    let address = slots::real(Entry::GetProcAddressV2, SLOT);
    if address == 0 {
        return CUDA_ERROR_NOT_FOUND;
    }
    // SAFETY: the slot holds the driver's cuGetProcAddress_v2.
    let real = unsafe { core::mem::transmute::<usize, PFN_cuGetProcAddress_v2>(address) };
    // SAFETY: the app's call, passed down as made.
    let result = unsafe { real(symbol, pfn, cuda_version, flags, symbol_status) };
    if result == CUDA_SUCCESS {
        // SAFETY: the driver succeeded, so `symbol` is a C string and `pfn` was written.
        guard((), || unsafe {
            hand_out_wrapper(symbol, pfn, cuda_version, address)
        });
    }
    result
}

/// After the driver wrote `*pfn` for `symbol`: the shim's wrapper instead, when `symbol` is
/// intercepted and the driver gave a function (`cuGetProcAddress` asked for itself is either
/// version: [`signature_of`]).
///
/// A driver whose table refers to its own exported functions through the global scope (a
/// library's references to its exported symbols bind to the first definition, which is the
/// preloaded shim's) gives the shim's exported symbol: then the driver's own function of that
/// symbol's name, in the object of its `get_proc_address`, is the real one.
///
/// # Safety
/// `symbol` is a C string (or NULL), `pfn` NULL or writable, `get_proc_address` the driver's
/// function that wrote it.
unsafe fn hand_out_wrapper(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    get_proc_address: usize,
) {
    // SAFETY: the caller's contract.
    if pfn.is_null() || !unsafe { is_intercepted(symbol) } {
        return;
    }
    // SAFETY: `pfn` is writable, so readable, and the driver wrote it.
    let function = unsafe { pfn.read() };
    if function.is_null() {
        return;
    }
    let found = if real::is_own(function) {
        drivers_own(function, get_proc_address)
    } else {
        // SAFETY: not NULL (is_intercepted said so) and a C string.
        Entry::named(unsafe { CStr::from_ptr(symbol) })
            .map(|entry| (signature_of(entry, function, cuda_version), function))
    };
    if let Some((entry, function)) = found {
        let wrapper = slots::wrap(entry, ReachedThrough::ProcAddress, function);
        // SAFETY: the app's output pointer, which the driver has just written.
        unsafe { pfn.write(wrapper) };
    }
}

/// The entry point whose signature `function` (what the driver returned for `asked`) has:
/// `asked`, except that `cuGetProcAddress` may be either version: the one the driver's exported
/// symbol at that address names, else `cuGetProcAddress_v2` from [`V2_SINCE`] on (cuda.h's
/// `PFN_cuGetProcAddress_v12000`).
fn signature_of(asked: Entry, function: *mut c_void, cuda_version: c_int) -> Entry {
    if asked != Entry::GetProcAddress {
        return asked;
    }
    match real::symbol_name(function).and_then(Entry::named) {
        Some(named @ (Entry::GetProcAddress | Entry::GetProcAddressV2)) => named,
        _ if cuda_version >= V2_SINCE => Entry::GetProcAddressV2,
        _ => Entry::GetProcAddress,
    }
}

/// For `own` (one of the shim's exported symbols, which the driver gave): its entry point and
/// the driver's own function of that name, looked up in the object that holds
/// `get_proc_address`.
fn drivers_own(own: *mut c_void, get_proc_address: usize) -> Option<(Entry, *mut c_void)> {
    let name = real::symbol_name(own)?;
    let entry = Entry::named(name)?;
    let driver = Loaded::holding(get_proc_address as *const c_void)?;
    let function = driver.lookup(name);
    (!function.is_null()).then_some((entry, function))
}

export!(cuGetProcAddress => get_proc_address(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: cuuint64_t
));
export!(cuGetProcAddress_v2 => get_proc_address_v2(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: cuuint64_t,
    symbol_status: *mut CUdriverProcAddressQueryResult
));
