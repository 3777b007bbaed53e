//! Assertions on what the app's messenger received, and the record of what the tests observed.
//!
//! Every assertion that passes appends one JSON line to
//! `target/<profile>/exportcheck-observed/<test-binary>.jsonl`:
//! `{"test":"<name>","kind":"negative"|"positive","ids":[...],"command":"vkGetMemoryFdKHR"}`.
//! The coverage report reads these files, so an ID counts as tested only when a test saw it.
//! Lines are only ever appended; clear the directory before a run for a fresh report.

use crate::app::{Captured, Device, Instance, OPAQUE_FD};
use ash::vk::{self, Handle};
use exportcheck_vuids::Severity;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Whether an assertion expected findings or silence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Negative,
    Positive,
}

/// Asserts that the messages received since the last take are exactly `expected`, in order, and
/// that each looks as users should see it: the catalog's severity, `"Validation Error: [ <id> ]
/// <command>()..."` and the catalog's link at the end. Returns the messages for further checks.
#[track_caller]
pub fn only(inst: &Instance, command: &str, expected: &[&str]) -> Vec<Captured> {
    assert!(!expected.is_empty(), "use expect::silent for no findings");
    let catalog = exportcheck_vuids::catalog();
    for id in expected {
        assert!(
            catalog
                .get(id)
                .is_some_and(exportcheck_vuids::Entry::is_checked),
            "{id} is not in vuids/catalog.json as a checked ID"
        );
    }
    let messages = inst.messages();
    let ids: Vec<&str> = messages.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, expected, "messages: {messages:#?}");
    for m in &messages {
        let entry = catalog.get(&m.id).expect("checked above");
        let (severity, kind) = match entry.severity {
            Severity::Error => (vk::DebugUtilsMessageSeverityFlagsEXT::ERROR, "Error"),
            Severity::Warning => (vk::DebugUtilsMessageSeverityFlagsEXT::WARNING, "Warning"),
        };
        assert_eq!(m.severity, severity, "{m:#?}");
        let head = format!("Validation {kind}: [ {} ] {command}()", m.id);
        assert!(m.text.starts_with(&head), "expected `{head}...`: {m:#?}");
        let link = format!("({})", catalog.spec_link(&m.id));
        assert!(m.text.ends_with(&link), "expected the link {link}: {m:#?}");
    }
    record(Kind::Negative, expected, command);
    messages
}

/// Like [`only`] for one ID; returns its message.
#[track_caller]
pub fn one(inst: &Instance, command: &str, id: &str) -> Captured {
    only(inst, command, &[id]).remove(0)
}

/// Like [`only`] for the driver-contract warnings (`Instance::driver_messages`).
#[track_caller]
pub fn driver_only(inst: &Instance, command: &str, expected: &[&str]) -> Vec<Captured> {
    let messages = inst.driver_messages();
    let ids: Vec<&str> = messages.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, expected, "driver messages: {messages:#?}");
    let catalog = exportcheck_vuids::catalog();
    for m in &messages {
        let entry = catalog.get(&m.id).expect("driver IDs are in the catalog");
        assert_eq!(entry.severity, Severity::Warning, "{m:#?}");
        assert_eq!(
            m.severity,
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
            "{m:#?}"
        );
        let head = format!(
            "Validation Warning: [ {} ] {command}(): the driver returned",
            m.id
        );
        assert!(m.text.starts_with(&head), "expected `{head}...`: {m:#?}");
    }
    if !expected.is_empty() {
        record(Kind::Negative, expected, command);
    }
    messages
}

/// Asserts that no message at all was received since the last take.
#[track_caller]
pub fn silent(inst: &Instance, command: &str) {
    silent_for(inst, &[command]);
}

/// Asserts once that no message at all was received, and records it for each of `commands`.
#[track_caller]
pub fn silent_for(inst: &Instance, commands: &[&str]) {
    let messages = inst.messages();
    assert!(messages.is_empty(), "expected no message: {messages:#?}");
    for command in commands {
        record(Kind::Positive, &[], command);
    }
}

/// Asserts that the message text contains each of `parts`.
#[track_caller]
pub fn mentions(message: &Captured, parts: &[&str]) {
    for part in parts {
        assert!(
            message.text.contains(part),
            "the message does not mention `{part}`:\n{}",
            message.text
        );
    }
}

/// How the messages name a device: `VkDevice 0x<handle>`.
pub fn device_name(dev: &Device) -> String {
    format!("VkDevice 0x{:x}", dev.handle().as_raw())
}

/// How the messages name memory: `VkDeviceMemory 0x<handle>`.
pub fn memory_name(memory: vk::DeviceMemory) -> String {
    format!("VkDeviceMemory 0x{:x}", memory.as_raw())
}

/// Asserts that each of `instances` received exactly `id` on `command` about the made-up
/// `VkDevice` 0x1234 (findings about an unknown device go to every live instance), mentioning
/// `parts`, with that device in `pObjects`.
#[track_caller]
pub fn unknown_device(instances: &[&Instance], command: &str, id: &str, parts: &[&str]) {
    for instance in instances {
        let m = one(instance, command, id);
        mentions(&m, parts);
        object(&m, vk::ObjectType::DEVICE, 0x1234);
    }
}

/// Asserts that `m`, a message about `memory` of the device `owner` used with the device `user`,
/// names it in `field` with the device that allocated it (`<field> is <memory> (allocated on
/// <owner>`), also says `says` (how it relates to `user`), and lists both devices and the memory
/// in `pObjects`.
#[track_caller]
pub fn memory_of_another_device(
    m: &Captured,
    field: &str,
    user: &Device,
    (owner, memory): (&Device, vk::DeviceMemory),
    says: &[&str],
) {
    let named = format!(
        "{field} is {} (allocated on {}",
        memory_name(memory),
        device_name(owner)
    );
    mentions(m, &[&named]);
    mentions(m, says);
    object(m, vk::ObjectType::DEVICE, user.handle().as_raw());
    object(m, vk::ObjectType::DEVICE, owner.handle().as_raw());
    object(m, vk::ObjectType::DEVICE_MEMORY, memory.as_raw());
}

/// Asserts that `m`, a message about the made-up memory handle `0xdead0000` in `field`, says it
/// is not a live VkDeviceMemory, and not that it was freed, and lists it in `pObjects`.
#[track_caller]
pub fn garbage_memory(m: &Captured, field: &str) {
    mentions(
        m,
        &[&format!(
            "{field} is VkDeviceMemory 0xdead0000, which is not a live VkDeviceMemory"
        )],
    );
    assert!(!m.text.contains("already freed"), "{}", m.text);
    object(m, vk::ObjectType::DEVICE_MEMORY, 0xdead_0000);
}

/// Asserts that a correct OPAQUE_FD export of `memory` works and is silent: the layer still
/// tracks it as live (after a blocked call about it, or a blocked free).
#[track_caller]
pub fn still_exports_fd(inst: &Instance, dev: &Device, memory: vk::DeviceMemory) {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    crate::fds::close(fd);
    silent(inst, crate::ids::GET_FD);
}

/// Asserts that `pObjects` has an entry for `(ty, handle)` and returns its debug name.
#[track_caller]
pub fn object(message: &Captured, ty: vk::ObjectType, handle: u64) -> Option<String> {
    message
        .objects
        .iter()
        .find(|(t, h, _)| *t == ty && *h == handle)
        .unwrap_or_else(|| panic!("no {ty:?} 0x{handle:x} in pObjects: {message:#?}"))
        .2
        .clone()
}

/// Runs `f`; if it has not returned within `limit`, prints what hung and aborts the test
/// process (a hang in the driver cannot be interrupted, and a hung test would never fail).
pub fn promptly<R>(what: &str, limit: Duration, f: impl FnOnce() -> R) -> R {
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let what_owned = what.to_owned();
    let watchdog = std::thread::spawn(move || {
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
            eprintln!("{what_owned} did not return within {limit:?}; aborting the test process");
            std::process::abort();
        }
    });
    let result = f();
    let _ = done.send(());
    watchdog.join().expect("watchdog");
    result
}

/// The name of the running test (libtest names each test's thread after it).
pub fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("<unnamed>")
        .to_owned()
}

/// Appends one observation line for the running test.
pub fn record(kind: Kind, ids: &[&str], command: &str) {
    let kind = match kind {
        Kind::Negative => "negative",
        Kind::Positive => "positive",
    };
    let ids: Vec<String> = ids.iter().map(|id| json_string(id)).collect();
    let line = format!(
        "{{\"test\":{},\"kind\":\"{kind}\",\"ids\":[{}],\"command\":{}}}\n",
        json_string(&test_name()),
        ids.join(","),
        json_string(command)
    );
    let path = observed_file();
    std::fs::create_dir_all(path.parent().expect("observed dir")).expect("create observed dir");
    // One write of one line, O_APPEND: parallel tests and binaries never interleave lines.
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .unwrap_or_else(|e| panic!("append to {}: {e}", path.display()));
}

/// `target/<profile>/exportcheck-observed/<test binary name, without cargo's hash>.jsonl`.
pub fn observed_file() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let stem = exe
        .file_stem()
        .expect("test binary name")
        .to_string_lossy()
        .into_owned();
    // Cargo names test binaries `<name>-<16 hex digits>`.
    let name = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name.to_owned()
        }
        _ => stem,
    };
    crate::env::target_profile_dir()
        .join("exportcheck-observed")
        .join(format!("{name}.jsonl"))
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
