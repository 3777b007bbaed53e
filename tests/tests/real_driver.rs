//! The layer on a real GPU driver, named by `EXPORTCHECK_TEST_REAL_ICD` (NVIDIA's on the GPU
//! machine: every `OPAQUE_FD` export a new open file description of `/dev/nvidiactl`, which the
//! driver's own descriptors share). Ignored where no such driver is named; run with
//! `EXPORTCHECK_TEST_REAL_ICD=/path/to/icd.json cargo test --test real_driver -- --ignored`
//! (the cross-process pairs of such a driver: `cross_process.rs`, `on_a_real_driver_*`).
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk;
use exportcheck_tests::env::Driver;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, Options, OPAQUE_FD, SIZE};

const DESTROY: &str = "vkDestroyDevice";

/// An instance on the real driver, alone in the binary, with the leak check on.
fn exclusive() -> Instance {
    Instance::exclusive_with(Options {
        driver: Driver::Real,
        layer_settings: &[("check_fd_leaks", "true"), ("duplicate_message_limit", "0")],
        ..Options::default()
    })
}

#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    fd
}

/// What the driver's exports are, as the test sees them: printed for the record (the GPU run's
/// figures), and the premise of the other tests asserted: two exports of one allocation are two
/// open file descriptions.
#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn the_driver_s_exports_as_the_os_shows_them() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (a, b) = (export(&dev, memory), export(&dev, memory));
    let (ia, ib) = (fds::identity(a), fds::identity(b));
    let same_file: Vec<i32> = std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd != a && fd != b && fds::is_open(fd) && fds::identity(fd) == ia)
        .collect();
    let target = std::fs::read_link(format!("/proc/self/fd/{a}")).expect("readlink");
    println!(
        "exports: fd {a} -> {} (device {}, inode {}), fd {b} (device {}, inode {}); other \
         descriptors of the same file: {same_file:?}; one open file description: {:?}",
        target.display(),
        ia.0,
        ia.1,
        ib.0,
        ib.1,
        same_open_file(a, b)
    );
    fds::close(a);
    fds::close(b);
    dev.free(memory);
    drop(dev);
    expect::silent_for(&inst, &[GET_FD, FREE, DESTROY]);
}

/// `kcmp(KCMP_FILE)` of two of this process's fds.
fn same_open_file(a: i32, b: i32) -> Option<bool> {
    let pid = libc::c_long::from(std::process::id() as i32);
    // SAFETY: kcmp compares kernel objects of this process; any fd numbers are valid arguments.
    let r = unsafe {
        libc::syscall(
            libc::SYS_kcmp,
            pid,
            pid,
            0 as libc::c_long,
            libc::c_long::from(a),
            libc::c_long::from(b),
        )
    };
    (r >= 0).then_some(r == 0)
}

/// The false finding of every NVIDIA export under `exportcheck run`: exports closed before the
/// free share their file with the driver's own descriptors, which are no leak.
#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn exports_closed_then_freed_are_silent_with_the_leak_check() {
    let inst = exclusive();
    let dev = inst.fd_device();
    for _ in 0..3 {
        let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
        fds::close(export(&dev, memory));
        fds::close(export(&dev, memory));
        dev.free(memory);
    }
    let kept = dev.allocate(SIZE, Some(OPAQUE_FD));
    fds::close(export(&dev, kept));
    drop(dev);
    expect::silent_for(&inst, &[GET_FD, FREE, DESTROY]);
}

/// The number the driver returned, still open at the free, is reported, told apart from the
/// driver's own descriptors of the same file by `kcmp`; a copy of a closed one is not looked for
/// (it may be in a correct program's hands for a moment, and the layer cannot look later).
#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn an_export_left_open_is_reported_at_the_free() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    dev.name(memory, c"left-open");
    let open = export(&dev, memory);
    let moved = export(&dev, memory);
    let copy = fds::dup(moved);
    fds::close(moved);
    dev.free(memory);
    let m = expect::one(&inst, FREE, EXPORTED_FD_LEAKED);
    expect::mentions(
        &m,
        &[
            "\"left-open\" is being freed",
            &format!("as fd {open} and was never imported"),
            "told apart from them by kcmp",
        ],
    );
    fds::close(open);
    fds::close(copy);
    drop(dev);
    expect::silent(&inst, DESTROY);
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn imports_are_checked_against_the_export_each_came_from() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (first, second) = (export(&dev, memory), export(&dev, memory));
    // A later export of the allocation, another open file description: checked too.
    let result = dev.import_fd(second, 2 * SIZE);
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
    expect::mentions(&m, &[&format!("imports fd {second}")]);
    println!("the driver answered the import of another size with {result:?}");
    match result {
        Ok(imported) => dev.free(imported),
        Err(_) => fds::close_if_open(second),
    }
    let imported = dev
        .import_fd(first, SIZE)
        .expect("import of the right size");
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    dev.free(imported);
    dev.free(memory);
    drop(dev);
    expect::silent_for(&inst, &[FREE, DESTROY]);
}
