//! Fd imports at vkAllocateMemory (`VkImportMemoryFdInfoKHR`), through the real loader over
//! lavapipe: the handle type, an fd that is not open, more than one import operation; a valid
//! import and an ignored structure (handleType 0) are silent. Whatever the driver does with a
//! bad import, the test cleans up after it (frees what it made, closes what it left).

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, DMA_BUF, OPAQUE_FD, OPAQUE_WIN32, SIZE};

/// A fresh opaque fd of new exportable memory; the memory is freed (the fd keeps the payload).
fn exported_fd(inst: &Instance, dev: &Device) -> i32 {
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    dev.free(memory);
    expect::silent_for(inst, &[ALLOCATE, GET_FD, FREE]);
    fd
}

/// `vkAllocateMemory` of SIZE bytes of memory type 0 importing `fd` as `handle_type`, with
/// `extra` chained after the import structure.
fn import(
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    fd: i32,
    extra: *const std::ffi::c_void,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(handle_type)
        .fd(fd);
    import.p_next = extra;
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0);
    info.p_next = &import as *const _ as *const std::ffi::c_void;
    dev.allocate_with(&info)
}

/// After a bad import went down: frees the memory if the driver made some (it then owns the
/// fd), else closes the fd, which is still the test's.
fn clean_up(dev: &Device, result: Result<vk::DeviceMemory, vk::Result>, fd: i32) {
    match result {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }
}

/// An fd number that is not open: a file opened and closed again.
fn closed_fd() -> i32 {
    let file = std::fs::File::open("/dev/null").expect("open /dev/null");
    let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    drop(file);
    // SAFETY: fcntl only reads the descriptor table.
    assert_eq!(
        unsafe { libc::fcntl(fd, libc::F_GETFD) },
        -1,
        "fd {fd} is closed"
    );
    fd
}

#[test]
fn importing_an_exported_opaque_fd_is_silent() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let fd = exported_fd(&inst, &dev);
    let memory = import(&dev, OPAQUE_FD, fd, std::ptr::null()).expect("import");
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
    expect::silent(&inst, FREE);
}

#[test]
fn an_import_structure_with_handle_type_0_is_ignored_whatever_its_fd() {
    // Reasons about fd numbers: no other test may open one meanwhile.
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let none = vk::ExternalMemoryHandleTypeFlags::empty();
    for fd in [-1, closed_fd()] {
        // The spec makes it a plain allocation; lavapipe 22.3 still tries the import and
        // refuses it (VK_ERROR_INVALID_EXTERNAL_HANDLE): the driver's business, not a finding.
        let result = import(&dev, none, fd, std::ptr::null());
        expect::silent(&inst, ALLOCATE);
        if let Ok(memory) = result {
            dev.free(memory);
        }
    }
}

#[test]
fn a_handle_type_that_is_not_an_fd_type_is_00669() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let fd = exported_fd(&inst, &dev);
    let result = import(&dev, OPAQUE_WIN32, fd, std::ptr::null());
    let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00669);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.handleType is \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "must be VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT or \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
        ],
    );
    // The finding names the device (unnamed: no debug name).
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw()),
        None
    );
    clean_up(&dev, result, fd);
}

#[test]
fn an_undefined_or_multi_bit_handle_type_is_parameter_and_00669() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    for (handle_type, says) in [
        (
            vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 30),
            "0x40000000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
        (
            OPAQUE_FD | OPAQUE_WIN32,
            "it has more than one bit, and must be a single value",
        ),
    ] {
        let fd = exported_fd(&inst, &dev);
        let result = import(&dev, handle_type, fd, std::ptr::null());
        let messages = expect::only(
            &inst,
            ALLOCATE,
            &[IMPORT_FD_HANDLE_TYPE_PARAM, IMPORT_FD_HANDLE_TYPE_00669],
        );
        expect::mentions(&messages[0], &[says]);
        clean_up(&dev, result, fd);
    }
}

#[test]
fn dma_buf_on_a_device_without_its_extension_is_parameter_and_a_memfd_no_dma_buf_00670() {
    // Lavapipe 22.3 has no VK_EXT_external_memory_dma_buf: DMA_BUF is an fd type, but not a
    // valid value on this device. And lavapipe's opaque fd is a memfd, which is no dma_buf.
    let inst = Instance::new();
    let dev = inst.fd_device();
    let fd = exported_fd(&inst, &dev);
    let result = import(&dev, DMA_BUF, fd, std::ptr::null());
    let m = expect::only(
        &inst,
        ALLOCATE,
        &[IMPORT_FD_HANDLE_TYPE_PARAM, IMPORT_FD_HANDLE_TYPE_00670],
    );
    expect::mentions(
        &m[0],
        &["VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
           VK_EXT_external_memory_dma_buf, which the device was created without"],
    );
    expect::mentions(
        &m[1],
        &[&format!(
            "fd ({fd}) is a memfd or POSIX shared memory file (tmpfs) (filesystem magic \
             0x1021994), not a Linux dma_buf"
        )],
    );
    clean_up(&dev, result, fd);
}

#[test]
fn a_closed_or_negative_fd_is_00670() {
    // Reasons about fd numbers: no other test may open one meanwhile.
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    for (fd, says) in [
        (
            closed_fd(),
            "is not an open file descriptor in this process",
        ),
        (-1, "(-1) is negative, so it is no file descriptor"),
    ] {
        let result = import(&dev, OPAQUE_FD, fd, std::ptr::null());
        let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00670);
        expect::mentions(
            &m,
            &[
                "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
                says,
                "with handleType VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT it must be a \
                 valid handle of that type",
            ],
        );
        // The call went down as the app made it; the driver refuses it.
        assert!(result.is_err(), "{result:?}");
    }
}

/// An open fd of a file no driver exports: a pipe, a socket, a directory, `/dev/null`, a procfs
/// file. Each is 00670, with what the file is.
#[test]
fn an_opaque_fd_import_of_a_file_no_driver_exports_is_00670() {
    use std::os::fd::IntoRawFd;
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let mut pipe = [-1; 2];
    // SAFETY: pipe writes two descriptors into the array we own.
    assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
    let mut pair = [-1; 2];
    // SAFETY: socketpair writes two descriptors into the array we own.
    let rc = unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) };
    assert_eq!(rc, 0);
    // The call goes down as the app made it, and lavapipe reads the fd: the other ends closed,
    // it reads the end of the file rather than wait.
    fds::close(pipe[1]);
    fds::close(pair[1]);
    let open = |path: &str| std::fs::File::open(path).expect(path).into_raw_fd();
    for (fd, is) in [
        (pipe[0], "is a pipe or FIFO, which no driver exports"),
        (pair[0], "is a socket, which no driver exports"),
        (open("/tmp"), "is a directory ("),
        (open("/dev/null"), "is a character device ("),
        (open("/proc/self/status"), "is a regular file (procfs)"),
    ] {
        let result = import(&dev, OPAQUE_FD, fd, std::ptr::null());
        let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00670);
        expect::mentions(
            &m,
            &[
                &format!("pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd ({fd}) {is}"),
                "with handleType VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT it must be an \
                 opaque fd that vkGetMemoryFdKHR (or another API's export of an opaque fd) \
                 returned",
            ],
        );
        clean_up(&dev, result, fd);
    }
}

/// A file a driver may export as an opaque fd is not judged by what it is: a memfd (lavapipe's
/// exports; here one of the app's own, which lavapipe imports), a device file (NVIDIA's exports
/// are descriptors of /dev/nvidiactl; here /dev/zero, which lavapipe refuses), a regular file
/// on a disk (a driver without memfd_create backs its exports with one).
#[test]
fn an_opaque_fd_import_of_a_file_a_driver_may_export_is_not_00670() {
    use std::os::fd::IntoRawFd;
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    // SAFETY: a NUL-terminated name; memfd_create returns a new descriptor or -1.
    let memfd = unsafe { libc::memfd_create(c"app-memory".as_ptr(), libc::MFD_CLOEXEC) };
    assert!(memfd >= 0);
    // SAFETY: our own memfd.
    assert_eq!(unsafe { libc::ftruncate(memfd, SIZE as libc::off_t) }, 0);
    let disk = tempfile::tempfile_in(env!("CARGO_TARGET_TMPDIR")).expect("a file on disk");
    disk.set_len(SIZE).expect("set_len");
    let zero = std::fs::File::open("/dev/zero")
        .expect("/dev/zero")
        .into_raw_fd();
    for fd in [memfd, zero, disk.into_raw_fd()] {
        let result = import(&dev, OPAQUE_FD, fd, std::ptr::null());
        expect::silent(&inst, ALLOCATE);
        clean_up(&dev, result, fd);
    }
}

#[test]
fn two_import_operations_are_06657() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let fd = exported_fd(&inst, &dev);
    // A second import structure with a handle type: a Zircon VMO import (lavapipe ignores it).
    let zircon = vk::ImportMemoryZirconHandleInfoFUCHSIA::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA);
    let result = import(&dev, OPAQUE_FD, fd, &zircon as *const _ as *const _);
    // The Zircon structure also breaks its own rules on this device: it was created without
    // VK_FUCHSIA_external_memory (pNext-pNext, and the VMO type is no valid value on it), and
    // its handle is ZX_HANDLE_INVALID (04772).
    let found = expect::only(
        &inst,
        ALLOCATE,
        &[
            ALLOC_PNEXT_PNEXT,
            ALLOC_NONE_06657,
            IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
            IMPORT_ZIRCON_HANDLE_04772,
        ],
    );
    expect::mentions(&found[1], &["defines 2 import operations"]);
    clean_up(&dev, result, fd);
    // The same chain with the Zircon structure's handleType 0 defines one import: no 06657 (the
    // structure still needs its extension: pNext-pNext only).
    let fd = exported_fd(&inst, &dev);
    let ignored = vk::ImportMemoryZirconHandleInfoFUCHSIA::default();
    let memory = import(&dev, OPAQUE_FD, fd, &ignored as *const _ as *const _).expect("import");
    expect::one(&inst, ALLOCATE, ALLOC_PNEXT_PNEXT);
    dev.free(memory);
}

/// One call's findings come together, and a check that keeps the call from the driver hides no
/// other check's: a NULL `pMemory` (blocked) with an import of a pipe as an opaque fd (00670)
/// gets both, in one report, and the call does not go down (the pipe stays the test's).
#[test]
fn a_blocked_import_still_gets_its_import_findings() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let mut pipe = [-1; 2];
    // SAFETY: pipe writes two descriptors into the array we own.
    assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
    let import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(OPAQUE_FD)
        .fd(pipe[0]);
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0);
    info.p_next = &import as *const _ as *const std::ffi::c_void;
    // SAFETY: a valid structure and chain; the NULL output is the point (the layer stops it).
    let result = unsafe { dev.allocate_raw(&info, std::ptr::null_mut()) };
    assert_eq!(result, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let found = expect::only(
        &inst,
        ALLOCATE,
        &[ALLOC_PMEMORY_PARAM, IMPORT_FD_HANDLE_TYPE_00670],
    );
    expect::mentions(&found[1], &["is a pipe or FIFO, which no driver exports"]);
    fds::assert_open(pipe[0]);
    fds::close(pipe[0]);
    fds::close(pipe[1]);
}

/// `VkImportMemoryFdInfoKHR` extends `VkMemoryAllocateInfo` only on a device created with
/// `VK_KHR_external_memory_fd` (`VUID-VkMemoryAllocateInfo-pNext-pNext`), whatever its
/// `handleType` (here 0, which imports nothing; lavapipe may still refuse the structure).
#[test]
fn an_fd_import_structure_needs_its_extension() {
    let inst = Instance::new();
    let without = inst.device(&[ash::khr::external_memory::NAME]);
    let none = vk::ExternalMemoryHandleTypeFlags::empty();
    let result = import(&without, none, -1, std::ptr::null());
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_PNEXT);
    expect::mentions(
        &m,
        &[
            "the pNext chain of pAllocateInfo has a VkImportMemoryFdInfoKHR, but VkDevice 0x",
            "was created without VK_KHR_external_memory_fd in \
             VkDeviceCreateInfo::ppEnabledExtensionNames.",
        ],
    );
    if let Ok(memory) = result {
        without.free(memory);
    }
    // With the extension, the same structure is silent.
    let dev = inst.fd_device();
    let result = import(&dev, none, -1, std::ptr::null());
    expect::silent(&inst, ALLOCATE);
    if let Ok(memory) = result {
        dev.free(memory);
    }
}
