//! The opaque fds `vkGetFenceFdKHR` returned in this process, with the fence each was exported
//! from, so that an import of one (`vkImportFenceFdKHR`) is checked against that fence's device
//! (`VUID-VkImportFenceFdInfoKHR-fd-01541`: an `OPAQUE_FD` payload is shared only between
//! devices of the same `deviceUUID` and `driverUUID`).
//!
//! The table is `sync_exports`' (an fd known by its open file description; at most
//! `sync_exports::LIMIT` held); a fence's exports go when it is destroyed and a device's when it
//! is destroyed. An import of an fd the layer does not hold is not checked against an export.

use super::sync_exports::{ExportOrigin, SyncExports};
use crate::state::device_groups::DeviceSet;
use ash::vk;

/// The fence an opaque fd was exported from, and its device's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenceOrigin {
    pub device: u64,
    pub fence: u64,
    /// The physical devices the exporting device is made of.
    pub devices: DeviceSet,
    /// The `driverUUID` of the exporting device's physical device, if the layer knows it.
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The handle types the exported payload may be exported as: the fence's
    /// `VkExportFenceCreateInfo::handleTypes` when the payload was its created one (`None`: not
    /// known).
    pub exportable: Option<u32>,
}

impl ExportOrigin for FenceOrigin {
    fn device(&self) -> u64 {
        self.device
    }
    fn object(&self) -> u64 {
        self.fence
    }
}

static EXPORTS: SyncExports<FenceOrigin> = SyncExports::new();

/// After `vkGetFenceFdKHR` returned the opaque fd `fd` for the fence `origin` names: held,
/// unless an export of the same payload from that fence is held already.
pub fn remember(origin: FenceOrigin, fd: i32) {
    EXPORTS.remember(origin, fd);
}

/// The fence the opaque fd `fd` was exported from, if the layer holds that export (the latest
/// export of its payload).
pub fn origin_of(fd: i32) -> Option<FenceOrigin> {
    EXPORTS.origin_of(fd)
}

/// At `vkDestroyFence`: its exports are let go.
pub fn forget_fence(device: u64, fence: u64) {
    EXPORTS.forget_object(device, fence);
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

    fn origin(fence: u64) -> FenceOrigin {
        FenceOrigin {
            exportable: None,
            device: 0xd2,
            fence,
            devices: crate::state::device_groups::PhysicalDevices::new(
                Some(1),
                Some(vec![[1; 16]]),
            )
            .set(),
            driver_uuid: None,
        }
    }

    fn memfd() -> std::fs::File {
        use std::os::fd::FromRawFd;
        // SAFETY: memfd_create reads the NUL-terminated name and makes a new descriptor.
        let fd = unsafe { libc::memfd_create(c"fence-export-test".as_ptr(), 0) };
        assert!(fd >= 0);
        // SAFETY: a descriptor just made, owned by nothing else.
        unsafe { std::fs::File::from_raw_fd(fd) }
    }

    #[test]
    #[cfg_attr(miri, ignore = "memfd_create and fstat: system calls Miri isolates")]
    fn an_export_is_known_by_its_payload_until_its_fence_goes() {
        use std::os::fd::AsRawFd;
        let (a, b) = (memfd(), memfd());
        remember(origin(0xfe01), a.as_raw_fd());
        let dup = a.try_clone().unwrap();
        assert_eq!(origin_of(dup.as_raw_fd()), Some(origin(0xfe01)));
        assert_eq!(origin_of(b.as_raw_fd()), None, "another payload");
        forget_fence(0xd2, 0xfe01);
        assert_eq!(origin_of(a.as_raw_fd()), None);
        remember(origin(0xfe02), b.as_raw_fd());
        assert_eq!(origin_of(b.as_raw_fd()), Some(origin(0xfe02)));
        assert_eq!(count(), 1);
        forget_device(0xd2);
        assert_eq!(origin_of(b.as_raw_fd()), None);
        assert_eq!(
            count(),
            0,
            "none held: a destroy or an import takes no lock"
        );
        forget_fence(0xd2, 0xfe02);
    }
}
