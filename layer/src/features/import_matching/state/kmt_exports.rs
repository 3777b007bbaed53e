//! The global share (KMT) handles `vkGetMemoryWin32HandleKHR` returned in this process, with
//! the allocation each was exported from, so that an import of one is checked against that
//! allocation (`VUID-VkMemoryAllocateInfo-allocationSize-01743`,
//! `VUID-VkMemoryDedicatedAllocateInfo-image-01876` / `-buffer-01877`).
//!
//! **Why a handle value is enough here.** A global share handle
//! (`VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT`, `_D3D11_TEXTURE_KMT_BIT`) is a
//! system-wide name that owns no reference: it names the payload while the memory it was
//! exported from lives, and nothing else can be given that name meanwhile. So while that
//! memory is live, an import of the same handle type and value is an import of its payload.
//! The entry goes before `vkFreeMemory` of the exporting memory goes down, and at
//! `vkDestroyDevice`. NT handles are not recorded: their values index the process's handle
//! table, and the app may close one and the number be reused for another object, which a layer
//! cannot tell (see the catalog's notes).
//!
//! At most [`LIMIT`] handles are recorded at once; past it, exports are not recorded and their
//! imports not checked.

use crate::features::import_matching::state::opaque_exports::{set_count, ExportOrigin};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most handles recorded at once in the process.
pub const LIMIT: usize = 256;

struct Exported {
    handle_type: u32,
    handle: u64,
    origin: ExportOrigin,
}

static EXPORTS: Mutex<Vec<Exported>> = Mutex::new(Vec::new());
/// How many are recorded (written under the lock; part of `opaque_exports`' summed count, which
/// is all a `vkFreeMemory` reads when nothing is tracked).
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// After `vkGetMemoryWin32HandleKHR` returned the global share handle `handle` of
/// `handle_type` for `memory` of `device`: recorded with its allocation, `origin` (made only
/// when the handle is not already recorded for that memory, a repeated export's common case,
/// which is only a lock and a look, inlined: the rest is out of line).
#[inline(always)]
pub fn remember(
    (device, memory): (u64, u64),
    handle_type: u32,
    handle: u64,
    origin: impl FnOnce() -> ExportOrigin,
) {
    let mut exports = EXPORTS.lock();
    // The same name again (a repeated export), or a name whose memory the layer did not see
    // freed: the latest export is what it names. Found in place, nothing moves or is counted.
    match exports
        .iter_mut()
        .find(|e| e.handle_type == handle_type && e.handle == handle)
    {
        Some(known) if known.origin.device == device && known.origin.memory == memory => {}
        Some(known) => known.origin = made(origin),
        None => add(&mut exports, (handle_type, handle), origin),
    }
}

/// The origin of an export, made out of line: a repeated export needs none.
#[cold]
#[inline(never)]
fn made(origin: impl FnOnce() -> ExportOrigin) -> ExportOrigin {
    origin()
}

/// A global share handle not recorded yet, up to [`LIMIT`].
#[cold]
#[inline(never)]
fn add(
    exports: &mut Vec<Exported>,
    (handle_type, handle): (u32, u64),
    origin: impl FnOnce() -> ExportOrigin,
) {
    if exports.len() < LIMIT {
        exports.push(Exported {
            handle_type,
            handle,
            origin: origin(),
        });
        set_count(&COUNT, exports.len());
    }
}

/// The allocation the global share handle `handle` of `handle_type` was exported from, while it
/// is live.
pub fn origin_of(handle_type: u32, handle: u64) -> Option<ExportOrigin> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return None;
    }
    let exports = EXPORTS.lock();
    exports
        .iter()
        .find(|e| e.handle_type == handle_type && e.handle == handle)
        .map(|e| e.origin)
}

#[cold]
#[inline(never)]
fn forget(drop: &dyn Fn(&ExportOrigin) -> bool) {
    let mut exports = EXPORTS.lock();
    exports.retain(|e| !drop(&e.origin));
    set_count(&COUNT, exports.len());
}

/// Before `vkFreeMemory` of `memory` goes down: its handles name nothing once it is gone.
#[inline(always)]
pub fn forget_memory(device: u64, memory: u64) {
    if COUNT.load(Ordering::Acquire) != 0 {
        forget(&|o| o.device == device && o.memory == memory);
    }
}

/// At `vkDestroyDevice`.
pub fn forget_device(device: u64) {
    if COUNT.load(Ordering::Acquire) != 0 {
        forget(&|o| o.device == device);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(memory: u64) -> ExportOrigin {
        ExportOrigin {
            device: 0xd1d1,
            memory,
            size: 4096,
            memory_type_index: 0,
            created_here: true,
            dedicated_to: None,
            device_uuid: None,
            driver_uuid: None,
            physical_devices: Default::default(),
            device_mask: None,
            exporter: None,
        }
    }

    #[test]
    fn a_handle_names_its_memory_until_that_memory_is_freed() {
        const KMT: u32 = 1 << 2;
        let record = |memory: u64, handle: u64| {
            remember((0xd1d1, memory), KMT, handle, || origin(memory));
        };
        record(0x61, 0x4000);
        record(0x61, 0x4000);
        assert_eq!(origin_of(KMT, 0x4000), Some(origin(0x61)));
        // The same name from other memory (whose free the layer missed): the latest export.
        record(0x63, 0x4000);
        assert_eq!(origin_of(KMT, 0x4000), Some(origin(0x63)));
        record(0x61, 0x4000);
        // Another handle type with the same value is another name.
        assert_eq!(origin_of(1 << 4, 0x4000), None);
        forget_memory(0xd1d1, 0x61);
        assert_eq!(origin_of(KMT, 0x4000), None);
        record(0x62, 0x4001);
        forget_device(0xd1d1);
        assert_eq!(origin_of(KMT, 0x4001), None);
    }
}
