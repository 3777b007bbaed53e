//! Types, structures and constants of the CUDA driver API's external resource interoperability,
//! under `cuda.h`'s names (so that they can be searched for in NVIDIA's documentation).

#![allow(non_camel_case_types)]

use core::ffi::{c_int, c_uint, c_ulonglong, c_void};

/// `CUresult`.
pub type CUresult = c_int;
/// `CUdevice`: an ordinal.
pub type CUdevice = c_int;
/// `CUdeviceptr` (64-bit).
pub type CUdeviceptr = c_ulonglong;
/// `CUcontext`.
pub type CUcontext = *mut c_void;
/// `CUstream`.
pub type CUstream = *mut c_void;
/// `CUexternalMemory`.
pub type CUexternalMemory = *mut c_void;
/// `CUexternalSemaphore`.
pub type CUexternalSemaphore = *mut c_void;
/// `CUmipmappedArray`.
pub type CUmipmappedArray = *mut c_void;
/// `CUdriverProcAddressQueryResult` (`cuGetProcAddress_v2`'s last argument).
pub type CUdriverProcAddressQueryResult = c_int;
/// `cuuint64_t` (`cuGetProcAddress`'s flags).
pub type cuuint64_t = u64;

pub const CUDA_SUCCESS: CUresult = 0;
pub const CUDA_ERROR_INVALID_VALUE: CUresult = 1;
pub const CUDA_ERROR_OUT_OF_MEMORY: CUresult = 2;
pub const CUDA_ERROR_NOT_INITIALIZED: CUresult = 3;
pub const CUDA_ERROR_DEINITIALIZED: CUresult = 4;
pub const CUDA_ERROR_NO_DEVICE: CUresult = 100;
pub const CUDA_ERROR_INVALID_DEVICE: CUresult = 101;
pub const CUDA_ERROR_INVALID_CONTEXT: CUresult = 201;
pub const CUDA_ERROR_INVALID_HANDLE: CUresult = 400;
pub const CUDA_ERROR_NOT_FOUND: CUresult = 500;
pub const CUDA_ERROR_NOT_SUPPORTED: CUresult = 801;
pub const CUDA_ERROR_OPERATING_SYSTEM: CUresult = 304;
pub const CUDA_ERROR_UNKNOWN: CUresult = 999;

/// `CU_GET_PROC_ADDRESS_SUCCESS` (`CUdriverProcAddressQueryResult`).
pub const CU_GET_PROC_ADDRESS_SUCCESS: CUdriverProcAddressQueryResult = 0;
/// `CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`.
pub const CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND: CUdriverProcAddressQueryResult = 1;
/// `CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`: the symbol exists, but not in the CUDA version
/// asked for.
pub const CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT: CUdriverProcAddressQueryResult = 2;

/// `CUexternalMemoryHandleType`.
pub type CUexternalMemoryHandleType = c_uint;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD: CUexternalMemoryHandleType = 1;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32: CUexternalMemoryHandleType = 2;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT: CUexternalMemoryHandleType = 3;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP: CUexternalMemoryHandleType = 4;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE: CUexternalMemoryHandleType = 5;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE: CUexternalMemoryHandleType = 6;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT: CUexternalMemoryHandleType = 7;
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF: CUexternalMemoryHandleType = 8;
/// CUDA 13.
pub const CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD: CUexternalMemoryHandleType = 9;

/// `CUDA_EXTERNAL_MEMORY_DEDICATED`: the imported memory is a dedicated allocation.
pub const CUDA_EXTERNAL_MEMORY_DEDICATED: c_uint = 0x1;

/// `CUexternalSemaphoreHandleType`.
pub type CUexternalSemaphoreHandleType = c_uint;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD: CUexternalSemaphoreHandleType = 1;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32: CUexternalSemaphoreHandleType = 2;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT: CUexternalSemaphoreHandleType = 3;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE: CUexternalSemaphoreHandleType = 4;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE: CUexternalSemaphoreHandleType = 5;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC: CUexternalSemaphoreHandleType = 6;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX: CUexternalSemaphoreHandleType = 7;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT: CUexternalSemaphoreHandleType =
    8;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD: CUexternalSemaphoreHandleType =
    9;
pub const CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32:
    CUexternalSemaphoreHandleType = 10;

/// The Win32 member of the handle unions.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Win32Handle {
    pub handle: *mut c_void,
    pub name: *const c_void,
}

/// `CUDA_EXTERNAL_MEMORY_HANDLE_DESC::handle` (and the semaphore's).
#[repr(C)]
#[derive(Clone, Copy)]
pub union ExternalHandle {
    pub fd: c_int,
    pub win32: Win32Handle,
    pub nv_sci_object: *const c_void,
}

/// `CUDA_EXTERNAL_MEMORY_HANDLE_DESC` (`cuImportExternalMemory`'s `memHandleDesc`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
    pub type_: CUexternalMemoryHandleType,
    pub handle: ExternalHandle,
    pub size: c_ulonglong,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUDA_EXTERNAL_MEMORY_BUFFER_DESC` (`cuExternalMemoryGetMappedBuffer`'s `bufferDesc`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_EXTERNAL_MEMORY_BUFFER_DESC {
    pub offset: c_ulonglong,
    pub size: c_ulonglong,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUarray_format`.
pub type CUarray_format = c_uint;
pub const CU_AD_FORMAT_UNSIGNED_INT8: CUarray_format = 0x01;
pub const CU_AD_FORMAT_UNSIGNED_INT16: CUarray_format = 0x02;
pub const CU_AD_FORMAT_UNSIGNED_INT32: CUarray_format = 0x03;
pub const CU_AD_FORMAT_SIGNED_INT8: CUarray_format = 0x08;
pub const CU_AD_FORMAT_SIGNED_INT16: CUarray_format = 0x09;
pub const CU_AD_FORMAT_SIGNED_INT32: CUarray_format = 0x0a;
pub const CU_AD_FORMAT_HALF: CUarray_format = 0x10;
pub const CU_AD_FORMAT_FLOAT: CUarray_format = 0x20;

/// `CUDA_ARRAY3D_DESCRIPTOR`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_ARRAY3D_DESCRIPTOR {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: CUarray_format,
    pub num_channels: c_uint,
    pub flags: c_uint,
}

/// `CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
    pub offset: c_ulonglong,
    pub array_desc: CUDA_ARRAY3D_DESCRIPTOR,
    pub num_levels: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC` (`cuImportExternalSemaphore`'s `semHandleDesc`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
    pub type_: CUexternalSemaphoreHandleType,
    pub handle: ExternalHandle,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS::params.fence` (and the wait's).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FenceValue {
    pub value: c_ulonglong,
}

/// `CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS::params`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SignalParams {
    pub fence: FenceValue,
    /// `nvSciSync` (a pointer or a 64-bit value).
    pub nv_sci_sync: u64,
    /// `keyedMutex.key`.
    pub keyed_mutex_key: c_ulonglong,
    pub reserved: [c_uint; 12],
}

/// `CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS {
    pub params: SignalParams,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS::params.keyedMutex`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct KeyedMutexWait {
    pub key: c_ulonglong,
    pub timeout_ms: c_uint,
}

/// `CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS::params`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WaitParams {
    pub fence: FenceValue,
    pub nv_sci_sync: u64,
    pub keyed_mutex: KeyedMutexWait,
    pub reserved: [c_uint; 10],
}

/// `CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS {
    pub params: WaitParams,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUuuid`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CUuuid {
    pub bytes: [u8; 16],
}

pub type PFN_cuImportExternalMemory = unsafe extern "C" fn(
    ext_mem_out: *mut CUexternalMemory,
    mem_handle_desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
) -> CUresult;
pub type PFN_cuExternalMemoryGetMappedBuffer = unsafe extern "C" fn(
    dev_ptr: *mut CUdeviceptr,
    ext_mem: CUexternalMemory,
    buffer_desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC,
) -> CUresult;
pub type PFN_cuExternalMemoryGetMappedMipmappedArray = unsafe extern "C" fn(
    mipmap: *mut CUmipmappedArray,
    ext_mem: CUexternalMemory,
    mipmap_desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
) -> CUresult;
pub type PFN_cuDestroyExternalMemory = unsafe extern "C" fn(ext_mem: CUexternalMemory) -> CUresult;
pub type PFN_cuImportExternalSemaphore = unsafe extern "C" fn(
    ext_sem_out: *mut CUexternalSemaphore,
    sem_handle_desc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
) -> CUresult;
pub type PFN_cuSignalExternalSemaphoresAsync = unsafe extern "C" fn(
    ext_sem_array: *const CUexternalSemaphore,
    params_array: *const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
    num_ext_sems: c_uint,
    stream: CUstream,
) -> CUresult;
pub type PFN_cuWaitExternalSemaphoresAsync = unsafe extern "C" fn(
    ext_sem_array: *const CUexternalSemaphore,
    params_array: *const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
    num_ext_sems: c_uint,
    stream: CUstream,
) -> CUresult;
pub type PFN_cuDestroyExternalSemaphore =
    unsafe extern "C" fn(ext_sem: CUexternalSemaphore) -> CUresult;
/// `cuGetProcAddress` (CUDA 11.3, `cuGetProcAddress` in CUDA 12 headers maps to `_v2`).
pub type PFN_cuGetProcAddress = unsafe extern "C" fn(
    symbol: *const core::ffi::c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: cuuint64_t,
) -> CUresult;
/// `cuGetProcAddress_v2` (CUDA 12.0).
pub type PFN_cuGetProcAddress_v2 = unsafe extern "C" fn(
    symbol: *const core::ffi::c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: cuuint64_t,
    symbol_status: *mut CUdriverProcAddressQueryResult,
) -> CUresult;
pub type PFN_cuInit = unsafe extern "C" fn(flags: c_uint) -> CUresult;
pub type PFN_cuDriverGetVersion = unsafe extern "C" fn(version: *mut c_int) -> CUresult;
pub type PFN_cuDeviceGetCount = unsafe extern "C" fn(count: *mut c_int) -> CUresult;
pub type PFN_cuDeviceGet = unsafe extern "C" fn(device: *mut CUdevice, ordinal: c_int) -> CUresult;
pub type PFN_cuCtxCreate_v2 =
    unsafe extern "C" fn(pctx: *mut CUcontext, flags: c_uint, dev: CUdevice) -> CUresult;
/// `cuCtxCreate_v3` (CUDA 11.4: execution-affinity parameters, `CUexecAffinityParam *`).
pub type PFN_cuCtxCreate_v3 = unsafe extern "C" fn(
    pctx: *mut CUcontext,
    params: *const c_void,
    num_params: c_int,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult;
/// `cuCtxCreate_v4` (CUDA 12.5; `cuda.h`'s `cuCtxCreate` in CUDA 13: `CUctxCreateParams *`).
pub type PFN_cuCtxCreate_v4 = unsafe extern "C" fn(
    pctx: *mut CUcontext,
    params: *const c_void,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult;
pub type PFN_cuCtxDestroy_v2 = unsafe extern "C" fn(ctx: CUcontext) -> CUresult;
pub type PFN_cuCtxGetDevice = unsafe extern "C" fn(device: *mut CUdevice) -> CUresult;
pub type PFN_cuDeviceGetUuid = unsafe extern "C" fn(uuid: *mut CUuuid, dev: CUdevice) -> CUresult;

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    /// The sizes and offsets `cuda.h` gives these structures on 64-bit Linux.
    #[test]
    fn layouts_are_cuda_h_s() {
        assert_eq!(size_of::<CUDA_EXTERNAL_MEMORY_HANDLE_DESC>(), 104);
        assert_eq!(offset_of!(CUDA_EXTERNAL_MEMORY_HANDLE_DESC, handle), 8);
        assert_eq!(offset_of!(CUDA_EXTERNAL_MEMORY_HANDLE_DESC, size), 24);
        assert_eq!(offset_of!(CUDA_EXTERNAL_MEMORY_HANDLE_DESC, flags), 32);
        assert_eq!(size_of::<CUDA_EXTERNAL_MEMORY_BUFFER_DESC>(), 88);
        assert_eq!(size_of::<CUDA_ARRAY3D_DESCRIPTOR>(), 40);
        assert_eq!(size_of::<CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC>(), 120);
        assert_eq!(size_of::<CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC>(), 96);
        assert_eq!(offset_of!(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC, flags), 24);
        assert_eq!(size_of::<CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS>(), 144);
        assert_eq!(size_of::<CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS>(), 144);
    }
}
