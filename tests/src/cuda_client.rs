//! A CUDA client for the tests of the CUDA side (docs/cuda.md): `libcuda.so.1` opened by name
//! (the test CUDA library in CI, NVIDIA's on the GPU machine), its entry points reached the two
//! ways apps reach them: by symbol (`dlsym` on the library, which the interposer's `dlsym`
//! answers) and through `cuGetProcAddress_v2` (the CUDA runtime's way). Run in a child process
//! started with [`crate::test_cuda::ld_library_path`] and the interposer preloaded
//! ([`interposed`]).

use crate::child::Child;
use exportcheck_cuda_abi::hooks::LAYER_PATH_ENV;
use exportcheck_cuda_abi::*;
use std::ffi::{c_void, CStr, CString};
use std::path::PathBuf;

/// How the client reaches the intercepted entry points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Through {
    /// `dlsym(handle of libcuda.so.1, name)`.
    Symbol,
    /// `cuGetProcAddress_v2(name, &pfn, 13000, 0, &status)`.
    ProcAddress,
}

/// The CUDA interposer built for this profile (`libexportcheck_cuda.so`).
pub fn interposer() -> PathBuf {
    crate::built::artifact("libexportcheck_cuda.so")
}

/// Whether the CUDA side's end-to-end tests cannot run here: under a sanitizer (scripts/sanitize.sh),
/// whose runtime initialises after the preloaded interposer is already answering its `dlsym`
/// calls, which instrumented code cannot do before it (the layer's CUDA hooks are unit-tested
/// there; these tests run in the ordinary run). Says so when it is.
pub fn unavailable() -> bool {
    match std::env::var_os("EXPORTCHECK_SANITIZER") {
        Some(sanitizer) => {
            eprintln!("skipped under {sanitizer:?}: the preloaded interposer runs before the sanitizer's runtime");
            true
        }
        None => false,
    }
}

/// A child of the current test with what a process of `exportcheck run` has for CUDA: the
/// interposer preloaded, told where the layer is, and `libcuda.so.1` found as the test CUDA
/// library (unless `real_driver`: then NVIDIA's, where it is installed).
pub fn interposed(child: Child, real_driver: bool) -> Child {
    // After what the test process itself preloads (a sanitizer's runtime must stay first).
    let mut preload = std::env::var_os("LD_PRELOAD").unwrap_or_default();
    if !preload.is_empty() {
        preload.push(" ");
    }
    preload.push(interposer());
    let child = child
        .env("LD_PRELOAD", preload)
        .env(LAYER_PATH_ENV, crate::env::layer_library());
    if real_driver {
        child
    } else {
        child.env("LD_LIBRARY_PATH", crate::test_cuda::ld_library_path())
    }
}

/// A `CUexternalMemory` a test imported (an opaque handle, passed back as is).
#[derive(Clone, Copy, Debug)]
pub struct ExternalMemory(CUexternalMemory);

/// A `CUexternalSemaphore` a test imported.
#[derive(Clone, Copy, Debug)]
pub struct ExternalSemaphore(CUexternalSemaphore);

/// `libcuda.so.1` and a current context on its first device.
pub struct Cuda {
    handle: *mut c_void,
    through: Through,
    get_proc: Option<PFN_cuGetProcAddress_v2>,
}

fn check(what: &str, result: CUresult) {
    assert_eq!(result, CUDA_SUCCESS, "{what} returned {result}");
}

impl Cuda {
    /// Opens the library, initialises it and makes a context on device 0 current.
    pub fn open(through: Through) -> Self {
        let name = CString::new(crate::test_cuda::SONAME).expect("soname");
        // SAFETY: a C string; dlopen returns a handle or NULL.
        let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        assert!(!handle.is_null(), "dlopen(libcuda.so.1) failed");
        let mut cuda = Cuda {
            handle,
            through,
            get_proc: None,
        };
        // SAFETY: the entry points' own types (cuda.h).
        unsafe {
            cuda.get_proc = Some(cuda.symbol(c"cuGetProcAddress_v2"));
            let init: PFN_cuInit = cuda.symbol(c"cuInit");
            check("cuInit", init(0));
            let device_get: PFN_cuDeviceGet = cuda.symbol(c"cuDeviceGet");
            let mut device = 0;
            check("cuDeviceGet", device_get(&mut device, 0));
            let create: PFN_cuCtxCreate_v2 = cuda.symbol(c"cuCtxCreate_v2");
            let mut context = std::ptr::null_mut();
            check("cuCtxCreate_v2", create(&mut context, 0, device));
        }
        cuda
    }

    /// `name` by `dlsym` on the library, as `F`.
    ///
    /// # Safety
    /// `F` is the entry point's function pointer type.
    unsafe fn symbol<F: Copy>(&self, name: &CStr) -> F {
        // SAFETY: a live handle and a C string.
        let address = unsafe { libc::dlsym(self.handle, name.as_ptr()) };
        assert!(!address.is_null(), "dlsym({name:?}) returned NULL");
        // SAFETY: a non-NULL function address, as `F` (the caller's contract).
        unsafe { std::mem::transmute_copy(&address) }
    }

    /// `name` the way this client reaches the intercepted entry points.
    ///
    /// # Safety
    /// `F` is the entry point's function pointer type.
    pub unsafe fn entry<F: Copy>(&self, name: &CStr) -> F {
        match self.through {
            // SAFETY: the caller's contract.
            Through::Symbol => unsafe { self.symbol(name) },
            Through::ProcAddress => {
                let get_proc = self.get_proc.expect("cuGetProcAddress_v2");
                let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
                // SAFETY: a C string and two locals to write.
                let r = unsafe { get_proc(name.as_ptr(), &mut pfn, 13000, 0, &mut status) };
                check("cuGetProcAddress_v2", r);
                assert!(!pfn.is_null(), "cuGetProcAddress_v2({name:?}) gave NULL");
                // SAFETY: a non-NULL function address, as `F` (the caller's contract).
                unsafe { std::mem::transmute_copy(&pfn) }
            }
        }
    }

    /// `cuImportExternalMemory` of an OPAQUE_FD: the result and the handle.
    pub fn import_memory(&self, fd: i32, size: u64, flags: u32) -> (CUresult, ExternalMemory) {
        let desc = CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
            type_: CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
            handle: ExternalHandle { fd },
            size,
            flags,
            reserved: [0; 16],
        };
        let mut memory = std::ptr::null_mut();
        // SAFETY: the entry point's type; a descriptor and an output of this frame.
        let r = unsafe {
            let import: PFN_cuImportExternalMemory = self.entry(c"cuImportExternalMemory");
            import(&mut memory, &desc)
        };
        (r, ExternalMemory(memory))
    }

    /// `cuExternalMemoryGetMappedBuffer` of `[offset, offset + size)`.
    pub fn map_buffer(&self, memory: ExternalMemory, offset: u64, size: u64) -> CUresult {
        let desc = CUDA_EXTERNAL_MEMORY_BUFFER_DESC {
            offset,
            size,
            flags: 0,
            reserved: [0; 16],
        };
        let mut pointer = 0;
        // SAFETY: the entry point's type; a descriptor and an output of this frame.
        unsafe {
            let map: PFN_cuExternalMemoryGetMappedBuffer =
                self.entry(c"cuExternalMemoryGetMappedBuffer");
            map(&mut pointer, memory.0, &desc)
        }
    }

    /// `cuDestroyExternalMemory`.
    pub fn destroy_memory(&self, memory: ExternalMemory) -> CUresult {
        // SAFETY: the entry point's type.
        unsafe {
            let destroy: PFN_cuDestroyExternalMemory = self.entry(c"cuDestroyExternalMemory");
            destroy(memory.0)
        }
    }

    /// `cuImportExternalSemaphore` of an fd, as `TIMELINE_SEMAPHORE_FD` if `timeline`.
    pub fn import_semaphore(&self, fd: i32, timeline: bool) -> (CUresult, ExternalSemaphore) {
        let desc = CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
            type_: if timeline {
                CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
            } else {
                CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD
            },
            handle: ExternalHandle { fd },
            flags: 0,
            reserved: [0; 16],
        };
        let mut semaphore = std::ptr::null_mut();
        // SAFETY: the entry point's type; a descriptor and an output of this frame.
        let r = unsafe {
            let import: PFN_cuImportExternalSemaphore = self.entry(c"cuImportExternalSemaphore");
            import(&mut semaphore, &desc)
        };
        (r, ExternalSemaphore(semaphore))
    }

    /// `cuDestroyExternalSemaphore`.
    pub fn destroy_semaphore(&self, semaphore: ExternalSemaphore) -> CUresult {
        // SAFETY: the entry point's type.
        unsafe {
            let destroy: PFN_cuDestroyExternalSemaphore = self.entry(c"cuDestroyExternalSemaphore");
            destroy(semaphore.0)
        }
    }
}
