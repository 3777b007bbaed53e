//! `vkQueueSubmit` and `vkQueueSubmit2`: the driver runs no commands, so a submission completes
//! at once. In order, each batch's waits (a binary semaphore is unsignalled and a temporary
//! payload consumed; timeline waits are met or not, nothing blocks) and then its signals (a
//! timeline semaphore takes the value of `VkTimelineSemaphoreSubmitInfo` or
//! `VkSemaphoreSubmitInfo`); then the fence is signalled.

use crate::device::Device;
use crate::ffi::{self, entry, key};
use crate::objects::{self, lock};
use ash::vk;

/// One semaphore operation of a batch: the semaphore and its value (timeline only).
struct Operation {
    semaphore: u64,
    value: Option<u64>,
}

/// `count` elements of `p` (none if NULL).
///
/// # Safety
/// `p` is NULL or valid for `count` reads.
unsafe fn slice<'a, T>(p: *const T, count: u32) -> &'a [T] {
    if p.is_null() || count == 0 {
        return &[];
    }
    // SAFETY: valid for `count` reads (caller's contract).
    unsafe { std::slice::from_raw_parts(p, count as usize) }
}

/// Applies one batch's waits then its signals.
fn run_batch(dev: &Device, waits: &[Operation], signals: &[Operation]) {
    let mut semaphores = lock(&dev.semaphores);
    for w in waits {
        if let Some(s) = semaphores.get_mut(&w.semaphore) {
            s.wait();
        }
    }
    for op in signals {
        if let Some(s) = semaphores.get(&op.semaphore) {
            // A timeline signal without a value (invalid usage) changes nothing.
            match op.value {
                Some(v) => s.signal(v),
                None if !s.timeline => s.signal(1),
                None => {}
            }
        }
    }
}

/// Signals the submission's fence, if any.
fn signal_fence(dev: &Device, fence: vk::Fence) {
    let handle = vk::Handle::as_raw(fence);
    if let Some(f) = lock(&dev.fences).get(&handle) {
        if dev.config.sync_quirks.pending_fence_signals {
            lock(&dev.pending_fences).push(handle);
        } else {
            f.payload().set(1);
        }
    }
}

/// The device of a queue handle.
fn device_of(queue: vk::Queue) -> Option<std::sync::Arc<Device>> {
    let q = objects::queues().get(key(queue))?;
    objects::devices().get(q.device)
}

/// The operations of `semaphores` with values from `values` (a timeline info's array, which
/// may be shorter or absent).
fn operations(semaphores: &[vk::Semaphore], values: &[u64]) -> Vec<Operation> {
    semaphores
        .iter()
        .enumerate()
        .map(|(i, s)| Operation {
            semaphore: vk::Handle::as_raw(*s),
            value: values.get(i).copied(),
        })
        .collect()
}

pub(crate) unsafe extern "system" fn queue_submit(
    queue: vk::Queue,
    submit_count: u32,
    p_submits: *const vk::SubmitInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    entry("vkQueueSubmit", vk::Result::ERROR_DEVICE_LOST, || {
        let Some(dev) = device_of(queue) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        // SAFETY: `pSubmits` holds `submitCount` structures (Vulkan contract).
        for submit in unsafe { slice(p_submits, submit_count) } {
            // SAFETY: the chain is valid; the structure is read as the type its sType names.
            let timeline = unsafe {
                ffi::find_in_chain(
                    submit.p_next,
                    vk::StructureType::TIMELINE_SEMAPHORE_SUBMIT_INFO,
                )
                .map(|p| &*p.cast::<vk::TimelineSemaphoreSubmitInfo<'_>>())
            };
            // SAFETY: each array holds its count's elements (Vulkan contract).
            let (wait_values, signal_values, waits, signals) = unsafe {
                (
                    timeline.map_or(&[][..], |t| {
                        slice(t.p_wait_semaphore_values, t.wait_semaphore_value_count)
                    }),
                    timeline.map_or(&[][..], |t| {
                        slice(t.p_signal_semaphore_values, t.signal_semaphore_value_count)
                    }),
                    slice(submit.p_wait_semaphores, submit.wait_semaphore_count),
                    slice(submit.p_signal_semaphores, submit.signal_semaphore_count),
                )
            };
            run_batch(
                &dev,
                &operations(waits, wait_values),
                &operations(signals, signal_values),
            );
        }
        signal_fence(&dev, fence);
        vk::Result::SUCCESS
    })
}

/// The operations of a `VkSemaphoreSubmitInfo` array.
fn operations2(infos: &[vk::SemaphoreSubmitInfo<'_>]) -> Vec<Operation> {
    infos
        .iter()
        .map(|i| Operation {
            semaphore: vk::Handle::as_raw(i.semaphore),
            value: Some(i.value),
        })
        .collect()
}

pub(crate) unsafe extern "system" fn queue_submit2(
    queue: vk::Queue,
    submit_count: u32,
    p_submits: *const vk::SubmitInfo2<'_>,
    fence: vk::Fence,
) -> vk::Result {
    entry("vkQueueSubmit2", vk::Result::ERROR_DEVICE_LOST, || {
        let Some(dev) = device_of(queue) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        // SAFETY: `pSubmits` holds `submitCount` structures (Vulkan contract).
        for submit in unsafe { slice(p_submits, submit_count) } {
            // SAFETY: each array holds its count's elements (Vulkan contract).
            let (waits, signals) = unsafe {
                (
                    slice(
                        submit.p_wait_semaphore_infos,
                        submit.wait_semaphore_info_count,
                    ),
                    slice(
                        submit.p_signal_semaphore_infos,
                        submit.signal_semaphore_info_count,
                    ),
                )
            };
            // A binary semaphore's value is ignored (`Semaphore::signal` sets 1).
            run_batch(&dev, &operations2(waits), &operations2(signals));
        }
        signal_fence(&dev, fence);
        vk::Result::SUCCESS
    })
}
