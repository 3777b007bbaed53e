//! `vkImportFenceFdKHR`: the descriptor. Its rules are `rules::import::import_fence_fd`; the
//! export an opaque fd came from is `features::import_matching::state::fence_exports`'. After a
//! successful import the fence is marked imported (`state::fences`).

use crate::boundary::Down;
use crate::features::fd_ownership::hooks::{self as fd_ownership, consumed, report_imported_twice};
use crate::features::fd_ownership::rules::Reimport;
use crate::features::fd_ownership::state::ImportKind;
use crate::features::import_matching::state::fence_exports::{self, FenceOrigin};
use crate::finding::{ObjectRef, Outcome};
use crate::handle_kinds::Fence;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::ExportedObject;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::import::fence_in_flight;
use crate::rules::import::import_fence_fd::{self as rules, ImportArguments, ImportFenceFdRules};
use crate::rules::import::import_semaphore_fd::Importer;
use crate::state::{DeviceState, FenceRecord, TrackedObject};
use crate::vuid;
use ash::vk;

pub struct ImportFenceFd;

type Info = vk::ImportFenceFdInfoKHR<'static>;

const OPAQUE_FD: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw();

/// The info's flags and fd, and the export an opaque fd came from (one the layer holds).
///
/// # Safety
/// `p_info` was read as a valid `VkImportFenceFdInfoKHR` (the pipeline's gate).
unsafe fn arguments(p_info: *const Info) -> (ImportArguments, Option<FenceOrigin>) {
    // SAFETY: this function's contract.
    let Some(info) = (unsafe { raw::read_out(p_info) }) else {
        return (ImportArguments { flags: 0, fd: -1 }, None);
    };
    let args = ImportArguments {
        flags: info.flags.as_raw(),
        fd: info.fd,
    };
    let exporter = if info.handle_type.as_raw() == OPAQUE_FD {
        fence_exports::origin_of(info.fd)
    } else {
        None
    };
    (args, exporter)
}

/// This import, of the fd an earlier import took, into `object` (described as `described`).
fn reimport(described: String, object: u64) -> Reimport {
    Reimport {
        command: rules::COMMAND.name,
        field: "pImportFenceFdInfo->fd",
        object: Some((
            ObjectRef {
                ty: vk::ObjectType::FENCE,
                handle: object,
            },
            described,
        )),
    }
}

impl ExportEntry for ImportFenceFd {
    type Args = (*const Info,);
    type Own = ImportFenceFdRules;
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
        ImportFenceFdRules::NONE.with(
            ImportFenceFdRules::IN_FLIGHT,
            super::fence_in_flight(state, fence),
        )
    }

    fn describe_history(
        _: &DeviceState,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        if broken.has(ImportFenceFdRules::IN_FLIGHT) {
            outcome.push(fence_in_flight::finding(
                Self::RULES.name,
                vuid::IMPORT_FENCE_FD_FENCE_01463,
                &Self::RULES.field(Fence::MEMBER),
                fence,
            ));
        }
    }

    fn evaluate_arguments(
        state: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        _: &FenceRecord,
    ) -> Self::Own {
        // SAFETY: called only after the gate read the info as valid.
        let (args, exporter) = unsafe { arguments(p_info) };
        let importer = Importer {
            device_uuid: state.device_uuid,
            driver_uuid: state.driver_uuid,
        };
        rules::evaluate_arguments(info, &args, &importer, exporter.as_ref())
            .with(ImportFenceFdRules::CONSUMED_FD, consumed(args.fd).is_some())
    }

    fn describe_arguments(
        state: &DeviceState,
        &(p_info,): &Self::Args,
        info: &InfoFields,
        fence: &FenceRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        // SAFETY: as in `evaluate_arguments`.
        let (args, exporter) = unsafe { arguments(p_info) };
        rules::describe_arguments(info, &args, fence, exporter.as_ref(), broken, outcome);
        if broken.has(ImportFenceFdRules::CONSUMED_FD) {
            let at = reimport(Fence::describe(fence), fence.fence);
            report_imported_twice(state, &at, args.fd, outcome);
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info,): Self::Args,
        judged: &Judged<'_, Fence>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.import_fence_fd?;
        // SAFETY: the info passed the gate (read as valid).
        let fd = unsafe { raw::read_out(p_info) }.map_or(-1, |i| i.fd);
        let held = fd_ownership::before_import(fd);
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info) });
        if result == vk::Result::SUCCESS {
            let kind = ImportKind::Fence;
            fd_ownership::after_import(s, fd, held, kind, judged.object.fence);
            // SAFETY: the info passed the gate (read as valid).
            let flags = unsafe { raw::read_out(p_info) }.map(|i| i.flags.as_raw());
            super::fence_imported(s, judged.object.fence, judged.handle_type, flags);
        }
        Some(result)
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn import_fence_fd_khr(
    device: vk::Device,
    p_import_fence_fd_info: *const Info,
) -> vk::Result {
    sync_sharing_calls::count(SyncSharingCommand::ImportFenceFd);
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<ImportFenceFd>(device, (p_import_fence_fd_info,)) }
}
