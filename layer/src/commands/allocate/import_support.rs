//! `vkAllocateMemory` of a dedicated import: the handle type of each import structure whose rule
//! asks for import support (`VkImportMemoryFdInfoKHR`, `VkImportMemoryWin32HandleInfoKHR`) is
//! judged against the buffer or image of `VkMemoryDedicatedAllocateInfo`
//! (`rules::resources::resource_import`), with the driver's cached answers for that resource
//! (`resources::support_for`). Runs only on the out-of-line path of imports and dedicated
//! allocations (`memory::judge_dedicated_and_import`).

use crate::args::{ChainRead, Win32Import};
use crate::boundary;
use crate::commands::resources::{describe_resource, query_name, support_for};
use crate::finding::{ObjectRef, Outcome};
use crate::rules::resources::resource_import::{self, DedicatedImport};
use crate::state::DeviceState;
use crate::vuid;
use ash::vk;

const ALLOCATE: &str = "vkAllocateMemory";

/// Judges the chain's fd import and `win32` (its `VkImportMemoryWin32HandleInfoKHR`, when the
/// command read one) against the resources its `VkMemoryDedicatedAllocateInfo` names: the
/// findings added to the call's (`outcome`). The test for a dedicated allocation is inline: any
/// other makes no call.
#[inline(always)]
pub fn check(
    state: &DeviceState,
    chain: &ChainRead,
    win32: Option<Win32Import>,
    outcome: &mut Outcome,
) {
    if let Some(named) = chain.dedicated_info {
        check_dedicated(state, chain, named, win32, outcome);
    }
}

/// [`check`] of a chain whose `VkMemoryDedicatedAllocateInfo` names `image` and `buffer`.
#[inline(never)]
fn check_dedicated(
    state: &DeviceState,
    chain: &ChainRead,
    (image, buffer): (u64, u64),
    win32: Option<Win32Import>,
    outcome: &mut Outcome,
) {
    let imports = [
        chain.import_fd.map(|i| {
            (
                vuid::IMPORT_FD_HANDLE_TYPE_09862,
                "VkImportMemoryFdInfoKHR",
                i.handle_type,
            )
        }),
        win32.map(|i| {
            (
                vuid::IMPORT_WIN32_HANDLE_TYPE_09861,
                "VkImportMemoryWin32HandleInfoKHR",
                i.handle_type,
            )
        }),
    ];
    for (id, structure, handle_type) in imports.into_iter().flatten() {
        // 0 defines no import; more than one bit is `handleType-parameter`'s.
        if !handle_type.as_raw().is_power_of_two() {
            continue;
        }
        for (ty, handle) in [
            (vk::ObjectType::IMAGE, image),
            (vk::ObjectType::BUFFER, buffer),
        ] {
            if handle != 0 {
                judge(state, (id, structure, handle_type), (ty, handle), outcome);
            }
        }
    }
}

/// One import structure against one tracked resource (others are not judged).
fn judge(
    state: &DeviceState,
    (id, structure, handle_type): (
        &'static str,
        &'static str,
        vk::ExternalMemoryHandleTypeFlags,
    ),
    (ty, handle): (vk::ObjectType, u64),
    outcome: &mut Outcome,
) {
    let Some(query) = state.resources.export_query(ty, handle) else {
        return;
    };
    // Asked only for a type valid on the device (others are `handleType-parameter`'s).
    let support = support_for(state, &query, handle_type);
    let Some((_, answer)) = support.entries().next() else {
        return;
    };
    if !resource_import::evaluate(answer) {
        return;
    }
    let found = boundary::contain(ALLOCATE, || {
        let mut found = Outcome::default();
        found.push(resource_import::describe(&DedicatedImport {
            id,
            structure,
            device: state.handle(),
            handle_type,
            resource: ObjectRef { ty, handle },
            resource_info: &describe_resource(&query),
            query: query_name(&query),
            answer,
        }));
        found
    });
    outcome.findings.extend(found.findings);
    outcome.blocked |= found.blocked;
}
