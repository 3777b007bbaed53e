//! Which entry points of the physical-device queries the layer may validly call
//! (`vkGetPhysicalDeviceExternalBufferProperties`, `vkGetPhysicalDeviceImageFormatProperties2`):
//! its own calls go through the layers below it (the Khronos validation layer among them), so
//! they must be valid calls. The core name needs an effective API version of 1.1 (the lower of
//! the instance's `apiVersion` and the physical device's); the `KHR` name needs the instance
//! extension `VK_KHR_external_memory_capabilities` (which requires
//! `VK_KHR_get_physical_device_properties2`) enabled. Otherwise nothing is asked.
//!
//! The handle types asked about are the ones valid on the device (`DeviceFacts::handle_types`:
//! the core ones and those of the extensions the device enabled, hence supports), so each
//! `handleType` the layer passes is a valid value for the physical device.

use ash::vk;

/// Which names of the physical-device queries the layer may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryNames {
    /// `vkGetPhysicalDeviceExternalBufferProperties`, `vkGetPhysicalDeviceImageFormatProperties2`
    /// (Vulkan 1.1).
    Core,
    /// Their `KHR` names (`VK_KHR_external_memory_capabilities`,
    /// `VK_KHR_get_physical_device_properties2`).
    Khr,
}

/// The entry point valid for an instance created with `instance_api_version` (0 when the app
/// gave none, which means 1.0) and `khr_capabilities_enabled` (the instance extension
/// VK_KHR_external_memory_capabilities), on a physical device reporting `device_api_version`;
/// `None` when neither is valid.
pub fn query_names(
    instance_api_version: u32,
    device_api_version: u32,
    khr_capabilities_enabled: bool,
) -> Option<QueryNames> {
    let at_least_1_1 = |v: u32| (vk::api_version_major(v), vk::api_version_minor(v)) >= (1, 1);
    if at_least_1_1(instance_api_version) && at_least_1_1(device_api_version) {
        Some(QueryNames::Core)
    } else if khr_capabilities_enabled {
        Some(QueryNames::Khr)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1_0: u32 = vk::API_VERSION_1_0;
    const V1_1: u32 = vk::API_VERSION_1_1;
    const V1_3: u32 = vk::API_VERSION_1_3;

    #[test]
    fn the_core_query_needs_1_1_on_both_the_instance_and_the_device() {
        use QueryNames::*;
        assert_eq!(query_names(V1_1, V1_3, false), Some(Core));
        assert_eq!(query_names(V1_3, V1_1, true), Some(Core));
        // A patch or variant above does not matter; 1.0 on either side does.
        assert_eq!(
            query_names(vk::make_api_version(0, 1, 1, 99), V1_1, false),
            Some(Core)
        );
        assert_eq!(query_names(V1_0, V1_3, false), None);
        assert_eq!(query_names(0, V1_3, false), None);
        assert_eq!(query_names(V1_3, V1_0, false), None);
    }

    #[test]
    fn below_1_1_only_the_enabled_khr_extension_allows_the_query() {
        use QueryNames::*;
        assert_eq!(query_names(V1_0, V1_3, true), Some(Khr));
        assert_eq!(query_names(0, V1_0, true), Some(Khr));
        assert_eq!(query_names(V1_3, V1_0, true), Some(Khr));
    }
}
