//! The driver's answers about exporting and importing semaphores and fences, per device (so per
//! physical device), handle type and, for semaphores, semaphore type:
//! `vkGetPhysicalDeviceExternalSemaphoreProperties` / `vkGetPhysicalDeviceExternalFenceProperties`
//! as the layer asks them itself (`commands::sync_support`). Asked once each, whatever the number
//! of semaphores or fences alike; at most a few dozen answers a device.

use parking_lot::Mutex;
use std::collections::HashMap;

/// The kind of object an answer is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncObject {
    Semaphore,
    Fence,
}

/// What one answer is about: the object kind, one handle-type bit, and for a semaphore whether
/// it is a timeline semaphore (a fence has none: `false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncQuery {
    pub object: SyncObject,
    pub handle_type: u32,
    pub timeline: bool,
}

/// `VkExternalSemaphoreProperties` / `VkExternalFenceProperties` for one handle type, as plain
/// bits (the two kinds' feature bits agree: `EXPORTABLE` is bit 0, `IMPORTABLE` bit 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncTypeSupport {
    /// `externalSemaphoreFeatures` / `externalFenceFeatures`.
    pub features: u32,
    pub compatible: u32,
    pub export_from_imported: u32,
}

impl SyncTypeSupport {
    /// `VK_EXTERNAL_{SEMAPHORE,FENCE}_FEATURE_EXPORTABLE_BIT`.
    pub const EXPORTABLE: u32 = 0x1;
    /// `VK_EXTERNAL_{SEMAPHORE,FENCE}_FEATURE_IMPORTABLE_BIT`.
    pub const IMPORTABLE: u32 = 0x2;

    pub fn exportable(&self) -> bool {
        self.features & Self::EXPORTABLE != 0
    }

    pub fn importable(&self) -> bool {
        self.features & Self::IMPORTABLE != 0
    }
}

/// A device's answers. `None`: the layer may not ask (no valid entry point), so nothing is judged.
#[derive(Default)]
pub struct SyncSupport {
    answers: Mutex<HashMap<SyncQuery, Option<SyncTypeSupport>>>,
}

impl SyncSupport {
    /// The answer for `query`, asked with `ask` the first time.
    pub fn answer(
        &self,
        query: SyncQuery,
        ask: impl FnOnce() -> Option<SyncTypeSupport>,
    ) -> Option<SyncTypeSupport> {
        if let Some(known) = self.answers.lock().get(&query) {
            return *known;
        }
        // Asked without the lock held: the driver (or a layer below) is never called under it.
        let answer = ask();
        self.answers.lock().insert(query, answer);
        answer
    }

    /// How many answers are kept.
    pub fn len(&self) -> usize {
        self.answers.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn clear(&self) {
        self.answers.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_asked_once_per_object_type_and_semaphore_type() {
        let support = SyncSupport::default();
        let mut asked = 0;
        let query = |object, timeline| SyncQuery {
            object,
            handle_type: 1,
            timeline,
        };
        for _ in 0..3 {
            for q in [
                query(SyncObject::Semaphore, false),
                query(SyncObject::Semaphore, true),
                query(SyncObject::Fence, false),
            ] {
                support.answer(q, || {
                    asked += 1;
                    None
                });
            }
        }
        assert_eq!(asked, 3);
        assert_eq!(support.len(), 3);
        support.clear();
        assert!(support.is_empty());
    }
}
