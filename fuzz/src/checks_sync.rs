//! The semaphore and fence commands of the `checks` target: the five sync exports
//! (`rules::export::get_semaphore_fd`, `get_semaphore_win32_handle`,
//! `get_semaphore_zircon_handle`, `get_fence_fd`, `get_fence_win32_handle`) and the five imports
//! into an existing object (`rules::import::import_semaphore_fd`, `import_semaphore_win32`,
//! `import_semaphore_zircon`, `import_fence_fd`, `import_fence_win32_handle`), each run as the
//! export pipeline runs it (`evaluate`, an import's `evaluate_arguments`, then `describe` and
//! `describe_arguments` of what they said is broken) against arbitrary object state, and
//! compared with the model's `expected_sync`.
//!
//! One arbitrary description of the object ([`SyncFactsIn`]) is built into the layer's record
//! and into the model's `SyncFacts`, each by meaning: the model's facts say what the layer is
//! sure of (the payload certainly created or certainly an import; "nothing submitted" for the
//! signal states that mean it). The states are those the layer can hold: only a binary semaphore
//! whose create info was read is followed through queue operations. An import's exporter is
//! given where the layer's command looks one up (an `OPAQUE_FD` fd, a global share handle named
//! by value alone). Not run here: the rules the layer judges from the driver's answers or the
//! process's file table (`evaluate_history`, `EXPORTCHECK-fd-imported-twice`,
//! `EXPORTCHECK-fd-of-another-kind`), which the model leaves out too or the end-to-end matrix
//! covers.

use crate::checks::LookupKind;
use crate::{layer, Bits};
use arbitrary::Arbitrary;
use ash::vk;
use exportcheck_spec_model::sync::{
    self as model, Exporter, ImportedHandle, ImportedPayload, Payload, Signal, SyncCall,
    SyncCommand, SyncDevice, SyncExportInfo, SyncFacts, SyncImportInfo, SyncObject,
};
use exportcheck_spec_model::{Expected, Info};
use layer::args::StructArg;
use layer::features::import_matching::state::fence_exports::FenceOrigin;
use layer::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use layer::finding::Outcome;
use layer::handle_kinds::{Fence, Semaphore};
use layer::rules::common::unknown_device;
use layer::rules::export::{
    self as export, get_fence_fd, get_fence_win32_handle, get_semaphore_fd,
    get_semaphore_win32_handle, get_semaphore_zircon_handle, ExportCall, ExportCommand,
    ExportedObject, InfoFields,
};
use layer::rules::import::{
    import_fence_fd, import_fence_win32_handle, import_semaphore_fd, import_semaphore_win32,
    import_semaphore_zircon,
};
use layer::rules::rule_set::RuleSet;
use layer::state::sync_payload::{Import, Permanent, SyncPayload, Temporary};
use layer::state::{
    DestroyedFence, DestroyedSemaphore, DeviceFacts, FenceFacts, FenceRecord, FenceSignal, Lookup,
    SemaphoreFacts, SemaphoreRecord, SignalState, TrackedObject,
};

const SEMAPHORE_NT: u32 = model::semaphore_type::NT_HANDLE;
const FENCE_NT: u32 = model::fence_type::OPAQUE_WIN32;
const KMT: u32 = model::semaphore_type::OPAQUE_WIN32_KMT;
const OPAQUE_FD: u32 = 1;

/// One call of a sync command: which (`command` modulo ten, `SyncCommand::ALL`'s order), its info
/// structure, its output pointer (exports), the object, and the import's handle.
#[derive(Arbitrary, Debug)]
pub struct SyncIn {
    pub command: u8,
    pub info: SyncInfoIn,
    pub output_null: bool,
    pub lookup: SyncLookupIn,
    pub handle: HandleIn,
}

#[derive(Arbitrary, Debug)]
pub enum SyncInfoIn {
    Null,
    WrongSType(i32),
    Valid {
        has_p_next: bool,
        object: u64,
        handle_type: SyncBits,
        /// An import's `flags` (an export has none).
        flags: SyncBits,
    },
}

/// A handle-type or flags value, drawn so that each sync handle-type bit (bits 0 to 7), 0 and
/// the import flag are common (the values the rules branch on, each needed exactly), and any
/// value possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncBits(pub u32);

impl<'a> Arbitrary<'a> for SyncBits {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(SyncBits(match u.int_in_range(0u8..=11)? {
            n @ 0..=7 => 1 << n,
            8 => 0,
            _ => Bits::arbitrary(u)?.0,
        }))
    }
}

/// What the object handle turned out to be (`Freed`: destroyed).
#[derive(Arbitrary, Debug)]
pub struct SyncLookupIn {
    pub kind: LookupKind,
    pub facts: SyncStateIn,
    pub other_device: u64,
    pub destroyed_name: Option<String>,
}

/// The state of a live object: half the time one freshly made (what most calls see, and the
/// only state in which the signal-state rules speak), else any state the layer can hold.
#[derive(Arbitrary, Debug)]
pub enum SyncStateIn {
    Fresh {
        timeline: bool,
        export: Option<SyncBits>,
        /// Each NT handle type it was created exportable as was exported (shared by reference).
        nt_exported: bool,
    },
    Any(SyncFactsIn),
}

impl SyncStateIn {
    /// The facts: for a fresh object, its create info read, its created payload, never
    /// signaled, followed where the layer follows it.
    fn facts(&self) -> SyncFactsIn {
        match *self {
            SyncStateIn::Fresh {
                timeline,
                export,
                nt_exported,
            } => SyncFactsIn {
                known: true,
                timeline,
                create_flags: SyncBits(0),
                export,
                imported: false,
                permanent: PermanentIn::Created,
                temporary: TemporaryIn::None,
                shared: true,
                signal: 0,
                payload_escaped: nt_exported,
                nt_exported,
            },
            SyncStateIn::Any(facts) => facts,
        }
    }
}

/// A semaphore or fence as the layer may know it.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct SyncFactsIn {
    pub known: bool,
    pub timeline: bool,
    pub create_flags: SyncBits,
    pub export: Option<SyncBits>,
    pub imported: bool,
    pub permanent: PermanentIn,
    pub temporary: TemporaryIn,
    /// Followed through queue operations (where the layer can follow it).
    pub shared: bool,
    /// Index into the kind's signal states.
    pub signal: u8,
    pub payload_escaped: bool,
    /// Each NT handle type it was created exportable as was exported before.
    pub nt_exported: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum PermanentIn {
    Created,
    Imported(ImportIn),
    Unknown,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum TemporaryIn {
    None,
    Imported(ImportIn),
    Unknown,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct ImportIn {
    pub handle_type: SyncBits,
    pub exportable: Option<SyncBits>,
}

/// An import's handle: the fd or Win32 handle value, a name or not, and the export the layer
/// matched it to, if it looks one up.
#[derive(Arbitrary, Debug)]
pub struct HandleIn {
    pub fd: i32,
    pub win32_handle: u64,
    pub has_name: bool,
    pub exporter: Option<ExporterIn>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct ExporterIn {
    pub object: u64,
    pub timeline: bool,
    pub create_flags: SyncBits,
    /// Its device is known to have another driverUUID than the importer's.
    pub apart: bool,
    pub exportable: Option<SyncBits>,
}

/// The sync command of `index`.
pub fn sync_command(index: u8) -> SyncCommand {
    SyncCommand::ALL[usize::from(index) % SyncCommand::ALL.len()]
}

impl ImportIn {
    fn layer(self) -> Import {
        Import {
            handle_type: self.handle_type.0,
            exportable: self.exportable.map(|b| b.0),
        }
    }

    fn model(self, temporary: bool) -> Payload {
        Payload::Imported(ImportedPayload {
            handle_type: self.handle_type.0,
            temporary,
            exportable: self.exportable.map(|b| b.0),
        })
    }
}

impl SyncFactsIn {
    fn layer_payload(&self) -> SyncPayload {
        SyncPayload {
            permanent: match self.permanent {
                PermanentIn::Created => Permanent::Created,
                PermanentIn::Imported(i) => Permanent::Imported(i.layer()),
                PermanentIn::Unknown => Permanent::Unknown,
            },
            temporary: match self.temporary {
                TemporaryIn::None => Temporary::None,
                TemporaryIn::Imported(i) => Temporary::Imported(i.layer()),
                TemporaryIn::Unknown => Temporary::Unknown,
            },
        }
    }

    /// The payload the layer is sure of: a temporary import in place is the current one; none
    /// in place, the permanent one; anything it cannot name is not known.
    fn model_payload(&self) -> Payload {
        match (self.temporary, self.permanent) {
            (TemporaryIn::Imported(i), _) => i.model(true),
            (TemporaryIn::Unknown, _) => Payload::NotKnown,
            (TemporaryIn::None, PermanentIn::Created) => Payload::Created,
            (TemporaryIn::None, PermanentIn::Imported(i)) => i.model(false),
            (TemporaryIn::None, PermanentIn::Unknown) => Payload::NotKnown,
        }
    }

    fn imported(&self) -> bool {
        let created = matches!(
            (self.permanent, self.temporary),
            (PermanentIn::Created, TemporaryIn::None)
        );
        self.imported || !created
    }

    /// What the create info said, as recorded: nothing without it.
    fn known_export(&self) -> Option<u32> {
        self.export.filter(|_| self.known).map(|b| b.0)
    }

    fn semaphore(&self) -> (SemaphoreFacts, SyncFacts) {
        let timeline = self.known && self.timeline;
        let create_flags = if self.known { self.create_flags.0 } else { 0 };
        let export = self.known_export();
        // Only a binary semaphore whose create info was read, created exportable or imported
        // into, is followed.
        let can_share = export.is_some() || self.imported();
        let shared = self.shared && self.known && !timeline && can_share;
        // Each state, and whether it means "unsignaled, no signal operation submitted since".
        const STATES: [(SignalState, bool); 6] = [
            (SignalState::UnsignaledSinceCreation, true),
            (SignalState::UnsignaledSinceSyncFdExport, true),
            (SignalState::Waited, false),
            (SignalState::UnsignaledSinceWaitCompleted, true),
            (SignalState::SignalSubmitted, false),
            (SignalState::Unknown, false),
        ];
        let (signal, nothing_submitted) = STATES[usize::from(self.signal) % STATES.len()];
        let nt = self.nt_exported(export, SEMAPHORE_NT);
        let layer = SemaphoreFacts {
            timeline,
            export: export.map(vk::ExternalSemaphoreHandleTypeFlags::from_raw),
            create_flags: vk::SemaphoreCreateFlags::from_raw(create_flags),
            known: self.known,
            imported: self.imported(),
            payload: self.layer_payload(),
            shared,
            signal,
            payload_escaped: self.payload_escaped,
            nt_handle_exports: vk::ExternalSemaphoreHandleTypeFlags::from_raw(nt),
            ..SemaphoreFacts::default()
        };
        let nothing_submitted = shared && !self.payload_escaped && nothing_submitted;
        let model = self.model_facts(timeline, create_flags, export, nt, nothing_submitted);
        (layer, model)
    }

    fn fence(&self) -> (FenceFacts, SyncFacts) {
        let export = self.known_export();
        // A fence is followed when its create info was read, or once imported into.
        let shared = self.shared && (self.known || self.imported());
        // Each state, and whether it means "unsignaled, no signal operation submitted since".
        const STATES: [(FenceSignal, bool); 6] = [
            (FenceSignal::UnsignaledSinceCreation, true),
            (FenceSignal::UnsignaledSinceReset, true),
            (FenceSignal::UnsignaledSinceSyncFdExport, true),
            (FenceSignal::Signaled, false),
            (FenceSignal::Submitted, false),
            (FenceSignal::Unknown, false),
        ];
        let (signal, nothing_submitted) = STATES[usize::from(self.signal) % STATES.len()];
        let nt = self.nt_exported(export, FENCE_NT);
        let layer = FenceFacts {
            export: export.map(vk::ExternalFenceHandleTypeFlags::from_raw),
            known: self.known,
            imported: self.imported(),
            payload: self.layer_payload(),
            nt_exported: vk::ExternalFenceHandleTypeFlags::from_raw(nt),
            shared,
            signal,
            signaled_by: None,
            payload_escaped: self.payload_escaped,
        };
        let nothing_submitted = shared && !self.payload_escaped && nothing_submitted;
        let model = self.model_facts(false, 0, export, nt, nothing_submitted);
        (layer, model)
    }

    /// The NT handle types exported before: only a type it was created exportable as counts.
    fn nt_exported(&self, export: Option<u32>, nt_types: u32) -> u32 {
        if self.nt_exported {
            export.unwrap_or(0) & nt_types
        } else {
            0
        }
    }

    fn model_facts(
        &self,
        timeline: bool,
        create_flags: u32,
        export: Option<u32>,
        nt: u32,
        nothing_submitted: bool,
    ) -> SyncFacts {
        SyncFacts {
            known: self.known,
            timeline,
            create_flags,
            export,
            payload: self.model_payload(),
            signal: if nothing_submitted {
                Signal::NothingSubmitted
            } else {
                Signal::NotKnown
            },
            nt_handles_exported: nt,
        }
    }
}

/// The lookup of `handle` on `device`, and the model's object, for a kind whose record is
/// `record(owner)` and whose destroyed record `gone(record, name)`.
fn lookups<K: TrackedObject>(
    device: u64,
    handle: u64,
    l: &SyncLookupIn,
    facts: SyncFacts,
    record: impl Fn(u64) -> K::Record,
    gone: impl Fn(K::Record, Option<String>) -> K::Gone,
) -> (Lookup<K>, SyncObject) {
    if handle == 0 {
        return (Lookup::Null, SyncObject::Null);
    }
    match l.kind {
        LookupKind::Null | LookupKind::Unknown => (Lookup::Unknown, SyncObject::Unknown),
        LookupKind::Freed => (
            Lookup::Gone(Box::new(gone(record(device), l.destroyed_name.clone()))),
            SyncObject::Destroyed,
        ),
        LookupKind::Live => (Lookup::Live(record(device)), SyncObject::Live(facts)),
        LookupKind::OtherDevice => {
            let other = if l.other_device == device {
                device ^ 1
            } else {
                l.other_device
            };
            (Lookup::OtherDevice(record(other)), SyncObject::OtherDevice)
        }
    }
}

fn semaphore_lookup(device: u64, handle: u64, l: &SyncLookupIn) -> (Lookup<Semaphore>, SyncObject) {
    let (facts, model) = l.facts.facts().semaphore();
    let record = |owner| SemaphoreRecord {
        semaphore: handle,
        device: owner,
        facts,
    };
    let gone = |record, name| DestroyedSemaphore { record, name };
    lookups::<Semaphore>(device, handle, l, model, record, gone)
}

fn fence_lookup(device: u64, handle: u64, l: &SyncLookupIn) -> (Lookup<Fence>, SyncObject) {
    let (facts, model) = l.facts.facts().fence();
    let record = |owner| FenceRecord {
        fence: handle,
        device: owner,
        facts,
    };
    let gone = |record, name| DestroyedFence { record, name };
    lookups::<Fence>(device, handle, l, model, record, gone)
}

/// The importing device's driver UUID and an exporter's, apart or not (both unknown when not:
/// nothing is judged of unknown UUIDs either).
fn driver_uuids(apart: bool) -> (Option<[u8; 16]>, Option<[u8; 16]>) {
    if apart {
        (Some([1; 16]), Some([2; 16]))
    } else {
        (None, None)
    }
}

fn model_exporter(x: &ExporterIn, timeline: bool) -> Exporter {
    Exporter {
        timeline,
        create_flags: x.create_flags.0,
        same_device_and_driver: x.apart.then_some(false),
    }
}

fn semaphore_origin(x: &ExporterIn) -> SemaphoreOrigin {
    SemaphoreOrigin {
        device: 0xe0,
        semaphore: x.object,
        timeline: x.timeline,
        create_flags: vk::SemaphoreCreateFlags::from_raw(x.create_flags.0),
        driver_uuid: driver_uuids(x.apart).1,
        devices: Default::default(),
        exportable: x.exportable.map(|b| b.0),
        process: None,
    }
}

fn fence_origin(x: &ExporterIn) -> FenceOrigin {
    FenceOrigin {
        device: 0xe0,
        fence: x.object,
        devices: Default::default(),
        driver_uuid: driver_uuids(x.apart).1,
        exportable: x.exportable.map(|b| b.0),
    }
}

/// The layer's half of one call: the shared and value rules of `cmd`, then, on a live object,
/// the arguments' rules (`own`), described as the pipeline describes them. Each broken rule gets
/// exactly one finding (one rule has two IDs), and a blocking shared rule blocks.
fn run_rules<R: RuleSet, K: ExportedObject>(
    cmd: &ExportCommand<R, K>,
    facts: &DeviceFacts,
    call: &ExportCall<K>,
    own: impl Fn(&InfoFields, &K::Record) -> R,
    describe_own: impl Fn(&InfoFields, &K::Record, R, &mut Outcome),
    two_ids: impl Fn(R) -> bool,
) -> Outcome {
    let live = match (&call.info, &call.object) {
        (StructArg::Valid(fields), Lookup::Live(record)) => Some((fields, record)),
        _ => None,
    };
    let mut broken = export::evaluate(cmd, facts, call);
    if let Some((fields, record)) = live {
        broken = broken.and_own(own(fields, record));
    }
    let mut outcome = if broken.is_empty() {
        Outcome::default()
    } else {
        export::describe(cmd, facts, call, broken)
    };
    if let Some((fields, record)) = live {
        describe_own(fields, record, broken.own(), &mut outcome);
    }
    assert_eq!(
        broken.len() as usize + usize::from(two_ids(broken.own())),
        outcome.findings.len(),
        "{}: one finding per broken rule",
        cmd.name
    );
    assert!(
        !export::blocks(broken) || outcome.blocked,
        "{}: a blocking rule blocks",
        cmd.name
    );
    outcome
}

/// Runs one sync call through the layer and through the model.
pub fn sync_call(facts: &DeviceFacts, device: &SyncDevice, c: &SyncIn) -> (Outcome, Expected) {
    use SyncCommand::*;
    let command = sync_command(c.command);
    let (object, handle_type, flags, has_p_next) = match c.info {
        SyncInfoIn::Valid {
            object,
            handle_type,
            flags,
            has_p_next,
        } => (object, handle_type.0, flags.0, has_p_next),
        _ => (0, 0, 0, false),
    };
    let info = |s_type: vk::StructureType| match c.info {
        SyncInfoIn::Null => StructArg::Null,
        // read_struct never reports the expected sType as wrong.
        SyncInfoIn::WrongSType(t) => {
            StructArg::WrongSType(vk::StructureType::from_raw(if t == s_type.as_raw() {
                t ^ 1
            } else {
                t
            }))
        }
        SyncInfoIn::Valid { .. } => StructArg::Valid(InfoFields {
            has_p_next,
            object,
            handle_type,
        }),
    };
    let valid = matches!(c.info, SyncInfoIn::Valid { .. });
    let output_null = c.output_null && !command.is_import();
    let (sem_lookup, sem_model) = semaphore_lookup(facts.handle, object, &c.lookup);
    let (fence_lookup, fence_model) = fence_lookup(facts.handle, object, &c.lookup);
    let sem_call = |s_type| ExportCall::<Semaphore> {
        info: info(s_type),
        output_null,
        object: if valid {
            sem_lookup.clone()
        } else {
            Lookup::Null
        },
    };
    let fence_call = |s_type| ExportCall::<Fence> {
        info: info(s_type),
        output_null,
        object: if valid {
            fence_lookup.clone()
        } else {
            Lookup::Null
        },
    };
    let h = &c.handle;
    let (importer_uuid, _) = driver_uuids(h.exporter.is_some_and(|x| x.apart));
    let importer = import_semaphore_fd::Importer {
        devices: Default::default(),
        driver_uuid: importer_uuid,
    };
    // The export an import's handle is matched to, where the command looks one up.
    let looked_up = match command {
        ImportSemaphoreFd | ImportFenceFd => handle_type == OPAQUE_FD,
        ImportSemaphoreWin32Handle => handle_type == KMT && h.win32_handle != 0 && !h.has_name,
        _ => false,
    };
    let exporter = h.exporter.filter(|_| looked_up);
    let sem_origin = exporter.as_ref().map(semaphore_origin);
    let fence_origin = exporter.as_ref().map(fence_origin);
    let s_type = |cmd_info: &Option<export::InfoStructure>| {
        cmd_info.as_ref().expect("an info structure").s_type
    };

    let outcome = match command {
        GetSemaphoreFd => {
            use get_semaphore_fd::GetSemaphoreFdRules as Rules;
            let cmd = &get_semaphore_fd::COMMAND;
            let call = sem_call(s_type(&cmd.info));
            // A sync file of a semaphore with nothing submitted: one rule, two IDs (01135 and
            // 03254, reported together).
            let two_ids = |own: Rules| own.has(Rules::SYNC_FD_WITHOUT_SIGNAL);
            run_rules(
                cmd,
                facts,
                &call,
                |_, _| Rules::NONE,
                |_, _, _, _| {},
                two_ids,
            )
        }
        GetSemaphoreWin32Handle => {
            let cmd = &get_semaphore_win32_handle::COMMAND;
            run_export(cmd, facts, &sem_call(s_type(&cmd.info)))
        }
        GetSemaphoreZirconHandle => {
            let cmd = &get_semaphore_zircon_handle::COMMAND;
            run_export(cmd, facts, &sem_call(s_type(&cmd.info)))
        }
        GetFenceFd => {
            let cmd = &get_fence_fd::COMMAND;
            run_export(cmd, facts, &fence_call(s_type(&cmd.info)))
        }
        GetFenceWin32Handle => {
            let cmd = &get_fence_win32_handle::COMMAND;
            run_export(cmd, facts, &fence_call(s_type(&cmd.info)))
        }
        ImportSemaphoreFd => {
            use import_semaphore_fd as rules;
            let args = rules::ImportArguments { flags, fd: h.fd };
            let cmd = &rules::COMMAND;
            run_rules(
                cmd,
                facts,
                &sem_call(s_type(&cmd.info)),
                |fields, record| {
                    rules::evaluate_arguments(fields, &args, record, &importer, sem_origin.as_ref())
                },
                |fields, record, broken, outcome| {
                    let origin = sem_origin.as_ref();
                    rules::describe_arguments(fields, &args, record, origin, broken, outcome)
                },
                |_| false,
            )
        }
        ImportSemaphoreWin32Handle => {
            use import_semaphore_win32 as rules;
            let args = rules::ImportArguments {
                flags,
                handle: h.win32_handle,
                has_name: h.has_name,
            };
            let cmd = &rules::COMMAND;
            run_rules(
                cmd,
                facts,
                &sem_call(s_type(&cmd.info)),
                |fields, record| {
                    rules::evaluate_arguments(fields, &args, record, sem_origin.as_ref())
                },
                |fields, record, broken, outcome| {
                    let origin = sem_origin.as_ref();
                    rules::describe_arguments(fields, &args, record, origin, broken, outcome)
                },
                |_| false,
            )
        }
        ImportSemaphoreZirconHandle => {
            use import_semaphore_zircon as rules;
            let cmd = &rules::COMMAND;
            run_rules(
                cmd,
                facts,
                &sem_call(s_type(&cmd.info)),
                |_, _| rules::evaluate_arguments(flags),
                |_, record, broken, outcome| {
                    rules::describe_arguments(flags, record, broken, outcome)
                },
                |_| false,
            )
        }
        ImportFenceFd => {
            use import_fence_fd as rules;
            let args = rules::ImportArguments { flags, fd: h.fd };
            let cmd = &rules::COMMAND;
            run_rules(
                cmd,
                facts,
                &fence_call(s_type(&cmd.info)),
                |fields, _| {
                    rules::evaluate_arguments(fields, &args, &importer, fence_origin.as_ref())
                },
                |fields, record, broken, outcome| {
                    let origin = fence_origin.as_ref();
                    rules::describe_arguments(fields, &args, record, origin, broken, outcome)
                },
                |_| false,
            )
        }
        ImportFenceWin32Handle => {
            use import_fence_win32_handle as rules;
            let args = rules::ImportArguments {
                flags,
                has_handle: h.win32_handle != 0,
                has_name: h.has_name,
            };
            let cmd = &rules::COMMAND;
            run_rules(
                cmd,
                facts,
                &fence_call(s_type(&cmd.info)),
                |fields, _| rules::evaluate_arguments(fields, &args),
                |fields, record, broken, outcome| {
                    rules::describe_arguments(fields, &args, record, broken, outcome)
                },
                |_| false,
            )
        }
    };

    // The model's view of the same call.
    let object = match command.kind() {
        model::Kind::Semaphore => sem_model,
        model::Kind::Fence => fence_model,
    };
    let exporter_timeline = |x: &ExporterIn| command.kind() == model::Kind::Semaphore && x.timeline;
    let call = if command.is_import() {
        SyncCall::Import {
            command,
            info: match c.info {
                SyncInfoIn::Null => Info::Null,
                SyncInfoIn::WrongSType(_) => Info::WrongSType,
                SyncInfoIn::Valid { .. } => Info::Valid(SyncImportInfo {
                    p_next: has_p_next,
                    object,
                    flags,
                    handle_type,
                    handle: ImportedHandle {
                        exporter: exporter
                            .as_ref()
                            .map(|x| model_exporter(x, exporter_timeline(x))),
                        another_kind: false,
                        win32_handle: h.win32_handle != 0,
                        win32_name: h.has_name,
                    },
                }),
            },
        }
    } else {
        SyncCall::Export {
            command,
            info: match c.info {
                SyncInfoIn::Null => Info::Null,
                SyncInfoIn::WrongSType(_) => Info::WrongSType,
                SyncInfoIn::Valid { .. } => Info::Valid(SyncExportInfo {
                    p_next: has_p_next,
                    object,
                    handle_type,
                }),
            },
            output_null,
        }
    };
    (outcome, model::expected_sync(device, &call))
}

/// An export command's rules, as the pipeline runs them (no arguments beyond the shared ones).
fn run_export<R: RuleSet, K: ExportedObject>(
    cmd: &ExportCommand<R, K>,
    facts: &DeviceFacts,
    call: &ExportCall<K>,
) -> Outcome {
    run_rules(cmd, facts, call, |_, _| R::NONE, |_, _, _, _| {}, |_| false)
}

/// A sync command on a device the layer does not know.
pub fn unknown_sync_device(command: u8, device: u64) -> (Outcome, Expected) {
    let command = sync_command(command);
    let (name, id) = match command {
        SyncCommand::GetSemaphoreFd => names(&get_semaphore_fd::COMMAND),
        SyncCommand::GetSemaphoreWin32Handle => names(&get_semaphore_win32_handle::COMMAND),
        SyncCommand::GetSemaphoreZirconHandle => names(&get_semaphore_zircon_handle::COMMAND),
        SyncCommand::GetFenceFd => names(&get_fence_fd::COMMAND),
        SyncCommand::GetFenceWin32Handle => names(&get_fence_win32_handle::COMMAND),
        SyncCommand::ImportSemaphoreFd => names(&import_semaphore_fd::COMMAND),
        SyncCommand::ImportSemaphoreWin32Handle => names(&import_semaphore_win32::COMMAND),
        SyncCommand::ImportSemaphoreZirconHandle => names(&import_semaphore_zircon::COMMAND),
        SyncCommand::ImportFenceFd => names(&import_fence_fd::COMMAND),
        SyncCommand::ImportFenceWin32Handle => names(&import_fence_win32_handle::COMMAND),
    };
    assert_eq!(
        name,
        command.name(),
        "the model's commands in the same order"
    );
    (
        unknown_device(name, id, device),
        model::unknown_device(command),
    )
}

fn names<R, K: TrackedObject>(cmd: &ExportCommand<R, K>) -> (&'static str, &'static str) {
    (cmd.name, cmd.device_vuid)
}
