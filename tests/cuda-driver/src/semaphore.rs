//! External semaphores: opaque-fd and timeline-semaphore-fd imports (which take the fd, as a
//! memory import does), signals and waits that complete at once, destruction. Win32, D3D,
//! keyed-mutex and NvSciSync handles are `CUDA_ERROR_NOT_SUPPORTED` on Linux.

use crate::boundary::{entry, input, Out, Outcome};
use crate::context::current;
use crate::memory::{is_open, take_fd};
use crate::registry::Registry;
use crate::stream::usable;
use exportcheck_cuda_abi::*;
use std::ffi::c_uint;
use std::os::fd::OwnedFd;

pub struct ExternalSemaphore {
    pub handle_type: CUexternalSemaphoreHandleType,
    /// A duplicate of the imported fd, held until destruction.
    pub file: Option<OwnedFd>,
    /// The value last signalled (a timeline semaphore's; 0 for a binary one).
    pub value: u64,
}

pub static SEMAPHORES: Registry<ExternalSemaphore> = Registry::new();

/// `cuImportExternalSemaphore`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuImportExternalSemaphore(
    ext_sem_out: *mut CUexternalSemaphore,
    sem_handle_desc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
) -> CUresult {
    entry(|| {
        current()?;
        // SAFETY: the caller's pointers (cuda.h's contract).
        let (out, desc) = unsafe { (Out::new(ext_sem_out)?, input(sem_handle_desc)?) };
        match desc.type_ {
            CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD => {}
            CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32
                ..=CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 => {
                return Err(CUDA_ERROR_NOT_SUPPORTED)
            }
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
        }
        // SAFETY: the union's `fd` member, the one these handle types use (any bits are an int).
        let fd = unsafe { desc.handle.fd };
        if !is_open(fd) {
            // The real driver's answer to a negative or closed fd.
            return Err(CUDA_ERROR_UNKNOWN);
        }
        out.set(SEMAPHORES.insert(ExternalSemaphore {
            handle_type: desc.type_,
            file: take_fd(fd),
            value: 0,
        }));
        Ok(())
    })
}

/// The `count` semaphores of `sems`, each checked live, then `apply`'d with its parameters.
/// No semaphores at all is `CUDA_ERROR_INVALID_VALUE`, as the real driver has it.
fn for_each<P>(
    sems: *const CUexternalSemaphore,
    params: *const P,
    count: c_uint,
    stream: CUstream,
    mut apply: impl FnMut(&mut ExternalSemaphore, &P),
) -> Outcome {
    current()?;
    if count == 0 || sems.is_null() || params.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    usable(stream)?;
    let count = count as usize;
    // SAFETY: `count` elements each (cuda.h's contract with the caller); checked non-NULL.
    let (sems, params) = unsafe {
        (
            std::slice::from_raw_parts(sems, count),
            std::slice::from_raw_parts(params, count),
        )
    };
    if !sems.iter().all(|&sem| SEMAPHORES.contains(sem)) {
        return Err(CUDA_ERROR_INVALID_HANDLE);
    }
    for (&sem, param) in sems.iter().zip(params) {
        SEMAPHORES.with(sem, |s| apply(s, param));
    }
    Ok(())
}

/// `cuSignalExternalSemaphoresAsync`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuSignalExternalSemaphoresAsync(
    ext_sem_array: *const CUexternalSemaphore,
    params_array: *const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
    num_ext_sems: c_uint,
    stream: CUstream,
) -> CUresult {
    entry(|| {
        for_each(
            ext_sem_array,
            params_array,
            num_ext_sems,
            stream,
            |sem, p| {
                if sem.handle_type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD {
                    sem.value = p.params.fence.value;
                }
            },
        )
    })
}

/// `cuWaitExternalSemaphoresAsync`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuWaitExternalSemaphoresAsync(
    ext_sem_array: *const CUexternalSemaphore,
    params_array: *const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
    num_ext_sems: c_uint,
    stream: CUstream,
) -> CUresult {
    entry(|| for_each(ext_sem_array, params_array, num_ext_sems, stream, |_, _| {}))
}

/// `cuDestroyExternalSemaphore`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDestroyExternalSemaphore(ext_sem: CUexternalSemaphore) -> CUresult {
    entry(|| {
        current()?;
        if ext_sem.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        SEMAPHORES
            .remove(ext_sem)
            .map(drop)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::tests::with_context;
    use crate::memory::tests::memfd;
    use std::os::fd::IntoRawFd;

    fn import(type_: CUexternalSemaphoreHandleType, fd: i32) -> (CUresult, CUexternalSemaphore) {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            let desc = CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
                type_,
                handle: ExternalHandle { fd },
                flags: 0,
                reserved: [0; 16],
            };
            let mut sem = std::ptr::null_mut();
            (cuImportExternalSemaphore(&mut sem, &desc), sem)
        }
    }

    #[test]
    fn fd_semaphores_import_signal_wait_and_are_destroyed() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            with_context();
            let fd = memfd(0).into_raw_fd();
            let (result, timeline) =
                import(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, fd);
            assert_eq!(result, CUDA_SUCCESS);
            assert!(!is_open(fd), "the import closed the fd");
            let (result, binary) = import(
                CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD,
                memfd(0).into_raw_fd(),
            );
            assert_eq!(result, CUDA_SUCCESS);
            let sems = [timeline, binary];
            // SAFETY (of the whole test): plain data, for which all zeroes is a value.
            let mut signal: CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS = std::mem::zeroed();
            signal.params.fence.value = 5;
            let signals = [signal, signal];
            let null = std::ptr::null_mut();
            assert_eq!(
                cuSignalExternalSemaphoresAsync(sems.as_ptr(), signals.as_ptr(), 2, null),
                CUDA_SUCCESS
            );
            assert_eq!(SEMAPHORES.with(timeline, |s| s.value), Some(5));
            let waits: [CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS; 2] = std::mem::zeroed();
            assert_eq!(
                cuWaitExternalSemaphoresAsync(sems.as_ptr(), waits.as_ptr(), 2, null),
                CUDA_SUCCESS
            );
            assert_eq!(
                cuWaitExternalSemaphoresAsync(sems.as_ptr(), waits.as_ptr(), 2, 0x99 as CUstream),
                CUDA_ERROR_INVALID_HANDLE
            );
            // None at all: refused, as the real driver does.
            assert_eq!(
                cuWaitExternalSemaphoresAsync(sems.as_ptr(), waits.as_ptr(), 0, null),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(
                cuSignalExternalSemaphoresAsync(std::ptr::null(), std::ptr::null(), 0, null),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(cuDestroyExternalSemaphore(binary), CUDA_SUCCESS);
            assert_eq!(
                cuSignalExternalSemaphoresAsync(sems.as_ptr(), signals.as_ptr(), 2, null),
                CUDA_ERROR_INVALID_HANDLE
            );
            assert_eq!(
                cuDestroyExternalSemaphore(binary),
                CUDA_ERROR_INVALID_HANDLE
            );
            assert_eq!(cuDestroyExternalSemaphore(timeline), CUDA_SUCCESS);
            assert_eq!(
                cuDestroyExternalSemaphore(std::ptr::null_mut()),
                CUDA_ERROR_INVALID_VALUE
            );
        }
    }

    #[test]
    fn other_handle_types_are_not_supported() {
        with_context();
        let file = memfd(0);
        let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
        for type_ in [2, 3, 4, 5, 6, 7, 8, 10] {
            assert_eq!(import(type_, fd).0, CUDA_ERROR_NOT_SUPPORTED, "{type_}");
        }
        assert_eq!(import(0, fd).0, CUDA_ERROR_INVALID_VALUE);
        assert_eq!(import(11, fd).0, CUDA_ERROR_INVALID_VALUE);
        // The real driver's answer to a negative fd.
        assert_eq!(
            import(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, -1).0,
            CUDA_ERROR_UNKNOWN
        );
        assert!(is_open(fd));
    }
}
