//! The judging step of `vkCreateSemaphore`: a semaphore made exportable
//! (`VkExportSemaphoreCreateInfo`) is judged against the device's valid handle types and the
//! driver's answers for a semaphore of its type (`rules::sync::export_semaphore`), asked by the
//! layer itself (`commands::sync_support`). A create info without the structure pays one test.

use super::sync_support::sync_support_for;
use crate::boundary;
use crate::handle_kinds::{HandleKind, Semaphore};
use crate::pipeline::policy::{decide, Decision};
use crate::rules::sync::export_semaphore::{describe, evaluate, ExportSemaphoreCall};
use crate::state::{DeviceState, SemaphoreFacts};

/// Reports what `facts` (the create info, read before the call) break, and decides whether the
/// call goes down (nothing here blocks it: only an app callback can skip it).
#[inline(always)]
pub fn judge_create(state: &DeviceState, facts: &SemaphoreFacts) -> Decision {
    match facts.export {
        Some(types) if !types.is_empty() => judge_export(state, types.as_raw(), facts.timeline),
        _ => Decision::CallDown,
    }
}

#[cold]
#[inline(never)]
fn judge_export(state: &DeviceState, handle_types: u32, timeline: bool) -> Decision {
    let call = ExportSemaphoreCall {
        device: state.handle(),
        handle_types,
        timeline,
        valid: Semaphore::valid_on(|name| state.facts.extensions.has(name)),
        answers: sync_support_for::<Semaphore>(state, handle_types, timeline),
    };
    let (broken, verdict) = evaluate(&call);
    if broken.is_empty() {
        return Decision::CallDown;
    }
    let command = "vkCreateSemaphore";
    let outcome = boundary::contain(command, || describe(&call, broken, &verdict));
    decide(state, command, &outcome)
}
