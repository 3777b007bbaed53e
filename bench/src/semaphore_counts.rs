//! The instruction counts of the semaphore paths (issue #25): each operation sets up its
//! semaphores (and queue) on the test driver, counts its calls (`counted::count`), and destroys
//! what it made, so that the device holds no shared semaphore between operations (the submission
//! of a plain semaphore is counted on a device with none).

use crate::counted::{count, ChildCounts, Op};
use crate::model::Config;
use crate::semaphore_ops::WaitAndSignal;
use crate::sharing_counts::command;
use crate::vkctx::Vk;
use ash::vk;

const OPAQUE_FD: vk::ExternalSemaphoreHandleTypeFlags =
    vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;

/// Counts `op` (one of those this module knows).
pub fn count_op(
    vk: &Vk,
    config: Config,
    op: Op,
    n: u64,
    out: &mut ChildCounts,
) -> Result<(), String> {
    match op {
        Op::CreateDestroySemaphore => {
            count(config, op, n, out, &mut || vk.create_destroy_semaphore())
        }
        Op::SubmitPlainSemaphore => count_submit(vk, config, op, n, out, None),
        Op::SubmitSharedSemaphore => count_submit(vk, config, op, n, out, Some(OPAQUE_FD)),
        Op::ExportSemaphoreFd => {
            let Some(f) = command(vk, op, c"vkGetSemaphoreFdKHR", out) else {
                return Ok(());
            };
            let semaphore = vk.create_semaphore(Some(OPAQUE_FD))?;
            let r = count(config, op, n, out, &mut || {
                vk.export_semaphore_fd_and_close(f, semaphore)
            });
            vk.destroy_semaphore(semaphore);
            r
        }
        Op::ImportSemaphoreFd => {
            let get = command(vk, op, c"vkGetSemaphoreFdKHR", out);
            let import = command(vk, op, c"vkImportSemaphoreFdKHR", out);
            let (Some(get), Some(import)) = (get, import) else {
                return Ok(());
            };
            let from = vk.create_semaphore(Some(OPAQUE_FD))?;
            let into = match vk.create_semaphore(None) {
                Ok(s) => s,
                Err(e) => {
                    vk.destroy_semaphore(from);
                    return Err(e);
                }
            };
            let r = count(config, op, n, out, &mut || {
                vk.export_import_semaphore(get, import, from, into)
            });
            vk.destroy_semaphore(into);
            vk.destroy_semaphore(from);
            r
        }
        _ => Err(format!("{op:?} is not a semaphore operation")),
    }
}

/// Counts `vkQueueSubmit` of one batch that waits on a binary semaphore (exportable as `export`
/// when given) and signals it again: the semaphore is signaled once before, so that every
/// counted submission is valid, and waited on after, then the queue waited idle before it is
/// destroyed.
fn count_submit(
    vk: &Vk,
    config: Config,
    op: Op,
    n: u64,
    out: &mut ChildCounts,
    export: Option<vk::ExternalSemaphoreHandleTypeFlags>,
) -> Result<(), String> {
    let queue = vk.queue();
    let semaphore = vk.create_semaphore(export)?;
    let batches = WaitAndSignal::new(semaphore);
    let submit = |batch: vk::SubmitInfo<'_>, what: &str| match vk.submit(queue, &[batch]) {
        vk::Result::SUCCESS => Ok(()),
        e => Err(format!("vkQueueSubmit ({what}): {e:?}")),
    };
    let r = submit(batches.signal_only(), "the first signal").and_then(|()| {
        let batch = batches.batch();
        let r = count(config, op, n, out, &mut || {
            vk.submit(queue, std::slice::from_ref(&batch))
        });
        r.and(submit(batches.wait_only(), "the last wait"))
    });
    let idle = vk.wait_idle(queue);
    vk.destroy_semaphore(semaphore);
    r.and(idle)
}
