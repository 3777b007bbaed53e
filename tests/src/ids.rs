//! The IDs the end-to-end tests expect, spelled out as users see them (not taken from the layer,
//! so a renamed constant there cannot silently change what is tested). `expect::only` checks that
//! each is in `vuids/catalog.json`.

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

// vkAllocateMemory / vkFreeMemory
pub const ALLOC_DEVICE_PARAM: &str = "VUID-vkAllocateMemory-device-parameter";
pub const ALLOC_INFO_PARAM: &str = "VUID-vkAllocateMemory-pAllocateInfo-parameter";
pub const ALLOC_PMEMORY_PARAM: &str = "VUID-vkAllocateMemory-pMemory-parameter";
pub const ALLOC_STYPE: &str = "VUID-VkMemoryAllocateInfo-sType-sType";
pub const ALLOC_STYPE_UNIQUE: &str = "VUID-VkMemoryAllocateInfo-sType-unique";
pub const ALLOC_PNEXT_00640: &str = "VUID-VkMemoryAllocateInfo-pNext-00640";
pub const EXPORT_HANDLE_TYPES_PARAM: &str = "VUID-VkExportMemoryAllocateInfo-handleTypes-parameter";
pub const EXPORT_NV_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter";
pub const FREE_DEVICE_PARAM: &str = "VUID-vkFreeMemory-device-parameter";
pub const FREE_MEMORY_PARAM: &str = "VUID-vkFreeMemory-memory-parameter";
pub const FREE_MEMORY_PARENT: &str = "VUID-vkFreeMemory-memory-parent";

// The layer's own IDs.
pub const EXTENSION_NOT_ENABLED: &str = "EXPORTCHECK-extension-not-enabled";
pub const MEMORY_OF_OTHER_DEVICE: &str = "EXPORTCHECK-memory-of-other-device";
pub const PNEXT_CHAIN_TOO_LONG: &str = "EXPORTCHECK-pnext-chain-too-long";

// Commands.
pub const GET_FD: &str = "vkGetMemoryFdKHR";
pub const ALLOCATE: &str = "vkAllocateMemory";
pub const FREE: &str = "vkFreeMemory";
