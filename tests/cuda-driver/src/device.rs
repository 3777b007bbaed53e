//! `cuInit`, the driver's version and its one device: its name and UUID.
//!
//! The UUID is the test Vulkan driver's first physical device's `deviceUUID`
//! (`exportcheck-dev1`, tests/icd), so that a CUDA import of that driver's export is on the same
//! device; [`DEVICE_UUID_ENV`] names another (32 hex digits) to make a mismatch.

use crate::boundary::{entry, Out, Outcome};
use exportcheck_cuda_abi::*;
use std::ffi::{c_char, c_int, c_uint};
use std::sync::OnceLock;

/// What `cuDriverGetVersion` reports: CUDA 13.0.
pub const DRIVER_VERSION: c_int = 13000;
/// The number of devices.
pub const DEVICE_COUNT: c_int = 1;
/// `cuDeviceGetName`'s answer.
pub const DEVICE_NAME: &str = "exportcheck test CUDA device";
/// The device's UUID unless [`DEVICE_UUID_ENV`] says otherwise: the test Vulkan driver's first
/// physical device's `deviceUUID` (tests/icd/src/physical_device.rs `DEVICE_UUID`).
pub const DEFAULT_DEVICE_UUID: [u8; 16] = *b"exportcheck-dev1";
/// The environment variable that sets the device's UUID: 32 hex digits (dashes ignored), read
/// by `cuInit`.
pub const DEVICE_UUID_ENV: &str = "EXPORTCHECK_TEST_CUDA_DEVICE_UUID";

/// The device's UUID, set by the first successful `cuInit`.
static DEVICE_UUID: OnceLock<CUuuid> = OnceLock::new();

/// `CUDA_ERROR_NOT_INITIALIZED` unless `cuInit` succeeded.
pub fn initialized() -> Outcome {
    match DEVICE_UUID.get() {
        Some(_) => Ok(()),
        None => Err(CUDA_ERROR_NOT_INITIALIZED),
    }
}

/// `CUDA_ERROR_INVALID_DEVICE` unless `device` is an ordinal of this driver's devices.
pub fn valid_device(device: CUdevice) -> Outcome {
    if (0..DEVICE_COUNT).contains(&device) {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_DEVICE)
    }
}

/// A UUID written as 32 hex digits, dashes anywhere ignored (`nvidia-smi -L` writes them
/// `GPU-xxxxxxxx-xxxx-...`; the `GPU-` prefix is accepted too).
pub fn parse_uuid(text: &str) -> Option<[u8; 16]> {
    let text = text.trim();
    let text = text.strip_prefix("GPU-").unwrap_or(text);
    let digits: Vec<u8> = text.bytes().filter(|&b| b != b'-').collect();
    if digits.len() != 32 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut uuid = [0u8; 16];
    for (byte, pair) in uuid.iter_mut().zip(digits.chunks(2)) {
        let pair = std::str::from_utf8(pair).ok()?;
        *byte = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(uuid)
}

/// The UUID [`DEVICE_UUID_ENV`] names, or the default; `Err` with the bad value.
fn configured_uuid() -> Result<[u8; 16], String> {
    match std::env::var(DEVICE_UUID_ENV) {
        Err(_) => Ok(DEFAULT_DEVICE_UUID),
        Ok(text) => parse_uuid(&text).ok_or(text),
    }
}

/// `cuInit`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuInit(flags: c_uint) -> CUresult {
    entry(|| {
        if flags != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if DEVICE_UUID.get().is_some() {
            return Ok(());
        }
        let bytes = configured_uuid().map_err(|bad| {
            eprintln!(
                "exportcheck-test-cuda: {DEVICE_UUID_ENV}={bad:?} is not 32 hex digits: cuInit fails"
            );
            CUDA_ERROR_INVALID_VALUE
        })?;
        let _ = DEVICE_UUID.set(CUuuid { bytes });
        Ok(())
    })
}

/// `cuDriverGetVersion`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(version: *mut c_int) -> CUresult {
    entry(|| {
        // SAFETY: the caller's pointer (cuda.h's contract).
        let version = unsafe { Out::new(version) }?;
        version.set(DRIVER_VERSION);
        Ok(())
    })
}

/// `cuDeviceGetCount`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CUresult {
    entry(|| {
        initialized()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let count = unsafe { Out::new(count) }?;
        count.set(DEVICE_COUNT);
        Ok(())
    })
}

/// `cuDeviceGet`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(device: *mut CUdevice, ordinal: c_int) -> CUresult {
    entry(|| {
        initialized()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let device = unsafe { Out::new(device) }?;
        valid_device(ordinal)?;
        device.set(ordinal);
        Ok(())
    })
}

/// `cuDeviceGetName`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult {
    entry(|| {
        initialized()?;
        valid_device(dev)?;
        let len = usize::try_from(len).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        if name.is_null() || len == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let text = DEVICE_NAME.as_bytes();
        let copied = text.len().min(len - 1);
        // SAFETY: `name` holds `len` bytes (cuda.h's contract); `copied + 1 <= len`.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr().cast(), name, copied);
            name.add(copied).write(0);
        }
        Ok(())
    })
}

/// `cuDeviceGetUuid` and `cuDeviceGetUuid_v2` alike.
fn device_uuid(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    entry(|| {
        initialized()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let uuid = unsafe { Out::new(uuid) }?;
        valid_device(dev)?;
        uuid.set(*DEVICE_UUID.get().ok_or(CUDA_ERROR_NOT_INITIALIZED)?);
        Ok(())
    })
}

/// `cuDeviceGetUuid`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    device_uuid(uuid, dev)
}

/// `cuDeviceGetUuid_v2`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    device_uuid(uuid, dev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_read_as_nvidia_smi_writes_them() {
        assert_eq!(
            parse_uuid("6578706f7274636865636b2d64657631"),
            Some(DEFAULT_DEVICE_UUID)
        );
        assert_eq!(
            parse_uuid("GPU-6578706f-7274-6368-6563-6b2d64657631"),
            Some(DEFAULT_DEVICE_UUID)
        );
        assert_eq!(parse_uuid("6578706f7274636865636b2d646576"), None);
        assert_eq!(parse_uuid("zz78706f7274636865636b2d64657631"), None);
        assert_eq!(parse_uuid("+578706f7274636865636b2d64657631"), None);
    }

    #[test]
    fn the_device_is_the_test_vulkan_driver_s_unless_told() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            assert_eq!(cuInit(0), CUDA_SUCCESS);
            let mut uuid = CUuuid::default();
            assert_eq!(cuDeviceGetUuid_v2(&mut uuid, 0), CUDA_SUCCESS);
            assert_eq!(&uuid.bytes, b"exportcheck-dev1");
            assert_eq!(cuDeviceGetUuid(&mut uuid, 1), CUDA_ERROR_INVALID_DEVICE);
            let mut name = [0 as c_char; 12];
            assert_eq!(cuDeviceGetName(name.as_mut_ptr(), 12, 0), CUDA_SUCCESS);
            // SAFETY: NUL-terminated by cuDeviceGetName.
            let name = std::ffi::CStr::from_ptr(name.as_ptr());
            assert_eq!(name.to_str(), Ok("exportcheck"));
            let (mut count, mut version, mut device) = (0, 0, -1);
            assert_eq!(cuDeviceGetCount(&mut count), CUDA_SUCCESS);
            assert_eq!(count, 1);
            assert_eq!(cuDriverGetVersion(&mut version), CUDA_SUCCESS);
            assert_eq!(version, 13000);
            assert_eq!(cuDeviceGet(&mut device, 0), CUDA_SUCCESS);
            assert_eq!(device, 0);
            assert_eq!(cuDeviceGet(&mut device, 1), CUDA_ERROR_INVALID_DEVICE);
            assert_eq!(
                cuDeviceGet(std::ptr::null_mut(), 0),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(cuInit(1), CUDA_ERROR_INVALID_VALUE);
        }
    }
}
