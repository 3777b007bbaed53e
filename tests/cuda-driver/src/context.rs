//! Contexts: created ones (`cuCtxCreate`) and one primary context per device
//! (`cuDevicePrimaryCtxRetain`, the CUDA runtime's way). The current context is per thread; the
//! calls that need one fail with `CUDA_ERROR_INVALID_CONTEXT` without it.

use crate::boundary::{entry, lock, Out};
use crate::device::{initialized, valid_device, DEVICE_COUNT};
use crate::registry::Registry;
use exportcheck_cuda_abi::*;
use std::cell::Cell;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

pub struct Context {
    /// Unique in the process (a handle's address may be reused once the context is destroyed).
    pub id: u64,
    pub device: CUdevice,
    /// A device's primary context: `cuCtxDestroy` refuses it.
    pub primary: bool,
}

pub static CONTEXTS: Registry<Context> = Registry::new();

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Context {
    fn new(device: CUdevice, primary: bool) -> Self {
        Context {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            device,
            primary,
        }
    }
}

/// The ID of the live context `context`, if it is one.
pub fn id_of(context: CUcontext) -> Option<u64> {
    CONTEXTS.with(context, |c| c.id)
}

/// Each device's primary context (0 until first retained) and its retain count. The context
/// outlives its last release: a later retain hands out the same handle, as the real driver does.
static PRIMARY: Mutex<[(usize, u32); DEVICE_COUNT as usize]> =
    Mutex::new([(0, 0); DEVICE_COUNT as usize]);

thread_local! {
    /// The calling thread's current context (0: none).
    static CURRENT: Cell<usize> = const { Cell::new(0) };
}

/// The calling thread's current context: `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`,
/// `CUDA_ERROR_INVALID_CONTEXT` when there is none or it was destroyed.
pub fn current() -> Result<CUcontext, CUresult> {
    initialized()?;
    let context = CURRENT.with(Cell::get) as CUcontext;
    if context.is_null() || !CONTEXTS.contains(context) {
        return Err(CUDA_ERROR_INVALID_CONTEXT);
    }
    Ok(context)
}

fn set_current(context: CUcontext) {
    CURRENT.with(|current| current.set(context as usize));
}

/// `cuCtxCreate` (v1 and v2: the same signature): a new context, made current.
fn create(pctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    entry(|| {
        initialized()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let pctx = unsafe { Out::new(pctx) }?;
        valid_device(dev)?;
        let context = CONTEXTS.insert(Context::new(dev, false));
        set_current(context);
        pctx.set(context);
        Ok(())
    })
}

/// `cuCtxCreate`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate(
    pctx: *mut CUcontext,
    _flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    create(pctx, dev)
}

/// `cuCtxCreate_v2`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v2(
    pctx: *mut CUcontext,
    _flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    create(pctx, dev)
}

/// `cuCtxCreate_v3` (CUDA 11.4): the execution-affinity parameters are not read.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v3(
    pctx: *mut CUcontext,
    _params: *const c_void,
    _num_params: c_int,
    _flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    create(pctx, dev)
}

/// `cuCtxCreate_v4` (`cuda.h`'s `cuCtxCreate` since CUDA 13): the creation parameters
/// (`CUctxCreateParams`: execution affinity, CIG) are not read.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v4(
    pctx: *mut CUcontext,
    _params: *const c_void,
    _flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    create(pctx, dev)
}

/// `cuCtxDestroy_v2`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxDestroy_v2(ctx: CUcontext) -> CUresult {
    entry(|| {
        initialized()?;
        if ctx.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        match CONTEXTS.with(ctx, |c| c.primary) {
            None | Some(true) => return Err(CUDA_ERROR_INVALID_CONTEXT),
            Some(false) => {}
        }
        // Its streams die with it: they name its ID, which no context has any more.
        CONTEXTS.remove(ctx);
        if CURRENT.with(Cell::get) == ctx as usize {
            set_current(std::ptr::null_mut());
        }
        Ok(())
    })
}

/// `cuCtxSetCurrent`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetCurrent(ctx: CUcontext) -> CUresult {
    entry(|| {
        initialized()?;
        if !ctx.is_null() && !CONTEXTS.contains(ctx) {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        set_current(ctx);
        Ok(())
    })
}

/// Writes the current context, NULL when there is none (not an error).
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(pctx: *mut CUcontext) -> CUresult {
    entry(|| {
        initialized()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let pctx = unsafe { Out::new(pctx) }?;
        let context = CURRENT.with(Cell::get) as CUcontext;
        pctx.set(if CONTEXTS.contains(context) {
            context
        } else {
            std::ptr::null_mut()
        });
        Ok(())
    })
}

/// `cuCtxGetDevice`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(device: *mut CUdevice) -> CUresult {
    entry(|| {
        let context = current()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let device = unsafe { Out::new(device) }?;
        let dev = CONTEXTS
            .with(context, |c| c.device)
            .ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
        device.set(dev);
        Ok(())
    })
}

/// `cuCtxSynchronize`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSynchronize() -> CUresult {
    entry(|| current().map(|_| ()))
}

/// `cuDevicePrimaryCtxRetain`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    entry(|| {
        initialized()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let pctx = unsafe { Out::new(pctx) }?;
        valid_device(dev)?;
        let mut primary = lock(&PRIMARY);
        let (handle, retains) = &mut primary[dev as usize];
        if *handle == 0 {
            *handle = CONTEXTS.insert(Context::new(dev, true)) as usize;
        }
        *retains += 1;
        pctx.set(*handle as CUcontext);
        Ok(())
    })
}

/// `cuDevicePrimaryCtxRelease_v2`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) -> CUresult {
    entry(|| {
        initialized()?;
        valid_device(dev)?;
        let mut primary = lock(&PRIMARY);
        let (_, retains) = &mut primary[dev as usize];
        if *retains == 0 {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        *retains -= 1;
        Ok(())
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `cuInit`, as every test does first (the tests of this crate share one process).
    pub(crate) fn init() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            assert_eq!(crate::device::cuInit(0), CUDA_SUCCESS);
        }
    }

    /// A fresh context, current on the calling thread.
    pub(crate) fn with_context() -> CUcontext {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            init();
            let mut context = std::ptr::null_mut();
            assert_eq!(cuCtxCreate_v2(&mut context, 0, 0), CUDA_SUCCESS);
            context
        }
    }

    #[test]
    fn the_current_context_is_per_thread() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            let context = with_context();
            let mut device = -1;
            assert_eq!(cuCtxGetDevice(&mut device), CUDA_SUCCESS);
            assert_eq!(device, 0);
            let context_address = context as usize;
            std::thread::spawn(move || {
                let mut device = -1;
                assert_eq!(cuCtxGetDevice(&mut device), CUDA_ERROR_INVALID_CONTEXT);
                assert_eq!(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
                let mut current = 1 as CUcontext;
                assert_eq!(cuCtxGetCurrent(&mut current), CUDA_SUCCESS);
                assert!(current.is_null());
                assert_eq!(cuCtxSetCurrent(context_address as CUcontext), CUDA_SUCCESS);
                assert_eq!(cuCtxGetDevice(&mut device), CUDA_SUCCESS);
            })
            .join()
            .unwrap();
            assert_eq!(cuCtxSynchronize(), CUDA_SUCCESS);
            assert_eq!(cuCtxDestroy_v2(context), CUDA_SUCCESS);
            assert_eq!(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
            assert_eq!(cuCtxDestroy_v2(context), CUDA_ERROR_INVALID_CONTEXT);
            assert_eq!(
                cuCtxDestroy_v2(std::ptr::null_mut()),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(cuCtxSetCurrent(context), CUDA_ERROR_INVALID_CONTEXT);
            assert_eq!(
                cuCtxCreate_v2(&mut std::ptr::null_mut(), 0, 3),
                CUDA_ERROR_INVALID_DEVICE
            );
        }
    }

    #[test]
    fn the_primary_context_is_one_per_device() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            init();
            let (mut first, mut second) = (std::ptr::null_mut(), std::ptr::null_mut());
            assert_eq!(cuDevicePrimaryCtxRetain(&mut first, 0), CUDA_SUCCESS);
            assert_eq!(cuDevicePrimaryCtxRetain(&mut second, 0), CUDA_SUCCESS);
            assert_eq!(first, second);
            assert_eq!(cuCtxDestroy_v2(first), CUDA_ERROR_INVALID_CONTEXT);
            let primary = second as usize;
            std::thread::spawn(move || {
                assert_eq!(cuCtxSetCurrent(primary as CUcontext), CUDA_SUCCESS);
                assert_eq!(cuCtxSynchronize(), CUDA_SUCCESS);
            })
            .join()
            .unwrap();
            assert_eq!(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
            assert_eq!(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
        }
    }
}
