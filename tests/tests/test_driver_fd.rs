//! vkGetMemoryFdKHR on the project's test driver (`tests/icd`): the dma-buf path of 00671, which
//! lavapipe cannot show, and the driver-contract checks, which need a driver that misbehaves on
//! demand (`misbehave` in the driver's per-instance configuration). The structural cases (NULL
//! pointers, freed memory...) are rows of tests/tests/structural.rs, which checks blocked calls
//! against the driver's own call counter.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{self, exclusive, instance, Calls, Misbehaving};
use exportcheck_tests::{expect, fds, Device, Instance, DMA_BUF, OPAQUE_FD, SIZE};
use std::ffi::CStr;

const CMD: &str = GET_FD;
const COUNTED: &CStr = c"vkGetMemoryFdKHR";

const WITHOUT_CLOEXEC: &str = r#"{"misbehave":{"fd_without_cloexec":true}}"#;
const SAME_FD_TWICE: &str = r#"{"misbehave":{"same_fd_twice":true}}"#;
const INVALID_FD: &str = r#"{"misbehave":{"invalid_fd":true}}"#;

/// A device with VK_KHR_external_memory_fd and VK_EXT_external_memory_dma_buf.
fn dma_buf_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::khr::external_memory_fd::NAME,
        ash::ext::external_memory_dma_buf::NAME,
    ])
}

/// The index of the test driver's HOST_VISIBLE | HOST_COHERENT memory type.
fn host_visible_type(inst: &Instance) -> u32 {
    // SAFETY: the instance's own physical device.
    let props = unsafe {
        inst.instance
            .get_physical_device_memory_properties(inst.physical_device)
    };
    let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    props.memory_types[..props.memory_type_count as usize]
        .iter()
        .position(|t| t.property_flags.contains(wanted))
        .expect("the test driver has a host-visible memory type") as u32
}

/// `FD_CLOEXEC` of an open descriptor.
fn cloexec(fd: i32) -> bool {
    fds::assert_open(fd);
    // SAFETY: F_GETFD only reads the descriptor's flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    assert!(
        flags >= 0,
        "F_GETFD({fd}): {}",
        std::io::Error::last_os_error()
    );
    flags & libc::FD_CLOEXEC != 0
}

/// Whether an fd number is open right now.
fn is_open(fd: i32) -> bool {
    // SAFETY: F_GETFD on any number is harmless; it fails with EBADF when not open.
    fd >= 0 && unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0
}

#[test]
fn dma_buf_export_of_dma_buf_memory_is_silent_and_a_real_cloexec_fd() {
    let inst = instance(None);
    let dev = dma_buf_device(&inst);
    let host = host_visible_type(&inst);
    let mem = dev.allocate_exporting(SIZE, host, Some(OPAQUE_FD | DMA_BUF), None);
    expect::silent(&inst, ALLOCATE);
    // SAFETY: a live, unmapped, host-visible allocation of SIZE bytes.
    let p = unsafe {
        dev.device
            .map_memory(mem, 0, SIZE, vk::MemoryMapFlags::empty())
    }
    .expect("vkMapMemory");
    // SAFETY: the mapping is SIZE bytes long; written before it is unmapped below.
    unsafe { std::ptr::copy_nonoverlapping(b"xchk".as_ptr(), p.cast::<u8>(), 4) };
    // SAFETY: mapped above; not used after this.
    unsafe { dev.device.unmap_memory(mem) };

    for handle_type in [DMA_BUF, OPAQUE_FD] {
        let (r, fd) = dev.get_fd(mem, handle_type);
        assert_eq!(r, vk::Result::SUCCESS, "{handle_type:?}");
        let st = fds::assert_open(fd);
        assert!(st.st_size >= SIZE as i64, "fd size {}", st.st_size);
        assert!(
            cloexec(fd),
            "{handle_type:?}: the test driver sets FD_CLOEXEC"
        );
        // The fd is the memory: what was written through the mapping reads back through it.
        let mut seen = [0u8; 4];
        // SAFETY: reads 4 bytes into a 4-byte buffer from an open descriptor.
        let n = unsafe { libc::pread(fd, seen.as_mut_ptr().cast(), 4, 0) };
        assert_eq!((n, &seen), (4, b"xchk"), "{handle_type:?}");
        fds::close(fd);
    }
    expect::silent(&inst, CMD);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn a_dma_buf_export_imported_as_one_is_silent_though_the_driver_s_fd_is_no_dma_buf() {
    // The test driver's DMA_BUF export is a memfd: a DMA_BUF import of it breaks 00670 by the
    // driver's doing, which the app is not told of. An opaque fd of it imported as DMA_BUF is
    // the app's error.
    let inst = instance(None);
    let dev = dma_buf_device(&inst);
    let mem = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD | DMA_BUF), None);
    let import = |fd: i32| {
        let mut info = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(DMA_BUF)
            .fd(fd);
        let allocate = vk::MemoryAllocateInfo::default()
            .allocation_size(SIZE)
            .memory_type_index(0)
            .push_next(&mut info);
        dev.allocate_with(&allocate)
    };
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    assert_eq!(r, vk::Result::SUCCESS);
    let imported = import(fd).expect("the test driver imports its own fd");
    expect::silent_for(&inst, &[CMD, ALLOCATE]);
    dev.free(imported);
    let other = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None);
    let (r, fd) = dev.get_fd(other, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let result = import(fd);
    let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00670);
    expect::mentions(
        &m,
        &[
            "is a memfd or POSIX shared memory file (tmpfs)",
            "vkGetMemoryFdKHR exported it as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT from",
        ],
    );
    match result {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }
    dev.free(other);
    dev.free(mem);
}

#[test]
fn dma_buf_export_of_opaque_fd_only_memory_is_00671() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let mem = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None);
    let mut calls = Calls::of(COUNTED);
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    calls.assert(1, "reported, then passed down");
    // The test driver does not validate: it exports anyway.
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close(fd);
    let m = expect::one(&inst, CMD, FD_HANDLE_TYPE_00671);
    expect::mentions(
        &m,
        &[
            &format!(
                "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which \
                 was not included in VkExportMemoryAllocateInfo::handleTypes \
                 (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) when {} (allocated on {}",
                memory_name(mem),
                device_name(&dev)
            ),
            "was allocated.",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    // After an invalid call nothing is said about the driver.
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn well_behaved_driver_gets_no_warning() {
    test_driver::assert_well_behaved_driver_gets_no_warning(dma_buf_device, CMD, |_, dev| {
        let mem = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD | DMA_BUF), None);
        // Several exports of one allocation, kept open at once: each is a new descriptor.
        let mut open = Vec::new();
        for handle_type in [OPAQUE_FD, DMA_BUF, OPAQUE_FD, DMA_BUF] {
            let (r, fd) = dev.get_fd(mem, handle_type);
            assert_eq!(r, vk::Result::SUCCESS);
            assert!(cloexec(fd));
            assert!(!open.contains(&fd), "fd {fd} handed out twice");
            open.push(fd);
        }
        open.into_iter().for_each(fds::close);
        dev.free(mem);
    });
}

#[test]
fn fd_without_cloexec_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: WITHOUT_CLOEXEC,
            device: dma_buf_device,
            memory: |_, dev| dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None),
            export: |dev, mem| {
                for _ in 0..3 {
                    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
                    assert_eq!(r, vk::Result::SUCCESS);
                    assert!(!cloexec(fd), "the misbehaving driver");
                    fds::close(fd);
                }
            },
        },
        CMD,
        DRIVER_FD_NOT_CLOEXEC,
        &["does not have FD_CLOEXEC set"],
    );
}

#[test]
fn same_fd_for_two_exports_is_reported_as_not_new() {
    let inst = instance(Some(SAME_FD_TWICE));
    let dev = dma_buf_device(&inst);
    let mem = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None);
    let (r, first) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::driver_only(&inst, CMD, &[]);
    // The app keeps the first fd open and exports again.
    let (r, second) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(second, first, "the misbehaving driver");
    let warnings = expect::driver_only(&inst, CMD, &[DRIVER_FD_NOT_NEW]);
    expect::mentions(
        &warnings[0],
        &[
            &format!("*pFd is {first}, which was already open before the call"),
            "each vkGetMemoryFdKHR must create a new file descriptor",
            "a driver defect, not an error of the app",
        ],
    );
    expect::object(&warnings[0], vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    // Once per device.
    let (r, third) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!((r, third), (vk::Result::SUCCESS, first));
    expect::driver_only(&inst, CMD, &[]);
    expect::silent(&inst, CMD);
    fds::close(first); // One descriptor, handed out three times.
    dev.free(mem);
    drop(dev);
}

#[test]
fn fd_number_reused_after_the_app_closed_it_is_not_reported() {
    // Exclusive: no other test opens descriptors meanwhile, so the kernel hands the closed
    // number out again.
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let mem = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None);
    let (r, first) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close(first);
    let (r, second) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(
        second, first,
        "the kernel reuses the lowest free number: the case this test is about"
    );
    assert!(is_open(second));
    expect::driver_only(&inst, CMD, &[]);
    expect::silent(&inst, CMD);
    fds::close(second);
    dev.free(mem);
    drop(dev);
}

#[test]
fn closed_fd_handed_out_again_is_not_a_valid_fd() {
    // same_fd_twice: after the app closed the first fd, the driver returns that number again,
    // which is no open descriptor at all. Not "not new" (nothing was open), but not a valid fd.
    let inst = exclusive(Some(SAME_FD_TWICE));
    let dev = dma_buf_device(&inst);
    let mem = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None);
    let (r, first) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close(first);
    let (r, second) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(
        (r, second),
        (vk::Result::SUCCESS, first),
        "the misbehaving driver"
    );
    assert!(!is_open(second), "the driver returned a closed descriptor");
    expect::silent(&inst, CMD);
    let warnings = expect::driver_only(&inst, CMD, &[DRIVER_INVALID_FD]);
    expect::mentions(&warnings[0], &[&format!("*pFd is {second}")]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn invalid_fd_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: INVALID_FD,
            device: dma_buf_device,
            memory: |_, dev| dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD | DMA_BUF), None),
            export: |dev, mem| {
                for handle_type in [OPAQUE_FD, DMA_BUF, OPAQUE_FD] {
                    let (r, fd) = dev.get_fd(mem, handle_type);
                    assert_eq!((r, fd), (vk::Result::SUCCESS, -1), "the misbehaving driver");
                }
            },
        },
        CMD,
        DRIVER_INVALID_FD,
        &["*pFd is -1, not a file descriptor"],
    );
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    // Invalid (not exported as DMA_BUF): the driver's -1 is its right, only the app's error is said.
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: INVALID_FD,
            device: dma_buf_device,
            memory: |_, dev| dev.allocate_exporting(SIZE, 0, Some(OPAQUE_FD), None),
            export: |dev, mem| {
                let (r, fd) = dev.get_fd(mem, DMA_BUF);
                assert_eq!((r, fd), (vk::Result::SUCCESS, -1));
            },
        },
        CMD,
        FD_HANDLE_TYPE_00671,
    );
}

/// `VUID-VkMemoryAllocateInfo-allocationSize-01742` for the memory type (lavapipe has one memory
/// type, so this half is here): an opaque fd imported into another memory type than the one it
/// was exported from.
#[test]
fn an_import_into_another_memory_type_than_the_export_is_01742() {
    let inst = exclusive(None);
    let dev = inst.fd_device();
    let memory = dev.allocate_exporting(SIZE, 1, Some(OPAQUE_FD), None);
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent_for(&inst, &[ALLOCATE, CMD]);
    for (memory_type, finding) in [(0, true), (1, false)] {
        let copy = fds::dup(fd);
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(OPAQUE_FD)
            .fd(copy);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(SIZE)
            .memory_type_index(memory_type)
            .push_next(&mut import);
        let imported = dev.allocate_with(&info).expect("the driver imports it");
        if finding {
            let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
            expect::mentions(
                &m,
                &[
                    &format!(
                        "allocated on {} with allocationSize {SIZE}, memoryTypeIndex 1",
                        device_name(&dev)
                    ),
                    "pAllocateInfo->memoryTypeIndex is 0; an import of an opaque fd must give \
                     the memoryTypeIndex the payload was created with (1)",
                ],
            );
        } else {
            expect::silent(&inst, ALLOCATE);
        }
        dev.free(imported);
    }
    fds::close(fd);
    dev.free(memory);
}

/// `EXPORTCHECK-fd-imported-twice`: the test driver keeps an imported fd open until the memory
/// is freed (lavapipe closes it at once), so the same number still names the fd the driver
/// took. The second import is blocked: the driver never sees it.
#[test]
fn importing_an_fd_a_successful_import_consumed_is_reported_and_blocked() {
    let inst = exclusive(None);
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let copy = fds::dup(fd);
    let first = dev.import_fd(fd, SIZE).expect("first import");
    expect::silent_for(&inst, &[ALLOCATE, CMD]);
    fds::assert_open(fd); // The driver keeps it: it is the driver's now.
    let mut calls = Calls::of(c"vkAllocateMemory");
    let again = dev.import_fd(fd, SIZE);
    assert_eq!(again, Err(vk::Result::ERROR_VALIDATION_FAILED_EXT));
    calls.assert(0, "the second import is not passed down");
    let m = expect::one(&inst, ALLOCATE, FD_IMPORTED_TWICE);
    expect::mentions(
        &m,
        &[
            &format!(
                "fd is {fd}, which a successful import into {} (on {}) already handed to the \
                 driver",
                memory_name(first),
                device_name(&dev)
            ),
            "The call was not passed to the driver.",
        ],
    );
    // The app's own duplicate, made before the first import, is its own to import.
    let second = dev.import_fd(copy, SIZE).expect("import of the duplicate");
    expect::silent(&inst, ALLOCATE);
    dev.free(second);
    // Once the imported memory is freed the driver closed the fd; the number is anyone's.
    dev.free(first);
    let (r, fresh) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let third = dev.import_fd(fresh, SIZE).expect("import of a new export");
    expect::silent_for(&inst, &[ALLOCATE, CMD, FREE]);
    dev.free(third);
    dev.free(memory);
}
