//! The value rules of the sync export commands on a live semaphore or fence (`sync.rs` has the
//! objects, the commands and the structural rules): the handle type's, those of the payload's
//! export types, of the signal state and of NT handles exported before. Written from the spec's
//! text and the catalog's notes, as `sync.rs`.

use super::ids::*;
use super::sync::{
    fence_type, handle_type_value, semaphore_type, Kind, Payload, Signal, SyncCommand, SyncDevice,
    SyncFacts,
};
use super::Expected;

/// The value rules of an export of a live object: every rule the value breaks.
pub(crate) fn export_rules(
    command: SyncCommand,
    device: &SyncDevice,
    facts: &SyncFacts,
    handle_type: u32,
    e: &mut Expected,
) {
    use SyncCommand::*;
    handle_type_value(command, device, handle_type, e);
    let one_of = |set: u32| handle_type.is_power_of_two() && handle_type & !set == 0;
    // The copy-transference rules: "If handleType refers to a handle type with copy payload
    // transference semantics" (SYNC_FD, of semaphores and fences alike; a value of several bits
    // refers to no one handle type).
    let copy = match command.kind() {
        Kind::Semaphore => handle_type == semaphore_type::SYNC_FD,
        Kind::Fence => handle_type == fence_type::SYNC_FD,
    };
    let unsignaled = copy && certainly_unsignaled(command.kind(), facts);
    match command {
        GetSemaphoreFd => {
            // 01136: "must be defined as a POSIX file descriptor handle".
            if !one_of(semaphore_type::FD) {
                e.push(SEM_FD_HANDLE_TYPE_01136);
            }
            if not_exportable(facts, handle_type) {
                e.push(SEM_FD_HANDLE_TYPE_01132);
            }
            // 03253: "semaphore must have been created with a VkSemaphoreType of
            // VK_SEMAPHORE_TYPE_BINARY".
            if copy && facts.known && facts.timeline {
                e.push(SEM_FD_HANDLE_TYPE_03253);
            }
            // 01135: "must be signaled, or have an associated semaphore signal operation
            // pending"; 03254: "must have an associated semaphore signal operation that has been
            // submitted". No signal submitted breaks both.
            if unsignaled {
                e.push(SEM_FD_HANDLE_TYPE_01135);
                e.push(SEM_FD_HANDLE_TYPE_03254);
            }
        }
        GetSemaphoreWin32Handle => {
            // 01131: "must be defined as an NT handle or a global share handle".
            if !one_of(semaphore_type::WIN32) {
                e.push(SEM_WIN32_HANDLE_TYPE_01131);
            }
            if not_exportable(facts, handle_type) {
                e.push(SEM_WIN32_HANDLE_TYPE_01126);
            }
            // 01127: "If handleType is defined as an NT handle, vkGetSemaphoreWin32HandleKHR
            // must be called no more than once for each valid unique combination of semaphore
            // and handleType".
            if nt_handle_exported_before(facts, handle_type, semaphore_type::NT_HANDLE) {
                e.push(SEM_WIN32_HANDLE_TYPE_01127);
            }
            // 01130: copy transference (only SYNC_FD, which also breaks 01131).
            if unsignaled {
                e.push(SEM_WIN32_HANDLE_TYPE_01130);
            }
        }
        GetSemaphoreZirconHandle => {
            // 04762: "must be defined as a Zircon event handle".
            if handle_type != semaphore_type::ZIRCON_EVENT {
                e.push(SEM_ZIRCON_HANDLE_TYPE_04762);
            }
            if not_exportable(facts, handle_type) {
                e.push(SEM_ZIRCON_HANDLE_TYPE_04758);
            }
            // 04763: "semaphore must have been created with a VkSemaphoreType of
            // VK_SEMAPHORE_TYPE_BINARY", whatever the handle type.
            if facts.known && facts.timeline {
                e.push(SEM_ZIRCON_SEMAPHORE_04763);
            }
            if unsignaled {
                e.push(SEM_ZIRCON_HANDLE_TYPE_04761);
            }
        }
        GetFenceFd => {
            // 01456: "must be defined as a POSIX file descriptor handle".
            if !one_of(fence_type::FD) {
                e.push(FENCE_FD_HANDLE_TYPE_01456);
            }
            if not_exportable(facts, handle_type) {
                e.push(FENCE_FD_HANDLE_TYPE_01453);
            }
            // 01454: "fence must be signaled, or have an associated fence signal operation
            // pending execution".
            if unsignaled {
                e.push(FENCE_FD_HANDLE_TYPE_01454);
            }
        }
        GetFenceWin32Handle => {
            // 01452: "must be defined as an NT handle or a global share handle".
            if !one_of(fence_type::WIN32) {
                e.push(FENCE_WIN32_HANDLE_TYPE_01452);
            }
            if not_exportable(facts, handle_type) {
                e.push(FENCE_WIN32_HANDLE_TYPE_01448);
            }
            // 01449: an NT handle (OPAQUE_WIN32) exported twice.
            if nt_handle_exported_before(facts, handle_type, fence_type::OPAQUE_WIN32) {
                e.push(FENCE_WIN32_HANDLE_TYPE_01449);
            }
            if unsignaled {
                e.push(FENCE_WIN32_HANDLE_TYPE_01451);
            }
        }
        _ => unreachable!("{command:?} is an import"),
    }
}

/// "handleType must have been included in VkExport{Semaphore,Fence}CreateInfo::handleTypes when
/// the current payload was created" (01132, 01126, 04758, 01453, 01448): judged against the
/// created payload's export types (0 without the structure) while it is certainly the
/// current one and its create info was read, and against the exporter's types of a certainly
/// current import matched to its export (the importing object's own create info does not count
/// then, read or not). Nothing is judged while the payload is not known.
fn not_exportable(facts: &SyncFacts, handle_type: u32) -> bool {
    let types = match facts.payload {
        Payload::Created if !facts.known => return false,
        Payload::Created => facts.export,
        Payload::Imported(import) => match import.exportable {
            Some(types) => Some(types),
            None => return false,
        },
        Payload::NotKnown => return false,
    };
    // Without the structure no type is exportable: handleTypes is 0. A handleType of 0 names no
    // type, and is in every set of types (it breaks -parameter and the command's type rule).
    types.unwrap_or(0) & handle_type != handle_type
}

/// Whether an NT handle of `handle_type` (one of `nt_types`) was exported before from the
/// created payload, which is certainly the current one.
fn nt_handle_exported_before(facts: &SyncFacts, handle_type: u32, nt_types: u32) -> bool {
    facts.known
        && facts.payload == Payload::Created
        && handle_type.is_power_of_two()
        && handle_type & nt_types != 0
        && facts.nt_handles_exported & handle_type != 0
}

/// Whether the object is certainly unsignaled with no signal pending, as the layer follows it: a
/// semaphore only when binary, which its create info says; a fence whatever the layer read of
/// its creation (one imported into is followed from the import on).
fn certainly_unsignaled(kind: Kind, facts: &SyncFacts) -> bool {
    let followed = kind == Kind::Fence || (facts.known && !facts.timeline);
    followed && facts.signal == Signal::NothingSubmitted
}
