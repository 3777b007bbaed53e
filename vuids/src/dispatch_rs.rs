//! The layer's generated tables, from the table of commands (`vuids/commands.json`) and the
//! registry (`vuids/registry/vk.xml`), each in the room of the layer that uses it: the next
//! layer's function pointers and their loading (`next_layer/dispatch.rs`), the table of
//! intercepted commands (`dispatch/intercept_table.rs`) and the enabled device extensions
//! (`state/enabled_extensions.rs`). The registry gives each command's level (by its first
//! parameter), `PFN_` type (its alias's, for an alias), core version and extension, so the table
//! says only what is the layer's own choice.

use crate::vk_xml::{CommandInfo, CommandLevel, Registry};
use serde::Deserialize;
use std::fmt::Write;

/// The path of the committed table of commands.
pub const COMMANDS_JSON_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/commands.json");

/// The command that writes the generated files, as their headers name it.
pub const RENDER_COMMAND: &str = "cargo run -p exportcheck-vuids --bin render-dispatch";

/// The table of commands, as `vuids/commands.json` holds it (its `about` says what each key means).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[allow(dead_code)]
    about: Vec<String>,
    commands: Vec<CommandRow>,
    device_extensions: Vec<ExtensionRow>,
}

/// One command the layer intercepts or calls down.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandRow {
    name: String,
    /// The dispatch field holding the next layer's pointer.
    next: Option<String>,
    /// The layer's function, under `crate::`.
    intercept: Option<String>,
    /// On which devices a device-level command is intercepted.
    when: Option<String>,
    doc: Option<String>,
    /// Its `PFN_` type is in `crate::vk_ext` (newer than ash).
    #[serde(default)]
    ash_lacks: bool,
}

/// One device extension the layer tracks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtensionRow {
    name: String,
    doc: Option<String>,
}

/// A row with what the registry says of its command.
struct Command<'a> {
    row: &'a CommandRow,
    info: CommandInfo,
}

impl Command<'_> {
    /// The Rust type of its function pointer.
    fn pfn_type(&self) -> String {
        let pfn = self.info.pfn();
        if self.row.ash_lacks {
            // `PFN_vkGetMemoryMetalHandleEXT` is `crate::vk_ext::PfnGetMemoryMetalHandleEXT`.
            format!("crate::vk_ext::Pfn{}", &pfn["PFN_vk".len()..])
        } else {
            format!("vk::{pfn}")
        }
    }

    /// Where the registry has it: `Vulkan 1.1`, `VK_KHR_bind_memory2`.
    fn origin(&self) -> String {
        let mut parts: Vec<String> = self
            .info
            .core
            .iter()
            .map(|v| format!("Vulkan {v}"))
            .collect();
        parts.extend(self.info.extensions.iter().map(|e| format!("`{e}`")));
        parts.join(", ")
    }
}

/// The field of an extension's flag: its name without `VK_`, in lower case.
fn extension_field(name: &str) -> String {
    name.trim_start_matches("VK_").to_lowercase()
}

/// The generated files: (path from the repository root, source).
pub type Files = Vec<(&'static str, String)>;

/// The generated files for the committed table and registry.
///
/// # Errors
/// When a file cannot be read, or the table is inconsistent with itself or the registry.
pub fn dispatch_files_of_repository() -> Result<Files, String> {
    let commands = std::fs::read_to_string(COMMANDS_JSON_PATH).map_err(|e| e.to_string())?;
    let registry = Registry::parse(&crate::vk_xml::vk_xml());
    dispatch_files(&commands, &registry)
}

/// The generated files for the table `commands_json` and the registry.
///
/// # Errors
/// When the table is malformed, names a command or extension the registry lacks, or its rows
/// disagree (see each message).
pub fn dispatch_files(commands_json: &str, registry: &Registry) -> Result<Files, String> {
    let table: Table = serde_json::from_str(commands_json).map_err(|e| e.to_string())?;
    let mut commands = Vec::new();
    for row in &table.commands {
        let info = registry
            .command(&row.name)
            .ok_or_else(|| format!("{}: not a command of vk.xml", row.name))?;
        if commands.iter().any(|c: &Command| c.row.name == row.name) {
            return Err(format!("{}: twice", row.name));
        }
        commands.push(Command { row, info });
    }
    for extension in &table.device_extensions {
        if registry.extension_type(&extension.name) != Some("device") {
            return Err(format!(
                "{}: not a device extension of vk.xml",
                extension.name
            ));
        }
    }
    check_rows(&commands, &table.device_extensions)?;
    Ok(vec![
        ("layer/src/next_layer/dispatch.rs", next_layer_rs(&commands)),
        (
            "layer/src/dispatch/intercept_table.rs",
            intercepts_rs(&commands)?,
        ),
        (
            "layer/src/state/enabled_extensions.rs",
            extensions_rs(&table.device_extensions),
        ),
    ])
}

/// Rows that share a field agree on level and type; `when` is given exactly for device-level
/// intercepts.
fn check_rows(commands: &[Command], extensions: &[ExtensionRow]) -> Result<(), String> {
    for (i, command) in commands.iter().enumerate() {
        let name = &command.row.name;
        let device_intercept =
            command.row.intercept.is_some() && command.info.level == CommandLevel::Device;
        if command.row.when.is_some() != device_intercept {
            return Err(format!(
                "{name}: `when` is for device-level intercepts, and only them"
            ));
        }
        let checks_next = !matches!(command.row.when.as_deref(), None | Some("always"));
        if checks_next && command.row.next.is_none() {
            return Err(format!(
                "{name}: `when` checks the next layer's `next` field"
            ));
        }
        if command.row.when.as_deref() == Some("extension") {
            let [extension] = command.info.extensions.as_slice() else {
                return Err(format!(
                    "{name}: `when: extension` needs exactly one extension"
                ));
            };
            if !extensions.iter().any(|e| &e.name == extension) {
                return Err(format!("{name}: {extension} is not in device_extensions"));
            }
        }
        let Some(field) = &command.row.next else {
            continue;
        };
        for earlier in &commands[..i] {
            if earlier.row.next.as_ref() == Some(field)
                && (earlier.info.level != command.info.level
                    || earlier.pfn_type() != command.pfn_type())
            {
                return Err(format!("{name}: `{field}` holds another level or type"));
            }
        }
    }
    Ok(())
}

/// The header of every generated file.
fn header(what: &str) -> String {
    format!(
        "//! {what}\n//!\n//! Generated from `vuids/commands.json` and `vuids/registry/vk.xml`: do not edit. Edit the\n//! table, then `{RENDER_COMMAND}` (a test of\n//! `vuids/tests/dispatch_rs.rs` fails until the two agree).\n"
    )
}

/// `text` as `///` lines indented by `indent`, split at spaces near 100 columns.
fn doc(text: &str, indent: &str, out: &mut String) {
    let mut line = format!("{indent}///");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 100 && line.len() > indent.len() + 3 {
            let _ = writeln!(out, "{line}");
            line = format!("{indent}///");
        }
        line.push(' ');
        line.push_str(word);
    }
    let _ = writeln!(out, "{line}");
}

/// Per level: the struct's name, its proc-address field and type, the loader's argument names.
struct DispatchKind {
    level: CommandLevel,
    name: &'static str,
    what: &'static str,
    proc_addr: &'static str,
    proc_addr_pfn: &'static str,
    getter: &'static str,
    object: &'static str,
    object_type: &'static str,
    object_doc: &'static str,
}

const DISPATCHES: [DispatchKind; 2] = [
    DispatchKind {
        level: CommandLevel::Instance,
        name: "InstanceDispatch",
        what: "Instance-level",
        proc_addr: "get_instance_proc_addr",
        proc_addr_pfn: "vk::PFN_vkGetInstanceProcAddr",
        getter: "gipa",
        object: "instance",
        object_type: "vk::Instance",
        object_doc: "a live instance",
    },
    DispatchKind {
        level: CommandLevel::Device,
        name: "DeviceDispatch",
        what: "Device-level",
        proc_addr: "get_device_proc_addr",
        proc_addr_pfn: "vk::PFN_vkGetDeviceProcAddr",
        getter: "gdpa",
        object: "device",
        object_type: "vk::Device",
        object_doc: "a live device",
    },
];

/// `layer/src/next_layer/dispatch.rs`: `InstanceDispatch` and `DeviceDispatch` with `load`.
fn next_layer_rs(commands: &[Command]) -> String {
    let mut out = header(
        "Next-layer function pointers, fetched once at instance or device creation (re-exported by\n//! `next_layer.rs`, with the `cast` they use). Every entry is an `Option`: a missing function is a reported condition,\n//! never a panic.",
    );
    out.push_str("\nuse super::cast::cast;\nuse ash::vk;\nuse std::ffi::CStr;\n");
    for kind in &DISPATCHES {
        // Each field once, at its first row, with every name that loads it.
        let mut fields: Vec<(&str, Vec<&Command>)> = Vec::new();
        for command in commands.iter().filter(|c| c.info.level == kind.level) {
            let Some(field) = command.row.next.as_deref() else {
                continue;
            };
            match fields.iter_mut().find(|(f, _)| *f == field) {
                Some((_, names)) => names.push(command),
                None => fields.push((field, vec![command])),
            }
        }
        let _ = write!(
            out,
            "\n/// {} functions of the next layer.\n#[derive(Clone, Copy)]\npub struct {} {{\n    pub {}: {},\n",
            kind.what, kind.name, kind.proc_addr, kind.proc_addr_pfn
        );
        for (field, names) in &fields {
            let origins: Vec<String> = names
                .iter()
                .map(|c| format!("`{}` ({})", c.row.name, c.origin()))
                .collect();
            doc(&format!("{}.", origins.join(", else ")), "    ", &mut out);
            for command in names {
                if let Some(text) = &command.row.doc {
                    out.push_str("    ///\n");
                    doc(text, "    ", &mut out);
                }
            }
            let _ = writeln!(out, "    pub {field}: Option<{}>,", names[0].pfn_type());
        }
        let _ = write!(
            out,
            "}}

impl {name} {{
    /// # Safety
    /// `{getter}` must be the next layer's `{proc}` and `{object}` {object_doc}.
    pub unsafe fn load({getter}: {pfn}, {object}: {object_type}) -> Self {{
        // SAFETY: `{getter}` is the next layer's `{proc}` and `{object}` {object_doc}
        // (this function's contract); `name` is a NUL-terminated literal.
        let get = |name: &CStr| unsafe {{ {getter}({object}, name.as_ptr()) }};
        // SAFETY: `cast`'s contract: each pointer is cast to the PFN type of the very name it was
        // looked up by (or of the command it is an alias of, which has the same type).
        unsafe {{
            Self {{
                {proc_addr}: {getter},
",
            name = kind.name,
            getter = kind.getter,
            proc = kind.proc_addr_pfn.trim_start_matches("vk::PFN_"),
            object = kind.object,
            object_doc = kind.object_doc,
            pfn = kind.proc_addr_pfn,
            object_type = kind.object_type,
            proc_addr = kind.proc_addr,
        );
        for (field, names) in &fields {
            let mut lookup = format!("get(c\"{}\")", names[0].row.name);
            for other in &names[1..] {
                let _ = write!(lookup, ".or_else(|| get(c\"{}\"))", other.row.name);
            }
            let _ = writeln!(out, "                {field}: cast({lookup}),");
        }
        out.push_str("            }\n        }\n    }\n}\n");
    }
    out
}

/// `layer/src/dispatch/intercept_table.rs`: `INTERCEPTS`, and for the tests the extension of each
/// command intercepted where its extension is enabled.
fn intercepts_rs(commands: &[Command]) -> Result<String, String> {
    let mut out = header(
        "The table of the commands the layer intercepts, in the order of `vuids/commands.json`: its\n//! rows and conditions are in `intercepts.rs`, its reader in `proc_addr.rs`.",
    );
    out.push_str(
        "\nuse super::chain::void_fn;\nuse super::intercepts::{self as when, device, Intercept, Level};\nuse ash::vk;\n\n/// Every command the layer intercepts: its name, its function and on which devices.\npub const INTERCEPTS: &[Intercept] = &[\n",
    );
    let mut extensions = Vec::new();
    for command in commands {
        let Some(function) = &command.row.intercept else {
            continue;
        };
        let next = command.row.next.as_deref().unwrap_or_default();
        let level = match command.row.when.as_deref() {
            None => "Level::Instance".to_owned(),
            Some("always") => "device(when::always)".to_owned(),
            Some("next_has") => format!("device(|s| s.next.{next}.is_some())"),
            Some("extension") => {
                let extension = &command.info.extensions[0];
                extensions.push((&command.row.name, extension));
                format!(
                    "device(|s| s.facts.extensions.{} && s.next.{next}.is_some())",
                    extension_field(extension)
                )
            }
            Some(predicate)
                if predicate
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_') =>
            {
                format!("device(|s| when::{predicate}(s) && s.next.{next}.is_some())")
            }
            Some(other) => return Err(format!("{}: `when: {other}`", command.row.name)),
        };
        let _ = write!(
            out,
            "    Intercept {{\n        name: b\"{}\",\n        function: || void_fn!(crate::{function}),\n        level: {level},\n    }},\n",
            command.row.name
        );
    }
    out.push_str("];\n\n/// The extension of each command intercepted only where its extension is enabled (as\n/// `vk.xml` says), for the tests that compare it with the command's rules.\n#[cfg(test)]\npub const EXTENSION_OF: &[(&[u8], &str)] = &[\n");
    for (name, extension) in extensions {
        let _ = writeln!(out, "    (b\"{name}\", \"{extension}\"),");
    }
    out.push_str("];\n");
    Ok(out)
}

/// `layer/src/state/enabled_extensions.rs`: `EnabledExtensions` and its `flag`.
fn extensions_rs(extensions: &[ExtensionRow]) -> String {
    let mut out = header(
        "The device extensions the layer tracks (re-exported by `state/device.rs`, which reads them).",
    );
    out.push_str("\n/// The device extensions whose commands or structures the layer checks.\n#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\npub struct EnabledExtensions {\n");
    for extension in extensions {
        doc(&format!("`{}`.", extension.name), "    ", &mut out);
        if let Some(text) = &extension.doc {
            out.push_str("    ///\n");
            doc(text, "    ", &mut out);
        }
        let _ = writeln!(out, "    pub {}: bool,", extension_field(&extension.name));
    }
    out.push_str("}\n\nimpl EnabledExtensions {\n    /// The flag of the extension named `name`, for the ones this type tracks: the one place\n    /// names meet fields.\n    pub(super) fn flag(&mut self, name: &[u8]) -> Option<&mut bool> {\n        Some(match name {\n");
    for extension in extensions {
        let _ = writeln!(
            out,
            "            b\"{}\" => &mut self.{},",
            extension.name,
            extension_field(&extension.name)
        );
    }
    out.push_str("            _ => return None,\n        })\n    }\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(commands: &str, extensions: &str) -> Result<Files, String> {
        let registry = Registry::parse(&crate::vk_xml::vk_xml());
        let json = format!(
            r#"{{"about": [], "commands": [{commands}], "device_extensions": [{extensions}]}}"#
        );
        dispatch_files(&json, &registry)
    }

    #[test]
    fn an_extension_row_reads_its_extension_from_the_registry() {
        let row = r#"{"name": "vkGetMemoryFdKHR", "next": "get_memory_fd",
            "intercept": "commands::export::get_memory_fd::get_memory_fd_khr", "when": "extension"}"#;
        let files = render(row, r#"{"name": "VK_KHR_external_memory_fd"}"#).unwrap();
        let intercepts = &files[1].1;
        assert!(intercepts.contains(
            "device(|s| s.facts.extensions.khr_external_memory_fd && s.next.get_memory_fd.is_some())"
        ));
        let err = render(row, "").unwrap_err();
        assert!(
            err.contains("VK_KHR_external_memory_fd is not in device_extensions"),
            "{err}"
        );
    }

    #[test]
    fn rows_the_registry_or_the_table_contradict_are_refused() {
        let unknown = r#"{"name": "vkGetMemoryFooEXT", "next": "foo"}"#;
        assert!(render(unknown, "")
            .unwrap_err()
            .contains("not a command of vk.xml"));
        let instance_with_when = r#"{"name": "vkCreateDevice", "next": "create_device",
            "intercept": "commands::device::create_device", "when": "always"}"#;
        assert!(render(instance_with_when, "")
            .unwrap_err()
            .contains("`when`"));
        let two_types = r#"{"name": "vkBindBufferMemory2", "next": "bind"},
            {"name": "vkBindImageMemory2", "next": "bind"}"#;
        assert!(render(two_types, "")
            .unwrap_err()
            .contains("another level or type"));
        let instance_extension = r#"{"name": "VK_EXT_debug_utils"}"#;
        assert!(render("", instance_extension)
            .unwrap_err()
            .contains("not a device extension"));
    }
}
