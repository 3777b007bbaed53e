//! `VkD3D12FenceSubmitInfoKHR` chained to a `VkSubmitInfo` of `vkQueueSubmit`
//! (VK_KHR_external_semaphore_win32): its value counts against the batch's semaphore counts,
//! `-waitSemaphoreValuesCount-00079` and `-signalSemaphoreValuesCount-00080`. Nothing blocks the
//! call: a count that disagrees is the app's statement of how many values it gives, which the
//! driver reads as it reads them.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::rule_set::rule_set;
use crate::vuid;

const COMMAND: &str = "vkQueueSubmit";

/// One batch with a `VkD3D12FenceSubmitInfoKHR`: its index in `pSubmits` and the four counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D3d12Batch {
    pub index: usize,
    /// `VkSubmitInfo::waitSemaphoreCount`, `::signalSemaphoreCount`.
    pub wait_count: u32,
    pub signal_count: u32,
    /// `VkD3D12FenceSubmitInfoKHR::waitSemaphoreValuesCount`, `::signalSemaphoreValuesCount`.
    pub wait_values: u32,
    pub signal_values: u32,
}

rule_set! {
    /// The rules of `VkD3D12FenceSubmitInfoKHR`.
    pub struct D3d12FenceSubmitRules {
        /// `-waitSemaphoreValuesCount-00079`.
        WAIT_COUNT,
        /// `-signalSemaphoreValuesCount-00080`.
        SIGNAL_COUNT,
    }
}

/// The rules `batch` breaks.
pub fn evaluate(batch: &D3d12Batch) -> D3d12FenceSubmitRules {
    D3d12FenceSubmitRules::NONE
        .with(
            D3d12FenceSubmitRules::WAIT_COUNT,
            batch.wait_values != batch.wait_count,
        )
        .with(
            D3d12FenceSubmitRules::SIGNAL_COUNT,
            batch.signal_values != batch.signal_count,
        )
}

/// The findings of the rules in `broken`, on `device`'s queue submission.
pub fn describe(
    device: u64,
    batch: &D3d12Batch,
    broken: D3d12FenceSubmitRules,
    outcome: &mut Outcome,
) {
    let i = batch.index;
    let mut push = |id, field: String, message: String| {
        outcome.push(Finding::new(id, COMMAND, field, message).with(ObjectRef::device(device)));
    };
    if broken.has(D3d12FenceSubmitRules::WAIT_COUNT) {
        let field =
            format!("pSubmits[{i}].pNext<VkD3D12FenceSubmitInfoKHR>.waitSemaphoreValuesCount");
        push(
            vuid::D3D12_FENCE_SUBMIT_WAIT_COUNT_00079,
            field.clone(),
            format!(
                "{COMMAND}(): {field} is {}, but pSubmits[{i}].waitSemaphoreCount is {}: the \
                 structure gives one value for each semaphore the batch waits on.",
                batch.wait_values, batch.wait_count
            ),
        );
    }
    if broken.has(D3d12FenceSubmitRules::SIGNAL_COUNT) {
        let field =
            format!("pSubmits[{i}].pNext<VkD3D12FenceSubmitInfoKHR>.signalSemaphoreValuesCount");
        push(
            vuid::D3D12_FENCE_SUBMIT_SIGNAL_COUNT_00080,
            field.clone(),
            format!(
                "{COMMAND}(): {field} is {}, but pSubmits[{i}].signalSemaphoreCount is {}: the \
                 structure gives one value for each semaphore the batch signals.",
                batch.signal_values, batch.signal_count
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(batch: D3d12Batch) -> Vec<&'static str> {
        let mut outcome = Outcome::default();
        describe(0xd1, &batch, evaluate(&batch), &mut outcome);
        outcome.ids()
    }

    #[test]
    fn counts_must_match_the_batch() {
        let matching = D3d12Batch {
            index: 0,
            wait_count: 2,
            signal_count: 1,
            wait_values: 2,
            signal_values: 1,
        };
        assert!(ids(matching).is_empty());
        assert_eq!(
            ids(D3d12Batch {
                wait_values: 1,
                ..matching
            }),
            [vuid::D3D12_FENCE_SUBMIT_WAIT_COUNT_00079]
        );
        assert_eq!(
            ids(D3d12Batch {
                wait_values: 0,
                signal_values: 0,
                ..matching
            }),
            [
                vuid::D3D12_FENCE_SUBMIT_WAIT_COUNT_00079,
                vuid::D3D12_FENCE_SUBMIT_SIGNAL_COUNT_00080
            ]
        );
    }
}
