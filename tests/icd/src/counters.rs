//! How many times each of the driver's entry points was called in this process.
//!
//! Read from tests through the exported `exportcheck_test_icd_call_count` (see `lib.rs`); the
//! counts are process-wide, shared by every instance and device.

use std::sync::{Mutex, OnceLock};

use crate::objects::Map;

fn counts() -> &'static Mutex<Map<&'static str, u64>> {
    static COUNTS: OnceLock<Mutex<Map<&'static str, u64>>> = OnceLock::new();
    COUNTS.get_or_init(|| Mutex::new(Map::default()))
}

/// Counts one call of the command `name` (its core name for aliases).
pub fn bump(name: &'static str) {
    *crate::objects::lock(counts()).entry(name).or_insert(0) += 1;
}

/// Calls of `name` so far; an alias (e.g. `...KHR`) reads the count of its core command.
pub fn get(name: &str) -> u64 {
    let name = crate::procs::canonical_name(name);
    crate::objects::lock(counts())
        .get(name)
        .copied()
        .unwrap_or(0)
}

fn p_nexts() -> &'static Mutex<Map<&'static str, usize>> {
    static P_NEXTS: OnceLock<Mutex<Map<&'static str, usize>>> = OnceLock::new();
    P_NEXTS.get_or_init(|| Mutex::new(Map::default()))
}

/// Remembers the `pNext` of the info structure the command `name` was last called with (the
/// address only: the driver never reads through it), so tests can see what reached the driver.
pub fn record_p_next(name: &'static str, p_next: *const std::ffi::c_void) {
    crate::objects::lock(p_nexts()).insert(name, p_next as usize);
}

/// The `pNext` address `name`'s info structure last had (0 for NULL or never called).
pub fn last_p_next(name: &str) -> usize {
    let name = crate::procs::canonical_name(name);
    crate::objects::lock(p_nexts())
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// Forgets every count.
pub fn reset() {
    crate::objects::lock(counts()).clear();
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_add_up_and_aliases_read_the_core_count() {
        super::bump("vkGetPhysicalDeviceExternalBufferProperties");
        super::bump("vkGetPhysicalDeviceExternalBufferProperties");
        assert!(super::get("vkGetPhysicalDeviceExternalBufferPropertiesKHR") >= 2);
        assert_eq!(super::get("vkNoSuchCommand"), 0);
    }
}
