//! The fds successful imports handed to the driver (`VkImportMemoryFdInfoKHR`,
//! `vkImportSemaphoreFdKHR`, `vkImportFenceFdKHR`; a `SYNC_FD` of -1 is no fd): the app must not
//! use such an fd again, so a second import of the same fd is reported
//! (`EXPORTCHECK-fd-imported-twice`), and so is its close (`EXPORTCHECK-fd-closed-after-import`)
//! where the layer can tell.
//!
//! **What "the same fd" means here, soundly.** The same number, still referring to the same
//! open file description as when it was imported: the layer holds a descriptor of that open
//! file description ([`os::hold_open_file`]) and compares with `kcmp(KCMP_FILE)`
//! ([`os::same_open_file`]). The layer takes that descriptor before the import goes down, and
//! remembers the import as the driver's when, after it succeeded, the number still refers to it.
//!
//! **A driver that closed the fd at once** (Mesa's drivers do) gave the number back to the
//! process: an app that closes "its" fd after the import then closes whatever file got the
//! number since. The layer holds the number itself instead, under a memfd of its own
//! ([`os::hold_number`], only if the number is still free: whatever another thread opened under
//! it since is new), until the imported memory is freed (the semaphore or fence destroyed, or
//! imported into again) or its device destroyed. Then, if the
//! memfd is no longer under the number, the process closed or replaced it after handing it to
//! the driver: reported ([`Lost`]). An import of the number meanwhile is an import of the fd
//! the driver took. It is forgotten when the imported memory is freed
//! or its device destroyed (the driver may close the fd then), and when any command returns
//! that number to the app (`vkGetMemoryFdKHR`, `vkGetSemaphoreFdKHR`, `vkGetFenceFdKHR`: a new
//! fd of the app's, whatever became of the number before: SwiftShader keeps a semaphore's
//! imported fd until the wait that consumes its temporary payload, closes it then, and its next
//! export gets the number and the same open file description). A duplicate the app made before the import has
//! another number and is the app's own: importing it is not reported.

use crate::os::{self, HeldFile, HeldNumber};
use ash::vk;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The most imports remembered at once in the process.
pub const LIMIT: usize = 256;

/// The kind of object a consumed fd was imported into, and the command that imported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportKind {
    /// `vkAllocateMemory` with `VkImportMemoryFdInfoKHR`.
    Memory,
    /// `vkImportSemaphoreFdKHR`.
    Semaphore,
    /// `vkImportFenceFdKHR`.
    Fence,
    /// `cuImportExternalMemory` (the CUDA side: `features::cuda_interop`); the object is the
    /// `CUexternalMemory`, the device 0.
    CudaMemory,
    /// `cuImportExternalSemaphore`; the object is the `CUexternalSemaphore`, the device 0.
    CudaSemaphore,
}

impl ImportKind {
    pub fn object_type(self) -> vk::ObjectType {
        match self {
            Self::Memory => vk::ObjectType::DEVICE_MEMORY,
            Self::Semaphore => vk::ObjectType::SEMAPHORE,
            Self::Fence => vk::ObjectType::FENCE,
            Self::CudaMemory | Self::CudaSemaphore => vk::ObjectType::UNKNOWN,
        }
    }

    /// Whether the importer is CUDA's driver (its objects are no Vulkan objects).
    pub fn is_cuda(self) -> bool {
        matches!(self, Self::CudaMemory | Self::CudaSemaphore)
    }

    /// The command whose successful import handed the fd to the driver.
    pub fn command(self) -> &'static str {
        match self {
            Self::Memory => "vkAllocateMemory",
            Self::Semaphore => "vkImportSemaphoreFdKHR",
            Self::Fence => "vkImportFenceFdKHR",
            Self::CudaMemory => "cuImportExternalMemory",
            Self::CudaSemaphore => "cuImportExternalSemaphore",
        }
    }
}

/// The allocation, semaphore or fence a consumed fd was imported into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportedInto {
    pub device: u64,
    /// The `VkDeviceMemory`, `VkSemaphore` or `VkFence`.
    pub object: u64,
    pub kind: ImportKind,
}

impl ImportedInto {
    /// Whether this is `object` (of `kind`) on `device`: the object first, the field most
    /// likely to differ.
    #[inline(always)]
    fn is(&self, kind: ImportKind, device: u64, object: u64) -> bool {
        self.object == object && self.device == device && self.kind == kind
    }

    pub fn memory(device: u64, memory: u64) -> Self {
        Self {
            device,
            object: memory,
            kind: ImportKind::Memory,
        }
    }
}

/// Who holds the number of a consumed fd.
#[derive(Debug)]
enum Holder {
    /// The driver kept the fd: the layer's descriptor of the same open file description.
    Driver(HeldFile),
    /// The driver closed it: the layer's memfd under the number.
    Layer(HeldNumber),
}

/// Who held the number of a consumed fd an import names again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldBy {
    Driver,
    Layer,
}

struct Consumed {
    number: i32,
    holder: Holder,
    into: ImportedInto,
}

impl Consumed {
    /// Whether `fd` is this consumed fd: its number, still held as it was.
    fn is(&self, fd: i32) -> Option<HeldBy> {
        if self.number != fd {
            return None;
        }
        match &self.holder {
            Holder::Driver(held) => (held.same_open_file_as(fd, os::held_generation())
                == Some(true))
            .then_some(HeldBy::Driver),
            Holder::Layer(held) => held.still_held().then_some(HeldBy::Layer),
        }
    }

    /// A number the layer held that the process closed or replaced since.
    fn lost(&self) -> Option<Lost> {
        match &self.holder {
            Holder::Layer(held) if !held.still_held() => Some(Lost {
                number: self.number,
                into: self.into,
            }),
            _ => None,
        }
    }
}

/// The number of an fd the driver closed at its import, which the layer held, found closed or
/// replaced by the process when the import's memory was freed or its device destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost {
    pub number: i32,
    pub into: ImportedInto,
}

static CONSUMED: Mutex<Vec<Consumed>> = Mutex::new(Vec::new());
/// How many are remembered (written under the lock): most calls read only this.
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// The numbers remembered, one bit each (`number % 64`, written under the lock): a command that
/// returns a number none of them shares reads only this.
static NUMBERS: AtomicU64 = AtomicU64::new(0);

/// The bit of `number` in [`NUMBERS`].
#[inline(always)]
fn number_bit(number: i32) -> u64 {
    1 << (number as u32 % 64)
}

/// Before an import of `fd` goes down: the layer's descriptor of the open file description the
/// app hands over (taken before the driver may close the number and another thread reuse it).
pub fn before_import(fd: i32) -> Option<HeldFile> {
    (COUNT.load(Ordering::Acquire) < LIMIT)
        .then(|| os::hold_open_file(fd))
        .flatten()
}

/// After a successful import of `fd` into `into` (an allocation), with what [`before_import`]
/// held: remembered as the driver's if the number still refers to that open file description
/// (the driver kept the fd), else held by the layer if the number is still free (the driver
/// closed it).
pub fn remember(fd: i32, held: HeldFile, into: ImportedInto) {
    if let Some(holder) = holder(fd, held) {
        store(fd, holder, into, |c| c.number == fd);
    }
}

/// [`remember`] for a semaphore or fence, which imports again and again (a sync file each
/// frame): only its latest import is remembered, and the numbers of its earlier ones (and of an
/// earlier import of the same number) the process closed or replaced since are returned.
pub fn remember_replacing(fd: i32, held: HeldFile, into: ImportedInto) -> Vec<Lost> {
    let mut lost = Vec::new();
    if let Some(holder) = holder(fd, held) {
        store(fd, holder, into, |c| {
            let replaced = c.number == fd || c.into == into;
            if replaced {
                lost.extend(c.lost());
            }
            replaced
        });
    }
    lost
}

/// Who holds the number `fd` after its import succeeded (`held`: what [`before_import`] took);
/// none if another thread took the number since the driver closed it: it is theirs.
#[inline(always)]
fn holder(fd: i32, held: HeldFile) -> Option<Holder> {
    if held.same_open_file_as(fd, os::held_generation()) == Some(true) {
        Some(Holder::Driver(held))
    } else {
        drop(held); // Of the imported file: the driver has its own now.
        os::hold_number(fd).map(Holder::Layer)
    }
}

/// Remembers the consumed `fd`, after forgetting those `replaced` picks.
#[inline(always)]
fn store(fd: i32, holder: Holder, into: ImportedInto, mut replaced: impl FnMut(&Consumed) -> bool) {
    let mut consumed = CONSUMED.lock();
    // The numbers of what stays, gathered in the same pass.
    let mut numbers = 0;
    consumed.retain(|c| {
        let keep = !replaced(c);
        if keep {
            numbers |= number_bit(c.number);
        }
        keep
    });
    if consumed.len() < LIMIT {
        consumed.push(Consumed {
            number: fd,
            holder,
            into,
        });
        numbers |= number_bit(fd);
    }
    NUMBERS.store(numbers, Ordering::Release);
    crate::features::import_matching::state::opaque_exports::set_count(&COUNT, consumed.len());
}

/// After a call that named the consumed `fd` again (a misuse reported already) and may have
/// closed it (a driver that closes an fd it refuses): the number, if the layer held it and it is
/// free now, held again, so that the first importer's entry stays whole and nothing is reported
/// twice for the one misuse.
pub fn hold_again(fd: i32) {
    if !any() {
        return;
    }
    let mut consumed = CONSUMED.lock();
    for c in consumed.iter_mut().filter(|c| c.number == fd) {
        if let Holder::Layer(held) = &c.holder {
            if !held.still_held() {
                if let Some(number) = os::hold_number(fd) {
                    c.holder = Holder::Layer(number);
                }
            }
        }
    }
}

/// The allocation, semaphore or fence `fd` was already imported into, and who holds it, if it is such a consumed fd.
pub fn imported_into(fd: i32) -> Option<(ImportedInto, HeldBy)> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return None;
    }
    let consumed = CONSUMED.lock();
    consumed
        .iter()
        .find_map(|c| c.is(fd).map(|by| (c.into, by)))
}

/// Whether any import is remembered: the common call reads only this.
#[inline(always)]
pub fn any() -> bool {
    COUNT.load(Ordering::Acquire) != 0
}

/// Forgets the consumed fds `drop` picks (the layer's memfds closed, if still theirs): the
/// numbers among them the process closed or replaced.
#[cold]
#[inline(never)]
fn forget(drop: &dyn Fn(&Consumed) -> bool) -> Vec<Lost> {
    let mut lost = Vec::new();
    let mut consumed = CONSUMED.lock();
    consumed.retain(|c| {
        let keep = !drop(c);
        if !keep {
            lost.extend(c.lost());
        }
        keep
    });
    note_numbers(&consumed);
    crate::features::import_matching::state::opaque_exports::set_count(&COUNT, consumed.len());
    lost
}

/// [`NUMBERS`] of what `consumed` remembers now (under its lock).
#[inline(always)]
fn note_numbers(consumed: &[Consumed]) {
    let numbers = consumed
        .iter()
        .fold(0, |bits, c| bits | number_bit(c.number));
    NUMBERS.store(numbers, Ordering::Release);
}

/// A command returned the number `fd` to the app (`pipeline::export::call_down_fd`): it is a
/// new fd of the app's, whatever an import did with the number before (a number the layer held
/// can only be handed out after the process closed it: that goes unreported).
#[inline(always)]
pub fn returned_to_app(fd: i32) {
    if NUMBERS.load(Ordering::Acquire) & number_bit(fd) != 0 && fd >= 0 {
        forget(&|c| c.number == fd);
    }
}

/// Before `vkFreeMemory` of `memory` goes down: the numbers of its import the process closed.
#[inline(always)]
pub fn forget_memory(device: u64, memory: u64) -> Vec<Lost> {
    if !any() {
        return Vec::new();
    }
    forget(&|c| c.into.is(ImportKind::Memory, device, memory))
}

/// Before `object` (a memory freed, a semaphore or fence destroyed) goes: the numbers of its
/// import the process closed.
#[inline(always)]
pub fn forget_object(object: ImportedInto) -> Vec<Lost> {
    if !any() {
        return Vec::new();
    }
    forget(&|c| c.into.is(object.kind, object.device, object.object))
}

/// At `vkDestroyDevice`: the numbers of its imports the process closed.
pub fn forget_device(device: u64) -> Vec<Lost> {
    if !any() {
        return Vec::new();
    }
    forget(&|c| c.into.device == device)
}

/// The numbers of the descriptors the layer holds: not the app's.
pub fn held_numbers() -> Vec<i32> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return Vec::new();
    }
    let consumed = CONSUMED.lock();
    consumed
        .iter()
        .map(|c| match &c.holder {
            Holder::Driver(held) => held.number(),
            Holder::Layer(held) => held.number(),
        })
        .collect()
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
        let into = ImportedInto::memory(0xd1, 0x71);
        let file = std::fs::File::open("/proc/self/exe").expect("open");
        let fd = file.as_raw_fd();
        remember(fd, before_import(fd).expect("held"), into);
        assert_eq!(imported_into(fd), Some((into, HeldBy::Driver)));
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
        assert_eq!(imported_into(fd), Some((into, HeldBy::Driver)));
        assert!(forget_memory(0xd1, 0x71).is_empty());
        assert_eq!(imported_into(fd), None);
        drop((file, copy, again));
        a_number_the_driver_closed_is_held_by_the_layer(into);
    }

    /// (Run after the test above, on the same process-wide table.)
    fn a_number_the_driver_closed_is_held_by_the_layer(into: ImportedInto) {
        use std::os::fd::IntoRawFd;
        for app_closes in [false, true] {
            let fd = std::fs::File::open("/dev/null")
                .expect("open")
                .into_raw_fd();
            let held = before_import(fd).expect("held");
            // SAFETY: the driver's close at the import, of the test's own descriptor.
            unsafe { libc::close(fd) };
            remember(fd, held, into);
            let Some((found, by)) = imported_into(fd) else {
                continue; // Another test thread took the number in between: nothing to judge.
            };
            assert_eq!((found, by), (into, HeldBy::Layer));
            if app_closes {
                // SAFETY: the app's double close, of the layer's memfd under the number.
                unsafe { libc::close(fd) };
                assert_eq!(imported_into(fd), None);
                assert_eq!(forget_memory(0xd1, 0x71), [Lost { number: fd, into }]);
            } else {
                assert!(forget_memory(0xd1, 0x71).is_empty());
                assert_eq!(imported_into(fd), None);
            }
        }
    }
}
