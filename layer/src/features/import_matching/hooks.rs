//! Fd imports checked against what the layer saw in this process: opaque-fd exports
//! (`features::import_matching::state::opaque_exports`, `features::import_matching::rules::import_match`) and fds earlier imports consumed
//! (`features::fd_ownership::state`, `features::fd_ownership::rules`); what `vkAllocateMemory`, `vkGetMemoryFdKHR`,
//! `vkFreeMemory` and `vkDestroyDevice` record and forget.

use crate::args::HandleImports;
use crate::args::{ChainRead, FdImport};
use crate::boundary;
use crate::features::cross_process::rules as shared_rules;
use crate::features::cross_process::state as shared_exports;
use crate::features::cross_process::state::record::Kind;
use crate::features::fd_ownership::rules as fd_ownership;
use crate::features::fd_ownership::state::{self as consumed_fds, ImportedInto};
use crate::features::import_matching::rules::import_match::{self, ImportedHandle, OpaqueImport};
use crate::features::import_matching::rules::open_file::{self, Refused};
use crate::features::import_matching::state::fence_exports::{self, FenceOrigin};
use crate::features::import_matching::state::kmt_exports;
use crate::features::import_matching::state::known_export::{ExportKind, KnownExport};
use crate::features::import_matching::state::opaque_exports::{self, DeviceMask, ExportOrigin};
use crate::features::import_matching::state::semaphore_exports::{self, SemaphoreOrigin};
use crate::finding::{ObjectRef, Outcome};
use crate::os;
use crate::os::payload::{self, Identity};
use crate::os::HeldFile;
use crate::pipeline::policy::report_only;
use crate::rules::export::get_memory_win32_handle::GLOBAL_SHARE_HANDLE_TYPES;
use crate::rules::import::another_kind::{self, Importing};
use crate::rules::import::import_fd_type;
use crate::state::driver_dma_bufs;
use crate::state::{AllocationFacts, DeviceState, MemoryRecord};
use crate::vuid;
use ash::vk;

const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
const DMA_BUF: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;

/// After `vkAllocateMemory` succeeded: the image or buffer of a dedicated allocation exportable
/// as an fd or a global share handle, and the device mask it names, for its exports to record.
#[inline]
pub fn after_allocate(
    state: &DeviceState,
    memory: u64,
    facts: &AllocationFacts,
    chain: &ChainRead,
) {
    let Some(export) = facts.export else {
        return;
    };
    if !export.intersects(OPAQUE_FD | DMA_BUF | GLOBAL_SHARE_HANDLE_TYPES) {
        return;
    }
    if chain.dedicated_to.is_some() || chain.device_mask.is_some() {
        state.memories.update_rare(memory, |rare| {
            rare.dedicated_to = chain.dedicated_to;
            rare.device_mask = chain.device_mask;
        });
    }
}

/// After a valid `vkGetMemoryFdKHR` of `handle_type` returned `fd` for `memory`.
#[inline(always)]
pub fn after_export(state: &DeviceState, memory: &MemoryRecord, handle_type: u32, fd: i32) {
    let held = if handle_type == OPAQUE_FD.as_raw() {
        remember_export(state, memory, fd)
    } else {
        None
    };
    if handle_type == DMA_BUF.as_raw() || shared_exports::enabled() {
        note_payload(state, memory, handle_type, fd, held);
    }
}

/// What an fd export's payload tells others: a `DMA_BUF` export whose fd is no dma_buf (a
/// driver defect: its imports as `DMA_BUF` are not the app's error), and, with a shared
/// directory, the export itself, recorded for the other processes of the run before the fd
/// reaches the app (and so any of them). An export whose file is shared with other payloads (a
/// device file) is recorded with the layer's descriptor of it (`held`), by which another
/// process tells it apart with `kcmp`; without one it is not recorded.
#[cold]
#[inline(never)]
fn note_payload(
    state: &DeviceState,
    memory: &MemoryRecord,
    handle_type: u32,
    fd: i32,
    held: Option<i32>,
) {
    let t = vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type);
    if t != OPAQUE_FD && t != DMA_BUF {
        return;
    }
    let Some(identity) = payload::identity(fd) else {
        return;
    };
    let (payload, open_file) = match identity {
        Identity::Payload(payload) => (payload, None),
        Identity::OpenFile(file) => match held {
            Some(held) => (file, Some(held)),
            None => return,
        },
    };
    if t == DMA_BUF && open_file.is_none() && payload::certainly_not_dma_buf(fd).is_some() {
        driver_dma_bufs::remember(payload);
    }
    if !shared_exports::enabled() {
        return;
    }
    let published = shared_exports::publish(
        (memory.device, memory.memory),
        payload,
        open_file,
        t,
        &|| origin(state, memory),
    );
    if let Some(warning) = published {
        let command = "vkGetMemoryFdKHR";
        let outcome = boundary::contain(command, || shared_rules::ignored(command, vec![warning]));
        report_only(state, command, &outcome);
    }
}

/// What the layer knows of the allocation `memory` as an export's origin.
fn origin(state: &DeviceState, memory: &MemoryRecord) -> ExportOrigin {
    let facts = memory.facts();
    let rare = state.memories.rare(memory);
    ExportOrigin {
        device: memory.device,
        memory: memory.memory,
        size: facts.size,
        memory_type_index: facts.memory_type_index,
        created_here: facts.import.is_none(),
        dedicated_to: rare.dedicated_to.filter(|_| facts.dedicated),
        device_uuid: state.device_uuid,
        driver_uuid: state.driver_uuid,
        physical_devices: state.physical_devices,
        device_mask: allocation_mask(state, rare.device_mask, facts.memory_type_index),
        exporter: None,
    }
}

/// The shared directory's part in the held exports: an export whose file is shared with other
/// payloads is recorded by its held descriptor's number, and retired before it goes.
pub const SHARED: opaque_exports::Shared = opaque_exports::Shared {
    recorded: &|fd| shared_exports::enabled() && payload::payload_id(fd).is_none(),
    retire: &shared_exports::retire,
};

/// An opaque-fd export of `memory`: the number of the layer's descriptor of its open file
/// description, if it holds one. Inlined: the common case is a lock and a `kcmp`
/// ([`opaque_exports::remember`]).
#[inline(always)]
fn remember_export(state: &DeviceState, memory: &MemoryRecord, fd: i32) -> Option<i32> {
    if let Some(errno) = os::kcmp_refused() {
        warn_kcmp_refused(state, "vkGetMemoryFdKHR", errno, Refused::InProcess);
        return None;
    }
    opaque_exports::remember(
        (memory.device, memory.memory),
        || origin(state, memory),
        fd,
        SHARED,
    )
}

/// After a valid `vkGetMemoryWin32HandleKHR` of a global share handle type returned `handle`
/// for `memory` (NT handles are not recorded: `features::import_matching::state::kmt_exports`).
/// Inlined: a repeated export, the common case, is a lock and a look
/// ([`kmt_exports::remember`]).
#[inline(always)]
pub fn after_global_share_export(
    state: &DeviceState,
    memory: &MemoryRecord,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: u64,
) {
    kmt_exports::remember(
        (memory.device, memory.memory),
        handle_type.as_raw(),
        handle,
        || origin(state, memory),
    );
}

/// Before `vkAllocateMemory` goes down: an import of a global share handle the layer saw
/// exported (its memory still live), checked against the export's allocation: the findings
/// added to the call's.
#[inline(never)]
pub fn check_global_share_import(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    handles: &HandleImports,
    call: &mut Outcome,
) {
    let Some(win32) = handles.win32 else {
        return;
    };
    let t = win32.handle_type;
    if !t.as_raw().is_power_of_two() || !GLOBAL_SHARE_HANDLE_TYPES.contains(t) || win32.name {
        return;
    }
    let Some(origin) = kmt_exports::origin_of(t.as_raw(), win32.handle_value) else {
        return;
    };
    let import = importing(
        state,
        ImportedHandle::GlobalShare(t, win32.handle_value),
        facts,
        chain,
    );
    judge(state, &import, &origin, call);
}

/// Before `vkAllocateMemory` goes down: an fd import of an fd an earlier import consumed
/// (blocked), and an import of an opaque fd the layer saw exported, checked against the
/// export's allocation: the findings added to the call's.
#[inline]
pub fn check_import(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    call: &mut Outcome,
) {
    let Some(
        import @ FdImport {
            handle_type,
            fd,
            open: Some(true),
            ..
        },
    ) = chain.import_fd.filter(FdImport::imports)
    else {
        return;
    };
    if let Some((into, by)) = consumed_fds::imported_into(fd) {
        let mut outcome = boundary::contain("vkAllocateMemory", || {
            fd_ownership::imported_twice(
                state.handle(),
                &fd_ownership::Reimport::ALLOCATE,
                fd,
                into,
                by,
            )
        });
        outcome.blocked = true;
        call.absorb(outcome);
        return;
    }
    if import_fd_type::evaluate(&import) {
        report_not_of_type(state, &import, call);
    } else if handle_type == OPAQUE_FD {
        check_opaque_import(state, facts, chain, fd, call);
    }
}

/// An fd import of an fd that certainly is no handle of its type: reported, a `DMA_BUF` one with
/// the export it came from, if the layer knows it. One that a driver returned for an export of
/// its type (in this process or another) is not the app's error.
#[cold]
#[inline(never)]
fn report_not_of_type(state: &DeviceState, import: &FdImport, call: &mut Outcome) {
    let origin = if import.handle_type == DMA_BUF {
        let payload = payload::payload_id(import.fd);
        // The driver returned it for a DMA_BUF export (in this process or another): its defect.
        let by_driver = payload.is_some_and(driver_dma_bufs::contains)
            || shared_origin(state, import.fd, DMA_BUF).is_some();
        if by_driver {
            return;
        }
        opaque_exports::origin_of(import.fd).or_else(|| shared_origin(state, import.fd, OPAQUE_FD))
    } else {
        // The driver returned it for an export (a driver's own defect, not the app's).
        let exported = opaque_exports::origin_of(import.fd)
            .or_else(|| shared_origin(state, import.fd, OPAQUE_FD));
        if exported.is_some() {
            return;
        }
        None
    };
    call.absorb(boundary::contain("vkAllocateMemory", || Outcome {
        findings: vec![import_fd_type::describe(
            state.handle(),
            import,
            origin.as_ref(),
        )],
        ..Outcome::default()
    }));
}

/// The export as `exported_as` of the payload of `fd` that another process (or this one, in an
/// export the layer no longer holds) recorded in the shared directory, if any; the directory's
/// warnings reported. A payload with a file of its own is found by that file's identity; one
/// whose file is shared with other payloads (a driver's device file) by its open file
/// description, with `kcmp` against the exporting process's descriptor of it.
#[cold]
#[inline(never)]
fn shared_origin(
    state: &DeviceState,
    fd: i32,
    exported_as: vk::ExternalMemoryHandleTypeFlags,
) -> Option<ExportOrigin> {
    let report = |command: &'static str, outcome: &Outcome| report_only(state, command, outcome);
    shared_export_of(fd, exported_as, "vkAllocateMemory", &report)
}

/// [`shared_origin`] for any importer (`command`: the importing command, for the warnings, which
/// go to `report`): also the CUDA side's (`features::cuda_interop`).
#[cold]
#[inline(never)]
pub fn shared_export_of(
    fd: i32,
    exported_as: vk::ExternalMemoryHandleTypeFlags,
    command: &'static str,
    report: &dyn Fn(&'static str, &Outcome),
) -> Option<ExportOrigin> {
    if !shared_exports::enabled() {
        return None;
    }
    let origin = match payload::identity(fd)? {
        Identity::Payload(payload) => shared_exports::find(payload, exported_as),
        Identity::OpenFile(file) => {
            match shared_exports::find_open_file((file.dev, file.ino), fd, exported_as) {
                Ok(origin) => origin,
                Err(errno) => {
                    warn_kcmp_refused_with(command, errno, Refused::AcrossProcesses, report);
                    None
                }
            }
        }
    };
    let warnings = shared_exports::take_warnings();
    if !warnings.is_empty() {
        let outcome = boundary::contain(command, || shared_rules::ignored(command, warnings));
        report(command, &outcome);
    }
    origin
}

/// The opaque-fd export of a kind other than `importing` that the layer knows `fd` to be, for an
/// import of `importing` that found no export of its own kind (`command`: the importing command,
/// for the shared directory's warnings, which go to `report`): a memory object's, a semaphore's
/// or a fence's held in this process, else a memory object's or a semaphore's a process of the
/// run recorded (fences are not recorded across processes).
#[cold]
#[inline(never)]
pub fn export_of_another_kind(
    fd: i32,
    importing: ExportKind,
    command: &'static str,
    report: &dyn Fn(&'static str, &Outcome),
) -> Option<KnownExport> {
    let memory = |o: ExportOrigin| KnownExport {
        kind: ExportKind::Memory,
        device: o.device,
        object: o.memory,
        process: o.exporter,
    };
    let semaphore = |o: SemaphoreOrigin| KnownExport {
        kind: ExportKind::Semaphore,
        device: o.device,
        object: o.semaphore,
        process: o.process,
    };
    let fence = |o: FenceOrigin| KnownExport {
        kind: ExportKind::Fence,
        device: o.device,
        object: o.fence,
        process: None,
    };
    let here = match importing {
        ExportKind::Memory => semaphore_exports::origin_of(fd)
            .map(semaphore)
            .or_else(|| fence_exports::origin_of(fd).map(fence)),
        ExportKind::Semaphore => opaque_exports::origin_of(fd)
            .map(memory)
            .or_else(|| fence_exports::origin_of(fd).map(fence)),
        ExportKind::Fence => opaque_exports::origin_of(fd)
            .map(memory)
            .or_else(|| semaphore_exports::origin_of(fd).map(semaphore)),
    };
    here.or_else(|| match importing {
        ExportKind::Memory => shared_semaphore_export_of(fd, command, report).map(semaphore),
        _ => shared_export_of(fd, OPAQUE_FD, command, report)
            .map(memory)
            .or_else(|| {
                (importing == ExportKind::Fence)
                    .then(|| shared_semaphore_export_of(fd, command, report).map(semaphore))
                    .flatten()
            }),
    })
}

/// The semaphore export of the payload of `fd` that a process of the run (another, or this one
/// in an export the layer no longer holds) recorded in the shared directory, if any, for any
/// importer (`command`: `vkImportSemaphoreFdKHR`, or the CUDA side's `cuImportExternalSemaphore`);
/// the directory's warnings go to `report`. A payload with a file of its own is found by that
/// file's identity; one whose file is shared with other payloads (a driver's device file) by its
/// open file description, with `kcmp` against the exporting process's descriptor of it, as
/// memory's.
#[cold]
#[inline(never)]
pub fn shared_semaphore_export_of(
    fd: i32,
    command: &'static str,
    report: &dyn Fn(&'static str, &Outcome),
) -> Option<SemaphoreOrigin> {
    if !shared_exports::enabled() {
        return None;
    }
    let found = match payload::identity(fd) {
        Some(Identity::Payload(payload)) => shared_exports::find_semaphore(payload),
        Some(Identity::OpenFile(file)) => {
            match shared_exports::find_open_semaphore((file.dev, file.ino), fd) {
                Ok(found) => found,
                Err(errno) => {
                    warn_kcmp_refused_with(command, errno, Refused::AcrossProcesses, report);
                    None
                }
            }
        }
        None => None,
    };
    let warnings = shared_exports::take_warnings();
    if !warnings.is_empty() {
        let outcome = boundary::contain(command, || shared_rules::ignored(command, warnings));
        report(command, &outcome);
    }
    let export = found?;
    let Kind::Semaphore {
        timeline,
        create_flags,
        exportable,
    } = export.kind
    else {
        return None;
    };
    Some(SemaphoreOrigin {
        device: export.origin.device,
        semaphore: export.origin.memory,
        timeline,
        create_flags: vk::SemaphoreCreateFlags::from_raw(create_flags),
        driver_uuid: export.origin.driver_uuid,
        devices: export.origin.physical_devices.set(),
        exportable,
        process: export.origin.exporter,
    })
}

/// `EXPORTCHECK-kcmp-refused`, once per process and kind (memory's and semaphores' imports
/// together: one cause).
#[cold]
#[inline(never)]
pub fn warn_kcmp_refused(state: &DeviceState, command: &'static str, errno: i32, kind: Refused) {
    let report = |command: &'static str, outcome: &Outcome| report_only(state, command, outcome);
    warn_kcmp_refused_with(command, errno, kind, &report);
}

/// [`warn_kcmp_refused`], the finding handed to `report`.
#[cold]
#[inline(never)]
fn warn_kcmp_refused_with(
    command: &'static str,
    errno: i32,
    kind: Refused,
    report: &dyn Fn(&'static str, &Outcome),
) {
    use std::sync::atomic::{AtomicBool, Ordering};
    static IN_PROCESS: AtomicBool = AtomicBool::new(false);
    static ACROSS: AtomicBool = AtomicBool::new(false);
    let said = match kind {
        Refused::InProcess => &IN_PROCESS,
        Refused::AcrossProcesses => &ACROSS,
    };
    if !said.swap(true, Ordering::AcqRel) {
        let outcome = boundary::contain(command, || open_file::refused(command, errno, kind));
        report(command, &outcome);
    }
}

/// Before an fd import goes down: the layer's hold of the open file description it hands over.
#[inline]
pub fn before_import(chain: &ChainRead) -> Option<HeldFile> {
    let import = chain.import_fd.filter(FdImport::imports)?;
    consumed_fds::before_import(import.fd)
}

/// After a successful fd import into `memory` (`held`: what [`before_import`] took): the fd is
/// the driver's now.
#[inline]
pub fn after_import(state: &DeviceState, memory: u64, chain: &ChainRead, held: HeldFile) {
    if let Some(import) = chain.import_fd.filter(FdImport::imports) {
        let into = ImportedInto::memory(state.handle(), memory);
        consumed_fds::remember(import.fd, held, into);
    }
}

/// Before `vkFreeMemory` of live `memory` goes down: what the layer holds for it.
#[inline(always)]
pub fn before_free(state: &DeviceState, memory: u64) {
    if opaque_exports::anything_tracked() {
        forget_memory(state, memory);
    }
}

#[cold]
#[inline(never)]
fn forget_memory(state: &DeviceState, memory: u64) {
    let device = state.handle();
    opaque_exports::forget_memory(device, memory, &shared_exports::retire);
    let lost = consumed_fds::forget_memory(device, memory);
    kmt_exports::forget_memory(device, memory);
    report_lost(state, "vkFreeMemory", &lost);
}

/// At `vkDestroyDevice`.
pub fn at_destroy(state: &DeviceState) {
    opaque_exports::forget_device(state.handle(), &shared_exports::retire);
    let lost = consumed_fds::forget_device(state.handle());
    kmt_exports::forget_device(state.handle());
    report_lost(state, "vkDestroyDevice", &lost);
}

/// The numbers of imported fds the process closed after the import (`EXPORTCHECK-fd-closed-after-import`).
pub fn report_lost(state: &DeviceState, command: &'static str, lost: &[consumed_fds::Lost]) {
    if !lost.is_empty() {
        let outcome = boundary::contain(command, || {
            fd_ownership::closed_after_import(state.handle(), command, lost)
        });
        report_only(state, command, &outcome);
    }
}

/// The descriptors the layer holds (of exports and of consumed fds): never the app's.
pub fn held_numbers() -> Vec<i32> {
    let mut held = opaque_exports::held_numbers();
    held.extend(consumed_fds::held_numbers());
    held
}

#[inline(never)]
fn check_opaque_import(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    fd: i32,
    call: &mut Outcome,
) {
    let shared = || shared_origin(state, fd, OPAQUE_FD);
    let Some(origin) = opaque_exports::origin_of(fd).or_else(shared) else {
        report_another_kind(state, fd, call);
        return;
    };
    let import = importing(state, ImportedHandle::OpaqueFd(fd), facts, chain);
    judge(state, &import, &origin, call);
}

/// An opaque-fd import of memory whose export the layer does not know: if the layer knows the
/// fd as a semaphore's or fence's export, `VUID-VkImportMemoryFdInfoKHR-handleType-00670` (it is
/// no memory handle), and the call is not passed to the driver.
#[cold]
#[inline(never)]
fn report_another_kind(state: &DeviceState, fd: i32, call: &mut Outcome) {
    const IMPORTING: Importing = Importing {
        id: vuid::IMPORT_FD_HANDLE_TYPE_00670,
        command: "vkAllocateMemory",
        field: "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
        handle_type: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
        kind: ExportKind::Memory,
    };
    let report = |command: &'static str, outcome: &Outcome| report_only(state, command, outcome);
    let Some(other) = export_of_another_kind(fd, ExportKind::Memory, IMPORTING.command, &report)
    else {
        return;
    };
    call.absorb(boundary::contain(IMPORTING.command, || {
        let mut outcome = Outcome::default();
        let finding = another_kind::describe(&IMPORTING, fd, &other, "");
        outcome.block(finding.with(ObjectRef::device(state.handle())));
        outcome
    }));
}

/// The import of `handle` that `vkAllocateMemory` on `state` makes.
fn importing<'a>(
    state: &DeviceState,
    handle: ImportedHandle,
    facts: &'a AllocationFacts,
    chain: &ChainRead,
) -> OpaqueImport<'a> {
    OpaqueImport {
        handle,
        facts,
        dedicated_info: chain.dedicated_info,
        device: state.handle(),
        driver_uuid: state.driver_uuid,
        physical_devices: state.physical_devices,
        device_mask: allocation_mask(state, chain.device_mask, facts.memory_type_index),
    }
}

/// The device mask an allocation of `memory_type_index` on `state` is made with: `named`
/// (`VkMemoryAllocateFlagsInfo` with `VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT`) or its heap's
/// default; unknown where the layer does not know the memory type.
fn allocation_mask(
    state: &DeviceState,
    named: Option<u32>,
    memory_type_index: u32,
) -> Option<DeviceMask> {
    let heap_multi_instance = state
        .facts
        .memory_type(memory_type_index)
        .map(|t| t.heap_flags.contains(vk::MemoryHeapFlags::MULTI_INSTANCE));
    DeviceMask::of(named, state.physical_devices, heap_multi_instance)
}

/// The import against its export: the findings added to the call's.
fn judge(state: &DeviceState, import: &OpaqueImport, origin: &ExportOrigin, call: &mut Outcome) {
    let broken = import_match::evaluate(import, origin);
    if broken.is_empty() {
        return;
    }
    call.absorb(boundary::contain("vkAllocateMemory", || Outcome {
        findings: import_match::describe(state.handle(), import, origin, broken),
        ..Outcome::default()
    }));
}
