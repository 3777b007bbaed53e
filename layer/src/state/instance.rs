//! Per-`VkInstance` state: next-layer pointers and the app's debug messengers and callbacks.
//!
//! A messenger or callback chained to `VkInstanceCreateInfo::pNext` is, by the spec, active only
//! during `vkCreateInstance` and `vkDestroyInstance`. The layer takes that to mean: for what the
//! layer reports on the thread running that instance's creation or destruction, while it runs
//! ([`LifetimeCall`]). Calls on other threads, even on the same instance, never reach it.

use crate::next_layer::InstanceDispatch;
use crate::settings::Settings;
use ash::vk::{self, Handle};
use dashmap::DashMap;
use parking_lot::RwLock;
use std::cell::Cell;

/// A debug-utils messenger or a debug-report callback of the app.
#[derive(Clone, Copy, Debug)]
pub enum Messenger {
    Utils {
        handle: u64,
        severities: vk::DebugUtilsMessageSeverityFlagsEXT,
        types: vk::DebugUtilsMessageTypeFlagsEXT,
        callback: vk::PFN_vkDebugUtilsMessengerCallbackEXT,
        user_data: usize,
    },
    Report {
        handle: u64,
        flags: vk::DebugReportFlagsEXT,
        callback: vk::PFN_vkDebugReportCallbackEXT,
        user_data: usize,
    },
}

impl Messenger {
    /// The handle the app got back (0 for messengers chained to `VkInstanceCreateInfo`).
    pub fn handle(&self) -> u64 {
        match self {
            Messenger::Utils { handle, .. } | Messenger::Report { handle, .. } => *handle,
        }
    }
}

/// Everything the layer keeps for one `VkInstance`.
pub struct InstanceState {
    pub handle: vk::Instance,
    pub next: InstanceDispatch,
    pub debug_utils_enabled: bool,
    /// `VkApplicationInfo::apiVersion` (`VK_API_VERSION_1_0` when absent or 0).
    pub api_version: u32,
    /// The instance extension `VK_KHR_external_memory_capabilities` is enabled.
    pub khr_external_memory_capabilities: bool,
    /// The instance extensions `VK_KHR_external_semaphore_capabilities` and
    /// `VK_KHR_external_fence_capabilities` are enabled.
    pub khr_external_semaphore_capabilities: bool,
    pub khr_external_fence_capabilities: bool,
    /// The messengers and callbacks chained to `VkInstanceCreateInfo`: active only during this
    /// instance's `vkCreateInstance` and `vkDestroyInstance`, on the thread running them.
    pub chained_messengers: Vec<Messenger>,
    /// The messengers and callbacks created with `vkCreateDebugUtilsMessengerEXT` /
    /// `vkCreateDebugReportCallbackEXT`. Written only when the app creates or destroys one;
    /// read (copied out) to report.
    pub created_messengers: RwLock<Vec<Messenger>>,
    /// The settings, read once at vkCreateInstance.
    pub settings: Settings,
    /// How many times each ID was reported (for `duplicate_message_limit`).
    pub duplicates: DashMap<&'static str, u32>,
}

impl InstanceState {
    /// A copy of the messengers active for what the calling thread reports now, so no lock is
    /// held while calling the app back: the created ones, and the chained ones while this
    /// thread runs this instance's `vkCreateInstance` or `vkDestroyInstance`.
    pub fn active_messengers(&self) -> Vec<Messenger> {
        let mut active = self.created_messengers.read().clone();
        if LifetimeCall::is_running(self.handle) {
            active.extend_from_slice(&self.chained_messengers);
        }
        active
    }
}

thread_local! {
    /// The raw handle of the instance whose `vkCreateInstance` or `vkDestroyInstance` this
    /// thread is running (0: none).
    static LIFETIME_CALL: Cell<u64> = const { Cell::new(0) };
}

/// Marks the calling thread as running `vkCreateInstance` or `vkDestroyInstance` of one
/// instance, until dropped (also when unwinding).
pub struct LifetimeCall {
    previous: u64,
}

impl LifetimeCall {
    /// From now until the guard is dropped, this thread's reports reach `instance`'s chained
    /// messengers.
    #[must_use = "the call is marked only while the guard lives"]
    pub fn enter(instance: vk::Instance) -> Self {
        let previous = LIFETIME_CALL.with(|c| c.replace(instance.as_raw()));
        Self { previous }
    }

    /// Whether the calling thread is running `instance`'s creation or destruction.
    fn is_running(instance: vk::Instance) -> bool {
        let raw = instance.as_raw();
        raw != 0 && LIFETIME_CALL.with(Cell::get) == raw
    }
}

impl Drop for LifetimeCall {
    fn drop(&mut self) {
        LIFETIME_CALL.with(|c| c.set(self.previous));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::c_char;

    unsafe extern "system" fn no_gipa(
        _instance: vk::Instance,
        _name: *const c_char,
    ) -> vk::PFN_vkVoidFunction {
        None
    }

    fn messenger(handle: u64) -> Messenger {
        Messenger::Report {
            handle,
            flags: vk::DebugReportFlagsEXT::ERROR,
            callback: None,
            user_data: 0,
        }
    }

    /// An instance with one chained messenger (handle 0) and one created (handle 7).
    fn instance(raw: u64) -> InstanceState {
        InstanceState {
            handle: vk::Instance::from_raw(raw),
            next: InstanceDispatch {
                get_instance_proc_addr: no_gipa,
                destroy_instance: None,
                create_device: None,
                get_physical_device_memory_properties: None,
                get_physical_device_properties: None,
                get_physical_device_properties2: None,
                get_physical_device_properties2_khr: None,
                get_physical_device_external_buffer_properties: None,
                get_physical_device_external_buffer_properties_khr: None,
                get_physical_device_image_format_properties2: None,
                get_physical_device_image_format_properties2_khr: None,
                get_physical_device_external_semaphore_properties: None,
                get_physical_device_external_semaphore_properties_khr: None,
                get_physical_device_external_fence_properties: None,
                get_physical_device_external_fence_properties_khr: None,
                create_debug_utils_messenger: None,
                destroy_debug_utils_messenger: None,
                create_debug_report_callback: None,
                destroy_debug_report_callback: None,
            },
            debug_utils_enabled: true,
            api_version: vk::API_VERSION_1_1,
            khr_external_memory_capabilities: false,
            khr_external_semaphore_capabilities: false,
            khr_external_fence_capabilities: false,
            chained_messengers: vec![messenger(0)],
            created_messengers: RwLock::new(vec![messenger(7)]),
            settings: Settings::default(),
            duplicates: DashMap::new(),
        }
    }

    fn handles(instance: &InstanceState) -> Vec<u64> {
        instance
            .active_messengers()
            .iter()
            .map(Messenger::handle)
            .collect()
    }

    #[test]
    fn chained_messengers_are_active_only_in_their_instances_lifetime_call_on_its_thread() {
        let x = instance(0x10);
        let y = instance(0x20);
        assert_eq!(
            handles(&x),
            [7],
            "outside vkCreateInstance/vkDestroyInstance"
        );
        {
            let _call = LifetimeCall::enter(x.handle);
            assert_eq!(handles(&x), [7, 0], "during X's lifetime call");
            assert_eq!(handles(&y), [7], "another instance's chained messenger");
            std::thread::scope(|s| {
                s.spawn(|| assert_eq!(handles(&x), [7], "another thread's report"));
            });
        }
        assert_eq!(handles(&x), [7], "after the call");
    }

    #[test]
    fn a_lifetime_call_restores_the_one_it_interrupted() {
        let x = instance(0x30);
        let y = instance(0x40);
        let _outer = LifetimeCall::enter(x.handle);
        {
            let _inner = LifetimeCall::enter(y.handle);
            assert_eq!(handles(&y), [7, 0]);
            assert_eq!(handles(&x), [7]);
        }
        assert_eq!(handles(&x), [7, 0]);
    }
}
