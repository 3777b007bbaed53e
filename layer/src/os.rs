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

/// Whether the fds `a` and `b` of this process refer to the same open file description
/// (`kcmp(KCMP_FILE)`): what `dup`, `fork` and `SCM_RIGHTS` share, and a new `open` of the same
/// file does not. `None` where the kernel cannot tell (not Linux, kcmp unavailable or refused, an
/// fd not open).
pub fn same_open_file(a: i32, b: i32) -> Option<bool> {
    let pid = std::process::id();
    kcmp_files(pid, a, pid, b).ok()
}

/// Whether fd `a` of process `pid_a` and fd `b` of process `pid_b` refer to the same open file
/// description (`kcmp(KCMP_FILE)`, which compares them across processes too, for a caller that
/// may read both processes as `ptrace` would: the same user, unless a security module or a
/// seccomp profile says no). `Err(errno)` where the kernel did not tell: `EBADF` (an fd not
/// open), `ESRCH` (no such process), `EPERM` (refused), `ENOSYS` (no kcmp, or not Linux).
#[cfg(target_os = "linux")]
pub fn kcmp_files(pid_a: u32, a: i32, pid_b: u32, b: i32) -> Result<bool, i32> {
    const KCMP_FILE: libc::c_long = 0;
    if a < 0 || b < 0 {
        return Err(libc::EBADF);
    }
    // SAFETY: kcmp only compares kernel objects of the two processes; any pid and fd numbers are
    // valid arguments (a closed fd or a missing process is an error, not undefined behaviour).
    let r = unsafe {
        libc::syscall(
            libc::SYS_kcmp,
            libc::c_long::from(pid_a as i32),
            libc::c_long::from(pid_b as i32),
            KCMP_FILE,
            libc::c_long::from(a),
            libc::c_long::from(b),
        )
    };
    if r < 0 {
        return Err(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::ENOSYS));
    }
    Ok(r == 0)
}

#[cfg(not(target_os = "linux"))]
pub fn kcmp_files(_pid_a: u32, _a: i32, _pid_b: u32, _b: i32) -> Result<bool, i32> {
    Err(38) // ENOSYS
}

/// Whether Linux refuses this process kcmp: `Some(errno)` where it does (`EPERM`: a container's seccomp profile; `ENOSYS`: no kcmp). Asked once per
/// process (a forked child inherits the answer, as it inherits the seccomp filter).
pub fn kcmp_refused() -> Option<i32> {
    static REFUSED: std::sync::OnceLock<Option<i32>> = std::sync::OnceLock::new();
    *REFUSED.get_or_init(|| {
        if cfg!(miri) {
            return Some(38);
        }
        if !cfg!(target_os = "linux") {
            // No kcmp to be refused: the layer knows no open file description there at all.
            return None;
        }
        let pid = std::process::id();
        // Descriptor 0 compared with itself: any open descriptor is the same as itself; one that
        // is not open is EBADF, which says kcmp itself works.
        match kcmp_files(pid, 0, pid, 0) {
            Ok(_) => None,
            Err(e) if e == EBADF => None,
            Err(e) => Some(e),
        }
    })
}

#[cfg(unix)]
const EBADF: i32 = libc::EBADF;
#[cfg(not(unix))]
const EBADF: i32 = 9;

/// An errno by name, for messages.
pub fn errno_name(errno: i32) -> String {
    match errno {
        1 => "EPERM".to_owned(),
        3 => "ESRCH".to_owned(),
        9 => "EBADF".to_owned(),
        13 => "EACCES".to_owned(),
        38 => "ENOSYS".to_owned(),
        other => format!("errno {other}"),
    }
}

/// When process `pid` started, in clock ticks after boot (`/proc/<pid>/stat`, field 22): with
/// the boot's ID, it tells a process from a later one that reused its pid. `None` where it
/// cannot be read (no such process, not Linux).
pub fn process_start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name (field 2) is in parentheses and may hold spaces or parentheses: the fields after
    // the last ')' start with the third.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_ascii_whitespace().nth(19)?.parse().ok()
}

/// This process's start time ([`process_start_time`]), read once per process (again in a forked
/// child).
pub fn own_start_time() -> Option<u64> {
    static OWN: parking_lot::Mutex<Option<(u32, Option<u64>)>> = parking_lot::Mutex::new(None);
    let pid = std::process::id();
    let mut own = OWN.lock();
    match *own {
        Some((p, start)) if p == pid => start,
        _ => {
            let start = process_start_time(pid);
            *own = Some((pid, start));
            start
        }
    }
}

/// The layer's own descriptor of the open file `fd` refers to (`F_DUPFD_CLOEXEC`), numbered
/// from three quarters of the soft open-file limit (at most 1024) up, away from the low numbers
/// an app's own files get; `None` if it cannot be made or the layer already holds its budget
/// ([`held_budget::held_file_budget`]).
#[cfg(unix)]
pub fn hold_open_file(fd: i32) -> Option<HeldFile> {
    use std::os::fd::FromRawFd;
    if fd < 0 {
        return None;
    }
    let soft = soft_open_file_limit();
    if !within_budget(soft) {
        return None;
    }
    let lowest = (soft.saturating_mul(3) / 4).min(1024) as libc::c_int;
    // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor of an open file; a closed `fd` or no free
    // number is an error, not undefined behaviour.
    let held = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, lowest) };
    if held < 0 {
        return None;
    }
    HELD_FILES.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    // SAFETY: a descriptor fcntl has just made, owned by nothing else.
    let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(held) };
    Some(HeldFile {
        fd: Some(fd),
        seal: false,
        identity: file_id(held),
        generation: held_canary::generation(),
    })
}

#[cfg(not(unix))]
pub fn hold_open_file(_fd: i32) -> Option<HeldFile> {
    None
}

/// At the last `vkDestroyInstance`: the canary closed if the layer holds no descriptor.
pub fn release_idle_canary() {
    #[cfg(unix)]
    let held = HELD_FILES.load(std::sync::atomic::Ordering::Acquire);
    #[cfg(not(unix))]
    let held = 0;
    held_canary::release_if_idle(held);
}

/// The current generation of held descriptors, the canary checked (`held_canary`): entries of
/// an older one are not the layer's any more, and their tables let them go without closing them.
pub fn held_generation() -> u64 {
    held_canary::generation()
}

/// A descriptor the layer holds of a file (closed when dropped, unless sealed).
#[derive(Debug)]
pub struct HeldFile {
    #[cfg(unix)]
    fd: Option<std::os::fd::OwnedFd>,
    /// When dropped, the number is not closed but given a private memfd of the layer's for the
    /// rest of the process ([`HeldFile::seal_on_drop`]).
    seal: bool,
    /// The file's identity when the layer made the descriptor.
    identity: Option<FileId>,
    /// The generation of held descriptors it was made in (`held_canary`).
    generation: u64,
}

impl Drop for HeldFile {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            if !self.is_ours() {
                // The program closed or replaced the number: whatever it refers to now is not
                // the layer's to close.
                if let Some(fd) = self.fd.take() {
                    let _ = std::os::fd::IntoRawFd::into_raw_fd(fd);
                }
                HELD_FILES.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
                return;
            }
            if self.seal {
                if let Some(fd) = self.fd.take() {
                    seal_number(fd);
                    return; // Still held: the count stays.
                }
            }
            // The descriptor itself is closed by its `OwnedFd` right after.
            HELD_FILES.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
        }
    }
}

impl HeldFile {
    /// Whether its number still refers to the file the layer held: the same file (inode), and no
    /// bulk close or replacement of descriptors since it was made (`held_canary`). A descriptor
    /// that is not is never used, closed or matched again.
    pub fn is_ours(&self) -> bool {
        let number = self.number();
        number >= 0
            && self.identity.is_some()
            && file_id(number) == self.identity
            && held_canary::intact(self.generation)
    }

    /// The generation of held descriptors it was made in: a table whose entries are of an
    /// older one than [`held_generation`] lets them go.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether `fd` refers to the open file description the layer holds (`kcmp`), `generation`
    /// being the current generation of held descriptors ([`held_generation`], looked up once by
    /// a caller that compares several): never for a descriptor of an older one (the program
    /// closed or replaced descriptors in bulk since). A number the program put another file on
    /// needs no look of its own: its description is another, and `kcmp` says so.
    pub fn same_open_file_as(&self, fd: i32, generation: u64) -> Option<bool> {
        if self.generation != generation {
            return Some(false);
        }
        same_open_file(self.number(), fd)
    }

    /// Its number.
    pub fn number(&self) -> i32 {
        #[cfg(unix)]
        {
            self.fd.as_ref().map_or(-1, std::os::fd::AsRawFd::as_raw_fd)
        }
        #[cfg(not(unix))]
        {
            -1
        }
    }

    /// When dropped, the file it holds is let go but its number is not: a private memfd of the
    /// layer's takes it (`dup3`, atomically), for the rest of the process. For a number another
    /// process may still take for this file (a shared-directory record the layer could not
    /// retire), which must never refer to another file of the same kind again.
    pub fn seal_on_drop(&mut self) {
        self.seal = true;
    }
}

/// `fd`'s number given a private memfd (the file it referred to let go), kept open for the rest
/// of the process; simply closed where there is no memfd.
#[cfg(unix)]
fn seal_number(fd: std::os::fd::OwnedFd) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::IntoRawFd;
        let name = c"exportcheck: a retired export's number";
        // SAFETY: memfd_create reads the NUL-terminated name and makes a new descriptor.
        let memfd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
        if memfd >= 0 {
            let number = fd.into_raw_fd();
            // SAFETY: dup3 replaces the layer's own descriptor `number` with the memfd (closing
            // the file it held), then the memfd's first descriptor is closed: both are the
            // layer's.
            unsafe {
                libc::dup3(memfd, number, libc::O_CLOEXEC);
                libc::close(memfd);
            }
            return;
        }
    }
    drop(fd);
    HELD_FILES.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
}

mod file_identity;
mod held_budget;
mod held_canary;
mod held_number;
pub mod payload;
#[cfg(unix)]
pub use file_identity::fstat;
pub use file_identity::{file_id, FileId};
#[cfg(unix)]
pub use held_budget::numbered_high;
#[cfg(unix)]
use held_budget::{soft_open_file_limit, within_budget, HELD_FILES};
pub use held_number::{hold_number, HeldNumber};

/// Every fd open in this process whose file is one of `wanted`, with its identity. Reads
/// `/proc/self/fd` on Linux; elsewhere tries each number below the open-file limit. Empty where
/// the layer cannot tell (not POSIX).
pub fn open_fds_of(wanted: &[FileId]) -> Vec<(i32, FileId)> {
    if wanted.is_empty() {
        return Vec::new();
    }
    open_fd_numbers()
        .into_iter()
        .filter_map(|fd| file_id(fd).map(|id| (fd, id)))
        .filter(|(_, id)| wanted.contains(id))
        .collect()
}

/// Every fd number open in this process (`/proc/self/fd` on Linux, else every number below the
/// open-file limit that is open); empty where the layer cannot tell (not POSIX).
#[cfg(target_os = "linux")]
pub fn open_fd_numbers() -> Vec<i32> {
    // The directory's own fd shows up in the listing while it is open: it is a directory, never
    // one of the wanted files.
    match std::fs::read_dir("/proc/self/fd") {
        Ok(dir) => dir
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .collect(),
        Err(_) => fallback_fd_numbers(),
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
pub fn open_fd_numbers() -> Vec<i32> {
    fallback_fd_numbers()
}

#[cfg(not(unix))]
pub fn open_fd_numbers() -> Vec<i32> {
    Vec::new()
}

/// Every number below the soft open-file limit (at most 65,536) that is open.
#[cfg(unix)]
fn fallback_fd_numbers() -> Vec<i32> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the structure we own.
    let max = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur.min(65_536) as i32
    } else {
        1024
    };
    (0..max).filter(|&fd| fd_flags(fd).is_some()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and reads /proc: system calls Miri isolates"
    )]
    fn identities_follow_files_not_numbers() {
        use std::os::fd::AsRawFd;
        let a = std::fs::File::open("/proc/self/exe").expect("open");
        let b = std::fs::File::open("/dev/null").expect("open");
        let id_a = file_id(a.as_raw_fd()).expect("open fd");
        let id_b = file_id(b.as_raw_fd()).expect("open fd");
        assert_ne!(id_a, id_b);
        let copy = a.try_clone().expect("dup");
        let found = open_fds_of(&[id_a]);
        assert!(found.contains(&(a.as_raw_fd(), id_a)), "{found:?}");
        assert!(found.contains(&(copy.as_raw_fd(), id_a)), "{found:?}");
        assert!(!found.iter().any(|(fd, _)| *fd == b.as_raw_fd()));
        let closed = a.as_raw_fd();
        drop(a);
        assert_eq!(file_id(closed).filter(|id| *id == id_a), None);
        assert!(open_fds_of(&[]).is_empty());
    }
}
