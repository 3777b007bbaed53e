//! What a test needs of the device beyond CUDA's API: writing and reading a mapped buffer's
//! memory through its device pointer, as a kernel would (`exportcheck_test_cuda_write` /
//! `_read`). A buffer mapped from a file that can be mapped is that file's memory, so what is
//! written here lands in the exporter's (Vulkan's) memory.

use crate::boundary::{entry, lock, Outcome};
use crate::memory::BUFFERS;
use exportcheck_cuda_abi::*;
use std::ffi::c_void;

/// Copies `len` bytes between `host` and the device memory at `dptr`, which must lie within one
/// mapped buffer's part backed by its file (`CUDA_ERROR_INVALID_VALUE` otherwise).
fn copy(dptr: CUdeviceptr, host: *mut u8, len: usize, to_device: bool) -> Outcome {
    if host.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // Held during the copy, so the buffer cannot be freed meanwhile.
    let buffers = lock(&BUFFERS);
    let device = buffers
        .range(..=dptr)
        .next_back()
        .and_then(|(_, mapping)| mapping.host_range(dptr, len))
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    // SAFETY: `device..device + len` lies in a live mapping's backed pages; `host` holds `len`
    // bytes (the caller's contract); the app's buffer is not the mapping's.
    unsafe {
        if to_device {
            std::ptr::copy_nonoverlapping(host.cast_const(), device, len);
        } else {
            std::ptr::copy_nonoverlapping(device.cast_const(), host, len);
        }
    }
    Ok(())
}

/// Writes `len` bytes from `bytes` to the device memory at `dptr`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn exportcheck_test_cuda_write(
    dptr: CUdeviceptr,
    bytes: *const c_void,
    len: usize,
) -> CUresult {
    entry(|| copy(dptr, bytes.cast_mut().cast(), len, true))
}

/// Reads `len` bytes of the device memory at `dptr` into `bytes`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn exportcheck_test_cuda_read(
    dptr: CUdeviceptr,
    bytes: *mut c_void,
    len: usize,
) -> CUresult {
    entry(|| copy(dptr, bytes.cast(), len, false))
}
