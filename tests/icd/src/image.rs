//! Images, as far as memory goes: `vkCreateImage` (any create info with non-zero extent, mip
//! levels and layers; usage and the handle types of a chained `VkExternalMemoryImageCreateInfo`
//! are recorded), `vkDestroyImage`, `vkGetImageMemoryRequirements(2)` (dedicated when the
//! configuration says `DEDICATED_ONLY`), `vkGetImageSparseMemoryRequirements(2)` (none),
//! `vkBindImageMemory(2)`. An image has no contents: nothing can render into it.

use ash::vk;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::{self, Device};
use crate::ffi::entry;
use crate::format;
use crate::objects::lock;
use crate::resource::{self, Binding};

/// High bits of every `VkImage` handle value (the low bits are the image's number).
pub const IMAGE_HANDLE_TAG: u64 = 0xE100_0000_0000_0000;
/// `VkMemoryRequirements::alignment` of every image.
pub const IMAGE_ALIGNMENT: u64 = 4096;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One `VkImage`.
pub struct Image {
    /// Bytes of memory it needs (before rounding to [`IMAGE_ALIGNMENT`]).
    pub size: u64,
    /// `VkImageUsageFlags`
    pub usage: u32,
    /// `VkExternalMemoryImageCreateInfo::handleTypes`
    pub external_types: u32,
    pub bound: Binding,
}

/// Bytes of every texel of every mip level, layer and sample; `None` for an empty image or an
/// overflow.
pub fn image_size(info: &vk::ImageCreateInfo<'_>) -> Option<u64> {
    let e = info.extent;
    let dimensions = [
        e.width,
        e.height,
        e.depth,
        info.mip_levels,
        info.array_layers,
    ];
    if dimensions.contains(&0) {
        return None;
    }
    let per_texel = format::texel_size(info.format)
        .checked_mul(u64::from(info.array_layers))?
        .checked_mul(u64::from(info.samples.as_raw().max(1)))?;
    let mut texels = 0u64;
    for level in 0..info.mip_levels.min(32) {
        let side = |n: u32| u64::from((n >> level).max(1));
        let level_texels = side(e.width)
            .checked_mul(side(e.height))?
            .checked_mul(side(e.depth))?;
        texels = texels.checked_add(level_texels)?;
    }
    texels.checked_mul(per_texel)
}

pub(crate) unsafe extern "system" fn create_image(
    device: vk::Device,
    p_create_info: *const vk::ImageCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_image: *mut vk::Image,
) -> vk::Result {
    entry(
        "vkCreateImage",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_create_info.as_ref() }, unsafe {
                p_image.as_mut()
            }) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            let Some(dev) = device::lookup(device) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            let Some(size) = image_size(info) else {
                return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
            };
            // SAFETY: `p_next` heads the caller's valid chain.
            let external_types = unsafe {
                resource::external_handle_types(
                    info.p_next,
                    vk::StructureType::EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
                )
            };
            let handle = IMAGE_HANDLE_TAG | NEXT_ID.fetch_add(1, Ordering::Relaxed);
            let image = Image {
                size,
                usage: info.usage.as_raw(),
                external_types,
                bound: None,
            };
            lock(&dev.images).insert(handle, image);
            *out = vk::Handle::from_raw(handle);
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn destroy_image(
    device: vk::Device,
    image: vk::Image,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkDestroyImage", (), || {
        if let Some(dev) = device::lookup(device) {
            lock(&dev.images).remove(&vk::Handle::as_raw(image));
        }
    })
}

/// The requirements of `image` on `device`, and whether its memory must be dedicated; all zero
/// when either is unknown.
pub(crate) fn image_requirements(
    device: vk::Device,
    image: vk::Image,
) -> (vk::MemoryRequirements, bool) {
    let Some(dev) = device::lookup(device) else {
        return Default::default();
    };
    let images = lock(&dev.images);
    let Some(i) = images.get(&vk::Handle::as_raw(image)) else {
        return Default::default();
    };
    (
        resource::requirements(i.size, IMAGE_ALIGNMENT, dev.config.memory_types.len()),
        dev.config
            .requires_dedicated(i.external_types, true, i.usage),
    )
}

pub(crate) unsafe extern "system" fn get_image_memory_requirements(
    device: vk::Device,
    image: vk::Image,
    p_memory_requirements: *mut vk::MemoryRequirements,
) {
    entry("vkGetImageMemoryRequirements", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let Some(out) = unsafe { p_memory_requirements.as_mut() } {
            *out = image_requirements(device, image).0;
        }
    })
}

pub(crate) unsafe extern "system" fn get_image_memory_requirements2(
    device: vk::Device,
    p_info: *const vk::ImageMemoryRequirementsInfo2<'_>,
    p_memory_requirements: *mut vk::MemoryRequirements2<'_>,
) {
    entry("vkGetImageMemoryRequirements2", (), || {
        // SAFETY: valid or NULL pointers (Vulkan contract).
        let (Some(info), Some(out)) = (unsafe { p_info.as_ref() }, unsafe {
            p_memory_requirements.as_mut()
        }) else {
            return;
        };
        let (requirements, dedicated) = image_requirements(device, info.image);
        out.memory_requirements = requirements;
        // SAFETY: the output chain is valid and writable (Vulkan contract).
        unsafe { resource::fill_dedicated_requirements(out.p_next, dedicated) };
    })
}

pub(crate) unsafe extern "system" fn get_image_sparse_memory_requirements(
    _device: vk::Device,
    _image: vk::Image,
    p_count: *mut u32,
    _p_requirements: *mut vk::SparseImageMemoryRequirements,
) {
    entry("vkGetImageSparseMemoryRequirements", (), || {
        // SAFETY: valid or NULL count pointer (Vulkan contract).
        if let Some(count) = unsafe { p_count.as_mut() } {
            *count = 0;
        }
    })
}

pub(crate) unsafe extern "system" fn get_image_sparse_memory_requirements2(
    _device: vk::Device,
    _p_info: *const vk::ImageSparseMemoryRequirementsInfo2<'_>,
    p_count: *mut u32,
    _p_requirements: *mut vk::SparseImageMemoryRequirements2<'_>,
) {
    entry("vkGetImageSparseMemoryRequirements2", (), || {
        // SAFETY: valid or NULL count pointer (Vulkan contract).
        if let Some(count) = unsafe { p_count.as_mut() } {
            *count = 0;
        }
    })
}

fn bind(
    dev: &Device,
    image: vk::Image,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    let handle = vk::Handle::as_raw(image);
    resource::bind(dev, &dev.images, |i| &mut i.bound, handle, memory, offset)
}

pub(crate) unsafe extern "system" fn bind_image_memory(
    device: vk::Device,
    image: vk::Image,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    entry("vkBindImageMemory", vk::Result::ERROR_UNKNOWN, || {
        device::lookup(device).map_or(vk::Result::ERROR_UNKNOWN, |dev| {
            bind(&dev, image, memory, offset)
        })
    })
}

pub(crate) unsafe extern "system" fn bind_image_memory2(
    device: vk::Device,
    count: u32,
    p_infos: *const vk::BindImageMemoryInfo<'_>,
) -> vk::Result {
    entry("vkBindImageMemory2", vk::Result::ERROR_UNKNOWN, || {
        let Some(dev) = device::lookup(device) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        // SAFETY: `p_infos` holds `count` structures (Vulkan contract); NULL is refused.
        let Some(infos) = (unsafe { resource::slice(p_infos, count) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        resource::first_failure(
            infos
                .iter()
                .map(|i| bind(&dev, i.image, i.memory, i.memory_offset)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(width: u32, height: u32, mips: u32, layers: u32) -> vk::ImageCreateInfo<'static> {
        vk::ImageCreateInfo::default()
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })
            .mip_levels(mips)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
    }

    #[test]
    fn sizes_count_every_level_and_layer() {
        assert_eq!(image_size(&info(16, 16, 1, 1)), Some(16 * 16 * 4));
        // 4x4 + 2x2 + 1x1 texels, two layers.
        assert_eq!(image_size(&info(4, 4, 3, 2)), Some((16 + 4 + 1) * 4 * 2));
        // Levels past 1x1 stay 1x1.
        assert_eq!(image_size(&info(1, 1, 40, 1)), Some(32 * 4));
    }

    #[test]
    fn empty_or_huge_images_have_no_size() {
        assert_eq!(image_size(&info(0, 16, 1, 1)), None);
        assert_eq!(image_size(&info(16, 16, 0, 1)), None);
        assert_eq!(image_size(&info(16, 16, 1, 0)), None);
        let huge = info(u32::MAX, u32::MAX, 1, u32::MAX);
        assert_eq!(image_size(&huge), None);
    }

    #[test]
    fn unknown_devices_and_images_give_zero_requirements() {
        let (r, dedicated) = image_requirements(vk::Handle::from_raw(8), vk::Handle::from_raw(9));
        assert_eq!((r.size, r.memory_type_bits), (0, 0));
        assert!(!dedicated);
    }
}
