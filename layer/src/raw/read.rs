//! The readers every other file of `raw` builds on: an input structure by its `sType`, a pNext
//! chain, a dispatch key, C strings, an output value. Below `mod.rs` (which re-exports them),
//! `create_info.rs` and `loader_link.rs`, which use them.

use crate::args::{ChainEnd, StructArg, MAX_CHAIN_LENGTH};
use ash::vk;
use std::ffi::{c_char, c_void, CStr};

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

/// Visits the structures of a pNext chain (the first [`MAX_CHAIN_LENGTH`]) with their `sType`
/// and address, and says how the chain ends. A cycle is reported wherever it starts: one that
/// starts past the visited structures would still make the driver walk forever.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `len` structures linked in order; the last points to the one at `loop_to`, if given.
    fn chain(len: usize, loop_to: Option<usize>) -> Vec<vk::BaseInStructure<'static>> {
        let mut nodes = vec![vk::BaseInStructure::default(); len];
        let base = nodes.as_mut_ptr();
        for i in 0..len {
            let next = match (i + 1 < len, loop_to) {
                (true, _) => base.wrapping_add(i + 1),
                (false, Some(to)) => base.wrapping_add(to),
                (false, None) => std::ptr::null_mut(),
            };
            // SAFETY: i < len.
            unsafe { (*base.add(i)).p_next = next.cast_const() };
        }
        nodes
    }

    /// How the walk of `nodes` ends, and how many structures it visited.
    fn walk(nodes: &[vk::BaseInStructure<'static>]) -> (ChainEnd, usize) {
        let mut visited = 0;
        // SAFETY: every node is a live element of `nodes`.
        let end = unsafe { walk_chain(nodes.as_ptr().cast(), |_, _| visited += 1) };
        (end, visited)
    }

    #[test]
    fn chains_up_to_the_limit_are_visited_whole() {
        assert_eq!(walk(&chain(3, None)), (ChainEnd::Complete, 3));
        let limit = chain(MAX_CHAIN_LENGTH, None);
        assert_eq!(walk(&limit), (ChainEnd::Complete, MAX_CHAIN_LENGTH));
        assert_eq!(
            // SAFETY: NULL is an empty chain: nothing is read.
            unsafe { walk_chain(std::ptr::null(), |_, _| ()) },
            ChainEnd::Complete
        );
    }

    #[test]
    fn a_longer_chain_that_ends_is_too_long_and_visited_to_the_limit() {
        let long = chain(MAX_CHAIN_LENGTH + 1, None);
        assert_eq!(walk(&long), (ChainEnd::TooLong, MAX_CHAIN_LENGTH));
    }

    #[test]
    fn cycles_are_found_wherever_they_start_and_however_long_they_are() {
        for (len, loop_to) in [
            (1, 0),
            (2, 0),
            (10, 7),
            (MAX_CHAIN_LENGTH + 2, MAX_CHAIN_LENGTH), // starts past the limit
            (MAX_CHAIN_LENGTH + 10, 0),               // longer than the limit
            (3 * MAX_CHAIN_LENGTH, MAX_CHAIN_LENGTH - 1),
        ] {
            let nodes = chain(len, Some(loop_to));
            assert_eq!(walk(&nodes).0, ChainEnd::Cycle, "{len} -> {loop_to}");
        }
    }
}
