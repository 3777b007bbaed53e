//! Counts of intercepted calls per command, for the process report: what a user (or a test)
//! reads to know that the layer saw a program's sharing calls, not only that it found nothing.
//! One relaxed atomic add per counted call. A child forked without exec starts at zero, as its
//! findings do ([`CallCounts::forget_the_parents`], from the report's fork hook).

use std::sync::atomic::{AtomicU64, Ordering};

/// The calls of `N` commands, by index into `names`.
pub struct CallCounts<const N: usize> {
    names: [&'static str; N],
    calls: [AtomicU64; N],
}

impl<const N: usize> CallCounts<N> {
    pub const fn new(names: [&'static str; N]) -> Self {
        Self {
            names,
            calls: [const { AtomicU64::new(0) }; N],
        }
    }

    /// The layer intercepted a call of the command at `index`.
    #[inline(always)]
    pub fn count(&self, index: usize) {
        if let Some(calls) = self.calls.get(index) {
            calls.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The commands called at least once, by name, with how often.
    pub fn snapshot(&self) -> serde_json::Map<String, serde_json::Value> {
        self.names
            .iter()
            .zip(&self.calls)
            .filter_map(|(name, calls)| {
                let n = calls.load(Ordering::Relaxed);
                (n > 0).then(|| ((*name).to_owned(), n.into()))
            })
            .collect()
    }

    /// In a child forked without exec: the parent's calls are the parent's.
    pub fn forget_the_parents(&self) {
        for calls in &self.calls {
            calls.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_command_under_its_name_and_lists_only_those_called() {
        let counts = CallCounts::new(["a", "b", "c"]);
        counts.count(0);
        counts.count(0);
        counts.count(2);
        counts.count(7); // No such command: ignored.
        let seen = counts.snapshot();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen["a"], 2);
        assert_eq!(seen["c"], 1);
        counts.forget_the_parents();
        assert!(counts.snapshot().is_empty());
    }
}
