//! `VUID-vkImportFenceFdKHR-fence-01463` and `VUID-vkImportFenceWin32HandleKHR-fence-04448`: a
//! fence imported into while associated with a queue command that has not completed. The layer
//! is sure of it only when a queue submission signals the fence (it followed that, and no reset
//! or import since) and the driver says the fence is not signaled yet (`vkGetFenceStatus`:
//! `VK_NOT_READY`, which the layer asks itself, a valid call that changes nothing): the
//! submission's fence signal operation, a queue command, is then still pending.
//!
//! `VUID-vkImportSemaphoreFdKHR-semaphore-01142` and
//! `VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764`, the same rule of a semaphore: the
//! layer is sure of it when the latest submission that waited on or signaled the semaphore (it
//! followed that: a semaphore created exportable or imported into) signals a fence that still
//! carries that submission's signal, and the driver says that fence is not signaled yet: the
//! submission, whose semaphore operation and fence signal are one queue submission command, has
//! not completed execution.

use crate::finding::Finding;
use crate::handle_kinds::{Fence, Semaphore};
use crate::rules::export::{with_object, ExportedObject};
use crate::state::{FenceRecord, FenceSignal, SemaphoreRecord, SignalState};

/// Whether the layer must ask the driver about `record`: a queue submission's signal is the last
/// thing it followed of a fence it follows, whose payload no one else holds (another holder may
/// reset it, and the driver's answer would then say nothing of this submission).
#[inline(always)]
pub fn worth_asking(record: &FenceRecord) -> bool {
    let f = &record.facts;
    f.shared && !f.payload_escaped && f.signal == FenceSignal::Submitted
}

/// The finding: `command`'s `id` at `field` (the import info's `fence`), the fence named.
pub fn finding(
    (command, id, field): (&'static str, &'static str, &str),
    record: &FenceRecord,
) -> Finding {
    with_object::<Fence>(
        Finding::new(
            id,
            command,
            field,
            format!(
                "{command}(): {field} is {}, whose signal a queue submission (vkQueueSubmit, \
                 vkQueueSubmit2 or vkQueueBindSparse) has not completed: vkGetFenceStatus says \
                 VK_NOT_READY. A payload must not be imported into a fence associated with a queue \
                 command that has not completed execution; wait for the fence first.",
                Fence::describe(record)
            ),
        ),
        record,
    )
}

/// The finding of a semaphore import (`VUID-vkImportSemaphoreFdKHR-semaphore-01142`,
/// `VUID-vkImportSemaphoreZirconHandleFUCHSIA-semaphore-04764`): `command`'s `id` at `field`
/// (the import info's `semaphore`), the semaphore named, and `fence`, the fence of the latest
/// submission that waited on it or signaled it, which the driver says is not signaled yet.
pub fn semaphore_finding(
    (command, id, field): (&'static str, &'static str, &str),
    record: &SemaphoreRecord,
    fence: &FenceRecord,
) -> Finding {
    let operation = match record.facts.signal {
        SignalState::Waited => "waited on it",
        SignalState::SignalSubmitted => "signaled it",
        _ => "waited on it or signaled it",
    };
    let finding = Finding::new(
        id,
        command,
        field,
        format!(
            "{command}(): {field} is {}, and the latest queue submission (vkQueueSubmit, \
             vkQueueSubmit2 or vkQueueBindSparse) that {operation} has not completed execution: \
             the fence it signals, {}, is not signaled yet (vkGetFenceStatus says VK_NOT_READY). \
             A payload must not be imported into a semaphore associated with a queue command that \
             has not completed execution; wait for that fence first.",
            Semaphore::describe(record),
            Fence::describe(fence),
        ),
    );
    with_object::<Semaphore>(finding, record)
}
