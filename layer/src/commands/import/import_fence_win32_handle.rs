//! `vkImportFenceWin32HandleKHR`: the descriptor. Its rules are
//! `rules::import::import_fence_win32_handle`. After a successful import the fence is marked
//! imported (`state::fences`).

use super::sync_import::{self, SyncImport};
use crate::finding::Outcome;
use crate::handle_kinds::Fence;
use crate::report::sync_sharing_calls::SyncSharingCommand;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::import_fence_win32_handle::{
    self as rules, ImportArguments, ImportFenceWin32HandleRules,
};
use crate::state::{DeviceState, FenceRecord};
use crate::vuid;
use ash::vk;

pub struct ImportFenceWin32Handle;

type Info = vk::ImportFenceWin32HandleInfoKHR<'static>;

impl SyncImport for ImportFenceWin32Handle {
    type Info = Info;
    type Own = ImportFenceWin32HandleRules;
    /// The info's flags, and whether its handle and name are NULL.
    type Arguments = ImportArguments;
    const RULES: &'static ExportCommand<Self::Own, Fence> = &rules::COMMAND;
    const COUNTED: SyncSharingCommand = SyncSharingCommand::ImportFenceWin32Handle;
    const IN_FLIGHT: Option<(Self::Own, &'static str)> = Some((
        ImportFenceWin32HandleRules::IN_FLIGHT,
        vuid::IMPORT_FENCE_WIN32_FENCE_04448,
    ));

    fn arguments(_: &DeviceState, info: &Info, _: &InfoFields) -> ImportArguments {
        ImportArguments {
            flags: info.flags.as_raw(),
            has_handle: info.handle != 0,
            has_name: !info.name.is_null(),
        }
    }

    fn evaluate(
        _: &DeviceState,
        info: &InfoFields,
        args: &ImportArguments,
        _: &FenceRecord,
    ) -> Self::Own {
        rules::evaluate_arguments(info, args)
    }

    fn describe(
        info: &InfoFields,
        args: &ImportArguments,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        rules::describe_arguments(info, args, fence, broken, outcome);
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_fence_win32_handle_khr(
    device: vk::Device,
    p_import_fence_win32_handle_info: *const Info,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { sync_import::run::<ImportFenceWin32Handle>(device, p_import_fence_win32_handle_info) }
}
