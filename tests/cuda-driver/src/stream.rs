//! Streams: handles of the current context; work on them completes at once.

use crate::boundary::{entry, Out, Outcome};
use crate::context::{current, id_of};
use crate::registry::Registry;
use exportcheck_cuda_abi::*;
use std::ffi::c_uint;

pub struct Stream {
    /// The context it was created in and that context's ID: destroying the context destroys it.
    pub context: usize,
    pub context_id: u64,
}

pub static STREAMS: Registry<Stream> = Registry::new();

/// `CU_STREAM_LEGACY` and `CU_STREAM_PER_THREAD`: the special handles of the default streams.
const SPECIAL_STREAMS: [usize; 2] = [0x1, 0x2];

/// Whether `stream` is a stream of this driver whose context lives.
fn live(stream: CUstream) -> bool {
    STREAMS
        .with(stream, |s| (s.context, s.context_id))
        .is_some_and(|(context, id)| id_of(context as CUcontext) == Some(id))
}

/// `Ok` for NULL (the default stream), the special stream handles and a live stream of this
/// driver; `CUDA_ERROR_INVALID_HANDLE` for anything else. Needs a current context.
pub fn usable(stream: CUstream) -> Outcome {
    current()?;
    if stream.is_null() || SPECIAL_STREAMS.contains(&(stream as usize)) || live(stream) {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_HANDLE)
    }
}

/// `cuStreamCreate`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuStreamCreate(stream: *mut CUstream, _flags: c_uint) -> CUresult {
    entry(|| {
        let context = current()?;
        // SAFETY: the caller's pointer (cuda.h's contract).
        let stream = unsafe { Out::new(stream) }?;
        let context_id = id_of(context).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
        stream.set(STREAMS.insert(Stream {
            context: context as usize,
            context_id,
        }));
        Ok(())
    })
}

/// `cuStreamDestroy_v2`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuStreamDestroy_v2(stream: CUstream) -> CUresult {
    entry(|| {
        current()?;
        let was_live = live(stream);
        // A stream of a destroyed context is gone already: removed now, refused.
        match STREAMS.remove(stream) {
            Some(_) if was_live => Ok(()),
            _ => Err(CUDA_ERROR_INVALID_HANDLE),
        }
    })
}

/// `cuStreamSynchronize`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuStreamSynchronize(stream: CUstream) -> CUresult {
    entry(|| usable(stream))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::tests::with_context;

    #[test]
    fn streams_live_until_destroyed_with_their_context() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            let context = with_context();
            let (mut a, mut b) = (std::ptr::null_mut(), std::ptr::null_mut());
            assert_eq!(cuStreamCreate(&mut a, 0), CUDA_SUCCESS);
            assert_eq!(cuStreamCreate(&mut b, 0), CUDA_SUCCESS);
            assert_eq!(cuStreamSynchronize(a), CUDA_SUCCESS);
            assert_eq!(cuStreamSynchronize(std::ptr::null_mut()), CUDA_SUCCESS);
            assert_eq!(cuStreamDestroy_v2(a), CUDA_SUCCESS);
            assert_eq!(cuStreamSynchronize(a), CUDA_ERROR_INVALID_HANDLE);
            assert_eq!(cuStreamDestroy_v2(a), CUDA_ERROR_INVALID_HANDLE);
            assert_eq!(crate::context::cuCtxDestroy_v2(context), CUDA_SUCCESS);
            assert!(!live(b));
            assert_eq!(cuStreamCreate(&mut a, 0), CUDA_ERROR_INVALID_CONTEXT);
            with_context();
            assert_eq!(cuStreamSynchronize(b), CUDA_ERROR_INVALID_HANDLE);
            assert_eq!(cuStreamDestroy_v2(b), CUDA_ERROR_INVALID_HANDLE);
        }
    }
}
