//! `VkMemoryDedicatedAllocateInfo` at `vkAllocateMemory`, on any allocation: not both an image
//! and a buffer, and a resource made without the create flags a dedicated allocation excludes.
//!
//! The flags are known for the buffers and images the layer tracks (`state::resources`: those
//! made with external-memory handle types); a resource it does not track is not judged.

use super::common::Broken;
use crate::finding::{Finding, ObjectRef};
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// `VUID-VkMemoryDedicatedAllocateInfo-image-01432`: both image and buffer.
pub const BOTH: Broken = Broken::bit(0);
/// `VUID-VkMemoryDedicatedAllocateInfo-image-01434`: a sparse image.
pub const SPARSE_IMAGE: Broken = Broken::bit(1);
/// `VUID-VkMemoryDedicatedAllocateInfo-image-01797`: a disjoint image.
pub const DISJOINT_IMAGE: Broken = Broken::bit(2);
/// `VUID-VkMemoryDedicatedAllocateInfo-buffer-01436`: a sparse buffer.
pub const SPARSE_BUFFER: Broken = Broken::bit(3);

/// The chained structure's image and buffer, with the create flags the layer knows of each.
pub struct Dedicated {
    pub image: u64,
    pub buffer: u64,
    pub image_flags: Option<vk::ImageCreateFlags>,
    pub buffer_flags: Option<vk::BufferCreateFlags>,
}

/// The rules the structure breaks.
pub fn evaluate(d: &Dedicated) -> Broken {
    let image = d.image_flags.unwrap_or_default();
    let buffer = d.buffer_flags.unwrap_or_default();
    Broken::NONE
        .with(BOTH, d.image != 0 && d.buffer != 0)
        .with(
            SPARSE_IMAGE,
            image.contains(vk::ImageCreateFlags::SPARSE_BINDING),
        )
        .with(
            DISJOINT_IMAGE,
            image.contains(vk::ImageCreateFlags::DISJOINT),
        )
        .with(
            SPARSE_BUFFER,
            buffer.contains(vk::BufferCreateFlags::SPARSE_BINDING),
        )
}

/// The findings of the rules in `broken`.
#[cold]
#[inline(never)]
pub fn describe(device: u64, d: &Dedicated, broken: Broken) -> Vec<Finding> {
    let image = vk_names::handle(vk::ObjectType::IMAGE, d.image);
    let buffer = vk_names::handle(vk::ObjectType::BUFFER, d.buffer);
    let field = "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>";
    let finding = |id, field: String, message: String| {
        Finding::new(id, "vkAllocateMemory", field, message).with(ObjectRef::device(device))
    };
    let image_ref = ObjectRef {
        ty: vk::ObjectType::IMAGE,
        handle: d.image,
    };
    let buffer_ref = ObjectRef {
        ty: vk::ObjectType::BUFFER,
        handle: d.buffer,
    };
    let mut out = Vec::new();
    if broken.has(BOTH) {
        out.push(
            finding(
                vuid::DEDICATED_IMAGE_01432,
                field.to_owned(),
                format!(
                    "vkAllocateMemory(): {field} names both an image ({image}) and a buffer \
                     ({buffer}); at least one of them must be VK_NULL_HANDLE."
                ),
            )
            .with(image_ref)
            .with(buffer_ref),
        );
    }
    for (rule, id, flag, what) in [
        (
            SPARSE_IMAGE,
            vuid::DEDICATED_IMAGE_01434,
            "VK_IMAGE_CREATE_SPARSE_BINDING_BIT",
            "image",
        ),
        (
            DISJOINT_IMAGE,
            vuid::DEDICATED_IMAGE_01797,
            "VK_IMAGE_CREATE_DISJOINT_BIT",
            "image",
        ),
        (
            SPARSE_BUFFER,
            vuid::DEDICATED_BUFFER_01436,
            "VK_BUFFER_CREATE_SPARSE_BINDING_BIT",
            "buffer",
        ),
    ] {
        if broken.has(rule) {
            let (name, object, create) = if what == "image" {
                (&image, image_ref, "VkImageCreateInfo")
            } else {
                (&buffer, buffer_ref, "VkBufferCreateInfo")
            };
            out.push(
                finding(
                    id,
                    format!("{field}.{what}"),
                    format!(
                        "vkAllocateMemory(): {field}.{what} is {name}, which was created with \
                         {flag} in {create}::flags; memory cannot be dedicated to it."
                    ),
                )
                .with(object),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(d: &Dedicated) -> Vec<&'static str> {
        let broken = evaluate(d);
        let found = describe(0xd000, d, broken);
        assert_eq!(found.len() as u32, broken.0.count_ones());
        found.iter().map(|f| f.id).collect()
    }

    fn image(flags: Option<vk::ImageCreateFlags>) -> Dedicated {
        Dedicated {
            image: 0x1a,
            buffer: 0,
            image_flags: flags,
            buffer_flags: None,
        }
    }

    #[test]
    fn plain_and_untracked_resources_are_silent() {
        assert!(ids(&image(Some(vk::ImageCreateFlags::MUTABLE_FORMAT))).is_empty());
        assert!(ids(&image(None)).is_empty());
    }

    #[test]
    fn each_rule_once() {
        let both = vk::ImageCreateFlags::SPARSE_BINDING | vk::ImageCreateFlags::DISJOINT;
        assert_eq!(
            ids(&image(Some(both))),
            [vuid::DEDICATED_IMAGE_01434, vuid::DEDICATED_IMAGE_01797]
        );
        let d = Dedicated {
            buffer: 0x2b,
            buffer_flags: Some(vk::BufferCreateFlags::SPARSE_BINDING),
            ..image(None)
        };
        assert_eq!(
            ids(&d),
            [vuid::DEDICATED_IMAGE_01432, vuid::DEDICATED_BUFFER_01436]
        );
    }
}
