//! The budget of descriptors the layer holds (`os::HeldFile`, `os::HeldNumber`) and where it
//! numbers them: its own file, below `os.rs`, `held_number.rs` and `held_canary.rs`, which
//! count against it and number theirs so.

/// How many descriptors the layer holds at once ([`HeldFile`]s alive), in the whole process.
#[cfg(unix)]
pub(super) static HELD_FILES: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// The most descriptors the layer holds at once with a soft open-file limit of `soft`: one
/// sixteenth of it (64 of the usual 1024), never more than 512. Every one of them counts against
/// the app's own limit, so the layer takes a small share and, past it, checks less (an export it
/// does not hold leaves its imports unchecked) rather than make the app run out of descriptors.
#[cfg(unix)]
pub fn held_file_budget(soft: u64) -> usize {
    usize::try_from(soft / 16).unwrap_or(usize::MAX).min(512)
}

/// The soft open-file limit (256 when it cannot be read).
#[cfg(unix)]
pub(super) fn soft_open_file_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the structure we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur
    } else {
        256
    }
}

/// Whether the layer may hold one more descriptor with a soft limit of `soft`.
#[cfg(unix)]
pub(super) fn within_budget(soft: u64) -> bool {
    HELD_FILES.load(std::sync::atomic::Ordering::Acquire) < held_file_budget(soft)
}

/// `file` moved to a descriptor numbered as `os::hold_open_file` numbers its own (away from the
/// low numbers an app's own files get, and that apps close in bulk); `file` itself if it
/// cannot be.
#[cfg(unix)]
pub fn numbered_high(file: std::fs::File) -> std::fs::File {
    use std::os::fd::{AsRawFd, FromRawFd};
    let lowest = (soft_open_file_limit().saturating_mul(3) / 4).min(1024) as libc::c_int;
    // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor of an open file we own.
    let high = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD_CLOEXEC, lowest) };
    if high < 0 {
        return file;
    }
    // SAFETY: a descriptor fcntl has just made, owned by nothing else (`file` is closed as it
    // drops here).
    unsafe { std::fs::File::from_raw_fd(high) }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn the_layer_holds_a_sixteenth_of_the_soft_limit_at_most_512() {
        assert_eq!(held_file_budget(1024), 64);
        assert_eq!(held_file_budget(256), 16);
        assert_eq!(held_file_budget(15), 0);
        assert_eq!(held_file_budget(1 << 20), 512);
        assert_eq!(held_file_budget(u64::MAX), 512);
    }
}
