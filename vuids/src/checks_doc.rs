//! Renders `docs/checks.md`, the list of every check, from the catalog.

use crate::{Catalog, E2e, Entry, Origin, Severity, Status};
use std::fmt::Write;

/// The commands the page lists first, in this order; any other command follows in catalog order.
const COMMAND_ORDER: &[&str] = &[
    "vkGetMemoryFdKHR",
    "vkGetMemoryRemoteAddressNV",
    "vkGetMemoryWin32HandleNV",
    "vkGetMemoryMetalHandleEXT",
    "vkGetMemoryWin32HandleKHR",
    "vkGetMemoryZirconHandleFUCHSIA",
    "vkGetMemoryAndroidHardwareBufferANDROID",
    "vkGetMemoryFdPropertiesKHR",
    "vkGetMemoryHostPointerPropertiesEXT",
    "vkGetMemoryMetalHandlePropertiesEXT",
    "vkGetMemoryWin32HandlePropertiesKHR",
    "vkGetMemoryZirconHandlePropertiesFUCHSIA",
    "vkGetAndroidHardwareBufferPropertiesANDROID",
    "vkAllocateMemory",
    "vkFreeMemory",
    "*",
];

/// The Markdown of `docs/checks.md`.
pub fn checks_markdown(catalog: &Catalog) -> String {
    let mut out = String::new();
    out.push_str(
        "# Checks\n\n\
         <!-- Generated from vuids/catalog.json by `cargo run -p exportcheck-vuids --bin \
         render-checks-doc > docs/checks.md`; a test keeps the two in step. -->\n\n\
         Every ID exportcheck reports. Spec IDs (`VUID-...`) link to the Vulkan specification; \
         the layer's own IDs (`EXPORTCHECK-...`) are explained here. *End-to-end test* says where \
         the negative and positive tests run through the real Vulkan loader: on Mesa lavapipe; \
         on the project's test driver (`tests/icd`, see [test-driver.md](test-driver.md)), for \
         extensions no available driver exposes; or unit only, where an end-to-end test is \
         impossible.\n",
    );
    out.push_str(&format!(
        "\nSpec version: {}. IDs: {} ({} from the spec, {} of the layer's own).\n",
        catalog.spec_version,
        catalog.entries().len(),
        catalog
            .entries()
            .iter()
            .filter(|e| e.origin == Origin::Spec)
            .count(),
        catalog
            .entries()
            .iter()
            .filter(|e| e.origin == Origin::Layer)
            .count(),
    ));
    let checked: Vec<&Entry> = catalog
        .entries()
        .iter()
        .filter(|e| e.is_checked())
        .collect();
    for command in commands(&checked) {
        let entries: Vec<&Entry> = checked
            .iter()
            .copied()
            .filter(|e| e.command == command)
            .collect();
        let title = if command == "*" {
            "Several commands".to_owned()
        } else {
            format!("`{command}`")
        };
        let _ = write!(
            out,
            "\n## {title}\n\n| ID | Severity | What it catches | End-to-end test |\n|---|---|---|---|\n"
        );
        for e in entries {
            let severity = match e.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let e2e = match e.e2e {
                E2e::Lavapipe => "lavapipe",
                E2e::TestDriver => "test driver",
                E2e::UnitOnly => "unit only",
                E2e::None => "none",
            };
            let _ = writeln!(
                out,
                "| {} | {severity} | {} | {e2e} |",
                id_cell(catalog, e),
                what(e)
            );
        }
    }
    not_checked(catalog, &mut out);
    out
}

/// [`COMMAND_ORDER`] first, then the other commands of `entries` in the order they appear.
fn commands(entries: &[&Entry]) -> Vec<String> {
    let mut order: Vec<String> = COMMAND_ORDER
        .iter()
        .filter(|c| entries.iter().any(|e| e.command == **c))
        .map(|c| (*c).to_owned())
        .collect();
    for e in entries {
        if !order.contains(&e.command) {
            order.push(e.command.clone());
        }
    }
    order
}

/// The ID, linked to its text.
fn id_cell(catalog: &Catalog, e: &Entry) -> String {
    match e.origin {
        Origin::Spec => format!("[`{}`]({})", e.id, catalog.spec_link(&e.id)),
        Origin::Layer => format!("<a id=\"{}\"></a>`{}`", e.id.to_lowercase(), e.id),
    }
}

/// The summary and the note, escaped for a table cell.
fn what(e: &Entry) -> String {
    let mut what = e.summary.clone();
    if let Some(note) = &e.note {
        let _ = write!(what, " *{note}*");
    }
    what.replace('|', "\\|")
}

/// The section listing the registry IDs the layer does not check, and why.
fn not_checked(catalog: &Catalog, out: &mut String) {
    let unchecked: Vec<&Entry> = catalog
        .entries()
        .iter()
        .filter(|e| !e.is_checked())
        .collect();
    if unchecked.is_empty() {
        return;
    }
    let count = |status: Status| unchecked.iter().filter(|e| e.status == status).count();
    let _ = write!(
        out,
        "\n## Not checked\n\nRules of the memory-sharing surface the layer does not check: {} \
         that no layer can check for certain (the note says why), {} on platforms or \
         extensions out of the project's scope for now. They are listed so that the coverage \
         report stays honest; the layer never reports them.\n\n\
         | ID | Command | Status | Rule, and why it is not checked |\n|---|---|---|---|\n",
        count(Status::NotCheckable),
        count(Status::OutOfScope),
    );
    for e in unchecked {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} |",
            id_cell(catalog, e),
            e.command,
            e.status.name(),
            what(e)
        );
    }
}
