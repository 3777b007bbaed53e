//! Device lifetime: the per-device record is made after `vkCreateDevice` succeeds and dropped
//! before `vkDestroyDevice` goes down.

use crate::boundary;
use crate::dispatch::table::{cast, DeviceDispatch};
use crate::raw;
use crate::state::fd_exports::FdExports;
use crate::state::maps;
use crate::state::registry::{DEVICES, INSTANCES};
use crate::state::{DeviceFacts, DeviceState};
use ash::vk::{self, Handle};
use std::sync::Arc;

pub unsafe extern "system" fn create_device(
    physical_device: vk::PhysicalDevice,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    boundary::ffi(
        "vkCreateDevice",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            // SAFETY: the loader passes a valid create info.
            let Some(info) = (unsafe { p_create_info.as_ref() }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: the create info the loader gave this layer.
            let Some((gipa, gdpa)) = (unsafe { raw::take_device_link(info) }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: physical devices come from the loader and share their instance's dispatch key.
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
            let result = unsafe { create(physical_device, p_create_info, p_allocator, p_device) };
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
            let count = (memory_properties.memory_type_count as usize).min(vk::MAX_MEMORY_TYPES);
            // SAFETY: same create info as above.
            let read = unsafe { raw::read_device_create_info(info) };
            let fd_exports = instance.settings.check_fd_leaks.then(FdExports::new);
            let state = DeviceState {
                facts: DeviceFacts {
                    handle: device.as_raw(),
                    extensions: read.extensions,
                    rdma_feature: read.rdma_feature,
                    memory_types: memory_properties.memory_types[..count]
                        .iter()
                        .map(|t| t.property_flags)
                        .collect(),
                    external_memory: super::physical_device::external_memory_support(
                        &instance,
                        physical_device,
                    )
                    .map(Box::new),
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
                fd_exports,
            };
            DEVICES.insert(device.as_raw(), Arc::new(state));
            result
        },
    )
}

pub unsafe extern "system" fn destroy_device(
    device: vk::Device,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi("vkDestroyDevice", (), || {
        let Some(state) = DEVICES.remove(device.as_raw()) else {
            return;
        };
        super::fd_leaks::at_destroy(&state);
        // Other threads may still hold a snapshot with this state until their next call: what
        // it tracked goes now.
        state.memories.clear();
        state.names.clear();
        if let Some(next) = state.next.destroy_device {
            // SAFETY: the app's arguments, passed down.
            unsafe { next(device, p_allocator) }
        }
    })
}
