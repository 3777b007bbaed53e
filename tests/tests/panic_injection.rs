//! Panic containment, end to end: a build of the layer with the `panic-injection` feature panics
//! where `EXPORTCHECK_INJECT_PANIC` says (inside a command's checks, or while delivering a
//! finding). The app's call must still go through, an `EXPORTCHECK-internal-error` finding must
//! reach the app's messenger, and the next calls must behave as if nothing happened (the layer's
//! tracking intact).
//!
//! The test builds that layer itself (into `target/panic-injection`, a no-op when
//! scripts/test.sh already did) and points the loader at it for this process only.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::panic_layer::injecting_instance;
use exportcheck_tests::{expect, fds, Instance, FAILED, OPAQUE_FD, SIZE};

/// Where the panics go: once in the checks of each memory command, and once while reporting a
/// finding of vkGetMemoryFdKHR.
const INJECTED: &str = "check:vkAllocateMemory:1,check:vkGetMemoryFdKHR:1,\
                        check:vkFreeMemory:1,report:vkGetMemoryFdKHR:1";

fn instance() -> Instance {
    // This binary has one test: the rules are read once per process.
    injecting_instance(INJECTED)
}

/// The one internal-error message of `command`, which must say `what`.
#[track_caller]
fn internal_error(inst: &Instance, command: &str, what: &[&str]) {
    let message = expect::one(inst, command, INTERNAL_ERROR);
    expect::mentions(&message, what);
}

#[test]
fn a_panic_in_a_check_or_in_reporting_costs_one_finding_not_the_call() {
    let inst = instance();
    let dev = inst.fd_device();

    // vkAllocateMemory: the check panics; the allocation still happens and is tracked.
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    internal_error(
        &inst,
        ALLOCATE,
        &["injected panic (Check of vkAllocateMemory)", "unchecked"],
    );
    assert_ne!(memory.as_raw(), 0);

    // vkGetMemoryFdKHR: the check panics; the export still happens.
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(fd >= 0, "a real fd: {fd}");
    fds::close(fd);
    internal_error(
        &inst,
        GET_FD,
        &["injected panic (Check of vkGetMemoryFdKHR)", "unchecked"],
    );

    // The next export is checked again, silently: the allocation was recorded despite the
    // panic in its own check.
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close(fd);
    expect::silent(&inst, GET_FD);

    // A bad export (of memory allocated without VkExportMemoryAllocateInfo: 00671 alone) whose
    // finding panics while being delivered: an internal error says a finding may be lost; the
    // next identical bad call is reported as usual. This allocation is checked again, silently.
    let plain = dev.allocate(SIZE, None);
    expect::silent(&inst, ALLOCATE);
    let (r, fd) = dev.get_fd(plain, OPAQUE_FD);
    fds::close(fd);
    internal_error(
        &inst,
        GET_FD,
        &[
            "injected panic (Report of vkGetMemoryFdKHR)",
            "while reporting",
        ],
    );
    let (again, fd) = dev.get_fd(plain, OPAQUE_FD);
    fds::close(fd);
    assert_eq!(again, r, "the same call, the same result");
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(&m, &["allocated without a VkExportMemoryAllocateInfo"]);

    // vkFreeMemory: the check panics; the memory is still freed and forgotten, so a later use
    // is a use after free.
    dev.free(memory);
    internal_error(
        &inst,
        FREE,
        &["injected panic (Check of vkFreeMemory)", "unchecked"],
    );
    let (r, _) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, FAILED);
    expect::one(&inst, GET_FD, FD_MEMORY_PARAM);
    dev.free(plain);
    expect::silent(&inst, FREE);
    drop(dev);
}
