//! The layer library is never unloaded: it is linked with `-z nodelete` (layer/build.rs), so
//! its thread-locals, exit hooks and statics outlive every `dlclose`, the loader's included
//! (docs/reliability.md, "The library stays loaded").
//!
//! Each test runs in a child process of its own, where nothing has loaded the layer yet.

use exportcheck_tests::child::{is_child, Child};
use exportcheck_tests::env::layer_library;
use exportcheck_tests::ids::{ALLOCATE, FD_HANDLE_TYPE_00671, GET_FD};
use exportcheck_tests::layer_stats::layer_loaded;
use exportcheck_tests::test_driver::options;
use exportcheck_tests::{expect, fds, Instance, OPAQUE_FD, SIZE};
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;

#[test]
fn dlclose_of_the_last_reference_leaves_the_layer_loaded() {
    if !is_child() {
        Child::new("1").run();
        return;
    }
    assert!(!layer_loaded(), "nothing has loaded the layer yet");
    let path = CString::new(layer_library().as_os_str().as_bytes()).expect("path without NUL");
    // SAFETY: a NUL-terminated path; loading the layer runs no code of its own.
    let lib = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    assert!(!lib.is_null(), "dlopen {}", path.to_string_lossy());
    // SAFETY: the only reference, from the dlopen above; nothing of the library is used after.
    assert_eq!(unsafe { libc::dlclose(lib) }, 0);
    assert!(
        layer_loaded(),
        "the layer was unloaded by dlclose: it is not linked with -z nodelete"
    );
}

#[test]
fn the_layer_stays_loaded_and_working_after_the_loader_releases_it() {
    if !is_child() {
        Child::new("1").run();
        return;
    }
    let inst = Instance::with(options(None));
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, ash::vk::Result::SUCCESS);
    fds::close(fd);
    dev.free(memory);
    drop(dev);
    assert!(layer_loaded());
    // The last instance: the loader dlcloses the layer.
    drop(inst);
    assert!(layer_loaded(), "the loader's dlclose unloaded the layer");

    // A new instance finds the same library, and its checks work as before.
    let inst = Instance::with(options(None));
    let dev = inst.fd_device();
    let plain = dev.allocate(SIZE, None);
    expect::silent(&inst, ALLOCATE);
    let (_, fd) = dev.get_fd(plain, OPAQUE_FD);
    fds::close(fd);
    expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    dev.free(plain);
}
