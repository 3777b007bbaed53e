//! External memory: `cuImportExternalMemory`, its mapped buffers and mipmapped arrays, their
//! release (`cuMemFree_v2`, `cuMipmappedArrayDestroy`) and `cuDestroyExternalMemory`.
//!
//! As NVIDIA's driver 580 does: an opaque-fd import succeeds for any nonzero `size` and any
//! `flags` (CUDA cannot see the exporting allocation's size, so 2x, 16x or half of it pass, and
//! so does `CUDA_EXTERNAL_MEMORY_DEDICATED` on memory that is not dedicated, or its absence on
//! memory that is); on success it takes the fd (closes it), on failure the fd stays the app's.
//! A mapped buffer beyond the *declared* size fails with `CUDA_ERROR_INVALID_VALUE`. The other
//! handle types and the bad fds are answered as driver 580 answers them on Linux (measured:
//! tests/cuda-driver/probe); any open fd imports, as this library has no memory of its own to
//! tell apart from another's.

use crate::boundary::{entry, input, lock, Out, Outcome};
use crate::context::current;
use crate::device::initialized;
use crate::mapping::HostMapping;
use crate::registry::Registry;
use exportcheck_cuda_abi::*;
use std::collections::BTreeMap;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

pub struct ExternalMemory {
    /// A duplicate of the imported fd (the app's fd is closed), for mapping buffers; `None` when
    /// it could not be duplicated.
    pub file: Option<OwnedFd>,
    /// The `size` the import declared.
    pub size: u64,
    pub flags: u32,
}

pub struct MipmappedArray {
    /// The external memory it was mapped from (it may be destroyed first).
    pub memory: usize,
}

pub static MEMORIES: Registry<ExternalMemory> = Registry::new();
pub static ARRAYS: Registry<MipmappedArray> = Registry::new();
/// The mapped buffers, by device pointer.
pub static BUFFERS: Mutex<BTreeMap<u64, HostMapping>> = Mutex::new(BTreeMap::new());

/// Whether `fd` is an open file descriptor of this process.
pub fn is_open(fd: RawFd) -> bool {
    // SAFETY: F_GETFD reads the descriptor's flags; no memory is involved.
    fd >= 0 && unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1
}

/// Whether `fd` is a regular file of size 0: no memory a driver exports.
pub fn is_empty_file(fd: RawFd) -> bool {
    // SAFETY: a zeroed stat is a valid out value; fstat writes it for an open fd.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is a local to write.
    let ok = unsafe { libc::fstat(fd, &mut st) } == 0;
    ok && st.st_mode & libc::S_IFMT == libc::S_IFREG && st.st_size == 0
}

/// Takes `fd` as a successful import does: a duplicate for this library, the app's closed.
pub fn take_fd(fd: RawFd) -> Option<OwnedFd> {
    // SAFETY: `fd` is open (checked by the caller); F_DUPFD_CLOEXEC makes a new descriptor.
    let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    // SAFETY: the import takes the app's fd: it is this library's to close, once.
    unsafe { libc::close(fd) };
    // SAFETY: `copy`, when valid, is a new descriptor nothing else owns.
    (copy >= 0).then(|| unsafe { OwnedFd::from_raw_fd(copy) })
}

/// `cuImportExternalMemory`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuImportExternalMemory(
    ext_mem_out: *mut CUexternalMemory,
    mem_handle_desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
) -> CUresult {
    entry(|| {
        current()?;
        // SAFETY: the caller's pointers (cuda.h's contract).
        let (out, desc) = unsafe { (Out::new(ext_mem_out)?, input(mem_handle_desc)?) };
        match desc.type_ {
            CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD => {}
            CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32
            | CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT
            | CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP
            | CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF
            | CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD => return Err(CUDA_ERROR_NOT_SUPPORTED),
            // The D3D12 and D3D11 resource types among them: the real driver's answer.
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
        }
        if desc.size == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // SAFETY: the union's `fd` member, the one an opaque-fd import uses (any bits are an
        // int).
        let fd = unsafe { desc.handle.fd };
        if !is_open(fd) {
            // The real driver's answer to a negative or closed fd.
            return Err(CUDA_ERROR_UNKNOWN);
        }
        if is_empty_file(fd) {
            // No driver exported an empty regular file (a memfd nobody sized): the real driver
            // refuses an fd it does not recognise, and closes it all the same.
            // SAFETY: `fd` is open; the refusal takes it, as the real driver's does.
            unsafe { libc::close(fd) };
            return Err(CUDA_ERROR_UNKNOWN);
        }
        let file = take_fd(fd);
        out.set(MEMORIES.insert(ExternalMemory {
            file,
            size: desc.size,
            flags: desc.flags,
        }));
        Ok(())
    })
}

/// `CUDA_ERROR_INVALID_VALUE` unless `offset..offset + size` lies within `declared`.
pub fn within(offset: u64, size: u64, declared: u64) -> Outcome {
    match offset.checked_add(size) {
        Some(end) if end <= declared => Ok(()),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

/// `cuExternalMemoryGetMappedBuffer`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuExternalMemoryGetMappedBuffer(
    dev_ptr: *mut CUdeviceptr,
    ext_mem: CUexternalMemory,
    buffer_desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC,
) -> CUresult {
    entry(|| {
        current()?;
        // SAFETY: the caller's pointers (cuda.h's contract).
        let (out, desc) = unsafe { (Out::new(dev_ptr)?, input(buffer_desc)?) };
        let mapping = MEMORIES
            .with(ext_mem, |memory| {
                if desc.size == 0 {
                    return Err(CUDA_ERROR_INVALID_VALUE);
                }
                within(desc.offset, desc.size, memory.size)?;
                HostMapping::new(memory.file.as_ref(), desc.offset, desc.size)
                    .ok_or(CUDA_ERROR_OUT_OF_MEMORY)
            })
            .ok_or(CUDA_ERROR_INVALID_HANDLE)??;
        let address = mapping.address;
        lock(&BUFFERS).insert(address, mapping);
        out.set(address);
        Ok(())
    })
}

/// The bytes of one element of `format` with `channels` channels; `None` for a format this
/// driver does not know.
fn element_size(format: CUarray_format, channels: u32) -> Option<u64> {
    let bytes = match format {
        CU_AD_FORMAT_UNSIGNED_INT8 | CU_AD_FORMAT_SIGNED_INT8 => 1,
        CU_AD_FORMAT_UNSIGNED_INT16 | CU_AD_FORMAT_SIGNED_INT16 | CU_AD_FORMAT_HALF => 2,
        CU_AD_FORMAT_UNSIGNED_INT32 | CU_AD_FORMAT_SIGNED_INT32 | CU_AD_FORMAT_FLOAT => 4,
        _ => return None,
    };
    matches!(channels, 1 | 2 | 4).then_some(bytes * u64::from(channels))
}

/// The bytes of the array's first level, packed (the least any layout needs).
pub fn level_zero_size(array: &CUDA_ARRAY3D_DESCRIPTOR) -> Option<u64> {
    if array.width == 0 {
        return None;
    }
    let texels = [array.width, array.height.max(1), array.depth.max(1)]
        .into_iter()
        .try_fold(1u64, |n, extent| n.checked_mul(u64::try_from(extent).ok()?))?;
    texels.checked_mul(element_size(array.format, array.num_channels)?)
}

/// `cuExternalMemoryGetMappedMipmappedArray`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuExternalMemoryGetMappedMipmappedArray(
    mipmap: *mut CUmipmappedArray,
    ext_mem: CUexternalMemory,
    mipmap_desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
) -> CUresult {
    entry(|| {
        current()?;
        // SAFETY: the caller's pointers (cuda.h's contract).
        let (out, desc) = unsafe { (Out::new(mipmap)?, input(mipmap_desc)?) };
        let declared = MEMORIES
            .with(ext_mem, |memory| memory.size)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let size = level_zero_size(&desc.array_desc).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        if desc.num_levels == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        within(desc.offset, size, declared)?;
        out.set(ARRAYS.insert(MipmappedArray {
            memory: ext_mem as usize,
        }));
        Ok(())
    })
}

/// Destroys the import: its buffers and arrays stay until freed (as `cuDestroyExternalMemory`'s
/// documentation asks of the app).
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuDestroyExternalMemory(ext_mem: CUexternalMemory) -> CUresult {
    entry(|| {
        initialized()?;
        if ext_mem.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        current()?;
        MEMORIES
            .remove(ext_mem)
            .map(drop)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })
}

/// Frees a mapped buffer (this driver allocates no other device memory); 0 is freed without
/// a word, even with no current context, as the real driver does.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuMemFree_v2(dptr: CUdeviceptr) -> CUresult {
    entry(|| {
        initialized()?;
        if dptr == 0 {
            return Ok(());
        }
        current()?;
        lock(&BUFFERS)
            .remove(&dptr)
            .map(drop)
            .ok_or(CUDA_ERROR_INVALID_VALUE)
    })
}

/// `cuMipmappedArrayDestroy`.
///
/// # Safety
/// Its pointer arguments are NULL or valid as `cuda.h` documents them.
#[no_mangle]
pub unsafe extern "C" fn cuMipmappedArrayDestroy(mipmap: CUmipmappedArray) -> CUresult {
    entry(|| {
        current()?;
        ARRAYS
            .remove(mipmap)
            .map(drop)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::context::tests::with_context;
    use crate::test_hooks::{exportcheck_test_cuda_read, exportcheck_test_cuda_write};
    use std::os::fd::{AsRawFd, IntoRawFd};

    /// A memfd of `len` bytes.
    pub(crate) fn memfd(len: u64) -> OwnedFd {
        // SAFETY: a C string literal; memfd_create returns a new descriptor or -1.
        let fd =
            unsafe { libc::memfd_create(c"exportcheck-test-cuda".as_ptr(), libc::MFD_CLOEXEC) };
        assert!(fd >= 0);
        // SAFETY: a new descriptor nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: a valid descriptor.
        assert_eq!(
            unsafe { libc::ftruncate(fd.as_raw_fd(), len as libc::off_t) },
            0
        );
        fd
    }

    pub(crate) fn opaque_fd(fd: RawFd, size: u64, flags: u32) -> CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
        CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
            type_: CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
            handle: ExternalHandle { fd },
            size,
            flags,
            reserved: [0; 16],
        }
    }

    fn import(desc: &CUDA_EXTERNAL_MEMORY_HANDLE_DESC) -> (CUresult, CUexternalMemory) {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            let mut memory = std::ptr::null_mut();
            (cuImportExternalMemory(&mut memory, desc), memory)
        }
    }

    fn map(memory: CUexternalMemory, offset: u64, size: u64) -> (CUresult, CUdeviceptr) {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            let desc = CUDA_EXTERNAL_MEMORY_BUFFER_DESC {
                offset,
                size,
                flags: 0,
                reserved: [0; 16],
            };
            let mut dptr = 0;
            (
                cuExternalMemoryGetMappedBuffer(&mut dptr, memory, &desc),
                dptr,
            )
        }
    }

    #[test]
    fn any_nonzero_size_imports_and_the_fd_is_taken() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            with_context();
            for (size, flags) in [
                (8192, 0),
                (65536 * 16, CUDA_EXTERNAL_MEMORY_DEDICATED),
                (1, 7),
            ] {
                let fd = memfd(4096).into_raw_fd();
                let (result, memory) = import(&opaque_fd(fd, size, flags));
                assert_eq!(result, CUDA_SUCCESS);
                assert!(!is_open(fd), "the import closed the fd");
                assert_eq!(cuDestroyExternalMemory(memory), CUDA_SUCCESS);
                assert_eq!(cuDestroyExternalMemory(memory), CUDA_ERROR_INVALID_HANDLE);
            }
        }
    }

    #[test]
    fn failed_imports_leave_the_fd_to_the_app() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            with_context();
            let file = memfd(4096);
            let fd = file.as_raw_fd();
            assert_eq!(import(&opaque_fd(fd, 0, 0)).0, CUDA_ERROR_INVALID_VALUE);
            // The real driver's answer to a negative fd.
            assert_eq!(import(&opaque_fd(-1, 4096, 0)).0, CUDA_ERROR_UNKNOWN);
            // Each type as driver 580 answers it on Linux (measured).
            let mut other = opaque_fd(fd, 4096, 0);
            for (type_, result) in [
                (0, CUDA_ERROR_INVALID_VALUE),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32,
                    CUDA_ERROR_NOT_SUPPORTED,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT,
                    CUDA_ERROR_NOT_SUPPORTED,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP,
                    CUDA_ERROR_NOT_SUPPORTED,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE,
                    CUDA_ERROR_INVALID_VALUE,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE,
                    CUDA_ERROR_INVALID_VALUE,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT,
                    CUDA_ERROR_INVALID_VALUE,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF,
                    CUDA_ERROR_NOT_SUPPORTED,
                ),
                (
                    CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD,
                    CUDA_ERROR_NOT_SUPPORTED,
                ),
                (10, CUDA_ERROR_INVALID_VALUE),
            ] {
                other.type_ = type_;
                assert_eq!(import(&other).0, result, "type {type_}");
            }
            let mut memory = std::ptr::null_mut();
            assert_eq!(
                cuImportExternalMemory(&mut memory, std::ptr::null()),
                CUDA_ERROR_INVALID_VALUE
            );
            assert!(is_open(fd));
            // Not open: a descriptor just closed.
            let closed = memfd(1).into_raw_fd();
            // SAFETY: the descriptor just made, closed once.
            libc::close(closed);
            assert_eq!(import(&opaque_fd(closed, 4096, 0)).0, CUDA_ERROR_UNKNOWN);
            assert_eq!(
                cuDestroyExternalMemory(std::ptr::null_mut()),
                CUDA_ERROR_INVALID_VALUE
            );
            assert_eq!(cuMemFree_v2(0), CUDA_SUCCESS);
        }
    }

    #[test]
    fn buffers_beyond_the_declared_size_fail_and_others_are_the_file() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            with_context();
            let file = memfd(8192);
            // SAFETY: a valid descriptor; a duplicate for the import to take.
            let fd = libc::dup(file.as_raw_fd());
            let (result, memory) = import(&opaque_fd(fd, 16384, 0));
            assert_eq!(result, CUDA_SUCCESS);
            assert_eq!(map(memory, 0, 16385).0, CUDA_ERROR_INVALID_VALUE);
            assert_eq!(map(memory, 16384, 1).0, CUDA_ERROR_INVALID_VALUE);
            assert_eq!(map(memory, u64::MAX, 2).0, CUDA_ERROR_INVALID_VALUE);
            assert_eq!(map(memory, 0, 0).0, CUDA_ERROR_INVALID_VALUE);
            // Beyond the file but within the declared size: succeeds, as the real driver's does.
            let (result, beyond) = map(memory, 4096, 12288);
            assert_eq!(result, CUDA_SUCCESS);
            let (result, dptr) = map(memory, 100, 200);
            assert_eq!(result, CUDA_SUCCESS);
            assert_eq!(
                exportcheck_test_cuda_write(dptr, b"cuda".as_ptr().cast(), 4),
                CUDA_SUCCESS
            );
            let mut read = [0u8; 4];
            // SAFETY: a valid descriptor and a local of 4 bytes.
            let n = libc::pread(file.as_raw_fd(), read.as_mut_ptr().cast(), 4, 100);
            assert_eq!(
                (n, &read),
                (4, b"cuda"),
                "the write landed in the exported file"
            );
            let mut back = [0u8; 4];
            assert_eq!(
                exportcheck_test_cuda_read(dptr, back.as_mut_ptr().cast(), 4),
                CUDA_SUCCESS
            );
            assert_eq!(&back, b"cuda");
            // Past the buffer, and past the file's end: refused, not a fault.
            let past = exportcheck_test_cuda_write(dptr + 198, b"cuda".as_ptr().cast(), 4);
            assert_eq!(past, CUDA_ERROR_INVALID_VALUE);
            let past_file = exportcheck_test_cuda_write(beyond + 4096, b"x".as_ptr().cast(), 1);
            assert_eq!(past_file, CUDA_ERROR_INVALID_VALUE);
            assert_eq!(cuDestroyExternalMemory(memory), CUDA_SUCCESS);
            // Buffers outlive their import until freed.
            assert_eq!(
                exportcheck_test_cuda_read(dptr, back.as_mut_ptr().cast(), 4),
                CUDA_SUCCESS
            );
            assert_eq!(map(memory, 0, 1).0, CUDA_ERROR_INVALID_HANDLE);
            assert_eq!(cuMemFree_v2(dptr), CUDA_SUCCESS);
            assert_eq!(cuMemFree_v2(dptr), CUDA_ERROR_INVALID_VALUE);
            assert_eq!(cuMemFree_v2(beyond), CUDA_SUCCESS);
        }
    }

    #[test]
    fn mipmapped_arrays_fit_the_declared_size() {
        // SAFETY: the entry points get valid pointers, or NULL where a test says so.
        unsafe {
            with_context();
            let fd = memfd(4096).into_raw_fd();
            let (_, memory) = import(&opaque_fd(fd, 4096, 0));
            let mut desc = CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
                offset: 0,
                array_desc: CUDA_ARRAY3D_DESCRIPTOR {
                    width: 16,
                    height: 16,
                    depth: 0,
                    format: CU_AD_FORMAT_UNSIGNED_INT8,
                    num_channels: 4,
                    flags: 0,
                },
                num_levels: 1,
                reserved: [0; 16],
            };
            let mut array = std::ptr::null_mut();
            let get = |array: &mut CUmipmappedArray, desc: &_| {
                cuExternalMemoryGetMappedMipmappedArray(array, memory, desc)
            };
            assert_eq!(get(&mut array, &desc), CUDA_SUCCESS);
            assert_eq!(cuMipmappedArrayDestroy(array), CUDA_SUCCESS);
            assert_eq!(cuMipmappedArrayDestroy(array), CUDA_ERROR_INVALID_HANDLE);
            // 16 x 16 x 4 bytes = 1024: from 3072 it ends at the declared size, from 3073 past it.
            desc.offset = 3072;
            assert_eq!(get(&mut array, &desc), CUDA_SUCCESS);
            assert_eq!(cuMipmappedArrayDestroy(array), CUDA_SUCCESS);
            desc.offset = 3073;
            assert_eq!(get(&mut array, &desc), CUDA_ERROR_INVALID_VALUE);
            desc.offset = 0;
            desc.array_desc.num_channels = 3;
            assert_eq!(get(&mut array, &desc), CUDA_ERROR_INVALID_VALUE);
            assert_eq!(cuDestroyExternalMemory(memory), CUDA_SUCCESS);
        }
    }
}
