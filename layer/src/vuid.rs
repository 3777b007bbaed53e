//! Every ID the layer reports, as constants. `vuids/catalog.json` holds their severity and summary;
//! a unit test keeps the two in step.

// vkGetMemoryFdKHR (VK_KHR_external_memory_fd)
/// A stable 32-bit number for an ID (FNV-1a), for `messageIdNumber` and `messageCode`.
pub fn message_id_number(id: &str) -> i32 {
    let hash = id.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    hash as i32
}

pub const FD_DEVICE_PARAM: &str = "VUID-vkGetMemoryFdKHR-device-parameter";
pub const FD_INFO_PARAM: &str = "VUID-vkGetMemoryFdKHR-pGetFdInfo-parameter";
pub const FD_PFD_PARAM: &str = "VUID-vkGetMemoryFdKHR-pFd-parameter";
pub const FD_HANDLE_TYPE_00671: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";
pub const FD_HANDLE_TYPE_00672: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00672";
pub const FD_STYPE: &str = "VUID-VkMemoryGetFdInfoKHR-sType-sType";
pub const FD_PNEXT: &str = "VUID-VkMemoryGetFdInfoKHR-pNext-pNext";
pub const FD_MEMORY_PARAM: &str = "VUID-VkMemoryGetFdInfoKHR-memory-parameter";
pub const FD_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-parameter";

// vkGetMemoryRemoteAddressNV (VK_NV_external_memory_rdma)
pub const RDMA_DEVICE_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-device-parameter";
pub const RDMA_INFO_PARAM: &str =
    "VUID-vkGetMemoryRemoteAddressNV-pMemoryGetRemoteAddressInfo-parameter";
pub const RDMA_PADDRESS_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-pAddress-parameter";
pub const RDMA_HANDLE_TYPE_04966: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966";
pub const RDMA_STYPE: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-sType-sType";
pub const RDMA_PNEXT: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-pNext-pNext";
pub const RDMA_MEMORY_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-memory-parameter";
pub const RDMA_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-parameter";

// vkGetMemoryWin32HandleNV (VK_NV_external_memory_win32)
pub const WIN32_HANDLE_TYPE_01326: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-01326";
pub const WIN32_DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-device-parameter";
pub const WIN32_MEMORY_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parameter";
pub const WIN32_HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-parameter";
pub const WIN32_HANDLE_TYPE_REQUIRED: &str =
    "VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask";
pub const WIN32_PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-pHandle-parameter";
pub const WIN32_MEMORY_PARENT: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parent";

// vkGetMemoryMetalHandleEXT (VK_EXT_external_memory_metal)
pub const METAL_DEVICE_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-device-parameter";
pub const METAL_INFO_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-pGetMetalHandleInfo-parameter";
pub const METAL_PHANDLE_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-pHandle-parameter";
pub const METAL_MEMORY_10413: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413";
pub const METAL_HANDLE_TYPE_10414: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414";
pub const METAL_HANDLE_TYPE_10415: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415";
pub const METAL_STYPE: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-sType-sType";
pub const METAL_PNEXT: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-pNext-pNext";
pub const METAL_MEMORY_PARAM: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-memory-parameter";
pub const METAL_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-parameter";

// vkGetMemoryWin32HandleKHR (VK_KHR_external_memory_win32)
pub const WIN32_KHR_DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleKHR-device-parameter";
pub const WIN32_KHR_INFO_PARAM: &str =
    "VUID-vkGetMemoryWin32HandleKHR-pGetWin32HandleInfo-parameter";
pub const WIN32_KHR_PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleKHR-pHandle-parameter";
pub const WIN32_KHR_HANDLE_TYPE_00662: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00662";
pub const WIN32_KHR_HANDLE_TYPE_00663: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663";
pub const WIN32_KHR_HANDLE_TYPE_00664: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00664";
pub const WIN32_KHR_STYPE: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-sType-sType";
pub const WIN32_KHR_PNEXT: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-pNext-pNext";
pub const WIN32_KHR_MEMORY_PARAM: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-memory-parameter";
pub const WIN32_KHR_HANDLE_TYPE_PARAM: &str =
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-parameter";

// vkGetMemoryZirconHandleFUCHSIA (VK_FUCHSIA_external_memory)
pub const ZIRCON_DEVICE_PARAM: &str = "VUID-vkGetMemoryZirconHandleFUCHSIA-device-parameter";
pub const ZIRCON_INFO_PARAM: &str =
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter";
pub const ZIRCON_PHANDLE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pZirconHandle-parameter";
pub const ZIRCON_HANDLE_TYPE_04775: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04775";
pub const ZIRCON_HANDLE_TYPE_04776: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04776";
pub const ZIRCON_STYPE: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-sType-sType";
pub const ZIRCON_PNEXT: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-pNext-pNext";
pub const ZIRCON_MEMORY_PARAM: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-memory-parameter";
pub const ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-parameter";

// vkGetMemoryAndroidHardwareBufferANDROID (VK_ANDROID_external_memory_android_hardware_buffer)
pub const AHB_DEVICE_PARAM: &str = "VUID-vkGetMemoryAndroidHardwareBufferANDROID-device-parameter";
pub const AHB_INFO_PARAM: &str = "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pInfo-parameter";
pub const AHB_PBUFFER_PARAM: &str =
    "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pBuffer-parameter";
pub const AHB_HANDLE_TYPES_01882: &str =
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-handleTypes-01882";
pub const AHB_PNEXT_01883: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883";
pub const AHB_STYPE: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-sType-sType";
pub const AHB_PNEXT: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-pNext";
pub const AHB_MEMORY_PARAM: &str =
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-memory-parameter";
// vkGetMemoryFdPropertiesKHR (VK_KHR_external_memory_fd)
pub const FD_PROPS_DEVICE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-device-parameter";
pub const FD_PROPS_FD_00673: &str = "VUID-vkGetMemoryFdPropertiesKHR-fd-00673";
pub const FD_PROPS_HANDLE_TYPE_00674: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-00674";
pub const FD_PROPS_HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-parameter";
pub const FD_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryFdPropertiesKHR-pMemoryFdProperties-parameter";
pub const FD_PROPS_STYPE: &str = "VUID-VkMemoryFdPropertiesKHR-sType-sType";
pub const FD_PROPS_PNEXT: &str = "VUID-VkMemoryFdPropertiesKHR-pNext-pNext";

// vkGetMemoryHostPointerPropertiesEXT (VK_EXT_external_memory_host)
pub const HOST_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-device-parameter";
pub const HOST_PROPS_HANDLE_TYPE_01752: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-01752";
pub const HOST_PROPS_POINTER_01753: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pHostPointer-01753";
pub const HOST_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-parameter";
pub const HOST_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pMemoryHostPointerProperties-parameter";
pub const HOST_PROPS_STYPE: &str = "VUID-VkMemoryHostPointerPropertiesEXT-sType-sType";
pub const HOST_PROPS_PNEXT: &str = "VUID-VkMemoryHostPointerPropertiesEXT-pNext-pNext";

// vkGetMemoryMetalHandlePropertiesEXT (VK_EXT_external_memory_metal)
pub const METAL_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-device-parameter";
pub const METAL_PROPS_HANDLE_10416: &str = "VUID-vkGetMemoryMetalHandlePropertiesEXT-handle-10416";
pub const METAL_PROPS_HANDLE_TYPE_10417: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-10417";
pub const METAL_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-parameter";
pub const METAL_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-pMemoryMetalHandleProperties-parameter";
pub const METAL_PROPS_STYPE: &str = "VUID-VkMemoryMetalHandlePropertiesEXT-sType-sType";
pub const METAL_PROPS_PNEXT: &str = "VUID-VkMemoryMetalHandlePropertiesEXT-pNext-pNext";

// vkGetMemoryWin32HandlePropertiesKHR (VK_KHR_external_memory_win32)
pub const WIN32_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-device-parameter";
pub const WIN32_PROPS_HANDLE_00665: &str = "VUID-vkGetMemoryWin32HandlePropertiesKHR-handle-00665";
pub const WIN32_PROPS_HANDLE_TYPE_00666: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-00666";
pub const WIN32_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-parameter";
pub const WIN32_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-pMemoryWin32HandleProperties-parameter";
pub const WIN32_PROPS_STYPE: &str = "VUID-VkMemoryWin32HandlePropertiesKHR-sType-sType";
pub const WIN32_PROPS_PNEXT: &str = "VUID-VkMemoryWin32HandlePropertiesKHR-pNext-pNext";

// vkGetMemoryZirconHandlePropertiesFUCHSIA (VK_FUCHSIA_external_memory)
pub const ZIRCON_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-device-parameter";
pub const ZIRCON_PROPS_HANDLE_TYPE_04773: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-04773";
pub const ZIRCON_PROPS_HANDLE_04774: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-zirconHandle-04774";
pub const ZIRCON_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-parameter";
pub const ZIRCON_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-pMemoryZirconHandleProperties-parameter";
pub const ZIRCON_PROPS_STYPE: &str = "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-sType-sType";
pub const ZIRCON_PROPS_PNEXT: &str = "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-pNext-pNext";

// vkGetAndroidHardwareBufferPropertiesANDROID (VK_ANDROID_external_memory_android_hardware_buffer)
pub const AHB_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-device-parameter";
pub const AHB_PROPS_BUFFER_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-buffer-parameter";
pub const AHB_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-pProperties-parameter";
/// The spec's `VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType` is outside the
/// reference registry of the sharing surface: the layer's own ID.
pub const AHB_PROPS_WRONG_STYPE: &str = "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType";
/// The output structure's pNext chain loops (the spec's `-sType-unique` of the structure is
/// outside the reference registry): the layer's own ID.
pub const AHB_PROPS_CHAIN_LOOPS: &str =
    "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-unique";

// Host-pointer imports (VK_EXT_external_memory_host), at vkAllocateMemory
pub const IMPORT_HOST_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-parameter";
pub const IMPORT_HOST_HANDLE_TYPE_01748: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-01748";
pub const IMPORT_HOST_POINTER_01749: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_HOST_STYPE: &str = "VUID-VkImportMemoryHostPointerInfoEXT-sType-sType";
pub const ALLOC_SIZE_01745: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01745";
/// Against the driver's answer for the host pointer, which the layer asks itself.
pub const ALLOC_TYPE_INDEX_01744: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744";
/// Against the driver's answer for the Zircon VMO, which the layer asks itself.
pub const ALLOC_NONE_04749: &str = "VUID-VkMemoryAllocateInfo-None-04749";
pub const ALLOC_PNEXT_02805: &str = "VUID-VkMemoryAllocateInfo-pNext-02805";
pub const ALLOC_PNEXT_02806: &str = "VUID-VkMemoryAllocateInfo-pNext-02806";
pub const ALLOC_PNEXT_03332: &str = "VUID-VkMemoryAllocateInfo-pNext-03332";

// Win32 imports (VK_KHR_external_memory_win32, VK_NV_external_memory_win32), at vkAllocateMemory
pub const IMPORT_WIN32_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-parameter";
pub const IMPORT_WIN32_HANDLE_TYPE_00660: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00660";
pub const IMPORT_WIN32_HANDLE_TYPE_00661: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00661";
pub const IMPORT_WIN32_HANDLE_TYPE_01439: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01439";
pub const IMPORT_WIN32_HANDLE_TYPE_01440: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01440";
pub const IMPORT_WIN32_HANDLE_01441: &str = "VUID-VkImportMemoryWin32HandleInfoKHR-handle-01441";
pub const IMPORT_WIN32_HANDLE_TYPE_09861: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-09861";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_WIN32_STYPE: &str = "VUID-VkImportMemoryWin32HandleInfoKHR-sType-sType";
pub const IMPORT_WIN32_NV_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-parameter";
pub const IMPORT_WIN32_NV_HANDLE_TYPE_01327: &str =
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-01327";
pub const IMPORT_WIN32_NV_HANDLE_01328: &str = "VUID-VkImportMemoryWin32HandleInfoNV-handle-01328";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_WIN32_NV_STYPE: &str = "VUID-VkImportMemoryWin32HandleInfoNV-sType-sType";
pub const ALLOC_PNEXT_00641: &str = "VUID-VkMemoryAllocateInfo-pNext-00641";

// Zircon, Metal and Android hardware buffer imports, at vkAllocateMemory
pub const IMPORT_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-parameter";
pub const IMPORT_ZIRCON_HANDLE_TYPE_04771: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-04771";
pub const IMPORT_ZIRCON_HANDLE_04772: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handle-04772";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_ZIRCON_STYPE: &str = "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-sType-sType";
pub const ALLOC_SIZE_07902: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07902";
pub const IMPORT_METAL_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-parameter";
pub const IMPORT_METAL_HANDLE_TYPE_10410: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10410";
pub const IMPORT_METAL_HANDLE_TYPE_10411: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10411";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_METAL_STYPE: &str = "VUID-VkImportMemoryMetalHandleInfoEXT-sType-sType";
pub const ALLOC_PNEXT_10395: &str = "VUID-VkMemoryAllocateInfo-pNext-10395";
pub const ALLOC_PNEXT_10397: &str = "VUID-VkMemoryAllocateInfo-pNext-10397";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_AHB_STYPE: &str = "VUID-VkImportAndroidHardwareBufferInfoANDROID-sType-sType";

// vkAllocateMemory / vkFreeMemory
pub const ALLOC_DEVICE_PARAM: &str = "VUID-vkAllocateMemory-device-parameter";
pub const ALLOC_INFO_PARAM: &str = "VUID-vkAllocateMemory-pAllocateInfo-parameter";
pub const ALLOC_PMEMORY_PARAM: &str = "VUID-vkAllocateMemory-pMemory-parameter";
pub const ALLOC_TYPE_INDEX_01714: &str = "VUID-vkAllocateMemory-pAllocateInfo-01714";
pub const ALLOC_SIZE_01713: &str = "VUID-vkAllocateMemory-pAllocateInfo-01713";
pub const ALLOC_STYPE: &str = "VUID-VkMemoryAllocateInfo-sType-sType";
pub const FREE_DEVICE_PARAM: &str = "VUID-vkFreeMemory-device-parameter";
pub const ALLOC_PNEXT_00640: &str = "VUID-VkMemoryAllocateInfo-pNext-00640";
pub const ALLOC_STYPE_UNIQUE: &str = "VUID-VkMemoryAllocateInfo-sType-unique";
pub const ALLOC_PNEXT_PNEXT: &str = "VUID-VkMemoryAllocateInfo-pNext-pNext";
pub const ALLOC_SIZE_07899: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07899";
pub const ALLOC_PNEXT_01874: &str = "VUID-VkMemoryAllocateInfo-pNext-01874";
pub const ALLOC_PNEXT_07900: &str = "VUID-VkMemoryAllocateInfo-pNext-07900";
pub const ALLOC_PNEXT_07901: &str = "VUID-VkMemoryAllocateInfo-pNext-07901";
pub const ALLOC_SIZE_02383: &str = "VUID-VkMemoryAllocateInfo-allocationSize-02383";
pub const ALLOC_TYPE_INDEX_02385: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-02385";
pub const ALLOC_PNEXT_02387: &str = "VUID-VkMemoryAllocateInfo-pNext-02387";
pub const ALLOC_PNEXT_00639: &str = "VUID-VkMemoryAllocateInfo-pNext-00639";
pub const EXPORT_HANDLE_TYPES_PARAM: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-parameter";
pub const EXPORT_HANDLE_TYPES_09860: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-09860";
/// Met by construction: a chained structure is recognised by its sType, so a
/// VkExportMemoryAllocateInfo with another sType is another structure. Catalogued, never reported.
pub const EXPORT_STYPE: &str = "VUID-VkExportMemoryAllocateInfo-sType-sType";
/// Met by construction, as [`EXPORT_STYPE`].
pub const EXPORT_NV_STYPE: &str = "VUID-VkExportMemoryAllocateInfoNV-sType-sType";
pub const EXPORT_WIN32_HANDLE_TYPES_00657: &str =
    "VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657";
/// Met by construction, as [`EXPORT_STYPE`].
pub const EXPORT_WIN32_STYPE: &str = "VUID-VkExportMemoryWin32HandleInfoKHR-sType-sType";
pub const EXPORT_WIN32_NV_STYPE: &str = "VUID-VkExportMemoryWin32HandleInfoNV-sType-sType";
pub const EXPORT_NV_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter";
pub const ALLOC_NONE_06657: &str = "VUID-VkMemoryAllocateInfo-None-06657";
pub const IMPORT_FD_HANDLE_TYPE_00669: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-00669";
pub const IMPORT_FD_HANDLE_TYPE_00670: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-00670";
pub const IMPORT_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-parameter";
/// Met by construction, as [`EXPORT_STYPE`].
pub const IMPORT_FD_STYPE: &str = "VUID-VkImportMemoryFdInfoKHR-sType-sType";
pub const IMPORT_FD_00668: &str = "VUID-VkImportMemoryFdInfoKHR-fd-00668";
pub const IMPORT_FD_01746: &str = "VUID-VkImportMemoryFdInfoKHR-fd-01746";
pub const IMPORT_FD_01520: &str = "VUID-VkImportMemoryFdInfoKHR-fd-01520";
pub const IMPORT_FD_HANDLE_TYPE_09862: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-09862";
pub const ALLOC_NONE_00643: &str = "VUID-VkMemoryAllocateInfo-None-00643";
pub const ALLOC_NONE_00644: &str = "VUID-VkMemoryAllocateInfo-None-00644";
pub const ALLOC_SIZE_01742: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01742";
pub const ALLOC_SIZE_01743: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01743";
pub const DEDICATED_IMAGE_01432: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01432";
pub const DEDICATED_IMAGE_01434: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01434";
pub const DEDICATED_IMAGE_01797: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01797";
pub const DEDICATED_BUFFER_01436: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01436";
/// Met by construction, as [`EXPORT_STYPE`].
pub const DEDICATED_STYPE: &str = "VUID-VkMemoryDedicatedAllocateInfo-sType-sType";
pub const DEDICATED_IMAGE_01878: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01878";
pub const DEDICATED_BUFFER_01879: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01879";
pub const DEDICATED_IMAGE_01876: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01876";
pub const DEDICATED_BUFFER_01877: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01877";
pub const DEDICATED_IMAGE_PARAM: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-parameter";
pub const DEDICATED_BUFFER_PARAM: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-parameter";
pub const DEDICATED_COMMONPARENT: &str = "VUID-VkMemoryDedicatedAllocateInfo-commonparent";
pub const DEDICATED_IMAGE_02964: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-02964";
pub const DEDICATED_BUFFER_02965: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-02965";
pub const FREE_MEMORY_PARAM: &str = "VUID-vkFreeMemory-memory-parameter";
pub const FREE_MEMORY_PARENT: &str = "VUID-vkFreeMemory-memory-parent";
pub const ALLOC_FLAGS_03330: &str = "VUID-VkMemoryAllocateInfo-flags-03330";
pub const ALLOC_FLAGS_03331: &str = "VUID-VkMemoryAllocateInfo-flags-03331";
pub const ALLOC_TYPE_INDEX_01872: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872";
pub const ALLOC_DEVICE_COHERENT_02790: &str = "VUID-vkAllocateMemory-deviceCoherentMemory-02790";
pub const ALLOC_TILE_MEMORY_HEAP_10976: &str = "VUID-vkAllocateMemory-tileMemoryHeap-10976";
pub const ALLOC_DEVICE_QUEUECOUNT: &str = "VUID-vkAllocateMemory-device-queuecount";
pub const ALLOC_SIZE_07897: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07897";
pub const ALLOC_CAPTURE_ADDRESS_03329: &str =
    "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329";
pub const ALLOC_CAPTURE_ADDRESS_03333: &str =
    "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333";
pub const ALLOC_MAX_COUNT_04101: &str = "VUID-vkAllocateMemory-maxMemoryAllocationCount-04101";

// vkBindBufferMemory(2) / vkBindImageMemory(2): the handle types of the bound memory against the
// resource's (rules/bind_handle_types.rs)
pub const BIND_BUFFER_MEMORY_02726: &str = "VUID-vkBindBufferMemory-memory-02726";
pub const BIND_BUFFER_MEMORY_02985: &str = "VUID-vkBindBufferMemory-memory-02985";
pub const BIND_BUFFER_MEMORY_02986: &str = "VUID-vkBindBufferMemory-memory-02986";
pub const BIND_BUFFER_INFO_02726: &str = "VUID-VkBindBufferMemoryInfo-memory-02726";
pub const BIND_BUFFER_INFO_02985: &str = "VUID-VkBindBufferMemoryInfo-memory-02985";
pub const BIND_BUFFER_INFO_02986: &str = "VUID-VkBindBufferMemoryInfo-memory-02986";
pub const BIND_IMAGE_MEMORY_02728: &str = "VUID-vkBindImageMemory-memory-02728";
pub const BIND_IMAGE_MEMORY_02989: &str = "VUID-vkBindImageMemory-memory-02989";
pub const BIND_IMAGE_MEMORY_02990: &str = "VUID-vkBindImageMemory-memory-02990";
pub const BIND_IMAGE_INFO_02728: &str = "VUID-VkBindImageMemoryInfo-memory-02728";
pub const BIND_IMAGE_INFO_02989: &str = "VUID-VkBindImageMemoryInfo-memory-02989";
pub const BIND_IMAGE_INFO_02990: &str = "VUID-VkBindImageMemoryInfo-memory-02990";

// The layer's own IDs.
pub const EXTENSION_NOT_ENABLED: &str = "EXPORTCHECK-extension-not-enabled";
pub const MEMORY_OF_OTHER_DEVICE: &str = "EXPORTCHECK-memory-of-other-device";
pub const RDMA_TYPE_NOT_CAPABLE: &str = "EXPORTCHECK-rdma-memory-type-not-rdma-capable";
pub const RDMA_FEATURE_NOT_ENABLED: &str = "EXPORTCHECK-rdma-feature-not-enabled";
pub const WIN32_MULTIPLE_BITS: &str = "EXPORTCHECK-win32nv-handle-type-multiple-bits";
pub const PNEXT_CHAIN_TOO_LONG: &str = "EXPORTCHECK-pnext-chain-too-long";
pub const INTERNAL_ERROR: &str = "EXPORTCHECK-internal-error";
pub const EXPORTED_FD_LEAKED: &str = "EXPORTCHECK-exported-fd-leaked";
pub const FD_IMPORTED_TWICE: &str = "EXPORTCHECK-fd-imported-twice";
pub const FD_CLOSED_AFTER_IMPORT: &str = "EXPORTCHECK-fd-closed-after-import";
pub const SHARED_EXPORTS_IGNORED: &str = "EXPORTCHECK-shared-exports-ignored";
pub const KCMP_REFUSED: &str = "EXPORTCHECK-kcmp-refused";

// Driver-contract checks: what the driver returned.
pub const DRIVER_INVALID_FD: &str = "EXPORTCHECK-driver-invalid-fd";
pub const DRIVER_FD_NOT_CLOEXEC: &str = "EXPORTCHECK-driver-fd-not-cloexec";
pub const DRIVER_FD_NOT_NEW: &str = "EXPORTCHECK-driver-fd-not-new";
pub const DRIVER_NULL_REMOTE_ADDRESS: &str = "EXPORTCHECK-driver-null-remote-address";
pub const DRIVER_NULL_WIN32_HANDLE: &str = "EXPORTCHECK-driver-null-win32-handle";
pub const DRIVER_NULL_METAL_HANDLE: &str = "EXPORTCHECK-driver-null-metal-handle";
pub const DRIVER_NULL_WIN32_HANDLE_KHR: &str = "EXPORTCHECK-driver-null-win32-handle-khr";
pub const DRIVER_INVALID_ZIRCON_HANDLE: &str = "EXPORTCHECK-driver-invalid-zircon-handle";
pub const DRIVER_NULL_ANDROID_HARDWARE_BUFFER: &str =
    "EXPORTCHECK-driver-null-android-hardware-buffer";

/// Every constant above, for the catalog cross-check and for the coverage tool.
pub const ALL: &[&str] = &[
    FD_DEVICE_PARAM,
    FD_INFO_PARAM,
    FD_PFD_PARAM,
    FD_HANDLE_TYPE_00671,
    FD_HANDLE_TYPE_00672,
    FD_STYPE,
    FD_PNEXT,
    FD_MEMORY_PARAM,
    FD_HANDLE_TYPE_PARAM,
    RDMA_DEVICE_PARAM,
    RDMA_INFO_PARAM,
    RDMA_PADDRESS_PARAM,
    RDMA_HANDLE_TYPE_04966,
    RDMA_STYPE,
    RDMA_PNEXT,
    RDMA_MEMORY_PARAM,
    RDMA_HANDLE_TYPE_PARAM,
    WIN32_HANDLE_TYPE_01326,
    WIN32_DEVICE_PARAM,
    WIN32_MEMORY_PARAM,
    WIN32_HANDLE_TYPE_PARAM,
    WIN32_HANDLE_TYPE_REQUIRED,
    WIN32_PHANDLE_PARAM,
    WIN32_MEMORY_PARENT,
    METAL_DEVICE_PARAM,
    METAL_INFO_PARAM,
    METAL_PHANDLE_PARAM,
    METAL_MEMORY_10413,
    METAL_HANDLE_TYPE_10414,
    METAL_HANDLE_TYPE_10415,
    METAL_STYPE,
    METAL_PNEXT,
    METAL_MEMORY_PARAM,
    METAL_HANDLE_TYPE_PARAM,
    WIN32_KHR_DEVICE_PARAM,
    WIN32_KHR_INFO_PARAM,
    WIN32_KHR_PHANDLE_PARAM,
    WIN32_KHR_HANDLE_TYPE_00662,
    WIN32_KHR_HANDLE_TYPE_00663,
    WIN32_KHR_HANDLE_TYPE_00664,
    WIN32_KHR_STYPE,
    WIN32_KHR_PNEXT,
    WIN32_KHR_MEMORY_PARAM,
    WIN32_KHR_HANDLE_TYPE_PARAM,
    ZIRCON_DEVICE_PARAM,
    ZIRCON_INFO_PARAM,
    ZIRCON_PHANDLE_PARAM,
    ZIRCON_HANDLE_TYPE_04775,
    ZIRCON_HANDLE_TYPE_04776,
    ZIRCON_STYPE,
    ZIRCON_PNEXT,
    ZIRCON_MEMORY_PARAM,
    ZIRCON_HANDLE_TYPE_PARAM,
    AHB_DEVICE_PARAM,
    AHB_INFO_PARAM,
    AHB_PBUFFER_PARAM,
    AHB_HANDLE_TYPES_01882,
    AHB_PNEXT_01883,
    AHB_STYPE,
    AHB_PNEXT,
    AHB_MEMORY_PARAM,
    FD_PROPS_DEVICE_PARAM,
    FD_PROPS_FD_00673,
    FD_PROPS_HANDLE_TYPE_00674,
    FD_PROPS_HANDLE_TYPE_PARAM,
    FD_PROPS_OUTPUT_PARAM,
    FD_PROPS_STYPE,
    FD_PROPS_PNEXT,
    HOST_PROPS_DEVICE_PARAM,
    HOST_PROPS_HANDLE_TYPE_01752,
    HOST_PROPS_POINTER_01753,
    HOST_PROPS_HANDLE_TYPE_PARAM,
    HOST_PROPS_OUTPUT_PARAM,
    HOST_PROPS_STYPE,
    HOST_PROPS_PNEXT,
    METAL_PROPS_DEVICE_PARAM,
    METAL_PROPS_HANDLE_10416,
    METAL_PROPS_HANDLE_TYPE_10417,
    METAL_PROPS_HANDLE_TYPE_PARAM,
    METAL_PROPS_OUTPUT_PARAM,
    METAL_PROPS_STYPE,
    METAL_PROPS_PNEXT,
    WIN32_PROPS_DEVICE_PARAM,
    WIN32_PROPS_HANDLE_00665,
    WIN32_PROPS_HANDLE_TYPE_00666,
    WIN32_PROPS_HANDLE_TYPE_PARAM,
    WIN32_PROPS_OUTPUT_PARAM,
    WIN32_PROPS_STYPE,
    WIN32_PROPS_PNEXT,
    ZIRCON_PROPS_DEVICE_PARAM,
    ZIRCON_PROPS_HANDLE_TYPE_04773,
    ZIRCON_PROPS_HANDLE_04774,
    ZIRCON_PROPS_HANDLE_TYPE_PARAM,
    ZIRCON_PROPS_OUTPUT_PARAM,
    ZIRCON_PROPS_STYPE,
    ZIRCON_PROPS_PNEXT,
    AHB_PROPS_DEVICE_PARAM,
    AHB_PROPS_BUFFER_PARAM,
    AHB_PROPS_OUTPUT_PARAM,
    AHB_PROPS_WRONG_STYPE,
    AHB_PROPS_CHAIN_LOOPS,
    IMPORT_HOST_HANDLE_TYPE_PARAM,
    IMPORT_HOST_HANDLE_TYPE_01748,
    IMPORT_HOST_POINTER_01749,
    IMPORT_HOST_STYPE,
    ALLOC_SIZE_01745,
    ALLOC_TYPE_INDEX_01744,
    ALLOC_NONE_04749,
    ALLOC_PNEXT_02805,
    ALLOC_PNEXT_02806,
    ALLOC_PNEXT_03332,
    IMPORT_WIN32_HANDLE_TYPE_PARAM,
    IMPORT_WIN32_HANDLE_TYPE_00660,
    IMPORT_WIN32_HANDLE_TYPE_09861,
    IMPORT_WIN32_HANDLE_TYPE_00661,
    IMPORT_WIN32_HANDLE_TYPE_01439,
    IMPORT_WIN32_HANDLE_TYPE_01440,
    IMPORT_WIN32_HANDLE_01441,
    IMPORT_WIN32_STYPE,
    IMPORT_WIN32_NV_HANDLE_TYPE_PARAM,
    IMPORT_WIN32_NV_HANDLE_TYPE_01327,
    IMPORT_WIN32_NV_HANDLE_01328,
    IMPORT_WIN32_NV_STYPE,
    ALLOC_PNEXT_00641,
    IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
    IMPORT_ZIRCON_HANDLE_TYPE_04771,
    IMPORT_ZIRCON_HANDLE_04772,
    IMPORT_ZIRCON_STYPE,
    ALLOC_SIZE_07902,
    IMPORT_METAL_HANDLE_TYPE_PARAM,
    IMPORT_METAL_HANDLE_TYPE_10410,
    IMPORT_METAL_HANDLE_TYPE_10411,
    IMPORT_METAL_STYPE,
    ALLOC_PNEXT_10395,
    ALLOC_PNEXT_10397,
    IMPORT_AHB_STYPE,
    ALLOC_DEVICE_PARAM,
    ALLOC_INFO_PARAM,
    ALLOC_TYPE_INDEX_01714,
    ALLOC_SIZE_01713,
    ALLOC_PMEMORY_PARAM,
    ALLOC_STYPE,
    FREE_DEVICE_PARAM,
    ALLOC_PNEXT_00640,
    ALLOC_STYPE_UNIQUE,
    ALLOC_PNEXT_PNEXT,
    ALLOC_SIZE_07899,
    ALLOC_PNEXT_01874,
    ALLOC_PNEXT_07900,
    ALLOC_PNEXT_07901,
    ALLOC_SIZE_02383,
    ALLOC_TYPE_INDEX_02385,
    ALLOC_PNEXT_02387,
    ALLOC_PNEXT_00639,
    EXPORT_HANDLE_TYPES_PARAM,
    EXPORT_HANDLE_TYPES_09860,
    EXPORT_STYPE,
    EXPORT_NV_STYPE,
    EXPORT_NV_HANDLE_TYPES_PARAM,
    EXPORT_WIN32_HANDLE_TYPES_00657,
    EXPORT_WIN32_STYPE,
    EXPORT_WIN32_NV_STYPE,
    ALLOC_NONE_06657,
    IMPORT_FD_HANDLE_TYPE_00669,
    IMPORT_FD_HANDLE_TYPE_00670,
    IMPORT_FD_HANDLE_TYPE_PARAM,
    IMPORT_FD_STYPE,
    IMPORT_FD_00668,
    IMPORT_FD_01746,
    IMPORT_FD_01520,
    IMPORT_FD_HANDLE_TYPE_09862,
    ALLOC_NONE_00643,
    ALLOC_NONE_00644,
    ALLOC_SIZE_01742,
    ALLOC_SIZE_01743,
    DEDICATED_IMAGE_01432,
    DEDICATED_IMAGE_01434,
    DEDICATED_IMAGE_01797,
    DEDICATED_BUFFER_01436,
    DEDICATED_STYPE,
    DEDICATED_IMAGE_01878,
    DEDICATED_BUFFER_01879,
    DEDICATED_IMAGE_01876,
    DEDICATED_BUFFER_01877,
    DEDICATED_IMAGE_PARAM,
    DEDICATED_BUFFER_PARAM,
    DEDICATED_COMMONPARENT,
    DEDICATED_IMAGE_02964,
    DEDICATED_BUFFER_02965,
    FREE_MEMORY_PARAM,
    FREE_MEMORY_PARENT,
    ALLOC_FLAGS_03330,
    ALLOC_FLAGS_03331,
    ALLOC_TYPE_INDEX_01872,
    ALLOC_DEVICE_COHERENT_02790,
    ALLOC_TILE_MEMORY_HEAP_10976,
    ALLOC_DEVICE_QUEUECOUNT,
    ALLOC_SIZE_07897,
    ALLOC_CAPTURE_ADDRESS_03329,
    ALLOC_CAPTURE_ADDRESS_03333,
    ALLOC_MAX_COUNT_04101,
    BIND_BUFFER_MEMORY_02726,
    BIND_BUFFER_MEMORY_02985,
    BIND_BUFFER_MEMORY_02986,
    BIND_BUFFER_INFO_02726,
    BIND_BUFFER_INFO_02985,
    BIND_BUFFER_INFO_02986,
    BIND_IMAGE_MEMORY_02728,
    BIND_IMAGE_MEMORY_02989,
    BIND_IMAGE_MEMORY_02990,
    BIND_IMAGE_INFO_02728,
    BIND_IMAGE_INFO_02989,
    BIND_IMAGE_INFO_02990,
    EXTENSION_NOT_ENABLED,
    MEMORY_OF_OTHER_DEVICE,
    RDMA_TYPE_NOT_CAPABLE,
    RDMA_FEATURE_NOT_ENABLED,
    WIN32_MULTIPLE_BITS,
    PNEXT_CHAIN_TOO_LONG,
    INTERNAL_ERROR,
    EXPORTED_FD_LEAKED,
    FD_IMPORTED_TWICE,
    FD_CLOSED_AFTER_IMPORT,
    SHARED_EXPORTS_IGNORED,
    KCMP_REFUSED,
    DRIVER_INVALID_FD,
    DRIVER_FD_NOT_CLOEXEC,
    DRIVER_FD_NOT_NEW,
    DRIVER_NULL_REMOTE_ADDRESS,
    DRIVER_NULL_WIN32_HANDLE,
    DRIVER_NULL_METAL_HANDLE,
    DRIVER_NULL_WIN32_HANDLE_KHR,
    DRIVER_INVALID_ZIRCON_HANDLE,
    DRIVER_NULL_ANDROID_HARDWARE_BUFFER,
];
