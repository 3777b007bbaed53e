//! Payloads of semaphores and fences, and the handles that name them outside the driver.
//!
//! A payload is a value: 0 or 1 (unsignalled, signalled) for binary semaphores and fences, the
//! counter of a timeline semaphore. It lives in the driver's memory until its first
//! `OPAQUE_FD` export, from then on in a small memfd (a header naming what it is, then the
//! value), so that every process that imports the fd shares it for real. `OPAQUE_FD` exports are
//! new descriptors of that memfd; an import recognises the payload by the file's inode (in the
//! exporting process) or by its header (in another), and takes the app's fd (closes it). With
//! `"fd_export": "device_file"` they are made as memory's are (`crate::device_file`, as
//! NVIDIA's driver does): every export a new open file description of the shared device, which
//! an import in the exporting process resolves to the payload file; one of another process the
//! driver cannot resolve, and the import gets a new payload.
//!
//! `SYNC_FD` exports are copy transference: a new memfd whose header says "sync file" and
//! whose value is the signal state, or -1 (a valid, signalled sync file) with
//! `signaled_sync_fd_minus_one`. Win32 handles and Zircon events are made-up values that the
//! driver maps back to the payload they name.

use ash::vk;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::device_file;
use crate::memory::{handle_value, type_index};
use crate::objects::{lock, Map, Set};

/// What a payload belongs to; written into its file so that an import can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    BinarySemaphore = 1,
    TimelineSemaphore = 2,
    Fence = 3,
    /// A `SYNC_FD` export (a copy of a signal state, never a semaphore's or fence's payload).
    SyncFile = 4,
}

impl Kind {
    fn from_raw(raw: u32) -> Option<Kind> {
        Some(match raw {
            1 => Kind::BinarySemaphore,
            2 => Kind::TimelineSemaphore,
            3 => Kind::Fence,
            4 => Kind::SyncFile,
            _ => return None,
        })
    }
}

/// The first bytes of every payload file.
const MAGIC: &[u8; 16] = b"exportcheck-sync";
/// Where the kind (u32) and the value (u64) are in the file.
const KIND_OFFSET: i64 = 16;
const VALUE_OFFSET: i64 = 24;
const FILE_SIZE: usize = 32;

/// The lowest number of the driver's own payload files: away from the low numbers an app
/// reasons about (a test that closes an fd and reuses its number must not hit one).
const OWN_FD_FLOOR: libc::c_int = 256;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One payload, shared by every semaphore or fence that imported it.
pub struct Payload {
    pub id: u64,
    pub kind: Kind,
    state: Mutex<State>,
}

struct State {
    value: u64,
    /// The memfd holding the value, from the first `OPAQUE_FD` export or import on.
    file: Option<OwnedFd>,
}

impl Payload {
    pub fn new(kind: Kind, value: u64) -> Arc<Payload> {
        Arc::new(Payload {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind,
            state: Mutex::new(State { value, file: None }),
        })
    }

    /// The current value (from the file once there is one: another process may have changed it).
    pub fn value(&self) -> u64 {
        let state = lock(&self.state);
        match &state.file {
            Some(f) => read_u64(f.as_raw_fd(), VALUE_OFFSET).unwrap_or(state.value),
            None => state.value,
        }
    }

    pub fn signaled(&self) -> bool {
        self.value() != 0
    }

    pub fn set(&self, value: u64) {
        let mut state = lock(&self.state);
        state.value = value;
        if let Some(f) = &state.file {
            write_bytes(f.as_raw_fd(), VALUE_OFFSET, &value.to_ne_bytes());
        }
    }
}

impl Drop for Payload {
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(file) = state.file.take() {
            let mut files = lock(files());
            files.own.remove(&file.as_raw_fd());
            // Unless an import of the file (after this payload's last reference went) has
            // registered a payload of its own for the inode.
            if let Some(id) = inode_of(file.as_raw_fd()) {
                if files
                    .by_inode
                    .get(&id)
                    .is_some_and(|w| w.strong_count() == 0)
                {
                    files.by_inode.remove(&id);
                }
            }
            // Closed while the registry is locked: no import can claim the number in between.
            drop(file);
        }
    }
}

/// The payload files of this process: by inode (for imports) and their descriptor numbers
/// (importing one of those is refused instead of ending with a double close).
#[derive(Default)]
struct Files {
    by_inode: Map<(u64, u64), Weak<Payload>>,
    own: Set<RawFd>,
}

fn files() -> &'static Mutex<Files> {
    static FILES: std::sync::OnceLock<Mutex<Files>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| Mutex::new(Files::default()))
}

fn inode_of(fd: RawFd) -> Option<(u64, u64)> {
    // SAFETY: fstat only writes to the local buffer; a bad fd makes it fail with EBADF.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::fstat(fd, &mut st) } != 0 || st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return None;
    }
    Some((st.st_dev, st.st_ino))
}

fn read_u64(fd: RawFd, offset: i64) -> Option<u64> {
    let mut buf = [0u8; 8];
    // SAFETY: pread writes at most 8 bytes into the local buffer.
    let n = unsafe { libc::pread(fd, buf.as_mut_ptr().cast(), 8, offset) };
    (n == 8).then(|| u64::from_ne_bytes(buf))
}

fn write_bytes(fd: RawFd, offset: i64, bytes: &[u8]) -> bool {
    // SAFETY: pwrite reads `bytes.len()` bytes from the slice.
    let n = unsafe { libc::pwrite(fd, bytes.as_ptr().cast(), bytes.len(), offset) };
    n == bytes.len() as isize
}

/// The kind and value in a payload file's header, if `fd` is one.
fn read_header(fd: RawFd) -> Option<(Kind, u64)> {
    let mut buf = [0u8; FILE_SIZE];
    // SAFETY: pread writes at most FILE_SIZE bytes into the local buffer.
    let n = unsafe { libc::pread(fd, buf.as_mut_ptr().cast(), FILE_SIZE, 0) };
    if n != FILE_SIZE as isize || &buf[..16] != MAGIC {
        return None;
    }
    let kind = u32::from_ne_bytes(buf[16..20].try_into().ok()?);
    let value = u64::from_ne_bytes(buf[24..32].try_into().ok()?);
    Some((Kind::from_raw(kind)?, value))
}

/// A new memfd holding a payload file of `kind` and `value`.
fn new_file(kind: Kind, value: u64) -> Result<OwnedFd, vk::Result> {
    // SAFETY: a NUL-terminated name and valid flags.
    let fd = unsafe { libc::memfd_create(c"exportcheck-icd-sync".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(vk::Result::ERROR_TOO_MANY_OBJECTS);
    }
    // SAFETY: a descriptor memfd_create has just made, owned by nothing else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let raw = fd.as_raw_fd();
    let ok = write_bytes(raw, 0, MAGIC)
        && write_bytes(raw, KIND_OFFSET, &(kind as u32).to_ne_bytes())
        && write_bytes(raw, VALUE_OFFSET, &value.to_ne_bytes());
    if !ok {
        return Err(vk::Result::ERROR_OUT_OF_HOST_MEMORY);
    }
    Ok(fd)
}

/// A close-on-exec duplicate of `fd` numbered from `floor` up.
fn dup_from(fd: RawFd, floor: libc::c_int) -> Result<OwnedFd, vk::Result> {
    // SAFETY: fcntl on a descriptor the caller holds; a failure is an error, not UB.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, floor) };
    if new < 0 {
        return Err(vk::Result::ERROR_TOO_MANY_OBJECTS);
    }
    // SAFETY: a descriptor fcntl has just made, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// Registers `file` (a high-numbered payload file) as `payload`'s.
fn adopt(files: &mut Files, payload: &Arc<Payload>, file: &OwnedFd) {
    files.own.insert(file.as_raw_fd());
    if let Some(id) = inode_of(file.as_raw_fd()) {
        files.by_inode.insert(id, Arc::downgrade(payload));
    }
}

/// The end of a semaphore's or fence's export entry point: the handle written to `out`, or the
/// error code (no object found: `VK_ERROR_UNKNOWN`).
pub fn finish_export<T: Copy>(result: Option<Result<T, vk::Result>>, out: &mut T) -> vk::Result {
    match result {
        Some(Ok(h)) => {
            *out = h;
            vk::Result::SUCCESS
        }
        Some(Err(e)) => e,
        None => vk::Result::ERROR_UNKNOWN,
    }
}

/// Whether the device's `OPAQUE_FD` exports are open file descriptions of the shared device
/// (`"fd_export": "device_file"`).
pub fn device_file(dev: &crate::device::Device) -> bool {
    dev.config.fd_export == crate::config::FdExport::DeviceFile
}

/// `OPAQUE_FD` export: a new descriptor (close-on-exec) of the payload's file, made now (with
/// the current value) if it has none yet; with `device_file` (`"fd_export": "device_file"`), a
/// new open file description of the shared device that names that file instead
/// ([`device_file::export`]). The app owns it.
pub fn export_opaque_fd(payload: &Arc<Payload>, device_file: bool) -> Result<RawFd, vk::Result> {
    let mut files = lock(files());
    let mut state = lock(&payload.state);
    if state.file.is_none() {
        let made = new_file(payload.kind, state.value)?;
        let file = dup_from(made.as_raw_fd(), OWN_FD_FLOOR)?;
        adopt(&mut files, payload, &file);
        state.file = Some(file);
    }
    let file = state.file.as_ref().map_or(-1, |f| f.as_raw_fd());
    if device_file {
        return device_file::export(file, 0, true);
    }
    let fd = dup_from(file, 0)?;
    Ok(std::os::fd::IntoRawFd::into_raw_fd(fd))
}

/// Why an `OPAQUE_FD` import failed.
#[derive(Debug, PartialEq, Eq)]
pub enum ImportError {
    /// Not a payload file of this driver, a closed fd, or one of the driver's own.
    Invalid,
    /// A payload file of another kind (e.g. a binary semaphore's, imported into a timeline one).
    OtherKind(Kind),
}

/// `OPAQUE_FD` import of `fd` into an object of `kind`: the payload it names (the same one in
/// the exporting process, else one that shares the file). On success the driver has taken the
/// fd (it is closed); on failure it is left to the app. With `device_file`, an open file
/// description of the shared device names the payload file it was exported from in this
/// process; one of another process a new payload of `kind` (unsignalled, shared with nobody:
/// the driver cannot resolve it, nor tell its kind).
pub fn import_opaque_fd(
    fd: RawFd,
    kind: Kind,
    device_file: bool,
) -> Result<Arc<Payload>, ImportError> {
    let payload = resolve_opaque_fd(fd, kind, device_file)?;
    // SAFETY: a successful import hands the fd to the driver (Vulkan contract), which closes it.
    unsafe { libc::close(fd) };
    Ok(payload)
}

/// [`import_opaque_fd`] without the close: the payload `fd` names, the fd left open (a driver
/// that keeps it, as SwiftShader does, takes it over itself).
pub fn resolve_opaque_fd(
    fd: RawFd,
    kind: Kind,
    device_file: bool,
) -> Result<Arc<Payload>, ImportError> {
    let mut files = lock(files());
    if fd < 0 || files.own.contains(&fd) {
        return Err(ImportError::Invalid);
    }
    let payload = if device_file && device_file::is_export(fd) {
        match device_file::resolve(fd, 0).map_err(|_| ImportError::Invalid)? {
            Some(file) => payload_of_file(&mut files, file.as_raw_fd(), kind)?,
            None => Payload::new(kind, 0),
        }
    } else {
        payload_of_file(&mut files, fd, kind)?
    };
    Ok(payload)
}

/// The payload of the payload file `fd` (found by its inode, or adopted: a file of another
/// process), if it is one of `kind`.
fn payload_of_file(files: &mut Files, fd: RawFd, kind: Kind) -> Result<Arc<Payload>, ImportError> {
    let id = inode_of(fd).ok_or(ImportError::Invalid)?;
    let (found, value) = read_header(fd).ok_or(ImportError::Invalid)?;
    if found == Kind::SyncFile {
        return Err(ImportError::Invalid);
    }
    if found != kind {
        return Err(ImportError::OtherKind(found));
    }
    if let Some(p) = files.by_inode.get(&id).and_then(Weak::upgrade) {
        return Ok(p);
    }
    let file = dup_from(fd, OWN_FD_FLOOR).map_err(|_| ImportError::Invalid)?;
    let payload = Arc::new(Payload {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        kind,
        state: Mutex::new(State { value, file: None }),
    });
    adopt(files, &payload, &file);
    lock(&payload.state).file = Some(file);
    Ok(payload)
}

/// `SYNC_FD` export of a signalled payload: a new sync file (close-on-exec, owned by the app),
/// or -1 (`minus_one`: a valid, signalled sync file).
pub fn export_sync_file(minus_one: bool) -> Result<RawFd, vk::Result> {
    if minus_one {
        return Ok(-1);
    }
    let fd = new_file(Kind::SyncFile, 1)?;
    Ok(std::os::fd::IntoRawFd::into_raw_fd(fd))
}

/// `SYNC_FD` import: whether the sync file `fd` is signalled (-1 is). The fd is closed on
/// success; `None` (and the fd left alone) for anything but a sync file of this driver.
pub fn import_sync_file(fd: RawFd) -> Option<bool> {
    if fd == -1 {
        return Some(true);
    }
    let files = lock(files());
    if fd < 0 || files.own.contains(&fd) {
        return None;
    }
    inode_of(fd)?;
    let (Kind::SyncFile, value) = read_header(fd)? else {
        return None;
    };
    // SAFETY: a successful import hands the fd to the driver (Vulkan contract), which closes it.
    unsafe { libc::close(fd) };
    Some(value != 0)
}

/// Base of the Win32 handles of semaphore payloads (`vkGetSemaphoreWin32HandleKHR`).
pub const SEMAPHORE_WIN32_BASE: u64 = 0x5300_0000_0000;
/// Base of the Win32 handles of fence payloads (`vkGetFenceWin32HandleKHR`).
pub const FENCE_WIN32_BASE: u64 = 0x4600_0000_0000;
/// Base of the `zx_handle_t` values of Zircon events (`vkGetSemaphoreZirconHandleFUCHSIA`).
pub const ZIRCON_EVENT_BASE: u32 = 0x3000_0000;

/// Made-up handles exported so far and the payloads they name (a handle keeps its payload
/// alive, as an NT handle holds a reference).
fn handles() -> &'static Mutex<Map<u64, Arc<Payload>>> {
    static HANDLES: std::sync::OnceLock<Mutex<Map<u64, Arc<Payload>>>> = std::sync::OnceLock::new();
    HANDLES.get_or_init(|| Mutex::new(Map::default()))
}

/// The Win32 handle of `payload` for `handle_type` (`base` says semaphore or fence): non-zero,
/// stable, distinct per payload and handle type.
pub fn export_win32(base: u64, payload: &Arc<Payload>, handle_type: u32) -> u64 {
    let value = handle_value(base, payload.id, handle_type);
    lock(handles()).insert(value, payload.clone());
    value
}

/// The `zx_handle_t` of `payload`'s Zircon event (the payload number wraps at 2^21).
pub fn export_zircon(payload: &Arc<Payload>, handle_type: u32) -> u32 {
    let value = zircon_value(payload.id, handle_type);
    lock(handles()).insert(u64::from(value), payload.clone());
    value
}

fn zircon_value(id: u64, handle_type: u32) -> u32 {
    ZIRCON_EVENT_BASE | (((id & 0x1f_ffff) as u32) << 8) | type_index(handle_type) as u32
}

/// The payload named by a Win32 handle this driver exported from `base`'s kind of object as
/// `handle_type`, if it is of `kind`.
pub fn import_win32(base: u64, handle: u64, handle_type: u32, kind: Kind) -> Option<Arc<Payload>> {
    let payload = lock(handles()).get(&handle).cloned()?;
    (handle_value(base, payload.id, handle_type) == handle && payload.kind == kind)
        .then_some(payload)
}

/// The payload named by a Zircon event handle this driver exported, if it is of `kind`.
pub fn import_zircon(handle: u32, handle_type: u32, kind: Kind) -> Option<Arc<Payload>> {
    let payload = lock(handles()).get(&u64::from(handle)).cloned()?;
    (zircon_value(payload.id, handle_type) == handle && payload.kind == kind).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_fds_share_the_payload_and_are_taken_by_an_import() {
        let p = Payload::new(Kind::BinarySemaphore, 0);
        let fd = export_opaque_fd(&p, false).unwrap();
        assert!(fd >= 0);
        let inode = inode_of(fd);
        let q = import_opaque_fd(fd, Kind::BinarySemaphore, false).unwrap();
        assert!(Arc::ptr_eq(&p, &q));
        // Closed by the import (the number may name another thread's file by now).
        assert_ne!(inode_of(fd), inode);
        q.set(1);
        assert!(p.signaled());
    }

    #[test]
    fn a_payload_file_of_another_process_is_adopted() {
        // A file the driver did not make in this process: as if another process exported it.
        let file = new_file(Kind::TimelineSemaphore, 7).unwrap();
        let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
        let p = import_opaque_fd(fd, Kind::TimelineSemaphore, false).unwrap();
        assert_eq!(p.value(), 7);
        p.set(9);
        let again = export_opaque_fd(&p, false).unwrap();
        assert_eq!(read_header(again), Some((Kind::TimelineSemaphore, 9)));
        let q = import_opaque_fd(again, Kind::TimelineSemaphore, false).unwrap();
        assert!(
            Arc::ptr_eq(&p, &q),
            "the adopted file is known by its inode"
        );
    }

    #[test]
    fn an_fd_of_another_kind_is_named_not_taken() {
        let p = Payload::new(Kind::BinarySemaphore, 0);
        let fd = export_opaque_fd(&p, false).unwrap();
        assert_eq!(
            import_opaque_fd(fd, Kind::TimelineSemaphore, false).err(),
            Some(ImportError::OtherKind(Kind::BinarySemaphore))
        );
        // SAFETY: the fd is still the caller's.
        assert_eq!(unsafe { libc::close(fd) }, 0);
    }

    #[test]
    fn device_file_exports_name_their_payload_in_this_process() {
        let p = Payload::new(Kind::TimelineSemaphore, 5);
        let fd = export_opaque_fd(&p, true).unwrap();
        assert!(
            device_file::is_export(fd),
            "an open file description of the device"
        );
        assert_eq!(read_header(fd), None, "no payload file itself");
        // Another kind: named, not taken.
        assert_eq!(
            import_opaque_fd(fd, Kind::BinarySemaphore, true).err(),
            Some(ImportError::OtherKind(Kind::TimelineSemaphore))
        );
        let q = import_opaque_fd(fd, Kind::TimelineSemaphore, true).unwrap();
        assert!(Arc::ptr_eq(&p, &q), "the very payload");
        // A payload file (a memfd export of a process in the other mode) is still taken.
        let file = new_file(Kind::BinarySemaphore, 1).unwrap();
        let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
        let r = import_opaque_fd(fd, Kind::BinarySemaphore, true).unwrap();
        assert!(r.signaled());
    }

    #[test]
    fn sync_files_carry_a_signal_state() {
        let fd = export_sync_file(false).unwrap();
        assert!(fd >= 0);
        let inode = inode_of(fd);
        assert_eq!(import_sync_file(fd), Some(true));
        assert_ne!(inode_of(fd), inode, "closed by the import");
        assert_eq!(import_sync_file(-1), Some(true));
        let opaque = export_opaque_fd(&Payload::new(Kind::Fence, 1), false).unwrap();
        assert_eq!(
            import_sync_file(opaque),
            None,
            "an opaque fd is no sync file"
        );
        // SAFETY: the fd is still the caller's.
        assert_eq!(unsafe { libc::close(opaque) }, 0);
    }

    #[test]
    fn handles_name_their_payload_and_type() {
        let p = Payload::new(Kind::Fence, 0);
        let h = export_win32(FENCE_WIN32_BASE, &p, 2);
        assert_eq!(h, export_win32(FENCE_WIN32_BASE, &p, 2));
        assert!(import_win32(FENCE_WIN32_BASE, h, 2, Kind::Fence).is_some());
        assert!(import_win32(FENCE_WIN32_BASE, h, 4, Kind::Fence).is_none());
        assert!(import_win32(SEMAPHORE_WIN32_BASE, h, 2, Kind::Fence).is_none());
        let s = Payload::new(Kind::BinarySemaphore, 0);
        let z = export_zircon(&s, 0x80);
        assert_ne!(z, 0);
        assert!(import_zircon(z, 0x80, Kind::BinarySemaphore).is_some());
        assert!(import_zircon(z, 0x80, Kind::TimelineSemaphore).is_none());
    }
}
