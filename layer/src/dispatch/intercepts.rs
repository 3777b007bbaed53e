//! The one table of the commands the layer intercepts: `vkGetInstanceProcAddr` and
//! `vkGetDeviceProcAddr` both read it (they answer for themselves, in `proc_addr.rs`). A row says
//! the command's name, the layer's function, and on which devices the layer intercepts it (only
//! what it checks, only when its extension is enabled and the next layer has it); every other
//! device, and every other name, gets the next layer's own pointer, so the app pays nothing for
//! calls the layer does not check.
//!
//! The rows (`intercept_table.rs`) are generated from `vuids/commands.json` by
//! `cargo run -p exportcheck-vuids --bin render-dispatch`: a row's `when` names one of the
//! conditions below, or `extension` (the one `vk.xml` gives the command); the row's type and the
//! conditions are here.

use crate::state::DeviceState;
use ash::vk;

/// Where a command belongs.
pub enum Level {
    /// Instance-level: `vkGetInstanceProcAddr` only.
    Instance,
    /// Device-level: `vkGetDeviceProcAddr`, on the devices `on` accepts, and
    /// `vkGetInstanceProcAddr` (which cannot know the device).
    Device { on: fn(&DeviceState) -> bool },
}

pub struct Intercept {
    pub name: &'static [u8],
    /// The layer's function, as the loader's `PFN_vkVoidFunction`.
    pub function: fn() -> vk::PFN_vkVoidFunction,
    pub level: Level,
}

pub(super) const fn device(on: fn(&DeviceState) -> bool) -> Level {
    Level::Device { on }
}

/// Every device (`when: always`).
pub(super) fn always(_: &DeviceState) -> bool {
    true
}

/// Whether memory can be exported on the device (`VK_KHR_external_memory` or Vulkan 1.1):
/// buffers and images are tracked only there, since exported memory is judged against them.
pub(super) fn can_export(state: &DeviceState) -> bool {
    state.can_export()
}

/// The layer intercepts the device's buffer commands (`DeviceState::intercepts_buffers`).
pub(super) fn buffers(s: &DeviceState) -> bool {
    s.intercepts_buffers()
}

/// The layer intercepts the device's image commands (`DeviceState::intercepts_images`).
pub(super) fn images(s: &DeviceState) -> bool {
    s.intercepts_images()
}

/// The instance enabled `VK_EXT_debug_utils` (a device command of an instance extension).
pub(super) fn debug_utils(s: &DeviceState) -> bool {
    s.instance.debug_utils_enabled
}

#[cfg(test)]
mod tests {
    use super::super::intercept_table::{EXTENSION_OF, INTERCEPTS};
    use crate::rules::export::ExportCommand;
    use crate::rules::query::QueryCommand;
    use crate::state::EnabledExtensions;

    /// A command's rules: its name, its extension and when they call it enabled.
    type Rules = (&'static str, &'static str, fn(&EnabledExtensions) -> bool);

    #[test]
    fn names_are_unique_and_each_has_a_function() {
        for (i, row) in INTERCEPTS.iter().enumerate() {
            assert!(
                INTERCEPTS[i + 1..]
                    .iter()
                    .all(|other| other.name != row.name),
                "{} twice",
                String::from_utf8_lossy(row.name)
            );
            assert!((row.function)().is_some());
        }
    }

    /// Each command intercepted where its extension is enabled is intercepted where its rules
    /// judge it: the extension `vk.xml` gives it is its rules' `extension`, and their
    /// `is_enabled` holds exactly when that extension is enabled.
    #[test]
    fn the_extension_of_each_intercepted_command_is_its_rules_extension() {
        use crate::rules::export::*;
        use crate::rules::query::*;
        let rules: [Rules; 23] = [
            export_rule(&get_memory_fd::COMMAND),
            export_rule(&get_memory_remote_address::COMMAND),
            export_rule(&get_memory_win32_handle_nv::COMMAND),
            export_rule(&get_memory_win32_handle::COMMAND),
            export_rule(&get_memory_zircon_handle::COMMAND),
            export_rule(&get_memory_android_hardware_buffer::COMMAND),
            export_rule(&get_memory_metal_handle::COMMAND),
            export_rule(&get_semaphore_fd::COMMAND),
            export_rule(&crate::rules::import::import_semaphore_fd::COMMAND),
            export_rule(&crate::rules::import::import_semaphore_win32::COMMAND),
            export_rule(&crate::rules::import::import_semaphore_zircon::COMMAND),
            export_rule(&get_semaphore_win32_handle::COMMAND),
            export_rule(&get_semaphore_zircon_handle::COMMAND),
            export_rule(&get_fence_fd::COMMAND),
            export_rule(&get_fence_win32_handle::COMMAND),
            export_rule(&crate::rules::import::import_fence_fd::COMMAND),
            export_rule(&crate::rules::import::import_fence_win32_handle::COMMAND),
            query_rule(&get_memory_fd_properties::COMMAND),
            query_rule(&get_memory_host_pointer_properties::COMMAND),
            query_rule(&get_memory_win32_handle_properties::COMMAND),
            query_rule(&get_memory_zircon_handle_properties::COMMAND),
            query_rule(&get_android_hardware_buffer_properties::COMMAND),
            query_rule(&get_memory_metal_handle_properties::COMMAND),
        ];
        assert_eq!(rules.len(), EXTENSION_OF.len());
        for (name, extension) in EXTENSION_OF {
            let name = std::str::from_utf8(name).unwrap();
            let (_, rules_extension, is_enabled) = rules
                .iter()
                .find(|(rules_name, ..)| *rules_name == name)
                .unwrap_or_else(|| panic!("{name}: no rules"));
            assert_eq!(rules_extension, extension, "{name}");
            let mut only = EnabledExtensions::default();
            only.enable(extension.as_bytes());
            assert_ne!(only, EnabledExtensions::default(), "{extension} is tracked");
            assert!(is_enabled(&only), "{name} with {extension}");
            assert!(!is_enabled(&EnabledExtensions::default()), "{name} without");
        }
    }

    fn export_rule<R, K: crate::state::TrackedObject>(command: &ExportCommand<R, K>) -> Rules {
        (command.name, command.extension, command.is_enabled)
    }

    fn query_rule<R>(command: &QueryCommand<R>) -> Rules {
        (command.name, command.extension, command.is_enabled)
    }
}
