//! The opaque fds `vkGetSemaphoreFdKHR` returned in this process, with the semaphore each was
//! exported from, so that an import of one (`vkImportSemaphoreFdKHR`) is checked against that
//! semaphore (`VUID-VkImportSemaphoreFdInfoKHR-handleType-03263`, `-03264`, `-flags-03323`,
//! `-fd-01544`).
//!
//! The table is `sync_exports`' (an fd known by its open file description; at most
//! [`LIMIT`] held); a semaphore's exports go when it is destroyed and a device's when it is
//! destroyed. An import of an fd the layer does not hold is not checked against an export.

use super::opaque_exports::Exporter;
use super::sync_exports::{ExportOrigin, RetireFn, SyncExports};
use crate::state::device_groups::DeviceSet;
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
    /// The `driverUUID` of the exporting device's physical device, if the layer knows it.
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The physical devices the exporting device is made of.
    pub devices: DeviceSet,
    /// The handle types the exported payload may be exported as: the semaphore's
    /// `VkExportSemaphoreCreateInfo::handleTypes` when the payload was its created one (`None`:
    /// not known).
    pub exportable: Option<u32>,
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

/// For the shared directory: the number of the layer's descriptor of the export of `semaphore`
/// of `device` that `fd` is, if the table holds it and its file is shared with other payloads
/// (a driver's device file); `retire` is called with it before it is let go (see
/// `SyncExports::record_shared`).
pub fn record_shared(device: u64, semaphore: u64, fd: i32, retire: RetireFn) -> Option<i32> {
    EXPORTS.record_shared((device, semaphore), fd, retire)
}

/// The semaphore the opaque fd `fd` was exported from, if the layer holds that export (the
/// latest export of its payload).
pub fn origin_of(fd: i32) -> Option<SemaphoreOrigin> {
    EXPORTS.origin_of(fd)
}

/// At `vkDestroySemaphore`: its exports are let go (those the shared directory records by
/// number retired first).
pub fn forget_semaphore(device: u64, semaphore: u64) {
    EXPORTS.forget_object(device, semaphore);
}

/// At `vkDestroyDevice`: the device's exports are let go (those the shared directory records
/// by number retired first).
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
            driver_uuid: None,
            devices: Default::default(),
            exportable: Some(0x1),
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
        // A payload file of its own is recorded by its identity, not by a held number.
        assert_eq!(
            record_shared(0xd0, 0x5e01, a.as_raw_fd(), |_, _| true),
            None
        );
        forget_semaphore(0xd0, 0x5e01);
        assert_eq!(origin_of(a.as_raw_fd()), None);
        remember(origin(0x5e02), b.as_raw_fd());
        assert_eq!(origin_of(b.as_raw_fd()), Some(origin(0x5e02)));
        forget_device(0xd0);
        assert_eq!(origin_of(b.as_raw_fd()), None);
    }

    static RETIRED: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

    fn retire(_: crate::os::FileId, number: i32) -> bool {
        RETIRED.lock().unwrap().push(number);
        true
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "opens files and calls kcmp: system calls Miri isolates"
    )]
    fn an_export_of_a_shared_file_recorded_by_number_is_retired_before_it_goes() {
        use std::os::fd::AsRawFd;
        // Two open file descriptions of one file, as a driver's device file gives two exports.
        let a = std::fs::File::open("/proc/self/exe").expect("open");
        let b = std::fs::File::open("/proc/self/exe").expect("open");
        let device = 0xd1;
        let of = |semaphore| SemaphoreOrigin {
            device,
            ..origin(semaphore)
        };
        remember(of(0x5e11), a.as_raw_fd());
        remember(of(0x5e12), b.as_raw_fd());
        let held_a = record_shared(device, 0x5e11, a.as_raw_fd(), retire).expect("held");
        assert_eq!(
            record_shared(device, 0x5e12, a.as_raw_fd(), retire),
            None,
            "another semaphore's export"
        );
        let held_b = record_shared(device, 0x5e12, b.as_raw_fd(), retire).expect("held");
        assert_ne!(held_a, held_b);
        assert_eq!(origin_of(a.as_raw_fd()), Some(of(0x5e11)));
        assert_eq!(origin_of(b.as_raw_fd()), Some(of(0x5e12)), "by kcmp");
        let retired = || RETIRED.lock().unwrap().clone();
        forget_semaphore(device, 0x5e11);
        assert_eq!(retired(), [held_a], "retired as it went");
        assert_eq!(origin_of(a.as_raw_fd()), None);
        // Not recorded: nothing to retire.
        remember(of(0x5e13), a.as_raw_fd());
        forget_semaphore(device, 0x5e13);
        assert_eq!(retired(), [held_a]);
        forget_device(device);
        assert_eq!(retired(), [held_a, held_b]);
    }
}
