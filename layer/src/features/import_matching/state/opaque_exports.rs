//! The opaque fds `vkGetMemoryFdKHR` returned in this process, with the allocation each was
//! exported from, so that an import of one is checked against that allocation
//! (`VUID-VkMemoryAllocateInfo-allocationSize-01742`, `VUID-VkMemoryDedicatedAllocateInfo-*`).
//!
//! **How an fd is recognised.** Not by its number (the app may close it and the number be
//! reused), and not by its file's identity alone (`fstat`'s device and inode: a driver whose
//! exports are descriptors of one character device gives every export the same identity). The
//! layer holds a descriptor of its own of each export's *open file description*
//! ([`os::hold_open_file`], `F_DUPFD_CLOEXEC`), and an imported fd is the export's exactly when
//! `kcmp(KCMP_FILE)` says both refer to that open file description ([`os::same_open_file`]):
//! what `dup`, `dup2`, `fork` and sending the fd over a socket preserve, and what a closed and
//! reused number, or another file, never has. The file identity only narrows the candidates.
//!
//! **What holding costs.** One descriptor per open file description exported (a driver that
//! returns a `dup` of one descriptor of its own for every export of an allocation: one per
//! memory object; one that makes a new open file description per export, as NVIDIA's does: one
//! per export), at most [`PER_ALLOCATION`] per memory object and [`LIMIT`] in the process, and all
//! the layer's held descriptors together within [`os::held_file_budget`], a sixteenth of the soft
//! open-file limit; past any of them the oldest export is let go (its imports go unchecked),
//! numbered high (see [`os::hold_open_file`]). It is closed when the exporting memory is freed or
//! its device destroyed: the memory keeps its payload alive until then anyway, so the layer keeps
//! nothing alive that the app's own objects do not. An import after that is not checked. Before
//! an export recorded in the shared directory by its descriptor's number is let go, its record
//! is retired (`features::cross_process::state`).

mod index;
mod table;

use crate::os::{self, FileId, HeldFile};
use crate::state::device_groups::PhysicalDevices;
use ash::vk;
use index::Key;
use parking_lot::{Mutex, MutexGuard};
use table::Table;

/// The held exports, indexed by allocation.
type HeldTable = Table<Held, { 2 * LIMIT }, PER_ALLOCATION>;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The most exports held at once in the process.
pub const LIMIT: usize = 256;

/// The allocation an opaque fd was exported from, as `vkAllocateMemory` was given it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOrigin {
    pub device: u64,
    pub memory: u64,
    pub size: vk::DeviceSize,
    pub memory_type_index: u32,
    /// The payload was created by that allocation (it imported nothing): only then are its
    /// size, type and dedicated resource those "specified when the payload was created".
    pub created_here: bool,
    /// The image or buffer the allocation was dedicated to, if any.
    pub dedicated_to: Option<(vk::ObjectType, u64)>,
    /// The `deviceUUID` of the exporting device's physical device, if the layer knows it.
    pub device_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The `driverUUID` of the exporting device's physical device, if the layer knows it.
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The physical devices of the exporting device.
    pub physical_devices: PhysicalDevices,
    /// The device mask the allocation was made with, if the layer knows it.
    pub device_mask: Option<DeviceMask>,
    /// The process that exported it, when the layer learnt of the export from the shared
    /// directory (`features::cross_process::state`) rather than saw it in this process: its `device`,
    /// `memory` and dedicated resource are then that process's handles, never to be compared
    /// with this one's.
    pub exporter: Option<Exporter>,
}

/// The process that exported a payload, and how, as the shared directory records it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exporter {
    pub pid: u32,
    /// Its name (`/proc/<pid>/comm`), NUL-padded.
    pub name: [u8; 16],
    /// The handle type it exported the payload as.
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
}

impl Exporter {
    /// Its name as text.
    pub fn name(&self) -> String {
        let end = self.name.iter().position(|&b| b == 0).unwrap_or(16);
        String::from_utf8_lossy(&self.name[..end]).into_owned()
    }
}

/// A device mask, and whether the app named it (`VkMemoryAllocateFlagsInfo` with
/// `VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT`) or it is the default: all the device's physical devices
/// for a memory type whose heap has `VK_MEMORY_HEAP_MULTI_INSTANCE_BIT`, else a single instance,
/// "as if deviceMask is set to one" (`VkMemoryAllocateFlagsInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceMask {
    pub mask: u32,
    pub named: bool,
}

impl DeviceMask {
    /// The mask an allocation of a device of `physical_devices` is made with: `named`, or the
    /// default of its memory type's heap (`heap_multi_instance`: whether that heap has
    /// `VK_MEMORY_HEAP_MULTI_INSTANCE_BIT`, if the layer knows).
    pub fn of(
        named: Option<u32>,
        physical_devices: PhysicalDevices,
        heap_multi_instance: Option<bool>,
    ) -> Option<Self> {
        let mask = match (named, heap_multi_instance) {
            (Some(mask), _) => return Some(Self { mask, named: true }),
            (None, Some(true)) => physical_devices.all_mask()?,
            (None, Some(false)) => 1,
            (None, None) => return None,
        };
        Some(Self { mask, named: false })
    }
}

struct Held {
    file: FileId,
    held: HeldFile,
    origin: ExportOrigin,
    /// The file is shared with other payloads and the process shares its exports: the shared
    /// directory records this export by the held descriptor's number, and is told before it goes
    /// ([`let_go`]).
    shared_record: bool,
    /// An import in this process handed this open file description to the driver: its fds are
    /// the driver's now, never the app's leaks.
    imported: bool,
}

impl table::Entry for Held {
    fn key(&self) -> Key {
        (self.origin.device, self.origin.memory)
    }

    fn number(&self) -> i32 {
        self.held.number()
    }
}

static EXPORTS: Mutex<HeldTable> = Mutex::new(HeldTable::new());
/// How many exports are held (written under the lock): a free or an import in a process that
/// holds none reads only this.
static HELD: AtomicUsize = AtomicUsize::new(0);

/// Everything this module, `consumed_fds` and `kmt_exports` hold, summed: a `vkFreeMemory` in a
/// process that holds nothing reads only this.
static TRACKED: AtomicUsize = AtomicUsize::new(0);

/// Sets one of the counts to `len` (under its own lock), keeping [`TRACKED`] their sum.
pub(crate) fn set_count(count: &AtomicUsize, len: usize) {
    let old = count.swap(len, Ordering::AcqRel);
    TRACKED.fetch_add(len.wrapping_sub(old), Ordering::AcqRel);
}

/// How many entries this module, `consumed_fds` and `kmt_exports` hold, summed (introspection).
pub fn entries() -> usize {
    TRACKED.load(Ordering::Acquire)
}

/// Whether anything of an export, a global share handle or a consumed fd is held.
#[inline(always)]
pub fn anything_tracked() -> bool {
    TRACKED.load(Ordering::Acquire) != 0
}

/// After `vkGetMemoryFdKHR` returned the opaque fd `fd` for `memory` of `device` (the
/// allocation `origin` describes, asked only when a new export is held): holds its
/// open file description, unless the layer holds it already (a driver that returns a `dup` of
/// one descriptor of its own for every export of an allocation, as Mesa's do: one `kcmp`, and
/// nothing more is held). A driver whose every export is a new open file description (NVIDIA's)
/// gets each held, at most [`PER_ALLOCATION`] of one allocation (the oldest let go first: an
/// app that exports the same memory every frame piles up nothing) and [`LIMIT`] in the process,
/// within the layer's descriptor budget ([`os::held_file_budget`]; past either, the process's
/// oldest export is let go). Returns the number of the layer's descriptor of this export's open
/// file description, if it holds one.
///
/// Inlined to the common case, an export the layer holds already (a lock and a `kcmp`); a new
/// one is held out of line ([`hold`]).
#[inline(always)]
pub fn remember(
    (device, memory): (u64, u64),
    origin: impl FnOnce() -> ExportOrigin,
    fd: i32,
    shared: Shared,
) -> Option<i32> {
    let exports = EXPORTS.lock();
    // A loop rather than `Iterator::find`, which the compiler may keep out of line. A number
    // the program took since (a bulk close) and gave an export of the same memory is that
    // export's description too: taking it as held compares nothing wrong, and its generation
    // keeps it from being closed or matched (`HeldFile`).
    for &known in exports.numbers_of((device, memory)) {
        if os::same_open_file(known, fd) == Some(true) {
            return Some(known);
        }
    }
    hold(exports, (device, memory), origin, fd, shared)
}

/// [`remember`] of an export the layer does not hold yet.
#[inline(never)]
fn hold(
    mut exports: MutexGuard<'_, HeldTable>,
    (device, memory): (u64, u64),
    origin: impl FnOnce() -> ExportOrigin,
    fd: i32,
    shared: Shared,
) -> Option<i32> {
    let_go_lost(&mut exports, shared.retire);
    let of_memory = |e: &Held| e.origin.memory == memory && e.origin.device == device;
    let file = os::file_id(fd)?;
    if exports.numbers_of((device, memory)).len() >= PER_ALLOCATION {
        let oldest = exports.iter().position(of_memory)?;
        let_go(exports.remove(oldest), shared.retire);
    }
    if exports.len() >= LIMIT {
        let_go(exports.remove(0), shared.retire);
    }
    let held = match os::hold_open_file(fd) {
        Some(held) => held,
        // The layer's descriptor budget is spent: let the oldest export go, if it holds any.
        None if !exports.is_empty() => {
            let_go(exports.remove(0), shared.retire);
            os::hold_open_file(fd)?
        }
        None => return None,
    };
    let number = held.number();
    let shared_record = (shared.recorded)(fd);
    exports.push(Held {
        file,
        held,
        origin: origin(),
        shared_record,
        imported: false,
    });
    set_count(&HELD, exports.len());
    Some(number)
}

/// What the shared directory (`features::cross_process::state`, which the commands pass in: this module
/// knows nothing of it) needs of the held exports.
#[derive(Clone, Copy)]
pub struct Shared<'a> {
    /// Whether the directory records the export of `fd` by the held descriptor's number (the
    /// process shares its exports, and the file is shared with other payloads); asked only when
    /// a new export is held.
    pub recorded: &'a dyn Fn(i32) -> bool,
    /// Records that the held descriptor `number` of an export of `file` is let go, before it is;
    /// `false` when it cannot be recorded (the number is then sealed: [`HeldFile::seal_on_drop`]).
    pub retire: Retire<'a>,
}

/// See [`Shared::retire`].
pub type Retire<'a> = &'a dyn Fn(FileId, i32) -> bool;

/// The most open file descriptions of one allocation's exports the layer holds at once.
pub const PER_ALLOCATION: usize = 4;

/// The number of the layer's descriptor of the export whose open file description `fd`
/// refers to, if it holds one.
pub fn held_number_of(fd: i32) -> Option<i32> {
    if HELD.load(Ordering::Acquire) == 0 {
        return None;
    }
    let file = os::file_id(fd)?;
    let generation = os::held_generation();
    EXPORTS
        .lock()
        .iter()
        .filter(|e| e.file == file)
        .find(|e| e.held.same_open_file_as(fd, generation) == Some(true))
        .map(|e| e.held.number())
}

/// After a successful import of the export the layer holds as `held` ([`held_number_of`]
/// before the call): its open file description is the driver's now, and its fds are no leak of
/// the app's.
pub fn mark_imported(held: i32) {
    let mut exports = EXPORTS.lock();
    if let Some(e) = exports.iter_mut().find(|e| e.held.number() == held) {
        e.imported = true;
    }
}

/// Which of `numbers` refer to one of the open file descriptions of `memory`'s exports the layer
/// holds (those an import handed to the driver excepted), by `kcmp`, compared under the table's
/// lock: no other thread lets a held descriptor go, and its number be reused, meanwhile.
pub fn described(device: u64, memory: u64, numbers: &[i32]) -> Vec<i32> {
    if HELD.load(Ordering::Acquire) == 0 || numbers.is_empty() {
        return Vec::new();
    }
    let exports = EXPORTS.lock();
    let held: Vec<i32> = exports
        .iter()
        .filter(|e| e.origin.device == device && e.origin.memory == memory && !e.imported)
        .filter(|e| e.held.is_ours())
        .map(|e| e.held.number())
        .collect();
    numbers
        .iter()
        .copied()
        .filter(|fd| !held.contains(fd))
        .filter(|&fd| {
            held.iter()
                .any(|&h| os::same_open_file(h, fd) == Some(true))
        })
        .collect()
}

/// Before `vkFreeMemory` of `memory`: the layer's descriptors of its exports not imported in
/// this process, taken out of the table (the export is gone for import matching), to be closed
/// by the caller once it looked at the process's fds after the free.
pub fn take_held(device: u64, memory: u64, retire: Retire) -> Vec<HeldFile> {
    if HELD.load(Ordering::Acquire) == 0 {
        return Vec::new();
    }
    let mut exports = EXPORTS.lock();
    if !exports.holds_any_of((device, memory)) {
        return Vec::new();
    }
    let mut taken = Vec::new();
    let of_memory = |e: &Held| e.origin.device == device && e.origin.memory == memory;
    while let Some(i) = exports.iter().position(of_memory) {
        let mut e = exports.remove(i);
        retire_record(&mut e, retire);
        if !e.imported {
            taken.push(e.held);
        }
    }
    set_count(&HELD, exports.len());
    taken
}

/// Drops the exports `drop` selects (closing the layer's descriptors): all of one allocation
/// (`of`), if it names one, which the table's index then finds without a pass when it has none.
#[cold]
#[inline(never)]
fn forget(of: Option<Key>, drop: &dyn Fn(&ExportOrigin) -> bool, retire: Retire) {
    let mut exports = EXPORTS.lock();
    if of.is_some_and(|key| !exports.holds_any_of(key)) {
        return;
    }
    let before = exports.len();
    let mut from = 0;
    while let Some(i) = exports.iter().skip(from).position(|e| drop(&e.origin)) {
        let_go(exports.remove(from + i), retire);
        from += i;
    }
    if exports.len() != before {
        set_count(&HELD, exports.len());
    }
}

/// Before the layer lets the export `e` go: its record in the shared directory is retired, so
/// that no process takes the descriptor's number, once reused, for this export; where that cannot
/// be recorded, the number is sealed instead (it never refers to another file again).
fn retire_record(e: &mut Held, retire: Retire) {
    retire_held(&mut e.held, e.file, e.shared_record, retire);
}

/// Before the layer lets go `held`, its descriptor of an export of `file` that the shared
/// directory records by the descriptor's number (`shared_record`): the record retired, or the
/// number sealed where that cannot be recorded. For every held export of a shared file: memory's
/// here, semaphores' in `sync_exports`.
pub(crate) fn retire_held(held: &mut HeldFile, file: FileId, shared_record: bool, retire: Retire) {
    if shared_record && !retire(file, held.number()) {
        held.seal_on_drop();
    }
}

/// The generation of held descriptors the table's entries are of (`os::held_generation`).
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Lets go the exports held in an older generation of held descriptors than the current one:
/// the program closed or replaced descriptors in bulk since (`close_range`), so their numbers
/// are not the layer's any more. Their records are retired (no other process takes such a number
/// for this export again); nothing is closed. One look at the canary when nothing changed.
#[inline(always)]
fn let_go_lost(exports: &mut HeldTable, retire: Retire) {
    let generation = os::held_generation();
    if GENERATION.load(Ordering::Acquire) != generation {
        let_go_older(exports, generation, retire);
    }
}

#[cold]
#[inline(never)]
fn let_go_older(exports: &mut HeldTable, generation: u64, retire: Retire) {
    while let Some(i) = exports
        .iter()
        .position(|e| e.held.generation() != generation)
    {
        let_go(exports.remove(i), retire);
    }
    set_count(&HELD, exports.len());
    GENERATION.store(generation, Ordering::Release);
}

/// Lets the export `e` go (closing the layer's descriptor), its record retired first.
fn let_go(mut e: Held, retire: Retire) {
    retire_record(&mut e, retire);
    drop(e);
}

/// The allocation `fd` was exported from, if it refers to the open file description of an
/// export the layer holds.
pub fn origin_of(fd: i32) -> Option<ExportOrigin> {
    if HELD.load(Ordering::Acquire) == 0 {
        return None;
    }
    let file = os::file_id(fd)?;
    let generation = os::held_generation();
    let exports = EXPORTS.lock();
    exports
        .iter()
        .filter(|e| e.file == file)
        .find(|e| e.held.same_open_file_as(fd, generation) == Some(true))
        .map(|e| e.origin)
}

/// Before `vkFreeMemory` of `memory` goes down: closes what the layer holds of its exports.
#[inline(always)]
pub fn forget_memory(device: u64, memory: u64, retire: Retire) {
    if HELD.load(Ordering::Acquire) != 0 {
        forget(
            Some((device, memory)),
            &|o| o.device == device && o.memory == memory,
            retire,
        );
    }
}

/// At `vkDestroyDevice`: closes what the layer holds of the device's exports.
pub fn forget_device(device: u64, retire: Retire) {
    forget(None, &|o| o.device == device, retire);
}

/// The numbers of the descriptors the layer holds: not the app's, never one of its leaks.
pub fn held_numbers() -> Vec<i32> {
    if HELD.load(Ordering::Acquire) == 0 {
        return Vec::new();
    }
    EXPORTS
        .lock()
        .iter()
        .filter(|e| e.held.is_ours())
        .map(|e| e.held.number())
        .collect()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    const NOT_SHARED: Shared = Shared {
        recorded: &|_| false,
        retire: &|_, _| true,
    };

    fn origin(memory: u64) -> ExportOrigin {
        ExportOrigin {
            device: 0xd0d0,
            memory,
            size: 4096,
            memory_type_index: 0,
            created_here: true,
            dedicated_to: None,
            device_uuid: None,
            driver_uuid: None,
            physical_devices: Default::default(),
            device_mask: None,
            exporter: None,
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and calls kcmp: system calls Miri isolates"
    )]
    fn an_export_is_found_by_its_open_file_description_not_its_number() {
        let a = std::fs::File::open("/proc/self/exe").expect("open");
        let first = remember((0xd0d0, 0x51), || origin(0x51), a.as_raw_fd(), NOT_SHARED);
        assert!(first.is_some());
        assert_eq!(
            remember((0xd0d0, 0x51), || unreachable!(), a.as_raw_fd(), NOT_SHARED),
            first,
            "the same open file description is held once"
        );
        // A duplicate is the same open file description.
        let copy = a.try_clone().expect("dup");
        assert_eq!(origin_of(copy.as_raw_fd()), Some(origin(0x51)));
        // The same file opened again is another open file description.
        let again = std::fs::File::open("/proc/self/exe").expect("open");
        assert_eq!(origin_of(again.as_raw_fd()), None);
        // The number closed and reused by another file: not the export.
        let number = a.as_raw_fd();
        drop(a);
        let _reused = std::fs::File::open("/dev/null").expect("open");
        assert_eq!(origin_of(number), None);
        // The layer's own descriptor is not one of the low numbers.
        let held = held_numbers();
        assert!(held.iter().all(|&n| n > copy.as_raw_fd()), "{held:?}");
        forget_memory(0xd0d0, 0x51, &|_, _| true);
        assert_eq!(origin_of(copy.as_raw_fd()), None);
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and calls kcmp: system calls Miri isolates"
    )]
    fn each_allocation_finds_its_own_held_exports_when_others_go() {
        let a = std::fs::File::open("/proc/self/exe").expect("open");
        let b = std::fs::File::open("/proc/self/exe").expect("open");
        let held_a = remember((0xd0d0, 0x61), || origin(0x61), a.as_raw_fd(), NOT_SHARED);
        let held_b = remember((0xd0d0, 0x62), || origin(0x62), b.as_raw_fd(), NOT_SHARED);
        assert!(held_a.is_some() && held_b.is_some() && held_a != held_b);
        // Another allocation's export is not this one's, though the file is the same.
        let b_again = remember((0xd0d0, 0x61), || origin(0x61), b.as_raw_fd(), NOT_SHARED);
        assert!(b_again.is_some() && b_again != held_b && b_again != held_a);
        forget_memory(0xd0d0, 0x61, &|_, _| true);
        assert_eq!(origin_of(a.as_raw_fd()), None);
        // The other allocation's export is still held, found again without holding it anew.
        assert_eq!(
            remember((0xd0d0, 0x62), || unreachable!(), b.as_raw_fd(), NOT_SHARED),
            held_b
        );
        let taken = take_held(0xd0d0, 0x62, &|_, _| true);
        assert_eq!(taken.len(), 1);
        assert!(take_held(0xd0d0, 0x62, &|_, _| true).is_empty());
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and calls kcmp: system calls Miri isolates"
    )]
    fn an_allocation_holds_its_newest_exports_when_each_is_a_new_open_file() {
        let files: Vec<_> = (0..=PER_ALLOCATION)
            .map(|_| std::fs::File::open("/proc/self/exe").expect("open"))
            .collect();
        let held: Vec<_> = files
            .iter()
            .map(|f| remember((0xd0d0, 0x71), || origin(0x71), f.as_raw_fd(), NOT_SHARED))
            .collect();
        assert!(held.iter().all(Option::is_some), "{held:?}");
        // The oldest was let go; the others are found again, none held anew.
        assert_eq!(origin_of(files[0].as_raw_fd()), None);
        for (file, number) in files.iter().zip(&held).skip(1) {
            let again = remember(
                (0xd0d0, 0x71),
                || unreachable!(),
                file.as_raw_fd(),
                NOT_SHARED,
            );
            assert_eq!(again, *number);
        }
        assert_eq!(take_held(0xd0d0, 0x71, &|_, _| true).len(), PER_ALLOCATION);
    }
}
