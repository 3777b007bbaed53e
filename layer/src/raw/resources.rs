//! Readers of the buffer and image create infos and of the bind infos: what the layer keeps of a
//! buffer or image (`state::resources`), and which memory is bound to which resource.

use super::{read_node, read_struct, walk_chain, ChainEnd, StructArg};
use crate::state::resources::driver_answers::{BufferQuery, ImageQuery};
use crate::state::resources::{BufferFacts, Created, ImageFacts};
use ash::vk::{self, Handle};

/// What to record from a `VkBufferCreateInfo`: the facts every live buffer keeps (`None` when
/// the create info is NULL or of another `sType`), and the query to judge its exports with:
/// only for one made with external-memory handle types (`VkExternalMemoryBufferCreateInfo`), whose
/// usage fits the query's 32-bit `VkBufferUsageFlags` (a `VkBufferUsageFlags2CreateInfo` with
/// higher bits is not judged).
///
/// # Safety
/// `p` is what the app passed to `vkCreateBuffer`: NULL or a readable create info and chain.
pub unsafe fn read_buffer_create_info(
    p: *const vk::BufferCreateInfo<'_>,
) -> Created<BufferFacts, BufferQuery> {
    // SAFETY: the caller's contract; NULL and sType are checked first.
    let StructArg::Valid(info) = (unsafe { read_struct(p, vk::StructureType::BUFFER_CREATE_INFO) })
    else {
        return Created::default();
    };
    let mut external = vk::ExternalMemoryHandleTypeFlags::empty();
    let mut usage = u64::from(info.usage.as_raw());
    // SAFETY: each node is read as the structure its sType names.
    let end = unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::EXTERNAL_MEMORY_BUFFER_CREATE_INFO => {
                let e: vk::ExternalMemoryBufferCreateInfo = read_node(node);
                external |= e.handle_types;
            }
            vk::StructureType::BUFFER_USAGE_FLAGS_2_CREATE_INFO_KHR => {
                let u: vk::BufferUsageFlags2CreateInfoKHR = read_node(node);
                usage = u.usage.as_raw();
            }
            _ => {}
        })
    };
    let facts = Some(BufferFacts {
        flags: info.flags,
        external: (end == ChainEnd::Complete).then_some(external),
    });
    let judged = end == ChainEnd::Complete && !external.is_empty();
    let export_query = u32::try_from(usage)
        .ok()
        .filter(|_| judged)
        .map(|usage| BufferQuery {
            flags: info.flags,
            usage: vk::BufferUsageFlags::from_raw(usage),
        });
    Created {
        facts,
        export_query,
    }
}

/// What to record from a `VkImageCreateInfo`: the facts every live image keeps (`None` when the
/// create info is NULL or of another `sType`), and the query to judge its exports with: only
/// for one made with external-memory handle types (`VkExternalMemoryImageCreateInfo`). Images with
/// DRM format modifier tiling are not judged there: the query needs the modifier, which the
/// create info may leave to the driver.
///
/// # Safety
/// `p` is what the app passed to `vkCreateImage`: NULL or a readable create info and chain.
pub unsafe fn read_image_create_info(
    p: *const vk::ImageCreateInfo<'_>,
) -> Created<ImageFacts, ImageQuery> {
    // SAFETY: the caller's contract; NULL and sType are checked first.
    let StructArg::Valid(info) = (unsafe { read_struct(p, vk::StructureType::IMAGE_CREATE_INFO) })
    else {
        return Created::default();
    };
    let mut external = vk::ExternalMemoryHandleTypeFlags::empty();
    let mut stencil_usage = None;
    let mut view_formats = None;
    // SAFETY: each node is read as the structure its sType names; the format list's array as
    // the app described it.
    let end = unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::EXTERNAL_MEMORY_IMAGE_CREATE_INFO => {
                let e: vk::ExternalMemoryImageCreateInfo = read_node(node);
                external |= e.handle_types;
            }
            vk::StructureType::IMAGE_STENCIL_USAGE_CREATE_INFO => {
                let s: vk::ImageStencilUsageCreateInfo = read_node(node);
                stencil_usage = Some(s.stencil_usage);
            }
            vk::StructureType::IMAGE_FORMAT_LIST_CREATE_INFO => {
                let l: vk::ImageFormatListCreateInfo = read_node(node);
                view_formats = Some(if l.p_view_formats.is_null() {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(l.p_view_formats, l.view_format_count as usize)
                        .to_vec()
                });
            }
            _ => {}
        })
    };
    let facts = Some(ImageFacts {
        flags: info.flags,
        format: info.format,
        external: (end == ChainEnd::Complete).then_some(external),
    });
    let judged = end == ChainEnd::Complete
        && !external.is_empty()
        && info.tiling != vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT;
    let export_query = judged.then_some(ImageQuery {
        format: info.format,
        image_type: info.image_type,
        tiling: info.tiling,
        usage: info.usage,
        flags: info.flags,
        stencil_usage,
        view_formats,
    });
    Created {
        facts,
        export_query,
    }
}

/// One binding of memory to a buffer or image: `(resource handle, memory handle)`.
pub type Binding = (u64, u64);

/// The bindings of a `vkBindBufferMemory2`/`vkBindImageMemory2` array whose elements have the
/// `sType` `s_type` (others are skipped), each with its index. `read` takes the resource and
/// memory of one element.
///
/// # Safety
/// `infos` is NULL or points to `count` readable structures starting with `sType`.
pub unsafe fn read_bind_infos<T: Copy>(
    infos: *const T,
    count: u32,
    s_type: vk::StructureType,
    read: impl Fn(&T) -> Binding,
) -> Vec<(usize, Binding)> {
    if infos.is_null() {
        return Vec::new();
    }
    (0..count as usize)
        .filter_map(|i| {
            // SAFETY: element `i` of the app's array; NULL and sType checked by read_struct.
            match unsafe { read_struct(infos.add(i), s_type) } {
                StructArg::Valid(info) => Some((i, read(&info))),
                _ => None,
            }
        })
        .collect()
}

/// `(buffer, memory)` of a `VkBindBufferMemoryInfo`.
pub fn buffer_binding(info: &vk::BindBufferMemoryInfo<'_>) -> Binding {
    (info.buffer.as_raw(), info.memory.as_raw())
}

/// `(image, memory)` of a `VkBindImageMemoryInfo`.
pub fn image_binding(info: &vk::BindImageMemoryInfo<'_>) -> Binding {
    (info.image.as_raw(), info.memory.as_raw())
}
