//! File descriptors returned by `vkGetMemoryFdKHR`.

/// Asserts that `fd` is an open file descriptor (with `fstat`) and returns its status.
#[track_caller]
pub fn assert_open(fd: i32) -> libc::stat {
    assert!(fd >= 0, "expected a file descriptor, got {fd}");
    // SAFETY: `stat` is plain data, zero is a valid value; fstat only writes it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid output pointer; fstat fails cleanly on a bad descriptor.
    let rc = unsafe { libc::fstat(fd, &mut st) };
    assert_eq!(
        rc,
        0,
        "fstat({fd}) failed: {}",
        std::io::Error::last_os_error()
    );
    st
}

/// Closes a descriptor the test owns, asserting it was open.
#[track_caller]
pub fn close(fd: i32) {
    assert_open(fd);
    // SAFETY: the test owns `fd` (it came from vkGetMemoryFdKHR) and closes it once.
    let rc = unsafe { libc::close(fd) };
    assert_eq!(rc, 0, "close({fd}): {}", std::io::Error::last_os_error());
}

/// Closes `fd` if the driver returned one (for calls whose result is the driver's business).
pub fn close_if_open(fd: i32) {
    if fd >= 0 {
        // SAFETY: a descriptor the driver just handed to the test, closed once.
        unsafe { libc::close(fd) };
    }
}
