//! The one requirement this layer hides, as pure functions of extension lists.

use ash::vk;
use std::ffi::CStr;

/// The device extension piglit's `ext_external_objects-vk-*` tests require and lavapipe lacks.
pub const HIDDEN: &CStr = ash::khr::external_semaphore_fd::NAME;

/// The spec version listed for it (the extension's only version).
pub const HIDDEN_SPEC_VERSION: u32 = 1;

/// Whether `props` lists `name`.
#[must_use]
pub fn lists(props: &[vk::ExtensionProperties], name: &CStr) -> bool {
    props
        .iter()
        .any(|p| p.extension_name_as_c_str().ok() == Some(name))
}

/// The hidden extension's properties.
pub fn hidden_properties() -> vk::ExtensionProperties {
    vk::ExtensionProperties::default()
        .spec_version(HIDDEN_SPEC_VERSION)
        .extension_name(HIDDEN)
        .expect("the extension name fits VK_MAX_EXTENSION_NAME_SIZE")
}

/// The next layer's list, with the hidden extension added when it lacks it.
#[must_use]
pub fn with_hidden(mut next: Vec<vk::ExtensionProperties>) -> Vec<vk::ExtensionProperties> {
    if !lists(&next, HIDDEN) {
        next.push(hidden_properties());
    }
    next
}

/// The enabled extension names, without the hidden one.
#[must_use]
pub fn without_hidden<'a>(enabled: &[&'a CStr]) -> Vec<&'a CStr> {
    enabled.iter().copied().filter(|n| *n != HIDDEN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &CStr) -> vk::ExtensionProperties {
        vk::ExtensionProperties::default()
            .extension_name(name)
            .unwrap()
    }

    #[test]
    fn the_hidden_extension_is_added_once() {
        let memory_fd = named(ash::khr::external_memory_fd::NAME);
        let added = with_hidden(vec![memory_fd]);
        assert_eq!(added.len(), 2);
        assert!(lists(&added, HIDDEN));
        assert!(lists(&added, ash::khr::external_memory_fd::NAME));
        assert_eq!(added[1].spec_version, HIDDEN_SPEC_VERSION);
        assert_eq!(with_hidden(added.clone()).len(), 2, "listed already");
    }

    #[test]
    fn only_the_hidden_extension_is_removed() {
        let memory_fd = ash::khr::external_memory_fd::NAME;
        assert_eq!(without_hidden(&[memory_fd, HIDDEN]), [memory_fd]);
        assert_eq!(without_hidden(&[memory_fd]), [memory_fd]);
    }
}
