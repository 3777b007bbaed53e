//! The IDs, spelled out as users see them (not taken from the layer, so a renamed constant there
//! cannot silently change what is modelled or tested). One constant per ID, named as the layer
//! names it: the command's prefix (`FD_`, `RDMA_`, `WIN32_`, `METAL_`, `ALLOC_`, `EXPORT_`,
//! `FREE_`), then the field and the rule. A unit test checks that each is in
//! `vuids/catalog.json`, and so does `expect::only` in the end-to-end tests.

// vkGetMemoryFdKHR
pub const FD_DEVICE_PARAM: &str = "VUID-vkGetMemoryFdKHR-device-parameter";
pub const FD_INFO_PARAM: &str = "VUID-vkGetMemoryFdKHR-pGetFdInfo-parameter";
pub const FD_PFD_PARAM: &str = "VUID-vkGetMemoryFdKHR-pFd-parameter";
pub const FD_STYPE: &str = "VUID-VkMemoryGetFdInfoKHR-sType-sType";
pub const FD_PNEXT: &str = "VUID-VkMemoryGetFdInfoKHR-pNext-pNext";
pub const FD_MEMORY_PARAM: &str = "VUID-VkMemoryGetFdInfoKHR-memory-parameter";
pub const FD_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-parameter";
pub const FD_HANDLE_TYPE_00671: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";
pub const FD_HANDLE_TYPE_00672: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00672";

// vkGetMemoryRemoteAddressNV
pub const RDMA_DEVICE_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-device-parameter";
pub const RDMA_INFO_PARAM: &str =
    "VUID-vkGetMemoryRemoteAddressNV-pMemoryGetRemoteAddressInfo-parameter";
pub const RDMA_PADDRESS_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-pAddress-parameter";
pub const RDMA_STYPE: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-sType-sType";
pub const RDMA_PNEXT: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-pNext-pNext";
pub const RDMA_MEMORY_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-memory-parameter";
pub const RDMA_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-parameter";
pub const RDMA_HANDLE_TYPE_04966: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966";

// vkGetMemoryWin32HandleNV
pub const WIN32_DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-device-parameter";
pub const WIN32_MEMORY_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parameter";
pub const WIN32_MEMORY_PARENT: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parent";
pub const WIN32_HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-parameter";
pub const WIN32_HANDLE_TYPE_REQUIRED: &str =
    "VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask";
pub const WIN32_HANDLE_TYPE_01326: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-01326";
pub const WIN32_PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-pHandle-parameter";

// vkGetMemoryMetalHandleEXT
pub const METAL_DEVICE_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-device-parameter";
pub const METAL_INFO_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-pGetMetalHandleInfo-parameter";
pub const METAL_PHANDLE_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-pHandle-parameter";
pub const METAL_STYPE: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-sType-sType";
pub const METAL_PNEXT: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-pNext-pNext";
pub const METAL_MEMORY_PARAM: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-memory-parameter";
pub const METAL_MEMORY_10413: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413";
pub const METAL_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-parameter";
pub const METAL_HANDLE_TYPE_10414: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414";
pub const METAL_HANDLE_TYPE_10415: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415";

// vkGetMemoryWin32HandleKHR
pub const WIN32_KHR_DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleKHR-device-parameter";
pub const WIN32_KHR_INFO_PARAM: &str =
    "VUID-vkGetMemoryWin32HandleKHR-pGetWin32HandleInfo-parameter";
pub const WIN32_KHR_PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleKHR-pHandle-parameter";
pub const WIN32_KHR_STYPE: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-sType-sType";
pub const WIN32_KHR_PNEXT: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-pNext-pNext";
pub const WIN32_KHR_MEMORY_PARAM: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-memory-parameter";
pub const WIN32_KHR_HANDLE_TYPE_PARAM: &str =
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-parameter";
pub const WIN32_KHR_HANDLE_TYPE_00662: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00662";
pub const WIN32_KHR_HANDLE_TYPE_00663: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663";
pub const WIN32_KHR_HANDLE_TYPE_00664: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00664";

// vkGetMemoryZirconHandleFUCHSIA
pub const ZIRCON_DEVICE_PARAM: &str = "VUID-vkGetMemoryZirconHandleFUCHSIA-device-parameter";
pub const ZIRCON_INFO_PARAM: &str =
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter";
pub const ZIRCON_PHANDLE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pZirconHandle-parameter";
pub const ZIRCON_STYPE: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-sType-sType";
pub const ZIRCON_PNEXT: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-pNext-pNext";
pub const ZIRCON_MEMORY_PARAM: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-memory-parameter";
pub const ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-parameter";
pub const ZIRCON_HANDLE_TYPE_04775: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04775";
pub const ZIRCON_HANDLE_TYPE_04776: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04776";

// vkGetMemoryAndroidHardwareBufferANDROID
pub const AHB_DEVICE_PARAM: &str = "VUID-vkGetMemoryAndroidHardwareBufferANDROID-device-parameter";
pub const AHB_INFO_PARAM: &str = "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pInfo-parameter";
pub const AHB_PBUFFER_PARAM: &str =
    "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pBuffer-parameter";
pub const AHB_STYPE: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-sType-sType";
pub const AHB_PNEXT: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-pNext";
pub const AHB_MEMORY_PARAM: &str =
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-memory-parameter";
pub const AHB_HANDLE_TYPES_01882: &str =
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-handleTypes-01882";
pub const AHB_PNEXT_01883: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883";

// vkAllocateMemory / vkFreeMemory
pub const ALLOC_DEVICE_PARAM: &str = "VUID-vkAllocateMemory-device-parameter";
pub const ALLOC_INFO_PARAM: &str = "VUID-vkAllocateMemory-pAllocateInfo-parameter";
pub const ALLOC_PMEMORY_PARAM: &str = "VUID-vkAllocateMemory-pMemory-parameter";
pub const ALLOC_TYPE_INDEX_01714: &str = "VUID-vkAllocateMemory-pAllocateInfo-01714";
pub const ALLOC_SIZE_01713: &str = "VUID-vkAllocateMemory-pAllocateInfo-01713";
pub const ALLOC_STYPE: &str = "VUID-VkMemoryAllocateInfo-sType-sType";
pub const ALLOC_STYPE_UNIQUE: &str = "VUID-VkMemoryAllocateInfo-sType-unique";
pub const ALLOC_PNEXT_00640: &str = "VUID-VkMemoryAllocateInfo-pNext-00640";
pub const EXPORT_HANDLE_TYPES_PARAM: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-parameter";
pub const EXPORT_HANDLE_TYPES_09860: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-09860";
pub const EXPORT_WIN32_HANDLE_TYPES_00657: &str =
    "VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657";
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
pub const IMPORT_WIN32_NV_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-parameter";
pub const IMPORT_WIN32_NV_HANDLE_TYPE_01327: &str =
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-01327";
pub const IMPORT_WIN32_NV_HANDLE_01328: &str = "VUID-VkImportMemoryWin32HandleInfoNV-handle-01328";
pub const ALLOC_PNEXT_00641: &str = "VUID-VkMemoryAllocateInfo-pNext-00641";
pub const ALLOC_SIZE_01743: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01743";
pub const DEDICATED_IMAGE_01876: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01876";
pub const DEDICATED_BUFFER_01877: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01877";
pub const IMPORT_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-parameter";
pub const IMPORT_ZIRCON_HANDLE_TYPE_04771: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-04771";
pub const IMPORT_ZIRCON_HANDLE_04772: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handle-04772";
pub const ALLOC_SIZE_07902: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07902";
pub const IMPORT_METAL_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-parameter";
pub const IMPORT_METAL_HANDLE_TYPE_10410: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10410";
pub const IMPORT_METAL_HANDLE_TYPE_10411: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10411";
pub const ALLOC_PNEXT_10395: &str = "VUID-VkMemoryAllocateInfo-pNext-10395";
pub const ALLOC_PNEXT_10397: &str = "VUID-VkMemoryAllocateInfo-pNext-10397";
pub const EXPORT_NV_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter";
pub const ALLOC_NONE_06657: &str = "VUID-VkMemoryAllocateInfo-None-06657";
// VkImportMemoryHostPointerInfoEXT, and the allocation's host-pointer import rules
pub const IMPORT_HOST_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-parameter";
pub const IMPORT_HOST_HANDLE_TYPE_01748: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-01748";
pub const IMPORT_HOST_POINTER_01749: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749";
pub const ALLOC_SIZE_01745: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01745";
pub const ALLOC_PNEXT_02805: &str = "VUID-VkMemoryAllocateInfo-pNext-02805";
pub const ALLOC_PNEXT_02806: &str = "VUID-VkMemoryAllocateInfo-pNext-02806";
pub const IMPORT_FD_HANDLE_TYPE_00669: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-00669";
pub const IMPORT_FD_HANDLE_TYPE_00670: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-00670";
pub const IMPORT_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-parameter";
pub const IMPORT_FD_00668: &str = "VUID-VkImportMemoryFdInfoKHR-fd-00668";
pub const IMPORT_FD_01746: &str = "VUID-VkImportMemoryFdInfoKHR-fd-01746";
pub const IMPORT_FD_01520: &str = "VUID-VkImportMemoryFdInfoKHR-fd-01520";
pub const IMPORT_FD_HANDLE_TYPE_09862: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-09862";
pub const ALLOC_NONE_00643: &str = "VUID-VkMemoryAllocateInfo-None-00643";
pub const ALLOC_NONE_00644: &str = "VUID-VkMemoryAllocateInfo-None-00644";
pub const ALLOC_TYPE_INDEX_01744: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744";
pub const ALLOC_NONE_04749: &str = "VUID-VkMemoryAllocateInfo-None-04749";
pub const ALLOC_SIZE_01742: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01742";
pub const DEDICATED_IMAGE_01432: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01432";
pub const DEDICATED_IMAGE_01434: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01434";
pub const DEDICATED_IMAGE_01797: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01797";
pub const DEDICATED_BUFFER_01436: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01436";
pub const DEDICATED_IMAGE_01878: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01878";
pub const DEDICATED_BUFFER_01879: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01879";
pub const DEDICATED_IMAGE_PARAM: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-parameter";
pub const DEDICATED_BUFFER_PARAM: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-parameter";
pub const DEDICATED_COMMONPARENT: &str = "VUID-VkMemoryDedicatedAllocateInfo-commonparent";
pub const DEDICATED_IMAGE_02964: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-02964";
pub const DEDICATED_BUFFER_02965: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-02965";
pub const FREE_DEVICE_PARAM: &str = "VUID-vkFreeMemory-device-parameter";
pub const FREE_MEMORY_PARAM: &str = "VUID-vkFreeMemory-memory-parameter";
pub const FREE_MEMORY_PARENT: &str = "VUID-vkFreeMemory-memory-parent";

// The handle-property queries: vkGetMemoryFdPropertiesKHR, vkGetMemoryHostPointerPropertiesEXT,
// vkGetMemoryMetalHandlePropertiesEXT, vkGetMemoryWin32HandlePropertiesKHR,
// vkGetMemoryZirconHandlePropertiesFUCHSIA, vkGetAndroidHardwareBufferPropertiesANDROID.
pub const FD_PROPS_DEVICE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-device-parameter";
pub const FD_PROPS_FD_00673: &str = "VUID-vkGetMemoryFdPropertiesKHR-fd-00673";
pub const FD_PROPS_HANDLE_TYPE_00674: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-00674";
pub const FD_PROPS_HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-parameter";
pub const FD_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryFdPropertiesKHR-pMemoryFdProperties-parameter";
pub const FD_PROPS_STYPE: &str = "VUID-VkMemoryFdPropertiesKHR-sType-sType";
pub const FD_PROPS_PNEXT: &str = "VUID-VkMemoryFdPropertiesKHR-pNext-pNext";
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
pub const AHB_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-device-parameter";
pub const AHB_PROPS_BUFFER_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-buffer-parameter";
pub const AHB_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-pProperties-parameter";
pub const AHB_PROPS_STYPE: &str = "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType";
pub const AHB_PROPS_STYPE_UNIQUE: &str =
    "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-unique";

// The layer's own IDs.
pub const EXTENSION_NOT_ENABLED: &str = "EXPORTCHECK-extension-not-enabled";
pub const MEMORY_OF_OTHER_DEVICE: &str = "EXPORTCHECK-memory-of-other-device";
pub const PNEXT_CHAIN_TOO_LONG: &str = "EXPORTCHECK-pnext-chain-too-long";
pub const RDMA_TYPE_NOT_CAPABLE: &str = "EXPORTCHECK-rdma-memory-type-not-rdma-capable";
pub const RDMA_FEATURE_NOT_ENABLED: &str = "EXPORTCHECK-rdma-feature-not-enabled";
pub const WIN32_MULTIPLE_BITS: &str = "EXPORTCHECK-win32nv-handle-type-multiple-bits";

// The layer's driver-contract warnings: what the driver returned.
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

// The layer's own failure (a caught panic).
pub const INTERNAL_ERROR: &str = "EXPORTCHECK-internal-error";

// Exported fds never closed nor imported.
pub const EXPORTED_FD_LEAKED: &str = "EXPORTCHECK-exported-fd-leaked";
/// An fd a successful import handed to the driver, imported again.
pub const FD_IMPORTED_TWICE: &str = "EXPORTCHECK-fd-imported-twice";
pub const FD_OF_ANOTHER_KIND: &str = "EXPORTCHECK-fd-of-another-kind";
pub const FD_CLOSED_AFTER_IMPORT: &str = "EXPORTCHECK-fd-closed-after-import";
pub const SHARED_EXPORTS_IGNORED: &str = "EXPORTCHECK-shared-exports-ignored";
pub const KCMP_REFUSED: &str = "EXPORTCHECK-kcmp-refused";

// Commands, as the messages name them.
pub const GET_FD: &str = "vkGetMemoryFdKHR";
pub const GET_REMOTE_ADDRESS: &str = "vkGetMemoryRemoteAddressNV";
pub const GET_WIN32_HANDLE: &str = "vkGetMemoryWin32HandleNV";
pub const GET_METAL_HANDLE: &str = "vkGetMemoryMetalHandleEXT";
pub const GET_WIN32_HANDLE_KHR: &str = "vkGetMemoryWin32HandleKHR";
pub const GET_ZIRCON_HANDLE: &str = "vkGetMemoryZirconHandleFUCHSIA";
pub const GET_ANDROID_HARDWARE_BUFFER: &str = "vkGetMemoryAndroidHardwareBufferANDROID";
pub const ALLOCATE: &str = "vkAllocateMemory";
pub const FREE: &str = "vkFreeMemory";
pub const GET_FD_PROPERTIES: &str = "vkGetMemoryFdPropertiesKHR";
pub const GET_HOST_POINTER_PROPERTIES: &str = "vkGetMemoryHostPointerPropertiesEXT";
pub const GET_METAL_HANDLE_PROPERTIES: &str = "vkGetMemoryMetalHandlePropertiesEXT";
pub const GET_WIN32_HANDLE_PROPERTIES: &str = "vkGetMemoryWin32HandlePropertiesKHR";
pub const GET_ZIRCON_HANDLE_PROPERTIES: &str = "vkGetMemoryZirconHandlePropertiesFUCHSIA";
pub const GET_ANDROID_HARDWARE_BUFFER_PROPERTIES: &str =
    "vkGetAndroidHardwareBufferPropertiesANDROID";

// Exported memory against its buffer or image, the allocation's own export rules
pub const ALLOC_PNEXT_PNEXT: &str = "VUID-VkMemoryAllocateInfo-pNext-pNext";
pub const ALLOC_SIZE_07899: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07899";
pub const ALLOC_PNEXT_01874: &str = "VUID-VkMemoryAllocateInfo-pNext-01874";
pub const ALLOC_PNEXT_07900: &str = "VUID-VkMemoryAllocateInfo-pNext-07900";
pub const ALLOC_PNEXT_07901: &str = "VUID-VkMemoryAllocateInfo-pNext-07901";
pub const ALLOC_SIZE_02383: &str = "VUID-VkMemoryAllocateInfo-allocationSize-02383";
pub const ALLOC_TYPE_INDEX_02385: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-02385";
pub const ALLOC_PNEXT_02387: &str = "VUID-VkMemoryAllocateInfo-pNext-02387";
pub const ALLOC_SIZE_07897: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07897";
pub const ALLOC_TYPE_INDEX_01872: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872";
pub const ALLOC_DEVICE_COHERENT_02790: &str = "VUID-vkAllocateMemory-deviceCoherentMemory-02790";
pub const ALLOC_PNEXT_00639: &str = "VUID-VkMemoryAllocateInfo-pNext-00639";
pub const BIND_BUFFER: &str = "vkBindBufferMemory";
pub const BIND_BUFFER2: &str = "vkBindBufferMemory2";
pub const BIND_IMAGE: &str = "vkBindImageMemory";
pub const BIND_IMAGE2: &str = "vkBindImageMemory2";

// The handle types of memory bound to a buffer or image against the resource's
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

// vkGetSemaphoreFdKHR
pub const GET_SEMAPHORE_FD: &str = "vkGetSemaphoreFdKHR";
pub const SEM_FD_DEVICE_PARAM: &str = "VUID-vkGetSemaphoreFdKHR-device-parameter";
pub const SEM_FD_INFO_PARAM: &str = "VUID-vkGetSemaphoreFdKHR-pGetFdInfo-parameter";
pub const SEM_FD_PFD_PARAM: &str = "VUID-vkGetSemaphoreFdKHR-pFd-parameter";
pub const SEM_FD_STYPE: &str = "VUID-VkSemaphoreGetFdInfoKHR-sType-sType";
pub const SEM_FD_PNEXT: &str = "VUID-VkSemaphoreGetFdInfoKHR-pNext-pNext";
pub const SEM_FD_SEMAPHORE_PARAM: &str = "VUID-VkSemaphoreGetFdInfoKHR-semaphore-parameter";
pub const SEM_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-parameter";
pub const SEM_FD_HANDLE_TYPE_01132: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-01132";
pub const SEM_FD_SEMAPHORE_01133: &str = "VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133";
pub const SEM_FD_HANDLE_TYPE_01136: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-01136";
pub const SEM_FD_HANDLE_TYPE_03253: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-03253";
pub const SEM_FD_HANDLE_TYPE_01135: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-01135";
pub const SEM_FD_HANDLE_TYPE_03254: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-03254";
pub const SEMAPHORE_OF_OTHER_DEVICE: &str = "EXPORTCHECK-semaphore-of-other-device";

// vkImportSemaphoreFdKHR
pub const IMPORT_SEMAPHORE_FD: &str = "vkImportSemaphoreFdKHR";
pub const SEM_IMPORT_FD_DEVICE_PARAM: &str = "VUID-vkImportSemaphoreFdKHR-device-parameter";
pub const SEM_IMPORT_FD_INFO_PARAM: &str =
    "VUID-vkImportSemaphoreFdKHR-pImportSemaphoreFdInfo-parameter";
pub const SEM_IMPORT_FD_STYPE: &str = "VUID-VkImportSemaphoreFdInfoKHR-sType-sType";
pub const SEM_IMPORT_FD_PNEXT: &str = "VUID-VkImportSemaphoreFdInfoKHR-pNext-pNext";
pub const SEM_IMPORT_FD_SEMAPHORE_PARAM: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-semaphore-parameter";
pub const SEM_IMPORT_FD_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-parameter";
pub const SEM_IMPORT_FD_FLAGS_PARAM: &str = "VUID-VkImportSemaphoreFdInfoKHR-flags-parameter";
pub const SEM_IMPORT_FD_HANDLE_TYPE_01143: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-01143";
pub const SEM_IMPORT_FD_HANDLE_TYPE_07307: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-07307";
pub const SEM_IMPORT_FD_HANDLE_TYPE_03263: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-03263";
pub const SEM_IMPORT_FD_HANDLE_TYPE_03264: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-03264";
pub const SEM_IMPORT_FD_FLAGS_03323: &str = "VUID-VkImportSemaphoreFdInfoKHR-flags-03323";
pub const SEM_IMPORT_FD_FD_01544: &str = "VUID-VkImportSemaphoreFdInfoKHR-fd-01544";
// vkGetSemaphoreWin32HandleKHR
pub const GET_SEMAPHORE_WIN32_HANDLE: &str = "vkGetSemaphoreWin32HandleKHR";
pub const SEM_WIN32_DEVICE_PARAM: &str = "VUID-vkGetSemaphoreWin32HandleKHR-device-parameter";
pub const SEM_WIN32_INFO_PARAM: &str =
    "VUID-vkGetSemaphoreWin32HandleKHR-pGetWin32HandleInfo-parameter";
pub const SEM_WIN32_PHANDLE_PARAM: &str = "VUID-vkGetSemaphoreWin32HandleKHR-pHandle-parameter";
pub const SEM_WIN32_STYPE: &str = "VUID-VkSemaphoreGetWin32HandleInfoKHR-sType-sType";
pub const SEM_WIN32_PNEXT: &str = "VUID-VkSemaphoreGetWin32HandleInfoKHR-pNext-pNext";
pub const SEM_WIN32_SEMAPHORE_PARAM: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-parameter";
pub const SEM_WIN32_HANDLE_TYPE_PARAM: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-parameter";
pub const SEM_WIN32_HANDLE_TYPE_01126: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01126";
pub const SEM_WIN32_SEMAPHORE_01128: &str = "VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-01128";
pub const SEM_WIN32_HANDLE_TYPE_01127: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01127";
pub const SEM_WIN32_HANDLE_TYPE_01131: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01131";

// vkGetSemaphoreZirconHandleFUCHSIA
pub const GET_SEMAPHORE_ZIRCON_HANDLE: &str = "vkGetSemaphoreZirconHandleFUCHSIA";
pub const SEM_ZIRCON_DEVICE_PARAM: &str = "VUID-vkGetSemaphoreZirconHandleFUCHSIA-device-parameter";
pub const SEM_ZIRCON_INFO_PARAM: &str =
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter";
pub const SEM_ZIRCON_PHANDLE_PARAM: &str =
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-pZirconHandle-parameter";
pub const SEM_ZIRCON_STYPE: &str = "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-sType-sType";
pub const SEM_ZIRCON_PNEXT: &str = "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-pNext-pNext";
pub const SEM_ZIRCON_SEMAPHORE_PARAM: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-parameter";
pub const SEM_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-parameter";
pub const SEM_ZIRCON_HANDLE_TYPE_04758: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04758";
pub const SEM_ZIRCON_SEMAPHORE_04759: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04759";
pub const SEM_ZIRCON_HANDLE_TYPE_04762: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04762";
pub const SEM_ZIRCON_SEMAPHORE_04763: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04763";

// vkCreateSemaphore
pub const EXPORT_SEM_WIN32_HANDLE_TYPES_01125: &str =
    "VUID-VkExportSemaphoreWin32HandleInfoKHR-handleTypes-01125";
// vkGetFenceFdKHR, vkGetFenceWin32HandleKHR, vkCreateFence
pub const GET_FENCE_FD: &str = "vkGetFenceFdKHR";
pub const FENCE_FD_DEVICE_PARAM: &str = "VUID-vkGetFenceFdKHR-device-parameter";
pub const FENCE_FD_INFO_PARAM: &str = "VUID-vkGetFenceFdKHR-pGetFdInfo-parameter";
pub const FENCE_FD_PFD_PARAM: &str = "VUID-vkGetFenceFdKHR-pFd-parameter";
pub const FENCE_FD_STYPE: &str = "VUID-VkFenceGetFdInfoKHR-sType-sType";
pub const FENCE_FD_PNEXT: &str = "VUID-VkFenceGetFdInfoKHR-pNext-pNext";
pub const FENCE_FD_FENCE_PARAM: &str = "VUID-VkFenceGetFdInfoKHR-fence-parameter";
pub const FENCE_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkFenceGetFdInfoKHR-handleType-parameter";
pub const FENCE_FD_HANDLE_TYPE_01453: &str = "VUID-VkFenceGetFdInfoKHR-handleType-01453";
pub const FENCE_FD_FENCE_01455: &str = "VUID-VkFenceGetFdInfoKHR-fence-01455";
pub const FENCE_FD_HANDLE_TYPE_01456: &str = "VUID-VkFenceGetFdInfoKHR-handleType-01456";
pub const FENCE_OF_OTHER_DEVICE: &str = "EXPORTCHECK-fence-of-other-device";
pub const GET_FENCE_WIN32: &str = "vkGetFenceWin32HandleKHR";
pub const FENCE_WIN32_DEVICE_PARAM: &str = "VUID-vkGetFenceWin32HandleKHR-device-parameter";
pub const FENCE_WIN32_INFO_PARAM: &str =
    "VUID-vkGetFenceWin32HandleKHR-pGetWin32HandleInfo-parameter";
pub const FENCE_WIN32_PHANDLE_PARAM: &str = "VUID-vkGetFenceWin32HandleKHR-pHandle-parameter";
pub const FENCE_WIN32_STYPE: &str = "VUID-VkFenceGetWin32HandleInfoKHR-sType-sType";
pub const FENCE_WIN32_PNEXT: &str = "VUID-VkFenceGetWin32HandleInfoKHR-pNext-pNext";
pub const FENCE_WIN32_FENCE_PARAM: &str = "VUID-VkFenceGetWin32HandleInfoKHR-fence-parameter";
pub const FENCE_WIN32_HANDLE_TYPE_PARAM: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-parameter";
pub const FENCE_WIN32_HANDLE_TYPE_01448: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01448";
pub const FENCE_WIN32_FENCE_01450: &str = "VUID-VkFenceGetWin32HandleInfoKHR-fence-01450";
pub const FENCE_WIN32_HANDLE_TYPE_01449: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01449";
pub const FENCE_WIN32_HANDLE_TYPE_01452: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01452";
pub const CREATE_FENCE: &str = "vkCreateFence";
pub const EXPORT_FENCE_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportFenceCreateInfo-handleTypes-parameter";
pub const EXPORT_FENCE_WIN32_HANDLE_TYPES_01447: &str =
    "VUID-VkExportFenceWin32HandleInfoKHR-handleTypes-01447";
// vkGetPhysicalDeviceExternalSemaphoreProperties, vkGetPhysicalDeviceExternalFenceProperties
pub const SEM_CAPS: &str = "vkGetPhysicalDeviceExternalSemaphoreProperties";
pub const SEM_CAPS_INFO_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalSemaphoreProperties-pExternalSemaphoreInfo-parameter";
pub const SEM_CAPS_PROPS_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalSemaphoreProperties-pExternalSemaphoreProperties-parameter";
pub const SEM_CAPS_INFO_STYPE: &str = "VUID-VkPhysicalDeviceExternalSemaphoreInfo-sType-sType";
pub const SEM_CAPS_INFO_PNEXT: &str = "VUID-VkPhysicalDeviceExternalSemaphoreInfo-pNext-pNext";
pub const SEM_CAPS_INFO_UNIQUE: &str = "VUID-VkPhysicalDeviceExternalSemaphoreInfo-sType-unique";
pub const SEM_CAPS_HANDLE_TYPE_PARAM: &str =
    "VUID-VkPhysicalDeviceExternalSemaphoreInfo-handleType-parameter";
pub const SEM_CAPS_PROPS_STYPE: &str = "VUID-VkExternalSemaphoreProperties-sType-sType";
pub const SEM_CAPS_PROPS_PNEXT: &str = "VUID-VkExternalSemaphoreProperties-pNext-pNext";
pub const FENCE_CAPS: &str = "vkGetPhysicalDeviceExternalFenceProperties";
pub const FENCE_CAPS_INFO_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalFenceProperties-pExternalFenceInfo-parameter";
pub const FENCE_CAPS_PROPS_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalFenceProperties-pExternalFenceProperties-parameter";
pub const FENCE_CAPS_INFO_STYPE: &str = "VUID-VkPhysicalDeviceExternalFenceInfo-sType-sType";
pub const FENCE_CAPS_INFO_PNEXT: &str = "VUID-VkPhysicalDeviceExternalFenceInfo-pNext-pNext";
pub const FENCE_CAPS_HANDLE_TYPE_PARAM: &str =
    "VUID-VkPhysicalDeviceExternalFenceInfo-handleType-parameter";
pub const FENCE_CAPS_PROPS_STYPE: &str = "VUID-VkExternalFenceProperties-sType-sType";
pub const FENCE_CAPS_PROPS_PNEXT: &str = "VUID-VkExternalFenceProperties-pNext-pNext";

// vkCreateSemaphore
pub const CREATE_SEMAPHORE: &str = "vkCreateSemaphore";
pub const EXPORT_SEM_HANDLE_TYPES_01124: &str =
    "VUID-VkExportSemaphoreCreateInfo-handleTypes-01124";
pub const EXPORT_SEM_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportSemaphoreCreateInfo-handleTypes-parameter";

// vkImportSemaphoreWin32HandleKHR
pub const IMPORT_SEMAPHORE_WIN32: &str = "vkImportSemaphoreWin32HandleKHR";
pub const SEM_IMPORT_WIN32_DEVICE_PARAM: &str =
    "VUID-vkImportSemaphoreWin32HandleKHR-device-parameter";
pub const SEM_IMPORT_WIN32_INFO_PARAM: &str =
    "VUID-vkImportSemaphoreWin32HandleKHR-pImportSemaphoreWin32HandleInfo-parameter";
pub const SEM_IMPORT_WIN32_STYPE: &str = "VUID-VkImportSemaphoreWin32HandleInfoKHR-sType-sType";
pub const SEM_IMPORT_WIN32_PNEXT: &str = "VUID-VkImportSemaphoreWin32HandleInfoKHR-pNext-pNext";
pub const SEM_IMPORT_WIN32_SEMAPHORE_PARAM: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-semaphore-parameter";
pub const SEM_IMPORT_WIN32_FLAGS_PARAM: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-parameter";
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_01140: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01140";
pub const SEM_IMPORT_WIN32_HANDLE_01469: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handle-01469";
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_01466: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01466";
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_03261: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03261";
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_03262: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03262";
pub const SEM_IMPORT_WIN32_FLAGS_03322: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-03322";

// vkImportSemaphoreZirconHandleFUCHSIA
pub const IMPORT_SEMAPHORE_ZIRCON: &str = "vkImportSemaphoreZirconHandleFUCHSIA";
pub const SEM_IMPORT_ZIRCON_DEVICE_PARAM: &str =
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-device-parameter";
pub const SEM_IMPORT_ZIRCON_INFO_PARAM: &str =
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-pImportSemaphoreZirconHandleInfo-parameter";
pub const SEM_IMPORT_ZIRCON_STYPE: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-sType-sType";
pub const SEM_IMPORT_ZIRCON_PNEXT: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-pNext-pNext";
pub const SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphore-parameter";
pub const SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-parameter";
pub const SEM_IMPORT_ZIRCON_FLAGS_PARAM: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-flags-parameter";
pub const SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-04765";
pub const SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphoreType-04768";
pub const IMPORT_FENCE_FD: &str = "vkImportFenceFdKHR";
pub const FENCE_IMPORT_FD_DEVICE_PARAM: &str = "VUID-vkImportFenceFdKHR-device-parameter";
pub const FENCE_IMPORT_FD_INFO_PARAM: &str = "VUID-vkImportFenceFdKHR-pImportFenceFdInfo-parameter";
pub const FENCE_IMPORT_FD_STYPE: &str = "VUID-VkImportFenceFdInfoKHR-sType-sType";
pub const FENCE_IMPORT_FD_PNEXT: &str = "VUID-VkImportFenceFdInfoKHR-pNext-pNext";
pub const FENCE_IMPORT_FD_FENCE_PARAM: &str = "VUID-VkImportFenceFdInfoKHR-fence-parameter";
pub const FENCE_IMPORT_FD_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportFenceFdInfoKHR-handleType-parameter";
pub const FENCE_IMPORT_FD_FLAGS_PARAM: &str = "VUID-VkImportFenceFdInfoKHR-flags-parameter";
pub const FENCE_IMPORT_FD_HANDLE_TYPE_01464: &str = "VUID-VkImportFenceFdInfoKHR-handleType-01464";
pub const FENCE_IMPORT_FD_HANDLE_TYPE_07306: &str = "VUID-VkImportFenceFdInfoKHR-handleType-07306";
pub const FENCE_IMPORT_FD_FD_01541: &str = "VUID-VkImportFenceFdInfoKHR-fd-01541";
pub const IMPORT_FENCE_WIN32: &str = "vkImportFenceWin32HandleKHR";
pub const FENCE_IMPORT_WIN32_DEVICE_PARAM: &str =
    "VUID-vkImportFenceWin32HandleKHR-device-parameter";
pub const FENCE_IMPORT_WIN32_INFO_PARAM: &str =
    "VUID-vkImportFenceWin32HandleKHR-pImportFenceWin32HandleInfo-parameter";
pub const FENCE_IMPORT_WIN32_STYPE: &str = "VUID-VkImportFenceWin32HandleInfoKHR-sType-sType";
pub const FENCE_IMPORT_WIN32_PNEXT: &str = "VUID-VkImportFenceWin32HandleInfoKHR-pNext-pNext";
pub const FENCE_IMPORT_WIN32_FENCE_PARAM: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-fence-parameter";
pub const FENCE_IMPORT_WIN32_FLAGS_PARAM: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-flags-parameter";
pub const FENCE_IMPORT_WIN32_HANDLE_TYPE_01457: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-handleType-01457";
pub const FENCE_IMPORT_WIN32_HANDLE_01462: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-handle-01462";
pub const FENCE_IMPORT_WIN32_HANDLE_TYPE_01459: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-handleType-01459";
pub const FENCE_FD_HANDLE_TYPE_01454: &str = "VUID-VkFenceGetFdInfoKHR-handleType-01454";
pub const EXPORT_FENCE_HANDLE_TYPES_01446: &str = "VUID-VkExportFenceCreateInfo-handleTypes-01446";
pub const D3D12_FENCE_SUBMIT_WAIT_COUNT_00079: &str =
    "VUID-VkD3D12FenceSubmitInfoKHR-waitSemaphoreValuesCount-00079";
pub const D3D12_FENCE_SUBMIT_SIGNAL_COUNT_00080: &str =
    "VUID-VkD3D12FenceSubmitInfoKHR-signalSemaphoreValuesCount-00080";
pub const SEM_WIN32_HANDLE_TYPE_01130: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01130";
pub const SEM_ZIRCON_HANDLE_TYPE_04761: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04761";
pub const FENCE_WIN32_HANDLE_TYPE_01451: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01451";
pub const IMPORT_FENCE_FD_FENCE_01463: &str = "VUID-vkImportFenceFdKHR-fence-01463";
pub const IMPORT_FENCE_WIN32_FENCE_04448: &str = "VUID-vkImportFenceWin32HandleKHR-fence-04448";
pub const IMPORT_SEMAPHORE_FD_SEMAPHORE_01142: &str = "VUID-vkImportSemaphoreFdKHR-semaphore-01142";
pub const IMPORT_SEMAPHORE_ZIRCON_SEMAPHORE_04764: &str =
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764";
