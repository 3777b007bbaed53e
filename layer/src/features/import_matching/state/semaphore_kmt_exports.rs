//! The global share (KMT) handles `vkGetSemaphoreWin32HandleKHR` returned in this process, with
//! the semaphore each was exported from, so that an import of one
//! (`vkImportSemaphoreWin32HandleKHR`) is checked against that semaphore
//! (`VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03261`, `-03262`, `-flags-03322`).
//!
//! As memory's (`kmt_exports`): a global share handle
//! (`VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT`) is a system-wide name that owns no
//! reference; it names the payload while the semaphore it was exported from holds it, and
//! nothing else can be given that name meanwhile. So an export is recorded only from a
//! semaphore whose payload is its created one (nothing imported into it), and it goes when that
//! semaphore is destroyed, when a payload is imported into it (its created payload may then be
//! gone), and at `vkDestroyDevice`. NT handles are not recorded: their values index the
//! process's handle table and may be closed and reused for another object.
//!
//! At most [`LIMIT`] handles are recorded at once; past it, exports are not recorded and their
//! imports not checked.

use super::semaphore_exports::SemaphoreOrigin;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most handles recorded at once in the process.
pub const LIMIT: usize = 256;

struct Exported {
    handle: u64,
    origin: SemaphoreOrigin,
}

static EXPORTS: Mutex<Vec<Exported>> = Mutex::new(Vec::new());
/// How many are recorded (written under the lock), so that a destroy or an import pays one
/// atomic load while none is.
static COUNT: AtomicUsize = AtomicUsize::new(0);

/// After `vkGetSemaphoreWin32HandleKHR` returned the global share handle `handle` for the
/// semaphore `origin` names: recorded (the latest export of a name is what it names).
#[cold]
#[inline(never)]
pub fn remember(handle: u64, origin: SemaphoreOrigin) {
    let mut exports = EXPORTS.lock();
    if let Some(known) = exports.iter_mut().find(|e| e.handle == handle) {
        known.origin = origin;
    } else if exports.len() < LIMIT {
        exports.push(Exported { handle, origin });
    }
    COUNT.store(exports.len(), Ordering::Release);
}

/// The semaphore the global share handle `handle` was exported from, while it holds that
/// payload.
pub fn origin_of(handle: u64) -> Option<SemaphoreOrigin> {
    if COUNT.load(Ordering::Acquire) == 0 {
        return None;
    }
    let exports = EXPORTS.lock();
    exports
        .iter()
        .find(|e| e.handle == handle)
        .map(|e| e.origin)
}

#[cold]
#[inline(never)]
fn forget(drop: &dyn Fn(&SemaphoreOrigin) -> bool) {
    let mut exports = EXPORTS.lock();
    exports.retain(|e| !drop(&e.origin));
    COUNT.store(exports.len(), Ordering::Release);
}

/// At `vkDestroySemaphore`, and after a payload was imported into the semaphore: its handles
/// may name nothing, or another payload, from then on.
#[inline(always)]
pub fn forget_semaphore(device: u64, semaphore: u64) {
    if COUNT.load(Ordering::Acquire) != 0 {
        forget(&|o| o.device == device && o.semaphore == semaphore);
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
    use ash::vk;

    fn origin(semaphore: u64) -> SemaphoreOrigin {
        SemaphoreOrigin {
            exportable: None,
            device: 0xd2d2,
            semaphore,
            timeline: semaphore % 2 == 0,
            create_flags: vk::SemaphoreCreateFlags::empty(),
            driver_uuid: None,
            devices: Default::default(),
            process: None,
        }
    }

    #[test]
    fn a_handle_names_its_semaphore_until_that_semaphore_goes() {
        remember(0x7000, origin(0x71));
        remember(0x7000, origin(0x71));
        assert_eq!(origin_of(0x7000), Some(origin(0x71)));
        // The same name from another semaphore (whose destruction the layer missed): the latest.
        remember(0x7000, origin(0x72));
        assert_eq!(origin_of(0x7000), Some(origin(0x72)));
        assert_eq!(origin_of(0x7001), None);
        forget_semaphore(0xd2d2, 0x72);
        assert_eq!(origin_of(0x7000), None);
        remember(0x7002, origin(0x73));
        forget_device(0xd2d2);
        assert_eq!(origin_of(0x7002), None);
    }
}
