//! The queue submissions of a device, numbered, for what the layer can know of their completion:
//! a submission's waits on binary semaphores have completed once its queue went idle
//! (`vkQueueWaitIdle`, `vkDeviceWaitIdle`) or once a fence of it, or of a later submission to the
//! same queue, was waited on (`vkWaitForFences`, `vkGetFenceStatus`): a fence's signal operation
//! comes after every command submitted earlier to its queue. `commands::queue_waits` tells the
//! semaphore table (`Semaphores::completed`).

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};

/// One submission (`vkQueueSubmit`, `vkQueueSubmit2`, `vkQueueBindSparse`) to a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The queue's handle.
    pub queue: u64,
    /// Its number among the device's submissions (from 1, in the order the layer saw them).
    pub serial: NonZeroU64,
}

/// The device's count of submissions.
#[derive(Debug, Default)]
pub struct Submissions {
    latest: AtomicU64,
}

impl Submissions {
    /// A new submission to `queue`, numbered.
    #[inline(always)]
    pub fn submitted(&self, queue: u64) -> Submission {
        let serial = self.latest.fetch_add(1, Ordering::AcqRel).wrapping_add(1);
        Submission {
            queue,
            // A u64 counted from 1 never comes back to 0.
            serial: NonZeroU64::new(serial).unwrap_or(NonZeroU64::MAX),
        }
    }

    /// The number of the latest submission (0: none yet).
    pub fn latest(&self) -> u64 {
        self.latest.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submissions_are_numbered_in_order() {
        let s = Submissions::default();
        assert_eq!(s.latest(), 0);
        assert_eq!(s.submitted(7).serial.get(), 1);
        let second = s.submitted(8);
        assert_eq!((second.queue, second.serial.get()), (8, 2));
        assert_eq!(s.latest(), 2);
    }
}
