//! Exported-fd leaks (`EXPORTCHECK-exported-fd-leaked`), end to end on the test driver: the layer
//! knows each exported fd by its file (device and inode), not by its number, so a leak is found
//! however the app shuffled the numbers, and a closed, reused, imported or sent-away fd is not
//! one. Reported at vkFreeMemory (the fd still open under the number the driver returned), at
//! vkDestroyDevice and at exit (a scan of the process's fd table).
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk::{self, Handle};
use exportcheck_tests::child::{is_child, CHILD_ENV};
use exportcheck_tests::fd_export::FdExport;
use exportcheck_tests::ids::*;
use exportcheck_tests::in_both_fd_export_modes;
use exportcheck_tests::test_driver::options;
use exportcheck_tests::{expect, fds, Device, Instance, Options, OPAQUE_FD, SIZE};
use std::ffi::CStr;
use std::process::{Command, Stdio};

const DESTROY: &str = "vkDestroyDevice";

in_both_fd_export_modes!(
    an_exported_fd_still_open_at_vk_free_memory_is_reported,
    a_closed_fd_is_not_a_leak,
    a_duplicate_left_open_is_found_at_vk_destroy_device_by_identity,
    numbers_swapped_with_dup2_are_attributed_by_identity,
    a_closed_and_reused_number_is_not_a_leak,
    an_imported_fd_is_the_drivers_not_a_leak,
    the_check_is_off_by_default_and_with_check_fd_leaks_false,
    an_fd_sent_to_another_process_and_closed_here_is_not_a_leak,
    fds_still_open_at_exit_are_reported_in_the_log
);

/// An instance on the test driver, alone in the binary, with the leak check on (it is off by
/// default) and every report delivered.
fn exclusive(mode: FdExport) -> Instance {
    Instance::exclusive_with(Options {
        layer_settings: &[("check_fd_leaks", "true"), ("duplicate_message_limit", "0")],
        ..options(mode.config())
    })
}

/// Memory exportable as an opaque fd, named `name`.
fn named_memory(dev: &Device, name: &CStr) -> vk::DeviceMemory {
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    dev.name(memory, name);
    memory
}

/// Exports `memory` as an opaque fd the test now owns.
#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    fd
}

/// The one leak warning of `command`; it must name `memory` and say each of `parts`.
#[track_caller]
fn leak(inst: &Instance, command: &str, memory: vk::DeviceMemory, parts: &[&str]) {
    let message = expect::one(inst, command, EXPORTED_FD_LEAKED);
    expect::mentions(&message, parts);
    assert!(
        expect::object(&message, vk::ObjectType::DEVICE_MEMORY, memory.as_raw()).is_some(),
        "the finding's objects name the memory: {message:#?}"
    );
}

fn an_exported_fd_still_open_at_vk_free_memory_is_reported(mode: FdExport) {
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let memory = named_memory(&dev, c"staging");
    let fd = export(&dev, memory);
    expect::silent(&inst, GET_FD);
    dev.free(memory);
    leak(
        &inst,
        FREE,
        memory,
        &[
            "\"staging\" is being freed",
            &format!("still open in this process as fd {fd} and was never imported"),
            "close it, or import it",
        ],
    );
    fds::close(fd);
    drop(dev);
    expect::silent(&inst, DESTROY);
}

fn a_closed_fd_is_not_a_leak(mode: FdExport) {
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let memory = named_memory(&dev, c"closed");
    fds::close(export(&dev, memory));
    fds::close(export(&dev, memory));
    dev.free(memory);
    drop(dev);
    expect::silent_for(&inst, &[GET_FD, FREE, DESTROY]);
}

fn a_duplicate_left_open_is_found_at_vk_destroy_device_by_identity(mode: FdExport) {
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let memory = named_memory(&dev, c"duplicated");
    let fd = export(&dev, memory);
    let copy = fds::dup(fd);
    fds::close(fd);
    // The returned number is closed: nothing is said at the free. Where the file names the
    // payload, the copy is found later; where only the open file description does, it is not
    // looked for after the free.
    dev.free(memory);
    expect::silent(&inst, FREE);
    drop(dev);
    match mode.copy_found_at() {
        Some(found_at) => leak(
            &inst,
            found_at,
            memory,
            &[
                "\"duplicated\"",
                &format!(
                    "as fd {copy} (vkGetMemoryFdKHR returned fd {fd}; the app duplicated or moved it)"
                ),
            ],
        ),
        None => expect::silent(&inst, DESTROY),
    }
    fds::close(copy);
}

fn numbers_swapped_with_dup2_are_attributed_by_identity(mode: FdExport) {
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let alpha = named_memory(&dev, c"alpha");
    let beta = named_memory(&dev, c"beta");
    let a = export(&dev, alpha);
    let b = export(&dev, beta);
    let (file_a, file_b) = (fds::identity(a), fds::identity(b));
    // Swap the two numbers: a now refers to beta's file, b to alpha's.
    let spare = fds::dup(a);
    fds::dup2(b, a);
    fds::dup2(spare, b);
    fds::close(spare);
    assert_eq!((fds::identity(a), fds::identity(b)), (file_b, file_a));
    // At each free, the returned number holds the other memory's file: not this one's leak.
    dev.free(alpha);
    dev.free(beta);
    expect::silent(&inst, FREE);
    drop(dev);
    let Some(found_at) = mode.copy_found_at() else {
        // Only the open file description names the export: not looked for after the free.
        expect::silent(&inst, DESTROY);
        fds::close(a);
        fds::close(b);
        return;
    };
    let messages = expect::only(&inst, found_at, &[EXPORTED_FD_LEAKED, EXPORTED_FD_LEAKED]);
    let about = |name: &str| {
        messages
            .iter()
            .find(|m| m.text.contains(&format!("\"{name}\"")))
            .unwrap_or_else(|| panic!("no leak about {name}: {messages:#?}"))
    };
    expect::mentions(
        about("alpha"),
        &[&format!("as fd {b} (vkGetMemoryFdKHR returned fd {a};")],
    );
    expect::mentions(
        about("beta"),
        &[&format!("as fd {a} (vkGetMemoryFdKHR returned fd {b};")],
    );
    fds::close(a);
    fds::close(b);
}

fn a_closed_and_reused_number_is_not_a_leak(mode: FdExport) {
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let memory = named_memory(&dev, c"reused");
    let fd = export(&dev, memory);
    let exported_file = fds::identity(fd);
    fds::close(fd);
    // Another file under the same number.
    let other = std::fs::File::open("/dev/null").expect("open /dev/null");
    let other_fd = std::os::fd::AsRawFd::as_raw_fd(&other);
    if other_fd != fd {
        fds::dup2(other_fd, fd);
    }
    assert_ne!(fds::identity(fd), exported_file);
    dev.free(memory);
    drop(dev);
    expect::silent_for(&inst, &[FREE, DESTROY]);
    if other_fd != fd {
        fds::close(fd);
    }
}

fn an_imported_fd_is_the_drivers_not_a_leak(mode: FdExport) {
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let memory = named_memory(&dev, c"exported");
    let fd = export(&dev, memory);
    // Importing hands the fd to the driver (which keeps it open): the app must not close it.
    let imported = dev.import_fd(fd, SIZE).expect("import the exported fd");
    dev.free(memory);
    dev.free(imported);
    drop(dev);
    expect::silent_for(&inst, &[ALLOCATE, FREE, DESTROY]);
}

fn the_check_is_off_by_default_and_with_check_fd_leaks_false(mode: FdExport) {
    for settings in [&[][..], &[("check_fd_leaks", "false")][..]] {
        let inst = Instance::exclusive_with(Options {
            layer_settings: settings,
            ..options(mode.config())
        });
        let dev = inst.fd_device();
        let memory = named_memory(&dev, c"unchecked");
        let fd = export(&dev, memory);
        dev.free(memory);
        drop(dev);
        expect::silent_for(&inst, &[FREE, DESTROY]);
        fds::close(fd);
    }
}

/// The variable naming the socket a child receives an fd on.
const SOCKET_ENV: &str = "EXPORTCHECK_TEST_FD_SOCKET";

fn an_fd_sent_to_another_process_and_closed_here_is_not_a_leak(mode: FdExport) {
    if is_child() {
        // The other process: receive the fd, check it is the memory's file, hold it until the
        // parent is done, then close it.
        let socket: i32 = std::env::var(SOCKET_ENV)
            .expect(SOCKET_ENV)
            .parse()
            .expect("fd");
        let fd = fds::recv_fd(socket);
        let (dev, ino) = fds::identity(fd);
        let reply = format!("{dev} {ino}\n");
        // SAFETY: writes our own buffer to the socket we were given.
        let n = unsafe { libc::write(socket, reply.as_ptr().cast(), reply.len()) };
        assert_eq!(n as usize, reply.len());
        let mut done = [0u8];
        // SAFETY: reads into our own buffer: the parent's "done" (or EOF).
        unsafe { libc::read(socket, done.as_mut_ptr().cast(), 1) };
        fds::close(fd);
        return;
    }
    let inst = exclusive(mode);
    let dev = inst.fd_device();
    let memory = named_memory(&dev, c"sent");
    let fd = export(&dev, memory);
    let file = fds::identity(fd);

    let mut pair = [-1i32; 2];
    // SAFETY: socketpair writes two descriptors into the array we own.
    let rc = unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) };
    assert_eq!(rc, 0, "socketpair: {}", std::io::Error::last_os_error());
    let (ours, theirs) = (pair[0], pair[1]);
    // SAFETY: F_SETFD on our own descriptor: the child inherits only its end.
    unsafe { libc::fcntl(ours, libc::F_SETFD, libc::FD_CLOEXEC) };
    let child = Command::new(std::env::current_exe().expect("current_exe"))
        .args(["--exact", &expect::test_name(), "--nocapture"])
        .env(CHILD_ENV, "receive")
        .env(SOCKET_ENV, theirs.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the receiving process");
    fds::close(theirs);
    fds::send_fd(ours, fd);
    let mut reply = [0u8; 64];
    // SAFETY: reads into our own buffer.
    let n = unsafe { libc::read(ours, reply.as_mut_ptr().cast(), reply.len()) };
    assert!(n > 0, "the child's reply");
    let reply = String::from_utf8_lossy(&reply[..n as usize])
        .trim()
        .to_owned();
    assert_eq!(
        reply,
        format!("{} {}", file.0, file.1),
        "the child holds the same file"
    );

    // Only the other process holds the file now.
    fds::close(fd);
    dev.free(memory);
    drop(dev);
    expect::silent_for(&inst, &[FREE, DESTROY]);

    // SAFETY: writes one byte to our own socket, then closes it.
    unsafe {
        libc::write(ours, b"d".as_ptr().cast(), 1);
        libc::close(ours);
    }
    let out = child.wait_with_output().expect("wait for the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed"),
        "child: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

fn fds_still_open_at_exit_are_reported_in_the_log(mode: FdExport) {
    if is_child() {
        // A process that exits with an exported fd open, its memory and device never freed.
        let inst = exclusive(mode);
        let dev = inst.fd_device();
        let memory = named_memory(&dev, c"kept-to-the-end");
        let fd = export(&dev, memory);
        println!("exported fd {fd}");
        std::mem::forget(dev);
        std::mem::forget(inst);
        return;
    }
    let run = exportcheck_tests::child::Child::new("exit").run();
    let fd: i32 = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("exported fd "))
        .expect("the child's fd")
        .trim()
        .parse()
        .expect("a number");
    let lines = run.stderr_layer_lines();
    let leaks: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains(EXPORTED_FD_LEAKED))
        .collect();
    assert_eq!(leaks.len(), 1, "stderr:\n{}", run.stderr);
    for part in [
        "exit(): VkDeviceMemory",
        "\"kept-to-the-end\" is still exported as the process exits",
        &format!("as fd {fd} and was never imported"),
    ] {
        assert!(leaks[0].contains(part), "`{part}` in {}", leaks[0]);
    }
}
