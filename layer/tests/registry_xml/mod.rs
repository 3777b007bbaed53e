//! Reading `vuids/registry/vk.xml` (the Vulkan registry, as `../shared/registry/vk.xml`) for the
//! tests that compare the layer's tables with it: plain text search, which the registry's regular
//! layout allows (one element per tag, attributes in double quotes).

/// The registry's text.
pub fn registry() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../vuids/registry/vk.xml");
    std::fs::read_to_string(path).expect("vuids/registry/vk.xml")
}

/// The value of attribute `name` in the tag text `tag` (its first occurrence).
pub fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The text of every element that starts with `open` up to its first `close`
/// (`"<extension name="`, `"</extension>"`).
pub fn blocks<'a>(xml: &'a str, open: &'a str, close: &'a str) -> impl Iterator<Item = &'a str> {
    xml.match_indices(open).map(move |(at, _)| {
        let end = xml[at..].find(close).expect("a closed element");
        &xml[at..at + end]
    })
}
