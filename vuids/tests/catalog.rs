//! Checks on the content of the embedded `catalog.json`.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use exportcheck_vuids::{catalog, E2e, Entry, Origin, Severity};

/// Every ID the layer checks (a catalog entry of status `checked`), no more and no less.
const EXPECTED_IDS: &[&str] = &[
    // vkGetMemoryFdKHR
    "VUID-vkGetMemoryFdKHR-device-parameter",
    "VUID-vkGetMemoryFdKHR-pGetFdInfo-parameter",
    "VUID-vkGetMemoryFdKHR-pFd-parameter",
    "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
    "VUID-VkMemoryGetFdInfoKHR-handleType-00672",
    "VUID-VkMemoryGetFdInfoKHR-sType-sType",
    "VUID-VkMemoryGetFdInfoKHR-pNext-pNext",
    "VUID-VkMemoryGetFdInfoKHR-memory-parameter",
    "VUID-VkMemoryGetFdInfoKHR-handleType-parameter",
    // vkGetMemoryRemoteAddressNV
    "VUID-vkGetMemoryRemoteAddressNV-device-parameter",
    "VUID-vkGetMemoryRemoteAddressNV-pMemoryGetRemoteAddressInfo-parameter",
    "VUID-vkGetMemoryRemoteAddressNV-pAddress-parameter",
    "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966",
    "VUID-VkMemoryGetRemoteAddressInfoNV-sType-sType",
    "VUID-VkMemoryGetRemoteAddressInfoNV-pNext-pNext",
    "VUID-VkMemoryGetRemoteAddressInfoNV-memory-parameter",
    "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-parameter",
    // vkGetMemoryWin32HandleNV
    "VUID-vkGetMemoryWin32HandleNV-handleType-01326",
    "VUID-vkGetMemoryWin32HandleNV-device-parameter",
    "VUID-vkGetMemoryWin32HandleNV-memory-parameter",
    "VUID-vkGetMemoryWin32HandleNV-handleType-parameter",
    "VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask",
    "VUID-vkGetMemoryWin32HandleNV-pHandle-parameter",
    "VUID-vkGetMemoryWin32HandleNV-memory-parent",
    // vkGetMemoryMetalHandleEXT
    "VUID-vkGetMemoryMetalHandleEXT-device-parameter",
    "VUID-vkGetMemoryMetalHandleEXT-pGetMetalHandleInfo-parameter",
    "VUID-vkGetMemoryMetalHandleEXT-pHandle-parameter",
    "VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413",
    "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414",
    "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415",
    "VUID-VkMemoryGetMetalHandleInfoEXT-sType-sType",
    "VUID-VkMemoryGetMetalHandleInfoEXT-pNext-pNext",
    "VUID-VkMemoryGetMetalHandleInfoEXT-memory-parameter",
    "VUID-VkMemoryGetMetalHandleInfoEXT-handleType-parameter",
    // vkGetMemoryWin32HandleKHR
    "VUID-vkGetMemoryWin32HandleKHR-device-parameter",
    "VUID-vkGetMemoryWin32HandleKHR-pGetWin32HandleInfo-parameter",
    "VUID-vkGetMemoryWin32HandleKHR-pHandle-parameter",
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00662",
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663",
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00664",
    "VUID-VkMemoryGetWin32HandleInfoKHR-sType-sType",
    "VUID-VkMemoryGetWin32HandleInfoKHR-pNext-pNext",
    "VUID-VkMemoryGetWin32HandleInfoKHR-memory-parameter",
    "VUID-VkMemoryGetWin32HandleInfoKHR-handleType-parameter",
    // vkGetMemoryZirconHandleFUCHSIA
    "VUID-vkGetMemoryZirconHandleFUCHSIA-device-parameter",
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter",
    "VUID-vkGetMemoryZirconHandleFUCHSIA-pZirconHandle-parameter",
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04775",
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04776",
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-sType-sType",
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-pNext-pNext",
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-memory-parameter",
    "VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-parameter",
    // vkGetMemoryAndroidHardwareBufferANDROID
    "VUID-vkGetMemoryAndroidHardwareBufferANDROID-device-parameter",
    "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pInfo-parameter",
    "VUID-vkGetMemoryAndroidHardwareBufferANDROID-pBuffer-parameter",
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-handleTypes-01882",
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883",
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-sType-sType",
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-pNext",
    "VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-memory-parameter",
    // vkGetMemoryFdPropertiesKHR
    "VUID-vkGetMemoryFdPropertiesKHR-device-parameter",
    "VUID-vkGetMemoryFdPropertiesKHR-fd-00673",
    "VUID-vkGetMemoryFdPropertiesKHR-handleType-00674",
    "VUID-vkGetMemoryFdPropertiesKHR-handleType-parameter",
    "VUID-vkGetMemoryFdPropertiesKHR-pMemoryFdProperties-parameter",
    "VUID-VkMemoryFdPropertiesKHR-sType-sType",
    "VUID-VkMemoryFdPropertiesKHR-pNext-pNext",
    // vkGetMemoryHostPointerPropertiesEXT
    "VUID-vkGetMemoryHostPointerPropertiesEXT-device-parameter",
    "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-01752",
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pHostPointer-01753",
    "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-parameter",
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pMemoryHostPointerProperties-parameter",
    "VUID-VkMemoryHostPointerPropertiesEXT-sType-sType",
    "VUID-VkMemoryHostPointerPropertiesEXT-pNext-pNext",
    // vkGetMemoryMetalHandlePropertiesEXT
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-device-parameter",
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handle-10416",
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-10417",
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-parameter",
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-pMemoryMetalHandleProperties-parameter",
    "VUID-VkMemoryMetalHandlePropertiesEXT-sType-sType",
    "VUID-VkMemoryMetalHandlePropertiesEXT-pNext-pNext",
    // vkGetMemoryWin32HandlePropertiesKHR
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-device-parameter",
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handle-00665",
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-00666",
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-parameter",
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-pMemoryWin32HandleProperties-parameter",
    "VUID-VkMemoryWin32HandlePropertiesKHR-sType-sType",
    "VUID-VkMemoryWin32HandlePropertiesKHR-pNext-pNext",
    // vkGetMemoryZirconHandlePropertiesFUCHSIA
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-device-parameter",
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-04773",
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-zirconHandle-04774",
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-parameter",
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-pMemoryZirconHandleProperties-parameter",
    "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-sType-sType",
    "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-pNext-pNext",
    // vkGetAndroidHardwareBufferPropertiesANDROID
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-device-parameter",
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-buffer-parameter",
    "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-pProperties-parameter",
    "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType",
    "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-unique",
    // vkAllocateMemory / vkFreeMemory
    "VUID-VkMemoryAllocateInfo-pNext-00640",
    "VUID-VkMemoryAllocateInfo-sType-unique",
    "VUID-VkMemoryAllocateInfo-pNext-pNext",
    "VUID-VkMemoryAllocateInfo-allocationSize-07899",
    "VUID-VkMemoryAllocateInfo-pNext-01874",
    "VUID-VkMemoryAllocateInfo-pNext-07900",
    "VUID-VkMemoryAllocateInfo-pNext-07901",
    "VUID-VkMemoryAllocateInfo-allocationSize-02383",
    "VUID-VkMemoryAllocateInfo-memoryTypeIndex-02385",
    "VUID-VkMemoryAllocateInfo-pNext-02387",
    "VUID-VkMemoryAllocateInfo-pNext-00639",
    "VUID-VkExportMemoryAllocateInfo-handleTypes-parameter",
    "VUID-VkExportMemoryAllocateInfo-handleTypes-09860",
    "VUID-VkExportMemoryAllocateInfo-sType-sType",
    "VUID-VkExportMemoryAllocateInfoNV-sType-sType",
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter",
    "VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657",
    "VUID-VkExportMemoryWin32HandleInfoKHR-sType-sType",
    "VUID-VkExportMemoryWin32HandleInfoNV-sType-sType",
    "VUID-VkMemoryAllocateInfo-None-06657",
    "VUID-VkImportMemoryFdInfoKHR-handleType-00669",
    "VUID-VkImportMemoryFdInfoKHR-handleType-00670",
    "VUID-VkImportMemoryFdInfoKHR-handleType-parameter",
    "VUID-VkImportMemoryFdInfoKHR-sType-sType",
    "VUID-VkMemoryAllocateInfo-allocationSize-01742",
    "VUID-VkImportMemoryFdInfoKHR-fd-00668",
    "VUID-VkImportMemoryFdInfoKHR-fd-01746",
    "VUID-VkImportMemoryFdInfoKHR-fd-01520",
    "VUID-VkImportMemoryFdInfoKHR-handleType-09862",
    "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744",
    "VUID-VkMemoryAllocateInfo-None-04749",
    "VUID-VkMemoryDedicatedAllocateInfo-image-01432",
    "VUID-VkMemoryDedicatedAllocateInfo-image-01434",
    "VUID-VkMemoryDedicatedAllocateInfo-image-01797",
    "VUID-VkMemoryDedicatedAllocateInfo-buffer-01436",
    "VUID-VkMemoryDedicatedAllocateInfo-sType-sType",
    "VUID-VkMemoryDedicatedAllocateInfo-image-01878",
    "VUID-VkMemoryDedicatedAllocateInfo-buffer-01879",
    "VUID-VkMemoryDedicatedAllocateInfo-image-parameter",
    "VUID-VkMemoryDedicatedAllocateInfo-buffer-parameter",
    "VUID-VkMemoryDedicatedAllocateInfo-commonparent",
    "VUID-VkMemoryDedicatedAllocateInfo-image-02964",
    "VUID-VkMemoryDedicatedAllocateInfo-buffer-02965",
    "VUID-vkAllocateMemory-device-parameter",
    "VUID-vkAllocateMemory-pAllocateInfo-parameter",
    "VUID-vkAllocateMemory-pMemory-parameter",
    "VUID-vkAllocateMemory-pAllocateInfo-01714",
    "VUID-vkAllocateMemory-pAllocateInfo-01713",
    "VUID-VkMemoryAllocateInfo-sType-sType",
    "VUID-vkFreeMemory-device-parameter",
    "VUID-vkFreeMemory-memory-parameter",
    "VUID-vkFreeMemory-memory-parent",
    "VUID-VkMemoryAllocateInfo-allocationSize-07897",
    "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329",
    "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333",
    "VUID-VkMemoryAllocateInfo-flags-03330",
    "VUID-VkMemoryAllocateInfo-flags-03331",
    "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872",
    "VUID-vkAllocateMemory-deviceCoherentMemory-02790",
    "VUID-vkAllocateMemory-tileMemoryHeap-10976",
    "VUID-vkAllocateMemory-device-queuecount",
    "VUID-vkAllocateMemory-maxMemoryAllocationCount-04101",
    // host-pointer imports at vkAllocateMemory
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-parameter",
    "VUID-VkImportMemoryHostPointerInfoEXT-handleType-01748",
    "VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749",
    "VUID-VkImportMemoryHostPointerInfoEXT-sType-sType",
    "VUID-VkMemoryAllocateInfo-allocationSize-01745",
    "VUID-VkMemoryAllocateInfo-pNext-02806",
    "VUID-VkMemoryAllocateInfo-pNext-02805",
    "VUID-VkMemoryAllocateInfo-pNext-03332",
    // Win32 imports at vkAllocateMemory
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-parameter",
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00660",
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01439",
    "VUID-VkImportMemoryWin32HandleInfoKHR-handle-01441",
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-09861",
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00661",
    "VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01440",
    "VUID-VkImportMemoryWin32HandleInfoKHR-sType-sType",
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-parameter",
    "VUID-VkImportMemoryWin32HandleInfoNV-handleType-01327",
    "VUID-VkImportMemoryWin32HandleInfoNV-handle-01328",
    "VUID-VkImportMemoryWin32HandleInfoNV-sType-sType",
    "VUID-VkMemoryAllocateInfo-pNext-00641",
    "VUID-VkMemoryAllocateInfo-allocationSize-01743",
    "VUID-VkMemoryAllocateInfo-None-00643",
    "VUID-VkMemoryAllocateInfo-None-00644",
    "VUID-VkMemoryDedicatedAllocateInfo-image-01876",
    "VUID-VkMemoryDedicatedAllocateInfo-buffer-01877",
    // Zircon, Metal and Android hardware buffer imports at vkAllocateMemory
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-parameter",
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-04771",
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handle-04772",
    "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-sType-sType",
    "VUID-VkMemoryAllocateInfo-allocationSize-07902",
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-parameter",
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10410",
    "VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10411",
    "VUID-VkImportMemoryMetalHandleInfoEXT-sType-sType",
    "VUID-VkMemoryAllocateInfo-pNext-10395",
    "VUID-VkMemoryAllocateInfo-pNext-10397",
    "VUID-VkImportAndroidHardwareBufferInfoANDROID-sType-sType",
    // vkBindBufferMemory(2) / vkBindImageMemory(2): handle types of the memory and the resource
    "VUID-vkBindBufferMemory-memory-02726",
    "VUID-vkBindBufferMemory-memory-02985",
    "VUID-vkBindBufferMemory-memory-02986",
    "VUID-VkBindBufferMemoryInfo-memory-02726",
    "VUID-VkBindBufferMemoryInfo-memory-02985",
    "VUID-VkBindBufferMemoryInfo-memory-02986",
    "VUID-vkBindImageMemory-memory-02728",
    "VUID-vkBindImageMemory-memory-02989",
    "VUID-vkBindImageMemory-memory-02990",
    "VUID-VkBindImageMemoryInfo-memory-02728",
    "VUID-VkBindImageMemoryInfo-memory-02989",
    "VUID-VkBindImageMemoryInfo-memory-02990",
    // exportcheck's own IDs
    "EXPORTCHECK-extension-not-enabled",
    "EXPORTCHECK-memory-of-other-device",
    "EXPORTCHECK-rdma-memory-type-not-rdma-capable",
    "EXPORTCHECK-rdma-feature-not-enabled",
    "EXPORTCHECK-win32nv-handle-type-multiple-bits",
    "EXPORTCHECK-pnext-chain-too-long",
    "EXPORTCHECK-internal-error",
    "EXPORTCHECK-driver-invalid-fd",
    "EXPORTCHECK-driver-fd-not-cloexec",
    "EXPORTCHECK-driver-fd-not-new",
    "EXPORTCHECK-driver-null-remote-address",
    "EXPORTCHECK-driver-null-win32-handle",
    "EXPORTCHECK-driver-null-metal-handle",
    "EXPORTCHECK-driver-null-win32-handle-khr",
    "EXPORTCHECK-driver-invalid-zircon-handle",
    "EXPORTCHECK-driver-null-android-hardware-buffer",
    "EXPORTCHECK-exported-fd-leaked",
    "EXPORTCHECK-fd-imported-twice",
    "EXPORTCHECK-fd-closed-after-import",
    "EXPORTCHECK-fd-of-another-kind",
    "EXPORTCHECK-cuda-memory-size",
    "EXPORTCHECK-cuda-memory-dedicated",
    "EXPORTCHECK-cuda-device-mismatch",
    "EXPORTCHECK-cuda-handle-type",
    "EXPORTCHECK-cuda-mapped-range",
    "EXPORTCHECK-cuda-fd-imported-twice",
    "EXPORTCHECK-cuda-fd-closed-after-import",
    "EXPORTCHECK-cuda-semaphore-type",
    "EXPORTCHECK-shared-exports-ignored",
    "EXPORTCHECK-kcmp-refused",
    // vkGetSemaphoreFdKHR (issue #25, first slice: the rules of the semaphore as created)
    "VUID-vkGetSemaphoreFdKHR-device-parameter",
    "VUID-vkGetSemaphoreFdKHR-pGetFdInfo-parameter",
    "VUID-vkGetSemaphoreFdKHR-pFd-parameter",
    "VUID-VkSemaphoreGetFdInfoKHR-sType-sType",
    "VUID-VkSemaphoreGetFdInfoKHR-pNext-pNext",
    "VUID-VkSemaphoreGetFdInfoKHR-semaphore-parameter",
    "VUID-VkSemaphoreGetFdInfoKHR-handleType-parameter",
    "VUID-VkSemaphoreGetFdInfoKHR-handleType-01132",
    "VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133",
    "VUID-VkSemaphoreGetFdInfoKHR-handleType-01136",
    "VUID-VkSemaphoreGetFdInfoKHR-handleType-03253",
    "VUID-VkSemaphoreGetFdInfoKHR-handleType-01135",
    "VUID-VkSemaphoreGetFdInfoKHR-handleType-03254",
    "EXPORTCHECK-semaphore-of-other-device",
    "VUID-vkImportSemaphoreFdKHR-device-parameter",
    "VUID-vkImportSemaphoreFdKHR-pImportSemaphoreFdInfo-parameter",
    "VUID-VkImportSemaphoreFdInfoKHR-sType-sType",
    "VUID-VkImportSemaphoreFdInfoKHR-pNext-pNext",
    "VUID-VkImportSemaphoreFdInfoKHR-semaphore-parameter",
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-parameter",
    "VUID-VkImportSemaphoreFdInfoKHR-flags-parameter",
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-01143",
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-07307",
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-03263",
    "VUID-VkImportSemaphoreFdInfoKHR-handleType-03264",
    "VUID-VkImportSemaphoreFdInfoKHR-flags-03323",
    "VUID-VkImportSemaphoreFdInfoKHR-fd-01544",
    // vkGetSemaphoreWin32HandleKHR (issue #25: the rules of the semaphore as created, 01127)
    "VUID-vkGetSemaphoreWin32HandleKHR-device-parameter",
    "VUID-vkGetSemaphoreWin32HandleKHR-pGetWin32HandleInfo-parameter",
    "VUID-vkGetSemaphoreWin32HandleKHR-pHandle-parameter",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-sType-sType",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-pNext-pNext",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-parameter",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-parameter",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01126",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-semaphore-01128",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01127",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01131",
    // vkGetSemaphoreZirconHandleFUCHSIA (issue #25: the rules of the semaphore as created)
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-device-parameter",
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-pGetZirconHandleInfo-parameter",
    "VUID-vkGetSemaphoreZirconHandleFUCHSIA-pZirconHandle-parameter",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-sType-sType",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-pNext-pNext",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-parameter",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-parameter",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04758",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04759",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04762",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-semaphore-04763",
    // vkCreateSemaphore
    "VUID-VkExportSemaphoreWin32HandleInfoKHR-handleTypes-01125",
    // vkGetFenceFdKHR, vkGetFenceWin32HandleKHR, vkCreateFence (issue #25: the fence export side)
    "VUID-vkGetFenceFdKHR-device-parameter",
    "VUID-vkGetFenceFdKHR-pGetFdInfo-parameter",
    "VUID-vkGetFenceFdKHR-pFd-parameter",
    "VUID-VkFenceGetFdInfoKHR-sType-sType",
    "VUID-VkFenceGetFdInfoKHR-pNext-pNext",
    "VUID-VkFenceGetFdInfoKHR-fence-parameter",
    "VUID-VkFenceGetFdInfoKHR-handleType-parameter",
    "VUID-VkFenceGetFdInfoKHR-handleType-01453",
    "VUID-VkFenceGetFdInfoKHR-fence-01455",
    "VUID-VkFenceGetFdInfoKHR-handleType-01456",
    "VUID-VkFenceGetFdInfoKHR-handleType-01454",
    "VUID-vkGetFenceWin32HandleKHR-device-parameter",
    "VUID-vkGetFenceWin32HandleKHR-pGetWin32HandleInfo-parameter",
    "VUID-vkGetFenceWin32HandleKHR-pHandle-parameter",
    "VUID-VkFenceGetWin32HandleInfoKHR-sType-sType",
    "VUID-VkFenceGetWin32HandleInfoKHR-pNext-pNext",
    "VUID-VkFenceGetWin32HandleInfoKHR-fence-parameter",
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-parameter",
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01448",
    "VUID-VkFenceGetWin32HandleInfoKHR-fence-01450",
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01449",
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01452",
    "EXPORTCHECK-fence-of-other-device",
    "VUID-VkExportFenceCreateInfo-handleTypes-parameter",
    "VUID-VkExportFenceCreateInfo-sType-sType",
    "VUID-VkExportFenceWin32HandleInfoKHR-handleTypes-01447",
    "VUID-VkExportFenceCreateInfo-handleTypes-01446",
    "VUID-VkExportFenceWin32HandleInfoKHR-sType-sType",
    // The external semaphore and fence capability queries, and the create-time rule they feed
    // (issue #25)
    "VUID-vkGetPhysicalDeviceExternalSemaphoreProperties-pExternalSemaphoreInfo-parameter",
    "VUID-vkGetPhysicalDeviceExternalSemaphoreProperties-pExternalSemaphoreProperties-parameter",
    "VUID-VkPhysicalDeviceExternalSemaphoreInfo-sType-sType",
    "VUID-VkPhysicalDeviceExternalSemaphoreInfo-pNext-pNext",
    "VUID-VkPhysicalDeviceExternalSemaphoreInfo-sType-unique",
    "VUID-VkPhysicalDeviceExternalSemaphoreInfo-handleType-parameter",
    "VUID-VkExternalSemaphoreProperties-sType-sType",
    "VUID-VkExternalSemaphoreProperties-pNext-pNext",
    "VUID-vkGetPhysicalDeviceExternalFenceProperties-pExternalFenceInfo-parameter",
    "VUID-vkGetPhysicalDeviceExternalFenceProperties-pExternalFenceProperties-parameter",
    "VUID-VkPhysicalDeviceExternalFenceInfo-sType-sType",
    "VUID-VkPhysicalDeviceExternalFenceInfo-pNext-pNext",
    "VUID-VkPhysicalDeviceExternalFenceInfo-handleType-parameter",
    "VUID-VkExternalFenceProperties-sType-sType",
    "VUID-VkExternalFenceProperties-pNext-pNext",
    "VUID-VkExportSemaphoreCreateInfo-handleTypes-01124",
    "VUID-VkExportSemaphoreCreateInfo-handleTypes-parameter",
    "VUID-vkImportSemaphoreWin32HandleKHR-device-parameter",
    "VUID-vkImportSemaphoreWin32HandleKHR-pImportSemaphoreWin32HandleInfo-parameter",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-sType-sType",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-pNext-pNext",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-semaphore-parameter",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-parameter",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01140",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handle-01469",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-01466",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03261",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03262",
    "VUID-VkImportSemaphoreWin32HandleInfoKHR-flags-03322",
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-device-parameter",
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-pImportSemaphoreZirconHandleInfo-parameter",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-sType-sType",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-pNext-pNext",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphore-parameter",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-parameter",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-flags-parameter",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-handleType-04765",
    "VUID-VkImportSemaphoreZirconHandleInfoFUCHSIA-semaphoreType-04768",
    // vkImportFenceFdKHR, vkImportFenceWin32HandleKHR (issue #25: the fence imports)
    "VUID-vkImportFenceFdKHR-device-parameter",
    "VUID-vkImportFenceFdKHR-pImportFenceFdInfo-parameter",
    "VUID-VkImportFenceFdInfoKHR-sType-sType",
    "VUID-VkImportFenceFdInfoKHR-pNext-pNext",
    "VUID-VkImportFenceFdInfoKHR-fence-parameter",
    "VUID-VkImportFenceFdInfoKHR-handleType-parameter",
    "VUID-VkImportFenceFdInfoKHR-flags-parameter",
    "VUID-VkImportFenceFdInfoKHR-handleType-01464",
    "VUID-VkImportFenceFdInfoKHR-handleType-07306",
    "VUID-VkImportFenceFdInfoKHR-fd-01541",
    "VUID-vkImportFenceWin32HandleKHR-device-parameter",
    "VUID-vkImportFenceWin32HandleKHR-pImportFenceWin32HandleInfo-parameter",
    "VUID-VkImportFenceWin32HandleInfoKHR-sType-sType",
    "VUID-VkImportFenceWin32HandleInfoKHR-pNext-pNext",
    "VUID-VkImportFenceWin32HandleInfoKHR-fence-parameter",
    "VUID-VkImportFenceWin32HandleInfoKHR-flags-parameter",
    "VUID-VkImportFenceWin32HandleInfoKHR-handleType-01457",
    "VUID-VkImportFenceWin32HandleInfoKHR-handle-01462",
    "VUID-VkImportFenceWin32HandleInfoKHR-handleType-01459",
    "VUID-VkD3D12FenceSubmitInfoKHR-waitSemaphoreValuesCount-00079",
    "VUID-VkD3D12FenceSubmitInfoKHR-signalSemaphoreValuesCount-00080",
    "VUID-VkD3D12FenceSubmitInfoKHR-sType-sType",
    "VUID-VkExportSemaphoreCreateInfo-sType-sType",
    "VUID-VkExportSemaphoreWin32HandleInfoKHR-sType-sType",
    "VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01130",
    "VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04761",
    "VUID-VkFenceGetWin32HandleInfoKHR-handleType-01451",
    "VUID-vkImportFenceFdKHR-fence-01463",
    "VUID-vkImportSemaphoreFdKHR-semaphore-01142",
    "VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764",
    "VUID-vkImportFenceWin32HandleKHR-fence-04448",
];

const DEVICE_PARAMETER_NOTE: &str = "A garbage VkDevice passed to the loader's trampoline (a \
    pointer from vkGetInstanceProcAddr) is dereferenced by the loader before the layer runs; \
    through a vkGetDeviceProcAddr pointer the layer sees it and reports this VUID.";

fn entry(id: &str) -> &'static Entry {
    catalog()
        .get(id)
        .unwrap_or_else(|| panic!("{id} missing from the catalog"))
}

#[test]
fn ids_are_unique() {
    let mut seen = HashSet::new();
    for e in catalog().entries() {
        assert!(seen.insert(e.id.as_str()), "duplicate id {}", e.id);
    }
}

#[test]
fn catalog_holds_exactly_the_expected_ids() {
    let expected: BTreeSet<&str> = EXPECTED_IDS.iter().copied().collect();
    assert_eq!(
        expected.len(),
        EXPECTED_IDS.len(),
        "EXPECTED_IDS repeats an ID"
    );
    let actual: BTreeSet<&str> = catalog()
        .entries()
        .iter()
        .filter(|e| e.is_checked())
        .map(|e| e.id.as_str())
        .collect();
    let missing: Vec<_> = expected.difference(&actual).collect();
    let extra: Vec<_> = actual.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "catalog differs from the expected list; missing: {missing:?}, unexpected: {extra:?}"
    );
}

#[test]
fn every_entry_is_well_formed() {
    for e in catalog().entries() {
        let id = &e.id;
        let summary = e.summary.trim();
        assert!(!summary.is_empty(), "{id}: empty summary");
        assert_eq!(
            summary, e.summary,
            "{id}: summary has surrounding whitespace"
        );
        assert!(
            !summary.contains(['\n', '\r']),
            "{id}: summary is not one line"
        );
        assert!(!e.command.is_empty(), "{id}: empty command");
        assert!(!e.extension.is_empty(), "{id}: empty extension");
        if let Some(s) = &e.structure {
            assert!(
                s.starts_with("Vk"),
                "{id}: structure {s:?} is not a Vulkan type"
            );
        }
        if let Some(note) = &e.note {
            assert!(!note.trim().is_empty(), "{id}: empty note");
        }
        if e.e2e == E2e::UnitOnly {
            assert!(
                e.note.is_some(),
                "{id}: unit-only entries must say why in a note"
            );
        }
        match e.origin {
            Origin::Spec => {
                assert!(id.starts_with("VUID-"), "{id}: spec IDs start with VUID-");
                // The second component of a VUID names the structure, or the command when the
                // rule is on the command's own parameters.
                let owner = id.split('-').nth(1).unwrap_or_default();
                let expected = e.structure.as_deref().unwrap_or(&e.command);
                assert_eq!(
                    owner, expected,
                    "{id}: structure/command do not match the VUID"
                );
            }
            Origin::Layer => {
                assert!(
                    id.starts_with("EXPORTCHECK-"),
                    "{id}: layer IDs start with EXPORTCHECK-"
                );
            }
        }
    }
}

#[test]
fn unchecked_entries_are_registry_ids_that_say_why() {
    let registry = exportcheck_vuids::registry();
    for e in catalog().entries() {
        let id = &e.id;
        if e.is_checked() {
            assert_ne!(
                e.e2e,
                E2e::None,
                "{id}: a checked ID has an end-to-end test"
            );
            continue;
        }
        assert_eq!(e.origin, Origin::Spec, "{id}: only spec IDs go unchecked");
        assert!(
            registry.contains_key(id),
            "{id}: not in the 1.4.360 registry"
        );
        assert_eq!(e.e2e, E2e::None, "{id}: an unchecked ID has no test");
        let note = e.note.as_deref().unwrap_or_default();
        assert!(
            note.len() > 20,
            "{id}: an unchecked ID says why in its note"
        );
    }
}

#[test]
fn severities_and_test_locations_match_the_design() {
    for e in catalog().entries() {
        if e.origin == Origin::Spec {
            assert_eq!(e.severity, Severity::Error, "{}: spec IDs are errors", e.id);
        }
    }
    let warnings: BTreeSet<&str> = catalog()
        .entries()
        .iter()
        .filter(|e| e.severity == Severity::Warning)
        .map(|e| e.id.as_str())
        .collect();
    let expected: BTreeSet<&str> = [
        "EXPORTCHECK-extension-not-enabled",
        "EXPORTCHECK-rdma-memory-type-not-rdma-capable",
        "EXPORTCHECK-rdma-feature-not-enabled",
        "EXPORTCHECK-win32nv-handle-type-multiple-bits",
        "EXPORTCHECK-pnext-chain-too-long",
        "EXPORTCHECK-driver-invalid-fd",
        "EXPORTCHECK-driver-fd-not-cloexec",
        "EXPORTCHECK-driver-fd-not-new",
        "EXPORTCHECK-driver-null-remote-address",
        "EXPORTCHECK-driver-null-win32-handle",
        "EXPORTCHECK-driver-null-metal-handle",
        "EXPORTCHECK-driver-null-win32-handle-khr",
        "EXPORTCHECK-driver-invalid-zircon-handle",
        "EXPORTCHECK-driver-null-android-hardware-buffer",
        "EXPORTCHECK-exported-fd-leaked",
        "EXPORTCHECK-shared-exports-ignored",
        "EXPORTCHECK-kcmp-refused",
    ]
    .into_iter()
    .collect();
    assert_eq!(warnings, expected);

    let by_command = [
        ("vkGetMemoryFdKHR", E2e::Lavapipe),
        ("vkGetMemoryRemoteAddressNV", E2e::TestDriver),
        ("vkGetMemoryWin32HandleNV", E2e::TestDriver),
        ("vkGetMemoryMetalHandleEXT", E2e::TestDriver),
        ("vkGetMemoryAndroidHardwareBufferANDROID", E2e::TestDriver),
        ("vkGetMemoryZirconHandleFUCHSIA", E2e::TestDriver),
        ("vkGetMemoryWin32HandleKHR", E2e::TestDriver),
    ];
    for (command, e2e) in by_command {
        for e in catalog()
            .entries()
            .iter()
            .filter(|e| e.origin == Origin::Spec && e.command == command)
        {
            assert_eq!(e.e2e, e2e, "{}", e.id);
        }
    }
    assert_eq!(
        entry("VUID-VkMemoryAllocateInfo-pNext-00640").e2e,
        E2e::Lavapipe
    );
    assert_eq!(
        entry("VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter").e2e,
        E2e::Lavapipe
    );
    assert_eq!(entry("EXPORTCHECK-internal-error").e2e, E2e::TestDriver);
    let unit_only: BTreeSet<&str> = catalog()
        .entries()
        .iter()
        .filter(|e| e.e2e == E2e::UnitOnly)
        .map(|e| e.id.as_str())
        .collect();
    let expected: BTreeSet<&str> = [
        "VUID-VkExportMemoryAllocateInfo-sType-sType",
        "VUID-VkExportMemoryAllocateInfoNV-sType-sType",
        "VUID-VkImportMemoryHostPointerInfoEXT-sType-sType",
        "VUID-VkExportMemoryWin32HandleInfoKHR-sType-sType",
        "VUID-VkExportMemoryWin32HandleInfoNV-sType-sType",
        "VUID-VkImportMemoryFdInfoKHR-sType-sType",
        "VUID-VkMemoryDedicatedAllocateInfo-sType-sType",
        "VUID-VkImportMemoryWin32HandleInfoKHR-sType-sType",
        "VUID-VkImportMemoryWin32HandleInfoNV-sType-sType",
        "VUID-VkImportMemoryZirconHandleInfoFUCHSIA-sType-sType",
        "VUID-VkImportMemoryMetalHandleInfoEXT-sType-sType",
        "VUID-VkImportAndroidHardwareBufferInfoANDROID-sType-sType",
        "VUID-VkExportFenceCreateInfo-sType-sType",
        "VUID-VkExportFenceWin32HandleInfoKHR-sType-sType",
        "VUID-VkExportSemaphoreCreateInfo-sType-sType",
        "VUID-VkExportSemaphoreWin32HandleInfoKHR-sType-sType",
        "VUID-VkD3D12FenceSubmitInfoKHR-sType-sType",
    ]
    .into_iter()
    .collect();
    assert_eq!(
        unit_only, expected,
        "only the by-construction sType rules lack an end-to-end test"
    );
}

#[test]
fn device_parameter_vuids_explain_the_loader_trampoline() {
    let mut count = 0;
    for e in catalog()
        .entries()
        .iter()
        .filter(|e| e.is_checked() && e.id.ends_with("-device-parameter"))
    {
        count += 1;
        assert_eq!(e.note.as_deref(), Some(DEVICE_PARAMETER_NOTE), "{}", e.id);
        assert_ne!(e.e2e, E2e::UnitOnly, "{}", e.id);
    }
    assert_eq!(count, 25);
}

/// The project's copies of the reference registries are the ones the project was given beside it
/// (`../shared/registry/`), when they are there: the catalog is judged against the current spec.
#[test]
fn embedded_registry_is_the_shared_reference() {
    for (name, embedded) in [
        (
            "validusage-memory-sharing-1.4.360.json",
            exportcheck_vuids::REGISTRY_JSON,
        ),
        (
            "validusage-sync-and-resources-sharing-1.4.360.json",
            exportcheck_vuids::RESOURCES_REGISTRY_JSON,
        ),
    ] {
        let shared = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/registry")
            .join(name);
        let Ok(text) = std::fs::read_to_string(&shared) else {
            eprintln!(
                "note: {} not found; the embedded copy stands alone",
                shared.display()
            );
            continue;
        };
        assert!(
            text == embedded,
            "vuids/registry/ differs from {}",
            shared.display()
        );
    }
}

/// Every spec ID of the catalog is a current ID: in the Vulkan 1.4.360 registry of the
/// memory-sharing surface (or, for the bind-memory rules, of the resources created for sharing). An ID renamed by the spec (as `-00656` became `-09860` in 1.4.317)
/// fails here.
#[test]
fn spec_vuids_exist_in_the_current_spec() {
    let known = exportcheck_vuids::registry();
    let absent: Vec<&str> = catalog()
        .entries()
        .iter()
        .filter(|e| e.origin == Origin::Spec && !known.contains_key(&e.id))
        .map(|e| e.id.as_str())
        .collect();
    assert!(
        absent.is_empty(),
        "not in the Vulkan {} registry (renamed or mistyped): {absent:?}",
        exportcheck_vuids::REGISTRY_VERSION
    );
    assert_eq!(catalog().spec_version, exportcheck_vuids::REGISTRY_VERSION);
}

/// The registry check above can fail: a dead ID is not in it.
#[test]
fn a_renamed_id_is_not_in_the_registry() {
    let known = exportcheck_vuids::registry();
    assert!(!known.contains_key("VUID-VkExportMemoryAllocateInfo-handleTypes-00656"));
    assert!(known.contains_key("VUID-VkExportMemoryAllocateInfo-handleTypes-09860"));
}
