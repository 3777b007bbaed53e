//! `vkGetFenceFdKHR`: the descriptor. Its rules are `rules::export::get_fence_fd`. An opaque fd
//! it returns is held with its fence's device, for the fd's imports to be checked against
//! (`features::import_matching::state::fence_exports`).
//!
//! The fd it returns is not held to a driver contract yet: a `SYNC_FD` export may return -1 (a
//! sync file already signaled), so memory's fd contract (`evaluate_fd`) does not apply as it is.

use crate::boundary::Down;
use crate::commands::sync_support::export_from_import_refused;
use crate::features::import_matching::state::fence_exports::{self, FenceOrigin};
use crate::handle_kinds::Fence;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::StructArg;
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::get_fence_fd;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::{DeviceState, FenceRecord};
use ash::vk;
use std::ffi::c_int;

pub struct GetFenceFd;

type Info = vk::FenceGetFdInfoKHR<'static>;

impl ExportEntry for GetFenceFd {
    type Args = (*const Info, *mut c_int);
    type Own = get_fence_fd::GetFenceFdRules;
    type Object = Fence;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own, Fence> = &get_fence_fd::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_fd): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.fence, i.handle_type))
        };
        (info, p_fd.is_null())
    }

    #[inline(always)]
    fn evaluate_history(state: &DeviceState, info: &InfoFields, fence: &FenceRecord) -> Self::Own {
        let imported = fence.facts.payload.current_import();
        let refused = export_from_import_refused::<Fence>(state, info.handle_type, false, imported);
        Self::Own::NONE.with(Self::Own::IMPORTED_PAYLOAD_NOT_EXPORTABLE, refused)
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_fd): Self::Args,
        judged: &Judged<'_, Fence>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_fence_fd?;
        // SAFETY: pFd is not NULL (the gate); the app's own arguments, which passed the gate,
        // to the next layer's entry point.
        let (result, fd) =
            unsafe { export::call_down_fd(down, p_fd, || next(device, p_info, p_fd)) };
        if result == vk::Result::SUCCESS && judged.handle_type == SYNC_FD {
            // A sync-file export acts as a reset of the fence's payload.
            let unsignaled = crate::state::FenceSignal::UnsignaledSinceSyncFdExport;
            s.fences.set_signal(judged.object.fence, unsignaled);
            // A copy-transference export acts as a reset: a temporary import is restored.
            s.fences.reset(judged.object.fence);
        }
        if result == vk::Result::SUCCESS && judged.handle_type != SYNC_FD {
            s.fences.payload_escaped(judged.object.fence);
        }
        if let (Some(fd), OPAQUE_FD) = (fd, judged.handle_type) {
            remember_export(s, judged.object, fd);
        }
        Some(result)
    }
}

const OPAQUE_FD: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();

/// An opaque fd of `fence`, held with its device's identity, for its imports to be checked
/// against (`features::import_matching::state::fence_exports`).
#[inline(never)]
fn remember_export(state: &DeviceState, fence: &FenceRecord, fd: c_int) {
    let origin = FenceOrigin {
        device: fence.device,
        fence: fence.fence,
        devices: state.physical_devices.set(),
        driver_uuid: state.driver_uuid,
        exportable: fence.facts.created_export_types(),
    };
    fence_exports::remember(origin, fd);
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_fence_fd_khr(
    device: vk::Device,
    p_get_fd_info: *const Info,
    p_fd: *mut c_int,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::GetFenceFd);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetFenceFd>(device, (p_get_fd_info, p_fd)) }
}
