//! The device mask of each live allocation that was exportable as an opaque fd or a global share
//! handle and named one (`VkMemoryAllocateFlagsInfo` with `VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT`),
//! by (device, memory): what an export of it records, for
//! `VUID-VkMemoryAllocateInfo-None-00643` (an import's device mask against the mask the payload
//! was allocated with). An allocation that names no mask is not in this table: its mask is its
//! memory type heap's default (`opaque_exports::DeviceMask::of`).

use super::opaque_exports::set_count;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::LazyLock;

static MASKS: LazyLock<Mutex<HashMap<(u64, u64), u32>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
/// How many are recorded (written under the lock; part of `opaque_exports`' summed count, which
/// is all a `vkFreeMemory` reads when nothing is tracked).
static COUNT: AtomicUsize = AtomicUsize::new(0);

/// How many allocations' device masks are remembered (introspection).
pub fn entries() -> usize {
    COUNT.load(Ordering::Acquire)
}

/// After `vkAllocateMemory` made `memory`, exportable as an opaque fd or a global share handle,
/// with `VkMemoryAllocateFlagsInfo::deviceMask` `mask`.
#[cold]
#[inline(never)]
pub fn remember(device: u64, memory: u64, mask: u32) {
    let mut masks = MASKS.lock();
    masks.insert((device, memory), mask);
    set_count(&COUNT, masks.len());
}

/// The device mask `memory` was allocated with, if it named one and was exportable as an opaque
/// fd or a global share handle.
pub fn mask_of(device: u64, memory: u64) -> Option<u32> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return None;
    }
    MASKS.lock().get(&(device, memory)).copied()
}

/// Before `vkFreeMemory` of `memory` goes down.
#[inline(always)]
pub fn forget_memory(device: u64, memory: u64) {
    if COUNT.load(Ordering::Acquire) != 0 {
        let mut masks = MASKS.lock();
        masks.remove(&(device, memory));
        set_count(&COUNT, masks.len());
    }
}

/// At `vkDestroyDevice`.
pub fn forget_device(device: u64) {
    if COUNT.load(Ordering::Acquire) != 0 {
        let mut masks = MASKS.lock();
        masks.retain(|(d, _), _| *d != device);
        set_count(&COUNT, masks.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_is_known_until_its_memory_is_freed_or_its_device_destroyed() {
        remember(0xd2d2, 0x71, 0b10);
        assert_eq!(mask_of(0xd2d2, 0x71), Some(0b10));
        assert_eq!(mask_of(0xd2d2, 0x72), None);
        forget_memory(0xd2d2, 0x71);
        assert_eq!(mask_of(0xd2d2, 0x71), None);
        remember(0xd2d2, 0x73, 0b01);
        forget_device(0xd2d2);
        assert_eq!(mask_of(0xd2d2, 0x73), None);
    }
}
