//! Vulkan values by name, for messages: `VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT`, not `0x1`.

use crate::handle_kinds::{HandleKind, Memory, MemoryNv};
use ash::vk;

/// A structure the layer reads in a `VkMemoryAllocateInfo` chain, with what makes it available on
/// a device (`vk.xml`: the extension whose `<require>` names it, and the core version that does,
/// if any): a device created with neither may not be given it
/// (`VUID-VkMemoryAllocateInfo-pNext-pNext`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainStructure {
    pub name: &'static str,
    pub s_type: vk::StructureType,
    pub extension: &'static str,
    /// The API version that made it core (`0`: none).
    pub core: u32,
}

const fn chained(
    name: &'static str,
    s_type: vk::StructureType,
    extension: &'static str,
    core: u32,
) -> ChainStructure {
    ChainStructure {
        name,
        s_type,
        extension,
        core,
    }
}

/// The structures of a `VkMemoryAllocateInfo` chain the layer reads; bit `i` of a chain's
/// `structures` (`args::ChainRead`) is entry `i` (a test of `raw` keeps them in step, one of
/// `layer/tests` compares them with the registry).
pub const ALLOCATE_CHAIN: [ChainStructure; 15] = {
    use vk::StructureType as S;
    [
        chained(
            "VkExportMemoryAllocateInfo",
            S::EXPORT_MEMORY_ALLOCATE_INFO,
            "VK_KHR_external_memory",
            vk::API_VERSION_1_1,
        ),
        chained(
            "VkExportMemoryAllocateInfoNV",
            S::EXPORT_MEMORY_ALLOCATE_INFO_NV,
            "VK_NV_external_memory",
            0,
        ),
        chained(
            "VkExportMemoryWin32HandleInfoNV",
            S::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV,
            "VK_NV_external_memory_win32",
            0,
        ),
        chained(
            "VkImportMemoryFdInfoKHR",
            S::IMPORT_MEMORY_FD_INFO_KHR,
            "VK_KHR_external_memory_fd",
            0,
        ),
        chained(
            "VkImportMemoryHostPointerInfoEXT",
            S::IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
            "VK_EXT_external_memory_host",
            0,
        ),
        chained(
            "VkImportMemoryWin32HandleInfoKHR",
            S::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
            "VK_KHR_external_memory_win32",
            0,
        ),
        chained(
            "VkImportMemoryZirconHandleInfoFUCHSIA",
            S::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA,
            "VK_FUCHSIA_external_memory",
            0,
        ),
        chained(
            "VkImportMemoryMetalHandleInfoEXT",
            crate::vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
            "VK_EXT_external_memory_metal",
            0,
        ),
        chained(
            "VkImportAndroidHardwareBufferInfoANDROID",
            S::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID,
            "VK_ANDROID_external_memory_android_hardware_buffer",
            0,
        ),
        chained(
            "VkMemoryDedicatedAllocateInfo",
            S::MEMORY_DEDICATED_ALLOCATE_INFO,
            "VK_KHR_dedicated_allocation",
            vk::API_VERSION_1_1,
        ),
        chained(
            "VkDedicatedAllocationMemoryAllocateInfoNV",
            S::DEDICATED_ALLOCATION_MEMORY_ALLOCATE_INFO_NV,
            "VK_NV_dedicated_allocation",
            0,
        ),
        chained(
            "VkMemoryOpaqueCaptureAddressAllocateInfo",
            S::MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO,
            "VK_KHR_buffer_device_address",
            vk::API_VERSION_1_2,
        ),
        chained(
            "VkExportMemoryWin32HandleInfoKHR",
            S::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
            "VK_KHR_external_memory_win32",
            0,
        ),
        chained(
            "VkImportMemoryWin32HandleInfoNV",
            S::IMPORT_MEMORY_WIN32_HANDLE_INFO_NV,
            "VK_NV_external_memory_win32",
            0,
        ),
        chained(
            "VkMemoryAllocateFlagsInfo",
            S::MEMORY_ALLOCATE_FLAGS_INFO,
            "VK_KHR_device_group",
            vk::API_VERSION_1_1,
        ),
    ]
};

/// The bit of `s_type` in a chain's `structures`, `0` for a structure the layer does not read
/// (for tools that build a `ChainRead` themselves: the chain reader names its bits in its match).
pub fn allocate_chain_bit(s_type: vk::StructureType) -> u32 {
    let mut i = 0;
    while i < ALLOCATE_CHAIN.len() {
        if ALLOCATE_CHAIN[i].s_type == s_type {
            return 1 << i;
        }
        i += 1;
    }
    0
}

/// Says why `types` is not valid on a device whose valid bits are `valid`: the undefined bits,
/// the defined ones whose extension was not enabled, and, for a value that must be one bit
/// (`single`), 0 or more than one bit.
pub fn invalid_handle_types(
    types: vk::ExternalMemoryHandleTypeFlags,
    valid: vk::ExternalMemoryHandleTypeFlags,
    single: bool,
) -> String {
    Memory::invalid_reasons(types.as_raw(), valid.as_raw(), single)
}

/// `VkMemoryPropertyFlagBits`.
const MEMORY_PROPERTY_BITS: &[(u32, &str)] = &[
    (0, "DEVICE_LOCAL"),
    (1, "HOST_VISIBLE"),
    (2, "HOST_COHERENT"),
    (3, "HOST_CACHED"),
    (4, "LAZILY_ALLOCATED"),
    (5, "PROTECTED"),
    (6, "DEVICE_COHERENT_AMD"),
    (7, "DEVICE_UNCACHED_AMD"),
    (8, "RDMA_CAPABLE_NV"),
];

const MEMORY_ALLOCATE_BITS: &[(u32, &str)] = &[
    (0, "DEVICE_MASK"),
    (1, "DEVICE_ADDRESS"),
    (2, "DEVICE_ADDRESS_CAPTURE_REPLAY"),
    (3, "ZERO_INITIALIZE_EXT"),
];

/// All valid `VkExternalMemoryHandleTypeFlagBits`.
#[inline(always)]
pub const fn valid_handle_type_mask() -> vk::ExternalMemoryHandleTypeFlags {
    vk::ExternalMemoryHandleTypeFlags::from_raw(Memory::VALID)
}

/// All valid `VkExternalMemoryHandleTypeFlagBitsNV`.
#[inline(always)]
pub const fn valid_handle_type_nv_mask() -> vk::ExternalMemoryHandleTypeFlagsNV {
    vk::ExternalMemoryHandleTypeFlagsNV::from_raw(MemoryNv::VALID)
}

/// Names the set bits of `value`, `|`-separated; unknown bits as hex; `0` for none.
fn flags(value: u32, table: &[(u32, &str)]) -> String {
    crate::handle_kinds::name_bits(value, table.iter().copied())
}

pub fn handle_types(value: vk::ExternalMemoryHandleTypeFlags) -> String {
    Memory::names(value.as_raw())
}

pub fn handle_types_nv(value: vk::ExternalMemoryHandleTypeFlagsNV) -> String {
    MemoryNv::names(value.as_raw())
}

/// `VkExternalMemoryFeatureFlagBits`.
const MEMORY_FEATURE_BITS: &[(u32, &str)] =
    &[(0, "DEDICATED_ONLY"), (1, "EXPORTABLE"), (2, "IMPORTABLE")];

pub fn memory_features(value: vk::ExternalMemoryFeatureFlags) -> String {
    flags(value.as_raw(), MEMORY_FEATURE_BITS)
}

pub fn memory_properties(value: vk::MemoryPropertyFlags) -> String {
    flags(value.as_raw(), MEMORY_PROPERTY_BITS)
}

/// `VkMemoryAllocateFlags` by name (`DEVICE_ADDRESS|DEVICE_ADDRESS_CAPTURE_REPLAY`).
pub fn memory_allocate_flags(value: vk::MemoryAllocateFlags) -> String {
    flags(value.as_raw(), MEMORY_ALLOCATE_BITS)
}

/// `VkStructureType` by name for the structures the layer reads, else its number.
pub fn structure_type(value: vk::StructureType) -> String {
    let name = match value {
        vk::StructureType::MEMORY_GET_FD_INFO_KHR => "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
        vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV => {
            "VK_STRUCTURE_TYPE_MEMORY_GET_REMOTE_ADDRESS_INFO_NV"
        }
        crate::vk_ext::STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT => {
            "VK_STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT"
        }
        vk::StructureType::MEMORY_ALLOCATE_INFO => "VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO",
        vk::StructureType::MEMORY_FD_PROPERTIES_KHR => "VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR",
        crate::vk_ext::STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT => {
            "VK_STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT"
        }
        vk::StructureType::MEMORY_HOST_POINTER_PROPERTIES_EXT => {
            "VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT"
        }
        vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO => {
            "VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO"
        }
        vk::StructureType::MEMORY_GET_WIN32_HANDLE_INFO_KHR => {
            "VK_STRUCTURE_TYPE_MEMORY_GET_WIN32_HANDLE_INFO_KHR"
        }
        vk::StructureType::MEMORY_GET_ZIRCON_HANDLE_INFO_FUCHSIA => {
            "VK_STRUCTURE_TYPE_MEMORY_GET_ZIRCON_HANDLE_INFO_FUCHSIA"
        }
        vk::StructureType::MEMORY_GET_ANDROID_HARDWARE_BUFFER_INFO_ANDROID => {
            "VK_STRUCTURE_TYPE_MEMORY_GET_ANDROID_HARDWARE_BUFFER_INFO_ANDROID"
        }
        vk::StructureType::MEMORY_WIN32_HANDLE_PROPERTIES_KHR => {
            "VK_STRUCTURE_TYPE_MEMORY_WIN32_HANDLE_PROPERTIES_KHR"
        }
        vk::StructureType::MEMORY_ZIRCON_HANDLE_PROPERTIES_FUCHSIA => {
            "VK_STRUCTURE_TYPE_MEMORY_ZIRCON_HANDLE_PROPERTIES_FUCHSIA"
        }
        vk::StructureType::ANDROID_HARDWARE_BUFFER_PROPERTIES_ANDROID => {
            "VK_STRUCTURE_TYPE_ANDROID_HARDWARE_BUFFER_PROPERTIES_ANDROID"
        }
        vk::StructureType::SEMAPHORE_GET_FD_INFO_KHR => {
            "VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR"
        }
        vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO => {
            "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO"
        }
        vk::StructureType::EXTERNAL_SEMAPHORE_PROPERTIES => {
            "VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES"
        }
        vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO => {
            "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO"
        }
        vk::StructureType::EXTERNAL_FENCE_PROPERTIES => {
            "VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES"
        }
        vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO => {
            "VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO"
        }
        _ => return format!("{} (VkStructureType {})", value.as_raw(), value.as_raw()),
    };
    name.to_owned()
}

/// `VkDeviceMemory 0x5566...`: how messages name an object; the reporter appends debug names.
pub fn handle(ty: vk::ObjectType, raw: u64) -> String {
    format!("{} 0x{raw:x}", object_type(ty))
}

/// The `VkObjectType` enumerant of an object type, for the JSON report.
pub fn object_type_enum(ty: vk::ObjectType) -> &'static str {
    match ty {
        vk::ObjectType::INSTANCE => "VK_OBJECT_TYPE_INSTANCE",
        vk::ObjectType::PHYSICAL_DEVICE => "VK_OBJECT_TYPE_PHYSICAL_DEVICE",
        vk::ObjectType::DEVICE => "VK_OBJECT_TYPE_DEVICE",
        vk::ObjectType::DEVICE_MEMORY => "VK_OBJECT_TYPE_DEVICE_MEMORY",
        vk::ObjectType::BUFFER => "VK_OBJECT_TYPE_BUFFER",
        vk::ObjectType::IMAGE => "VK_OBJECT_TYPE_IMAGE",
        vk::ObjectType::SEMAPHORE => "VK_OBJECT_TYPE_SEMAPHORE",
        _ => "VK_OBJECT_TYPE_UNKNOWN",
    }
}

/// The Vulkan type name of an object type.
pub fn object_type(ty: vk::ObjectType) -> &'static str {
    match ty {
        vk::ObjectType::INSTANCE => "VkInstance",
        vk::ObjectType::PHYSICAL_DEVICE => "VkPhysicalDevice",
        vk::ObjectType::DEVICE => "VkDevice",
        vk::ObjectType::DEVICE_MEMORY => "VkDeviceMemory",
        vk::ObjectType::BUFFER => "VkBuffer",
        vk::ObjectType::IMAGE => "VkImage",
        vk::ObjectType::SEMAPHORE => "VkSemaphore",
        _ => "VkObject",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_known_and_unknown_bits() {
        let v = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD
            | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT
            | vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 30);
        assert_eq!(
            handle_types(v),
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT|0x40000000 (unknown bits)"
        );
        assert_eq!(
            handle_types(vk::ExternalMemoryHandleTypeFlags::empty()),
            "0"
        );
    }

    #[test]
    fn valid_masks_match_the_registry() {
        // Bits 0..=18 except 13 (VK_NV_external_memory_sci_buf is Vulkan SC only).
        assert_eq!(valid_handle_type_mask().as_raw(), 0x7_ffff & !(1 << 13));
        assert_eq!(valid_handle_type_nv_mask().as_raw(), 0xf);
    }
}
