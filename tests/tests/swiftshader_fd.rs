//! Opaque-fd export and import of memory through the real loader over SwiftShader (Debian's
//! chromium-common), the second real CPU driver: the scenarios of fd_positive.rs, import_fd.rs
//! and fd_ownership_lavapipe.rs, with the same assertions where the drivers agree
//! (import_against_export.rs runs its scenarios on SwiftShader itself). Where they differ:
//! - SwiftShader sets FD_CLOEXEC: no driver-contract warning (lavapipe gets one per device);
//! - every export of one memory object, and every export of memory imported from it, is a `dup`
//!   of one memfd (one open file description);
//! - SwiftShader keeps an imported fd open, as the memory's own, and closes it when the memory is
//!   freed: the layer leaves the number to the driver, so an app's `close` of it is not judged
//!   (`EXPORTCHECK-fd-closed-after-import` needs a driver that closed it at the import), while a
//!   second import of it is `EXPORTCHECK-fd-imported-twice` ("the driver still holds it");
//! - like lavapipe it accepts an import smaller than the export, and also a larger one: both are
//!   `VUID-VkMemoryAllocateInfo-allocationSize-01742` all the same.
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::swiftshader::exclusive;
use exportcheck_tests::{expect, fds, Device, Instance, DMA_BUF, OPAQUE_FD, OPAQUE_WIN32, SIZE};

/// Exports `memory` as an opaque fd the test now owns.
#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    fd
}

/// No finding about the app and no warning about the driver since the last take.
#[track_caller]
fn silent(inst: &Instance, commands: &[&str]) {
    expect::silent_for(inst, commands);
    expect::driver_only(inst, commands[0], &[]);
}

/// Imports `fd` as SIZE bytes of memory type 0 that may be exported again as an opaque fd.
fn import_exportable(dev: &Device, fd: i32) -> vk::DeviceMemory {
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(OPAQUE_FD)
        .fd(fd);
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import)
        .push_next(&mut export);
    dev.allocate_with(&info).expect("exportable import")
}

/// Whether `fd` is open.
fn is_open(fd: i32) -> bool {
    // SAFETY: fcntl only reads the descriptor table.
    unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
}

/// Whether `fd` has FD_CLOEXEC.
fn has_cloexec(fd: i32) -> bool {
    // SAFETY: fcntl only reads the descriptor table.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    flags != -1 && flags & libc::FD_CLOEXEC != 0
}

/// Whether `a` and `b` refer to one open file description (`kcmp(KCMP_FILE)`).
fn same_open_file(a: i32, b: i32) -> bool {
    const KCMP_FILE: libc::c_long = 0;
    let pid = libc::c_long::from(std::process::id() as i32);
    // SAFETY: kcmp only compares two descriptors of this process.
    unsafe { libc::syscall(libc::SYS_kcmp, pid, pid, KCMP_FILE, a, b) == 0 }
}

/// What the fd number refers to, as `/proc/self/fd` shows it (`None`: not open).
fn target_of(fd: i32) -> Option<String> {
    std::fs::read_link(format!("/proc/self/fd/{fd}"))
        .ok()
        .map(|p| p.to_string_lossy().into_owned())
}

/// After an import went down: frees the memory if the driver made some (it owns the fd then),
/// else closes the fd, which is still the test's.
fn clean_up(dev: &Device, result: Result<vk::DeviceMemory, vk::Result>, fd: i32) {
    match result {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }
}

/// Maps `memory` (SwiftShader's one memory type is host-visible) and runs `f` on its bytes.
fn with_mapped<R>(dev: &Device, memory: vk::DeviceMemory, f: impl FnOnce(&mut [u8]) -> R) -> R {
    // SAFETY: a live, unmapped, host-visible allocation of at least SIZE bytes.
    let p = unsafe {
        dev.device
            .map_memory(memory, 0, SIZE, vk::MemoryMapFlags::empty())
    }
    .expect("vkMapMemory");
    // SAFETY: the mapping is SIZE bytes long and stays mapped until unmap_memory below.
    let bytes = unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), SIZE as usize) };
    let r = f(bytes);
    // SAFETY: mapped above; `bytes` is not used after this.
    unsafe { dev.device.unmap_memory(memory) };
    r
}

#[test]
fn the_driver_is_swiftshader_and_its_exports_are_cloexec_dups_of_one_memfd() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let physical = inst.physical_devices();
    assert!(physical[0].1.starts_with("SwiftShader"), "{physical:?}");
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (first, second) = (export(&dev, memory), export(&dev, memory));
    for fd in [first, second] {
        assert!(has_cloexec(fd), "SwiftShader sets FD_CLOEXEC on fd {fd}");
        let target = target_of(fd).expect("open");
        assert!(target.starts_with("/memfd:SwiftShader"), "{target}");
    }
    assert!(same_open_file(first, second), "one open file description");
    fds::close(first);
    fds::close(second);
    dev.free(memory);
    silent(&inst, &[ALLOCATE, GET_FD, FREE]);
}

#[test]
fn opaque_fd_export_is_silent_and_the_fd_imports_back() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, mem);
    let st = fds::assert_open(fd);
    assert!(st.st_size >= SIZE as i64, "fd size {}", st.st_size);
    silent(&inst, &[ALLOCATE, GET_FD]);

    let imported = dev.import_fd(fd, SIZE).expect("import of the exported fd");
    silent(&inst, &[ALLOCATE]);
    with_mapped(&dev, mem, |b| b[..4].copy_from_slice(b"xchk"));
    let seen = with_mapped(&dev, imported, |b| b[..4].to_vec());
    assert_eq!(seen, b"xchk", "the imported memory is the exported memory");

    dev.free(imported);
    dev.free(mem);
    silent(&inst, &[FREE]);
}

#[test]
fn the_driver_keeps_the_imported_fd_until_the_memory_is_freed_and_nothing_is_reported() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let before = target_of(fd).expect("open");
    let import = dev.import_fd(fd, SIZE).expect("the import");
    // Kept by the driver, as it was: no memfd of the layer's under the number.
    assert_eq!(target_of(fd).as_deref(), Some(before.as_str()));
    assert!(!before.contains("exportcheck"), "{before}");
    silent(&inst, &[ALLOCATE, GET_FD]);
    dev.free(import);
    assert!(!is_open(fd), "SwiftShader closes it at vkFreeMemory");
    dev.free(memory);
    silent(&inst, &[FREE]);
}

#[test]
fn export_import_and_free_in_every_valid_order_is_silent() {
    let inst = exclusive();
    let dev = inst.fd_device();
    // A exported twice (two numbers, one open file description), each imported (B, C); B
    // exported in turn and that imported (D). Then all four freed, in every order.
    let orders: [[usize; 4]; 6] = [
        [0, 1, 2, 3],
        [3, 2, 1, 0],
        [1, 0, 3, 2],
        [0, 3, 1, 2],
        [2, 0, 3, 1],
        [1, 3, 0, 2],
    ];
    for order in orders {
        let a = dev.allocate(SIZE, Some(OPAQUE_FD));
        let (fd_1, fd_2) = (export(&dev, a), export(&dev, a));
        let b = import_exportable(&dev, fd_1);
        let c = dev.import_fd(fd_2, SIZE).expect("import of the second fd");
        let fd_b = export(&dev, b);
        let d = dev
            .import_fd(fd_b, SIZE)
            .expect("import of the import's export");
        silent(&inst, &[ALLOCATE, GET_FD]);
        let memories = [a, b, c, d];
        for i in order {
            dev.free(memories[i]);
        }
        silent(&inst, &[FREE]);
    }
    // A duplicate imported after the exported fd was closed, and an export closed unimported.
    let a = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, a);
    let copy = fds::dup(fd);
    fds::close(fd);
    let b = dev.import_fd(copy, SIZE).expect("import of a duplicate");
    let unused = export(&dev, a);
    fds::close(unused);
    dev.free(a);
    dev.free(b);
    drop(dev);
    silent(&inst, &[ALLOCATE, GET_FD, FREE, "vkDestroyDevice"]);
}

#[test]
fn an_import_of_another_size_than_the_export_is_01742_though_the_driver_accepts_it() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    for size in [SIZE / 2, 2 * SIZE] {
        let fd = export(&dev, memory);
        silent(&inst, &[ALLOCATE, GET_FD]);
        let result = dev.import_fd(fd, size);
        let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
        expect::mentions(
            &m,
            &[
                &format!(
                    "imports fd {fd} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; \
                     vkGetMemoryFdKHR exported it from {}",
                    expect::memory_name(memory)
                ),
                &format!("with allocationSize {SIZE}, memoryTypeIndex 0, not dedicated"),
                &format!(
                    "pAllocateInfo->allocationSize is {size}; an import of an opaque fd must \
                     give the allocationSize the payload was created with ({SIZE})"
                ),
            ],
        );
        assert_eq!(
            expect::object(&m, vk::ObjectType::DEVICE_MEMORY, memory.as_raw()),
            None
        );
        // Reported, and passed down as made: SwiftShader takes either size.
        assert!(result.is_ok(), "{result:?}");
        clean_up(&dev, result, fd);
    }
    dev.free(memory);
    silent(&inst, &[FREE]);
}

#[test]
fn an_export_of_imported_memory_is_checked_against_the_allocation_that_made_the_payload() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let imported = import_exportable(&dev, fd);
    // The import's export is a dup of the same memfd: the payload is still `memory`'s.
    let again = export(&dev, imported);
    silent(&inst, &[ALLOCATE, GET_FD]);
    let result = dev.import_fd(again, SIZE / 2);
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
    expect::mentions(
        &m,
        &[&format!(
            "imports fd {again} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; \
             vkGetMemoryFdKHR exported it from {}",
            expect::memory_name(memory)
        )],
    );
    clean_up(&dev, result, again);
    dev.free(imported);
    dev.free(memory);
    silent(&inst, &[FREE]);
}

#[test]
fn importing_again_an_fd_the_driver_still_holds_is_imported_twice_and_blocked() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let first = dev.import_fd(fd, SIZE).expect("the import");
    silent(&inst, &[ALLOCATE, GET_FD]);
    let again = dev.import_fd(fd, SIZE);
    assert_eq!(again, Err(vk::Result::ERROR_VALIDATION_FAILED_EXT));
    let found = expect::one(&inst, ALLOCATE, FD_IMPORTED_TWICE);
    expect::mentions(
        &found,
        &[
            &format!("pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd is {fd}"),
            &format!(
                "which a successful import into {} (on {}) already handed to the driver, and the \
                 driver still holds it",
                expect::memory_name(first),
                expect::device_name(&dev)
            ),
            "The call was not passed to the driver.",
        ],
    );
    assert!(is_open(fd), "still the driver's");
    dev.free(first);
    dev.free(memory);
    silent(&inst, &[FREE]);
}

#[test]
fn closing_an_imported_fd_the_driver_keeps_is_not_judged() {
    // The app's mistake, but the number is the driver's own descriptor here, not one the layer
    // holds: the layer cannot tell this close from the driver's, so it says nothing (lavapipe:
    // EXPORTCHECK-fd-closed-after-import, fd_ownership_lavapipe.rs).
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let import = dev.import_fd(fd, SIZE).expect("the import");
    fds::close(fd);
    // Nothing takes the number before the free (SwiftShader closes it again there).
    dev.free(import);
    dev.free(memory);
    silent(&inst, &[ALLOCATE, GET_FD, FREE]);
}

/// `vkAllocateMemory` of SIZE bytes of memory type 0 importing `fd` as `handle_type`.
fn import_as(
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    fd: i32,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(handle_type)
        .fd(fd);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import);
    dev.allocate_with(&info)
}

#[test]
fn a_handle_type_that_is_not_an_fd_type_is_00669() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let result = import_as(&dev, OPAQUE_WIN32, fd);
    let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00669);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.handleType is \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
        ],
    );
    clean_up(&dev, result, fd);
    dev.free(memory);
}

#[test]
fn dma_buf_on_a_device_without_its_extension_is_parameter_and_a_memfd_no_dma_buf_00670() {
    // SwiftShader has no VK_EXT_external_memory_dma_buf, and its opaque fd is a memfd.
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    silent(&inst, &[ALLOCATE, GET_FD]);
    let result = import_as(&dev, DMA_BUF, fd);
    let m = expect::only(
        &inst,
        ALLOCATE,
        &[IMPORT_FD_HANDLE_TYPE_PARAM, IMPORT_FD_HANDLE_TYPE_00670],
    );
    expect::mentions(
        &m[1],
        &[&format!(
            "fd ({fd}) is a memfd or POSIX shared memory file (tmpfs) (filesystem magic \
             0x1021994), not a Linux dma_buf"
        )],
    );
    clean_up(&dev, result, fd);
    dev.free(memory);
}

#[test]
fn a_closed_or_negative_fd_is_00670_and_the_driver_refuses_it() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let closed = {
        let file = std::fs::File::open("/dev/null").expect("open /dev/null");
        std::os::fd::AsRawFd::as_raw_fd(&file)
    };
    assert!(!is_open(closed));
    for (fd, says) in [
        (closed, "is not an open file descriptor in this process"),
        (-1, "(-1) is negative, so it is no file descriptor"),
    ] {
        let result = import_as(&dev, OPAQUE_FD, fd);
        let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00670);
        expect::mentions(
            &m,
            &["pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd", says],
        );
        assert!(result.is_err(), "{result:?}");
    }
}

#[test]
fn semaphore_fds_pass_through_the_layer_untouched() {
    // SwiftShader exports binary semaphores as opaque fds (memfds, FD_CLOEXEC) and keeps an
    // imported one until the semaphore is destroyed; the layer checks memory only.
    let inst = exclusive();
    let dev = inst.device(&[
        ash::khr::external_memory_fd::NAME,
        ash::khr::external_semaphore_fd::NAME,
    ]);
    let sem_fd = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let mut export_info = vk::ExportSemaphoreCreateInfo::default()
        .handle_types(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
    let exportable = vk::SemaphoreCreateInfo::default().push_next(&mut export_info);
    // SAFETY: valid create infos on a live device.
    let (exporter, importer) = unsafe {
        (
            dev.device.create_semaphore(&exportable, None),
            dev.device
                .create_semaphore(&vk::SemaphoreCreateInfo::default(), None),
        )
    };
    let (exporter, importer) = (exporter.expect("semaphore"), importer.expect("semaphore"));
    let get = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(exporter)
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
    // SAFETY: a valid info of a live, exportable semaphore.
    let fd = unsafe { sem_fd.get_semaphore_fd(&get) }.expect("vkGetSemaphoreFdKHR");
    assert!(has_cloexec(fd));
    let import = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(importer)
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a valid info; the fd is the driver's after success.
    unsafe { sem_fd.import_semaphore_fd(&import) }.expect("vkImportSemaphoreFdKHR");
    assert!(is_open(fd), "SwiftShader keeps it");
    // SAFETY: live semaphores of this device, destroyed once.
    unsafe {
        dev.device.destroy_semaphore(importer, None);
        dev.device.destroy_semaphore(exporter, None);
    }
    assert!(!is_open(fd), "closed with the semaphore that imported it");
    drop(dev);
    silent(&inst, &["vkDestroyDevice"]);
}

#[test]
fn threads_exporting_importing_and_freeing_at_once_hear_nothing() {
    // Numbers are closed (by the app, and by SwiftShader at each free of an import) and reused
    // by other threads all the time: no number may be taken for another thread's import.
    let inst = exclusive();
    let dev = inst.fd_device();
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for round in 0..40 {
                    let a = dev.allocate(SIZE, Some(OPAQUE_FD));
                    let (fd, unused) = (export(&dev, a), export(&dev, a));
                    fds::close(unused);
                    let b = import_exportable(&dev, fd);
                    let c = dev.import_fd(export(&dev, b), SIZE).expect("import");
                    if round % 2 == 0 {
                        dev.free(a);
                    }
                    dev.free(b);
                    dev.free(c);
                    if round % 2 == 1 {
                        dev.free(a);
                    }
                }
            });
        }
    });
    drop(dev);
    silent(&inst, &[ALLOCATE, GET_FD, FREE, "vkDestroyDevice"]);
}
