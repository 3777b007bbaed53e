//! File descriptors returned by `vkGetMemoryFdKHR`.

/// Asserts that `fd` is an open file descriptor (with `fstat`) and returns its status.
#[track_caller]
pub fn assert_open(fd: i32) -> libc::stat {
    assert!(fd >= 0, "expected a file descriptor, got {fd}");
    // SAFETY: `stat` is plain data, zero is a valid value; fstat only writes it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid output pointer; fstat fails cleanly on a bad descriptor.
    let rc = unsafe { libc::fstat(fd, &mut st) };
    assert_eq!(
        rc,
        0,
        "fstat({fd}) failed: {}",
        std::io::Error::last_os_error()
    );
    st
}

/// Closes a descriptor the test owns, asserting it was open.
#[track_caller]
pub fn close(fd: i32) {
    assert_open(fd);
    // SAFETY: the test owns `fd` (it came from vkGetMemoryFdKHR) and closes it once.
    let rc = unsafe { libc::close(fd) };
    assert_eq!(rc, 0, "close({fd}): {}", std::io::Error::last_os_error());
}

/// Closes `fd` if the driver returned one (for calls whose result is the driver's business).
pub fn close_if_open(fd: i32) {
    if fd >= 0 {
        // SAFETY: a descriptor the driver just handed to the test, closed once.
        unsafe { libc::close(fd) };
    }
}

/// Whether `fd` is open now.
pub fn is_open(fd: i32) -> bool {
    // SAFETY: F_GETFD only reads the descriptor table; any number is a valid argument.
    fd >= 0 && unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0
}

/// `dup(fd)`, asserting it worked.
#[track_caller]
pub fn dup(fd: i32) -> i32 {
    // SAFETY: dup only reads the descriptor table.
    let copy = unsafe { libc::dup(fd) };
    assert!(copy >= 0, "dup({fd}): {}", std::io::Error::last_os_error());
    copy
}

/// `dup2(from, to)`, asserting it worked: `to` now refers to `from`'s file.
#[track_caller]
pub fn dup2(from: i32, to: i32) {
    // SAFETY: dup2 only changes the descriptor table; the test owns both numbers.
    let rc = unsafe { libc::dup2(from, to) };
    assert_eq!(
        rc,
        to,
        "dup2({from}, {to}): {}",
        std::io::Error::last_os_error()
    );
}

/// The (device, inode) of the file `fd` refers to.
#[track_caller]
pub fn identity(fd: i32) -> (u64, u64) {
    let st = assert_open(fd);
    (st.st_dev, st.st_ino)
}

/// Sends `fd` over the Unix socket `socket` (SCM_RIGHTS), with one byte of data.
#[track_caller]
pub fn send_fd(socket: i32, fd: i32) {
    let mut byte = [b'F'];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // A buffer for one control message carrying one fd, aligned for cmsghdr.
    let mut control = [0u64; 8];
    // SAFETY: CMSG_SPACE is a pure size computation.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of::<i32>() as u32) } as usize;
    assert!(space <= std::mem::size_of_val(&control));
    // SAFETY: msghdr is plain data; zero is a valid start.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: msg_control points to `space` bytes we own; CMSG_FIRSTHDR/CMSG_DATA stay inside.
    unsafe {
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<i32>() as u32) as _;
        libc::CMSG_DATA(cmsg).cast::<i32>().write_unaligned(fd);
    }
    // SAFETY: a valid message on a socket the test owns.
    let sent = unsafe { libc::sendmsg(socket, &msg, 0) };
    assert_eq!(sent, 1, "sendmsg: {}", std::io::Error::last_os_error());
}

/// Receives an fd sent with [`send_fd`] on `socket`; returns the new descriptor.
#[track_caller]
pub fn recv_fd(socket: i32) -> i32 {
    let mut byte = [0u8];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut control = [0u64; 8];
    // SAFETY: msghdr is plain data; zero is a valid start.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&control) as _;
    // SAFETY: buffers we own, sized as msg says.
    let got = unsafe { libc::recvmsg(socket, &mut msg, 0) };
    assert_eq!(got, 1, "recvmsg: {}", std::io::Error::last_os_error());
    // SAFETY: the kernel filled msg_control; CMSG_FIRSTHDR checks its length.
    unsafe {
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        assert!(!cmsg.is_null(), "no control message");
        assert_eq!(
            ((*cmsg).cmsg_level, (*cmsg).cmsg_type),
            (libc::SOL_SOCKET, libc::SCM_RIGHTS)
        );
        libc::CMSG_DATA(cmsg).cast::<i32>().read_unaligned()
    }
}

/// Makes the kernel refuse `kcmp` to this process from now on (`EPERM`), as a container's
/// seccomp profile does: a seccomp filter (with no-new-privileges, which any process may set),
/// inherited by its children and never lifted. Only for a child process of a test.
#[cfg(target_os = "linux")]
pub fn refuse_kcmp() {
    const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;
    const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
    const BPF_LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const BPF_JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const BPF_RET_K: u16 = 0x06; // BPF_RET | BPF_K
    let filter = [
        // The system call's number (`struct seccomp_data::nr`, at offset 0).
        libc::sock_filter {
            code: BPF_LD_W_ABS,
            jt: 0,
            jf: 0,
            k: 0,
        },
        libc::sock_filter {
            code: BPF_JEQ_K,
            jt: 0,
            jf: 1,
            k: libc::SYS_kcmp as u32,
        },
        libc::sock_filter {
            code: BPF_RET_K,
            jt: 0,
            jf: 0,
            k: SECCOMP_RET_ERRNO | libc::EPERM as u32,
        },
        libc::sock_filter {
            code: BPF_RET_K,
            jt: 0,
            jf: 0,
            k: SECCOMP_RET_ALLOW,
        },
    ];
    let program = libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_ptr().cast_mut(),
    };
    // SAFETY: prctl with documented arguments; the program outlives the call (the kernel copies
    // it).
    unsafe {
        assert_eq!(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
        assert_eq!(
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &program as *const libc::sock_fprog
            ),
            0,
            "seccomp: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// Connects to the Unix socket at `socket`, waiting (up to 5 minutes) for its listener: the
/// exporting side of the cross-process tests, whose importer binds the socket.
pub fn connect(socket: &std::path::Path) -> std::os::unix::net::UnixStream {
    let start = std::time::Instant::now();
    loop {
        match std::os::unix::net::UnixStream::connect(socket) {
            Ok(stream) => return stream,
            Err(_) if start.elapsed() < std::time::Duration::from_secs(300) => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => panic!("connect {}: {e}", socket.display()),
        }
    }
}
