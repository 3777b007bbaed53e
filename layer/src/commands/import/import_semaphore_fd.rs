//! `vkImportSemaphoreFdKHR`: the descriptor. Its rules are `rules::import::import_semaphore_fd`;
//! the export an opaque fd came from is `features::import_matching::state::semaphore_exports`'.
//! After a successful import the semaphore is marked imported (`state::semaphores`).

use crate::boundary::{self, Down};
use crate::features::cross_process::rules as shared_rules;
use crate::features::cross_process::state::{self as shared_exports, record::Kind};
use crate::features::fd_ownership::hooks::{self as fd_ownership, consumed, report_imported_twice};
use crate::features::fd_ownership::rules::Reimport;
use crate::features::fd_ownership::state::ImportKind;
use crate::features::import_matching::hooks::warn_kcmp_refused;
use crate::features::import_matching::rules::open_file::Refused;
use crate::features::import_matching::state::semaphore_exports::{self, SemaphoreOrigin};
use crate::finding::{ObjectRef, Outcome};
use crate::handle_kinds::Semaphore;
use crate::os::payload::{self, Identity};
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::pipeline::policy::report_only;
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::ExportedObject;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::import_semaphore_fd::{
    self as rules, ImportArguments, ImportSemaphoreFdRules, Importer,
};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;

pub struct ImportSemaphoreFd;

type Info = vk::ImportSemaphoreFdInfoKHR<'static>;

const OPAQUE_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();

/// The info's flags and fd, and the export the fd came from (an opaque fd the layer holds, or,
/// with a shared directory, one a process of the run recorded there).
///
/// # Safety
/// `p_info` was read as a valid `VkImportSemaphoreFdInfoKHR` (the pipeline's gate).
unsafe fn arguments(
    state: &DeviceState,
    p_info: *const Info,
) -> (ImportArguments, Option<SemaphoreOrigin>) {
    // SAFETY: this function's contract.
    let info = unsafe { raw::read_out(p_info) };
    let Some(info) = info else {
        return (ImportArguments { flags: 0, fd: -1 }, None);
    };
    let args = ImportArguments {
        flags: info.flags.as_raw(),
        fd: info.fd,
    };
    let exporter = if info.handle_type.as_raw() == OPAQUE_FD {
        semaphore_exports::origin_of(info.fd).or_else(|| shared_origin(state, info.fd))
    } else {
        None
    };
    (args, exporter)
}

/// The semaphore export of the payload of `fd` a process of the run (another, or this one in an
/// export the layer no longer holds) recorded in the shared directory, if any; the directory's
/// warnings reported. A payload with a file of its own is found by that file's identity; one
/// whose file is shared with other payloads (a driver's device file) by its open file
/// description, with `kcmp` against the exporting process's descriptor of it, as memory's.
#[cold]
#[inline(never)]
fn shared_origin(state: &DeviceState, fd: i32) -> Option<SemaphoreOrigin> {
    if !shared_exports::enabled() {
        return None;
    }
    let command = rules::COMMAND.name;
    let found = match payload::identity(fd) {
        Some(Identity::Payload(payload)) => shared_exports::find_semaphore(payload),
        Some(Identity::OpenFile(file)) => {
            match shared_exports::find_open_semaphore((file.dev, file.ino), fd) {
                Ok(found) => found,
                Err(errno) => {
                    warn_kcmp_refused(state, command, errno, Refused::AcrossProcesses);
                    None
                }
            }
        }
        None => None,
    };
    let warnings = shared_exports::take_warnings();
    if !warnings.is_empty() {
        let outcome = boundary::contain(command, || shared_rules::ignored(command, warnings));
        report_only(state, command, &outcome);
    }
    let export = found?;
    let Kind::Semaphore {
        timeline,
        create_flags,
    } = export.kind
    else {
        return None;
    };
    Some(SemaphoreOrigin {
        device: export.origin.device,
        semaphore: export.origin.memory,
        timeline,
        create_flags: vk::SemaphoreCreateFlags::from_raw(create_flags),
        device_uuid: export.origin.device_uuid,
        driver_uuid: export.origin.driver_uuid,
        process: export.origin.exporter,
    })
}

fn importer(state: &DeviceState) -> Importer {
    Importer {
        device_uuid: state.device_uuid,
        driver_uuid: state.driver_uuid,
    }
}

/// This import, of the fd an earlier import took, into `object` (described as `described`).
fn reimport(described: String, object: u64) -> Reimport {
    Reimport {
        command: rules::COMMAND.name,
        field: "pImportSemaphoreFdInfo->fd",
        object: Some((
            ObjectRef {
                ty: vk::ObjectType::SEMAPHORE,
                handle: object,
            },
            described,
        )),
    }
}

impl ExportEntry for ImportSemaphoreFd {
    type Args = (*const Info,);
    type Own = ImportSemaphoreFdRules;
    type Object = Semaphore;
    const RULES: &'static ExportCommand<Self::Own, Semaphore> = &rules::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info,): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| {
                (i.p_next, i.semaphore, i.handle_type)
            })
        };
        (info, false)
    }

    fn evaluate_arguments(
        state: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        semaphore: &SemaphoreRecord,
    ) -> Self::Own {
        // SAFETY: called only after the gate read the info as valid.
        let (args, exporter) = unsafe { arguments(state, p_info) };
        rules::evaluate_arguments(info, &args, semaphore, &importer(state), exporter.as_ref()).with(
            ImportSemaphoreFdRules::CONSUMED_FD,
            consumed(args.fd).is_some(),
        )
    }

    fn describe_arguments(
        state: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        // SAFETY: as in `evaluate_arguments`.
        let (args, exporter) = unsafe { arguments(state, p_info) };
        rules::describe_arguments(info, &args, semaphore, exporter.as_ref(), broken, outcome);
        if broken.has(ImportSemaphoreFdRules::CONSUMED_FD) {
            let at = reimport(Semaphore::describe(semaphore), semaphore.semaphore);
            report_imported_twice(state, &at, args.fd, outcome);
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info,): Self::Args,
        judged: &Judged<'_, Semaphore>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.import_semaphore_fd?;
        // SAFETY: the info passed the gate (read as valid).
        let fd = unsafe { raw::read_out(p_info) }.map_or(-1, |i| i.fd);
        let held = fd_ownership::before_import(fd);
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info) });
        if result == vk::Result::SUCCESS {
            let kind = ImportKind::Semaphore;
            fd_ownership::after_import(s, fd, held, kind, judged.object.semaphore);
            // SAFETY: the info passed the gate (read as valid).
            let flags = unsafe { raw::read_out(p_info) }.map(|i| i.flags.as_raw());
            let (semaphore, handle_type) = (judged.object.semaphore, judged.handle_type);
            super::semaphore_imported(s, semaphore, handle_type, flags);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_semaphore_fd_khr(
    device: vk::Device,
    p_import_semaphore_fd_info: *const Info,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::ImportSemaphoreFd);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<ImportSemaphoreFd>(device, (p_import_semaphore_fd_info,)) }
}
