//! `VkExportFenceCreateInfo` at `vkCreateFence` against the driver's answers:
//! `VUID-VkExportFenceCreateInfo-handleTypes-01446` ("supported and compatible, as reported by
//! `VkExternalFenceProperties`"), one finding per cause (a type not exportable, types not
//! compatible). The answers come from `commands::sync_support`, one per bit the layer could ask
//! about; `rules::fences::create_fence` has the chain's other rules.

use super::{judge_support, SupportVerdict};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{Fence, HandleKind};
use crate::state::sync_support::SyncTypeSupport;
use crate::vk_names;
use crate::vuid;
use ash::vk;

const COMMAND: &str = "vkCreateFence";
const FIELD: &str = "pCreateInfo->pNext<VkExportFenceCreateInfo>.handleTypes";

/// What the driver's `answers` say of `VkExportFenceCreateInfo::handleTypes`: `None` when every
/// type asked about is exportable and compatible with the others.
pub fn evaluate(answers: &[(u32, SyncTypeSupport)]) -> Option<SupportVerdict> {
    let verdict = judge_support(answers);
    (verdict.not_exportable != 0 || !verdict.incompatible.is_empty()).then_some(verdict)
}

/// The findings of `verdict` for a fence of `device` made exportable as `handle_types`.
#[cold]
#[inline(never)]
pub fn describe(
    device: u64,
    handle_types: u32,
    answers: &[(u32, SyncTypeSupport)],
    verdict: &SupportVerdict,
) -> Outcome {
    let mut outcome = Outcome::default();
    let types = Fence::names(handle_types);
    let reported = format!(
        "as vkGetPhysicalDeviceExternalFenceProperties reports for the physical device of {}",
        vk_names::handle(vk::ObjectType::DEVICE, device)
    );
    let mut push = |message: String| {
        let id = vuid::EXPORT_FENCE_HANDLE_TYPES_01446;
        outcome.push(Finding::new(id, COMMAND, FIELD, message).with(ObjectRef::device(device)));
    };
    if verdict.not_exportable != 0 {
        let bits: Vec<String> = answers
            .iter()
            .filter(|(bit, _)| verdict.not_exportable & bit != 0)
            .map(|(bit, a)| {
                format!(
                    "{} (externalFenceFeatures = {})",
                    Fence::names(*bit),
                    features(a.features)
                )
            })
            .collect();
        push(format!(
            "{COMMAND}(): {FIELD} is {types}, but {} cannot be exported from a fence: no \
             VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT ({reported}).",
            bits.join(" and ")
        ));
    }
    if !verdict.incompatible.is_empty() {
        let pairs: Vec<String> = verdict
            .incompatible
            .iter()
            .map(|(bit, missing)| {
                let compatible = answers
                    .iter()
                    .find(|(b, _)| b == bit)
                    .map_or(0, |(_, a)| a.compatible);
                format!(
                    "{} is not compatible with {} (its compatibleHandleTypes = {})",
                    Fence::names(*bit),
                    Fence::names(*missing),
                    Fence::names(compatible)
                )
            })
            .collect();
        push(format!(
            "{COMMAND}(): {FIELD} is {types}, but these handle types cannot be exported from one \
             fence together: {} ({reported}).",
            pairs.join("; ")
        ));
    }
    outcome
}

fn features(value: u32) -> String {
    crate::handle_kinds::name_bits(
        value,
        [
            (0, "VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT"),
            (1, "VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FD: u32 = 0x1;
    const SYNC: u32 = 0x8;

    fn answer(features: u32, compatible: u32) -> SyncTypeSupport {
        SyncTypeSupport {
            features,
            compatible,
            export_from_imported: 0,
        }
    }

    #[test]
    fn exportable_compatible_types_are_silent_and_the_rest_01446() {
        let both = SyncTypeSupport::EXPORTABLE | SyncTypeSupport::IMPORTABLE;
        assert!(evaluate(&[
            (FD, answer(both, FD | SYNC)),
            (SYNC, answer(both, FD | SYNC))
        ])
        .is_none());
        let answers = [(FD, answer(both, FD)), (SYNC, answer(0, 0))];
        let verdict = evaluate(&answers).expect("SYNC_FD not exportable");
        let outcome = describe(0xd1, FD | SYNC, &answers, &verdict);
        assert_eq!(outcome.ids(), [vuid::EXPORT_FENCE_HANDLE_TYPES_01446]);
        assert!(outcome.findings[0]
            .message
            .contains("VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT (externalFenceFeatures = 0)"));
        let answers = [(FD, answer(both, FD)), (SYNC, answer(both, SYNC))];
        let verdict = evaluate(&answers).expect("not compatible");
        let outcome = describe(0xd1, FD | SYNC, &answers, &verdict);
        assert_eq!(outcome.ids(), [vuid::EXPORT_FENCE_HANDLE_TYPES_01446]);
        assert!(outcome.findings[0]
            .message
            .contains("is not compatible with"));
    }
}
