//! The hostile-input matrix (`tests/tests/hostile_exports.rs`, `hostile_alloc_free.rs`,
//! `hostile_imports.rs`, `hostile_queries.rs`, `hostile_binds.rs`): the tables of hostile values,
//! the pNext chains, and the runner that makes each call on the project's test driver and checks
//! it.
//!
//! A table is a list of cases. Each case makes one call and says what must come of it: exactly
//! which IDs the app's messenger receives (as a multiset: the order of several findings is the
//! layer's choice), and either *blocked* (`VK_ERROR_VALIDATION_FAILED_EXT`, no output written, the
//! driver's call counter did not move) or *down* (the driver was called exactly once and its own
//! result came back). The runner collects every case's failures and reports them all at the end,
//! so one wrong case does not hide the others; a case that panics is a failure, not an abort.
//!
//! The driver's call counters are process-wide: tables run on an instance made with
//! [`instance`], which holds the test binary's exclusive lock.

use crate::app::{Captured, Device, Instance, Options, FAILED};
pub use crate::calls::Called;
use crate::calls::{Args, Memories};
use crate::expect::{self, Kind};
use crate::model;
use crate::model::Command;
use crate::test_driver;
use ash::vk::{self, Handle};
use std::collections::BTreeSet;
use std::ffi::{c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

mod structure_types;
pub use structure_types::{REGISTRY_VERSION, STRUCTURE_TYPES};

/// How long one call with a hostile pNext chain may take before the test process is aborted (a
/// hang in the layer or driver cannot be interrupted otherwise).
pub const PROMPT: Duration = Duration::from_secs(20);

/// An instance on the test driver for a hostile table: exclusive (the tables read the driver's
/// call counters and use made-up handles), and with no duplicate-message limit (a table reports
/// the same ID hundreds of times, and every report must arrive).
pub fn instance() -> Instance {
    Instance::exclusive_with(Options {
        layer_settings: &[("duplicate_message_limit", "0")],
        ..test_driver::options(None)
    })
}

// ---- sType values ----

/// `VkStructureType` values no registry defines: the largest value, -1, the slot of a 1000th
/// extension, and the smallest value.
pub const GARBAGE_S_TYPES: [i32; 4] = [0x7fff_ffff, -1, 1_000_999_999, i32::MIN];

/// Every `VkStructureType` other than `right`: each value of the registry ([`STRUCTURE_TYPES`])
/// and the [`GARBAGE_S_TYPES`].
pub fn wrong_s_types(right: vk::StructureType) -> Vec<vk::StructureType> {
    STRUCTURE_TYPES
        .iter()
        .chain(&GARBAGE_S_TYPES)
        .map(|&raw| vk::StructureType::from_raw(raw))
        .filter(|&s| s != right)
        .collect()
}

/// Every `VkStructureType` value that `vk.xml` defines (aliases folded), sorted: the enumerants
/// of `<enums name="VkStructureType">` and every `<enum>` named `VK_STRUCTURE_TYPE_*` that an
/// extension or a core version adds (`value=`, or `offset=` in its extension's number range).
pub fn parse_structure_types(xml: &str) -> Vec<i32> {
    let mut values = BTreeSet::new();
    let mut extension: Option<i64> = None;
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let close = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..close];
        rest = &rest[close..];
        if let Some(attrs) = tag.strip_prefix("extension ") {
            extension = attribute(attrs, "number").and_then(|n| n.parse().ok());
        } else if tag.starts_with("/extension") {
            extension = None;
        } else if let Some(attrs) = tag.strip_prefix("enum ") {
            let named =
                attribute(attrs, "name").is_some_and(|n| n.starts_with("VK_STRUCTURE_TYPE_"));
            if !named || attribute(attrs, "alias").is_some() {
                continue;
            }
            let value = match (attribute(attrs, "value"), attribute(attrs, "offset")) {
                (Some(v), _) => v.parse::<i64>().ok(),
                (None, Some(offset)) => {
                    let number = attribute(attrs, "extnumber")
                        .and_then(|n| n.parse::<i64>().ok())
                        .or(extension);
                    let offset = offset.parse::<i64>().ok();
                    number.zip(offset).map(|(n, o)| {
                        let v = 1_000_000_000 + (n - 1) * 1000 + o;
                        if attribute(attrs, "dir") == Some("-") {
                            -v
                        } else {
                            v
                        }
                    })
                }
                (None, None) => None, // A reference to an enumerant defined elsewhere.
            };
            if let Some(v) = value.and_then(|v| i32::try_from(v).ok()) {
                values.insert(v);
            }
        }
    }
    values.into_iter().collect()
}

/// The API version of a `vk.xml` (`1.4.359`): from `VK_HEADER_VERSION_COMPLETE` and the first
/// `VK_HEADER_VERSION` (the Vulkan one; Vulkan SC's comes after it).
pub fn parse_registry_version(xml: &str) -> Option<String> {
    let header = xml
        .split("#define <name>VK_HEADER_VERSION</name> ")
        .nth(1)?;
    let patch: u32 = header.split('<').next()?.trim().parse().ok()?;
    let complete = xml.split("VK_HEADER_VERSION_COMPLETE</name>").nth(1)?;
    let args = complete.split("</type>(").nth(1)?;
    let numbers: Vec<&str> = args.split(',').take(3).map(str::trim).collect();
    match numbers[..] {
        [_variant, major, minor] => Some(format!("{major}.{minor}.{patch}")),
        _ => None,
    }
}

/// The value of `key="..."` in the attributes of one XML tag.
fn attribute<'a>(attrs: &'a str, key: &str) -> Option<&'a str> {
    let pattern = format!("{key}=\"");
    let mut from = 0;
    while let Some(at) = attrs[from..].find(&pattern) {
        let start = from + at;
        let whole_word = start == 0 || attrs.as_bytes()[start - 1].is_ascii_whitespace();
        let value_start = start + pattern.len();
        if whole_word {
            let len = attrs[value_start..].find('"')?;
            return Some(&attrs[value_start..value_start + len]);
        }
        from = value_start;
    }
    None
}

// ---- Handle values ----

/// `VkDeviceMemory` values that are no allocation: 1, `0xdeadbeef`, the value the end-to-end tests
/// use for a made-up handle, all ones, and one that looks like the test driver's own handles (its
/// tag in the high bits) with an allocation number it never handed out.
pub const GARBAGE_MEMORY: [u64; 5] = [1, 0xdead_beef, 0xdead_0000, u64::MAX, 0xEC00_0000_00FF_FFFF];

/// The `VkDeviceMemory` values that are no live memory of the device `here`, each with the text
/// the message about it must contain: the [`GARBAGE_MEMORY`] values and the device's own handle
/// (not a live VkDeviceMemory: the text starts with `field`, "memory is" or "pInfo->memory is"),
/// memory already freed, memory freed on another device (not live either), and live memory of
/// another device (`foreign`, with what its message says).
pub fn dead_memory_cases(
    here: vk::Device,
    field: &str,
    freed: vk::DeviceMemory,
    freed_elsewhere: vk::DeviceMemory,
    foreign: (vk::DeviceMemory, &str),
) -> Vec<(String, vk::DeviceMemory, String)> {
    let mut cases: Vec<(String, vk::DeviceMemory, String)> = GARBAGE_MEMORY
        .into_iter()
        .chain([here.as_raw()])
        .map(|raw| {
            let says =
                format!("{field} VkDeviceMemory {raw:#x}, which is not a live VkDeviceMemory");
            (format!("{raw:#x}"), vk::DeviceMemory::from_raw(raw), says)
        })
        .collect();
    cases.extend([
        (
            "freed memory".to_owned(),
            freed,
            "which was already freed with vkFreeMemory".to_owned(),
        ),
        (
            "memory freed on another device".to_owned(),
            freed_elsewhere,
            "which is not a live VkDeviceMemory".to_owned(),
        ),
        (
            "memory of another device".to_owned(),
            foreign.0,
            foreign.1.to_owned(),
        ),
    ]);
    cases
}

/// `VkDevice` values that are no device, whatever the process has: NULL, 1, the value the
/// end-to-end tests use for a made-up handle, `0xdeadbeef` and all ones. Each table adds handles
/// of other kinds (an instance, a physical device, memory, a destroyed device, a forged object).
pub const GARBAGE_DEVICES: [u64; 5] = [0, 1, 0x1234, 0xdead_beef, u64::MAX];

// ---- Devices ----

/// A device with every export extension the test driver has, and the RDMA feature.
pub fn export_device(inst: &Instance) -> Device {
    inst.device_with(
        &[
            ash::khr::external_memory::NAME,
            ash::khr::external_memory_fd::NAME,
            ash::ext::external_memory_dma_buf::NAME,
            ash::nv::external_memory_rdma::NAME,
            ash::nv::external_memory::NAME,
            ash::nv::external_memory_win32::NAME,
            c"VK_EXT_external_memory_metal",
            ash::khr::external_memory_win32::NAME,
            ash::fuchsia::external_memory::NAME,
            ash::android::external_memory_android_hardware_buffer::NAME,
        ],
        true,
    )
}

/// One table's world: an instance ([`instance`]), the device the calls are made on, another
/// device, the handle of a device that was destroyed, and what the layer knows of the memory
/// handles the table uses. Devices are dropped before the instance.
pub struct Fixture {
    pub dev: Device,
    pub other: Device,
    pub destroyed: u64,
    pub memories: Memories,
    pub inst: Instance,
}

impl Fixture {
    pub fn new() -> Self {
        let inst = instance();
        let dev = export_device(&inst);
        let other = export_device(&inst);
        let gone = export_device(&inst);
        let destroyed = gone.handle().as_raw();
        drop(gone);
        Self {
            dev,
            other,
            destroyed,
            memories: Memories::default(),
            inst,
        }
    }

    /// What the model says of `args`, a call of `command` on the table's device, or on a device
    /// that is none (any other `args.device`); a call that goes down returns `down`.
    pub fn expect(&self, command: Command, args: &Args, down: Option<vk::Result>) -> Expected {
        let model = if args.device == self.dev.handle() {
            let device = self.inst.model_device(&self.dev);
            model::expected(&device, &self.memories.model_call(command, args))
        } else {
            model::Expected::unknown_device(command)
        };
        Expected::from_model(model, down)
    }

    /// Every `VkDevice` value of the table that is no device: [`GARBAGE_DEVICES`], handles of
    /// other kinds, a destroyed device, and `forged` (an object whose first word is the real
    /// device's dispatch key, as a device's is).
    pub fn garbage_devices(&self, memory: vk::DeviceMemory, forged: &usize) -> Vec<(String, u64)> {
        let mut devices: Vec<(String, u64)> = GARBAGE_DEVICES
            .iter()
            .map(|&d| (format!("{d:#x}"), d))
            .collect();
        devices.extend([
            (
                "the VkInstance".to_owned(),
                self.inst.instance.handle().as_raw(),
            ),
            (
                "the VkPhysicalDevice".to_owned(),
                self.inst.physical_device.as_raw(),
            ),
            ("a VkDeviceMemory".to_owned(), memory.as_raw()),
            ("a destroyed VkDevice".to_owned(), self.destroyed),
            (
                "a forged object with the device's dispatch key".to_owned(),
                forged as *const usize as u64,
            ),
        ]);
        devices
    }

    /// The first word of the device's handle: the loader's dispatch key (what a forged device
    /// object would copy).
    pub fn dispatch_key(&self) -> usize {
        // SAFETY: a live VkDevice made by the loader points to an object whose first word is
        // the dispatch table pointer.
        unsafe { (self.dev.handle().as_raw() as usize as *const usize).read() }
    }
}

impl Default for Fixture {
    fn default() -> Self {
        Self::new()
    }
}

// ---- Handle types ----

/// The handle-type values every table tries: each single bit 0..31, then no bit, then mixes of
/// defined and undefined bits.
pub fn handle_type_values(defined: u32) -> Vec<u32> {
    let lowest = 1 << defined.trailing_zeros();
    let mut values: Vec<u32> = (0..32).map(|bit| 1u32 << bit).collect();
    values.extend([
        0,
        defined,
        u32::MAX,
        !defined,
        lowest | 1 << 31,
        lowest | 1 << 13,
        (1 << 13) | (1 << 19),
        0xdead_beef,
        0x8000_0000 | defined,
    ]);
    values
}

// ---- pNext chains ----

/// A chained structure nobody reads past its header: `sType`, `pNext`, then room, so that even a
/// reader that took it for a bigger structure would stay inside it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub room: [u64; 8],
}

/// The first of the made-up `VkStructureType` values (the slots of extensions 901 and up, which
/// the registry does not have) that [`Chain::distinct`] gives its nodes.
pub const FIRST_UNKNOWN_S_TYPE: i32 = 1_000_900_000;

/// A pNext chain of [`Node`]s, in one allocation that does not move while the chain is in use.
pub struct Chain {
    nodes: Box<[Node]>,
}

impl Chain {
    /// `len` nodes, each of `s_type(i)`, linked in order; the last points to `tail`.
    pub fn new(
        len: usize,
        s_type: impl Fn(usize) -> vk::StructureType,
        tail: *const c_void,
    ) -> Self {
        assert!(len > 0);
        let node = Node {
            s_type: vk::StructureType::from_raw(0),
            p_next: std::ptr::null(),
            room: [0; 8],
        };
        let mut chain = Chain {
            nodes: vec![node; len].into_boxed_slice(),
        };
        // Linked through one raw pointer, so no reference to an element outlives the links.
        let base = chain.nodes.as_mut_ptr();
        for i in 0..len {
            let next = if i + 1 < len {
                base.wrapping_add(i + 1).cast_const().cast::<c_void>()
            } else {
                tail
            };
            // SAFETY: i < len, so `base + i` is an element of the slice.
            unsafe {
                (*base.add(i)).s_type = s_type(i);
                (*base.add(i)).p_next = next;
            }
        }
        chain
    }

    /// `len` nodes of the same made-up sType ([`GARBAGE_S_TYPES`]' third), ending in `tail`.
    pub fn same(len: usize, tail: *const c_void) -> Self {
        Self::new(
            len,
            |_| vk::StructureType::from_raw(GARBAGE_S_TYPES[2]),
            tail,
        )
    }

    /// `len` nodes of distinct made-up sTypes (from [`FIRST_UNKNOWN_S_TYPE`]), ending in `tail`.
    pub fn distinct(len: usize, tail: *const c_void) -> Self {
        let unknown = |i: usize| vk::StructureType::from_raw(FIRST_UNKNOWN_S_TYPE + i as i32);
        Self::new(len, unknown, tail)
    }

    /// `len` nodes whose last points back to the first.
    pub fn cycle(len: usize) -> Self {
        let mut chain = Self::same(len, std::ptr::null());
        let first = chain.head();
        chain.link_last_to(first);
        chain
    }

    /// The first node, as a `pNext` value.
    pub fn head(&self) -> *const c_void {
        self.nodes.as_ptr().cast()
    }

    /// Points the last node's `pNext` to `next`.
    pub fn link_last_to(&mut self, next: *const c_void) {
        let last = self.nodes.len() - 1;
        self.nodes[last].p_next = next;
    }
}

// ---- The runner ----

/// What one call must produce.
#[derive(Clone, Debug)]
pub struct Expected {
    /// The IDs the app's messenger receives, in any order.
    pub ids: Vec<&'static str>,
    /// Kept from the driver (VK_ERROR_VALIDATION_FAILED_EXT, nothing written, counter unmoved).
    pub blocked: bool,
    /// For a call that goes down: what the driver returns (`None` for `vkFreeMemory`).
    pub result: Option<vk::Result>,
    /// Text each message must contain (e.g. the bad handle's value).
    pub mentions: Vec<String>,
}

impl Expected {
    /// Reported, and kept from the driver.
    pub fn blocked(ids: &[&'static str]) -> Self {
        assert!(!ids.is_empty(), "a blocked call is reported");
        Self {
            ids: ids.to_vec(),
            blocked: true,
            result: Some(FAILED),
            mentions: Vec::new(),
        }
    }

    /// Reported (or silent, with no `ids`), then passed down once; the driver returns `result`.
    pub fn down(ids: &[&'static str], result: vk::Result) -> Self {
        Self {
            ids: ids.to_vec(),
            blocked: false,
            result: Some(result),
            mentions: Vec::new(),
        }
    }

    /// [`Expected::down`] for a command without a result (`vkFreeMemory`).
    pub fn down_void(ids: &[&'static str]) -> Self {
        Self {
            result: None,
            ..Self::down(ids, vk::Result::SUCCESS)
        }
    }

    /// [`Expected::blocked`] for a command without a result (`vkFreeMemory`).
    pub fn blocked_void(ids: &[&'static str]) -> Self {
        Self {
            result: None,
            ..Self::blocked(ids)
        }
    }

    /// What the model says of the call (`tests/model`): its IDs, blocked or not; a call that goes
    /// down returns `down` (the driver's result; `None` for `vkFreeMemory`).
    pub fn from_model(expected: model::Expected, down: Option<vk::Result>) -> Self {
        Self {
            ids: expected.ids,
            blocked: expected.blocked,
            result: if expected.blocked {
                down.map(|_| FAILED)
            } else {
                down
            },
            mentions: Vec::new(),
        }
    }

    /// Each message must also contain `text`.
    pub fn mentioning(mut self, text: impl Into<String>) -> Self {
        self.mentions.push(text.into());
        self
    }
}

/// One table: the cases of one command, run on one instance.
pub struct Matrix<'a> {
    inst: &'a Instance,
    command: &'static str,
    counted: &'static CStr,
    cases: usize,
    failures: Vec<String>,
    /// Observations already recorded for the coverage report (once per distinct outcome).
    recorded: BTreeSet<(bool, Vec<&'static str>)>,
}

impl<'a> Matrix<'a> {
    /// A table of `command` (as messages name it), whose driver entry point is `counted`.
    pub fn new(inst: &'a Instance, command: &'static str, counted: &'static CStr) -> Self {
        Self {
            inst,
            command,
            counted,
            cases: 0,
            failures: Vec::new(),
            recorded: BTreeSet::new(),
        }
    }

    /// Runs one case: makes the call, then checks the driver's counter, the result, the output and
    /// the messages against `expected`.
    pub fn case(
        &mut self,
        name: impl Into<String>,
        expected: Expected,
        call: impl FnOnce() -> Called,
    ) {
        let name = name.into();
        self.cases += 1;
        let stale = self.inst.messages();
        if !stale.is_empty() {
            self.failures.push(format!(
                "[{name}] messages left over from before: {stale:#?}"
            ));
        }
        let before = test_driver::call_count(self.counted);
        let called = catch_unwind(AssertUnwindSafe(call));
        let calls = test_driver::call_count(self.counted) - before;
        let messages = self.inst.messages();
        let mut problems = Vec::new();
        match called {
            Err(panic) => problems.push(format!("the case panicked: {}", panic_text(&panic))),
            Ok(called) => check_call(&expected, called, calls, &mut problems),
        }
        check_messages(self.command, &expected, &messages, &mut problems);
        if problems.is_empty() {
            self.record(&expected);
        } else {
            self.failures
                .push(format!("[{name}] {}", problems.join("\n    ")));
        }
    }

    /// [`Matrix::case`] for a call that might hang: aborts the process after [`PROMPT`].
    pub fn prompt_case(
        &mut self,
        name: impl Into<String>,
        expected: Expected,
        call: impl FnOnce() -> Called,
    ) {
        let name = name.into();
        let what = format!("{} [{name}]", self.command);
        let inner = &mut *self;
        expect::promptly(&what, PROMPT, move || inner.case(name, expected, call));
    }

    fn record(&mut self, expected: &Expected) {
        let mut ids = expected.ids.clone();
        ids.sort_unstable();
        if self.recorded.insert((expected.blocked, ids.clone())) {
            let kind = if ids.is_empty() {
                Kind::Positive
            } else {
                Kind::Negative
            };
            expect::record(kind, &ids, self.command);
        }
    }

    /// Asserts that every case passed (listing all that did not) and that nothing was said about
    /// the driver; returns how many cases ran.
    #[track_caller]
    pub fn finish(mut self) -> usize {
        let driver = self.inst.driver_messages();
        if !driver.is_empty() {
            self.failures
                .push(format!("driver-contract warnings: {driver:#?}"));
        }
        assert!(
            self.failures.is_empty(),
            "{} of {} {} cases failed:\n{}",
            self.failures.len(),
            self.cases,
            self.command,
            self.failures.join("\n")
        );
        self.cases
    }
}

/// The result, the output and the driver's counter against `expected`.
fn check_call(expected: &Expected, called: Called, calls: u64, problems: &mut Vec<String>) {
    if called.result != expected.result {
        problems.push(format!(
            "returned {:?}, expected {:?}",
            called.result, expected.result
        ));
    }
    if expected.blocked {
        if calls != 0 {
            problems.push(format!("blocked, yet the driver was called {calls} times"));
        }
        if called.written {
            problems.push("blocked, yet the output parameter was written".to_owned());
        }
    } else {
        if calls != 1 {
            problems.push(format!(
                "must go down once, but the driver was called {calls} times"
            ));
        }
        let success = expected.result == Some(vk::Result::SUCCESS);
        if expected.result.is_some() && called.written != success {
            problems.push(format!(
                "the output was {}written with result {:?}",
                if called.written { "" } else { "not " },
                called.result
            ));
        }
    }
}

/// The messages against `expected`, each as users must see it (what `expect::only` checks): the
/// catalog's severity, `Validation <Error|Warning>: [ <id> ] <command>()...`, the spec link.
fn check_messages(
    command: &str,
    expected: &Expected,
    messages: &[Captured],
    problems: &mut Vec<String>,
) {
    let mut got: Vec<&str> = messages.iter().map(|m| m.id.as_str()).collect();
    let mut want = expected.ids.clone();
    got.sort_unstable();
    want.sort_unstable();
    if got != want {
        let texts: Vec<&str> = messages.iter().map(|m| m.text.as_str()).collect();
        problems.push(format!("expected IDs {want:?}, got {got:?}: {texts:#?}"));
        return;
    }
    let catalog = exportcheck_vuids::catalog();
    for m in messages {
        let Some(entry) = catalog.get(&m.id) else {
            problems.push(format!("{} is not in vuids/catalog.json", m.id));
            continue;
        };
        let (severity, kind) = match entry.severity {
            exportcheck_vuids::Severity::Error => {
                (vk::DebugUtilsMessageSeverityFlagsEXT::ERROR, "Error")
            }
            exportcheck_vuids::Severity::Warning => {
                (vk::DebugUtilsMessageSeverityFlagsEXT::WARNING, "Warning")
            }
        };
        let head = format!("Validation {kind}: [ {} ] {command}()", m.id);
        let link = format!("({})", catalog.spec_link(&m.id));
        if m.severity != severity || !m.text.starts_with(&head) || !m.text.ends_with(&link) {
            problems.push(format!("expected {severity:?}, `{head}...{link}`: {m:#?}"));
        }
        for part in &expected.mentions {
            if !m.text.contains(part.as_str()) {
                problems.push(format!("the message does not mention `{part}`: {}", m.text));
            }
        }
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "(not a string)".to_owned())
}
