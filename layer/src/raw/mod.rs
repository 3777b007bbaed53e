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

/// Visits every structure of a pNext chain with its `sType` and address, at most
/// [`MAX_CHAIN_LENGTH`] of them.
///
/// A chain that loops back within its first [`MAX_CHAIN_LENGTH`] structures is a `Cycle`, however
/// long the loop: past the last visit the walk goes on reading `pNext`s only, for up to as many
/// steps again, which is where Brent's algorithm is sure to have met a loop of that size (its
/// checkpoint, at step 2^k - 1, sits in the loop once 2^k exceeds the tail, and is met again
/// before it moves once 2^k is at least the loop's length: by step 2^(k+1) - 1 for
/// 2^k <= [`MAX_CHAIN_LENGTH`]). Stopping at the last visit instead, as the walk once did, took a
/// loop of 32,769 to 65,536 structures for a chain too long, and passed it down to the driver.
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
        if steps == 2 * MAX_CHAIN_LENGTH {
            return ChainEnd::TooLong;
        }
        // SAFETY: non-NULL pNext, readable by the caller's contract.
        let base = unsafe { node.read_unaligned() };
        if steps < MAX_CHAIN_LENGTH {
            visit(base.s_type, node.cast());
        }
        steps += 1;
        since_checkpoint += 1;
        if since_checkpoint == power {
            checkpoint = node;
            power = power.saturating_mul(2);
            since_checkpoint = 0;
        }
        node = base.p_next;
    }
    if steps > MAX_CHAIN_LENGTH {
        ChainEnd::TooLong
    } else {
        ChainEnd::Complete
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` structures, the last pointing to structure `loops_to` (or NULL); returns the result of
    /// the walk and the number of visits.
    fn walk(n: usize, loops_to: Option<usize>) -> (ChainEnd, usize) {
        let mut nodes = vec![vk::BaseInStructure::default(); n];
        let base = nodes.as_mut_ptr();
        for i in 0..n {
            let next = if i + 1 < n { Some(i + 1) } else { loops_to };
            // SAFETY: every index is below n; all accesses go through `base`.
            unsafe {
                (*base.add(i)).p_next = next.map_or(std::ptr::null(), |j| base.add(j).cast());
            }
        }
        let mut visits = 0;
        // SAFETY: every pNext is NULL or points into `nodes`.
        let end = unsafe { walk_chain(base.cast(), |_, _| visits += 1) };
        (end, visits)
    }

    #[test]
    fn chains_up_to_the_limit_are_complete_longer_ones_too_long() {
        assert_eq!(walk(3, None), (ChainEnd::Complete, 3));
        assert_eq!(
            walk(MAX_CHAIN_LENGTH, None),
            (ChainEnd::Complete, MAX_CHAIN_LENGTH)
        );
        for n in [MAX_CHAIN_LENGTH + 1, 2 * MAX_CHAIN_LENGTH + 5] {
            assert_eq!(walk(n, None), (ChainEnd::TooLong, MAX_CHAIN_LENGTH), "{n}");
        }
    }

    #[test]
    fn every_loop_within_the_limit_is_a_cycle() {
        // Loops of each size class of Brent's algorithm, up to the limit, with and without a tail;
        // 45,474 = a tail of 102 and a loop of 45,372 is the fuzz target's regression seed.
        for (n, loops_to) in [
            (1, 0),
            (2, 0),
            (3, 1),
            (40_000, 0),
            (45_474, 102),
            (MAX_CHAIN_LENGTH / 2 + 1, 0),
            (MAX_CHAIN_LENGTH, 0),
            (MAX_CHAIN_LENGTH, MAX_CHAIN_LENGTH - 1),
            (MAX_CHAIN_LENGTH, MAX_CHAIN_LENGTH / 2),
        ] {
            let (end, visits) = walk(n, Some(loops_to));
            assert_eq!(end, ChainEnd::Cycle, "{n} structures looping to {loops_to}");
            assert!((n..=MAX_CHAIN_LENGTH).contains(&visits), "{visits} visits");
        }
    }
}
