//! An Android hardware buffer import at `vkAllocateMemory` against what the driver says of the
//! buffer (`vkGetAndroidHardwareBufferPropertiesANDROID`, which the layer asks itself, as the
//! Khronos layer does): `allocationSize` is the buffer's
//! (`VUID-VkMemoryAllocateInfo-allocationSize-02383`), `memoryTypeIndex` one of its memory types
//! (`VUID-VkMemoryAllocateInfo-memoryTypeIndex-02385`), and a dedicated image's format
//! `VK_FORMAT_UNDEFINED` or the buffer's (`VUID-VkMemoryAllocateInfo-pNext-02387`). The answers
//! come in as plain values; nothing is judged without one.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::rule_set::rule_set;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of an Android hardware buffer import against the driver's answer for the buffer.
    pub struct ImportAndroidPropertiesRules {
        /// `VUID-VkMemoryAllocateInfo-allocationSize-02383`.
        SIZE_NOT_THE_BUFFERS,
        /// `VUID-VkMemoryAllocateInfo-memoryTypeIndex-02385`.
        TYPE_NOT_THE_BUFFERS,
        /// `VUID-VkMemoryAllocateInfo-pNext-02387`.
        IMAGE_FORMAT_NOT_THE_BUFFERS,
    }
}

/// The import as the app made it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AndroidImport {
    /// `VkImportAndroidHardwareBufferInfoANDROID::buffer`, as an address.
    pub buffer: u64,
    pub size: u64,
    pub memory_type_index: u32,
    /// `VkMemoryDedicatedAllocateInfo::image` (0: none) and its format, when the layer knows it
    /// (a live image of the device).
    pub image: u64,
    pub image_format: Option<vk::Format>,
}

/// What `vkGetAndroidHardwareBufferPropertiesANDROID` answered for the buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferProperties {
    pub allocation_size: u64,
    pub memory_type_bits: u32,
    /// `VkAndroidHardwareBufferFormatPropertiesANDROID::format`, when asked.
    pub format: Option<vk::Format>,
}

/// The rules the import breaks, against the driver's answer.
pub fn evaluate(import: &AndroidImport, answer: &BufferProperties) -> ImportAndroidPropertiesRules {
    let type_bit = 1u32.checked_shl(import.memory_type_index).unwrap_or(0);
    let format_differs = match (import.image, import.image_format, answer.format) {
        (0, ..) => false,
        (_, Some(image), Some(buffer)) => image != vk::Format::UNDEFINED && image != buffer,
        _ => false,
    };
    ImportAndroidPropertiesRules::NONE
        .with(
            ImportAndroidPropertiesRules::SIZE_NOT_THE_BUFFERS,
            import.size != answer.allocation_size,
        )
        .with(
            ImportAndroidPropertiesRules::TYPE_NOT_THE_BUFFERS,
            answer.memory_type_bits & type_bit == 0,
        )
        .with(
            ImportAndroidPropertiesRules::IMAGE_FORMAT_NOT_THE_BUFFERS,
            format_differs,
        )
}

/// The findings of the rules in `broken`, none blocking: the call goes down as the app made it.
#[cold]
#[inline(never)]
pub fn describe(
    device: u64,
    import: &AndroidImport,
    answer: &BufferProperties,
    broken: ImportAndroidPropertiesRules,
) -> Outcome {
    let mut out = Outcome::default();
    let buffer = format!("the AHardwareBuffer {:#x}", import.buffer);
    let asked = "vkGetAndroidHardwareBufferPropertiesANDROID";
    let finding = |id, field: &'static str, message: String| {
        Finding::new(id, "vkAllocateMemory", field, message).with(ObjectRef::device(device))
    };
    if broken.has(ImportAndroidPropertiesRules::SIZE_NOT_THE_BUFFERS) {
        out.push(finding(
            vuid::ALLOC_SIZE_02383,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is {}, but {asked} gives \
                 {buffer} (pAllocateInfo->pNext<VkImportAndroidHardwareBufferInfoANDROID>.buffer) \
                 an allocationSize of {}; an import must have the buffer's size.",
                import.size, answer.allocation_size
            ),
        ));
    }
    if broken.has(ImportAndroidPropertiesRules::TYPE_NOT_THE_BUFFERS) {
        out.push(finding(
            vuid::ALLOC_TYPE_INDEX_02385,
            "pAllocateInfo->memoryTypeIndex",
            format!(
                "vkAllocateMemory(): pAllocateInfo->memoryTypeIndex is {}, but {asked} gives \
                 {buffer} (pAllocateInfo->pNext<VkImportAndroidHardwareBufferInfoANDROID>.buffer) \
                 the memoryTypeBits {:#x}, which do not include it.",
                import.memory_type_index, answer.memory_type_bits
            ),
        ));
    }
    if broken.has(ImportAndroidPropertiesRules::IMAGE_FORMAT_NOT_THE_BUFFERS) {
        out.push(
            finding(
                vuid::ALLOC_PNEXT_02387,
                "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image",
                format!(
                    "vkAllocateMemory(): pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image \
                     is {}, created with format {:?}, but {asked} gives {buffer} the format {:?} \
                     (VkAndroidHardwareBufferFormatPropertiesANDROID::format); the image's \
                     format must be VK_FORMAT_UNDEFINED or the buffer's.",
                    vk_names::handle(vk::ObjectType::IMAGE, import.image),
                    import.image_format.unwrap_or_default(),
                    answer.format.unwrap_or_default()
                ),
            )
            .with(ObjectRef {
                ty: vk::ObjectType::IMAGE,
                handle: import.image,
            }),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RGBA: vk::Format = vk::Format::R8G8B8A8_UNORM;

    fn ids(import: &AndroidImport, answer: &BufferProperties) -> Vec<&'static str> {
        let broken = evaluate(import, answer);
        let out = describe(0xd000, import, answer, broken);
        assert_eq!(out.findings.len() as u32, broken.len());
        assert!(!out.blocked);
        out.ids()
    }

    fn import() -> AndroidImport {
        AndroidImport {
            buffer: 0x4100,
            size: 4096,
            memory_type_index: 1,
            ..AndroidImport::default()
        }
    }

    fn answer() -> BufferProperties {
        BufferProperties {
            allocation_size: 4096,
            memory_type_bits: 0b10,
            format: Some(RGBA),
        }
    }

    #[test]
    fn an_import_as_the_buffer_says_is_silent() {
        assert!(ids(&import(), &answer()).is_empty());
        for format in [Some(RGBA), Some(vk::Format::UNDEFINED), None] {
            let dedicated = AndroidImport {
                image: 0x1a,
                image_format: format,
                ..import()
            };
            assert!(ids(&dedicated, &answer()).is_empty(), "{format:?}");
        }
        // The buffer's format not asked: not judged.
        let dedicated = AndroidImport {
            image: 0x1a,
            image_format: Some(vk::Format::R8_UNORM),
            ..import()
        };
        let unasked = BufferProperties {
            format: None,
            ..answer()
        };
        assert!(ids(&dedicated, &unasked).is_empty());
    }

    #[test]
    fn each_difference_is_its_rule() {
        let wrong = AndroidImport {
            size: 8192,
            memory_type_index: 40,
            image: 0x1a,
            image_format: Some(vk::Format::R8_UNORM),
            ..import()
        };
        assert_eq!(
            ids(&wrong, &answer()),
            [
                vuid::ALLOC_SIZE_02383,
                vuid::ALLOC_TYPE_INDEX_02385,
                vuid::ALLOC_PNEXT_02387
            ]
        );
        let out = describe(0xd000, &wrong, &answer(), evaluate(&wrong, &answer()));
        let m = &out.findings[2].message;
        assert!(m.contains("created with format R8_UNORM, but vkGetAndroidHardwareBufferPropertiesANDROID gives the AHardwareBuffer 0x4100 the format R8G8B8A8_UNORM"), "{m}");
    }
}
