//! `VkExportMemoryWin32HandleInfoKHR` in the pNext chain of `VkMemoryAllocateInfo`
//! (VK_KHR_external_memory_win32): its rules, evaluated and described with the allocation's
//! (`alloc.rs` calls them).
//!
//! - `VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657`: "If
//!   VkExportMemoryAllocateInfo::handleTypes does not include
//!   VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, a VkExportMemoryWin32HandleInfoKHR
//!   structure must not be included". Judged when the chain has a `VkExportMemoryAllocateInfo`
//!   (without one there are no `handleTypes` to read the rule against).
//! - `VUID-VkMemoryAllocateInfo-pNext-pNext` for the structure on a device without
//!   VK_KHR_external_memory_win32 (it extends `VkMemoryAllocateInfo` only with it).
//! - `sType-sType` holds by construction (the structure is recognised by its `sType`);
//!   `pAttributes-parameter` (a valid `SECURITY_ATTRIBUTES` pointer when not NULL) cannot be
//!   checked: nothing tells a valid pointer from another.

use crate::args::ChainRead;
use crate::finding::{Finding, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::AllocationFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkExportMemoryWin32HandleInfoKHR` at `vkAllocateMemory`.
    pub struct ExportWin32Rules {
        /// `VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657`.
        WITHOUT_OPAQUE_WIN32,
    }
}

/// The rules the chain's `VkExportMemoryWin32HandleInfoKHR` breaks (none without one).
#[inline(always)]
pub fn evaluate(facts: &AllocationFacts, chain: &ChainRead) -> ExportWin32Rules {
    if !chain.export_win32 {
        return ExportWin32Rules::NONE;
    }
    let opaque_win32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
    ExportWin32Rules::NONE.with(
        ExportWin32Rules::WITHOUT_OPAQUE_WIN32,
        facts.export.is_some_and(|t| !t.contains(opaque_win32)),
    )
}

/// The findings of the rules of [`evaluate`] in `broken`; `finding` makes one of
/// `vkAllocateMemory` (ID, field, message).
pub fn describe(
    facts: &AllocationFacts,
    broken: ExportWin32Rules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let field = "pAllocateInfo->pNext";
    if let (true, Some(types)) = (
        broken.has(ExportWin32Rules::WITHOUT_OPAQUE_WIN32),
        facts.export,
    ) {
        outcome.push(finding(
            vuid::EXPORT_WIN32_HANDLE_TYPES_00657,
            field,
            format!(
                "vkAllocateMemory(): the pNext chain of pAllocateInfo has a \
                 VkExportMemoryWin32HandleInfoKHR, but VkExportMemoryAllocateInfo::handleTypes \
                 ({}) does not include VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT.",
                vk_names::handle_types(types)
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::AllocateInfoRead;
    use crate::rules::allocate::alloc::check_allocate;
    use crate::rules::fixtures::*;

    fn with_win32(facts: AllocationFacts) -> AllocateInfoRead {
        let chain = ChainRead {
            export_win32: true,
            ..ChainRead::COMPLETE
        };
        AllocateInfoRead::Valid(facts, chain)
    }

    const OPAQUE_WIN32: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;

    #[test]
    fn with_opaque_win32_in_the_export_it_is_silent() {
        let info = with_win32(exported(OPAQUE_WIN32 | OPAQUE_FD));
        assert!(check_allocate(&fd_device(), &info, false).ids().is_empty());
    }

    #[test]
    fn without_opaque_win32_in_the_export_it_is_00657() {
        let out = check_allocate(&fd_device(), &with_win32(exported(OPAQUE_FD)), false);
        assert_eq!(out.ids(), [vuid::EXPORT_WIN32_HANDLE_TYPES_00657]);
        assert!(!out.blocked);
        assert!(
            out.findings[0]
                .message
                .contains("(VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) does not include"),
            "{}",
            out.findings[0].message
        );
        // No VkExportMemoryAllocateInfo: no handleTypes to judge against.
        let out = check_allocate(&fd_device(), &with_win32(not_exported()), false);
        assert!(out.ids().is_empty());
    }

    #[test]
    fn without_the_extension_it_is_pnext_pnext_too() {
        let mut device = fd_device();
        device.extensions.khr_external_memory_win32 = false;
        device.unavailable_structures =
            device.extensions.unavailable_structures(device.api_version);
        // VkExportMemoryAllocateInfo and VkExportMemoryWin32HandleInfoKHR in the chain.
        let structures = [
            vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO,
            vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
        ]
        .map(crate::vk_names::allocate_chain_bit);
        assert!(!structures.contains(&0), "both are read");
        let with_structure = |info: AllocateInfoRead| match info {
            AllocateInfoRead::Valid(facts, chain) => AllocateInfoRead::Valid(
                facts,
                ChainRead {
                    structures: structures[0] | structures[1],
                    ..chain
                },
            ),
            other => other,
        };
        let info = with_structure(with_win32(exported(OPAQUE_FD)));
        let out = check_allocate(&device, &info, false);
        assert_eq!(
            out.ids(),
            [
                vuid::ALLOC_PNEXT_PNEXT,
                vuid::EXPORT_WIN32_HANDLE_TYPES_00657
            ]
        );
        let info = with_structure(with_win32(exported(OPAQUE_WIN32)));
        let out = check_allocate(&device, &info, false);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_PNEXT]);
    }
}
