//! What the OS says an exported or imported fd's file is: the identity of its payload across
//! processes ([`payload_id`]), and whether it certainly is no Linux dma_buf
//! ([`certainly_not_dma_buf`]).
//!
//! **Identity.** A memfd (lavapipe's and the test driver's exports) is a file of tmpfs (or of
//! hugetlbfs) with an inode of its own; a dma-buf (Linux 5.3 and later) is a file of the dma-buf
//! pseudo filesystem, also with an inode of its own. These filesystems number inodes from one
//! counter that only wraps after 2^32 files, so `(st_dev, st_ino)` names the payload in every
//! process that holds an fd of it, and the inode's change time tells it from a later file that
//! reused the number after the payload was gone. Nothing else gets an identity: descriptors of a
//! character device (a driver whose exports are fds of its device file) and anonymous-inode
//! files (dma-bufs before Linux 5.3) share one inode between payloads, and disk filesystems reuse
//! a freed inode number at once, within the change time's granularity.

/// `DMA_BUF_MAGIC` of `<linux/magic.h>`: the dma-buf pseudo filesystem (Linux 5.3 and later).
pub const DMA_BUF_MAGIC: i64 = 0x444d_4142;
/// `ANON_INODE_FS_MAGIC`: anonymous-inode files, which dma-bufs were before Linux 5.3.
pub const ANON_INODE_FS_MAGIC: i64 = 0x0904_1934;
/// `TMPFS_MAGIC`: memfds, POSIX shared memory (and devtmpfs).
pub const TMPFS_MAGIC: i64 = 0x0102_1994;
/// `HUGETLBFS_MAGIC`: memfds of huge pages.
pub const HUGETLBFS_MAGIC: i64 = 0x9584_58f6;

/// A payload's identity, as any process holding an fd of it sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PayloadId {
    pub dev: u64,
    pub ino: u64,
    pub ctime_sec: i64,
    pub ctime_nsec: i64,
}

/// The filesystem magic of the file `fd` refers to (`fstatfs`'s `f_type`), if it can be read.
#[cfg(target_os = "linux")]
pub fn fs_magic(fd: i32) -> Option<i64> {
    if fd < 0 {
        return None;
    }
    let mut fs = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: fstatfs writes a `struct statfs` into the buffer we own; any fd number is valid.
    if unsafe { libc::fstatfs(fd, fs.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: fstatfs succeeded, so it filled the structure.
    let fs = unsafe { fs.assume_init() };
    #[allow(clippy::unnecessary_cast)]
    Some(fs.f_type as i64)
}

#[cfg(not(target_os = "linux"))]
pub fn fs_magic(_fd: i32) -> Option<i64> {
    None
}

/// What a file is, for a message: its filesystem's magic and its type (`st_mode & S_IFMT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    pub magic: i64,
    pub file_type: u32,
}

impl FileKind {
    /// The file for a message: `a memfd or POSIX shared memory file (tmpfs)`, `a character
    /// device`, ...
    pub fn describe(self) -> String {
        let fs = fs_name(self.magic);
        match self.file_type {
            t if t == S_IFREG && self.magic == TMPFS_MAGIC => {
                "a memfd or POSIX shared memory file (tmpfs)".to_owned()
            }
            t if t == S_IFREG && self.magic == HUGETLBFS_MAGIC => {
                "a memfd of huge pages (hugetlbfs)".to_owned()
            }
            t if t == S_IFREG => format!("a regular file ({fs})"),
            t if t == S_IFCHR => format!("a character device ({fs})"),
            t if t == S_IFBLK => format!("a block device ({fs})"),
            t if t == S_IFIFO => "a pipe or FIFO".to_owned(),
            t if t == S_IFSOCK => "a socket".to_owned(),
            t if t == S_IFDIR => format!("a directory ({fs})"),
            _ => format!("a file of {fs}"),
        }
    }
}

const S_IFREG: u32 = 0o100_000;
const S_IFCHR: u32 = 0o020_000;
const S_IFBLK: u32 = 0o060_000;
const S_IFIFO: u32 = 0o010_000;
const S_IFSOCK: u32 = 0o140_000;
const S_IFDIR: u32 = 0o040_000;

/// What the open file `fd` refers to, when it is certainly no dma_buf: its filesystem is known
/// and is neither the dma-buf filesystem nor the anonymous-inode one (where dma-bufs lived
/// before Linux 5.3). `None` otherwise, and where the layer cannot tell.
pub fn certainly_not_dma_buf(fd: i32) -> Option<FileKind> {
    let magic = fs_magic(fd).filter(|&m| m != DMA_BUF_MAGIC && m != ANON_INODE_FS_MAGIC)?;
    Some(FileKind {
        magic,
        file_type: file_type(fd)?,
    })
}

/// What the open file `fd` refers to, when it certainly is no payload a driver exports as an
/// opaque fd: a pipe, a socket, a directory, `/dev/null`, or a regular file of procfs or sysfs.
/// A regular file elsewhere is not judged: a driver without `memfd_create` backs its exports
/// with a file it creates (Mesa's in `$XDG_RUNTIME_DIR`, which may be on a disk); nor is any
/// other device file (NVIDIA's exports are descriptors of `/dev/nvidiactl`), nor an
/// anonymous-inode file. `None` where the layer cannot tell.
#[cfg(target_os = "linux")]
pub fn certainly_no_opaque_fd(fd: i32) -> Option<FileKind> {
    let stat = super::fstat(fd)?;
    let file_type = stat.st_mode & libc::S_IFMT;
    let magic = fs_magic(fd)?;
    let certain = match file_type {
        libc::S_IFIFO | libc::S_IFSOCK | libc::S_IFDIR => true,
        libc::S_IFREG => magic == PROC_SUPER_MAGIC || magic == SYSFS_MAGIC,
        // /dev/null: major 1, minor 3.
        libc::S_IFCHR => libc::major(stat.st_rdev) == 1 && libc::minor(stat.st_rdev) == 3,
        _ => false,
    };
    // `mode_t` is a u32 on Linux's C libraries, but not by contract.
    #[allow(clippy::unnecessary_cast)]
    let file_type = file_type as u32;
    certain.then_some(FileKind { magic, file_type })
}

#[cfg(not(target_os = "linux"))]
pub fn certainly_no_opaque_fd(_fd: i32) -> Option<FileKind> {
    None
}

/// `PROC_SUPER_MAGIC`
const PROC_SUPER_MAGIC: i64 = 0x9fa0;
/// `SYSFS_MAGIC`
const SYSFS_MAGIC: i64 = 0x6265_6572;

/// `st_mode & S_IFMT` of the file `fd` refers to.
#[cfg(unix)]
fn file_type(fd: i32) -> Option<u32> {
    #[allow(clippy::unnecessary_cast)]
    super::fstat(fd).map(|stat| stat.st_mode as u32 & 0o170_000)
}

#[cfg(not(unix))]
fn file_type(_fd: i32) -> Option<u32> {
    None
}

/// A filesystem magic by name, for messages.
pub fn fs_name(magic: i64) -> String {
    match magic {
        TMPFS_MAGIC => "tmpfs".to_owned(),
        HUGETLBFS_MAGIC => "hugetlbfs".to_owned(),
        PROC_SUPER_MAGIC => "procfs".to_owned(),
        SYSFS_MAGIC => "sysfs".to_owned(),
        0x5049_5045 => "pipefs".to_owned(),
        0x534f_434b => "sockfs".to_owned(),
        0x0000_ef53 => "ext2/3/4".to_owned(),
        0x5846_5342 => "xfs".to_owned(),
        0x9123_683e => "btrfs".to_owned(),
        0x794c_7630 => "overlayfs".to_owned(),
        DMA_BUF_MAGIC => "dma-buf".to_owned(),
        ANON_INODE_FS_MAGIC => "anon_inodefs".to_owned(),
        other => format!("a filesystem of magic 0x{other:x}"),
    }
}

/// The payload identity of the file `fd` refers to, if it has one of its own (a memfd, a file of
/// POSIX shared memory, a dma-buf); `None` for anything else (a device file, an anonymous inode,
/// a file on disk), a closed fd, or where the layer cannot tell.
#[cfg(target_os = "linux")]
pub fn payload_id(fd: i32) -> Option<PayloadId> {
    let stat = super::fstat(fd)?;
    let magic = fs_magic(fd)?;
    let regular = stat.st_mode & libc::S_IFMT == libc::S_IFREG;
    let memfd = regular && (magic == TMPFS_MAGIC || magic == HUGETLBFS_MAGIC);
    if !(memfd || magic == DMA_BUF_MAGIC) {
        return None;
    }
    Some(PayloadId {
        dev: stat.st_dev,
        ino: stat.st_ino,
        ctime_sec: stat.st_ctime,
        ctime_nsec: stat.st_ctime_nsec,
    })
}

#[cfg(not(target_os = "linux"))]
pub fn payload_id(_fd: i32) -> Option<PayloadId> {
    None
}

/// How the layer knows an exported fd's payload, in this process and across processes.
// Only Linux's [`identity`] makes one: elsewhere the layer knows no fd's payload.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Identity {
    /// The file is the payload's own ([`payload_id`]): its identity names the payload wherever
    /// an fd of it is, even after every process that exported it exited.
    Payload(PayloadId),
    /// The file is shared with other payloads (a driver's device file, such as NVIDIA's
    /// `/dev/nvidiactl`, every export a new open file description of it): only the open file
    /// description tells the export, by `kcmp` against a descriptor of it the layer holds.
    /// Device, inode and change time of the shared file, which narrow the candidates.
    OpenFile(PayloadId),
}

/// How the layer knows the payload of the fd `fd` ([`Identity`]); `None` if it is not open (or
/// not Linux).
#[cfg(target_os = "linux")]
pub fn identity(fd: i32) -> Option<Identity> {
    if let Some(payload) = payload_id(fd) {
        return Some(Identity::Payload(payload));
    }
    let stat = super::fstat(fd)?;
    Some(Identity::OpenFile(PayloadId {
        dev: stat.st_dev,
        ino: stat.st_ino,
        ctime_sec: stat.st_ctime,
        ctime_nsec: stat.st_ctime_nsec,
    }))
}

#[cfg(not(target_os = "linux"))]
pub fn identity(_fd: i32) -> Option<Identity> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    fn memfd() -> OwnedFd {
        // SAFETY: a NUL-terminated name; memfd_create returns a new descriptor or -1.
        let fd = unsafe { libc::memfd_create(c"exportcheck-test".as_ptr(), libc::MFD_CLOEXEC) };
        assert!(fd >= 0);
        // SAFETY: a descriptor memfd_create has just made, owned by nothing else.
        unsafe { OwnedFd::from_raw_fd(fd) }
    }

    #[test]
    #[cfg_attr(miri, ignore = "memfd_create and fstat: system calls Miri isolates")]
    fn a_memfd_has_an_identity_of_its_own_and_is_no_dma_buf() {
        let (a, b) = (memfd(), memfd());
        let id_a = payload_id(a.as_raw_fd()).expect("a memfd has an identity");
        assert_ne!(Some(id_a), payload_id(b.as_raw_fd()));
        let copy = a.try_clone().expect("dup");
        assert_eq!(payload_id(copy.as_raw_fd()), Some(id_a));
        let file = certainly_not_dma_buf(a.as_raw_fd()).expect("a memfd is no dma-buf");
        assert_eq!(
            file.describe(),
            "a memfd or POSIX shared memory file (tmpfs)"
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "opens files: system calls Miri isolates")]
    fn a_device_file_a_pipe_or_a_closed_fd_has_none() {
        let null = std::fs::File::open("/dev/null").expect("open");
        assert_eq!(payload_id(null.as_raw_fd()), None);
        let mut pipe = [0; 2];
        // SAFETY: pipe writes two descriptors into the array we own.
        assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
        assert_eq!(payload_id(pipe[0]), None);
        let pipe_file = certainly_not_dma_buf(pipe[0]).expect("a pipe is no dma-buf");
        assert_eq!(pipe_file.describe(), "a pipe or FIFO");
        assert_eq!(fs_name(pipe_file.magic), "pipefs");
        let device = certainly_not_dma_buf(null.as_raw_fd()).expect("no dma-buf");
        assert!(
            device.describe().starts_with("a character device ("),
            "{device:?}"
        );
        // A regular file elsewhere than tmpfs has no identity (a disk filesystem reuses inode
        // numbers at once).
        let proc_file = std::fs::File::open("/proc/self/status").expect("open");
        assert_eq!(payload_id(proc_file.as_raw_fd()), None);
        assert!(certainly_no_opaque_fd(pipe[0]).is_some());
        for fd in pipe {
            // SAFETY: descriptors pipe made for this test.
            unsafe { libc::close(fd) };
        }
        assert_eq!(payload_id(-1), None);
        assert_eq!(certainly_not_dma_buf(-1), None);
        // No driver exports a pipe, /dev/null or a procfs file as an opaque fd; a memfd, a disk
        // file or another device file may be one.
        assert!(certainly_no_opaque_fd(null.as_raw_fd()).is_some());
        assert!(certainly_no_opaque_fd(proc_file.as_raw_fd()).is_some());
        assert!(certainly_no_opaque_fd(memfd().as_raw_fd()).is_none());
        let zero = std::fs::File::open("/dev/zero").expect("open");
        assert!(certainly_no_opaque_fd(zero.as_raw_fd()).is_none());
        assert_eq!(certainly_no_opaque_fd(-1), None);
    }
}
