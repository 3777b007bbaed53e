//! The handle-type tables of `handle_kinds` are the registry's: for memory (and its NV flags
//! type), semaphores and fences, every bit Vulkan (not only Vulkan SC) defines in `vuids/registry/vk.xml`, with its
//! name, and for a bit an extension adds, that extension.

mod registry_xml;

use registry_xml::{attribute, blocks, registry};
use std::collections::BTreeSet;
use VkLayer_exportcheck::handle_kinds::{Fence, HandleKind, Memory, MemoryNv, Semaphore};

/// The registry's bits of the flag-bits type `flag_bits`: bit, name, extension.
fn registry_bits(xml: &str, flag_bits: &str) -> BTreeSet<(u32, String, Option<String>)> {
    let mut bits = BTreeSet::new();
    let open = format!("<enums name=\"{flag_bits}\" type=\"bitmask\">");
    let block = blocks(xml, &open, "</enums>")
        .next()
        .expect("the flag bits' enums");
    for tag in blocks(block, "<enum ", ">") {
        if let (Some(bit), Some(name)) = (attribute(tag, "bitpos"), attribute(tag, "name")) {
            bits.insert((bit.parse().unwrap(), name.to_owned(), None));
        }
    }
    for block in blocks(xml, "<extension name=", "</extension>") {
        let head = &block[..block.find('>').expect("a closed tag")];
        let vulkan =
            attribute(head, "supported").is_some_and(|s| s.split(',').any(|api| api == "vulkan"));
        if !vulkan {
            continue;
        }
        let extension = attribute(head, "name").expect("a name").to_owned();
        for tag in blocks(block, "<enum ", ">") {
            if attribute(tag, "extends") != Some(flag_bits) {
                continue;
            }
            if let (Some(bit), Some(name)) = (attribute(tag, "bitpos"), attribute(tag, "name")) {
                bits.insert((
                    bit.parse().unwrap(),
                    name.to_owned(),
                    Some(extension.clone()),
                ));
            }
        }
    }
    bits
}

fn table<K: HandleKind>() -> BTreeSet<(u32, String, Option<String>)> {
    K::BITS
        .iter()
        .map(|b| (b.bit, b.name.to_owned(), b.extension.map(str::to_owned)))
        .collect()
}

#[test]
fn the_handle_type_tables_are_the_registry_s() {
    let xml = registry();
    for (flag_bits, ours) in [
        (Memory::FLAG_BITS, table::<Memory>()),
        (MemoryNv::FLAG_BITS, table::<MemoryNv>()),
        (Semaphore::FLAG_BITS, table::<Semaphore>()),
        (Fence::FLAG_BITS, table::<Fence>()),
    ] {
        assert_eq!(ours, registry_bits(&xml, flag_bits), "{flag_bits}");
    }
}
