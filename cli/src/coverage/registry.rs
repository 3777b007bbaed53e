//! The Vulkan registry's valid-usage IDs, in either of two forms: the reference subset the
//! project embeds (`{"spec_version", "vuids": {id: text}}`, see `exportcheck_vuids::REGISTRY_JSON`),
//! or a full `validusage.json`: `validation` → key (a command or structure) → section (the
//! extension or version) → `[{"vuid", "text"}]`.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::Deserialize;

/// The registry keys whose VUIDs are in scope: the export commands, their info structures, and
/// the allocation-time export structures, the handle-property queries and their output structures.
pub const SCOPE: &[&str] = &[
    "vkGetMemoryFdKHR",
    "vkGetMemoryRemoteAddressNV",
    "vkGetMemoryWin32HandleNV",
    "vkGetMemoryMetalHandleEXT",
    "vkGetMemoryWin32HandleKHR",
    "vkGetMemoryZirconHandleFUCHSIA",
    "vkGetMemoryAndroidHardwareBufferANDROID",
    "VkMemoryGetFdInfoKHR",
    "VkMemoryGetRemoteAddressInfoNV",
    "VkMemoryGetMetalHandleInfoEXT",
    "VkMemoryGetWin32HandleInfoKHR",
    "VkMemoryGetZirconHandleInfoFUCHSIA",
    "VkMemoryGetAndroidHardwareBufferInfoANDROID",
    "VkExportMemoryAllocateInfo",
    "VkExportMemoryAllocateInfoNV",
    "VkExportMemoryWin32HandleInfoKHR",
    "VkExportMemoryWin32HandleInfoNV",
    "vkGetMemoryFdPropertiesKHR",
    "VkMemoryFdPropertiesKHR",
    "vkGetMemoryHostPointerPropertiesEXT",
    "VkMemoryHostPointerPropertiesEXT",
    "VkImportMemoryHostPointerInfoEXT",
    "VkImportMemoryFdInfoKHR",
    "VkImportMemoryWin32HandleInfoKHR",
    "VkImportMemoryWin32HandleInfoNV",
    "VkImportMemoryZirconHandleInfoFUCHSIA",
    "VkImportMemoryMetalHandleInfoEXT",
    "VkImportAndroidHardwareBufferInfoANDROID",
    "vkGetMemoryMetalHandlePropertiesEXT",
    "VkMemoryMetalHandlePropertiesEXT",
    "vkGetMemoryWin32HandlePropertiesKHR",
    "VkMemoryWin32HandlePropertiesKHR",
    "vkGetMemoryZirconHandlePropertiesFUCHSIA",
    "VkMemoryZirconHandlePropertiesFUCHSIA",
    "vkGetAndroidHardwareBufferPropertiesANDROID",
    "VkMemoryDedicatedAllocateInfo",
    "VkMemoryAllocateInfo",
    "vkAllocateMemory",
    "vkFreeMemory",
];

/// The command whose positive tests cover a registry key's VUIDs: a command is its own; a
/// structure maps to the command it is passed to.
#[must_use]
pub fn key_command(key: &str) -> Option<&str> {
    match key {
        "VkMemoryGetFdInfoKHR" => Some("vkGetMemoryFdKHR"),
        "VkMemoryGetRemoteAddressInfoNV" => Some("vkGetMemoryRemoteAddressNV"),
        "VkMemoryGetMetalHandleInfoEXT" => Some("vkGetMemoryMetalHandleEXT"),
        "VkMemoryGetWin32HandleInfoKHR" => Some("vkGetMemoryWin32HandleKHR"),
        "VkMemoryGetZirconHandleInfoFUCHSIA" => Some("vkGetMemoryZirconHandleFUCHSIA"),
        "VkMemoryGetAndroidHardwareBufferInfoANDROID" => {
            Some("vkGetMemoryAndroidHardwareBufferANDROID")
        }
        "VkMemoryFdPropertiesKHR" => Some("vkGetMemoryFdPropertiesKHR"),
        "VkMemoryHostPointerPropertiesEXT" => Some("vkGetMemoryHostPointerPropertiesEXT"),
        "VkMemoryMetalHandlePropertiesEXT" => Some("vkGetMemoryMetalHandlePropertiesEXT"),
        "VkMemoryWin32HandlePropertiesKHR" => Some("vkGetMemoryWin32HandlePropertiesKHR"),
        "VkMemoryZirconHandlePropertiesFUCHSIA" => Some("vkGetMemoryZirconHandlePropertiesFUCHSIA"),
        "VkExportMemoryAllocateInfo"
        | "VkExportMemoryAllocateInfoNV"
        | "VkExportMemoryWin32HandleInfoKHR"
        | "VkExportMemoryWin32HandleInfoNV"
        | "VkMemoryAllocateInfo"
        | "VkImportMemoryHostPointerInfoEXT"
        | "VkImportMemoryFdInfoKHR"
        | "VkImportMemoryWin32HandleInfoKHR"
        | "VkImportMemoryWin32HandleInfoNV"
        | "VkImportMemoryZirconHandleInfoFUCHSIA"
        | "VkImportMemoryMetalHandleInfoEXT"
        | "VkImportAndroidHardwareBufferInfoANDROID"
        | "VkMemoryDedicatedAllocateInfo" => Some("vkAllocateMemory"),
        k if k.starts_with("vk") => Some(k),
        _ => None,
    }
}

/// One VUID of the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vuid {
    /// `VUID-...`.
    pub id: String,
    /// The key it is listed under.
    pub key: String,
    /// The rule's text, without HTML.
    pub text: String,
}

/// The parts of the registry the coverage report uses.
#[derive(Debug, Default)]
pub struct Registry {
    /// `"version info"."api version"`, e.g. `1.3.239`.
    pub api_version: Option<String>,
    /// The in-scope VUIDs ([`SCOPE`]), key by key in [`SCOPE`] order, each once.
    pub in_scope: Vec<Vuid>,
    /// Every VUID of the registry, in scope or not.
    pub all: HashSet<String>,
}

/// The embedded reference subset: each ID's key is its second component.
#[derive(Deserialize)]
struct Subset {
    spec_version: String,
    vuids: BTreeMap<String, Option<String>>,
}

#[derive(Deserialize)]
struct File {
    #[serde(rename = "version info", default)]
    version: Option<VersionInfo>,
    validation: BTreeMap<String, BTreeMap<String, Vec<RawVuid>>>,
}

#[derive(Deserialize)]
struct VersionInfo {
    #[serde(rename = "api version", default)]
    api_version: Option<String>,
}

#[derive(Deserialize)]
struct RawVuid {
    vuid: String,
    #[serde(default)]
    text: String,
}

impl Registry {
    /// Parses `validusage.json` text.
    ///
    /// # Errors
    ///
    /// When it is not JSON of that shape.
    pub fn parse(text: &str) -> Result<Self, String> {
        if let Ok(subset) = serde_json::from_str::<Subset>(text) {
            return Ok(Self::from_subset(subset));
        }
        let file: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut registry = Registry {
            api_version: file.version.and_then(|v| v.api_version),
            ..Registry::default()
        };
        for sections in file.validation.values() {
            for v in sections.values().flatten() {
                registry.all.insert(v.vuid.clone());
            }
        }
        let mut seen = HashSet::new();
        for &key in SCOPE {
            let Some(sections) = file.validation.get(key) else {
                continue;
            };
            for v in sections.values().flatten() {
                if seen.insert(v.vuid.clone()) {
                    registry.in_scope.push(Vuid {
                        id: v.vuid.clone(),
                        key: key.to_owned(),
                        text: strip_html(&v.text),
                    });
                }
            }
        }
        Ok(registry)
    }

    /// The embedded subset's form: each ID is listed under its second component.
    fn from_subset(subset: Subset) -> Self {
        let mut registry = Registry {
            api_version: Some(subset.spec_version),
            all: subset.vuids.keys().cloned().collect(),
            ..Registry::default()
        };
        for &key in SCOPE {
            for (id, text) in &subset.vuids {
                if id.split('-').nth(1) == Some(key) {
                    registry.in_scope.push(Vuid {
                        id: id.clone(),
                        key: key.to_owned(),
                        text: text.as_deref().map(strip_html).unwrap_or_default(),
                    });
                }
            }
        }
        registry
    }

    /// The registry embedded in the project (the current spec's IDs of the surface).
    #[must_use]
    pub fn embedded() -> Self {
        let mut registry =
            Self::parse(exportcheck_vuids::REGISTRY_JSON).expect("the embedded registry parses");
        // The sync-and-resources registry: its IDs are current spec IDs (the bind-time
        // handle-type rules the catalog checks are there), its keys outside the scope; and so
        // are the implicit rules both leave out (an output structure's sType, say).
        let resources = Self::parse(exportcheck_vuids::RESOURCES_REGISTRY_JSON)
            .expect("the embedded resources registry parses");
        registry.all.extend(resources.all);
        let implicit = Self::parse(exportcheck_vuids::IMPLICIT_REGISTRY_JSON)
            .expect("the embedded implicit registry parses");
        registry.all.extend(implicit.all);
        registry
    }

    /// Reads and parses the file at `path`.
    ///
    /// # Errors
    ///
    /// A message for the user when it cannot be read or parsed.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read the Vulkan registry {}: {e} (leave out --registry to use the one \
                 built in)",
                path.display()
            )
        })?;
        Self::parse(&text).map_err(|e| format!("{} is not a validusage.json: {e}", path.display()))
    }
}

/// The registry's HTML text as plain text: tags dropped, entities decoded, whitespace collapsed.
#[must_use]
pub fn strip_html(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let decoded = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#8217;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small registry in the real file's shape.
    pub(crate) const SYNTHETIC: &str = r#"{
      "version info": {"schema version": 2, "api version": "1.3.239"},
      "validation": {
        "vkGetMemoryFdKHR": {"(VK_KHR_external_memory_fd)": [
          {"vuid": "VUID-vkGetMemoryFdKHR-pFd-parameter", "text": "<code>pFd</code> <strong class=\"purple\">must</strong> be a valid pointer"}
        ]},
        "VkMemoryGetFdInfoKHR": {
          "(VK_KHR_external_memory_fd)": [
            {"vuid": "VUID-VkMemoryGetFdInfoKHR-handleType-00671", "text": "a &amp; b"},
            {"vuid": "VUID-VkMemoryGetFdInfoKHR-sType-sType", "text": "sType"}
          ],
          "core": [{"vuid": "VUID-VkMemoryGetFdInfoKHR-handleType-00671", "text": "dup"}]
        },
        "VkExportMemoryAllocateInfo": {"(VK_VERSION_1_1,VK_KHR_external_memory)": [
          {"vuid": "VUID-VkExportMemoryAllocateInfo-handleTypes-09860", "text": "compatible"}
        ]},
        "vkAllocateMemory": {"core": [
          {"vuid": "VUID-vkAllocateMemory-pMemory-parameter", "text": "out of scope"}
        ]}
      }
    }"#;

    #[test]
    fn the_embedded_subset_lists_each_id_under_its_key() {
        let r = Registry::embedded();
        assert_eq!(r.api_version.as_deref(), Some("1.4.360"));
        let find = |id: &str| r.in_scope.iter().find(|v| v.id == id);
        let renamed = find("VUID-VkExportMemoryAllocateInfo-handleTypes-09860").expect("in scope");
        assert_eq!(renamed.key, "VkExportMemoryAllocateInfo");
        assert!(
            renamed.text.contains("supported and compatible"),
            "{}",
            renamed.text
        );
        assert!(find("VUID-VkExportMemoryAllocateInfo-handleTypes-00656").is_none());
        assert_eq!(
            find("VUID-vkGetMemoryFdKHR-pFd-parameter").unwrap().key,
            "vkGetMemoryFdKHR"
        );
        // Out of scope, but known.
        assert!(find("VUID-VkExternalMemoryBufferCreateInfo-handleTypes-parameter").is_none());
        assert!(r
            .all
            .contains("VUID-VkExternalMemoryBufferCreateInfo-handleTypes-parameter"));
    }

    #[test]
    fn parses_the_keys_in_scope_once_each() {
        let r = Registry::parse(SYNTHETIC).unwrap();
        assert_eq!(r.api_version.as_deref(), Some("1.3.239"));
        let ids: Vec<(&str, &str)> = r
            .in_scope
            .iter()
            .map(|v| (v.key.as_str(), v.id.as_str()))
            .collect();
        assert_eq!(
            ids,
            [
                ("vkGetMemoryFdKHR", "VUID-vkGetMemoryFdKHR-pFd-parameter"),
                (
                    "VkMemoryGetFdInfoKHR",
                    "VUID-VkMemoryGetFdInfoKHR-handleType-00671"
                ),
                (
                    "VkMemoryGetFdInfoKHR",
                    "VUID-VkMemoryGetFdInfoKHR-sType-sType"
                ),
                (
                    "VkExportMemoryAllocateInfo",
                    "VUID-VkExportMemoryAllocateInfo-handleTypes-09860"
                ),
                (
                    "vkAllocateMemory",
                    "VUID-vkAllocateMemory-pMemory-parameter"
                ),
            ]
        );
        assert_eq!(r.in_scope[0].text, "pFd must be a valid pointer");
        assert!(r.all.contains("VUID-vkAllocateMemory-pMemory-parameter"));
        assert_eq!(r.all.len(), 5);
    }

    #[test]
    fn rejects_other_json() {
        assert!(Registry::parse("{}").is_err());
        assert!(Registry::parse("[1]").is_err());
        assert!(Registry::load(Path::new("/nonexistent/validusage.json"))
            .unwrap_err()
            .contains("built in"));
    }

    #[test]
    fn keys_map_to_commands() {
        assert_eq!(
            key_command("VkMemoryGetFdInfoKHR"),
            Some("vkGetMemoryFdKHR")
        );
        assert_eq!(
            key_command("VkExportMemoryAllocateInfoNV"),
            Some("vkAllocateMemory")
        );
        assert_eq!(
            key_command("vkGetMemoryWin32HandleNV"),
            Some("vkGetMemoryWin32HandleNV")
        );
        assert_eq!(key_command("VkSomethingElse"), None);
        for &key in SCOPE {
            assert!(key_command(key).is_some(), "{key}");
        }
    }

    #[test]
    fn html_is_stripped() {
        assert_eq!(
            strip_html("<code>a</code>  &lt;b&gt;\n<a href=\"#x\">c</a> &amp;amp;"),
            "a <b> c &amp;"
        );
    }
}
