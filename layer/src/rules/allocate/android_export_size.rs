//! The `allocationSize` of memory exported as an Android hardware buffer, at `vkAllocateMemory`:
//! 0 when it is dedicated to an image, whose size the driver decides
//! (`VUID-VkMemoryAllocateInfo-pNext-01874`, only when the call imports nothing), and greater
//! than 0 without a `VkMemoryDedicatedAllocateInfo` (`VUID-VkMemoryAllocateInfo-pNext-07900`).
//! The case of a dedicated buffer (`-07901`) needs to know the buffer is valid: it is judged with
//! the structure's other rules (`rules::allocate::dedicated`).

use crate::args::ChainRead;
use crate::finding::{Finding, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::AllocationFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of the size of an Android hardware buffer export at `vkAllocateMemory`.
    pub struct AndroidExportSizeRules {
        /// `VUID-VkMemoryAllocateInfo-pNext-01874`.
        DEDICATED_IMAGE_NOT_ZERO,
        /// `VUID-VkMemoryAllocateInfo-pNext-07900`.
        NOT_DEDICATED_ZERO,
    }
}

/// Whether `facts` export an Android hardware buffer
/// (`VkExportMemoryAllocateInfo::handleTypes` has the bit).
pub fn exports_android_hardware_buffer(facts: &AllocationFacts) -> bool {
    let android = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
    facts.export.is_some_and(|t| t.intersects(android))
}

/// The rules the allocation's size breaks.
#[inline(always)]
pub fn evaluate(facts: &AllocationFacts, chain: &ChainRead) -> AndroidExportSizeRules {
    if !exports_android_hardware_buffer(facts) {
        return AndroidExportSizeRules::NONE;
    }
    let dedicated_image = chain.dedicated_info.is_some_and(|(image, _)| image != 0);
    AndroidExportSizeRules::NONE
        .with(
            AndroidExportSizeRules::DEDICATED_IMAGE_NOT_ZERO,
            chain.import_operations == 0 && dedicated_image && facts.size != 0,
        )
        .with(
            AndroidExportSizeRules::NOT_DEDICATED_ZERO,
            chain.dedicated_info.is_none() && facts.size == 0,
        )
}

/// The findings of the rules of [`evaluate`] in `broken`; `finding` makes one of
/// `vkAllocateMemory` (ID, field, message).
pub fn describe(
    facts: &AllocationFacts,
    chain: &ChainRead,
    broken: AndroidExportSizeRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let types = vk_names::handle_types(facts.export.unwrap_or_default());
    if broken.has(AndroidExportSizeRules::DEDICATED_IMAGE_NOT_ZERO) {
        let image = chain.dedicated_info.map_or(0, |(image, _)| image);
        outcome.push(finding(
            vuid::ALLOC_PNEXT_01874,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is {}, but the allocation \
                 imports nothing, is exported as an Android hardware buffer \
                 (VkExportMemoryAllocateInfo::handleTypes = {types}) and dedicated to an image \
                 (pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image is {}): its size \
                 comes from the image, and allocationSize must be 0.",
                facts.size,
                vk_names::handle(vk::ObjectType::IMAGE, image)
            ),
        ));
    }
    if broken.has(AndroidExportSizeRules::NOT_DEDICATED_ZERO) {
        outcome.push(finding(
            vuid::ALLOC_PNEXT_07900,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, but the allocation is \
                 exported as an Android hardware buffer (VkExportMemoryAllocateInfo::handleTypes \
                 = {types}) and the pNext chain has no VkMemoryDedicatedAllocateInfo: only memory \
                 dedicated to an image takes its size from it; allocationSize must be greater \
                 than 0."
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixtures::*;

    const AHB: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;

    fn ids(
        size: u64,
        export: vk::ExternalMemoryHandleTypeFlags,
        chain: ChainRead,
    ) -> Vec<&'static str> {
        let facts = AllocationFacts {
            size,
            ..exported(export)
        };
        let broken = evaluate(&facts, &chain);
        let mut out = Outcome::default();
        let finding = |id, field, message| Finding::new(id, "vkAllocateMemory", field, message);
        describe(&facts, &chain, broken, &finding, &mut out);
        assert_eq!(out.findings.len() as u32, broken.len());
        out.ids()
    }

    fn dedicated(image: u64, buffer: u64) -> ChainRead {
        ChainRead {
            dedicated_info: Some((image, buffer)),
            ..ChainRead::COMPLETE
        }
    }

    #[test]
    fn android_exports_of_the_right_size_are_silent() {
        assert!(ids(0, AHB, dedicated(0x1a, 0)).is_empty());
        assert!(ids(4096, AHB, ChainRead::COMPLETE).is_empty());
        assert!(ids(4096, AHB, dedicated(0, 0x2b)).is_empty());
        // A dedicated structure naming nothing is still chained: not 07900.
        assert!(ids(0, AHB, dedicated(0, 0)).is_empty());
        // Other exports are 07899's.
        assert!(ids(0, OPAQUE_FD, ChainRead::COMPLETE).is_empty());
        assert!(ids(4096, OPAQUE_FD, dedicated(0x1a, 0)).is_empty());
    }

    #[test]
    fn a_sized_image_export_is_01874_a_zero_plain_one_07900() {
        assert_eq!(
            ids(4096, AHB, dedicated(0x1a, 0)),
            [vuid::ALLOC_PNEXT_01874]
        );
        assert_eq!(
            ids(4096, AHB | OPAQUE_FD, dedicated(0x1a, 0)),
            [vuid::ALLOC_PNEXT_01874]
        );
        assert_eq!(ids(0, AHB, ChainRead::COMPLETE), [vuid::ALLOC_PNEXT_07900]);
        // An import: 01874 does not apply.
        let import = ChainRead {
            import_operations: 1,
            ..dedicated(0x1a, 0)
        };
        assert!(ids(4096, AHB, import).is_empty());
    }
}
