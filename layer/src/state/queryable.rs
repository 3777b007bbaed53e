//! What the layer may validly ask the driver about external memory: which entry point of
//! `vkGetPhysicalDeviceExternalBufferProperties` exists for the app's instance and physical device,
//! and which `VkExternalMemoryHandleTypeFlagBits` may be passed to it (or to
//! `vkGetPhysicalDeviceImageFormatProperties2` with `VkPhysicalDeviceExternalImageFormatInfo`).
//!
//! The layer's own calls go through the layers below it (the Khronos validation layer among
//! them), so they must be valid calls:
//! - `handleType-parameter` of a physical-device query: a bit added by an extension is a valid
//!   value only when the physical device *supports* that extension (advertises it in
//!   `vkEnumerateDeviceExtensionProperties`; enabling it on a device is not needed). The Khronos
//!   layer checks exactly that (`IsExtSupported` of the physical device's extensions). The bits
//!   of `VK_KHR_external_memory_capabilities` (core in 1.1) are always valid.
//! - the command itself: the core name needs an effective API version of 1.1 (the lower of the
//!   instance's `apiVersion` and the physical device's); the `KHR` name needs the instance
//!   extension `VK_KHR_external_memory_capabilities` enabled. Otherwise nothing is asked.

use ash::vk;

/// The handle types of `VK_KHR_external_memory_capabilities` (Vulkan 1.1): OPAQUE_FD, the Win32
/// and D3D types. Valid wherever the query itself is.
const CORE_HANDLE_TYPES: u32 = 0x7f;

/// Each handle type bit an extension adds (vk.xml `<enum extends="VkExternalMemoryHandleTypeFlagBits">`),
/// with its extension. Bit 13 (SCI_BUF) is Vulkan SC only and never valid here.
pub const EXTENSION_HANDLE_TYPES: [(u32, &str); 11] = [
    (7, "VK_EXT_external_memory_host"),
    (8, "VK_EXT_external_memory_host"),
    (9, "VK_EXT_external_memory_dma_buf"),
    (10, "VK_ANDROID_external_memory_android_hardware_buffer"),
    (11, "VK_FUCHSIA_external_memory"),
    (12, "VK_NV_external_memory_rdma"),
    (14, "VK_QNX_external_memory_screen_buffer"),
    (15, "VK_OHOS_external_memory"),
    (16, "VK_EXT_external_memory_metal"),
    (17, "VK_EXT_external_memory_metal"),
    (18, "VK_EXT_external_memory_metal"),
];

/// The extension that adds the single handle type bit `bit`, if an extension does.
pub fn defining_extension(bit: vk::ExternalMemoryHandleTypeFlags) -> Option<&'static str> {
    EXTENSION_HANDLE_TYPES
        .iter()
        .find(|(b, _)| 1u32 << b == bit.as_raw())
        .map(|(_, name)| *name)
}

/// The handle types valid to pass to a physical-device query on a physical device that
/// advertises the device extensions for which `supports` is true.
pub fn queryable_handle_types(
    supports: impl Fn(&[u8]) -> bool,
) -> vk::ExternalMemoryHandleTypeFlags {
    let from_extensions = EXTENSION_HANDLE_TYPES
        .iter()
        .filter(|(_, name)| supports(name.as_bytes()))
        .fold(0, |all, (bit, _)| all | 1 << bit);
    vk::ExternalMemoryHandleTypeFlags::from_raw(CORE_HANDLE_TYPES | from_extensions)
}

/// Which name of `vkGetPhysicalDeviceExternalBufferProperties` the layer may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalBufferQuery {
    /// `vkGetPhysicalDeviceExternalBufferProperties` (Vulkan 1.1).
    Core,
    /// `vkGetPhysicalDeviceExternalBufferPropertiesKHR` (VK_KHR_external_memory_capabilities).
    Khr,
}

/// The entry point valid for an instance created with `instance_api_version` (0 when the app
/// gave none, which means 1.0) and `khr_capabilities_enabled` (the instance extension
/// VK_KHR_external_memory_capabilities), on a physical device reporting `device_api_version`;
/// `None` when neither is valid.
pub fn external_buffer_query(
    instance_api_version: u32,
    device_api_version: u32,
    khr_capabilities_enabled: bool,
) -> Option<ExternalBufferQuery> {
    let at_least_1_1 = |v: u32| (vk::api_version_major(v), vk::api_version_minor(v)) >= (1, 1);
    if at_least_1_1(instance_api_version) && at_least_1_1(device_api_version) {
        Some(ExternalBufferQuery::Core)
    } else if khr_capabilities_enabled {
        Some(ExternalBufferQuery::Khr)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vk_names;

    const V1_0: u32 = vk::API_VERSION_1_0;
    const V1_1: u32 = vk::API_VERSION_1_1;
    const V1_3: u32 = vk::API_VERSION_1_3;

    fn bits(mask: u32) -> vk::ExternalMemoryHandleTypeFlags {
        vk::ExternalMemoryHandleTypeFlags::from_raw(mask)
    }

    #[test]
    fn a_device_without_export_extensions_is_asked_the_core_types_only() {
        assert_eq!(queryable_handle_types(|_| false), bits(0x7f));
    }

    #[test]
    fn each_extension_makes_its_own_bits_queryable() {
        let cases: [(&str, u32); 9] = [
            ("VK_EXT_external_memory_host", 0x180),
            ("VK_EXT_external_memory_dma_buf", 0x200),
            ("VK_ANDROID_external_memory_android_hardware_buffer", 0x400),
            ("VK_FUCHSIA_external_memory", 0x800),
            ("VK_NV_external_memory_rdma", 0x1000),
            ("VK_QNX_external_memory_screen_buffer", 0x4000),
            ("VK_OHOS_external_memory", 0x8000),
            ("VK_EXT_external_memory_metal", 0x7_0000),
            // Extensions that add no handle type change nothing.
            ("VK_KHR_external_memory_fd", 0),
        ];
        for (extension, added) in cases {
            let only = |name: &[u8]| name == extension.as_bytes();
            assert_eq!(
                queryable_handle_types(only),
                bits(0x7f | added),
                "{extension}"
            );
        }
    }

    #[test]
    fn lavapipe_22_3_is_asked_the_core_types_only() {
        // What Mesa 22.3's lavapipe advertises of the external-memory extensions.
        let lavapipe = |name: &[u8]| {
            [&b"VK_KHR_external_memory"[..], b"VK_KHR_external_memory_fd"].contains(&name)
        };
        assert_eq!(queryable_handle_types(lavapipe), bits(0x7f));
    }

    #[test]
    fn every_extension_bit_is_a_defined_handle_type_and_sci_buf_is_never_asked() {
        let all = queryable_handle_types(|_| true);
        assert_eq!(all, vk_names::valid_handle_type_mask());
        assert!(!all.contains(bits(1 << 13)));
    }

    #[test]
    fn defining_extension_names_the_extension_of_each_bit() {
        assert_eq!(
            defining_extension(vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT),
            Some("VK_EXT_external_memory_dma_buf")
        );
        assert_eq!(
            defining_extension(bits(1 << 17)),
            Some("VK_EXT_external_memory_metal")
        );
        assert_eq!(
            defining_extension(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD),
            None
        );
        assert_eq!(defining_extension(bits(1 << 13)), None);
    }

    #[test]
    fn the_core_query_needs_1_1_on_both_the_instance_and_the_device() {
        use ExternalBufferQuery::*;
        assert_eq!(external_buffer_query(V1_1, V1_3, false), Some(Core));
        assert_eq!(external_buffer_query(V1_3, V1_1, true), Some(Core));
        // A patch or variant above does not matter; 1.0 on either side does.
        assert_eq!(
            external_buffer_query(vk::make_api_version(0, 1, 1, 99), V1_1, false),
            Some(Core)
        );
        assert_eq!(external_buffer_query(V1_0, V1_3, false), None);
        assert_eq!(external_buffer_query(0, V1_3, false), None);
        assert_eq!(external_buffer_query(V1_3, V1_0, false), None);
    }

    #[test]
    fn below_1_1_only_the_enabled_khr_extension_allows_the_query() {
        use ExternalBufferQuery::*;
        assert_eq!(external_buffer_query(V1_0, V1_3, true), Some(Khr));
        assert_eq!(external_buffer_query(0, V1_0, true), Some(Khr));
        assert_eq!(external_buffer_query(V1_3, V1_0, true), Some(Khr));
    }
}
