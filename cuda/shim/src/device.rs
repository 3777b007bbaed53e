//! The CUDA device of the calling thread's current context, for the import hooks.

use core::ffi::c_void;

use exportcheck_cuda_abi::hooks::CudaDevice;
use exportcheck_cuda_abi::{
    CUdevice, CUuuid, PFN_cuCtxGetDevice, PFN_cuDeviceGetUuid, CUDA_SUCCESS,
};

use crate::real::Loaded;

/// The device of the current context (`cuCtxGetDevice`), with its UUID (`cuDeviceGetUuid_v2`,
/// else `cuDeviceGetUuid`), asked of the driver object that defines `driver_function` (the real
/// function the app's call goes to), else of `libcuda.so.1`. `known: 0` when any of it fails
/// (no current context, a driver without these functions). Looked up at each import, which is
/// rare, so that a driver unloaded and loaded again is never called at a stale address.
pub(crate) fn current(driver_function: *const c_void) -> CudaDevice {
    let Some(driver) = Loaded::holding(driver_function).or_else(|| Loaded::named(c"libcuda.so.1"))
    else {
        return CudaDevice::default();
    };
    let get_device = driver.lookup(c"cuCtxGetDevice");
    let mut get_uuid = driver.lookup(c"cuDeviceGetUuid_v2");
    if get_uuid.is_null() {
        get_uuid = driver.lookup(c"cuDeviceGetUuid");
    }
    if get_device.is_null() || get_uuid.is_null() {
        return CudaDevice::default();
    }
    // SAFETY: the driver's functions of these names, with cuda.h's signatures.
    let (get_device, get_uuid) = unsafe {
        (
            core::mem::transmute::<*mut c_void, PFN_cuCtxGetDevice>(get_device),
            core::mem::transmute::<*mut c_void, PFN_cuDeviceGetUuid>(get_uuid),
        )
    };
    let mut ordinal: CUdevice = 0;
    // SAFETY: a valid output pointer.
    if unsafe { get_device(&mut ordinal) } != CUDA_SUCCESS {
        return CudaDevice::default();
    }
    let mut uuid = CUuuid::default();
    // SAFETY: a valid output pointer and the driver's own ordinal.
    if unsafe { get_uuid(&mut uuid, ordinal) } != CUDA_SUCCESS {
        return CudaDevice::default();
    }
    CudaDevice {
        known: 1,
        ordinal,
        uuid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_driver_the_device_is_unknown() {
        assert_eq!(
            current(libc::malloc as *const c_void),
            CudaDevice::default()
        );
    }
}
