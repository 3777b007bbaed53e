//! The opaque fds `vkGetSemaphoreFdKHR` returned in this process, with the semaphore each was
//! exported from, so that an import of one (`vkImportSemaphoreFdKHR`) is checked against that
//! semaphore (`VUID-VkImportSemaphoreFdInfoKHR-handleType-03263`, `-03264`, `-flags-03323`,
//! `-fd-01544`).
//!
//! The table is `sync_exports`' (an fd known by its open file description; at most
//! [`LIMIT`] held); a semaphore's exports go when it is destroyed and a device's when it is
//! destroyed. An import of an fd the layer does not hold is not checked against an export.

use super::opaque_exports::Exporter;
use super::sync_exports::{ExportOrigin, SyncExports};
use ash::vk;

/// The most semaphore exports held at once in the process.
pub use super::sync_exports::LIMIT;

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
    /// The process that exported it, when the layer learnt of the export from the shared
    /// directory (`features::cross_process::state`): its `device` and `semaphore` are then that
    /// process's handles.
    pub process: Option<Exporter>,
}

impl ExportOrigin for SemaphoreOrigin {
    fn device(&self) -> u64 {
        self.device
    }
    fn object(&self) -> u64 {
        self.semaphore
    }
}

static EXPORTS: SyncExports<SemaphoreOrigin> = SyncExports::new();

/// After `vkGetSemaphoreFdKHR` returned the opaque fd `fd` for the semaphore `origin` names:
/// held, unless an export of the same payload from that semaphore is held already.
pub fn remember(origin: SemaphoreOrigin, fd: i32) {
    EXPORTS.remember(origin, fd);
}

/// The semaphore the opaque fd `fd` was exported from, if the layer holds that export (the
/// latest export of its payload).
pub fn origin_of(fd: i32) -> Option<SemaphoreOrigin> {
    EXPORTS.origin_of(fd)
}

/// At `vkDestroySemaphore`: its exports are let go.
pub fn forget_semaphore(device: u64, semaphore: u64) {
    EXPORTS.forget_object(device, semaphore);
}

/// At `vkDestroyDevice`: the device's exports are let go.
pub fn forget_device(device: u64) {
    EXPORTS.forget_device(device);
}

/// How many exports are held (introspection).
pub fn count() -> usize {
    EXPORTS.count()
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
            process: None,
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
    #[cfg_attr(miri, ignore = "memfd_create and fstat: system calls Miri isolates")]
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
