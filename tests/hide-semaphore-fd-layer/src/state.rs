//! What the layer remembers: for each instance and device, the next layer's entry points, keyed
//! by the loader's dispatch key (the first word of a dispatchable handle, which an instance
//! shares with its physical devices). Entries are never removed: a test process creates a few
//! instances and devices, and a key the loader reuses is simply overwritten.

use ash::vk::{self, Handle};
use parking_lot::Mutex;
use std::collections::HashMap;

/// An instance's handle and the next layer's functions the layer calls, looked up when the
/// instance is created (later, the loader answers a lookup with the *top* of the chain, which
/// would lead back into this layer).
#[derive(Clone, Copy)]
pub struct NextInstance {
    pub instance: vk::Instance,
    pub get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    pub enumerate_device_extension_properties: vk::PFN_vkEnumerateDeviceExtensionProperties,
}

static INSTANCES: Mutex<Option<HashMap<usize, NextInstance>>> = Mutex::new(None);
static DEVICES: Mutex<Option<HashMap<usize, vk::PFN_vkGetDeviceProcAddr>>> = Mutex::new(None);

/// The loader's dispatch key of a dispatchable handle; `None` for NULL.
///
/// # Safety
/// `raw` is NULL or a dispatchable handle the loader created (it points to its dispatch pointer).
unsafe fn dispatch_key(raw: u64) -> Option<usize> {
    if raw == 0 {
        return None;
    }
    // SAFETY: a loader-created dispatchable handle points to the loader's dispatch pointer.
    Some(unsafe { (raw as usize as *const usize).read() })
}

/// Remembers a new instance.
///
/// # Safety
/// `instance` was just created by the next layer's `vkCreateInstance`.
pub unsafe fn remember_instance(next: NextInstance) {
    // SAFETY: a loader-created instance, by the caller's contract.
    if let Some(key) = unsafe { dispatch_key(next.instance.as_raw()) } {
        INSTANCES
            .lock()
            .get_or_insert_with(HashMap::new)
            .insert(key, next);
    }
}

/// The instance of `handle`: an instance or one of its physical devices.
///
/// # Safety
/// `handle` is NULL or a dispatchable instance-level handle the loader created.
pub unsafe fn instance_of(handle: impl Handle) -> Option<NextInstance> {
    // SAFETY: by the caller's contract.
    let key = unsafe { dispatch_key(handle.as_raw()) }?;
    INSTANCES.lock().as_ref()?.get(&key).copied()
}

/// Remembers a new device's next `vkGetDeviceProcAddr`.
///
/// # Safety
/// `device` was just created by the next layer's `vkCreateDevice`.
pub unsafe fn remember_device(device: vk::Device, next: vk::PFN_vkGetDeviceProcAddr) {
    // SAFETY: a loader-created device, by the caller's contract.
    if let Some(key) = unsafe { dispatch_key(device.as_raw()) } {
        DEVICES
            .lock()
            .get_or_insert_with(HashMap::new)
            .insert(key, next);
    }
}

/// The next layer's `vkGetDeviceProcAddr` for `device`.
///
/// # Safety
/// `device` is NULL or a device the loader created.
pub unsafe fn device_next(device: vk::Device) -> Option<vk::PFN_vkGetDeviceProcAddr> {
    // SAFETY: by the caller's contract.
    let key = unsafe { dispatch_key(device.as_raw()) }?;
    DEVICES.lock().as_ref()?.get(&key).copied()
}
