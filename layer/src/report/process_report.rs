//! The JSON report of the process (`report_file`): every finding, counted, with the first and
//! last time it was seen. One document per process (`%p` in the path becomes the process ID),
//! rewritten at each `vkDestroyInstance` and at exit, atomically (written aside, then renamed).
//! The format is documented in docs/report.md and docs/report.schema.json.

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

struct Destination {
    path: String,
    settings: Settings,
}

static DESTINATION: OnceLock<Destination> = OnceLock::new();
static FINDINGS: LazyLock<Mutex<Aggregate>> = LazyLock::new(|| Mutex::new(Aggregate::default()));
static AT_EXIT: Once = Once::new();

/// Turns the report on for this process (the first instance with a `report_file` decides).
pub fn enable(settings: &Settings) {
    let Some(path) = &settings.report_file else {
        return;
    };
    let path = path.replace("%p", &std::process::id().to_string());
    let _ = DESTINATION.set(Destination {
        path,
        settings: settings.clone(),
    });
    AT_EXIT.call_once(|| {
        #[cfg(unix)]
        // SAFETY: registers a plain extern "C" function; it only takes a lock and writes a file.
        unsafe {
            libc::atexit(write_at_exit);
        }
    });
}

#[cfg(unix)]
extern "C" fn write_at_exit() {
    let _ = std::panic::catch_unwind(write);
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

/// Counts a reported finding, when the report is on.
pub fn record(finding: &Finding, text: &str, name_of: &dyn Fn(ObjectRef) -> Option<String>) {
    if DESTINATION.get().is_none() {
        return;
    }
    let key = (finding.id, finding.command, text.to_owned());
    let time = now();
    let mut agg = FINDINGS.lock();
    if let Some(entry) = agg.findings.get_mut(&key) {
        entry.count += 1;
        entry.last_seen = time;
        return;
    }
    let entry = FindingOut {
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
        last_seen: time,
        thread: ThreadOut {
            id: thread_id(),
            name: thread_name(),
        },
    };
    agg.order.push(key.clone());
    agg.findings.insert(key, entry);
}

/// The report as JSON (the current state).
pub fn render() -> Option<String> {
    let dest = DESTINATION.get()?;
    let s = &dest.settings;
    let findings: Vec<FindingOut> = {
        let agg = FINDINGS.lock();
        agg.order
            .iter()
            .filter_map(|k| agg.findings.get(k).cloned())
            .collect()
    };
    let doc = serde_json::json!({
        "exportcheck_report_version": REPORT_VERSION,
        "layer": {"name": crate::settings::sources::LAYER_NAME, "version": env!("CARGO_PKG_VERSION")},
        "process": {
            "pid": std::process::id(),
            "executable": std::env::current_exe().ok().map(|p| p.display().to_string()),
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
        },
        "findings": findings,
    });
    serde_json::to_string_pretty(&doc).ok()
}

/// Writes the report now (at `vkDestroyInstance` and at exit).
pub fn write() {
    static WRITING: Mutex<()> = Mutex::new(());
    // One writer at a time: two instances destroyed at once must not rename each other's file.
    let _writing = WRITING.lock();
    let (Some(dest), Some(json)) = (DESTINATION.get(), render()) else {
        return;
    };
    let tmp = format!("{}.tmp{}", dest.path, std::process::id());
    let written =
        std::fs::write(&tmp, json + "\n").and_then(|()| std::fs::rename(&tmp, &dest.path));
    if let Err(e) = written {
        eprintln!(
            "exportcheck: cannot write the report file {}: {e}",
            dest.path
        );
    }
}
