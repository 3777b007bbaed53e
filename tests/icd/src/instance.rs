//! Global and instance-level commands: creating an instance (and reading its configuration),
//! enumerating its physical devices (one by default; `physical_device_count`, all in one device
//! group).

use ash::vk;
use std::ffi::{c_char, CStr};
use std::sync::Arc;

use crate::config::{Config, ConfigCreateInfo, CONFIG_ENV, STRUCTURE_TYPE_TEST_ICD_CONFIG};
use crate::ffi::{self, entry, key};
use crate::objects::{self, Dispatchable};
use crate::physical_device::PhysicalDevice;

/// The highest Vulkan version the driver implements.
pub const API_VERSION: u32 = vk::make_api_version(0, 1, 3, 0);

/// Instance extensions exposed, with spec versions.
pub const INSTANCE_EXTENSIONS: [(&str, u32); 5] = [
    ("VK_KHR_get_physical_device_properties2", 2),
    ("VK_KHR_external_memory_capabilities", 1),
    ("VK_KHR_external_semaphore_capabilities", 1),
    ("VK_KHR_external_fence_capabilities", 1),
    // Required by the device extension VK_NV_external_memory.
    ("VK_NV_external_memory_capabilities", 1),
];

/// One `VkInstance`.
pub struct Instance {
    object: Dispatchable,
    /// At least one; all in one device group.
    pub physical_devices: Vec<Arc<PhysicalDevice>>,
}

impl Instance {
    pub fn handle(&self) -> usize {
        self.object.handle()
    }
}

/// Reads the `ConfigCreateInfo` chained to the create info, if any.
///
/// # Safety
/// `info` is a valid `VkInstanceCreateInfo`.
unsafe fn chained_config(info: &vk::InstanceCreateInfo<'_>) -> Result<Option<String>, String> {
    // SAFETY: `p_next` is the head of a valid chain (the caller's contract).
    let Some(p) = (unsafe { ffi::find_in_chain(info.p_next, STRUCTURE_TYPE_TEST_ICD_CONFIG) })
    else {
        return Ok(None);
    };
    // SAFETY: a structure with this sType is a ConfigCreateInfo.
    let cfg = unsafe { &*p.cast::<ConfigCreateInfo>() };
    if cfg.json.is_null() {
        return Err("chained configuration: json is NULL".to_string());
    }
    // SAFETY: `json` is a NUL-terminated string (the structure's contract).
    let text = unsafe { CStr::from_ptr(cfg.json) };
    text.to_str()
        .map(|s| Some(s.to_string()))
        .map_err(|_| "chained configuration: json is not UTF-8".to_string())
}

/// # Safety
/// Vulkan's contract for `vkCreateInstance`.
unsafe fn create(
    p_create_info: *const vk::InstanceCreateInfo<'_>,
    p_instance: *mut vk::Instance,
) -> vk::Result {
    // SAFETY: the create info pointer is valid or NULL (Vulkan contract).
    let Some(info) = (unsafe { p_create_info.as_ref() }) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    if p_instance.is_null() {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    }
    // SAFETY: application info is valid or NULL.
    if let Some(app) = unsafe { info.p_application_info.as_ref() } {
        let v = app.api_version;
        // Any 1.x is accepted (Vulkan 1.1+ rule); 0 means 1.0.
        if v != 0 && (vk::api_version_variant(v) != 0 || vk::api_version_major(v) != 1) {
            return vk::Result::ERROR_INCOMPATIBLE_DRIVER;
        }
    }
    for i in 0..info.enabled_extension_count as usize {
        // SAFETY: `pp_enabled_extension_names` holds `enabled_extension_count` strings.
        let name = unsafe { ffi::c_str(*info.pp_enabled_extension_names.add(i)) };
        if !INSTANCE_EXTENSIONS.iter().any(|(n, _)| Some(*n) == name) {
            return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
        }
    }
    // SAFETY: `info` is valid.
    let config = unsafe { chained_config(info) }.and_then(|chained| {
        let env = std::env::var(CONFIG_ENV).ok();
        Config::resolve(chained.as_deref(), env.as_deref())
    });
    let config = match config {
        Ok(c) => Arc::new(c),
        Err(e) => {
            eprintln!("exportcheck-test-icd: bad configuration: {e}");
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        }
    };
    if config.fd_export == crate::config::FdExport::DeviceFile {
        crate::device_file::open_own_descriptors();
    }
    let physical_devices: Vec<_> = (0..config.physical_device_count)
        .map(|index| Arc::new(PhysicalDevice::new(config.clone(), index)))
        .collect();
    for physical_device in &physical_devices {
        objects::physical_devices().insert(physical_device.handle(), physical_device.clone());
    }
    let instance = Arc::new(Instance {
        object: Dispatchable::new(),
        physical_devices,
    });
    objects::instances().insert(instance.handle(), instance.clone());
    // SAFETY: `p_instance` is non-NULL and writable.
    unsafe { *p_instance = vk::Handle::from_raw(instance.handle() as u64) };
    vk::Result::SUCCESS
}

pub(crate) unsafe extern "system" fn create_instance(
    p_create_info: *const vk::InstanceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_instance: *mut vk::Instance,
) -> vk::Result {
    entry(
        "vkCreateInstance",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            // SAFETY: forwarded from the loader under vkCreateInstance's contract.
            unsafe { create(p_create_info, p_instance) }
        },
    )
}

pub(crate) unsafe extern "system" fn destroy_instance(
    instance: vk::Instance,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkDestroyInstance", (), || {
        if let Some(inst) = objects::instances().remove(key(instance)) {
            for physical_device in &inst.physical_devices {
                objects::physical_devices().remove(physical_device.handle());
            }
        }
    })
}

pub(crate) unsafe extern "system" fn enumerate_instance_extension_properties(
    p_layer_name: *const c_char,
    p_property_count: *mut u32,
    p_properties: *mut vk::ExtensionProperties,
) -> vk::Result {
    entry(
        "vkEnumerateInstanceExtensionProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            if !p_layer_name.is_null() {
                return vk::Result::ERROR_LAYER_NOT_PRESENT;
            }
            let props: Vec<vk::ExtensionProperties> = INSTANCE_EXTENSIONS
                .iter()
                .map(|&(name, spec_version)| extension_properties(name, spec_version))
                .collect();
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            unsafe { ffi::enumerate(&props, p_property_count, p_properties) }
        },
    )
}

/// A `VkExtensionProperties` for `name`.
pub fn extension_properties(name: &str, spec_version: u32) -> vk::ExtensionProperties {
    let mut p = vk::ExtensionProperties {
        spec_version,
        ..Default::default()
    };
    ffi::write_c_str(&mut p.extension_name, name);
    p
}

pub(crate) unsafe extern "system" fn enumerate_instance_layer_properties(
    p_property_count: *mut u32,
    p_properties: *mut vk::LayerProperties,
) -> vk::Result {
    entry(
        "vkEnumerateInstanceLayerProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            unsafe { ffi::enumerate(&[], p_property_count, p_properties) }
        },
    )
}

pub(crate) unsafe extern "system" fn enumerate_instance_version(
    p_api_version: *mut u32,
) -> vk::Result {
    entry(
        "vkEnumerateInstanceVersion",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: valid or NULL output pointer.
            match unsafe { p_api_version.as_mut() } {
                Some(v) => {
                    *v = API_VERSION;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_UNKNOWN,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn enumerate_physical_devices(
    instance: vk::Instance,
    p_physical_device_count: *mut u32,
    p_physical_devices: *mut vk::PhysicalDevice,
) -> vk::Result {
    entry(
        "vkEnumeratePhysicalDevices",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            let Some(inst) = objects::instances().get(key(instance)) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            let handles: Vec<vk::PhysicalDevice> = inst
                .physical_devices
                .iter()
                .map(|pd| vk::Handle::from_raw(pd.handle() as u64))
                .collect();
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            unsafe { ffi::enumerate(&handles, p_physical_device_count, p_physical_devices) }
        },
    )
}

pub(crate) unsafe extern "system" fn enumerate_physical_device_groups(
    instance: vk::Instance,
    p_group_count: *mut u32,
    p_groups: *mut vk::PhysicalDeviceGroupProperties<'_>,
) -> vk::Result {
    entry(
        "vkEnumeratePhysicalDeviceGroups",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            let Some(inst) = objects::instances().get(key(instance)) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: count pointer valid or NULL (Vulkan contract).
            let Some(count) = (unsafe { p_group_count.as_mut() }) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            if p_groups.is_null() {
                *count = 1;
                return vk::Result::SUCCESS;
            }
            if *count == 0 {
                return vk::Result::INCOMPLETE;
            }
            // SAFETY: `p_groups` has room for `*count` >= 1 structures, initialised by the caller
            // (sType/pNext are theirs: only the output fields are written).
            let group = unsafe { &mut *p_groups };
            group.physical_device_count = inst.physical_devices.len() as u32;
            group.physical_devices = [vk::PhysicalDevice::null(); vk::MAX_DEVICE_GROUP_SIZE];
            for (slot, pd) in group
                .physical_devices
                .iter_mut()
                .zip(&inst.physical_devices)
            {
                *slot = vk::Handle::from_raw(pd.handle() as u64);
            }
            // Memory may be allocated on a subset of a group's devices (a device mask).
            group.subset_allocation = vk::Bool32::from(inst.physical_devices.len() > 1);
            *count = 1;
            vk::Result::SUCCESS
        },
    )
}
