//! What the settings tests share (settings_api.rs, settings_env.rs, settings_file.rs): where the
//! settings come from ([`Sources`], [`run`]), and what each setting does as a user sees it
//! ([`scenario`]), over lavapipe with one bad export: OPAQUE_FD from memory allocated without a
//! VkExportMemoryAllocateInfo, VUID-VkMemoryGetFdInfoKHR-handleType-00671 and nothing else, which
//! the layer reports and passes down (lavapipe answers VK_SUCCESS with fd -1).
//!
//! Settings from the API are tested in the test process. The environment and the settings file
//! are process-wide, so those tests run in a child process (the same test, re-run): the child
//! does the calls and asserts what the app sees; the parent checks what only it can see (the
//! child's stderr and stdout, the report file the child left behind at exit).

// Each test binary uses a part of this module.
#![allow(dead_code)]

use ash::vk::{self, Handle};
use exportcheck_tests::app::SETTINGS_MESSAGE_ID;
use exportcheck_tests::child::{self, Child, ChildRun};
use exportcheck_tests::ids::*;
use exportcheck_tests::{
    expect, fds, Captured, Device, Instance, Options, SettingValues, FAILED, OPAQUE_FD,
    OPAQUE_WIN32, SENTINEL,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub const SIZE: u64 = 4096;
/// The child's scratch directory (the parent's temporary directory).
const TEST_DIR_ENV: &str = "EXPORTCHECK_TEST_DIR";

/// Where a test's `vk_layer_settings.txt` is, and how the layer finds it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FileAt {
    /// `VK_LAYER_SETTINGS_PATH` names the file (`<dir>/conf/my-settings.txt`).
    #[default]
    Path,
    /// `VK_LAYER_SETTINGS_PATH` names its directory (`<dir>/conf/vk_layer_settings.txt`).
    Directory,
    /// `vk_layer_settings.txt` in the working directory, no `VK_LAYER_SETTINGS_PATH`.
    WorkingDirectory,
}

/// The settings of a test, by source. Values may hold `{dir}` (the test's temporary directory),
/// `{number}` and `{hex}` (the messageIdNumber of 00671 in decimal and in hexadecimal).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sources {
    /// `(setting, value)` for VkLayerSettingsCreateInfoEXT (VK_LAYER_SETTING_TYPE_STRING_EXT).
    pub api: &'static [(&'static str, &'static str)],
    /// More settings for VkLayerSettingsCreateInfoEXT, with typed values.
    pub api_typed: &'static [(&'static str, SettingValues)],
    /// `(variable, value)`: the full variable name, as users spell it.
    pub env: &'static [(&'static str, &'static str)],
    /// Lines of `vk_layer_settings.txt`, as users write them.
    pub file: &'static [&'static str],
    pub file_at: FileAt,
    /// Run in a child even with API settings only (for what is per process).
    pub child: bool,
}

impl Sources {
    pub fn api(api: &'static [(&'static str, &'static str)]) -> Self {
        Self {
            api,
            ..Self::default()
        }
    }

    pub fn api_typed(api_typed: &'static [(&'static str, SettingValues)]) -> Self {
        Self {
            api_typed,
            ..Self::default()
        }
    }

    pub fn env(env: &'static [(&'static str, &'static str)]) -> Self {
        Self {
            env,
            ..Self::default()
        }
    }

    pub fn file(file: &'static [&'static str]) -> Self {
        Self {
            file,
            ..Self::default()
        }
    }

    pub fn file_at(file: &'static [&'static str], file_at: FileAt) -> Self {
        Self {
            file,
            file_at,
            ..Self::default()
        }
    }
}

/// What a scenario gets: where to put files, and how to make the instance.
pub struct Ctx {
    pub dir: PathBuf,
    api: &'static [(&'static str, &'static str)],
    api_typed: &'static [(&'static str, SettingValues)],
}

impl Ctx {
    /// An instance with the test's API settings and a messenger chained to VkInstanceCreateInfo,
    /// which sees what the layer says during vkCreateInstance (the settings messages), and the
    /// same messenger created after it, which sees the findings (each message arrives once).
    pub fn instance(&self) -> Instance {
        Instance::with(Options {
            messenger: true,
            messenger_in_create_info: true,
            layer_settings: self.api,
            typed_layer_settings: self.api_typed,
            ..Options::default()
        })
    }

    /// The log file the tests name in `log_filename`: `{dir}/log.txt`.
    pub fn log(&self) -> PathBuf {
        self.dir.join("log.txt")
    }

    /// The lines of the log file; none if it was never created.
    pub fn log_lines(&self) -> Vec<String> {
        match std::fs::read_to_string(self.log()) {
            Ok(text) => text.lines().map(str::to_owned).collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => panic!("read {}: {e}", self.log().display()),
        }
    }
}

/// What the parent has after [`run`]: the temporary directory and, for a child run, what the
/// child printed.
pub struct Parent {
    pub dir: tempfile::TempDir,
    pub child: Option<ChildRun>,
}

impl Parent {
    /// The child run (panics for an in-process run).
    pub fn child(&self) -> &ChildRun {
        self.child.as_ref().expect("this test ran in a child")
    }
}

/// Runs `scenario` with the settings of `sources`: in this process when they come from the API
/// only, else in a child process with the environment variables and settings file set for it
/// alone. Returns `None` in the child (the test returns at once), `Some` in the parent.
pub fn run(sources: Sources, scenario: impl FnOnce(&Ctx)) -> Option<Parent> {
    if child::is_child() {
        let dir = PathBuf::from(std::env::var(TEST_DIR_ENV).expect("the child's directory"));
        let ctx = Ctx {
            api: fill_api(sources.api, &dir),
            api_typed: sources.api_typed,
            dir,
        };
        scenario(&ctx);
        return None;
    }
    let tmp = tempfile::Builder::new()
        .prefix("exportcheck-settings-")
        .tempdir()
        .expect("a temporary directory");
    let dir = tmp.path().to_path_buf();
    if sources.env.is_empty() && sources.file.is_empty() && !sources.child {
        // The API is per instance: this process will do.
        let ctx = Ctx {
            api: fill_api(sources.api, &dir),
            api_typed: sources.api_typed,
            dir,
        };
        scenario(&ctx);
        return Some(Parent {
            dir: tmp,
            child: None,
        });
    }
    // The working directory is the (empty) temporary directory: no stray vk_layer_settings.txt.
    let mut child = Child::new("settings")
        .env(TEST_DIR_ENV, &dir)
        .current_dir(&dir);
    for (name, value) in sources.env {
        child = child.env(name, fill(value, &dir));
    }
    if !sources.file.is_empty() {
        let text = settings_file_text(sources.file, &dir);
        let conf = dir.join("conf");
        let (path, variable) = match sources.file_at {
            FileAt::Path => {
                let file = conf.join("my-settings.txt");
                (file.clone(), Some(file))
            }
            FileAt::Directory => (conf.join("vk_layer_settings.txt"), Some(conf.clone())),
            FileAt::WorkingDirectory => (dir.join("vk_layer_settings.txt"), None),
        };
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create conf dir");
        std::fs::write(&path, text).expect("write the settings file");
        if let Some(variable) = variable {
            child = child.env("VK_LAYER_SETTINGS_PATH", variable);
        }
    }
    let run = child.run();
    Some(Parent {
        dir: tmp,
        child: Some(run),
    })
}

/// The settings file of a test: a comment and another layer's line (ignored), then `lines`
/// from line 3 on.
fn settings_file_text(lines: &[&str], dir: &Path) -> String {
    let mut text = String::from(
        "# vk_layer_settings.txt of an exportcheck settings test\n\
         khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n",
    );
    for line in lines {
        text += &fill(line, dir);
        text.push('\n');
    }
    text
}

fn fill(value: &str, dir: &Path) -> String {
    let mut value = value.replace("{dir}", &dir.display().to_string());
    if value.contains("{number}") || value.contains("{hex}") {
        let number = id_number_00671();
        value = value
            .replace("{number}", &number.to_string())
            .replace("{hex}", &format!("0x{:x}", number as u32));
    }
    value
}

fn fill_api(
    api: &'static [(&'static str, &'static str)],
    dir: &Path,
) -> &'static [(&'static str, &'static str)] {
    if api.iter().all(|(_, v)| !v.contains('{')) {
        return api;
    }
    // Options takes 'static settings; a few bytes per test.
    let filled: Vec<(&'static str, &'static str)> = api
        .iter()
        .map(|&(name, value)| (name, &*Box::leak(fill(value, dir).into_boxed_str())))
        .collect();
    Box::leak(filled.into_boxed_slice())
}

/// The messageIdNumber the app's messenger receives for 00671, as a user would learn it: from a
/// message (an instance with no settings, in this process).
pub fn id_number_00671() -> i32 {
    static NUMBER: OnceLock<i32> = OnceLock::new();
    *NUMBER.get_or_init(|| {
        assert!(
            !child::is_child(),
            "learn the number in the parent, whose settings are the defaults"
        );
        let inst = Instance::new();
        let m = with_fd_memory(&inst, |dev, mem| {
            assert_eq!(bad_export(dev, mem), vk::Result::SUCCESS);
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671)
        });
        assert_ne!(m.id_number, 0);
        m.id_number
    })
}

/// Runs `f` with a device on `inst` (with VK_KHR_external_memory_fd) and `SIZE` bytes of memory
/// allocated without a VkExportMemoryAllocateInfo (for [`bad_export`]); then frees the memory and
/// destroys the device. Returns what `f` returns.
pub fn with_fd_memory<R>(inst: &Instance, f: impl FnOnce(&Device, vk::DeviceMemory) -> R) -> R {
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    let r = f(&dev, mem);
    dev.free(mem);
    drop(dev);
    r
}

/// One bad export (see [`bad_export`]) on a new device of `inst`, returning `result`: 00671 is
/// reported.
#[track_caller]
pub fn bad_export_is_reported(inst: &Instance, result: vk::Result) {
    with_fd_memory(inst, |dev, mem| {
        assert_eq!(bad_export(dev, mem), result);
        expect::one(inst, GET_FD, FD_HANDLE_TYPE_00671);
    });
}

/// Makes `calls` bad exports of `memory` (see [`bad_export`]), each returning `result`.
#[track_caller]
pub fn bad_exports(dev: &Device, memory: vk::DeviceMemory, calls: usize, result: vk::Result) {
    for _ in 0..calls {
        assert_eq!(bad_export(dev, memory), result);
    }
}

/// Exports `memory` (allocated without a VkExportMemoryAllocateInfo, as [`with_fd_memory`] makes
/// it) as OPAQUE_FD: 00671, the one rule it breaks. Returns the result; a failed call must not
/// have written the fd, a call that went down must have reached the driver.
pub fn bad_export(dev: &Device, memory: vk::DeviceMemory) -> vk::Result {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    if r != vk::Result::SUCCESS {
        assert_eq!(fd, SENTINEL, "a failed call wrote the fd");
    } else {
        assert_ne!(
            fd, SENTINEL,
            "a call that went down did not reach the driver"
        );
    }
    fds::close_if_open(fd);
    r
}

/// A valid export: of `SIZE` bytes of memory of `dev` exported for OPAQUE_FD, allocated (silently)
/// for it and freed after.
pub fn good_export(dev: &Device) -> vk::Result {
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    if r == vk::Result::SUCCESS {
        fds::close(fd);
    }
    dev.free(memory);
    r
}

/// Asserts that the app's messenger received no validation message.
#[track_caller]
pub fn assert_no_message(inst: &Instance, why: &str) {
    let messages = inst.messages();
    assert!(messages.is_empty(), "{why}: {messages:#?}");
}

/// Asserts that `text` is the text of one 00671 as users see it: `Validation Error: [ <id> ]
/// vkGetMemoryFdKHR(): ... (<spec link>)`.
#[track_caller]
pub fn assert_00671_text(text: &str) {
    let head = format!("Validation Error: [ {FD_HANDLE_TYPE_00671} ] vkGetMemoryFdKHR(): ");
    assert!(text.starts_with(&head), "expected `{head}...`:\n{text}");
    let link = format!(
        "({})",
        exportcheck_vuids::catalog().spec_link(FD_HANDLE_TYPE_00671)
    );
    assert!(text.ends_with(&link), "expected the link {link}:\n{text}");
}

/// Asserts that `line` is the layer's text log line of one 00671: `exportcheck: ` and the text.
#[track_caller]
pub fn assert_text_log_line(line: &str) {
    let text = line
        .strip_prefix("exportcheck: ")
        .unwrap_or_else(|| panic!("expected `exportcheck: ...`:\n{line}"));
    assert_00671_text(text);
}

/// Takes the messages and asserts that they are `delivered` reports of 00671 (from calls that
/// were all the same), the last with the note of `duplicate_message_limit` when `limit` is
/// reached (0: no limit). Returns them.
#[track_caller]
pub fn expect_00671_up_to_limit(inst: &Instance, delivered: usize, limit: usize) -> Vec<Captured> {
    let messages = inst.messages();
    let ids: Vec<&str> = messages.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, vec![FD_HANDLE_TYPE_00671; delivered], "{messages:#?}");
    let note = format!(
        " [{FD_HANDLE_TYPE_00671} has been reported {limit} times; further reports are \
         suppressed (duplicate_message_limit)]"
    );
    let plain = messages[0].text.replacen(&note, "", 1);
    let text = plain.as_str();
    assert_00671_text(text);
    for (i, m) in messages.iter().enumerate() {
        assert_eq!(
            m.severity,
            vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            "{m:#?}"
        );
        // The last allowed report says so, before the link; the others are the text.
        let last = limit != 0 && i + 1 == limit;
        let want = if last {
            let link = text.rfind(" (").expect("the message ends with its link");
            format!("{}{note}{}", &text[..link], &text[link..])
        } else {
            text.to_owned()
        };
        assert_eq!(m.text, want, "message {} of {delivered}", i + 1);
    }
    expect::record(expect::Kind::Negative, &[FD_HANDLE_TYPE_00671], GET_FD);
    messages
}

/// Asserts that the layer's lines in `lines` are `n` text log lines of 00671, and nothing else.
#[track_caller]
pub fn assert_text_log(lines: &[&str], n: usize) {
    assert_eq!(lines.len(), n, "{n} log lines expected: {lines:#?}");
    for line in lines {
        assert_text_log_line(line);
    }
    expect::record(expect::Kind::Negative, &[FD_HANDLE_TYPE_00671], GET_FD);
}

/// Asserts that the settings messages received are exactly one per `(severity, parts)`, each a
/// GENERAL message `exportcheck-settings` mentioning its parts.
#[track_caller]
pub fn assert_settings_messages(
    inst: &Instance,
    expected: &[(vk::DebugUtilsMessageSeverityFlagsEXT, &[&str])],
) -> Vec<Captured> {
    let messages = inst.settings_messages();
    assert_eq!(
        messages.len(),
        expected.len(),
        "settings messages: {messages:#?}"
    );
    for (m, (severity, parts)) in messages.iter().zip(expected) {
        assert_eq!(m.id, SETTINGS_MESSAGE_ID, "{m:#?}");
        assert_eq!(m.severity, *severity, "{m:#?}");
        expect::mentions(m, parts);
    }
    messages
}

/// The scenarios: each makes its own instance (with the test's settings, from wherever they
/// come) and asserts what the app sees.
pub mod scenario {
    use super::*;

    const WARNING: vk::DebugUtilsMessageSeverityFlagsEXT =
        vk::DebugUtilsMessageSeverityFlagsEXT::WARNING;
    const INFO: vk::DebugUtilsMessageSeverityFlagsEXT = vk::DebugUtilsMessageSeverityFlagsEXT::INFO;
    const SUCCESS: vk::Result = vk::Result::SUCCESS;

    /// `report_flags = warn`: the driver-contract warning is reported, the 00671 error is not.
    pub fn report_flags_warn_only(ctx: &Ctx) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(good_export(dev), SUCCESS);
            // Lavapipe returns fds without FD_CLOEXEC: a driver-contract warning, once per device,
            // for the first valid export; here it serves as a warning-severity finding.
            expect::driver_only(&inst, GET_FD, &[DRIVER_FD_NOT_CLOEXEC]);
            assert_eq!(bad_export(dev, mem), SUCCESS);
            assert_no_message(&inst, "errors are not in report_flags = warn");
            assert_settings_messages(&inst, &[]);
        });
    }

    /// `report_flags = error`: 00671 is reported, the driver-contract warning is not.
    pub fn report_flags_error_only(ctx: &Ctx) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(good_export(dev), SUCCESS);
            assert_eq!(
                inst.driver_messages().len(),
                0,
                "warnings are not in report_flags = error"
            );
            assert_eq!(bad_export(dev, mem), SUCCESS);
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
            assert_settings_messages(&inst, &[]);
        });
    }

    /// `report_flags = error,warn,info`: the active configuration is announced (INFO), and
    /// 00671 is still reported.
    pub fn report_flags_info_announces(ctx: &Ctx) {
        let inst = ctx.instance();
        assert_settings_messages(
            &inst,
            &[(
                INFO,
                &[
                    "active settings: report_flags = error,warn,info; ",
                    "debug_action = log,callback; ",
                    "duplicate_message_limit = 10; ",
                ],
            )],
        );
        bad_export_is_reported(&inst, SUCCESS);
    }

    /// `debug_action = callback,fail` (in whatever spelling): the bad call is skipped with
    /// VK_ERROR_VALIDATION_FAILED_EXT and reported; a valid call goes through.
    pub fn debug_action_fail(ctx: &Ctx) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(good_export(dev), SUCCESS);
            inst.driver_messages();
            assert_eq!(bad_export(dev, mem), FAILED);
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
        });
    }

    /// `debug_action = fail` alone: the bad call fails, and nothing reaches the messenger.
    pub fn debug_action_fail_alone(ctx: &Ctx) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(bad_export(dev, mem), FAILED);
            assert_no_message(&inst, "no callback in debug_action = fail");
            assert!(ctx.log_lines().is_empty());
        });
    }

    /// `debug_action = log` without `log_filename`: `calls` bad exports, none reaches the
    /// messenger (the log, stderr, is the parent's to check).
    pub fn debug_action_log_only(ctx: &Ctx, calls: usize) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            bad_exports(dev, mem, calls, SUCCESS);
            assert_no_message(&inst, "no callback in debug_action = log");
        });
    }

    /// `debug_action = log` with `log_filename = {dir}/log.txt`: the messenger gets nothing, the
    /// file gets one line per bad export.
    pub fn debug_action_log_only_to_file(ctx: &Ctx) {
        debug_action_log_only(ctx, 2);
        let lines = ctx.log_lines();
        assert_text_log(&lines.iter().map(String::as_str).collect::<Vec<_>>(), 2);
    }

    /// `debug_action = callback` with `log_filename = {dir}/log.txt`: the messenger gets the
    /// finding, the log file stays empty.
    pub fn debug_action_callback_only(ctx: &Ctx) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(bad_export(dev, mem), SUCCESS);
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
            let lines = ctx.log_lines();
            assert!(
                lines.is_empty(),
                "no log in debug_action = callback: {lines:#?}"
            );
        });
    }

    /// `log_filename = {dir}/log.txt` (default actions): the messenger gets each finding and the
    /// file gets the same text, one `exportcheck: ` line each.
    pub fn log_filename(ctx: &Ctx) {
        two_findings_logged(ctx, |lines, messages| {
            assert_text_log(&lines.iter().map(String::as_str).collect::<Vec<_>>(), 2);
            for (line, m) in lines.iter().zip(messages) {
                assert_eq!(*line, format!("exportcheck: {}", m.text));
            }
        });
    }

    /// `log_filename = stdout`: the messenger gets the finding, stdout the line (the parent's
    /// to check).
    pub fn one_bad_export(ctx: &Ctx) {
        bad_export_is_reported(&ctx.instance(), SUCCESS);
    }

    /// `message_id_filter` muting 00671 (by ID or number): silence for it; 00672 is reported,
    /// also from a call that has both.
    pub fn message_id_filter_mutes_00671(ctx: &Ctx) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(bad_export(dev, mem), SUCCESS);
            assert_no_message(&inst, "00671 is muted by message_id_filter");
            // Not exported at all (00671), and not an fd type (00672).
            let (_, fd) = dev.get_fd(mem, OPAQUE_WIN32);
            fds::close_if_open(fd);
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00672);
            assert_settings_messages(&inst, &[]);
        });
    }

    /// `duplicate_message_limit = limit`: `calls` bad exports give `limit` messages (every one
    /// with limit 0), the last of which says that further ones are suppressed.
    pub fn duplicate_message_limit(ctx: &Ctx, limit: usize, calls: usize) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            bad_exports(dev, mem, calls, SUCCESS);
            let delivered = if limit == 0 { calls } else { limit.min(calls) };
            expect_00671_up_to_limit(&inst, delivered, limit);
        });
    }

    /// `message_format_json = true` with `log_filename = {dir}/log.txt`: each log line is a
    /// JSON object with the finding's id, severity, command, field and message.
    pub fn message_format_json(ctx: &Ctx) {
        two_findings_logged(ctx, |lines, messages| {
            assert_eq!(lines.len(), 2, "one JSON line per finding: {lines:#?}");
            for (line, m) in lines.iter().zip(messages) {
                let v: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
                let object = v
                    .as_object()
                    .unwrap_or_else(|| panic!("not an object: {line}"));
                let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
                keys.sort_unstable();
                assert_eq!(
                    keys,
                    ["command", "field", "id", "message", "severity"],
                    "{line}"
                );
                assert_eq!(v["id"], FD_HANDLE_TYPE_00671, "{line}");
                assert_eq!(v["severity"], "error", "{line}");
                assert_eq!(v["command"], GET_FD, "{line}");
                assert_eq!(v["field"], "pGetFdInfo->handleType", "{line}");
                assert_eq!(v["message"], m.text.as_str(), "{line}");
            }
        });
    }

    /// The name the report scenario gives its memory.
    pub const REPORT_MEMORY_NAME: &str = "settings-report-memory";

    /// `report_file = {dir}/report-%p.json`: three bad exports on named memory (as many as
    /// `duplicate_message_limit = limit` lets through reach the messenger), then once the
    /// instance is destroyed the report of this process is there, valid, and lists the finding
    /// (see [`check_report`]).
    pub fn report_file(ctx: &Ctx, limit: usize) {
        let inst = ctx.instance();
        let (mem, text) = with_fd_memory(&inst, |dev, mem| {
            dev.name(mem, c"settings-report-memory");
            bad_exports(dev, mem, 3, SUCCESS);
            let messages = expect_00671_up_to_limit(&inst, limit.min(3), limit);
            // The report's message is the finding's text, without the note of the duplicate
            // limit.
            (mem, messages[0].text.clone())
        });
        let path = report_path(ctx);
        assert!(
            !path.exists(),
            "written at vkDestroyInstance (and at exit), not before"
        );
        drop(inst);
        let report = read_report(&path);
        check_report(
            &report,
            &ReportExpectation {
                pid: std::process::id(),
                memory: mem.as_raw(),
                count: 3,
                message: &text,
                thread_id: current_thread_id(),
                report_file: &format!("{}/report-%p.json", ctx.dir.display()),
            },
        );
        // What the parent checks after the child exited: the memory handle and message.
        println!("REPORT memory=0x{:x}", mem.as_raw());
        println!("REPORT message={text}");
        println!("REPORT thread={}", current_thread_id());
    }

    /// `report_file = {dir}/report-%p.json`: a bad export on a thread the app named; the
    /// report gives that thread's ID and name.
    pub fn report_names_the_thread(ctx: &Ctx) {
        const NAME: &str = "ec-worker"; // Short: the OS keeps 15 bytes of a thread's name.
        let inst = ctx.instance();
        let worker = with_fd_memory(&inst, |dev, mem| {
            let worker = std::thread::scope(|s| {
                std::thread::Builder::new()
                    .name(NAME.to_owned())
                    .spawn_scoped(s, || {
                        assert_eq!(bad_export(dev, mem), SUCCESS);
                        current_thread_id()
                    })
                    .expect("spawn")
                    .join()
                    .expect("the worker")
            });
            assert_ne!(worker, current_thread_id());
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
            worker
        });
        drop(inst);
        let report = read_report(&report_path(ctx));
        let thread = &report["findings"][0]["thread"];
        assert_eq!(thread["id"], worker, "{report:#}");
        assert_eq!(
            thread["name"], NAME,
            "the report does not name the thread the app named: {report:#}"
        );
    }

    /// `report_file = {dir}/report-%p.json`: two bad exports, and the app exits without
    /// destroying its instance or device (the parent checks the report written at exit).
    pub fn report_at_exit(ctx: &Ctx) {
        let inst = ctx.instance();
        let dev = inst.fd_device();
        let mem = dev.allocate(SIZE, None);
        bad_exports(&dev, mem, 2, SUCCESS);
        expect::only(&inst, GET_FD, &[FD_HANDLE_TYPE_00671; 2]);
        assert!(
            !report_path(ctx).exists(),
            "nothing destroyed yet: no report yet"
        );
        // Never destroyed: the process exits with them.
        std::mem::forget(dev);
        std::mem::forget(inst);
    }

    /// A bad value (or unknown setting): one settings warning per entry of `warnings`, and the
    /// default behaviour (log,callback: the messenger gets 00671).
    pub fn bad_value(ctx: &Ctx, warnings: &[&[&str]]) {
        let inst = ctx.instance();
        let expected: Vec<_> = warnings.iter().map(|parts| (WARNING, *parts)).collect();
        let messages = assert_settings_messages(&inst, &expected);
        for m in &messages {
            assert!(m.text.starts_with("settings: "), "{m:#?}");
        }
        bad_export_is_reported(&inst, SUCCESS);
    }

    /// Two bad exports with `log_filename = {dir}/log.txt`: the messenger gets 00671 twice; then
    /// `check` gets the lines of the log file and the two messages.
    fn two_findings_logged(ctx: &Ctx, check: impl FnOnce(&[String], &[Captured])) {
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            bad_exports(dev, mem, 2, SUCCESS);
            let messages = expect::only(&inst, GET_FD, &[FD_HANDLE_TYPE_00671; 2]);
            check(&ctx.log_lines(), &messages);
        });
    }

    /// `{dir}/report-<pid>.json`: where `report_file = {dir}/report-%p.json` puts this process's
    /// report.
    fn report_path(ctx: &Ctx) -> PathBuf {
        ctx.dir.join(format!("report-{}.json", std::process::id()))
    }
}

/// The OS thread ID of the calling thread.
pub fn current_thread_id() -> u64 {
    // SAFETY: gettid has no preconditions.
    (unsafe { libc::gettid() }) as u64
}

/// `docs/report.schema.json`, compiled (draft 2020-12, formats asserted).
pub fn report_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/report.schema.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
        jsonschema::draft202012::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("the schema is not a valid draft 2020-12 schema: {e}"));
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("compile the schema: {e}"))
    })
}

/// Asserts that `report` conforms to `docs/report.schema.json`.
#[track_caller]
pub fn assert_schema_valid(report: &Value) {
    let errors: Vec<String> = report_validator()
        .iter_errors(report)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the report does not conform to docs/report.schema.json:\n{}\n{report:#}",
        errors.join("\n")
    );
}

/// Reads a report file, parses it and validates it against the schema.
#[track_caller]
pub fn read_report(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let report: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON ({e}):\n{text}", path.display()));
    assert_schema_valid(&report);
    report
}

/// What a report must say about the report scenario.
pub struct ReportExpectation<'a> {
    pub pid: u32,
    pub memory: u64,
    pub count: u64,
    pub message: &'a str,
    pub thread_id: u64,
    /// The `report_file` setting as given (with `%p`).
    pub report_file: &'a str,
}

/// Asserts that `report` is the report of the report scenario's process.
#[track_caller]
pub fn check_report(report: &Value, want: &ReportExpectation<'_>) {
    assert_eq!(report["exportcheck_report_version"], 1, "{report:#}");
    assert_eq!(
        report["layer"]["name"], "VK_LAYER_EXPORTCHECK_validation",
        "{report:#}"
    );
    assert_eq!(report["process"]["pid"], want.pid, "{report:#}");
    assert_eq!(
        report["settings"]["report_file"], want.report_file,
        "{report:#}"
    );
    let findings = report["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "one finding in this process: {report:#}");
    let f = &findings[0];
    assert_eq!(f["id"], FD_HANDLE_TYPE_00671, "{f:#}");
    assert_eq!(f["severity"], "error", "{f:#}");
    assert_eq!(f["command"], GET_FD, "{f:#}");
    assert_eq!(f["message"], want.message, "{f:#}");
    assert_eq!(f["count"], want.count, "{f:#}");
    let first = f["first_seen"].as_str().expect("first_seen");
    let last = f["last_seen"].as_str().expect("last_seen");
    // Same format, UTC: the text order is the time order.
    assert!(first <= last, "first_seen {first} after last_seen {last}");
    let memory = format!("0x{:x}", want.memory);
    let objects = f["objects"].as_array().expect("objects");
    let named = objects
        .iter()
        .find(|o| o["type"] == "VK_OBJECT_TYPE_DEVICE_MEMORY" && o["handle"] == memory.as_str())
        .unwrap_or_else(|| panic!("no VkDeviceMemory {memory} in objects: {f:#}"));
    assert_eq!(named["name"], scenario::REPORT_MEMORY_NAME, "{f:#}");
    assert_eq!(f["thread"]["id"], want.thread_id, "{f:#}");
}

/// The parent's half of the report tests: after the child exited, its report (rewritten at
/// exit) is still there under its pid, valid, and says the same.
#[track_caller]
pub fn check_report_after_exit(parent: &Parent) {
    let child = parent.child();
    let path = parent.dir.path().join(format!("report-{}.json", child.pid));
    let report = read_report(&path);
    let said = |key: &str| {
        child
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("REPORT {key}=")))
            .unwrap_or_else(|| panic!("the child did not say its {key}:\n{}", child.stdout))
            .to_owned()
    };
    check_report(
        &report,
        &ReportExpectation {
            pid: child.pid,
            memory: u64::from_str_radix(said("memory").trim_start_matches("0x"), 16)
                .expect("memory"),
            count: 3,
            message: &said("message"),
            thread_id: said("thread").parse().expect("thread"),
            report_file: &format!("{}/report-%p.json", parent.dir.path().display()),
        },
    );
    // Written aside and renamed: nothing else is left in the directory but the process's
    // journal (`report-<pid>.<token>.jsonl`, docs/report.md), which holds its findings too.
    let mut left: Vec<String> = std::fs::read_dir(parent.dir.path())
        .expect("read the directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "conf" && n != "vk_layer_settings.txt")
        .collect();
    left.sort();
    let journal = left
        .iter()
        .find(|n| n.ends_with(".jsonl"))
        .unwrap_or_else(|| panic!("no journal beside the report: {left:?}"))
        .clone();
    let token = journal
        .strip_prefix(&format!("report-{}.", child.pid))
        .and_then(|rest| rest.strip_suffix(".jsonl"))
        .unwrap_or_else(|| panic!("not this process's journal: {journal}"));
    assert!(
        !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()),
        "{journal}"
    );
    assert_eq!(
        left,
        [journal.clone(), format!("report-{}.json", child.pid)]
    );
}
