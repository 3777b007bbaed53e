//! Exported memory against the buffer or image it is for: the handle types of
//! `VkExportMemoryAllocateInfo::handleTypes` must be exportable and compatible with each other for
//! that resource (`VUID-VkExportMemoryAllocateInfo-handleTypes-09860`), and one whose external
//! memory properties say `DEDICATED_ONLY` needs a dedicated allocation
//! (`VUID-VkMemoryAllocateInfo-pNext-00639`).
//!
//! Judged where the resource is known: at `vkAllocateMemory` for an allocation dedicated to a
//! buffer or image (`VkMemoryDedicatedAllocateInfo`), else when the memory is bound to one. The
//! driver's answers (`vkGetPhysicalDeviceExternalBufferProperties`,
//! `vkGetPhysicalDeviceImageFormatProperties2` with `VkPhysicalDeviceExternalImageFormatInfo`, for
//! the resource's own create info) come in as an [`ExternalMemorySupport`].

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::ExternalMemorySupport;
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// Where and about what a judgement is made.
pub struct ResourceUse<'a> {
    pub command: &'static str,
    /// The field that names the memory, e.g. `pBindInfos[1].memory` or `pAllocateInfo`.
    pub field: String,
    pub device: u64,
    pub memory: Option<u64>,
    /// The buffer or image, its object type and handle.
    pub resource: ObjectRef,
    /// How messages describe the resource's create info (`flags ..., usage ...`).
    pub resource_info: String,
    /// The query that answered for it, by name.
    pub query: &'static str,
    /// How messages describe the memory and what it was allocated with.
    pub memory_info: String,
    pub export: vk::ExternalMemoryHandleTypeFlags,
    /// The memory is (or will be) a dedicated allocation of a buffer or image.
    pub dedicated: bool,
    pub support: &'a ExternalMemorySupport,
}

rule_set! {
    /// The rules of a resource created for export against the driver's answer for it.
    pub struct ResourceExportRules {
        /// `VUID-VkExportMemoryAllocateInfo-handleTypes-09860`: a handle type not exportable for
        /// the resource, or types not compatible with each other.
        NOT_SUPPORTED,
        /// `VUID-VkMemoryAllocateInfo-pNext-00639`: a `DEDICATED_ONLY` type, not dedicated.
        NEEDS_DEDICATED,
    }
}

/// The rules one use of exported memory with one resource breaks: whether each handle type asked
/// about is exportable, all compatible with each other among those that are, and, for memory
/// that is not dedicated, none needs a dedicated allocation.
#[inline]
pub fn evaluate(support: &ExternalMemorySupport, dedicated: bool) -> ResourceExportRules {
    let mut exportable = vk::ExternalMemoryHandleTypeFlags::empty();
    let mut all_exportable = true;
    let mut needs_dedicated_allocation = false;
    for (bit, answer) in support.entries() {
        if is_exportable(answer) {
            exportable |= bit;
        } else {
            all_exportable = false;
        }
        needs_dedicated_allocation |= needs_dedicated(answer);
    }
    // Compatibility matters among the types that can be exported at all.
    let compatible = support
        .entries()
        .all(|(bit, answer)| !exportable.contains(bit) || answer.compatible.contains(exportable));
    ResourceExportRules::NONE
        .with(
            ResourceExportRules::NOT_SUPPORTED,
            !all_exportable || !compatible,
        )
        .with(
            ResourceExportRules::NEEDS_DEDICATED,
            !dedicated && needs_dedicated_allocation,
        )
}

fn is_exportable(answer: crate::state::HandleTypeSupport) -> bool {
    answer.result == vk::Result::SUCCESS
        && answer
            .features
            .contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE)
}

fn needs_dedicated(answer: crate::state::HandleTypeSupport) -> bool {
    answer.result == vk::Result::SUCCESS
        && answer
            .features
            .contains(vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY)
}

/// Every finding of the two rules for one use of exported memory with one resource.
pub fn check(use_: &ResourceUse) -> Outcome {
    describe(use_, evaluate(use_.support, use_.dedicated))
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `use_`).
#[cold]
pub fn describe(use_: &ResourceUse, broken: ResourceExportRules) -> Outcome {
    let mut outcome = Outcome::default();
    if broken.is_empty() {
        return outcome;
    }
    let objects = {
        let mut o = vec![ObjectRef::device(use_.device)];
        o.extend(use_.memory.map(ObjectRef::memory));
        o.push(use_.resource);
        o
    };
    let push = |outcome: &mut Outcome, id: &'static str, message: String| {
        let mut finding = Finding::new(id, use_.command, use_.field.clone(), message);
        for object in &objects {
            finding = finding.with(*object);
        }
        outcome.push(finding);
    };
    let resource = format!(
        "{} ({})",
        vk_names::handle(use_.resource.ty, use_.resource.handle),
        use_.resource_info
    );
    let mut problems = Vec::new();
    let mut exportable = vk::ExternalMemoryHandleTypeFlags::empty();
    for (bit, answer) in use_.support.entries() {
        let name = vk_names::handle_types(bit);
        if answer.result != vk::Result::SUCCESS {
            problems.push(format!(
                "{} returned {:?} for {name} with its create info",
                use_.query, answer.result
            ));
        } else if !is_exportable(answer) {
            problems.push(format!(
                "{name} is not exportable for it (externalMemoryFeatures = {})",
                vk_names::memory_features(answer.features)
            ));
        } else {
            exportable |= bit;
        }
    }
    // Compatibility matters among the types that can be exported at all.
    for (bit, answer) in use_.support.entries() {
        if exportable.contains(bit) && !answer.compatible.contains(exportable) {
            problems.push(format!(
                "{} is compatible only with {}",
                vk_names::handle_types(bit),
                vk_names::handle_types(answer.compatible)
            ));
        }
    }
    if broken.has(ResourceExportRules::NOT_SUPPORTED) {
        push(
            &mut outcome,
            vuid::EXPORT_HANDLE_TYPES_09860,
            format!(
                "{}(): {}: {} is exported as VkExportMemoryAllocateInfo::handleTypes = {}, but \
                 for {resource}: {} (as {} reports for this physical device).",
                use_.command,
                use_.field,
                use_.memory_info,
                vk_names::handle_types(use_.export),
                problems.join("; "),
                use_.query
            ),
        );
    }
    if broken.has(ResourceExportRules::NEEDS_DEDICATED) {
        let dedicated_only: Vec<String> = use_
            .support
            .entries()
            .filter(|(_, answer)| needs_dedicated(*answer))
            .map(|(bit, _)| vk_names::handle_types(bit))
            .collect();
        if !dedicated_only.is_empty() {
            push(
                &mut outcome,
                vuid::ALLOC_PNEXT_00639,
                format!(
                    "{}(): {}: {} was not allocated with a VkMemoryDedicatedAllocateInfo naming \
                     a buffer or image, but {} of its VkExportMemoryAllocateInfo::handleTypes \
                     requires a dedicated allocation for {resource} (externalMemoryFeatures has \
                     DEDICATED_ONLY, as {} reports).",
                    use_.command,
                    use_.field,
                    use_.memory_info,
                    dedicated_only.join(" and "),
                    use_.query
                ),
            );
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::HandleTypeSupport;

    const FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
    const DMA_BUF: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;

    fn answer(
        features: vk::ExternalMemoryFeatureFlags,
        compatible: vk::ExternalMemoryHandleTypeFlags,
    ) -> HandleTypeSupport {
        HandleTypeSupport {
            result: vk::Result::SUCCESS,
            features,
            compatible,
        }
    }

    const EXPORTABLE: vk::ExternalMemoryFeatureFlags = vk::ExternalMemoryFeatureFlags::EXPORTABLE;

    fn judge(
        entries: &[(vk::ExternalMemoryHandleTypeFlags, HandleTypeSupport)],
        dedicated: bool,
    ) -> Outcome {
        let mut support = ExternalMemorySupport::default();
        let mut export = vk::ExternalMemoryHandleTypeFlags::empty();
        for (bit, a) in entries {
            support.set(*bit, *a);
            export |= *bit;
        }
        let use_ = ResourceUse {
            command: "vkBindBufferMemory",
            field: "memory".into(),
            device: 0xd,
            memory: Some(0x3),
            resource: ObjectRef {
                ty: vk::ObjectType::BUFFER,
                handle: 0xb,
            },
            resource_info: "flags 0, usage STORAGE_BUFFER".into(),
            query: "vkGetPhysicalDeviceExternalBufferProperties",
            memory_info: "VkDeviceMemory 0x3".into(),
            export,
            dedicated,
            support: &support,
        };
        let broken = evaluate(&support, dedicated);
        let outcome = check(&use_);
        // Each broken rule is described once.
        assert_eq!(broken.len() as usize, outcome.findings.len());
        outcome
    }

    #[test]
    fn exportable_and_compatible_is_silent() {
        let both = FD | DMA_BUF;
        let out = judge(
            &[
                (FD, answer(EXPORTABLE, both)),
                (DMA_BUF, answer(EXPORTABLE, both)),
            ],
            false,
        );
        assert_eq!(out, Outcome::default());
    }

    #[test]
    fn not_exportable_for_the_resource_is_09860() {
        let out = judge(
            &[(FD, answer(vk::ExternalMemoryFeatureFlags::IMPORTABLE, FD))],
            false,
        );
        assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_09860]);
        let msg = &out.findings[0].message;
        assert!(msg.contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT is not exportable for it (externalMemoryFeatures = IMPORTABLE)"), "{msg}");
        assert!(
            msg.contains("VkBuffer 0xb (flags 0, usage STORAGE_BUFFER)"),
            "{msg}"
        );
    }

    #[test]
    fn incompatible_types_and_failed_queries_are_09860() {
        let out = judge(
            &[
                (FD, answer(EXPORTABLE, FD)),
                (DMA_BUF, answer(EXPORTABLE, FD | DMA_BUF)),
            ],
            false,
        );
        assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_09860]);
        assert!(out.findings[0].message.contains(
            "OPAQUE_FD_BIT is compatible only with VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT"
        ));
        let failed = HandleTypeSupport {
            result: vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
            ..Default::default()
        };
        let out = judge(&[(FD, failed)], true);
        assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_09860]);
        assert!(out.findings[0]
            .message
            .contains("returned ERROR_FORMAT_NOT_SUPPORTED"));
    }

    #[test]
    fn dedicated_only_without_a_dedicated_allocation_is_00639() {
        let features = EXPORTABLE | vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY;
        let out = judge(&[(FD, answer(features, FD))], false);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_00639]);
        assert!(judge(&[(FD, answer(features, FD))], true)
            .findings
            .is_empty());
        // Both rules at once.
        let out = judge(
            &[
                (FD, answer(features, FD)),
                (
                    DMA_BUF,
                    answer(vk::ExternalMemoryFeatureFlags::empty(), DMA_BUF),
                ),
            ],
            false,
        );
        assert_eq!(
            out.ids(),
            [vuid::EXPORT_HANDLE_TYPES_09860, vuid::ALLOC_PNEXT_00639]
        );
    }
}
