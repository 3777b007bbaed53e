//! What an open file is, independently of the fd number: its own file, below `os.rs` (which
//! re-exports it) and `held_number.rs`, which both use it.

/// What an open file is, independently of the fd number that refers to it: the device and inode
/// `fstat` reports. Two fds with the same identity refer to the same file (for the memfds and
/// dma-bufs drivers export: the same memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    pub dev: u64,
    pub ino: u64,
}

/// `fstat` of `fd`, or `None` if it is not open.
#[cfg(unix)]
pub fn fstat(fd: i32) -> Option<libc::stat> {
    if fd < 0 {
        return None;
    }
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat writes a `struct stat` into the buffer we own; any fd number is valid.
    if unsafe { libc::fstat(fd, stat.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: fstat succeeded, so it filled the structure.
    Some(unsafe { stat.assume_init() })
}

/// The identity of the file `fd` refers to, or `None` if it is not open (or not POSIX).
#[cfg(unix)]
pub fn file_id(fd: i32) -> Option<FileId> {
    let stat = fstat(fd)?;
    // The casts are needed where st_dev is not a u64 (macOS: i32).
    #[allow(clippy::unnecessary_cast)]
    Some(FileId {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    })
}

#[cfg(not(unix))]
pub fn file_id(_fd: i32) -> Option<FileId> {
    None
}
