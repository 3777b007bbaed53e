//! Signals while the app runs (Unix).
//!
//! A terminal's Ctrl-C or Ctrl-\ reaches every process of the foreground group, the app
//! included: exportcheck ignores SIGINT and SIGQUIT while it waits, so it survives to collect
//! the reports of an app that stops on them. SIGTERM and SIGHUP sent to exportcheck alone (a CI
//! runner's timeout, a closed terminal) are passed on to the app, which then ends and is
//! reported as usual.

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicI32, Ordering};

    static CHILD: AtomicI32 = AtomicI32::new(0);

    const IGNORED: [libc::c_int; 2] = [libc::SIGINT, libc::SIGQUIT];
    const FORWARDED: [libc::c_int; 2] = [libc::SIGTERM, libc::SIGHUP];

    extern "C" fn forward(signal: libc::c_int) {
        let pid = CHILD.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill is async-signal-safe; pid is our child, not yet reaped while the
            // handler is installed.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    }

    /// Restores the previous dispositions when dropped.
    pub struct Guard {
        saved: Vec<(libc::c_int, libc::sigaction)>,
    }

    /// Ignores SIGINT/SIGQUIT and forwards SIGTERM/SIGHUP to `child` until the guard drops.
    pub fn while_child_runs(child: u32) -> Guard {
        CHILD.store(i32::try_from(child).unwrap_or(0), Ordering::SeqCst);
        let mut saved = Vec::new();
        let handlers = IGNORED
            .iter()
            .map(|&s| (s, libc::SIG_IGN))
            .chain(FORWARDED.iter().map(|&s| {
                (
                    s,
                    forward as extern "C" fn(libc::c_int) as libc::sighandler_t,
                )
            }));
        for (signal, handler) in handlers {
            // SAFETY: sigaction with a zeroed, then filled struct; the handler only calls kill.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handler;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, &action, &mut old) == 0 {
                    saved.push((signal, old));
                }
            }
        }
        Guard { saved }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            for (signal, old) in &self.saved {
                // SAFETY: restores what sigaction returned before.
                unsafe {
                    libc::sigaction(*signal, old, std::ptr::null_mut());
                }
            }
            CHILD.store(0, Ordering::SeqCst);
        }
    }
}

#[cfg(not(unix))]
mod imp {
    /// Nothing to restore.
    pub struct Guard;

    /// Signals are not handled on this platform.
    pub fn while_child_runs(_child: u32) -> Guard {
        Guard
    }
}

pub use imp::{while_child_runs, Guard};

/// The name of signal `signal` (`SIGSEGV`), or `signal N`.
#[must_use]
pub fn name(signal: i32) -> String {
    const NAMES: [(i32, &str); 17] = [
        (1, "SIGHUP"),
        (2, "SIGINT"),
        (3, "SIGQUIT"),
        (4, "SIGILL"),
        (5, "SIGTRAP"),
        (6, "SIGABRT"),
        (7, "SIGBUS"),
        (8, "SIGFPE"),
        (9, "SIGKILL"),
        (10, "SIGUSR1"),
        (11, "SIGSEGV"),
        (12, "SIGUSR2"),
        (13, "SIGPIPE"),
        (14, "SIGALRM"),
        (15, "SIGTERM"),
        (24, "SIGXCPU"),
        (31, "SIGSYS"),
    ];
    NAMES.iter().find(|(n, _)| *n == signal).map_or_else(
        || format!("signal {signal}"),
        |(_, name)| (*name).to_owned(),
    )
}
