//! `vkCreateSemaphore` and `vkDestroySemaphore`: each semaphore a device makes is recorded with
//! what the export rules read of its create info (`state::semaphores`), and forgotten when it is
//! destroyed; an import (`vkImportSemaphore*`, `commands::import`) marks it, since its payload
//! may then be another. Every call goes down as the app made it; `vkCreateSemaphore` is judged
//! first: a `VkExportSemaphoreCreateInfo` against the driver's answers
//! (`commands::export_semaphore`), the other sharing structures of the chain
//! (`commands::create_semaphore_checks`).

use crate::boundary;
use crate::commands::create_semaphore_checks;
use crate::commands::export_semaphore::judge_create;
use crate::commands::record_after::judge_call_down_and_record;
use crate::features::fd_ownership::hooks as fd_ownership;
use crate::features::fd_ownership::state::ImportKind;
use crate::features::import_matching::state::{semaphore_exports, semaphore_kmt_exports};
use crate::pipeline::policy::Decision;
use crate::raw::{read_node, read_out, read_struct, walk_chain, StructArg};
use crate::state::this_thread::with_device;
use crate::state::SemaphoreFacts;
use ash::vk::{self, Handle};

/// What the export rules read of a `VkSemaphoreCreateInfo` (nothing known when it is NULL or of
/// another `sType`).
///
/// # Safety
/// `p` is what the app passed to `vkCreateSemaphore`, which the driver accepted: NULL or a
/// readable create info and chain.
unsafe fn read_create_info(p: *const vk::SemaphoreCreateInfo<'_>) -> SemaphoreFacts {
    // SAFETY: the caller's contract; NULL and sType are checked first.
    let StructArg::Valid(info) =
        (unsafe { read_struct(p, vk::StructureType::SEMAPHORE_CREATE_INFO) })
    else {
        return SemaphoreFacts::default();
    };
    let mut facts = SemaphoreFacts {
        known: true,
        create_flags: info.flags,
        ..SemaphoreFacts::default()
    };
    // SAFETY: each node is read as the structure its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO => {
                let t: vk::SemaphoreTypeCreateInfo = read_node(node);
                facts.timeline = t.semaphore_type == vk::SemaphoreType::TIMELINE;
            }
            vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO => {
                let e: vk::ExportSemaphoreCreateInfo = read_node(node);
                facts.export = Some(facts.export.unwrap_or_default() | e.handle_types);
            }
            _ => {}
        })
    };
    facts
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn create_semaphore(
    device: vk::Device,
    p_create_info: *const vk::SemaphoreCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_semaphore: *mut vk::Semaphore,
) -> vk::Result {
    // What the create info says, read once before the call: judged, then recorded.
    let read = std::cell::Cell::new(SemaphoreFacts::default());
    judge_call_down_and_record(
        "vkCreateSemaphore",
        device,
        |s| {
            // SAFETY: the app's create info (the loader's contract): NULL or readable with its
            // chain.
            read.set(unsafe { read_create_info(p_create_info) });
            let export_types = judge_create(s, &read.get());
            // SAFETY: as above.
            let structures = unsafe { create_semaphore_checks::judge(s, p_create_info) };
            if export_types == Decision::Skip || structures == Decision::Skip {
                Decision::Skip
            } else {
                Decision::CallDown
            }
        },
        |s| {
            let next = s.next.create_semaphore?;
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            Some(unsafe { next(device, p_create_info, p_allocator, p_semaphore) })
        },
        |state| {
            // SAFETY: the driver succeeded, so *p_semaphore was written.
            if let Some(semaphore) = unsafe { read_out(p_semaphore) } {
                state.semaphores.insert(semaphore.as_raw(), read.get());
            }
        },
    )
}

/// What the export and import tables hold of `semaphore`, which its device destroys: let go,
/// and the numbers of its fd import the process closed since reported.
#[cold]
#[inline(never)]
fn forget_tracked(state: &crate::state::DeviceState, semaphore: u64) {
    let device = state.handle();
    semaphore_exports::forget_semaphore(device, semaphore);
    semaphore_kmt_exports::forget_semaphore(device, semaphore);
    let kind = ImportKind::Semaphore;
    fd_ownership::destroyed(state, "vkDestroySemaphore", kind, semaphore);
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn destroy_semaphore(
    device: vk::Device,
    semaphore: vk::Semaphore,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down("vkDestroySemaphore", (), |down| {
        with_device(device.as_raw(), |state, _| {
            let Some(state) = state else {
                return;
            };
            let handle = semaphore.as_raw();
            if handle != 0 {
                let name = state.names.remove(&(vk::ObjectType::SEMAPHORE, handle));
                let name = name.map(|(_, name)| name);
                if state.semaphores.remove(handle, state.handle(), name) {
                    forget_tracked(state, handle);
                }
            }
            if let Some(next) = state.next.destroy_semaphore {
                // SAFETY: the app's arguments, passed unchanged to the next layer.
                unsafe { next(device, semaphore, p_allocator) }
            }
            down.went(());
        })
    })
}

/// At `vkDestroyDevice`: what the layer holds of the device's semaphores outside its state (the
/// opaque fds exported, `semaphore_exports`; the global share handles, `semaphore_kmt_exports`).
/// The records go with the device state.
pub fn device_destroyed(state: &crate::state::DeviceState) {
    semaphore_exports::forget_device(state.handle());
    semaphore_kmt_exports::forget_device(state.handle());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vuid;

    /// `vuid::EXPORT_SEM_STYPE` holds by construction: a node with another `sType` is not read
    /// as a `VkExportSemaphoreCreateInfo` (nor one of another `sType` as a
    /// `VkSemaphoreTypeCreateInfo`).
    #[test]
    fn chained_structures_are_recognised_by_their_stype() {
        let _ = vuid::EXPORT_SEM_STYPE;
        let read = |s_type| {
            let export = vk::ExportSemaphoreCreateInfo {
                s_type,
                handle_types: vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD,
                ..Default::default()
            };
            let info = vk::SemaphoreCreateInfo {
                p_next: (&export as *const vk::ExportSemaphoreCreateInfo).cast(),
                ..Default::default()
            };
            // SAFETY: a live create info and chain.
            unsafe { read_create_info(&info) }
        };
        let facts = read(vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO);
        assert_eq!(
            facts.export,
            Some(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD)
        );
        let facts = read(vk::StructureType::EXPORT_FENCE_CREATE_INFO);
        assert!(facts.known && facts.export.is_none() && !facts.timeline);
    }
}
