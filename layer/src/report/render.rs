//! Rendering a finding as text.

use crate::finding::{Finding, ObjectRef, Severity};
use crate::vk_names;
pub use crate::vuid::message_id_number;

/// `message` with ` "name"` after each whole mention of `token`: `VkDevice 0xd0` is not
/// mentioned in `VkDevice 0xd00` (found by the `checks` fuzz target, docs/fuzzing.md).
fn name_mentions(message: &str, token: &str, name: &str) -> String {
    let mut out = String::with_capacity(message.len() + name.len() + 3);
    let mut rest = message;
    while let Some(at) = rest.find(token) {
        let end = at + token.len();
        out.push_str(&rest[..end]);
        rest = &rest[end..];
        if !rest.starts_with(|c: char| c.is_ascii_hexdigit()) {
            out.push_str(" \"");
            out.push_str(name);
            out.push('"');
        }
    }
    out.push_str(rest);
    out
}

/// The full message: severity, ID, the command's own words with objects named, and the link to
/// the rule. `name_of` gives the debug name of an object handle, if the app set one.
pub fn render_text(finding: &Finding, name_of: &dyn Fn(ObjectRef) -> Option<String>) -> String {
    render_text_with_note(finding, name_of, None)
}

/// As [`render_text`], with a note after the message and before the link.
pub fn render_text_with_note(
    finding: &Finding,
    name_of: &dyn Fn(ObjectRef) -> Option<String>,
    note: Option<&str>,
) -> String {
    let catalog = exportcheck_vuids::catalog();
    let kind = match finding.severity {
        Severity::Error => "Validation Error",
        Severity::Warning => "Validation Warning",
    };
    let mut message = finding.message.clone();
    let mut seen = Vec::new();
    for object in &finding.objects {
        if seen.contains(object) {
            continue;
        }
        seen.push(*object);
        if let Some(name) = name_of(*object) {
            let token = vk_names::handle(object.ty, object.handle);
            message = name_mentions(&message, &token, &name);
        }
    }
    let note = note.map(|n| format!(" {n}")).unwrap_or_default();
    format!(
        "{kind}: [ {} ] {message}{note} ({})",
        finding.id,
        catalog.spec_link(finding.id)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_id_names_rule_and_link() {
        let finding = Finding::new(
            crate::vuid::FD_HANDLE_TYPE_00671,
            "vkGetMemoryFdKHR",
            "pGetFdInfo->handleType",
            "vkGetMemoryFdKHR(): pGetFdInfo->handleType is X, but VkDeviceMemory 0x30 was not exported.",
        )
        .with(ObjectRef::memory(0x30));
        let text = render_text(&finding, &|o| {
            (o.handle == 0x30).then(|| "staging".to_owned())
        });
        assert!(text.starts_with("Validation Error: [ VUID-VkMemoryGetFdInfoKHR-handleType-00671 ] vkGetMemoryFdKHR(): "), "{text}");
        assert!(
            text.contains("VkDeviceMemory 0x30 \"staging\" was not exported"),
            "{text}"
        );
        assert!(text.ends_with("(https://registry.khronos.org/vulkan/specs/latest/html/vkspec.html#VUID-VkMemoryGetFdInfoKHR-handleType-00671)"), "{text}");
    }

    #[test]
    fn a_name_goes_only_after_whole_mentions_of_its_handle() {
        let finding = Finding::new(
            crate::vuid::MEMORY_OF_OTHER_DEVICE,
            "vkGetMemoryFdKHR",
            "pGetFdInfo->memory",
            "vkGetMemoryFdKHR(): memory of VkDevice 0xff, not of VkDevice 0xff00 (VkDevice 0xff).",
        )
        .with(ObjectRef::device(0xff00))
        .with(ObjectRef::device(0xff));
        let text = render_text(&finding, &|o| Some(format!("d{:x}", o.handle)));
        assert!(
            text.contains(
                "memory of VkDevice 0xff \"dff\", not of VkDevice 0xff00 \"dff00\" (VkDevice 0xff \"dff\")."
            ),
            "{text}"
        );
    }

    #[test]
    fn message_id_numbers_are_stable() {
        assert_eq!(message_id_number(""), 0x811c9dc5_u32 as i32);
        assert_ne!(
            message_id_number(crate::vuid::FD_HANDLE_TYPE_00671),
            message_id_number(crate::vuid::FD_HANDLE_TYPE_00672)
        );
    }
}
