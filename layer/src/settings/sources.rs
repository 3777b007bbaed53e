//! The three sources of settings. `VkLayerSettingsCreateInfoEXT` is read in `raw` (it is app
//! memory); the environment and the settings file here.

use super::{RawSetting, SETTING_NAMES};
use std::path::{Path, PathBuf};

/// The layer's name in `VkLayerSettingEXT::pLayerName`.
pub const LAYER_NAME: &str = "VK_LAYER_EXPORTCHECK_validation";
/// The prefix of settings in `vk_layer_settings.txt` (the layer name without `VK_LAYER_`,
/// lower-cased, as the Khronos layer's `khronos_validation.`).
pub const FILE_PREFIX: &str = "exportcheck_validation.";
/// The prefix of environment variables (as the Khronos layer's `VK_KHRONOS_VALIDATION_`).
pub const ENV_PREFIX: &str = "VK_EXPORTCHECK_VALIDATION_";

/// The environment variable of a setting: `VK_EXPORTCHECK_VALIDATION_REPORT_FILE`.
pub fn env_name(setting: &str) -> String {
    format!("{ENV_PREFIX}{}", setting.to_ascii_uppercase())
}

/// Settings from environment variables, via `get` (the process environment in the layer).
pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Vec<RawSetting> {
    SETTING_NAMES
        .iter()
        .filter_map(|name| {
            let var = env_name(name);
            get(&var).map(|value| RawSetting {
                name: (*name).to_owned(),
                value,
                source: var,
            })
        })
        .collect()
}

/// A warning for each setting's environment variable that is set but not UTF-8 (`not_unicode`
/// says which are): its value cannot be read, and the setting keeps its default, which the user
/// is told (a report path under a non-UTF-8 directory, silently dropped, would lose every
/// finding of the process).
pub fn unreadable_env(not_unicode: impl Fn(&str) -> bool) -> Vec<String> {
    SETTING_NAMES
        .iter()
        .map(|name| env_name(name))
        .filter(|var| not_unicode(var))
        .map(|var| {
            format!(
                "{var}: the value is not UTF-8 and cannot be read; the setting keeps its default"
            )
        })
        .collect()
}

/// Where `vk_layer_settings.txt` is: `VK_LAYER_SETTINGS_PATH` (a file, or the directory that
/// holds it), else the working directory.
pub fn settings_file_path(settings_path_var: Option<String>) -> PathBuf {
    match settings_path_var {
        Some(p) if Path::new(&p).is_dir() => Path::new(&p).join("vk_layer_settings.txt"),
        Some(p) => PathBuf::from(p),
        None => PathBuf::from("vk_layer_settings.txt"),
    }
}

/// Settings of this layer in the text of a `vk_layer_settings.txt`; other layers' lines, blank
/// lines and `#` comments are skipped.
pub fn from_file_text(text: &str, file: &str) -> Vec<RawSetting> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or("").trim();
            let (key, value) = line.split_once('=')?;
            let name = key.trim().strip_prefix(FILE_PREFIX)?;
            Some(RawSetting {
                name: name.to_owned(),
                value: value.trim().to_owned(),
                source: format!("{file}:{}", i + 1),
            })
        })
        .collect()
}

/// Reads the settings file, if there is one.
pub fn from_file(path: &Path) -> Vec<RawSetting> {
    match std::fs::read_to_string(path) {
        Ok(text) => from_file_text(&text, &path.display().to_string()),
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_setting_whose_variable_is_not_utf8_is_named_in_a_warning() {
        let report = env_name("report_file");
        let warnings = unreadable_env(|var| var == report);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with(&report) && warnings[0].contains("not UTF-8"));
        assert!(unreadable_env(|_| false).is_empty());
    }

    use super::*;

    #[test]
    fn environment_names_follow_the_khronos_convention() {
        assert_eq!(
            env_name("report_file"),
            "VK_EXPORTCHECK_VALIDATION_REPORT_FILE"
        );
        let env =
            from_env(|v| (v == "VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION").then(|| "fail".into()));
        assert_eq!(env.len(), 1);
        assert_eq!(
            (env[0].name.as_str(), env[0].value.as_str()),
            ("debug_action", "fail")
        );
    }

    #[test]
    fn the_file_format_takes_only_this_layers_lines() {
        let text = "# comment\nkhronos_validation.debug_action = VK_DBG_LAYER_ACTION_BREAK\n\
                    exportcheck_validation.debug_action = fail # trailing\n\n\
                    exportcheck_validation.report_flags=error,warn\n";
        let s = from_file_text(text, "vk_layer_settings.txt");
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].name.as_str(), s[0].value.as_str()),
            ("debug_action", "fail")
        );
        assert_eq!(s[0].source, "vk_layer_settings.txt:3");
        assert_eq!(s[1].value, "error,warn");
    }
}
