//! The three instance-level commands the layer implements.

use crate::extensions::{self, HIDDEN};
use crate::state::{self, NextInstance};
use crate::{contained, link, LAYER_NAME};
use ash::vk;
use std::ffi::{c_char, CStr};

/// A function pointer as `PFN_vkVoidFunction`.
pub fn void_fn(f: *const ()) -> vk::PFN_vkVoidFunction {
    // SAFETY: `f` is one of this layer's `extern "system"` functions; the loader casts it back
    // to its true type before calling it.
    Some(unsafe { std::mem::transmute::<*const (), unsafe extern "system" fn()>(f) })
}

/// The layer's own function for `name`, if it implements it.
pub fn instance_command(name: &[u8]) -> vk::PFN_vkVoidFunction {
    match name {
        b"vkGetInstanceProcAddr" => void_fn(crate::get_instance_proc_addr as *const ()),
        b"vkGetDeviceProcAddr" => void_fn(crate::get_device_proc_addr as *const ()),
        b"vkCreateInstance" => void_fn(create_instance as *const ()),
        b"vkCreateDevice" => void_fn(create_device as *const ()),
        b"vkEnumerateDeviceExtensionProperties" => {
            void_fn(enumerate_device_extension_properties as *const ())
        }
        _ => None,
    }
}

/// The next layer's `name` for `instance`, as a `T`.
///
/// # Safety
/// `gipa` is the next layer's `vkGetInstanceProcAddr`; `T` is the function pointer type of the
/// command `name`.
unsafe fn next_fn<T>(
    gipa: vk::PFN_vkGetInstanceProcAddr,
    instance: vk::Instance,
    name: &CStr,
) -> Option<T> {
    // SAFETY: the next layer's vkGetInstanceProcAddr with an instance (or NULL) and a C string.
    let f = unsafe { gipa(instance, name.as_ptr()) }?;
    // SAFETY: the loader hands out `name`'s function, whose type is `T` by the caller's contract.
    Some(unsafe { std::mem::transmute_copy::<unsafe extern "system" fn(), T>(&f) })
}

/// Creates the instance below and remembers the next layer's `vkGetInstanceProcAddr`.
unsafe extern "system" fn create_instance(
    p_create_info: *const vk::InstanceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_instance: *mut vk::Instance,
) -> vk::Result {
    contained(vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: the loader's create info (NULL is refused).
        let Some(info) = (unsafe { p_create_info.as_ref() }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: the create info the loader passed to this layer.
        let Some(gipa) = (unsafe { link::take_instance_link(info) }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: vkCreateInstance's type.
        let Some(create) = (unsafe {
            next_fn::<vk::PFN_vkCreateInstance>(gipa, vk::Instance::null(), c"vkCreateInstance")
        }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: the app's arguments, passed on unchanged.
        let result = unsafe { create(p_create_info, p_allocator, p_instance) };
        if result != vk::Result::SUCCESS {
            return result;
        }
        // SAFETY: on success the next layer wrote a new instance to *p_instance.
        let instance = unsafe { *p_instance };
        // SAFETY: vkEnumerateDeviceExtensionProperties's type.
        let Some(enumerate) = (unsafe {
            next_fn::<vk::PFN_vkEnumerateDeviceExtensionProperties>(
                gipa,
                instance,
                c"vkEnumerateDeviceExtensionProperties",
            )
        }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: the instance the next layer just created.
        unsafe {
            state::remember_instance(NextInstance {
                instance,
                get_instance_proc_addr: gipa,
                enumerate_device_extension_properties: enumerate,
            });
        }
        result
    })
}

/// The next layer's device extensions.
///
/// # Safety
/// `physical_device` is one the loader created.
unsafe fn next_device_extensions(
    next: NextInstance,
    physical_device: vk::PhysicalDevice,
) -> Result<Vec<vk::ExtensionProperties>, vk::Result> {
    let enumerate = next.enumerate_device_extension_properties;
    loop {
        let mut count = 0u32;
        // SAFETY: the count query of the two-call idiom.
        let r = unsafe {
            enumerate(
                physical_device,
                std::ptr::null(),
                &mut count,
                std::ptr::null_mut(),
            )
        };
        if r != vk::Result::SUCCESS {
            return Err(r);
        }
        let mut props = vec![vk::ExtensionProperties::default(); count as usize];
        // SAFETY: `props` holds `count` writable elements.
        let r = unsafe {
            enumerate(
                physical_device,
                std::ptr::null(),
                &mut count,
                props.as_mut_ptr(),
            )
        };
        match r {
            vk::Result::SUCCESS => {
                props.truncate(count as usize);
                return Ok(props);
            }
            vk::Result::INCOMPLETE => continue,
            other => return Err(other),
        }
    }
}

/// Lists the hidden extension besides the next layer's (for `pLayerName` NULL or this layer).
unsafe extern "system" fn enumerate_device_extension_properties(
    physical_device: vk::PhysicalDevice,
    p_layer_name: *const c_char,
    p_property_count: *mut u32,
    p_properties: *mut vk::ExtensionProperties,
) -> vk::Result {
    contained(vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: a physical device the loader created.
        let Some(next) = (unsafe { state::instance_of(physical_device) }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        let list = if p_layer_name.is_null() {
            // SAFETY: a physical device the loader created.
            match unsafe { next_device_extensions(next, physical_device) } {
                Ok(props) => extensions::with_hidden(props),
                Err(e) => return e,
            }
        // SAFETY: non-NULL and NUL-terminated by the command's contract.
        } else if unsafe { CStr::from_ptr(p_layer_name) } == LAYER_NAME {
            vec![extensions::hidden_properties()]
        } else {
            // Another layer's list: not ours to change.
            // SAFETY: the app's arguments, passed on unchanged.
            return unsafe {
                (next.enumerate_device_extension_properties)(
                    physical_device,
                    p_layer_name,
                    p_property_count,
                    p_properties,
                )
            };
        };
        // SAFETY: the app's count and array, by the command's contract.
        unsafe { write_list(&list, p_property_count, p_properties) }
    })
}

/// The two-call idiom's answer for `list`.
///
/// # Safety
/// `p_count` is writable; `p_props` is NULL or holds `*p_count` writable elements.
unsafe fn write_list(
    list: &[vk::ExtensionProperties],
    p_count: *mut u32,
    p_props: *mut vk::ExtensionProperties,
) -> vk::Result {
    // SAFETY: by the caller's contract (NULL is refused).
    let Some(count) = (unsafe { p_count.as_mut() }) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    if p_props.is_null() {
        *count = list.len() as u32;
        return vk::Result::SUCCESS;
    }
    let written = list.len().min(*count as usize);
    // SAFETY: `p_props` holds `*count` >= `written` writable elements.
    unsafe { std::ptr::copy_nonoverlapping(list.as_ptr(), p_props, written) };
    *count = written as u32;
    if written < list.len() {
        vk::Result::INCOMPLETE
    } else {
        vk::Result::SUCCESS
    }
}

/// Creates the device below without the hidden extension when the next layer lacks it.
unsafe extern "system" fn create_device(
    physical_device: vk::PhysicalDevice,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    contained(vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: the loader's create info (NULL is refused).
        let Some(info) = (unsafe { p_create_info.as_ref() }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: a physical device the loader created.
        let Some(instance) = (unsafe { state::instance_of(physical_device) }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: the create info the loader passed to this layer.
        let Some((gipa, gdpa)) = (unsafe { link::take_device_link(info) }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: vkCreateDevice's type, from the device link's vkGetInstanceProcAddr.
        let Some(create) = (unsafe {
            next_fn::<vk::PFN_vkCreateDevice>(gipa, instance.instance, c"vkCreateDevice")
        }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: a physical device the loader created.
        let driver_has_it = match unsafe { next_device_extensions(instance, physical_device) } {
            Ok(props) => extensions::lists(&props, HIDDEN),
            Err(e) => return e,
        };
        let enabled: Vec<&CStr> = if info.enabled_extension_count == 0 {
            Vec::new()
        } else {
            // SAFETY: the app's array of `enabled_extension_count` NUL-terminated names.
            unsafe {
                std::slice::from_raw_parts(
                    info.pp_enabled_extension_names,
                    info.enabled_extension_count as usize,
                )
            }
            .iter()
            // SAFETY: each a NUL-terminated string, by the command's contract.
            .map(|&p| unsafe { CStr::from_ptr(p) })
            .collect()
        };
        let result = if driver_has_it || !enabled.contains(&HIDDEN) {
            // SAFETY: the app's arguments, passed on unchanged.
            unsafe { create(physical_device, p_create_info, p_allocator, p_device) }
        } else {
            let kept: Vec<*const c_char> = extensions::without_hidden(&enabled)
                .iter()
                .map(|n| n.as_ptr())
                .collect();
            let mut changed = *info;
            changed.enabled_extension_count = kept.len() as u32;
            changed.pp_enabled_extension_names = kept.as_ptr();
            // SAFETY: the app's create info with a shorter list of its own names, alive here.
            unsafe { create(physical_device, &changed, p_allocator, p_device) }
        };
        if result == vk::Result::SUCCESS {
            // SAFETY: on success the next layer wrote a new device to *p_device.
            unsafe { state::remember_device(*p_device, gdpa) };
        }
        result
    })
}
