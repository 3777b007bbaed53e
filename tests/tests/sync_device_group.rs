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
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, fds, Device, Instance, OPAQUE_FD, SIZE};
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

/// The instance's two physical devices (one group).
fn both(inst: &Instance) -> Vec<vk::PhysicalDevice> {
    let all: Vec<_> = inst
        .physical_devices()
        .into_iter()
        .map(|(pd, _)| pd)
        .collect();
    assert_eq!(all.len(), 2, "the test driver's group of two");
    all
}

/// An opaque fd of a new exportable semaphore of `from`, imported into a new semaphore of `to`:
/// the import's result.
fn share_semaphore(inst: &Instance, from: &Device, to: &Device) -> vk::Result {
    let mut export =
        vk::ExportSemaphoreCreateInfo::default().handle_types(SemaphoreTypes::OPAQUE_FD);
    let exportable = vk::SemaphoreCreateInfo::default().push_next(&mut export);
    let plain = vk::SemaphoreCreateInfo::default();
    // SAFETY: live devices and valid create infos.
    let (s, into) = unsafe {
        (
            from.device
                .create_semaphore(&exportable, None)
                .expect("vkCreateSemaphore"),
            to.device
                .create_semaphore(&plain, None)
                .expect("vkCreateSemaphore"),
        )
    };
    let get = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &from.device);
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(s)
        .handle_type(SemaphoreTypes::OPAQUE_FD);
    // SAFETY: a live info structure.
    let fd = unsafe { get.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    let import = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &to.device);
    let info = vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(into)
        .handle_type(SemaphoreTypes::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a live info structure.
    let r = unsafe { (import.fp().import_semaphore_fd_khr)(to.handle(), &info) };
    if r != vk::Result::SUCCESS {
        fds::close_if_open(fd);
    }
    // SAFETY: semaphores no queue uses.
    unsafe {
        to.device.destroy_semaphore(into, None);
        from.device.destroy_semaphore(s, None);
    }
    r
}

/// [`share_semaphore`] for fences.
fn share_fence(inst: &Instance, from: &Device, to: &Device) -> vk::Result {
    let mut export = vk::ExportFenceCreateInfo::default().handle_types(FenceTypes::OPAQUE_FD);
    let exportable = vk::FenceCreateInfo::default().push_next(&mut export);
    let plain = vk::FenceCreateInfo::default();
    // SAFETY: live devices and valid create infos.
    let (f, into) = unsafe {
        (
            from.device
                .create_fence(&exportable, None)
                .expect("vkCreateFence"),
            to.device.create_fence(&plain, None).expect("vkCreateFence"),
        )
    };
    let get = ash::khr::external_fence_fd::Device::new(&inst.instance, &from.device);
    let info = vk::FenceGetFdInfoKHR::default()
        .fence(f)
        .handle_type(FenceTypes::OPAQUE_FD);
    // SAFETY: a live info structure.
    let fd = unsafe { get.get_fence_fd(&info) }.expect("vkGetFenceFdKHR");
    let import = ash::khr::external_fence_fd::Device::new(&inst.instance, &to.device);
    let info = vk::ImportFenceFdInfoKHR::default()
        .fence(into)
        .handle_type(FenceTypes::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a live info structure.
    let r = unsafe { (import.fp().import_fence_fd_khr)(to.handle(), &info) };
    if r != vk::Result::SUCCESS {
        fds::close_if_open(fd);
    }
    // SAFETY: fences no queue uses.
    unsafe {
        to.device.destroy_fence(into, None);
        from.device.destroy_fence(f, None);
    }
    r
}

/// An opaque fd of new exportable memory of `from`, imported on `to`: the import's result.
fn share_memory(from: &Device, to: &Device) -> vk::Result {
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export);
    let memory = from.allocate_with(&info).expect("exportable allocation");
    let (r, fd) = from.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(OPAQUE_FD)
        .fd(fd);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import);
    let r = match to.allocate_with(&info) {
        Ok(imported) => {
            to.free(imported);
            vk::Result::SUCCESS
        }
        Err(e) => {
            fds::close_if_open(fd);
            e
        }
    };
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
    let group = both(&inst);
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
    let group = both(&inst);
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
