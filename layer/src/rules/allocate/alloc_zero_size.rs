//! `VUID-VkMemoryAllocateInfo-allocationSize-07897`: an allocation that neither imports nor
//! exports has a size greater than 0. (An export of 0 bytes is 07899, `alloc.rs`'s.)
//!
//! "The parameters define an import operation": an import structure with a non-zero `handleType`
//! (fd, host pointer, Win32, Zircon, Metal) or an Android hardware buffer import with a buffer
//! (`ChainRead::import_operations`); "an export operation": a `VkExportMemoryAllocateInfo` (or
//! the NV one) with a non-zero `handleTypes`. The rule is not judged when the chain has an
//! import structure whose import the layer does not count for certain: a Win32 NV or Metal
//! structure, which the Khronos layer counts by other members than the spec names
//! (`ChainRead::handle_imports`), or a structure the layer does not read
//! (`ChainRead::unread_sharing`).

use crate::args::ChainRead;
use crate::finding::{Finding, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::AllocationFacts;
use crate::vuid;

rule_set! {
    /// The rule of a zero `allocationSize` at `vkAllocateMemory`.
    pub struct ZeroSizeRules {
        /// `VUID-VkMemoryAllocateInfo-allocationSize-07897`.
        ZERO_SIZE,
    }
}

/// Whether the allocation, neither an import nor an export, has size 0.
#[inline(always)]
pub fn evaluate(facts: &AllocationFacts, chain: &ChainRead) -> ZeroSizeRules {
    if facts.size != 0 {
        return ZeroSizeRules::NONE;
    }
    let exports = facts.export.is_some_and(|t| !t.is_empty())
        | facts.export_nv.is_some_and(|t| !t.is_empty());
    let maybe_imports = (chain.import_operations > 0) | chain.handle_imports | chain.unread_sharing;
    ZeroSizeRules::NONE.with(ZeroSizeRules::ZERO_SIZE, !exports & !maybe_imports)
}

/// The finding of [`evaluate`]'s rule, when `broken` has it.
pub fn describe(
    broken: ZeroSizeRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    if broken.has(ZeroSizeRules::ZERO_SIZE) {
        outcome.push(finding(
            vuid::ALLOC_SIZE_07897,
            "pAllocateInfo->allocationSize",
            "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, and the allocation neither \
             imports (no import structure with a non-zero handleType) nor exports (no \
             VkExportMemoryAllocateInfo with a non-zero handleTypes); its size must be greater \
             than 0."
                .into(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ash::vk;

    fn ids(facts: &AllocationFacts, chain: &ChainRead) -> Vec<&'static str> {
        let mut outcome = Outcome::default();
        let finding = |id, field, message| Finding::new(id, "vkAllocateMemory", field, message);
        describe(evaluate(facts, chain), &finding, &mut outcome);
        outcome.ids()
    }

    #[test]
    fn zero_bytes_of_plain_memory_is_07897() {
        let zero = AllocationFacts::default();
        assert_eq!(ids(&zero, &ChainRead::COMPLETE), [vuid::ALLOC_SIZE_07897]);
        // An export structure without handle types exports nothing.
        let empty_export = AllocationFacts {
            export: Some(vk::ExternalMemoryHandleTypeFlags::empty()),
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::empty()),
            ..zero
        };
        assert_eq!(
            ids(&empty_export, &ChainRead::COMPLETE),
            [vuid::ALLOC_SIZE_07897]
        );
        let one = AllocationFacts { size: 1, ..zero };
        assert!(ids(&one, &ChainRead::COMPLETE).is_empty());
    }

    #[test]
    fn imports_exports_and_unknown_sharing_are_not_07897() {
        let zero = AllocationFacts::default();
        let exported = AllocationFacts {
            export: Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD),
            ..zero
        };
        let exported_nv = AllocationFacts {
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32),
            ..zero
        };
        assert!(ids(&exported, &ChainRead::COMPLETE).is_empty());
        assert!(ids(&exported_nv, &ChainRead::COMPLETE).is_empty());
        for chain in [
            ChainRead {
                import_operations: 1,
                ..ChainRead::COMPLETE
            },
            ChainRead {
                handle_imports: true,
                ..ChainRead::COMPLETE
            },
            ChainRead {
                unread_sharing: true,
                ..ChainRead::COMPLETE
            },
        ] {
            assert!(ids(&zero, &chain).is_empty(), "{chain:?}");
        }
    }
}
