//! Host waits (`vkWaitForFences`, `vkWaitSemaphores`): the driver completes its work at
//! submission, so a wait can only be ended by another thread (a submission, a signal, a reset)
//! or another process sharing the payload; it polls until the condition holds or the timeout
//! passes (`u64::MAX` waits for ever, as on real drivers).

use std::time::{Duration, Instant};

/// How long one sleep between two looks at the condition lasts.
const POLL: Duration = Duration::from_millis(1);

/// Whether `reached` became true within `timeout_ns` nanoseconds (0: looks once).
pub fn wait_until(timeout_ns: u64, mut reached: impl FnMut() -> bool) -> bool {
    if reached() {
        return true;
    }
    let deadline = Instant::now().checked_add(Duration::from_nanos(timeout_ns));
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        std::thread::sleep(POLL);
        if reached() {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_zero_timeout_looks_once_and_a_short_one_ends() {
        assert!(super::wait_until(0, || true));
        assert!(!super::wait_until(0, || false));
        assert!(!super::wait_until(2_000_000, || false));
        let mut n = 0;
        assert!(super::wait_until(u64::MAX, || {
            n += 1;
            n == 3
        }));
    }
}
