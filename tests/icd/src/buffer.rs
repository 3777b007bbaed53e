//! Buffers: `vkCreateBuffer` (size, usage and the handle types of a chained
//! `VkExternalMemoryBufferCreateInfo` are recorded), `vkDestroyBuffer`,
//! `vkGetBufferMemoryRequirements(2)` (dedicated when the configuration says `DEDICATED_ONLY`),
//! `vkBindBufferMemory(2)`.

use ash::vk;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::{self, Device};
use crate::ffi::entry;
use crate::objects::lock;
use crate::resource::{self, Binding};

/// High bits of every `VkBuffer` handle value (the low bits are the buffer's number).
pub const BUFFER_HANDLE_TAG: u64 = 0xEB00_0000_0000_0000;
/// `VkMemoryRequirements::alignment` of every buffer.
pub const BUFFER_ALIGNMENT: u64 = 256;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One `VkBuffer`.
pub struct Buffer {
    pub size: u64,
    /// `VkBufferUsageFlags`
    pub usage: u32,
    /// `VkExternalMemoryBufferCreateInfo::handleTypes`
    pub external_types: u32,
    pub bound: Binding,
}

/// The memory requirements of a buffer of `size` bytes on a device with `type_count` memory
/// types: the size rounded up to [`BUFFER_ALIGNMENT`], any memory type.
pub fn requirements(size: u64, type_count: usize) -> vk::MemoryRequirements {
    resource::requirements(size, BUFFER_ALIGNMENT, type_count)
}

pub(crate) unsafe extern "system" fn create_buffer(
    device: vk::Device,
    p_create_info: *const vk::BufferCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_buffer: *mut vk::Buffer,
) -> vk::Result {
    entry(
        "vkCreateBuffer",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_create_info.as_ref() }, unsafe {
                p_buffer.as_mut()
            }) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            let Some(dev) = device::lookup(device) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            if info.size == 0 {
                return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
            }
            // SAFETY: `p_next` heads the caller's valid chain.
            let external_types = unsafe {
                resource::external_handle_types(
                    info.p_next,
                    vk::StructureType::EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                )
            };
            let handle = BUFFER_HANDLE_TAG | NEXT_ID.fetch_add(1, Ordering::Relaxed);
            let buffer = Buffer {
                size: info.size,
                usage: info.usage.as_raw(),
                external_types,
                bound: None,
            };
            lock(&dev.buffers).insert(handle, buffer);
            *out = vk::Handle::from_raw(handle);
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn destroy_buffer(
    device: vk::Device,
    buffer: vk::Buffer,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkDestroyBuffer", (), || {
        if let Some(dev) = device::lookup(device) {
            lock(&dev.buffers).remove(&vk::Handle::as_raw(buffer));
        }
    })
}

/// The requirements of `buffer` on `device`, and whether its memory must be dedicated; all zero
/// when either is unknown.
fn buffer_requirements(device: vk::Device, buffer: vk::Buffer) -> (vk::MemoryRequirements, bool) {
    let Some(dev) = device::lookup(device) else {
        return Default::default();
    };
    let buffers = lock(&dev.buffers);
    let Some(b) = buffers.get(&vk::Handle::as_raw(buffer)) else {
        return Default::default();
    };
    (
        requirements(b.size, dev.config.memory_types.len()),
        dev.config
            .requires_dedicated(b.external_types, false, b.usage),
    )
}

pub(crate) unsafe extern "system" fn get_buffer_memory_requirements(
    device: vk::Device,
    buffer: vk::Buffer,
    p_memory_requirements: *mut vk::MemoryRequirements,
) {
    entry("vkGetBufferMemoryRequirements", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let Some(out) = unsafe { p_memory_requirements.as_mut() } {
            *out = buffer_requirements(device, buffer).0;
        }
    })
}

pub(crate) unsafe extern "system" fn get_buffer_memory_requirements2(
    device: vk::Device,
    p_info: *const vk::BufferMemoryRequirementsInfo2<'_>,
    p_memory_requirements: *mut vk::MemoryRequirements2<'_>,
) {
    entry("vkGetBufferMemoryRequirements2", (), || {
        // SAFETY: valid or NULL pointers (Vulkan contract).
        let (Some(info), Some(out)) = (unsafe { p_info.as_ref() }, unsafe {
            p_memory_requirements.as_mut()
        }) else {
            return;
        };
        let (requirements, dedicated) = buffer_requirements(device, info.buffer);
        out.memory_requirements = requirements;
        // SAFETY: the output chain is valid and writable (Vulkan contract).
        unsafe { resource::fill_dedicated_requirements(out.p_next, dedicated) };
    })
}

fn bind(
    dev: &Device,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    let handle = vk::Handle::as_raw(buffer);
    resource::bind(dev, &dev.buffers, |b| &mut b.bound, handle, memory, offset)
}

pub(crate) unsafe extern "system" fn bind_buffer_memory(
    device: vk::Device,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    entry("vkBindBufferMemory", vk::Result::ERROR_UNKNOWN, || {
        device::lookup(device).map_or(vk::Result::ERROR_UNKNOWN, |dev| {
            bind(&dev, buffer, memory, offset)
        })
    })
}

pub(crate) unsafe extern "system" fn bind_buffer_memory2(
    device: vk::Device,
    count: u32,
    p_infos: *const vk::BindBufferMemoryInfo<'_>,
) -> vk::Result {
    entry("vkBindBufferMemory2", vk::Result::ERROR_UNKNOWN, || {
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
                .map(|i| bind(&dev, i.buffer, i.memory, i.memory_offset)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_round_up_to_the_buffer_alignment() {
        let r = requirements(1, 3);
        assert_eq!((r.size, r.alignment, r.memory_type_bits), (256, 256, 0b111));
    }

    #[test]
    fn unknown_devices_and_buffers_give_zero_requirements() {
        let (r, dedicated) = buffer_requirements(vk::Handle::from_raw(8), vk::Handle::from_raw(9));
        assert_eq!(r.size, 0);
        assert_eq!(r.memory_type_bits, 0);
        assert!(!dedicated);
    }
}
