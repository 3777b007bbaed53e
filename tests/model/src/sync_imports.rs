//! The import commands of the sync model: `vkImportSemaphoreFdKHR`,
//! `vkImportSemaphoreWin32HandleKHR`, `vkImportSemaphoreZirconHandleFUCHSIA`,
//! `vkImportFenceFdKHR` and `vkImportFenceWin32HandleKHR`, judged from their members and, for
//! the rules about the exporter, from the export the layer matched the handle to
//! ([`ImportedHandle`]). Written from the spec's text and the catalog's notes, as `sync.rs`.
//!
//! As for an export, a bad semaphore or fence blocks the call and hides every rule of the
//! structure's members: only the structural IDs are given then.

use super::ids::*;
use super::sync::{
    fence_type, handle_type_value, semaphore_type, Exporter, ImportedHandle, SyncCommand,
    SyncDevice, SyncFacts, SyncImportInfo, IMPORT_TEMPORARY,
};
use super::Expected;

/// The member rules of an import into `facts` (`None`: a bad object, which hides them).
pub(crate) fn import_rules(
    command: SyncCommand,
    device: &SyncDevice,
    facts: Option<&SyncFacts>,
    info: &SyncImportInfo,
    e: &mut Expected,
) {
    let Some(facts) = facts else {
        return;
    };
    handle_type_value(command, device, info.handle_type, e);
    // -flags-parameter: "flags must be a valid combination of Vk{Semaphore,Fence}ImportFlagBits
    // values" (TEMPORARY alone is defined).
    if info.flags & !IMPORT_TEMPORARY != 0 {
        e.push(flags_parameter(command));
    }
    match command {
        SyncCommand::ImportSemaphoreFd => semaphore_fd(facts, info, e),
        SyncCommand::ImportSemaphoreWin32Handle => semaphore_win32(facts, info, e),
        SyncCommand::ImportSemaphoreZirconHandle => semaphore_zircon(facts, info, e),
        SyncCommand::ImportFenceFd => fence_fd(info, e),
        SyncCommand::ImportFenceWin32Handle => fence_win32(info, e),
        export => unreachable!("{export:?} is an export"),
    }
}

fn flags_parameter(command: SyncCommand) -> &'static str {
    match command {
        SyncCommand::ImportSemaphoreFd => SEM_IMPORT_FD_FLAGS_PARAM,
        SyncCommand::ImportSemaphoreWin32Handle => SEM_IMPORT_WIN32_FLAGS_PARAM,
        SyncCommand::ImportSemaphoreZirconHandle => SEM_IMPORT_ZIRCON_FLAGS_PARAM,
        SyncCommand::ImportFenceFd => FENCE_IMPORT_FD_FLAGS_PARAM,
        SyncCommand::ImportFenceWin32Handle => FENCE_IMPORT_WIN32_FLAGS_PARAM,
        export => unreachable!("{export:?} is an export"),
    }
}

fn one_of(value: u32, set: u32) -> bool {
    value.is_power_of_two() && value & !set == 0
}

fn temporary(info: &SyncImportInfo) -> bool {
    info.flags & IMPORT_TEMPORARY != 0
}

fn semaphore_fd(facts: &SyncFacts, info: &SyncImportInfo, e: &mut Expected) {
    use semaphore_type::{FD, OPAQUE_FD, SYNC_FD};
    let t = info.handle_type;
    // 01143: "a value included in the Handle Types Supported by VkImportSemaphoreFdInfoKHR
    // table": OPAQUE_FD and SYNC_FD.
    if !one_of(t, FD) {
        e.push(SEM_IMPORT_FD_HANDLE_TYPE_01143);
    }
    // 07307: "If handleType refers to a handle type with copy payload transference semantics,
    // flags must contain VK_SEMAPHORE_IMPORT_TEMPORARY_BIT".
    if t == SYNC_FD && !temporary(info) {
        e.push(SEM_IMPORT_FD_HANDLE_TYPE_07307);
    }
    let exporter = info.handle.exporter;
    if t == OPAQUE_FD {
        if let Some(x) = exporter {
            against_exporter(
                facts,
                &x,
                [
                    SEM_IMPORT_FD_HANDLE_TYPE_03263,
                    SEM_IMPORT_FD_HANDLE_TYPE_03264,
                ],
                e,
            );
            // 01544: "fd must obey any requirements listed for handleType in external semaphore
            // handle types compatibility": an opaque fd of the same deviceUUID and driverUUID.
            if x.same_device_and_driver == Some(false) {
                e.push(SEM_IMPORT_FD_FD_01544);
            }
        }
    }
    // 03323: "If flags contains VK_SEMAPHORE_IMPORT_TEMPORARY_BIT, the semaphoreType of the
    // semaphore from which fd was exported must not be VK_SEMAPHORE_TYPE_TIMELINE". Where the
    // export was not matched, an OPAQUE_FD imported into a timeline semaphore came from one
    // (03264): the importer's type decides (the catalog's note).
    if temporary(info) && from_timeline(facts, exporter, t == OPAQUE_FD) {
        e.block(SEM_IMPORT_FD_FLAGS_03323);
    }
    another_kind(t == OPAQUE_FD, &info.handle, e);
}

fn semaphore_win32(facts: &SyncFacts, info: &SyncImportInfo, e: &mut Expected) {
    use semaphore_type::{D3D12_FENCE, OPAQUE_WIN32, OPAQUE_WIN32_KMT, WIN32};
    let t = info.handle_type;
    // 01140: "a value included in the Handle Types Supported by
    // VkImportSemaphoreWin32HandleInfoKHR table" (noautovalidity: any other value breaks it).
    if !one_of(t, WIN32) {
        e.push(SEM_IMPORT_WIN32_HANDLE_TYPE_01140);
    }
    win32_names(
        info,
        OPAQUE_WIN32 | D3D12_FENCE,
        [
            SEM_IMPORT_WIN32_HANDLE_01469,
            SEM_IMPORT_WIN32_HANDLE_TYPE_01466,
        ],
        e,
    );
    let opaque = t == OPAQUE_WIN32 || t == OPAQUE_WIN32_KMT;
    let exporter = info.handle.exporter;
    if let Some(x) = exporter.filter(|_| opaque) {
        against_exporter(
            facts,
            &x,
            [
                SEM_IMPORT_WIN32_HANDLE_TYPE_03261,
                SEM_IMPORT_WIN32_HANDLE_TYPE_03262,
            ],
            e,
        );
    }
    // 03322, as fd's 03323: where the export was not matched, an OPAQUE_WIN32 or
    // OPAQUE_WIN32_KMT payload in a timeline semaphore came from one (03262); a D3D12 fence
    // comes from no Vulkan semaphore.
    if temporary(info) && from_timeline(facts, exporter, opaque) {
        e.block(SEM_IMPORT_WIN32_FLAGS_03322);
    }
}

fn semaphore_zircon(facts: &SyncFacts, info: &SyncImportInfo, e: &mut Expected) {
    // 04765: "a value included in the Handle Types Supported by
    // VkImportSemaphoreZirconHandleInfoFUCHSIA table": ZIRCON_EVENT.
    if info.handle_type != semaphore_type::ZIRCON_EVENT {
        e.push(SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765);
    }
    // 04768: "The VkSemaphoreTypeCreateInfo::semaphoreType field must not be
    // VK_SEMAPHORE_TYPE_TIMELINE" (of the semaphore imported into).
    if facts.known && facts.timeline {
        e.push(SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768);
    }
}

fn fence_fd(info: &SyncImportInfo, e: &mut Expected) {
    use fence_type::{FD, OPAQUE_FD, SYNC_FD};
    let t = info.handle_type;
    // 01464: OPAQUE_FD or SYNC_FD.
    if !one_of(t, FD) {
        e.push(FENCE_IMPORT_FD_HANDLE_TYPE_01464);
    }
    // 07306: copy transference (SYNC_FD) needs VK_FENCE_IMPORT_TEMPORARY_BIT.
    if t == SYNC_FD && !temporary(info) {
        e.push(FENCE_IMPORT_FD_HANDLE_TYPE_07306);
    }
    // 01541: an opaque fd of another deviceUUID or driverUUID (SYNC_FD has no requirement in
    // the table).
    let exporter = info.handle.exporter.filter(|_| t == OPAQUE_FD);
    if exporter.is_some_and(|x| x.same_device_and_driver == Some(false)) {
        e.push(FENCE_IMPORT_FD_FD_01541);
    }
    another_kind(t == OPAQUE_FD, &info.handle, e);
}

fn fence_win32(info: &SyncImportInfo, e: &mut Expected) {
    use fence_type::{OPAQUE_WIN32, WIN32};
    // 01457: OPAQUE_WIN32 or OPAQUE_WIN32_KMT (no -parameter ID: any other value breaks it).
    if !one_of(info.handle_type, WIN32) {
        e.push(FENCE_IMPORT_WIN32_HANDLE_TYPE_01457);
    }
    win32_names(
        info,
        OPAQUE_WIN32,
        [
            FENCE_IMPORT_WIN32_HANDLE_01462,
            FENCE_IMPORT_WIN32_HANDLE_TYPE_01459,
        ],
        e,
    );
}

/// "If handle is not NULL, name must be NULL" (`both`); "If handleType is not one of
/// `by_name`, name must be NULL" (`name_type`). What a non-NULL handle or name refers to is
/// the OS's to say.
fn win32_names(
    info: &SyncImportInfo,
    by_name: u32,
    [both, name_type]: [&'static str; 2],
    e: &mut Expected,
) {
    let h = &info.handle;
    if h.win32_handle && h.win32_name {
        e.push(both);
    }
    if h.win32_name && !one_of(info.handle_type, by_name) {
        e.push(name_type);
    }
}

/// "the VkSemaphoreCreateInfo::flags field must match that of the semaphore from which [the
/// handle] was exported" (`flags_id`), and "the VkSemaphoreTypeCreateInfo::semaphoreType field
/// must match" (`type_id`, which blocks: the payload cannot be this semaphore's). Judged where
/// the layer read the importing semaphore's create info.
fn against_exporter(
    facts: &SyncFacts,
    exporter: &Exporter,
    [flags_id, type_id]: [&'static str; 2],
    e: &mut Expected,
) {
    if !facts.known {
        return;
    }
    if exporter.create_flags != facts.create_flags {
        e.push(flags_id);
    }
    if exporter.timeline != facts.timeline {
        e.block(type_id);
    }
}

/// Whether the imported payload certainly comes from a timeline semaphore: its matched
/// exporter is one, or, unmatched, `by_importer` (the handle type must come from a semaphore
/// of the importer's type) and the importer is one.
fn from_timeline(facts: &SyncFacts, exporter: Option<Exporter>, by_importer: bool) -> bool {
    match exporter {
        Some(x) => x.timeline,
        None => by_importer && facts.known && facts.timeline,
    }
}

/// `EXPORTCHECK-fd-of-another-kind`: an opaque fd no export of the object's kind matched, that
/// the layer knows as another kind's export. Blocks: the driver would take another object's
/// payload.
fn another_kind(opaque: bool, handle: &ImportedHandle, e: &mut Expected) {
    if opaque && handle.exporter.is_none() && handle.another_kind {
        e.block(FD_OF_ANOTHER_KIND);
    }
}
