//! The sync matrix, end to end: the real loader, the layer and the project's test driver
//! (`tests/icd`). Every handle-type value of the hostile table (each bit 0..31, 0, mixes of
//! defined and undefined bits, 0x80000000 among them) in `vkGetSemaphoreFdKHR`,
//! `vkGetSemaphoreWin32HandleKHR`, `vkGetSemaphoreZirconHandleFUCHSIA`, `vkGetFenceFdKHR` and
//! `vkGetFenceWin32HandleKHR`, on binary and timeline semaphores and on fences created
//! exportable as none, 0 and various types, signaled or not, an NT handle exported before or
//! not; and in `vkImportSemaphoreFdKHR` and `vkImportFenceFdKHR`, with flags 0, `TEMPORARY` and
//! an undefined bit, into binary and timeline semaphores and fences, of an opaque fd of a binary
//! or timeline semaphore or of a fence (exports the layer saw), a sync file, -1, and another
//! kind's opaque fd (memory's, a fence's into a semaphore, a semaphore's into a fence). Bad
//! objects too (NULL, garbage, destroyed, another device's). Each object is made fresh for its
//! case, so what the layer knows of it is what the test tells the model.
//!
//! Each case must yield exactly the IDs the model (`tests/model`, `sync::expected_sync`) gives,
//! blocked or down as it says; a call that goes down returns the test driver's own answer
//! (docs/test-driver.md: an export of a type it can make, an import of a payload of the same
//! kind; a sync-file export of a signal that completed). See docs/reliability.md.
//!
//! That the matrix can fail: `a_wrong_expectation_fails_the_matrix` runs cases whose expectation
//! was altered (an ID taken out, an ID added, blocked for down) and requires the runner to fail
//! with each of them named, and the same case with the model's expectation to pass. To see it
//! on the real tables, change a rule of the model (e.g. drop `SEM_FD_HANDLE_TYPE_03254` from
//! `sync.rs`'s `export_rules`): `semaphore_export_matrix` then fails, listing every SYNC_FD case
//! of an exportable binary semaphore never signaled.

use ash::vk::{self, Handle};
use exportcheck_tests::hostile::{self, Called, Expected, Matrix};
use exportcheck_tests::ids::*;
use exportcheck_tests::model::sync::{
    self, fence_type, semaphore_type, Exporter, ImportedHandle, Signal, SyncCall, SyncCommand,
    SyncDevice, SyncFacts, SyncObject, IMPORT_TEMPORARY,
};
use exportcheck_tests::{fds, fences, semaphores, Device, Instance, SIZE};
use std::collections::BTreeSet;
use std::ffi::{c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

const SUCCESS: vk::Result = vk::Result::SUCCESS;
const UNKNOWN: vk::Result = vk::Result::ERROR_UNKNOWN;
const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;

/// The device's extensions (with `VK_KHR_external_semaphore` and timeline semaphores): every
/// sync export and import the test driver has, and memory fds, for another kind's fd.
const EXTENSIONS: [&CStr; 8] = [
    ash::khr::external_memory::NAME,
    ash::khr::external_memory_fd::NAME,
    ash::khr::external_semaphore_fd::NAME,
    ash::khr::external_semaphore_win32::NAME,
    ash::fuchsia::external_semaphore::NAME,
    ash::khr::external_fence::NAME,
    ash::khr::external_fence_fd::NAME,
    ash::khr::external_fence_win32::NAME,
];

/// What the output pointers hold before a call: a value no driver returns.
const FD_SENTINEL: c_int = -7777;
const HANDLE_SENTINEL: usize = 0x5e17_5e17;
const ZIRCON_SENTINEL: u32 = 0x5e17_5e17;

/// One table's world: an instance ([`hostile::instance`]), the device the calls are made on
/// (with every sync extension: the model's `SyncDevice::ALL`), and another device.
struct Table {
    dev: Device,
    other: Device,
    inst: Instance,
}

impl Table {
    fn new() -> Self {
        let inst = hostile::instance();
        let dev = semaphores::semaphore_device(&inst, &EXTENSIONS);
        let other = semaphores::semaphore_device(&inst, &EXTENSIONS);
        Self { dev, other, inst }
    }

    /// The model's expectation of `call` on the table's device; down, it returns `down`.
    fn expect(&self, call: &SyncCall, down: vk::Result) -> Expected {
        Expected::from_model(sync::expected_sync(&SyncDevice::ALL, call), Some(down))
    }

    /// Asserts that making the objects of a case said nothing.
    #[track_caller]
    fn quiet_setup(&self) {
        let said = self.inst.messages();
        assert!(
            said.is_empty(),
            "the setup of a case was reported: {said:#?}"
        );
    }

    fn semaphore_fd(&self) -> ash::khr::external_semaphore_fd::Device {
        ash::khr::external_semaphore_fd::Device::new(&self.inst.instance, &self.dev.device)
    }
}

// ---- The calls, through the layer's entry points ----

/// `vkGetSemaphoreFdKHR` (or one of the other four exports, by `command`) of `object` (a
/// `VkSemaphore` or `VkFence`) as `handle_type`. A returned fd is closed.
fn export(t: &Table, command: SyncCommand, object: u64, handle_type: u32) -> Called {
    let (inst, dev) = (&t.inst.instance, &t.dev.device);
    let device = t.dev.handle();
    // SAFETY (every call below): live info structures and output pointers.
    let (result, written) = match command {
        SyncCommand::GetSemaphoreFd => {
            let get = t.semaphore_fd().fp().get_semaphore_fd_khr;
            let info = vk::SemaphoreGetFdInfoKHR::default()
                .semaphore(vk::Semaphore::from_raw(object))
                .handle_type(vk::ExternalSemaphoreHandleTypeFlags::from_raw(handle_type));
            let mut fd = FD_SENTINEL;
            let r = unsafe { get(device, &info, &mut fd) };
            (r, close_fd(fd))
        }
        SyncCommand::GetFenceFd => {
            let get = fences::fd_loader(&t.inst, &t.dev).fp().get_fence_fd_khr;
            let info = vk::FenceGetFdInfoKHR::default()
                .fence(vk::Fence::from_raw(object))
                .handle_type(vk::ExternalFenceHandleTypeFlags::from_raw(handle_type));
            let mut fd = FD_SENTINEL;
            let r = unsafe { get(device, &info, &mut fd) };
            (r, close_fd(fd))
        }
        SyncCommand::GetSemaphoreWin32Handle => {
            let loader = ash::khr::external_semaphore_win32::Device::new(inst, dev);
            let info = vk::SemaphoreGetWin32HandleInfoKHR::default()
                .semaphore(vk::Semaphore::from_raw(object))
                .handle_type(vk::ExternalSemaphoreHandleTypeFlags::from_raw(handle_type));
            let mut handle = HANDLE_SENTINEL as vk::HANDLE;
            let get = loader.fp().get_semaphore_win32_handle_khr;
            let r = unsafe { get(device, &info, &mut handle) };
            (r, handle as usize != HANDLE_SENTINEL)
        }
        SyncCommand::GetFenceWin32Handle => {
            let get = fences::win32_loader(&t.inst, &t.dev)
                .fp()
                .get_fence_win32_handle_khr;
            let info = vk::FenceGetWin32HandleInfoKHR::default()
                .fence(vk::Fence::from_raw(object))
                .handle_type(vk::ExternalFenceHandleTypeFlags::from_raw(handle_type));
            let mut handle = HANDLE_SENTINEL as vk::HANDLE;
            let r = unsafe { get(device, &info, &mut handle) };
            (r, handle as usize != HANDLE_SENTINEL)
        }
        SyncCommand::GetSemaphoreZirconHandle => {
            let loader = ash::fuchsia::external_semaphore::Device::new(inst, dev);
            let info = vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
                .semaphore(vk::Semaphore::from_raw(object))
                .handle_type(vk::ExternalSemaphoreHandleTypeFlags::from_raw(handle_type));
            let mut handle = ZIRCON_SENTINEL;
            let get = loader.fp().get_semaphore_zircon_handle_fuchsia;
            let r = unsafe { get(device, &info, &mut handle) };
            (r, handle != ZIRCON_SENTINEL)
        }
        import => panic!("{import:?} is no export"),
    };
    Called {
        result: Some(result),
        written,
        output: 0,
    }
}

/// Whether `fd` was written over the sentinel; a real fd is closed.
fn close_fd(fd: c_int) -> bool {
    if fd >= 0 {
        fds::close(fd);
    }
    fd != FD_SENTINEL
}

/// `vkImportSemaphoreFdKHR` or `vkImportFenceFdKHR` (by `command`) of `fd` into `object`. An
/// import has no output: `written` says whether the payload was imported (`VK_SUCCESS`). An fd
/// the call did not take is closed.
fn import_fd(
    t: &Table,
    command: SyncCommand,
    object: u64,
    flags: u32,
    handle_type: u32,
    fd: c_int,
) -> Called {
    let device = t.dev.handle();
    // SAFETY (both calls): a live info structure.
    let r = match command {
        SyncCommand::ImportSemaphoreFd => {
            let info = vk::ImportSemaphoreFdInfoKHR::default()
                .semaphore(vk::Semaphore::from_raw(object))
                .flags(vk::SemaphoreImportFlags::from_raw(flags))
                .handle_type(vk::ExternalSemaphoreHandleTypeFlags::from_raw(handle_type))
                .fd(fd);
            unsafe { (t.semaphore_fd().fp().import_semaphore_fd_khr)(device, &info) }
        }
        SyncCommand::ImportFenceFd => {
            let info = vk::ImportFenceFdInfoKHR::default()
                .fence(vk::Fence::from_raw(object))
                .flags(vk::FenceImportFlags::from_raw(flags))
                .handle_type(vk::ExternalFenceHandleTypeFlags::from_raw(handle_type))
                .fd(fd);
            let import = fences::fd_loader(&t.inst, &t.dev).fp().import_fence_fd_khr;
            unsafe { import(device, &info) }
        }
        export => panic!("{export:?} is no fd import"),
    };
    if r != SUCCESS {
        fds::close_if_open(fd);
    }
    Called {
        result: Some(r),
        written: r == SUCCESS,
        output: 0,
    }
}

// ---- The objects ----

/// A semaphore or fence an export case is made on, and what the layer then knows of it.
#[derive(Clone, Copy, Debug)]
struct Made {
    /// A fence (else a semaphore).
    fence: bool,
    timeline: bool,
    /// `VkExport{Semaphore,Fence}CreateInfo::handleTypes`, when chained.
    export: Option<u32>,
    /// A signal was submitted and completed (a fence: created signaled).
    signaled: bool,
    /// An `OPAQUE_WIN32` handle was exported from it before (a valid export).
    nt_exported: bool,
}

impl Made {
    fn semaphore(timeline: bool, export: Option<u32>) -> Self {
        Self {
            fence: false,
            timeline,
            export,
            signaled: false,
            nt_exported: false,
        }
    }

    fn fence(export: Option<u32>, signaled: bool) -> Self {
        Self {
            fence: true,
            signaled,
            ..Self::semaphore(false, export)
        }
    }

    fn name(&self) -> String {
        let kind = match (self.fence, self.timeline) {
            (true, _) => "fence",
            (false, true) => "timeline semaphore",
            (false, false) => "binary semaphore",
        };
        let export = match self.export {
            None => "not exportable".to_owned(),
            Some(types) => format!("exportable as {types:#x}"),
        };
        let signaled = if self.signaled { ", signaled" } else { "" };
        let nt = if self.nt_exported {
            ", an NT handle exported"
        } else {
            ""
        };
        format!("{kind} {export}{signaled}{nt}")
    }

    /// Makes it on the table's device.
    fn make(&self, t: &Table) -> u64 {
        let dev = &t.dev;
        let object = if self.fence {
            let types = self.export.map(vk::ExternalFenceHandleTypeFlags::from_raw);
            fences::fence(dev, self.signaled, types).as_raw()
        } else {
            let types = self
                .export
                .map(vk::ExternalSemaphoreHandleTypeFlags::from_raw);
            let s = semaphores::semaphore(dev, self.timeline, types);
            if self.signaled {
                semaphores::submit_and_idle(dev, &[], &[s]);
            }
            s.as_raw()
        };
        if self.nt_exported {
            let command = if self.fence {
                SyncCommand::GetFenceWin32Handle
            } else {
                SyncCommand::GetSemaphoreWin32Handle
            };
            let nt = semaphore_type::OPAQUE_WIN32;
            assert_eq!(export(t, command, object, nt).result, Some(SUCCESS));
        }
        t.quiet_setup();
        object
    }

    fn destroy(&self, t: &Table, object: u64) {
        if self.fence {
            fences::destroy(&t.dev, vk::Fence::from_raw(object));
        } else {
            semaphores::destroy(&t.dev, vk::Semaphore::from_raw(object));
        }
    }

    /// What the layer knows of it: its create info, its created payload, and, where it follows
    /// its signal state (a binary semaphore created exportable, any fence), whether a signal was
    /// ever submitted, its payload shared by reference (an NT handle) or neither.
    fn facts(&self) -> SyncFacts {
        let followed = self.fence || (!self.timeline && self.export.is_some());
        let nothing_submitted = followed && !self.signaled && !self.nt_exported;
        let created = if self.timeline {
            SyncFacts::timeline(self.export)
        } else {
            SyncFacts::created(self.export)
        };
        SyncFacts {
            signal: if nothing_submitted {
                Signal::NothingSubmitted
            } else {
                Signal::NotKnown
            },
            nt_handles_exported: if self.nt_exported {
                semaphore_type::OPAQUE_WIN32
            } else {
                0
            },
            ..created
        }
    }

    /// What the test driver answers an export of it as `handle_type` (docs/test-driver.md):
    /// the types it can make, a sync file of a signal that completed, of a binary semaphore or a
    /// fence; `VK_ERROR_UNKNOWN` otherwise.
    fn export_result(&self, command: SyncCommand, handle_type: u32) -> vk::Result {
        use semaphore_type::{OPAQUE_WIN32, OPAQUE_WIN32_KMT};
        let sync_fd = if self.fence {
            fence_type::SYNC_FD
        } else {
            semaphore_type::SYNC_FD
        };
        let made = match command {
            SyncCommand::GetSemaphoreFd | SyncCommand::GetFenceFd => {
                handle_type == semaphore_type::OPAQUE_FD
                    || (handle_type == sync_fd && !self.timeline && self.signaled)
            }
            SyncCommand::GetSemaphoreWin32Handle | SyncCommand::GetFenceWin32Handle => {
                handle_type == OPAQUE_WIN32 || handle_type == OPAQUE_WIN32_KMT
            }
            SyncCommand::GetSemaphoreZirconHandle => {
                handle_type == semaphore_type::ZIRCON_EVENT && !self.timeline
            }
            import => panic!("{import:?} is no export"),
        };
        if made {
            SUCCESS
        } else {
            UNKNOWN
        }
    }
}

/// The semaphores the export cases are made on: binary and timeline, exportable as none, 0 and
/// types the driver supports for them; binary ones signaled; with an NT handle exported before.
fn semaphores_made() -> Vec<Made> {
    use semaphore_type::*;
    let mut made: Vec<Made> = [None, Some(0), Some(OPAQUE_FD), Some(SYNC_FD), Some(FD)]
        .into_iter()
        .chain([Some(OPAQUE_WIN32 | OPAQUE_WIN32_KMT), Some(ZIRCON_EVENT)])
        .map(|export| Made::semaphore(false, export))
        .collect();
    made.extend(
        [
            None,
            Some(0),
            Some(OPAQUE_FD),
            Some(OPAQUE_WIN32 | OPAQUE_WIN32_KMT),
        ]
        .map(|export| Made::semaphore(true, export)),
    );
    for export in [Some(SYNC_FD), Some(FD), None] {
        made.push(Made {
            signaled: true,
            ..Made::semaphore(false, export)
        });
    }
    made.push(Made {
        nt_exported: true,
        ..Made::semaphore(false, Some(OPAQUE_WIN32 | SYNC_FD))
    });
    made
}

/// The fences the export cases are made on: exportable as none, 0 and various types, created
/// signaled or not, with an NT handle exported before.
fn fences_made() -> Vec<Made> {
    use fence_type::*;
    let mut made = Vec::new();
    for export in [
        None,
        Some(0),
        Some(OPAQUE_FD),
        Some(SYNC_FD),
        Some(FD),
        Some(WIN32),
    ] {
        for signaled in [false, true] {
            made.push(Made::fence(export, signaled));
        }
    }
    made.push(Made {
        nt_exported: true,
        ..Made::fence(Some(OPAQUE_WIN32 | SYNC_FD), false)
    });
    made
}

/// Runs every handle-type value of the hostile table in `command` on each of `made`; returns
/// every ID the model expected and how many cases were silent.
fn export_table(t: &Table, command: SyncCommand, made: &[Made]) -> (BTreeSet<&'static str>, usize) {
    let defined = match command.kind() {
        sync::Kind::Semaphore => semaphore_type::DEFINED,
        sync::Kind::Fence => fence_type::DEFINED,
    };
    let mut m = Matrix::new(&t.inst, command.name(), counted(command));
    let (mut expected_ids, mut silent) = (BTreeSet::new(), 0);
    for made in made {
        for handle_type in hostile::handle_type_values(defined) {
            let object = made.make(t);
            let call = SyncCall::export(command, SyncObject::Live(made.facts()), handle_type);
            let expected = t.expect(&call, made.export_result(command, handle_type));
            expected_ids.extend(expected.ids.iter().copied());
            silent += usize::from(expected.ids.is_empty());
            let name = format!("{}, handleType {handle_type:#x}", made.name());
            m.case(name, expected, || export(t, command, object, handle_type));
            made.destroy(t, object);
        }
    }
    assert!(m.finish() > 400);
    (expected_ids, silent)
}

/// The driver's entry point of `command`, for its call counter.
fn counted(command: SyncCommand) -> &'static CStr {
    match command {
        SyncCommand::GetSemaphoreFd => c"vkGetSemaphoreFdKHR",
        SyncCommand::GetSemaphoreWin32Handle => c"vkGetSemaphoreWin32HandleKHR",
        SyncCommand::GetSemaphoreZirconHandle => c"vkGetSemaphoreZirconHandleFUCHSIA",
        SyncCommand::GetFenceFd => c"vkGetFenceFdKHR",
        SyncCommand::GetFenceWin32Handle => c"vkGetFenceWin32HandleKHR",
        SyncCommand::ImportSemaphoreFd => c"vkImportSemaphoreFdKHR",
        SyncCommand::ImportFenceFd => c"vkImportFenceFdKHR",
        other => panic!("{other:?} is not in the matrix"),
    }
}

#[test]
fn semaphore_export_matrix() {
    let t = Table::new();
    let made = semaphores_made();
    let mut ids = BTreeSet::new();
    for command in [
        SyncCommand::GetSemaphoreFd,
        SyncCommand::GetSemaphoreWin32Handle,
        SyncCommand::GetSemaphoreZirconHandle,
    ] {
        let (reached, silent) = export_table(&t, command, &made);
        assert!(silent > 0, "{command:?}: no valid case");
        ids.extend(reached);
    }
    // The rules of the created payload and of the signal state were reached, not only the
    // handle-type values.
    for id in [
        SEM_FD_HANDLE_TYPE_PARAM,
        SEM_FD_HANDLE_TYPE_01136,
        SEM_FD_HANDLE_TYPE_01132,
        SEM_FD_HANDLE_TYPE_03253,
        SEM_FD_HANDLE_TYPE_01135,
        SEM_FD_HANDLE_TYPE_03254,
        SEM_WIN32_HANDLE_TYPE_01126,
        SEM_WIN32_HANDLE_TYPE_01127,
        SEM_WIN32_HANDLE_TYPE_01130,
        SEM_WIN32_HANDLE_TYPE_01131,
        SEM_ZIRCON_HANDLE_TYPE_04758,
        SEM_ZIRCON_HANDLE_TYPE_04761,
        SEM_ZIRCON_HANDLE_TYPE_04762,
        SEM_ZIRCON_SEMAPHORE_04763,
    ] {
        assert!(ids.contains(id), "the matrix never expects {id}");
    }
}

#[test]
fn fence_export_matrix() {
    let t = Table::new();
    let made = fences_made();
    let mut ids = BTreeSet::new();
    for command in [SyncCommand::GetFenceFd, SyncCommand::GetFenceWin32Handle] {
        let (reached, silent) = export_table(&t, command, &made);
        assert!(silent > 0, "{command:?}: no valid case");
        ids.extend(reached);
    }
    for id in [
        FENCE_FD_HANDLE_TYPE_PARAM,
        FENCE_FD_HANDLE_TYPE_01453,
        FENCE_FD_HANDLE_TYPE_01454,
        FENCE_FD_HANDLE_TYPE_01456,
        FENCE_WIN32_HANDLE_TYPE_01448,
        FENCE_WIN32_HANDLE_TYPE_01449,
        FENCE_WIN32_HANDLE_TYPE_01451,
        FENCE_WIN32_HANDLE_TYPE_01452,
    ] {
        assert!(ids.contains(id), "the matrix never expects {id}");
    }
}

// ---- Imports ----

/// Where an import's fd comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// An opaque fd of a binary semaphore exportable as one (an export the layer saw).
    BinaryOpaque,
    /// The same, of a timeline semaphore.
    TimelineOpaque,
    /// An opaque fd of a fence.
    FenceOpaque,
    /// A sync file: a `SYNC_FD` export of a signaled binary semaphore (or of a signaled fence,
    /// for a fence import).
    SyncFile,
    MinusOne,
    /// An opaque fd of memory.
    MemoryOpaque,
}

/// An fd of `source`, and what must be let go after the case.
struct Fd {
    fd: c_int,
    semaphore: Option<vk::Semaphore>,
    fence: Option<vk::Fence>,
    memory: Option<vk::DeviceMemory>,
}

impl Source {
    fn make(self, t: &Table, into_fence: bool) -> Fd {
        let dev = &t.dev;
        let mut made = Fd {
            fd: -1,
            semaphore: None,
            fence: None,
            memory: None,
        };
        let opaque_semaphore = |timeline| {
            let types = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;
            let s = semaphores::semaphore(dev, timeline, Some(types));
            (semaphores::export_opaque_fd(&t.inst, dev, s), s)
        };
        match self {
            Source::BinaryOpaque | Source::TimelineOpaque => {
                let (fd, s) = opaque_semaphore(self == Source::TimelineOpaque);
                made.fd = fd;
                made.semaphore = Some(s);
            }
            Source::FenceOpaque => {
                let types = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD;
                let f = fences::fence(dev, false, Some(types));
                made.fd = fences::export_fd(&t.inst, dev, f, types);
                made.fence = Some(f);
            }
            Source::SyncFile if into_fence => {
                let types = vk::ExternalFenceHandleTypeFlags::SYNC_FD;
                let f = fences::fence(dev, true, Some(types));
                made.fd = fences::export_fd(&t.inst, dev, f, types);
                fences::destroy(dev, f);
            }
            Source::SyncFile => {
                let types = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD;
                let s = semaphores::semaphore(dev, false, Some(types));
                semaphores::submit_and_idle(dev, &[], &[s]);
                let info = vk::SemaphoreGetFdInfoKHR::default()
                    .semaphore(s)
                    .handle_type(types);
                // SAFETY: a live info structure.
                made.fd = unsafe { t.semaphore_fd().get_semaphore_fd(&info) }.expect("sync file");
                semaphores::destroy(dev, s);
            }
            Source::MinusOne => {}
            Source::MemoryOpaque => {
                let types = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
                let memory = dev.allocate_exporting(SIZE, 0, Some(types), None);
                let (r, fd) = dev.get_fd(memory, types);
                assert_eq!(r, SUCCESS, "the memory export");
                made.fd = fd;
                made.memory = Some(memory);
            }
        }
        t.quiet_setup();
        made
    }

    /// The export the layer matched the fd to, for an import as `handle_type` (it looks one up
    /// for an `OPAQUE_FD` import only): the semaphore or fence it exported, of this device.
    fn exporter(self, handle_type: u32, into_fence: bool) -> Option<Exporter> {
        let own_kind = match self {
            Source::BinaryOpaque | Source::TimelineOpaque => !into_fence,
            Source::FenceOpaque => into_fence,
            _ => false,
        };
        // OPAQUE_FD is bit 0 for semaphores and fences alike.
        (own_kind && handle_type == semaphore_type::OPAQUE_FD).then_some(Exporter {
            timeline: self == Source::TimelineOpaque,
            create_flags: 0,
            same_device_and_driver: Some(true),
        })
    }

    /// The layer knows the fd as another kind's export.
    fn another_kind(self, into_fence: bool) -> bool {
        match self {
            Source::MemoryOpaque => true,
            Source::FenceOpaque => !into_fence,
            Source::BinaryOpaque | Source::TimelineOpaque => into_fence,
            Source::SyncFile | Source::MinusOne => false,
        }
    }

    /// What the test driver answers an import of the fd as `handle_type` into `into`: an
    /// opaque payload of the importer's own kind, or, for a binary semaphore or a fence, a sync
    /// file or -1 as `SYNC_FD`; `VK_ERROR_INVALID_EXTERNAL_HANDLE` otherwise.
    fn import_result(self, handle_type: u32, into: &Made) -> vk::Result {
        let sync_fd = if into.fence {
            fence_type::SYNC_FD
        } else {
            semaphore_type::SYNC_FD
        };
        let own_payload = match self {
            Source::BinaryOpaque => !into.fence && !into.timeline,
            Source::TimelineOpaque => !into.fence && into.timeline,
            Source::FenceOpaque => into.fence,
            _ => false,
        };
        let sync_file = matches!(self, Source::SyncFile | Source::MinusOne);
        let taken = (handle_type == semaphore_type::OPAQUE_FD && own_payload)
            || (handle_type == sync_fd && !into.timeline && sync_file);
        if taken {
            SUCCESS
        } else {
            INVALID
        }
    }
}

impl Fd {
    /// Lets the objects of the source go (the fd itself went with the case).
    fn release(self, t: &Table) {
        if let Some(s) = self.semaphore {
            semaphores::destroy(&t.dev, s);
        }
        if let Some(f) = self.fence {
            fences::destroy(&t.dev, f);
        }
        if let Some(memory) = self.memory {
            t.dev.free(memory);
        }
    }
}

/// Every flags value × handle-type value × fd source in `command`, into each of `into`; returns
/// every ID the model expected and how many cases were blocked.
fn import_table(
    t: &Table,
    command: SyncCommand,
    into: &[Made],
    sources: &[Source],
) -> (BTreeSet<&'static str>, usize) {
    let into_fence = command == SyncCommand::ImportFenceFd;
    let defined = if into_fence {
        fence_type::DEFINED
    } else {
        semaphore_type::DEFINED
    };
    let mut m = Matrix::new(&t.inst, command.name(), counted(command));
    let (mut expected_ids, mut blocked) = (BTreeSet::new(), 0);
    for importer in into {
        for &source in sources {
            for flags in [0, IMPORT_TEMPORARY, 2] {
                for handle_type in hostile::handle_type_values(defined) {
                    let object = importer.make(t);
                    let fd = source.make(t, into_fence);
                    let handle = ImportedHandle {
                        exporter: source.exporter(handle_type, into_fence),
                        another_kind: source.another_kind(into_fence),
                        ..ImportedHandle::default()
                    };
                    let facts = SyncObject::Live(importer.facts());
                    let call = SyncCall::import(command, facts, flags, handle_type, handle);
                    let down = source.import_result(handle_type, importer);
                    let expected = t.expect(&call, down);
                    expected_ids.extend(expected.ids.iter().copied());
                    blocked += usize::from(expected.blocked);
                    let name = format!(
                        "into a {}: {source:?}, flags {flags:#x}, handleType {handle_type:#x}",
                        importer.name()
                    );
                    let raw_fd = fd.fd;
                    m.case(name, expected, || {
                        import_fd(t, command, object, flags, handle_type, raw_fd)
                    });
                    importer.destroy(t, object);
                    fd.release(t);
                }
            }
        }
    }
    assert!(m.finish() > 400);
    (expected_ids, blocked)
}

#[test]
fn semaphore_fd_import_matrix() {
    use semaphore_type::OPAQUE_FD;
    let t = Table::new();
    let into = [
        Made::semaphore(false, None),
        Made::semaphore(false, Some(OPAQUE_FD)),
        Made::semaphore(true, Some(OPAQUE_FD)),
    ];
    let sources = [
        Source::BinaryOpaque,
        Source::TimelineOpaque,
        Source::SyncFile,
        Source::MinusOne,
        Source::MemoryOpaque,
        Source::FenceOpaque,
    ];
    let (ids, blocked) = import_table(&t, SyncCommand::ImportSemaphoreFd, &into, &sources);
    assert!(blocked > 0);
    for id in [
        SEM_IMPORT_FD_HANDLE_TYPE_PARAM,
        SEM_IMPORT_FD_FLAGS_PARAM,
        SEM_IMPORT_FD_HANDLE_TYPE_01143,
        SEM_IMPORT_FD_HANDLE_TYPE_07307,
        SEM_IMPORT_FD_HANDLE_TYPE_03264,
        SEM_IMPORT_FD_FLAGS_03323,
        FD_OF_ANOTHER_KIND,
    ] {
        assert!(ids.contains(id), "the matrix never expects {id}");
    }
}

#[test]
fn fence_fd_import_matrix() {
    let t = Table::new();
    let into = [
        Made::fence(None, false),
        Made::fence(Some(fence_type::OPAQUE_FD), false),
    ];
    let sources = [
        Source::FenceOpaque,
        Source::SyncFile,
        Source::MinusOne,
        Source::MemoryOpaque,
        Source::BinaryOpaque,
    ];
    let (ids, blocked) = import_table(&t, SyncCommand::ImportFenceFd, &into, &sources);
    assert!(blocked > 0);
    for id in [
        FENCE_IMPORT_FD_HANDLE_TYPE_PARAM,
        FENCE_IMPORT_FD_FLAGS_PARAM,
        FENCE_IMPORT_FD_HANDLE_TYPE_01464,
        FENCE_IMPORT_FD_HANDLE_TYPE_07306,
        FD_OF_ANOTHER_KIND,
    ] {
        assert!(ids.contains(id), "the matrix never expects {id}");
    }
}

// ---- Bad objects ----

/// NULL, garbage, destroyed and another device's semaphores and fences in every command of the
/// matrix: blocked, with the object's `-parameter` ID or the layer's other-device ID, and
/// nothing of the arguments judged behind them.
#[test]
fn bad_objects_block_every_command() {
    let t = Table::new();
    let commands = [
        SyncCommand::GetSemaphoreFd,
        SyncCommand::GetSemaphoreWin32Handle,
        SyncCommand::GetSemaphoreZirconHandle,
        SyncCommand::GetFenceFd,
        SyncCommand::GetFenceWin32Handle,
        SyncCommand::ImportSemaphoreFd,
        SyncCommand::ImportFenceFd,
    ];
    for command in commands {
        let fence = command.kind() == sync::Kind::Fence;
        let made = if fence {
            Made::fence(Some(fence_type::FD), true)
        } else {
            Made::semaphore(false, Some(semaphore_type::FD))
        };
        let destroyed = made.make(&t);
        made.destroy(&t, destroyed);
        let foreign = if fence {
            fences::fence(&t.other, false, None).as_raw()
        } else {
            semaphores::semaphore(&t.other, false, None).as_raw()
        };
        let mut m = Matrix::new(&t.inst, command.name(), counted(command));
        for (name, object, model) in [
            ("NULL", 0, SyncObject::Null),
            ("0xdead0000", 0xdead_0000, SyncObject::Unknown),
            ("a destroyed object", destroyed, SyncObject::Destroyed),
            ("another device's", foreign, SyncObject::OtherDevice),
        ] {
            // Values every command's rules reject: hidden behind the bad object.
            let (flags, handle_type) = (2, 0x8000_0000);
            let call = if command.is_import() {
                let handle = ImportedHandle::default();
                SyncCall::import(command, model, flags, handle_type, handle)
            } else {
                SyncCall::export(command, model, handle_type)
            };
            let expected = t.expect(&call, INVALID);
            assert!(expected.blocked && expected.ids.len() == 1, "{expected:?}");
            m.case(name, expected, || {
                if command.is_import() {
                    import_fd(&t, command, object, flags, handle_type, -1)
                } else {
                    export(&t, command, object, handle_type)
                }
            });
        }
        m.finish();
        if fence {
            fences::destroy(&t.other, vk::Fence::from_raw(foreign));
        } else {
            semaphores::destroy(&t.other, vk::Semaphore::from_raw(foreign));
        }
    }
}

// ---- The matrix can fail ----

/// The runner fails a table whose expectation is wrong, naming each wrong case: the model's
/// expectation of a `SYNC_FD` export of an exportable binary semaphore never signaled (01135 and
/// 03254, down, the driver refuses it), altered three ways, each is caught; the same case with
/// the model's own expectation passes.
#[test]
fn a_wrong_expectation_fails_the_matrix() {
    let t = Table::new();
    let made = Made::semaphore(false, Some(semaphore_type::SYNC_FD));
    let command = SyncCommand::GetSemaphoreFd;
    let handle_type = semaphore_type::SYNC_FD;
    let call = SyncCall::export(command, SyncObject::Live(made.facts()), handle_type);
    let right = t.expect(&call, made.export_result(command, handle_type));
    assert_eq!(right.ids.len(), 2, "{:?}", right.ids);
    let mut missing = right.clone();
    missing.ids.retain(|&id| id != SEM_FD_HANDLE_TYPE_03254);
    let mut extra = right.clone();
    extra.ids.push(SEM_FD_HANDLE_TYPE_01132);
    let blocked = Expected::blocked(&right.ids);

    let run = |cases: Vec<(&str, Expected)>| {
        let mut m = Matrix::new(&t.inst, command.name(), counted(command));
        for (name, expected) in cases {
            let object = made.make(&t);
            m.case(name, expected, || export(&t, command, object, handle_type));
            made.destroy(&t, object);
        }
        catch_unwind(AssertUnwindSafe(|| m.finish()))
    };
    assert_eq!(run(vec![("the model's", right.clone())]).ok(), Some(1));
    let failed = run(vec![
        ("the model's", right),
        ("03254 left out", missing),
        ("01132 added", extra),
        ("blocked instead of down", blocked),
    ]);
    let panic = failed.expect_err("a wrong expectation must fail the table");
    let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(text.contains("3 of 4"), "{text}");
    for name in ["03254 left out", "01132 added", "blocked instead of down"] {
        assert!(text.contains(&format!("[{name}]")), "{name}: {text}");
    }
    assert!(!text.contains("[the model's]"), "{text}");
}
