//! The call-down policy, in one place.
//!
//! After the checks a call goes down, except when
//! - an argument is a pointer or handle the layer knows is bad (`Outcome::blocked`): NULL
//!   pointers, wrong `sType`, unknown, freed or foreign memory, unknown devices. The driver never
//!   sees it; the layer returns `VK_ERROR_VALIDATION_FAILED_EXT` and writes no output;
//! - an app callback returned `VK_TRUE` for one of the findings, as with the Khronos layer.

use crate::boundary;
use crate::finding::Outcome;
use crate::report;
use crate::rules::common::unknown_device;
use crate::state::{DeviceState, InstanceState};
use ash::vk;

/// What to do with the call once its findings are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    CallDown,
    Skip,
}

impl Decision {
    pub const SKIPPED_RESULT: vk::Result = vk::Result::ERROR_VALIDATION_FAILED_EXT;
}

/// Reports the outcome of a call on `device` and decides whether it goes down.
pub fn decide(device: &DeviceState, command: &'static str, outcome: &Outcome) -> Decision {
    if outcome.findings.is_empty() {
        return Decision::CallDown;
    }
    let callback_skip = boundary::contain_report(
        command,
        || report::report(device, outcome),
        |internal| report::report(device, internal),
    );
    combine(outcome.blocked, callback_skip)
}

/// Reports the outcome of a call on one of `instance`'s physical devices and decides whether it
/// goes down.
pub fn decide_for_instance(
    instance: &InstanceState,
    command: &'static str,
    outcome: &Outcome,
) -> Decision {
    if outcome.findings.is_empty() {
        return Decision::CallDown;
    }
    let callback_skip = boundary::contain_report(
        command,
        || report::report_for_instance(instance, outcome),
        |internal| report::report_for_instance(instance, internal),
    );
    combine(outcome.blocked, callback_skip)
}

/// Reports a call on a `VkDevice` the layer does not know (`device_vuid`), which never goes
/// down: the result the call returns.
#[cold]
#[inline(never)]
pub fn reject_unknown_device(
    command: &'static str,
    device_vuid: &'static str,
    device: u64,
) -> vk::Result {
    decide_without_device(command, &unknown_device(command, device_vuid, device));
    Decision::SKIPPED_RESULT
}

/// Reports an outcome that belongs to no known device, and decides.
pub fn decide_without_device(command: &'static str, outcome: &Outcome) -> Decision {
    let callback_skip = boundary::contain_report(
        command,
        || report::report_to_all_instances(outcome),
        report::report_to_all_instances,
    );
    combine(outcome.blocked, callback_skip)
}

/// Reports what the driver-contract rules found after a call went down (the commands call it
/// only when a rule is broken): each ID once per device, since a driver defect repeats on every
/// call. Nothing is skipped: the call happened.
#[cold]
#[inline(never)]
pub fn report_driver_contract(device: &DeviceState, command: &'static str, mut outcome: Outcome) {
    outcome
        .findings
        .retain(|f| device.contract.first_report(f.id));
    report_only(device, command, &outcome);
}

/// Reports findings that cannot change the call (warnings about what already happened).
pub fn report_only(device: &DeviceState, command: &'static str, outcome: &Outcome) {
    if !outcome.findings.is_empty() {
        boundary::contain_report(
            command,
            || report::report(device, outcome),
            |internal| report::report(device, internal),
        );
    }
}

fn combine(blocked: bool, callback_skip: bool) -> Decision {
    if blocked || callback_skip {
        Decision::Skip
    } else {
        Decision::CallDown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_or_callback_skip_means_skip() {
        assert_eq!(combine(false, false), Decision::CallDown);
        assert_eq!(combine(true, false), Decision::Skip);
        assert_eq!(combine(false, true), Decision::Skip);
    }
}
