//! How findings reach the user: messengers created (and chained to VkInstanceCreateInfo, each
//! finding once), stable message ID numbers, debug names, and stderr when the app has no active
//! messenger.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, Options, OPAQUE_FD, OPAQUE_WIN32, SIZE};
use std::process::Command;

const SPEC: &str = "https://registry.khronos.org/vulkan/specs/latest/html/vkspec.html#";
/// Set in a child test process: which bad export to make (see `child`).
const CHILD_ENV: &str = "EXPORTCHECK_TEST_CHILD";

/// Exports `memory` (allocated without VkExportMemoryAllocateInfo) as OPAQUE_FD: 00671, not
/// blocked (lavapipe answers VK_SUCCESS with fd -1).
fn bad_export(dev: &Device, memory: vk::DeviceMemory) {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close_if_open(fd);
}

/// The usual setup: a messenger chained to VkInstanceCreateInfo (for vkCreateInstance and
/// vkDestroyInstance) and the same one created after: each finding arrives once (see
/// chained_messenger.rs for what the chained one alone hears).
#[test]
fn messenger_chained_to_instance_create_info_and_created_receives_each_finding_once() {
    let inst = Instance::with(Options {
        messenger: true,
        messenger_in_create_info: true,
        ..Options::default()
    });
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    bad_export(&dev, mem);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(&m, &["pGetFdInfo->handleType"]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn message_id_numbers_are_stable_per_id_and_severity_is_error() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    // Valid handle types (OPAQUE_WIN32 is core); whether lavapipe can export them is judged
    // against a buffer or image bound to the memory, not at a plain allocation.
    let win32 = dev.allocate(SIZE, Some(OPAQUE_FD | OPAQUE_WIN32));
    expect::silent(&inst, ALLOCATE);
    bad_export(&dev, mem);
    bad_export(&dev, mem);
    let (r, fd) = dev.get_fd(win32, OPAQUE_WIN32);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close_if_open(fd);
    let ms = expect::only(
        &inst,
        GET_FD,
        &[
            FD_HANDLE_TYPE_00671,
            FD_HANDLE_TYPE_00671,
            FD_HANDLE_TYPE_00672,
        ],
    );
    for m in &ms {
        assert_eq!(m.severity, vk::DebugUtilsMessageSeverityFlagsEXT::ERROR);
        assert!(m.text.starts_with("Validation Error: [ "), "{}", m.text);
        assert!(m.text.ends_with(&format!("({SPEC}{})", m.id)), "{}", m.text);
    }
    assert_eq!(ms[0].id_number, ms[1].id_number, "same ID, same number");
    assert_ne!(ms[0].id_number, ms[2].id_number, "other ID, other number");
    assert_ne!(ms[0].id_number, 0);
    dev.free(win32);
    dev.free(mem);
    drop(dev);
}

#[test]
fn findings_name_objects_by_their_debug_names() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    dev.name(mem, c"my-name");
    dev.name(dev.handle(), c"my-device");
    bad_export(&dev, mem);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    let memory = mem.as_raw();
    let device = dev.handle().as_raw();
    expect::mentions(
        &m,
        &[
            &format!("VkDeviceMemory 0x{memory:x} \"my-name\""),
            &format!("VkDevice 0x{device:x} \"my-device\""),
        ],
    );
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, memory).as_deref(),
        Some("my-name")
    );
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE, device).as_deref(),
        Some("my-device")
    );

    // Renamed: the new name is shown.
    dev.name(mem, c"renamed");
    bad_export(&dev, mem);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(&m, &[&format!("VkDeviceMemory 0x{memory:x} \"renamed\"")]);
    assert!(!m.text.contains("my-name"), "{}", m.text);
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, memory).as_deref(),
        Some("renamed")
    );
    dev.free(mem);
    drop(dev);
}

#[test]
fn a_removed_debug_name_is_not_shown() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    dev.name(mem, c"my-name");
    // An empty name removes the name. (NULL would too, but lavapipe 22.3 answers a NULL
    // pObjectName with VK_ERROR_OUT_OF_HOST_MEMORY.)
    dev.name(mem, c"");
    bad_export(&dev, mem);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    assert!(!m.text.contains("my-name"), "{}", m.text);
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw()),
        None
    );

    dev.free(mem);
    drop(dev);
}

#[test]
fn a_freed_objects_name_is_not_shown_for_a_reused_handle() {
    // Whether lavapipe hands a freed handle out again depends on malloc, which the threads of
    // other tests (and lavapipe's own) disturb: run alone, in a child process.
    if std::env::var_os(CHILD_ENV).is_none() {
        run_child("alone");
        return;
    }
    let inst = Instance::new();
    let dev = inst.fd_device();
    // Warm the layer's maps first (each shard allocates on its first insert), so its own
    // allocations do not take the address the driver is to hand out again.
    let warm: Vec<_> = (0..512).map(|_| dev.allocate(SIZE, None)).collect();
    for memory in warm {
        dev.free(memory);
    }
    let mem = dev.allocate(SIZE, None);
    dev.name(mem, c"old-name");
    dev.free(mem);
    // Allocate (and hold) until the driver hands the freed handle out again.
    let mut held = Vec::new();
    let again = loop {
        let next = dev.allocate(SIZE, None);
        if next == mem {
            break next;
        }
        held.push(next);
        assert!(
            held.len() < 4096,
            "precondition: lavapipe reuses a freed VkDeviceMemory handle"
        );
    };
    for other in held {
        dev.free(other);
    }
    // Live again: no stale name, and not reported as freed.
    bad_export(&dev, again);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    assert!(!m.text.contains("old-name"), "{}", m.text);
    assert!(!m.text.contains("already freed"), "{}", m.text);
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, again.as_raw()),
        None
    );
    // Freed twice: the finding is about the second allocation, which had no name.
    dev.free(again);
    dev.free(again);
    let m = expect::one(&inst, FREE, FREE_MEMORY_PARAM);
    expect::mentions(
        &m,
        &[&format!(
            "memory is VkDeviceMemory 0x{:x}, which was already freed",
            again.as_raw()
        )],
    );
    assert!(!m.text.contains("old-name"), "{}", m.text);
    drop(dev);
}

/// In a child process (see the tests below): makes the bad export `mode` asks for.
fn child(mode: &str) {
    match mode {
        "no-messenger" => {
            let inst = Instance::with(Options {
                messenger: false,
                messenger_in_create_info: false,
                ..Options::default()
            });
            let dev = inst.fd_device();
            let mem = dev.allocate(SIZE, None);
            bad_export(&dev, mem);
            dev.free(mem);
            drop(dev);
        }
        "destroyed-messenger" => {
            let mut inst = Instance::new();
            let dev = inst.fd_device();
            let mem = dev.allocate(SIZE, None);
            bad_export(&dev, mem);
            // The messenger got the first one, so it is not on stderr.
            assert_eq!(inst.ids(), [FD_HANDLE_TYPE_00671]);
            inst.drop_messenger();
            bad_export(&dev, mem);
            dev.free(mem);
            drop(dev);
        }
        other => panic!("unknown {CHILD_ENV} mode {other}"),
    }
}

/// Re-runs the current test in a child process with `CHILD_ENV=mode`; returns its stderr.
fn run_child(mode: &str) -> String {
    let out = Command::new(std::env::current_exe().expect("current_exe"))
        .args(["--exact", &expect::test_name(), "--nocapture"])
        .env(CHILD_ENV, mode)
        .output()
        .expect("run the test binary again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "child failed: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    // The child must have run this very test, not zero tests.
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "the child ran no test:\n{stdout}"
    );
    stderr
}

/// The layer's lines on stderr.
fn layer_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("exportcheck:"))
        .collect()
}

#[test]
fn without_a_messenger_findings_go_to_stderr() {
    if let Ok(mode) = std::env::var(CHILD_ENV) {
        return child(&mode);
    }
    let stderr = run_child("no-messenger");
    let lines = layer_lines(&stderr);
    assert_eq!(lines.len(), 1, "one finding, one line:\n{stderr}");
    let head =
        format!("exportcheck: Validation Error: [ {FD_HANDLE_TYPE_00671} ] vkGetMemoryFdKHR(): ");
    assert!(lines[0].starts_with(&head), "{stderr}");
    assert!(
        lines[0].ends_with(&format!("({SPEC}{FD_HANDLE_TYPE_00671})")),
        "{stderr}"
    );
    expect::record(expect::Kind::Negative, &[FD_HANDLE_TYPE_00671], GET_FD);
}

#[test]
fn after_the_messenger_is_destroyed_findings_go_to_stderr() {
    if let Ok(mode) = std::env::var(CHILD_ENV) {
        return child(&mode);
    }
    let stderr = run_child("destroyed-messenger");
    let lines = layer_lines(&stderr);
    assert_eq!(
        lines.len(),
        1,
        "only the finding made after vkDestroyDebugUtilsMessengerEXT:\n{stderr}"
    );
    assert!(
        lines[0].starts_with(&format!(
            "exportcheck: Validation Error: [ {FD_HANDLE_TYPE_00671} ]"
        )),
        "{stderr}"
    );
    expect::record(expect::Kind::Negative, &[FD_HANDLE_TYPE_00671], GET_FD);
}
