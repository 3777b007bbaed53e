//! The panic boundary. No panic may unwind into the loader or the app: every exported function
//! body runs inside [`ffi`], and the checking and reporting steps run inside [`contain`], so a
//! defect in the layer costs a finding, not the app's call.

use crate::finding::{Finding, Outcome};
use crate::vuid;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs an exported function body; on a panic returns `fallback` instead of unwinding.
pub fn ffi<R>(command: &str, fallback: R, body: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        eprintln!(
            "exportcheck: {}: internal error in {command}: {}; the call returned early.",
            vuid::INTERNAL_ERROR,
            panic_text(&payload)
        );
        fallback
    })
}

/// Runs a validation step; a panic becomes an internal-error finding and the call goes on.
pub fn contain(command: &'static str, validate: impl FnOnce() -> Outcome) -> Outcome {
    catch_unwind(AssertUnwindSafe(validate)).unwrap_or_else(|payload| {
        let mut outcome = Outcome::default();
        outcome.push(Finding::new(
            vuid::INTERNAL_ERROR,
            command,
            "",
            format!(
                "{command}(): the layer's check failed internally ({}); the call was passed to \
                 the driver unchecked. Please report this.",
                panic_text(&payload)
            ),
        ));
        outcome
    })
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
}
