//! Logical devices and their one queue: creation (extension and feature checks),
//! `vkGetDeviceProcAddr`, destruction.

use ash::vk;
use std::ffi::c_char;
use std::sync::{Arc, Mutex};

use crate::buffer::Buffer;
use crate::config::{Config, Features};
use crate::fence::Fence;
use crate::ffi::{self, entry, key};
use crate::image::Image;
use crate::memory::Allocation;
use crate::objects::{self, lock, Dispatchable, Map};
use crate::procs::{self, Level};
use crate::semaphore::Semaphore;

/// One `VkDevice`.
pub struct Device {
    object: Dispatchable,
    pub queue: Arc<Queue>,
    pub config: Arc<Config>,
    /// Device extensions enabled at creation.
    pub enabled_extensions: Vec<String>,
    /// Whether `externalMemoryRDMA` was enabled at creation.
    pub rdma_enabled: bool,
    /// Live `VkDeviceMemory` objects, keyed by handle value.
    pub memory: Mutex<Map<u64, Allocation>>,
    /// Live `VkBuffer` objects, keyed by handle value.
    pub buffers: Mutex<Map<u64, Buffer>>,
    /// Live `VkImage` objects, keyed by handle value.
    pub images: Mutex<Map<u64, Image>>,
    /// Live `VkSemaphore` objects, keyed by handle value.
    pub semaphores: Mutex<Map<u64, Semaphore>>,
    /// Live `VkFence` objects, keyed by handle value.
    pub fences: Mutex<Map<u64, Fence>>,
    /// Fences whose queue signal is still pending (`sync_quirks.pending_fence_signals`).
    pub pending_fences: Mutex<Vec<u64>>,
}

impl Device {
    /// Completes the pending work of `sync_quirks.pending_fence_signals`: its fences signal.
    pub fn complete_pending(&self) {
        let pending = std::mem::take(&mut *lock(&self.pending_fences));
        let fences = lock(&self.fences);
        for fence in pending {
            if let Some(f) = fences.get(&fence) {
                f.payload().set(1);
            }
        }
    }
}

impl Device {
    pub fn handle(&self) -> usize {
        self.object.handle()
    }

    pub fn extension_enabled(&self, name: &str) -> bool {
        self.enabled_extensions.iter().any(|e| e == name)
    }
}

/// The device's one `VkQueue` (family 0, index 0).
pub struct Queue {
    object: Dispatchable,
    /// The handle value of its device.
    pub device: usize,
}

impl Queue {
    pub fn handle(&self) -> usize {
        self.object.handle()
    }
}

/// Looks a device handle up; `None` for an unknown one.
pub fn lookup(device: vk::Device) -> Option<Arc<Device>> {
    objects::devices().get(key(device))
}

/// Whether any `VkBool32` of a `VkPhysicalDeviceFeatures` is set.
fn any_core_feature(f: &vk::PhysicalDeviceFeatures) -> bool {
    const N: usize = std::mem::size_of::<vk::PhysicalDeviceFeatures>() / 4;
    // SAFETY: VkPhysicalDeviceFeatures is a repr(C) structure of N VkBool32 (u32) fields only.
    let words = unsafe { &*(f as *const vk::PhysicalDeviceFeatures).cast::<[u32; N]>() };
    words.iter().any(|&w| w != 0)
}

/// `VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TILE_MEMORY_HEAP_FEATURES_QCOM` (`VK_QCOM_tile_memory_heap`,
/// extension 548; newer than `ash`).
pub(crate) const STRUCTURE_TYPE_TILE_MEMORY_HEAP_FEATURES_QCOM: vk::StructureType =
    vk::StructureType::from_raw(1_000_547_000);

/// `VkPhysicalDeviceTileMemoryHeapFeaturesQCOM`
#[repr(C)]
pub(crate) struct TileMemoryHeapFeaturesQCOM {
    pub s_type: vk::StructureType,
    pub p_next: *mut std::ffi::c_void,
    pub tile_memory_heap: vk::Bool32,
}

/// Whether every memory feature the chain enables (buffer device address and its capture replay,
/// protected memory, device-coherent memory, tile memory heaps) and `timelineSemaphore` is one
/// the configuration reports.
///
/// # Safety
/// `p_next` heads a valid `VkDeviceCreateInfo` chain.
unsafe fn memory_features_supported(p_next: *const std::ffi::c_void, supported: &Features) -> bool {
    let mut ok = true;
    let mut need = |enabled: vk::Bool32, have: bool| ok &= enabled == vk::FALSE || have;
    let mut node = p_next.cast::<vk::BaseInStructure<'_>>();
    // SAFETY: a valid chain; each node is read as the structure its sType names.
    unsafe {
        while let Some(n) = node.as_ref() {
            let p = node.cast::<std::ffi::c_void>();
            match n.s_type {
                vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES => {
                    let f = &*p.cast::<vk::PhysicalDeviceVulkan11Features<'_>>();
                    need(f.protected_memory, supported.protected_memory);
                }
                vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES => {
                    let f = &*p.cast::<vk::PhysicalDeviceProtectedMemoryFeatures<'_>>();
                    need(f.protected_memory, supported.protected_memory);
                }
                vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_2_FEATURES => {
                    let f = &*p.cast::<vk::PhysicalDeviceVulkan12Features<'_>>();
                    need(f.buffer_device_address, supported.buffer_device_address);
                    need(
                        f.buffer_device_address_capture_replay,
                        supported.buffer_device_address_capture_replay,
                    );
                    need(f.timeline_semaphore, supported.timeline_semaphore);
                }
                vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES => {
                    let f = &*p.cast::<vk::PhysicalDeviceTimelineSemaphoreFeatures<'_>>();
                    need(f.timeline_semaphore, supported.timeline_semaphore);
                }
                vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES => {
                    let f = &*p.cast::<vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>>();
                    need(f.buffer_device_address, supported.buffer_device_address);
                    need(
                        f.buffer_device_address_capture_replay,
                        supported.buffer_device_address_capture_replay,
                    );
                }
                vk::StructureType::PHYSICAL_DEVICE_COHERENT_MEMORY_FEATURES_AMD => {
                    let f = &*p.cast::<vk::PhysicalDeviceCoherentMemoryFeaturesAMD<'_>>();
                    need(f.device_coherent_memory, supported.device_coherent_memory);
                }
                STRUCTURE_TYPE_TILE_MEMORY_HEAP_FEATURES_QCOM => {
                    let f = &*p.cast::<TileMemoryHeapFeaturesQCOM>();
                    need(f.tile_memory_heap, supported.tile_memory_heap);
                }
                _ => {}
            }
            node = n.p_next;
        }
    }
    ok
}

/// # Safety
/// Vulkan's contract for `vkCreateDevice`.
unsafe fn create(
    physical_device: vk::PhysicalDevice,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    let Some(pd) = objects::physical_devices().get(key(physical_device)) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: valid or NULL create info (Vulkan contract).
    let Some(info) = (unsafe { p_create_info.as_ref() }) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    if p_device.is_null() {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    }
    let mut enabled_extensions = Vec::new();
    for i in 0..info.enabled_extension_count as usize {
        // SAFETY: `pp_enabled_extension_names` holds `enabled_extension_count` strings.
        let name = unsafe { ffi::c_str(*info.pp_enabled_extension_names.add(i)) };
        match name {
            Some(n) if pd.config.has_device_extension(n) => enabled_extensions.push(n.to_string()),
            _ => return vk::Result::ERROR_EXTENSION_NOT_PRESENT,
        }
    }
    // The driver supports no core 1.0 feature.
    // SAFETY: valid or NULL features pointer.
    if unsafe { info.p_enabled_features.as_ref() }.is_some_and(any_core_feature) {
        return vk::Result::ERROR_FEATURE_NOT_PRESENT;
    }
    // SAFETY: `p_next` heads a valid chain; structures are read as the type their sType names.
    let features2 = unsafe {
        ffi::find_in_chain(info.p_next, vk::StructureType::PHYSICAL_DEVICE_FEATURES_2)
            .map(|p| &*p.cast::<vk::PhysicalDeviceFeatures2<'_>>())
    };
    if features2.is_some_and(|f| any_core_feature(&f.features)) {
        return vk::Result::ERROR_FEATURE_NOT_PRESENT;
    }
    // SAFETY: as above.
    let rdma_enabled = unsafe {
        ffi::find_in_chain(
            info.p_next,
            vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_MEMORY_RDMA_FEATURES_NV,
        )
        .map(|p| {
            (*p.cast::<vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV<'_>>()).external_memory_rdma
        })
    } == Some(vk::TRUE);
    if rdma_enabled && !pd.config.features.external_memory_rdma {
        return vk::Result::ERROR_FEATURE_NOT_PRESENT;
    }
    // SAFETY: as above.
    if !unsafe { memory_features_supported(info.p_next, &pd.config.features) } {
        return vk::Result::ERROR_FEATURE_NOT_PRESENT;
    }
    let object = Dispatchable::new();
    let queue = Arc::new(Queue {
        object: Dispatchable::new(),
        device: object.handle(),
    });
    let device = Arc::new(Device {
        object,
        queue: queue.clone(),
        config: pd.config.clone(),
        enabled_extensions,
        rdma_enabled,
        memory: Mutex::new(Map::default()),
        buffers: Mutex::new(Map::default()),
        images: Mutex::new(Map::default()),
        semaphores: Mutex::new(Map::default()),
        fences: Mutex::new(Map::default()),
        pending_fences: Mutex::new(Vec::new()),
    });
    objects::queues().insert(queue.handle(), queue);
    objects::devices().insert(device.handle(), device.clone());
    // SAFETY: `p_device` is non-NULL and writable.
    unsafe { *p_device = vk::Handle::from_raw(device.handle() as u64) };
    vk::Result::SUCCESS
}

pub(crate) unsafe extern "system" fn create_device(
    physical_device: vk::PhysicalDevice,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    entry(
        "vkCreateDevice",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            // SAFETY: forwarded under vkCreateDevice's contract.
            unsafe { create(physical_device, p_create_info, p_device) }
        },
    )
}

pub(crate) unsafe extern "system" fn destroy_device(
    device: vk::Device,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkDestroyDevice", (), || {
        if let Some(dev) = objects::devices().remove(key(device)) {
            objects::queues().remove(dev.queue.handle());
            // Memory still allocated is freed (fds closed, mappings removed) with the device.
            objects::lock(&dev.memory).clear();
            objects::lock(&dev.buffers).clear();
            objects::lock(&dev.images).clear();
            objects::lock(&dev.semaphores).clear();
            objects::lock(&dev.fences).clear();
        }
    })
}

pub(crate) unsafe extern "system" fn get_device_proc_addr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    entry("vkGetDeviceProcAddr", None, || {
        let dev = lookup(device)?;
        // SAFETY: valid or NULL name (Vulkan contract).
        let name = unsafe { ffi::c_str(p_name) }?;
        let p = procs::lookup(name)?;
        if p.level != Level::Device {
            return None;
        }
        // Like real drivers: NULL for a command of an extension the device did not enable.
        match p.device_extension {
            Some(ext) if !dev.extension_enabled(ext) => None,
            _ => p.pfn,
        }
    })
}

pub(crate) unsafe extern "system" fn get_device_queue(
    device: vk::Device,
    queue_family_index: u32,
    queue_index: u32,
    p_queue: *mut vk::Queue,
) {
    entry("vkGetDeviceQueue", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        let Some(out) = (unsafe { p_queue.as_mut() }) else {
            return;
        };
        *out = match lookup(device) {
            Some(dev) if queue_family_index == 0 && queue_index == 0 => {
                vk::Handle::from_raw(dev.queue.handle() as u64)
            }
            _ => vk::Queue::null(),
        };
    })
}

pub(crate) unsafe extern "system" fn get_device_queue2(
    device: vk::Device,
    p_queue_info: *const vk::DeviceQueueInfo2<'_>,
    p_queue: *mut vk::Queue,
) {
    entry("vkGetDeviceQueue2", (), || {
        // SAFETY: valid or NULL pointers (Vulkan contract).
        let (Some(info), Some(out)) = (unsafe { p_queue_info.as_ref() }, unsafe {
            p_queue.as_mut()
        }) else {
            return;
        };
        *out = match lookup(device) {
            Some(dev)
                if info.flags.is_empty()
                    && info.queue_family_index == 0
                    && info.queue_index == 0 =>
            {
                vk::Handle::from_raw(dev.queue.handle() as u64)
            }
            _ => vk::Queue::null(),
        };
    })
}

pub(crate) unsafe extern "system" fn device_wait_idle(device: vk::Device) -> vk::Result {
    entry(
        "vkDeviceWaitIdle",
        vk::Result::ERROR_DEVICE_LOST,
        || match lookup(device) {
            Some(dev) => {
                dev.complete_pending();
                vk::Result::SUCCESS
            }
            None => vk::Result::ERROR_DEVICE_LOST,
        },
    )
}

pub(crate) unsafe extern "system" fn queue_wait_idle(queue: vk::Queue) -> vk::Result {
    entry(
        "vkQueueWaitIdle",
        vk::Result::ERROR_DEVICE_LOST,
        || match objects::queues().get(key(queue)) {
            Some(q) => {
                if let Some(dev) = objects::devices().get(q.device) {
                    dev.complete_pending();
                }
                vk::Result::SUCCESS
            }
            None => vk::Result::ERROR_DEVICE_LOST,
        },
    )
}
