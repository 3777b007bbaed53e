//! Parsing setting values. Accepts the Khronos layer's spellings (`VK_DBG_LAYER_ACTION_LOG_MSG`,
//! `true`/`false`, comma-separated lists) and short ones (`log`, `1`/`0`).

use super::values::{DebugActions, LogTarget, ReportFlags, Settings};
use std::fmt;

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingError(pub String);

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn list(value: &str) -> impl Iterator<Item = &str> {
    value
        .split([',', ';', ':'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

pub(super) fn parse_int(value: &str) -> Option<i64> {
    let v = value.trim();
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

fn parse_bool(value: &str) -> Result<bool, SettingError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => Err(SettingError("not a boolean (true or false)".to_owned())),
    }
}

/// Sets one setting of `settings` from its text value.
pub fn parse_setting(settings: &mut Settings, name: &str, value: &str) -> Result<(), SettingError> {
    match name {
        "report_flags" => {
            let mut flags = ReportFlags {
                error: false,
                warn: false,
                info: false,
            };
            for item in list(value) {
                match item.to_ascii_lowercase().as_str() {
                    "error" => flags.error = true,
                    "warn" | "warning" => flags.warn = true,
                    "info" => flags.info = true,
                    // The Khronos layer's other flags have no findings here.
                    "perf" | "debug" | "verbose" => {}
                    other => {
                        return Err(SettingError(format!(
                            "`{other}` is not one of error, warn, info"
                        )))
                    }
                }
            }
            settings.report_flags = flags;
        }
        "debug_action" => {
            let mut actions = DebugActions {
                log: false,
                callback: false,
                break_: false,
                fail: false,
            };
            for item in list(value) {
                let short = item.strip_prefix("VK_DBG_LAYER_ACTION_").unwrap_or(item);
                match short.to_ascii_lowercase().as_str() {
                    "log" | "log_msg" => actions.log = true,
                    "callback" => actions.callback = true,
                    "break" => actions.break_ = true,
                    "fail" => actions.fail = true,
                    "default" => {
                        actions.log = true;
                        actions.callback = true;
                    }
                    "ignore" | "debug_output" => {}
                    other => {
                        return Err(SettingError(format!(
                            "`{other}` is not one of log, callback, break, fail, ignore \
                             (or VK_DBG_LAYER_ACTION_*)"
                        )))
                    }
                }
            }
            settings.debug_action = actions;
        }
        "log_filename" => {
            let v = value.trim();
            settings.log_filename = match v {
                "" => None,
                "stderr" => Some(LogTarget::Stderr),
                "stdout" => Some(LogTarget::Stdout),
                path => Some(LogTarget::File(path.to_owned())),
            };
        }
        "message_id_filter" => {
            settings.message_id_filter = list(value).map(str::to_owned).collect()
        }
        "duplicate_message_limit" => {
            settings.duplicate_message_limit = parse_int(value)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| SettingError("not a count (0 = no limit)".to_owned()))?;
        }
        "message_format_json" => settings.message_format_json = parse_bool(value)?,
        "report_file" => {
            let v = value.trim();
            settings.report_file = (!v.is_empty()).then(|| v.to_owned());
        }
        "check_fd_leaks" => settings.check_fd_leaks = parse_bool(value)?,
        "shared_exports_dir" => {
            let v = value.trim();
            settings.shared_exports_dir = (!v.is_empty()).then(|| v.to_owned());
        }
        other => return Err(SettingError(format!("unknown setting `{other}`"))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::RawSetting;
    use super::*;

    fn raw(name: &str, value: &str, source: &str) -> RawSetting {
        RawSetting {
            name: name.into(),
            value: value.into(),
            source: source.into(),
        }
    }

    #[test]
    fn defaults_match_the_khronos_layer_where_meaningful() {
        let s = Settings::default();
        assert!(s.report_flags.error && s.report_flags.warn && !s.report_flags.info);
        assert!(s.debug_action.log && s.debug_action.callback && !s.debug_action.fail);
        assert_eq!(s.duplicate_message_limit, 10);
    }

    #[test]
    fn parses_every_setting_in_both_spellings() {
        let (s, warnings) = Settings::resolve(&[vec![
            raw("report_flags", "error,info", "env"),
            raw("debug_action", "VK_DBG_LAYER_ACTION_LOG_MSG,fail", "env"),
            raw("log_filename", "/tmp/x.log", "env"),
            raw("message_id_filter", "VUID-a, VUID-b", "env"),
            raw("duplicate_message_limit", "0x20", "env"),
            raw("message_format_json", "true", "env"),
            raw("report_file", "/tmp/r-%p.json", "env"),
        ]]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            s.report_flags,
            ReportFlags {
                error: true,
                warn: false,
                info: true
            }
        );
        assert_eq!(
            s.debug_action,
            DebugActions {
                log: true,
                callback: false,
                break_: false,
                fail: true
            }
        );
        assert_eq!(s.log_filename, Some(LogTarget::File("/tmp/x.log".into())));
        assert_eq!(s.message_id_filter, ["VUID-a", "VUID-b"]);
        assert_eq!(s.duplicate_message_limit, 32);
        assert!(s.message_format_json);
        assert_eq!(s.report_file.as_deref(), Some("/tmp/r-%p.json"));
    }

    #[test]
    fn the_first_source_wins() {
        let (s, _) = Settings::resolve(&[
            vec![raw("duplicate_message_limit", "3", "api")],
            vec![
                raw("duplicate_message_limit", "4", "env"),
                raw("report_file", "b", "env"),
            ],
            vec![raw("report_file", "c", "file")],
        ]);
        assert_eq!(s.duplicate_message_limit, 3);
        assert_eq!(s.report_file.as_deref(), Some("b"));
    }

    #[test]
    fn bad_values_warn_and_keep_the_default_and_a_later_source_may_set_it() {
        let (s, warnings) = Settings::resolve(&[
            vec![
                raw("debug_action", "explode", "api"),
                raw("colour", "red", "api"),
            ],
            vec![raw("debug_action", "fail", "env")],
        ]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].contains("debug_action = `explode`"),
            "{warnings:?}"
        );
        assert!(
            warnings[1].contains("unknown setting `colour`"),
            "{warnings:?}"
        );
        assert!(s.debug_action.fail);
        let (s, warnings) = Settings::resolve(&[vec![raw("duplicate_message_limit", "-1", "x")]]);
        assert_eq!(s.duplicate_message_limit, 10);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn muting_by_id_or_number() {
        let id = "VUID-VkMemoryGetFdInfoKHR-handleType-00671";
        let number = crate::vuid::message_id_number(id);
        let mut s = Settings::default();
        assert!(!s.is_muted(id));
        s.message_id_filter = vec![id.to_owned()];
        assert!(s.is_muted(id));
        s.message_id_filter = vec![format!("0x{:x}", number as u32)];
        assert!(s.is_muted(id));
        s.message_id_filter = vec![number.to_string()];
        assert!(s.is_muted(id));
        assert!(!s.is_muted("VUID-other"));
    }
}
