//! The JSON report of the process (`report_file`): every finding, counted, with the first and
//! last time it was seen. One document per process (`%p` in the path becomes the ID of the
//! process writing it), rewritten at each `vkDestroyInstance` and at exit, atomically (written
//! aside, then renamed). Each finding is also appended to the process's journal as it happens
//! ([`super::journal`]), which is opened at the process's first instance: its header line makes
//! the process known to `exportcheck run` however it ends (`_exit` writes no report). A child
//! forked without exec starts with nothing found: its report and journal are its own, written
//! only if it creates an instance or finds something.
//! The format is documented in docs/report.md and docs/report.schema.json.

use super::journal::Journal;
use crate::finding::{Finding, ObjectRef, Severity};
use crate::settings::Settings;
use crate::vk_names;
use parking_lot::Mutex;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{LazyLock, Once, OnceLock};
use std::time::SystemTime;

pub const REPORT_VERSION: u32 = 1;

#[derive(Serialize, Clone)]
struct ObjectOut {
    #[serde(rename = "type")]
    ty: String,
    handle: String,
    name: Option<String>,
}

#[derive(Serialize, Clone)]
struct ThreadOut {
    id: u64,
    name: Option<String>,
}

#[derive(Serialize, Clone)]
struct FindingOut {
    id: &'static str,
    severity: &'static str,
    command: &'static str,
    message: String,
    objects: Vec<ObjectOut>,
    count: u64,
    first_seen: String,
    last_seen: String,
    thread: ThreadOut,
}

#[derive(Default)]
struct Aggregate {
    order: Vec<(&'static str, &'static str, String)>,
    findings: HashMap<(&'static str, &'static str, String), FindingOut>,
}

/// Where the reports go (`%p` still in the path) and with which settings.
struct Destination {
    pattern: String,
    settings: Settings,
}

/// What this process found. A child forked without exec inherits the parent's copy: the first
/// use in the child ([`State::of_this_process`]) starts afresh, with the child's own pid.
struct State {
    pid: u32,
    /// Whether this process writes a report: it created an instance, or found something.
    active: bool,
    findings: Aggregate,
    journal: Option<Journal>,
}

impl State {
    fn of_this_process(&mut self) -> &mut Self {
        let pid = std::process::id();
        if self.pid != pid {
            // The parent's findings, journal and report are the parent's.
            *self = State::new(pid);
        }
        self
    }

    fn new(pid: u32) -> Self {
        State {
            pid,
            active: false,
            findings: Aggregate::default(),
            journal: None,
        }
    }
}

static DESTINATION: OnceLock<Destination> = OnceLock::new();
static STATE: LazyLock<Mutex<State>> = LazyLock::new(|| Mutex::new(State::new(std::process::id())));
/// One writer at a time: two instances destroyed at once must not rename each other's file.
static WRITING: Mutex<()> = Mutex::new(());
static HOOKS: Once = Once::new();

/// The report's path for this process: `%p` is the pid at the time of writing.
fn path(dest: &Destination) -> String {
    dest.pattern.replace("%p", &std::process::id().to_string())
}

/// Turns the report on for this process (the first instance with a `report_file` decides the
/// path and settings), at `vkCreateInstance`, and opens the process's journal if it has none
/// yet: its header line, on disk before the app goes on, says the process loaded the layer,
/// however it ends (a process that calls `_exit` writes no report).
pub fn enable(settings: &Settings) {
    let Some(pattern) = &settings.report_file else {
        return;
    };
    let _ = DESTINATION.set(Destination {
        pattern: pattern.clone(),
        settings: settings.clone(),
    });
    {
        let mut guard = STATE.lock();
        let state = guard.of_this_process();
        state.active = true;
        if state.journal.is_none() {
            if let Some(dest) = DESTINATION.get() {
                state.journal = Journal::open(&path(dest));
            }
        }
    }
    HOOKS.call_once(|| {
        #[cfg(unix)]
        // SAFETY: registers plain extern "C" functions: the exit hook catches every panic; the
        // fork hooks only take and release this module's locks (and, in the child, zero the
        // relaxed atomic counters of sync_sharing_calls).
        unsafe {
            libc::atexit(write_at_exit);
            libc::pthread_atfork(
                Some(before_fork),
                Some(after_fork),
                Some(after_fork_in_child),
            );
        }
    });
}

#[cfg(unix)]
extern "C" fn write_at_exit() {
    let _ = std::panic::catch_unwind(write);
}

/// Before `fork`: takes the locks, so that no other thread holds one in the child (where it
/// would never be released). Same order as [`write`].
#[cfg(unix)]
extern "C" fn before_fork() {
    std::mem::forget(WRITING.lock());
    std::mem::forget(STATE.lock());
}

/// After `fork`, in the parent and in the child: releases what [`before_fork`] took.
#[cfg(unix)]
extern "C" fn after_fork() {
    // SAFETY: before_fork locked both on this thread and forgot the guards; in the child this
    // thread is the only one, and the locks are in the state the parent's were.
    unsafe {
        STATE.force_unlock();
        WRITING.force_unlock();
    }
}

/// After `fork`, in the child: releases the locks, and the calls counted are the parent's.
#[cfg(unix)]
extern "C" fn after_fork_in_child() {
    after_fork();
    super::sync_sharing_calls::forget_the_parents();
    super::cuda_calls::forget_the_parents();
}

fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

fn thread_id() -> u64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no preconditions.
        unsafe { libc::gettid() as u64 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

/// The calling thread's name as the OS knows it (set by `pthread_setname_np`, or by Rust's
/// `thread::Builder::name` in the app: the layer's own std does not see the app's names).
fn thread_name() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        let mut buf = [0 as libc::c_char; 64];
        // SAFETY: a buffer of the stated length for the calling thread's name.
        let r =
            unsafe { libc::pthread_getname_np(libc::pthread_self(), buf.as_mut_ptr(), buf.len()) };
        if r != 0 {
            return None;
        }
        // SAFETY: pthread_getname_np wrote a NUL-terminated string into the buffer.
        let name = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        (!name.is_empty()).then_some(name)
    }
    #[cfg(not(target_os = "linux"))]
    {
        std::thread::current().name().map(str::to_owned)
    }
}

/// Counts a reported finding, when the report is on, and appends it to the journal.
pub fn record(finding: &Finding, text: &str, name_of: &dyn Fn(ObjectRef) -> Option<String>) {
    let Some(dest) = DESTINATION.get() else {
        return;
    };
    let key = (finding.id, finding.command, text.to_owned());
    let time = now();
    let occurrence = FindingOut {
        id: finding.id,
        severity: match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        command: finding.command,
        message: text.to_owned(),
        objects: finding
            .objects
            .iter()
            .map(|o| ObjectOut {
                ty: vk_names::object_type_enum(o.ty).to_owned(),
                handle: format!("0x{:x}", o.handle),
                name: name_of(*o),
            })
            .collect(),
        count: 1,
        first_seen: time.clone(),
        last_seen: time.clone(),
        thread: ThreadOut {
            id: thread_id(),
            name: thread_name(),
        },
    };
    let mut guard = STATE.lock();
    let state = guard.of_this_process();
    state.active = true;
    if state.journal.is_none() {
        state.journal = Journal::open(&path(dest));
    }
    if let Some(journal) = &mut state.journal {
        journal.append(&occurrence);
    }
    let agg = &mut state.findings;
    if let Some(entry) = agg.findings.get_mut(&key) {
        entry.count += 1;
        entry.last_seen = time;
        return;
    }
    agg.order.push(key.clone());
    agg.findings.insert(key, occurrence);
}

/// The report as JSON (the current state).
pub fn render() -> Option<String> {
    let dest = DESTINATION.get()?;
    let s = &dest.settings;
    let (findings, journal): (Vec<FindingOut>, _) = {
        let mut guard = STATE.lock();
        let state = guard.of_this_process();
        let agg = &state.findings;
        let findings = agg
            .order
            .iter()
            .filter_map(|k| agg.findings.get(k).cloned())
            .collect();
        (findings, state.journal.as_ref().map(Journal::reference))
    };
    let doc = serde_json::json!({
        "exportcheck_report_version": REPORT_VERSION,
        "layer": {"name": crate::settings::sources::LAYER_NAME, "version": env!("CARGO_PKG_VERSION")},
        "process": {
            "pid": std::process::id(),
            "executable": std::env::current_exe().ok().map(|p| p.display().to_string()),
            "sync_sharing_calls": super::sync_sharing_calls::snapshot(),
            "cuda_calls": super::cuda_calls::snapshot(),
        },
        "settings": {
            "report_flags": crate::settings::flag_names(s.report_flags),
            "debug_action": crate::settings::action_names(s.debug_action),
            "log_filename": s.log_filename.as_ref().map(crate::settings::log_target_text),
            "message_id_filter": s.message_id_filter,
            "duplicate_message_limit": s.duplicate_message_limit,
            "message_format_json": s.message_format_json,
            "report_file": s.report_file,
            "check_fd_leaks": s.check_fd_leaks,
            "shared_exports_dir": s.shared_exports_dir,
        },
        "journal": journal,
        "findings": findings,
    });
    serde_json::to_string_pretty(&doc).ok()
}

/// Writes the report now (at `vkDestroyInstance` and at exit), if this process has one: named
/// by the pid of the process writing it.
/// At the last `vkDestroyInstance`: the journal's descriptor let go (`Journal::release`).
pub fn release_files() {
    if let Some(journal) = STATE.lock().of_this_process().journal.as_mut() {
        journal.release();
    }
}

pub fn write() {
    let _writing = WRITING.lock();
    let Some(dest) = DESTINATION.get() else {
        return;
    };
    if !STATE.lock().of_this_process().active {
        return;
    }
    let Some(json) = render() else {
        return;
    };
    let path = path(dest);
    let tmp = format!("{path}.tmp{}", std::process::id());
    let written = std::fs::write(&tmp, json + "\n").and_then(|()| std::fs::rename(&tmp, &path));
    if let Err(e) = written {
        eprintln!("exportcheck: cannot write the report file {path}: {e}");
    }
}
