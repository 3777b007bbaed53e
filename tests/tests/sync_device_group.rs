//! Opaque fds of semaphores, fences and memory shared between the logical devices of one device
//! group, end to end on the project's test driver configured with two physical devices in one
//! group (`physical_device_count`, see docs/test-driver.md). A logical device stands for every
//! physical device it is made of (`VkDeviceGroupDeviceCreateInfo::pPhysicalDevices`), whichever
//! member `vkCreateDevice` was called on: two devices of the group share an opaque fd silently
//! (issue #33: the layer compared the `physicalDevice` arguments alone and reported
//! `VUID-VkImportSemaphoreFdInfoKHR-fd-01544`, `VUID-VkImportFenceFdInfoKHR-fd-01541`, and for
//! memory `VUID-VkImportMemoryFdInfoKHR-fd-00668` and `-01746`). Devices with no physical device
//! in common still get them.
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, group_of_two};
use exportcheck_tests::{expect, fences, semaphores, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::CStr;

const GROUP_OF_TWO: &str = r#"{"physical_device_count": 2}"#;
const EXTENSIONS: [&CStr; 5] = [
    ash::khr::external_memory_fd::NAME,
    ash::khr::external_semaphore::NAME,
    ash::khr::external_semaphore_fd::NAME,
    ash::khr::external_fence::NAME,
    ash::khr::external_fence_fd::NAME,
];
type SemaphoreTypes = vk::ExternalSemaphoreHandleTypeFlags;
type FenceTypes = vk::ExternalFenceHandleTypeFlags;

/// An opaque fd of a new exportable semaphore of `from`, imported into a new semaphore of `to`:
/// the import's result.
fn share_semaphore(inst: &Instance, from: &Device, to: &Device) -> vk::Result {
    let s = semaphores::semaphore(from, false, Some(SemaphoreTypes::OPAQUE_FD));
    let into = semaphores::semaphore(to, false, None);
    let fd = semaphores::export_opaque_fd(inst, from, s);
    let r = semaphores::import_opaque_fd(inst, to, into, fd);
    semaphores::destroy(to, into);
    semaphores::destroy(from, s);
    r
}

/// [`share_semaphore`] for fences.
fn share_fence(inst: &Instance, from: &Device, to: &Device) -> vk::Result {
    let f = fences::fence(from, false, Some(FenceTypes::OPAQUE_FD));
    let into = fences::fence(to, false, None);
    let fd = fences::export_fd(inst, from, f, FenceTypes::OPAQUE_FD);
    let r = fences::import_opaque_fd(inst, to, into, fd);
    fences::destroy(to, into);
    fences::destroy(from, f);
    r
}

/// An opaque fd of new exportable memory of `from`, imported on `to`: the import's result.
fn share_memory(from: &Device, to: &Device) -> vk::Result {
    let memory = from.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = from.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let r = to.import_opaque_fd_and_free(fd);
    from.free(memory);
    r
}

const COMMANDS: [&str; 6] = [
    GET_SEMAPHORE_FD,
    IMPORT_SEMAPHORE_FD,
    GET_FENCE_FD,
    IMPORT_FENCE_FD,
    GET_FD,
    ALLOCATE,
];

#[test]
fn devices_of_one_group_share_opaque_fds_whichever_member_made_them() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = group_of_two(&inst);
    let on_first = inst.device_of_group_on(group[0], &group, &EXTENSIONS);
    let on_second = inst.device_of_group_on(group[1], &group, &EXTENSIONS);
    for (from, to) in [(&on_first, &on_second), (&on_second, &on_first)] {
        assert_eq!(share_semaphore(&inst, from, to), vk::Result::SUCCESS);
        assert_eq!(share_fence(&inst, from, to), vk::Result::SUCCESS);
        assert_eq!(share_memory(from, to), vk::Result::SUCCESS);
        expect::silent_for(&inst, &COMMANDS);
    }
}

#[test]
fn devices_with_no_physical_device_in_common_are_01544_01541_and_00668() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = group_of_two(&inst);
    let first = inst.device_on(group[0], &EXTENSIONS, false);
    let second = inst.device_on(group[1], &EXTENSIONS, false);
    let _ = share_semaphore(&inst, &first, &second);
    let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, SEM_IMPORT_FD_FD_01544);
    expect::mentions(
        &m,
        &["other deviceUUIDs, or another driverUUID, than this device's"],
    );
    let _ = share_fence(&inst, &first, &second);
    let m = expect::one(&inst, IMPORT_FENCE_FD, FENCE_IMPORT_FD_FD_01541);
    expect::mentions(
        &m,
        &["other deviceUUIDs, or another driverUUID, than this device's"],
    );
    let _ = share_memory(&first, &second);
    let found = expect::only(
        &inst,
        ALLOCATE,
        &[
            IMPORT_FD_00668,
            IMPORT_FD_01746,
            IMPORT_FD_01520,
            ALLOC_NONE_00644,
        ],
    );
    expect::mentions(
        &found[0],
        &[
            "That memory was created on 1 physical device (deviceUUID",
            &format!(
                "but {} is made of 1 physical device",
                expect::device_name(&second)
            ),
        ],
    );
}
