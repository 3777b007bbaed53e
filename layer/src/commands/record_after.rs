//! The body of the commands the layer only records from (`vkCreateBuffer`, `vkCreateImage`,
//! `vkCreateSemaphore`, the semaphore imports): the call goes down as the app made it, and what
//! it made or changed is recorded after it succeeded; `vkCreateSemaphore` judges its create info
//! first (`judge_call_down_and_record`).

use crate::boundary;
use crate::pipeline::policy::Decision;
use crate::state::this_thread::with_device;
use crate::state::DeviceState;
use ash::vk::{self, Handle};

/// `command` on `device`: `call_down` passes the app's arguments to the next layer (`None` when
/// it lacks the command); after `VK_SUCCESS`, `record` keeps what the call made.
pub fn call_down_and_record(
    command: &'static str,
    device: vk::Device,
    call_down: impl FnOnce(&DeviceState) -> Option<vk::Result>,
    record: impl FnOnce(&DeviceState),
) -> vk::Result {
    judge_call_down_and_record(command, device, |_| Decision::CallDown, call_down, record)
}

/// [`call_down_and_record`] after `judge` judged the call and reported what it found: the call
/// goes down unless it decided to skip it (`VK_ERROR_VALIDATION_FAILED_EXT`, nothing recorded).
pub fn judge_call_down_and_record(
    command: &'static str,
    device: vk::Device,
    judge: impl FnOnce(&DeviceState) -> Decision,
    call_down: impl FnOnce(&DeviceState) -> Option<vk::Result>,
    record: impl FnOnce(&DeviceState),
) -> vk::Result {
    boundary::ffi_down(command, vk::Result::ERROR_UNKNOWN, |down| {
        // The thread's snapshot of the registry: no reference count taken.
        with_device(device.as_raw(), |state, _| {
            let Some(state) = state else {
                return vk::Result::ERROR_DEVICE_LOST;
            };
            if judge(state) == Decision::Skip {
                return Decision::SKIPPED_RESULT;
            }
            let Some(result) = call_down(state) else {
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            };
            let result = down.went(result);
            if result == vk::Result::SUCCESS {
                record(state);
            }
            result
        })
    })
}
