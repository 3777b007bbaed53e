//! `VkExportSemaphoreWin32HandleInfoKHR` in the pNext chain of `VkSemaphoreCreateInfo`
//! (VK_KHR_external_semaphore_win32): its rule.
//!
//! - `VUID-VkExportSemaphoreWin32HandleInfoKHR-handleTypes-01125`: "If
//!   VkExportSemaphoreCreateInfo::handleTypes does not include
//!   VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT or
//!   VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT, VkExportSemaphoreWin32HandleInfoKHR must
//!   not be included in the pNext chain of VkSemaphoreCreateInfo". Judged when the chain has a
//!   `VkExportSemaphoreCreateInfo` (without one there are no `handleTypes` to read the rule
//!   against), as memory's `VUID-VkExportMemoryWin32HandleInfoKHR-handleTypes-00657`.
//! - `sType-sType` holds by construction (the structure is recognised by its `sType`);
//!   `pAttributes-parameter` cannot be checked: nothing tells a valid pointer from another.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::rule_set::rule_set;
use crate::vuid;
use ash::vk;

type Types = vk::ExternalSemaphoreHandleTypeFlags;

/// What the rule reads of a `VkSemaphoreCreateInfo` chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportChain {
    /// `VkExportSemaphoreCreateInfo::handleTypes` (of every such structure); `None` without one.
    pub export: Option<Types>,
    /// The chain has a `VkExportSemaphoreWin32HandleInfoKHR`.
    pub export_win32: bool,
}

rule_set! {
    /// The rules of `VkExportSemaphoreWin32HandleInfoKHR` at `vkCreateSemaphore`.
    pub struct ExportWin32Rules {
        /// `VUID-VkExportSemaphoreWin32HandleInfoKHR-handleTypes-01125`.
        WITHOUT_NT_TYPE,
    }
}

/// The handle types that allow the structure: the NT handle types.
const NT_TYPES: Types = Types::from_raw(Types::OPAQUE_WIN32.as_raw() | Types::D3D12_FENCE.as_raw());

/// The rules the chain's `VkExportSemaphoreWin32HandleInfoKHR` breaks (none without one).
#[inline(always)]
pub fn evaluate(chain: &ExportChain) -> ExportWin32Rules {
    let without_nt_type = chain.export_win32
        && chain
            .export
            .is_some_and(|types| !types.intersects(NT_TYPES));
    ExportWin32Rules::NONE.with(ExportWin32Rules::WITHOUT_NT_TYPE, without_nt_type)
}

/// The findings of the rules of [`evaluate`] in `broken`, of a call on `device`.
pub fn describe(device: u64, chain: &ExportChain, broken: ExportWin32Rules, outcome: &mut Outcome) {
    let field = "pCreateInfo->pNext";
    if let (true, Some(types)) = (broken.has(ExportWin32Rules::WITHOUT_NT_TYPE), chain.export) {
        outcome.push(
            Finding::new(
                vuid::EXPORT_SEM_WIN32_HANDLE_TYPES_01125,
                "vkCreateSemaphore",
                field,
                format!(
                    "vkCreateSemaphore(): the pNext chain of pCreateInfo has a \
                     VkExportSemaphoreWin32HandleInfoKHR, but \
                     VkExportSemaphoreCreateInfo::handleTypes ({}) includes neither \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT nor \
                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT, the NT handle types whose \
                     handles the structure describes.",
                    Semaphore::names(types.as_raw())
                ),
            )
            .with(ObjectRef::device(device)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(chain: ExportChain) -> Vec<&'static str> {
        let mut outcome = Outcome::default();
        describe(0xd1, &chain, evaluate(&chain), &mut outcome);
        outcome.ids()
    }

    fn chain(export: Option<Types>, export_win32: bool) -> ExportChain {
        ExportChain {
            export,
            export_win32,
        }
    }

    #[test]
    fn with_an_nt_type_in_the_export_it_is_silent() {
        for types in [
            Types::OPAQUE_WIN32,
            Types::D3D12_FENCE,
            Types::OPAQUE_WIN32 | Types::OPAQUE_WIN32_KMT,
        ] {
            assert!(ids(chain(Some(types), true)).is_empty(), "{types:?}");
        }
    }

    #[test]
    fn without_an_nt_type_in_the_export_it_is_01125() {
        let kmt = chain(Some(Types::OPAQUE_WIN32_KMT | Types::OPAQUE_FD), true);
        let mut outcome = Outcome::default();
        describe(0xd1, &kmt, evaluate(&kmt), &mut outcome);
        assert_eq!(outcome.ids(), [vuid::EXPORT_SEM_WIN32_HANDLE_TYPES_01125]);
        assert!(!outcome.blocked);
        let finding = &outcome.findings[0];
        assert_eq!(finding.field, "pCreateInfo->pNext");
        assert!(
            finding.message.contains(
                "(VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT|\
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT) includes neither"
            ),
            "{}",
            finding.message
        );
        assert_eq!(
            ids(chain(Some(Types::empty()), true)),
            [vuid::EXPORT_SEM_WIN32_HANDLE_TYPES_01125]
        );
    }

    #[test]
    fn without_the_structure_or_an_export_info_nothing_is_judged() {
        assert!(ids(chain(Some(Types::OPAQUE_FD), false)).is_empty());
        assert!(ids(chain(None, true)).is_empty());
        assert!(ids(ExportChain::default()).is_empty());
    }
}
