//! The CUDA side across processes (docs/cuda.md): a Vulkan allocation exported as an opaque fd in
//! one process (the test driver, through the real loader with the layer) and imported into CUDA
//! in another that has no Vulkan instance at all, through the interposer and the test CUDA
//! library. The exports directory they share (`VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR`,
//! what `exportcheck run` sets) tells the importer's layer what the fd is; with no instance, the
//! findings go to stderr and to the importer's report, as under `exportcheck run`.

#![cfg(target_os = "linux")]

use ash::vk::{self, Handle};
use exportcheck_cuda_abi::CUDA_SUCCESS;
use exportcheck_tests::child::{is_child, Child, CHILD_ENV};
use exportcheck_tests::cuda_client::{self, interposed, Cuda, Through};
use exportcheck_tests::expect::{self, Kind};
use exportcheck_tests::fds::{self, connect};
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device, Types};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{OPAQUE_FD, SIZE};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};

const DIR_VAR: &str = "VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR";
const REPORT_VAR: &str = "VK_EXPORTCHECK_VALIDATION_REPORT_FILE";
const SOCKET_VAR: &str = "EXPORTCHECK_TEST_SOCKET";
const SIZE_VAR: &str = "EXPORTCHECK_TEST_CUDA_SIZE";
/// `memory`, or `semaphore` (a binary semaphore's fd, imported as the type in [`TIMELINE_VAR`]).
const WHAT_VAR: &str = "EXPORTCHECK_TEST_CUDA_EXPORTS";
const TIMELINE_VAR: &str = "EXPORTCHECK_TEST_CUDA_AS_TIMELINE";
const IMPORT_SEMAPHORE: &str = "cuImportExternalSemaphore";
const CUDA_SEMAPHORE_TYPE: &str = "EXPORTCHECK-cuda-semaphore-type";
const IMPORT: &str = "cuImportExternalMemory";
const CUDA_MEMORY_SIZE: &str = "EXPORTCHECK-cuda-memory-size";

/// Runs the exporter and the CUDA importer (declaring `size`); returns the importer's stderr,
/// the exporter's pid and memory (as the exporter printed them) and the importer's report.
fn run_pair(size: u64) -> (String, String, serde_json::Value) {
    run_pair_of("memory", size, false)
}

/// [`run_pair`] for `what` (`memory` or `semaphore`), a semaphore imported as a timeline one if
/// `as_timeline`.
fn run_pair_of(what: &str, size: u64, as_timeline: bool) -> (String, String, serde_json::Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("pair.sock");
    let reports = dir.path().join("reports");
    std::fs::create_dir_all(&reports).expect("reports dir");
    let importer = interposed(Child::new("import"), false)
        .env(DIR_VAR, dir.path().join("exports"))
        .env(SOCKET_VAR, &socket)
        .env(SIZE_VAR, size.to_string())
        .env(WHAT_VAR, what)
        .env(TIMELINE_VAR, if as_timeline { "1" } else { "0" })
        .env(REPORT_VAR, reports.join("report-%p.json"))
        .spawn();
    let exporter = Child::new("export")
        .env(DIR_VAR, dir.path().join("exports"))
        .env(SOCKET_VAR, &socket)
        .env(WHAT_VAR, what)
        .spawn();
    let importer_pid = importer.pid();
    let importer = importer.wait();
    let exporter = exporter.wait();
    let report = std::fs::read_to_string(reports.join(format!("report-{importer_pid}.json")))
        .expect("the importer's report");
    let exported = exporter
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("EXPORTED "))
        .expect("the exporter's line")
        .to_owned();
    (
        importer.stderr,
        exported,
        serde_json::from_str(&report).expect("a JSON report"),
    )
}

fn child_role() {
    let socket = PathBuf::from(std::env::var(SOCKET_VAR).expect("socket"));
    match std::env::var(CHILD_ENV).expect("a child").as_str() {
        "export" => export_side(&socket),
        "import" => import_side(&socket),
        other => panic!("unknown role {other}"),
    }
}

/// Sends `fd` to the importer (and closes this process's copy); returns once it imported it.
fn hand_over(socket: &Path, fd: i32) {
    let mut stream = connect(socket);
    fds::send_fd(stream.as_raw_fd(), fd);
    fds::close(fd);
    writeln!(stream, "sent").expect("write");
    let mut done = String::new();
    BufReader::new(&stream).read_line(&mut done).expect("read");
    assert_eq!(done, "imported\n");
}

/// The exporter: allocates and exports, sends the fd, keeps the memory until the import is done.
fn export_side(socket: &Path) {
    if std::env::var(WHAT_VAR).as_deref() == Ok("semaphore") {
        return export_semaphore(socket);
    }
    let inst = exclusive(None);
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    println!("EXPORTED {} {:#x}", std::process::id(), memory.as_raw());
    hand_over(socket, fd);
    dev.free(memory);
    expect::silent(&inst, "vkGetMemoryFdKHR");
}

/// The exporter of a binary semaphore's opaque fd.
fn export_semaphore(socket: &Path) {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, &[ash::khr::external_semaphore_fd::NAME]);
    let sem = semaphore(&dev, false, Some(Types::OPAQUE_FD));
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(sem)
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
    let loader = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    // SAFETY: a semaphore of this device, exportable as OPAQUE_FD.
    let fd = unsafe { loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    println!("EXPORTED {} {:#x}", std::process::id(), sem.as_raw());
    hand_over(socket, fd);
    destroy(&dev, sem);
    expect::silent(&inst, "vkGetSemaphoreFdKHR");
}

/// The importer: no Vulkan at all; imports the fd into CUDA with the size it was told.
fn import_side(socket: &Path) {
    let size: u64 = std::env::var(SIZE_VAR)
        .expect("size")
        .parse()
        .expect("a size");
    let listener = UnixListener::bind(socket).expect("bind");
    let (mut stream, _) = listener.accept().expect("accept");
    let fd = fds::recv_fd(stream.as_raw_fd());
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line).expect("read");
    let cuda = Cuda::open(Through::Symbol);
    if std::env::var(WHAT_VAR).as_deref() == Ok("semaphore") {
        let timeline = std::env::var(TIMELINE_VAR).as_deref() == Ok("1");
        let (r, imported) = cuda.import_semaphore(fd, timeline);
        assert_eq!(r, CUDA_SUCCESS);
        assert_eq!(cuda.destroy_semaphore(imported), CUDA_SUCCESS);
    } else {
        let (r, imported) = cuda.import_memory(fd, size, 0);
        assert_eq!(r, CUDA_SUCCESS);
        assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
    }
    writeln!(stream, "imported").expect("write");
}

#[test]
fn a_cuda_only_process_importing_another_processes_export_is_judged_against_it() {
    if is_child() {
        return child_role();
    }
    if cuda_client::unavailable() {
        return;
    }
    let (stderr, exported, report) = run_pair(2 * SIZE);
    let (pid, memory) = exported.split_once(' ').expect("pid and memory");
    let line = stderr
        .lines()
        .find(|l| l.contains(CUDA_MEMORY_SIZE))
        .unwrap_or_else(|| panic!("no {CUDA_MEMORY_SIZE} on the importer's stderr:\n{stderr}"));
    for part in [
        "cuImportExternalMemory(): memHandleDesc->size is 131072",
        &format!("VkDeviceMemory {memory}"),
        &format!("in process {pid}"),
        "whose allocationSize is 65536",
    ] {
        assert!(line.contains(part), "`{part}` not in: {line}");
    }
    let process = &report["process"];
    assert_eq!(process["cuda_calls"][IMPORT], 1, "{report:#}");
    assert_eq!(
        process["cuda_calls"]["cuDestroyExternalMemory"], 1,
        "{report:#}"
    );
    let ids: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert_eq!(ids, [CUDA_MEMORY_SIZE], "{report:#}");
    expect::record(Kind::Negative, &[CUDA_MEMORY_SIZE], IMPORT);
}

#[test]
fn a_cuda_only_process_importing_with_the_right_size_is_silent() {
    if is_child() {
        return child_role();
    }
    if cuda_client::unavailable() {
        return;
    }
    let (stderr, _, report) = run_pair(SIZE);
    assert!(!stderr.contains("EXPORTCHECK-"), "{stderr}");
    assert_eq!(
        report["findings"].as_array().map(Vec::len),
        Some(0),
        "{report:#}"
    );
    assert_eq!(report["process"]["cuda_calls"][IMPORT], 1, "{report:#}");
    expect::record(Kind::Positive, &[], IMPORT);
}

#[test]
fn a_cuda_only_process_importing_another_processes_binary_semaphore_as_a_timeline_is_judged() {
    if is_child() {
        return child_role();
    }
    if cuda_client::unavailable() {
        return;
    }
    let (stderr, exported, report) = run_pair_of("semaphore", 0, true);
    let (pid, semaphore) = exported.split_once(' ').expect("pid and semaphore");
    let line = stderr
        .lines()
        .find(|l| l.contains(CUDA_SEMAPHORE_TYPE))
        .unwrap_or_else(|| panic!("no {CUDA_SEMAPHORE_TYPE} on the importer's stderr:\n{stderr}"));
    for part in [
        "TIMELINE_SEMAPHORE_FD",
        "a binary semaphore",
        &format!("VkSemaphore {semaphore}"),
        &format!("in process {pid}"),
    ] {
        assert!(line.contains(part), "`{part}` not in: {line}");
    }
    assert_eq!(
        report["process"]["cuda_calls"][IMPORT_SEMAPHORE], 1,
        "{report:#}"
    );
    expect::record(Kind::Negative, &[CUDA_SEMAPHORE_TYPE], IMPORT_SEMAPHORE);
    let (stderr, _, report) = run_pair_of("semaphore", 0, false);
    assert!(!stderr.contains("EXPORTCHECK-"), "{stderr}");
    assert_eq!(
        report["findings"].as_array().map(Vec::len),
        Some(0),
        "{report:#}"
    );
    expect::record(Kind::Positive, &[], IMPORT_SEMAPHORE);
}
