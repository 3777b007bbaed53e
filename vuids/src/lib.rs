//! The catalog of every validation ID that the `exportcheck` layer knows.
//!
//! The catalog lives in `vuids/catalog.json` and is embedded into this crate at build time.
//! [`catalog()`] parses it once and hands out a `'static` reference; [`Catalog::get`] looks an
//! entry up by ID and [`Catalog::spec_link`] builds the link a report should point to.
//!
//! Two kinds of IDs live in the catalog:
//!
//! * [`Origin::Spec`]: Khronos VUIDs (`VUID-...`), linked to the Vulkan specification;
//! * [`Origin::Layer`]: exportcheck's own IDs (`EXPORTCHECK-...`), for problems the spec has no
//!   VUID for, linked to the project's `docs/checks.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// How seriously the layer reports an ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The application broke a rule; the call's behaviour is undefined.
    Error,
    /// Legal, or not covered by a VUID, but almost certainly not what the application meant.
    Warning,
}

/// Who defines an ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A Khronos valid-usage ID (`VUID-...`) from the Vulkan specification.
    Spec,
    /// One of exportcheck's own IDs (`EXPORTCHECK-...`).
    Layer,
}

/// Where the end-to-end test of an ID can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum E2e {
    /// On Mesa's lavapipe software driver through the real Vulkan loader (`"lavapipe"`).
    Lavapipe,
    /// Only on the project's test driver, which exposes extensions lavapipe lacks
    /// (`"test-driver"`).
    TestDriver,
    /// Nowhere end to end; unit tests only. The entry's `note` says why (`"unit-only"`).
    UnitOnly,
    /// No test at all: the layer does not check the ID ([`Status::NotCheckable`] or
    /// [`Status::OutOfScope`]; `"none"`).
    None,
}

/// Whether the layer checks an ID.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The layer checks it (`"checked"`, the default).
    #[default]
    Checked,
    /// No layer can check it for certain; the entry's `note` says why (`"not-checkable"`).
    NotCheckable,
    /// On a platform or extension the project does not cover yet; the entry's `note` says which
    /// (`"out-of-scope"`).
    OutOfScope,
}

impl Status {
    /// Whether this is [`Status::Checked`].
    #[must_use]
    pub fn is_checked(&self) -> bool {
        *self == Status::Checked
    }

    /// `checked`, `not checkable` or `out of scope`, as reports print it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Checked => "checked",
            Status::NotCheckable => "not checkable",
            Status::OutOfScope => "out of scope",
        }
    }
}

/// One ID in the catalog.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The ID as reported, e.g. `VUID-VkMemoryGetFdInfoKHR-handleType-00671`.
    pub id: String,
    /// The name of its constant in `layer/src/vuid.rs`, which is generated from the catalog
    /// (every checked ID has one, no other: `vuid_rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant: Option<String>,
    /// Whether Khronos or the layer defines the ID.
    pub origin: Origin,
    /// The Vulkan command the ID is checked in, or `"*"` for several or all export commands.
    pub command: String,
    /// The structure the rule is about, or `None` when it is on the command's own parameters.
    pub structure: Option<String>,
    /// The extension that defines the command or structure, `"core"` for core Vulkan, or `"*"`.
    pub extension: String,
    /// How the layer reports the ID.
    pub severity: Severity,
    /// One line, in the layer's own words, describing what went wrong.
    pub summary: String,
    /// Whether the layer checks the ID; the catalog also lists registry IDs it does not check,
    /// each with the reason in `note`.
    #[serde(default, skip_serializing_if = "Status::is_checked")]
    pub status: Status,
    /// Where the ID's end-to-end test can run ([`E2e::None`] for an ID the layer does not check).
    pub e2e: E2e,
    /// Further explanation; always present for [`E2e::UnitOnly`] entries and for IDs the layer
    /// does not check (why not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The whole catalog: the spec version it was written against and every entry.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// The Vulkan specification version the spec IDs were checked against, e.g. `"1.4.360"`.
    pub spec_version: String,
    /// The URL a spec VUID is appended to to link to its text.
    pub spec_link_base: String,
    /// Every ID, spec IDs first.
    pub entries: Vec<Entry>,
}

/// The relative path of the document that explains the layer's own IDs.
const LAYER_DOCS: &str = "docs/checks.md";

/// The prefix of every layer-defined ID.
const LAYER_PREFIX: &str = "EXPORTCHECK-";

impl Entry {
    /// Whether the layer checks (and so may report) this ID.
    #[must_use]
    pub fn is_checked(&self) -> bool {
        self.status.is_checked()
    }
}

impl Catalog {
    /// Parses a catalog from its JSON text.
    ///
    /// # Errors
    ///
    /// Returns the parse error when `json` is not a well-formed catalog (including unknown
    /// fields or enum values).
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// The entry with ID `id`, if the catalog has one.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Every entry, in catalog order.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Where to read about `id`.
    ///
    /// For a spec ID this is [`Catalog::spec_link_base`] followed by the ID. For a layer ID it
    /// is the relative path `docs/checks.md#<id in lower case>`. An ID that is not in the
    /// catalog is classified by its prefix: `EXPORTCHECK-` means a layer ID, anything else a
    /// spec ID.
    #[must_use]
    pub fn spec_link(&self, id: &str) -> String {
        let origin = match self.get(id) {
            Some(entry) => entry.origin,
            None if id.starts_with(LAYER_PREFIX) => Origin::Layer,
            None => Origin::Spec,
        };
        match origin {
            Origin::Spec => format!("{}{id}", self.spec_link_base),
            Origin::Layer => format!("{LAYER_DOCS}#{}", id.to_ascii_lowercase()),
        }
    }
}

/// The catalog's JSON text, as embedded at build time.
pub const CATALOG_JSON: &str = include_str!("../catalog.json");

static CATALOG: LazyLock<Catalog> =
    LazyLock::new(|| Catalog::from_json(CATALOG_JSON).expect("vuids/catalog.json is malformed"));

/// The catalog embedded in this crate, parsed on first use.
///
/// # Panics
///
/// Only if the embedded `catalog.json` is malformed, which this crate's unit tests rule out.
#[must_use]
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// The reference registry: every Valid Usage ID of the memory-sharing surface of the Vulkan
/// specification at [`REGISTRY_VERSION`], with its text (`{"spec_version", "source", "vuids":
/// {id: text}}`), as embedded at build time. The catalog's spec IDs are checked against it, and
/// `exportcheck coverage` reads it unless given another registry. Debian's `validusage.json`
/// (1.3.239) is too old to judge IDs by: IDs were renamed since.
pub const REGISTRY_JSON: &str = include_str!("../registry/validusage-memory-sharing-1.4.360.json");

/// The reference registry of the rest of the sharing surface, made the same way at
/// [`REGISTRY_VERSION`]: external semaphores and fences, resources created for sharing (among them
/// the bind-memory rules that name external handle types, e.g. `VUID-vkBindBufferMemory-memory-02726`),
/// DRM format modifiers and queue family ownership transfers. The catalog's spec IDs of those
/// parts are checked against it.
pub const RESOURCES_REGISTRY_JSON: &str =
    include_str!("../registry/validusage-sync-and-resources-sharing-1.4.360.json");

/// Implicit valid usage of the specification at [`REGISTRY_VERSION`] that the two reference
/// registries leave out (the sType and pNext rules of a structure they do not cover), copied from
/// the specification's reference pages: current spec IDs the layer checks.
pub const IMPLICIT_REGISTRY_JSON: &str = include_str!("../registry/implicit-1.4.360.json");

/// The specification version of [`REGISTRY_JSON`] and [`RESOURCES_REGISTRY_JSON`].
pub const REGISTRY_VERSION: &str = "1.4.360";

/// The IDs of [`REGISTRY_JSON`], [`RESOURCES_REGISTRY_JSON`] and [`IMPLICIT_REGISTRY_JSON`] with
/// their text (`None` for the
/// two whose text could not be extracted), parsed on first use.
///
/// # Panics
///
/// Only if the embedded registry is malformed, which this crate's unit tests rule out.
#[must_use]
pub fn registry() -> &'static std::collections::BTreeMap<String, Option<String>> {
    static REGISTRY: LazyLock<std::collections::BTreeMap<String, Option<String>>> =
        LazyLock::new(|| {
            #[derive(Deserialize)]
            struct File {
                vuids: std::collections::BTreeMap<String, Option<String>>,
            }
            let parse = |json| {
                serde_json::from_str::<File>(json)
                    .expect("vuids/registry is malformed")
                    .vuids
            };
            let mut ids = parse(REGISTRY_JSON);
            ids.extend(parse(RESOURCES_REGISTRY_JSON));
            ids.extend(parse(IMPLICIT_REGISTRY_JSON));
            ids
        });
    &REGISTRY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_registry_parses_and_matches_its_version() {
        assert!(REGISTRY_JSON.contains(&format!("\"spec_version\": \"{REGISTRY_VERSION}\"")));
        assert!(registry().len() > 300, "{} IDs", registry().len());
        assert!(registry().contains_key("VUID-VkExportMemoryAllocateInfo-handleTypes-09860"));
        assert!(!registry().contains_key("VUID-VkExportMemoryAllocateInfo-handleTypes-00656"));
        let version = format!("\"spec_version\": \"{REGISTRY_VERSION}\"");
        assert!(RESOURCES_REGISTRY_JSON.contains(&version));
        assert!(registry().contains_key("VUID-vkBindBufferMemory-memory-02726"));
        assert!(IMPLICIT_REGISTRY_JSON.contains(&version));
        assert!(
            registry().contains_key("VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType")
        );
    }

    #[test]
    fn embedded_catalog_parses() {
        let c = catalog();
        assert_eq!(c.spec_version, "1.4.360");
        assert!(c.spec_link_base.starts_with("https://"));
        assert!(!c.entries().is_empty());
    }

    #[test]
    fn get_finds_entries_and_rejects_unknown_ids() {
        let c = catalog();
        let e = c
            .get("VUID-VkMemoryGetFdInfoKHR-handleType-00671")
            .expect("present");
        assert_eq!(e.origin, Origin::Spec);
        assert_eq!(e.command, "vkGetMemoryFdKHR");
        assert_eq!(e.structure.as_deref(), Some("VkMemoryGetFdInfoKHR"));
        assert_eq!(e.extension, "VK_KHR_external_memory_fd");
        assert_eq!(e.severity, Severity::Error);
        assert_eq!(e.e2e, E2e::Lavapipe);
        assert!(c.get("VUID-does-not-exist").is_none());
        assert!(c.get("").is_none());
        for e in c.entries() {
            assert_eq!(c.get(&e.id), Some(e));
        }
    }

    #[test]
    fn spec_link_for_spec_and_layer_ids() {
        let c = catalog();
        assert_eq!(
            c.spec_link("VUID-vkFreeMemory-memory-parent"),
            "https://registry.khronos.org/vulkan/specs/latest/html/vkspec.html\
             #VUID-vkFreeMemory-memory-parent"
        );
        assert_eq!(
            c.spec_link("EXPORTCHECK-internal-error"),
            "docs/checks.md#exportcheck-internal-error"
        );
        // Not in the catalog: classified by prefix.
        assert_eq!(
            c.spec_link("EXPORTCHECK-Future-Check"),
            "docs/checks.md#exportcheck-future-check"
        );
        assert_eq!(
            c.spec_link("VUID-vkFoo-bar-01234"),
            format!("{}VUID-vkFoo-bar-01234", c.spec_link_base)
        );
    }

    fn json<T: Serialize>(value: T) -> String {
        serde_json::to_string(&value).expect("serializable")
    }

    #[test]
    fn enums_use_the_documented_spellings() {
        assert_eq!(json(Severity::Error), "\"error\"");
        assert_eq!(json(Severity::Warning), "\"warning\"");
        assert_eq!(json(Origin::Spec), "\"spec\"");
        assert_eq!(json(Origin::Layer), "\"layer\"");
        assert_eq!(json(E2e::Lavapipe), "\"lavapipe\"");
        assert_eq!(json(E2e::TestDriver), "\"test-driver\"");
        assert_eq!(json(E2e::UnitOnly), "\"unit-only\"");
        assert_eq!(json(E2e::None), "\"none\"");
        assert_eq!(json(Status::Checked), "\"checked\"");
        assert_eq!(json(Status::NotCheckable), "\"not-checkable\"");
        assert_eq!(json(Status::OutOfScope), "\"out-of-scope\"");
    }

    #[test]
    fn round_trips_through_json() {
        let c = catalog();
        let text = serde_json::to_string(c).expect("serializes");
        assert_eq!(&Catalog::from_json(&text).expect("parses"), c);
    }

    #[test]
    fn rejects_unknown_fields_and_values() {
        let entry = r#"{"id":"VUID-x","origin":"spec","command":"vkX","structure":null,
            "extension":"core","severity":"error","summary":"s","e2e":"lavapipe"}"#;
        let wrap =
            |e: &str| format!(r#"{{"spec_version":"1","spec_link_base":"b","entries":[{e}]}}"#);
        let ok = Catalog::from_json(&wrap(entry)).expect("minimal entry parses");
        assert_eq!(ok.entries()[0].note, None);
        assert_eq!(ok.entries()[0].status, Status::Checked);
        let unchecked = entry.replace(
            "\"e2e\":\"lavapipe\"",
            "\"status\":\"not-checkable\",\"e2e\":\"none\",\"note\":\"why\"",
        );
        let parsed = Catalog::from_json(&wrap(&unchecked)).expect("unchecked entry parses");
        assert!(!parsed.entries()[0].is_checked());
        let bad_status = unchecked.replace("not-checkable", "maybe");
        assert!(Catalog::from_json(&wrap(&bad_status)).is_err());

        let extra = entry.replace("\"e2e\"", "\"bogus\":1,\"e2e\"");
        assert!(Catalog::from_json(&wrap(&extra)).is_err());
        let bad_sev = entry.replace("\"error\"", "\"fatal\"");
        assert!(Catalog::from_json(&wrap(&bad_sev)).is_err());
        let bad_e2e = entry.replace("\"lavapipe\"", "\"test_driver\"");
        assert!(Catalog::from_json(&wrap(&bad_e2e)).is_err());
        let top_extra = wrap(entry).replacen('{', "{\"x\":0,", 1);
        assert!(Catalog::from_json(&top_extra).is_err());
    }
}

mod checks_doc;
pub use checks_doc::checks_markdown;

mod vuid_rs;
pub use vuid_rs::vuid_rs;

pub mod vk_xml;

mod dispatch_rs;
pub use dispatch_rs::{dispatch_files, dispatch_files_of_repository, Files, COMMANDS_JSON_PATH};
