//! The fds successful imports handed to the driver (`VkImportMemoryFdInfoKHR`), while the driver
//! keeps them open: the app must not use such an fd again, so a second import of the same fd is
//! reported (`EXPORTCHECK-fd-imported-twice`).
//!
//! **What "the same fd" means here, soundly.** The same number, still referring to the same
//! open file description as when it was imported: the layer holds a descriptor of that open
//! file description ([`os::hold_open_file`]) and compares with `kcmp(KCMP_FILE)`
//! ([`os::same_open_file`]). The layer takes that descriptor before the import goes down, and
//! remembers the import only when, after it succeeded, the number still refers to it: a driver
//! that closed the fd at once gave the number back to the process, and whatever another thread
//! opened under it since is new. It is forgotten when the imported memory is freed
//! or its device destroyed (the driver may close the fd then), and when `vkGetMemoryFdKHR`
//! returns that number (a new fd of the app's). A duplicate the app made before the import has
//! another number and is the app's own: importing it is not reported.

use crate::os::{self, HeldFile};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most imports remembered at once in the process.
pub const LIMIT: usize = 256;

/// The allocation a consumed fd was imported into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportedInto {
    pub device: u64,
    pub memory: u64,
}

struct Consumed {
    number: i32,
    held: HeldFile,
    into: ImportedInto,
}

static CONSUMED: Mutex<Vec<Consumed>> = Mutex::new(Vec::new());
/// How many are remembered (written under the lock): most calls read only this.
static COUNT: AtomicUsize = AtomicUsize::new(0);

/// Before an import of `fd` goes down: the layer's descriptor of the open file description the
/// app hands over (taken before the driver may close the number and another thread reuse it).
pub fn before_import(fd: i32) -> Option<HeldFile> {
    (COUNT.load(Ordering::Acquire) < LIMIT)
        .then(|| os::hold_open_file(fd))
        .flatten()
}

/// After a successful import of `fd` into `into`, with what [`before_import`] held: remembered
/// if the number still refers to that open file description (the driver kept the fd).
pub fn remember(fd: i32, held: HeldFile, into: ImportedInto) {
    if os::same_open_file(held.number(), fd) != Some(true) {
        return; // The driver closed it (the number may be anyone's now).
    }
    let mut consumed = CONSUMED.lock();
    consumed.retain(|c| c.number != fd);
    if consumed.len() < LIMIT {
        consumed.push(Consumed {
            number: fd,
            held,
            into,
        });
    }
    super::opaque_exports::set_count(&COUNT, consumed.len());
}

/// The allocation `fd` was already imported into, if it is such a consumed fd.
pub fn imported_into(fd: i32) -> Option<ImportedInto> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return None;
    }
    let consumed = CONSUMED.lock();
    consumed
        .iter()
        .find(|c| c.number == fd && os::same_open_file(c.held.number(), fd) == Some(true))
        .map(|c| c.into)
}

/// Whether any import is remembered: the common call reads only this.
#[inline(always)]
fn any() -> bool {
    COUNT.load(Ordering::Acquire) != 0
}

#[cold]
#[inline(never)]
fn forget(drop: &dyn Fn(&Consumed) -> bool) {
    let mut consumed = CONSUMED.lock();
    consumed.retain(|c| !drop(c));
    super::opaque_exports::set_count(&COUNT, consumed.len());
}

/// `vkGetMemoryFdKHR` returned the number `fd`: it is the app's again.
#[inline(always)]
pub fn forget_number(fd: i32) {
    if any() {
        forget(&|c| c.number == fd);
    }
}

/// Before `vkFreeMemory` of `memory` goes down.
#[inline(always)]
pub fn forget_memory(device: u64, memory: u64) {
    if any() {
        forget(&|c| c.into == ImportedInto { device, memory });
    }
}

/// At `vkDestroyDevice`.
pub fn forget_device(device: u64) {
    if any() {
        forget(&|c| c.into.device == device);
    }
}

/// The numbers of the descriptors the layer holds: not the app's.
pub fn held_numbers() -> Vec<i32> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return Vec::new();
    }
    CONSUMED.lock().iter().map(|c| c.held.number()).collect()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and calls kcmp: system calls Miri isolates"
    )]
    fn the_same_number_and_open_file_description_only() {
        let into = ImportedInto {
            device: 0xd1,
            memory: 0x71,
        };
        let file = std::fs::File::open("/proc/self/exe").expect("open");
        let fd = file.as_raw_fd();
        remember(fd, before_import(fd).expect("held"), into);
        assert_eq!(imported_into(fd), Some(into));
        // A duplicate has another number: the app's own.
        let copy = file.try_clone().expect("dup");
        assert_eq!(imported_into(copy.as_raw_fd()), None);
        // The number given to another open file description of the same file: new.
        let again = std::fs::File::open("/proc/self/exe").expect("open");
        // SAFETY: dup2 onto a number this test owns.
        assert_eq!(unsafe { libc::dup2(again.as_raw_fd(), fd) }, fd);
        assert_eq!(imported_into(fd), None);
        // Remembered only while the number still names the description held before the import.
        let held = before_import(copy.as_raw_fd()).expect("held");
        remember(fd, held, into);
        assert_eq!(imported_into(fd), None);
        remember(fd, before_import(fd).expect("held"), into);
        assert_eq!(imported_into(fd), Some(into));
        forget_memory(0xd1, 0x71);
        assert_eq!(imported_into(fd), None);
    }
}
