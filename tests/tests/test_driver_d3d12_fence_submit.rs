//! `VkD3D12FenceSubmitInfoKHR` at `vkQueueSubmit`, end to end on the project's test driver with
//! `VK_KHR_external_semaphore_win32`: a structure whose value counts match the batch's semaphore
//! counts is silent; each count that differs is its rule
//! (`-waitSemaphoreValuesCount-00079`, `-signalSemaphoreValuesCount-00080`), naming the batch, and
//! the call goes down. Without the extension the structure is not looked for.

use ash::vk;
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::Device;

const SUBMIT: &str = "vkQueueSubmit";

/// One batch that waits on `waits` and signals `signals`, with a `VkD3D12FenceSubmitInfoKHR` of
/// `wait_values` and `signal_values` values; the queue is waited idle after it.
fn submit(
    dev: &Device,
    (waits, signals): (&[vk::Semaphore], &[vk::Semaphore]),
    (wait_values, signal_values): (&[u64], &[u64]),
) -> vk::Result {
    let stages = vec![vk::PipelineStageFlags::ALL_COMMANDS; waits.len()];
    let mut d3d12 = vk::D3D12FenceSubmitInfoKHR::default()
        .wait_semaphore_values(wait_values)
        .signal_semaphore_values(signal_values);
    let batch = [vk::SubmitInfo::default()
        .wait_semaphores(waits)
        .wait_dst_stage_mask(&stages)
        .signal_semaphores(signals)
        .push_next(&mut d3d12)];
    // SAFETY: queue 0 of family 0 exists; the submission's arrays are live.
    unsafe {
        let queue = dev.device.get_device_queue(0, 0);
        let r = dev.device.queue_submit(queue, &batch, vk::Fence::null());
        dev.device.queue_wait_idle(queue).expect("vkQueueWaitIdle");
        r.err().unwrap_or(vk::Result::SUCCESS)
    }
}

#[test]
fn value_counts_that_differ_from_the_batch_are_00079_and_00080() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, &[ash::khr::external_semaphore_win32::NAME]);
    let (a, b) = (semaphore(&dev, false, None), semaphore(&dev, false, None));
    // Valid: a signals, then a is waited on while b signals; one value per semaphore.
    assert_eq!(submit(&dev, (&[], &[a]), (&[], &[1])), vk::Result::SUCCESS);
    assert_eq!(
        submit(&dev, (&[a], &[b]), (&[1], &[1])),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, SUBMIT);
    // b is signaled: wait on it, with no wait value and two signal values for one signal.
    let r = submit(&dev, (&[b], &[a]), (&[], &[1, 2]));
    assert_eq!(r, vk::Result::SUCCESS, "the call goes down");
    let ms = expect::only(
        &inst,
        SUBMIT,
        &[
            D3D12_FENCE_SUBMIT_WAIT_COUNT_00079,
            D3D12_FENCE_SUBMIT_SIGNAL_COUNT_00080,
        ],
    );
    expect::mentions(
        &ms[0],
        &[
            "pSubmits[0].pNext<VkD3D12FenceSubmitInfoKHR>.waitSemaphoreValuesCount is 0",
            "pSubmits[0].waitSemaphoreCount is 1",
        ],
    );
    expect::mentions(
        &ms[1],
        &[
            "signalSemaphoreValuesCount is 2",
            "pSubmits[0].signalSemaphoreCount is 1",
        ],
    );
    // a is signaled again: wait on it to leave both unsignaled.
    assert_eq!(submit(&dev, (&[a], &[]), (&[1], &[])), vk::Result::SUCCESS);
    expect::silent(&inst, SUBMIT);
    destroy(&dev, a);
    destroy(&dev, b);
}

#[test]
fn without_the_win32_extension_the_structure_is_not_looked_for() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, &[]);
    let a = semaphore(&dev, false, None);
    // Counts that would break both rules; the device cannot have the structure.
    let _ = submit(&dev, (&[], &[a]), (&[1, 2], &[]));
    expect::silent(&inst, SUBMIT);
    let _ = submit(&dev, (&[a], &[]), (&[], &[]));
    expect::silent(&inst, SUBMIT);
    destroy(&dev, a);
}
