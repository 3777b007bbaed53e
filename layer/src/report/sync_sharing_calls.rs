//! How many calls of each command that shares a semaphore or a fence (its export and import
//! commands) the layer intercepted in this process, for the report's
//! `"process": {"sync_sharing_calls": …}`: what a user (or a test) reads to know that the layer
//! saw a program's shared semaphores and fences, not only that it found nothing.
//!
//! One relaxed atomic add per call of those commands only ([`CallCounts`]); memory's export and import commands
//! are not counted (their hot paths stay as they are). A child forked without exec starts at
//! zero, as its findings do.

use super::call_counts::CallCounts;

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

static CALLS: CallCounts<{ NAMES.len() }> = CallCounts::new(NAMES);

/// The layer intercepted a call of `command`.
#[inline(always)]
pub fn count(command: SyncSharingCommand) {
    CALLS.count(command as usize);
}

/// The commands called at least once, by name, with how often.
pub fn snapshot() -> serde_json::Map<String, serde_json::Value> {
    CALLS.snapshot()
}

/// In a child forked without exec: the parent's calls are the parent's.
pub fn forget_the_parents() {
    CALLS.forget_the_parents();
}
