//! Renders `docs/checks.md`, the list of every check, from the catalog.

use crate::{Catalog, E2e, Origin, Severity};
use std::fmt::Write;

/// The commands in the order the page lists them.
const COMMAND_ORDER: &[&str] = &[
    "vkGetMemoryFdKHR",
    "vkGetMemoryRemoteAddressNV",
    "vkGetMemoryWin32HandleNV",
    "vkGetMemoryMetalHandleEXT",
    "vkGetMemoryWin32HandleKHR",
    "vkGetMemoryZirconHandleFUCHSIA",
    "vkGetMemoryAndroidHardwareBufferANDROID",
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
    for command in COMMAND_ORDER {
        let entries: Vec<_> = catalog
            .entries()
            .iter()
            .filter(|e| e.command == *command)
            .collect();
        if entries.is_empty() {
            continue;
        }
        let title = if *command == "*" {
            "All export commands".to_owned()
        } else {
            format!("`{command}`")
        };
        let _ = write!(
            out,
            "\n## {title}\n\n| ID | Severity | What it catches | End-to-end test |\n|---|---|---|---|\n"
        );
        for e in entries {
            let id = match e.origin {
                Origin::Spec => format!("[`{}`]({})", e.id, catalog.spec_link(&e.id)),
                Origin::Layer => format!("<a id=\"{}\"></a>`{}`", e.id.to_lowercase(), e.id),
            };
            let severity = match e.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let e2e = match e.e2e {
                E2e::Lavapipe => "lavapipe",
                E2e::TestDriver => "test driver",
                E2e::UnitOnly => "unit only",
            };
            let mut what = e.summary.clone();
            if let Some(note) = &e.note {
                let _ = write!(what, " *{note}*");
            }
            let _ = writeln!(
                out,
                "| {id} | {severity} | {} | {e2e} |",
                what.replace('|', "\\|")
            );
        }
    }
    out
}
