//! `vkGetFenceWin32HandleKHR`: the descriptor. Its rules are
//! `rules::export::get_fence_win32_handle`; after a success the fence's record remembers an NT
//! handle type exported from its created payload (`state::fences`), for 01449.
//!
//! The handle it returns is not held to a driver contract yet (memory's `Returned` contracts
//! name memory commands).

use crate::boundary::Down;
use crate::commands::sync_support::export_from_import_refused;
use crate::handle_kinds::Fence;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::StructArg;
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::get_fence_win32_handle;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::{DeviceState, FenceRecord};
use ash::vk;

pub struct GetFenceWin32Handle;

type Info = vk::FenceGetWin32HandleInfoKHR<'static>;

impl ExportEntry for GetFenceWin32Handle {
    type Args = (*const Info, *mut vk::HANDLE);
    type Own = get_fence_win32_handle::GetFenceWin32HandleRules;
    type Object = Fence;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own, Fence> = &get_fence_win32_handle::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_handle): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.fence, i.handle_type))
        };
        (info, p_handle.is_null())
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
        (p_info, p_handle): Self::Args,
        judged: &Judged<'_, Fence>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_fence_win32_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info, p_handle) });
        let fence = judged.object;
        if result == vk::Result::SUCCESS {
            // Every type the command exports has reference transference: the payload is shared.
            s.fences.payload_escaped(fence.fence);
        }
        if result == vk::Result::SUCCESS
            && get_fence_win32_handle::is_counted_nt_export(fence, judged.handle_type)
        {
            s.fences
                .nt_exported(fence.fence, get_fence_win32_handle::NT_HANDLE);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_fence_win32_handle_khr(
    device: vk::Device,
    p_info: *const Info,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::GetFenceWin32Handle);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetFenceWin32Handle>(device, (p_info, p_handle)) }
}
