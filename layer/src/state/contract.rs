//! Per-device state of the driver-contract checks: which warnings were already given (each is
//! reported once per device), how many exports are still probed with system calls, and the
//! last fd the driver returned for each memory object while probing (forgotten when the memory is
//! freed).

use super::maps::{handle_map, HandleMap};
use dashmap::DashMap;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

/// How many exports of a device are probed with system calls (FD_CLOEXEC, fd reuse). Drivers
/// behave the same on every call, so the first ones tell; later calls pay nothing.
pub const PROBED_EXPORTS: u32 = 16;

pub struct ContractState {
    probes_left: AtomicU32,
    reported: DashMap<&'static str, ()>,
    /// The fd the driver returned for a live memory object on its latest probed export.
    last_fd: HandleMap<u64, i32>,
    /// How many entries `last_fd` holds: once the probed memory is freed, freeing memory costs
    /// one load instead of a map lookup.
    last_fd_entries: AtomicUsize,
}

impl Default for ContractState {
    fn default() -> Self {
        Self {
            probes_left: AtomicU32::new(PROBED_EXPORTS),
            reported: DashMap::new(),
            last_fd: handle_map(4),
            last_fd_entries: AtomicUsize::new(0),
        }
    }
}

impl ContractState {
    /// Whether this export is still probed (counts it down).
    #[inline(always)]
    pub fn take_probe(&self) -> bool {
        self.probes_left.load(Ordering::Relaxed) != 0 && self.take_probe_slow()
    }

    #[cold]
    fn take_probe_slow(&self) -> bool {
        self.probes_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// The fd the latest probed export of `memory` returned, if one was probed.
    pub fn last_fd(&self, memory: u64) -> Option<i32> {
        self.last_fd.get(&memory).map(|fd| *fd)
    }

    /// Remembers the fd a probed export of `memory` returned.
    pub fn set_last_fd(&self, memory: u64, fd: i32) {
        if self.last_fd.insert(memory, fd).is_none() {
            self.last_fd_entries.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Forgets what the probes saw of `memory` (it is being freed). The app synchronises an
    /// export of `memory` with its free, so the entry count seen here includes that export's.
    #[inline]
    pub fn forget(&self, memory: u64) {
        if self.last_fd_entries.load(Ordering::Relaxed) != 0
            && self.last_fd.remove(&memory).is_some()
        {
            self.last_fd_entries.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Forgets every memory object (its device is being destroyed).
    pub fn forget_all(&self) {
        self.last_fd.clear();
        self.last_fd_entries.store(0, Ordering::Relaxed);
    }

    /// How many memory objects the probes remember an fd of.
    pub fn probe_entries(&self) -> usize {
        self.last_fd.len()
    }

    /// True the first time an ID is reported on this device.
    pub fn first_report(&self, id: &'static str) -> bool {
        self.reported.insert(id, ()).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_run_out_and_reports_happen_once() {
        let c = ContractState::default();
        assert_eq!(
            (0..100).filter(|_| c.take_probe()).count(),
            PROBED_EXPORTS as usize
        );
        assert!(c.first_report("X"));
        assert!(!c.first_report("X"));
        assert!(c.first_report("Y"));
    }

    #[test]
    fn probed_fds_are_forgotten_when_their_memory_is_freed() {
        let c = ContractState::default();
        c.set_last_fd(1, 7);
        c.set_last_fd(1, 8);
        c.set_last_fd(2, 9);
        assert_eq!(
            (c.last_fd(1), c.last_fd(2), c.probe_entries()),
            (Some(8), Some(9), 2)
        );
        c.forget(1);
        c.forget(1);
        c.forget(3);
        assert_eq!(
            (c.last_fd(1), c.last_fd(2), c.probe_entries()),
            (None, Some(9), 1)
        );
        c.forget(2);
        assert_eq!(c.probe_entries(), 0);
        assert_eq!(c.last_fd_entries.load(Ordering::Relaxed), 0);
    }
}
