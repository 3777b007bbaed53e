//! What buffers and images share: memory requirements, dedicated-allocation requirements from
//! the configuration, external handle types declared at creation, binding memory.

use ash::vk;
use std::ffi::c_void;
use std::sync::Mutex;

use crate::device::Device;
use crate::ffi;
use crate::objects::{lock, Map};

/// Memory bound to a resource: the `VkDeviceMemory` handle value and the offset.
pub type Binding = Option<(u64, vk::DeviceSize)>;

/// Requirements of `size` bytes aligned to `alignment` (a power of two) on a device with
/// `type_count` memory types: every type is allowed.
pub fn requirements(size: u64, alignment: u64, type_count: usize) -> vk::MemoryRequirements {
    let memory_type_bits = if type_count >= 32 {
        u32::MAX
    } else {
        (1u32 << type_count) - 1
    };
    vk::MemoryRequirements {
        size: size.div_ceil(alignment).saturating_mul(alignment),
        alignment,
        memory_type_bits,
    }
}

/// The handle types of a `VkExternalMemoryBufferCreateInfo` / `VkExternalMemoryImageCreateInfo`
/// (`s_type`) in a create info's chain; 0 without one.
///
/// # Safety
/// `p_next` is NULL or the head of a valid chain of Vulkan structures.
pub unsafe fn external_handle_types(p_next: *const c_void, s_type: vk::StructureType) -> u32 {
    // SAFETY: both structures are { sType, pNext, VkExternalMemoryHandleTypeFlags handleTypes },
    // read as the buffer one; the chain is valid (caller's contract).
    unsafe {
        ffi::find_in_chain(p_next, s_type).map_or(0, |p| {
            (*p.cast::<vk::ExternalMemoryBufferCreateInfo<'_>>())
                .handle_types
                .as_raw()
        })
    }
}

/// Writes `VkMemoryDedicatedRequirements` if the output chain has one: a resource whose memory
/// must be dedicated also prefers it.
///
/// # Safety
/// `p_next` is NULL or the head of a valid chain of writable Vulkan structures.
pub unsafe fn fill_dedicated_requirements(p_next: *mut c_void, requires: bool) {
    let value = vk::Bool32::from(requires);
    // SAFETY: the chain is valid; the pointer is cast to the structure its sType names and
    // only its own fields are written.
    unsafe {
        ffi::for_each_out(p_next, |s_type, p| {
            if s_type == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                let d = &mut *p.cast::<vk::MemoryDedicatedRequirements<'_>>();
                d.prefers_dedicated_allocation = value;
                d.requires_dedicated_allocation = value;
            }
        })
    };
}

/// Records that `memory` is bound at `offset` to the resource `handle` of `resources`.
/// `VK_ERROR_UNKNOWN` when the memory or the resource is unknown; nothing else is checked
/// (validating the binding is the layer's job).
pub fn bind<T>(
    dev: &Device,
    resources: &Mutex<Map<u64, T>>,
    binding: impl FnOnce(&mut T) -> &mut Binding,
    handle: u64,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    let memory = vk::Handle::as_raw(memory);
    if !lock(&dev.memory).contains_key(&memory) {
        return vk::Result::ERROR_UNKNOWN;
    }
    match lock(resources).get_mut(&handle) {
        Some(r) => {
            *binding(r) = Some((memory, offset));
            vk::Result::SUCCESS
        }
        None => vk::Result::ERROR_UNKNOWN,
    }
}

/// The `count` structures at `p` (an array argument); `None` when `p` is NULL and `count` is not 0.
///
/// # Safety
/// `p` is NULL or valid for reading `count` structures.
pub unsafe fn slice<'a, T>(p: *const T, count: u32) -> Option<&'a [T]> {
    if count == 0 {
        return Some(&[]);
    }
    // SAFETY: non-NULL and valid for `count` reads (caller's contract).
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, count as usize) })
}

/// Runs every result to the end; the first failure, else `VK_SUCCESS`.
pub fn first_failure(results: impl Iterator<Item = vk::Result>) -> vk::Result {
    results.fold(vk::Result::SUCCESS, |first, r| {
        if first == vk::Result::SUCCESS {
            r
        } else {
            first
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_round_up_and_allow_every_type() {
        let r = requirements(1, 256, 3);
        assert_eq!((r.size, r.alignment, r.memory_type_bits), (256, 256, 0b111));
        assert_eq!(requirements(256, 256, 1).size, 256);
        assert_eq!(requirements(257, 256, 32).memory_type_bits, u32::MAX);
        assert_eq!(requirements(257, 256, 32).size, 512);
        assert_eq!(requirements(4097, 4096, 2).size, 8192);
    }

    #[test]
    fn dedicated_requirements_are_written_into_the_chain() {
        let mut d = vk::MemoryDedicatedRequirements::default();
        let p: *mut vk::MemoryDedicatedRequirements<'_> = &mut d;
        // SAFETY: a chain of one valid writable structure.
        unsafe { fill_dedicated_requirements(p.cast(), true) };
        assert_eq!(
            (
                d.prefers_dedicated_allocation,
                d.requires_dedicated_allocation
            ),
            (vk::TRUE, vk::TRUE)
        );
        let p: *mut vk::MemoryDedicatedRequirements<'_> = &mut d;
        // SAFETY: as above.
        unsafe { fill_dedicated_requirements(p.cast(), false) };
        assert_eq!(d.requires_dedicated_allocation, vk::FALSE);
    }
}
