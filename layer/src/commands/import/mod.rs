//! The commands that import a payload into an existing object (`vkImportSemaphore*`,
//! `vkImportFence*`), each a descriptor of the export pipeline (`pipeline::export`): a command on
//! one tracked object named by an info structure, whose shared rules are the exports'. Memory's
//! imports are part of `vkAllocateMemory` (`commands::allocate`).

pub mod import_fence_fd;
pub mod import_fence_win32_handle;
pub mod import_semaphore_fd;
pub mod import_semaphore_win32;
pub mod import_semaphore_zircon;
pub mod sync_import;

use crate::features::import_matching::state::semaphore_kmt_exports;
use crate::rules::import::fence_in_flight;
use crate::rules::import::import_semaphore_fd::Importer;
use crate::state::sync_payload::{Import, Permanence};
use crate::state::{DeviceState, FenceRecord};
use ash::vk::{self, Handle};

/// `VK_SEMAPHORE_IMPORT_TEMPORARY_BIT` and `VK_FENCE_IMPORT_TEMPORARY_BIT`.
const TEMPORARY: u32 = 0x1;
/// `SYNC_FD` of semaphores and of fences: copy transference, temporary imports only.
const SEMAPHORE_SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();
const FENCE_SYNC_FD: u32 = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();

/// The permanence of an import of `handle_type` with `flags` (`None`: unreadable), `sync_fd`
/// being the kind's `SYNC_FD` bit: without the temporary flag it is invalid (`-07307`, `-07306`),
/// and what the driver did is not known.
fn permanence(handle_type: u32, flags: Option<u32>, sync_fd: u32) -> Permanence {
    match flags {
        Some(f) if f & TEMPORARY != 0 => Permanence::Temporary,
        Some(_) if handle_type != sync_fd => Permanence::Permanent,
        _ => Permanence::Unknown,
    }
}

/// After an import (`import`) with `flags` into `semaphore` succeeded: it is marked
/// imported (its payload is another from now on: which one, and until when, is followed), and
/// the global share handles exported from its created payload are forgotten (that payload may
/// be gone, and their names with it). A temporary import is followed until the next wait: the
/// layer sees every command that waits on a binary semaphore (`commands::queues`: the
/// submissions and `vkQueuePresentKHR`), so `state::semaphores` follows it on every semaphore
/// whose create info it knows.
pub(crate) fn semaphore_imported(
    state: &DeviceState,
    semaphore: u64,
    import: Import,
    flags: Option<u32>,
) {
    let permanence = permanence(import.handle_type, flags, SEMAPHORE_SYNC_FD);
    (state.semaphores).imported(semaphore, import, permanence);
    semaphore_kmt_exports::forget_semaphore(state.handle(), semaphore);
}

/// The importing device, as the fd imports' rules compare it with an exporting one.
pub(crate) fn importer(state: &DeviceState) -> Importer {
    Importer {
        devices: state.physical_devices.set(),
        driver_uuid: state.driver_uuid,
    }
}

/// Whether the driver says `fence`'s queue signal is still pending: asked (`vkGetFenceStatus`)
/// only when a queue submission's signal is the last thing the layer followed of it
/// (`rules::import::fence_in_flight`).
pub(crate) fn fence_in_flight(state: &DeviceState, fence: &FenceRecord) -> bool {
    if !fence_in_flight::worth_asking(fence) {
        return false;
    }
    let Some(status) = state.next.get_fence_status else {
        return false;
    };
    // SAFETY: the device and a live fence of it (the gate found it); vkGetFenceStatus reads the
    // fence's state and changes nothing.
    let result = unsafe {
        status(
            vk::Device::from_raw(state.handle()),
            vk::Fence::from_raw(fence.fence),
        )
    };
    result == vk::Result::NOT_READY
}

/// After an import (`import`) with `flags` into `fence` succeeded: which payload it holds,
/// and until when (a temporary one until the next `vkResetFences` or `SYNC_FD` export).
pub(crate) fn fence_imported(state: &DeviceState, fence: u64, import: Import, flags: Option<u32>) {
    let permanence = permanence(import.handle_type, flags, FENCE_SYNC_FD);
    state.fences.imported(fence, import, permanence);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permanence_from_flags_and_type() {
        let sync = SEMAPHORE_SYNC_FD;
        assert_eq!(permanence(1, Some(1), sync), Permanence::Temporary);
        assert_eq!(permanence(sync, Some(1), sync), Permanence::Temporary);
        assert_eq!(permanence(1, Some(0), sync), Permanence::Permanent);
        assert_eq!(permanence(sync, Some(0), sync), Permanence::Unknown);
        assert_eq!(permanence(1, None, sync), Permanence::Unknown);
        assert_eq!(
            permanence(FENCE_SYNC_FD, Some(0), FENCE_SYNC_FD),
            Permanence::Unknown
        );
        assert_eq!(
            permanence(0x10, Some(0), FENCE_SYNC_FD),
            Permanence::Permanent
        );
    }
}
