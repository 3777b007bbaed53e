//! Whether the descriptors the layer holds are still its own. A program may close or replace
//! any descriptor (`close_range`, a `closefrom` loop, `dup2` onto a number), and the layer's held
//! numbers then refer to nothing or to the program's own files: closing one would close the
//! program's file, and comparing with one (`kcmp`) would match a file the layer never held. A
//! held file of its own (a memfd) is told by its inode; a held descriptor of a driver's device
//! file is not (every descriptor of the device has the device's inode). So the layer keeps one
//! memfd of its own, the canary, numbered where it numbers its held descriptors: a program that
//! closed or replaced descriptors in bulk took the canary too. Each held descriptor records the
//! canary's generation when it was made; a broken canary starts a new generation, and the
//! descriptors of older ones are never used, closed or matched again (`os::HeldFile`).

use super::file_identity::{file_id, FileId};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

struct Canary {
    generation: u64,
    /// Its number and inode, while the layer has one.
    held: Option<(i32, FileId)>,
}

/// A canary and its generation: the lock for making one, and what the fast path reads without
/// it (its number, -1 for none, device, inode and generation, written under the lock).
pub struct CanaryCell {
    canary: Mutex<Canary>,
    fd: AtomicI32,
    dev: AtomicU64,
    ino: AtomicU64,
    generation: AtomicU64,
}

/// The process's canary.
static CANARY: CanaryCell = CanaryCell::new();

/// The current generation of held descriptors, after checking the process's canary
/// ([`CanaryCell::generation`]).
#[inline]
pub fn generation() -> u64 {
    CANARY.generation()
}

/// Closes the canary (if it is still the layer's) when the layer holds no descriptor: the
/// program then has no more descriptors open than before it used Vulkan. The next held
/// descriptor makes a new one, in the same generation (nothing held could have been lost).
pub fn release_if_idle(held: usize) {
    if held == 0 {
        CANARY.release();
    }
}

/// Whether descriptors held in `generation` may still be the layer's.
pub fn intact(generation: u64) -> bool {
    self::generation() == generation
}

impl Default for CanaryCell {
    fn default() -> Self {
        Self::new()
    }
}

impl CanaryCell {
    pub const fn new() -> Self {
        Self {
            canary: Mutex::new(Canary {
                generation: 0,
                held: None,
            }),
            fd: AtomicI32::new(-1),
            dev: AtomicU64::new(0),
            ino: AtomicU64::new(0),
            generation: AtomicU64::new(0),
        }
    }

    /// The current generation, after checking the canary: a canary closed or replaced since the
    /// last look starts a new generation (and a new canary). Where no canary can be made (no
    /// memfd, no descriptor left), the generation stays, and held descriptors are told only by
    /// their inode. One `fstat` when the canary is in place.
    #[inline]
    pub fn generation(&self) -> u64 {
        let fd = self.fd.load(Ordering::Acquire);
        if fd >= 0 {
            let id = FileId {
                dev: self.dev.load(Ordering::Acquire),
                ino: self.ino.load(Ordering::Acquire),
            };
            if file_id(fd) == Some(id) {
                return self.generation.load(Ordering::Acquire);
            }
        }
        self.checked_generation()
    }

    /// Closes the canary, if it is still the layer's; the next look makes a new one in the same
    /// generation.
    fn release(&self) {
        let mut canary = self.canary.lock();
        if let Some((fd, id)) = canary.held.take() {
            self.fd.store(-1, Ordering::Release);
            #[cfg(unix)]
            if file_id(fd) == Some(id) {
                // SAFETY: the layer's own memfd (its unique inode is still under the number).
                unsafe { libc::close(fd) };
            }
            #[cfg(not(unix))]
            let _ = (fd, id);
        }
    }

    /// [`CanaryCell::generation`] under the lock: the canary made, or made anew in a new
    /// generation.
    #[cold]
    #[inline(never)]
    fn checked_generation(&self) -> u64 {
        let mut canary = self.canary.lock();
        match canary.held {
            Some((fd, id)) if file_id(fd) == Some(id) => {}
            Some(_) => {
                // Not the layer's any more: the number is left alone (it may be the program's).
                canary.generation += 1;
                canary.held = make();
            }
            None => canary.held = make(),
        }
        let (fd, id) = canary.held.unwrap_or((-1, FileId { dev: 0, ino: 0 }));
        self.generation.store(canary.generation, Ordering::Release);
        self.dev.store(id.dev, Ordering::Release);
        self.ino.store(id.ino, Ordering::Release);
        self.fd.store(fd, Ordering::Release);
        canary.generation
    }
}

/// A new canary: a memfd numbered as held descriptors are.
#[cfg(target_os = "linux")]
fn make() -> Option<(i32, FileId)> {
    let name = c"exportcheck: held-descriptor canary";
    // SAFETY: memfd_create reads the NUL-terminated name and makes a new descriptor.
    let memfd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if memfd < 0 {
        return None;
    }
    // SAFETY: a descriptor memfd_create has just made, owned by nothing else.
    let file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(memfd) };
    let file = super::held_budget::numbered_high(file);
    let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
    Some((fd, file_id(fd)?))
}

#[cfg(not(target_os = "linux"))]
fn make() -> Option<(i32, FileId)> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(miri, ignore = "memfd_create and fstat: system calls Miri isolates")]
    fn a_canary_closed_or_replaced_starts_a_new_generation() {
        // A cell of the test's own: the process's canary is every other test's too.
        let cell = CanaryCell::new();
        let first = cell.generation();
        assert_eq!(cell.generation(), first, "intact");
        let (fd, _) = cell.canary.lock().held.expect("a canary");
        let other = std::fs::File::open("/proc/self/exe").expect("open");
        let other_fd = std::os::fd::AsRawFd::as_raw_fd(&other);
        // SAFETY: replaces the canary's number, as a program's dup2 would.
        let replaced = unsafe { libc::dup2(other_fd, fd) };
        assert_eq!(replaced, fd);
        let second = cell.generation();
        assert!(second > first, "replaced: a new generation");
        assert_eq!(cell.generation(), second);
        assert_eq!(
            crate::os::file_id(fd),
            crate::os::file_id(std::os::fd::AsRawFd::as_raw_fd(&other)),
            "the program's file is left alone"
        );
        // SAFETY: the test's own copy at the canary's old number.
        unsafe { libc::close(fd) };
    }
}
