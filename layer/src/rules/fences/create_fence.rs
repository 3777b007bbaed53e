//! `vkCreateFence`: the sharing structures of its `VkFenceCreateInfo` chain.
//!
//! - `VUID-VkExportFenceCreateInfo-handleTypes-parameter`: `handleTypes` has bits that are no
//!   `VkExternalFenceHandleTypeFlagBits` value (every defined bit is core where fences can be
//!   exported).
//! - `VUID-VkExportFenceWin32HandleInfoKHR-handleTypes-01447`: a `VkExportFenceWin32HandleInfoKHR`
//!   in the chain while `VkExportFenceCreateInfo::handleTypes` lacks `OPAQUE_WIN32`. Judged when
//!   the chain has a `VkExportFenceCreateInfo` (without one there are no `handleTypes` to read
//!   the rule against), as memory's `00657`.
//! - `sType-sType` of both holds by construction (a structure is recognised by its `sType`).
//! - `VUID-VkExportFenceCreateInfo-handleTypes-01446` (supported and compatible types, as the
//!   driver answers) is `rules::sync::export_fence`.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{Fence, HandleKind};
use crate::rules::rule_set::rule_set;
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// What a `VkFenceCreateInfo` chain asks for sharing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FenceExportChain {
    /// `VkExportFenceCreateInfo::handleTypes`; `None` without the structure.
    pub export: Option<vk::ExternalFenceHandleTypeFlags>,
    /// The chain has a `VkExportFenceWin32HandleInfoKHR`.
    pub export_win32: bool,
}

impl FenceExportChain {
    /// The chain has a structure these rules judge: the only test a plain fence pays.
    #[inline(always)]
    pub fn shares(&self) -> bool {
        self.export.is_some() || self.export_win32
    }
}

rule_set! {
    /// The rules of `vkCreateFence`'s sharing structures.
    pub struct CreateFenceRules {
        /// `VUID-VkExportFenceCreateInfo-handleTypes-parameter`.
        HANDLE_TYPES_VALUE,
        /// `VUID-VkExportFenceWin32HandleInfoKHR-handleTypes-01447`.
        WIN32_WITHOUT_OPAQUE_WIN32,
    }
}

/// The rules the chain breaks.
#[inline(always)]
pub fn evaluate(chain: &FenceExportChain) -> CreateFenceRules {
    let Some(types) = chain.export else {
        return CreateFenceRules::NONE;
    };
    CreateFenceRules::NONE
        .with(
            CreateFenceRules::HANDLE_TYPES_VALUE,
            types.as_raw() & !Fence::VALID != 0,
        )
        .with(
            CreateFenceRules::WIN32_WITHOUT_OPAQUE_WIN32,
            chain.export_win32 && !types.contains(vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32),
        )
}

/// The findings of the rules in `broken`, on `device` (none blocks the call).
pub fn describe(device: u64, chain: &FenceExportChain, broken: CreateFenceRules) -> Outcome {
    let mut outcome = Outcome::default();
    let types = chain.export.unwrap_or_default().as_raw();
    let on = |finding: Finding| finding.with(ObjectRef::device(device));
    if broken.has(CreateFenceRules::HANDLE_TYPES_VALUE) {
        let field = "pCreateInfo->pNext<VkExportFenceCreateInfo>.handleTypes";
        outcome.push(on(Finding::new(
            vuid::EXPORT_FENCE_HANDLE_TYPES_PARAM,
            "vkCreateFence",
            field,
            format!(
                "vkCreateFence(): {field} is {}, which is not a valid combination of \
                 VkExternalFenceHandleTypeFlagBits values on {}: {}.",
                Fence::names(types),
                vk_names::handle(vk::ObjectType::DEVICE, device),
                Fence::invalid_reasons(types, Fence::VALID, false)
            ),
        )));
    }
    if broken.has(CreateFenceRules::WIN32_WITHOUT_OPAQUE_WIN32) {
        outcome.push(on(Finding::new(
            vuid::EXPORT_FENCE_WIN32_HANDLE_TYPES_01447,
            "vkCreateFence",
            "pCreateInfo->pNext",
            format!(
                "vkCreateFence(): the pNext chain of pCreateInfo has a \
                 VkExportFenceWin32HandleInfoKHR, but VkExportFenceCreateInfo::handleTypes ({}) \
                 does not include VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT.",
                Fence::names(types)
            ),
        )));
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    type Types = vk::ExternalFenceHandleTypeFlags;

    fn ids(export: Option<Types>, export_win32: bool) -> Vec<&'static str> {
        let chain = FenceExportChain {
            export,
            export_win32,
        };
        describe(0xd1, &chain, evaluate(&chain)).ids()
    }

    #[test]
    fn valid_chains_are_silent() {
        assert!(ids(None, false).is_empty());
        assert!(ids(Some(Types::empty()), false).is_empty());
        assert!(ids(Some(Types::OPAQUE_FD | Types::SYNC_FD), false).is_empty());
        assert!(ids(Some(Types::OPAQUE_WIN32 | Types::OPAQUE_FD), true).is_empty());
        assert!(!FenceExportChain::default().shares());
    }

    #[test]
    fn undefined_bits_are_the_parameter_rule() {
        let chain = FenceExportChain {
            export: Some(Types::from_raw(0x10 | 1)),
            export_win32: false,
        };
        let outcome = describe(0xd1, &chain, evaluate(&chain));
        assert_eq!(outcome.ids(), [vuid::EXPORT_FENCE_HANDLE_TYPES_PARAM]);
        assert!(!outcome.blocked);
        let message = &outcome.findings[0].message;
        assert!(
            message.contains("0x10 is not a VkExternalFenceHandleTypeFlagBits value"),
            "{message}"
        );
    }

    #[test]
    fn a_win32_info_without_opaque_win32_is_01447() {
        let outcome_ids = ids(Some(Types::OPAQUE_WIN32_KMT), true);
        assert_eq!(outcome_ids, [vuid::EXPORT_FENCE_WIN32_HANDLE_TYPES_01447]);
        assert_eq!(
            ids(Some(Types::from_raw(0x20)), true),
            [
                vuid::EXPORT_FENCE_HANDLE_TYPES_PARAM,
                vuid::EXPORT_FENCE_WIN32_HANDLE_TYPES_01447
            ]
        );
        // No VkExportFenceCreateInfo: no handleTypes to judge against.
        assert!(ids(None, true).is_empty());
    }
}
