//! `VkExportSemaphoreCreateInfo` at `vkCreateSemaphore`: its `handleTypes` valid on the device
//! (`VUID-VkExportSemaphoreCreateInfo-handleTypes-parameter`), and exportable and compatible as
//! the driver reports for a semaphore of the type being created
//! (`VUID-VkExportSemaphoreCreateInfo-handleTypes-01124`; the answers come from
//! `commands::sync_support`, one per bit valid on the device that the layer may ask about).

use super::{judge_support, SupportVerdict};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::rules::rule_set::rule_set;
use crate::state::sync_support::SyncTypeSupport;
use crate::vk_names;
use crate::vuid;
use ash::vk;

const COMMAND: &str = "vkCreateSemaphore";
const FIELD: &str = "pCreateInfo->pNext<VkExportSemaphoreCreateInfo>.handleTypes";

/// A `vkCreateSemaphore` call with a `VkExportSemaphoreCreateInfo`, as the rules see it.
#[derive(Clone, Debug)]
pub struct ExportSemaphoreCall {
    pub device: u64,
    /// `VkExportSemaphoreCreateInfo::handleTypes`.
    pub handle_types: u32,
    /// A timeline semaphore (`VkSemaphoreTypeCreateInfo`).
    pub timeline: bool,
    /// The bits valid on the device.
    pub valid: u32,
    /// The driver's answer for each valid bit the layer could ask about.
    pub answers: Vec<(u32, SyncTypeSupport)>,
}

rule_set! {
    /// The rules of `VkExportSemaphoreCreateInfo`.
    pub struct ExportSemaphoreRules {
        /// `-handleTypes-parameter`.
        HANDLE_TYPES_VALUE,
        /// `-handleTypes-01124`: a bit not exportable.
        NOT_EXPORTABLE,
        /// `-handleTypes-01124`: two bits not compatible.
        INCOMPATIBLE,
    }
}

/// Every rule `call` breaks, with the driver's verdict it was judged by.
pub fn evaluate(call: &ExportSemaphoreCall) -> (ExportSemaphoreRules, SupportVerdict) {
    let verdict = judge_support(&call.answers);
    let broken = ExportSemaphoreRules::NONE
        .with(
            ExportSemaphoreRules::HANDLE_TYPES_VALUE,
            call.handle_types & !call.valid != 0,
        )
        .with(
            ExportSemaphoreRules::NOT_EXPORTABLE,
            verdict.not_exportable != 0,
        )
        .with(
            ExportSemaphoreRules::INCOMPATIBLE,
            !verdict.incompatible.is_empty(),
        );
    (broken, verdict)
}

/// The findings of the rules in `broken`.
#[cold]
#[inline(never)]
pub fn describe(
    call: &ExportSemaphoreCall,
    broken: ExportSemaphoreRules,
    verdict: &SupportVerdict,
) -> Outcome {
    let mut outcome = Outcome::default();
    let device = vk_names::handle(vk::ObjectType::DEVICE, call.device);
    let types = Semaphore::names(call.handle_types);
    let ty = if call.timeline { "timeline" } else { "binary" };
    let mut push = |id, message: String| {
        outcome
            .push(Finding::new(id, COMMAND, FIELD, message).with(ObjectRef::device(call.device)));
    };
    if broken.has(ExportSemaphoreRules::HANDLE_TYPES_VALUE) {
        push(
            vuid::EXPORT_SEM_HANDLE_TYPES_PARAM,
            format!(
                "{COMMAND}(): {FIELD} is {types}, which is not a valid combination of {} values \
                 on {device}: {}.",
                Semaphore::FLAG_BITS,
                Semaphore::invalid_reasons(call.handle_types & !call.valid, call.valid, false)
            ),
        );
    }
    let reported = format!(
        "as vkGetPhysicalDeviceExternalSemaphoreProperties reports for a {ty} semaphore of the \
         physical device of {device}"
    );
    if broken.has(ExportSemaphoreRules::NOT_EXPORTABLE) {
        let bits: Vec<String> = call
            .answers
            .iter()
            .filter(|(bit, _)| verdict.not_exportable & bit != 0)
            .map(|(bit, a)| {
                format!(
                    "{} (externalSemaphoreFeatures = {})",
                    Semaphore::names(*bit),
                    features(a.features)
                )
            })
            .collect();
        push(
            vuid::EXPORT_SEM_HANDLE_TYPES_01124,
            format!(
                "{COMMAND}(): {FIELD} is {types}, but {} cannot be exported from a {ty} \
                 semaphore: no VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT ({reported}).",
                bits.join(" and ")
            ),
        );
    }
    if broken.has(ExportSemaphoreRules::INCOMPATIBLE) {
        let pairs: Vec<String> = verdict
            .incompatible
            .iter()
            .map(|(bit, missing)| {
                let compatible = call
                    .answers
                    .iter()
                    .find(|(b, _)| b == bit)
                    .map_or(0, |(_, a)| a.compatible);
                format!(
                    "{} is not compatible with {} (its compatibleHandleTypes = {})",
                    Semaphore::names(*bit),
                    Semaphore::names(*missing),
                    Semaphore::names(compatible)
                )
            })
            .collect();
        push(
            vuid::EXPORT_SEM_HANDLE_TYPES_01124,
            format!(
                "{COMMAND}(): {FIELD} is {types}, but these handle types cannot be exported from \
                 one {ty} semaphore together: {} ({reported}).",
                pairs.join("; ")
            ),
        );
    }
    outcome
}

/// `VkExternalSemaphoreFeatureFlags` by name.
fn features(value: u32) -> String {
    crate::handle_kinds::name_bits(
        value,
        [
            (0, "VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT"),
            (1, "VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPAQUE: u32 = 0x1;
    const SYNC: u32 = 0x10;
    const ZIRCON: u32 = 0x80;

    fn answer(features: u32, compatible: u32) -> SyncTypeSupport {
        SyncTypeSupport {
            features,
            compatible,
            export_from_imported: compatible,
        }
    }

    fn check(call: &ExportSemaphoreCall) -> Outcome {
        let (broken, verdict) = evaluate(call);
        if broken.is_empty() {
            return Outcome::default();
        }
        describe(call, broken, &verdict)
    }

    fn call(handle_types: u32, answers: Vec<(u32, SyncTypeSupport)>) -> ExportSemaphoreCall {
        ExportSemaphoreCall {
            device: 0x20,
            handle_types,
            timeline: true,
            valid: Semaphore::CORE,
            answers,
        }
    }

    #[test]
    fn supported_compatible_types_break_nothing() {
        let both = answer(3, OPAQUE | SYNC);
        assert!(
            check(&call(OPAQUE | SYNC, vec![(OPAQUE, both), (SYNC, both)]))
                .findings
                .is_empty()
        );
        // Nothing could be asked: nothing is judged.
        assert!(check(&call(OPAQUE | SYNC, vec![])).findings.is_empty());
    }

    #[test]
    fn each_cause_has_its_own_finding() {
        let c = call(
            OPAQUE | SYNC | ZIRCON | 0x200,
            vec![
                (OPAQUE, answer(3, OPAQUE)),
                (SYNC, answer(0, 0)),
                (0x4, answer(3, 0x4)),
            ],
        );
        let out = check(&c);
        assert_eq!(
            out.ids(),
            vec![
                vuid::EXPORT_SEM_HANDLE_TYPES_PARAM,
                vuid::EXPORT_SEM_HANDLE_TYPES_01124,
                vuid::EXPORT_SEM_HANDLE_TYPES_01124
            ]
        );
        assert!(!out.blocked);
        let m = &out.findings;
        assert!(m[0]
            .message
            .contains("0x200 is not a VkExternalSemaphoreHandleTypeFlagBits value"));
        assert!(m[0].message.contains(
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA belongs to \
             VK_FUCHSIA_external_semaphore"
        ));
        assert!(m[1].message.contains(
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT (externalSemaphoreFeatures = 0) \
             cannot be exported from a timeline semaphore"
        ));
        assert!(m[2].message.contains(
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT is not compatible with \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT"
        ));
    }
}
