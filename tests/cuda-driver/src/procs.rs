//! `cuGetProcAddress` and `cuGetProcAddress_v2`: this library's own entry points by `cuda.h`
//! base name (`cuMemFree`, not `cuMemFree_v2`), each in the version the asked-for CUDA version
//! has (`cuCtxCreate`: `cuCtxCreate` before CUDA 3.2, `_v2` then, `_v3` from 11.4, `_v4` from
//! 12.5), as the real driver resolves them for the CUDA runtime, and answering a name it lacks as
//! driver 580 does (see [`Version`]). The flags (per-thread default stream) are not read: this
//! driver has no `_ptsz` variants. They need no `cuInit`.

use crate::boundary::{entry, Out};
use crate::{context, device, errors, memory, semaphore, stream};
use exportcheck_cuda_abi::*;
use std::ffi::{c_char, c_int, c_void, CStr};

/// One base name's version from a CUDA version on (until the next row of the same name).
struct Proc {
    name: &'static str,
    since: c_int,
    function: *mut c_void,
}

macro_rules! procs {
    ($(($name:literal, $since:literal, $function:path)),* $(,)?) => {
        [$(Proc { name: $name, since: $since, function: $function as *mut c_void }),*]
    };
}

/// Every entry point, by base name, ordered by version within a name.
fn table() -> [Proc; 34] {
    procs![
        ("cuInit", 2000, device::cuInit),
        ("cuDriverGetVersion", 2020, device::cuDriverGetVersion),
        ("cuDeviceGetCount", 2000, device::cuDeviceGetCount),
        ("cuDeviceGet", 2000, device::cuDeviceGet),
        ("cuDeviceGetName", 2000, device::cuDeviceGetName),
        ("cuDeviceGetUuid", 9020, device::cuDeviceGetUuid),
        ("cuDeviceGetUuid", 11040, device::cuDeviceGetUuid_v2),
        ("cuCtxCreate", 2000, context::cuCtxCreate),
        ("cuCtxCreate", 3020, context::cuCtxCreate_v2),
        ("cuCtxCreate", 11040, context::cuCtxCreate_v3),
        ("cuCtxCreate", 12050, context::cuCtxCreate_v4),
        ("cuCtxDestroy", 4000, context::cuCtxDestroy_v2),
        ("cuCtxGetDevice", 2000, context::cuCtxGetDevice),
        ("cuCtxSetCurrent", 4000, context::cuCtxSetCurrent),
        ("cuCtxGetCurrent", 4000, context::cuCtxGetCurrent),
        ("cuCtxSynchronize", 2000, context::cuCtxSynchronize),
        (
            "cuDevicePrimaryCtxRetain",
            7000,
            context::cuDevicePrimaryCtxRetain
        ),
        (
            "cuDevicePrimaryCtxRelease",
            11000,
            context::cuDevicePrimaryCtxRelease_v2
        ),
        ("cuStreamCreate", 2000, stream::cuStreamCreate),
        ("cuStreamDestroy", 4000, stream::cuStreamDestroy_v2),
        ("cuStreamSynchronize", 2000, stream::cuStreamSynchronize),
        (
            "cuImportExternalMemory",
            10000,
            memory::cuImportExternalMemory
        ),
        (
            "cuExternalMemoryGetMappedBuffer",
            10000,
            memory::cuExternalMemoryGetMappedBuffer
        ),
        (
            "cuExternalMemoryGetMappedMipmappedArray",
            10000,
            memory::cuExternalMemoryGetMappedMipmappedArray
        ),
        (
            "cuDestroyExternalMemory",
            10000,
            memory::cuDestroyExternalMemory
        ),
        ("cuMemFree", 3020, memory::cuMemFree_v2),
        (
            "cuMipmappedArrayDestroy",
            5000,
            memory::cuMipmappedArrayDestroy
        ),
        (
            "cuImportExternalSemaphore",
            10000,
            semaphore::cuImportExternalSemaphore
        ),
        (
            "cuSignalExternalSemaphoresAsync",
            10000,
            semaphore::cuSignalExternalSemaphoresAsync
        ),
        (
            "cuWaitExternalSemaphoresAsync",
            10000,
            semaphore::cuWaitExternalSemaphoresAsync
        ),
        (
            "cuDestroyExternalSemaphore",
            10000,
            semaphore::cuDestroyExternalSemaphore
        ),
        ("cuGetErrorName", 6000, errors::cuGetErrorName),
        ("cuGetErrorString", 6000, errors::cuGetErrorString),
        ("cuGetProcAddress", 11030, cuGetProcAddress),
    ]
}

/// `name`'s entry point for `cuda_version`, or the query result saying why there is none.
pub fn lookup(
    name: &[u8],
    cuda_version: c_int,
) -> Result<*mut c_void, CUdriverProcAddressQueryResult> {
    if name == b"cuGetProcAddress" && cuda_version >= 12000 {
        return Ok(cuGetProcAddress_v2 as *mut c_void);
    }
    let table = table();
    if !table.iter().any(|p| p.name.as_bytes() == name) {
        return Err(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    }
    table
        .iter()
        .rev()
        .find(|p| p.name.as_bytes() == name && p.since <= cuda_version)
        .map(|p| p.function)
        .ok_or(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT)
}

/// How each version answers a name it has no entry point for (driver 580, measured):
/// `cuGetProcAddress` with `CUDA_ERROR_NOT_FOUND`, `*pfn` left as it was; `cuGetProcAddress_v2`
/// with `CUDA_SUCCESS`, `*pfn` NULL and the reason in `*symbolStatus` (when given).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    V1,
    V2,
}

/// Both versions: `status` (v2's `symbolStatus`) may be NULL.
fn get_proc_address(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    status: *mut CUdriverProcAddressQueryResult,
    version: Version,
) -> CUresult {
    entry(|| {
        // SAFETY: the caller's pointer (cuda.h's contract).
        let pfn = unsafe { Out::new(pfn) }?;
        if symbol.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // SAFETY: a NUL-terminated name (cuda.h's contract), checked non-NULL.
        let name = unsafe { CStr::from_ptr(symbol) }.to_bytes();
        let found = lookup(name, cuda_version);
        // SAFETY: the caller's pointer (cuda.h's contract), NULL allowed.
        if let Ok(status) = unsafe { Out::new(status) } {
            status.set(found.err().unwrap_or(CU_GET_PROC_ADDRESS_SUCCESS));
        }
        match found {
            Ok(function) => {
                pfn.set(function);
                Ok(())
            }
            Err(_) if version == Version::V1 => Err(CUDA_ERROR_NOT_FOUND),
            Err(_) => {
                pfn.set(std::ptr::null_mut());
                Ok(())
            }
        }
    })
}

/// `cuGetProcAddress`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuGetProcAddress(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    _flags: cuuint64_t,
) -> CUresult {
    get_proc_address(symbol, pfn, cuda_version, std::ptr::null_mut(), Version::V1)
}

/// `cuGetProcAddress_v2`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuGetProcAddress_v2(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    _flags: cuuint64_t,
    symbol_status: *mut CUdriverProcAddressQueryResult,
) -> CUresult {
    get_proc_address(symbol, pfn, cuda_version, symbol_status, Version::V2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(name: &CStr, version: c_int) -> (CUresult, *mut c_void, c_int) {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            // Not NULL before the call, to see it written.
            let mut marker = 0u8;
            let (mut pfn, mut status) = (std::ptr::addr_of_mut!(marker).cast::<c_void>(), -1);
            let result = cuGetProcAddress_v2(name.as_ptr(), &mut pfn, version, 0, &mut status);
            (result, pfn, status)
        }
    }

    #[test]
    fn base_names_resolve_to_the_version_asked_for() {
        let v2 = context::cuCtxCreate_v2 as *mut c_void;
        let v3 = context::cuCtxCreate_v3 as *mut c_void;
        let v4 = context::cuCtxCreate_v4 as *mut c_void;
        assert_eq!(get(c"cuCtxCreate", 11000), (CUDA_SUCCESS, v2, 0));
        assert_eq!(get(c"cuCtxCreate", 12000), (CUDA_SUCCESS, v3, 0));
        assert_eq!(get(c"cuCtxCreate", 13000), (CUDA_SUCCESS, v4, 0));
        let import = memory::cuImportExternalMemory as *mut c_void;
        assert_eq!(
            get(c"cuImportExternalMemory", 13000),
            (CUDA_SUCCESS, import, 0)
        );
        assert_eq!(
            get(c"cuImportExternalMemory", 9020),
            (CUDA_SUCCESS, std::ptr::null_mut(), 2)
        );
        let v2 = cuGetProcAddress_v2 as *mut c_void;
        assert_eq!(get(c"cuGetProcAddress", 13000), (CUDA_SUCCESS, v2, 0));
        let v1 = cuGetProcAddress as *mut c_void;
        assert_eq!(get(c"cuGetProcAddress", 11080), (CUDA_SUCCESS, v1, 0));
    }

    #[test]
    fn unknown_names_are_not_found() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            // v2: success, NULL and the status.
            let none = (CUDA_SUCCESS, std::ptr::null_mut(), 1);
            assert_eq!(get(c"cuMemAlloc", 13000), none);
            assert_eq!(get(c"cuMemFree_v2", 13000), none);
            let mut pfn = device::cuInit as *mut c_void;
            let result =
                cuGetProcAddress_v2(c"cuX".as_ptr(), &mut pfn, 13000, 0, std::ptr::null_mut());
            assert_eq!((result, pfn), (CUDA_SUCCESS, std::ptr::null_mut()));
            // v1: not found, the pointer untouched.
            let mut pfn = device::cuInit as *mut c_void;
            let result = cuGetProcAddress(c"cuMemAlloc".as_ptr(), &mut pfn, 13000, 0);
            assert_eq!(
                (result, pfn),
                (CUDA_ERROR_NOT_FOUND, device::cuInit as *mut c_void)
            );
            assert_eq!(
                cuGetProcAddress(std::ptr::null(), &mut pfn, 13000, 0),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(
                cuGetProcAddress(c"cuInit".as_ptr(), std::ptr::null_mut(), 13000, 0),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(
                cuGetProcAddress(c"cuInit".as_ptr(), &mut pfn, 13000, 0),
                CUDA_SUCCESS
            );
            assert_eq!(pfn, device::cuInit as *mut c_void);
        }
    }

    /// Every row's name is a `cuda.h` base name whose versions are in order.
    #[test]
    fn the_table_is_ordered_by_version() {
        let table = table();
        for pair in table.windows(2) {
            if pair[0].name == pair[1].name {
                assert!(pair[0].since < pair[1].since, "{}", pair[0].name);
            }
        }
        for name in exportcheck_cuda_abi::hooks::INTERCEPTED {
            assert!(table.iter().any(|p| p.name == name), "{name}");
        }
    }
}
