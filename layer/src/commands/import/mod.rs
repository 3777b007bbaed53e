//! The commands that import a payload into an existing object (`vkImportSemaphore*`,
//! `vkImportFence*`), each a descriptor of the export pipeline (`pipeline::export`): a command on
//! one tracked object named by an info structure, whose shared rules are the exports'. Memory's
//! imports are part of `vkAllocateMemory` (`commands::allocate`).

pub mod import_fence_fd;
pub mod import_fence_win32_handle;
pub mod import_semaphore_fd;
pub mod import_semaphore_win32;
pub mod import_semaphore_zircon;

use crate::features::import_matching::state::semaphore_kmt_exports;
use crate::state::DeviceState;

/// After an import into `semaphore` succeeded: it is marked imported (its payload may be
/// another from now on), and the global share handles exported from its created payload are
/// forgotten (that payload may be gone, and their names with it).
pub(crate) fn semaphore_imported(state: &DeviceState, semaphore: u64) {
    state.semaphores.imported(semaphore);
    semaphore_kmt_exports::forget_semaphore(state.handle(), semaphore);
}
