//! Cross-process checking of semaphores (docs/cross-process.md): an opaque fd exported from a
//! semaphore in one process and imported in another is checked against the semaphore it came
//! from, as in one process (03263, 03264, 03323, 01544), and the importing semaphore's later
//! exports against the types that semaphore was created exportable as (01132). Each side is a child process (this test
//! binary, exec'd again) on the test driver, with the layer through the real loader; the fd goes
//! from the exporter to the importer over a Unix socket (`SCM_RIGHTS`); both name one shared
//! directory (`VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR`, what `exportcheck run` sets). The
//! importer asserts on what its app's messenger heard: the exact IDs, and messages naming the
//! exporting process.
//!
//! Every scenario runs in both of the test driver's `fd_export` modes
//! ([`in_both_fd_export_modes!`]): memfds (the payload's own file, found by its identity) and
//! device files (NVIDIA's way: every export a new open file description of one device, found by
//! `kcmp` against the exporting process's descriptor of it, which is retired when the exporting
//! semaphore is destroyed). The tests named `on_a_real_driver_*` run a few of them on the real
//! driver `EXPORTCHECK_TEST_REAL_ICD` names (NVIDIA's on the GPU machine: scripts/gpu-run.sh);
//! ignored elsewhere.

#![cfg(target_os = "linux")]

use ash::vk::{self, Handle};
use exportcheck_tests::child::{is_child, Child, CHILD_ENV};
use exportcheck_tests::env::Driver;
use exportcheck_tests::expect;
use exportcheck_tests::fd_export::FdExport;
use exportcheck_tests::fds::{self, connect};
use exportcheck_tests::ids::*;
use exportcheck_tests::in_both_fd_export_modes;
use exportcheck_tests::semaphores::{destroy, exportable, semaphore_device, semaphore_name, Types};
use exportcheck_tests::test_driver::{call_count, exclusive};
use exportcheck_tests::{Captured, Device, Instance, Options};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DIR_VAR: &str = "VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR";
const SOCKET_VAR: &str = "EXPORTCHECK_TEST_SOCKET";
const OPAQUE: Types = Types::OPAQUE_FD;
const TEMPORARY: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::TEMPORARY;

/// The importer's test driver: it aborts, as SwiftShader crashes, on a binary semaphore's fd
/// imported into a timeline semaphore (an import that reached it would end the importer); one
/// physical device, or two (the second of another deviceUUID), in either `fd_export` mode.
fn importer_config(mode: FdExport, physical_devices: u32) -> &'static str {
    match (mode, physical_devices) {
        (FdExport::Memfd, 1) => r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true}}"#,
        (FdExport::Memfd, _) => {
            r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true},
                "physical_device_count": 2}"#
        }
        (FdExport::DeviceFile, 1) => {
            r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true},
                "fd_export": "device_file"}"#
        }
        (FdExport::DeviceFile, _) => {
            r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true},
                "fd_export": "device_file", "physical_device_count": 2}"#
        }
    }
}

/// The driver both sides run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum On {
    /// The test driver, its opaque fds made as `fd_export` says.
    TestDriver(FdExport),
    /// The real driver `EXPORTCHECK_TEST_REAL_ICD` names.
    Real,
}

impl On {
    /// An instance of the exporter (`importer`: of the importer, with `physical_devices`).
    fn instance(self, importer: bool, physical_devices: u32) -> Instance {
        match self {
            On::TestDriver(mode) if importer => {
                exclusive(Some(importer_config(mode, physical_devices)))
            }
            On::TestDriver(mode) => exclusive(mode.config()),
            On::Real => Instance::exclusive_with(Options {
                driver: Driver::Real,
                api_version: vk::API_VERSION_1_2,
                ..Options::default()
            }),
        }
    }
}

/// One pair: what the exporter exports, what the importer imports it into, and what the
/// importer's layer must say.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// The exported semaphore is a timeline semaphore (else binary).
    exported_timeline: bool,
    /// Its `VkSemaphoreCreateInfo::flags` (reserved bits, which the test driver accepts).
    exported_flags: u32,
    /// The exporter destroys the exported semaphore before it sends the fd, after exporting
    /// another semaphore, a timeline one of other flags, whose export may take the number the
    /// layer held the first one's under.
    destroyed_first: bool,
    /// The importing semaphore is a timeline semaphore (else binary).
    into_timeline: bool,
    /// Its `VkSemaphoreCreateInfo::flags`.
    importer_flags: u32,
    /// Imported with `VK_SEMAPHORE_IMPORT_TEMPORARY_BIT`.
    temporary: bool,
    /// The importer's instance has this many physical devices (the second of another deviceUUID)
    physical_devices: u32,
    /// The importer's device is on this one of them.
    importer_device: usize,
    /// The one ID the import gets, if any.
    finding: Option<&'static str>,
    /// After a valid import, the importing semaphore (created without
    /// `VkExportSemaphoreCreateInfo`) exports its payload as this type, and gets this one ID, if
    /// any.
    export_after: Option<(Types, Option<&'static str>)>,
}

const VALID: Plan = Plan {
    exported_timeline: false,
    exported_flags: 0,
    destroyed_first: false,
    into_timeline: false,
    importer_flags: 0,
    temporary: false,
    physical_devices: 1,
    importer_device: 0,
    finding: None,
    export_after: None,
};

/// Runs the importer and the exporter of `plan`, sharing exports in one private directory, in
/// the test driver's `mode`; in a child, its role.
fn pair(mode: FdExport, plan: Plan) {
    pair_on(On::TestDriver(mode), plan);
}

/// [`pair`] on `on`; on a real driver, skipped (and said so) where it cannot export the plan's
/// semaphore.
fn pair_on(on: On, plan: Plan) {
    if is_child() {
        let socket = PathBuf::from(std::env::var(SOCKET_VAR).expect("socket"));
        return match std::env::var(CHILD_ENV).expect("a child").as_str() {
            "export" => export_side(on, &plan, &socket),
            "import" => import_side(on, &plan, &socket),
            other => panic!("unknown role {other}"),
        };
    }
    if on == On::Real {
        let inst = on.instance(false, 1);
        if !exportable(&inst, plan.exported_timeline, OPAQUE) {
            println!("skipped: the driver does not export this semaphore as OPAQUE_FD");
            return;
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("pair.sock");
    let child = |role: &str| {
        Child::new(role)
            .env(DIR_VAR, dir.path().join("exports"))
            .env(SOCKET_VAR, &socket)
            // The real driver's tests are ignored where none is named: the child runs its test.
            .arg("--include-ignored")
            .spawn()
    };
    let importer = child("import");
    let exporter = child("export");
    let importer = importer.wait();
    let exporter = exporter.wait();
    // What the driver's export is, as the exporter saw it (on a real driver: NVIDIA's device file).
    for line in exporter
        .stdout
        .lines()
        .filter(|l| l.starts_with("exported: "))
    {
        println!("{line}");
    }
    // The importer's own checks passed (`wait` asserts it); nothing else said on stderr.
    assert!(importer.stderr_layer_lines().is_empty(), "{importer:?}");
}

fn loader(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_fd::Device {
    ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
}

/// A semaphore of `flags`, binary or timeline, exportable as an opaque fd if `exportable`.
fn semaphore_with(dev: &Device, flags: u32, timeline: bool, exportable: bool) -> vk::Semaphore {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut export = vk::ExportSemaphoreCreateInfo::default().handle_types(OPAQUE);
    let mut info =
        vk::SemaphoreCreateInfo::default().flags(vk::SemaphoreCreateFlags::from_raw(flags));
    if timeline {
        info = info.push_next(&mut ty);
    }
    if exportable {
        info = info.push_next(&mut export);
    }
    // SAFETY: a live device and a create info whose chain lives through the call.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

/// An opaque fd of `semaphore`.
fn export(inst: &Instance, dev: &Device, semaphore: vk::Semaphore) -> i32 {
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(OPAQUE);
    // SAFETY: a live info structure.
    unsafe { loader(inst, dev).get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR")
}

/// The exporter's connection, waiting for it as long as [`connect`] waits for the importer (an
/// exporter that failed never comes: the importer fails then rather than wait for ever).
fn accept(listener: &UnixListener) -> UnixStream {
    listener.set_nonblocking(true).expect("nonblocking");
    let start = Instant::now();
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).expect("blocking");
                return stream;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(
                    start.elapsed() < Duration::from_secs(300),
                    "no exporter came"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("accept: {e}"),
        }
    }
}

/// The exporter: exports its semaphore's opaque fd and sends it with its pid, the semaphore and
/// its name; keeps the semaphore (unless the plan destroys it first) until the importer is done.
fn export_side(on: On, plan: &Plan, socket: &Path) {
    let inst = on.instance(false, 1);
    let dev = semaphore_device(&inst, &[ash::khr::external_semaphore_fd::NAME]);
    let exported = semaphore_with(&dev, plan.exported_flags, plan.exported_timeline, true);
    let fd = export(&inst, &dev, exported);
    let file = std::fs::read_link(format!("/proc/self/fd/{fd}")).expect("readlink");
    println!(
        "exported: fd {fd} is {} ({:?})",
        file.display(),
        fds::identity(fd)
    );
    let mut kept = vec![];
    if plan.destroyed_first {
        destroy(&dev, exported);
        let later = semaphore_with(&dev, 1, true, true);
        let later_fd = export(&inst, &dev, later);
        kept.push((later, later_fd));
    } else {
        kept.push((exported, -1));
    }
    let mut stream = connect(socket);
    fds::send_fd(stream.as_raw_fd(), fd);
    let name = std::fs::read_to_string("/proc/self/comm").expect("comm");
    writeln!(
        stream,
        "{} 0x{:x} {}",
        std::process::id(),
        exported.as_raw(),
        name.trim_end()
    )
    .expect("write");
    fds::close(fd);
    let mut done = String::new();
    BufReader::new(&stream).read_line(&mut done).expect("read");
    assert_eq!(done, "imported\n");
    for (semaphore, fd) in kept {
        if fd >= 0 {
            fds::close(fd);
        }
        destroy(&dev, semaphore);
    }
    expect::silent(&inst, GET_SEMAPHORE_FD);
}

/// The importer: receives the fd and imports it into a new semaphore of its own, as the plan
/// says.
fn import_side(on: On, plan: &Plan, socket: &Path) {
    let listener = UnixListener::bind(socket).expect("bind");
    let inst = on.instance(true, plan.physical_devices);
    let dev = if plan.physical_devices == 1 {
        semaphore_device(&inst, &[ash::khr::external_semaphore_fd::NAME])
    } else {
        let devices = inst.physical_devices();
        let extensions = [
            ash::khr::external_semaphore::NAME,
            ash::khr::external_semaphore_fd::NAME,
        ];
        inst.device_on(devices[plan.importer_device].0, &extensions, false)
    };
    let stream = accept(&listener);
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
    let target = semaphore_with(&dev, plan.importer_flags, plan.into_timeline, false);
    let flags = if plan.temporary {
        TEMPORARY
    } else {
        vk::SemaphoreImportFlags::empty()
    };
    let info = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(target)
        .handle_type(OPAQUE)
        .flags(flags)
        .fd(fd);
    // What reached the driver is counted by the test driver only.
    let reached = || (on != On::Real).then(|| call_count(c"vkImportSemaphoreFdKHR"));
    let before = reached();
    let f = loader(&inst, &dev).fp().import_semaphore_fd_khr;
    // SAFETY: a live info structure; the semaphore is the device's.
    let r = unsafe { f(dev.handle(), &info) };
    let from = format!("exported from VkSemaphore {exported}");
    let by = format!("exported with vkGetSemaphoreFdKHR by pid {pid} (`{name}`)");
    match plan.finding {
        None => {
            assert_eq!(r, vk::Result::SUCCESS);
            expect::silent(&inst, IMPORT_SEMAPHORE_FD);
            if let Some(after) = plan.export_after {
                export_imported_payload(&inst, &dev, target, after);
            }
        }
        Some(id) => {
            let blocked = id == SEM_IMPORT_FD_HANDLE_TYPE_03264 || id == SEM_IMPORT_FD_FLAGS_03323;
            let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, id);
            expect::mentions(&m, &[&from, &by]);
            if blocked {
                assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
                assert_eq!(reached(), before, "never reached the driver");
                expect::mentions(&m, &["The call was not passed to the driver."]);
                fds::close(fd);
            } else {
                assert_eq!(r, vk::Result::SUCCESS, "reported, and passed down");
            }
            expect::mentions(&m, &[&semaphore_name(target)]);
            expect_details(id, &m);
        }
    }
    destroy(&dev, target);
    (&stream).write_all(b"imported\n").expect("write");
}

/// The importing semaphore `target`'s payload, imported from the other process, exported as `t`:
/// `finding` or silence.
fn export_imported_payload(
    inst: &Instance,
    dev: &Device,
    target: vk::Semaphore,
    (t, finding): (Types, Option<&str>),
) {
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(target)
        .handle_type(t);
    let mut fd = -1;
    let get = loader(inst, dev).fp().get_semaphore_fd_khr;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get(dev.handle(), &info, &mut fd) };
    if r == vk::Result::SUCCESS && fd >= 0 {
        fds::close(fd);
    }
    match finding {
        None => {
            assert_eq!(r, vk::Result::SUCCESS, "vkGetSemaphoreFdKHR");
            expect::silent(inst, GET_SEMAPHORE_FD);
        }
        Some(id) => {
            let m = expect::one(inst, GET_SEMAPHORE_FD, id);
            expect::mentions(
                &m,
                &[
                    &format!("the current payload of {}", semaphore_name(target)),
                    "from an export the layer saw, whose semaphore was created with \
                     VkExportSemaphoreCreateInfo::handleTypes = \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
                ],
            );
        }
    }
}

/// What each ID's message says of the two sides, beyond naming them.
fn expect_details(id: &str, m: &Captured) {
    let details: &[&str] = match id {
        SEM_IMPORT_FD_HANDLE_TYPE_03264 => &[
            "(a binary semaphore of VkDevice 0x",
            "semaphoreType must match that of the semaphore the fd was exported from",
        ],
        SEM_IMPORT_FD_HANDLE_TYPE_03263 => &[
            "created with VkSemaphoreCreateInfo::flags 0x0",
            "was created with flags 0x1",
        ],
        SEM_IMPORT_FD_FLAGS_03323 => &[
            "pImportSemaphoreFdInfo->flags is VK_SEMAPHORE_IMPORT_TEMPORARY_BIT",
            "(a timeline semaphore of VkDevice 0x",
            "cannot be imported temporarily",
        ],
        SEM_IMPORT_FD_FD_01544 => &["other deviceUUIDs, or another driverUUID, than this device's"],
        _ => &[],
    };
    expect::mentions(m, details);
}

fn another_process_s_binary_semaphore_fd_into_a_timeline_semaphore_is_03264_naming_it(
    mode: FdExport,
) {
    let plan = Plan {
        into_timeline: true,
        finding: Some(SEM_IMPORT_FD_HANDLE_TYPE_03264),
        ..VALID
    };
    pair(mode, plan);
}

fn a_valid_import_of_another_process_s_semaphore_fd_is_silent(mode: FdExport) {
    pair(mode, VALID);
}

fn another_process_s_semaphore_fd_into_one_of_other_create_flags_is_03263(mode: FdExport) {
    let plan = Plan {
        importer_flags: 1,
        finding: Some(SEM_IMPORT_FD_HANDLE_TYPE_03263),
        ..VALID
    };
    pair(mode, plan);
}

fn another_process_s_semaphore_fd_into_one_of_the_same_create_flags_is_silent(mode: FdExport) {
    let plan = Plan {
        exported_flags: 1,
        importer_flags: 1,
        ..VALID
    };
    pair(mode, plan);
}

fn another_process_s_timeline_semaphore_fd_imported_temporarily_is_03323(mode: FdExport) {
    let plan = Plan {
        exported_timeline: true,
        into_timeline: true,
        temporary: true,
        finding: Some(SEM_IMPORT_FD_FLAGS_03323),
        ..VALID
    };
    pair(mode, plan);
}

fn another_process_s_timeline_semaphore_fd_imported_permanently_is_silent(mode: FdExport) {
    let plan = Plan {
        exported_timeline: true,
        into_timeline: true,
        ..VALID
    };
    pair(mode, plan);
}

fn another_process_s_semaphore_fd_on_a_physical_device_of_another_uuid_is_01544(mode: FdExport) {
    let plan = Plan {
        physical_devices: 2,
        importer_device: 1,
        finding: Some(SEM_IMPORT_FD_FD_01544),
        ..VALID
    };
    pair(mode, plan);
}

fn another_process_s_semaphore_fd_on_a_physical_device_of_the_same_uuid_is_silent(mode: FdExport) {
    let plan = Plan {
        physical_devices: 2,
        importer_device: 0,
        ..VALID
    };
    pair(mode, plan);
}

/// The exporter destroyed the semaphore and exported another, of another type and flags,
/// before the import: the import, into a semaphore like the destroyed one, is never judged
/// against the later export (nor, on device files, against the destroyed one, whose record was
/// retired). On memfds the destroyed semaphore's record still names its payload, which lives
/// on: the import matches it, and it is valid.
fn an_import_after_the_exporter_destroyed_its_semaphore_is_judged_against_no_other(mode: FdExport) {
    let plan = Plan {
        destroyed_first: true,
        ..VALID
    };
    pair(mode, plan);
}

/// The importing semaphore, created without `VkExportSemaphoreCreateInfo`, exports the imported
/// payload as the exporting semaphore was created exportable as: silent (the Khronos layer
/// reports 01132 here, from the importing semaphore's create info).
fn another_process_s_payload_exported_again_as_its_exporters_type_is_silent(mode: FdExport) {
    let plan = Plan {
        export_after: Some((OPAQUE, None)),
        ..VALID
    };
    pair(mode, plan);
}

/// ... and as a type the exporting semaphore, in the other process, was not created exportable
/// as: 01132.
fn another_process_s_payload_exported_again_as_another_type_is_01132(mode: FdExport) {
    let plan = Plan {
        export_after: Some((Types::SYNC_FD, Some(SEM_FD_HANDLE_TYPE_01132))),
        ..VALID
    };
    pair(mode, plan);
}

in_both_fd_export_modes!(
    another_process_s_payload_exported_again_as_its_exporters_type_is_silent,
    another_process_s_payload_exported_again_as_another_type_is_01132,
    another_process_s_binary_semaphore_fd_into_a_timeline_semaphore_is_03264_naming_it,
    a_valid_import_of_another_process_s_semaphore_fd_is_silent,
    another_process_s_semaphore_fd_into_one_of_other_create_flags_is_03263,
    another_process_s_semaphore_fd_into_one_of_the_same_create_flags_is_silent,
    another_process_s_timeline_semaphore_fd_imported_temporarily_is_03323,
    another_process_s_timeline_semaphore_fd_imported_permanently_is_silent,
    another_process_s_semaphore_fd_on_a_physical_device_of_another_uuid_is_01544,
    another_process_s_semaphore_fd_on_a_physical_device_of_the_same_uuid_is_silent,
    an_import_after_the_exporter_destroyed_its_semaphore_is_judged_against_no_other,
);

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn on_a_real_driver_a_valid_import_of_another_process_s_semaphore_fd_is_silent() {
    pair_on(On::Real, VALID);
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn on_a_real_driver_another_process_s_binary_semaphore_fd_into_a_timeline_semaphore_is_03264() {
    let plan = Plan {
        into_timeline: true,
        finding: Some(SEM_IMPORT_FD_HANDLE_TYPE_03264),
        ..VALID
    };
    pair_on(On::Real, plan);
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn on_a_real_driver_another_process_s_timeline_semaphore_fd_imported_temporarily_is_03323() {
    let plan = Plan {
        exported_timeline: true,
        into_timeline: true,
        temporary: true,
        finding: Some(SEM_IMPORT_FD_FLAGS_03323),
        ..VALID
    };
    pair_on(On::Real, plan);
}
