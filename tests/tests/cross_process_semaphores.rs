//! Cross-process checking of semaphores (docs/cross-process.md): an opaque fd exported from a
//! semaphore in one process and imported in another is checked against the semaphore it came
//! from, as in one process (03263, 03264, 03323, 01544). Each side is a child process (this test
//! binary, exec'd again) on the test driver, whose opaque semaphore fds are memfds, with the
//! layer through the real loader; the fd goes from the exporter to the importer over a Unix
//! socket (`SCM_RIGHTS`); both name one shared directory
//! (`VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR`, what `exportcheck run` sets). The importer
//! asserts on what its app's messenger heard: the exact IDs, and messages naming the exporting
//! process.

#![cfg(target_os = "linux")]

use ash::vk::{self, Handle};
use exportcheck_tests::child::{is_child, Child, CHILD_ENV};
use exportcheck_tests::expect;
use exportcheck_tests::fds;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device, semaphore_name, Types};
use exportcheck_tests::test_driver::{call_count, exclusive};
use exportcheck_tests::{Device, Instance};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DIR_VAR: &str = "VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR";
const SOCKET_VAR: &str = "EXPORTCHECK_TEST_SOCKET";
const TIMELINE_VAR: &str = "EXPORTCHECK_TEST_IMPORT_INTO_TIMELINE";
const OPAQUE: Types = Types::OPAQUE_FD;
/// The test driver aborts, as SwiftShader crashes, on a binary semaphore's fd imported into a
/// timeline semaphore: an import that reached it would end the importer.
const SWIFTSHADER_QUIRK: &str = r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true}}"#;

fn device(inst: &Instance) -> Device {
    semaphore_device(inst, &[ash::khr::external_semaphore_fd::NAME])
}

fn loader(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_fd::Device {
    ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
}

/// Runs the importer (into a timeline semaphore if `into_timeline`, else a binary one) and the
/// exporter of a binary semaphore, sharing exports in one private directory.
fn run_pair(into_timeline: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("pair.sock");
    let child = |role: &str| {
        Child::new(role)
            .env(DIR_VAR, dir.path().join("exports"))
            .env(SOCKET_VAR, &socket)
            .env(TIMELINE_VAR, if into_timeline { "1" } else { "0" })
            .spawn()
    };
    let importer = child("import");
    let exporter = child("export");
    let importer = importer.wait();
    exporter.wait();
    // The importer's own checks passed (`wait` asserts it); nothing else said on stderr.
    assert!(importer.stderr_layer_lines().is_empty(), "{importer:?}");
}

/// In a child: its role.
fn child_role() {
    let socket = PathBuf::from(std::env::var(SOCKET_VAR).expect("socket"));
    match std::env::var(CHILD_ENV).expect("a child").as_str() {
        "export" => export_side(&socket),
        "import" => import_side(&socket, std::env::var(TIMELINE_VAR).as_deref() == Ok("1")),
        other => panic!("unknown role {other}"),
    }
}

/// Connects to the importer's socket, waiting for it to listen.
fn connect(socket: &Path) -> UnixStream {
    let start = Instant::now();
    loop {
        match UnixStream::connect(socket) {
            Ok(stream) => return stream,
            Err(e) if start.elapsed() < Duration::from_secs(300) => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("connect {}: {e}", socket.display()),
        }
    }
}

/// The exporter: exports a binary semaphore's opaque fd and sends it with its pid, the
/// semaphore and its name; keeps the semaphore until the importer is done.
fn export_side(socket: &Path) {
    let inst = exclusive(None);
    let dev = device(&inst);
    let binary = semaphore(&dev, false, Some(OPAQUE));
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(binary)
        .handle_type(OPAQUE);
    // SAFETY: a live info structure.
    let fd = unsafe { loader(&inst, &dev).get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    let mut stream = connect(socket);
    fds::send_fd(stream.as_raw_fd(), fd);
    let name = std::fs::read_to_string("/proc/self/comm").expect("comm");
    writeln!(
        stream,
        "{} 0x{:x} {}",
        std::process::id(),
        binary.as_raw(),
        name.trim_end()
    )
    .expect("write");
    fds::close(fd);
    let mut done = String::new();
    BufReader::new(&stream).read_line(&mut done).expect("read");
    assert_eq!(done, "imported\n");
    destroy(&dev, binary);
    expect::silent(&inst, GET_SEMAPHORE_FD);
}

/// The importer: receives the fd and imports it permanently into a new semaphore of its own.
fn import_side(socket: &Path, into_timeline: bool) {
    let listener = UnixListener::bind(socket).expect("bind");
    let inst = exclusive(Some(SWIFTSHADER_QUIRK));
    let dev = device(&inst);
    let (stream, _) = listener.accept().expect("accept");
    let fd = fds::recv_fd(stream.as_raw_fd());
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line).expect("read");
    let mut words = line.split_whitespace();
    let (pid, exported, name) = (
        words.next().expect("pid"),
        words.next().expect("semaphore"),
        words.next().expect("name"),
    );
    assert_ne!(pid, std::process::id().to_string(), "another process");
    let target = semaphore(&dev, into_timeline, None);
    let info = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(target)
        .handle_type(OPAQUE)
        .fd(fd);
    let before = call_count(c"vkImportSemaphoreFdKHR");
    let f = loader(&inst, &dev).fp().import_semaphore_fd_khr;
    // SAFETY: a live info structure; the semaphore is the device's.
    let r = unsafe { f(dev.handle(), &info) };
    if into_timeline {
        assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
        assert_eq!(
            call_count(c"vkImportSemaphoreFdKHR"),
            before,
            "never reached the driver"
        );
        fds::close(fd);
        let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, SEM_IMPORT_FD_HANDLE_TYPE_03264);
        expect::mentions(
            &m,
            &[
                &format!("is an opaque fd exported from VkSemaphore {exported}"),
                "(a binary semaphore of VkDevice 0x",
                &format!("exported with vkGetSemaphoreFdKHR by pid {pid} (`{name}`)"),
                &format!("is imported into {}", semaphore_name(target)),
                "The call was not passed to the driver.",
            ],
        );
    } else {
        assert_eq!(r, vk::Result::SUCCESS);
        expect::silent(&inst, IMPORT_SEMAPHORE_FD);
    }
    destroy(&dev, target);
    (&stream).write_all(b"imported\n").expect("write");
}

#[test]
fn another_process_s_binary_semaphore_fd_into_a_timeline_semaphore_is_03264_naming_it() {
    if is_child() {
        return child_role();
    }
    run_pair(true);
}

#[test]
fn a_valid_import_of_another_process_s_semaphore_fd_is_silent() {
    if is_child() {
        return child_role();
    }
    run_pair(false);
}
