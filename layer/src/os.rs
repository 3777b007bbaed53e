//! What the layer asks the operating system about file descriptors the driver returned.
//! POSIX only; elsewhere every answer is "unknown" and the checks that need it stay silent.

/// The fd's descriptor flags (`fcntl(F_GETFD)`), or `None` if it is not open (or not POSIX).
#[cfg(unix)]
pub fn fd_flags(fd: i32) -> Option<i32> {
    if fd < 0 {
        return None;
    }
    // SAFETY: F_GETFD reads the descriptor table; any fd number is a valid argument.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    (flags >= 0).then_some(flags)
}

#[cfg(not(unix))]
pub fn fd_flags(_fd: i32) -> Option<i32> {
    None
}

/// Whether the fd is open with close-on-exec set; `None` if unknown.
pub fn is_cloexec(fd: i32) -> Option<bool> {
    #[cfg(unix)]
    {
        fd_flags(fd).map(|f| f & libc::FD_CLOEXEC != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = fd;
        None
    }
}

/// Whether an fd number is open right now; `None` where the layer cannot tell (not POSIX).
pub fn is_open(fd: i32) -> Option<bool> {
    cfg!(unix).then(|| fd_flags(fd).is_some())
}
