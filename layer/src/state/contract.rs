//! Per-device state of the driver-contract checks: which warnings were already given (each is
//! reported once per device), how many exports are still probed with system calls, and the
//! last fd the driver returned for each memory object while probing.

use dashmap::DashMap;
use std::sync::atomic::{AtomicU32, Ordering};

/// How many exports of a device are probed with system calls (FD_CLOEXEC, fd reuse). Drivers
/// behave the same on every call, so the first ones tell; later calls pay nothing.
pub const PROBED_EXPORTS: u32 = 16;

pub struct ContractState {
    probes_left: AtomicU32,
    reported: DashMap<&'static str, ()>,
    /// The fd the driver returned for a memory object on its latest probed export.
    pub last_fd: DashMap<u64, i32>,
}

impl Default for ContractState {
    fn default() -> Self {
        Self {
            probes_left: AtomicU32::new(PROBED_EXPORTS),
            reported: DashMap::new(),
            last_fd: DashMap::new(),
        }
    }
}

impl ContractState {
    /// Whether this export is still probed (counts it down).
    pub fn take_probe(&self) -> bool {
        self.probes_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
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
}
