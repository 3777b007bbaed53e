//! Per-`VkInstance` state: next-layer pointers and the app's debug messengers and callbacks.

use crate::dispatch::table::InstanceDispatch;
use crate::settings::Settings;
use ash::vk;
use dashmap::DashMap;
use parking_lot::RwLock;

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
    /// `pApplicationInfo->apiVersion` (0, meaning 1.0, without an application info).
    pub api_version: u32,
    /// The instance extension `VK_KHR_external_memory_capabilities` is enabled.
    pub khr_external_memory_capabilities: bool,
    /// Written only when the app creates or destroys a messenger; read (copied out) to report.
    pub messengers: RwLock<Vec<Messenger>>,
    /// The settings, read once at vkCreateInstance.
    pub settings: Settings,
    /// How many times each ID was reported (for `duplicate_message_limit`).
    pub duplicates: DashMap<&'static str, u32>,
}

impl InstanceState {
    /// A copy of the current messengers, so no lock is held while calling the app back.
    pub fn messengers_snapshot(&self) -> Vec<Messenger> {
        self.messengers.read().clone()
    }
}
