//! The `log` debug action: text (or JSON) lines to `log_filename`, or to stderr for apps with no
//! active messenger (none created; one chained to `VkInstanceCreateInfo` is active only during
//! `vkCreateInstance` and `vkDestroyInstance`).

use crate::finding::{Finding, Severity};
use crate::settings::{LogTarget, Settings};
use std::io::Write;

/// Writes one finding's line to the log. `app_has_messenger`: whether a messenger or callback
/// of the app is active for this report; without `log_filename`, the log is stderr and only for
/// apps with none (which see the finding there).
pub fn write(settings: &Settings, finding: &Finding, text: &str, app_has_messenger: bool) {
    let line = if settings.message_format_json {
        serde_json::json!({
            "id": finding.id,
            "severity": match finding.severity { Severity::Error => "error", Severity::Warning => "warning" },
            "command": finding.command,
            "field": finding.field,
            "message": text,
        })
        .to_string()
    } else {
        format!("exportcheck: {}", printable(text))
    };
    write_line(settings.log_filename.as_ref(), &line, app_has_messenger);
}

/// `text` with its control characters escaped (`\x1b`, `\r`, `\n` as `\x..`): a debug name
/// the app set may hold any bytes, and on a terminal or in a CI log an ESC sequence or a line
/// break of its would move the cursor or print a line that is not the layer's (a fake
/// `exportcheck: PASSED`). One finding, one line.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes a line that is not a finding (settings warnings, the active configuration).
pub fn write_note(settings: &Settings, line: &str, app_has_messenger: bool) {
    write_line(
        settings.log_filename.as_ref(),
        &format!("exportcheck: {}", printable(line)),
        app_has_messenger,
    );
}

fn write_line(target: Option<&LogTarget>, line: &str, app_has_messenger: bool) {
    match target {
        None if app_has_messenger => {}
        None | Some(LogTarget::Stderr) => eprintln!("{line}"),
        Some(LogTarget::Stdout) => println!("{line}"),
        Some(LogTarget::File(path)) => {
            let opened = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path);
            match opened {
                Ok(mut file) => {
                    let _ = writeln!(file, "{line}");
                }
                Err(e) => eprintln!("exportcheck: cannot open log_filename {path}: {e}; {line}"),
            }
        }
    }
}

/// The `break` debug action: stop in an attached debugger.
pub fn break_into_debugger() {
    #[cfg(unix)]
    // SAFETY: raising a signal has no memory-safety preconditions.
    unsafe {
        libc::raise(libc::SIGTRAP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_in_text_lines() {
        assert_eq!(printable("plain name"), "plain name");
        assert_eq!(
            printable("a\x1b[2Kb\r\nexportcheck: PASSED"),
            "a\\x1b[2Kb\\x0d\\x0aexportcheck: PASSED"
        );
    }
}
