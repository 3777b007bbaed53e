//! A panic after the call went down, end to end: the driver has made memory or an fd, which the
//! app owns. The panic-injection build of the layer (see `panic_injection.rs`) panics where
//! `EXPORTCHECK_INJECT_PANIC` says: here at the `after` site, once the layer recorded what
//! vkAllocateMemory and vkGetMemoryFdKHR made. The app must get the driver's result and the
//! real memory and fd, usable, plus one `EXPORTCHECK-internal-error` finding for each.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::panic_layer::injecting_instance;
use exportcheck_tests::{expect, fds, FAILED, OPAQUE_FD, SIZE};

/// Once after vkAllocateMemory's call down, once after vkGetMemoryFdKHR's.
const INJECTED: &str = "after:vkAllocateMemory:1,after:vkGetMemoryFdKHR:1";

#[test]
fn a_panic_after_the_call_went_down_returns_what_the_driver_made() {
    // This binary has one test: the rules are read once per process.
    let inst = injecting_instance(INJECTED);
    let dev = inst.fd_device();
    let after = |command: &str, injected: &str| {
        let message = expect::one(&inst, command, INTERNAL_ERROR);
        expect::mentions(
            &message,
            &[
                injected,
                "after the call went down",
                "the app got the driver's result, SUCCESS",
            ],
        );
    };

    // vkAllocateMemory: the driver's memory reaches the app.
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export);
    let memory = dev
        .allocate_with(&info)
        .expect("vkAllocateMemory returns the driver's VK_SUCCESS and memory");
    assert_ne!(memory.as_raw(), 0);
    after(ALLOCATE, "injected panic (After of vkAllocateMemory)");

    // vkGetMemoryFdKHR on it: the driver's fd reaches the app, open, and it is that memory:
    // importing it makes new memory (the driver takes the fd).
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let stat = fds::assert_open(fd);
    assert!(
        stat.st_size as u64 >= SIZE,
        "the fd holds the memory: {stat:?}"
    );
    after(GET_FD, "injected panic (After of vkGetMemoryFdKHR)");
    let imported = dev.import_fd(fd, SIZE).expect("import the exported fd");
    expect::silent(&inst, ALLOCATE);

    // The layer recorded both before it panicked: the next calls are checked as usual.
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close(fd);
    expect::silent(&inst, GET_FD);
    dev.free(imported);
    dev.free(memory);
    expect::silent(&inst, FREE);
    let (r, _) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, FAILED);
    expect::one(&inst, GET_FD, FD_MEMORY_PARAM);
    drop(dev);
}
