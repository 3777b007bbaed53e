//! The panic boundary. No panic may unwind into the loader or the app: every exported function
//! body runs inside [`ffi`] (or [`ffi_down`] for the commands that call down), and the checking
//! and reporting steps run inside [`contain`], so a defect in the layer costs a finding, not the
//! app's call. Once a call went down, a panic costs neither the call nor what the driver made.

use crate::fault_injection;
use crate::finding::{Finding, Outcome};
use crate::vuid;
use ash::vk;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs an exported function body that never calls down; on a panic returns `fallback` instead
/// of unwinding, and reports an internal-error finding through every instance (stderr if that
/// fails too).
pub fn ffi<R>(command: &'static str, fallback: R, body: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        report_early_return(command, &payload);
        fallback
    })
}

/// Reports a panic after which the call returns early, without the driver's result.
fn report_early_return(command: &'static str, payload: &Box<dyn std::any::Any + Send>) {
    let text = panic_text(payload);
    let message = format!(
        "{command}(): the layer failed internally ({text}); the call returned early with an \
         error. Please report this."
    );
    report_panic(
        command,
        message,
        &format!("{text}; the call returned early"),
    );
}

/// The result of a command's call down, once the next layer returned it ([`Down::went`]).
pub struct Down<R> {
    result: Cell<Option<R>>,
}

impl<R: Copy> Down<R> {
    /// Records what the next layer returned, and returns it: from here on, a panic in the
    /// command returns this to the app.
    pub fn went(&self, result: R) -> R {
        self.result.set(Some(result));
        result
    }
}

/// What the app is told about a driver result in an internal-error message.
pub trait DriverResult: Copy {
    fn describe(self) -> String;
}

impl DriverResult for vk::Result {
    fn describe(self) -> String {
        format!("the app got the driver's result, {self:?}")
    }
}

impl DriverResult for () {
    fn describe(self) -> String {
        "the driver did what the call asked".to_owned()
    }
}

/// [`ffi`] for a command that calls down: `body` hands the next layer's result to
/// [`Down::went`]. A panic before that returns `fallback`, as [`ffi`]. A panic after it (while
/// recording what the call made, or checking the driver's answer) returns the driver's own
/// result, so the app learns of the fd, memory or object the driver made and owns it; the
/// internal-error finding says so.
pub fn ffi_down<R: DriverResult>(
    command: &'static str,
    fallback: R,
    body: impl FnOnce(&Down<R>) -> R,
) -> R {
    let down = Down {
        result: Cell::new(None),
    };
    catch_unwind(AssertUnwindSafe(|| body(&down))).unwrap_or_else(|payload| {
        let Some(result) = down.result.get() else {
            report_early_return(command, &payload);
            return fallback;
        };
        let text = panic_text(&payload);
        let what = result.describe();
        let message = format!(
            "{command}(): the layer failed internally after the call went down ({text}); {what}. \
             The layer may not have recorded what the call made, so later findings about it may \
             be wrong. Please report this."
        );
        report_panic(
            command,
            message,
            &format!("{text} after the call went down; {what}"),
        );
        result
    })
}

/// Reports an internal error through every instance; on stderr if even that panics.
fn report_panic(command: &'static str, message: String, short: &str) {
    let outcome = internal_error(command, message);
    let reported = catch_unwind(AssertUnwindSafe(|| {
        crate::report::report_to_all_instances(&outcome)
    }));
    if reported.is_err() {
        eprintln!(
            "exportcheck: {}: internal error in {command}: {short}.",
            vuid::INTERNAL_ERROR,
        );
    }
}

/// Runs a validation step; a panic becomes an internal-error finding and the call goes on.
pub fn contain(command: &'static str, validate: impl FnOnce() -> Outcome) -> Outcome {
    catch_unwind(AssertUnwindSafe(|| {
        fault_injection::inject_panic(fault_injection::Site::Check, command);
        validate()
    }))
    .unwrap_or_else(|payload| {
        internal_error(
            command,
            format!(
                "{command}(): the layer's check failed internally ({}); the call was passed to \
                 the driver unchecked. Please report this.",
                panic_text(&payload)
            ),
        )
    })
}

/// Runs a reporting step, which returns whether the call must be skipped. On a panic, the
/// internal error is reported with `report_internal_error` (itself contained) and the call is
/// not skipped for it.
pub fn contain_report(
    command: &'static str,
    deliver: impl FnOnce() -> bool,
    report_internal_error: impl FnOnce(&Outcome) -> bool,
) -> bool {
    catch_unwind(AssertUnwindSafe(deliver)).unwrap_or_else(|payload| {
        let outcome = internal_error(
            command,
            format!(
                "{command}(): the layer failed internally while reporting a finding ({}); that \
                 finding may be lost. The call went on. Please report this.",
                panic_text(&payload)
            ),
        );
        ffi(command, false, || report_internal_error(&outcome))
    })
}

fn internal_error(command: &'static str, message: String) -> Outcome {
    let mut outcome = Outcome::default();
    outcome.push(Finding::new(vuid::INTERNAL_ERROR, command, "", message));
    outcome
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_check_becomes_an_internal_error_finding() {
        let outcome = contain("vkGetMemoryFdKHR", || panic!("injected"));
        assert_eq!(outcome.ids(), [vuid::INTERNAL_ERROR]);
        assert!(!outcome.blocked);
        assert!(outcome.findings[0].message.contains("injected"));
    }

    #[test]
    fn a_panicking_body_returns_the_fallback() {
        assert_eq!(ffi("vkTest", 7, || panic!("boom")), 7);
        assert_eq!(ffi("vkTest", 7, || 1), 1);
    }

    #[test]
    fn a_panic_after_the_call_went_down_returns_the_drivers_result() {
        let fallback = vk::Result::ERROR_UNKNOWN;
        let before = ffi_down("vkTest", fallback, |_| panic!("boom"));
        assert_eq!(before, fallback);
        let after = ffi_down("vkTest", fallback, |down| {
            let _ = down.went(vk::Result::INCOMPLETE);
            panic!("boom")
        });
        assert_eq!(after, vk::Result::INCOMPLETE);
        let normal = ffi_down("vkTest", fallback, |down| down.went(vk::Result::SUCCESS));
        assert_eq!(normal, vk::Result::SUCCESS);
    }
}
