//! Vulkan definitions newer than the `ash` release we build on (ash 0.38 = Vulkan 1.3.281).
//! Values from the registry `vk.xml` 1.4.359 (`VK_EXT_external_memory_metal`, extension 603;
//! `VK_QCOM_tile_memory_heap`, extension 548).

use ash::vk;
use std::ffi::c_void;

/// `VK_STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT`
pub const STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_000);
/// `VK_STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT`
pub const STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_001);
/// `VK_STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT`
pub const STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_002);

/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT`
pub const HANDLE_TYPE_MTLBUFFER: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 16);
/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT`
pub const HANDLE_TYPE_MTLTEXTURE: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 17);
/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT`
pub const HANDLE_TYPE_MTLHEAP: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 18);

/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_OH_NATIVE_BUFFER_BIT_OHOS` (`VK_OHOS_external_memory`).
pub const HANDLE_TYPE_OH_NATIVE_BUFFER: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 15);
/// `VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TILE_MEMORY_HEAP_FEATURES_QCOM` (`VK_QCOM_tile_memory_heap`,
/// extension 548).
pub const STRUCTURE_TYPE_PHYSICAL_DEVICE_TILE_MEMORY_HEAP_FEATURES_QCOM: vk::StructureType =
    vk::StructureType::from_raw(1_000_547_000);
/// `VK_MEMORY_HEAP_TILE_MEMORY_BIT_QCOM`
pub const MEMORY_HEAP_TILE_MEMORY_QCOM: vk::MemoryHeapFlags = vk::MemoryHeapFlags::from_raw(1 << 3);

/// `VkPhysicalDeviceTileMemoryHeapFeaturesQCOM`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PhysicalDeviceTileMemoryHeapFeaturesQCOM {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub tile_memory_heap: vk::Bool32,
}

/// `VK_STRUCTURE_TYPE_IMPORT_MEMORY_SCI_BUF_INFO_NV` (`VK_NV_external_memory_sci_buf`, 375).
pub const STRUCTURE_TYPE_IMPORT_MEMORY_SCI_BUF_INFO_NV: vk::StructureType =
    vk::StructureType::from_raw(1_000_374_000);
/// `VK_STRUCTURE_TYPE_EXPORT_MEMORY_SCI_BUF_INFO_NV`
pub const STRUCTURE_TYPE_EXPORT_MEMORY_SCI_BUF_INFO_NV: vk::StructureType =
    vk::StructureType::from_raw(1_000_374_001);
/// `VK_STRUCTURE_TYPE_IMPORT_NATIVE_BUFFER_INFO_OHOS` (`VK_OHOS_external_memory`, 453).
pub const STRUCTURE_TYPE_IMPORT_NATIVE_BUFFER_INFO_OHOS: vk::StructureType =
    vk::StructureType::from_raw(1_000_452_003);

/// `VK_EXT_external_memory_metal`
pub const EXT_EXTERNAL_MEMORY_METAL_NAME: &str = "VK_EXT_external_memory_metal";

/// `VkImportMemoryMetalHandleInfoEXT`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ImportMemoryMetalHandleInfoEXT {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
    pub handle: *mut c_void,
}

/// `VkMemoryGetMetalHandleInfoEXT`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemoryGetMetalHandleInfoEXT {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub memory: vk::DeviceMemory,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
}

/// `PFN_vkGetMemoryMetalHandleEXT`
pub type PfnGetMemoryMetalHandleEXT = unsafe extern "system" fn(
    device: vk::Device,
    p_get_metal_handle_info: *const MemoryGetMetalHandleInfoEXT,
    p_handle: *mut *mut c_void,
) -> vk::Result;

/// `VkMemoryMetalHandlePropertiesEXT`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemoryMetalHandlePropertiesEXT {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub memory_type_bits: u32,
}

/// `PFN_vkGetMemoryMetalHandlePropertiesEXT`
pub type PfnGetMemoryMetalHandlePropertiesEXT = unsafe extern "system" fn(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    p_handle: *const c_void,
    p_memory_metal_handle_properties: *mut MemoryMetalHandlePropertiesEXT,
) -> vk::Result;
