//! An fd number the layer holds so that nobody else gets it: after a successful fd import the
//! number is the driver's, and a driver that closed the fd at once (Mesa's do) gives it back to
//! the process, where a later `close` of it by the app (a double close: the fd was no longer the
//! app's) would close whatever file got the number since. The layer puts a memfd of its own
//! under the number instead, and later tells for certain whether it is still there: its inode is
//! unique to it. Gone means the process closed or replaced the number (`close`, `dup2`) after
//! handing it to the driver.

use super::file_identity::{file_id, FileId};

/// The layer's memfd under an fd number, closed when dropped if it is still there (never
/// another file that took the number).
#[derive(Debug)]
pub struct HeldNumber {
    number: i32,
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    id: FileId,
}

/// Puts a memfd of the layer's under `number` if the number is free now (`F_DUPFD_CLOEXEC`
/// takes the lowest free number from `number` up: atomically, so a number another thread took
/// is never taken from it). `None` if the number is taken, is one of the standard streams (0 to
/// 2, which programs replace by number), the layer holds its budget of descriptors
/// ([`super::held_budget::held_file_budget`]), or there is no memfd (not Linux).
#[cfg(target_os = "linux")]
pub fn hold_number(number: i32) -> Option<HeldNumber> {
    if number <= 2 || !super::held_budget::within_budget(super::held_budget::soft_open_file_limit())
    {
        return None;
    }
    let name = c"exportcheck: an fd number handed to the driver";
    // SAFETY: memfd_create reads the NUL-terminated name and makes a new descriptor.
    let memfd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if memfd < 0 {
        return None;
    }
    // The memfd took the lowest free number: `number` itself when nothing below it is free.
    let held = if memfd == number {
        number
    } else {
        // SAFETY: a new descriptor of the memfd, at `number` or above; no free number is an
        // error.
        let copy = unsafe { libc::fcntl(memfd, libc::F_DUPFD_CLOEXEC, number) };
        // SAFETY: the memfd descriptor this function made; its copy (if any) keeps the file.
        unsafe { libc::close(memfd) };
        copy
    };
    let id = (held == number).then(|| file_id(number)).flatten();
    let Some(id) = id else {
        if held >= 0 {
            // SAFETY: the layer's own copy, under a number above the one it wanted.
            unsafe { libc::close(held) };
        }
        return None;
    };
    super::held_budget::HELD_FILES.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    Some(HeldNumber { number, id })
}

#[cfg(not(target_os = "linux"))]
pub fn hold_number(_number: i32) -> Option<HeldNumber> {
    None
}

impl HeldNumber {
    pub fn number(&self) -> i32 {
        self.number
    }

    /// Whether the number still refers to the layer's memfd: nobody closed or replaced it.
    pub fn still_held(&self) -> bool {
        file_id(self.number) == Some(self.id)
    }
}

impl Drop for HeldNumber {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        {
            if self.still_held() {
                // SAFETY: the number refers to the layer's own memfd (its unique inode).
                unsafe { libc::close(self.number) };
            }
            super::held_budget::HELD_FILES.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::fd::{AsRawFd, IntoRawFd};

    /// A number that was just closed (free unless another test thread took it since).
    fn a_free_number() -> i32 {
        std::fs::File::open("/dev/null")
            .expect("open")
            .into_raw_fd()
    }

    #[test]
    #[cfg_attr(miri, ignore = "memfd_create and fcntl: system calls Miri isolates")]
    fn a_free_number_is_held_until_dropped_and_a_taken_one_never() {
        let number = a_free_number();
        // SAFETY: the test's own descriptor.
        unsafe { libc::close(number) };
        let Some(held) = hold_number(number) else {
            return; // Another test thread took the number in between: nothing to judge.
        };
        assert_eq!(held.number(), number);
        assert!(held.still_held());
        assert!(crate::os::is_open(number) == Some(true));
        let holding = crate::os::file_id(number).expect("the held file");
        drop(held);
        // Closed: the number is free, or another test thread's file took it since (never the
        // layer's file any more). A file identity, not "is it open", which another thread may
        // change between two looks.
        assert_ne!(crate::os::file_id(number), Some(holding));
        let taken = std::fs::File::open("/dev/null").expect("open");
        assert!(hold_number(taken.as_raw_fd()).is_none(), "a taken number");
        assert!(hold_number(1).is_none(), "a standard stream");
    }

    #[test]
    #[cfg_attr(miri, ignore = "memfd_create and fcntl: system calls Miri isolates")]
    fn a_number_closed_or_replaced_behind_the_layer_is_not_held_and_not_closed() {
        let number = a_free_number();
        // SAFETY: the test's own descriptor.
        unsafe { libc::close(number) };
        let Some(held) = hold_number(number) else {
            return;
        };
        let other = std::fs::File::open("/proc/self/exe").expect("open");
        // SAFETY: replaces the layer's memfd under the number, as an app's dup2 would.
        assert_eq!(unsafe { libc::dup2(other.as_raw_fd(), number) }, number);
        assert!(!held.still_held());
        drop(held);
        assert_eq!(
            crate::os::is_open(number),
            Some(true),
            "the app's file stays"
        );
        // SAFETY: the test's own copy.
        unsafe { libc::close(number) };
    }
}
