//! `vkImportSemaphoreZirconHandleFUCHSIA`: the descriptor. Its rules are
//! `rules::import::import_semaphore_zircon`. After a successful import the semaphore is marked
//! imported (`commands::import::semaphore_imported`).

use super::sync_import::{self, SyncImport};
use crate::finding::Outcome;
use crate::handle_kinds::Semaphore;
use crate::report::sync_sharing_calls::SyncSharingCommand;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::import_semaphore_zircon::{self as rules, ImportSemaphoreZirconRules};
use crate::state::{DeviceState, SemaphoreRecord};
use crate::vuid;
use ash::vk;

pub struct ImportSemaphoreZircon;

type Info = vk::ImportSemaphoreZirconHandleInfoFUCHSIA<'static>;

impl SyncImport for ImportSemaphoreZircon {
    type Info = Info;
    type Own = ImportSemaphoreZirconRules;
    /// The info's flags.
    type Arguments = u32;
    const RULES: &'static ExportCommand<Self::Own, Semaphore> = &rules::COMMAND;
    const COUNTED: SyncSharingCommand = SyncSharingCommand::ImportSemaphoreZirconHandle;
    const IN_FLIGHT: Option<(Self::Own, &'static str)> = Some((
        ImportSemaphoreZirconRules::IN_FLIGHT,
        vuid::IMPORT_SEMAPHORE_ZIRCON_SEMAPHORE_04764,
    ));

    fn arguments(_: &DeviceState, info: &Info, _: &InfoFields) -> u32 {
        info.flags.as_raw()
    }

    fn evaluate(_: &DeviceState, _: &InfoFields, &flags: &u32, _: &SemaphoreRecord) -> Self::Own {
        rules::evaluate_arguments(flags)
    }

    fn describe(
        _: &InfoFields,
        &flags: &u32,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        rules::describe_arguments(flags, semaphore, broken, outcome);
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_semaphore_zircon_handle_fuchsia(
    device: vk::Device,
    p_import_semaphore_zircon_handle_info: *const Info,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe {
        sync_import::run::<ImportSemaphoreZircon>(device, p_import_semaphore_zircon_handle_info)
    }
}
