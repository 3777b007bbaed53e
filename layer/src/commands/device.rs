//! Device lifetime: the per-device record is made after `vkCreateDevice` succeeds and dropped
//! before `vkDestroyDevice` goes down.

use crate::boundary;
use crate::features::fd_leaks::state::FdExports;
use crate::next_layer::{cast, DeviceDispatch};
use crate::raw::{self, DeviceGroupRead};
use crate::state::device::DriverQueries;
use crate::state::device_groups::{PhysicalDevices, Uuid};
use crate::state::maps;
use crate::state::queryable::{self, QueryNames};
use crate::state::registry::{DEVICES, INSTANCES};
use crate::state::{DeviceFacts, DeviceState, InstanceState, MemoryTypeFacts};
use ash::vk::{self, Handle};
use std::sync::Arc;

/// # Safety
/// Called by the loader, as its `vkCreateDevice` contract says: `physical_device` is a live
/// `VkPhysicalDevice` of an instance (a dispatchable object whose first word is its instance's
/// dispatch key), `p_create_info` NULL or a valid create info carrying the loader's link
/// structure, `p_device` writable.
pub unsafe extern "system" fn create_device(
    physical_device: vk::PhysicalDevice,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    boundary::ffi_down(
        "vkCreateDevice",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        |down| {
            // SAFETY: NULL (refused) or a valid create info, by this function's contract.
            let Some(info) = (unsafe { p_create_info.as_ref() }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: the create info the loader gave this layer.
            let Some((gipa, gdpa)) = (unsafe { raw::take_device_link(info) }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: a live VkPhysicalDevice by this function's contract: its first word is
            // readable, and is its instance's dispatch key.
            let key = unsafe { raw::dispatch_key(physical_device.as_raw()) };
            let Some(instance) = INSTANCES.get(key) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: looked up by its own name.
            let create: Option<vk::PFN_vkCreateDevice> =
                unsafe { cast(gipa(instance.handle, c"vkCreateDevice".as_ptr())) };
            let Some(create) = create else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: the loader's arguments, passed down.
            let result =
                down.went(unsafe { create(physical_device, p_create_info, p_allocator, p_device) });
            if result != vk::Result::SUCCESS {
                return result;
            }
            // SAFETY: the next layer succeeded, so *p_device is a live device.
            let Some(device) = (unsafe { raw::read_out(p_device) }) else {
                return result;
            };
            let mut memory_properties = vk::PhysicalDeviceMemoryProperties::default();
            if let Some(get) = instance.next.get_physical_device_memory_properties {
                // SAFETY: a live physical device and an output structure of ours.
                unsafe { get(physical_device, &mut memory_properties) };
            }
            // SAFETY: same create info as above.
            let read = unsafe { raw::read_device_create_info(info) };
            let fd_exports = instance.settings.check_fd_leaks.then(FdExports::new);
            let mut properties = vk::PhysicalDeviceProperties::default();
            if let Some(get) = instance.next.get_physical_device_properties {
                // SAFETY: a live physical device and an output structure of ours.
                unsafe { get(physical_device, &mut properties) };
            }
            let queries = driver_queries(&instance, properties.api_version);
            let ids_and_host = identity_and_host_pointer_alignment(
                &instance,
                physical_device,
                properties.api_version,
                read.extensions.ext_external_memory_host,
            );
            let (ids, host_pointer_alignment) = ids_and_host.unwrap_or_default();
            let physical_devices = physical_devices_of(
                &instance,
                physical_device,
                ids.map(|(device, _)| device),
                &read.group,
            );
            let api_version = device_api_version(instance.api_version, properties.api_version);
            let state = DeviceState {
                facts: DeviceFacts {
                    handle: device.as_raw(),
                    extensions: read.extensions,
                    handle_types: read.extensions.handle_types(),
                    unavailable_structures: read.extensions.unavailable_structures(api_version),
                    api_version,
                    rdma_feature: read.rdma_feature,
                    memory_types: instance
                        .next
                        .get_physical_device_memory_properties
                        .map(|_| memory_types_with_heaps(&memory_properties)),
                    features: read.features,
                    queue_create_info_count: read.queue_create_info_count,
                    max_memory_allocation_count: instance
                        .next
                        .get_physical_device_properties
                        .map(|_| properties.limits.max_memory_allocation_count),
                    host_pointer_alignment,
                },
                physical_device,
                // SAFETY: the next layer's GDPA and the device it just created.
                next: unsafe { DeviceDispatch::load(gdpa, device) },
                instance,
                memories: Default::default(),
                contract: Default::default(),
                freed: Default::default(),
                memory_names: Default::default(),
                names: maps::handle_map(4),
                resources: Default::default(),
                semaphores: Default::default(),
                fences: Default::default(),
                submissions: Default::default(),
                sync_support: Default::default(),
                queries,
                fd_exports,
                device_uuid: ids.map(|(device, _)| device),
                driver_uuid: ids.map(|(_, driver)| driver),
                physical_devices,
            };
            DEVICES.insert(device.as_raw(), Arc::new(state));
            result
        },
    )
}

/// The version of Vulkan a device offers the app: the lower of what the app asked for and what
/// the physical device supports (major.minor; patch and variant do not enable anything).
/// The physical-device queries valid to call for resources of a device of this physical device.
fn driver_queries(instance: &InstanceState, physical_device_version: u32) -> DriverQueries {
    let next = &instance.next;
    let names = |khr_enabled| {
        queryable::query_names(instance.api_version, physical_device_version, khr_enabled)
    };
    let mut queries = match names(instance.khr_external_memory_capabilities) {
        Some(QueryNames::Core) => DriverQueries {
            external_buffer: next.get_physical_device_external_buffer_properties,
            image_format: next.get_physical_device_image_format_properties2,
            ..DriverQueries::default()
        },
        Some(QueryNames::Khr) => DriverQueries {
            external_buffer: next.get_physical_device_external_buffer_properties_khr,
            image_format: next.get_physical_device_image_format_properties2_khr,
            ..DriverQueries::default()
        },
        None => DriverQueries::default(),
    };
    queries.external_semaphore = match names(instance.khr_external_semaphore_capabilities) {
        Some(QueryNames::Core) => next.get_physical_device_external_semaphore_properties,
        Some(QueryNames::Khr) => next.get_physical_device_external_semaphore_properties_khr,
        None => None,
    };
    queries.external_fence = match names(instance.khr_external_fence_capabilities) {
        Some(QueryNames::Core) => next.get_physical_device_external_fence_properties,
        Some(QueryNames::Khr) => next.get_physical_device_external_fence_properties_khr,
        None => None,
    };
    queries
}

/// `VkPhysicalDeviceIDProperties::deviceUUID` and `::driverUUID`.
type PhysicalDeviceUuids = ([u8; vk::UUID_SIZE], [u8; vk::UUID_SIZE]);

/// What the layer learns of a physical device with one `vkGetPhysicalDeviceProperties2` of its
/// own: `VkPhysicalDeviceIDProperties::deviceUUID` and `::driverUUID` and, when the device enabled
/// `VK_EXT_external_memory_host` (so the physical device supports it and the structure may be
/// chained), `minImportedHostPointerAlignment` (`None` if 0, not a valid alignment). Asked with
/// `vkGetPhysicalDeviceProperties2` where Vulkan 1.1 is in effect on both sides, else its `KHR`
/// name when the instance enabled `VK_KHR_external_memory_capabilities` (which provides the ID
/// structure and requires `VK_KHR_get_physical_device_properties2`), the same choice as for the
/// layer's other queries (`state::queryable`). `None` when neither is valid: nothing is asked.
fn identity_and_host_pointer_alignment(
    instance: &InstanceState,
    physical_device: vk::PhysicalDevice,
    physical_device_version: u32,
    host_pointer_enabled: bool,
) -> Option<(Option<PhysicalDeviceUuids>, Option<u64>)> {
    let next = &instance.next;
    let get = match queryable::query_names(
        instance.api_version,
        physical_device_version,
        instance.khr_external_memory_capabilities,
    )? {
        QueryNames::Core => next.get_physical_device_properties2?,
        QueryNames::Khr => next.get_physical_device_properties2_khr?,
    };
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
    if host_pointer_enabled {
        properties = properties.push_next(&mut host);
    }
    // SAFETY: a live physical device and output structures of ours, chained as the spec allows.
    unsafe { get(physical_device, &mut properties) };
    let alignment = host.min_imported_host_pointer_alignment;
    let uuids = (id.device_uuid, id.driver_uuid);
    Some((Some(uuids), (alignment != 0).then_some(alignment)))
}

/// The physical devices a new device is made of (`VkDeviceGroupDeviceCreateInfo`, else
/// `physical_device` alone), with the `deviceUUID` of each when the layer may ask every one
/// (`physical_device`'s is `uuid`, already asked).
fn physical_devices_of(
    instance: &InstanceState,
    physical_device: vk::PhysicalDevice,
    uuid: Option<Uuid>,
    group: &DeviceGroupRead,
) -> PhysicalDevices {
    let members = match group {
        DeviceGroupRead::Absent => std::slice::from_ref(&physical_device),
        DeviceGroupRead::Members(members) => members.as_slice(),
        DeviceGroupRead::Unreadable => return PhysicalDevices::new(None, None),
    };
    let uuids = members
        .iter()
        .map(|&member| {
            if member == physical_device {
                uuid
            } else {
                device_uuid_of(instance, member)
            }
        })
        .collect();
    PhysicalDevices::new(Some(members.len() as u32), uuids)
}

/// The `deviceUUID` of another physical device of a device group, asked as for the device's own
/// (its own API version decides which name is valid).
fn device_uuid_of(instance: &InstanceState, physical_device: vk::PhysicalDevice) -> Option<Uuid> {
    let get = instance.next.get_physical_device_properties?;
    let mut properties = vk::PhysicalDeviceProperties::default();
    // SAFETY: a physical device of the group of a device the next layer just created, and an
    // output structure of ours.
    unsafe { get(physical_device, &mut properties) };
    let (ids, _) = identity_and_host_pointer_alignment(
        instance,
        physical_device,
        properties.api_version,
        false,
    )?;
    ids.map(|(device, _)| device)
}

/// Each memory type with its heap's size and flags, by memory type index; a type whose heap
/// index the driver reported out of range gets size `u64::MAX` (no size is judged) and no flags.
fn memory_types_with_heaps(
    properties: &vk::PhysicalDeviceMemoryProperties,
) -> Vec<MemoryTypeFacts> {
    let types = (properties.memory_type_count as usize).min(vk::MAX_MEMORY_TYPES);
    let heaps = (properties.memory_heap_count as usize).min(vk::MAX_MEMORY_HEAPS);
    properties.memory_types[..types]
        .iter()
        .map(|t| {
            let heap = properties.memory_heaps[..heaps].get(t.heap_index as usize);
            MemoryTypeFacts {
                flags: t.property_flags,
                heap_size: heap.map_or(u64::MAX, |h| h.size),
                heap_flags: heap.map(|h| h.flags).unwrap_or_default(),
            }
        })
        .collect()
}

/// A physical device that reported no version (0) is taken at the app's word.
fn device_api_version(instance: u32, physical_device: u32) -> u32 {
    let physical_device = if physical_device == 0 {
        instance
    } else {
        physical_device
    };
    let minor_of =
        |v: u32| vk::make_api_version(0, vk::api_version_major(v), vk::api_version_minor(v), 0);
    minor_of(instance).min(minor_of(physical_device))
}

pub unsafe extern "system" fn destroy_device(
    device: vk::Device,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down("vkDestroyDevice", (), |down| {
        let Some(state) = DEVICES.remove(device.as_raw()) else {
            return;
        };
        crate::commands::allocate::memory_lifecycle::device_destroyed(&state);
        crate::commands::semaphores::device_destroyed(&state);
        crate::commands::fences::device_destroyed(&state);
        DEVICES.remove_value(&state);
        if let Some(next) = state.next.destroy_device {
            // SAFETY: the app's arguments, passed down.
            unsafe { next(device, p_allocator) };
            down.went(());
        }
    })
}
