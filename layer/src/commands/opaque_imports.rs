//! Opaque-fd imports checked against their exports in this process: what `vkAllocateMemory`,
//! `vkGetMemoryFdKHR` and `vkFreeMemory` record (`state::opaque_exports`), and the check at an
//! import (`rules::import_match`).

use crate::args::{ChainRead, FdImport};
use crate::boundary;
use crate::finding::Outcome;
use crate::pipeline::policy::{decide, Decision};
use crate::rules::import_match::{self, OpaqueImport};
use crate::state::opaque_exports::{self, ExportOrigin};
use crate::state::{AllocationFacts, DeviceState, MemoryRecord};
use ash::vk;

const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

/// After `vkAllocateMemory` succeeded: the image or buffer of a dedicated allocation exportable
/// as an opaque fd, for its exports to record.
#[inline]
pub fn after_allocate(
    state: &DeviceState,
    memory: u64,
    facts: &AllocationFacts,
    chain: &ChainRead,
) {
    if let (Some(to), Some(export)) = (chain.dedicated_to, facts.export) {
        if export.contains(OPAQUE_FD) {
            opaque_exports::remember_dedicated(state.handle(), memory, to);
        }
    }
}

/// After a valid `vkGetMemoryFdKHR` of `handle_type` returned `fd` for `memory`.
#[inline]
pub fn after_export(memory: &MemoryRecord, handle_type: u32, fd: i32) {
    if handle_type != OPAQUE_FD.as_raw() {
        return;
    }
    let facts = memory.facts();
    let dedicated_to = if facts.dedicated {
        opaque_exports::dedicated_of(memory.device, memory.memory)
    } else {
        None
    };
    let origin = ExportOrigin {
        device: memory.device,
        memory: memory.memory,
        size: facts.size,
        memory_type_index: facts.memory_type_index,
        created_here: facts.import.is_none(),
        dedicated_to,
    };
    opaque_exports::remember(origin, fd);
}

/// Before `vkAllocateMemory` goes down: an import of an opaque fd the layer saw exported,
/// checked against the export's allocation; reported, and whether the call goes down.
#[inline]
pub fn check_import(state: &DeviceState, facts: &AllocationFacts, chain: &ChainRead) -> Decision {
    match chain.import_fd {
        Some(FdImport {
            handle_type,
            fd,
            open: Some(true),
        }) if handle_type == OPAQUE_FD => check_opaque_import(state, facts, chain, fd),
        _ => Decision::CallDown,
    }
}

#[inline(never)]
fn check_opaque_import(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    fd: i32,
) -> Decision {
    let Some(origin) = opaque_exports::origin_of(fd) else {
        return Decision::CallDown;
    };
    let import = OpaqueImport {
        fd,
        facts,
        dedicated_info: chain.dedicated_info,
    };
    let broken = import_match::evaluate(&import, &origin);
    if broken.is_empty() {
        return Decision::CallDown;
    }
    let outcome = boundary::contain("vkAllocateMemory", || Outcome {
        findings: import_match::describe(state.handle(), &import, &origin, broken),
        ..Outcome::default()
    });
    decide(state, "vkAllocateMemory", &outcome)
}
