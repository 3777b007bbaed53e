//! The project's test CUDA driver library (tests/cuda-driver), loaded as NVIDIA's is: `dlopen`
//! of `libcuda.so.1` found through `LD_LIBRARY_PATH` (in a child process, as the dynamic linker
//! reads it at start). It initialises, creates a context, imports a memfd as opaque-fd memory as
//! the real driver does (any nonzero size; the fd is taken), maps a buffer whose writes land in
//! the file, refuses a range beyond the declared size, and hands out its entry points through
//! `cuGetProcAddress_v2`. And the probe of tests/cuda-driver/probe answers as NVIDIA's driver
//! did on an H100 (its recorded output), but where the test library must differ.

use exportcheck_cuda_abi::*;
use exportcheck_tests::child::{is_child, Child};
use exportcheck_tests::test_cuda::{ld_library_path, library_dir, SONAME};
use std::ffi::{c_void, CStr};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};
use std::path::Path;

/// `libcuda.so.1`, opened by name.
struct Driver(*mut c_void);

impl Driver {
    fn open() -> Self {
        let name = std::ffi::CString::new(SONAME).unwrap();
        // SAFETY: a C string; dlopen returns a handle or NULL.
        let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        assert!(!handle.is_null(), "dlopen({SONAME}) failed");
        Driver(handle)
    }

    fn address(&self, name: &CStr) -> *mut c_void {
        // SAFETY: a live handle and a C string.
        let address = unsafe { libc::dlsym(self.0, name.as_ptr()) };
        assert!(!address.is_null(), "{name:?} is not exported");
        address
    }

    /// The entry point `name` as a function pointer of type `F`.
    ///
    /// # Safety
    /// `F` is the entry point's function pointer type.
    unsafe fn get<F: Copy>(&self, name: &CStr) -> F {
        let address = self.address(name);
        // SAFETY: a non-NULL function address, as `F` (the caller's contract).
        unsafe { std::mem::transmute_copy(&address) }
    }
}

type Write = unsafe extern "C" fn(CUdeviceptr, *const c_void, usize) -> CUresult;

fn memfd(len: usize) -> OwnedFd {
    // SAFETY: a C string literal; memfd_create returns a new descriptor or -1.
    let fd = unsafe { libc::memfd_create(c"exported".as_ptr(), libc::MFD_CLOEXEC) };
    assert!(fd >= 0, "memfd_create");
    // SAFETY: a new descriptor nothing else owns.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: a valid descriptor.
    assert_eq!(
        unsafe { libc::ftruncate(fd.as_raw_fd(), len as libc::off_t) },
        0
    );
    fd
}

fn is_open(fd: i32) -> bool {
    // SAFETY: F_GETFD reads flags only.
    unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
}

/// The child's work: a client's whole path through the driver.
fn use_driver() {
    let cuda = Driver::open();
    // It is this project's library, found in the helper's directory.
    let mut info: libc::Dl_info = unsafe_zeroed();
    // SAFETY: an address in the library and a local to write.
    assert_ne!(
        unsafe { libc::dladdr(cuda.address(c"cuInit"), &mut info) },
        0
    );
    // SAFETY: dladdr wrote a NUL-terminated path.
    let path = unsafe { CStr::from_ptr(info.dli_fname) }
        .to_string_lossy()
        .into_owned();
    assert_eq!(path, library_dir().join(SONAME).display().to_string());

    // SAFETY: each type is its entry point's, from cuda.h; every pointer passed is valid.
    unsafe {
        let init: PFN_cuInit = cuda.get(c"cuInit");
        let device_get: PFN_cuDeviceGet = cuda.get(c"cuDeviceGet");
        let ctx_create: PFN_cuCtxCreate_v2 = cuda.get(c"cuCtxCreate_v2");
        let uuid_of: PFN_cuDeviceGetUuid = cuda.get(c"cuDeviceGetUuid_v2");
        let import: PFN_cuImportExternalMemory = cuda.get(c"cuImportExternalMemory");
        let map: PFN_cuExternalMemoryGetMappedBuffer = cuda.get(c"cuExternalMemoryGetMappedBuffer");
        let get_proc: PFN_cuGetProcAddress_v2 = cuda.get(c"cuGetProcAddress_v2");
        let write: Write = cuda.get(c"exportcheck_test_cuda_write");

        let mut device = -1;
        assert_eq!(device_get(&mut device, 0), CUDA_ERROR_NOT_INITIALIZED);
        assert_eq!(init(0), CUDA_SUCCESS);
        assert_eq!(device_get(&mut device, 0), CUDA_SUCCESS);
        let mut context = std::ptr::null_mut();
        assert_eq!(ctx_create(&mut context, 0, device), CUDA_SUCCESS);
        let mut uuid = CUuuid::default();
        assert_eq!(uuid_of(&mut uuid, device), CUDA_SUCCESS);
        assert_eq!(&uuid.bytes, b"exportcheck-dev1");

        // The exporter keeps its own reference (as Vulkan's allocation does); CUDA gets an fd of
        // the same file and declares twice its size, which the real driver accepts.
        let exported = memfd(65536);
        let fd = exported.try_clone().unwrap().into_raw_fd();
        let desc = CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
            type_: CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
            handle: ExternalHandle { fd },
            size: 2 * 65536,
            flags: 0,
            reserved: [0; 16],
        };
        let mut memory = std::ptr::null_mut();
        assert_eq!(import(&mut memory, &desc), CUDA_SUCCESS);
        assert!(!is_open(fd), "the import took (closed) the fd");

        let buffer = |offset, size| CUDA_EXTERNAL_MEMORY_BUFFER_DESC {
            offset,
            size,
            flags: 0,
            reserved: [0; 16],
        };
        let mut dptr = 0;
        assert_eq!(map(&mut dptr, memory, &buffer(256, 4096)), CUDA_SUCCESS);
        assert_eq!(write(dptr, b"from cuda".as_ptr().cast(), 9), CUDA_SUCCESS);
        let mut seen = [0u8; 9];
        let read = libc::pread(exported.as_raw_fd(), seen.as_mut_ptr().cast(), 9, 256);
        assert_eq!(
            (read, &seen),
            (9, b"from cuda"),
            "the write is in the exporter's memory"
        );
        // Within the declared size (beyond the file): mapped; beyond the declared size: refused.
        assert_eq!(map(&mut dptr, memory, &buffer(65536, 65536)), CUDA_SUCCESS);
        let mut refused = 0;
        let result = map(&mut refused, memory, &buffer(65536, 65537));
        assert_eq!(result, CUDA_ERROR_INVALID_VALUE);

        // The CUDA runtime's way to the entry points.
        let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
        let name = c"cuDestroyExternalMemory";
        assert_eq!(
            get_proc(name.as_ptr(), &mut pfn, 13000, 0, &mut status),
            CUDA_SUCCESS
        );
        assert_eq!(
            (pfn, status),
            (cuda.address(name), CU_GET_PROC_ADDRESS_SUCCESS)
        );
        let destroy: PFN_cuDestroyExternalMemory = std::mem::transmute(pfn);
        assert_eq!(destroy(memory), CUDA_SUCCESS);
        assert_eq!(destroy(memory), CUDA_ERROR_INVALID_HANDLE);
        // A name it lacks: success, NULL and the status, as driver 580 answers.
        let result = get_proc(c"cuMemAlloc".as_ptr(), &mut pfn, 13000, 0, &mut status);
        assert_eq!(result, CUDA_SUCCESS);
        assert_eq!(
            (pfn, status),
            (std::ptr::null_mut(), CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND)
        );
    }
}

fn unsafe_zeroed<T>() -> T {
    // SAFETY: used only for plain C structures, for which all zeroes is a value.
    unsafe { std::mem::zeroed() }
}

#[test]
fn a_client_loads_libcuda_so_1_and_imports_opaque_fd_memory() {
    if is_child() {
        return use_driver();
    }
    Child::new("1")
        .env("LD_LIBRARY_PATH", ld_library_path())
        .run();
}

#[test]
fn the_device_uuid_is_the_environment_s_when_set() {
    if is_child() {
        let cuda = Driver::open();
        // SAFETY: the entry points' types, from cuda.h; valid pointers.
        unsafe {
            let init: PFN_cuInit = cuda.get(c"cuInit");
            let uuid_of: PFN_cuDeviceGetUuid = cuda.get(c"cuDeviceGetUuid");
            assert_eq!(init(0), CUDA_SUCCESS);
            let mut uuid = CUuuid::default();
            assert_eq!(uuid_of(&mut uuid, 0), CUDA_SUCCESS);
            assert_eq!(uuid.bytes, *b"exportcheck-dev2");
        }
        return;
    }
    Child::new("1")
        .env("LD_LIBRARY_PATH", ld_library_path())
        .env(
            "EXPORTCHECK_TEST_CUDA_DEVICE_UUID",
            "6578706f7274636865636b2d64657632",
        )
        .run();
}

/// A library defining `cuImportExternalMemory`, to preload as exportcheck's interposer is.
fn interposer() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let source = dir.join("exportcheck-cuda-interposer.c");
    std::fs::write(
        &source,
        "int cuImportExternalMemory(void *a, void *b) { return 500; }\n",
    )
    .unwrap();
    let library = dir.join("libexportcheck-cuda-interposer.so");
    let status = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&library)
        .arg(&source)
        .status()
        .expect("run cc");
    assert!(status.success(), "cc of the interposer failed");
    library
}

/// The file a function's address lies in, as the dynamic linker loaded it.
fn object_of(address: *mut c_void) -> String {
    let mut info: libc::Dl_info = unsafe_zeroed();
    // SAFETY: dladdr accepts any address and writes a local.
    assert_ne!(unsafe { libc::dladdr(address, &mut info) }, 0);
    // SAFETY: dladdr wrote a NUL-terminated path.
    unsafe { CStr::from_ptr(info.dli_fname) }
        .to_string_lossy()
        .into_owned()
}

/// What `cuGetProcAddress` hands out is the library's own function even when a preloaded
/// library defines the same name (as NVIDIA's driver's is): the interposer wraps what the driver
/// gives, and would otherwise be handed its own export.
#[test]
fn get_proc_address_gives_the_library_s_own_functions_under_a_preload() {
    if is_child() {
        let cuda = Driver::open();
        // SAFETY: the entry point's type, from cuda.h; valid pointers.
        unsafe {
            let get_proc: PFN_cuGetProcAddress_v2 = cuda.get(c"cuGetProcAddress_v2");
            let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
            let name = c"cuImportExternalMemory";
            assert_eq!(
                get_proc(name.as_ptr(), &mut pfn, 13000, 0, &mut status),
                CUDA_SUCCESS
            );
            let library = library_dir().join(SONAME).display().to_string();
            assert_eq!(object_of(pfn), library);
            // The preloaded definition is the process's `cuImportExternalMemory`.
            let global = libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr());
            assert_ne!(object_of(global), library);
        }
        return;
    }
    Child::new("1")
        .env("LD_LIBRARY_PATH", ld_library_path())
        .env("LD_PRELOAD", interposer())
        .run();
}

/// The lines of the probe's output where the test library answers otherwise than NVIDIA's
/// driver, and its answer: a memfd imported as memory or as a semaphore, which NVIDIA's driver
/// refuses (no object of its own) and the test library takes (the test drivers export memfds).
const PROBE_DIFFERENCES: [(&str, &str); 3] = [
    ("import memfd ", "import memfd 0 fd open 0"),
    ("sem import type 1 ", "sem import type 1 0 fd open 0"),
    ("sem import type 9 ", "sem import type 9 0 fd open 0"),
];

#[test]
fn the_probe_answers_as_nvidia_s_driver_did() {
    if let Some(sanitizer) = std::env::var_os("EXPORTCHECK_SANITIZER") {
        // The probe is a plain C program: it cannot load a library built with a sanitizer's
        // instrumentation (whose runtime only the test executables carry).
        eprintln!("skipped under {sanitizer:?}: the probe cannot load an instrumented library");
        return;
    }
    let probe_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cuda-driver/probe");
    let program = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exportcheck-cuda-probe");
    let status = std::process::Command::new("cc")
        .args(["-Wall", "-Werror", "-O1", "-o"])
        .arg(&program)
        .arg(probe_dir.join("probe.c"))
        .arg("-ldl")
        .status()
        .expect("run cc");
    assert!(status.success(), "cc probe.c failed");
    let out = std::process::Command::new(&program)
        .env("LD_LIBRARY_PATH", ld_library_path())
        .output()
        .expect("run the probe");
    assert!(out.status.success(), "the probe failed: {out:?}");
    let ours = String::from_utf8(out.stdout).unwrap();
    let nvidia = std::fs::read_to_string(probe_dir.join("nvidia-580-h100.txt")).unwrap();
    assert_eq!(ours.lines().count(), nvidia.lines().count(), "{ours}");
    for (our_line, nvidia_line) in ours.lines().zip(nvidia.lines()) {
        let expected = PROBE_DIFFERENCES
            .iter()
            .find(|(prefix, _)| nvidia_line.starts_with(prefix))
            .map_or(nvidia_line, |(_, ours)| ours);
        assert_eq!(our_line, expected, "NVIDIA's driver: {nvidia_line}");
    }
}
