//! After a successful fd import the fd is the driver's: on lavapipe, which closes an imported fd
//! at once, the layer holds the number (a memfd of its own under it) until the imported memory is
//! freed or its device destroyed. A second import of the number is
//! `EXPORTCHECK-fd-imported-twice` (blocked); the app's own `close` (or `dup2` over it) is
//! `EXPORTCHECK-fd-closed-after-import`, found when the memory is freed or the device destroyed;
//! an app that leaves the fd alone hears nothing and gets the number back at the free. Through the
//! real loader over lavapipe.
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, OPAQUE_FD, SIZE};

const DESTROY: &str = "vkDestroyDevice";

/// Exports `memory` as an opaque fd the test now owns.
#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    fd
}

/// What the fd number refers to, as `/proc/self/fd` shows it (`None`: not open).
fn target_of(fd: i32) -> Option<String> {
    std::fs::read_link(format!("/proc/self/fd/{fd}"))
        .ok()
        .map(|p| p.to_string_lossy().into_owned())
}

/// An export imported on the same device: the import, and the fd number it consumed.
fn imported(inst: &Instance, dev: &Device) -> (vk::DeviceMemory, vk::DeviceMemory, i32) {
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(dev, memory);
    let import = dev.import_fd(fd, SIZE).expect("the import");
    expect::silent_for(inst, &[ALLOCATE, GET_FD]);
    let held = target_of(fd).expect("the number is held");
    assert!(held.contains("exportcheck"), "{held}");
    (memory, import, fd)
}

#[test]
fn an_app_that_leaves_the_imported_fd_alone_hears_nothing_and_gets_the_number_back() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (memory, import, fd) = imported(&inst, &dev);
    dev.free(import);
    expect::silent(&inst, FREE);
    assert_eq!(target_of(fd), None, "released at the free");
    dev.free(memory);
}

#[test]
fn closing_the_imported_fd_is_reported_when_the_memory_is_freed() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (memory, import, fd) = imported(&inst, &dev);
    // The app's mistake: the fd is not its own any more.
    fds::close(fd);
    let again = std::fs::File::open("/dev/null").expect("open");
    dev.free(import);
    let found = expect::one(&inst, FREE, FD_CLOSED_AFTER_IMPORT);
    expect::mentions(
        &found,
        &[
            &format!("vkFreeMemory(): fd {fd}, which a successful vkAllocateMemory import"),
            "was closed or replaced (close, dup2) by the process afterwards",
        ],
    );
    expect::object(&found, vk::ObjectType::DEVICE_MEMORY, {
        use ash::vk::Handle;
        import.as_raw()
    });
    // The file that took the number is the app's: the layer leaves it open.
    drop(again);
    dev.free(memory);
    expect::silent(&inst, FREE);
}

#[test]
fn replacing_the_imported_fd_is_reported_when_its_device_is_destroyed() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (_, _, fd) = imported(&inst, &dev);
    let other = std::fs::File::open("/dev/null").expect("open");
    fds::dup2(std::os::fd::AsRawFd::as_raw_fd(&other), fd);
    drop(dev);
    let found = expect::one(&inst, DESTROY, FD_CLOSED_AFTER_IMPORT);
    expect::mentions(&found, &[&format!("vkDestroyDevice(): fd {fd}, which")]);
    assert!(target_of(fd).is_some(), "the app's dup2 stays");
    fds::close(fd);
}

#[test]
fn importing_again_an_fd_the_driver_closed_is_imported_twice() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (memory, first, fd) = imported(&inst, &dev);
    let again = dev.import_fd(fd, SIZE);
    assert_eq!(again, Err(vk::Result::ERROR_VALIDATION_FAILED_EXT));
    let found = expect::one(&inst, ALLOCATE, FD_IMPORTED_TWICE);
    expect::mentions(
        &found,
        &["the driver closed it then, and the layer has held the number"],
    );
    dev.free(first);
    dev.free(memory);
    expect::silent(&inst, FREE);
}
