//! The project's test driver (`tests/icd`): instances on it, with its per-instance configuration
//! (see docs/test-driver.md); its per-command call counters (`exportcheck_test_icd_call_count`),
//! read from the copy of `libexportcheck_test_icd.so` that the loader already loaded into this
//! process; and the driver-contract scenarios every export command is tested with.
//!
//! The counts are process-wide: every instance and device of every test thread adds to them. A
//! test that asserts on a count must hold [`exclusive`] (or [`crate::Instance::exclusive_with`]),
//! so that no other test of the binary calls the driver meanwhile.

use crate::app::{Device, Instance, Options};
use crate::env::Driver;
use crate::expect::{self, device_name, memory_name};
use crate::ids::{ALLOCATE, FREE};
use ash::vk::{self, Handle};
use std::ffi::{c_char, CStr, CString};
use std::fmt::Debug;
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;

/// Options for an instance on the test driver, with the driver configuration `config` (JSON, e.g.
/// `{"misbehave":{...}}`) or, with `None`, the driver's defaults.
pub fn options(config: Option<&'static str>) -> Options {
    Options {
        driver: Driver::TestDriver,
        driver_config: config,
        ..Options::default()
    }
}

/// An instance on the test driver (configured with `config`), sharing the process with other
/// tests.
pub fn instance(config: Option<&'static str>) -> Instance {
    Instance::with(options(config))
}

/// An instance on the test driver (configured with `config`) for a test that no other test of the
/// binary may run alongside: one that reads the driver's call counter, uses freed or made-up
/// handles, or reasons about fd numbers.
pub fn exclusive(config: Option<&'static str>) -> Instance {
    Instance::exclusive_with(options(config))
}

/// The two physical devices (one device group) of an instance on the test driver configured with
/// `{"physical_device_count": 2}`.
pub fn group_of_two(inst: &Instance) -> Vec<vk::PhysicalDevice> {
    let all: Vec<_> = inst
        .physical_devices()
        .into_iter()
        .map(|(pd, _)| pd)
        .collect();
    assert_eq!(all.len(), 2, "the test driver's group of two");
    all
}

type CallCount = unsafe extern "C" fn(*const c_char) -> u64;
type LastPNext = unsafe extern "C" fn(*const c_char) -> usize;

/// The `pNext` address of the info structure `command` last reached the driver with
/// (`exportcheck_test_icd_last_p_next`): what the layer passed down.
pub fn last_p_next(command: &CStr) -> usize {
    static FN: OnceLock<usize> = OnceLock::new();
    let f = *FN.get_or_init(|| driver_symbol(c"exportcheck_test_icd_last_p_next"));
    // SAFETY: the symbol is the driver's `extern "C" fn(*const c_char) -> usize` (see
    // tests/icd/src/lib.rs); a data pointer and a function pointer share one size here.
    let f = unsafe { std::mem::transmute::<usize, LastPNext>(f) };
    // SAFETY: a NUL-terminated name; the function only reads it.
    unsafe { f(command.as_ptr()) }
}

/// The driver's `exportcheck_test_icd_call_count`; panics if the driver is not loaded yet (make
/// an `Instance` on the test driver first).
fn call_count_fn() -> CallCount {
    static FN: OnceLock<usize> = OnceLock::new();
    let f = *FN.get_or_init(|| driver_symbol(c"exportcheck_test_icd_call_count"));
    // SAFETY: the symbol is the driver's `extern "C" fn(*const c_char) -> u64` (see
    // tests/icd/src/lib.rs); a data pointer and a function pointer share one size here.
    unsafe { std::mem::transmute::<usize, CallCount>(f) }
}

/// The address of one of the test driver's exported functions; panics if the driver is not
/// loaded yet (make an `Instance` on the test driver first) or lacks it.
fn driver_symbol(symbol: &CStr) -> usize {
    {
        let path = CString::new(crate::env::test_driver_library().as_os_str().as_bytes())
            .expect("library path without NUL");
        // SAFETY: RTLD_NOLOAD only looks up a library that is already loaded; nothing is run.
        let lib = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
        assert!(
            !lib.is_null(),
            "{} is not loaded: create an Instance on the test driver first",
            path.to_string_lossy()
        );
        // SAFETY: a live handle and a NUL-terminated symbol name. The handle is kept open
        // (never dlclose'd), so the symbol stays valid for the life of the process.
        let sym = unsafe { libc::dlsym(lib, symbol.as_ptr()) };
        assert!(!sym.is_null(), "the test driver exports no {symbol:?}");
        sym as usize
    }
}

/// How many times the driver's entry point for `command` was called in this process.
pub fn call_count(command: &CStr) -> u64 {
    // SAFETY: a NUL-terminated name; the function only reads it.
    unsafe { call_count_fn()(command.as_ptr()) }
}

/// A count of one command taken now, to compare against later.
#[derive(Debug)]
pub struct Calls {
    command: &'static CStr,
    at_start: u64,
}

impl Calls {
    /// Starts counting calls of `command` (e.g. `c"vkGetMemoryFdKHR"`).
    pub fn of(command: &'static CStr) -> Self {
        Self {
            command,
            at_start: call_count(command),
        }
    }

    /// Calls of the command since [`Calls::of`].
    pub fn since(&self) -> u64 {
        call_count(self.command) - self.at_start
    }

    /// Asserts that the driver was called `n` times since [`Calls::of`], then counts anew.
    #[track_caller]
    pub fn assert(&mut self, n: u64, why: &str) {
        let now = call_count(self.command);
        assert_eq!(
            now - self.at_start,
            n,
            "calls of the driver's {:?}: {why}",
            self.command
        );
        self.at_start = now;
    }
}

/// A test driver that misbehaves on demand, and what a driver-contract scenario does on it.
#[derive(Clone, Copy)]
pub struct Misbehaving {
    /// The driver configuration that turns the misbehaviour on (`{"misbehave":{...}}`).
    pub config: &'static str,
    /// A device with the export command's extension.
    pub device: fn(&Instance) -> Device,
    /// Memory on that device, allocated as the scenario needs it.
    pub memory: fn(&Instance, &Device) -> vk::DeviceMemory,
    /// The scenario's export calls on that memory, asserting what the driver answered.
    pub export: fn(&Device, vk::DeviceMemory),
}

/// How every driver-contract warning ends.
const DRIVER_DEFECT: &str = "a driver defect, not an error of the app";

/// The driver-contract scenario of every export command: a driver's defect is reported once per
/// device. On each of two devices, `driver.export` makes its calls (several) on its memory; then
/// exactly one `id` warning about the driver must have come on `command`, saying that the driver
/// returned VK_SUCCESS for that memory (named with its device), mentioning `parts` and that this
/// is a driver defect, with the memory in `pObjects`; the app hears nothing.
#[track_caller]
pub fn assert_defect_reported_once_per_device(
    driver: Misbehaving,
    command: &str,
    id: &str,
    parts: &[&str],
) {
    let inst = instance(Some(driver.config));
    let first = (driver.device)(&inst);
    let second = (driver.device)(&inst);
    for dev in [&first, &second] {
        let mem = (driver.memory)(&inst, dev);
        (driver.export)(dev, mem);
        let warnings = expect::driver_only(&inst, command, &[id]);
        let (memory, device) = (memory_name(mem), device_name(dev));
        let returned =
            format!("the driver returned VK_SUCCESS for {memory} (allocated on {device}");
        expect::mentions(&warnings[0], &[&returned, DRIVER_DEFECT]);
        expect::mentions(&warnings[0], parts);
        expect::object(&warnings[0], vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        // The app did nothing wrong.
        expect::silent(&inst, command);
        dev.free(mem);
    }
    drop((first, second));
}

/// The driver-contract scenario of an invalid call: `driver.export` makes an invalid call (once).
/// After an invalid call the driver's answer is undefined: the app's `id` on `command` is
/// reported, and nothing about the driver.
#[track_caller]
pub fn assert_invalid_call_not_held_against_the_driver(
    driver: Misbehaving,
    command: &str,
    id: &str,
) {
    let inst = instance(Some(driver.config));
    let dev = (driver.device)(&inst);
    let mem = (driver.memory)(&inst, &dev);
    (driver.export)(&dev, mem);
    expect::one(&inst, command, id);
    expect::driver_only(&inst, command, &[]);
    dev.free(mem);
    drop(dev);
}

/// The driver-contract scenario of a well-behaved driver (the test driver's defaults): `exports`
/// allocates, exports with `command` and frees on the device from `device` (asserting what the
/// driver answered); nothing is said, neither to the app (about `command`, vkAllocateMemory or
/// vkFreeMemory) nor about the driver.
#[track_caller]
pub fn assert_well_behaved_driver_gets_no_warning(
    device: fn(&Instance) -> Device,
    command: &str,
    exports: impl FnOnce(&Instance, &Device),
) {
    let inst = instance(None);
    let dev = device(&inst);
    exports(&inst, &dev);
    expect::silent_for(&inst, &[command, ALLOCATE, FREE]);
    expect::driver_only(&inst, command, &[]);
    drop(dev);
}
