//! The info structure of the physical-device sync queries
//! (`vkGetPhysicalDeviceExternalSemaphoreProperties`, `vkGetPhysicalDeviceExternalFenceProperties`):
//! its `handleType` and what its `pNext` chain holds.

use super::read::{read_node, read_struct, walk_chain};
use crate::args::{ChainEnd, StructArg, SyncQueryInfo};
use ash::vk;

/// Reads a `VkPhysicalDeviceExternalSemaphoreInfo` (`semaphore`: `VkSemaphoreTypeCreateInfo` may
/// extend it) or a `VkPhysicalDeviceExternalFenceInfo` (nothing extends it). Both are `sType`,
/// `pNext`, `handleType`.
///
/// # Safety
/// `p` is NULL or points to a structure that starts with `sType`, readable as a whole `T` (one of
/// those two) when `sType` is `s_type`, whose `pNext` chain is readable.
pub unsafe fn read_sync_query_info<T: Copy>(
    p: *const T,
    s_type: vk::StructureType,
    semaphore: bool,
) -> StructArg<SyncQueryInfo> {
    // SAFETY: the caller's contract: both structures have VkPhysicalDeviceExternalFenceInfo's
    // layout, read whole only when the sType matches.
    let header =
        match unsafe { read_struct(p.cast::<vk::PhysicalDeviceExternalFenceInfo>(), s_type) } {
            StructArg::Valid(header) => header,
            StructArg::Null => return StructArg::Null,
            StructArg::WrongSType(found) => return StructArg::WrongSType(found),
        };
    let mut info = SyncQueryInfo {
        handle_type: header.handle_type.as_raw(),
        foreign: None,
        repeated: None,
        timeline: false,
        end: ChainEnd::Complete,
    };
    let mut seen = false;
    // SAFETY: the chain is readable (the caller's contract); a node is read whole only as the
    // structure its sType names.
    info.end = unsafe {
        walk_chain(header.p_next, |node_type, node| {
            if !semaphore || node_type != vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO {
                info.foreign = info.foreign.or(Some(node_type));
                return;
            }
            if seen {
                info.repeated = Some(node_type);
            }
            seen = true;
            let t: vk::SemaphoreTypeCreateInfo<'_> = read_node(node);
            info.timeline |= t.semaphore_type == vk::SemaphoreType::TIMELINE;
        })
    };
    StructArg::Valid(info)
}
