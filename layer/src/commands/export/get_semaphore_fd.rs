//! `vkGetSemaphoreFdKHR`: the descriptor. Its rules are `rules::export::get_semaphore_fd`.
//!
//! An opaque fd it returns is held with the semaphore it came from, for imports to be checked
//! against (`features::import_matching::state::semaphore_exports`), and, with a shared
//! directory, recorded there for the imports of other processes of the run
//! (`features::cross_process::state`): by its payload's own file (a memfd), or, where the file
//! is shared with other payloads (a driver's device file, as NVIDIA's `/dev/nvidiactl`), by the
//! layer's held descriptor of its open file description, retired before it is let go.
//!
//! The fd it returns is not held to a driver contract yet: a `SYNC_FD` export may return -1 (a
//! sync file already signaled), so memory's fd contract (`evaluate_fd`) does not apply as it is.

use crate::boundary::{self, Down};
use crate::commands::sync_support::export_from_import_refused;
use crate::features::cross_process::rules as shared_rules;
use crate::features::cross_process::state::{self as shared_exports, record::Kind};
use crate::features::import_matching::state::opaque_exports::ExportOrigin;
use crate::features::import_matching::state::semaphore_exports::{self, SemaphoreOrigin};
use crate::finding::Outcome;
use crate::handle_kinds::Semaphore;
use crate::os::payload::{self, Identity};
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::pipeline::policy::report_only;
use crate::raw::StructArg;
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::get_semaphore_fd;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::{DeviceState, SemaphoreRecord};
use ash::vk;
use std::ffi::c_int;

pub struct GetSemaphoreFd;

type Info = vk::SemaphoreGetFdInfoKHR<'static>;

impl ExportEntry for GetSemaphoreFd {
    type Args = (*const Info, *mut c_int);
    type Own = get_semaphore_fd::GetSemaphoreFdRules;
    type Object = Semaphore;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own, Semaphore> = &get_semaphore_fd::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_fd): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| {
                (i.p_next, i.semaphore, i.handle_type)
            })
        };
        (info, p_fd.is_null())
    }

    #[inline(always)]
    fn evaluate_history(
        state: &DeviceState,
        info: &InfoFields,
        semaphore: &SemaphoreRecord,
    ) -> Self::Own {
        let f = &semaphore.facts;
        let imported = f.payload.current_import().filter(|_| f.known);
        let refused =
            export_from_import_refused::<Semaphore>(state, info.handle_type, f.timeline, imported);
        let still_unsubmitted = |wait| state.semaphores.still_unsubmitted(wait);
        let depends = get_semaphore_fd::depends_on_unsubmitted(
            info.handle_type,
            semaphore,
            still_unsubmitted,
        );
        Self::Own::NONE
            .with(Self::Own::IMPORTED_PAYLOAD_NOT_EXPORTABLE, refused)
            .with(Self::Own::SYNC_FD_DEPENDS_ON_UNSUBMITTED, depends)
    }

    fn describe_history(
        state: &DeviceState,
        semaphore: &SemaphoreRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        if !broken.has(Self::Own::SYNC_FD_DEPENDS_ON_UNSUBMITTED) {
            return;
        }
        let awaited = semaphore.facts.awaits_unsubmitted;
        let record =
            awaited.and_then(|w| state.semaphores.get(w.semaphore.get(), semaphore.device));
        if let Some(awaited) = record {
            outcome.push(get_semaphore_fd::depends_on_unsubmitted_finding(
                semaphore, &awaited,
            ));
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_fd): Self::Args,
        judged: &Judged<'_, Semaphore>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_semaphore_fd?;
        // SAFETY: pFd is not NULL (the gate); the app's own arguments, which passed the gate,
        // to the next layer's entry point.
        let (result, fd) =
            unsafe { export::call_down_fd(down, p_fd, || next(device, p_info, p_fd)) };
        if result == vk::Result::SUCCESS && judged.handle_type == SYNC_FD {
            s.semaphores.exported_sync_fd(judged.object.semaphore);
        }
        if result == vk::Result::SUCCESS && judged.handle_type != SYNC_FD {
            s.semaphores.payload_escaped(judged.object.semaphore);
        }
        if let (Some(fd), OPAQUE_FD) = (fd, judged.handle_type) {
            remember_export(s, judged.object, fd);
        }
        Some(result)
    }
}

const OPAQUE_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();

/// An opaque fd of `semaphore`, held with what it was created with, for its imports to be
/// checked against (`features::import_matching::state::semaphore_exports`).
#[inline(never)]
fn remember_export(state: &DeviceState, semaphore: &SemaphoreRecord, fd: c_int) {
    let origin = SemaphoreOrigin {
        device: semaphore.device,
        semaphore: semaphore.semaphore,
        timeline: semaphore.facts.timeline,
        create_flags: semaphore.facts.create_flags,
        driver_uuid: state.driver_uuid,
        devices: state.physical_devices.set(),
        exportable: semaphore.facts.created_export_types(),
        process: None,
    };
    if semaphore.facts.known {
        semaphore_exports::remember(origin, fd);
        if shared_exports::enabled() {
            publish_export(state, semaphore, fd);
        }
    }
}

/// An opaque fd of `semaphore` recorded in the shared directory, before it reaches the app: by
/// its payload's own file, or, for a file shared with other payloads (a device file), by the
/// layer's descriptor of its open file description, retired before that descriptor is let go
/// (without one it is not recorded). A warning if the process's file cannot be written.
#[cold]
#[inline(never)]
fn publish_export(state: &DeviceState, semaphore: &SemaphoreRecord, fd: c_int) {
    let (payload, held) = match payload::identity(fd) {
        Some(Identity::Payload(payload)) => (payload, None),
        Some(Identity::OpenFile(file)) => {
            let (device, handle) = (semaphore.device, semaphore.semaphore);
            let retire = shared_exports::retire;
            match semaphore_exports::record_shared(device, handle, fd, retire) {
                Some(held) => (file, Some(held)),
                None => return,
            }
        }
        None => return,
    };
    let kind = Kind::Semaphore {
        timeline: semaphore.facts.timeline,
        create_flags: semaphore.facts.create_flags.as_raw(),
        exportable: semaphore.facts.created_export_types(),
    };
    let origin = || ExportOrigin {
        device: semaphore.device,
        memory: semaphore.semaphore,
        size: 0,
        memory_type_index: 0,
        created_here: true,
        dedicated_to: None,
        device_uuid: state.device_uuid,
        driver_uuid: state.driver_uuid,
        physical_devices: state.physical_devices,
        device_mask: None,
        exporter: None,
    };
    let published = shared_exports::publish_semaphore(
        (semaphore.device, semaphore.semaphore),
        payload,
        held,
        kind,
        &origin,
    );
    if let Some(warning) = published {
        let command = "vkGetSemaphoreFdKHR";
        let outcome = boundary::contain(command, || shared_rules::ignored(command, vec![warning]));
        report_only(state, command, &outcome);
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_semaphore_fd_khr(
    device: vk::Device,
    p_get_fd_info: *const Info,
    p_fd: *mut c_int,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::GetSemaphoreFd);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetSemaphoreFd>(device, (p_get_fd_info, p_fd)) }
}
