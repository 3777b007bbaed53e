//! `VkMemoryDedicatedAllocateInfo` at `vkAllocateMemory`, on any allocation: not both an image
//! and a buffer; a live image or buffer of the device (`-parameter`, `-commonparent`); one made
//! without the create flags a dedicated allocation excludes; an allocation at least as large as
//! the resource's memory requirements (02964, 02965).
//!
//! What the layer knows of the resource comes in as plain values: its create flags and what it
//! is ([`Named`]), which the command finds in the device's live buffers and images
//! (`state::resources`, kept where the layer sees every one made) and, for the size, the
//! driver's `VkMemoryRequirements::size`. A resource it cannot judge is not judged.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::rule_set::rule_set;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkMemoryDedicatedAllocateInfo` at `vkAllocateMemory`.
    pub struct DedicatedRules {
        /// `VUID-VkMemoryDedicatedAllocateInfo-image-01432`: both image and buffer.
        BOTH,
        /// `VUID-VkMemoryDedicatedAllocateInfo-image-01434`: a sparse image.
        SPARSE_IMAGE,
        /// `VUID-VkMemoryDedicatedAllocateInfo-image-01797`: a disjoint image.
        DISJOINT_IMAGE,
        /// `VUID-VkMemoryDedicatedAllocateInfo-buffer-01436`: a sparse buffer.
        SPARSE_BUFFER,
        /// `VUID-VkMemoryDedicatedAllocateInfo-image-parameter`: no live image.
        IMAGE_NOT_LIVE,
        /// `VUID-VkMemoryDedicatedAllocateInfo-buffer-parameter`: no live buffer.
        BUFFER_NOT_LIVE,
        /// `VUID-VkMemoryDedicatedAllocateInfo-commonparent`: an image of another device.
        IMAGE_OF_OTHER_DEVICE,
        /// `VUID-VkMemoryDedicatedAllocateInfo-commonparent`: a buffer of another device.
        BUFFER_OF_OTHER_DEVICE,
        /// `VUID-VkMemoryDedicatedAllocateInfo-image-02964`: smaller than the image needs.
        IMAGE_TOO_SMALL,
        /// `VUID-VkMemoryDedicatedAllocateInfo-buffer-02965`: smaller than the buffer needs.
        BUFFER_TOO_SMALL,
        /// `VUID-VkMemoryAllocateInfo-pNext-07901`: an Android hardware buffer export dedicated to
        /// a valid buffer, of size 0.
        ANDROID_BUFFER_ZERO_SIZE,
    }
}

impl DedicatedRules {
    /// 02964 or 02965: smaller than the resource needs.
    pub const TOO_SMALL: Self = Self::IMAGE_TOO_SMALL.and(Self::BUFFER_TOO_SMALL);
    /// A handle the layer knows is bad: the call does not go down.
    const BLOCKING: Self = Self::IMAGE_NOT_LIVE
        .and(Self::BUFFER_NOT_LIVE)
        .and(Self::IMAGE_OF_OTHER_DEVICE)
        .and(Self::BUFFER_OF_OTHER_DEVICE);
}

/// What the layer knows of the image or the buffer the structure names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Named {
    /// `VK_NULL_HANDLE`, or a handle the layer cannot judge: it does not see every resource
    /// made on the device (or on another device that may have made it).
    #[default]
    Unjudged,
    /// A live resource of the device, with its `VkMemoryRequirements::size` when the layer
    /// asked the driver.
    Live { requirement: Option<u64> },
    /// Not a live resource of any device the layer knows, and the layer sees every one made and
    /// destroyed on each of them.
    NotLive,
    /// A live resource of this other device.
    OtherDevice(u64),
}

/// The chained structure's image and buffer, with what the layer knows of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dedicated {
    pub image: u64,
    pub buffer: u64,
    pub image_flags: Option<vk::ImageCreateFlags>,
    pub buffer_flags: Option<vk::BufferCreateFlags>,
    pub image_is: Named,
    pub buffer_is: Named,
    /// `allocationSize`, when 02964 and 02965 apply: the allocation imports no Android hardware
    /// buffer or QNX Screen buffer, and it is not an Android hardware buffer export dedicated to
    /// an image, whose size the driver decides (`VUID-VkMemoryAllocateInfo-pNext-01874` wants 0
    /// there).
    pub size: Option<u64>,
    /// `allocationSize`, when the allocation is exported as an Android hardware buffer
    /// (`VUID-VkMemoryAllocateInfo-pNext-07901`).
    pub android_export_size: Option<u64>,
}

/// Whether `size` is known and smaller than what a live resource needs.
fn too_small(size: Option<u64>, named: Named) -> bool {
    match (size, named) {
        (
            Some(size),
            Named::Live {
                requirement: Some(needed),
            },
        ) => size < needed,
        _ => false,
    }
}

/// The rules the structure breaks.
pub fn evaluate(d: &Dedicated) -> DedicatedRules {
    let image = d.image_flags.unwrap_or_default();
    let buffer = d.buffer_flags.unwrap_or_default();
    let other = |n: Named| matches!(n, Named::OtherDevice(_));
    DedicatedRules::NONE
        .with(DedicatedRules::BOTH, d.image != 0 && d.buffer != 0)
        .with(
            DedicatedRules::SPARSE_IMAGE,
            image.contains(vk::ImageCreateFlags::SPARSE_BINDING),
        )
        .with(
            DedicatedRules::DISJOINT_IMAGE,
            image.contains(vk::ImageCreateFlags::DISJOINT),
        )
        .with(
            DedicatedRules::SPARSE_BUFFER,
            buffer.contains(vk::BufferCreateFlags::SPARSE_BINDING),
        )
        .with(
            DedicatedRules::IMAGE_NOT_LIVE,
            d.image != 0 && d.image_is == Named::NotLive,
        )
        .with(
            DedicatedRules::BUFFER_NOT_LIVE,
            d.buffer != 0 && d.buffer_is == Named::NotLive,
        )
        .with(
            DedicatedRules::IMAGE_OF_OTHER_DEVICE,
            d.image != 0 && other(d.image_is),
        )
        .with(
            DedicatedRules::BUFFER_OF_OTHER_DEVICE,
            d.buffer != 0 && other(d.buffer_is),
        )
        .with(
            DedicatedRules::IMAGE_TOO_SMALL,
            d.image != 0 && too_small(d.size, d.image_is),
        )
        .with(
            DedicatedRules::BUFFER_TOO_SMALL,
            d.buffer != 0 && too_small(d.size, d.buffer_is),
        )
        .with(
            DedicatedRules::ANDROID_BUFFER_ZERO_SIZE,
            d.buffer != 0 && is_valid(d.buffer_is) && d.android_export_size == Some(0),
        )
}

/// Whether the layer knows the handle is a live resource (of this device or another).
fn is_valid(named: Named) -> bool {
    matches!(named, Named::Live { .. } | Named::OtherDevice(_))
}

/// Whether `broken` blocks the call: a handle the layer knows is bad.
pub fn blocks(broken: DedicatedRules) -> bool {
    broken.has(DedicatedRules::BLOCKING)
}

const FIELD: &str = "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>";
const NOT_PASSED: &str = "The call was not passed to the driver.";

/// The findings of the rules in `broken`.
#[cold]
#[inline(never)]
pub fn describe(device: u64, d: &Dedicated, broken: DedicatedRules) -> Outcome {
    let image = vk_names::handle(vk::ObjectType::IMAGE, d.image);
    let buffer = vk_names::handle(vk::ObjectType::BUFFER, d.buffer);
    let field = FIELD;
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
    let mut out = Outcome::default();
    if broken.has(DedicatedRules::BOTH) {
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
            DedicatedRules::SPARSE_IMAGE,
            vuid::DEDICATED_IMAGE_01434,
            "VK_IMAGE_CREATE_SPARSE_BINDING_BIT",
            "image",
        ),
        (
            DedicatedRules::DISJOINT_IMAGE,
            vuid::DEDICATED_IMAGE_01797,
            "VK_IMAGE_CREATE_DISJOINT_BIT",
            "image",
        ),
        (
            DedicatedRules::SPARSE_BUFFER,
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
    let device_name = vk_names::handle(vk::ObjectType::DEVICE, device);
    for (what, ty, name, object, rules) in [
        (
            "image",
            "VkImage",
            &image,
            image_ref,
            (
                DedicatedRules::IMAGE_NOT_LIVE,
                DedicatedRules::IMAGE_OF_OTHER_DEVICE,
                DedicatedRules::IMAGE_TOO_SMALL,
            ),
        ),
        (
            "buffer",
            "VkBuffer",
            &buffer,
            buffer_ref,
            (
                DedicatedRules::BUFFER_NOT_LIVE,
                DedicatedRules::BUFFER_OF_OTHER_DEVICE,
                DedicatedRules::BUFFER_TOO_SMALL,
            ),
        ),
    ] {
        let (not_live, other_device, too_small) = rules;
        let (named, parameter, size_id, create) = if what == "image" {
            (
                d.image_is,
                vuid::DEDICATED_IMAGE_PARAM,
                vuid::DEDICATED_IMAGE_02964,
                "vkCreateImage",
            )
        } else {
            (
                d.buffer_is,
                vuid::DEDICATED_BUFFER_PARAM,
                vuid::DEDICATED_BUFFER_02965,
                "vkCreateBuffer",
            )
        };
        if broken.has(not_live) {
            out.block(
                finding(
                    parameter,
                    format!("{field}.{what}"),
                    format!(
                        "vkAllocateMemory(): {field}.{what} is {name}, which is not a live \
                         {ty}: no device has it from {create}, or it was destroyed (the layer \
                         sees every {ty} made and destroyed on every device it knows). \
                         {NOT_PASSED}"
                    ),
                )
                .with(object),
            );
        }
        if let (true, Named::OtherDevice(owner)) = (broken.has(other_device), named) {
            out.block(
                finding(
                    vuid::DEDICATED_COMMONPARENT,
                    format!("{field}.{what}"),
                    format!(
                        "vkAllocateMemory(): {field}.{what} is {name}, a {ty} of {}, not of \
                         {device_name}, which the memory is allocated from; the resource and \
                         the memory must come from the same VkDevice. {NOT_PASSED}",
                        vk_names::handle(vk::ObjectType::DEVICE, owner)
                    ),
                )
                .with(object)
                .with(ObjectRef::device(owner)),
            );
        }
        if let (true, Named::Live { requirement }, Some(size)) =
            (broken.has(too_small), named, d.size)
        {
            out.push(
                finding(
                    size_id,
                    "pAllocateInfo->allocationSize".to_owned(),
                    format!(
                        "vkAllocateMemory(): pAllocateInfo->allocationSize is {size}, less than \
                         the VkMemoryRequirements::size of {field}.{what} ({name}), {}; memory \
                         dedicated to a resource must be at least that large.",
                        requirement.unwrap_or_default()
                    ),
                )
                .with(object),
            );
        }
    }
    if broken.has(DedicatedRules::ANDROID_BUFFER_ZERO_SIZE) {
        out.push(
            finding(
                vuid::ALLOC_PNEXT_07901,
                "pAllocateInfo->allocationSize".to_owned(),
                format!(
                    "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, but the allocation \
                     is exported as an Android hardware buffer and dedicated to a buffer \
                     ({field}.buffer is {buffer}); only memory dedicated to an image takes its \
                     size from it, so allocationSize must be greater than 0."
                ),
            )
            .with(buffer_ref),
        );
    }
    debug_assert_eq!(out.blocked, blocks(broken));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(d: &Dedicated) -> Vec<&'static str> {
        let broken = evaluate(d);
        let found = describe(0xd000, d, broken);
        assert_eq!(found.findings.len() as u32, broken.len());
        assert_eq!(found.blocked, blocks(broken));
        found.ids()
    }

    fn image(flags: Option<vk::ImageCreateFlags>) -> Dedicated {
        Dedicated {
            image: 0x1a,
            image_flags: flags,
            ..Dedicated::default()
        }
    }

    fn buffer(is: Named, size: Option<u64>) -> Dedicated {
        Dedicated {
            buffer: 0x2b,
            buffer_is: is,
            size,
            ..Dedicated::default()
        }
    }

    #[test]
    fn plain_and_untracked_resources_are_silent() {
        assert!(ids(&image(Some(vk::ImageCreateFlags::MUTABLE_FORMAT))).is_empty());
        assert!(ids(&image(None)).is_empty());
        let live = Named::Live {
            requirement: Some(4096),
        };
        assert!(ids(&buffer(live, Some(4096))).is_empty());
        assert!(ids(&buffer(live, None)).is_empty(), "an import: not judged");
        assert!(ids(&buffer(Named::Live { requirement: None }, Some(1))).is_empty());
        assert!(ids(&buffer(Named::Unjudged, Some(1))).is_empty());
        // A null handle is never judged, whatever the lookup said.
        let null = Dedicated {
            image_is: Named::NotLive,
            buffer_is: Named::OtherDevice(0xd001),
            ..Dedicated::default()
        };
        assert!(ids(&null).is_empty());
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

    #[test]
    fn handles_not_live_or_of_another_device_block() {
        let d = Dedicated {
            image_is: Named::NotLive,
            ..buffer(Named::OtherDevice(0xd001), None)
        };
        let d = Dedicated { image: 0x1a, ..d };
        let found = describe(0xd000, &d, evaluate(&d));
        assert!(found.blocked);
        assert_eq!(
            found.ids(),
            [
                vuid::DEDICATED_IMAGE_01432,
                vuid::DEDICATED_IMAGE_PARAM,
                vuid::DEDICATED_COMMONPARENT
            ]
        );
        let m = &found.findings[2].message;
        assert!(
            m.contains("a VkBuffer of VkDevice 0xd001, not of VkDevice 0xd000"),
            "{m}"
        );
        assert!(found.findings[1]
            .message
            .contains("which is not a live VkImage"));
    }

    #[test]
    fn an_allocation_smaller_than_the_requirement_is_02964_or_02965() {
        let live = Named::Live {
            requirement: Some(8192),
        };
        let found = ids(&buffer(live, Some(4096)));
        assert_eq!(found, [vuid::DEDICATED_BUFFER_02965]);
        let d = Dedicated {
            image: 0x1a,
            image_is: live,
            size: Some(8191),
            ..Dedicated::default()
        };
        let out = describe(0xd000, &d, evaluate(&d));
        assert_eq!(out.ids(), [vuid::DEDICATED_IMAGE_02964]);
        assert!(!out.blocked);
        let m = &out.findings[0].message;
        assert!(m.contains("8191"), "{m}");
        assert!(m.contains("allocationSize is 8191, less than the VkMemoryRequirements::size of pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image (VkImage 0x1a), 8192"), "{m}");
    }
}

#[cfg(test)]
mod android_tests {
    use super::*;

    #[test]
    fn an_android_export_dedicated_to_a_valid_buffer_needs_a_size() {
        let d = |is, size| Dedicated {
            buffer: 0x2b,
            buffer_is: is,
            android_export_size: size,
            ..Dedicated::default()
        };
        let live = Named::Live { requirement: None };
        let broken = evaluate(&d(live, Some(0)));
        let out = describe(0xd000, &d(live, Some(0)), broken);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_07901]);
        let other = d(Named::OtherDevice(0xd001), Some(0));
        assert_eq!(
            describe(0xd000, &other, evaluate(&other)).ids(),
            [vuid::DEDICATED_COMMONPARENT, vuid::ALLOC_PNEXT_07901]
        );
        // Not known valid, not exported as one, or a size: silent.
        for d in [
            d(Named::Unjudged, Some(0)),
            d(live, None),
            d(live, Some(4096)),
        ] {
            assert!(evaluate(&d).is_empty(), "{d:?}");
        }
        let not_live = d(Named::NotLive, Some(0));
        assert_eq!(
            describe(0xd000, &not_live, evaluate(&not_live)).ids(),
            [vuid::DEDICATED_BUFFER_PARAM]
        );
    }
}
