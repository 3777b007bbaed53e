//! Delivering findings. No lock is held while the app is called back: the messengers are copied
//! out first.

use super::render::{message_id_number, render_text};
use crate::finding::{Finding, ObjectRef, Outcome, Severity};
use crate::state::registry::INSTANCES;
use crate::state::{DeviceState, InstanceState, Messenger};
use ash::vk;
use std::ffi::{c_void, CString};

/// Reports every finding of `outcome` for a call on `device`. Returns true when an app callback
/// returned `VK_TRUE`, asking for the call to be skipped.
pub fn report(device: &DeviceState, outcome: &Outcome) -> bool {
    let name_of = |object: ObjectRef| device.name_of(object);
    let messengers = device.instance.messengers_snapshot();
    let mut skip = false;
    for finding in &outcome.findings {
        skip |= deliver(finding, &messengers, &name_of);
    }
    skip
}

/// Reports findings that belong to no known device (e.g. an unknown `VkDevice`) to the messengers
/// of every live instance.
pub fn report_to_all_instances(outcome: &Outcome) -> bool {
    let messengers: Vec<Messenger> = INSTANCES
        .values()
        .iter()
        .flat_map(|i: &std::sync::Arc<InstanceState>| i.messengers_snapshot())
        .collect();
    let mut skip = false;
    for finding in &outcome.findings {
        skip |= deliver(finding, &messengers, &|_| None);
    }
    skip
}

fn deliver(
    finding: &Finding,
    messengers: &[Messenger],
    name_of: &dyn Fn(ObjectRef) -> Option<String>,
) -> bool {
    let text = render_text(finding, name_of);
    if messengers.is_empty() {
        eprintln!("exportcheck: {text}");
        return false;
    }
    let c_text = to_c_string(&text);
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
        Severity::Error => (
            vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            vk::DebugReportFlagsEXT::ERROR,
        ),
        Severity::Warning => (
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
            vk::DebugReportFlagsEXT::WARNING,
        ),
    };
    let first = finding.objects.first();
    let mut skip = false;
    for messenger in messengers {
        let answer = match *messenger {
            Messenger::Utils {
                severities,
                types,
                callback,
                user_data,
                ..
            } => {
                if !severities.contains(utils_severity)
                    || !types.contains(vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION)
                {
                    continue;
                }
                let Some(callback) = callback else { continue };
                // SAFETY: the app registered this callback; `data` and everything it points to
                // live until the call returns.
                unsafe {
                    callback(
                        utils_severity,
                        vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION,
                        &data,
                        user_data as *mut c_void,
                    )
                }
            }
            Messenger::Report {
                flags,
                callback,
                user_data,
                ..
            } => {
                if !flags.contains(report_flags) {
                    continue;
                }
                let Some(callback) = callback else { continue };
                // SAFETY: the app registered this callback; the strings live until it returns.
                unsafe {
                    callback(
                        report_flags,
                        first.map_or(vk::DebugReportObjectTypeEXT::UNKNOWN, |o| {
                            report_object_type(o.ty)
                        }),
                        first.map_or(0, |o| o.handle),
                        0,
                        message_id_number(finding.id),
                        c"exportcheck".as_ptr(),
                        c_text.as_ptr(),
                        user_data as *mut c_void,
                    )
                }
            }
        };
        skip |= answer == vk::TRUE;
    }
    skip
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
