//! The descriptors the layer holds are the program's to close or replace (issue #34): a program
//! may close every descriptor from some number up (`close_range`, as daemons, sandboxes and
//! Python's `subprocess` do) or put its own files on any number (`dup2`). End to end through the
//! real loader and the project's test driver, one test in this binary (it closes and replaces
//! the process's high descriptor numbers, which other tests' layers would hold):
//!
//! - after the program put its file on the numbers of the layer's held copies of an export,
//!   `vkFreeMemory` closes none of them (the layer closed the program's file);
//! - after the program closed the layer's held descriptors in bulk and a new export's
//!   description took the number a held one had, a correct import of it is silent (the layer
//!   judged it against the export it had held there: a false
//!   `VUID-VkMemoryAllocateInfo-allocationSize-01742`), on the test driver's device files
//!   (NVIDIA's way: every export a new open file description of one device).

#![cfg(target_os = "linux")]

use ash::vk;
use exportcheck_tests::expect;
use exportcheck_tests::fd_export::FdExport;
use exportcheck_tests::fds;
use exportcheck_tests::ids::ALLOCATE;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};
use std::os::fd::AsRawFd;

const OPAQUE: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

/// An fd of new exportable memory of `size` bytes, the memory freed (the fd keeps the payload)
/// unless `keep`.
fn export(dev: &Device, size: u64) -> (vk::DeviceMemory, i32) {
    let memory = dev.allocate_exporting(size, 0, Some(OPAQUE), None);
    let (r, fd) = dev.get_fd(memory, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS, "vkGetMemoryFdKHR");
    (memory, fd)
}

/// The open descriptor numbers of this process from `from` up.
fn open_from(from: i32) -> Vec<i32> {
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&n| n >= from)
        .collect()
}

/// The lowest number the layer holds its descriptors from: three quarters of the soft
/// open-file limit, at most 1024 (docs/reliability.md).
fn held_floor() -> i32 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the structure we own.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
        0
    );
    (limit.rlim_cur.saturating_mul(3) / 4).min(1024) as i32
}

fn the_programs_file_put_on_the_layers_numbers_is_never_closed(inst: &Instance) {
    let dev = inst.fd_device();
    let (memory, fd) = export(&dev, 65536);
    let taken = open_from(held_floor());
    assert!(!taken.is_empty(), "the layer holds a copy of the export");
    let data = tempfile::tempfile().expect("a data file");
    let id = fds::identity(data.as_raw_fd());
    for &n in &taken {
        // SAFETY: the program puts its own file on the number, as a dup2 of its would.
        assert_eq!(unsafe { libc::dup2(data.as_raw_fd(), n) }, n);
    }
    fds::close(fd);
    dev.free(memory);
    for &n in &taken {
        assert_eq!(
            fds::identity(n),
            id,
            "descriptor {n}, the program's data file, is still open"
        );
        fds::close(n);
    }
    expect::silent(inst, "vkFreeMemory");
}

fn a_new_export_on_a_number_the_layer_held_is_not_judged_against_the_old_one(inst: &Instance) {
    let dev = inst.fd_device();
    let (a_memory, a) = export(&dev, 65536);
    let floor = held_floor();
    // The program closes every descriptor from the layer's floor up.
    // SAFETY: close_range closes the process's descriptors in the range; none is used after.
    let closed = unsafe { libc::syscall(libc::SYS_close_range, floor as u32, !0u32, 0u32) };
    assert_eq!(closed, 0, "close_range");
    let (b_memory, b) = export(&dev, 131072);
    // B's description on the first number the layer had held A's on.
    // SAFETY: the program's own descriptors.
    assert_eq!(unsafe { libc::dup2(b, floor) }, floor);
    fds::close(b);
    let imported = dev.import_fd(floor, 131072);
    expect::silent(inst, ALLOCATE);
    let imported = imported.expect("the import of B, with B's size");
    dev.free(imported);
    fds::close(a);
    dev.free(a_memory);
    dev.free(b_memory);
}

#[test]
fn the_programs_descriptors_stay_its_own() {
    let inst = exclusive(FdExport::DeviceFile.config());
    a_new_export_on_a_number_the_layer_held_is_not_judged_against_the_old_one(&inst);
    drop(inst);
    let inst = exclusive(None);
    the_programs_file_put_on_the_layers_numbers_is_never_closed(&inst);
}
