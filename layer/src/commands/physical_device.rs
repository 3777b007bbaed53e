//! What the layer asks the driver about the physical device at `vkCreateDevice`, through the
//! next layer: only calls that are valid for the app's instance and physical device
//! (`state::queryable`), since a validation layer below checks them like the app's own.

use crate::state::queryable::{self, ExternalBufferQuery};
use crate::state::{ExternalMemorySupport, InstanceState};
use ash::vk;
use std::ffi::CStr;

/// Asks the driver, once per device, what it supports for exporting memory of each handle type
/// valid to ask about (for a buffer usable for transfers; the allocation-time rule 00656 is
/// checked against it). `None` when the query cannot validly be made.
pub fn external_memory_support(
    instance: &InstanceState,
    physical_device: vk::PhysicalDevice,
) -> Option<ExternalMemorySupport> {
    let next = &instance.next;
    let query = queryable::external_buffer_query(
        instance.api_version,
        device_api_version(instance, physical_device)?,
        instance.khr_external_memory_capabilities,
    )?;
    let get = match query {
        ExternalBufferQuery::Core => next.get_physical_device_external_buffer_properties,
        ExternalBufferQuery::Khr => next.get_physical_device_external_buffer_properties_khr,
    }?;
    let extensions = device_extensions(instance, physical_device)?;
    let queryable = queryable::queryable_handle_types(|name| extensions.iter().any(|e| e == name));
    let mut support = ExternalMemorySupport::default();
    for bit in 0..32 {
        let handle_type = vk::ExternalMemoryHandleTypeFlags::from_raw(1 << bit);
        if !queryable.contains(handle_type) {
            continue;
        }
        let info = vk::PhysicalDeviceExternalBufferInfo::default()
            .usage(vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST)
            .handle_type(handle_type);
        let mut properties = vk::ExternalBufferProperties::default();
        // SAFETY: a live physical device, an input and an output structure of ours.
        unsafe { get(physical_device, &info, &mut properties) };
        let p = properties.external_memory_properties;
        support.set(
            handle_type,
            p.external_memory_features,
            p.compatible_handle_types,
        );
    }
    Some(support)
}

/// `VkPhysicalDeviceProperties::apiVersion`.
fn device_api_version(
    instance: &InstanceState,
    physical_device: vk::PhysicalDevice,
) -> Option<u32> {
    let get = instance.next.get_physical_device_properties?;
    let mut properties = vk::PhysicalDeviceProperties::default();
    // SAFETY: a live physical device and an output structure of ours.
    unsafe { get(physical_device, &mut properties) };
    Some(properties.api_version)
}

/// The names of the device extensions the physical device advertises (the driver's and the
/// implicit layers', as `vkEnumerateDeviceExtensionProperties(pLayerName = NULL)` lists them);
/// `None` when they cannot be listed.
fn device_extensions(
    instance: &InstanceState,
    physical_device: vk::PhysicalDevice,
) -> Option<Vec<Vec<u8>>> {
    let enumerate = instance.next.enumerate_device_extension_properties?;
    // The list may grow between the two calls: ask again while it is INCOMPLETE (a few times).
    for _ in 0..4 {
        let mut count = 0u32;
        // SAFETY: a live physical device; a count of ours, no array.
        let r = unsafe {
            enumerate(
                physical_device,
                std::ptr::null(),
                &mut count,
                std::ptr::null_mut(),
            )
        };
        if r != vk::Result::SUCCESS {
            return None;
        }
        let mut properties = vec![vk::ExtensionProperties::default(); count as usize];
        // SAFETY: an array of `count` structures of ours.
        let r = unsafe {
            enumerate(
                physical_device,
                std::ptr::null(),
                &mut count,
                properties.as_mut_ptr(),
            )
        };
        if r == vk::Result::INCOMPLETE {
            continue;
        }
        if r != vk::Result::SUCCESS {
            return None;
        }
        properties.truncate(count as usize);
        return Some(
            properties
                .iter()
                .map(|p| {
                    // The name is a fixed array; a driver that fills it without a NUL gets it
                    // cut at the array's end.
                    let bytes: Vec<u8> = p.extension_name.iter().map(|&c| c as u8).collect();
                    CStr::from_bytes_until_nul(&bytes)
                        .map_or(bytes.clone(), |n| n.to_bytes().to_vec())
                })
                .collect(),
        );
    }
    None
}
