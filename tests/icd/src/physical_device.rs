//! The physical devices of each instance (one, or `physical_device_count` in one device group):
//! properties, features, queue family, memory types and external-memory capabilities, all from
//! the instance's configuration.

use ash::vk;
use std::ffi::{c_char, c_void};
use std::sync::Arc;

use crate::config::{Config, ExternalMemory};
use crate::ffi::{self, entry, key};
use crate::instance::{extension_properties, API_VERSION};
use crate::objects::{self, Dispatchable};

pub const DEVICE_NAME: &str = "exportcheck test driver";
pub const VENDOR_ID: u32 = 0x10005;
pub const DEVICE_ID: u32 = 0xEC01;
pub const DRIVER_VERSION: u32 = 1;
/// The `deviceUUID` of an instance's first physical device; the others end in `2`, `3`, ….
pub const DEVICE_UUID: [u8; vk::UUID_SIZE] = *b"exportcheck-dev1";
pub const DRIVER_UUID: [u8; vk::UUID_SIZE] = *b"exportcheck-drv1";
const DRIVER_NAME: &str = "exportcheck test ICD";
const DRIVER_INFO: &str = "exportcheck-test-icd (tests only, no rendering)";
/// `maxTimelineSemaphoreValueDifference` (as Mesa's drivers report).
pub const MAX_TIMELINE_VALUE_DIFFERENCE: u64 = u64::MAX;

/// One `VkPhysicalDevice`, with the configuration snapshot of its instance.
pub struct PhysicalDevice {
    object: Dispatchable,
    pub config: Arc<Config>,
    /// Its place among its instance's physical devices (0 for the first).
    index: u8,
}

impl PhysicalDevice {
    pub fn new(config: Arc<Config>, index: u8) -> Self {
        PhysicalDevice {
            object: Dispatchable::new(),
            config,
            index,
        }
    }

    /// [`DEVICE_UUID`], its last byte counting the physical devices of the instance.
    pub fn device_uuid(&self) -> [u8; vk::UUID_SIZE] {
        let mut uuid = DEVICE_UUID;
        uuid[vk::UUID_SIZE - 1] += self.index;
        uuid
    }

    pub fn handle(&self) -> usize {
        self.object.handle()
    }

    fn properties(&self) -> vk::PhysicalDeviceProperties {
        let limits = vk::PhysicalDeviceLimits {
            max_memory_allocation_count: self.config.max_memory_allocation_count,
            buffer_image_granularity: 1,
            non_coherent_atom_size: 64,
            min_memory_map_alignment: 4096,
            max_bound_descriptor_sets: 4,
            ..Default::default()
        };
        let mut p = vk::PhysicalDeviceProperties {
            api_version: API_VERSION,
            driver_version: DRIVER_VERSION,
            vendor_id: VENDOR_ID,
            device_id: DEVICE_ID,
            device_type: vk::PhysicalDeviceType::OTHER,
            limits,
            pipeline_cache_uuid: self.device_uuid(),
            ..Default::default()
        };
        ffi::write_c_str(&mut p.device_name, DEVICE_NAME);
        p
    }

    fn memory_properties(&self) -> vk::PhysicalDeviceMemoryProperties {
        let mut p = vk::PhysicalDeviceMemoryProperties {
            memory_type_count: self.config.memory_types.len() as u32,
            memory_heap_count: self.config.memory_heaps.len() as u32,
            ..Default::default()
        };
        for (dst, t) in p.memory_types.iter_mut().zip(&self.config.memory_types) {
            *dst = vk::MemoryType {
                property_flags: vk::MemoryPropertyFlags::from_raw(t.flags),
                heap_index: t.heap,
            };
        }
        for (dst, h) in p.memory_heaps.iter_mut().zip(&self.config.memory_heaps) {
            *dst = vk::MemoryHeap {
                size: h.size,
                flags: vk::MemoryHeapFlags::from_raw(h.flags),
            };
        }
        p
    }

    fn queue_family(&self) -> vk::QueueFamilyProperties {
        vk::QueueFamilyProperties {
            queue_flags: vk::QueueFlags::GRAPHICS
                | vk::QueueFlags::COMPUTE
                | vk::QueueFlags::TRANSFER,
            queue_count: 1,
            timestamp_valid_bits: 0,
            min_image_transfer_granularity: vk::Extent3D {
                width: 1,
                height: 1,
                depth: 1,
            },
        }
    }
}

/// The Vulkan structure of configured properties.
pub fn external_memory_properties(e: ExternalMemory) -> vk::ExternalMemoryProperties {
    vk::ExternalMemoryProperties {
        external_memory_features: vk::ExternalMemoryFeatureFlags::from_raw(e.features),
        export_from_imported_handle_types: vk::ExternalMemoryHandleTypeFlags::from_raw(
            e.export_from_imported,
        ),
        compatible_handle_types: vk::ExternalMemoryHandleTypeFlags::from_raw(e.compatible),
    }
}

/// Looks the handle up; `None` for an unknown one.
pub fn lookup(physical_device: vk::PhysicalDevice) -> Option<Arc<PhysicalDevice>> {
    objects::physical_devices().get(key(physical_device))
}

pub(crate) unsafe extern "system" fn get_properties(
    physical_device: vk::PhysicalDevice,
    p_properties: *mut vk::PhysicalDeviceProperties,
) {
    entry("vkGetPhysicalDeviceProperties", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let (Some(pd), Some(out)) = (lookup(physical_device), unsafe { p_properties.as_mut() }) {
            *out = pd.properties();
        }
    })
}

/// Writes the output fields of the property structures of a chain that the driver knows.
///
/// # Safety
/// `p_next` is NULL or a valid chain of writable structures.
unsafe fn fill_properties_chain(pd: &PhysicalDevice, p_next: *mut c_void) {
    let max_allocation = pd
        .config
        .memory_heaps
        .iter()
        .map(|h| h.size)
        .max()
        .unwrap_or(0);
    // SAFETY: the chain is valid (caller's contract); each pointer is cast to the structure its
    // sType names, and only that structure's own fields are written (sType/pNext are kept).
    unsafe {
        ffi::for_each_out(p_next, |s_type, p| match s_type {
            vk::StructureType::PHYSICAL_DEVICE_ID_PROPERTIES => {
                let s = &mut *p.cast::<vk::PhysicalDeviceIDProperties<'_>>();
                s.device_uuid = pd.device_uuid();
                s.driver_uuid = DRIVER_UUID;
                s.device_luid = [0; vk::LUID_SIZE];
                s.device_node_mask = 0;
                s.device_luid_valid = vk::FALSE;
            }
            vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT => {
                let s = &mut *p.cast::<vk::PhysicalDeviceExternalMemoryHostPropertiesEXT<'_>>();
                s.min_imported_host_pointer_alignment =
                    crate::memory::MIN_IMPORTED_HOST_POINTER_ALIGNMENT;
            }
            vk::StructureType::PHYSICAL_DEVICE_DRIVER_PROPERTIES => {
                let s = &mut *p.cast::<vk::PhysicalDeviceDriverProperties<'_>>();
                s.driver_id = vk::DriverId::from_raw(0);
                ffi::write_c_str(&mut s.driver_name, DRIVER_NAME);
                ffi::write_c_str(&mut s.driver_info, DRIVER_INFO);
                s.conformance_version = vk::ConformanceVersion::default();
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES => {
                let s = &mut *p.cast::<vk::PhysicalDeviceVulkan11Properties<'_>>();
                let (s_type, p_next) = (s.s_type, s.p_next);
                *s = vk::PhysicalDeviceVulkan11Properties {
                    s_type,
                    p_next,
                    device_uuid: pd.device_uuid(),
                    driver_uuid: DRIVER_UUID,
                    max_memory_allocation_size: max_allocation,
                    max_per_set_descriptors: 64,
                    ..Default::default()
                };
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES => {
                let s = &mut *p.cast::<vk::PhysicalDeviceVulkan12Properties<'_>>();
                let (s_type, p_next) = (s.s_type, s.p_next);
                *s = vk::PhysicalDeviceVulkan12Properties {
                    s_type,
                    p_next,
                    max_timeline_semaphore_value_difference: MAX_TIMELINE_VALUE_DIFFERENCE,
                    ..Default::default()
                };
                ffi::write_c_str(&mut s.driver_name, DRIVER_NAME);
                ffi::write_c_str(&mut s.driver_info, DRIVER_INFO);
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES => {
                let s = &mut *p.cast::<vk::PhysicalDeviceVulkan13Properties<'_>>();
                let (s_type, p_next) = (s.s_type, s.p_next);
                *s = vk::PhysicalDeviceVulkan13Properties {
                    s_type,
                    p_next,
                    ..Default::default()
                };
            }
            vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES => {
                (*p.cast::<vk::PhysicalDeviceTimelineSemaphoreProperties<'_>>())
                    .max_timeline_semaphore_value_difference = MAX_TIMELINE_VALUE_DIFFERENCE;
            }
            vk::StructureType::PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES => {
                let s = &mut *p.cast::<vk::PhysicalDeviceMaintenance3Properties<'_>>();
                s.max_per_set_descriptors = 64;
                s.max_memory_allocation_size = max_allocation;
            }
            _ => {}
        })
    }
}

pub(crate) unsafe extern "system" fn get_properties2(
    physical_device: vk::PhysicalDevice,
    p_properties: *mut vk::PhysicalDeviceProperties2<'_>,
) {
    entry("vkGetPhysicalDeviceProperties2", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let (Some(pd), Some(out)) = (lookup(physical_device), unsafe { p_properties.as_mut() }) {
            out.properties = pd.properties();
            // SAFETY: `p_next` heads the caller's valid output chain.
            unsafe { fill_properties_chain(&pd, out.p_next) };
        }
    })
}

pub(crate) unsafe extern "system" fn get_features(
    physical_device: vk::PhysicalDevice,
    p_features: *mut vk::PhysicalDeviceFeatures,
) {
    entry("vkGetPhysicalDeviceFeatures", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let (Some(_), Some(out)) = (lookup(physical_device), unsafe { p_features.as_mut() }) {
            *out = vk::PhysicalDeviceFeatures::default();
        }
    })
}

pub(crate) unsafe extern "system" fn get_features2(
    physical_device: vk::PhysicalDevice,
    p_features: *mut vk::PhysicalDeviceFeatures2<'_>,
) {
    entry("vkGetPhysicalDeviceFeatures2", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        let (Some(pd), Some(out)) = (lookup(physical_device), unsafe { p_features.as_mut() })
        else {
            return;
        };
        out.features = vk::PhysicalDeviceFeatures::default();
        let rdma = vk::Bool32::from(pd.config.features.external_memory_rdma);
        let features = pd.config.features;
        // SAFETY: the output chain is valid; each pointer is cast to the structure its sType
        // names and only its own fields are written.
        unsafe {
            ffi::for_each_out(out.p_next, |s_type, p| match s_type {
                vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_MEMORY_RDMA_FEATURES_NV => {
                    (*p.cast::<vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV<'_>>())
                        .external_memory_rdma = rdma;
                }
                vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES => {
                    let s = &mut *p.cast::<vk::PhysicalDeviceVulkan11Features<'_>>();
                    let (s_type, p_next) = (s.s_type, s.p_next);
                    *s = vk::PhysicalDeviceVulkan11Features {
                        s_type,
                        p_next,
                        protected_memory: vk::Bool32::from(features.protected_memory),
                        ..Default::default()
                    };
                }
                vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_2_FEATURES => {
                    let s = &mut *p.cast::<vk::PhysicalDeviceVulkan12Features<'_>>();
                    let (s_type, p_next) = (s.s_type, s.p_next);
                    *s = vk::PhysicalDeviceVulkan12Features {
                        s_type,
                        p_next,
                        buffer_device_address: vk::Bool32::from(features.buffer_device_address),
                        buffer_device_address_capture_replay: vk::Bool32::from(
                            features.buffer_device_address_capture_replay,
                        ),
                        timeline_semaphore: vk::Bool32::from(features.timeline_semaphore),
                        ..Default::default()
                    };
                }
                vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES => {
                    let s = &mut *p.cast::<vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>>();
                    s.buffer_device_address = vk::Bool32::from(features.buffer_device_address);
                    s.buffer_device_address_capture_replay =
                        vk::Bool32::from(features.buffer_device_address_capture_replay);
                    s.buffer_device_address_multi_device = vk::FALSE;
                }
                vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES => {
                    (*p.cast::<vk::PhysicalDeviceTimelineSemaphoreFeatures<'_>>())
                        .timeline_semaphore = vk::Bool32::from(features.timeline_semaphore);
                }
                vk::StructureType::PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES => {
                    (*p.cast::<vk::PhysicalDeviceSynchronization2Features<'_>>())
                        .synchronization2 = vk::TRUE;
                }
                vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES => {
                    (*p.cast::<vk::PhysicalDeviceProtectedMemoryFeatures<'_>>()).protected_memory =
                        vk::Bool32::from(features.protected_memory);
                }
                vk::StructureType::PHYSICAL_DEVICE_COHERENT_MEMORY_FEATURES_AMD => {
                    (*p.cast::<vk::PhysicalDeviceCoherentMemoryFeaturesAMD<'_>>())
                        .device_coherent_memory = vk::Bool32::from(features.device_coherent_memory);
                }
                crate::device::STRUCTURE_TYPE_TILE_MEMORY_HEAP_FEATURES_QCOM => {
                    (*p.cast::<crate::device::TileMemoryHeapFeaturesQCOM>()).tile_memory_heap =
                        vk::Bool32::from(features.tile_memory_heap);
                }
                vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_3_FEATURES => {
                    let s = &mut *p.cast::<vk::PhysicalDeviceVulkan13Features<'_>>();
                    let (s_type, p_next) = (s.s_type, s.p_next);
                    *s = vk::PhysicalDeviceVulkan13Features {
                        s_type,
                        p_next,
                        // vkQueueSubmit2 is implemented.
                        synchronization2: vk::TRUE,
                        ..Default::default()
                    };
                }
                _ => {}
            })
        }
    })
}

pub(crate) unsafe extern "system" fn get_queue_family_properties(
    physical_device: vk::PhysicalDevice,
    p_count: *mut u32,
    p_properties: *mut vk::QueueFamilyProperties,
) {
    entry("vkGetPhysicalDeviceQueueFamilyProperties", (), || {
        if let Some(pd) = lookup(physical_device) {
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            let _ = unsafe { ffi::enumerate(&[pd.queue_family()], p_count, p_properties) };
        }
    })
}

pub(crate) unsafe extern "system" fn get_queue_family_properties2(
    physical_device: vk::PhysicalDevice,
    p_count: *mut u32,
    p_properties: *mut vk::QueueFamilyProperties2<'_>,
) {
    entry("vkGetPhysicalDeviceQueueFamilyProperties2", (), || {
        let Some(pd) = lookup(physical_device) else {
            return;
        };
        // SAFETY: count pointer valid or NULL (Vulkan contract).
        let Some(count) = (unsafe { p_count.as_mut() }) else {
            return;
        };
        if p_properties.is_null() {
            *count = 1;
        } else if *count > 0 {
            // SAFETY: room for `*count` >= 1 caller-initialised structures.
            unsafe { (*p_properties).queue_family_properties = pd.queue_family() };
            *count = 1;
        }
    })
}

pub(crate) unsafe extern "system" fn get_memory_properties(
    physical_device: vk::PhysicalDevice,
    p_properties: *mut vk::PhysicalDeviceMemoryProperties,
) {
    entry("vkGetPhysicalDeviceMemoryProperties", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let (Some(pd), Some(out)) = (lookup(physical_device), unsafe { p_properties.as_mut() }) {
            *out = pd.memory_properties();
        }
    })
}

pub(crate) unsafe extern "system" fn get_memory_properties2(
    physical_device: vk::PhysicalDevice,
    p_properties: *mut vk::PhysicalDeviceMemoryProperties2<'_>,
) {
    entry("vkGetPhysicalDeviceMemoryProperties2", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let (Some(pd), Some(out)) = (lookup(physical_device), unsafe { p_properties.as_mut() }) {
            out.memory_properties = pd.memory_properties();
        }
    })
}

pub(crate) unsafe extern "system" fn get_sparse_image_format_properties(
    _physical_device: vk::PhysicalDevice,
    _format: vk::Format,
    _ty: vk::ImageType,
    _samples: vk::SampleCountFlags,
    _usage: vk::ImageUsageFlags,
    _tiling: vk::ImageTiling,
    p_count: *mut u32,
    _p_properties: *mut vk::SparseImageFormatProperties,
) {
    entry("vkGetPhysicalDeviceSparseImageFormatProperties", (), || {
        // SAFETY: valid or NULL count pointer (Vulkan contract).
        if let Some(count) = unsafe { p_count.as_mut() } {
            *count = 0;
        }
    })
}

pub(crate) unsafe extern "system" fn get_sparse_image_format_properties2(
    _physical_device: vk::PhysicalDevice,
    _p_info: *const vk::PhysicalDeviceSparseImageFormatInfo2<'_>,
    p_count: *mut u32,
    _p_properties: *mut vk::SparseImageFormatProperties2<'_>,
) {
    entry(
        "vkGetPhysicalDeviceSparseImageFormatProperties2",
        (),
        || {
            // SAFETY: valid or NULL count pointer (Vulkan contract).
            if let Some(count) = unsafe { p_count.as_mut() } {
                *count = 0;
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_tool_properties(
    _physical_device: vk::PhysicalDevice,
    p_count: *mut u32,
    p_properties: *mut vk::PhysicalDeviceToolProperties<'_>,
) -> vk::Result {
    entry(
        "vkGetPhysicalDeviceToolProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            unsafe { ffi::enumerate(&[], p_count, p_properties) }
        },
    )
}

pub(crate) unsafe extern "system" fn get_external_buffer_properties(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalBufferInfo<'_>,
    p_properties: *mut vk::ExternalBufferProperties<'_>,
) {
    entry("vkGetPhysicalDeviceExternalBufferProperties", (), || {
        // SAFETY: valid or NULL input/output pointers (Vulkan contract).
        let (Some(pd), Some(info), Some(out)) = (
            lookup(physical_device),
            unsafe { p_info.as_ref() },
            unsafe { p_properties.as_mut() },
        ) else {
            return;
        };
        let e = pd
            .config
            .handle_type(info.handle_type.as_raw())
            .map(|s| s.for_buffer(info.usage.as_raw()))
            .unwrap_or_default();
        out.external_memory_properties = external_memory_properties(e);
    })
}

pub(crate) unsafe extern "system" fn enumerate_device_extension_properties(
    physical_device: vk::PhysicalDevice,
    p_layer_name: *const c_char,
    p_count: *mut u32,
    p_properties: *mut vk::ExtensionProperties,
) -> vk::Result {
    entry(
        "vkEnumerateDeviceExtensionProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            if !p_layer_name.is_null() {
                return vk::Result::ERROR_LAYER_NOT_PRESENT;
            }
            let Some(pd) = lookup(physical_device) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let props: Vec<vk::ExtensionProperties> = pd
                .config
                .device_extensions
                .iter()
                .map(|name| extension_properties(name, Config::extension_spec_version(name)))
                .collect();
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            unsafe { ffi::enumerate(&props, p_count, p_properties) }
        },
    )
}

pub(crate) unsafe extern "system" fn enumerate_device_layer_properties(
    _physical_device: vk::PhysicalDevice,
    p_count: *mut u32,
    p_properties: *mut vk::LayerProperties,
) -> vk::Result {
    entry(
        "vkEnumerateDeviceLayerProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: count/array pointers per the two-call idiom (Vulkan contract).
            unsafe { ffi::enumerate(&[], p_count, p_properties) }
        },
    )
}
