//! A copy-transference handle type (`SYNC_FD`) asked of the Win32 and Zircon export commands,
//! which take only reference-transference types: the type rule (01131, 04762, 01452) and, when the
//! semaphore or fence is certainly unsignaled with no signal pending, the signal-state rule too
//! (`VUID-VkSemaphoreGetWin32HandleInfoKHR-handleType-01130`,
//! `VUID-VkSemaphoreGetZirconHandleInfoFUCHSIA-handleType-04761`,
//! `VUID-VkFenceGetWin32HandleInfoKHR-handleType-01451`); after a submitted signal only the type
//! rule. On the project's test driver, end to end.

use ash::vk;
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device, Types};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::Device;

const SYNC: Types = Types::SYNC_FD;

/// One submission that signals `semaphores` and `fence`, then the queue waited idle.
fn signal(dev: &Device, semaphores: &[vk::Semaphore], fence: vk::Fence) {
    let batch = [vk::SubmitInfo::default().signal_semaphores(semaphores)];
    // SAFETY: queue 0 of family 0 exists; a valid submission.
    unsafe {
        let queue = dev.device.get_device_queue(0, 0);
        dev.device
            .queue_submit(queue, &batch, fence)
            .expect("vkQueueSubmit");
        dev.device.queue_wait_idle(queue).expect("vkQueueWaitIdle");
    }
}

#[test]
fn a_sync_fd_asked_of_the_win32_semaphore_export_is_01131_and_while_unsignaled_01130() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, &[ash::khr::external_semaphore_win32::NAME]);
    let s = semaphore(&dev, false, Some(SYNC | Types::OPAQUE_WIN32));
    let get = ash::khr::external_semaphore_win32::Device::new(&inst.instance, &dev.device);
    let info = vk::SemaphoreGetWin32HandleInfoKHR::default()
        .semaphore(s)
        .handle_type(SYNC);
    let call = || {
        let mut handle: vk::HANDLE = 0;
        // SAFETY: a live info structure and output pointer.
        unsafe { (get.fp().get_semaphore_win32_handle_khr)(dev.handle(), &info, &mut handle) }
    };
    let _ = call();
    let ms = expect::only(
        &inst,
        GET_SEMAPHORE_WIN32_HANDLE,
        &[SEM_WIN32_HANDLE_TYPE_01131, SEM_WIN32_HANDLE_TYPE_01130],
    );
    expect::mentions(
        &ms[1],
        &["is unsignaled and has no signal operation pending"],
    );
    signal(&dev, &[s], vk::Fence::null());
    let _ = call();
    expect::only(
        &inst,
        GET_SEMAPHORE_WIN32_HANDLE,
        &[SEM_WIN32_HANDLE_TYPE_01131],
    );
    destroy(&dev, s);
}

#[test]
fn a_sync_fd_asked_of_the_zircon_export_is_04762_and_while_unsignaled_04761() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, &[ash::fuchsia::external_semaphore::NAME]);
    let s = semaphore(&dev, false, Some(SYNC));
    let get = ash::fuchsia::external_semaphore::Device::new(&inst.instance, &dev.device);
    let info = vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
        .semaphore(s)
        .handle_type(SYNC);
    let call = || {
        let mut handle: vk::zx_handle_t = 0;
        // SAFETY: a live info structure and output pointer.
        unsafe { (get.fp().get_semaphore_zircon_handle_fuchsia)(dev.handle(), &info, &mut handle) }
    };
    let _ = call();
    expect::only(
        &inst,
        GET_SEMAPHORE_ZIRCON_HANDLE,
        &[SEM_ZIRCON_HANDLE_TYPE_04762, SEM_ZIRCON_HANDLE_TYPE_04761],
    );
    signal(&dev, &[s], vk::Fence::null());
    let _ = call();
    expect::only(
        &inst,
        GET_SEMAPHORE_ZIRCON_HANDLE,
        &[SEM_ZIRCON_HANDLE_TYPE_04762],
    );
    destroy(&dev, s);
}

#[test]
fn a_sync_fd_asked_of_the_win32_fence_export_is_01452_and_while_unsignaled_01451() {
    let inst = exclusive(None);
    let dev = inst.device(&[
        ash::khr::external_fence::NAME,
        ash::khr::external_fence_win32::NAME,
    ]);
    let mut exportable = vk::ExportFenceCreateInfo::default()
        .handle_types(vk::ExternalFenceHandleTypeFlags::SYNC_FD);
    let create = vk::FenceCreateInfo::default().push_next(&mut exportable);
    // SAFETY: a live device and a valid create info.
    let f = unsafe { dev.device.create_fence(&create, None) }.expect("vkCreateFence");
    let get = ash::khr::external_fence_win32::Device::new(&inst.instance, &dev.device);
    let info = vk::FenceGetWin32HandleInfoKHR::default()
        .fence(f)
        .handle_type(vk::ExternalFenceHandleTypeFlags::SYNC_FD);
    let call = || {
        let mut handle: vk::HANDLE = 0;
        // SAFETY: a live info structure and output pointer.
        unsafe { (get.fp().get_fence_win32_handle_khr)(dev.handle(), &info, &mut handle) }
    };
    let _ = call();
    let ms = expect::only(
        &inst,
        GET_FENCE_WIN32,
        &[FENCE_WIN32_HANDLE_TYPE_01452, FENCE_WIN32_HANDLE_TYPE_01451],
    );
    expect::mentions(&ms[1], &["since it was created (unsignaled)"]);
    signal(&dev, &[], f);
    let _ = call();
    expect::only(&inst, GET_FENCE_WIN32, &[FENCE_WIN32_HANDLE_TYPE_01452]);
    // SAFETY: a fence no queue uses.
    unsafe { dev.device.destroy_fence(f, None) };
}
