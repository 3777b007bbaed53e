//! The hook table between the interposer (`cuda/shim`, `libexportcheck_cuda.so`, preloaded into
//! the processes of `exportcheck run`) and the layer (`libVkLayer_exportcheck.so`), which checks
//! the calls against the Vulkan exports it knows.
//!
//! The interposer intercepts the CUDA driver's external-resource entry points and, for each call,
//! calls the layer's hook before and/or after passing the call to the driver unchanged. It loads
//! the layer only when the first such call comes, resolves [`HOOKS_SYMBOL`] in it and uses the
//! table if its `version` is [`HOOKS_VERSION`]. The hooks only observe: they never change an
//! argument or a result, and they never unwind (the layer contains its panics).

use crate::types::*;
use core::ffi::{c_char, c_uint};

/// The version of [`CudaHooks`] this crate describes.
pub const HOOKS_VERSION: u32 = 1;

/// The symbol the layer exports: `extern "C" fn() -> *const CudaHooks` (never NULL).
pub const HOOKS_SYMBOL: &core::ffi::CStr = c"exportcheck_cuda_hooks";

/// The environment variable through which `exportcheck run` tells the interposer where the layer
/// library is (absolute path: the same file the Vulkan loader loads, so one instance of the layer
/// serves both sides in a process).
pub const LAYER_PATH_ENV: &str = "EXPORTCHECK_CUDA_LAYER";

/// The CUDA device of the calling thread's current context, as the interposer found it
/// (`cuCtxGetDevice`, then `cuDeviceGetUuid_v2` or `cuDeviceGetUuid`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CudaDevice {
    /// 1 when `ordinal` and `uuid` were read, 0 when not (no current context, a query failed).
    pub known: u32,
    pub ordinal: CUdevice,
    pub uuid: CUuuid,
}

/// Which entry point a call came through, for the findings' wording.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReachedThrough {
    /// The app's own reference to the symbol (linked, or `dlsym`'d from the driver library).
    Symbol = 0,
    /// A pointer `cuGetProcAddress` returned (the CUDA runtime's way: `cudaImportExternalMemory`
    /// and friends).
    ProcAddress = 1,
}

/// The layer's hooks. Every pointer argument is the app's, passed as is (it may be NULL or
/// invalid: the layer reads it with care).
#[repr(C)]
pub struct CudaHooks {
    /// [`HOOKS_VERSION`].
    pub version: u32,
    /// Before `cuImportExternalMemory` goes down (the fd is still the app's). Returns a token
    /// for `import_memory_after` (0: nothing to follow).
    pub import_memory_before: unsafe extern "C" fn(
        desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
        device: *const CudaDevice,
        through: ReachedThrough,
    ) -> u64,
    /// After it returned `result`; `ext_mem_out` is the app's output pointer.
    pub import_memory_after:
        unsafe extern "C" fn(token: u64, result: CUresult, ext_mem_out: *const CUexternalMemory),
    /// Before `cuExternalMemoryGetMappedBuffer` goes down.
    pub mapped_buffer: unsafe extern "C" fn(
        ext_mem: CUexternalMemory,
        desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC,
    ),
    /// Before `cuExternalMemoryGetMappedMipmappedArray` goes down.
    pub mapped_mipmapped_array: unsafe extern "C" fn(
        ext_mem: CUexternalMemory,
        desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
    ),
    /// After `cuDestroyExternalMemory` returned `result`.
    pub destroy_memory: unsafe extern "C" fn(ext_mem: CUexternalMemory, result: CUresult),
    /// Before `cuImportExternalSemaphore` goes down. Returns a token for
    /// `import_semaphore_after` (0: nothing to follow).
    pub import_semaphore_before: unsafe extern "C" fn(
        desc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
        device: *const CudaDevice,
        through: ReachedThrough,
    ) -> u64,
    /// After it returned `result`; `ext_sem_out` is the app's output pointer.
    pub import_semaphore_after:
        unsafe extern "C" fn(token: u64, result: CUresult, ext_sem_out: *const CUexternalSemaphore),
    /// Before `cuSignalExternalSemaphoresAsync` goes down.
    pub signal_semaphores: unsafe extern "C" fn(
        sems: *const CUexternalSemaphore,
        params: *const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
        count: c_uint,
    ),
    /// Before `cuWaitExternalSemaphoresAsync` goes down.
    pub wait_semaphores: unsafe extern "C" fn(
        sems: *const CUexternalSemaphore,
        params: *const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
        count: c_uint,
    ),
    /// After `cuDestroyExternalSemaphore` returned `result`.
    pub destroy_semaphore: unsafe extern "C" fn(ext_sem: CUexternalSemaphore, result: CUresult),
}

/// The names of the entry points the interposer intercepts (besides `cuGetProcAddress` and
/// `cuGetProcAddress_v2`, which it wraps to hand out its own pointers for these).
pub const INTERCEPTED: [&str; 8] = [
    "cuImportExternalMemory",
    "cuExternalMemoryGetMappedBuffer",
    "cuExternalMemoryGetMappedMipmappedArray",
    "cuDestroyExternalMemory",
    "cuImportExternalSemaphore",
    "cuSignalExternalSemaphoresAsync",
    "cuWaitExternalSemaphoresAsync",
    "cuDestroyExternalSemaphore",
];

/// Whether `symbol` (a C string) names one of [`INTERCEPTED`] or `cuGetProcAddress[_v2]`: the
/// interposer's `dlsym` and `cuGetProcAddress` wrappers compare with this and pass anything else
/// through untouched.
///
/// # Safety
/// `symbol` is NULL or a NUL-terminated string.
pub unsafe fn is_intercepted(symbol: *const c_char) -> bool {
    if symbol.is_null() {
        return false;
    }
    // SAFETY: the caller's contract.
    let name = unsafe { core::ffi::CStr::from_ptr(symbol) }.to_bytes();
    if !name.starts_with(b"cu") {
        return false;
    }
    name == b"cuGetProcAddress"
        || name == b"cuGetProcAddress_v2"
        || INTERCEPTED.iter().any(|n| n.as_bytes() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_intercepted_names_are() {
        // SAFETY: C string literals.
        unsafe {
            assert!(is_intercepted(c"cuImportExternalMemory".as_ptr()));
            assert!(is_intercepted(c"cuGetProcAddress_v2".as_ptr()));
            assert!(!is_intercepted(c"cuImportExternalMemory_v2".as_ptr()));
            assert!(!is_intercepted(c"cuMemAlloc".as_ptr()));
            assert!(!is_intercepted(c"malloc".as_ptr()));
            assert!(!is_intercepted(core::ptr::null()));
        }
    }
}
