//! The opaque fds `vkGetSemaphoreFdKHR` returned in this process, with the semaphore each was
//! exported from, so that an import of one (`vkImportSemaphoreFdKHR`) is checked against that
//! semaphore (`VUID-VkImportSemaphoreFdInfoKHR-handleType-03263`, `-03264`, `-flags-03323`,
//! `-fd-01544`).
//!
//! An fd is recognised as memory's are (`opaque_exports`): by its open file description, never
//! by its number. The layer holds a descriptor of each export's open file description
//! ([`os::hold_open_file`], within the layer's descriptor budget) and an imported fd is the
//! export's when both name the same payload file ([`Identity::Payload`]: the file is the
//! payload's own, and the held descriptor keeps its identity from being reused) or, for a file
//! shared with other payloads ([`Identity::OpenFile`], a driver's device file), when
//! `kcmp(KCMP_FILE)` says they are the same open file description.
//!
//! At most [`LIMIT`] exports are held (the oldest let go first); a semaphore's go when it is
//! destroyed and a device's when it is destroyed. An import of an fd the layer does not hold is
//! not checked against an export.

use crate::os::payload::{self, Identity};
use crate::os::{self, HeldFile};
use ash::vk;
use parking_lot::Mutex;

/// The most semaphore exports held at once in the process.
pub const LIMIT: usize = 64;

/// The semaphore an opaque fd was exported from, as `vkCreateSemaphore` was given it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemaphoreOrigin {
    pub device: u64,
    pub semaphore: u64,
    /// `VkSemaphoreTypeCreateInfo::semaphoreType` was `VK_SEMAPHORE_TYPE_TIMELINE`.
    pub timeline: bool,
    /// `VkSemaphoreCreateInfo::flags`.
    pub create_flags: vk::SemaphoreCreateFlags,
    /// The `deviceUUID` of the exporting device's physical device, if the layer knows it.
    pub device_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The `driverUUID` of the exporting device's physical device, if the layer knows it.
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
}

struct Held {
    identity: Identity,
    held: HeldFile,
    origin: SemaphoreOrigin,
}

impl Held {
    /// Whether `fd`, of `identity`, is this export.
    fn is(&self, fd: i32, identity: Identity) -> bool {
        match identity {
            Identity::Payload(_) => self.identity == identity,
            Identity::OpenFile(_) => {
                self.identity == identity
                    && os::same_open_file(self.held.number(), fd) == Some(true)
            }
        }
    }
}

static EXPORTS: Mutex<Vec<Held>> = Mutex::new(Vec::new());

/// After `vkGetSemaphoreFdKHR` returned the opaque fd `fd` for the semaphore `origin` names:
/// held, unless an export of the same payload from that semaphore is held already.
pub fn remember(origin: SemaphoreOrigin, fd: i32) {
    let Some(identity) = payload::identity(fd) else {
        return;
    };
    let mut exports = EXPORTS.lock();
    if exports
        .iter()
        .any(|e| e.origin.semaphore == origin.semaphore && e.is(fd, identity))
    {
        return;
    }
    if exports.len() == LIMIT {
        exports.remove(0);
    }
    if let Some(held) = os::hold_open_file(fd) {
        exports.push(Held {
            identity,
            held,
            origin,
        });
    }
}

/// The semaphore the opaque fd `fd` was exported from, if the layer holds that export (the
/// latest export of its payload).
pub fn origin_of(fd: i32) -> Option<SemaphoreOrigin> {
    let identity = payload::identity(fd)?;
    let exports = EXPORTS.lock();
    exports
        .iter()
        .rev()
        .find(|e| e.is(fd, identity))
        .map(|e| e.origin)
}

/// At `vkDestroySemaphore`: its exports are let go.
pub fn forget_semaphore(device: u64, semaphore: u64) {
    let mut exports = EXPORTS.lock();
    if !exports.is_empty() {
        exports.retain(|e| (e.origin.device, e.origin.semaphore) != (device, semaphore));
    }
}

/// At `vkDestroyDevice`: the device's exports are let go.
pub fn forget_device(device: u64) {
    EXPORTS.lock().retain(|e| e.origin.device != device);
}

/// How many exports are held (introspection).
pub fn count() -> usize {
    EXPORTS.lock().len()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn origin(semaphore: u64) -> SemaphoreOrigin {
        SemaphoreOrigin {
            device: 0xd0,
            semaphore,
            timeline: semaphore % 2 == 0,
            create_flags: vk::SemaphoreCreateFlags::empty(),
            device_uuid: None,
            driver_uuid: None,
        }
    }

    fn memfd() -> std::fs::File {
        use std::os::fd::FromRawFd;
        // SAFETY: memfd_create reads the NUL-terminated name and makes a new descriptor.
        let fd = unsafe { libc::memfd_create(c"semaphore-export-test".as_ptr(), 0) };
        assert!(fd >= 0);
        // SAFETY: a descriptor just made, owned by nothing else.
        unsafe { std::fs::File::from_raw_fd(fd) }
    }

    #[test]
    fn an_export_is_known_by_its_payload_until_its_semaphore_goes() {
        use std::os::fd::AsRawFd;
        let (a, b) = (memfd(), memfd());
        remember(origin(0x5e01), a.as_raw_fd());
        remember(origin(0x5e01), a.as_raw_fd());
        let dup = a.try_clone().unwrap();
        assert_eq!(origin_of(dup.as_raw_fd()), Some(origin(0x5e01)));
        assert_eq!(origin_of(b.as_raw_fd()), None, "another payload");
        forget_semaphore(0xd0, 0x5e01);
        assert_eq!(origin_of(a.as_raw_fd()), None);
        remember(origin(0x5e02), b.as_raw_fd());
        assert_eq!(origin_of(b.as_raw_fd()), Some(origin(0x5e02)));
        forget_device(0xd0);
        assert_eq!(origin_of(b.as_raw_fd()), None);
    }
}
