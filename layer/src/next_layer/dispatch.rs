//! Next-layer function pointers, fetched once at instance or device creation (re-exported by
//! `next_layer.rs`, with the `cast` they use). Every entry is an `Option`: a missing function is a reported condition,
//! never a panic.
//!
//! Generated from `vuids/commands.json` and `vuids/registry/vk.xml`: do not edit. Edit the
//! table, then `cargo run -p exportcheck-vuids --bin render-dispatch` (a test of
//! `vuids/tests/dispatch_rs.rs` fails until the two agree).

use super::cast::cast;
use ash::vk;
use std::ffi::CStr;

/// Instance-level functions of the next layer.
#[derive(Clone, Copy)]
pub struct InstanceDispatch {
    pub get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    /// `vkDestroyInstance` (Vulkan 1.0).
    pub destroy_instance: Option<vk::PFN_vkDestroyInstance>,
    /// `vkCreateDevice` (Vulkan 1.0).
    pub create_device: Option<vk::PFN_vkCreateDevice>,
    /// `vkGetPhysicalDeviceMemoryProperties` (Vulkan 1.0).
    pub get_physical_device_memory_properties: Option<vk::PFN_vkGetPhysicalDeviceMemoryProperties>,
    /// `vkGetPhysicalDeviceProperties` (Vulkan 1.0).
    pub get_physical_device_properties: Option<vk::PFN_vkGetPhysicalDeviceProperties>,
    /// `vkGetPhysicalDeviceProperties2` (Vulkan 1.1).
    pub get_physical_device_properties2: Option<vk::PFN_vkGetPhysicalDeviceProperties2>,
    /// `vkGetPhysicalDeviceProperties2KHR` (`VK_KHR_get_physical_device_properties2`).
    pub get_physical_device_properties2_khr: Option<vk::PFN_vkGetPhysicalDeviceProperties2>,
    /// `vkGetPhysicalDeviceExternalBufferProperties` (Vulkan 1.1).
    ///
    /// The core (1.1) names and the extension (`KHR`) names apart: which one may be called depends
    /// on the instance and physical device (`state::queryable`).
    pub get_physical_device_external_buffer_properties: Option<vk::PFN_vkGetPhysicalDeviceExternalBufferProperties>,
    /// `vkGetPhysicalDeviceExternalBufferPropertiesKHR` (`VK_KHR_external_memory_capabilities`).
    pub get_physical_device_external_buffer_properties_khr: Option<vk::PFN_vkGetPhysicalDeviceExternalBufferProperties>,
    /// `vkGetPhysicalDeviceImageFormatProperties2` (Vulkan 1.1).
    pub get_physical_device_image_format_properties2: Option<vk::PFN_vkGetPhysicalDeviceImageFormatProperties2>,
    /// `vkGetPhysicalDeviceImageFormatProperties2KHR` (`VK_KHR_get_physical_device_properties2`).
    pub get_physical_device_image_format_properties2_khr: Option<vk::PFN_vkGetPhysicalDeviceImageFormatProperties2>,
    /// `vkGetPhysicalDeviceExternalSemaphoreProperties` (Vulkan 1.1).
    ///
    /// The core (1.1) and `KHR` names apart, as for the buffer query: the layer's own calls choose
    /// by the instance and physical device (`state::queryable`); the app's go down under the name
    /// it called.
    pub get_physical_device_external_semaphore_properties: Option<vk::PFN_vkGetPhysicalDeviceExternalSemaphoreProperties>,
    /// `vkGetPhysicalDeviceExternalSemaphorePropertiesKHR`
    /// (`VK_KHR_external_semaphore_capabilities`).
    pub get_physical_device_external_semaphore_properties_khr: Option<vk::PFN_vkGetPhysicalDeviceExternalSemaphoreProperties>,
    /// `vkGetPhysicalDeviceExternalFenceProperties` (Vulkan 1.1).
    pub get_physical_device_external_fence_properties: Option<vk::PFN_vkGetPhysicalDeviceExternalFenceProperties>,
    /// `vkGetPhysicalDeviceExternalFencePropertiesKHR` (`VK_KHR_external_fence_capabilities`).
    pub get_physical_device_external_fence_properties_khr: Option<vk::PFN_vkGetPhysicalDeviceExternalFenceProperties>,
    /// `vkCreateDebugUtilsMessengerEXT` (`VK_EXT_debug_utils`).
    pub create_debug_utils_messenger: Option<vk::PFN_vkCreateDebugUtilsMessengerEXT>,
    /// `vkDestroyDebugUtilsMessengerEXT` (`VK_EXT_debug_utils`).
    pub destroy_debug_utils_messenger: Option<vk::PFN_vkDestroyDebugUtilsMessengerEXT>,
    /// `vkCreateDebugReportCallbackEXT` (`VK_EXT_debug_report`).
    pub create_debug_report_callback: Option<vk::PFN_vkCreateDebugReportCallbackEXT>,
    /// `vkDestroyDebugReportCallbackEXT` (`VK_EXT_debug_report`).
    pub destroy_debug_report_callback: Option<vk::PFN_vkDestroyDebugReportCallbackEXT>,
}

impl InstanceDispatch {
    /// # Safety
    /// `gipa` must be the next layer's `vkGetInstanceProcAddr` and `instance` a live instance.
    pub unsafe fn load(gipa: vk::PFN_vkGetInstanceProcAddr, instance: vk::Instance) -> Self {
        // SAFETY: `gipa` is the next layer's `vkGetInstanceProcAddr` and `instance` a live instance
        // (this function's contract); `name` is a NUL-terminated literal.
        let get = |name: &CStr| unsafe { gipa(instance, name.as_ptr()) };
        // SAFETY: `cast`'s contract: each pointer is cast to the PFN type of the very name it was
        // looked up by (or of the command it is an alias of, which has the same type).
        unsafe {
            Self {
                get_instance_proc_addr: gipa,
                destroy_instance: cast(get(c"vkDestroyInstance")),
                create_device: cast(get(c"vkCreateDevice")),
                get_physical_device_memory_properties: cast(get(c"vkGetPhysicalDeviceMemoryProperties")),
                get_physical_device_properties: cast(get(c"vkGetPhysicalDeviceProperties")),
                get_physical_device_properties2: cast(get(c"vkGetPhysicalDeviceProperties2")),
                get_physical_device_properties2_khr: cast(get(c"vkGetPhysicalDeviceProperties2KHR")),
                get_physical_device_external_buffer_properties: cast(get(c"vkGetPhysicalDeviceExternalBufferProperties")),
                get_physical_device_external_buffer_properties_khr: cast(get(c"vkGetPhysicalDeviceExternalBufferPropertiesKHR")),
                get_physical_device_image_format_properties2: cast(get(c"vkGetPhysicalDeviceImageFormatProperties2")),
                get_physical_device_image_format_properties2_khr: cast(get(c"vkGetPhysicalDeviceImageFormatProperties2KHR")),
                get_physical_device_external_semaphore_properties: cast(get(c"vkGetPhysicalDeviceExternalSemaphoreProperties")),
                get_physical_device_external_semaphore_properties_khr: cast(get(c"vkGetPhysicalDeviceExternalSemaphorePropertiesKHR")),
                get_physical_device_external_fence_properties: cast(get(c"vkGetPhysicalDeviceExternalFenceProperties")),
                get_physical_device_external_fence_properties_khr: cast(get(c"vkGetPhysicalDeviceExternalFencePropertiesKHR")),
                create_debug_utils_messenger: cast(get(c"vkCreateDebugUtilsMessengerEXT")),
                destroy_debug_utils_messenger: cast(get(c"vkDestroyDebugUtilsMessengerEXT")),
                create_debug_report_callback: cast(get(c"vkCreateDebugReportCallbackEXT")),
                destroy_debug_report_callback: cast(get(c"vkDestroyDebugReportCallbackEXT")),
            }
        }
    }
}

/// Device-level functions of the next layer.
#[derive(Clone, Copy)]
pub struct DeviceDispatch {
    pub get_device_proc_addr: vk::PFN_vkGetDeviceProcAddr,
    /// `vkDestroyDevice` (Vulkan 1.0).
    pub destroy_device: Option<vk::PFN_vkDestroyDevice>,
    /// `vkAllocateMemory` (Vulkan 1.0).
    pub allocate_memory: Option<vk::PFN_vkAllocateMemory>,
    /// `vkFreeMemory` (Vulkan 1.0).
    pub free_memory: Option<vk::PFN_vkFreeMemory>,
    /// `vkGetMemoryFdKHR` (`VK_KHR_external_memory_fd`).
    pub get_memory_fd: Option<vk::PFN_vkGetMemoryFdKHR>,
    /// `vkGetMemoryFdPropertiesKHR` (`VK_KHR_external_memory_fd`).
    pub get_memory_fd_properties: Option<vk::PFN_vkGetMemoryFdPropertiesKHR>,
    /// `vkGetMemoryHostPointerPropertiesEXT` (`VK_EXT_external_memory_host`).
    pub get_memory_host_pointer_properties: Option<vk::PFN_vkGetMemoryHostPointerPropertiesEXT>,
    /// `vkGetMemoryRemoteAddressNV` (`VK_NV_external_memory_rdma`).
    pub get_memory_remote_address: Option<vk::PFN_vkGetMemoryRemoteAddressNV>,
    /// `vkGetMemoryWin32HandleNV` (`VK_NV_external_memory_win32`).
    pub get_memory_win32_handle_nv: Option<vk::PFN_vkGetMemoryWin32HandleNV>,
    /// `vkGetMemoryWin32HandleKHR` (`VK_KHR_external_memory_win32`).
    pub get_memory_win32_handle: Option<vk::PFN_vkGetMemoryWin32HandleKHR>,
    /// `vkGetMemoryZirconHandleFUCHSIA` (`VK_FUCHSIA_external_memory`).
    pub get_memory_zircon_handle: Option<vk::PFN_vkGetMemoryZirconHandleFUCHSIA>,
    /// `vkGetMemoryWin32HandlePropertiesKHR` (`VK_KHR_external_memory_win32`).
    pub get_memory_win32_handle_properties: Option<vk::PFN_vkGetMemoryWin32HandlePropertiesKHR>,
    /// `vkGetMemoryZirconHandlePropertiesFUCHSIA` (`VK_FUCHSIA_external_memory`).
    pub get_memory_zircon_handle_properties: Option<vk::PFN_vkGetMemoryZirconHandlePropertiesFUCHSIA>,
    /// `vkGetAndroidHardwareBufferPropertiesANDROID`
    /// (`VK_ANDROID_external_memory_android_hardware_buffer`).
    pub get_android_hardware_buffer_properties: Option<vk::PFN_vkGetAndroidHardwareBufferPropertiesANDROID>,
    /// `vkGetMemoryAndroidHardwareBufferANDROID`
    /// (`VK_ANDROID_external_memory_android_hardware_buffer`).
    pub get_memory_android_hardware_buffer: Option<vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID>,
    /// `vkGetMemoryMetalHandleEXT` (`VK_EXT_external_memory_metal`).
    pub get_memory_metal_handle: Option<crate::vk_ext::PfnGetMemoryMetalHandleEXT>,
    /// `vkGetMemoryMetalHandlePropertiesEXT` (`VK_EXT_external_memory_metal`).
    pub get_memory_metal_handle_properties: Option<crate::vk_ext::PfnGetMemoryMetalHandlePropertiesEXT>,
    /// `vkSetDebugUtilsObjectNameEXT` (`VK_EXT_debug_utils`).
    pub set_debug_utils_object_name: Option<vk::PFN_vkSetDebugUtilsObjectNameEXT>,
    /// `vkCreateBuffer` (Vulkan 1.0).
    pub create_buffer: Option<vk::PFN_vkCreateBuffer>,
    /// `vkDestroyBuffer` (Vulkan 1.0).
    pub destroy_buffer: Option<vk::PFN_vkDestroyBuffer>,
    /// `vkCreateImage` (Vulkan 1.0).
    pub create_image: Option<vk::PFN_vkCreateImage>,
    /// `vkDestroyImage` (Vulkan 1.0).
    pub destroy_image: Option<vk::PFN_vkDestroyImage>,
    /// `vkBindBufferMemory` (Vulkan 1.0).
    pub bind_buffer_memory: Option<vk::PFN_vkBindBufferMemory>,
    /// `vkBindImageMemory` (Vulkan 1.0).
    pub bind_image_memory: Option<vk::PFN_vkBindImageMemory>,
    /// `vkBindBufferMemory2` (Vulkan 1.1), else `vkBindBufferMemory2KHR` (`VK_KHR_bind_memory2`).
    pub bind_buffer_memory2: Option<vk::PFN_vkBindBufferMemory2>,
    /// `vkBindImageMemory2` (Vulkan 1.1), else `vkBindImageMemory2KHR` (`VK_KHR_bind_memory2`).
    pub bind_image_memory2: Option<vk::PFN_vkBindImageMemory2>,
    /// `vkGetDeviceQueue` (Vulkan 1.0).
    pub get_device_queue: Option<vk::PFN_vkGetDeviceQueue>,
    /// `vkGetDeviceQueue2` (Vulkan 1.1).
    pub get_device_queue2: Option<vk::PFN_vkGetDeviceQueue2>,
    /// `vkQueueSubmit` (Vulkan 1.0).
    pub queue_submit: Option<vk::PFN_vkQueueSubmit>,
    /// `vkQueueSubmit2` (Vulkan 1.3), else `vkQueueSubmit2KHR` (`VK_KHR_synchronization2`).
    pub queue_submit2: Option<vk::PFN_vkQueueSubmit2>,
    /// `vkQueueBindSparse` (Vulkan 1.0).
    pub queue_bind_sparse: Option<vk::PFN_vkQueueBindSparse>,
    /// `vkQueuePresentKHR` (`VK_KHR_swapchain`).
    pub queue_present: Option<vk::PFN_vkQueuePresentKHR>,
    /// `vkResetFences` (Vulkan 1.0).
    pub reset_fences: Option<vk::PFN_vkResetFences>,
    /// `vkAcquireNextImageKHR` (`VK_KHR_swapchain`).
    pub acquire_next_image: Option<vk::PFN_vkAcquireNextImageKHR>,
    /// `vkAcquireNextImage2KHR` (`VK_KHR_swapchain`, `VK_KHR_device_group`).
    pub acquire_next_image2: Option<vk::PFN_vkAcquireNextImage2KHR>,
    /// `vkCreateSemaphore` (Vulkan 1.0).
    pub create_semaphore: Option<vk::PFN_vkCreateSemaphore>,
    /// `vkDestroySemaphore` (Vulkan 1.0).
    pub destroy_semaphore: Option<vk::PFN_vkDestroySemaphore>,
    /// `vkImportSemaphoreFdKHR` (`VK_KHR_external_semaphore_fd`).
    pub import_semaphore_fd: Option<vk::PFN_vkImportSemaphoreFdKHR>,
    /// `vkImportSemaphoreWin32HandleKHR` (`VK_KHR_external_semaphore_win32`).
    pub import_semaphore_win32_handle: Option<vk::PFN_vkImportSemaphoreWin32HandleKHR>,
    /// `vkImportSemaphoreZirconHandleFUCHSIA` (`VK_FUCHSIA_external_semaphore`).
    pub import_semaphore_zircon_handle: Option<vk::PFN_vkImportSemaphoreZirconHandleFUCHSIA>,
    /// `vkGetSemaphoreFdKHR` (`VK_KHR_external_semaphore_fd`).
    pub get_semaphore_fd: Option<vk::PFN_vkGetSemaphoreFdKHR>,
    /// `vkGetSemaphoreWin32HandleKHR` (`VK_KHR_external_semaphore_win32`).
    pub get_semaphore_win32_handle: Option<vk::PFN_vkGetSemaphoreWin32HandleKHR>,
    /// `vkGetSemaphoreZirconHandleFUCHSIA` (`VK_FUCHSIA_external_semaphore`).
    pub get_semaphore_zircon_handle: Option<vk::PFN_vkGetSemaphoreZirconHandleFUCHSIA>,
    /// `vkCreateFence` (Vulkan 1.0).
    pub create_fence: Option<vk::PFN_vkCreateFence>,
    /// `vkDestroyFence` (Vulkan 1.0).
    pub destroy_fence: Option<vk::PFN_vkDestroyFence>,
    /// `vkRegisterDeviceEventEXT` (`VK_EXT_display_control`).
    pub register_device_event: Option<vk::PFN_vkRegisterDeviceEventEXT>,
    /// `vkRegisterDisplayEventEXT` (`VK_EXT_display_control`).
    pub register_display_event: Option<vk::PFN_vkRegisterDisplayEventEXT>,
    /// `vkImportFenceFdKHR` (`VK_KHR_external_fence_fd`).
    pub import_fence_fd: Option<vk::PFN_vkImportFenceFdKHR>,
    /// `vkImportFenceWin32HandleKHR` (`VK_KHR_external_fence_win32`).
    pub import_fence_win32_handle: Option<vk::PFN_vkImportFenceWin32HandleKHR>,
    /// `vkGetFenceFdKHR` (`VK_KHR_external_fence_fd`).
    pub get_fence_fd: Option<vk::PFN_vkGetFenceFdKHR>,
    /// `vkGetFenceWin32HandleKHR` (`VK_KHR_external_fence_win32`).
    pub get_fence_win32_handle: Option<vk::PFN_vkGetFenceWin32HandleKHR>,
    /// `vkGetFenceStatus` (Vulkan 1.0).
    pub get_fence_status: Option<vk::PFN_vkGetFenceStatus>,
    /// `vkWaitForFences` (Vulkan 1.0).
    pub wait_for_fences: Option<vk::PFN_vkWaitForFences>,
    /// `vkQueueWaitIdle` (Vulkan 1.0).
    pub queue_wait_idle: Option<vk::PFN_vkQueueWaitIdle>,
    /// `vkDeviceWaitIdle` (Vulkan 1.0).
    pub device_wait_idle: Option<vk::PFN_vkDeviceWaitIdle>,
    /// `vkGetImageMemoryRequirements` (Vulkan 1.0).
    pub get_image_memory_requirements: Option<vk::PFN_vkGetImageMemoryRequirements>,
    /// `vkGetBufferMemoryRequirements` (Vulkan 1.0).
    pub get_buffer_memory_requirements: Option<vk::PFN_vkGetBufferMemoryRequirements>,
}

impl DeviceDispatch {
    /// # Safety
    /// `gdpa` must be the next layer's `vkGetDeviceProcAddr` and `device` a live device.
    pub unsafe fn load(gdpa: vk::PFN_vkGetDeviceProcAddr, device: vk::Device) -> Self {
        // SAFETY: `gdpa` is the next layer's `vkGetDeviceProcAddr` and `device` a live device
        // (this function's contract); `name` is a NUL-terminated literal.
        let get = |name: &CStr| unsafe { gdpa(device, name.as_ptr()) };
        // SAFETY: `cast`'s contract: each pointer is cast to the PFN type of the very name it was
        // looked up by (or of the command it is an alias of, which has the same type).
        unsafe {
            Self {
                get_device_proc_addr: gdpa,
                destroy_device: cast(get(c"vkDestroyDevice")),
                allocate_memory: cast(get(c"vkAllocateMemory")),
                free_memory: cast(get(c"vkFreeMemory")),
                get_memory_fd: cast(get(c"vkGetMemoryFdKHR")),
                get_memory_fd_properties: cast(get(c"vkGetMemoryFdPropertiesKHR")),
                get_memory_host_pointer_properties: cast(get(c"vkGetMemoryHostPointerPropertiesEXT")),
                get_memory_remote_address: cast(get(c"vkGetMemoryRemoteAddressNV")),
                get_memory_win32_handle_nv: cast(get(c"vkGetMemoryWin32HandleNV")),
                get_memory_win32_handle: cast(get(c"vkGetMemoryWin32HandleKHR")),
                get_memory_zircon_handle: cast(get(c"vkGetMemoryZirconHandleFUCHSIA")),
                get_memory_win32_handle_properties: cast(get(c"vkGetMemoryWin32HandlePropertiesKHR")),
                get_memory_zircon_handle_properties: cast(get(c"vkGetMemoryZirconHandlePropertiesFUCHSIA")),
                get_android_hardware_buffer_properties: cast(get(c"vkGetAndroidHardwareBufferPropertiesANDROID")),
                get_memory_android_hardware_buffer: cast(get(c"vkGetMemoryAndroidHardwareBufferANDROID")),
                get_memory_metal_handle: cast(get(c"vkGetMemoryMetalHandleEXT")),
                get_memory_metal_handle_properties: cast(get(c"vkGetMemoryMetalHandlePropertiesEXT")),
                set_debug_utils_object_name: cast(get(c"vkSetDebugUtilsObjectNameEXT")),
                create_buffer: cast(get(c"vkCreateBuffer")),
                destroy_buffer: cast(get(c"vkDestroyBuffer")),
                create_image: cast(get(c"vkCreateImage")),
                destroy_image: cast(get(c"vkDestroyImage")),
                bind_buffer_memory: cast(get(c"vkBindBufferMemory")),
                bind_image_memory: cast(get(c"vkBindImageMemory")),
                bind_buffer_memory2: cast(get(c"vkBindBufferMemory2").or_else(|| get(c"vkBindBufferMemory2KHR"))),
                bind_image_memory2: cast(get(c"vkBindImageMemory2").or_else(|| get(c"vkBindImageMemory2KHR"))),
                get_device_queue: cast(get(c"vkGetDeviceQueue")),
                get_device_queue2: cast(get(c"vkGetDeviceQueue2")),
                queue_submit: cast(get(c"vkQueueSubmit")),
                queue_submit2: cast(get(c"vkQueueSubmit2").or_else(|| get(c"vkQueueSubmit2KHR"))),
                queue_bind_sparse: cast(get(c"vkQueueBindSparse")),
                queue_present: cast(get(c"vkQueuePresentKHR")),
                reset_fences: cast(get(c"vkResetFences")),
                acquire_next_image: cast(get(c"vkAcquireNextImageKHR")),
                acquire_next_image2: cast(get(c"vkAcquireNextImage2KHR")),
                create_semaphore: cast(get(c"vkCreateSemaphore")),
                destroy_semaphore: cast(get(c"vkDestroySemaphore")),
                import_semaphore_fd: cast(get(c"vkImportSemaphoreFdKHR")),
                import_semaphore_win32_handle: cast(get(c"vkImportSemaphoreWin32HandleKHR")),
                import_semaphore_zircon_handle: cast(get(c"vkImportSemaphoreZirconHandleFUCHSIA")),
                get_semaphore_fd: cast(get(c"vkGetSemaphoreFdKHR")),
                get_semaphore_win32_handle: cast(get(c"vkGetSemaphoreWin32HandleKHR")),
                get_semaphore_zircon_handle: cast(get(c"vkGetSemaphoreZirconHandleFUCHSIA")),
                create_fence: cast(get(c"vkCreateFence")),
                destroy_fence: cast(get(c"vkDestroyFence")),
                register_device_event: cast(get(c"vkRegisterDeviceEventEXT")),
                register_display_event: cast(get(c"vkRegisterDisplayEventEXT")),
                import_fence_fd: cast(get(c"vkImportFenceFdKHR")),
                import_fence_win32_handle: cast(get(c"vkImportFenceWin32HandleKHR")),
                get_fence_fd: cast(get(c"vkGetFenceFdKHR")),
                get_fence_win32_handle: cast(get(c"vkGetFenceWin32HandleKHR")),
                get_fence_status: cast(get(c"vkGetFenceStatus")),
                wait_for_fences: cast(get(c"vkWaitForFences")),
                queue_wait_idle: cast(get(c"vkQueueWaitIdle")),
                device_wait_idle: cast(get(c"vkDeviceWaitIdle")),
                get_image_memory_requirements: cast(get(c"vkGetImageMemoryRequirements")),
                get_buffer_memory_requirements: cast(get(c"vkGetBufferMemoryRequirements")),
            }
        }
    }
}
