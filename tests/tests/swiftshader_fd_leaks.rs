//! Exported-fd leaks (`EXPORTCHECK-exported-fd-leaked`, setting `check_fd_leaks`) on SwiftShader,
//! whose descriptors make the check harder than the test driver's (fd_leaks.rs): every export of
//! a memory object is a `dup` of the driver's own memfd, which stays open in the process while
//! the memory lives, and an imported fd stays open (the driver's) until the importing memory is
//! freed. None of those is the app's leak; an export the app leaves open still is.
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk::{self, Handle};
use exportcheck_tests::child::{is_child, Child};
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, swiftshader, Device, Instance, Options, OPAQUE_FD, SIZE};

const DESTROY: &str = "vkDestroyDevice";

/// An instance on SwiftShader, alone in the binary, with the leak check on and every report
/// delivered.
fn exclusive() -> Instance {
    Instance::exclusive_with(Options {
        layer_settings: &[("check_fd_leaks", "true"), ("duplicate_message_limit", "0")],
        ..swiftshader::options()
    })
}

/// Exports `memory` as an opaque fd the test now owns.
#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    fd
}

#[test]
fn an_exported_fd_still_open_at_vk_free_memory_is_reported() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    dev.name(memory, c"staging");
    let fd = export(&dev, memory);
    expect::silent(&inst, GET_FD);
    dev.free(memory);
    let m = expect::one(&inst, FREE, EXPORTED_FD_LEAKED);
    expect::mentions(
        &m,
        &[
            "\"staging\" is being freed",
            &format!("still open in this process as fd {fd} and was never imported"),
        ],
    );
    assert!(expect::object(&m, vk::ObjectType::DEVICE_MEMORY, memory.as_raw()).is_some());
    fds::close(fd);
    drop(dev);
    expect::silent(&inst, DESTROY);
}

#[test]
fn closed_exports_are_not_leaks_though_the_driver_keeps_its_memfd() {
    let inst = exclusive();
    let dev = inst.fd_device();
    let (first, second) = (
        dev.allocate(SIZE, Some(OPAQUE_FD)),
        dev.allocate(SIZE, Some(OPAQUE_FD)),
    );
    for memory in [first, second] {
        let fd = export(&dev, memory);
        // A duplicate, closed too: the driver's memfd is the only descriptor of the file left.
        let copy = fds::dup(fd);
        fds::close(fd);
        fds::close(copy);
    }
    // Each freed export waits for vkDestroyDevice (no fd open under its numbers), where the
    // whole fd table is scanned.
    dev.free(first);
    dev.free(second);
    drop(dev);
    expect::silent_for(&inst, &[GET_FD, FREE, DESTROY]);
}

#[test]
fn an_imported_fd_is_the_drivers_not_a_leak_whatever_is_freed_first() {
    let inst = exclusive();
    let dev = inst.fd_device();
    for exporter_first in [true, false] {
        let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
        let fd = export(&dev, memory);
        let imported = dev.import_fd(fd, SIZE).expect("import the exported fd");
        if exporter_first {
            dev.free(memory);
            // The number is still open: the driver's, for `imported`.
            fds::assert_open(fd);
            dev.free(imported);
        } else {
            dev.free(imported);
            dev.free(memory);
        }
    }
    drop(dev);
    expect::silent_for(&inst, &[ALLOCATE, FREE, DESTROY]);
}

#[test]
fn at_exit_only_the_export_left_open_is_reported() {
    if is_child() {
        // A process that exits with its memory and device never freed: one export left open,
        // one closed, one imported (the driver's).
        let inst = exclusive();
        let dev = inst.fd_device();
        let [open, closed, imported] = [c"left-open", c"closed", c"imported"].map(|name| {
            let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
            dev.name(memory, name);
            memory
        });
        let fd = export(&dev, open);
        fds::close(export(&dev, closed));
        // Never freed, like the others: its fd stays the driver's to the end.
        dev.import_fd(export(&dev, imported), SIZE).expect("import");
        println!("exported fd {fd}");
        std::mem::forget(dev);
        std::mem::forget(inst);
        return;
    }
    let run = Child::new("exit").run();
    let fd: i32 = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("exported fd "))
        .expect("the child's fd")
        .trim()
        .parse()
        .expect("a number");
    let leaks: Vec<&str> = run
        .stderr_layer_lines()
        .into_iter()
        .filter(|l| l.contains(EXPORTED_FD_LEAKED))
        .collect();
    assert_eq!(leaks.len(), 1, "stderr:\n{}", run.stderr);
    for part in [
        "\"left-open\" is still exported as the process exits",
        &format!("as fd {fd} and was never imported"),
    ] {
        assert!(leaks[0].contains(part), "`{part}` in {}", leaks[0]);
    }
}
