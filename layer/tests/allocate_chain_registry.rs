//! The table of `VkMemoryAllocateInfo` chain structures the layer reads
//! (`vk_names::ALLOCATE_CHAIN`, which `VUID-VkMemoryAllocateInfo-pNext-pNext` is judged by) is
//! the registry's: each entry extends `VkMemoryAllocateInfo` in `vuids/registry/vk.xml` (the
//! Vulkan registry 1.4.359, as `../shared/registry/vk.xml`), its extension is one that requires it
//! (or an alias of it) and no other does, and its core version is the first that does. Every other structure that
//! extends `VkMemoryAllocateInfo` is listed below as one the layer does not read.

use std::collections::{BTreeMap, BTreeSet};
mod registry_xml;

use registry_xml::{attribute, blocks, registry};
use VkLayer_exportcheck::vk_names::ALLOCATE_CHAIN;

/// The structures extending `VkMemoryAllocateInfo` that the layer does not read (their
/// pNext-pNext is not judged: a missed finding, never a false one).
const NOT_READ: &[&str] = &[
    "VkExportMemorySciBufInfoNV",
    "VkImportMemorySciBufInfoNV",
    "VkMemoryPriorityAllocateInfoEXT",
    "VkImportMemoryBufferCollectionFUCHSIA",
    "VkExportMetalObjectCreateInfoEXT",
    "VkImportMetalBufferInfoEXT",
    "VkImportScreenBufferInfoQNX",
    "VkMemoryDedicatedAllocateInfoTensorARM",
    "VkImportNativeBufferInfoOHOS",
];

/// Every `<type category="struct" ...>` tag: name, `structextends` and `alias`.
fn struct_tags(xml: &str) -> Vec<(String, Vec<String>, Option<String>)> {
    blocks(xml, "<type category=\"struct\"", ">")
        .map(|tag| {
            let extends = attribute(tag, "structextends")
                .map(|e| e.split(',').map(str::to_owned).collect())
                .unwrap_or_default();
            let name = attribute(tag, "name").expect("a named type").to_owned();
            (name, extends, attribute(tag, "alias").map(str::to_owned))
        })
        .collect()
}

/// The names of the types each `<feature>` (by its version number, `1.1`) and `<extension>` (by
/// its name) requires.
fn requirements(xml: &str) -> (BTreeMap<String, String>, BTreeMap<String, BTreeSet<String>>) {
    let types_in = |block: &str| -> BTreeSet<String> {
        block
            .match_indices("<type name=\"")
            .map(|(at, m)| {
                let rest = &block[at + m.len()..];
                rest[..rest.find('"').expect("a closed name")].to_owned()
            })
            .collect()
    };
    let mut core = BTreeMap::new();
    for block in blocks(xml, "<feature api=", "</feature>") {
        let number = attribute(block, "number").expect("a feature's number");
        for name in types_in(block) {
            // The first (lowest) version that requires it.
            core.entry(name)
                .and_modify(|v: &mut String| {
                    if number < v.as_str() {
                        *v = number.to_owned();
                    }
                })
                .or_insert_with(|| number.to_owned());
        }
    }
    let mut extensions = BTreeMap::new();
    for block in blocks(xml, "<extension name=", "</extension>") {
        let name = attribute(block, "name").expect("an extension's name");
        extensions.insert(name.to_owned(), types_in(block));
    }
    (core, extensions)
}

#[test]
fn the_chain_table_is_the_registry_s() {
    let xml = registry();
    let structs = struct_tags(&xml);
    let (core, extensions) = requirements(&xml);
    let extending: BTreeSet<&str> = structs
        .iter()
        .filter(|(_, extends, _)| extends.iter().any(|e| e == "VkMemoryAllocateInfo"))
        .map(|(name, _, _)| name.as_str())
        .collect();
    for entry in ALLOCATE_CHAIN {
        assert!(
            extending.contains(entry.name),
            "{} does not extend VkMemoryAllocateInfo",
            entry.name
        );
        // The structure and its aliases (VkExportMemoryAllocateInfoKHR).
        let names: BTreeSet<&str> = structs
            .iter()
            .filter(|(name, _, alias)| name == entry.name || alias.as_deref() == Some(entry.name))
            .map(|(name, _, _)| name.as_str())
            .collect();
        // The one extension that requires it: another would make the structure available too,
        // and the table would judge a device with that one alone wrongly.
        let requiring: Vec<&str> = extensions
            .iter()
            .filter(|(_, types)| names.iter().any(|n| types.contains(*n)))
            .map(|(extension, _)| extension.as_str())
            .collect();
        assert_eq!(
            requiring,
            [entry.extension],
            "{}: the extensions",
            entry.name
        );
        let version = core.get(entry.name).map(|v| {
            let (major, minor) = v.split_once('.').expect("major.minor");
            ash::vk::make_api_version(0, major.parse().unwrap(), minor.parse().unwrap(), 0)
        });
        assert_eq!(
            version.unwrap_or(0),
            entry.core,
            "{}: the core version",
            entry.name
        );
    }
    let read: BTreeSet<&str> = ALLOCATE_CHAIN.iter().map(|e| e.name).collect();
    let unlisted: Vec<&&str> = extending
        .iter()
        .filter(|n| !read.contains(**n) && !NOT_READ.contains(n))
        .collect();
    assert!(
        unlisted.is_empty(),
        "structures extending VkMemoryAllocateInfo neither read nor listed: {unlisted:?}"
    );
}
