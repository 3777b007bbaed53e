//! The one module that reads and writes through pointers the app or the loader handed us.
//!
//! Everything here turns a raw pointer into owned data (or writes one output value), checks for
//! NULL first, and bounds every walk. The rest of the layer works on the owned values.

use ash::vk;
use std::ffi::{c_char, c_void, CStr};

/// The most structures a pNext walk visits before it gives up (a hostile chain may be endless).
pub const MAX_CHAIN_LENGTH: usize = 1 << 16;

/// A pointer-to-structure argument as the layer found it.
#[derive(Clone, Copy, Debug)]
pub enum StructArg<T> {
    Null,
    /// The structure's `sType` is not the one the command takes; nothing else was read.
    WrongSType(vk::StructureType),
    Valid(T),
}

/// Reads a Vulkan input structure: its `sType` first, the rest only when `sType` matches.
///
/// # Safety
/// `p` must be NULL or point to memory readable for a `VkBaseInStructure` and, when its `sType` is
/// `expected`, for a whole `T` whose first member is `sType`.
pub unsafe fn read_struct<T: Copy>(p: *const T, expected: vk::StructureType) -> StructArg<T> {
    if p.is_null() {
        return StructArg::Null;
    }
    // SAFETY: non-NULL and, by the caller's contract, starts with an sType.
    let s_type = unsafe { p.cast::<vk::StructureType>().read_unaligned() };
    if s_type != expected {
        return StructArg::WrongSType(s_type);
    }
    // SAFETY: the sType says this is a T.
    StructArg::Valid(unsafe { p.read_unaligned() })
}

/// How a pNext walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainEnd {
    Complete,
    /// The chain loops back on itself (found with Brent's algorithm, in constant memory).
    Cycle,
    /// The chain is longer than [`MAX_CHAIN_LENGTH`].
    TooLong,
}

/// Visits every structure of a pNext chain with its `sType` and address.
///
/// # Safety
/// Every non-NULL `pNext` reached must point to a readable `VkBaseInStructure`.
pub unsafe fn walk_chain(
    head: *const c_void,
    mut visit: impl FnMut(vk::StructureType, *const c_void),
) -> ChainEnd {
    let mut node = head.cast::<vk::BaseInStructure>();
    let mut checkpoint: *const vk::BaseInStructure = std::ptr::null();
    let (mut power, mut since_checkpoint) = (1usize, 0usize);
    let mut steps = 0usize;
    while !node.is_null() {
        if node == checkpoint {
            return ChainEnd::Cycle;
        }
        if steps == MAX_CHAIN_LENGTH {
            return ChainEnd::TooLong;
        }
        // SAFETY: non-NULL pNext, readable by the caller's contract.
        let base = unsafe { node.read_unaligned() };
        visit(base.s_type, node.cast());
        steps += 1;
        since_checkpoint += 1;
        if since_checkpoint == power {
            checkpoint = node;
            power = power.saturating_mul(2);
            since_checkpoint = 0;
        }
        node = base.p_next;
    }
    ChainEnd::Complete
}

/// Reads a chain node whose `sType` identified it as a `T`.
///
/// # Safety
/// `p` points to a readable `T` (its `sType` was checked by the caller).
pub unsafe fn read_node<T: Copy>(p: *const c_void) -> T {
    // SAFETY: the caller checked the sType.
    unsafe { p.cast::<T>().read_unaligned() }
}

/// The loader's dispatch key: the first pointer-sized word of a dispatchable handle.
///
/// # Safety
/// `handle` must be a dispatchable handle the loader created (never an unchecked app value).
pub unsafe fn dispatch_key(handle: u64) -> u64 {
    // SAFETY: dispatchable handles point to an object whose first word is the dispatch table.
    unsafe { (handle as usize as *const usize).read() as u64 }
}

/// Copies a counted array of C strings (extension names); NULL arrays or entries are skipped.
///
/// # Safety
/// `names` is NULL or points to `count` pointers, each NULL or a NUL-terminated string.
pub unsafe fn c_string_array(names: *const *const c_char, count: u32) -> Vec<Vec<u8>> {
    if names.is_null() {
        return Vec::new();
    }
    (0..count as usize)
        // SAFETY: within the count the caller vouched for.
        .map(|i| unsafe { names.add(i).read() })
        .filter(|p| !p.is_null())
        // SAFETY: non-NULL, NUL-terminated by the caller's contract.
        .map(|p| unsafe { CStr::from_ptr(p) }.to_bytes().to_vec())
        .collect()
}

/// Copies a NUL-terminated string, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub unsafe fn c_string(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL, NUL-terminated by the caller's contract.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// Borrows a NUL-terminated name (for `vkGet*ProcAddr`), or `None` for NULL.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that outlives the returned borrow.
pub unsafe fn c_name<'a>(p: *const c_char) -> Option<&'a [u8]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL, NUL-terminated by the caller's contract.
    Some(unsafe { CStr::from_ptr(p) }.to_bytes())
}

/// Reads one value from a pointer the loader or driver wrote, if it is not NULL.
///
/// # Safety
/// `p` is NULL or points to a readable `T`.
pub unsafe fn read_out<T: Copy>(p: *const T) -> Option<T> {
    // SAFETY: non-NULL and readable by the caller's contract.
    (!p.is_null()).then(|| unsafe { p.read_unaligned() })
}

mod create_info;
mod loader_link;
pub use create_info::{
    read_allocate_info, read_device_create_info, read_instance_create_info, read_layer_settings,
    AllocateInfoRead, DeviceCreateRead, InstanceCreateRead,
};
pub use loader_link::{take_device_link, take_instance_link};
