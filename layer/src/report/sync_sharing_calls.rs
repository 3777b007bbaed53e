//! How many calls of each command that shares a semaphore or a fence (its export and import
//! commands) the layer intercepted in this process, for the report's
//! `"process": {"sync_sharing_calls": …}`: what a user (or a test) reads to know that the layer
//! saw a program's shared semaphores and fences, not only that it found nothing.
//!
//! One relaxed atomic add per call of those commands only; memory's export and import commands
//! are not counted (their hot paths stay as they are). A child forked without exec starts at
//! zero, as its findings do.

use std::sync::atomic::{AtomicU64, Ordering};

/// The counted commands, in the order of [`NAMES`].
#[derive(Clone, Copy)]
pub enum SyncSharingCommand {
    GetSemaphoreFd,
    ImportSemaphoreFd,
    GetSemaphoreWin32Handle,
    ImportSemaphoreWin32Handle,
    GetSemaphoreZirconHandle,
    ImportSemaphoreZirconHandle,
    GetFenceFd,
    ImportFenceFd,
    GetFenceWin32Handle,
    ImportFenceWin32Handle,
}

const NAMES: [&str; 10] = [
    "vkGetSemaphoreFdKHR",
    "vkImportSemaphoreFdKHR",
    "vkGetSemaphoreWin32HandleKHR",
    "vkImportSemaphoreWin32HandleKHR",
    "vkGetSemaphoreZirconHandleFUCHSIA",
    "vkImportSemaphoreZirconHandleFUCHSIA",
    "vkGetFenceFdKHR",
    "vkImportFenceFdKHR",
    "vkGetFenceWin32HandleKHR",
    "vkImportFenceWin32HandleKHR",
];

static CALLS: [AtomicU64; NAMES.len()] = [const { AtomicU64::new(0) }; NAMES.len()];

/// The layer intercepted a call of `command`.
#[inline(always)]
pub fn count(command: SyncSharingCommand) {
    CALLS[command as usize].fetch_add(1, Ordering::Relaxed);
}

/// The commands called at least once, by name, with how often.
pub fn snapshot() -> serde_json::Map<String, serde_json::Value> {
    NAMES
        .iter()
        .zip(&CALLS)
        .filter_map(|(name, calls)| {
            let n = calls.load(Ordering::Relaxed);
            (n > 0).then(|| ((*name).to_owned(), n.into()))
        })
        .collect()
}

/// In a child forked without exec: the parent's calls are the parent's.
pub fn forget_the_parents() {
    for calls in &CALLS {
        calls.store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_command_under_its_name_and_lists_only_those_called() {
        forget_the_parents();
        count(SyncSharingCommand::GetSemaphoreFd);
        count(SyncSharingCommand::GetSemaphoreFd);
        count(SyncSharingCommand::ImportFenceWin32Handle);
        let seen = snapshot();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen["vkGetSemaphoreFdKHR"], 2);
        assert_eq!(seen["vkImportFenceWin32HandleKHR"], 1);
        forget_the_parents();
        assert!(snapshot().is_empty());
    }
}
