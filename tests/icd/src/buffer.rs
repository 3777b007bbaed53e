//! Buffers, just enough for an application to ask for memory requirements and bind memory:
//! `vkCreateBuffer`, `vkDestroyBuffer`, `vkGetBufferMemoryRequirements(2)`,
//! `vkBindBufferMemory(2)`. A buffer is a size and nothing else; binding only checks that the
//! buffer and the memory are live objects of the device (nothing is recorded).

use ash::vk;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::device;
use crate::ffi::{self, entry};
use crate::objects::lock;

/// High bits of every `VkBuffer` handle value (the low bits are the buffer's number).
pub const BUFFER_HANDLE_TAG: u64 = 0xEB00_0000_0000_0000;
/// `VkMemoryRequirements::alignment` of every buffer.
pub const BUFFER_ALIGNMENT: u64 = 256;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The memory requirements of a buffer of `size` bytes on a device with `type_count` memory
/// types: the size rounded up to [`BUFFER_ALIGNMENT`], any memory type.
pub fn requirements(size: u64, type_count: usize) -> vk::MemoryRequirements {
    let memory_type_bits = if type_count >= 32 {
        u32::MAX
    } else {
        (1u32 << type_count) - 1
    };
    vk::MemoryRequirements {
        size: size.div_ceil(BUFFER_ALIGNMENT) * BUFFER_ALIGNMENT,
        alignment: BUFFER_ALIGNMENT,
        memory_type_bits,
    }
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
            let handle = BUFFER_HANDLE_TAG | NEXT_ID.fetch_add(1, Ordering::Relaxed);
            lock(&dev.buffers).insert(handle, info.size);
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

/// The requirements of `buffer` on `device`; all zero when either is unknown.
fn buffer_requirements(device: vk::Device, buffer: vk::Buffer) -> vk::MemoryRequirements {
    let Some(dev) = device::lookup(device) else {
        return vk::MemoryRequirements::default();
    };
    let size = lock(&dev.buffers).get(&vk::Handle::as_raw(buffer)).copied();
    size.map_or_else(vk::MemoryRequirements::default, |s| {
        requirements(s, dev.config.memory_types.len())
    })
}

pub(crate) unsafe extern "system" fn get_buffer_memory_requirements(
    device: vk::Device,
    buffer: vk::Buffer,
    p_memory_requirements: *mut vk::MemoryRequirements,
) {
    entry("vkGetBufferMemoryRequirements", (), || {
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        if let Some(out) = unsafe { p_memory_requirements.as_mut() } {
            *out = buffer_requirements(device, buffer);
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
        out.memory_requirements = buffer_requirements(device, info.buffer);
        // SAFETY: the output chain is valid and writable (Vulkan contract).
        unsafe {
            ffi::for_each_out(out.p_next, |s_type, p| {
                if s_type == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                    let d = &mut *p.cast::<vk::MemoryDedicatedRequirements<'_>>();
                    d.prefers_dedicated_allocation = vk::FALSE;
                    d.requires_dedicated_allocation = vk::FALSE;
                }
            })
        };
    })
}

/// Whether `buffer` and `memory` are live objects of `device`: what binding needs here.
fn can_bind(device: vk::Device, buffer: vk::Buffer, memory: vk::DeviceMemory) -> bool {
    device::lookup(device).is_some_and(|dev| {
        lock(&dev.buffers).contains_key(&vk::Handle::as_raw(buffer))
            && lock(&dev.memory).contains_key(&vk::Handle::as_raw(memory))
    })
}

/// The result of binding: `VK_ERROR_OUT_OF_DEVICE_MEMORY` (the only failure the command has)
/// for an unknown buffer or memory.
fn bind_result(bound: bool) -> vk::Result {
    if bound {
        vk::Result::SUCCESS
    } else {
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
    }
}

pub(crate) unsafe extern "system" fn bind_buffer_memory(
    device: vk::Device,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    _memory_offset: vk::DeviceSize,
) -> vk::Result {
    entry(
        "vkBindBufferMemory",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || bind_result(can_bind(device, buffer, memory)),
    )
}

pub(crate) unsafe extern "system" fn bind_buffer_memory2(
    device: vk::Device,
    bind_info_count: u32,
    p_bind_infos: *const vk::BindBufferMemoryInfo<'_>,
) -> vk::Result {
    entry(
        "vkBindBufferMemory2",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            if bind_info_count == 0 || p_bind_infos.is_null() {
                return bind_result(bind_info_count == 0);
            }
            // SAFETY: `bind_info_count` structures (Vulkan contract), non-NULL as checked.
            let infos =
                unsafe { std::slice::from_raw_parts(p_bind_infos, bind_info_count as usize) };
            bind_result(infos.iter().all(|i| can_bind(device, i.buffer, i.memory)))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_round_up_and_allow_every_type() {
        let r = requirements(1, 3);
        assert_eq!((r.size, r.alignment, r.memory_type_bits), (256, 256, 0b111));
        assert_eq!(requirements(256, 1).size, 256);
        assert_eq!(requirements(257, 32).memory_type_bits, u32::MAX);
        assert_eq!(requirements(257, 32).size, 512);
    }

    #[test]
    fn unknown_devices_and_buffers_give_zero_requirements() {
        let r = buffer_requirements(vk::Handle::from_raw(8), vk::Handle::from_raw(9));
        assert_eq!(r.size, 0);
        assert_eq!(r.memory_type_bits, 0);
    }
}
