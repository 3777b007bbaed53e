//! `VUID-vkImportFenceFdKHR-fence-01463` and `VUID-vkImportFenceWin32HandleKHR-fence-04448`: a
//! fence imported into while associated with a queue command that has not completed. The layer
//! is sure of it only when a queue submission signals the fence (it followed that, and no reset
//! or import since) and the driver says the fence is not signaled yet (`vkGetFenceStatus`:
//! `VK_NOT_READY`, which the layer asks itself, a valid call that changes nothing): the
//! submission's fence signal operation, a queue command, is then still pending.

use crate::finding::Finding;
use crate::handle_kinds::Fence;
use crate::rules::export::{with_object, ExportedObject};
use crate::state::{FenceRecord, FenceSignal};

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
    command: &'static str,
    id: &'static str,
    field: &str,
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
