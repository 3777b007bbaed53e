//! The panic boundary: nothing of the shim's own work may unwind into the app or the driver.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// `body`'s value, or `fallback` if it panicked (the panic hook has printed the message; the
/// app's call still goes down).
pub(crate) fn guard<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_gives_the_fallback() {
        assert_eq!(guard(1, || 2), 2);
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let got = guard(1, || -> i32 { panic!("inside") });
        std::panic::set_hook(hook);
        assert_eq!(got, 1);
    }
}
