//! The `settings` target: arbitrary `VkLayerSettingsCreateInfoEXT` chains, environment
//! variables and `vk_layer_settings.txt` text, through the three sources, the parser and the
//! resolver.
//!
//! Properties:
//! - nothing panics;
//! - `read_layer_settings` returns exactly this layer's settings of every settings structure of
//!   the chain, in order, each value as the reference prints it (lists joined with commas);
//! - `from_env` returns the set variables of known settings, in `SETTING_NAMES` order;
//! - `from_file_text` returns only `exportcheck_validation.` lines, numbered from 1 in order,
//!   with values cut at `#` and trimmed;
//! - `resolve` keeps, for each setting, the first source's value that parses (API, then
//!   environment, then file), and warns once for each unknown name and each refused value that
//!   was not already set, each warning starting with where the value came from;
//! - round trip: the resolved settings, written back as text (`flag_names`, `action_names`,
//!   `log_target_text`, ...), resolve to the same settings without a warning, and `describe()`
//!   is the same and shows each value.

use crate::layer;
use arbitrary::Arbitrary;
use ash::vk;
use layer::settings::sources::{self, LAYER_NAME};
use layer::settings::{
    action_names, flag_names, log_target_text, parse_setting, RawSetting, Settings, SETTING_NAMES,
};
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};

/// A setting name: one of the layer's, or any text.
#[derive(Arbitrary, Debug, Clone)]
pub enum NameIn {
    Known(u8),
    Raw(String),
}

impl NameIn {
    fn text(&self) -> String {
        match self {
            NameIn::Known(i) => SETTING_NAMES[usize::from(*i) % SETTING_NAMES.len()].to_owned(),
            NameIn::Raw(s) => s.clone(),
        }
    }
}

#[derive(Arbitrary, Debug)]
pub enum LayerIn {
    Ours,
    Null,
    Other(String),
}

/// `pValues` of one `VkLayerSettingEXT`, with its type.
#[derive(Arbitrary, Debug)]
pub enum ValuesIn {
    Null { ty: i32, count: u8 },
    Bool32(Vec<u32>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Uint32(Vec<u32>),
    Uint64(Vec<u64>),
    Float32(Vec<f32>),
    Float64(Vec<f64>),
    Strings(Vec<Option<String>>),
    UnknownType { ty: i32, count: u8 },
}

#[derive(Arbitrary, Debug)]
pub struct ApiSettingIn {
    pub layer: LayerIn,
    /// `None`: `pSettingName` is NULL.
    pub name: Option<NameIn>,
    pub values: ValuesIn,
}

/// One `VkLayerSettingsCreateInfoEXT` of the chain; `None`: `pSettings` is NULL.
pub type ApiStructIn = Option<Vec<ApiSettingIn>>;

#[derive(Arbitrary, Debug)]
pub struct Input {
    /// Environment variables: a setting's variable (`VK_EXPORTCHECK_VALIDATION_...`) or any name.
    pub env: Vec<(NameIn, bool, String)>,
    /// The settings structures chained to `VkInstanceCreateInfo`, in order.
    pub api: Vec<ApiStructIn>,
    /// The text of `vk_layer_settings.txt` (the rest of the input).
    pub file_text: String,
}

fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "")).expect("no NUL")
}

/// Owns the memory of the settings structures: they point into it.
#[derive(Default)]
struct ApiMemory {
    strings: Vec<CString>,
    bytes: Vec<Vec<u64>>,
    pointers: Vec<Vec<*const c_char>>,
    settings: Vec<Vec<vk::LayerSettingEXT<'static>>>,
    structs: Vec<vk::LayerSettingsCreateInfoEXT<'static>>,
}

impl ApiMemory {
    fn string(&mut self, s: &str) -> *const c_char {
        self.strings.push(c_string(s));
        self.strings.last().expect("pushed").as_ptr()
    }

    /// A buffer of `values` (as 64-bit words, so any type is aligned) and their count.
    fn values<T: Copy>(&mut self, values: &[T]) -> (*const c_void, u32) {
        let words = std::mem::size_of_val(values).div_ceil(8);
        let mut buffer = vec![0u64; words.max(1)];
        // SAFETY: the buffer holds at least size_of_val(values) bytes; T is plain data.
        unsafe {
            std::ptr::copy_nonoverlapping(
                values.as_ptr().cast::<u8>(),
                buffer.as_mut_ptr().cast::<u8>(),
                std::mem::size_of_val(values),
            );
        }
        let p = buffer.as_ptr().cast();
        self.bytes.push(buffer);
        (p, values.len() as u32)
    }
}

/// The values as the reference prints them.
fn expected_values(values: &ValuesIn) -> Vec<String> {
    fn all<T: ToString>(v: &[T]) -> Vec<String> {
        v.iter().map(T::to_string).collect()
    }
    match values {
        ValuesIn::Null { .. } | ValuesIn::UnknownType { .. } => Vec::new(),
        ValuesIn::Bool32(v) => v.iter().map(|b| (*b != 0).to_string()).collect(),
        ValuesIn::Int32(v) => all(v),
        ValuesIn::Int64(v) => all(v),
        ValuesIn::Uint32(v) => all(v),
        ValuesIn::Uint64(v) => all(v),
        ValuesIn::Float32(v) => all(v),
        ValuesIn::Float64(v) => all(v),
        ValuesIn::Strings(v) => v.iter().flatten().map(|s| s.replace('\0', "")).collect(),
    }
}

/// Lays the settings structures out in memory, chained in order, and returns the head of the
/// chain and what `read_layer_settings` must return.
fn build_api(input: &Input, memory: &mut ApiMemory) -> (*const c_void, Vec<RawSetting>) {
    let mut expected = Vec::new();
    for structure in input.api.iter().take(4) {
        let mut settings = Vec::new();
        for s in structure.iter().flatten().take(16) {
            let layer_text = match &s.layer {
                LayerIn::Ours => Some(LAYER_NAME.to_owned()),
                LayerIn::Null => None,
                LayerIn::Other(name) => Some(name.replace('\0', "")),
            };
            let layer_name = match &layer_text {
                Some(name) => memory.string(name),
                None => std::ptr::null(),
            };
            let name = s.name.as_ref().map(|n| n.text().replace('\0', ""));
            let setting_name = match &name {
                Some(n) => memory.string(n),
                None => std::ptr::null(),
            };
            let (ty, (p_values, count)) = match &s.values {
                ValuesIn::Null { ty, count } => (*ty, (std::ptr::null(), u32::from(*count))),
                ValuesIn::Bool32(v) => (0, memory.values(v)),
                ValuesIn::Int32(v) => (1, memory.values(v)),
                ValuesIn::Int64(v) => (2, memory.values(v)),
                ValuesIn::Uint32(v) => (3, memory.values(v)),
                ValuesIn::Uint64(v) => (4, memory.values(v)),
                ValuesIn::Float32(v) => (5, memory.values(v)),
                ValuesIn::Float64(v) => (6, memory.values(v)),
                ValuesIn::Strings(v) => {
                    let pointers: Vec<*const c_char> = v
                        .iter()
                        .map(|s| match s {
                            Some(s) => memory.string(s),
                            None => std::ptr::null(),
                        })
                        .collect();
                    let (p, n) = (pointers.as_ptr().cast(), pointers.len() as u32);
                    memory.pointers.push(pointers);
                    (7, (p, n))
                }
                ValuesIn::UnknownType { ty, count } => {
                    // Outside BOOL32..STRING, so the layer reads no value.
                    let ty = if (0..=7).contains(ty) { ty + 8 } else { *ty };
                    let (p, _) = memory.values(&[0u64]);
                    (ty, (p, u32::from(*count)))
                }
            };
            settings.push(vk::LayerSettingEXT {
                p_layer_name: layer_name,
                p_setting_name: setting_name,
                ty: vk::LayerSettingTypeEXT::from_raw(ty),
                value_count: count,
                p_values,
                ..Default::default()
            });
            // Another layer's name may be ours too (spelled out, or with NULs the C string drops).
            if layer_text.as_deref() == Some(LAYER_NAME) {
                if let Some(name) = name {
                    expected.push(RawSetting {
                        name,
                        value: expected_values(&s.values).join(","),
                        source: "VkLayerSettingsCreateInfoEXT".to_owned(),
                    });
                }
            }
        }
        let mut info = vk::LayerSettingsCreateInfoEXT::default();
        if structure.is_some() {
            info.setting_count = settings.len() as u32;
            info.p_settings = settings.as_ptr();
        }
        memory.settings.push(settings);
        memory.structs.push(info);
    }
    // Chain them in order (the vector no longer grows, so the addresses hold).
    let base = memory.structs.as_mut_ptr();
    let n = memory.structs.len();
    for i in 0..n.saturating_sub(1) {
        // SAFETY: i + 1 < n.
        memory.structs[i].p_next = unsafe { base.add(i + 1) }.cast_const().cast();
    }
    let head = if n == 0 {
        std::ptr::null()
    } else {
        base.cast_const().cast()
    };
    (head, expected)
}

fn check_file(text: &str, raws: &[RawSetting]) {
    let lines = text.lines().count();
    let mut last = 0;
    for raw in raws {
        let line: usize = raw
            .source
            .strip_prefix("vk_layer_settings.txt:")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("source {}", raw.source));
        assert!(line > last && line <= lines, "line {line} of {lines}");
        last = line;
        assert!(!raw.value.contains('#'), "a comment in the value");
        assert_eq!(raw.value, raw.value.trim());
        assert!(!raw.name.contains('='));
    }
}

/// The reference resolution: for each setting, the first value that parses; a warning for each
/// unknown name and each refused value of a setting not set yet.
fn reference_resolve(all: &[&RawSetting]) -> (Settings, Vec<String>) {
    let mut settings = Settings::default();
    let mut warned_sources = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    for raw in all {
        let Some(name) = SETTING_NAMES.iter().find(|n| **n == raw.name) else {
            warned_sources.push(raw.source.clone());
            continue;
        };
        if done.contains(name) {
            continue;
        }
        let mut alone = Settings::default();
        if parse_setting(&mut alone, name, &raw.value).is_ok() {
            done.push(name);
            parse_setting(&mut settings, name, &raw.value).expect("parsed once already");
        } else {
            warned_sources.push(raw.source.clone());
        }
    }
    (settings, warned_sources)
}

/// Each setting of `s` as text its parser takes back.
fn as_text(s: &Settings) -> Vec<RawSetting> {
    let raw = |name: &str, value: String| RawSetting {
        name: name.to_owned(),
        value,
        source: "round trip".to_owned(),
    };
    vec![
        raw("report_flags", flag_names(s.report_flags).join(",")),
        raw("debug_action", action_names(s.debug_action).join(",")),
        raw(
            "log_filename",
            s.log_filename
                .as_ref()
                .map_or_else(String::new, log_target_text),
        ),
        raw("message_id_filter", s.message_id_filter.join(",")),
        raw(
            "duplicate_message_limit",
            s.duplicate_message_limit.to_string(),
        ),
        raw("message_format_json", s.message_format_json.to_string()),
        raw("report_file", s.report_file.clone().unwrap_or_default()),
        raw("check_fd_leaks", s.check_fd_leaks.to_string()),
        raw(
            "shared_exports_dir",
            s.shared_exports_dir.clone().unwrap_or_default(),
        ),
    ]
}

/// Runs the three sources and the resolver; panics when a property does not hold. Returns
/// labels (`api:NAME`, `env:NAME`, `file:NAME` for each value that won, `warning:SOURCE`), for
/// the seed generator.
pub fn run(input: &Input) -> Vec<String> {
    // VkLayerSettingsCreateInfoEXT.
    let mut memory = ApiMemory::default();
    let (head, expected_api) = build_api(input, &mut memory);
    // SAFETY: a chain of live settings structures whose arrays match their counts and types.
    let api = unsafe { layer::raw::read_layer_settings(head) };
    assert_eq!(api, expected_api, "read_layer_settings");

    // The environment.
    let vars: HashMap<String, String> = input
        .env
        .iter()
        .map(|(name, as_variable, value)| {
            let var = if *as_variable {
                sources::env_name(&name.text())
            } else {
                name.text()
            };
            (var, value.clone())
        })
        .collect();
    let env = sources::from_env(|var| vars.get(var).cloned());
    let expected_env: Vec<RawSetting> = SETTING_NAMES
        .iter()
        .filter_map(|name| {
            let var = sources::env_name(name);
            assert_eq!(
                var,
                format!("VK_EXPORTCHECK_VALIDATION_{}", name.to_uppercase())
            );
            vars.get(&var).map(|value| RawSetting {
                name: (*name).to_owned(),
                value: value.clone(),
                source: var,
            })
        })
        .collect();
    assert_eq!(env, expected_env, "from_env");

    // vk_layer_settings.txt.
    let file = sources::from_file_text(&input.file_text, "vk_layer_settings.txt");
    check_file(&input.file_text, &file);

    // Resolution.
    let all_sources = [api, env, file];
    let (settings, warnings) = Settings::resolve(&all_sources);
    let all: Vec<&RawSetting> = all_sources.iter().flatten().collect();
    let (expected, warned_sources) = reference_resolve(&all);
    assert_eq!(settings, expected, "resolve: another value won");
    assert_eq!(warnings.len(), warned_sources.len(), "{warnings:#?}");
    for (w, source) in warnings.iter().zip(&warned_sources) {
        assert!(w.starts_with(&format!("{source}: ")), "{w}");
    }

    // Round trip.
    let (again, warnings) = Settings::resolve(&[as_text(&settings)]);
    assert!(warnings.is_empty(), "round trip refused: {warnings:#?}");
    assert_eq!(again, settings, "round trip");
    let describe = settings.describe();
    assert_eq!(again.describe(), describe);
    for part in [
        format!(
            "report_flags = {};",
            flag_names(settings.report_flags).join(",")
        ),
        format!(
            "duplicate_message_limit = {};",
            settings.duplicate_message_limit
        ),
        format!("message_format_json = {};", settings.message_format_json),
        format!("check_fd_leaks = {}", settings.check_fd_leaks),
        format!(
            "message_id_filter = [{}];",
            settings.message_id_filter.join(", ")
        ),
    ] {
        assert!(describe.contains(&part), "{part} not in {describe}");
    }
    for id in layer::vuid::ALL {
        if settings.message_id_filter.iter().any(|f| f == id) {
            assert!(settings.is_muted(id), "{id} is in the filter");
        }
        if settings.message_id_filter.is_empty() {
            assert!(!settings.is_muted(id));
        }
    }

    let mut labels: Vec<String> = warned_sources
        .iter()
        .map(|s| format!("warning:{}", s.split([':', '_']).next().unwrap_or("")))
        .collect();
    for name in SETTING_NAMES {
        if let Some(winner) = all.iter().find(|r| {
            r.name == *name && parse_setting(&mut Settings::default(), name, &r.value).is_ok()
        }) {
            let source = match winner.source.as_str() {
                "VkLayerSettingsCreateInfoEXT" => "api",
                s if s.starts_with("VK_") => "env",
                _ => "file",
            };
            labels.push(format!("{source}:{name}"));
        }
    }
    labels
}
