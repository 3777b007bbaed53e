//! Per-device state of the driver-contract checks: which warnings were already given (each is
//! reported once per device) and how many exports are still probed with system calls. (The last
//! fd a probed export of a memory object returned is in its record: `live_memory`.)

use dashmap::DashMap;
use std::sync::atomic::{AtomicU32, Ordering};

/// How many exports of a device are probed with system calls (FD_CLOEXEC, fd reuse). Drivers
/// behave the same on every call, so the first ones tell; later calls pay nothing.
pub const PROBED_EXPORTS: u32 = 16;

pub struct ContractState {
    probes_left: AtomicU32,
    reported: DashMap<&'static str, ()>,
}

impl Default for ContractState {
    fn default() -> Self {
        Self {
            probes_left: AtomicU32::new(PROBED_EXPORTS),
            reported: DashMap::new(),
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
