//! A real interop program on the NVIDIA machine (docs/cuda.md, "On a real GPU"): a CUDA kernel
//! writes Vulkan-exported memory and Vulkan reads it back, under `exportcheck run`, once correct
//! and once with each mistake the CUDA side reports.
//!
//! Each test runs `exportcheck run --report R.json -- <this test binary>`; the test's child (the
//! Vulkan side, on the real driver `EXPORTCHECK_TEST_REAL_ICD` names) allocates host-visible
//! memory exportable as `OPAQUE_FD` (dedicated to its buffer in the dedicated cases), exports an
//! fd, lets it be inherited by the CUDA program (`tests/gpu/cuda_interop.cu`, a CUDA *runtime*
//! program, so its calls reach the driver through the runtime's `cuGetProcAddress`), and once
//! that has imported the fd, mapped it and run its kernel, reads the kernel's pattern back. The
//! test asserts on the run's merged report: the correct program has no finding and the CUDA
//! process's `cuda_calls` show its calls were seen; each mistake has its `EXPORTCHECK-cuda-*`
//! finding and no other.
//!
//! Ignored like the other real-driver tests; skipped, and said so, unless
//! `EXPORTCHECK_TEST_CUDA_PROGRAM` names the compiled program (scripts/gpu-run.sh compiles it
//! with `nvcc` on the NVIDIA machine and sets it) and `EXPORTCHECK_TEST_REAL_ICD` names the
//! driver.

#![cfg(target_os = "linux")]

use ash::vk::{self, Handle};
use exportcheck_tests::child::{is_child, CHILD_ENV};
use exportcheck_tests::env::{Driver, REAL_DRIVER_ICD};
use exportcheck_tests::{built, expect, fds, Device, Instance, Options, OPAQUE_FD};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The compiled `tests/gpu/cuda_interop.cu`.
const PROGRAM_VAR: &str = "EXPORTCHECK_TEST_CUDA_PROGRAM";
/// Set (to `1`) in the child when its allocation is to be dedicated to its buffer.
const DEDICATED_VAR: &str = "EXPORTCHECK_TEST_CUDA_DEDICATED";
/// The buffer's size (2 MiB: a whole large page of the GPU's, so that no page-size rounding of
/// the driver's comes into the sizes compared); its memory's `allocationSize` is what the driver
/// requires for it.
const BUFFER_SIZE: u64 = 2 << 20;
const IMPORT: &str = "cuImportExternalMemory";
const MAP: &str = "cuExternalMemoryGetMappedBuffer";
const DESTROY: &str = "cuDestroyExternalMemory";

/// What the CUDA program does (its MODE argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Correct,
    SizeTwice,
    DedicatedWrong,
    CloseAfterImport,
    ImportTwice,
}

impl Mode {
    fn arg(self) -> &'static str {
        match self {
            Mode::Correct => "correct",
            Mode::SizeTwice => "size-twice",
            Mode::DedicatedWrong => "dedicated-wrong",
            Mode::CloseAfterImport => "close-after-import",
            Mode::ImportTwice => "import-twice",
        }
    }

    fn from_arg(arg: &str) -> Self {
        [
            Mode::Correct,
            Mode::SizeTwice,
            Mode::DedicatedWrong,
            Mode::CloseAfterImport,
            Mode::ImportTwice,
        ]
        .into_iter()
        .find(|m| m.arg() == arg)
        .unwrap_or_else(|| panic!("unknown mode {arg}"))
    }

    /// The one finding of the run, and the CUDA command it is reported at.
    fn expected(self) -> Option<(&'static str, &'static str)> {
        match self {
            Mode::Correct => None,
            Mode::SizeTwice => Some(("EXPORTCHECK-cuda-memory-size", IMPORT)),
            Mode::DedicatedWrong => Some(("EXPORTCHECK-cuda-memory-dedicated", IMPORT)),
            Mode::CloseAfterImport => Some(("EXPORTCHECK-cuda-fd-closed-after-import", DESTROY)),
            Mode::ImportTwice => Some(("EXPORTCHECK-cuda-fd-imported-twice", IMPORT)),
        }
    }

    /// How many `cuImportExternalMemory` calls the program makes.
    fn imports(self) -> u64 {
        if self == Mode::ImportTwice {
            2
        } else {
            1
        }
    }
}

/// The compiled program, or `None` (said on stdout) where there is no CUDA to run it on.
fn cuda_program() -> Option<PathBuf> {
    let Some(program) = std::env::var_os(PROGRAM_VAR) else {
        println!(
            "skipped: {PROGRAM_VAR} names no compiled tests/gpu/cuda_interop.cu, so there is no \
             NVIDIA GPU with CUDA here (scripts/gpu-run.sh compiles it with nvcc there and sets it)"
        );
        return None;
    };
    if std::env::var_os(REAL_DRIVER_ICD).is_none() {
        println!("skipped: {REAL_DRIVER_ICD} names no real Vulkan driver");
        return None;
    }
    let program = PathBuf::from(program);
    assert!(
        program.is_file(),
        "{PROGRAM_VAR} names {}, which does not exist",
        program.display()
    );
    Some(program)
}

/// What the Vulkan side printed of its export (`EXPORTED pid memory buffer fd size`).
struct Exported {
    pid: u64,
    memory: String,
    buffer: String,
    fd: i32,
    size: u64,
}

impl Exported {
    fn parse(stdout: &str) -> Self {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("EXPORTED "))
            .unwrap_or_else(|| panic!("the Vulkan side's EXPORTED line is missing:\n{stdout}"));
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        Exported {
            pid: f[0].parse().expect("pid"),
            memory: f[1].to_owned(),
            buffer: f[2].to_owned(),
            fd: f[3].parse().expect("fd"),
            size: f[4].parse().expect("size"),
        }
    }
}

/// Runs the case under `exportcheck run`; asserts what its merged report must hold.
fn case(mode: Mode, dedicated: bool) {
    if is_child() {
        let program = PathBuf::from(std::env::var_os(PROGRAM_VAR).expect(PROGRAM_VAR));
        let mode = Mode::from_arg(&std::env::var(CHILD_ENV).expect("a child"));
        return vulkan_side(&program, mode, std::env::var_os(DEDICATED_VAR).is_some());
    }
    let Some(program) = cuda_program() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let report_path = dir.path().join("report.json");
    let mut run = Command::new(built::artifact("exportcheck"));
    // The run sets the loader's and the layer's variables itself.
    for (name, _) in std::env::vars_os() {
        let n = name.to_string_lossy();
        if n.starts_with("VK_EXPORTCHECK_VALIDATION_")
            || n.starts_with("VK_LOADER_LAYERS_")
            || ["VK_LAYER_PATH", "VK_ADD_LAYER_PATH", "VK_INSTANCE_LAYERS"].contains(&&*n)
        {
            run.env_remove(name);
        }
    }
    run.arg("run")
        .arg("--report")
        .arg(&report_path)
        .arg("--")
        .arg(std::env::current_exe().expect("current_exe"))
        .args(["--exact", &expect::test_name(), "--nocapture"])
        .arg("--include-ignored")
        .env(CHILD_ENV, mode.arg())
        .env(PROGRAM_VAR, &program)
        .stdin(Stdio::null());
    if dedicated {
        run.env(DEDICATED_VAR, "1");
    }
    let out = run.output().expect("run exportcheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("exportcheck run ({:?}):\n{stdout}\n{stderr}", out.status);
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "the Vulkan side did not pass"
    );
    let exported = Exported::parse(&stdout);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).expect("the merged report"))
            .expect("a JSON report");
    let cuda = cuda_process(&report, &program, exported.pid);
    let calls = &cuda["cuda_calls"];
    assert_eq!(calls[IMPORT], mode.imports(), "{report:#}");
    assert_eq!(calls[MAP], 1, "{report:#}");
    assert!(calls[DESTROY].as_u64() >= Some(1), "{report:#}");
    let findings = report["findings"].as_array().expect("findings");
    let ids: Vec<&str> = findings.iter().filter_map(|f| f["id"].as_str()).collect();
    let Some((id, command)) = mode.expected() else {
        assert!(ids.is_empty(), "{report:#}");
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        return;
    };
    assert_eq!(ids, [id], "{report:#}");
    assert_eq!(out.status.code(), Some(86), "{stderr}");
    let finding = &findings[0];
    assert_eq!(finding["command"], command, "{report:#}");
    let message = finding["message"].as_str().expect("message");
    for part in mentions(mode, &exported) {
        assert!(message.contains(&part), "`{part}` not in: {message}");
    }
}

/// The CUDA program's process in the merged report: the one whose calls the layer was handed,
/// not the Vulkan side (`exporter`).
fn cuda_process<'r>(
    report: &'r serde_json::Value,
    program: &Path,
    exporter: u64,
) -> &'r serde_json::Value {
    let processes = report["processes"].as_array().expect("processes");
    let cuda = processes
        .iter()
        .find(|p| p["cuda_calls"][IMPORT].as_u64().is_some())
        .unwrap_or_else(|| panic!("no process's cuda_calls has {IMPORT}: {report:#}"));
    assert_ne!(cuda["pid"], exporter, "{report:#}");
    if let Some(executable) = cuda["executable"].as_str() {
        let name = program.file_name().expect("file name").to_string_lossy();
        assert!(executable.ends_with(&*name), "{report:#}");
    }
    cuda
}

/// What the mistake's message must name.
fn mentions(mode: Mode, e: &Exported) -> Vec<String> {
    let vulkan = [
        format!("VkDeviceMemory {}", e.memory),
        format!("in process {}", e.pid),
    ];
    match mode {
        Mode::Correct => Vec::new(),
        Mode::SizeTwice => [
            format!("memHandleDesc->size is {}", 2 * e.size),
            format!("whose allocationSize is {}", e.size),
        ]
        .into_iter()
        .chain(vulkan)
        .collect(),
        Mode::DedicatedWrong => [
            "does not set CUDA_EXTERNAL_MEMORY_DEDICATED".to_owned(),
            format!("dedicated to VkBuffer {}", e.buffer),
        ]
        .into_iter()
        .chain(vulkan)
        .collect(),
        // The fd's own findings name the CUDA import that took it (the Vulkan export is named
        // at that import).
        Mode::CloseAfterImport => vec![
            format!("fd {}", e.fd),
            "CUexternalMemory".to_owned(),
            "the CUDA driver".to_owned(),
        ],
        Mode::ImportTwice => vec![
            format!("memHandleDesc->handle.fd is {}", e.fd),
            "CUexternalMemory".to_owned(),
            "the CUDA driver".to_owned(),
        ],
    }
}

/// The pattern's word `i`, as the kernel of `tests/gpu/cuda_interop.cu` writes it.
fn pattern(i: u32) -> u32 {
    i.wrapping_mul(2_654_435_761).wrapping_add(0x1234_5678)
}

/// The child: the Vulkan side, under `exportcheck run`.
fn vulkan_side(program: &Path, mode: Mode, dedicated: bool) {
    let inst = Instance::exclusive_with(Options {
        driver: Driver::Real,
        ..Options::default()
    });
    let dev = inst.fd_device();
    let buffer = exportable_buffer(&dev);
    // SAFETY: a buffer of this device.
    let needs = unsafe { dev.device.get_buffer_memory_requirements(buffer) };
    let memory_type = host_visible_type(&inst, needs.memory_type_bits);
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut to_buffer = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(needs.size)
        .memory_type_index(memory_type)
        .push_next(&mut export);
    if dedicated {
        info = info.push_next(&mut to_buffer);
    }
    let memory = dev.allocate_with(&info).expect("vkAllocateMemory");
    dev.name(memory, c"written-by-cuda");
    assert_eq!(dev.bind_buffer(buffer, memory), vk::Result::SUCCESS);
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS, "vkGetMemoryFdKHR");
    // The CUDA program inherits it.
    // SAFETY: an fd of this process; F_SETFD with no flags clears FD_CLOEXEC.
    assert_eq!(unsafe { libc::fcntl(fd, libc::F_SETFD, 0) }, 0, "fcntl");
    println!(
        "EXPORTED {} {:#x} {:#x} {fd} {}",
        std::process::id(),
        memory.as_raw(),
        buffer.as_raw(),
        needs.size
    );
    let args = [
        fd.to_string(),
        needs.size.to_string(),
        u8::from(dedicated).to_string(),
        mode.arg().to_owned(),
        hex(&device_uuid(&inst)),
    ];
    println!("running {} {}", program.display(), args.join(" "));
    let out = expect::promptly("the CUDA program", Duration::from_secs(180), || {
        Command::new(program)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("run the CUDA program")
    });
    print!("{}", String::from_utf8_lossy(&out.stdout));
    print!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the CUDA program: {}", out.status);
    let written = words_matching_the_pattern(&dev, memory, needs.size);
    let count = needs.size / 4;
    println!("PATTERN {written} of {count} words as the kernel wrote them");
    if mode == Mode::Correct {
        assert_eq!(
            written, count,
            "the kernel's writes are not in the Vulkan memory"
        );
    }
    fds::close(fd);
    dev.destroy_buffer(buffer);
    dev.free(memory);
}

/// A buffer of [`BUFFER_SIZE`] made for `OPAQUE_FD` memory.
fn exportable_buffer(dev: &Device) -> vk::Buffer {
    let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::BufferCreateInfo::default()
        .size(BUFFER_SIZE)
        .usage(vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST)
        .push_next(&mut external);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_buffer(&info, None) }.expect("vkCreateBuffer")
}

/// A host-visible, host-coherent memory type of `bits`: device-local too where the driver has
/// one (GPU memory the host reaches over the BAR), else system memory.
fn host_visible_type(inst: &Instance, bits: u32) -> u32 {
    let props = inst.memory_properties();
    let types = &props.memory_types[..props.memory_type_count as usize];
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let allowed = |i: usize| bits & (1 << i) != 0 && types[i].property_flags.contains(host);
    let chosen = (0..types.len())
        .find(|&i| {
            allowed(i)
                && types[i]
                    .property_flags
                    .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
        })
        .or_else(|| (0..types.len()).find(|&i| allowed(i)))
        .expect("a host-visible, host-coherent memory type for the buffer");
    println!("memory type {chosen}: {:?}", types[chosen].property_flags);
    chosen as u32
}

/// The physical device's `deviceUUID`.
fn device_uuid(inst: &Instance) -> [u8; vk::UUID_SIZE] {
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
    // SAFETY: the instance's own physical device, valid structures.
    unsafe {
        inst.instance
            .get_physical_device_properties2(inst.physical_device, &mut props)
    };
    id.device_uuid
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// How many 32-bit words of `memory` (mapped now) hold the kernel's pattern.
fn words_matching_the_pattern(dev: &Device, memory: vk::DeviceMemory, size: u64) -> u64 {
    // SAFETY: host-visible memory of this device, not mapped elsewhere.
    let mapped = unsafe {
        dev.device
            .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
    }
    .expect("vkMapMemory");
    let mut words = vec![0u32; (size / 4) as usize];
    // SAFETY: the mapping covers the allocation (`size` bytes); host-coherent memory, which the
    // CUDA program's kernel finished writing before it exited.
    unsafe { std::ptr::copy_nonoverlapping(mapped.cast::<u32>(), words.as_mut_ptr(), words.len()) };
    // SAFETY: mapped above.
    unsafe { dev.device.unmap_memory(memory) };
    (0..).zip(&words).filter(|&(i, &w)| w == pattern(i)).count() as u64
}

#[test]
#[ignore = "needs NVIDIA's driver and CUDA: scripts/gpu-run.sh sets EXPORTCHECK_TEST_CUDA_PROGRAM"]
fn a_correct_interop_program_is_silent_and_its_cuda_calls_are_seen() {
    case(Mode::Correct, false);
}

#[test]
#[ignore = "needs NVIDIA's driver and CUDA: scripts/gpu-run.sh sets EXPORTCHECK_TEST_CUDA_PROGRAM"]
fn a_correct_interop_program_on_a_dedicated_allocation_is_silent() {
    case(Mode::Correct, true);
}

#[test]
#[ignore = "needs NVIDIA's driver and CUDA: scripts/gpu-run.sh sets EXPORTCHECK_TEST_CUDA_PROGRAM"]
fn declaring_twice_the_size_is_cuda_memory_size() {
    case(Mode::SizeTwice, false);
}

#[test]
#[ignore = "needs NVIDIA's driver and CUDA: scripts/gpu-run.sh sets EXPORTCHECK_TEST_CUDA_PROGRAM"]
fn no_dedicated_flag_on_a_dedicated_allocation_is_cuda_memory_dedicated() {
    case(Mode::DedicatedWrong, true);
}

#[test]
#[ignore = "needs NVIDIA's driver and CUDA: scripts/gpu-run.sh sets EXPORTCHECK_TEST_CUDA_PROGRAM"]
fn closing_the_fd_cuda_took_is_cuda_fd_closed_after_import() {
    case(Mode::CloseAfterImport, false);
}

#[test]
#[ignore = "needs NVIDIA's driver and CUDA: scripts/gpu-run.sh sets EXPORTCHECK_TEST_CUDA_PROGRAM"]
fn importing_the_fd_cuda_took_again_is_cuda_fd_imported_twice() {
    case(Mode::ImportTwice, false);
}
