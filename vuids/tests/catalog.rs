//! Checks on the content of the embedded `catalog.json`.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

use exportcheck_vuids::{catalog, E2e, Entry, Origin, Severity};

/// Debian's copy of the spec's valid-usage database (package `libvulkan-dev`).
const VALIDUSAGE_JSON: &str = "/usr/share/vulkan/registry/validusage.json";

/// Every ID the catalog must contain, no more and no less.
const EXPECTED_IDS: &[&str] = &[
    // vkGetMemoryFdKHR
    "VUID-vkGetMemoryFdKHR-device-parameter",
    "VUID-vkGetMemoryFdKHR-pGetFdInfo-parameter",
    "VUID-vkGetMemoryFdKHR-pFd-parameter",
    "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
    "VUID-VkMemoryGetFdInfoKHR-handleType-00672",
    "VUID-VkMemoryGetFdInfoKHR-sType-sType",
    "VUID-VkMemoryGetFdInfoKHR-pNext-pNext",
    "VUID-VkMemoryGetFdInfoKHR-memory-parameter",
    "VUID-VkMemoryGetFdInfoKHR-handleType-parameter",
    // vkGetMemoryRemoteAddressNV
    "VUID-vkGetMemoryRemoteAddressNV-device-parameter",
    "VUID-vkGetMemoryRemoteAddressNV-pMemoryGetRemoteAddressInfo-parameter",
    "VUID-vkGetMemoryRemoteAddressNV-pAddress-parameter",
    "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966",
    "VUID-VkMemoryGetRemoteAddressInfoNV-sType-sType",
    "VUID-VkMemoryGetRemoteAddressInfoNV-pNext-pNext",
    "VUID-VkMemoryGetRemoteAddressInfoNV-memory-parameter",
    "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-parameter",
    // vkGetMemoryWin32HandleNV
    "VUID-vkGetMemoryWin32HandleNV-handleType-01326",
    "VUID-vkGetMemoryWin32HandleNV-device-parameter",
    "VUID-vkGetMemoryWin32HandleNV-memory-parameter",
    "VUID-vkGetMemoryWin32HandleNV-handleType-parameter",
    "VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask",
    "VUID-vkGetMemoryWin32HandleNV-pHandle-parameter",
    "VUID-vkGetMemoryWin32HandleNV-memory-parent",
    // vkGetMemoryMetalHandleEXT
    "VUID-vkGetMemoryMetalHandleEXT-device-parameter",
    "VUID-vkGetMemoryMetalHandleEXT-pGetMetalHandleInfo-parameter",
    "VUID-vkGetMemoryMetalHandleEXT-pHandle-parameter",
    "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413",
    "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414",
    "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415",
    "VUID-VkMemoryGetMetalHandleInfoEXT-sType-sType",
    "VUID-VkMemoryGetMetalHandleInfoEXT-pNext-pNext",
    "VUID-VkMemoryGetMetalHandleInfoEXT-memory-parameter",
    "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-parameter",
    // vkAllocateMemory / vkFreeMemory
    "VUID-VkMemoryAllocateInfo-pNext-00640",
    "VUID-VkMemoryAllocateInfo-sType-unique",
    "VUID-VkExportMemoryAllocateInfo-handleTypes-parameter",
    "VUID-VkExportMemoryAllocateInfo-handleTypes-00656",
    "VUID-VkExportMemoryAllocateInfo-sType-sType",
    "VUID-VkExportMemoryAllocateInfoNV-sType-sType",
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter",
    "VUID-vkAllocateMemory-device-parameter",
    "VUID-vkAllocateMemory-pAllocateInfo-parameter",
    "VUID-vkAllocateMemory-pMemory-parameter",
    "VUID-VkMemoryAllocateInfo-sType-sType",
    "VUID-vkFreeMemory-device-parameter",
    "VUID-vkFreeMemory-memory-parameter",
    "VUID-vkFreeMemory-memory-parent",
    // exportcheck's own IDs
    "EXPORTCHECK-extension-not-enabled",
    "EXPORTCHECK-memory-of-other-device",
    "EXPORTCHECK-rdma-memory-type-not-rdma-capable",
    "EXPORTCHECK-rdma-feature-not-enabled",
    "EXPORTCHECK-win32nv-handle-type-multiple-bits",
    "EXPORTCHECK-pnext-chain-too-long",
    "EXPORTCHECK-internal-error",
    "EXPORTCHECK-driver-invalid-fd",
    "EXPORTCHECK-driver-fd-not-cloexec",
    "EXPORTCHECK-driver-fd-not-new",
    "EXPORTCHECK-driver-null-remote-address",
    "EXPORTCHECK-driver-null-win32-handle",
    "EXPORTCHECK-driver-null-metal-handle",
    "EXPORTCHECK-exported-fd-leaked",
];

const DEVICE_PARAMETER_NOTE: &str = "A garbage VkDevice passed to the loader's trampoline (a \
    pointer from vkGetInstanceProcAddr) is dereferenced by the loader before the layer runs; \
    through a vkGetDeviceProcAddr pointer the layer sees it and reports this VUID.";

fn entry(id: &str) -> &'static Entry {
    catalog()
        .get(id)
        .unwrap_or_else(|| panic!("{id} missing from the catalog"))
}

#[test]
fn ids_are_unique() {
    let mut seen = HashSet::new();
    for e in catalog().entries() {
        assert!(seen.insert(e.id.as_str()), "duplicate id {}", e.id);
    }
}

#[test]
fn catalog_holds_exactly_the_expected_ids() {
    let expected: BTreeSet<&str> = EXPECTED_IDS.iter().copied().collect();
    assert_eq!(
        expected.len(),
        EXPECTED_IDS.len(),
        "EXPECTED_IDS repeats an ID"
    );
    let actual: BTreeSet<&str> = catalog().entries().iter().map(|e| e.id.as_str()).collect();
    let missing: Vec<_> = expected.difference(&actual).collect();
    let extra: Vec<_> = actual.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "catalog differs from the expected list; missing: {missing:?}, unexpected: {extra:?}"
    );
}

#[test]
fn every_entry_is_well_formed() {
    for e in catalog().entries() {
        let id = &e.id;
        let summary = e.summary.trim();
        assert!(!summary.is_empty(), "{id}: empty summary");
        assert_eq!(
            summary, e.summary,
            "{id}: summary has surrounding whitespace"
        );
        assert!(
            !summary.contains(['\n', '\r']),
            "{id}: summary is not one line"
        );
        assert!(!e.command.is_empty(), "{id}: empty command");
        assert!(!e.extension.is_empty(), "{id}: empty extension");
        if let Some(s) = &e.structure {
            assert!(
                s.starts_with("Vk"),
                "{id}: structure {s:?} is not a Vulkan type"
            );
        }
        if let Some(note) = &e.note {
            assert!(!note.trim().is_empty(), "{id}: empty note");
        }
        if e.e2e == E2e::UnitOnly {
            assert!(
                e.note.is_some(),
                "{id}: unit-only entries must say why in a note"
            );
        }
        match e.origin {
            Origin::Spec => {
                assert!(id.starts_with("VUID-"), "{id}: spec IDs start with VUID-");
                // The second component of a VUID names the structure, or the command when the
                // rule is on the command's own parameters.
                let owner = id.split('-').nth(1).unwrap_or_default();
                let expected = e.structure.as_deref().unwrap_or(&e.command);
                assert_eq!(
                    owner, expected,
                    "{id}: structure/command do not match the VUID"
                );
            }
            Origin::Layer => {
                assert!(
                    id.starts_with("EXPORTCHECK-"),
                    "{id}: layer IDs start with EXPORTCHECK-"
                );
            }
        }
    }
}

#[test]
fn severities_and_test_locations_match_the_design() {
    for e in catalog().entries() {
        if e.origin == Origin::Spec {
            assert_eq!(e.severity, Severity::Error, "{}: spec IDs are errors", e.id);
        }
    }
    let warnings: BTreeSet<&str> = catalog()
        .entries()
        .iter()
        .filter(|e| e.severity == Severity::Warning)
        .map(|e| e.id.as_str())
        .collect();
    let expected: BTreeSet<&str> = [
        "EXPORTCHECK-extension-not-enabled",
        "EXPORTCHECK-rdma-memory-type-not-rdma-capable",
        "EXPORTCHECK-rdma-feature-not-enabled",
        "EXPORTCHECK-win32nv-handle-type-multiple-bits",
        "EXPORTCHECK-pnext-chain-too-long",
        "EXPORTCHECK-driver-invalid-fd",
        "EXPORTCHECK-driver-fd-not-cloexec",
        "EXPORTCHECK-driver-fd-not-new",
        "EXPORTCHECK-driver-null-remote-address",
        "EXPORTCHECK-driver-null-win32-handle",
        "EXPORTCHECK-driver-null-metal-handle",
        "EXPORTCHECK-exported-fd-leaked",
    ]
    .into_iter()
    .collect();
    assert_eq!(warnings, expected);

    let by_command = [
        ("vkGetMemoryFdKHR", E2e::Lavapipe),
        ("vkGetMemoryRemoteAddressNV", E2e::TestDriver),
        ("vkGetMemoryWin32HandleNV", E2e::TestDriver),
        ("vkGetMemoryMetalHandleEXT", E2e::TestDriver),
    ];
    for (command, e2e) in by_command {
        for e in catalog()
            .entries()
            .iter()
            .filter(|e| e.origin == Origin::Spec && e.command == command)
        {
            assert_eq!(e.e2e, e2e, "{}", e.id);
        }
    }
    assert_eq!(
        entry("VUID-VkMemoryAllocateInfo-pNext-00640").e2e,
        E2e::Lavapipe
    );
    assert_eq!(
        entry("VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter").e2e,
        E2e::Lavapipe
    );
    assert_eq!(entry("EXPORTCHECK-internal-error").e2e, E2e::TestDriver);
    let unit_only: BTreeSet<&str> = catalog()
        .entries()
        .iter()
        .filter(|e| e.e2e == E2e::UnitOnly)
        .map(|e| e.id.as_str())
        .collect();
    let expected: BTreeSet<&str> = [
        "VUID-VkExportMemoryAllocateInfo-sType-sType",
        "VUID-VkExportMemoryAllocateInfoNV-sType-sType",
    ]
    .into_iter()
    .collect();
    assert_eq!(
        unit_only, expected,
        "only the by-construction sType rules lack an end-to-end test"
    );
}

#[test]
fn device_parameter_vuids_explain_the_loader_trampoline() {
    let mut count = 0;
    for e in catalog()
        .entries()
        .iter()
        .filter(|e| e.id.ends_with("-device-parameter"))
    {
        count += 1;
        assert_eq!(e.note.as_deref(), Some(DEVICE_PARAMETER_NOTE), "{}", e.id);
        assert_ne!(e.e2e, E2e::UnitOnly, "{}", e.id);
    }
    assert_eq!(count, 6);
}

/// `vuid -> (command or structure it is listed under, extension section)` from the spec's
/// valid-usage database, or `None` when the file is not installed.
fn load_validusage() -> Option<HashMap<String, (String, String)>> {
    let path = Path::new(VALIDUSAGE_JSON);
    if !path.exists() {
        eprintln!(
            "note: {VALIDUSAGE_JSON} not found (install libvulkan-dev); \
             skipping the cross-check against the spec"
        );
        return None;
    }
    let text = std::fs::read_to_string(path).expect("read validusage.json");
    let root: serde_json::Value = serde_json::from_str(&text).expect("parse validusage.json");
    let validation = root["validation"]
        .as_object()
        .expect("validusage.json has a \"validation\" object");
    let mut map = HashMap::new();
    for (owner, sections) in validation {
        let sections = sections.as_object().expect("owner maps sections");
        for (section, list) in sections {
            for item in list.as_array().expect("section holds a list") {
                let vuid = item["vuid"].as_str().expect("item has a vuid");
                map.insert(vuid.to_owned(), (owner.clone(), section.clone()));
            }
        }
    }
    assert!(
        map.len() > 1000,
        "validusage.json looks truncated ({} VUIDs)",
        map.len()
    );
    Some(map)
}

#[test]
fn spec_vuids_exist_in_the_spec() {
    let Some(known) = load_validusage() else {
        return;
    };
    let mut absent = Vec::new();
    for e in catalog()
        .entries()
        .iter()
        .filter(|e| e.origin == Origin::Spec)
    {
        match known.get(&e.id) {
            Some((owner, section)) => {
                let expected = e.structure.as_deref().unwrap_or(&e.command);
                assert_eq!(
                    owner, expected,
                    "{}: listed under {owner} in the spec",
                    e.id
                );
                if e.extension != "core" {
                    assert!(
                        section.contains(&e.extension),
                        "{}: the spec lists it under {section}, not {}",
                        e.id,
                        e.extension
                    );
                }
            }
            None => absent.push(e.id.as_str()),
        }
    }
    // validusage.json is older (1.3.239) than VK_EXT_external_memory_metal; every other spec
    // VUID must be there, so a typo cannot hide.
    for id in &absent {
        assert!(
            id.contains("MetalHandle"),
            "{id} is not in {VALIDUSAGE_JSON}: a typo?"
        );
    }
    let metal = catalog()
        .entries()
        .iter()
        .filter(|e| e.id.contains("MetalHandle"))
        .count();
    assert_eq!(metal, 10);
}
