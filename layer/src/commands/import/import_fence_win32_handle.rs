//! `vkImportFenceWin32HandleKHR`: the descriptor. Its rules are
//! `rules::import::import_fence_win32_handle`. After a successful import the fence is marked
//! imported (`state::fences`).

use crate::boundary::Down;
use crate::finding::Outcome;
use crate::handle_kinds::Fence;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::fence_in_flight;
use crate::rules::import::import_fence_win32_handle::{
    self as rules, ImportArguments, ImportFenceWin32HandleRules,
};
use crate::state::{DeviceState, FenceRecord, TrackedObject};
use crate::vuid;
use ash::vk;

pub struct ImportFenceWin32Handle;

type Info = vk::ImportFenceWin32HandleInfoKHR<'static>;

/// The info's flags, and whether its handle and name are NULL.
///
/// # Safety
/// `p_info` was read as a valid `VkImportFenceWin32HandleInfoKHR` (the pipeline's gate).
unsafe fn arguments(p_info: *const Info) -> ImportArguments {
    // SAFETY: this function's contract.
    let info = unsafe { raw::read_out(p_info) };
    info.map_or(
        ImportArguments {
            flags: 0,
            has_handle: false,
            has_name: false,
        },
        |i| ImportArguments {
            flags: i.flags.as_raw(),
            has_handle: i.handle != 0,
            has_name: !i.name.is_null(),
        },
    )
}

impl ExportEntry for ImportFenceWin32Handle {
    type Args = (*const Info,);
    type Own = ImportFenceWin32HandleRules;
    type Object = Fence;
    const RULES: &'static ExportCommand<Self::Own, Fence> = &rules::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info,): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.fence, i.handle_type))
        };
        (info, false)
    }

    fn evaluate_history(state: &DeviceState, _: &InfoFields, fence: &FenceRecord) -> Self::Own {
        ImportFenceWin32HandleRules::NONE.with(
            ImportFenceWin32HandleRules::IN_FLIGHT,
            super::fence_in_flight(state, fence),
        )
    }

    fn describe_history(
        _: &DeviceState,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        if broken.has(ImportFenceWin32HandleRules::IN_FLIGHT) {
            outcome.push(fence_in_flight::finding(
                Self::RULES.name,
                vuid::IMPORT_FENCE_WIN32_FENCE_04448,
                &Self::RULES.field(Fence::MEMBER),
                fence,
            ));
        }
    }

    fn evaluate_arguments(
        _: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        _: &FenceRecord,
    ) -> Self::Own {
        // SAFETY: called only after the gate read the info as valid.
        rules::evaluate_arguments(info, &unsafe { arguments(p_info) })
    }

    fn describe_arguments(
        _: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        // SAFETY: as in `evaluate_arguments`.
        let args = unsafe { arguments(p_info) };
        rules::describe_arguments(info, &args, fence, broken, outcome);
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info,): Self::Args,
        judged: &Judged<'_, Fence>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.import_fence_win32_handle?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info) });
        if result == vk::Result::SUCCESS {
            // SAFETY: the info passed the gate (read as valid).
            let flags = unsafe { raw::read_out(p_info) }.map(|i| i.flags.as_raw());
            super::fence_imported(s, judged.object.fence, judged.handle_type, flags);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_fence_win32_handle_khr(
    device: vk::Device,
    p_import_fence_win32_handle_info: *const Info,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::ImportFenceWin32Handle);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<ImportFenceWin32Handle>(device, (p_import_fence_win32_handle_info,)) }
}
