//! The app's descendants that outlive it (Linux).
//!
//! `run` makes itself the *child subreaper* of the app's process tree
//! (`prctl(PR_SET_CHILD_SUBREAPER)`): a process the app forked and left running (a worker it did
//! not wait for, a daemon) is re-parented to `run` when its parent exits. After the app ends,
//! `run` waits for them, up to a bound, before it merges the reports: what they find after the
//! app exited is in the report too. Elsewhere this is a no-op: `run` merges when the app ends.

use std::time::{Duration, Instant};

/// How long `run` waits for descendants still running when the app has ended.
pub const WAIT: Duration = Duration::from_secs(10);

/// A descendant that ended after it was re-parented to `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// Its process ID.
    pub pid: i32,
    /// The signal that killed it, if one did.
    pub signal: Option<i32>,
}

/// What waiting found.
#[derive(Debug, Default)]
pub struct Waited {
    /// The descendants reaped, in the order they ended.
    pub ended: Vec<Ended>,
    /// Descendants still running when the wait gave up (their later findings are not read).
    pub still_running: bool,
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{Ended, Waited};
    use std::time::{Duration, Instant};

    /// Makes this process the subreaper of its descendants; false when the kernel refuses.
    pub fn adopt_orphans() -> bool {
        // SAFETY: PR_SET_CHILD_SUBREAPER takes an integer flag; no pointer is passed.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 }
    }

    /// Reaps every child (the app was reaped already, so these are re-parented descendants)
    /// until none is left or `deadline` passes.
    pub fn wait(deadline: Instant) -> Waited {
        let mut waited = Waited::default();
        loop {
            let mut status = 0;
            // SAFETY: waitpid writes the status of a child we own into our local.
            let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
            if pid > 0 {
                let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
                waited.ended.push(Ended { pid, signal });
                continue;
            }
            if pid < 0 {
                return waited; // ECHILD: no child left.
            }
            if Instant::now() >= deadline {
                waited.still_running = true;
                return waited;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Waited;
    use std::time::Instant;

    pub fn adopt_orphans() -> bool {
        false
    }

    pub fn wait(_deadline: Instant) -> Waited {
        Waited::default()
    }
}

/// Call before the app starts: its orphans come to `run`.
pub fn adopt_orphans() -> bool {
    imp::adopt_orphans()
}

/// Call after the app ended: waits for its remaining descendants, up to `limit`.
pub fn wait_for_descendants(limit: Duration) -> Waited {
    imp::wait(Instant::now() + limit)
}
