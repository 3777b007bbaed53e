//! Settings, with the Khronos validation layer's names and conventions where the meaning is the
//! same. Read once at `vkCreateInstance` from, in order of precedence:
//! 1. `VkLayerSettingsCreateInfoEXT` (VK_EXT_layer_settings) chained to `VkInstanceCreateInfo`;
//! 2. environment variables `VK_EXPORTCHECK_VALIDATION_<SETTING>`;
//! 3. `vk_layer_settings.txt` (`exportcheck_validation.<setting> = <value>`), found through
//!    `VK_LAYER_SETTINGS_PATH` (the file, or its directory) or in the working directory.
//!
//! The first source that sets a setting wins. A bad value is a warning, never a failure: the
//! setting keeps its default.

mod parse;
pub mod sources;
mod values;

pub use parse::{parse_setting, SettingError};
pub use values::{DebugActions, LogTarget, ReportFlags, Settings};

/// `report_flags` as a list of names.
pub fn flag_names(f: ReportFlags) -> Vec<&'static str> {
    [(f.error, "error"), (f.warn, "warn"), (f.info, "info")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
}

/// `debug_action` as a list of names.
pub fn action_names(a: DebugActions) -> Vec<&'static str> {
    [
        (a.log, "log"),
        (a.callback, "callback"),
        (a.break_, "break"),
        (a.fail, "fail"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect()
}

/// `log_filename` as text.
pub fn log_target_text(t: &LogTarget) -> String {
    match t {
        LogTarget::Stderr => "stderr".to_owned(),
        LogTarget::Stdout => "stdout".to_owned(),
        LogTarget::File(f) => f.clone(),
    }
}

/// The names of every setting, as the manifest declares them.
pub const SETTING_NAMES: &[&str] = &[
    "report_flags",
    "debug_action",
    "log_filename",
    "message_id_filter",
    "duplicate_message_limit",
    "message_format_json",
    "check_fd_leaks",
    "report_file",
    "shared_exports_dir",
];

/// A setting's value as one source gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawSetting {
    pub name: String,
    pub value: String,
    /// Where it came from, for warnings: `VkLayerSettingsCreateInfoEXT`, `VK_EXPORTCHECK_...`,
    /// `vk_layer_settings.txt:12`.
    pub source: String,
}

impl Settings {
    /// Resolves settings from sources in precedence order (first wins). Returns the settings and
    /// a warning for each bad value or unknown setting name.
    pub fn resolve(sources: &[Vec<RawSetting>]) -> (Settings, Vec<String>) {
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        let mut done: Vec<&str> = Vec::new();
        for raw in sources.iter().flatten() {
            let Some(&name) = SETTING_NAMES.iter().find(|n| **n == raw.name) else {
                warnings.push(format!(
                    "{}: unknown setting `{}` ignored (known: {})",
                    raw.source,
                    raw.name,
                    SETTING_NAMES.join(", ")
                ));
                continue;
            };
            if done.contains(&name) {
                continue;
            }
            match parse_setting(&mut settings, name, &raw.value) {
                Ok(()) => done.push(name),
                Err(e) => warnings.push(format!(
                    "{}: {name} = `{}`: {e}; the default is kept",
                    raw.source, raw.value
                )),
            }
        }
        (settings, warnings)
    }

    /// Whether an ID is muted by `message_id_filter` (by ID or by its message ID number).
    pub fn is_muted(&self, id: &str) -> bool {
        if self.message_id_filter.is_empty() {
            return false;
        }
        let number = crate::vuid::message_id_number(id);
        self.message_id_filter.iter().any(|f| {
            f == id
                || parse::parse_int(f)
                    .is_some_and(|n| n as i32 == number || n == i64::from(number as u32))
        })
    }

    /// A one-line description of the active configuration.
    pub fn describe(&self) -> String {
        format!(
            "report_flags = {}; debug_action = {}; log_filename = {}; message_id_filter = [{}]; \
             duplicate_message_limit = {}; message_format_json = {}; report_file = {}; \
             check_fd_leaks = {}; shared_exports_dir = {}",
            flag_names(self.report_flags).join(","),
            match action_names(self.debug_action).join(",") {
                none if none.is_empty() => "ignore".to_owned(),
                actions => actions,
            },
            self.log_filename.as_ref().map_or_else(
                || "(stderr when the app has no active messenger)".to_owned(),
                log_target_text
            ),
            self.message_id_filter.join(", "),
            self.duplicate_message_limit,
            self.message_format_json,
            self.report_file.as_deref().unwrap_or("(none)"),
            self.check_fd_leaks,
            self.shared_exports_dir.as_deref().unwrap_or("(none)")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::SETTING_NAMES;

    #[test]
    fn every_manifest_declares_every_setting_for_vulkan_configurator() {
        for manifest in [
            include_str!("../../../manifest/VkLayer_exportcheck.json"),
            include_str!("../../../manifest/implicit/VkLayer_exportcheck.json"),
            include_str!("../../../manifest/windows/VkLayer_exportcheck.json"),
            include_str!("../../../manifest/macos/VkLayer_exportcheck.json"),
        ] {
            let json: serde_json::Value = serde_json::from_str(manifest).expect("manifest JSON");
            let declared: Vec<&str> = json["layer"]["features"]["settings"]
                .as_array()
                .expect("layer.features.settings")
                .iter()
                .map(|s| s["key"].as_str().expect("key"))
                .collect();
            assert_eq!(declared, SETTING_NAMES);
        }
    }
}
