//! Next-layer function pointers, fetched once at instance or device creation.
//! Every entry is an `Option`: a missing function is a reported condition, never a panic.

use crate::vk_ext::{PfnGetMemoryMetalHandleEXT, PfnGetMemoryMetalHandlePropertiesEXT};
use ash::vk;
use std::ffi::CStr;

/// Reinterprets a `PFN_vkVoidFunction` as the typed pointer the caller asked for by name.
///
/// # Safety
/// `T` must be the function-pointer type of the command the pointer was looked up by.
pub unsafe fn cast<T: Copy>(f: vk::PFN_vkVoidFunction) -> Option<T> {
    debug_assert_eq!(size_of::<T>(), size_of::<unsafe extern "system" fn()>());
    // SAFETY: the caller names the right type; fn pointers of any signature share one size.
    f.map(|f| unsafe { std::mem::transmute_copy::<unsafe extern "system" fn(), T>(&f) })
}

/// Instance-level functions of the next layer.
#[derive(Clone, Copy)]
pub struct InstanceDispatch {
    pub get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    pub destroy_instance: Option<vk::PFN_vkDestroyInstance>,
    pub create_device: Option<vk::PFN_vkCreateDevice>,
    pub get_physical_device_memory_properties: Option<vk::PFN_vkGetPhysicalDeviceMemoryProperties>,
    pub get_physical_device_properties: Option<vk::PFN_vkGetPhysicalDeviceProperties>,
    pub get_physical_device_properties2: Option<vk::PFN_vkGetPhysicalDeviceProperties2>,
    pub get_physical_device_properties2_khr: Option<vk::PFN_vkGetPhysicalDeviceProperties2>,
    /// The core (1.1) names and the extension (`KHR`) names apart: which one may be called
    /// depends on the instance and physical device (`state::queryable`).
    pub get_physical_device_external_buffer_properties:
        Option<vk::PFN_vkGetPhysicalDeviceExternalBufferProperties>,
    pub get_physical_device_external_buffer_properties_khr:
        Option<vk::PFN_vkGetPhysicalDeviceExternalBufferProperties>,
    pub get_physical_device_image_format_properties2:
        Option<vk::PFN_vkGetPhysicalDeviceImageFormatProperties2>,
    pub get_physical_device_image_format_properties2_khr:
        Option<vk::PFN_vkGetPhysicalDeviceImageFormatProperties2>,
    pub create_debug_utils_messenger: Option<vk::PFN_vkCreateDebugUtilsMessengerEXT>,
    pub destroy_debug_utils_messenger: Option<vk::PFN_vkDestroyDebugUtilsMessengerEXT>,
    pub create_debug_report_callback: Option<vk::PFN_vkCreateDebugReportCallbackEXT>,
    pub destroy_debug_report_callback: Option<vk::PFN_vkDestroyDebugReportCallbackEXT>,
}

impl InstanceDispatch {
    /// # Safety
    /// `gipa` must be the next layer's `vkGetInstanceProcAddr` and `instance` a live instance.
    pub unsafe fn load(gipa: vk::PFN_vkGetInstanceProcAddr, instance: vk::Instance) -> Self {
        // SAFETY: `gipa` is the next layer's `vkGetInstanceProcAddr` and `instance` a live instance (this
        // function's contract); `name` is a NUL-terminated literal.
        let get = |name: &CStr| unsafe { gipa(instance, name.as_ptr()) };
        // SAFETY: `cast`'s contract: each pointer is cast to the PFN type of the very name it was
        // looked up by.
        unsafe {
            Self {
                get_instance_proc_addr: gipa,
                destroy_instance: cast(get(c"vkDestroyInstance")),
                create_device: cast(get(c"vkCreateDevice")),
                get_physical_device_memory_properties: cast(get(
                    c"vkGetPhysicalDeviceMemoryProperties",
                )),
                get_physical_device_properties: cast(get(c"vkGetPhysicalDeviceProperties")),
                get_physical_device_properties2: cast(get(c"vkGetPhysicalDeviceProperties2")),
                get_physical_device_properties2_khr: cast(get(
                    c"vkGetPhysicalDeviceProperties2KHR",
                )),
                get_physical_device_external_buffer_properties: cast(get(
                    c"vkGetPhysicalDeviceExternalBufferProperties",
                )),
                get_physical_device_external_buffer_properties_khr: cast(get(
                    c"vkGetPhysicalDeviceExternalBufferPropertiesKHR",
                )),
                get_physical_device_image_format_properties2: cast(get(
                    c"vkGetPhysicalDeviceImageFormatProperties2",
                )),
                get_physical_device_image_format_properties2_khr: cast(get(
                    c"vkGetPhysicalDeviceImageFormatProperties2KHR",
                )),
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
    pub destroy_device: Option<vk::PFN_vkDestroyDevice>,
    pub allocate_memory: Option<vk::PFN_vkAllocateMemory>,
    pub free_memory: Option<vk::PFN_vkFreeMemory>,
    pub get_memory_fd: Option<vk::PFN_vkGetMemoryFdKHR>,
    pub get_memory_fd_properties: Option<vk::PFN_vkGetMemoryFdPropertiesKHR>,
    pub get_memory_host_pointer_properties: Option<vk::PFN_vkGetMemoryHostPointerPropertiesEXT>,
    pub get_memory_remote_address: Option<vk::PFN_vkGetMemoryRemoteAddressNV>,
    pub get_memory_win32_handle_nv: Option<vk::PFN_vkGetMemoryWin32HandleNV>,
    pub get_memory_win32_handle: Option<vk::PFN_vkGetMemoryWin32HandleKHR>,
    pub get_memory_zircon_handle: Option<vk::PFN_vkGetMemoryZirconHandleFUCHSIA>,
    pub get_memory_win32_handle_properties: Option<vk::PFN_vkGetMemoryWin32HandlePropertiesKHR>,
    pub get_memory_zircon_handle_properties:
        Option<vk::PFN_vkGetMemoryZirconHandlePropertiesFUCHSIA>,
    pub get_android_hardware_buffer_properties:
        Option<vk::PFN_vkGetAndroidHardwareBufferPropertiesANDROID>,
    pub get_memory_android_hardware_buffer: Option<vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID>,
    pub get_memory_metal_handle: Option<PfnGetMemoryMetalHandleEXT>,
    pub get_memory_metal_handle_properties: Option<PfnGetMemoryMetalHandlePropertiesEXT>,
    pub set_debug_utils_object_name: Option<vk::PFN_vkSetDebugUtilsObjectNameEXT>,
    pub create_buffer: Option<vk::PFN_vkCreateBuffer>,
    pub destroy_buffer: Option<vk::PFN_vkDestroyBuffer>,
    pub create_image: Option<vk::PFN_vkCreateImage>,
    pub destroy_image: Option<vk::PFN_vkDestroyImage>,
    pub bind_buffer_memory: Option<vk::PFN_vkBindBufferMemory>,
    pub bind_image_memory: Option<vk::PFN_vkBindImageMemory>,
    pub bind_buffer_memory2: Option<vk::PFN_vkBindBufferMemory2>,
    pub bind_image_memory2: Option<vk::PFN_vkBindImageMemory2>,
    pub get_image_memory_requirements: Option<vk::PFN_vkGetImageMemoryRequirements>,
    pub get_buffer_memory_requirements: Option<vk::PFN_vkGetBufferMemoryRequirements>,
}

impl DeviceDispatch {
    /// # Safety
    /// `gdpa` must be the next layer's `vkGetDeviceProcAddr` and `device` a live device.
    pub unsafe fn load(gdpa: vk::PFN_vkGetDeviceProcAddr, device: vk::Device) -> Self {
        // SAFETY: `gdpa` is the next layer's `vkGetDeviceProcAddr` and `device` a live device (this
        // function's contract); `name` is a NUL-terminated literal.
        let get = |name: &CStr| unsafe { gdpa(device, name.as_ptr()) };
        // SAFETY: `cast`'s contract: each pointer is cast to the PFN type of the very name it was
        // looked up by.
        unsafe {
            Self {
                get_device_proc_addr: gdpa,
                destroy_device: cast(get(c"vkDestroyDevice")),
                allocate_memory: cast(get(c"vkAllocateMemory")),
                free_memory: cast(get(c"vkFreeMemory")),
                get_memory_fd: cast(get(c"vkGetMemoryFdKHR")),
                get_memory_fd_properties: cast(get(c"vkGetMemoryFdPropertiesKHR")),
                get_memory_host_pointer_properties: cast(get(
                    c"vkGetMemoryHostPointerPropertiesEXT",
                )),
                get_memory_remote_address: cast(get(c"vkGetMemoryRemoteAddressNV")),
                get_memory_win32_handle_nv: cast(get(c"vkGetMemoryWin32HandleNV")),
                get_memory_win32_handle: cast(get(c"vkGetMemoryWin32HandleKHR")),
                get_memory_zircon_handle: cast(get(c"vkGetMemoryZirconHandleFUCHSIA")),
                get_memory_win32_handle_properties: cast(get(
                    c"vkGetMemoryWin32HandlePropertiesKHR",
                )),
                get_memory_zircon_handle_properties: cast(get(
                    c"vkGetMemoryZirconHandlePropertiesFUCHSIA",
                )),
                get_android_hardware_buffer_properties: cast(get(
                    c"vkGetAndroidHardwareBufferPropertiesANDROID",
                )),
                get_memory_android_hardware_buffer: cast(get(
                    c"vkGetMemoryAndroidHardwareBufferANDROID",
                )),
                get_memory_metal_handle: cast(get(c"vkGetMemoryMetalHandleEXT")),
                get_memory_metal_handle_properties: cast(get(
                    c"vkGetMemoryMetalHandlePropertiesEXT",
                )),
                set_debug_utils_object_name: cast(get(c"vkSetDebugUtilsObjectNameEXT")),
                create_buffer: cast(get(c"vkCreateBuffer")),
                destroy_buffer: cast(get(c"vkDestroyBuffer")),
                create_image: cast(get(c"vkCreateImage")),
                destroy_image: cast(get(c"vkDestroyImage")),
                bind_buffer_memory: cast(get(c"vkBindBufferMemory")),
                bind_image_memory: cast(get(c"vkBindImageMemory")),
                bind_buffer_memory2: cast(
                    get(c"vkBindBufferMemory2").or_else(|| get(c"vkBindBufferMemory2KHR")),
                ),
                bind_image_memory2: cast(
                    get(c"vkBindImageMemory2").or_else(|| get(c"vkBindImageMemory2KHR")),
                ),
                get_image_memory_requirements: cast(get(c"vkGetImageMemoryRequirements")),
                get_buffer_memory_requirements: cast(get(c"vkGetBufferMemoryRequirements")),
            }
        }
    }
}
