//! `"fd_export": "device_file"`: `OPAQUE_FD` exports as NVIDIA's driver makes them. There every
//! export is a new open file description of `/dev/nvidiactl`, which the driver's own
//! descriptors (opened at `vkCreateInstance`) are open file descriptions of too: one device and
//! inode for all of them; the driver tells which memory an imported fd is by asking the kernel
//! about its open file description, and a successful import closes the app's fd.
//!
//! Here the shared character device is `/dev/ptmx`: every open of it is a new open file
//! description (and a new pseudo-terminal, whose number `TIOCGPTN` tells), of one device and
//! inode. The driver keeps, per pseudo-terminal number, a descriptor of the exported
//! allocation's memfd: an import of the fd in the same process aliases that memory (also after
//! the exporting allocation was freed, as the payload outlives it); an fd the driver cannot
//! resolve (an export of another process) gets new memory of the size asked for. Semaphores'
//! and fences' `OPAQUE_FD` exports are made the same way, of their payload file
//! (`crate::sync_payload`).

use crate::objects::lock;
use ash::vk;
use std::collections::VecDeque;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

/// The character device every export is an open file description of.
const DEVICE: &std::ffi::CStr = c"/dev/ptmx";
/// How many descriptors of the device the driver keeps open itself (NVIDIA's: three in a small
/// app).
const OWN_DESCRIPTORS: usize = 3;
/// Exports remembered for imports (the oldest forgotten past this).
const REMEMBERED: usize = 512;

/// The lowest number of the driver's own copies of allocations' memfds: away from the low
/// numbers an app reasons about (a test that closes an fd and reuses its number must not hit
/// one).
const BOOKKEEPING_FLOOR: libc::c_int = 256;

/// `TIOCGPTN`: the pseudo-terminal number of a `/dev/ptmx` descriptor.
const TIOCGPTN: libc::c_ulong = 0x8004_5430;

/// One export: its pseudo-terminal number, and a descriptor of the allocation's memfd with its
/// size.
struct Export {
    number: u32,
    backing: OwnedFd,
    size: u64,
}

static EXPORTS: Mutex<VecDeque<Export>> = Mutex::new(VecDeque::new());
static OWN: Mutex<Vec<OwnedFd>> = Mutex::new(Vec::new());

/// A new open file description of the device.
fn open_device(cloexec: bool) -> Result<OwnedFd, vk::Result> {
    let flags = libc::O_RDWR | libc::O_NOCTTY | if cloexec { libc::O_CLOEXEC } else { 0 };
    // SAFETY: a NUL-terminated path and valid flags.
    let fd = unsafe { libc::open(DEVICE.as_ptr(), flags) };
    if fd < 0 {
        return Err(vk::Result::ERROR_TOO_MANY_OBJECTS);
    }
    // SAFETY: a descriptor `open` has just made, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The pseudo-terminal number of `fd`, if it is an open file description of the device.
fn number_of(fd: RawFd) -> Option<u32> {
    let mut number: libc::c_uint = 0;
    // SAFETY: TIOCGPTN writes one unsigned int into the local; any other file fails (ENOTTY).
    let r = unsafe { libc::ioctl(fd, TIOCGPTN, &mut number as *mut libc::c_uint) };
    (r == 0).then_some(number)
}

/// The driver's own copy of the memfd `fd`, numbered from [`BOOKKEEPING_FLOOR`] up.
fn copy_high(fd: RawFd) -> Result<OwnedFd, vk::Result> {
    // SAFETY: F_DUPFD_CLOEXEC on a memfd the driver owns; a failure is an error, not UB.
    let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, BOOKKEEPING_FLOOR) };
    if copy < 0 {
        return Err(vk::Result::ERROR_TOO_MANY_OBJECTS);
    }
    // SAFETY: a descriptor fcntl has just made, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(copy) })
}

/// At `vkCreateInstance` in this mode: the driver's own descriptors of the device, kept open
/// for the life of the process (made once).
pub fn open_own_descriptors() {
    let mut own = lock(&OWN);
    while own.len() < OWN_DESCRIPTORS {
        match open_device(true) {
            Ok(fd) => own.push(fd),
            Err(_) => return,
        }
    }
}

/// An export of the allocation whose memfd is `backing` (of `size` bytes): a new open file
/// description of the device, close-on-exec unless `cloexec` is false.
pub fn export(backing: RawFd, size: u64, cloexec: bool) -> Result<RawFd, vk::Result> {
    let fd = open_device(cloexec)?;
    let number = number_of(fd.as_raw_fd()).ok_or(vk::Result::ERROR_UNKNOWN)?;
    let backing = copy_high(backing)?;
    let mut exports = lock(&EXPORTS);
    // A number is reused once its pseudo-terminal is closed: the latest export has it.
    exports.retain(|e| e.number != number);
    if exports.len() == REMEMBERED {
        exports.pop_front();
    }
    exports.push_back(Export {
        number,
        backing,
        size,
    });
    // The app owns the returned descriptor.
    Ok(std::os::fd::IntoRawFd::into_raw_fd(fd))
}

/// An import of `fd` as `OPAQUE_FD` for `size` bytes: a descriptor of the memory it was
/// exported from, or `None` for new memory (an export the driver cannot resolve). The app's fd
/// is closed on success, as NVIDIA's driver does; `Err` (and the fd left alone) if it is no
/// descriptor of the device, or asks for more than the export has.
pub fn import(fd: RawFd, size: u64) -> Result<Option<OwnedFd>, vk::Result> {
    let backing = resolve(fd, size)?;
    // SAFETY: a successful import hands the fd to the driver (Vulkan contract), which closes it.
    unsafe { libc::close(fd) };
    Ok(backing)
}

/// What an `OPAQUE_FD` import of `fd` for `size` bytes takes, the fd left alone: a descriptor of
/// the file it was exported from (memory's memfd, or a semaphore's or fence's payload file), or
/// `None` (an export of another process, which the driver cannot resolve). `Err` if it is no
/// descriptor of the device, or asks for more than the export has.
pub fn resolve(fd: RawFd, size: u64) -> Result<Option<OwnedFd>, vk::Result> {
    let Some(number) = number_of(fd) else {
        return Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE);
    };
    let exports = lock(&EXPORTS);
    match exports.iter().find(|e| e.number == number) {
        Some(e) if e.size < size => Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE),
        Some(e) => Ok(Some(copy_high(e.backing.as_raw_fd())?)),
        None => Ok(None),
    }
}

/// Whether `fd` is an open file description of the device (an export in this mode, of this
/// process or another).
pub fn is_export(fd: RawFd) -> bool {
    number_of(fd).is_some()
}
