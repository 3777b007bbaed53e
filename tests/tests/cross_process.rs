//! Cross-process checking (docs/cross-process.md): memory exported as an fd in one process and
//! imported in another. Each side is a child process (this test binary, exec'd again) with the
//! layer through the real loader; the fd goes from the exporter to the importer over a Unix
//! socket (`SCM_RIGHTS`); both name one shared directory
//! (`VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR`, what `exportcheck run` sets). On lavapipe,
//! SwiftShader and the test driver, and across two of them. The importer
//! asserts on what its app's messenger heard: the exact IDs, and messages naming both sides.

#![cfg(target_os = "linux")]

use ash::vk::{self, Handle};
use exportcheck_tests::child::{is_child, Child, ChildRun, Running, CHILD_ENV};
use exportcheck_tests::env::Driver;
use exportcheck_tests::fd_export::FdExport;
use exportcheck_tests::fds::connect;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, Options, DMA_BUF, OPAQUE_FD, SIZE};
use exportcheck_tests::{swiftshader, test_driver};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DIR_VAR: &str = "VK_EXPORTCHECK_VALIDATION_SHARED_EXPORTS_DIR";
const PLAN_VAR: &str = "EXPORTCHECK_TEST_PLAN";
const SOCKET_VAR: &str = "EXPORTCHECK_TEST_SOCKET";

/// The driver both sides run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum On {
    Lavapipe,
    TestDriver,
    /// The test driver exporting as NVIDIA's driver does: every export a new open file
    /// description of one device file (`fd_export: device_file`).
    DeviceFiles,
    SwiftShader,
    /// The real driver `EXPORTCHECK_TEST_REAL_ICD` names (NVIDIA's on the GPU machine).
    Real,
}

/// What one exporter/importer pair does.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// The exporter's driver.
    on: On,
    /// The importer's driver.
    import_on: On,
    export_size: u64,
    export_type: u32,
    import_size: u64,
    import_type: u32,
    import_as: vk::ExternalMemoryHandleTypeFlags,
    export_as: vk::ExternalMemoryHandleTypeFlags,
    /// The importer imports dedicated to a buffer of its own.
    dedicated_buffer: bool,
    /// The importer imports dedicated to an image of its own.
    dedicated_image: bool,
    /// The exporter frees everything and exits before the importer imports.
    exporter_exits_first: bool,
    /// The importer runs under a seccomp filter that refuses kcmp (as a container's may).
    importer_refuses_kcmp: bool,
    /// What the importer's messenger must hear at vkAllocateMemory, in order.
    expect: &'static [&'static str],
}

impl Plan {
    /// A valid pair on `on`: the import gives what the export was allocated with.
    const fn valid(on: On) -> Self {
        Self {
            on,
            import_on: on,
            export_size: SIZE,
            export_type: 0,
            import_size: SIZE,
            import_type: 0,
            import_as: OPAQUE_FD,
            export_as: OPAQUE_FD,
            dedicated_buffer: false,
            dedicated_image: false,
            exporter_exits_first: false,
            importer_refuses_kcmp: false,
            expect: &[],
        }
    }

    fn encode(&self) -> String {
        format!(
            "{:?},{:?},{},{},{},{},{},{},{},{},{},{},{}",
            self.on,
            self.import_on,
            self.export_size,
            self.export_type,
            self.import_size,
            self.import_type,
            self.import_as.as_raw(),
            self.export_as.as_raw(),
            self.dedicated_buffer,
            self.dedicated_image,
            self.exporter_exits_first,
            self.importer_refuses_kcmp,
            self.expect.join("+")
        )
    }

    /// The plan the parent passed (the IDs by their catalog names).
    fn from_env() -> (Self, Vec<String>) {
        let text = std::env::var(PLAN_VAR).expect("the parent passes a plan");
        let f: Vec<&str> = text.split(',').collect();
        let on = |s: &str| match s {
            "Lavapipe" => On::Lavapipe,
            "DeviceFiles" => On::DeviceFiles,
            "SwiftShader" => On::SwiftShader,
            "Real" => On::Real,
            _ => On::TestDriver,
        };
        let plan = Self {
            on: on(f[0]),
            import_on: on(f[1]),
            export_size: f[2].parse().unwrap(),
            export_type: f[3].parse().unwrap(),
            import_size: f[4].parse().unwrap(),
            import_type: f[5].parse().unwrap(),
            import_as: vk::ExternalMemoryHandleTypeFlags::from_raw(f[6].parse().unwrap()),
            export_as: vk::ExternalMemoryHandleTypeFlags::from_raw(f[7].parse().unwrap()),
            dedicated_buffer: f[8] == "true",
            dedicated_image: f[9] == "true",
            exporter_exits_first: f[10] == "true",
            importer_refuses_kcmp: f[11] == "true",
            expect: &[],
        };
        let ids = f[12]
            .split('+')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        (plan, ids)
    }

    /// An instance on `on`.
    fn instance(on: On) -> Instance {
        match on {
            On::Lavapipe => Instance::new(),
            On::TestDriver => test_driver::instance(None),
            On::DeviceFiles => test_driver::instance(FdExport::DeviceFile.config()),
            On::SwiftShader => swiftshader::instance(),
            On::Real => Instance::with(Options {
                driver: Driver::Real,
                ..Options::default()
            }),
        }
    }

    /// A device of `inst` on `on` for fd exports and imports.
    fn device(on: On, inst: &Instance) -> Device {
        match on {
            On::Lavapipe | On::SwiftShader | On::Real => inst.fd_device(),
            On::TestDriver | On::DeviceFiles => inst.device(&[
                ash::khr::external_memory::NAME,
                ash::khr::external_memory_fd::NAME,
                ash::ext::external_memory_dma_buf::NAME,
            ]),
        }
    }
}

/// One pair under way.
struct Pair {
    importer: Running,
    exporter: Running,
}

/// Starts the importer (which listens on a socket of `dir`) and the exporter of `plan`, both
/// sharing exports in `dir/exports`; `n` tells this pair's socket from others'.
fn start(plan: &Plan, dir: &Path, n: usize) -> Pair {
    let socket = dir.join(format!("pair-{n}.sock"));
    let exports = dir.join("exports");
    let child = |role: &str| {
        Child::new(role)
            // The real driver's pairs are #[ignore]d tests: their children run them all the same.
            .arg("--include-ignored")
            .env(DIR_VAR, &exports)
            .env(PLAN_VAR, plan.encode())
            .env(SOCKET_VAR, &socket)
    };
    let importer = child("import").spawn();
    let exporter = child("export").spawn();
    Pair { importer, exporter }
}

impl Pair {
    /// Waits for both, the importer first (an exporter fails when its importer did).
    fn wait(self) -> (ChildRun, ChildRun) {
        let importer = self.importer.wait();
        (self.exporter.wait(), importer)
    }
}

/// A private directory for one test's pairs.
fn private_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// Runs one pair of `plan` to the end.
fn run(plan: Plan) -> (ChildRun, ChildRun) {
    let dir = private_dir();
    start(&plan, dir.path(), 0).wait()
}

/// In a child: its role.
fn child_role() {
    let role = std::env::var(CHILD_ENV).expect("a child");
    let socket = PathBuf::from(std::env::var(SOCKET_VAR).expect("socket"));
    let (plan, ids) = Plan::from_env();
    match role.as_str() {
        "export" => export_side(&plan, &socket),
        "import" => import_side(&plan, &socket, &ids),
        other => panic!("unknown role {other}"),
    }
}

/// The exporter: allocates, exports an opaque fd, sends it with its pid, name and memory.
fn export_side(plan: &Plan, socket: &Path) {
    let inst = Plan::instance(plan.on);
    let dev = Plan::device(plan.on, &inst);
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(plan.export_as);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(plan.export_size)
        .memory_type_index(plan.export_type)
        .push_next(&mut export);
    let memory = dev.allocate_with(&info).expect("vkAllocateMemory");
    let (r, fd) = dev.get_fd(memory, plan.export_as);
    assert_eq!(r, vk::Result::SUCCESS);
    let mut stream = connect(socket);
    fds::send_fd(stream.as_raw_fd(), fd);
    let name = std::fs::read_to_string("/proc/self/comm").expect("comm");
    writeln!(
        stream,
        "{} 0x{:x} {}",
        std::process::id(),
        memory.as_raw(),
        name.trim_end()
    )
    .expect("write");
    fds::close(fd);
    if !plan.exporter_exits_first {
        // Wait for the importer's word that it imported.
        let mut done = String::new();
        BufReader::new(&stream).read_line(&mut done).expect("read");
        assert_eq!(done, "imported\n");
    }
    dev.free(memory);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    // The stream closes as the process ends: the importer of an exporter that exits first
    // waits for that.
}

/// Whether the process `pid` has ended: gone, or a zombie its parent has not waited for yet.
fn has_ended(pid: &str) -> bool {
    let start = Instant::now();
    loop {
        let ended = match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            // `pid (comm) S ...`: the state follows the last parenthesis.
            Ok(stat) => stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
        };
        if ended || start.elapsed() > Duration::from_secs(60) {
            return ended;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The importer: receives the fd, imports it as the plan says, and asserts what it hears.
fn import_side(plan: &Plan, socket: &Path, ids: &[String]) {
    let listener = UnixListener::bind(socket).expect("bind");
    if plan.importer_refuses_kcmp {
        fds::refuse_kcmp();
    }
    let inst = Plan::instance(plan.import_on);
    let dev = Plan::device(plan.import_on, &inst);
    let (stream, _) = listener.accept().expect("accept");
    let fd = fds::recv_fd(stream.as_raw_fd());
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    reader.read_line(&mut line).expect("read");
    let mut words = line.split_whitespace();
    let (pid, memory, name) = (
        words.next().expect("pid"),
        words.next().expect("memory"),
        words.next().expect("name"),
    );
    if plan.exporter_exits_first {
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).expect("read to the end");
        assert!(has_ended(pid), "the exporter has ended");
    }
    let buffer = plan
        .dedicated_buffer
        .then(|| dev.external_buffer(vk::BufferUsageFlags::TRANSFER_DST, OPAQUE_FD));
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(plan.import_as)
        .fd(fd);
    let image = plan
        .dedicated_image
        .then(|| dev.external_image(vk::ImageUsageFlags::SAMPLED, OPAQUE_FD));
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .buffer(buffer.unwrap_or_default())
        .image(image.unwrap_or_default());
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(plan.import_size)
        .memory_type_index(plan.import_type)
        .push_next(&mut import);
    if buffer.is_some() || image.is_some() {
        info = info.push_next(&mut dedicated);
    }
    let result = dev.allocate_with(&info);
    if ids.is_empty() {
        expect::silent_for(&inst, &[ALLOCATE]);
    } else {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        for m in expect::only(&inst, ALLOCATE, &ids) {
            if m.id == KCMP_REFUSED {
                expect::mentions(
                    &m,
                    &["kcmp(KCMP_FILE) is refused against the other processes of the run (EPERM"],
                );
                continue;
            }
            if m.id == SHARED_EXPORTS_IGNORED {
                expect::mentions(
                    &m,
                    &[
                        "foreign.exports is not in the layer's format",
                        "the file is ignored",
                    ],
                );
                continue;
            }
            let exporter = if m.id == IMPORT_FD_HANDLE_TYPE_00670 {
                format!("exported by pid {pid} (`{name}`) as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT from VkDeviceMemory {memory}")
            } else {
                format!(
                    "exported by pid {pid} (`{name}`) as \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT from VkDeviceMemory {memory} \
                     with allocationSize {}, memoryTypeIndex {}, not dedicated",
                    plan.export_size, plan.export_type
                )
            };
            expect::mentions(&m, &[&exporter]);
            if m.id != IMPORT_FD_HANDLE_TYPE_00670 {
                expect::mentions(
                    &m,
                    &[&format!(
                        "imported here with allocationSize {}, memoryTypeIndex {}",
                        plan.import_size, plan.import_type
                    )],
                );
            }
        }
    }
    match result {
        Ok(imported) => dev.free(imported),
        Err(_) => fds::close_if_open(fd),
    }
    if let Some(buffer) = buffer {
        dev.destroy_buffer(buffer);
    }
    if let Some(image) = image {
        dev.destroy_image(image);
    }
    if !plan.exporter_exits_first {
        (&stream).write_all(b"imported\n").expect("write");
    }
}

#[test]
fn a_valid_import_of_another_process_s_export_is_silent_on_lavapipe() {
    if is_child() {
        return child_role();
    }
    run(Plan::valid(On::Lavapipe));
}

#[test]
fn a_valid_import_of_another_process_s_export_is_silent_on_the_test_driver() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        export_type: 1,
        import_type: 1,
        ..Plan::valid(On::TestDriver)
    });
}

#[test]
fn another_size_than_the_exporter_s_is_01742_naming_both_sides_on_lavapipe() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_size: SIZE * 2,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(On::Lavapipe)
    });
}

#[test]
fn another_memory_type_than_the_exporter_s_is_01742_on_the_test_driver() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        export_type: 1,
        import_type: 0,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(On::TestDriver)
    });
}

#[test]
fn an_opaque_fd_imported_as_a_dma_buf_is_00670_naming_the_exporter() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_as: DMA_BUF,
        expect: &[IMPORT_FD_HANDLE_TYPE_00670],
        ..Plan::valid(On::TestDriver)
    });
}

#[test]
fn a_driver_s_dma_buf_export_that_is_no_dma_buf_imported_as_one_is_not_the_app_s_00670() {
    if is_child() {
        return child_role();
    }
    // The test driver returns a memfd for a DMA_BUF export: a driver defect, which the import
    // as DMA_BUF must not blame on the app.
    run(Plan {
        export_as: DMA_BUF,
        import_as: DMA_BUF,
        ..Plan::valid(On::TestDriver)
    });
}

#[test]
fn a_dedicated_import_of_memory_exported_without_is_01879_on_lavapipe() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        dedicated_buffer: true,
        expect: &[DEDICATED_BUFFER_01879],
        ..Plan::valid(On::Lavapipe)
    });
}

#[test]
fn a_dedicated_image_import_of_memory_exported_without_is_01878_on_lavapipe() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        dedicated_image: true,
        expect: &[DEDICATED_IMAGE_01878],
        ..Plan::valid(On::Lavapipe)
    });
}

#[test]
fn an_import_on_another_physical_device_and_driver_is_00668_01746_01520_00644() {
    if is_child() {
        return child_role();
    }
    // Lavapipe exports, the test driver imports: their deviceUUIDs and driverUUIDs differ, so
    // the importing device is also made of other physical devices than the exporting one.
    run(Plan {
        import_on: On::TestDriver,
        expect: &[
            IMPORT_FD_00668,
            IMPORT_FD_01746,
            IMPORT_FD_01520,
            ALLOC_NONE_00644,
        ],
        ..Plan::valid(On::Lavapipe)
    });
}

#[test]
fn an_exporter_that_exited_before_the_import_is_still_matched() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_size: SIZE / 2,
        exporter_exits_first: true,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(On::Lavapipe)
    });
    run(Plan {
        exporter_exits_first: true,
        ..Plan::valid(On::Lavapipe)
    });
}

#[test]
fn a_valid_import_of_another_process_s_export_is_silent_on_swiftshader() {
    if is_child() {
        return child_role();
    }
    // SwiftShader keeps the imported fd (the one received over the socket) until the free.
    run(Plan::valid(On::SwiftShader));
    run(Plan {
        exporter_exits_first: true,
        ..Plan::valid(On::SwiftShader)
    });
}

#[test]
fn another_size_than_the_exporter_s_is_01742_naming_both_sides_on_swiftshader() {
    if is_child() {
        return child_role();
    }
    for import_size in [SIZE / 2, SIZE * 2] {
        run(Plan {
            import_size,
            expect: &[ALLOC_SIZE_01742],
            ..Plan::valid(On::SwiftShader)
        });
    }
    run(Plan {
        import_size: SIZE / 2,
        exporter_exits_first: true,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(On::SwiftShader)
    });
}

#[test]
fn a_dedicated_import_of_memory_exported_without_is_01879_on_swiftshader() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        dedicated_buffer: true,
        expect: &[DEDICATED_BUFFER_01879],
        ..Plan::valid(On::SwiftShader)
    });
}

#[test]
fn a_swiftshader_export_imported_on_lavapipe_is_00668_01746_01520_00644() {
    if is_child() {
        return child_role();
    }
    // Both memfds, so lavapipe would map it; but their deviceUUIDs and driverUUIDs differ.
    run(Plan {
        import_on: On::Lavapipe,
        expect: &[
            IMPORT_FD_00668,
            IMPORT_FD_01746,
            IMPORT_FD_01520,
            ALLOC_NONE_00644,
        ],
        ..Plan::valid(On::SwiftShader)
    });
}

#[test]
fn a_foreign_file_in_the_directory_is_ignored_with_a_warning_and_the_rest_still_matched() {
    if is_child() {
        return child_role();
    }
    let dir = private_dir();
    let exports = dir.path().join("exports");
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(&exports)
        .expect("mkdir");
    std::fs::write(exports.join("foreign.exports"), [0x5a; 512]).expect("write");
    let plan = Plan {
        import_size: SIZE * 2,
        expect: &[SHARED_EXPORTS_IGNORED, ALLOC_SIZE_01742],
        ..Plan::valid(On::Lavapipe)
    };
    start(&plan, dir.path(), 0).wait();
}

#[test]
fn on_device_files_a_valid_import_of_another_process_s_export_is_silent() {
    if is_child() {
        return child_role();
    }
    run(Plan::valid(On::DeviceFiles));
}

#[test]
fn on_device_files_another_size_than_the_exporter_s_is_01742_found_by_kcmp() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_size: SIZE / 2,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(On::DeviceFiles)
    });
}

#[test]
fn on_device_files_a_dedicated_import_of_memory_exported_without_is_01879() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        dedicated_buffer: true,
        expect: &[DEDICATED_BUFFER_01879],
        ..Plan::valid(On::DeviceFiles)
    });
}

#[test]
fn on_device_files_an_opaque_fd_imported_as_a_dma_buf_is_00670_naming_the_exporter() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_as: DMA_BUF,
        expect: &[IMPORT_FD_HANDLE_TYPE_00670],
        ..Plan::valid(On::DeviceFiles)
    });
}

#[test]
fn on_device_files_kcmp_refused_to_the_importer_is_said_once_and_nothing_is_matched() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_size: SIZE / 2,
        importer_refuses_kcmp: true,
        expect: &[KCMP_REFUSED],
        ..Plan::valid(On::DeviceFiles)
    });
}

#[test]
fn a_hundred_pairs_at_once_lose_no_finding_and_make_none_up_on_device_files() {
    if is_child() {
        return child_role();
    }
    hundred_pairs(On::DeviceFiles);
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn on_a_real_driver_a_valid_import_of_another_process_s_export_is_silent() {
    if is_child() {
        return child_role();
    }
    run(Plan::valid(On::Real));
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn on_a_real_driver_another_size_than_the_exporter_s_is_01742() {
    if is_child() {
        return child_role();
    }
    run(Plan {
        import_size: SIZE * 2,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(On::Real)
    });
}

#[test]
#[ignore = "needs a real driver: EXPORTCHECK_TEST_REAL_ICD names its manifest"]
fn on_a_real_driver_a_hundred_pairs_at_once_lose_no_finding_and_make_none_up() {
    if is_child() {
        return child_role();
    }
    hundred_pairs(On::Real);
}

/// 100 pairs at once on `on`, every other one importing another size: each wrong one gets
/// exactly its own finding, naming its own exporter; each right one nothing.
fn hundred_pairs(on: On) {
    let dir = private_dir();
    let wrong = Plan {
        import_size: SIZE * 2,
        expect: &[ALLOC_SIZE_01742],
        ..Plan::valid(on)
    };
    let pairs: Vec<Pair> = (0..100)
        .map(|n| {
            let plan = if n % 2 == 0 { wrong } else { Plan::valid(on) };
            start(&plan, dir.path(), n)
        })
        .collect();
    for pair in pairs {
        pair.wait();
    }
}

#[test]
fn a_hundred_pairs_at_once_lose_no_finding_and_make_none_up_on_the_test_driver() {
    if is_child() {
        return child_role();
    }
    hundred_pairs(On::TestDriver);
}

#[test]
fn a_hundred_pairs_at_once_lose_no_finding_and_make_none_up_on_lavapipe() {
    if is_child() {
        return child_role();
    }
    hundred_pairs(On::Lavapipe);
}

#[test]
fn a_hundred_pairs_at_once_lose_no_finding_and_make_none_up_on_swiftshader() {
    if is_child() {
        return child_role();
    }
    hundred_pairs(On::SwiftShader);
}

#[test]
fn a_directory_open_to_others_is_refused_with_a_warning_at_vkcreateinstance() {
    if is_child() {
        // The warning comes in vkCreateInstance: a messenger chained to its create info hears it.
        let inst = Instance::with(exportcheck_tests::Options {
            messenger_in_create_info: true,
            ..Default::default()
        });
        let messages = inst.settings_messages();
        assert_eq!(messages.len(), 1, "settings messages: {messages:#?}");
        assert_eq!(
            messages[0].severity,
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
        );
        expect::mentions(
            &messages[0],
            &[
                "cannot be used (mode 755: open to group or others, it must be private to the \
               user (0700)); imports are not checked against exports of other processes",
            ],
        );
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = private_dir();
    let open = dir.path().join("open");
    std::fs::create_dir(&open).expect("mkdir");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    Child::new("1").env(DIR_VAR, &open).run();
}
