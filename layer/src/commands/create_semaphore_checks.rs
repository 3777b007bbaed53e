//! What `vkCreateSemaphore` judges before it goes down: each create-time rule
//! (`rules::create_semaphore`) on what it reads of the create info, its findings reported
//! together; the call then goes down as the app made it, unless the app's callback asked to skip
//! it. A rule's work is behind a cheap test (its extension enabled on the device).

use crate::boundary;
use crate::finding::Outcome;
use crate::pipeline::policy::{decide, Decision};
use crate::raw::{read_node, read_struct, walk_chain, StructArg};
use crate::rules::create_semaphore::export_win32::{self, ExportChain};
use crate::state::DeviceState;
use ash::vk;

const COMMAND: &str = "vkCreateSemaphore";

/// Judges `vkCreateSemaphore`'s create info `p` on `state`'s device and reports: whether the
/// call goes down.
///
/// # Safety
/// `p` is what the app passed to `vkCreateSemaphore`: NULL or a readable create info and chain.
pub unsafe fn judge(state: &DeviceState, p: *const vk::SemaphoreCreateInfo<'_>) -> Decision {
    let mut outcome = Outcome::default();
    // SAFETY: this function's contract.
    unsafe { judge_export_win32(state, p, &mut outcome) };
    decide(state, COMMAND, &outcome)
}

/// `VUID-VkExportSemaphoreWin32HandleInfoKHR-handleTypes-01125`, on a device with
/// VK_KHR_external_semaphore_win32 (without it the structure is no part of the chain).
///
/// # Safety
/// As [`judge`].
unsafe fn judge_export_win32(
    state: &DeviceState,
    p: *const vk::SemaphoreCreateInfo<'_>,
    outcome: &mut Outcome,
) {
    if !state.facts.extensions.khr_external_semaphore_win32 {
        return;
    }
    // SAFETY: this function's contract.
    let chain = unsafe { read_export_chain(p) };
    let broken = export_win32::evaluate(&chain);
    if broken.is_empty() {
        return;
    }
    let found = boundary::contain(COMMAND, || {
        let mut found = Outcome::default();
        export_win32::describe(state.handle(), &chain, broken, &mut found);
        found
    });
    outcome.findings.extend(found.findings);
    outcome.blocked |= found.blocked;
}

/// The export structures of a `VkSemaphoreCreateInfo` chain (none when the create info is NULL
/// or of another `sType`).
///
/// # Safety
/// As [`judge`].
unsafe fn read_export_chain(p: *const vk::SemaphoreCreateInfo<'_>) -> ExportChain {
    // SAFETY: the caller's contract; NULL and sType are checked first.
    let StructArg::Valid(info) =
        (unsafe { read_struct(p, vk::StructureType::SEMAPHORE_CREATE_INFO) })
    else {
        return ExportChain::default();
    };
    let mut chain = ExportChain::default();
    // SAFETY: each node is read as the structure its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO => {
                let e: vk::ExportSemaphoreCreateInfo = read_node(node);
                chain.export = Some(chain.export.unwrap_or_default() | e.handle_types);
            }
            vk::StructureType::EXPORT_SEMAPHORE_WIN32_HANDLE_INFO_KHR => {
                chain.export_win32 = true;
            }
            _ => {}
        })
    };
    chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vuid;

    /// `vuid::EXPORT_SEM_WIN32_STYPE` holds by construction: a node with another `sType` is not
    /// read as a `VkExportSemaphoreWin32HandleInfoKHR`.
    #[test]
    fn the_win32_info_is_recognised_by_its_stype() {
        let _ = vuid::EXPORT_SEM_WIN32_STYPE;
        let read = |s_type| {
            let win32 = vk::ExportSemaphoreWin32HandleInfoKHR {
                s_type,
                ..Default::default()
            };
            let info = vk::SemaphoreCreateInfo {
                p_next: (&win32 as *const vk::ExportSemaphoreWin32HandleInfoKHR).cast(),
                ..Default::default()
            };
            // SAFETY: a live create info and chain.
            unsafe { read_export_chain(&info) }
        };
        assert!(read(vk::StructureType::EXPORT_SEMAPHORE_WIN32_HANDLE_INFO_KHR).export_win32);
        assert!(!read(vk::StructureType::EXPORT_FENCE_WIN32_HANDLE_INFO_KHR).export_win32);
    }
}
