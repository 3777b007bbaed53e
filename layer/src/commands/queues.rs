//! The commands that wait on or signal semaphores and fences, followed for the semaphores and
//! fences that can share their payload (`state::semaphores`, `SemaphoreFacts::shared`;
//! `state::fences`, `FenceFacts::shared`): `vkQueueSubmit`, `vkQueueSubmit2`,
//! `vkQueueBindSparse`, the swapchain's `vkAcquireNextImageKHR` / `vkAcquireNextImage2KHR`
//! (signals) and `vkQueuePresentKHR` (waits, and the fences of a
//! `VkSwapchainPresentFenceInfoEXT`), and `vkResetFences`: every command that signals a binary
//! semaphore or a fence. Their queues come from `vkGetDeviceQueue` / `vkGetDeviceQueue2`
//! (`registry::queue_key`).
//!
//! Every call goes down as the app made it; nothing is judged here. On a device with no shared
//! semaphore or fence a submission costs the queue's lookup and two atomic loads; with some, each
//! semaphore of the submission (and its fence) is looked up after the call (a map read, and a
//! write for a shared one).

use crate::boundary;
use crate::finding::Outcome;
use crate::pipeline::policy::{decide, Decision};
use crate::raw::{self, read_node, read_out, read_struct, walk_chain, StructArg};
use crate::rules::sync::d3d12_fence_submit::{self, D3d12Batch};
use crate::state::registry::{queue_key, DEVICES};
use crate::state::submissions::Submission;
use crate::state::this_thread::with_device;
use crate::state::{DeviceState, FenceSignal, QueueUse};
use ash::vk::{self, Handle};
use std::sync::Arc;

/// Runs `f` with the device of `queue` (and the thread's memos): the one `vkGetDeviceQueue*`
/// returned it from, found in the thread's snapshot of the registry under the queue's key, or (a
/// queue the layer did not see returned, cold) the device whose dispatch key it shares.
#[inline(always)]
pub(super) fn with_queue_device<R>(
    queue: vk::Queue,
    f: impl FnOnce(Option<&DeviceState>) -> R,
) -> R {
    let mut f = Some(f);
    let found = with_device(
        queue_key(queue.as_raw()),
        #[inline(always)]
        |state, _| {
            let state = state?;
            f.take().map(|f| f(Some(state)))
        },
    );
    match (found, f) {
        (Some(result), _) => result,
        (None, Some(f)) => f(device_by_dispatch_key(queue).as_deref()),
        (None, None) => unreachable!("f is taken only when the queue was found"),
    }
}

#[cold]
#[inline(never)]
fn device_by_dispatch_key(queue: vk::Queue) -> Option<Arc<DeviceState>> {
    if queue.is_null() {
        return None;
    }
    // SAFETY: a dispatchable handle the app passed to a queue command: its first word is the
    // loader's dispatch table pointer, shared by its device.
    let key = unsafe { raw::dispatch_key(queue.as_raw()) };
    let state = DEVICES.values().into_iter().find(|state| {
        // SAFETY: a live device's dispatchable handle.
        unsafe { raw::dispatch_key(state.handle()) == key }
    })?;
    DEVICES.insert(queue_key(queue.as_raw()), Arc::clone(&state));
    Some(state)
}

/// After `vkGetDeviceQueue*` wrote `*p_queue`: the queue is the device's.
fn record_queue(device: vk::Device, p_queue: *const vk::Queue) {
    // SAFETY: the output pointer the app passed, which the driver has just written.
    let Some(queue) = (unsafe { read_out(p_queue) }) else {
        return;
    };
    let key = queue_key(queue.as_raw());
    if queue.is_null() || DEVICES.get(key).is_some() {
        return;
    }
    if let Some(state) = DEVICES.get(device.as_raw()) {
        DEVICES.insert(key, state);
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_device_queue(
    device: vk::Device,
    queue_family_index: u32,
    queue_index: u32,
    p_queue: *mut vk::Queue,
) {
    boundary::ffi_down("vkGetDeviceQueue", (), |down| {
        let Some(next) = DEVICES
            .get(device.as_raw())
            .and_then(|s| s.next.get_device_queue)
        else {
            return;
        };
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        unsafe { next(device, queue_family_index, queue_index, p_queue) };
        down.went(());
        record_queue(device, p_queue);
    })
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_device_queue2(
    device: vk::Device,
    p_queue_info: *const vk::DeviceQueueInfo2<'_>,
    p_queue: *mut vk::Queue,
) {
    boundary::ffi_down("vkGetDeviceQueue2", (), |down| {
        let Some(next) = DEVICES
            .get(device.as_raw())
            .and_then(|s| s.next.get_device_queue2)
        else {
            return;
        };
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        unsafe { next(device, p_queue_info, p_queue) };
        down.went(());
        record_queue(device, p_queue);
    })
}

/// The body of a queue command: the call goes down; afterwards, on a device with shared
/// semaphores, `follow` tells the semaphore table what the call did (`failed`: it did not
/// succeed, and what it did is not known), and a shared `fence` it signals is marked so.
#[inline(always)]
fn submit_and_follow(
    command: &'static str,
    (queue, fence): (vk::Queue, vk::Fence),
    call_down: impl FnOnce(&DeviceState) -> Option<vk::Result>,
    follow: impl FnOnce(&DeviceState, bool, Submission),
) -> vk::Result {
    boundary::ffi_down(
        command,
        vk::Result::ERROR_UNKNOWN,
        #[inline(always)]
        |down| {
            with_queue_device(
                queue,
                #[inline(always)]
                |state| {
                    let Some(state) = state else {
                        return vk::Result::ERROR_DEVICE_LOST;
                    };
                    let Some(result) = call_down(state) else {
                        return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
                    };
                    let result = down.went(result);
                    let semaphores = state.semaphores.any_shared();
                    if semaphores || (fence != vk::Fence::null() && state.fences.any_shared()) {
                        let failed = result != vk::Result::SUCCESS;
                        follow_submission(state, (queue, fence), (failed, semaphores), follow);
                    }
                    result
                },
            )
        },
    )
}

/// After a submission to `queue` on a device that follows semaphores (`semaphores`) or fences:
/// numbered, its batches followed (`follow`) and its `fence` marked as it signals.
#[inline(never)]
fn follow_submission(
    state: &DeviceState,
    (queue, fence): (vk::Queue, vk::Fence),
    (failed, semaphores): (bool, bool),
    follow: impl FnOnce(&DeviceState, bool, Submission),
) {
    let by = state.submissions.submitted(queue.as_raw());
    if semaphores {
        follow(state, failed, by);
    }
    if fence.is_null() || !state.fences.any_shared() {
        return;
    }
    if failed {
        state
            .fences
            .set_signal(fence.as_raw(), FenceSignal::Unknown);
    } else {
        state.fences.submitted(fence.as_raw(), by);
    }
}

/// What a command of the presentation engine that signals a fence did to it: a signal, or (it
/// failed) not known. (A queue submission's: `Fences::submitted`.)
fn presentation_signal(failed: bool) -> FenceSignal {
    if failed {
        FenceSignal::Unknown
    } else {
        FenceSignal::Signaled
    }
}

/// The semaphores of `count` handles at `p`, in order (none for NULL).
///
/// # Safety
/// `p` is NULL or points to `count` handles (the command's contract).
unsafe fn handles<'a>(p: *const vk::Semaphore, count: u32) -> &'a [vk::Semaphore] {
    if p.is_null() || count == 0 {
        return &[];
    }
    // SAFETY: this function's contract.
    unsafe { std::slice::from_raw_parts(p, count as usize) }
}

/// The structures of `count` at `p` (none for NULL).
///
/// # Safety
/// `p` is NULL or points to `count` structures (the command's contract).
pub(super) unsafe fn structures<'a, T>(p: *const T, count: u32) -> &'a [T] {
    if p.is_null() || count == 0 {
        return &[];
    }
    // SAFETY: this function's contract.
    unsafe { std::slice::from_raw_parts(p, count as usize) }
}

/// Tells the table that `waits` were waited on (by the submission `by`; none: a present) and
/// then `signals` signaled (one batch), or, when the call `failed`, that both are in an unknown
/// state.
#[inline(always)]
fn follow_batch(
    state: &DeviceState,
    (failed, by): (bool, Option<Submission>),
    waits: impl Iterator<Item = vk::Semaphore>,
    signals: impl Iterator<Item = vk::Semaphore>,
) {
    if failed {
        for s in waits.chain(signals) {
            state.semaphores.failed(s.as_raw());
        }
        return;
    }
    let mut unsubmitted = None;
    for s in waits {
        let wait = state.semaphores.waited(s.as_raw(), by);
        if unsubmitted.is_none() {
            unsubmitted = wait;
        }
    }
    for s in signals {
        state.semaphores.signaled(s.as_raw(), by, unsubmitted);
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn queue_submit(
    queue: vk::Queue,
    submit_count: u32,
    p_submits: *const vk::SubmitInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    submit_and_follow(
        "vkQueueSubmit",
        (queue, fence),
        |s| {
            let next = s.next.queue_submit?;
            if s.facts.extensions.khr_external_semaphore_win32
                // SAFETY: the app's submissions (the command's contract).
                && unsafe { judge_d3d12_fence_infos(s, p_submits, submit_count) } == Decision::Skip
            {
                return Some(Decision::SKIPPED_RESULT);
            }
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            Some(unsafe { next(queue, submit_count, p_submits, fence) })
        },
        |state, failed, by| {
            // SAFETY: the submissions the app passed (read after the call, which the driver
            // accepted or refused; the app's memory is still its own to read).
            for batch in unsafe { structures(p_submits, submit_count) } {
                // SAFETY: the batch's arrays and counts, as the app passed them.
                let (waits, signals) = unsafe {
                    (
                        handles(batch.p_wait_semaphores, batch.wait_semaphore_count),
                        handles(batch.p_signal_semaphores, batch.signal_semaphore_count),
                    )
                };
                follow_batch(
                    state,
                    (failed, Some(by)),
                    waits.iter().copied(),
                    signals.iter().copied(),
                );
            }
        },
    )
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn queue_submit2(
    queue: vk::Queue,
    submit_count: u32,
    p_submits: *const vk::SubmitInfo2<'_>,
    fence: vk::Fence,
) -> vk::Result {
    submit_and_follow(
        "vkQueueSubmit2",
        (queue, fence),
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.queue_submit2?(queue, submit_count, p_submits, fence) }),
        |state, failed, by| {
            // SAFETY: as in `queue_submit`.
            for batch in unsafe { structures(p_submits, submit_count) } {
                // SAFETY: the batch's arrays and counts, as the app passed them.
                let (waits, signals) = unsafe {
                    (
                        structures(
                            batch.p_wait_semaphore_infos,
                            batch.wait_semaphore_info_count,
                        ),
                        structures(
                            batch.p_signal_semaphore_infos,
                            batch.signal_semaphore_info_count,
                        ),
                    )
                };
                follow_batch(
                    state,
                    (failed, Some(by)),
                    waits.iter().map(|i| i.semaphore),
                    signals.iter().map(|i| i.semaphore),
                );
            }
        },
    )
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn queue_bind_sparse(
    queue: vk::Queue,
    bind_info_count: u32,
    p_bind_info: *const vk::BindSparseInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    submit_and_follow(
        "vkQueueBindSparse",
        (queue, fence),
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.queue_bind_sparse?(queue, bind_info_count, p_bind_info, fence) }),
        |state, failed, by| {
            // SAFETY: as in `queue_submit`.
            for batch in unsafe { structures(p_bind_info, bind_info_count) } {
                // SAFETY: the batch's arrays and counts, as the app passed them.
                let (waits, signals) = unsafe {
                    (
                        handles(batch.p_wait_semaphores, batch.wait_semaphore_count),
                        handles(batch.p_signal_semaphores, batch.signal_semaphore_count),
                    )
                };
                follow_batch(
                    state,
                    (failed, Some(by)),
                    waits.iter().copied(),
                    signals.iter().copied(),
                );
            }
        },
    )
}

/// After an acquire returned `result`: `semaphore` and `fence` will be signaled when it
/// succeeded (`VK_SUCCESS`, `VK_SUBOPTIMAL_KHR`); after `VK_TIMEOUT` or `VK_NOT_READY` they are
/// untouched; after an error their state is not known. An acquire is also a temporary import of
/// a payload the layer cannot name into its semaphore and its fence (or maybe one, after an
/// error).
fn follow_acquire(
    state: &DeviceState,
    result: vk::Result,
    (semaphore, fence): (vk::Semaphore, vk::Fence),
) {
    let failed = match result {
        vk::Result::SUCCESS | vk::Result::SUBOPTIMAL_KHR => false,
        vk::Result::TIMEOUT | vk::Result::NOT_READY => return,
        _ => true,
    };
    if !semaphore.is_null() && state.semaphores.any_shared() {
        let operation = if failed {
            QueueUse::AcquireFailed
        } else {
            QueueUse::Acquired
        };
        state.semaphores.queue_used(semaphore.as_raw(), operation);
    }
    if !fence.is_null() && state.fences.any_shared() {
        state
            .fences
            .set_signal(fence.as_raw(), presentation_signal(failed));
    }
    if !fence.is_null() && state.fences.any_imported() {
        state.fences.acquired(fence.as_raw());
    }
}

/// The body of the acquires: the call goes down; what it did to its semaphore and fence is
/// followed.
fn acquire_and_follow(
    command: &'static str,
    device: vk::Device,
    call_down: impl FnOnce(&DeviceState) -> Option<vk::Result>,
    objects: impl FnOnce() -> (vk::Semaphore, vk::Fence),
) -> vk::Result {
    boundary::ffi_down(command, vk::Result::ERROR_UNKNOWN, |down| {
        let Some(state) = DEVICES.get(device.as_raw()) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let Some(result) = call_down(&state) else {
            return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
        };
        let result = down.went(result);
        follow_acquire(&state, result, objects());
        result
    })
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn acquire_next_image(
    device: vk::Device,
    swapchain: vk::SwapchainKHR,
    timeout: u64,
    semaphore: vk::Semaphore,
    fence: vk::Fence,
    p_image_index: *mut u32,
) -> vk::Result {
    acquire_and_follow(
        "vkAcquireNextImageKHR",
        device,
        |s| {
            let next = s.next.acquire_next_image?;
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            Some(unsafe { next(device, swapchain, timeout, semaphore, fence, p_image_index) })
        },
        || (semaphore, fence),
    )
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn acquire_next_image2(
    device: vk::Device,
    p_acquire_info: *const vk::AcquireNextImageInfoKHR<'_>,
    p_image_index: *mut u32,
) -> vk::Result {
    acquire_and_follow(
        "vkAcquireNextImage2KHR",
        device,
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.acquire_next_image2?(device, p_acquire_info, p_image_index) }),
        || {
            // SAFETY: the acquire info the app passed (NULL gives no semaphore and no fence).
            let info = unsafe { read_out(p_acquire_info) };
            info.map_or(Default::default(), |i| (i.semaphore, i.fence))
        },
    )
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn reset_fences(
    device: vk::Device,
    fence_count: u32,
    p_fences: *const vk::Fence,
) -> vk::Result {
    boundary::ffi_down("vkResetFences", vk::Result::ERROR_UNKNOWN, |down| {
        with_device(device.as_raw(), |state, _| {
            let Some(state) = state else {
                return vk::Result::ERROR_DEVICE_LOST;
            };
            let Some(next) = state.next.reset_fences else {
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            };
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            let result = down.went(unsafe { next(device, fence_count, p_fences) });
            let (shared, imported) = (state.fences.any_shared(), state.fences.any_imported());
            if shared || imported {
                let reset = result == vk::Result::SUCCESS;
                let signal = if reset {
                    FenceSignal::UnsignaledSinceReset
                } else {
                    FenceSignal::Unknown
                };
                // SAFETY: the array the app passed (read after the call; still the app's).
                for fence in unsafe { structures(p_fences, fence_count) } {
                    if shared {
                        state.fences.set_signal(fence.as_raw(), signal);
                    }
                    // A reset restores a temporarily imported payload (maybe, after an error).
                    match (imported, reset) {
                        (true, true) => state.fences.reset(fence.as_raw()),
                        (true, false) => state.fences.maybe_reset(fence.as_raw()),
                        _ => {}
                    }
                }
            }
            result
        })
    })
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn queue_present(
    queue: vk::Queue,
    p_present_info: *const vk::PresentInfoKHR<'_>,
) -> vk::Result {
    boundary::ffi_down("vkQueuePresentKHR", vk::Result::ERROR_UNKNOWN, |down| {
        with_queue_device(queue, |state| {
            let Some(state) = state else {
                return vk::Result::ERROR_DEVICE_LOST;
            };
            let Some(next) = state.next.queue_present else {
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            };
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            let result = down.went(unsafe { next(queue, p_present_info) });
            if state.semaphores.any_shared() || state.fences.any_shared() {
                let failed = !matches!(result, vk::Result::SUCCESS | vk::Result::SUBOPTIMAL_KHR);
                // SAFETY: the present info the app passed (read after the call).
                unsafe { follow_present(state, p_present_info, failed) };
            }
            result
        })
    })
}

/// What a present did: it waited on its semaphores, and signals the fences of a
/// `VkSwapchainPresentFenceInfoEXT` (`VK_EXT_swapchain_maintenance1`).
///
/// # Safety
/// `p` is the present info the app passed: NULL or readable with its arrays and chain.
unsafe fn follow_present(state: &DeviceState, p: *const vk::PresentInfoKHR<'_>, failed: bool) {
    // SAFETY: this function's contract.
    let StructArg::Valid(info) = (unsafe { read_struct(p, vk::StructureType::PRESENT_INFO_KHR) })
    else {
        return;
    };
    // SAFETY: the info's wait array, as the app passed it.
    let waits = unsafe { handles(info.p_wait_semaphores, info.wait_semaphore_count) };
    follow_batch(
        state,
        (failed, None),
        waits.iter().copied(),
        std::iter::empty(),
    );
    if !state.fences.any_shared() {
        return;
    }
    // SAFETY: each node is read as the structure its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| {
            if s_type == vk::StructureType::SWAPCHAIN_PRESENT_FENCE_INFO_EXT {
                let fences: vk::SwapchainPresentFenceInfoEXT = read_node(node);
                for fence in structures(fences.p_fences, fences.swapchain_count) {
                    if !fence.is_null() {
                        state
                            .fences
                            .set_signal(fence.as_raw(), presentation_signal(failed));
                    }
                }
            }
        })
    };
}

/// The `VkD3D12FenceSubmitInfoKHR` of each batch that has one, with the batch's counts (a node
/// is one only by its `sType`: `VUID-VkD3D12FenceSubmitInfoKHR-sType-sType` holds by
/// construction).
///
/// # Safety
/// `p_submits` is NULL or points to `count` submissions, each with a readable chain.
unsafe fn d3d12_fence_infos(p_submits: *const vk::SubmitInfo<'_>, count: u32) -> Vec<D3d12Batch> {
    let mut batches = Vec::new();
    // SAFETY: this function's contract.
    for (index, batch) in unsafe { structures(p_submits, count) }.iter().enumerate() {
        // SAFETY: each node is read as the structure its sType names.
        unsafe {
            walk_chain(batch.p_next, |s_type, node| {
                if s_type == vk::StructureType::D3D12_FENCE_SUBMIT_INFO_KHR {
                    let info: vk::D3D12FenceSubmitInfoKHR = read_node(node);
                    batches.push(D3d12Batch {
                        index,
                        wait_count: batch.wait_semaphore_count,
                        signal_count: batch.signal_semaphore_count,
                        wait_values: info.wait_semaphore_values_count,
                        signal_values: info.signal_semaphore_values_count,
                    });
                }
            })
        };
    }
    batches
}

/// `vkQueueSubmit` on a device with `VK_KHR_external_semaphore_win32`: the batches'
/// `VkD3D12FenceSubmitInfoKHR`, judged and reported (`rules::sync::d3d12_fence_submit`); whether
/// the call goes down (nothing blocks it: only an app callback can skip it).
///
/// # Safety
/// As [`d3d12_fence_infos`].
#[cold]
#[inline(never)]
unsafe fn judge_d3d12_fence_infos(
    state: &DeviceState,
    p_submits: *const vk::SubmitInfo<'_>,
    count: u32,
) -> Decision {
    let command = "vkQueueSubmit";
    let outcome = boundary::contain(command, || {
        let mut outcome = Outcome::default();
        // SAFETY: this function's contract.
        for batch in unsafe { d3d12_fence_infos(p_submits, count) } {
            let broken = d3d12_fence_submit::evaluate(&batch);
            if !broken.is_empty() {
                d3d12_fence_submit::describe(state.handle(), &batch, broken, &mut outcome);
            }
        }
        outcome
    });
    decide(state, command, &outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_d3d12_fence_info_is_known_by_its_stype_only() {
        let values = [1u64, 2];
        // The chain is built from raw pointers (not `push_next`, whose `&mut` borrows Miri's
        // stacked borrows would invalidate before the walk reads them).
        let mut d3d12 = vk::D3D12FenceSubmitInfoKHR {
            wait_semaphore_values_count: 2,
            p_wait_semaphore_values: values.as_ptr(),
            signal_semaphore_values_count: 1,
            p_signal_semaphore_values: values.as_ptr(),
            ..Default::default()
        };
        let waits = [vk::Semaphore::null(); 2];
        let stages = [vk::PipelineStageFlags::ALL_COMMANDS; 2];
        let batch = |d3d12: &vk::D3D12FenceSubmitInfoKHR<'_>| vk::SubmitInfo {
            p_next: (d3d12 as *const vk::D3D12FenceSubmitInfoKHR).cast(),
            wait_semaphore_count: 2,
            p_wait_semaphores: waits.as_ptr(),
            p_wait_dst_stage_mask: stages.as_ptr(),
            ..Default::default()
        };
        let submits = [batch(&d3d12)];
        // SAFETY: a live submission array with its chain.
        let found = unsafe { d3d12_fence_infos(submits.as_ptr(), 1) };
        assert_eq!(
            found,
            [D3d12Batch {
                index: 0,
                wait_count: 2,
                signal_count: 0,
                wait_values: 2,
                signal_values: 1,
            }]
        );
        // The same structure with another sType is not read as one
        // (`vuid::D3D12_FENCE_SUBMIT_STYPE` holds by construction).
        d3d12.s_type = vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO;
        let submits = [batch(&d3d12)];
        // SAFETY: as above.
        assert!(unsafe { d3d12_fence_infos(submits.as_ptr(), 1) }.is_empty());
    }
}
