//! Reading `vuids/registry/vk.xml` (the Vulkan registry, as `../shared/registry/vk.xml`) for the
//! tests that compare the layer's tables with it: the reader of the `exportcheck-vuids` crate
//! (`vk_xml`), which also generates the dispatch tables from it.

pub use exportcheck_vuids::vk_xml::{attribute, blocks};

/// The registry's text.
pub fn registry() -> String {
    exportcheck_vuids::vk_xml::vk_xml()
}
