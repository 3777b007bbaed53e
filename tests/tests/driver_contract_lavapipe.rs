//! The driver-contract checks on a real driver: Mesa lavapipe (22.3 and 25.0) returns exported
//! fds without FD_CLOEXEC, and the layer says so — once per device, as a warning about the
//! driver, and only for valid calls (after an invalid one the driver's behaviour is undefined).

use ash::vk;
use exportcheck_tests::ids::{DRIVER_FD_NOT_CLOEXEC, FD_HANDLE_TYPE_00671, GET_FD};
use exportcheck_tests::{expect, fds, Instance, OPAQUE_FD, SIZE};

#[test]
fn lavapipe_fds_without_cloexec_are_reported_once_per_device() {
    let inst = Instance::new();
    let first = inst.fd_device();
    let second = inst.fd_device();
    for dev in [&first, &second] {
        let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
        for _ in 0..3 {
            let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
            assert_eq!(r, vk::Result::SUCCESS);
            // SAFETY: F_GETFD on an fd the driver just returned.
            let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
            assert_eq!(
                flags & libc::FD_CLOEXEC,
                0,
                "lavapipe now sets FD_CLOEXEC: update this test"
            );
            fds::close(fd);
        }
        let warnings = expect::driver_only(&inst, GET_FD, &[DRIVER_FD_NOT_CLOEXEC]);
        expect::mentions(
            &warnings[0],
            &[
                "does not have FD_CLOEXEC",
                "a driver defect, not an error of the app",
            ],
        );
        expect::silent(&inst, GET_FD);
        dev.free(mem);
    }
    drop((first, second));
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    // Not exportable: lavapipe answers VK_SUCCESS with fd -1, which is its right after an
    // invalid call, so only the app's error is reported.
    let plain = dev.allocate(SIZE, None);
    let (r, fd) = dev.get_fd(plain, OPAQUE_FD);
    assert_eq!((r, fd), (vk::Result::SUCCESS, -1));
    expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::driver_only(&inst, GET_FD, &[]);
    dev.free(plain);
    drop(dev);
}
