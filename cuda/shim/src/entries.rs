//! The eight intercepted entry points: each calls the layer's hooks around its real function,
//! as [`exportcheck_cuda_abi::hooks`] documents, and returns the real function's result.
//!
//! Each is one generic wrapper, `SLOT` choosing its real function ([`crate::slots`]); the
//! exported symbol is slot [`LINKED`](crate::slots::LINKED).

#![allow(non_snake_case)]

use core::ffi::{c_uint, c_void};

use exportcheck_cuda_abi::hooks::CudaHooks;
use exportcheck_cuda_abi::*;

use crate::boundary::guard;
use crate::slots::{self, through, Entry, SLOTS};
use crate::{device, layer};

/// What a wrapper returns when it has no real function: only the exported symbol can, called
/// when no object after the shim defines it (nothing the app linked or loaded globally does).
const NO_DRIVER: CUresult = CUDA_ERROR_NOT_FOUND;

/// The real function of `SLOT` as the type `F`, or `return NO_DRIVER`.
macro_rules! real_or_return {
    ($entry:expr, $slot:expr, $pfn:ty) => {{
        let address = slots::real($entry, $slot);
        if address == 0 {
            return NO_DRIVER;
        }
        // SAFETY: a slot of this entry holds only a function the driver gave under its name,
        // whose type cuda.h declares as this.
        unsafe { core::mem::transmute::<usize, $pfn>(address) }
    }};
}

/// The layer's hooks (loaded at the first call), never unwinding.
fn hooks() -> Option<&'static CudaHooks> {
    guard(None, layer::hooks)
}

unsafe extern "C" fn import_memory<const SLOT: usize>(
    ext_mem_out: *mut CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
) -> CUresult {
    let real = real_or_return!(Entry::ImportMemory, SLOT, PFN_cuImportExternalMemory);
    let Some(hooks) = hooks() else {
        // SAFETY: the app's call, passed down as made.
        return unsafe { real(ext_mem_out, desc) };
    };
    let token = guard(0, || {
        let device = device::current(real as *const c_void);
        // SAFETY: the layer's hook; it reads the app's pointers with care.
        unsafe { (hooks.import_memory_before)(desc, &device, through(SLOT)) }
    });
    // SAFETY: the app's call, passed down as made.
    let result = unsafe { real(ext_mem_out, desc) };
    if token != 0 {
        // SAFETY: the layer's hook, with the token it gave.
        guard((), || unsafe {
            (hooks.import_memory_after)(token, result, ext_mem_out)
        });
    }
    result
}

unsafe extern "C" fn mapped_buffer<const SLOT: usize>(
    dev_ptr: *mut CUdeviceptr,
    ext_mem: CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC,
) -> CUresult {
    let real = real_or_return!(
        Entry::MappedBuffer,
        SLOT,
        PFN_cuExternalMemoryGetMappedBuffer
    );
    if let Some(hooks) = hooks() {
        // SAFETY: the layer's hook; it reads the app's pointers with care.
        guard((), || unsafe { (hooks.mapped_buffer)(ext_mem, desc) });
    }
    // SAFETY: the app's call, passed down as made.
    unsafe { real(dev_ptr, ext_mem, desc) }
}

unsafe extern "C" fn mapped_mipmapped_array<const SLOT: usize>(
    mipmap: *mut CUmipmappedArray,
    ext_mem: CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
) -> CUresult {
    let real = real_or_return!(
        Entry::MappedMipmappedArray,
        SLOT,
        PFN_cuExternalMemoryGetMappedMipmappedArray
    );
    if let Some(hooks) = hooks() {
        // SAFETY: the layer's hook; it reads the app's pointers with care.
        guard((), || unsafe {
            (hooks.mapped_mipmapped_array)(ext_mem, desc)
        });
    }
    // SAFETY: the app's call, passed down as made.
    unsafe { real(mipmap, ext_mem, desc) }
}

unsafe extern "C" fn destroy_memory<const SLOT: usize>(ext_mem: CUexternalMemory) -> CUresult {
    let real = real_or_return!(Entry::DestroyMemory, SLOT, PFN_cuDestroyExternalMemory);
    // SAFETY: the app's call, passed down as made.
    let result = unsafe { real(ext_mem) };
    if let Some(hooks) = hooks() {
        // SAFETY: the layer's hook.
        guard((), || unsafe { (hooks.destroy_memory)(ext_mem, result) });
    }
    result
}

unsafe extern "C" fn import_semaphore<const SLOT: usize>(
    ext_sem_out: *mut CUexternalSemaphore,
    desc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
) -> CUresult {
    let real = real_or_return!(Entry::ImportSemaphore, SLOT, PFN_cuImportExternalSemaphore);
    let Some(hooks) = hooks() else {
        // SAFETY: the app's call, passed down as made.
        return unsafe { real(ext_sem_out, desc) };
    };
    let token = guard(0, || {
        let device = device::current(real as *const c_void);
        // SAFETY: the layer's hook; it reads the app's pointers with care.
        unsafe { (hooks.import_semaphore_before)(desc, &device, through(SLOT)) }
    });
    // SAFETY: the app's call, passed down as made.
    let result = unsafe { real(ext_sem_out, desc) };
    if token != 0 {
        // SAFETY: the layer's hook, with the token it gave.
        guard((), || unsafe {
            (hooks.import_semaphore_after)(token, result, ext_sem_out)
        });
    }
    result
}

unsafe extern "C" fn signal_semaphores<const SLOT: usize>(
    sems: *const CUexternalSemaphore,
    params: *const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
    count: c_uint,
    stream: CUstream,
) -> CUresult {
    let real = real_or_return!(
        Entry::SignalSemaphores,
        SLOT,
        PFN_cuSignalExternalSemaphoresAsync
    );
    if let Some(hooks) = hooks() {
        // SAFETY: the layer's hook; it reads the app's pointers with care.
        guard((), || unsafe {
            (hooks.signal_semaphores)(sems, params, count)
        });
    }
    // SAFETY: the app's call, passed down as made.
    unsafe { real(sems, params, count, stream) }
}

unsafe extern "C" fn wait_semaphores<const SLOT: usize>(
    sems: *const CUexternalSemaphore,
    params: *const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
    count: c_uint,
    stream: CUstream,
) -> CUresult {
    let real = real_or_return!(
        Entry::WaitSemaphores,
        SLOT,
        PFN_cuWaitExternalSemaphoresAsync
    );
    if let Some(hooks) = hooks() {
        // SAFETY: the layer's hook; it reads the app's pointers with care.
        guard((), || unsafe {
            (hooks.wait_semaphores)(sems, params, count)
        });
    }
    // SAFETY: the app's call, passed down as made.
    unsafe { real(sems, params, count, stream) }
}

unsafe extern "C" fn destroy_semaphore<const SLOT: usize>(
    ext_sem: CUexternalSemaphore,
) -> CUresult {
    let real = real_or_return!(
        Entry::DestroySemaphore,
        SLOT,
        PFN_cuDestroyExternalSemaphore
    );
    // SAFETY: the app's call, passed down as made.
    let result = unsafe { real(ext_sem) };
    if let Some(hooks) = hooks() {
        // SAFETY: the layer's hook.
        guard((), || unsafe { (hooks.destroy_semaphore)(ext_sem, result) });
    }
    result
}

export!(cuImportExternalMemory => import_memory(
    ext_mem_out: *mut CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC
));
export!(cuExternalMemoryGetMappedBuffer => mapped_buffer(
    dev_ptr: *mut CUdeviceptr,
    ext_mem: CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC
));
export!(cuExternalMemoryGetMappedMipmappedArray => mapped_mipmapped_array(
    mipmap: *mut CUmipmappedArray,
    ext_mem: CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC
));
export!(cuDestroyExternalMemory => destroy_memory(ext_mem: CUexternalMemory));
export!(cuImportExternalSemaphore => import_semaphore(
    ext_sem_out: *mut CUexternalSemaphore,
    desc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC
));
export!(cuSignalExternalSemaphoresAsync => signal_semaphores(
    sems: *const CUexternalSemaphore,
    params: *const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
    count: c_uint,
    stream: CUstream
));
export!(cuWaitExternalSemaphoresAsync => wait_semaphores(
    sems: *const CUexternalSemaphore,
    params: *const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
    count: c_uint,
    stream: CUstream
));
export!(cuDestroyExternalSemaphore => destroy_semaphore(ext_sem: CUexternalSemaphore));

/// The wrappers of an entry point, by slot: the exported symbol, then the generic's others.
macro_rules! wrappers_of {
    ($symbol:ident, $generic:ident) => {
        [
            $symbol as *mut c_void,
            $generic::<1> as *mut c_void,
            $generic::<2> as *mut c_void,
            $generic::<3> as *mut c_void,
        ]
    };
}

/// The wrapper of `entry` whose real function is slot `slot`'s.
pub(crate) fn wrapper(entry: Entry, slot: usize) -> *mut c_void {
    use crate::proc_address::{
        cuGetProcAddress, cuGetProcAddress_v2, get_proc_address, get_proc_address_v2,
    };
    let all: [*mut c_void; SLOTS] = match entry {
        Entry::ImportMemory => wrappers_of!(cuImportExternalMemory, import_memory),
        Entry::MappedBuffer => wrappers_of!(cuExternalMemoryGetMappedBuffer, mapped_buffer),
        Entry::MappedMipmappedArray => {
            wrappers_of!(
                cuExternalMemoryGetMappedMipmappedArray,
                mapped_mipmapped_array
            )
        }
        Entry::DestroyMemory => wrappers_of!(cuDestroyExternalMemory, destroy_memory),
        Entry::ImportSemaphore => wrappers_of!(cuImportExternalSemaphore, import_semaphore),
        Entry::SignalSemaphores => {
            wrappers_of!(cuSignalExternalSemaphoresAsync, signal_semaphores)
        }
        Entry::WaitSemaphores => wrappers_of!(cuWaitExternalSemaphoresAsync, wait_semaphores),
        Entry::DestroySemaphore => wrappers_of!(cuDestroyExternalSemaphore, destroy_semaphore),
        Entry::GetProcAddress => wrappers_of!(cuGetProcAddress, get_proc_address),
        Entry::GetProcAddressV2 => wrappers_of!(cuGetProcAddress_v2, get_proc_address_v2),
    };
    all[slot]
}
