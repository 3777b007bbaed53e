//! Instance lifetime and the app's debug messengers / debug-report callbacks.

use crate::boundary;
use crate::next_layer::{cast, InstanceDispatch};
use crate::raw::{self, StructArg};
use crate::report::{self, process_report, Severity};
use crate::settings::{sources, Settings};
use crate::state::instance::LifetimeCall;
use crate::state::registry::INSTANCES;
use crate::state::{InstanceState, Messenger};
use ash::vk::{self, Handle};
use parking_lot::RwLock;
use std::sync::Arc;

/// The registry key of `instance`, or `None` for NULL. Reads the handle's first word.
///
/// # Safety
/// `instance` is `VK_NULL_HANDLE` or a live `VkInstance` the loader created (the contract of the
/// instance-level entry points below).
unsafe fn instance_key(instance: vk::Instance) -> Option<u64> {
    if instance == vk::Instance::null() {
        return None;
    }
    // SAFETY: non-NULL, so a live VkInstance by the caller's contract: a dispatchable object
    // whose first word the loader set, readable as a usize.
    Some(unsafe { raw::dispatch_key(instance.as_raw()) })
}

/// The state of `instance`, or `None` for NULL or an instance the layer did not create.
///
/// # Safety
/// As [`instance_key`].
unsafe fn instance_state(instance: vk::Instance) -> Option<Arc<InstanceState>> {
    // SAFETY: the caller's contract is `instance_key`'s.
    INSTANCES.get(unsafe { instance_key(instance) }?)
}

/// # Safety
/// Called by the loader, as its `vkCreateInstance` contract says: `p_create_info` is NULL or a
/// valid create info carrying the loader's link structure, `p_instance` writable.
pub unsafe extern "system" fn create_instance(
    p_create_info: *const vk::InstanceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_instance: *mut vk::Instance,
) -> vk::Result {
    boundary::ffi_down(
        "vkCreateInstance",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        |down| {
            // SAFETY: the loader passes a valid create info and output pointer.
            let Some(info) = (unsafe { p_create_info.as_ref() }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: the create info the loader gave this layer.
            let Some(gipa) = (unsafe { raw::take_instance_link(info) }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: looked up by its own name.
            let create: Option<vk::PFN_vkCreateInstance> =
                unsafe { cast(gipa(vk::Instance::null(), c"vkCreateInstance".as_ptr())) };
            let Some(create) = create else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: the loader's arguments, passed down.
            let result = down.went(unsafe { create(p_create_info, p_allocator, p_instance) });
            if result != vk::Result::SUCCESS {
                return result;
            }
            // SAFETY: the next layer succeeded, so *p_instance is a live instance.
            let Some(instance) = (unsafe { raw::read_out(p_instance) }) else {
                return result;
            };
            // SAFETY: same create info as above.
            let read = unsafe { raw::read_instance_create_info(info) };
            let (settings, mut warnings) = read_settings(info);
            if let Some(dir) = &settings.shared_exports_dir {
                if let Err(warning) = crate::features::cross_process::state::configure(dir) {
                    warnings.push(warning);
                }
            }
            let state = InstanceState {
                handle: instance,
                // SAFETY: the next layer's GIPA and the instance it just created.
                next: unsafe { InstanceDispatch::load(gipa, instance) },
                debug_utils_enabled: read.debug_utils_enabled,
                api_version: read.api_version,
                khr_external_memory_capabilities: read.khr_external_memory_capabilities,
                khr_external_semaphore_capabilities: read.khr_external_semaphore_capabilities,
                khr_external_fence_capabilities: read.khr_external_fence_capabilities,
                chained_messengers: read.messengers,
                created_messengers: RwLock::new(Vec::new()),
                settings,
                duplicates: Default::default(),
            };
            // Still in vkCreateInstance: the messengers chained to its create info hear this.
            let _creating = LifetimeCall::enter(instance);
            process_report::enable(&state.settings);
            for warning in &warnings {
                report::announce(&state, Severity::Warning, &format!("settings: {warning}"));
            }
            report::announce(
                &state,
                Severity::Info,
                &format!("active settings: {}", state.settings.describe()),
            );
            // SAFETY: a live instance the loader created.
            let key = unsafe { raw::dispatch_key(instance.as_raw()) };
            INSTANCES.insert(key, Arc::new(state));
            result
        },
    )
}

/// # Safety
/// `instance` is `VK_NULL_HANDLE` or a live `VkInstance` the loader created (Vulkan's
/// `-instance-parameter` rule). Through the loader's trampoline this always holds: it reads the
/// handle before calling the layer. Every pointer argument is as the Vulkan command requires.
pub unsafe extern "system" fn destroy_instance(
    instance: vk::Instance,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down("vkDestroyInstance", (), |down| {
        // SAFETY: this function's contract on `instance`.
        let Some(key) = (unsafe { instance_key(instance) }) else {
            return;
        };
        let Some(state) = INSTANCES.get(key) else {
            return;
        };
        // What this call reports reaches the messengers chained to the instance's create info.
        let _destroying = LifetimeCall::enter(instance);
        INSTANCES.remove(key);
        process_report::write();
        if INSTANCES.values().is_empty() {
            // The last instance: the layer's own files let go (the journal, the shared
            // directory's file, the canary), opened again if the program makes another.
            process_report::release_files();
            crate::features::cross_process::state::release();
            crate::os::release_idle_canary();
        }
        if let Some(next) = state.next.destroy_instance {
            // SAFETY: the app's arguments, passed down.
            unsafe { next(instance, p_allocator) };
            down.went(());
        }
    })
}

/// # Safety
/// `instance` is `VK_NULL_HANDLE` or a live `VkInstance` the loader created (Vulkan's
/// `-instance-parameter` rule). Through the loader's trampoline this always holds: it reads the
/// handle before calling the layer. Every pointer argument is as the Vulkan command requires.
pub unsafe extern "system" fn create_debug_utils_messenger(
    instance: vk::Instance,
    p_create_info: *const vk::DebugUtilsMessengerCreateInfoEXT<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_messenger: *mut vk::DebugUtilsMessengerEXT,
) -> vk::Result {
    boundary::ffi_down(
        "vkCreateDebugUtilsMessengerEXT",
        vk::Result::ERROR_UNKNOWN,
        |down| {
            // SAFETY: this function's contract on `instance`.
            let Some(state) = (unsafe { instance_state(instance) }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            let Some(next) = state.next.create_debug_utils_messenger else {
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            };
            // SAFETY: the app's arguments, passed down.
            let result =
                down.went(unsafe { next(instance, p_create_info, p_allocator, p_messenger) });
            if result == vk::Result::SUCCESS {
                // SAFETY: the app's create info, which the driver below has just accepted: NULL
                // or a structure that starts with its sType (`read_struct` reads the whole
                // structure only when the sType is this one).
                let info = unsafe {
                    raw::read_struct(
                        p_create_info,
                        vk::StructureType::DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
                    )
                };
                // SAFETY: the app's output pointer: NULL (nothing is read) or the handle the
                // driver has just written on success.
                let handle = unsafe { raw::read_out(p_messenger) }.unwrap_or_default();
                if let StructArg::Valid(m) = info {
                    state.created_messengers.write().push(Messenger::Utils {
                        handle: handle.as_raw(),
                        severities: m.message_severity,
                        types: m.message_type,
                        callback: m.pfn_user_callback,
                        user_data: m.p_user_data as usize,
                    });
                }
            }
            result
        },
    )
}

/// # Safety
/// `instance` is `VK_NULL_HANDLE` or a live `VkInstance` the loader created (Vulkan's
/// `-instance-parameter` rule). Through the loader's trampoline this always holds: it reads the
/// handle before calling the layer. Every pointer argument is as the Vulkan command requires.
pub unsafe extern "system" fn destroy_debug_utils_messenger(
    instance: vk::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down("vkDestroyDebugUtilsMessengerEXT", (), |down| {
        // SAFETY: this function's contract on `instance`.
        let Some(state) = (unsafe { instance_state(instance) }) else {
            return;
        };
        forget_messenger(&state, messenger.as_raw(), true);
        if let Some(next) = state.next.destroy_debug_utils_messenger {
            // SAFETY: the app's arguments, passed down.
            unsafe { next(instance, messenger, p_allocator) };
            down.went(());
        }
    })
}

/// # Safety
/// `instance` is `VK_NULL_HANDLE` or a live `VkInstance` the loader created (Vulkan's
/// `-instance-parameter` rule). Through the loader's trampoline this always holds: it reads the
/// handle before calling the layer. Every pointer argument is as the Vulkan command requires.
pub unsafe extern "system" fn create_debug_report_callback(
    instance: vk::Instance,
    p_create_info: *const vk::DebugReportCallbackCreateInfoEXT<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_callback: *mut vk::DebugReportCallbackEXT,
) -> vk::Result {
    boundary::ffi_down(
        "vkCreateDebugReportCallbackEXT",
        vk::Result::ERROR_UNKNOWN,
        |down| {
            // SAFETY: this function's contract on `instance`.
            let Some(state) = (unsafe { instance_state(instance) }) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            let Some(next) = state.next.create_debug_report_callback else {
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            };
            // SAFETY: the app's arguments, passed down.
            let result =
                down.went(unsafe { next(instance, p_create_info, p_allocator, p_callback) });
            if result == vk::Result::SUCCESS {
                // SAFETY: the app's create info, which the driver below has just accepted: NULL
                // or a structure that starts with its sType (`read_struct` reads the whole
                // structure only when the sType is this one).
                let info = unsafe {
                    raw::read_struct(
                        p_create_info,
                        vk::StructureType::DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT,
                    )
                };
                // SAFETY: the app's output pointer: NULL (nothing is read) or the handle the
                // driver has just written on success.
                let handle = unsafe { raw::read_out(p_callback) }.unwrap_or_default();
                if let StructArg::Valid(c) = info {
                    state.created_messengers.write().push(Messenger::Report {
                        handle: handle.as_raw(),
                        flags: c.flags,
                        callback: c.pfn_callback,
                        user_data: c.p_user_data as usize,
                    });
                }
            }
            result
        },
    )
}

/// # Safety
/// `instance` is `VK_NULL_HANDLE` or a live `VkInstance` the loader created (Vulkan's
/// `-instance-parameter` rule). Through the loader's trampoline this always holds: it reads the
/// handle before calling the layer. Every pointer argument is as the Vulkan command requires.
pub unsafe extern "system" fn destroy_debug_report_callback(
    instance: vk::Instance,
    callback: vk::DebugReportCallbackEXT,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down("vkDestroyDebugReportCallbackEXT", (), |down| {
        // SAFETY: this function's contract on `instance`.
        let Some(state) = (unsafe { instance_state(instance) }) else {
            return;
        };
        forget_messenger(&state, callback.as_raw(), false);
        if let Some(next) = state.next.destroy_debug_report_callback {
            // SAFETY: the app's arguments, passed down.
            unsafe { next(instance, callback, p_allocator) };
            down.went(());
        }
    })
}

/// The settings of a new instance, from its create info, the environment and the settings file
/// (in that order of precedence), with a warning for each bad value.
fn read_settings(info: &vk::InstanceCreateInfo<'_>) -> (Settings, Vec<String>) {
    // SAFETY: the create info the loader gave this layer.
    let api = unsafe { raw::read_layer_settings(info.p_next) };
    let env = sources::from_env(|name| std::env::var(name).ok());
    let file = sources::from_file(&sources::settings_file_path(
        std::env::var("VK_LAYER_SETTINGS_PATH").ok(),
    ));
    let (settings, mut warnings) = Settings::resolve(&[api, env, file]);
    warnings.extend(sources::unreadable_env(|name| {
        matches!(std::env::var(name), Err(std::env::VarError::NotUnicode(_)))
    }));
    (settings, warnings)
}

fn forget_messenger(state: &InstanceState, handle: u64, utils: bool) {
    if handle == 0 {
        return;
    }
    state.created_messengers.write().retain(|m| {
        let same_kind = matches!(m, Messenger::Utils { .. }) == utils;
        !(same_kind && m.handle() == handle)
    });
}
