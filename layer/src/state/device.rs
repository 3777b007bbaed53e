//! Per-`VkDevice` state: one shared, immutable record made at `vkCreateDevice`.

use super::device_groups::PhysicalDevices;
use super::fences::Fences;
use super::freed::RecentlyFreed;
use super::instance::InstanceState;
use super::live_memory::LiveMemories;
use super::maps::HandleMap;
use super::resources::Resources;
use super::semaphores::Semaphores;
use super::submissions::Submissions;
use super::sync_support::SyncSupport;
use crate::features::driver_contract::state::ContractState;
use crate::features::fd_leaks::state::FdExports;
use crate::finding::ObjectRef;
use crate::handle_kinds::{HandleKind, Memory};
use crate::next_layer::DeviceDispatch;
use crate::vk_names;
use ash::vk;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use super::enabled_extensions::EnabledExtensions;

/// What the layer reads of the enabled extensions. The fields and `flag` (the one place names
/// meet fields) are generated from `vuids/commands.json` (`enabled_extensions.rs`).
impl EnabledExtensions {
    /// Sets the flag of one extension name; unknown names are ignored.
    pub fn enable(&mut self, name: &[u8]) {
        if let Some(flag) = self.flag(name) {
            *flag = true;
        }
    }

    /// Whether the extension named `name` is enabled (for the ones this type tracks).
    pub fn has(&self, name: &str) -> bool {
        let mut copy = *self;
        copy.flag(name.as_bytes()).is_some_and(|flag| *flag)
    }

    /// The structures of `vk_names::ALLOCATE_CHAIN` a device with these extensions and API
    /// version `api_version` may not be given, as bits: neither their extension is enabled nor
    /// their version core (`VUID-VkMemoryAllocateInfo-pNext-pNext`).
    pub fn unavailable_structures(&self, api_version: u32) -> u32 {
        vk_names::ALLOCATE_CHAIN
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                let core = s.core != 0 && api_version >= s.core;
                !core && !self.has(s.extension)
            })
            .fold(0, |bits, (i, _)| bits | 1 << i)
    }

    /// The `VkExternalMemoryHandleTypeFlagBits` valid on a device with these extensions: the
    /// core bits, and each bit whose extension is enabled.
    pub fn handle_types(&self) -> vk::ExternalMemoryHandleTypeFlags {
        vk::ExternalMemoryHandleTypeFlags::from_raw(Memory::valid_on(|name| self.has(name)))
    }
}

/// What the checks need to know about a device: plain data, so checks stay pure functions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceFacts {
    pub handle: u64,
    pub extensions: EnabledExtensions,
    /// The handle-type bits valid on this device (`EnabledExtensions::handle_types`).
    pub handle_types: vk::ExternalMemoryHandleTypeFlags,
    /// The structures of a `VkMemoryAllocateInfo` chain this device may not be given
    /// (`EnabledExtensions::unavailable_structures`; bits of `vk_names::ALLOCATE_CHAIN`).
    pub unavailable_structures: u32,
    /// The version of Vulkan the device offers the app: the lower of the instance's
    /// `VkApplicationInfo::apiVersion` (1.0 when absent) and the physical device's `apiVersion`.
    pub api_version: u32,
    /// `VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA` was enabled.
    pub rdma_feature: bool,
    /// Each memory type of the physical device with its heap, by memory type index, when the
    /// layer could ask `vkGetPhysicalDeviceMemoryProperties` (`None`: nothing about memory types
    /// is judged).
    pub memory_types: Option<Vec<MemoryTypeFacts>>,
    /// The features the memory rules depend on, as enabled at `vkCreateDevice`.
    pub features: EnabledFeatures,
    /// `VkDeviceCreateInfo::queueCreateInfoCount`.
    pub queue_create_info_count: u32,
    /// `VkPhysicalDeviceLimits::maxMemoryAllocationCount`, when the layer could ask
    /// `vkGetPhysicalDeviceProperties` (`None`: the count is not judged).
    pub max_memory_allocation_count: Option<u32>,
    /// `VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment`, asked
    /// at `vkCreateDevice` when the device enabled `VK_EXT_external_memory_host` and the layer
    /// could ask validly; `None` otherwise (then no alignment is judged).
    pub host_pointer_alignment: Option<u64>,
}

impl DeviceFacts {
    /// The memory type of an index, when the layer knows the memory types and it is in range.
    #[inline(always)]
    pub fn memory_type(&self, index: u32) -> Option<&MemoryTypeFacts> {
        self.memory_types.as_deref()?.get(index as usize)
    }

    /// Property flags of a memory type index, empty when out of range or unknown.
    pub fn type_flags(&self, index: u32) -> vk::MemoryPropertyFlags {
        self.memory_type(index).map(|t| t.flags).unwrap_or_default()
    }
}

/// One memory type of the physical device, with what its heap says
/// (`VkPhysicalDeviceMemoryProperties` as the driver returned it to the layer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryTypeFacts {
    /// `VkMemoryType::propertyFlags`.
    pub flags: vk::MemoryPropertyFlags,
    /// `VkMemoryHeap::size` of its heap; `u64::MAX` (no size is judged) when the driver reported
    /// a heap index out of range.
    pub heap_size: u64,
    /// `VkMemoryHeap::flags` of its heap (empty when the heap index is out of range).
    pub heap_flags: vk::MemoryHeapFlags,
}

/// The device features the memory rules depend on, each `true` when a structure of the
/// `VkDeviceCreateInfo` chain enabled it (any of the structures that carry it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnabledFeatures {
    /// `bufferDeviceAddress` (`VkPhysicalDeviceVulkan12Features`,
    /// `VkPhysicalDeviceBufferDeviceAddressFeatures`; not the EXT structure's feature of the same
    /// member name, which is another feature, `bufferDeviceAddressEXT`, as the Khronos layer
    /// counts it).
    pub buffer_device_address: bool,
    /// `bufferDeviceAddressCaptureReplay` (the same structures).
    pub buffer_device_address_capture_replay: bool,
    /// `protectedMemory` (`VkPhysicalDeviceVulkan11Features`,
    /// `VkPhysicalDeviceProtectedMemoryFeatures`).
    pub protected_memory: bool,
    /// `VkPhysicalDeviceCoherentMemoryFeaturesAMD::deviceCoherentMemory`.
    pub device_coherent_memory: bool,
    /// `VkPhysicalDeviceTileMemoryHeapFeaturesQCOM::tileMemoryHeap`.
    pub tile_memory_heap: bool,
}

/// The physical-device queries the layer may call about this device's resources: the names valid
/// for the app's instance and physical device (`state::queryable`), `None` when none is.
#[derive(Clone, Copy, Default)]
pub struct DriverQueries {
    pub external_buffer: Option<vk::PFN_vkGetPhysicalDeviceExternalBufferProperties>,
    pub image_format: Option<vk::PFN_vkGetPhysicalDeviceImageFormatProperties2>,
    /// `vkGetPhysicalDeviceExternalSemaphoreProperties` or its `KHR` name
    /// (`VK_KHR_external_semaphore_capabilities`).
    pub external_semaphore: Option<vk::PFN_vkGetPhysicalDeviceExternalSemaphoreProperties>,
    /// `vkGetPhysicalDeviceExternalFenceProperties` or its `KHR` name
    /// (`VK_KHR_external_fence_capabilities`).
    pub external_fence: Option<vk::PFN_vkGetPhysicalDeviceExternalFenceProperties>,
}

/// Everything the layer keeps for one `VkDevice`.
pub struct DeviceState {
    pub facts: DeviceFacts,
    pub physical_device: vk::PhysicalDevice,
    pub instance: Arc<InstanceState>,
    pub next: DeviceDispatch,
    /// Live memory objects of this device, by handle value: one record each, with everything
    /// the device knows of it (`state::live_memory`).
    pub memories: LiveMemories,
    /// The driver-contract checks' own state.
    pub contract: ContractState,
    /// Recently freed memory, to name the object of a use after free.
    pub freed: RecentlyFreed,
    /// Whether the app ever named a `VkDeviceMemory` (else freeing skips the names map).
    pub memory_names: AtomicBool,
    /// Debug names set with `vkSetDebugUtilsObjectNameEXT`, by object type and handle value.
    pub names: HandleMap<(vk::ObjectType, u64), String>,
    /// Every live buffer and image made through the layer, one record each (all of them where
    /// it sees every one made: [`DeviceState::sees_every_image`],
    /// [`DeviceState::sees_every_buffer`]), and the driver's answers about exporting memory for
    /// them.
    pub resources: Resources,
    /// Live semaphores of this device, with what they were created with, and the latest
    /// destroyed ones (`state::semaphores`).
    pub semaphores: Semaphores,
    /// Live fences of this device, with what they were created with and the NT handle types
    /// exported from them, and the latest destroyed ones (`state::fences`).
    pub fences: Fences,
    /// Its queue submissions, numbered (`state::submissions`).
    pub submissions: Submissions,
    pub queries: DriverQueries,
    /// The driver's answers about exporting and importing semaphores and fences
    /// (`state::sync_support`).
    pub sync_support: SyncSupport,
    /// The fds exported from this device's memory, when the `check_fd_leaks` setting is on.
    pub fd_exports: Option<FdExports>,
    /// `VkPhysicalDeviceIDProperties::deviceUUID` of its physical device, when the layer could
    /// validly ask (the same conditions as [`DriverQueries`]).
    pub device_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// `VkPhysicalDeviceIDProperties::driverUUID` of its physical device, asked with
    /// [`DeviceState::device_uuid`].
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The physical devices it is made of.
    pub physical_devices: PhysicalDevices,
}

impl DeviceState {
    pub fn handle(&self) -> u64 {
        self.facts.handle
    }

    /// At `vkDestroyDevice`: every table of the device let go (other threads may still hold a
    /// snapshot with this state until their next call). The one list of them: a table added to
    /// [`DeviceState`] is cleared here, and counted by `introspect`.
    pub fn forget_everything(&self) {
        self.memories.clear();
        self.names.clear();
        self.resources.clear();
        self.semaphores.clear();
        self.fences.clear();
        self.sync_support.clear();
    }

    /// The device can export memory (`VK_KHR_external_memory` or Vulkan 1.1): the layer
    /// intercepts its buffer and image commands.
    pub fn can_export(&self) -> bool {
        self.facts.extensions.khr_external_memory || self.facts.api_version >= vk::API_VERSION_1_1
    }

    /// The layer intercepts this device's image commands (create, destroy, bind; the `2` bind
    /// whenever the next layer has it), so it sees every image bound on it.
    pub fn intercepts_images(&self) -> bool {
        self.can_export()
            && self.next.create_image.is_some()
            && self.next.destroy_image.is_some()
            && self.next.bind_image_memory.is_some()
    }

    /// The layer intercepts this device's buffer commands (create, destroy, bind).
    pub fn intercepts_buffers(&self) -> bool {
        self.can_export()
            && self.next.create_buffer.is_some()
            && self.next.destroy_buffer.is_some()
            && self.next.bind_buffer_memory.is_some()
    }

    /// The layer sees every image of this device made and destroyed: it intercepts
    /// `vkCreateImage` and `vkDestroyImage`, and no image comes from elsewhere
    /// (`vkGetSwapchainImagesKHR`, which only `VK_KHR_swapchain` offers, is not intercepted).
    pub fn sees_every_image(&self) -> bool {
        self.intercepts_images() && !self.facts.extensions.khr_swapchain
    }

    /// The layer sees every buffer of this device made and destroyed (`vkCreateBuffer` is the
    /// only command that makes one).
    pub fn sees_every_buffer(&self) -> bool {
        self.intercepts_buffers()
    }

    /// The debug name of an object of this device, if the app set one.
    /// For memory that is no longer live, the name it had when it was freed; for a semaphore,
    /// the name it had when it was destroyed (a fence's too).
    pub fn name_of(&self, object: ObjectRef) -> Option<String> {
        if let Some(name) = self.names.get(&(object.ty, object.handle)) {
            return Some(name.clone());
        }
        if object.ty == vk::ObjectType::SEMAPHORE && !self.semaphores.contains(object.handle) {
            return self
                .semaphores
                .find_destroyed(object.handle)
                .and_then(|d| d.name);
        }
        if object.ty == vk::ObjectType::FENCE && !self.fences.contains(object.handle) {
            return self
                .fences
                .find_destroyed(object.handle)
                .and_then(|d| d.name);
        }
        if object.ty != vk::ObjectType::DEVICE_MEMORY || self.memories.contains(object.handle) {
            return None;
        }
        self.freed
            .find(object.handle, self.handle())
            .and_then(|f| f.name)
    }
}
