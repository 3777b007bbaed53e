//! What the settings are, with their defaults: below `mod.rs` (which resolves them from their
//! sources) and `parse.rs` (which reads one value), which both use them.

/// Which severities are reported (`report_flags`: `error`, `warn`, `info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportFlags {
    pub error: bool,
    pub warn: bool,
    pub info: bool,
}

/// What happens with a reported finding (`debug_action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugActions {
    /// Write it to the log (`log_filename`, or stderr when the app has no active messenger).
    pub log: bool,
    /// Deliver it to the app's debug messengers and debug-report callbacks.
    pub callback: bool,
    /// Raise SIGTRAP, so a debugger stops at the call.
    pub break_: bool,
    /// Skip every call with a finding and return `VK_ERROR_VALIDATION_FAILED_EXT`.
    pub fail: bool,
}

/// Where the log goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogTarget {
    Stderr,
    Stdout,
    File(String),
}

/// The layer's settings for one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub report_flags: ReportFlags,
    pub debug_action: DebugActions,
    /// `None`: stderr, and only for apps without a messenger.
    pub log_filename: Option<LogTarget>,
    /// IDs (or message ID numbers) that are muted.
    pub message_id_filter: Vec<String>,
    /// How many times one ID is reported per instance; 0 = no limit.
    pub duplicate_message_limit: u32,
    /// Log lines as JSON objects instead of text.
    pub message_format_json: bool,
    /// The JSON report of the process, written at `vkDestroyInstance` and at exit; `%p` is
    /// replaced by the process ID.
    pub report_file: Option<String>,
    /// Track exported fds by file identity and warn about those still open at vkFreeMemory,
    /// vkDestroyDevice and exit. Off by default (one `fstat` per fd export); `exportcheck run`
    /// turns it on.
    pub check_fd_leaks: bool,
    /// The directory where the layers of several processes share what they exported, so that
    /// an import is checked against another process's export (docs/cross-process.md). Off when
    /// unset; `exportcheck run` sets it to a private directory of the run.
    pub shared_exports_dir: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            report_flags: ReportFlags {
                error: true,
                warn: true,
                info: false,
            },
            debug_action: DebugActions {
                log: true,
                callback: true,
                break_: false,
                fail: false,
            },
            log_filename: None,
            message_id_filter: Vec::new(),
            duplicate_message_limit: 10,
            message_format_json: false,
            report_file: None,
            check_fd_leaks: false,
            shared_exports_dir: None,
        }
    }
}
