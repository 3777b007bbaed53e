//! The driver's command table: every Vulkan command it implements, at which level, and (for
//! device extension commands) which extension must be enabled for `vkGetDeviceProcAddr` to
//! return it.

use ash::vk;

use crate::{
    buffer as b, device as d, fence as fe, format as f, image as im, instance as i, memory as m,
    physical_device as p, queue_submit as q, semaphore as s, sync_properties as sp,
};

/// The dispatch level of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Callable without an instance (`vkCreateInstance`, ...).
    Global,
    Instance,
    PhysicalDevice,
    Device,
}

/// One implemented command.
#[derive(Clone, Copy, Debug)]
pub struct Proc {
    pub level: Level,
    /// Device extension that must be enabled for `vkGetDeviceProcAddr` to return the command.
    pub device_extension: Option<&'static str>,
    pub pfn: vk::PFN_vkVoidFunction,
}

fn erase(f: *const ()) -> vk::PFN_vkVoidFunction {
    // SAFETY: `f` is one of this crate's `extern "system"` functions; a function pointer is
    // stored type-erased as PFN_vkVoidFunction and cast back by the caller to the command's
    // real signature, as Vulkan's GetProcAddr functions define.
    Some(unsafe { std::mem::transmute::<*const (), unsafe extern "system" fn()>(f) })
}

macro_rules! proc_entry {
    ($level:ident, $f:expr) => {
        Proc {
            level: Level::$level,
            device_extension: None,
            pfn: erase($f as *const ()),
        }
    };
    ($level:ident, $f:expr, $ext:expr) => {
        Proc {
            level: Level::$level,
            device_extension: Some($ext),
            pfn: erase($f as *const ()),
        }
    };
}

/// Aliases (promoted extension commands) and the core command they count as.
const ALIASES: [(&str, &str); 10] = [
    (
        "vkGetPhysicalDeviceProperties2KHR",
        "vkGetPhysicalDeviceProperties2",
    ),
    (
        "vkGetPhysicalDeviceFeatures2KHR",
        "vkGetPhysicalDeviceFeatures2",
    ),
    (
        "vkGetPhysicalDeviceQueueFamilyProperties2KHR",
        "vkGetPhysicalDeviceQueueFamilyProperties2",
    ),
    (
        "vkGetPhysicalDeviceMemoryProperties2KHR",
        "vkGetPhysicalDeviceMemoryProperties2",
    ),
    (
        "vkGetPhysicalDeviceFormatProperties2KHR",
        "vkGetPhysicalDeviceFormatProperties2",
    ),
    (
        "vkGetPhysicalDeviceImageFormatProperties2KHR",
        "vkGetPhysicalDeviceImageFormatProperties2",
    ),
    (
        "vkGetPhysicalDeviceSparseImageFormatProperties2KHR",
        "vkGetPhysicalDeviceSparseImageFormatProperties2",
    ),
    (
        "vkGetPhysicalDeviceExternalBufferPropertiesKHR",
        "vkGetPhysicalDeviceExternalBufferProperties",
    ),
    (
        "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
        "vkGetPhysicalDeviceExternalSemaphoreProperties",
    ),
    (
        "vkGetPhysicalDeviceExternalFencePropertiesKHR",
        "vkGetPhysicalDeviceExternalFenceProperties",
    ),
];

/// Device-level aliases: the core command they count as and the extension that must be enabled
/// for `vkGetDeviceProcAddr` to return them.
const DEVICE_ALIASES: [(&str, &str, &str); 8] = [
    (
        "vkGetBufferMemoryRequirements2KHR",
        "vkGetBufferMemoryRequirements2",
        "VK_KHR_get_memory_requirements2",
    ),
    (
        "vkGetImageMemoryRequirements2KHR",
        "vkGetImageMemoryRequirements2",
        "VK_KHR_get_memory_requirements2",
    ),
    (
        "vkGetImageSparseMemoryRequirements2KHR",
        "vkGetImageSparseMemoryRequirements2",
        "VK_KHR_get_memory_requirements2",
    ),
    (
        "vkBindBufferMemory2KHR",
        "vkBindBufferMemory2",
        "VK_KHR_bind_memory2",
    ),
    (
        "vkBindImageMemory2KHR",
        "vkBindImageMemory2",
        "VK_KHR_bind_memory2",
    ),
    (
        "vkGetSemaphoreCounterValueKHR",
        "vkGetSemaphoreCounterValue",
        "VK_KHR_timeline_semaphore",
    ),
    (
        "vkWaitSemaphoresKHR",
        "vkWaitSemaphores",
        "VK_KHR_timeline_semaphore",
    ),
    (
        "vkSignalSemaphoreKHR",
        "vkSignalSemaphore",
        "VK_KHR_timeline_semaphore",
    ),
];

/// The core name of an alias; other names unchanged.
pub fn canonical_name(name: &str) -> &str {
    let device_alias = DEVICE_ALIASES
        .iter()
        .find(|(alias, _, _)| *alias == name)
        .map(|&(_, core, _)| core);
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map(|&(_, core)| core)
        .or(device_alias)
        .unwrap_or(name)
}

/// The command `name`, if the driver implements it. A device-level alias needs its extension.
pub fn lookup(name: &str) -> Option<Proc> {
    let core = lookup_core(canonical_name(name))?;
    match DEVICE_ALIASES.iter().find(|(alias, _, _)| *alias == name) {
        Some(&(_, _, extension)) => Some(Proc {
            device_extension: Some(extension),
            ..core
        }),
        None => Some(core),
    }
}

/// The command of the core (or unaliased extension) name `name`.
fn lookup_core(name: &str) -> Option<Proc> {
    const FD: &str = "VK_KHR_external_memory_fd";
    const RDMA: &str = "VK_NV_external_memory_rdma";
    const WIN32: &str = "VK_NV_external_memory_win32";
    const METAL: &str = "VK_EXT_external_memory_metal";
    const WIN32_KHR: &str = "VK_KHR_external_memory_win32";
    const ZIRCON: &str = "VK_FUCHSIA_external_memory";
    const AHB: &str = "VK_ANDROID_external_memory_android_hardware_buffer";
    const HOST: &str = "VK_EXT_external_memory_host";
    const SEMAPHORE_FD: &str = "VK_KHR_external_semaphore_fd";
    const SEMAPHORE_WIN32: &str = "VK_KHR_external_semaphore_win32";
    const SEMAPHORE_ZIRCON: &str = "VK_FUCHSIA_external_semaphore";
    const FENCE_FD: &str = "VK_KHR_external_fence_fd";
    const FENCE_WIN32: &str = "VK_KHR_external_fence_win32";
    Some(match name {
        "vkGetInstanceProcAddr" => proc_entry!(Global, crate::vk_icdGetInstanceProcAddr),
        "vkCreateInstance" => proc_entry!(Global, i::create_instance),
        "vkEnumerateInstanceExtensionProperties" => {
            proc_entry!(Global, i::enumerate_instance_extension_properties)
        }
        "vkEnumerateInstanceLayerProperties" => {
            proc_entry!(Global, i::enumerate_instance_layer_properties)
        }
        "vkEnumerateInstanceVersion" => proc_entry!(Global, i::enumerate_instance_version),

        "vkDestroyInstance" => proc_entry!(Instance, i::destroy_instance),
        "vkEnumeratePhysicalDevices" => proc_entry!(Instance, i::enumerate_physical_devices),
        "vkEnumeratePhysicalDeviceGroups" => {
            proc_entry!(Instance, i::enumerate_physical_device_groups)
        }

        "vkGetPhysicalDeviceProperties" => proc_entry!(PhysicalDevice, p::get_properties),
        "vkGetPhysicalDeviceProperties2" => proc_entry!(PhysicalDevice, p::get_properties2),
        "vkGetPhysicalDeviceFeatures" => proc_entry!(PhysicalDevice, p::get_features),
        "vkGetPhysicalDeviceFeatures2" => proc_entry!(PhysicalDevice, p::get_features2),
        "vkGetPhysicalDeviceQueueFamilyProperties" => {
            proc_entry!(PhysicalDevice, p::get_queue_family_properties)
        }
        "vkGetPhysicalDeviceQueueFamilyProperties2" => {
            proc_entry!(PhysicalDevice, p::get_queue_family_properties2)
        }
        "vkGetPhysicalDeviceMemoryProperties" => {
            proc_entry!(PhysicalDevice, p::get_memory_properties)
        }
        "vkGetPhysicalDeviceMemoryProperties2" => {
            proc_entry!(PhysicalDevice, p::get_memory_properties2)
        }
        "vkGetPhysicalDeviceFormatProperties" => {
            proc_entry!(PhysicalDevice, f::get_format_properties)
        }
        "vkGetPhysicalDeviceFormatProperties2" => {
            proc_entry!(PhysicalDevice, f::get_format_properties2)
        }
        "vkGetPhysicalDeviceImageFormatProperties" => {
            proc_entry!(PhysicalDevice, f::get_image_format_properties)
        }
        "vkGetPhysicalDeviceImageFormatProperties2" => {
            proc_entry!(PhysicalDevice, f::get_image_format_properties2)
        }
        "vkGetPhysicalDeviceExternalImageFormatPropertiesNV" => {
            proc_entry!(PhysicalDevice, f::get_external_image_format_properties_nv)
        }
        "vkGetPhysicalDeviceSparseImageFormatProperties" => {
            proc_entry!(PhysicalDevice, p::get_sparse_image_format_properties)
        }
        "vkGetPhysicalDeviceSparseImageFormatProperties2" => {
            proc_entry!(PhysicalDevice, p::get_sparse_image_format_properties2)
        }
        "vkGetPhysicalDeviceExternalBufferProperties" => {
            proc_entry!(PhysicalDevice, p::get_external_buffer_properties)
        }
        "vkGetPhysicalDeviceExternalSemaphoreProperties" => {
            proc_entry!(PhysicalDevice, sp::get_external_semaphore_properties)
        }
        "vkGetPhysicalDeviceExternalFenceProperties" => {
            proc_entry!(PhysicalDevice, sp::get_external_fence_properties)
        }
        "vkGetPhysicalDeviceToolProperties" => {
            proc_entry!(PhysicalDevice, p::get_tool_properties)
        }
        "vkEnumerateDeviceExtensionProperties" => {
            proc_entry!(PhysicalDevice, p::enumerate_device_extension_properties)
        }
        "vkEnumerateDeviceLayerProperties" => {
            proc_entry!(PhysicalDevice, p::enumerate_device_layer_properties)
        }
        "vkCreateDevice" => proc_entry!(PhysicalDevice, d::create_device),

        "vkGetDeviceProcAddr" => proc_entry!(Device, d::get_device_proc_addr),
        "vkDestroyDevice" => proc_entry!(Device, d::destroy_device),
        "vkGetDeviceQueue" => proc_entry!(Device, d::get_device_queue),
        "vkGetDeviceQueue2" => proc_entry!(Device, d::get_device_queue2),
        "vkDeviceWaitIdle" => proc_entry!(Device, d::device_wait_idle),
        "vkQueueWaitIdle" => proc_entry!(Device, d::queue_wait_idle),
        "vkAllocateMemory" => proc_entry!(Device, m::allocate_memory),
        "vkFreeMemory" => proc_entry!(Device, m::free_memory),
        "vkMapMemory" => proc_entry!(Device, m::map_memory),
        "vkUnmapMemory" => proc_entry!(Device, m::unmap_memory),
        "vkFlushMappedMemoryRanges" => proc_entry!(Device, m::flush_mapped_memory_ranges),
        "vkInvalidateMappedMemoryRanges" => {
            proc_entry!(Device, m::invalidate_mapped_memory_ranges)
        }
        "vkCreateBuffer" => proc_entry!(Device, b::create_buffer),
        "vkDestroyBuffer" => proc_entry!(Device, b::destroy_buffer),
        "vkGetBufferMemoryRequirements" => proc_entry!(Device, b::get_buffer_memory_requirements),
        "vkGetBufferMemoryRequirements2" => {
            proc_entry!(Device, b::get_buffer_memory_requirements2)
        }
        "vkBindBufferMemory" => proc_entry!(Device, b::bind_buffer_memory),
        "vkBindBufferMemory2" => proc_entry!(Device, b::bind_buffer_memory2),
        "vkCreateImage" => proc_entry!(Device, im::create_image),
        "vkDestroyImage" => proc_entry!(Device, im::destroy_image),
        "vkGetImageMemoryRequirements" => proc_entry!(Device, im::get_image_memory_requirements),
        "vkGetImageMemoryRequirements2" => {
            proc_entry!(Device, im::get_image_memory_requirements2)
        }
        "vkGetImageSparseMemoryRequirements" => {
            proc_entry!(Device, im::get_image_sparse_memory_requirements)
        }
        "vkGetImageSparseMemoryRequirements2" => {
            proc_entry!(Device, im::get_image_sparse_memory_requirements2)
        }
        "vkBindImageMemory" => proc_entry!(Device, im::bind_image_memory),
        "vkBindImageMemory2" => proc_entry!(Device, im::bind_image_memory2),
        "vkGetMemoryFdKHR" => proc_entry!(Device, m::get_memory_fd, FD),
        "vkGetMemoryFdPropertiesKHR" => proc_entry!(Device, m::get_memory_fd_properties, FD),
        "vkGetMemoryRemoteAddressNV" => proc_entry!(Device, m::get_memory_remote_address, RDMA),
        "vkGetMemoryWin32HandleNV" => proc_entry!(Device, m::get_memory_win32_handle, WIN32),
        "vkGetMemoryMetalHandleEXT" => proc_entry!(Device, m::get_memory_metal_handle, METAL),
        "vkGetMemoryMetalHandlePropertiesEXT" => {
            proc_entry!(Device, m::get_memory_metal_handle_properties, METAL)
        }
        "vkGetMemoryWin32HandleKHR" => {
            proc_entry!(Device, m::get_memory_win32_handle_khr, WIN32_KHR)
        }
        "vkGetMemoryZirconHandleFUCHSIA" => {
            proc_entry!(Device, m::get_memory_zircon_handle, ZIRCON)
        }
        "vkGetMemoryWin32HandlePropertiesKHR" => {
            proc_entry!(Device, m::get_memory_win32_handle_properties, WIN32_KHR)
        }
        "vkGetMemoryZirconHandlePropertiesFUCHSIA" => {
            proc_entry!(Device, m::get_memory_zircon_handle_properties, ZIRCON)
        }
        "vkGetAndroidHardwareBufferPropertiesANDROID" => {
            proc_entry!(Device, m::get_android_hardware_buffer_properties, AHB)
        }
        "vkGetMemoryAndroidHardwareBufferANDROID" => {
            proc_entry!(Device, m::get_memory_android_hardware_buffer, AHB)
        }
        "vkGetMemoryHostPointerPropertiesEXT" => {
            proc_entry!(Device, m::get_memory_host_pointer_properties, HOST)
        }
        "vkCreateSemaphore" => proc_entry!(Device, s::create_semaphore),
        "vkDestroySemaphore" => proc_entry!(Device, s::destroy_semaphore),
        "vkGetSemaphoreCounterValue" => proc_entry!(Device, s::get_semaphore_counter_value),
        "vkSignalSemaphore" => proc_entry!(Device, s::signal_semaphore),
        "vkWaitSemaphores" => proc_entry!(Device, s::wait_semaphores),
        "vkCreateFence" => proc_entry!(Device, fe::create_fence),
        "vkDestroyFence" => proc_entry!(Device, fe::destroy_fence),
        "vkGetFenceStatus" => proc_entry!(Device, fe::get_fence_status),
        "vkResetFences" => proc_entry!(Device, fe::reset_fences),
        "vkWaitForFences" => proc_entry!(Device, fe::wait_for_fences),
        "vkQueueSubmit" => proc_entry!(Device, q::queue_submit),
        "vkQueueSubmit2" => proc_entry!(Device, q::queue_submit2),
        "vkGetSemaphoreFdKHR" => proc_entry!(Device, s::get_semaphore_fd, SEMAPHORE_FD),
        "vkImportSemaphoreFdKHR" => proc_entry!(Device, s::import_semaphore_fd, SEMAPHORE_FD),
        "vkGetSemaphoreWin32HandleKHR" => {
            proc_entry!(Device, s::get_semaphore_win32_handle, SEMAPHORE_WIN32)
        }
        "vkImportSemaphoreWin32HandleKHR" => {
            proc_entry!(Device, s::import_semaphore_win32_handle, SEMAPHORE_WIN32)
        }
        "vkGetSemaphoreZirconHandleFUCHSIA" => {
            proc_entry!(Device, s::get_semaphore_zircon_handle, SEMAPHORE_ZIRCON)
        }
        "vkImportSemaphoreZirconHandleFUCHSIA" => {
            proc_entry!(Device, s::import_semaphore_zircon_handle, SEMAPHORE_ZIRCON)
        }
        "vkGetFenceFdKHR" => proc_entry!(Device, fe::get_fence_fd, FENCE_FD),
        "vkImportFenceFdKHR" => proc_entry!(Device, fe::import_fence_fd, FENCE_FD),
        "vkGetFenceWin32HandleKHR" => {
            proc_entry!(Device, fe::get_fence_win32_handle, FENCE_WIN32)
        }
        "vkImportFenceWin32HandleKHR" => {
            proc_entry!(Device, fe::import_fence_win32_handle, FENCE_WIN32)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_resolve_to_the_same_function() {
        for (alias, core) in ALIASES {
            let a = lookup(alias).unwrap_or_else(|| panic!("{alias}"));
            let c = lookup(core).unwrap_or_else(|| panic!("{core}"));
            assert_eq!(a.pfn.map(|f| f as usize), c.pfn.map(|f| f as usize));
        }
        assert!(lookup("vkCreateGraphicsPipelines").is_none());
    }

    #[test]
    fn device_aliases_need_their_extension_and_count_as_core() {
        for (alias, core, ext) in DEVICE_ALIASES {
            let a = lookup(alias).unwrap_or_else(|| panic!("{alias}"));
            let c = lookup(core).unwrap_or_else(|| panic!("{core}"));
            assert_eq!(a.pfn.map(|f| f as usize), c.pfn.map(|f| f as usize));
            assert_eq!((a.level, a.device_extension), (Level::Device, Some(ext)));
            assert_eq!(c.device_extension, None, "{core} is core");
            assert_eq!(canonical_name(alias), core);
        }
    }

    #[test]
    fn export_commands_need_their_extension() {
        for (name, ext) in [
            ("vkGetMemoryFdKHR", "VK_KHR_external_memory_fd"),
            ("vkGetMemoryRemoteAddressNV", "VK_NV_external_memory_rdma"),
            ("vkGetMemoryWin32HandleNV", "VK_NV_external_memory_win32"),
            ("vkGetMemoryMetalHandleEXT", "VK_EXT_external_memory_metal"),
            ("vkGetMemoryWin32HandleKHR", "VK_KHR_external_memory_win32"),
            (
                "vkGetMemoryZirconHandleFUCHSIA",
                "VK_FUCHSIA_external_memory",
            ),
            (
                "vkGetMemoryAndroidHardwareBufferANDROID",
                "VK_ANDROID_external_memory_android_hardware_buffer",
            ),
            (
                "vkGetMemoryHostPointerPropertiesEXT",
                "VK_EXT_external_memory_host",
            ),
        ] {
            let p = lookup(name).unwrap();
            assert_eq!((p.level, p.device_extension), (Level::Device, Some(ext)));
        }
    }
}
