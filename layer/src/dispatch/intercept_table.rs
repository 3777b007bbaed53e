//! The table of the commands the layer intercepts, in the order of `vuids/commands.json`: its
//! rows and conditions are in `intercepts.rs`, its reader in `proc_addr.rs`.
//!
//! Generated from `vuids/commands.json` and `vuids/registry/vk.xml`: do not edit. Edit the
//! table, then `cargo run -p exportcheck-vuids --bin render-dispatch` (a test of
//! `vuids/tests/dispatch_rs.rs` fails until the two agree).

use super::chain::void_fn;
use super::intercepts::{self as when, device, Intercept, Level};
use ash::vk;

/// Every command the layer intercepts: its name, its function and on which devices.
pub const INTERCEPTS: &[Intercept] = &[
    Intercept {
        name: b"vkCreateInstance",
        function: || void_fn!(crate::commands::instance::create_instance),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyInstance",
        function: || void_fn!(crate::commands::instance::destroy_instance),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkCreateDevice",
        function: || void_fn!(crate::commands::device::create_device),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkGetPhysicalDeviceExternalSemaphoreProperties",
        function: || void_fn!(crate::commands::query::external_sync_properties::get_physical_device_external_semaphore_properties),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
        function: || void_fn!(crate::commands::query::external_sync_properties::get_physical_device_external_semaphore_properties_khr),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkGetPhysicalDeviceExternalFenceProperties",
        function: || void_fn!(crate::commands::query::external_sync_properties::get_physical_device_external_fence_properties),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkGetPhysicalDeviceExternalFencePropertiesKHR",
        function: || void_fn!(crate::commands::query::external_sync_properties::get_physical_device_external_fence_properties_khr),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkCreateDebugUtilsMessengerEXT",
        function: || void_fn!(crate::commands::instance::create_debug_utils_messenger),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyDebugUtilsMessengerEXT",
        function: || void_fn!(crate::commands::instance::destroy_debug_utils_messenger),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkCreateDebugReportCallbackEXT",
        function: || void_fn!(crate::commands::instance::create_debug_report_callback),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyDebugReportCallbackEXT",
        function: || void_fn!(crate::commands::instance::destroy_debug_report_callback),
        level: Level::Instance,
    },
    Intercept {
        name: b"vkDestroyDevice",
        function: || void_fn!(crate::commands::device::destroy_device),
        level: device(when::always),
    },
    Intercept {
        name: b"vkAllocateMemory",
        function: || void_fn!(crate::commands::allocate::memory::allocate_memory),
        level: device(|s| s.next.allocate_memory.is_some()),
    },
    Intercept {
        name: b"vkFreeMemory",
        function: || void_fn!(crate::commands::allocate::memory::free_memory),
        level: device(|s| s.next.free_memory.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryFdKHR",
        function: || void_fn!(crate::commands::export::get_memory_fd::get_memory_fd_khr),
        level: device(|s| s.facts.extensions.khr_external_memory_fd && s.next.get_memory_fd.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryFdPropertiesKHR",
        function: || void_fn!(crate::commands::query::get_memory_fd_properties::get_memory_fd_properties_khr),
        level: device(|s| s.facts.extensions.khr_external_memory_fd && s.next.get_memory_fd_properties.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryHostPointerPropertiesEXT",
        function: || void_fn!(crate::commands::query::get_memory_host_pointer_properties::get_memory_host_pointer_properties_ext),
        level: device(|s| s.facts.extensions.ext_external_memory_host && s.next.get_memory_host_pointer_properties.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryRemoteAddressNV",
        function: || void_fn!(crate::commands::export::get_memory_remote_address::get_memory_remote_address_nv),
        level: device(|s| s.facts.extensions.nv_external_memory_rdma && s.next.get_memory_remote_address.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryWin32HandleNV",
        function: || void_fn!(crate::commands::export::get_memory_win32_handle_nv::get_memory_win32_handle_nv),
        level: device(|s| s.facts.extensions.nv_external_memory_win32 && s.next.get_memory_win32_handle_nv.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryWin32HandleKHR",
        function: || void_fn!(crate::commands::export::get_memory_win32_handle::get_memory_win32_handle_khr),
        level: device(|s| s.facts.extensions.khr_external_memory_win32 && s.next.get_memory_win32_handle.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryZirconHandleFUCHSIA",
        function: || void_fn!(crate::commands::export::get_memory_zircon_handle::get_memory_zircon_handle_fuchsia),
        level: device(|s| s.facts.extensions.fuchsia_external_memory && s.next.get_memory_zircon_handle.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryWin32HandlePropertiesKHR",
        function: || void_fn!(crate::commands::query::get_memory_win32_handle_properties::get_memory_win32_handle_properties_khr),
        level: device(|s| s.facts.extensions.khr_external_memory_win32 && s.next.get_memory_win32_handle_properties.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryZirconHandlePropertiesFUCHSIA",
        function: || void_fn!(crate::commands::query::get_memory_zircon_handle_properties::get_memory_zircon_handle_properties_fuchsia),
        level: device(|s| s.facts.extensions.fuchsia_external_memory && s.next.get_memory_zircon_handle_properties.is_some()),
    },
    Intercept {
        name: b"vkGetAndroidHardwareBufferPropertiesANDROID",
        function: || void_fn!(crate::commands::query::get_android_hardware_buffer_properties::get_android_hardware_buffer_properties_android),
        level: device(|s| s.facts.extensions.android_external_memory_android_hardware_buffer && s.next.get_android_hardware_buffer_properties.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryAndroidHardwareBufferANDROID",
        function: || void_fn!(crate::commands::export::get_memory_android_hardware_buffer::get_memory_android_hardware_buffer_android),
        level: device(|s| s.facts.extensions.android_external_memory_android_hardware_buffer && s.next.get_memory_android_hardware_buffer.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryMetalHandleEXT",
        function: || void_fn!(crate::commands::export::get_memory_metal_handle::get_memory_metal_handle_ext),
        level: device(|s| s.facts.extensions.ext_external_memory_metal && s.next.get_memory_metal_handle.is_some()),
    },
    Intercept {
        name: b"vkGetMemoryMetalHandlePropertiesEXT",
        function: || void_fn!(crate::commands::query::get_memory_metal_handle_properties::get_memory_metal_handle_properties_ext),
        level: device(|s| s.facts.extensions.ext_external_memory_metal && s.next.get_memory_metal_handle_properties.is_some()),
    },
    Intercept {
        name: b"vkSetDebugUtilsObjectNameEXT",
        function: || void_fn!(crate::commands::names::set_debug_utils_object_name),
        level: device(|s| when::debug_utils(s) && s.next.set_debug_utils_object_name.is_some()),
    },
    Intercept {
        name: b"vkCreateBuffer",
        function: || void_fn!(crate::commands::resources::create_buffer),
        level: device(|s| when::buffers(s) && s.next.create_buffer.is_some()),
    },
    Intercept {
        name: b"vkDestroyBuffer",
        function: || void_fn!(crate::commands::resources::destroy_buffer),
        level: device(|s| when::buffers(s) && s.next.destroy_buffer.is_some()),
    },
    Intercept {
        name: b"vkCreateImage",
        function: || void_fn!(crate::commands::resources::create_image),
        level: device(|s| when::images(s) && s.next.create_image.is_some()),
    },
    Intercept {
        name: b"vkDestroyImage",
        function: || void_fn!(crate::commands::resources::destroy_image),
        level: device(|s| when::images(s) && s.next.destroy_image.is_some()),
    },
    Intercept {
        name: b"vkBindBufferMemory",
        function: || void_fn!(crate::commands::resources::bind_buffer_memory),
        level: device(|s| when::buffers(s) && s.next.bind_buffer_memory.is_some()),
    },
    Intercept {
        name: b"vkBindImageMemory",
        function: || void_fn!(crate::commands::resources::bind_image_memory),
        level: device(|s| when::images(s) && s.next.bind_image_memory.is_some()),
    },
    Intercept {
        name: b"vkBindBufferMemory2",
        function: || void_fn!(crate::commands::resources::bind_buffer_memory2),
        level: device(|s| when::can_export(s) && s.next.bind_buffer_memory2.is_some()),
    },
    Intercept {
        name: b"vkBindBufferMemory2KHR",
        function: || void_fn!(crate::commands::resources::bind_buffer_memory2),
        level: device(|s| when::can_export(s) && s.next.bind_buffer_memory2.is_some()),
    },
    Intercept {
        name: b"vkBindImageMemory2",
        function: || void_fn!(crate::commands::resources::bind_image_memory2),
        level: device(|s| when::can_export(s) && s.next.bind_image_memory2.is_some()),
    },
    Intercept {
        name: b"vkBindImageMemory2KHR",
        function: || void_fn!(crate::commands::resources::bind_image_memory2),
        level: device(|s| when::can_export(s) && s.next.bind_image_memory2.is_some()),
    },
    Intercept {
        name: b"vkGetDeviceQueue",
        function: || void_fn!(crate::commands::queues::get_device_queue),
        level: device(|s| s.next.get_device_queue.is_some()),
    },
    Intercept {
        name: b"vkGetDeviceQueue2",
        function: || void_fn!(crate::commands::queues::get_device_queue2),
        level: device(|s| s.next.get_device_queue2.is_some()),
    },
    Intercept {
        name: b"vkQueueSubmit",
        function: || void_fn!(crate::commands::queues::queue_submit),
        level: device(|s| s.next.queue_submit.is_some()),
    },
    Intercept {
        name: b"vkQueueSubmit2",
        function: || void_fn!(crate::commands::queues::queue_submit2),
        level: device(|s| s.next.queue_submit2.is_some()),
    },
    Intercept {
        name: b"vkQueueSubmit2KHR",
        function: || void_fn!(crate::commands::queues::queue_submit2),
        level: device(|s| s.next.queue_submit2.is_some()),
    },
    Intercept {
        name: b"vkQueueBindSparse",
        function: || void_fn!(crate::commands::queues::queue_bind_sparse),
        level: device(|s| s.next.queue_bind_sparse.is_some()),
    },
    Intercept {
        name: b"vkQueuePresentKHR",
        function: || void_fn!(crate::commands::queues::queue_present),
        level: device(|s| s.next.queue_present.is_some()),
    },
    Intercept {
        name: b"vkResetFences",
        function: || void_fn!(crate::commands::queues::reset_fences),
        level: device(|s| s.next.reset_fences.is_some()),
    },
    Intercept {
        name: b"vkAcquireNextImageKHR",
        function: || void_fn!(crate::commands::queues::acquire_next_image),
        level: device(|s| s.next.acquire_next_image.is_some()),
    },
    Intercept {
        name: b"vkAcquireNextImage2KHR",
        function: || void_fn!(crate::commands::queues::acquire_next_image2),
        level: device(|s| s.next.acquire_next_image2.is_some()),
    },
    Intercept {
        name: b"vkCreateSemaphore",
        function: || void_fn!(crate::commands::semaphores::create_semaphore),
        level: device(|s| s.next.create_semaphore.is_some()),
    },
    Intercept {
        name: b"vkDestroySemaphore",
        function: || void_fn!(crate::commands::semaphores::destroy_semaphore),
        level: device(|s| s.next.destroy_semaphore.is_some()),
    },
    Intercept {
        name: b"vkImportSemaphoreFdKHR",
        function: || void_fn!(crate::commands::import::import_semaphore_fd::import_semaphore_fd_khr),
        level: device(|s| s.facts.extensions.khr_external_semaphore_fd && s.next.import_semaphore_fd.is_some()),
    },
    Intercept {
        name: b"vkImportSemaphoreWin32HandleKHR",
        function: || void_fn!(crate::commands::import::import_semaphore_win32::import_semaphore_win32_handle_khr),
        level: device(|s| s.facts.extensions.khr_external_semaphore_win32 && s.next.import_semaphore_win32_handle.is_some()),
    },
    Intercept {
        name: b"vkImportSemaphoreZirconHandleFUCHSIA",
        function: || void_fn!(crate::commands::import::import_semaphore_zircon::import_semaphore_zircon_handle_fuchsia),
        level: device(|s| s.facts.extensions.fuchsia_external_semaphore && s.next.import_semaphore_zircon_handle.is_some()),
    },
    Intercept {
        name: b"vkGetSemaphoreFdKHR",
        function: || void_fn!(crate::commands::export::get_semaphore_fd::get_semaphore_fd_khr),
        level: device(|s| s.facts.extensions.khr_external_semaphore_fd && s.next.get_semaphore_fd.is_some()),
    },
    Intercept {
        name: b"vkGetSemaphoreWin32HandleKHR",
        function: || void_fn!(crate::commands::export::get_semaphore_win32_handle::get_semaphore_win32_handle_khr),
        level: device(|s| s.facts.extensions.khr_external_semaphore_win32 && s.next.get_semaphore_win32_handle.is_some()),
    },
    Intercept {
        name: b"vkGetSemaphoreZirconHandleFUCHSIA",
        function: || void_fn!(crate::commands::export::get_semaphore_zircon_handle::get_semaphore_zircon_handle_fuchsia),
        level: device(|s| s.facts.extensions.fuchsia_external_semaphore && s.next.get_semaphore_zircon_handle.is_some()),
    },
    Intercept {
        name: b"vkCreateFence",
        function: || void_fn!(crate::commands::fences::create_fence),
        level: device(|s| s.next.create_fence.is_some()),
    },
    Intercept {
        name: b"vkDestroyFence",
        function: || void_fn!(crate::commands::fences::destroy_fence),
        level: device(|s| s.next.destroy_fence.is_some()),
    },
    Intercept {
        name: b"vkRegisterDeviceEventEXT",
        function: || void_fn!(crate::commands::fences::register_device_event),
        level: device(|s| s.next.register_device_event.is_some()),
    },
    Intercept {
        name: b"vkRegisterDisplayEventEXT",
        function: || void_fn!(crate::commands::fences::register_display_event),
        level: device(|s| s.next.register_display_event.is_some()),
    },
    Intercept {
        name: b"vkImportFenceFdKHR",
        function: || void_fn!(crate::commands::import::import_fence_fd::import_fence_fd_khr),
        level: device(|s| s.facts.extensions.khr_external_fence_fd && s.next.import_fence_fd.is_some()),
    },
    Intercept {
        name: b"vkImportFenceWin32HandleKHR",
        function: || void_fn!(crate::commands::import::import_fence_win32_handle::import_fence_win32_handle_khr),
        level: device(|s| s.facts.extensions.khr_external_fence_win32 && s.next.import_fence_win32_handle.is_some()),
    },
    Intercept {
        name: b"vkGetFenceFdKHR",
        function: || void_fn!(crate::commands::export::get_fence_fd::get_fence_fd_khr),
        level: device(|s| s.facts.extensions.khr_external_fence_fd && s.next.get_fence_fd.is_some()),
    },
    Intercept {
        name: b"vkGetFenceWin32HandleKHR",
        function: || void_fn!(crate::commands::export::get_fence_win32_handle::get_fence_win32_handle_khr),
        level: device(|s| s.facts.extensions.khr_external_fence_win32 && s.next.get_fence_win32_handle.is_some()),
    },
    Intercept {
        name: b"vkGetFenceStatus",
        function: || void_fn!(crate::commands::queue_waits::get_fence_status),
        level: device(|s| s.next.get_fence_status.is_some()),
    },
    Intercept {
        name: b"vkWaitForFences",
        function: || void_fn!(crate::commands::queue_waits::wait_for_fences),
        level: device(|s| s.next.wait_for_fences.is_some()),
    },
    Intercept {
        name: b"vkQueueWaitIdle",
        function: || void_fn!(crate::commands::queue_waits::queue_wait_idle),
        level: device(|s| s.next.queue_wait_idle.is_some()),
    },
    Intercept {
        name: b"vkDeviceWaitIdle",
        function: || void_fn!(crate::commands::queue_waits::device_wait_idle),
        level: device(|s| s.next.device_wait_idle.is_some()),
    },
];

/// The extension of each command intercepted only where its extension is enabled (as
/// `vk.xml` says), for the tests that compare it with the command's rules.
#[cfg(test)]
pub const EXTENSION_OF: &[(&[u8], &str)] = &[
    (b"vkGetMemoryFdKHR", "VK_KHR_external_memory_fd"),
    (b"vkGetMemoryFdPropertiesKHR", "VK_KHR_external_memory_fd"),
    (b"vkGetMemoryHostPointerPropertiesEXT", "VK_EXT_external_memory_host"),
    (b"vkGetMemoryRemoteAddressNV", "VK_NV_external_memory_rdma"),
    (b"vkGetMemoryWin32HandleNV", "VK_NV_external_memory_win32"),
    (b"vkGetMemoryWin32HandleKHR", "VK_KHR_external_memory_win32"),
    (b"vkGetMemoryZirconHandleFUCHSIA", "VK_FUCHSIA_external_memory"),
    (b"vkGetMemoryWin32HandlePropertiesKHR", "VK_KHR_external_memory_win32"),
    (b"vkGetMemoryZirconHandlePropertiesFUCHSIA", "VK_FUCHSIA_external_memory"),
    (b"vkGetAndroidHardwareBufferPropertiesANDROID", "VK_ANDROID_external_memory_android_hardware_buffer"),
    (b"vkGetMemoryAndroidHardwareBufferANDROID", "VK_ANDROID_external_memory_android_hardware_buffer"),
    (b"vkGetMemoryMetalHandleEXT", "VK_EXT_external_memory_metal"),
    (b"vkGetMemoryMetalHandlePropertiesEXT", "VK_EXT_external_memory_metal"),
    (b"vkImportSemaphoreFdKHR", "VK_KHR_external_semaphore_fd"),
    (b"vkImportSemaphoreWin32HandleKHR", "VK_KHR_external_semaphore_win32"),
    (b"vkImportSemaphoreZirconHandleFUCHSIA", "VK_FUCHSIA_external_semaphore"),
    (b"vkGetSemaphoreFdKHR", "VK_KHR_external_semaphore_fd"),
    (b"vkGetSemaphoreWin32HandleKHR", "VK_KHR_external_semaphore_win32"),
    (b"vkGetSemaphoreZirconHandleFUCHSIA", "VK_FUCHSIA_external_semaphore"),
    (b"vkImportFenceFdKHR", "VK_KHR_external_fence_fd"),
    (b"vkImportFenceWin32HandleKHR", "VK_KHR_external_fence_win32"),
    (b"vkGetFenceFdKHR", "VK_KHR_external_fence_fd"),
    (b"vkGetFenceWin32HandleKHR", "VK_KHR_external_fence_win32"),
];
