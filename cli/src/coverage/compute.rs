//! The coverage table: which spec VUIDs the layer checks, and which the tests observed.

use std::collections::HashSet;

use exportcheck_vuids::{Catalog, E2e, Entry, Origin, Status};
use serde::Serialize;

use super::observed::Observed;
use super::registry::{key_command, Registry};

/// The commands a catalog entry of command `"*"` may be reported on: every command the layer
/// checks (the export commands, vkAllocateMemory and vkFreeMemory, the handle-property queries);
/// the positive tests of any of them count for such a row.
pub const ANY_COMMAND: [&str; 15] = [
    "vkGetMemoryFdKHR",
    "vkGetMemoryRemoteAddressNV",
    "vkGetMemoryWin32HandleNV",
    "vkGetMemoryMetalHandleEXT",
    "vkGetMemoryWin32HandleKHR",
    "vkGetMemoryZirconHandleFUCHSIA",
    "vkGetMemoryAndroidHardwareBufferANDROID",
    "vkAllocateMemory",
    "vkFreeMemory",
    "vkGetMemoryFdPropertiesKHR",
    "vkGetMemoryHostPointerPropertiesEXT",
    "vkGetMemoryMetalHandlePropertiesEXT",
    "vkGetMemoryWin32HandlePropertiesKHR",
    "vkGetMemoryZirconHandlePropertiesFUCHSIA",
    "vkGetAndroidHardwareBufferPropertiesANDROID",
];

/// Whether a test covers a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tested {
    /// A test observed it.
    Yes,
    /// No test observed it.
    No,
    /// Unit tests only (the catalog says an end-to-end test is impossible); counts as tested.
    Unit,
}

impl Tested {
    /// Whether it counts towards coverage.
    #[must_use]
    pub fn counts(self) -> bool {
        matches!(self, Tested::Yes | Tested::Unit)
    }

    /// `yes`, `no` or `unit`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Tested::Yes => "yes",
            Tested::No => "no",
            Tested::Unit => "unit",
        }
    }
}

/// One ID of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The VUID or layer ID.
    pub id: String,
    /// Whether Khronos or the layer defines it.
    pub origin: Origin,
    /// The command whose tests cover it (`*` for several export commands).
    pub command: String,
    /// The registry key it is listed under, if the registry lists it in scope.
    pub registry_key: Option<String>,
    /// Whether the registry file has this VUID at all (the Metal VUIDs are newer than 1.3.239).
    pub in_registry: bool,
    /// Whether the layer checks it (it is in the catalog, status `checked`).
    pub checked: bool,
    /// The catalog's status, `None` for an ID the catalog lacks. A row the catalog marks not
    /// checkable or out of scope is listed but not counted in the coverage.
    pub status: Option<Status>,
    /// Whether a negative test observed the layer reporting it.
    pub negative: Tested,
    /// Whether a positive test observed the layer silent on a valid call of its command.
    pub positive: Tested,
    /// The catalog's `e2e`: where its end-to-end test runs.
    #[serde(rename = "where")]
    pub where_: Option<E2e>,
    /// The catalog's note, for unit-only entries and for IDs the layer does not check (why).
    pub note: Option<String>,
    /// The catalog's severity.
    pub severity: Option<exportcheck_vuids::Severity>,
    /// Checked, with a negative and a positive test.
    pub covered: bool,
    /// The tests whose negative assertion saw it.
    pub negative_tests: Vec<String>,
    /// How many tests asserted silence for its command.
    pub positive_tests: usize,
    /// The rule's text from the registry.
    pub spec_text: Option<String>,
}

impl Row {
    /// Whether the row counts in the coverage: every row except those the catalog marks not
    /// checkable or out of scope, with the reason.
    #[must_use]
    pub fn counted(&self) -> bool {
        self.status.map_or(true, |s| s.is_checked())
    }
}

/// Totals of a section.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Tally {
    /// Rows counted in the coverage (all but the not-checkable and out-of-scope ones).
    pub total: usize,
    /// Rows the catalog marks not checkable by a layer (listed, not counted).
    pub not_checkable: usize,
    /// Rows the catalog marks out of the project's scope (listed, not counted).
    pub out_of_scope: usize,
    /// Rows the layer checks.
    pub checked: usize,
    /// Rows with a negative test (or unit-only).
    pub negative: usize,
    /// Rows with a positive test (or unit-only).
    pub positive: usize,
    /// Rows covered: checked, negative and positive.
    pub covered: usize,
    /// `covered / total` in percent (100 for an empty section).
    pub percent: f64,
}

impl Tally {
    fn of(all: &[Row]) -> Self {
        let with_status = |s: Status| all.iter().filter(|r| r.status == Some(s)).count();
        let rows: Vec<&Row> = all.iter().filter(|r| r.counted()).collect();
        let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
        let covered = count(&|r| r.covered);
        Tally {
            total: rows.len(),
            not_checkable: with_status(Status::NotCheckable),
            out_of_scope: with_status(Status::OutOfScope),
            checked: count(&|r| r.checked),
            negative: count(&|r| r.negative.counts()),
            positive: count(&|r| r.positive.counts()),
            covered,
            percent: if rows.is_empty() {
                100.0
            } else {
                #[allow(clippy::cast_precision_loss)]
                let p = covered as f64 * 100.0 / rows.len() as f64;
                p
            },
        }
    }
}

/// The whole report.
#[derive(Debug, Clone, PartialEq)]
pub struct Coverage {
    /// Spec VUIDs: the registry's in scope, then the catalog's spec IDs it lacks.
    pub spec: Vec<Row>,
    /// The layer's own IDs.
    pub layer: Vec<Row>,
    /// Totals of `spec`: the coverage.
    pub spec_tally: Tally,
    /// Totals of `layer`.
    pub layer_tally: Tally,
    /// Whether there were observations at all.
    pub observed: bool,
}

/// Builds the report. Without observations (`None`, or empty), every tested column is "no"
/// except for unit-only entries.
#[must_use]
pub fn compute(registry: &Registry, catalog: &Catalog, observed: Option<&Observed>) -> Coverage {
    let observed = observed.filter(|o| !o.is_empty());
    let empty = Observed::default();
    let obs = observed.unwrap_or(&empty);

    let mut spec: Vec<Row> = Vec::new();
    let mut listed: HashSet<&str> = HashSet::new();
    for v in &registry.in_scope {
        listed.insert(&v.id);
        let entry = catalog.get(&v.id);
        let command = entry.map_or_else(
            || key_command(&v.key).unwrap_or(&v.key).to_owned(),
            |e| e.command.clone(),
        );
        let mut row = row(&v.id, command, entry, obs);
        row.registry_key = Some(v.key.clone());
        row.in_registry = true;
        row.spec_text = Some(v.text.clone());
        spec.push(row);
    }
    for e in catalog.entries() {
        if e.origin == Origin::Spec && !listed.contains(e.id.as_str()) {
            let mut row = row(&e.id, e.command.clone(), Some(e), obs);
            row.in_registry = registry.all.contains(&e.id);
            spec.push(row);
        }
    }
    let layer: Vec<Row> = catalog
        .entries()
        .iter()
        .filter(|e| e.origin == Origin::Layer)
        .map(|e| {
            let mut row = row(&e.id, e.command.clone(), Some(e), obs);
            row.in_registry = false;
            row
        })
        .collect();

    let order = command_order(catalog);
    let rank = |c: &str| order.iter().position(|o| o == c).unwrap_or(order.len());
    spec.sort_by_key(|r| rank(&r.command));
    let mut layer = layer;
    layer.sort_by_key(|r| rank(&r.command));

    Coverage {
        spec_tally: Tally::of(&spec),
        layer_tally: Tally::of(&layer),
        spec,
        layer,
        observed: observed.is_some(),
    }
}

/// The commands in the order the catalog first names them.
fn command_order(catalog: &Catalog) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    for e in catalog.entries() {
        if !order.contains(&e.command) {
            order.push(e.command.clone());
        }
    }
    order
}

fn row(id: &str, command: String, entry: Option<&Entry>, obs: &Observed) -> Row {
    let unit_only = entry.is_some_and(|e| e.e2e == E2e::UnitOnly);
    let negative_tests = obs.negative_tests(id);
    let positive_tests = if command == "*" {
        ANY_COMMAND.iter().map(|c| obs.positive_tests(c)).sum()
    } else {
        obs.positive_tests(&command)
    };
    let tested = |yes: bool| {
        if unit_only {
            Tested::Unit
        } else if yes {
            Tested::Yes
        } else {
            Tested::No
        }
    };
    let negative = tested(!negative_tests.is_empty());
    let positive = tested(positive_tests > 0);
    let checked = entry.is_some_and(Entry::is_checked);
    let unchecked_reason = entry.filter(|e| !e.is_checked());
    Row {
        id: id.to_owned(),
        origin: entry.map_or(Origin::Spec, |e| e.origin),
        command,
        registry_key: None,
        in_registry: false,
        checked,
        status: entry.map(|e| e.status),
        negative,
        positive,
        where_: entry.map(|e| e.e2e),
        note: entry
            .filter(|_| unit_only)
            .or(unchecked_reason)
            .and_then(|e| e.note.clone()),
        severity: entry.map(|e| e.severity),
        covered: checked && negative.counts() && positive.counts(),
        negative_tests,
        positive_tests,
        spec_text: None,
    }
}

/// How "in registry" reads in a report: `-` for the layer's own IDs.
#[must_use]
pub fn in_registry_name(row: &Row) -> &'static str {
    match (row.origin, row.in_registry) {
        (Origin::Layer, _) => "-",
        (Origin::Spec, true) => "yes",
        (Origin::Spec, false) => "no",
    }
}

/// How "checked" reads in a report: `yes`, `no`, or why not (`not checkable`, `out of scope`).
#[must_use]
pub fn checked_name(row: &Row) -> &'static str {
    match row.status {
        Some(status) if !status.is_checked() => status.name(),
        _ if row.checked => "yes",
        _ => "no",
    }
}

/// How the catalog's `e2e` reads in a report.
#[must_use]
pub fn where_name(e2e: Option<E2e>) -> &'static str {
    match e2e {
        Some(E2e::Lavapipe) => "lavapipe",
        Some(E2e::TestDriver) => "test driver",
        Some(E2e::UnitOnly) => "unit only (see note)",
        Some(E2e::None) | None => "-",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::coverage::registry::tests::SYNTHETIC;

    /// A catalog with: one registry VUID (checked), one spec VUID newer than the registry,
    /// one out-of-scope spec VUID that the registry has, a unit-only layer ID and a `*` one.
    pub(crate) fn catalog() -> Catalog {
        let entry = |id: &str, origin: &str, command: &str, e2e: &str, note: Option<&str>| {
            serde_json::json!({"id": id, "origin": origin, "command": command,
                "structure": null, "extension": "x", "severity": "error", "summary": "s",
                "e2e": e2e, "note": note})
        };
        let mut entries = vec![
            entry(
                "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
                "spec",
                "vkGetMemoryFdKHR",
                "lavapipe",
                None,
            ),
            entry(
                "VUID-vkGetMemoryFdKHR-pFd-parameter",
                "spec",
                "vkGetMemoryFdKHR",
                "lavapipe",
                None,
            ),
            entry(
                "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413",
                "spec",
                "vkGetMemoryMetalHandleEXT",
                "test-driver",
                None,
            ),
            entry(
                "VUID-vkAllocateMemory-pMemory-parameter",
                "spec",
                "vkAllocateMemory",
                "lavapipe",
                None,
            ),
            entry(
                "EXPORTCHECK-internal-error",
                "layer",
                "*",
                "unit-only",
                Some("only through a layer defect"),
            ),
            entry(
                "EXPORTCHECK-extension-not-enabled",
                "layer",
                "*",
                "lavapipe",
                None,
            ),
        ];
        for e in &mut entries {
            if e["note"].is_null() {
                e.as_object_mut().unwrap().remove("note");
            }
        }
        let json = serde_json::json!({"spec_version": "1.4.360",
            "spec_link_base": "https://example/#", "entries": entries});
        Catalog::from_json(&json.to_string()).unwrap()
    }

    pub(crate) fn observed() -> Observed {
        let mut o = Observed::default();
        for line in [
            r#"{"test":"n1","kind":"negative","ids":["VUID-VkMemoryGetFdInfoKHR-handleType-00671"],"command":"vkGetMemoryFdKHR"}"#,
            r#"{"test":"n2","kind":"negative","ids":["VUID-vkAllocateMemory-pMemory-parameter","EXPORTCHECK-extension-not-enabled"],"command":"vkAllocateMemory"}"#,
            r#"{"test":"p1","kind":"positive","ids":[],"command":"vkGetMemoryFdKHR"}"#,
        ] {
            o.add_line(line).unwrap();
        }
        o
    }

    fn find<'a>(rows: &'a [Row], id: &str) -> &'a Row {
        rows.iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("no row {id}"))
    }

    #[test]
    fn rows_are_the_registrys_plus_the_catalogs_spec_ids() {
        let registry = Registry::parse(SYNTHETIC).unwrap();
        let c = compute(&registry, &catalog(), Some(&observed()));
        let ids: Vec<&str> = c.spec.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                // vkGetMemoryFdKHR first (catalog order), registry order within.
                "VUID-vkGetMemoryFdKHR-pFd-parameter",
                "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
                "VUID-VkMemoryGetFdInfoKHR-sType-sType",
                "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413",
                "VUID-VkExportMemoryAllocateInfo-handleTypes-09860",
                "VUID-vkAllocateMemory-pMemory-parameter",
            ]
        );
        let layer: Vec<&str> = c.layer.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            layer,
            [
                "EXPORTCHECK-internal-error",
                "EXPORTCHECK-extension-not-enabled"
            ]
        );
    }

    #[test]
    fn checked_negative_positive_and_covered() {
        let registry = Registry::parse(SYNTHETIC).unwrap();
        let c = compute(&registry, &catalog(), Some(&observed()));

        let r = find(&c.spec, "VUID-VkMemoryGetFdInfoKHR-handleType-00671");
        assert!(r.checked && r.covered && r.in_registry);
        assert_eq!((r.negative, r.positive), (Tested::Yes, Tested::Yes));
        assert_eq!(r.negative_tests, ["n1"]);
        assert_eq!(r.registry_key.as_deref(), Some("VkMemoryGetFdInfoKHR"));

        // Checked, positive (same command), but no negative test.
        let r = find(&c.spec, "VUID-vkGetMemoryFdKHR-pFd-parameter");
        assert_eq!(
            (r.checked, r.negative, r.positive),
            (true, Tested::No, Tested::Yes)
        );
        assert!(!r.covered);

        // In the registry, not in the catalog: not checked; its command comes from its key.
        let r = find(&c.spec, "VUID-VkMemoryGetFdInfoKHR-sType-sType");
        assert!(!r.checked && !r.covered);
        assert_eq!(r.command, "vkGetMemoryFdKHR");
        assert_eq!(r.positive, Tested::Yes);
        let r = find(&c.spec, "VUID-VkExportMemoryAllocateInfo-handleTypes-09860");
        assert_eq!(r.command, "vkAllocateMemory");
        assert_eq!(r.spec_text.as_deref(), Some("compatible"));

        // Newer than the registry.
        let r = find(&c.spec, "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413");
        assert!(!r.in_registry && r.checked && !r.covered);
        assert_eq!(r.where_, Some(E2e::TestDriver));

        // A key of the scope (vkAllocateMemory); negative yes, no positive vkAllocateMemory line.
        let r = find(&c.spec, "VUID-vkAllocateMemory-pMemory-parameter");
        assert!(r.in_registry && r.registry_key.as_deref() == Some("vkAllocateMemory"));
        assert_eq!((r.negative, r.positive), (Tested::Yes, Tested::No));

        assert_eq!(
            c.spec_tally,
            Tally {
                total: 6,
                not_checkable: 0,
                out_of_scope: 0,
                checked: 4,
                negative: 2,
                positive: 3,
                covered: 1,
                percent: 100.0 / 6.0
            }
        );
    }

    #[test]
    fn a_not_checkable_row_is_listed_with_its_reason_but_not_counted() {
        let registry = Registry::parse(SYNTHETIC).unwrap();
        let mut json = serde_json::to_value(catalog()).unwrap();
        json["entries"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({
            "id": "VUID-VkExportMemoryAllocateInfo-handleTypes-09860", "origin": "spec",
            "command": "vkAllocateMemory", "structure": "VkExportMemoryAllocateInfo",
            "extension": "x", "severity": "error", "summary": "s", "status": "not-checkable",
            "e2e": "none", "note": "no layer can know"}));
        let with_reason = Catalog::from_json(&json.to_string()).unwrap();
        let before = compute(&registry, &catalog(), Some(&observed())).spec_tally;
        let c = compute(&registry, &with_reason, Some(&observed()));
        let r = find(&c.spec, "VUID-VkExportMemoryAllocateInfo-handleTypes-09860");
        assert!(!r.checked && !r.covered && !r.counted());
        assert_eq!(r.note.as_deref(), Some("no layer can know"));
        assert_eq!(checked_name(r), "not checkable");
        assert_eq!(c.spec.len(), 6, "still listed");
        assert_eq!(c.spec_tally.not_checkable, 1);
        assert_eq!(c.spec_tally.total, before.total - 1);
        assert_eq!(c.spec_tally.covered, before.covered);
        assert!(c.spec_tally.percent > before.percent);
    }

    #[test]
    fn unit_only_and_star_layer_rows() {
        let registry = Registry::parse(SYNTHETIC).unwrap();
        let c = compute(&registry, &catalog(), Some(&observed()));
        let r = find(&c.layer, "EXPORTCHECK-internal-error");
        assert_eq!((r.negative, r.positive), (Tested::Unit, Tested::Unit));
        assert!(r.covered);
        assert_eq!(r.note.as_deref(), Some("only through a layer defect"));
        // `*`: a positive test of any export command counts.
        let r = find(&c.layer, "EXPORTCHECK-extension-not-enabled");
        assert_eq!((r.negative, r.positive), (Tested::Yes, Tested::Yes));
        assert_eq!(c.layer_tally.covered, 2);
        assert!((c.layer_tally.percent - 100.0).abs() < f64::EPSILON);
    }

    #[test]
    fn without_observations_nothing_is_tested_but_unit_only() {
        let registry = Registry::parse(SYNTHETIC).unwrap();
        for obs in [None, Some(&Observed::default())] {
            let c = compute(&registry, &catalog(), obs);
            assert!(!c.observed);
            assert!(c
                .spec
                .iter()
                .all(|r| r.negative == Tested::No && r.positive == Tested::No));
            assert_eq!(c.spec_tally.covered, 0);
            assert_eq!(c.spec_tally.percent, 0.0);
            assert_eq!(
                find(&c.layer, "EXPORTCHECK-internal-error").negative,
                Tested::Unit
            );
        }
    }
}
