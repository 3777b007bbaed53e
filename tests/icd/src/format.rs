//! Formats: the few 2D colour formats images can be made of, their format features, and the
//! image format queries (`vkGetPhysicalDeviceImageFormatProperties(2)`, which also report the
//! configured external-memory support for images).

use ash::vk;

use crate::ffi::{self, entry};
use crate::physical_device::{self, external_memory_properties};

/// The formats with image support, and their texel size in bytes.
pub const IMAGE_FORMATS: [(vk::Format, u64); 4] = [
    (vk::Format::R8G8B8A8_UNORM, 4),
    (vk::Format::R8G8B8A8_SRGB, 4),
    (vk::Format::B8G8R8A8_UNORM, 4),
    (vk::Format::B8G8R8A8_SRGB, 4),
];
/// Texel size assumed for any other format given to `vkCreateImage` (a generous upper bound).
const OTHER_TEXEL_SIZE: u64 = 16;

/// Image create flags supported (besides none).
const SUPPORTED_CREATE_FLAGS: vk::ImageCreateFlags = vk::ImageCreateFlags::from_raw(
    vk::ImageCreateFlags::MUTABLE_FORMAT.as_raw() | vk::ImageCreateFlags::ALIAS.as_raw(),
);

/// Texel size in bytes of `format` for memory requirements.
pub fn texel_size(format: vk::Format) -> u64 {
    IMAGE_FORMATS
        .iter()
        .find(|(f, _)| *f == format)
        .map_or(OTHER_TEXEL_SIZE, |&(_, size)| size)
}

/// Format features of `format`, the same for optimal and linear tiling; none for other formats.
pub fn format_features(format: vk::Format) -> vk::FormatFeatureFlags {
    use vk::FormatFeatureFlags as F;
    if !IMAGE_FORMATS.iter().any(|(f, _)| *f == format) {
        return F::empty();
    }
    let common = F::SAMPLED_IMAGE
        | F::SAMPLED_IMAGE_FILTER_LINEAR
        | F::COLOR_ATTACHMENT
        | F::COLOR_ATTACHMENT_BLEND
        | F::BLIT_SRC
        | F::BLIT_DST
        | F::TRANSFER_SRC
        | F::TRANSFER_DST;
    if format == vk::Format::R8G8B8A8_UNORM {
        common | F::STORAGE_IMAGE
    } else {
        common
    }
}

/// The format feature each supported image usage needs.
const USAGE_FEATURES: [(vk::ImageUsageFlags, vk::FormatFeatureFlags); 5] = [
    (
        vk::ImageUsageFlags::TRANSFER_SRC,
        vk::FormatFeatureFlags::TRANSFER_SRC,
    ),
    (
        vk::ImageUsageFlags::TRANSFER_DST,
        vk::FormatFeatureFlags::TRANSFER_DST,
    ),
    (
        vk::ImageUsageFlags::SAMPLED,
        vk::FormatFeatureFlags::SAMPLED_IMAGE,
    ),
    (
        vk::ImageUsageFlags::STORAGE,
        vk::FormatFeatureFlags::STORAGE_IMAGE,
    ),
    (
        vk::ImageUsageFlags::COLOR_ATTACHMENT,
        vk::FormatFeatureFlags::COLOR_ATTACHMENT,
    ),
];

/// The limits of images of these parameters; `None` when they are not supported.
pub fn image_format_properties(
    format: vk::Format,
    ty: vk::ImageType,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
) -> Option<vk::ImageFormatProperties> {
    let features = format_features(format);
    let linear = match tiling {
        vk::ImageTiling::OPTIMAL => false,
        vk::ImageTiling::LINEAR => true,
        _ => return None,
    };
    let mut needed = vk::FormatFeatureFlags::empty();
    let mut known = vk::ImageUsageFlags::empty();
    for (u, f) in USAGE_FEATURES {
        known |= u;
        if usage.contains(u) {
            needed |= f;
        }
    }
    let supported = ty == vk::ImageType::TYPE_2D
        && !usage.is_empty()
        && known.contains(usage)
        && features.contains(needed)
        && SUPPORTED_CREATE_FLAGS.contains(flags);
    supported.then_some(vk::ImageFormatProperties {
        max_extent: vk::Extent3D {
            width: 16384,
            height: 16384,
            depth: 1,
        },
        max_mip_levels: if linear { 1 } else { 15 },
        max_array_layers: if linear { 1 } else { 2048 },
        sample_counts: vk::SampleCountFlags::TYPE_1,
        max_resource_size: 1 << 31,
    })
}

fn format_properties(format: vk::Format) -> vk::FormatProperties {
    let features = format_features(format);
    vk::FormatProperties {
        linear_tiling_features: features,
        optimal_tiling_features: features,
        buffer_features: vk::FormatFeatureFlags::empty(),
    }
}

pub(crate) unsafe extern "system" fn get_format_properties(
    _physical_device: vk::PhysicalDevice,
    format: vk::Format,
    p_properties: *mut vk::FormatProperties,
) {
    entry("vkGetPhysicalDeviceFormatProperties", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let Some(out) = unsafe { p_properties.as_mut() } {
            *out = format_properties(format);
        }
    })
}

pub(crate) unsafe extern "system" fn get_format_properties2(
    _physical_device: vk::PhysicalDevice,
    format: vk::Format,
    p_properties: *mut vk::FormatProperties2<'_>,
) {
    entry("vkGetPhysicalDeviceFormatProperties2", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        let Some(out) = (unsafe { p_properties.as_mut() }) else {
            return;
        };
        let props = format_properties(format);
        out.format_properties = props;
        let wide = |f: vk::FormatFeatureFlags| vk::FormatFeatureFlags2::from_raw(f.as_raw().into());
        // SAFETY: the output chain is valid; the pointer is cast to the structure its sType
        // names and only its own fields are written.
        unsafe {
            ffi::for_each_out(out.p_next, |s_type, p| {
                if s_type == vk::StructureType::FORMAT_PROPERTIES_3 {
                    let s = &mut *p.cast::<vk::FormatProperties3<'_>>();
                    s.linear_tiling_features = wide(props.linear_tiling_features);
                    s.optimal_tiling_features = wide(props.optimal_tiling_features);
                    s.buffer_features = wide(props.buffer_features);
                }
            })
        };
    })
}

pub(crate) unsafe extern "system" fn get_image_format_properties(
    _physical_device: vk::PhysicalDevice,
    format: vk::Format,
    ty: vk::ImageType,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
    p_properties: *mut vk::ImageFormatProperties,
) -> vk::Result {
    entry(
        "vkGetPhysicalDeviceImageFormatProperties",
        vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let Some(out) = (unsafe { p_properties.as_mut() }) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let props = image_format_properties(format, ty, tiling, usage, flags);
            *out = props.unwrap_or_default();
            match props {
                Some(_) => vk::Result::SUCCESS,
                None => vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
            }
        },
    )
}

/// `vkGetPhysicalDeviceImageFormatProperties2`: the image's limits, and with a
/// `VkPhysicalDeviceExternalImageFormatInfo` of a non-zero handle type the configured
/// properties of that type for images of this usage. A handle type that is neither exportable
/// nor importable for such images is not compatible with them: `VK_ERROR_FORMAT_NOT_SUPPORTED`.
///
/// # Safety
/// Vulkan's contract for the command.
unsafe fn image_format_properties2(
    physical_device: vk::PhysicalDevice,
    info: &vk::PhysicalDeviceImageFormatInfo2<'_>,
    out: &mut vk::ImageFormatProperties2<'_>,
) -> vk::Result {
    out.image_format_properties = vk::ImageFormatProperties::default();
    let Some(pd) = physical_device::lookup(physical_device) else {
        return vk::Result::ERROR_UNKNOWN;
    };
    let Some(props) =
        image_format_properties(info.format, info.ty, info.tiling, info.usage, info.flags)
    else {
        return vk::Result::ERROR_FORMAT_NOT_SUPPORTED;
    };
    // SAFETY: `p_next` heads a valid input chain; the structure is read as its sType names.
    let handle_type = unsafe {
        ffi::find_in_chain(
            info.p_next,
            vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
        )
        .map(|p| {
            (*p.cast::<vk::PhysicalDeviceExternalImageFormatInfo<'_>>())
                .handle_type
                .as_raw()
        })
    }
    .unwrap_or(0);
    // Handle type 0 is as if the structure were absent: the output structure is zeroed.
    let external = if handle_type == 0 {
        Default::default()
    } else {
        let e = pd
            .config
            .handle_type(handle_type)
            .filter(|_| handle_type.is_power_of_two())
            .map(|s| s.for_image(info.usage.as_raw()))
            .unwrap_or_default();
        if !e.is_supported() {
            return vk::Result::ERROR_FORMAT_NOT_SUPPORTED;
        }
        e
    };
    out.image_format_properties = props;
    // SAFETY: the output chain is valid; the pointer is cast to the structure its sType names
    // and only its own fields are written.
    unsafe {
        ffi::for_each_out(out.p_next, |s_type, p| {
            if s_type == vk::StructureType::EXTERNAL_IMAGE_FORMAT_PROPERTIES {
                (*p.cast::<vk::ExternalImageFormatProperties<'_>>()).external_memory_properties =
                    external_memory_properties(external);
            }
        })
    };
    vk::Result::SUCCESS
}

pub(crate) unsafe extern "system" fn get_image_format_properties2(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceImageFormatInfo2<'_>,
    p_properties: *mut vk::ImageFormatProperties2<'_>,
) -> vk::Result {
    entry(
        "vkGetPhysicalDeviceImageFormatProperties2",
        vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) =
                (unsafe { p_info.as_ref() }, unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            // SAFETY: forwarded under the command's contract.
            unsafe { image_format_properties2(physical_device, info, out) }
        },
    )
}

/// `vkGetPhysicalDeviceExternalImageFormatPropertiesNV` (VK_NV_external_memory_capabilities): no
/// NV handle type is supported for images.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "system" fn get_external_image_format_properties_nv(
    _physical_device: vk::PhysicalDevice,
    _format: vk::Format,
    _ty: vk::ImageType,
    _tiling: vk::ImageTiling,
    _usage: vk::ImageUsageFlags,
    _flags: vk::ImageCreateFlags,
    _external_handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    _p_properties: *mut vk::ExternalImageFormatPropertiesNV,
) -> vk::Result {
    entry(
        "vkGetPhysicalDeviceExternalImageFormatPropertiesNV",
        vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
        || vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLOR: vk::ImageUsageFlags = vk::ImageUsageFlags::COLOR_ATTACHMENT;

    fn props(
        format: vk::Format,
        tiling: vk::ImageTiling,
        usage: vk::ImageUsageFlags,
    ) -> Option<vk::ImageFormatProperties> {
        image_format_properties(
            format,
            vk::ImageType::TYPE_2D,
            tiling,
            usage,
            vk::ImageCreateFlags::empty(),
        )
    }

    #[test]
    fn rgba8_is_supported_for_both_tilings() {
        let all = vk::ImageUsageFlags::TRANSFER_SRC
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::SAMPLED
            | COLOR;
        let optimal = props(vk::Format::R8G8B8A8_UNORM, vk::ImageTiling::OPTIMAL, all).unwrap();
        assert_eq!(
            (optimal.max_mip_levels, optimal.max_array_layers),
            (15, 2048)
        );
        let linear = props(vk::Format::R8G8B8A8_UNORM, vk::ImageTiling::LINEAR, all).unwrap();
        assert_eq!((linear.max_mip_levels, linear.max_array_layers), (1, 1));
        assert!(props(vk::Format::B8G8R8A8_SRGB, vk::ImageTiling::OPTIMAL, COLOR).is_some());
    }

    #[test]
    fn other_parameters_are_not_supported() {
        let rgba = vk::Format::R8G8B8A8_UNORM;
        let optimal = vk::ImageTiling::OPTIMAL;
        assert!(props(vk::Format::D32_SFLOAT, optimal, COLOR).is_none());
        assert!(props(rgba, vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT, COLOR).is_none());
        assert!(props(rgba, optimal, vk::ImageUsageFlags::empty()).is_none());
        assert!(props(rgba, optimal, vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT).is_none());
        let storage = vk::ImageUsageFlags::STORAGE;
        assert!(props(rgba, optimal, storage).is_some());
        assert!(props(vk::Format::R8G8B8A8_SRGB, optimal, storage).is_none());
        let cube = vk::ImageCreateFlags::CUBE_COMPATIBLE;
        assert!(
            image_format_properties(rgba, vk::ImageType::TYPE_2D, optimal, COLOR, cube).is_none()
        );
        let flags = vk::ImageCreateFlags::empty();
        assert!(
            image_format_properties(rgba, vk::ImageType::TYPE_3D, optimal, COLOR, flags).is_none()
        );
    }

    #[test]
    fn texel_sizes() {
        assert_eq!(texel_size(vk::Format::B8G8R8A8_UNORM), 4);
        assert_eq!(texel_size(vk::Format::R32G32B32A32_SFLOAT), 16);
        assert!(format_features(vk::Format::R8_UNORM).is_empty());
    }
}
