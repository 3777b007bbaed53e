//! The commands that tell the layer a queue submission completed: `vkQueueWaitIdle`,
//! `vkDeviceWaitIdle` (every submission to the queue, or to every queue of the device, made
//! before the call), and a successful wait on a fence a submission signals (`vkWaitForFences`
//! with `waitAll` or one fence, `vkGetFenceStatus` returning `VK_SUCCESS`: that submission and
//! every one before it to the same queue, whose commands the fence's signal operation follows).
//! A binary semaphore whose last followed operation was a wait by such a submission is then
//! unsignaled with nothing pending (`Semaphores::completed`), which a sync-file export of it
//! breaks (`VUID-VkSemaphoreGetFdInfoKHR-handleType-01135`, `-03254`).
//!
//! Every call goes down as the app made it; nothing is judged here. On a device with no shared
//! semaphore a call costs the device's lookup and an atomic load.

use super::queues::{structures, with_queue_device};
use crate::boundary;
use crate::state::registry::DEVICES;
use crate::state::DeviceState;
use ash::vk::{self, Handle};

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn queue_wait_idle(queue: vk::Queue) -> vk::Result {
    boundary::ffi_down("vkQueueWaitIdle", vk::Result::ERROR_UNKNOWN, |down| {
        with_queue_device(queue, |state| {
            let Some(state) = state else {
                return vk::Result::ERROR_DEVICE_LOST;
            };
            let Some(next) = state.next.queue_wait_idle else {
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            };
            // Read before the call: no submission to the queue can be made meanwhile (host
            // access to it is externally synchronized).
            let latest = state.submissions.latest();
            // SAFETY: the app's argument, passed unchanged to the next layer.
            let result = down.went(unsafe { next(queue) });
            if result == vk::Result::SUCCESS && state.semaphores.any_shared() {
                state.semaphores.completed(Some(queue.as_raw()), latest);
            }
            result
        })
    })
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn device_wait_idle(device: vk::Device) -> vk::Result {
    boundary::ffi_down("vkDeviceWaitIdle", vk::Result::ERROR_UNKNOWN, |down| {
        let Some(state) = DEVICES.get(device.as_raw()) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let Some(next) = state.next.device_wait_idle else {
            return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
        };
        // Read before the call: host access to every queue of the device is externally
        // synchronized with it.
        let latest = state.submissions.latest();
        // SAFETY: the app's argument, passed unchanged to the next layer.
        let result = down.went(unsafe { next(device) });
        if result == vk::Result::SUCCESS && state.semaphores.any_shared() {
            state.semaphores.completed(None, latest);
        }
        result
    })
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn wait_for_fences(
    device: vk::Device,
    fence_count: u32,
    p_fences: *const vk::Fence,
    wait_all: vk::Bool32,
    timeout: u64,
) -> vk::Result {
    boundary::ffi_down("vkWaitForFences", vk::Result::ERROR_UNKNOWN, |down| {
        let Some(state) = DEVICES.get(device.as_raw()) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let Some(next) = state.next.wait_for_fences else {
            return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
        };
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        let result = down.went(unsafe { next(device, fence_count, p_fences, wait_all, timeout) });
        // Every fence signaled, or the only one: each tells of its submission.
        let every = wait_all == vk::TRUE || fence_count == 1;
        if result == vk::Result::SUCCESS && every && state.semaphores.any_shared() {
            // SAFETY: the fence array the app passed (read after the call; still the app's).
            for &fence in unsafe { structures(p_fences, fence_count) } {
                fence_signaled(&state, fence);
            }
        }
        result
    })
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_fence_status(device: vk::Device, fence: vk::Fence) -> vk::Result {
    boundary::ffi_down("vkGetFenceStatus", vk::Result::ERROR_UNKNOWN, |down| {
        let Some(state) = DEVICES.get(device.as_raw()) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let Some(next) = state.next.get_fence_status else {
            return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
        };
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        let result = down.went(unsafe { next(device, fence) });
        if result == vk::Result::SUCCESS && state.semaphores.any_shared() {
            fence_signaled(&state, fence);
        }
        result
    })
}

/// `fence` is signaled: the submission whose signal the layer followed on it, and every earlier
/// one to its queue, completed.
fn fence_signaled(state: &DeviceState, fence: vk::Fence) {
    if let Some(by) = state.fences.signaled_by(fence.as_raw()) {
        state.semaphores.completed(Some(by.queue), by.serial.get());
    }
}
