//! Every ID the layer reports, as constants. Generated from `vuids/catalog.json` (each checked
//! entry's `constant` and `summary`): edit the catalog, then
//! `cargo run -p exportcheck-vuids --bin render-vuid-rs > layer/src/vuid.rs` (a test of
//! `vuids/tests/vuid_rs.rs` fails until the two agree).

/// A stable 32-bit number for an ID (FNV-1a), for `messageIdNumber` and `messageCode`.
pub fn message_id_number(id: &str) -> i32 {
    let hash = id.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    hash as i32
}

// vkGetMemoryFdKHR
/// device is not a VkDevice handle that was created through the layer.
pub const FD_DEVICE_PARAM: &str = "VUID-vkGetMemoryFdKHR-device-parameter";
/// pGetFdInfo is NULL instead of pointing to a VkMemoryGetFdInfoKHR.
pub const FD_INFO_PARAM: &str = "VUID-vkGetMemoryFdKHR-pGetFdInfo-parameter";
/// pFd is NULL, so there is nowhere to write the exported file descriptor.
pub const FD_PFD_PARAM: &str = "VUID-vkGetMemoryFdKHR-pFd-parameter";
/// handleType was not in VkExportMemoryAllocateInfo::handleTypes when the memory was allocated.
pub const FD_HANDLE_TYPE_00671: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";
/// handleType is neither OPAQUE_FD_BIT nor DMA_BUF_BIT_EXT, the only types exportable as a file
/// descriptor.
pub const FD_HANDLE_TYPE_00672: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-00672";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR.
pub const FD_STYPE: &str = "VUID-VkMemoryGetFdInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryGetFdInfoKHR.
pub const FD_PNEXT: &str = "VUID-VkMemoryGetFdInfoKHR-pNext-pNext";
/// memory is not a live VkDeviceMemory handle.
pub const FD_MEMORY_PARAM: &str = "VUID-VkMemoryGetFdInfoKHR-memory-parameter";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value.
pub const FD_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetFdInfoKHR-handleType-parameter";

// vkGetMemoryRemoteAddressNV
/// device is not a VkDevice handle that was created through the layer.
pub const RDMA_DEVICE_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-device-parameter";
/// pMemoryGetRemoteAddressInfo is NULL instead of pointing to a VkMemoryGetRemoteAddressInfoNV.
pub const RDMA_INFO_PARAM: &str =
    "VUID-vkGetMemoryRemoteAddressNV-pMemoryGetRemoteAddressInfo-parameter";
/// pAddress is NULL, so there is nowhere to write the remote address.
pub const RDMA_PADDRESS_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-pAddress-parameter";
/// handleType was not in VkExportMemoryAllocateInfo::handleTypes when the memory was allocated.
pub const RDMA_HANDLE_TYPE_04966: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_GET_REMOTE_ADDRESS_INFO_NV.
pub const RDMA_STYPE: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryGetRemoteAddressInfoNV.
pub const RDMA_PNEXT: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-pNext-pNext";
/// memory is not a live VkDeviceMemory handle.
pub const RDMA_MEMORY_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-memory-parameter";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value.
pub const RDMA_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-parameter";

// vkGetMemoryWin32HandleNV
/// handleType has bits that were not in VkExportMemoryAllocateInfoNV::handleTypes when the memory
/// was allocated.
pub const WIN32_HANDLE_TYPE_01326: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-01326";
/// device is not a VkDevice handle that was created through the layer.
pub const WIN32_DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-device-parameter";
/// memory is not a live VkDeviceMemory handle.
pub const WIN32_MEMORY_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parameter";
/// handleType has bits that are not defined VkExternalMemoryHandleTypeFlagBitsNV values.
pub const WIN32_HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-parameter";
/// handleType is 0; at least one handle type bit is required.
pub const WIN32_HANDLE_TYPE_REQUIRED: &str =
    "VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask";
/// pHandle is NULL, so there is nowhere to write the exported HANDLE.
pub const WIN32_PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-pHandle-parameter";
/// memory was allocated from a different VkDevice than the one the command was called on.
pub const WIN32_MEMORY_PARENT: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parent";

// vkGetMemoryMetalHandleEXT
/// device is not a VkDevice handle that was created through the layer.
pub const METAL_DEVICE_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-device-parameter";
/// pGetMetalHandleInfo is NULL instead of pointing to a VkMemoryGetMetalHandleInfoEXT.
pub const METAL_INFO_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-pGetMetalHandleInfo-parameter";
/// pHandle is NULL, so there is nowhere to write the exported Metal handle.
pub const METAL_PHANDLE_PARAM: &str = "VUID-vkGetMemoryMetalHandleEXT-pHandle-parameter";
/// memory was allocated without a VkExportMemoryAllocateInfo in its pNext chain.
pub const METAL_MEMORY_10413: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413";
/// handleType was not in VkExportMemoryAllocateInfo::handleTypes when the memory was allocated.
pub const METAL_HANDLE_TYPE_10414: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414";
/// handleType is not MTLBUFFER_BIT_EXT, MTLTEXTURE_BIT_EXT or MTLHEAP_BIT_EXT.
pub const METAL_HANDLE_TYPE_10415: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT.
pub const METAL_STYPE: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryGetMetalHandleInfoEXT.
pub const METAL_PNEXT: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-pNext-pNext";
/// memory is not a live VkDeviceMemory handle.
pub const METAL_MEMORY_PARAM: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-memory-parameter";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value.
pub const METAL_HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-parameter";

// vkGetMemoryFdPropertiesKHR
/// device is not a VkDevice handle that was created through the layer.
pub const FD_PROPS_DEVICE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-device-parameter";
/// fd is not an open file descriptor of the process (fcntl(F_GETFD) fails, negative numbers
/// included), so it cannot be a POSIX file descriptor memory handle; the call is not passed to the
/// driver.
pub const FD_PROPS_FD_00673: &str = "VUID-vkGetMemoryFdPropertiesKHR-fd-00673";
/// handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, whose properties cannot be queried.
pub const FD_PROPS_HANDLE_TYPE_00674: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-00674";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value valid on the
/// device.
pub const FD_PROPS_HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-parameter";
/// pMemoryFdProperties is NULL, so there is nowhere to write the properties; the call is not passed
/// to the driver.
pub const FD_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryFdPropertiesKHR-pMemoryFdProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR; the call is not passed to the driver.
pub const FD_PROPS_STYPE: &str = "VUID-VkMemoryFdPropertiesKHR-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryFdPropertiesKHR.
pub const FD_PROPS_PNEXT: &str = "VUID-VkMemoryFdPropertiesKHR-pNext-pNext";

// vkGetMemoryHostPointerPropertiesEXT
/// device is not a VkDevice handle that was created through the layer.
pub const HOST_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-device-parameter";
/// handleType is neither VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT nor
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT.
pub const HOST_PROPS_HANDLE_TYPE_01752: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-01752";
/// pHostPointer is not a multiple of
/// VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment.
pub const HOST_PROPS_POINTER_01753: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pHostPointer-01753";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value valid on the
/// device.
pub const HOST_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-parameter";
/// pMemoryHostPointerProperties is NULL, so there is nowhere to write the properties; the call is
/// not passed to the driver.
pub const HOST_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pMemoryHostPointerProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT; the call is not passed to the
/// driver.
pub const HOST_PROPS_STYPE: &str = "VUID-VkMemoryHostPointerPropertiesEXT-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryHostPointerPropertiesEXT.
pub const HOST_PROPS_PNEXT: &str = "VUID-VkMemoryHostPointerPropertiesEXT-pNext-pNext";

// vkGetMemoryWin32HandleKHR
/// device is not a VkDevice handle that was created through the layer.
pub const WIN32_KHR_DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleKHR-device-parameter";
/// pGetWin32HandleInfo is NULL instead of pointing to a VkMemoryGetWin32HandleInfoKHR.
pub const WIN32_KHR_INFO_PARAM: &str =
    "VUID-vkGetMemoryWin32HandleKHR-pGetWin32HandleInfo-parameter";
/// pHandle is NULL, so there is nowhere to write the exported HANDLE.
pub const WIN32_KHR_PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleKHR-pHandle-parameter";
/// handleType was not in VkExportMemoryAllocateInfo::handleTypes when the memory was allocated.
pub const WIN32_KHR_HANDLE_TYPE_00662: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00662";
/// An NT handle of this memory and handle type (OPAQUE_WIN32, D3D11_TEXTURE, D3D12_HEAP,
/// D3D12_RESOURCE) was already exported by an earlier vkGetMemoryWin32HandleKHR call that
/// succeeded; the layer remembers such exports per live memory and forgets them at vkFreeMemory.
pub const WIN32_KHR_HANDLE_TYPE_00663: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663";
/// handleType is not an NT handle type (OPAQUE_WIN32, D3D11_TEXTURE, D3D12_HEAP, D3D12_RESOURCE) or
/// a global share handle type (OPAQUE_WIN32_KMT, D3D11_TEXTURE_KMT).
pub const WIN32_KHR_HANDLE_TYPE_00664: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00664";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_GET_WIN32_HANDLE_INFO_KHR.
pub const WIN32_KHR_STYPE: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryGetWin32HandleInfoKHR.
pub const WIN32_KHR_PNEXT: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-pNext-pNext";
/// memory is not a live VkDeviceMemory handle.
pub const WIN32_KHR_MEMORY_PARAM: &str = "VUID-VkMemoryGetWin32HandleInfoKHR-memory-parameter";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value.
pub const WIN32_KHR_HANDLE_TYPE_PARAM: &str =
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-parameter";

// vkGetMemoryZirconHandleFUCHSIA
/// device is not a VkDevice handle that was created through the layer.
pub const ZIRCON_DEVICE_PARAM: &str = "VUID-vkGetMemoryZirconHandleFUCHSIA-device-parameter";
/// pGetZirconHandleInfo is NULL instead of pointing to a VkMemoryGetZirconHandleInfoFUCHSIA.
pub const ZIRCON_INFO_PARAM: &str =
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter";
/// pZirconHandle is NULL, so there is nowhere to write the exported zx_handle_t.
pub const ZIRCON_PHANDLE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pZirconHandle-parameter";
/// handleType is not VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.
pub const ZIRCON_HANDLE_TYPE_04775: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04775";
/// handleType was not in VkExportMemoryAllocateInfo::handleTypes when the memory was allocated.
pub const ZIRCON_HANDLE_TYPE_04776: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04776";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_GET_ZIRCON_HANDLE_INFO_FUCHSIA.
pub const ZIRCON_STYPE: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryGetZirconHandleInfoFUCHSIA.
pub const ZIRCON_PNEXT: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-pNext-pNext";
/// memory is not a live VkDeviceMemory handle.
pub const ZIRCON_MEMORY_PARAM: &str = "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-memory-parameter";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value.
pub const ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-parameter";

// vkGetMemoryAndroidHardwareBufferANDROID
/// device is not a VkDevice handle that was created through the layer.
pub const AHB_DEVICE_PARAM: &str = "VUID-vkGetMemoryAndroidHardwareBufferANDROID-device-parameter";
/// pInfo is NULL instead of pointing to a VkMemoryGetAndroidHardwareBufferInfoANDROID.
pub const AHB_INFO_PARAM: &str = "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pInfo-parameter";
/// pBuffer is NULL, so there is nowhere to write the exported AHardwareBuffer pointer.
pub const AHB_PBUFFER_PARAM: &str =
    "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pBuffer-parameter";
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID was not in
/// VkExportMemoryAllocateInfo::handleTypes when the memory was allocated.
pub const AHB_HANDLE_TYPES_01882: &str =
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-handleTypes-01882";
/// The memory was allocated with a VkMemoryDedicatedAllocateInfo naming an image, and no bind of
/// that image to this memory (vkBindImageMemory, vkBindImageMemory2) has gone down yet. Judged only
/// where the layer sees every bind of the image: it intercepts the device's image commands and
/// tracks the image (made with VkExternalMemoryImageCreateInfo, not sparse); the layer forgets the
/// memory when the image is destroyed or a bind it cannot read in full goes down.
pub const AHB_PNEXT_01883: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_GET_ANDROID_HARDWARE_BUFFER_INFO_ANDROID.
pub const AHB_STYPE: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryGetAndroidHardwareBufferInfoANDROID.
pub const AHB_PNEXT: &str = "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-pNext";
/// memory is not a live VkDeviceMemory handle.
pub const AHB_MEMORY_PARAM: &str =
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-memory-parameter";

// vkAllocateMemory
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value valid on the
/// device.
pub const IMPORT_HOST_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-parameter";
/// handleType is neither 0 nor VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT or
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT.
pub const IMPORT_HOST_HANDLE_TYPE_01748: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-01748";
/// pHostPointer is not a multiple of
/// VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment.
pub const IMPORT_HOST_POINTER_01749: &str =
    "VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT.
pub const IMPORT_HOST_STYPE: &str = "VUID-VkImportMemoryHostPointerInfoEXT-sType-sType";
/// A host pointer is imported (VkImportMemoryHostPointerInfoEXT with a host-pointer handleType) and
/// allocationSize is not a multiple of
/// VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment.
pub const ALLOC_SIZE_01745: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01745";
/// A host pointer is imported and the pNext chain has a VkMemoryDedicatedAllocateInfo naming an
/// image or a buffer.
pub const ALLOC_PNEXT_02806: &str = "VUID-VkMemoryAllocateInfo-pNext-02806";
/// A host pointer is imported and the pNext chain has a VkDedicatedAllocationMemoryAllocateInfoNV
/// naming an image or a buffer.
pub const ALLOC_PNEXT_02805: &str = "VUID-VkMemoryAllocateInfo-pNext-02805";
/// The pNext chain has a VkImportMemoryHostPointerInfoEXT and a
/// VkMemoryOpaqueCaptureAddressAllocateInfo whose opaqueCaptureAddress is not 0.
pub const ALLOC_PNEXT_03332: &str = "VUID-VkMemoryAllocateInfo-pNext-03332";

// vkGetMemoryMetalHandlePropertiesEXT
/// device is not a VkDevice handle that was created through the layer.
pub const METAL_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-device-parameter";
/// pHandle is NULL, which is no id<MTLBuffer>, id<MTLTexture> or id<MTLDevice>; the call is not
/// passed to the driver.
pub const METAL_PROPS_HANDLE_10416: &str = "VUID-vkGetMemoryMetalHandlePropertiesEXT-handle-10416";
/// handleType is not MTLBUFFER_BIT_EXT, MTLTEXTURE_BIT_EXT or MTLHEAP_BIT_EXT.
pub const METAL_PROPS_HANDLE_TYPE_10417: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-10417";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value valid on the
/// device.
pub const METAL_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-parameter";
/// pMemoryMetalHandleProperties is NULL, so there is nowhere to write the properties; the call is
/// not passed to the driver.
pub const METAL_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-pMemoryMetalHandleProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT; the call is not passed to the
/// driver.
pub const METAL_PROPS_STYPE: &str = "VUID-VkMemoryMetalHandlePropertiesEXT-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryMetalHandlePropertiesEXT.
pub const METAL_PROPS_PNEXT: &str = "VUID-VkMemoryMetalHandlePropertiesEXT-pNext-pNext";

// vkGetMemoryWin32HandlePropertiesKHR
/// device is not a VkDevice handle that was created through the layer.
pub const WIN32_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-device-parameter";
/// handle is NULL or INVALID_HANDLE_VALUE, which are no Windows memory handle; the call is not
/// passed to the driver.
pub const WIN32_PROPS_HANDLE_00665: &str = "VUID-vkGetMemoryWin32HandlePropertiesKHR-handle-00665";
/// handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT or
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT, handle types defined as opaque.
pub const WIN32_PROPS_HANDLE_TYPE_00666: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-00666";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value valid on the
/// device.
pub const WIN32_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-parameter";
/// pMemoryWin32HandleProperties is NULL, so there is nowhere to write the properties; the call is
/// not passed to the driver.
pub const WIN32_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-pMemoryWin32HandleProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_WIN32_HANDLE_PROPERTIES_KHR; the call is not passed to the
/// driver.
pub const WIN32_PROPS_STYPE: &str = "VUID-VkMemoryWin32HandlePropertiesKHR-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryWin32HandlePropertiesKHR.
pub const WIN32_PROPS_PNEXT: &str = "VUID-VkMemoryWin32HandlePropertiesKHR-pNext-pNext";

// vkGetMemoryZirconHandlePropertiesFUCHSIA
/// device is not a VkDevice handle that was created through the layer.
pub const ZIRCON_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-device-parameter";
/// handleType is not VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.
pub const ZIRCON_PROPS_HANDLE_TYPE_04773: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-04773";
/// zirconHandle is ZX_HANDLE_INVALID (0), which references no VMO; the call is not passed to the
/// driver.
pub const ZIRCON_PROPS_HANDLE_04774: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-zirconHandle-04774";
/// handleType is not a single, defined VkExternalMemoryHandleTypeFlagBits value valid on the
/// device.
pub const ZIRCON_PROPS_HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-parameter";
/// pMemoryZirconHandleProperties is NULL, so there is nowhere to write the properties; the call is
/// not passed to the driver.
pub const ZIRCON_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-pMemoryZirconHandleProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_ZIRCON_HANDLE_PROPERTIES_FUCHSIA; the call is not passed
/// to the driver.
pub const ZIRCON_PROPS_STYPE: &str = "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-sType-sType";
/// pNext is not NULL; no structure extends VkMemoryZirconHandlePropertiesFUCHSIA.
pub const ZIRCON_PROPS_PNEXT: &str = "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-pNext-pNext";

// vkGetAndroidHardwareBufferPropertiesANDROID
/// device is not a VkDevice handle that was created through the layer.
pub const AHB_PROPS_DEVICE_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-device-parameter";
/// buffer is NULL, which points to no AHardwareBuffer; the call is not passed to the driver.
pub const AHB_PROPS_BUFFER_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-buffer-parameter";
/// pProperties is NULL, so there is nowhere to write the properties; the call is not passed to the
/// driver.
pub const AHB_PROPS_OUTPUT_PARAM: &str =
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-pProperties-parameter";

// vkAllocateMemory
/// A host-pointer import (VkImportMemoryHostPointerInfoEXT) gives a memoryTypeIndex that is not in
/// the memoryTypeBits vkGetMemoryHostPointerPropertiesEXT returns for its pointer and handle type.
pub const ALLOC_TYPE_INDEX_01744: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744";
/// device is not a VkDevice handle that was created through the layer.
pub const ALLOC_DEVICE_PARAM: &str = "VUID-vkAllocateMemory-device-parameter";
/// pAllocateInfo is NULL instead of pointing to a VkMemoryAllocateInfo.
pub const ALLOC_INFO_PARAM: &str = "VUID-vkAllocateMemory-pAllocateInfo-parameter";
/// pMemory is NULL, so there is nowhere to write the new VkDeviceMemory.
pub const ALLOC_PMEMORY_PARAM: &str = "VUID-vkAllocateMemory-pMemory-parameter";
/// pAllocateInfo->memoryTypeIndex is not less than the physical device's memoryTypeCount: there is
/// no such memory type. The call is not passed to the driver, which would index its memory types
/// with it.
pub const ALLOC_TYPE_INDEX_01714: &str = "VUID-vkAllocateMemory-pAllocateInfo-01714";
/// pAllocateInfo->allocationSize is larger than the heap of the memory type it names
/// (VkMemoryHeap::size).
pub const ALLOC_SIZE_01713: &str = "VUID-vkAllocateMemory-pAllocateInfo-01713";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO.
pub const ALLOC_STYPE: &str = "VUID-VkMemoryAllocateInfo-sType-sType";
/// The pNext chain has a VkExportMemoryAllocateInfo together with a VkExportMemoryAllocateInfoNV or
/// VkExportMemoryWin32HandleInfoNV.
pub const ALLOC_PNEXT_00640: &str = "VUID-VkMemoryAllocateInfo-pNext-00640";
/// A structure type the layer reads (export, import, dedicated-allocation and
/// opaque-capture-address structures) appears more than once in the pNext chain (reported; the call
/// goes down); a cyclic chain is reported here too and blocked, since a cycle repeats a structure.
/// Repeats of structures the layer does not read are not checked.
pub const ALLOC_STYPE_UNIQUE: &str = "VUID-VkMemoryAllocateInfo-sType-unique";
/// A structure the layer reads in the chain (every export, import and dedicated structure,
/// VkMemoryAllocateFlagsInfo, VkMemoryOpaqueCaptureAddressAllocateInfo: the table
/// vk_names::ALLOCATE_CHAIN, compared with vk.xml by a test) is chained on a device where neither
/// its extension is enabled nor its version core.
pub const ALLOC_PNEXT_PNEXT: &str = "VUID-VkMemoryAllocateInfo-pNext-pNext";
/// An exported allocation (VkExportMemoryAllocateInfo with handle types, none an Android hardware
/// buffer) has allocationSize 0.
pub const ALLOC_SIZE_07899: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07899";
/// A handle type of VkExportMemoryAllocateInfo::handleTypes needs a dedicated allocation for the
/// buffer or image the memory is bound to (DEDICATED_ONLY), but the memory was not allocated
/// dedicated to it.
pub const ALLOC_PNEXT_00639: &str = "VUID-VkMemoryAllocateInfo-pNext-00639";
/// handleTypes has bits that are not defined VkExternalMemoryHandleTypeFlagBits values.
pub const EXPORT_HANDLE_TYPES_PARAM: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-parameter";
/// A handle type in handleTypes is not exportable, or not compatible with the others, for the
/// buffer or image the memory is for (vkGetPhysicalDeviceExternalBufferProperties or
/// vkGetPhysicalDeviceImageFormatProperties2 with its create info).
pub const EXPORT_HANDLE_TYPES_09860: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-09860";
/// sType is not VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO.
pub const EXPORT_STYPE: &str = "VUID-VkExportMemoryAllocateInfo-sType-sType";
/// sType is not VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO_NV.
pub const EXPORT_NV_STYPE: &str = "VUID-VkExportMemoryAllocateInfoNV-sType-sType";
/// handleTypes has bits that are not defined VkExternalMemoryHandleTypeFlagBitsNV values.
pub const EXPORT_NV_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter";
/// The pNext chain has a VkExportMemoryWin32HandleInfoKHR, but
/// VkExportMemoryAllocateInfo::handleTypes does not include
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT (judged when the chain has a
/// VkExportMemoryAllocateInfo).
pub const EXPORT_WIN32_HANDLE_TYPES_00657: &str =
    "VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657";
/// sType is not VK_STRUCTURE_TYPE_EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR.
pub const EXPORT_WIN32_STYPE: &str = "VUID-VkExportMemoryWin32HandleInfoKHR-sType-sType";
/// sType is not VK_STRUCTURE_TYPE_EXPORT_MEMORY_WIN32_HANDLE_INFO_NV.
pub const EXPORT_WIN32_NV_STYPE: &str = "VUID-VkExportMemoryWin32HandleInfoNV-sType-sType";

// vkFreeMemory
/// device is not a VkDevice handle that was created through the layer.
pub const FREE_DEVICE_PARAM: &str = "VUID-vkFreeMemory-device-parameter";
/// memory is neither VK_NULL_HANDLE nor a live VkDeviceMemory handle.
pub const FREE_MEMORY_PARAM: &str = "VUID-vkFreeMemory-memory-parameter";
/// memory was allocated from a different VkDevice than the one it is being freed on.
pub const FREE_MEMORY_PARENT: &str = "VUID-vkFreeMemory-memory-parent";

// vkAllocateMemory
/// An allocation that neither imports (no import structure with a non-zero handleType, no Android
/// hardware buffer) nor exports (no VkExportMemoryAllocateInfo or VkExportMemoryAllocateInfoNV with
/// non-zero handleTypes) has allocationSize 0.
pub const ALLOC_SIZE_07897: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07897";
/// VkMemoryOpaqueCaptureAddressAllocateInfo::opaqueCaptureAddress is not 0, but
/// VkMemoryAllocateFlagsInfo::flags (or its absence) lacks
/// VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT.
pub const ALLOC_CAPTURE_ADDRESS_03329: &str =
    "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329";
/// VkMemoryOpaqueCaptureAddressAllocateInfo::opaqueCaptureAddress is not 0 in an allocation that
/// imports memory (an import structure with a non-zero handleType, or an Android hardware buffer).
pub const ALLOC_CAPTURE_ADDRESS_03333: &str =
    "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333";
/// VkMemoryAllocateFlagsInfo::flags includes VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT,
/// but bufferDeviceAddressCaptureReplay was not enabled (VkPhysicalDeviceVulkan12Features or
/// VkPhysicalDeviceBufferDeviceAddressFeatures at vkCreateDevice).
pub const ALLOC_FLAGS_03330: &str = "VUID-VkMemoryAllocateInfo-flags-03330";
/// VkMemoryAllocateFlagsInfo::flags includes VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, but
/// bufferDeviceAddress was not enabled (VkPhysicalDeviceVulkan12Features or
/// VkPhysicalDeviceBufferDeviceAddressFeatures at vkCreateDevice).
pub const ALLOC_FLAGS_03331: &str = "VUID-VkMemoryAllocateInfo-flags-03331";
/// memoryTypeIndex names a memory type with VK_MEMORY_PROPERTY_PROTECTED_BIT, but protectedMemory
/// was not enabled (VkPhysicalDeviceVulkan11Features or VkPhysicalDeviceProtectedMemoryFeatures at
/// vkCreateDevice).
pub const ALLOC_TYPE_INDEX_01872: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872";
/// pAllocateInfo->memoryTypeIndex names a memory type with
/// VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD, but deviceCoherentMemory was not enabled
/// (VkPhysicalDeviceCoherentMemoryFeaturesAMD at vkCreateDevice).
pub const ALLOC_DEVICE_COHERENT_02790: &str = "VUID-vkAllocateMemory-deviceCoherentMemory-02790";
/// pAllocateInfo->memoryTypeIndex names a memory type of a heap with
/// VK_MEMORY_HEAP_TILE_MEMORY_BIT_QCOM, but tileMemoryHeap was not enabled
/// (VkPhysicalDeviceTileMemoryHeapFeaturesQCOM at vkCreateDevice).
pub const ALLOC_TILE_MEMORY_HEAP_10976: &str = "VUID-vkAllocateMemory-tileMemoryHeap-10976";
/// device was created with VkDeviceCreateInfo::queueCreateInfoCount 0.
pub const ALLOC_DEVICE_QUEUECOUNT: &str = "VUID-vkAllocateMemory-device-queuecount";
/// As many allocations as VkPhysicalDeviceLimits::maxMemoryAllocationCount are already live on the
/// device (allocated through the layer and not freed) when another is made.
pub const ALLOC_MAX_COUNT_04101: &str = "VUID-vkAllocateMemory-maxMemoryAllocationCount-04101";

// vkBindBufferMemory
/// The memory was exported (VkExportMemoryAllocateInfo::handleTypes not 0) as none of the handle
/// types of VkExternalMemoryBufferCreateInfo::handleTypes the buffer was created with.
pub const BIND_BUFFER_MEMORY_02726: &str = "VUID-vkBindBufferMemory-memory-02726";
/// The memory was imported (other than from an Android hardware buffer) as a handle type that is
/// not in VkExternalMemoryBufferCreateInfo::handleTypes the buffer was created with.
pub const BIND_BUFFER_MEMORY_02985: &str = "VUID-vkBindBufferMemory-memory-02985";
/// The memory was imported from an Android hardware buffer
/// (VkImportAndroidHardwareBufferInfoANDROID with a buffer), but
/// VkExternalMemoryBufferCreateInfo::handleTypes the buffer was created with lacks
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID.
pub const BIND_BUFFER_MEMORY_02986: &str = "VUID-vkBindBufferMemory-memory-02986";

// vkBindBufferMemory2
/// The pBindInfos[i].memory was exported (VkExportMemoryAllocateInfo::handleTypes not 0) as none of
/// the handle types of VkExternalMemoryBufferCreateInfo::handleTypes the buffer was created with.
pub const BIND_BUFFER_INFO_02726: &str = "VUID-VkBindBufferMemoryInfo-memory-02726";
/// The pBindInfos[i].memory was imported (other than from an Android hardware buffer) as a handle
/// type that is not in VkExternalMemoryBufferCreateInfo::handleTypes the buffer was created with.
pub const BIND_BUFFER_INFO_02985: &str = "VUID-VkBindBufferMemoryInfo-memory-02985";
/// The pBindInfos[i].memory was imported from an Android hardware buffer
/// (VkImportAndroidHardwareBufferInfoANDROID with a buffer), but
/// VkExternalMemoryBufferCreateInfo::handleTypes the buffer was created with lacks
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID.
pub const BIND_BUFFER_INFO_02986: &str = "VUID-VkBindBufferMemoryInfo-memory-02986";

// vkBindImageMemory
/// The memory was exported (VkExportMemoryAllocateInfo::handleTypes not 0) as none of the handle
/// types of VkExternalMemoryImageCreateInfo::handleTypes the image was created with.
pub const BIND_IMAGE_MEMORY_02728: &str = "VUID-vkBindImageMemory-memory-02728";
/// The memory was imported (other than from an Android hardware buffer) as a handle type that is
/// not in VkExternalMemoryImageCreateInfo::handleTypes the image was created with.
pub const BIND_IMAGE_MEMORY_02989: &str = "VUID-vkBindImageMemory-memory-02989";
/// The memory was imported from an Android hardware buffer
/// (VkImportAndroidHardwareBufferInfoANDROID with a buffer), but
/// VkExternalMemoryImageCreateInfo::handleTypes the image was created with lacks
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID.
pub const BIND_IMAGE_MEMORY_02990: &str = "VUID-vkBindImageMemory-memory-02990";

// vkBindImageMemory2
/// The pBindInfos[i].memory was exported (VkExportMemoryAllocateInfo::handleTypes not 0) as none of
/// the handle types of VkExternalMemoryImageCreateInfo::handleTypes the image was created with.
pub const BIND_IMAGE_INFO_02728: &str = "VUID-VkBindImageMemoryInfo-memory-02728";
/// The pBindInfos[i].memory was imported (other than from an Android hardware buffer) as a handle
/// type that is not in VkExternalMemoryImageCreateInfo::handleTypes the image was created with.
pub const BIND_IMAGE_INFO_02989: &str = "VUID-VkBindImageMemoryInfo-memory-02989";
/// The pBindInfos[i].memory was imported from an Android hardware buffer
/// (VkImportAndroidHardwareBufferInfoANDROID with a buffer), but
/// VkExternalMemoryImageCreateInfo::handleTypes the image was created with lacks
/// VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID.
pub const BIND_IMAGE_INFO_02990: &str = "VUID-VkBindImageMemoryInfo-memory-02990";

// *
/// An export or import command or handle-property query was called on a VkDevice that did not
/// enable its extension, e.g. through a function pointer fetched from another device.
pub const EXTENSION_NOT_ENABLED: &str = "EXPORTCHECK-extension-not-enabled";
/// The VkDeviceMemory in the info structure belongs to a different VkDevice than the one the
/// command was called on.
pub const MEMORY_OF_OTHER_DEVICE: &str = "EXPORTCHECK-memory-of-other-device";

// vkGetMemoryRemoteAddressNV
/// The memory's type lacks VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV, so it cannot have a remote
/// address.
pub const RDMA_TYPE_NOT_CAPABLE: &str = "EXPORTCHECK-rdma-memory-type-not-rdma-capable";
/// VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA was not enabled at
/// vkCreateDevice.
pub const RDMA_FEATURE_NOT_ENABLED: &str = "EXPORTCHECK-rdma-feature-not-enabled";

// vkGetMemoryWin32HandleNV
/// handleType has more than one bit set, but the command returns a single HANDLE.
pub const WIN32_MULTIPLE_BITS: &str = "EXPORTCHECK-win32nv-handle-type-multiple-bits";

// vkAllocateMemory
/// The pNext chain is longer than the 65536 structures the layer walks.
pub const PNEXT_CHAIN_TOO_LONG: &str = "EXPORTCHECK-pnext-chain-too-long";

// *
/// The layer itself failed (a caught panic in a check or while reporting); the call still went on
/// (in a check: passed down unchecked; after the call went down: the driver's own result returned,
/// with what it made; elsewhere in the layer's plumbing: returned early with an error).
pub const INTERNAL_ERROR: &str = "EXPORTCHECK-internal-error";

// vkGetMemoryFdKHR
/// The driver returned VK_SUCCESS with a negative fd (a driver defect).
pub const DRIVER_INVALID_FD: &str = "EXPORTCHECK-driver-invalid-fd";
/// The driver returned an fd without FD_CLOEXEC, which the spec requires where the OS supports it
/// (a driver defect; Mesa lavapipe has it).
pub const DRIVER_FD_NOT_CLOEXEC: &str = "EXPORTCHECK-driver-fd-not-cloexec";
/// The driver returned an fd that was already open before the call instead of a new one (a driver
/// defect).
pub const DRIVER_FD_NOT_NEW: &str = "EXPORTCHECK-driver-fd-not-new";

// vkGetMemoryRemoteAddressNV
/// The driver returned VK_SUCCESS with a NULL remote address (a driver defect).
pub const DRIVER_NULL_REMOTE_ADDRESS: &str = "EXPORTCHECK-driver-null-remote-address";

// vkGetMemoryWin32HandleNV
/// The driver returned VK_SUCCESS with a NULL HANDLE (a driver defect).
pub const DRIVER_NULL_WIN32_HANDLE: &str = "EXPORTCHECK-driver-null-win32-handle";

// vkGetMemoryMetalHandleEXT
/// The driver returned VK_SUCCESS with a NULL Metal handle (a driver defect).
pub const DRIVER_NULL_METAL_HANDLE: &str = "EXPORTCHECK-driver-null-metal-handle";

// vkGetMemoryWin32HandleKHR
/// The driver returned VK_SUCCESS with a NULL HANDLE (a driver defect).
pub const DRIVER_NULL_WIN32_HANDLE_KHR: &str = "EXPORTCHECK-driver-null-win32-handle-khr";

// vkGetMemoryZirconHandleFUCHSIA
/// The driver returned VK_SUCCESS with ZX_HANDLE_INVALID (a driver defect).
pub const DRIVER_INVALID_ZIRCON_HANDLE: &str = "EXPORTCHECK-driver-invalid-zircon-handle";

// vkGetMemoryAndroidHardwareBufferANDROID
/// The driver returned VK_SUCCESS with a NULL AHardwareBuffer (a driver defect).
pub const DRIVER_NULL_ANDROID_HARDWARE_BUFFER: &str =
    "EXPORTCHECK-driver-null-android-hardware-buffer";

// *
/// An fd vkGetMemoryFdKHR returned is still open in the process and was never imported, at
/// vkFreeMemory of its memory, at vkDestroyDevice or at exit (found by identity, whatever the app
/// did with the numbers; setting check_fd_leaks, on under exportcheck run).
pub const EXPORTED_FD_LEAKED: &str = "EXPORTCHECK-exported-fd-leaked";

// vkAllocateMemory
/// The pNext chain defines more than one import operation (import structures with a non-zero
/// handleType, or a VkImportAndroidHardwareBufferInfoANDROID with a buffer).
pub const ALLOC_NONE_06657: &str = "VUID-VkMemoryAllocateInfo-None-06657";
/// handleType is not 0 and is neither OPAQUE_FD_BIT nor DMA_BUF_BIT_EXT, the only types importable
/// from a file descriptor.
pub const IMPORT_FD_HANDLE_TYPE_00669: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-00669";
/// handleType is not 0 and fd is negative or not open in the process when vkAllocateMemory is
/// called; or handleType is DMA_BUF and fd's file is certainly no dma_buf (a memfd, a pipe, a disk
/// file); or handleType is OPAQUE_FD and fd's file is one no driver exports (a pipe, a socket, a
/// directory, /dev/null, a procfs or sysfs file).
pub const IMPORT_FD_HANDLE_TYPE_00670: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-00670";
/// handleType is not 0 and not a single, defined VkExternalMemoryHandleTypeFlagBits value (of an
/// extension the device enabled).
pub const IMPORT_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-parameter";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR.
pub const IMPORT_FD_STYPE: &str = "VUID-VkImportMemoryFdInfoKHR-sType-sType";
/// An import of an opaque fd the layer saw exported gives another allocationSize or memoryTypeIndex
/// than the allocation it was exported from (one finding per member).
pub const ALLOC_SIZE_01742: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01742";
/// A dedicated (image) import of an opaque fd the layer saw exported, from memory that was not
/// allocated dedicated to an image.
pub const DEDICATED_IMAGE_01878: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01878";
/// A dedicated (buffer) import of an opaque fd the layer saw exported, from memory that was not
/// allocated dedicated to a buffer.
pub const DEDICATED_BUFFER_01879: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01879";
/// An fd import (vkAllocateMemory with VkImportMemoryFdInfoKHR, vkImportSemaphoreFdKHR,
/// vkImportFenceFdKHR) names an fd that an earlier successful import (of memory, a semaphore or a
/// fence) handed to the driver: the same number, still the same open file description the driver
/// holds (compared with kcmp), or, where the driver closed the fd at the import, the number the
/// layer has held since (EXPORTCHECK-fd-closed-after-import). After a successful import the app
/// must not use the fd again (the spec's rule has no VUID). The call is not passed to the driver.
pub const FD_IMPORTED_TWICE: &str = "EXPORTCHECK-fd-imported-twice";

// *
/// The process closed or replaced (close, dup2) an fd it had handed to the driver with a successful
/// vkAllocateMemory, vkImportSemaphoreFdKHR or vkImportFenceFdKHR import, found at vkFreeMemory of
/// the imported memory, vkDestroySemaphore or vkDestroyFence of the importing semaphore or fence,
/// that object's next fd import, or vkDestroyDevice of its device. After a successful import the
/// app must not use the fd again (the spec's rule has no VUID); a driver that closed the fd at the
/// import gave its number back to the process, so the app's close would close whatever file took
/// the number since.
pub const FD_CLOSED_AFTER_IMPORT: &str = "EXPORTCHECK-fd-closed-after-import";
/// Cross-process checking (setting shared_exports_dir, on under exportcheck run) lost some of its
/// knowledge: a file of the shared directory the layer cannot trust (not a regular file of the
/// user's, not in the layer's format, a damaged record) is ignored, found at vkAllocateMemory of an
/// fd import; or this process's own file cannot be created or written, or is full, found at
/// vkGetMemoryFdKHR. Each file and reason is reported once.
pub const SHARED_EXPORTS_IGNORED: &str = "EXPORTCHECK-shared-exports-ignored";
/// The kernel refuses kcmp(KCMP_FILE), by which the layer tells one open file description from
/// another: in this process (a container's seccomp profile: EPERM; no kcmp: ENOSYS), found at the
/// first opaque-fd vkGetMemoryFdKHR; or against the other processes of the run (they may not read
/// each other as ptrace would), found at vkAllocateMemory of an fd import whose file is shared with
/// other payloads. Reported once per process and kind.
pub const KCMP_REFUSED: &str = "EXPORTCHECK-kcmp-refused";

// vkGetAndroidHardwareBufferPropertiesANDROID
/// pProperties->sType is not VK_STRUCTURE_TYPE_ANDROID_HARDWARE_BUFFER_PROPERTIES_ANDROID, so
/// pProperties is not the structure the driver is to fill; the call is not passed to the driver.
pub const AHB_PROPS_WRONG_STYPE: &str = "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType";
/// The pNext chain of pProperties (the VkAndroidHardwareBufferFormatPropertiesANDROID,
/// ...FormatProperties2ANDROID and ...FormatResolvePropertiesANDROID structures the driver is to
/// fill) loops back on itself, so its structures, and their sType values, repeat; the call is not
/// passed to the driver, which would walk it forever.
pub const AHB_PROPS_CHAIN_LOOPS: &str =
    "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-unique";

// vkAllocateMemory
/// Both image and buffer are not VK_NULL_HANDLE.
pub const DEDICATED_IMAGE_01432: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01432";
/// image was created with VK_IMAGE_CREATE_SPARSE_BINDING_BIT.
pub const DEDICATED_IMAGE_01434: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01434";
/// image was created with VK_IMAGE_CREATE_DISJOINT_BIT.
pub const DEDICATED_IMAGE_01797: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01797";
/// buffer was created with VK_BUFFER_CREATE_SPARSE_BINDING_BIT.
pub const DEDICATED_BUFFER_01436: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01436";
/// sType is not VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO.
pub const DEDICATED_STYPE: &str = "VUID-VkMemoryDedicatedAllocateInfo-sType-sType";
/// An opaque fd the layer saw exported is imported on a device whose physical device has another
/// deviceUUID than the exporting device's.
pub const IMPORT_FD_00668: &str = "VUID-VkImportMemoryFdInfoKHR-fd-00668";
/// An opaque fd the layer saw exported is imported on a device whose physical device has another
/// deviceUUID or driverUUID than the exporting device's: the external memory handle types
/// compatibility table requires both to match for OPAQUE_FD.
pub const IMPORT_FD_01746: &str = "VUID-VkImportMemoryFdInfoKHR-fd-01746";
/// An opaque fd the layer saw exported does not obey the compatibility table's requirements for
/// OPAQUE_FD: the exporting and importing physical devices' driverUUID and deviceUUID must match.
pub const IMPORT_FD_01520: &str = "VUID-VkImportMemoryFdInfoKHR-fd-01520";
/// An fd import dedicated to a buffer or image (VkMemoryDedicatedAllocateInfo) has a handleType the
/// driver does not report as importable for that resource
/// (vkGetPhysicalDeviceExternalBufferProperties or vkGetPhysicalDeviceImageFormatProperties2 with
/// its create info: no VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT).
pub const IMPORT_FD_HANDLE_TYPE_09862: &str = "VUID-VkImportMemoryFdInfoKHR-handleType-09862";
/// handleType is neither 0 nor a single, defined VkExternalMemoryHandleTypeFlagBits value valid on
/// the device.
pub const IMPORT_WIN32_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-parameter";
/// handleType is neither 0 nor a type defined as an NT handle or a global share handle.
pub const IMPORT_WIN32_HANDLE_TYPE_00660: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00660";
/// name is not NULL, but handleType (not 0) is not OPAQUE_WIN32, D3D11_TEXTURE, D3D12_HEAP or
/// D3D12_RESOURCE.
pub const IMPORT_WIN32_HANDLE_TYPE_01439: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01439";
/// handle and name are both not NULL.
pub const IMPORT_WIN32_HANDLE_01441: &str = "VUID-VkImportMemoryWin32HandleInfoKHR-handle-01441";
/// handleType is not 0 and handle and name are both NULL: no handle to import.
pub const IMPORT_WIN32_HANDLE_TYPE_00661: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00661";
/// handleType is not 0 and handle and name are both NULL: no name of a memory resource.
pub const IMPORT_WIN32_HANDLE_TYPE_01440: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01440";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR.
pub const IMPORT_WIN32_STYPE: &str = "VUID-VkImportMemoryWin32HandleInfoKHR-sType-sType";
/// A Win32 import dedicated to a buffer or image (VkMemoryDedicatedAllocateInfo) has a handleType
/// the driver does not report as importable for that resource
/// (vkGetPhysicalDeviceExternalBufferProperties or vkGetPhysicalDeviceImageFormatProperties2 with
/// its create info: no VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT).
pub const IMPORT_WIN32_HANDLE_TYPE_09861: &str =
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-09861";
/// handleType has a bit that is not a VkExternalMemoryHandleTypeFlagBitsNV value.
pub const IMPORT_WIN32_NV_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-parameter";
/// handleType has more than one bit set.
pub const IMPORT_WIN32_NV_HANDLE_TYPE_01327: &str =
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-01327";
/// handle is NULL with a non-zero handleType: no handle to memory.
pub const IMPORT_WIN32_NV_HANDLE_01328: &str = "VUID-VkImportMemoryWin32HandleInfoNV-handle-01328";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_MEMORY_WIN32_HANDLE_INFO_NV.
pub const IMPORT_WIN32_NV_STYPE: &str = "VUID-VkImportMemoryWin32HandleInfoNV-sType-sType";
/// The pNext chain has both a VkImportMemoryWin32HandleInfoKHR and a
/// VkImportMemoryWin32HandleInfoNV.
pub const ALLOC_PNEXT_00641: &str = "VUID-VkMemoryAllocateInfo-pNext-00641";
/// handleType is neither 0 nor a single, defined VkExternalMemoryHandleTypeFlagBits value valid on
/// the device.
pub const IMPORT_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-parameter";
/// handleType is not 0 and not VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.
pub const IMPORT_ZIRCON_HANDLE_TYPE_04771: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-04771";
/// handle is ZX_HANDLE_INVALID (0) with a non-zero handleType.
pub const IMPORT_ZIRCON_HANDLE_04772: &str =
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handle-04772";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA.
pub const IMPORT_ZIRCON_STYPE: &str = "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-sType-sType";
/// A Zircon VMO import with allocationSize 0.
pub const ALLOC_SIZE_07902: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07902";
/// A Zircon VMO import (VkImportMemoryZirconHandleInfoFUCHSIA) gives a memoryTypeIndex that is not
/// in the memoryTypeBits vkGetMemoryZirconHandlePropertiesFUCHSIA returns for its handle.
pub const ALLOC_NONE_04749: &str = "VUID-VkMemoryAllocateInfo-None-04749";
/// handleType is neither 0 nor a single, defined VkExternalMemoryHandleTypeFlagBits value valid on
/// the device.
pub const IMPORT_METAL_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-parameter";
/// handleType is neither 0 nor MTLBUFFER, MTLTEXTURE or MTLHEAP.
pub const IMPORT_METAL_HANDLE_TYPE_10410: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10410";
/// handle is NULL with a non-zero handleType.
pub const IMPORT_METAL_HANDLE_TYPE_10411: &str =
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10411";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT.
pub const IMPORT_METAL_STYPE: &str = "VUID-VkImportMemoryMetalHandleInfoEXT-sType-sType";
/// An MTLTexture import without a VkMemoryDedicatedAllocateInfo whose image is not VK_NULL_HANDLE.
pub const ALLOC_PNEXT_10395: &str = "VUID-VkMemoryAllocateInfo-pNext-10395";
/// An MTLTexture import dedicated to an image with allocationSize not 0.
pub const ALLOC_PNEXT_10397: &str = "VUID-VkMemoryAllocateInfo-pNext-10397";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID.
pub const IMPORT_AHB_STYPE: &str = "VUID-VkImportAndroidHardwareBufferInfoANDROID-sType-sType";
/// An import of an OPAQUE_WIN32_KMT handle the layer saw vkGetMemoryWin32HandleKHR export (its
/// memory still live, the payload created by that allocation) gives another allocationSize or
/// memoryTypeIndex.
pub const ALLOC_SIZE_01743: &str = "VUID-VkMemoryAllocateInfo-allocationSize-01743";
/// An import of an opaque fd or a global share handle the layer saw exported gives another device
/// mask than the allocation it was exported from: VkMemoryAllocateFlagsInfo::deviceMask, or without
/// VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT the memory type heap's default (all the device's physical
/// devices for a heap with VK_MEMORY_HEAP_MULTI_INSTANCE_BIT, else a single instance, as if
/// deviceMask were 1).
pub const ALLOC_NONE_00643: &str = "VUID-VkMemoryAllocateInfo-None-00643";
/// An import of an opaque fd or a global share handle the layer saw exported is made on a logical
/// device that is not made of the physical devices of the device the payload was allocated on
/// (another number of them, or other deviceUUIDs).
pub const ALLOC_NONE_00644: &str = "VUID-VkMemoryAllocateInfo-None-00644";
/// A dedicated (image) import of a global share handle the layer saw exported from memory that was
/// no dedicated image allocation.
pub const DEDICATED_IMAGE_01876: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-01876";
/// A dedicated (buffer) import of a global share handle the layer saw exported from memory that was
/// no dedicated buffer allocation.
pub const DEDICATED_BUFFER_01877: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-01877";
/// image is not VK_NULL_HANDLE and not a live VkImage: no device made it, or it was destroyed. The
/// call is not passed to the driver.
pub const DEDICATED_IMAGE_PARAM: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-parameter";
/// buffer is not VK_NULL_HANDLE and not a live VkBuffer: no device made it, or it was destroyed.
/// The call is not passed to the driver.
pub const DEDICATED_BUFFER_PARAM: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-parameter";
/// image or buffer is a live resource of another VkDevice than the one the memory is allocated
/// from. The call is not passed to the driver.
pub const DEDICATED_COMMONPARENT: &str = "VUID-VkMemoryDedicatedAllocateInfo-commonparent";
/// allocationSize is less than the VkMemoryRequirements::size of the image the allocation is
/// dedicated to.
pub const DEDICATED_IMAGE_02964: &str = "VUID-VkMemoryDedicatedAllocateInfo-image-02964";
/// allocationSize is less than the VkMemoryRequirements::size of the buffer the allocation is
/// dedicated to.
pub const DEDICATED_BUFFER_02965: &str = "VUID-VkMemoryDedicatedAllocateInfo-buffer-02965";
/// An allocation that imports nothing, exported as an Android hardware buffer and dedicated to an
/// image (VkMemoryDedicatedAllocateInfo::image), has an allocationSize other than 0.
pub const ALLOC_PNEXT_01874: &str = "VUID-VkMemoryAllocateInfo-pNext-01874";
/// An allocation exported as an Android hardware buffer, without a VkMemoryDedicatedAllocateInfo in
/// its chain, has an allocationSize of 0.
pub const ALLOC_PNEXT_07900: &str = "VUID-VkMemoryAllocateInfo-pNext-07900";
/// An allocation exported as an Android hardware buffer and dedicated to a valid buffer has an
/// allocationSize of 0.
pub const ALLOC_PNEXT_07901: &str = "VUID-VkMemoryAllocateInfo-pNext-07901";
/// An Android hardware buffer import's allocationSize is not the size
/// vkGetAndroidHardwareBufferPropertiesANDROID returns for the buffer.
pub const ALLOC_SIZE_02383: &str = "VUID-VkMemoryAllocateInfo-allocationSize-02383";
/// An Android hardware buffer import's memoryTypeIndex is not in the memoryTypeBits
/// vkGetAndroidHardwareBufferPropertiesANDROID returns for the buffer.
pub const ALLOC_TYPE_INDEX_02385: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-02385";
/// An Android hardware buffer import dedicated to an image whose format is neither
/// VK_FORMAT_UNDEFINED nor the buffer's (VkAndroidHardwareBufferFormatPropertiesANDROID::format).
pub const ALLOC_PNEXT_02387: &str = "VUID-VkMemoryAllocateInfo-pNext-02387";

// vkGetSemaphoreFdKHR
/// device is not a VkDevice handle that was created through the layer.
pub const SEM_FD_DEVICE_PARAM: &str = "VUID-vkGetSemaphoreFdKHR-device-parameter";
/// pGetFdInfo is NULL instead of pointing to a VkSemaphoreGetFdInfoKHR.
pub const SEM_FD_INFO_PARAM: &str = "VUID-vkGetSemaphoreFdKHR-pGetFdInfo-parameter";
/// pFd is NULL, so there is nowhere to write the exported file descriptor.
pub const SEM_FD_PFD_PARAM: &str = "VUID-vkGetSemaphoreFdKHR-pFd-parameter";
/// sType is not VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR.
pub const SEM_FD_STYPE: &str = "VUID-VkSemaphoreGetFdInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkSemaphoreGetFdInfoKHR.
pub const SEM_FD_PNEXT: &str = "VUID-VkSemaphoreGetFdInfoKHR-pNext-pNext";
/// semaphore is not a live VkSemaphore handle (NULL, destroyed, or never created).
pub const SEM_FD_SEMAPHORE_PARAM: &str = "VUID-VkSemaphoreGetFdInfoKHR-semaphore-parameter";
/// handleType is not a single, defined VkExternalSemaphoreHandleTypeFlagBits value.
pub const SEM_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-parameter";
/// handleType was not in VkExportSemaphoreCreateInfo::handleTypes when the semaphore's current
/// payload was created (the semaphore's own, or, for an imported payload, its exporter's).
pub const SEM_FD_HANDLE_TYPE_01132: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-01132";
/// The semaphore's current payload was imported (permanently, or temporarily and not yet restored)
/// as a handle type not in VkExternalSemaphoreProperties::exportFromImportedHandleTypes of the
/// driver's answer for handleType.
pub const SEM_FD_SEMAPHORE_01133: &str = "VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133";
/// handleType is neither OPAQUE_FD_BIT nor SYNC_FD_BIT, the only semaphore types exportable as a
/// file descriptor.
pub const SEM_FD_HANDLE_TYPE_01136: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-01136";
/// handleType is SYNC_FD_BIT (copy transference) and the semaphore was created as a timeline
/// semaphore (VkSemaphoreTypeCreateInfo::semaphoreType VK_SEMAPHORE_TYPE_TIMELINE).
pub const SEM_FD_HANDLE_TYPE_03253: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-03253";
/// handleType is SYNC_FD_BIT (copy transference) and the semaphore is unsignaled with no signal
/// operation pending.
pub const SEM_FD_HANDLE_TYPE_01135: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-01135";
/// handleType is SYNC_FD_BIT (copy transference) and no semaphore signal operation was submitted
/// for the semaphore, or its signal depends on a signal operation not submitted.
pub const SEM_FD_HANDLE_TYPE_03254: &str = "VUID-VkSemaphoreGetFdInfoKHR-handleType-03254";
/// The VkSemaphore in the info structure belongs to a different VkDevice than the one the command
/// was called on.
pub const SEMAPHORE_OF_OTHER_DEVICE: &str = "EXPORTCHECK-semaphore-of-other-device";

// vkGetPhysicalDeviceExternalSemaphoreProperties
/// pExternalSemaphoreInfo is NULL instead of pointing to a VkPhysicalDeviceExternalSemaphoreInfo;
/// the call is not passed to the driver.
pub const SEM_CAPS_INFO_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalSemaphoreProperties-pExternalSemaphoreInfo-parameter";
/// pExternalSemaphoreProperties is NULL, so there is nowhere to write the properties; the call is
/// not passed to the driver.
pub const SEM_CAPS_PROPS_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalSemaphoreProperties-pExternalSemaphoreProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO; the call is not passed
/// to the driver.
pub const SEM_CAPS_INFO_STYPE: &str = "VUID-VkPhysicalDeviceExternalSemaphoreInfo-sType-sType";
/// pNext holds a structure other than VkSemaphoreTypeCreateInfo, the only one that extends
/// VkPhysicalDeviceExternalSemaphoreInfo.
pub const SEM_CAPS_INFO_PNEXT: &str = "VUID-VkPhysicalDeviceExternalSemaphoreInfo-pNext-pNext";
/// A structure type appears twice in the pNext chain (a VkSemaphoreTypeCreateInfo twice, or a chain
/// that loops back on itself, which is not passed to the driver).
pub const SEM_CAPS_INFO_UNIQUE: &str = "VUID-VkPhysicalDeviceExternalSemaphoreInfo-sType-unique";
/// handleType is not a single, defined VkExternalSemaphoreHandleTypeFlagBits value (0, several
/// bits, or a bit Vulkan does not define).
pub const SEM_CAPS_HANDLE_TYPE_PARAM: &str =
    "VUID-VkPhysicalDeviceExternalSemaphoreInfo-handleType-parameter";
/// sType is not VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES; the call is not passed to the
/// driver.
pub const SEM_CAPS_PROPS_STYPE: &str = "VUID-VkExternalSemaphoreProperties-sType-sType";
/// pNext is not NULL; no structure extends VkExternalSemaphoreProperties. The call goes down as the
/// app made it.
pub const SEM_CAPS_PROPS_PNEXT: &str = "VUID-VkExternalSemaphoreProperties-pNext-pNext";

// vkGetPhysicalDeviceExternalFenceProperties
/// pExternalFenceInfo is NULL instead of pointing to a VkPhysicalDeviceExternalFenceInfo; the call
/// is not passed to the driver.
pub const FENCE_CAPS_INFO_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalFenceProperties-pExternalFenceInfo-parameter";
/// pExternalFenceProperties is NULL, so there is nowhere to write the properties; the call is not
/// passed to the driver.
pub const FENCE_CAPS_PROPS_PARAM: &str =
    "VUID-vkGetPhysicalDeviceExternalFenceProperties-pExternalFenceProperties-parameter";
/// sType is not VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO; the call is not passed to
/// the driver.
pub const FENCE_CAPS_INFO_STYPE: &str = "VUID-VkPhysicalDeviceExternalFenceInfo-sType-sType";
/// pNext is not NULL; no structure extends VkPhysicalDeviceExternalFenceInfo. A chain that loops
/// back on itself is not passed to the driver.
pub const FENCE_CAPS_INFO_PNEXT: &str = "VUID-VkPhysicalDeviceExternalFenceInfo-pNext-pNext";
/// handleType is not a single, defined VkExternalFenceHandleTypeFlagBits value (0, several bits, or
/// a bit Vulkan does not define).
pub const FENCE_CAPS_HANDLE_TYPE_PARAM: &str =
    "VUID-VkPhysicalDeviceExternalFenceInfo-handleType-parameter";
/// sType is not VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES; the call is not passed to the driver.
pub const FENCE_CAPS_PROPS_STYPE: &str = "VUID-VkExternalFenceProperties-sType-sType";
/// pNext is not NULL; no structure extends VkExternalFenceProperties. The call goes down as the app
/// made it.
pub const FENCE_CAPS_PROPS_PNEXT: &str = "VUID-VkExternalFenceProperties-pNext-pNext";

// vkCreateSemaphore
/// A bit of handleTypes is not exportable (vkGetPhysicalDeviceExternalSemaphoreProperties reports
/// no VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT for it, for a semaphore of the type being
/// created), or two of its bits are not compatible (one is not in the other's
/// compatibleHandleTypes).
pub const EXPORT_SEM_HANDLE_TYPES_01124: &str =
    "VUID-VkExportSemaphoreCreateInfo-handleTypes-01124";
/// handleTypes has a bit that is not a VkExternalSemaphoreHandleTypeFlagBits value valid on the
/// device (undefined, or added by an extension the device was created without).
pub const EXPORT_SEM_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportSemaphoreCreateInfo-handleTypes-parameter";

// vkGetFenceFdKHR
/// device is not a VkDevice handle that was created through the layer.
pub const FENCE_FD_DEVICE_PARAM: &str = "VUID-vkGetFenceFdKHR-device-parameter";
/// pGetFdInfo is NULL instead of pointing to a VkFenceGetFdInfoKHR.
pub const FENCE_FD_INFO_PARAM: &str = "VUID-vkGetFenceFdKHR-pGetFdInfo-parameter";
/// pFd is NULL, so there is nowhere to write the exported file descriptor.
pub const FENCE_FD_PFD_PARAM: &str = "VUID-vkGetFenceFdKHR-pFd-parameter";
/// sType is not VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR.
pub const FENCE_FD_STYPE: &str = "VUID-VkFenceGetFdInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkFenceGetFdInfoKHR.
pub const FENCE_FD_PNEXT: &str = "VUID-VkFenceGetFdInfoKHR-pNext-pNext";
/// fence is not a live VkFence handle (NULL, destroyed, or never created).
pub const FENCE_FD_FENCE_PARAM: &str = "VUID-VkFenceGetFdInfoKHR-fence-parameter";
/// handleType is not a single, defined VkExternalFenceHandleTypeFlagBits value.
pub const FENCE_FD_HANDLE_TYPE_PARAM: &str = "VUID-VkFenceGetFdInfoKHR-handleType-parameter";
/// handleType was not in VkExportFenceCreateInfo::handleTypes when the fence's current payload was
/// created (the fence's own, or, for an imported payload, its exporter's).
pub const FENCE_FD_HANDLE_TYPE_01453: &str = "VUID-VkFenceGetFdInfoKHR-handleType-01453";
/// The fence's current payload was imported (permanently, or temporarily and not yet restored) as a
/// handle type not in VkExternalFenceProperties::exportFromImportedHandleTypes of the driver's
/// answer for handleType.
pub const FENCE_FD_FENCE_01455: &str = "VUID-VkFenceGetFdInfoKHR-fence-01455";
/// handleType is neither OPAQUE_FD_BIT nor SYNC_FD_BIT, the only fence types exportable as a file
/// descriptor.
pub const FENCE_FD_HANDLE_TYPE_01456: &str = "VUID-VkFenceGetFdInfoKHR-handleType-01456";
/// handleType is SYNC_FD_BIT (copy transference) and the fence is unsignaled with no signal
/// operation pending.
pub const FENCE_FD_HANDLE_TYPE_01454: &str = "VUID-VkFenceGetFdInfoKHR-handleType-01454";

// vkGetFenceWin32HandleKHR
/// device is not a VkDevice handle that was created through the layer.
pub const FENCE_WIN32_DEVICE_PARAM: &str = "VUID-vkGetFenceWin32HandleKHR-device-parameter";
/// pGetWin32HandleInfo is NULL instead of pointing to a VkFenceGetWin32HandleInfoKHR.
pub const FENCE_WIN32_INFO_PARAM: &str =
    "VUID-vkGetFenceWin32HandleKHR-pGetWin32HandleInfo-parameter";
/// pHandle is NULL, so there is nowhere to write the exported handle.
pub const FENCE_WIN32_PHANDLE_PARAM: &str = "VUID-vkGetFenceWin32HandleKHR-pHandle-parameter";
/// sType is not VK_STRUCTURE_TYPE_FENCE_GET_WIN32_HANDLE_INFO_KHR.
pub const FENCE_WIN32_STYPE: &str = "VUID-VkFenceGetWin32HandleInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkFenceGetWin32HandleInfoKHR.
pub const FENCE_WIN32_PNEXT: &str = "VUID-VkFenceGetWin32HandleInfoKHR-pNext-pNext";
/// fence is not a live VkFence handle (NULL, destroyed, or never created).
pub const FENCE_WIN32_FENCE_PARAM: &str = "VUID-VkFenceGetWin32HandleInfoKHR-fence-parameter";
/// handleType is not a single, defined VkExternalFenceHandleTypeFlagBits value.
pub const FENCE_WIN32_HANDLE_TYPE_PARAM: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-parameter";
/// handleType was not in VkExportFenceCreateInfo::handleTypes when the fence's current payload was
/// created (the fence's own, or, for an imported payload, its exporter's).
pub const FENCE_WIN32_HANDLE_TYPE_01448: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01448";
/// The fence's current payload was imported (permanently, or temporarily and not yet restored) as a
/// handle type not in VkExternalFenceProperties::exportFromImportedHandleTypes of the driver's
/// answer for handleType.
pub const FENCE_WIN32_FENCE_01450: &str = "VUID-VkFenceGetWin32HandleInfoKHR-fence-01450";
/// An NT handle (OPAQUE_WIN32) of this fence was already exported by an earlier
/// vkGetFenceWin32HandleKHR call that succeeded; the layer remembers such exports per live fence
/// and forgets them at vkDestroyFence.
pub const FENCE_WIN32_HANDLE_TYPE_01449: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01449";
/// handleType is neither OPAQUE_WIN32_BIT (an NT handle) nor OPAQUE_WIN32_KMT_BIT (a global share
/// handle), the only fence types exportable as a Win32 handle.
pub const FENCE_WIN32_HANDLE_TYPE_01452: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01452";
/// handleType is a copy-transference type (SYNC_FD, which the command does not take: -01452) and
/// the fence is unsignaled with no signal operation pending.
pub const FENCE_WIN32_HANDLE_TYPE_01451: &str =
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01451";

// vkGetFenceFdKHR
/// The VkFence in the info structure belongs to a different VkDevice than the one the command was
/// called on.
pub const FENCE_OF_OTHER_DEVICE: &str = "EXPORTCHECK-fence-of-other-device";

// vkCreateFence
/// handleTypes has bits that are not defined VkExternalFenceHandleTypeFlagBits values.
pub const EXPORT_FENCE_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportFenceCreateInfo-handleTypes-parameter";
/// A handle type in handleTypes is not exportable, or two are not compatible, as
/// vkGetPhysicalDeviceExternalFenceProperties reports.
pub const EXPORT_FENCE_HANDLE_TYPES_01446: &str = "VUID-VkExportFenceCreateInfo-handleTypes-01446";

// vkQueueSubmit
/// waitSemaphoreValuesCount differs from the VkSubmitInfo's waitSemaphoreCount.
pub const D3D12_FENCE_SUBMIT_WAIT_COUNT_00079: &str =
    "VUID-VkD3D12FenceSubmitInfoKHR-waitSemaphoreValuesCount-00079";
/// signalSemaphoreValuesCount differs from the VkSubmitInfo's signalSemaphoreCount.
pub const D3D12_FENCE_SUBMIT_SIGNAL_COUNT_00080: &str =
    "VUID-VkD3D12FenceSubmitInfoKHR-signalSemaphoreValuesCount-00080";
/// sType is not VK_STRUCTURE_TYPE_D3D12_FENCE_SUBMIT_INFO_KHR.
pub const D3D12_FENCE_SUBMIT_STYPE: &str = "VUID-VkD3D12FenceSubmitInfoKHR-sType-sType";

// vkCreateSemaphore
/// sType is not VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO.
pub const EXPORT_SEM_STYPE: &str = "VUID-VkExportSemaphoreCreateInfo-sType-sType";
/// sType is not VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_WIN32_HANDLE_INFO_KHR.
pub const EXPORT_SEM_WIN32_STYPE: &str = "VUID-VkExportSemaphoreWin32HandleInfoKHR-sType-sType";

// vkCreateFence
/// sType is not VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO.
pub const EXPORT_FENCE_STYPE: &str = "VUID-VkExportFenceCreateInfo-sType-sType";
/// The pNext chain has a VkExportFenceWin32HandleInfoKHR, but VkExportFenceCreateInfo::handleTypes
/// does not include VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT (judged when the chain has a
/// VkExportFenceCreateInfo).
pub const EXPORT_FENCE_WIN32_HANDLE_TYPES_01447: &str =
    "VUID-VkExportFenceWin32HandleInfoKHR-handleTypes-01447";
/// sType is not VK_STRUCTURE_TYPE_EXPORT_FENCE_WIN32_HANDLE_INFO_KHR.
pub const EXPORT_FENCE_WIN32_STYPE: &str = "VUID-VkExportFenceWin32HandleInfoKHR-sType-sType";

// vkImportFenceFdKHR
/// device is not a VkDevice handle that was created through the layer.
pub const FENCE_IMPORT_FD_DEVICE_PARAM: &str = "VUID-vkImportFenceFdKHR-device-parameter";
/// The fence's signal, submitted to a queue, has not completed (vkGetFenceStatus: VK_NOT_READY)
/// when a payload is imported into it.
pub const IMPORT_FENCE_FD_FENCE_01463: &str = "VUID-vkImportFenceFdKHR-fence-01463";
/// pImportFenceFdInfo is NULL.
pub const FENCE_IMPORT_FD_INFO_PARAM: &str = "VUID-vkImportFenceFdKHR-pImportFenceFdInfo-parameter";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR.
pub const FENCE_IMPORT_FD_STYPE: &str = "VUID-VkImportFenceFdInfoKHR-sType-sType";
/// pNext is not NULL.
pub const FENCE_IMPORT_FD_PNEXT: &str = "VUID-VkImportFenceFdInfoKHR-pNext-pNext";
/// fence is VK_NULL_HANDLE, destroyed, or not a VkFence the layer saw created.
pub const FENCE_IMPORT_FD_FENCE_PARAM: &str = "VUID-VkImportFenceFdInfoKHR-fence-parameter";
/// handleType is not a single, defined VkExternalFenceHandleTypeFlagBits value valid on the device.
pub const FENCE_IMPORT_FD_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportFenceFdInfoKHR-handleType-parameter";
/// flags has bits that are not VkFenceImportFlagBits values.
pub const FENCE_IMPORT_FD_FLAGS_PARAM: &str = "VUID-VkImportFenceFdInfoKHR-flags-parameter";
/// handleType is neither OPAQUE_FD_BIT nor SYNC_FD_BIT (the handle types vkImportFenceFdKHR
/// supports).
pub const FENCE_IMPORT_FD_HANDLE_TYPE_01464: &str = "VUID-VkImportFenceFdInfoKHR-handleType-01464";
/// handleType is SYNC_FD_BIT (copy transference) and flags lacks VK_FENCE_IMPORT_TEMPORARY_BIT.
pub const FENCE_IMPORT_FD_HANDLE_TYPE_07306: &str = "VUID-VkImportFenceFdInfoKHR-handleType-07306";
/// An OPAQUE_FD import of an fd exported by a device whose deviceUUID or driverUUID differs from
/// the importing device's (the external fence handle types compatibility table).
pub const FENCE_IMPORT_FD_FD_01541: &str = "VUID-VkImportFenceFdInfoKHR-fd-01541";

// vkImportFenceWin32HandleKHR
/// device is not a VkDevice handle that was created through the layer.
pub const FENCE_IMPORT_WIN32_DEVICE_PARAM: &str =
    "VUID-vkImportFenceWin32HandleKHR-device-parameter";
/// The fence's signal, submitted to a queue, has not completed (vkGetFenceStatus: VK_NOT_READY)
/// when a payload is imported into it.
pub const IMPORT_FENCE_WIN32_FENCE_04448: &str = "VUID-vkImportFenceWin32HandleKHR-fence-04448";
/// pImportFenceWin32HandleInfo is NULL.
pub const FENCE_IMPORT_WIN32_INFO_PARAM: &str =
    "VUID-vkImportFenceWin32HandleKHR-pImportFenceWin32HandleInfo-parameter";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_FENCE_WIN32_HANDLE_INFO_KHR.
pub const FENCE_IMPORT_WIN32_STYPE: &str = "VUID-VkImportFenceWin32HandleInfoKHR-sType-sType";
/// pNext is not NULL.
pub const FENCE_IMPORT_WIN32_PNEXT: &str = "VUID-VkImportFenceWin32HandleInfoKHR-pNext-pNext";
/// fence is VK_NULL_HANDLE, destroyed, or not a VkFence the layer saw created.
pub const FENCE_IMPORT_WIN32_FENCE_PARAM: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-fence-parameter";
/// flags has bits that are not VkFenceImportFlagBits values.
pub const FENCE_IMPORT_WIN32_FLAGS_PARAM: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-flags-parameter";
/// handleType is neither OPAQUE_WIN32_BIT nor OPAQUE_WIN32_KMT_BIT (the handle types
/// vkImportFenceWin32HandleKHR supports).
pub const FENCE_IMPORT_WIN32_HANDLE_TYPE_01457: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-handleType-01457";
/// handle and name are both not NULL.
pub const FENCE_IMPORT_WIN32_HANDLE_01462: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-handle-01462";
/// name is not NULL, but handleType is not OPAQUE_WIN32_BIT (only an NT handle type imports by
/// name).
pub const FENCE_IMPORT_WIN32_HANDLE_TYPE_01459: &str =
    "VUID-VkImportFenceWin32HandleInfoKHR-handleType-01459";

// vkGetSemaphoreWin32HandleKHR
/// device is not a VkDevice handle that was created through the layer.
pub const SEM_WIN32_DEVICE_PARAM: &str = "VUID-vkGetSemaphoreWin32HandleKHR-device-parameter";
/// pGetWin32HandleInfo is NULL instead of pointing to a VkSemaphoreGetWin32HandleInfoKHR.
pub const SEM_WIN32_INFO_PARAM: &str =
    "VUID-vkGetSemaphoreWin32HandleKHR-pGetWin32HandleInfo-parameter";
/// pHandle is NULL, so there is nowhere to write the exported handle.
pub const SEM_WIN32_PHANDLE_PARAM: &str = "VUID-vkGetSemaphoreWin32HandleKHR-pHandle-parameter";
/// sType is not VK_STRUCTURE_TYPE_SEMAPHORE_GET_WIN32_HANDLE_INFO_KHR.
pub const SEM_WIN32_STYPE: &str = "VUID-VkSemaphoreGetWin32HandleInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkSemaphoreGetWin32HandleInfoKHR.
pub const SEM_WIN32_PNEXT: &str = "VUID-VkSemaphoreGetWin32HandleInfoKHR-pNext-pNext";
/// semaphore is not a live VkSemaphore handle (NULL, destroyed, or never created).
pub const SEM_WIN32_SEMAPHORE_PARAM: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-parameter";
/// handleType is not a single, defined VkExternalSemaphoreHandleTypeFlagBits value.
pub const SEM_WIN32_HANDLE_TYPE_PARAM: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-parameter";
/// handleType was not in VkExportSemaphoreCreateInfo::handleTypes when the semaphore's current
/// payload was created (the semaphore's own, or, for an imported payload, its exporter's).
pub const SEM_WIN32_HANDLE_TYPE_01126: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01126";
/// The semaphore's current payload was imported (permanently, or temporarily and not yet restored)
/// as a handle type not in VkExternalSemaphoreProperties::exportFromImportedHandleTypes of the
/// driver's answer for handleType.
pub const SEM_WIN32_SEMAPHORE_01128: &str = "VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-01128";
/// handleType is an NT handle type (OPAQUE_WIN32_BIT, D3D12_FENCE_BIT) and an NT handle of this
/// type was already exported from the semaphore by an earlier call that succeeded.
pub const SEM_WIN32_HANDLE_TYPE_01127: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01127";
/// handleType is none of the handle types defined as an NT handle or a global share handle
/// (OPAQUE_WIN32_BIT, OPAQUE_WIN32_KMT_BIT, D3D12_FENCE_BIT).
pub const SEM_WIN32_HANDLE_TYPE_01131: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01131";
/// handleType is a copy-transference type (SYNC_FD, which the command does not take: -01131) and
/// the semaphore is unsignaled with no signal operation pending.
pub const SEM_WIN32_HANDLE_TYPE_01130: &str =
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01130";

// vkGetSemaphoreZirconHandleFUCHSIA
/// device is not a VkDevice handle that was created through the layer.
pub const SEM_ZIRCON_DEVICE_PARAM: &str = "VUID-vkGetSemaphoreZirconHandleFUCHSIA-device-parameter";
/// pGetZirconHandleInfo is NULL instead of pointing to a VkSemaphoreGetZirconHandleInfoFUCHSIA.
pub const SEM_ZIRCON_INFO_PARAM: &str =
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter";
/// pZirconHandle is NULL, so there is nowhere to write the exported Zircon handle.
pub const SEM_ZIRCON_PHANDLE_PARAM: &str =
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-pZirconHandle-parameter";
/// sType is not VK_STRUCTURE_TYPE_SEMAPHORE_GET_ZIRCON_HANDLE_INFO_FUCHSIA.
pub const SEM_ZIRCON_STYPE: &str = "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-sType-sType";
/// pNext is not NULL; no structure extends VkSemaphoreGetZirconHandleInfoFUCHSIA.
pub const SEM_ZIRCON_PNEXT: &str = "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-pNext-pNext";
/// semaphore is not a live VkSemaphore handle (NULL, destroyed, or never created).
pub const SEM_ZIRCON_SEMAPHORE_PARAM: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-parameter";
/// handleType is not a single, defined VkExternalSemaphoreHandleTypeFlagBits value.
pub const SEM_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-parameter";
/// handleType was not in VkExportSemaphoreCreateInfo::handleTypes when the semaphore's current
/// payload was created (the semaphore's own, or, for an imported payload, its exporter's).
pub const SEM_ZIRCON_HANDLE_TYPE_04758: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04758";
/// The semaphore's current payload was imported (permanently, or temporarily and not yet restored)
/// as a handle type not in VkExternalSemaphoreProperties::exportFromImportedHandleTypes of the
/// driver's answer for handleType.
pub const SEM_ZIRCON_SEMAPHORE_04759: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04759";
/// handleType is not VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA, the one handle
/// type defined as a Zircon event handle.
pub const SEM_ZIRCON_HANDLE_TYPE_04762: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04762";
/// handleType is a copy-transference type (SYNC_FD, which the command does not take: -04762) and
/// the semaphore is unsignaled with no signal operation pending.
pub const SEM_ZIRCON_HANDLE_TYPE_04761: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04761";
/// The semaphore was created as a timeline semaphore (VkSemaphoreTypeCreateInfo::semaphoreType
/// VK_SEMAPHORE_TYPE_TIMELINE); only binary ones can be exported as a Zircon event.
pub const SEM_ZIRCON_SEMAPHORE_04763: &str =
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04763";

// vkCreateSemaphore
/// The pNext chain of VkSemaphoreCreateInfo has a VkExportSemaphoreWin32HandleInfoKHR, but
/// VkExportSemaphoreCreateInfo::handleTypes includes neither OPAQUE_WIN32_BIT nor D3D12_FENCE_BIT
/// (judged when the chain has a VkExportSemaphoreCreateInfo).
pub const EXPORT_SEM_WIN32_HANDLE_TYPES_01125: &str =
    "VUID-VkExportSemaphoreWin32HandleInfoKHR-handleTypes-01125";

// vkImportSemaphoreFdKHR
/// device is not a VkDevice handle that was created through the layer.
pub const SEM_IMPORT_FD_DEVICE_PARAM: &str = "VUID-vkImportSemaphoreFdKHR-device-parameter";
/// The latest queue submission that waited on or signaled the semaphore has not completed (its
/// fence: vkGetFenceStatus VK_NOT_READY) when a payload is imported into it.
pub const IMPORT_SEMAPHORE_FD_SEMAPHORE_01142: &str = "VUID-vkImportSemaphoreFdKHR-semaphore-01142";
/// pImportSemaphoreFdInfo is NULL instead of pointing to a VkImportSemaphoreFdInfoKHR.
pub const SEM_IMPORT_FD_INFO_PARAM: &str =
    "VUID-vkImportSemaphoreFdKHR-pImportSemaphoreFdInfo-parameter";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR.
pub const SEM_IMPORT_FD_STYPE: &str = "VUID-VkImportSemaphoreFdInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkImportSemaphoreFdInfoKHR.
pub const SEM_IMPORT_FD_PNEXT: &str = "VUID-VkImportSemaphoreFdInfoKHR-pNext-pNext";
/// semaphore is not a live VkSemaphore handle (NULL, destroyed, or never created).
pub const SEM_IMPORT_FD_SEMAPHORE_PARAM: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-semaphore-parameter";
/// handleType is not a single, defined VkExternalSemaphoreHandleTypeFlagBits value.
pub const SEM_IMPORT_FD_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-parameter";
/// flags has bits that are not VkSemaphoreImportFlagBits values.
pub const SEM_IMPORT_FD_FLAGS_PARAM: &str = "VUID-VkImportSemaphoreFdInfoKHR-flags-parameter";
/// handleType is neither OPAQUE_FD_BIT nor SYNC_FD_BIT, the only semaphore types importable from a
/// file descriptor.
pub const SEM_IMPORT_FD_HANDLE_TYPE_01143: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-01143";
/// handleType is SYNC_FD_BIT (copy transference) and flags lacks VK_SEMAPHORE_IMPORT_TEMPORARY_BIT.
pub const SEM_IMPORT_FD_HANDLE_TYPE_07307: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-07307";
/// An OPAQUE_FD import into a semaphore created with other VkSemaphoreCreateInfo::flags than the
/// semaphore the fd was exported from.
pub const SEM_IMPORT_FD_HANDLE_TYPE_03263: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-03263";
/// An OPAQUE_FD import into a semaphore of another type (binary or timeline) than the semaphore the
/// fd was exported from. The call is not passed to the driver.
pub const SEM_IMPORT_FD_HANDLE_TYPE_03264: &str =
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-03264";
/// flags has VK_SEMAPHORE_IMPORT_TEMPORARY_BIT and the fd was exported from a timeline semaphore.
/// The call is not passed to the driver.
pub const SEM_IMPORT_FD_FLAGS_03323: &str = "VUID-VkImportSemaphoreFdInfoKHR-flags-03323";
/// An OPAQUE_FD import of an fd exported by a device whose deviceUUID or driverUUID differs from
/// the importing device's (the external semaphore handle types compatibility table).
pub const SEM_IMPORT_FD_FD_01544: &str = "VUID-VkImportSemaphoreFdInfoKHR-fd-01544";
/// An OPAQUE_FD semaphore or fence import (vkImportSemaphoreFdKHR, vkImportFenceFdKHR) names an fd
/// the layer knows as another kind's export: a memory object's (vkGetMemoryFdKHR), or a fence's
/// imported into a semaphore, a semaphore's into a fence. An OPAQUE_FD semaphore handle owns a
/// reference to the synchronization primitive of a Vulkan semaphore, a fence handle to a fence's.
/// The call is not passed to the driver.
pub const FD_OF_ANOTHER_KIND: &str = "EXPORTCHECK-fd-of-another-kind";

// vkImportSemaphoreWin32HandleKHR
/// device is not a VkDevice handle that was created through the layer.
pub const SEM_IMPORT_WIN32_DEVICE_PARAM: &str =
    "VUID-vkImportSemaphoreWin32HandleKHR-device-parameter";
/// pImportSemaphoreWin32HandleInfo is NULL instead of pointing to a
/// VkImportSemaphoreWin32HandleInfoKHR.
pub const SEM_IMPORT_WIN32_INFO_PARAM: &str =
    "VUID-vkImportSemaphoreWin32HandleKHR-pImportSemaphoreWin32HandleInfo-parameter";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_WIN32_HANDLE_INFO_KHR.
pub const SEM_IMPORT_WIN32_STYPE: &str = "VUID-VkImportSemaphoreWin32HandleInfoKHR-sType-sType";
/// pNext is not NULL; no structure extends VkImportSemaphoreWin32HandleInfoKHR.
pub const SEM_IMPORT_WIN32_PNEXT: &str = "VUID-VkImportSemaphoreWin32HandleInfoKHR-pNext-pNext";
/// semaphore is not a live VkSemaphore handle (NULL, destroyed, or never created).
pub const SEM_IMPORT_WIN32_SEMAPHORE_PARAM: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-semaphore-parameter";
/// flags has bits that are not VkSemaphoreImportFlagBits values.
pub const SEM_IMPORT_WIN32_FLAGS_PARAM: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-parameter";
/// handleType is not OPAQUE_WIN32_BIT, OPAQUE_WIN32_KMT_BIT or D3D12_FENCE_BIT, the semaphore types
/// importable from a Windows handle.
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_01140: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01140";
/// handle and name are both not NULL.
pub const SEM_IMPORT_WIN32_HANDLE_01469: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handle-01469";
/// name is not NULL and handleType is neither OPAQUE_WIN32_BIT nor D3D12_FENCE_BIT, the only types
/// imported by name.
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_01466: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01466";
/// An OPAQUE_WIN32_KMT import into a semaphore created with other VkSemaphoreCreateInfo::flags than
/// the semaphore the handle was exported from.
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_03261: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03261";
/// An OPAQUE_WIN32_KMT import into a semaphore of another type (binary or timeline) than the
/// semaphore the handle was exported from. The call is not passed to the driver.
pub const SEM_IMPORT_WIN32_HANDLE_TYPE_03262: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03262";
/// flags has VK_SEMAPHORE_IMPORT_TEMPORARY_BIT and the handle was exported from a timeline
/// semaphore. The call is not passed to the driver.
pub const SEM_IMPORT_WIN32_FLAGS_03322: &str =
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-03322";

// vkImportSemaphoreZirconHandleFUCHSIA
/// device is not a VkDevice handle that was created through the layer.
pub const SEM_IMPORT_ZIRCON_DEVICE_PARAM: &str =
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-device-parameter";
/// The latest queue submission that waited on or signaled the semaphore has not completed (its
/// fence: vkGetFenceStatus VK_NOT_READY) when a payload is imported into it.
pub const IMPORT_SEMAPHORE_ZIRCON_SEMAPHORE_04764: &str =
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764";
/// pImportSemaphoreZirconHandleInfo is NULL instead of pointing to a
/// VkImportSemaphoreZirconHandleInfoFUCHSIA.
pub const SEM_IMPORT_ZIRCON_INFO_PARAM: &str =
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-pImportSemaphoreZirconHandleInfo-parameter";
/// sType is not VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_ZIRCON_HANDLE_INFO_FUCHSIA.
pub const SEM_IMPORT_ZIRCON_STYPE: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-sType-sType";
/// pNext is not NULL; no structure extends VkImportSemaphoreZirconHandleInfoFUCHSIA.
pub const SEM_IMPORT_ZIRCON_PNEXT: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-pNext-pNext";
/// semaphore is not a live VkSemaphore handle (NULL, destroyed, or never created).
pub const SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphore-parameter";
/// handleType is not a single, defined VkExternalSemaphoreHandleTypeFlagBits value.
pub const SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-parameter";
/// flags has bits that are not VkSemaphoreImportFlagBits values.
pub const SEM_IMPORT_ZIRCON_FLAGS_PARAM: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-flags-parameter";
/// handleType is not ZIRCON_EVENT_BIT_FUCHSIA, the only semaphore type importable from a Zircon
/// handle.
pub const SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-04765";
/// The semaphore imported into was created as a timeline semaphore
/// (VkSemaphoreTypeCreateInfo::semaphoreType VK_SEMAPHORE_TYPE_TIMELINE).
pub const SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768: &str =
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphoreType-04768";

// cuImportExternalMemory
/// cuImportExternalMemory imports an fd a Vulkan vkGetMemoryFdKHR exported as OPAQUE_FD with a size
/// (CUDA_EXTERNAL_MEMORY_HANDLE_DESC::size) other than the exporting allocation's allocationSize.
/// CUDA's documentation: "The size of the memory object must be specified in
/// CUDA_EXTERNAL_MEMORY_HANDLE_DESC::size"; NVIDIA's driver accepts a wrong size silently
/// (measured: 580.159, CUDA 13) and fails only later, or maps memory the allocation does not have.
pub const CUDA_MEMORY_SIZE: &str = "EXPORTCHECK-cuda-memory-size";
/// cuImportExternalMemory imports an fd of a Vulkan OPAQUE_FD export with
/// CUDA_EXTERNAL_MEMORY_DEDICATED set although the Vulkan allocation is not a dedicated one (no
/// VkMemoryDedicatedAllocateInfo naming an image or buffer), or without it although the allocation
/// is dedicated. CUDA's documentation: the flag "indicates that the external memory object is a
/// dedicated resource", and its Vulkan interoperability guide sets it exactly when the Vulkan
/// memory was allocated dedicated; NVIDIA's driver accepts either silently (undefined behaviour).
pub const CUDA_MEMORY_DEDICATED: &str = "EXPORTCHECK-cuda-memory-dedicated";
/// cuImportExternalMemory or cuImportExternalSemaphore imports a Vulkan export into a CUDA context
/// whose device's UUID (cuDeviceGetUuid) differs from the deviceUUID of the Vulkan physical device
/// that exported it. CUDA's Vulkan interoperability guide: objects exported by Vulkan must be
/// imported and mapped on the same device as they were created on, found by comparing the CUDA
/// device's UUID with the Vulkan physical device's.
pub const CUDA_DEVICE_MISMATCH: &str = "EXPORTCHECK-cuda-device-mismatch";
/// A CUDA import names an fd the layer knows as a Vulkan export of another kind of object or handle
/// type: cuImportExternalMemory of an fd that vkGetSemaphoreFdKHR exported (a semaphore's payload),
/// or cuImportExternalSemaphore of an fd that vkGetMemoryFdKHR exported (memory). CUDA's
/// CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD and
/// CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD/TIMELINE_SEMAPHORE_FD take Vulkan's OPAQUE_FD
/// exports of memory and semaphores respectively.
pub const CUDA_HANDLE_TYPE: &str = "EXPORTCHECK-cuda-handle-type";

// cuExternalMemoryGetMappedBuffer
/// cuExternalMemoryGetMappedBuffer or cuExternalMemoryGetMappedMipmappedArray maps a range (the
/// offset plus the size, or the array's offset) beyond the imported memory: beyond the size the
/// import declared, or beyond the exporting Vulkan allocation's allocationSize where the layer
/// knows the export. CUDA's documentation: the offset is "the offset in the memory object where the
/// buffer's base address is" and the buffer lies in the memory object.
pub const CUDA_MAPPED_RANGE: &str = "EXPORTCHECK-cuda-mapped-range";

// cuImportExternalMemory
/// cuImportExternalMemory or cuImportExternalSemaphore names an fd that an earlier successful
/// import (CUDA's or Vulkan's) already took. CUDA's documentation: "Ownership of the file
/// descriptor is transferred to the CUDA driver when the handle is imported successfully.
/// Performing any operations on the file descriptor after it is imported results in undefined
/// behavior." NVIDIA's driver closes the fd at the import: its number then names whatever file the
/// process opens next.
pub const CUDA_FD_IMPORTED_TWICE: &str = "EXPORTCHECK-cuda-fd-imported-twice";

// cuDestroyExternalMemory
/// The process closed or replaced (close, dup2) an fd a successful cuImportExternalMemory or
/// cuImportExternalSemaphore had taken, found at cuDestroyExternalMemory or
/// cuDestroyExternalSemaphore of that import. CUDA's documentation: performing any operations on
/// the file descriptor after it is imported results in undefined behavior; the driver closed it, so
/// the app's close closes whatever file took the number since (libplacebo #46).
pub const CUDA_FD_CLOSED_AFTER_IMPORT: &str = "EXPORTCHECK-cuda-fd-closed-after-import";

// cuImportExternalSemaphore
/// cuImportExternalSemaphore imports the OPAQUE_FD export of a Vulkan binary semaphore as
/// CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, or of a timeline semaphore as
/// CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD. CUDA's documentation: TIMELINE_SEMAPHORE_FD is
/// "Handle is an opaque file descriptor referencing a timeline semaphore", OPAQUE_FD one
/// referencing a binary semaphore.
pub const CUDA_SEMAPHORE_TYPE: &str = "EXPORTCHECK-cuda-semaphore-type";

/// Every ID above: the IDs the catalog calls checked.
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
    IMPORT_HOST_HANDLE_TYPE_PARAM,
    IMPORT_HOST_HANDLE_TYPE_01748,
    IMPORT_HOST_POINTER_01749,
    IMPORT_HOST_STYPE,
    ALLOC_SIZE_01745,
    ALLOC_PNEXT_02806,
    ALLOC_PNEXT_02805,
    ALLOC_PNEXT_03332,
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
    ALLOC_TYPE_INDEX_01744,
    ALLOC_DEVICE_PARAM,
    ALLOC_INFO_PARAM,
    ALLOC_PMEMORY_PARAM,
    ALLOC_TYPE_INDEX_01714,
    ALLOC_SIZE_01713,
    ALLOC_STYPE,
    ALLOC_PNEXT_00640,
    ALLOC_STYPE_UNIQUE,
    ALLOC_PNEXT_PNEXT,
    ALLOC_SIZE_07899,
    ALLOC_PNEXT_00639,
    EXPORT_HANDLE_TYPES_PARAM,
    EXPORT_HANDLE_TYPES_09860,
    EXPORT_STYPE,
    EXPORT_NV_STYPE,
    EXPORT_NV_HANDLE_TYPES_PARAM,
    EXPORT_WIN32_HANDLE_TYPES_00657,
    EXPORT_WIN32_STYPE,
    EXPORT_WIN32_NV_STYPE,
    FREE_DEVICE_PARAM,
    FREE_MEMORY_PARAM,
    FREE_MEMORY_PARENT,
    ALLOC_SIZE_07897,
    ALLOC_CAPTURE_ADDRESS_03329,
    ALLOC_CAPTURE_ADDRESS_03333,
    ALLOC_FLAGS_03330,
    ALLOC_FLAGS_03331,
    ALLOC_TYPE_INDEX_01872,
    ALLOC_DEVICE_COHERENT_02790,
    ALLOC_TILE_MEMORY_HEAP_10976,
    ALLOC_DEVICE_QUEUECOUNT,
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
    DRIVER_INVALID_FD,
    DRIVER_FD_NOT_CLOEXEC,
    DRIVER_FD_NOT_NEW,
    DRIVER_NULL_REMOTE_ADDRESS,
    DRIVER_NULL_WIN32_HANDLE,
    DRIVER_NULL_METAL_HANDLE,
    DRIVER_NULL_WIN32_HANDLE_KHR,
    DRIVER_INVALID_ZIRCON_HANDLE,
    DRIVER_NULL_ANDROID_HARDWARE_BUFFER,
    EXPORTED_FD_LEAKED,
    ALLOC_NONE_06657,
    IMPORT_FD_HANDLE_TYPE_00669,
    IMPORT_FD_HANDLE_TYPE_00670,
    IMPORT_FD_HANDLE_TYPE_PARAM,
    IMPORT_FD_STYPE,
    ALLOC_SIZE_01742,
    DEDICATED_IMAGE_01878,
    DEDICATED_BUFFER_01879,
    FD_IMPORTED_TWICE,
    FD_CLOSED_AFTER_IMPORT,
    SHARED_EXPORTS_IGNORED,
    KCMP_REFUSED,
    AHB_PROPS_WRONG_STYPE,
    AHB_PROPS_CHAIN_LOOPS,
    DEDICATED_IMAGE_01432,
    DEDICATED_IMAGE_01434,
    DEDICATED_IMAGE_01797,
    DEDICATED_BUFFER_01436,
    DEDICATED_STYPE,
    IMPORT_FD_00668,
    IMPORT_FD_01746,
    IMPORT_FD_01520,
    IMPORT_FD_HANDLE_TYPE_09862,
    IMPORT_WIN32_HANDLE_TYPE_PARAM,
    IMPORT_WIN32_HANDLE_TYPE_00660,
    IMPORT_WIN32_HANDLE_TYPE_01439,
    IMPORT_WIN32_HANDLE_01441,
    IMPORT_WIN32_HANDLE_TYPE_00661,
    IMPORT_WIN32_HANDLE_TYPE_01440,
    IMPORT_WIN32_STYPE,
    IMPORT_WIN32_HANDLE_TYPE_09861,
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
    ALLOC_NONE_04749,
    IMPORT_METAL_HANDLE_TYPE_PARAM,
    IMPORT_METAL_HANDLE_TYPE_10410,
    IMPORT_METAL_HANDLE_TYPE_10411,
    IMPORT_METAL_STYPE,
    ALLOC_PNEXT_10395,
    ALLOC_PNEXT_10397,
    IMPORT_AHB_STYPE,
    ALLOC_SIZE_01743,
    ALLOC_NONE_00643,
    ALLOC_NONE_00644,
    DEDICATED_IMAGE_01876,
    DEDICATED_BUFFER_01877,
    DEDICATED_IMAGE_PARAM,
    DEDICATED_BUFFER_PARAM,
    DEDICATED_COMMONPARENT,
    DEDICATED_IMAGE_02964,
    DEDICATED_BUFFER_02965,
    ALLOC_PNEXT_01874,
    ALLOC_PNEXT_07900,
    ALLOC_PNEXT_07901,
    ALLOC_SIZE_02383,
    ALLOC_TYPE_INDEX_02385,
    ALLOC_PNEXT_02387,
    SEM_FD_DEVICE_PARAM,
    SEM_FD_INFO_PARAM,
    SEM_FD_PFD_PARAM,
    SEM_FD_STYPE,
    SEM_FD_PNEXT,
    SEM_FD_SEMAPHORE_PARAM,
    SEM_FD_HANDLE_TYPE_PARAM,
    SEM_FD_HANDLE_TYPE_01132,
    SEM_FD_SEMAPHORE_01133,
    SEM_FD_HANDLE_TYPE_01136,
    SEM_FD_HANDLE_TYPE_03253,
    SEM_FD_HANDLE_TYPE_01135,
    SEM_FD_HANDLE_TYPE_03254,
    SEMAPHORE_OF_OTHER_DEVICE,
    SEM_CAPS_INFO_PARAM,
    SEM_CAPS_PROPS_PARAM,
    SEM_CAPS_INFO_STYPE,
    SEM_CAPS_INFO_PNEXT,
    SEM_CAPS_INFO_UNIQUE,
    SEM_CAPS_HANDLE_TYPE_PARAM,
    SEM_CAPS_PROPS_STYPE,
    SEM_CAPS_PROPS_PNEXT,
    FENCE_CAPS_INFO_PARAM,
    FENCE_CAPS_PROPS_PARAM,
    FENCE_CAPS_INFO_STYPE,
    FENCE_CAPS_INFO_PNEXT,
    FENCE_CAPS_HANDLE_TYPE_PARAM,
    FENCE_CAPS_PROPS_STYPE,
    FENCE_CAPS_PROPS_PNEXT,
    EXPORT_SEM_HANDLE_TYPES_01124,
    EXPORT_SEM_HANDLE_TYPES_PARAM,
    FENCE_FD_DEVICE_PARAM,
    FENCE_FD_INFO_PARAM,
    FENCE_FD_PFD_PARAM,
    FENCE_FD_STYPE,
    FENCE_FD_PNEXT,
    FENCE_FD_FENCE_PARAM,
    FENCE_FD_HANDLE_TYPE_PARAM,
    FENCE_FD_HANDLE_TYPE_01453,
    FENCE_FD_FENCE_01455,
    FENCE_FD_HANDLE_TYPE_01456,
    FENCE_FD_HANDLE_TYPE_01454,
    FENCE_WIN32_DEVICE_PARAM,
    FENCE_WIN32_INFO_PARAM,
    FENCE_WIN32_PHANDLE_PARAM,
    FENCE_WIN32_STYPE,
    FENCE_WIN32_PNEXT,
    FENCE_WIN32_FENCE_PARAM,
    FENCE_WIN32_HANDLE_TYPE_PARAM,
    FENCE_WIN32_HANDLE_TYPE_01448,
    FENCE_WIN32_FENCE_01450,
    FENCE_WIN32_HANDLE_TYPE_01449,
    FENCE_WIN32_HANDLE_TYPE_01452,
    FENCE_WIN32_HANDLE_TYPE_01451,
    FENCE_OF_OTHER_DEVICE,
    EXPORT_FENCE_HANDLE_TYPES_PARAM,
    EXPORT_FENCE_HANDLE_TYPES_01446,
    D3D12_FENCE_SUBMIT_WAIT_COUNT_00079,
    D3D12_FENCE_SUBMIT_SIGNAL_COUNT_00080,
    D3D12_FENCE_SUBMIT_STYPE,
    EXPORT_SEM_STYPE,
    EXPORT_SEM_WIN32_STYPE,
    EXPORT_FENCE_STYPE,
    EXPORT_FENCE_WIN32_HANDLE_TYPES_01447,
    EXPORT_FENCE_WIN32_STYPE,
    FENCE_IMPORT_FD_DEVICE_PARAM,
    IMPORT_FENCE_FD_FENCE_01463,
    FENCE_IMPORT_FD_INFO_PARAM,
    FENCE_IMPORT_FD_STYPE,
    FENCE_IMPORT_FD_PNEXT,
    FENCE_IMPORT_FD_FENCE_PARAM,
    FENCE_IMPORT_FD_HANDLE_TYPE_PARAM,
    FENCE_IMPORT_FD_FLAGS_PARAM,
    FENCE_IMPORT_FD_HANDLE_TYPE_01464,
    FENCE_IMPORT_FD_HANDLE_TYPE_07306,
    FENCE_IMPORT_FD_FD_01541,
    FENCE_IMPORT_WIN32_DEVICE_PARAM,
    IMPORT_FENCE_WIN32_FENCE_04448,
    FENCE_IMPORT_WIN32_INFO_PARAM,
    FENCE_IMPORT_WIN32_STYPE,
    FENCE_IMPORT_WIN32_PNEXT,
    FENCE_IMPORT_WIN32_FENCE_PARAM,
    FENCE_IMPORT_WIN32_FLAGS_PARAM,
    FENCE_IMPORT_WIN32_HANDLE_TYPE_01457,
    FENCE_IMPORT_WIN32_HANDLE_01462,
    FENCE_IMPORT_WIN32_HANDLE_TYPE_01459,
    SEM_WIN32_DEVICE_PARAM,
    SEM_WIN32_INFO_PARAM,
    SEM_WIN32_PHANDLE_PARAM,
    SEM_WIN32_STYPE,
    SEM_WIN32_PNEXT,
    SEM_WIN32_SEMAPHORE_PARAM,
    SEM_WIN32_HANDLE_TYPE_PARAM,
    SEM_WIN32_HANDLE_TYPE_01126,
    SEM_WIN32_SEMAPHORE_01128,
    SEM_WIN32_HANDLE_TYPE_01127,
    SEM_WIN32_HANDLE_TYPE_01131,
    SEM_WIN32_HANDLE_TYPE_01130,
    SEM_ZIRCON_DEVICE_PARAM,
    SEM_ZIRCON_INFO_PARAM,
    SEM_ZIRCON_PHANDLE_PARAM,
    SEM_ZIRCON_STYPE,
    SEM_ZIRCON_PNEXT,
    SEM_ZIRCON_SEMAPHORE_PARAM,
    SEM_ZIRCON_HANDLE_TYPE_PARAM,
    SEM_ZIRCON_HANDLE_TYPE_04758,
    SEM_ZIRCON_SEMAPHORE_04759,
    SEM_ZIRCON_HANDLE_TYPE_04762,
    SEM_ZIRCON_HANDLE_TYPE_04761,
    SEM_ZIRCON_SEMAPHORE_04763,
    EXPORT_SEM_WIN32_HANDLE_TYPES_01125,
    SEM_IMPORT_FD_DEVICE_PARAM,
    IMPORT_SEMAPHORE_FD_SEMAPHORE_01142,
    SEM_IMPORT_FD_INFO_PARAM,
    SEM_IMPORT_FD_STYPE,
    SEM_IMPORT_FD_PNEXT,
    SEM_IMPORT_FD_SEMAPHORE_PARAM,
    SEM_IMPORT_FD_HANDLE_TYPE_PARAM,
    SEM_IMPORT_FD_FLAGS_PARAM,
    SEM_IMPORT_FD_HANDLE_TYPE_01143,
    SEM_IMPORT_FD_HANDLE_TYPE_07307,
    SEM_IMPORT_FD_HANDLE_TYPE_03263,
    SEM_IMPORT_FD_HANDLE_TYPE_03264,
    SEM_IMPORT_FD_FLAGS_03323,
    SEM_IMPORT_FD_FD_01544,
    FD_OF_ANOTHER_KIND,
    SEM_IMPORT_WIN32_DEVICE_PARAM,
    SEM_IMPORT_WIN32_INFO_PARAM,
    SEM_IMPORT_WIN32_STYPE,
    SEM_IMPORT_WIN32_PNEXT,
    SEM_IMPORT_WIN32_SEMAPHORE_PARAM,
    SEM_IMPORT_WIN32_FLAGS_PARAM,
    SEM_IMPORT_WIN32_HANDLE_TYPE_01140,
    SEM_IMPORT_WIN32_HANDLE_01469,
    SEM_IMPORT_WIN32_HANDLE_TYPE_01466,
    SEM_IMPORT_WIN32_HANDLE_TYPE_03261,
    SEM_IMPORT_WIN32_HANDLE_TYPE_03262,
    SEM_IMPORT_WIN32_FLAGS_03322,
    SEM_IMPORT_ZIRCON_DEVICE_PARAM,
    IMPORT_SEMAPHORE_ZIRCON_SEMAPHORE_04764,
    SEM_IMPORT_ZIRCON_INFO_PARAM,
    SEM_IMPORT_ZIRCON_STYPE,
    SEM_IMPORT_ZIRCON_PNEXT,
    SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM,
    SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
    SEM_IMPORT_ZIRCON_FLAGS_PARAM,
    SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765,
    SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768,
    CUDA_MEMORY_SIZE,
    CUDA_MEMORY_DEDICATED,
    CUDA_DEVICE_MISMATCH,
    CUDA_HANDLE_TYPE,
    CUDA_MAPPED_RANGE,
    CUDA_FD_IMPORTED_TWICE,
    CUDA_FD_CLOSED_AFTER_IMPORT,
    CUDA_SEMAPHORE_TYPE,
];
