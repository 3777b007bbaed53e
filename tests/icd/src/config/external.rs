//! The `external_memory` part of the configuration (older name: `external_buffer`): per handle
//! type, the `VkExternalMemoryProperties` reported for buffers
//! (`vkGetPhysicalDeviceExternalBufferProperties`) and for images
//! (`VkExternalImageFormatProperties` of `vkGetPhysicalDeviceImageFormatProperties2`), which
//! usages make it non-exportable, and whether it needs a dedicated allocation.

use ash::vk;
use serde::Deserialize;
use std::collections::BTreeMap;

use super::{FlagNames, RawFlags, EXTERNAL_MEMORY_FEATURE, HANDLE_TYPE};

const EXPORTABLE: u32 = vk::ExternalMemoryFeatureFlags::EXPORTABLE.as_raw();
const IMPORTABLE: u32 = vk::ExternalMemoryFeatureFlags::IMPORTABLE.as_raw();
const DEDICATED_ONLY: u32 = vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY.as_raw();

/// `VkExternalMemoryProperties` for one handle type and one kind of resource.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExternalMemory {
    pub features: u32,
    pub compatible: u32,
    pub export_from_imported: u32,
}

impl ExternalMemory {
    /// Whether the handle type can be used at all (exported or imported).
    pub fn is_supported(&self) -> bool {
        self.features & (EXPORTABLE | IMPORTABLE) != 0
    }

    pub fn is_dedicated_only(&self) -> bool {
        self.features & DEDICATED_ONLY != 0
    }

    /// The same properties without `EXPORTABLE`.
    fn not_exportable(self) -> Self {
        ExternalMemory {
            features: self.features & !EXPORTABLE,
            ..self
        }
    }
}

/// Everything the driver reports for one handle type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandleTypeSupport {
    pub buffers: ExternalMemory,
    pub images: ExternalMemory,
    /// Buffer usage bits any of which makes the handle type non-exportable for that buffer.
    pub buffer_usage_not_exportable: u32,
    /// Image usage bits any of which makes the handle type non-exportable for that image.
    pub image_usage_not_exportable: u32,
}

impl HandleTypeSupport {
    /// The same properties for buffers and images, for every usage.
    pub fn same(properties: ExternalMemory) -> Self {
        HandleTypeSupport {
            buffers: properties,
            images: properties,
            buffer_usage_not_exportable: 0,
            image_usage_not_exportable: 0,
        }
    }

    /// What is reported for a buffer of `usage` (`VkBufferUsageFlags`).
    pub fn for_buffer(&self, usage: u32) -> ExternalMemory {
        if usage & self.buffer_usage_not_exportable != 0 {
            self.buffers.not_exportable()
        } else {
            self.buffers
        }
    }

    /// What is reported for an image of `usage` (`VkImageUsageFlags`).
    pub fn for_image(&self, usage: u32) -> ExternalMemory {
        if usage & self.image_usage_not_exportable != 0 {
            self.images.not_exportable()
        } else {
            self.images
        }
    }
}

/// Properties in JSON: each field optional.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawProperties {
    #[serde(default)]
    features: Option<RawFlags>,
    #[serde(default)]
    compatible: Option<RawFlags>,
    #[serde(default)]
    export_from_imported: Option<RawFlags>,
}

/// One handle type's entry in JSON: shared properties, per-kind overrides, usage exceptions.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHandleType {
    #[serde(default)]
    features: Option<RawFlags>,
    #[serde(default)]
    compatible: Option<RawFlags>,
    #[serde(default)]
    export_from_imported: Option<RawFlags>,
    #[serde(default)]
    buffers: Option<RawProperties>,
    #[serde(default)]
    images: Option<RawProperties>,
    #[serde(default)]
    buffer_usage_not_exportable: Option<RawFlags>,
    #[serde(default)]
    image_usage_not_exportable: Option<RawFlags>,
}

const BUFFER_USAGE: FlagNames = FlagNames {
    what: "buffer usage flag",
    prefix: "VK_BUFFER_USAGE_",
    names: &[
        ("TRANSFER_SRC", 0x1),
        ("TRANSFER_DST", 0x2),
        ("UNIFORM_TEXEL_BUFFER", 0x4),
        ("STORAGE_TEXEL_BUFFER", 0x8),
        ("UNIFORM_BUFFER", 0x10),
        ("STORAGE_BUFFER", 0x20),
        ("INDEX_BUFFER", 0x40),
        ("VERTEX_BUFFER", 0x80),
        ("INDIRECT_BUFFER", 0x100),
        ("SHADER_DEVICE_ADDRESS", 0x20000),
    ],
};

const IMAGE_USAGE: FlagNames = FlagNames {
    what: "image usage flag",
    prefix: "VK_IMAGE_USAGE_",
    names: &[
        ("TRANSFER_SRC", 0x1),
        ("TRANSFER_DST", 0x2),
        ("SAMPLED", 0x4),
        ("STORAGE", 0x8),
        ("COLOR_ATTACHMENT", 0x10),
        ("DEPTH_STENCIL_ATTACHMENT", 0x20),
        ("TRANSIENT_ATTACHMENT", 0x40),
        ("INPUT_ATTACHMENT", 0x80),
    ],
};

fn flags(raw: Option<&RawFlags>, names: &FlagNames) -> Result<Option<u32>, String> {
    raw.map(|f| names.parse(f)).transpose()
}

impl RawHandleType {
    /// The entry for the handle type `bit`. A field of `buffers`/`images` left out takes the
    /// entry's own field; `export_from_imported` left out everywhere is the kind's `compatible`.
    fn parse(&self, bit: u32) -> Result<HandleTypeSupport, String> {
        let features = flags(self.features.as_ref(), &EXTERNAL_MEMORY_FEATURE)?;
        let compatible = flags(self.compatible.as_ref(), &HANDLE_TYPE)?;
        let export_from_imported = flags(self.export_from_imported.as_ref(), &HANDLE_TYPE)?;
        let kind = |raw: &Option<RawProperties>| -> Result<ExternalMemory, String> {
            let empty = RawProperties::default();
            let raw = raw.as_ref().unwrap_or(&empty);
            let features = flags(raw.features.as_ref(), &EXTERNAL_MEMORY_FEATURE)?.or(features);
            let compatible = flags(raw.compatible.as_ref(), &HANDLE_TYPE)?
                .or(compatible)
                .unwrap_or(bit);
            let export_from_imported = flags(raw.export_from_imported.as_ref(), &HANDLE_TYPE)?
                .or(export_from_imported)
                .unwrap_or(compatible);
            Ok(ExternalMemory {
                features: features.unwrap_or(0),
                compatible,
                export_from_imported,
            })
        };
        Ok(HandleTypeSupport {
            buffers: kind(&self.buffers)?,
            images: kind(&self.images)?,
            buffer_usage_not_exportable: flags(
                self.buffer_usage_not_exportable.as_ref(),
                &BUFFER_USAGE,
            )?
            .unwrap_or(0),
            image_usage_not_exportable: flags(
                self.image_usage_not_exportable.as_ref(),
                &IMAGE_USAGE,
            )?
            .unwrap_or(0),
        })
    }
}

/// Applies the JSON entries (keyed by one handle type, a name or a number) to `table`: each
/// replaces the default entry of its type.
pub(super) fn apply(
    table: &mut BTreeMap<u32, HandleTypeSupport>,
    raw: &BTreeMap<String, RawHandleType>,
) -> Result<(), String> {
    for (key, entry) in raw {
        let bit = HANDLE_TYPE.single(key)?;
        let support = entry.parse(bit).map_err(|e| format!("{key}: {e}"))?;
        table.insert(bit, support);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    const OPAQUE_FD: u32 = 1;

    fn opaque_fd(json: &str) -> HandleTypeSupport {
        let c = Config::from_json(&format!(
            r#"{{"external_memory": {{"OPAQUE_FD": {json}}}}}"#
        ))
        .unwrap_or_else(|e| panic!("{json}: {e}"));
        c.external_memory[&OPAQUE_FD]
    }

    #[test]
    fn shared_fields_apply_to_both_kinds() {
        let s =
            opaque_fd(r#"{"features": ["EXPORTABLE"], "compatible": ["OPAQUE_FD", "DMA_BUF"]}"#);
        let expected = ExternalMemory {
            features: EXPORTABLE,
            compatible: 0x201,
            export_from_imported: 0x201,
        };
        assert_eq!(s, HandleTypeSupport::same(expected));
    }

    #[test]
    fn kinds_override_field_by_field() {
        let s = opaque_fd(
            r#"{"features": ["EXPORTABLE", "IMPORTABLE"], "compatible": ["OPAQUE_FD", "DMA_BUF"],
                "buffers": {"features": []},
                "images": {"features": ["DEDICATED_ONLY", "EXPORTABLE"], "export_from_imported": []}}"#,
        );
        assert_eq!(
            s.buffers,
            ExternalMemory {
                features: 0,
                compatible: 0x201,
                export_from_imported: 0x201
            }
        );
        assert_eq!(
            s.images,
            ExternalMemory {
                features: DEDICATED_ONLY | EXPORTABLE,
                compatible: 0x201,
                export_from_imported: 0
            }
        );
        assert!(!s.buffers.is_supported() && s.images.is_supported());
        assert!(s.images.is_dedicated_only() && !s.buffers.is_dedicated_only());
    }

    #[test]
    fn a_kind_alone_leaves_the_other_unsupported() {
        let s = opaque_fd(r#"{"images": {"features": ["EXPORTABLE"]}}"#);
        assert_eq!(s.images.features, EXPORTABLE);
        assert_eq!(s.images.compatible, OPAQUE_FD);
        assert_eq!(s.buffers.features, 0);
    }

    #[test]
    fn usages_listed_clear_exportable_only() {
        let s = opaque_fd(
            r#"{"features": ["EXPORTABLE", "IMPORTABLE"],
                "buffer_usage_not_exportable": ["STORAGE_BUFFER", "VK_BUFFER_USAGE_VERTEX_BUFFER_BIT"],
                "image_usage_not_exportable": "STORAGE"}"#,
        );
        assert_eq!(s.buffer_usage_not_exportable, 0xa0);
        assert_eq!(s.image_usage_not_exportable, 0x8);
        assert_eq!(s.for_buffer(0x3).features, EXPORTABLE | IMPORTABLE);
        assert_eq!(s.for_buffer(0x3 | 0x20).features, IMPORTABLE);
        assert_eq!(s.for_buffer(0x20).compatible, OPAQUE_FD);
        assert_eq!(s.for_image(0x4).features, EXPORTABLE | IMPORTABLE);
        assert_eq!(s.for_image(0x4 | 0x8).features, IMPORTABLE);
    }

    #[test]
    fn bad_entries_are_errors() {
        for bad in [
            r#"{"buffer_usage_not_exportable": ["SAMPLED"]}"#,
            r#"{"image_usage_not_exportable": ["STORAGE_BUFFER"]}"#,
            r#"{"images": {"usage": 1}}"#,
            r#"{"buffers": {"features": ["SHINY"]}}"#,
            r#"{"buffer_usage_not_exportable": 4294967296}"#,
        ] {
            let json = format!(r#"{{"external_memory": {{"OPAQUE_FD": {bad}}}}}"#);
            assert!(Config::from_json(&json).is_err(), "{bad} was accepted");
        }
    }
}
