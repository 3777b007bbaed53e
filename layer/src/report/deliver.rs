//! Delivering findings. No lock is held while the app is called back: the messengers are copied
//! out first.

use super::render::{message_id_number, render_text, render_text_with_note};
use super::{log, process_report};
use crate::finding::{Finding, ObjectRef, Outcome, Severity as FindingSeverity};
use crate::settings::Settings;
use crate::state::registry::INSTANCES;
use crate::state::{DeviceState, InstanceState, Messenger};
use ash::vk;
use dashmap::DashMap;
use std::ffi::{c_void, CStr, CString};

/// Reports every finding of `outcome` for a call on `device`, as the instance's settings say.
/// Returns true when the call must be skipped: an app callback returned `VK_TRUE`, or
/// `debug_action` includes `fail`.
pub fn report(device: &DeviceState, outcome: &Outcome) -> bool {
    let name_of = |object: ObjectRef| device.name_of(object);
    report_for(&device.instance, outcome, &name_of)
}

/// Reports findings at process exit: to the log and the process report, never to the app's
/// callbacks (the app may be half torn down).
pub fn report_at_exit(device: &DeviceState, outcome: &Outcome) {
    let name_of = |object: ObjectRef| device.name_of(object);
    let instance = &device.instance;
    for finding in &outcome.findings {
        deliver(
            finding,
            &instance.settings,
            Some(&instance.duplicates),
            &[],
            &name_of,
        );
    }
}

/// Reports findings that belong to no known device (e.g. an unknown `VkDevice`) through every
/// live instance (stderr when there is none).
pub fn report_to_all_instances(outcome: &Outcome) -> bool {
    let instances = INSTANCES.values();
    if instances.is_empty() {
        let settings = Settings::default();
        return outcome.findings.iter().fold(false, |skip, f| {
            skip | deliver(f, &settings, None, &[], &|_| None)
        });
    }
    instances
        .iter()
        .fold(false, |skip, i| skip | report_for(i, outcome, &|_| None))
}

/// Reports findings of a call that belongs to no Vulkan object (the CUDA side): through every
/// live instance, as [`report_to_all_instances`]; with none, with `settings` (the environment's
/// and the settings file's: the log and the process report). Never skips a call.
pub fn report_process_wide(outcome: &Outcome, settings: &Settings) -> bool {
    if INSTANCES.values().is_empty() {
        for finding in &outcome.findings {
            deliver(finding, settings, None, &[], &|_| None);
        }
        return false;
    }
    report_to_all_instances(outcome);
    false
}

/// Reports every finding of `outcome` for a call on one of `instance`'s physical devices (no
/// device, so no debug names). Returns true when the call must be skipped, as [`report`].
pub fn report_for_instance(instance: &InstanceState, outcome: &Outcome) -> bool {
    report_for(instance, outcome, &|_| None)
}

fn report_for(
    instance: &InstanceState,
    outcome: &Outcome,
    name_of: &dyn Fn(ObjectRef) -> Option<String>,
) -> bool {
    let settings = &instance.settings;
    let messengers = if settings.debug_action.callback {
        instance.active_messengers()
    } else {
        Vec::new()
    };
    outcome.findings.iter().fold(false, |skip, f| {
        skip | deliver(
            f,
            settings,
            Some(&instance.duplicates),
            &messengers,
            name_of,
        )
    })
}

/// Applies the settings to one finding: mute, severity filter, duplicate limit, then each
/// `debug_action`. Returns true when the call must be skipped.
fn deliver(
    finding: &Finding,
    settings: &Settings,
    duplicates: Option<&DashMap<&'static str, u32>>,
    messengers: &[Messenger],
    name_of: &dyn Fn(ObjectRef) -> Option<String>,
) -> bool {
    if finding.id != crate::vuid::INTERNAL_ERROR {
        crate::fault_injection::inject_panic(crate::fault_injection::Site::Report, finding.command);
    }
    if settings.is_muted(finding.id) {
        return false;
    }
    let wanted = match finding.severity {
        FindingSeverity::Error => settings.report_flags.error,
        FindingSeverity::Warning => settings.report_flags.warn,
    };
    if !wanted {
        return false;
    }
    let mut text = render_text(finding, name_of);
    process_report::record(finding, &text, name_of);
    let actions = settings.debug_action;
    let limit = settings.duplicate_message_limit;
    if let (Some(duplicates), true) = (duplicates, limit > 0) {
        let seen = {
            let mut n = duplicates.entry(finding.id).or_insert(0);
            *n += 1;
            *n
        };
        if seen > limit {
            return actions.fail;
        }
        if seen == limit {
            let note = format!(
                "[{} has been reported {limit} times; further reports are suppressed \
                 (duplicate_message_limit)]",
                finding.id
            );
            text = render_text_with_note(finding, name_of, Some(&note));
        }
    }
    let mut skip = false;
    if actions.callback {
        skip |= to_messengers(finding, &text, messengers, name_of);
    }
    if actions.log {
        log::write(settings, finding, &text, !messengers.is_empty());
    }
    if actions.break_ {
        log::break_into_debugger();
    }
    skip || actions.fail
}

/// Delivers one finding to the app's messengers and callbacks; true if one returned `VK_TRUE`.
fn to_messengers(
    finding: &Finding,
    text: &str,
    messengers: &[Messenger],
    name_of: &dyn Fn(ObjectRef) -> Option<String>,
) -> bool {
    if messengers.is_empty() {
        return false;
    }
    let c_text = to_c_string(text);
    let c_id = to_c_string(finding.id);
    let names: Vec<Option<CString>> = finding
        .objects
        .iter()
        .map(|o| name_of(*o).map(|n| to_c_string(&n)))
        .collect();
    let objects: Vec<vk::DebugUtilsObjectNameInfoEXT> = finding
        .objects
        .iter()
        .zip(&names)
        .map(|(o, name)| vk::DebugUtilsObjectNameInfoEXT {
            object_type: o.ty,
            object_handle: o.handle,
            p_object_name: name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr()),
            ..Default::default()
        })
        .collect();
    let data = vk::DebugUtilsMessengerCallbackDataEXT {
        p_message_id_name: c_id.as_ptr(),
        message_id_number: message_id_number(finding.id),
        p_message: c_text.as_ptr(),
        object_count: objects.len() as u32,
        p_objects: objects.as_ptr(),
        ..Default::default()
    };
    let (utils_severity, report_flags) = match finding.severity {
        FindingSeverity::Error => (
            vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            vk::DebugReportFlagsEXT::ERROR,
        ),
        FindingSeverity::Warning => (
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
            vk::DebugReportFlagsEXT::WARNING,
        ),
    };
    let first = finding.objects.first();
    call_messengers(
        messengers,
        &Message {
            utils_severity,
            report_flags,
            message_type: vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION,
            data: &data,
            report_object: first.map_or((vk::DebugReportObjectTypeEXT::UNKNOWN, 0), |o| {
                (report_object_type(o.ty), o.handle)
            }),
            text: &c_text,
        },
    )
}

/// One message, as each kind of messenger takes it.
struct Message<'a> {
    utils_severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    report_flags: vk::DebugReportFlagsEXT,
    /// `VALIDATION` for a finding, `GENERAL` for a note.
    message_type: vk::DebugUtilsMessageTypeFlagsEXT,
    data: &'a vk::DebugUtilsMessengerCallbackDataEXT<'a>,
    /// The object a debug-report callback is told about.
    report_object: (vk::DebugReportObjectTypeEXT, u64),
    text: &'a CStr,
}

/// Calls each messenger that asked for `message`'s severity and type; whether one of them
/// returned `VK_TRUE` (skip the call).
fn call_messengers(messengers: &[Messenger], message: &Message) -> bool {
    let mut skip = false;
    for messenger in messengers {
        let answer = match *messenger {
            Messenger::Utils {
                severities,
                types,
                callback: Some(callback),
                user_data,
                ..
            } if severities.contains(message.utils_severity)
                && types.contains(message.message_type) =>
            {
                // SAFETY: the app registered this callback; `data` and everything it points to
                // live until the call returns.
                unsafe {
                    callback(
                        message.utils_severity,
                        message.message_type,
                        message.data,
                        user_data as *mut c_void,
                    )
                }
            }
            Messenger::Report {
                flags,
                callback: Some(callback),
                user_data,
                ..
            } if flags.contains(message.report_flags) => {
                let (object_type, object) = message.report_object;
                // SAFETY: the app registered this callback; the strings live until it returns.
                unsafe {
                    callback(
                        message.report_flags,
                        object_type,
                        object,
                        0,
                        message.data.message_id_number,
                        c"exportcheck".as_ptr(),
                        message.text.as_ptr(),
                        user_data as *mut c_void,
                    )
                }
            }
            _ => continue,
        };
        skip |= answer == vk::TRUE;
    }
    skip
}

/// How loud a note that is not a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Warning,
    Info,
}

/// Tells the app something that is not a finding (bad settings, the active configuration):
/// as a GENERAL message to its messengers and to the log, if `report_flags` asks for it.
pub fn announce(instance: &InstanceState, severity: Severity, text: &str) {
    let settings = &instance.settings;
    let (wanted, utils_severity, report_flags) = match severity {
        Severity::Warning => (
            settings.report_flags.warn,
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
            vk::DebugReportFlagsEXT::WARNING,
        ),
        Severity::Info => (
            settings.report_flags.info,
            vk::DebugUtilsMessageSeverityFlagsEXT::INFO,
            vk::DebugReportFlagsEXT::INFORMATION,
        ),
    };
    if !wanted {
        return;
    }
    let messengers = instance.active_messengers();
    let c_text = to_c_string(text);
    let data = vk::DebugUtilsMessengerCallbackDataEXT {
        p_message_id_name: c"exportcheck-settings".as_ptr(),
        message_id_number: message_id_number("exportcheck-settings"),
        p_message: c_text.as_ptr(),
        ..Default::default()
    };
    if settings.debug_action.callback {
        // A note cannot skip a call: what the callbacks answer is ignored.
        let _ = call_messengers(
            &messengers,
            &Message {
                utils_severity,
                report_flags,
                message_type: vk::DebugUtilsMessageTypeFlagsEXT::GENERAL,
                data: &data,
                report_object: (vk::DebugReportObjectTypeEXT::INSTANCE, 0),
                text: &c_text,
            },
        );
    }
    if settings.debug_action.log {
        log::write_note(
            settings,
            text,
            settings.debug_action.callback && !messengers.is_empty(),
        );
    }
}

fn report_object_type(ty: vk::ObjectType) -> vk::DebugReportObjectTypeEXT {
    match ty {
        vk::ObjectType::INSTANCE => vk::DebugReportObjectTypeEXT::INSTANCE,
        vk::ObjectType::DEVICE => vk::DebugReportObjectTypeEXT::DEVICE,
        vk::ObjectType::DEVICE_MEMORY => vk::DebugReportObjectTypeEXT::DEVICE_MEMORY,
        _ => vk::DebugReportObjectTypeEXT::UNKNOWN,
    }
}

/// A C string of `text`, with any interior NUL replaced (names come from the app).
fn to_c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\u{2400}")).unwrap_or_default()
}
