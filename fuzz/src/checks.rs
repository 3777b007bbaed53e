//! The `checks` target: arbitrary device facts and arbitrary arguments for every check function,
//! each outcome compared with the project's one model of the rules (`exportcheck-spec-model`,
//! `tests/model`), written from the spec and docs/checks.md and shared with the end-to-end tests.
//! This file builds the layer's inputs and the model's from the same arbitrary input, and holds
//! no rule of its own; `checks_imports.rs` does so for the import structures of
//! `vkAllocateMemory`, `checks_queries.rs` for the handle-property queries, `checks_binds.rs` for
//! the bind commands, `checks_sync.rs` for the semaphore and fence exports and imports.
//!
//! Properties, for every call:
//! - the outcome's IDs are exactly the model's (as a multiset: no ID twice), and `blocked` is
//!   exactly "an argument is a pointer or handle known to be bad";
//! - a blocked outcome has a finding;
//! - every finding's ID is in `vuid::ALL` and the catalog, with the catalog's severity and a
//!   catalog command that is this command (or `*`); its message starts with `command(): `; it
//!   names a field and at least one object;
//! - `render_text` is non-empty, carries `[ ID ]` and ends with the ID's spec link, and names
//!   every named object at each whole mention of its handle, and only there.

use crate::checks_binds::{bind_call, bind_of, BindIn};
use crate::checks_imports::ImportsIn;
use crate::checks_queries::{query_call, query_of, unknown_device_query, QueryIn};
use crate::checks_sync::{sync_call, sync_command, unknown_sync_device, SyncIn};
use crate::{layer, Bits};
use arbitrary::Arbitrary;
use ash::vk;
use exportcheck_spec_model::{
    self as model, AllocateInfo, Allocation, Call, ChainEnd as ModelEnd, Command, Expected,
    ExportInfo, Extensions, Info, Memory,
};
use layer::features::driver_contract::rules::{self as driver_contract, FdProbe, Returned};
use layer::finding::{Finding, ObjectRef, Outcome, Severity};
use layer::raw::{AllocateInfoRead, ChainEnd, StructArg};
use layer::rules::allocate::alloc;
use layer::rules::common::unknown_device;
use layer::rules::export::get_memory_android_hardware_buffer;
use layer::rules::export::get_memory_fd;
use layer::rules::export::get_memory_metal_handle;
use layer::rules::export::get_memory_remote_address;
use layer::rules::export::get_memory_win32_handle;
use layer::rules::export::get_memory_win32_handle_nv;
use layer::rules::export::get_memory_zircon_handle;
use layer::rules::export::{
    self as layer_export, ExportCall as LayerCall, ExportCommand, InfoFields,
};
use layer::rules::import::import_handles;
use layer::rules::rule_set::RuleSet;
use layer::state::{
    AllocationFacts, DeviceFacts, EnabledExtensions, FreedMemory, MemoryLookup, MemoryRecord,
    MemoryTypeFacts,
};
use layer::vk_names::allocate_chain_bit;
use layer::{vk_ext, vk_names, vuid};

/// One input: a device, debug names, and up to 16 calls on it.
#[derive(Arbitrary, Debug)]
pub struct Input {
    pub device: DeviceIn,
    pub names: NamesIn,
    pub calls: Vec<CallIn>,
}

#[derive(Arbitrary, Debug)]
pub struct DeviceIn {
    pub handle: u64,
    /// khr_external_memory, khr_external_memory_fd, ext_external_memory_dma_buf,
    /// nv_external_memory_rdma, nv_external_memory, nv_external_memory_win32,
    /// ext_external_memory_metal, ext_external_memory_host,
    /// android_external_memory_android_hardware_buffer, fuchsia_external_memory,
    /// qnx_external_memory_screen_buffer, ohos_external_memory, khr_external_memory_win32
    /// (`model::Extension::ALL`'s order).
    pub extensions: [bool; 13],
    /// The device offers Vulkan 1.1 (else 1.0).
    pub version_1_1: bool,
    pub rdma_feature: bool,
    pub memory_types: Vec<Bits>,
    /// khr_external_semaphore_fd, khr_external_semaphore_win32, fuchsia_external_semaphore,
    /// khr_external_fence_fd, khr_external_fence_win32 (the sync commands' extensions).
    pub sync_extensions: [bool; 5],
}

/// Debug names the app set: for the calling device, another device, and any memory object.
/// Names never contain `x`, so a name can never hold a handle token (`0x...`).
#[derive(Arbitrary, Debug)]
pub struct NamesIn {
    pub device: Option<String>,
    pub other_device: Option<String>,
    pub memory: Option<String>,
}

/// What `vkAllocateMemory` was given (see `AllocationFacts`).
#[derive(Arbitrary, Debug, Clone)]
pub struct FactsIn {
    pub size: u64,
    pub memory_type_index: u8,
    pub export: Option<Bits>,
    pub export_nv: Option<Bits>,
    pub export_win32_nv: bool,
    /// The chain has a `VkExportMemoryWin32HandleInfoKHR` (a `ChainRead` fact, not packed).
    pub export_win32_khr: bool,
    pub import: Option<Bits>,
    pub dedicated: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupKind {
    Null,
    Unknown,
    Freed,
    Live,
    OtherDevice,
}

/// What the memory handle of a call turned out to be, as `registry::lookup_memory` can answer.
#[derive(Arbitrary, Debug)]
pub struct LookupIn {
    pub kind: LookupKind,
    pub facts: FactsIn,
    pub other_device: u64,
    pub other_type_flags: Bits,
    pub freed_name: Option<String>,
}

#[derive(Arbitrary, Debug)]
pub enum InfoIn {
    Null,
    WrongSType(i32),
    Valid {
        has_p_next: bool,
        memory: u64,
        handle_type: Bits,
    },
}

#[derive(Arbitrary, Debug)]
pub struct ExportCall {
    pub info: InfoIn,
    pub output_null: bool,
    pub lookup: LookupIn,
}

#[derive(Arbitrary, Debug)]
pub enum ChainEndIn {
    Complete,
    Cycle,
    TooLong,
}

#[derive(Arbitrary, Debug)]
pub enum AllocInfoIn {
    Null,
    WrongSType(i32),
    Valid(FactsIn, ChainEndIn, ImportsIn),
}

#[derive(Arbitrary, Debug)]
pub enum CallIn {
    GetFd(ExportCall),
    GetRemoteAddress(ExportCall),
    GetMetalHandle(ExportCall),
    GetWin32Handle {
        memory: u64,
        lookup: LookupIn,
        handle_type: Bits,
        output_null: bool,
    },
    Allocate {
        info: AllocInfoIn,
        output_null: bool,
    },
    Free {
        memory: u64,
        lookup: LookupIn,
    },
    UnknownDevice {
        command: u8,
        device: u64,
    },
    GetWin32HandleKhr(ExportCall),
    GetZirconHandle(ExportCall),
    GetAndroidHardwareBuffer(ExportCall),
    DriverFd {
        facts: FactsIn,
        fd: i32,
        probe: Option<(Option<bool>, Option<bool>, bool)>,
    },
    DriverPointer {
        command: u8,
        facts: FactsIn,
        value: usize,
    },
    /// A handle-property query (`checks_queries`).
    Query(QueryIn),
    UnknownQueryDevice {
        query: u8,
        device: u64,
    },
    /// A binding of memory to a buffer or image (`checks_binds`).
    Bind(BindIn),
    /// A semaphore or fence export or import (`checks_sync`).
    Sync(SyncIn),
    UnknownSyncDevice {
        command: u8,
        device: u64,
    },
}

impl FactsIn {
    fn to_facts(&self) -> AllocationFacts {
        AllocationFacts {
            size: self.size,
            memory_type_index: u32::from(self.memory_type_index),
            export: self
                .export
                .map(|b| vk::ExternalMemoryHandleTypeFlags::from_raw(b.0)),
            export_nv: self
                .export_nv
                .map(|b| vk::ExternalMemoryHandleTypeFlagsNV::from_raw(b.0)),
            export_win32_nv: self.export_win32_nv,
            import: self
                .import
                .map(|b| vk::ExternalMemoryHandleTypeFlags::from_raw(b.0)),
            dedicated: self.dedicated,
        }
    }

    /// The structures of `vk_names::ALLOCATE_CHAIN` these facts come from (the import
    /// structures: `ImportsIn::structures`).
    fn structures(&self) -> u32 {
        use vk::StructureType as S;
        [
            (self.export.is_some(), S::EXPORT_MEMORY_ALLOCATE_INFO),
            (self.export_nv.is_some(), S::EXPORT_MEMORY_ALLOCATE_INFO_NV),
            (self.export_win32_nv, S::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV),
            (self.dedicated, S::MEMORY_DEDICATED_ALLOCATE_INFO),
            (
                self.export_win32_khr,
                S::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
            ),
        ]
        .into_iter()
        .filter(|(present, _)| *present)
        .fold(0, |bits, (_, s_type)| bits | allocate_chain_bit(s_type))
    }

    /// The same facts, for the model.
    fn to_model(&self) -> Allocation {
        Allocation {
            size: self.size,
            memory_type_index: u32::from(self.memory_type_index),
            export: self.export.map(|b| b.0),
            export_nv: self.export_nv.map(|b| b.0),
            export_win32_nv: self.export_win32_nv,
            export_win32_khr: self.export_win32_khr,
            import: self.import.map(|b| b.0),
            dedicated: self.dedicated,
            // A dedicated allocation names a buffer unless an `ImportsIn` says an image.
            dedicated_image: false,
        }
    }
}

impl DeviceIn {
    fn to_facts(&self) -> DeviceFacts {
        let e = self.extensions;
        let extensions = EnabledExtensions {
            khr_external_memory: e[0],
            khr_external_memory_fd: e[1],
            ext_external_memory_dma_buf: e[2],
            nv_external_memory_rdma: e[3],
            nv_external_memory: e[4],
            nv_external_memory_win32: e[5],
            ext_external_memory_metal: e[6],
            ext_external_memory_host: e[7],
            android_external_memory_android_hardware_buffer: e[8],
            fuchsia_external_memory: e[9],
            qnx_external_memory_screen_buffer: e[10],
            ohos_external_memory: e[11],
            khr_external_memory_win32: e[12],
            khr_swapchain: false,
            // The model's devices: every structure it chains but the export, import and
            // dedicated ones of the extensions above is available.
            khr_dedicated_allocation: true,
            nv_dedicated_allocation: true,
            khr_buffer_device_address: true,
            khr_device_group: true,
            khr_external_semaphore_fd: self.sync_extensions[0],
            khr_external_semaphore_win32: self.sync_extensions[1],
            fuchsia_external_semaphore: self.sync_extensions[2],
            khr_external_fence_fd: self.sync_extensions[3],
            khr_external_fence_win32: self.sync_extensions[4],
        };
        let api_version = if self.version_1_1 {
            vk::API_VERSION_1_1
        } else {
            vk::API_VERSION_1_0
        };
        DeviceFacts {
            handle: self.handle,
            extensions,
            handle_types: extensions.handle_types(),
            unavailable_structures: extensions.unavailable_structures(api_version),
            api_version,
            rdma_feature: self.rdma_feature,
            // The model knows the memory types, not their heaps: every type's heap is unbounded
            // (no 01713) and has no flags (no 10976), and a device listing no types has them
            // unknown (no 01714), as there.
            memory_types: (!self.memory_types.is_empty()).then(|| {
                self.memory_types
                    .iter()
                    .take(32)
                    .map(|b| MemoryTypeFacts {
                        flags: vk::MemoryPropertyFlags::from_raw(b.0),
                        heap_size: u64::MAX,
                        heap_flags: vk::MemoryHeapFlags::empty(),
                    })
                    .collect()
            }),
            host_pointer_alignment: None,
            // No feature is enabled, as in the model; one queue; no allocation limit (the count
            // is not a rule of the arguments).
            features: Default::default(),
            queue_create_info_count: 1,
            max_memory_allocation_count: None,
        }
    }

    /// The same device, for the model.
    fn to_model(&self) -> model::Device {
        model::Device {
            extensions: Extensions::from_flags(self.extensions),
            version_1_1: self.version_1_1,
            rdma_feature: self.rdma_feature,
            memory_types: self.memory_types.iter().take(32).map(|b| b.0).collect(),
            // No feature is enabled, as in `to_facts`.
            protected_memory: false,
            device_coherent_memory: false,
        }
    }

    /// The same device's sync extensions, for the model.
    fn to_sync_model(&self) -> model::SyncDevice {
        let e = self.sync_extensions;
        model::SyncDevice {
            khr_external_semaphore_fd: e[0],
            khr_external_semaphore_win32: e[1],
            fuchsia_external_semaphore: e[2],
            khr_external_fence_fd: e[3],
            khr_external_fence_win32: e[4],
        }
    }

    fn type_flags(&self, index: u8) -> u32 {
        self.memory_types
            .iter()
            .take(32)
            .nth(usize::from(index))
            .map_or(0, |b| b.0)
    }
}

/// The one place the target builds `MemoryRecord`s and `MemoryLookup`s: consistent with what
/// `state::registry::lookup_memory` can return for handle `memory` on a device `device`.
fn memory_lookup(device: &DeviceIn, memory: u64, l: &LookupIn) -> MemoryLookup {
    let own_flags = vk::MemoryPropertyFlags::from_raw(device.type_flags(l.facts.memory_type_index));
    let record = |owner: u64, type_flags: vk::MemoryPropertyFlags| {
        MemoryRecord::new(memory, owner, &l.facts.to_facts(), type_flags)
    };
    if memory == 0 {
        return MemoryLookup::Null;
    }
    match l.kind {
        LookupKind::Null | LookupKind::Unknown => MemoryLookup::Unknown,
        LookupKind::Freed => MemoryLookup::Gone(Box::new(FreedMemory {
            record: record(device.handle, own_flags),
            name: l.freed_name.clone(),
        })),
        LookupKind::Live => MemoryLookup::Live(record(device.handle, own_flags)),
        LookupKind::OtherDevice => {
            let other = if l.other_device == device.handle {
                device.handle ^ 1
            } else {
                l.other_device
            };
            let flags = vk::MemoryPropertyFlags::from_raw(l.other_type_flags.0);
            MemoryLookup::OtherDevice(record(other, flags))
        }
    }
}

/// The memory `memory_lookup` made, for the model (built from the same input, not from the
/// layer's types).
fn memory_model(memory: u64, l: &LookupIn) -> Memory {
    match l.kind {
        _ if memory == 0 => Memory::Null,
        LookupKind::Null | LookupKind::Unknown => Memory::Unknown,
        LookupKind::Freed => Memory::Freed,
        LookupKind::Live => Memory::Live(l.facts.to_model()),
        LookupKind::OtherDevice => Memory::OtherDevice,
    }
}

/// The commands with an info structure: the layer's rules, and the model's command.
struct InfoCommand {
    /// The layer's rules of the command, run by [`run_export_rules`] (each command's own rules
    /// are of their own type).
    run: fn(&DeviceFacts, &LayerCall) -> Outcome,
    /// The `sType` of the command's info structure.
    s_type: vk::StructureType,
    model: Command,
    /// The handle type the descriptor reads for an info structure without one.
    fixed_handle_type: Option<u32>,
}

const FD: InfoCommand = InfoCommand {
    run: |facts, call| run_export_rules(&get_memory_fd::COMMAND, facts, call),
    s_type: info_s_type(&get_memory_fd::COMMAND),
    model: Command::GetMemoryFd,
    fixed_handle_type: None,
};
const RDMA: InfoCommand = InfoCommand {
    run: |facts, call| run_export_rules(&get_memory_remote_address::COMMAND, facts, call),
    s_type: info_s_type(&get_memory_remote_address::COMMAND),
    model: Command::GetMemoryRemoteAddress,
    fixed_handle_type: None,
};
const METAL: InfoCommand = InfoCommand {
    run: |facts, call| run_export_rules(&get_memory_metal_handle::COMMAND, facts, call),
    s_type: info_s_type(&get_memory_metal_handle::COMMAND),
    model: Command::GetMemoryMetalHandle,
    fixed_handle_type: None,
};
const WIN32_KHR: InfoCommand = InfoCommand {
    run: |facts, call| run_export_rules(&get_memory_win32_handle::COMMAND, facts, call),
    s_type: info_s_type(&get_memory_win32_handle::COMMAND),
    model: Command::GetMemoryWin32HandleKhr,
    fixed_handle_type: None,
};
const ZIRCON: InfoCommand = InfoCommand {
    run: |facts, call| run_export_rules(&get_memory_zircon_handle::COMMAND, facts, call),
    s_type: info_s_type(&get_memory_zircon_handle::COMMAND),
    model: Command::GetMemoryZirconHandle,
    fixed_handle_type: None,
};
const ANDROID_HARDWARE_BUFFER: InfoCommand = InfoCommand {
    run: |facts, call| run_export_rules(&get_memory_android_hardware_buffer::COMMAND, facts, call),
    s_type: info_s_type(&get_memory_android_hardware_buffer::COMMAND),
    model: Command::GetMemoryAndroidHardwareBuffer,
    fixed_handle_type: Some(get_memory_android_hardware_buffer::HANDLE_TYPE.as_raw()),
};

/// The `sType` of `cmd`'s info structure (none is 0).
const fn info_s_type<R>(cmd: &ExportCommand<R>) -> vk::StructureType {
    match &cmd.info {
        Some(info) => info.s_type,
        None => vk::StructureType::from_raw(0),
    }
}

/// Runs an export command's rules as the pipeline does: `evaluate`, and `describe` of what it
/// says is broken. Each broken rule gets exactly one finding, and the call is blocked exactly
/// when a blocking rule is broken.
fn run_export_rules<R: RuleSet>(
    cmd: &ExportCommand<R>,
    facts: &DeviceFacts,
    call: &LayerCall,
) -> Outcome {
    let broken = layer_export::evaluate(cmd, facts, call);
    let outcome = layer_export::check(cmd, facts, call);
    assert_eq!(
        broken.len() as usize,
        outcome.findings.len(),
        "{}: one finding per broken rule",
        cmd.name
    );
    assert_eq!(
        outcome.blocked,
        layer_export::blocks(broken),
        "{}: blocked exactly by the blocking rules",
        cmd.name
    );
    outcome
}

/// Runs one info-structure export command through the layer and through the model.
fn export_call(ic: &InfoCommand, device: &DeviceIn, call: &ExportCall) -> (Outcome, Expected) {
    let (info, memory) = match call.info {
        InfoIn::Null => (StructArg::Null, MemoryLookup::Null),
        InfoIn::WrongSType(t) => {
            // read_struct never reports the expected sType as wrong.
            let s_type = ic.s_type.as_raw();
            let t = if t == s_type { t ^ 1 } else { t };
            (
                StructArg::WrongSType(vk::StructureType::from_raw(t)),
                MemoryLookup::Null,
            )
        }
        InfoIn::Valid {
            has_p_next,
            memory,
            handle_type,
        } => (
            StructArg::Valid(InfoFields {
                has_p_next,
                object: memory,
                handle_type: ic.fixed_handle_type.unwrap_or(handle_type.0),
            }),
            memory_lookup(device, memory, &call.lookup),
        ),
    };
    let args = LayerCall {
        info,
        output_null: call.output_null,
        object: memory,
    };
    let outcome = (ic.run)(&device.to_facts(), &args);

    let info = match call.info {
        InfoIn::Null => Info::Null,
        InfoIn::WrongSType(_) => Info::WrongSType,
        InfoIn::Valid {
            has_p_next,
            memory,
            handle_type,
        } => Info::Valid(ExportInfo {
            p_next: has_p_next,
            memory: memory_model(memory, &call.lookup),
            handle_type: handle_type.0,
        }),
    };
    let call = Call::Export {
        command: ic.model,
        info,
        output_null: call.output_null,
    };
    (outcome, model::expected(&device.to_model(), &call))
}

fn win32_call(
    device: &DeviceIn,
    memory: u64,
    lookup: &LookupIn,
    handle_type: u32,
    output_null: bool,
) -> (Outcome, Expected) {
    let args = LayerCall {
        info: StructArg::Valid(InfoFields {
            has_p_next: false,
            object: memory,
            handle_type,
        }),
        output_null,
        object: memory_lookup(device, memory, lookup),
    };
    let outcome = run_export_rules(
        &get_memory_win32_handle_nv::COMMAND,
        &device.to_facts(),
        &args,
    );

    let call = Call::Win32Handle {
        memory: memory_model(memory, lookup),
        handle_type,
        output_null,
    };
    (outcome, model::expected(&device.to_model(), &call))
}

fn allocate_call(device: &DeviceIn, info: &AllocInfoIn, output_null: bool) -> (Outcome, Expected) {
    let read = match info {
        AllocInfoIn::Null => AllocateInfoRead::Null,
        AllocInfoIn::WrongSType(t) => {
            let t = if *t == vk::StructureType::MEMORY_ALLOCATE_INFO.as_raw() {
                t ^ 1
            } else {
                *t
            };
            AllocateInfoRead::WrongSType(vk::StructureType::from_raw(t))
        }
        AllocInfoIn::Valid(facts, end, imports) => AllocateInfoRead::Valid(
            facts.to_facts(),
            layer::raw::ChainRead {
                end: match end {
                    ChainEndIn::Complete => ChainEnd::Complete,
                    ChainEndIn::Cycle => ChainEnd::Cycle,
                    ChainEndIn::TooLong => ChainEnd::TooLong,
                },
                export_win32: facts.export_win32_khr,
                // The model's dedicated allocation: a VkMemoryDedicatedAllocateInfo naming an
                // image or a buffer.
                dedicated_info: facts.dedicated.then_some(if imports.dedicated_image {
                    (0x2a, 0)
                } else {
                    (0, 0x2b)
                }),
                import_fd: imports.layer_fd(),
                import_operations: imports.operations(),
                handle_imports: imports.has_handle_imports(),
                host: imports.layer_host(facts.dedicated),
                structures: facts.structures() | imports.structures(),
                ..layer::raw::ChainRead::COMPLETE
            },
        ),
    };
    let device_facts = DeviceFacts {
        host_pointer_alignment: match info {
            AllocInfoIn::Valid(_, _, imports) => imports.alignment(),
            _ => None,
        },
        ..device.to_facts()
    };
    let broken = alloc::evaluate_allocate(&device_facts, &read, output_null);
    let mut outcome = alloc::check_allocate(&device_facts, &read, output_null);
    assert_eq!(
        broken.len() as usize,
        outcome.findings.len(),
        "vkAllocateMemory: one finding per broken rule"
    );
    assert_eq!(
        outcome.blocked,
        alloc::blocks(broken),
        "vkAllocateMemory: blocked"
    );
    // The Win32, Zircon, Metal and Android import structures: judged out of line, from a second
    // read of the chain, where it has one. Every rule the call breaks is compared (the pipeline
    // judges them only for a call the first rules did not block: see the report of issue #24).
    if let (AllocInfoIn::Valid(_, _, imports), AllocateInfoRead::Valid(layer_facts, chain)) =
        (info, &read)
    {
        if chain.handle_imports {
            let handles = imports.layer_handles();
            let allocation = import_handles::Allocation::of(layer_facts, chain.dedicated_info);
            let broken = import_handles::evaluate(&device_facts, &allocation, &handles);
            let more = import_handles::describe(&device_facts, &allocation, &handles, broken);
            assert_eq!(
                broken.len() as usize,
                more.findings.len(),
                "vkAllocateMemory imports: one finding per broken rule"
            );
            assert!(!more.blocked, "the handle import rules never block");
            outcome.findings.extend(more.findings);
        }
    }

    let info = match info {
        AllocInfoIn::Null => Info::Null,
        AllocInfoIn::WrongSType(_) => Info::WrongSType,
        AllocInfoIn::Valid(facts, end, imports) => Info::Valid(AllocateInfo {
            allocation: Allocation {
                dedicated_image: facts.dedicated && imports.dedicated_image,
                ..facts.to_model()
            },
            end: match end {
                ChainEndIn::Complete => ModelEnd::Complete,
                ChainEndIn::Cycle => ModelEnd::Cycle,
                ChainEndIn::TooLong => ModelEnd::TooLong,
            },
            // The layer's input above has no repeated structure (`ChainRead::COMPLETE`).
            repeated: false,
            imports: imports.to_model(facts.dedicated && imports.dedicated_image),
        }),
    };
    let call = Call::Allocate { info, output_null };
    (outcome, model::expected(&device.to_model(), &call))
}

fn free_call(device: &DeviceIn, memory: u64, lookup: &LookupIn) -> (Outcome, Expected) {
    let outcome = alloc::check_free(
        &device.to_facts(),
        memory,
        &memory_lookup(device, memory, lookup),
    );
    let call = Call::Free {
        memory: memory_model(memory, lookup),
    };
    (outcome, model::expected(&device.to_model(), &call))
}

/// A live record of the device, for the driver-contract checks.
fn live_record(device: &DeviceIn, facts: &FactsIn) -> MemoryLookup {
    let lookup = LookupIn {
        kind: LookupKind::Live,
        facts: facts.clone(),
        other_device: 0,
        other_type_flags: Bits(0),
        freed_name: None,
    };
    memory_lookup(device, 0x3000, &lookup)
}

fn driver_fd(
    device: &DeviceIn,
    facts: &FactsIn,
    fd: i32,
    probe: Option<(Option<bool>, Option<bool>, bool)>,
) -> (Outcome, Expected) {
    let probe = probe.map(|(open, cloexec, open_before_call)| FdProbe {
        open,
        cloexec,
        open_before_call,
    });
    let MemoryLookup::Live(record) = live_record(device, facts) else {
        unreachable!("a live record")
    };
    let outcome = driver_contract::check_fd(&record, fd, probe);
    let probe = probe.map(|p| model::driver::FdProbe {
        open: p.open,
        cloexec: p.cloexec,
        open_before_call: p.open_before_call,
    });
    let ids = model::driver::fd(fd, probe);
    (
        outcome,
        Expected {
            ids,
            blocked: false,
        },
    )
}

/// The export command whose handle-like result a `DriverPointer` call judges.
fn returned_by(command: u8) -> (Returned, Command) {
    [
        (Returned::RemoteAddress, Command::GetMemoryRemoteAddress),
        (Returned::Win32Handle, Command::GetMemoryWin32Handle),
        (Returned::MetalHandle, Command::GetMemoryMetalHandle),
        (Returned::Win32HandleKhr, Command::GetMemoryWin32HandleKhr),
        (Returned::ZirconHandle, Command::GetMemoryZirconHandle),
        (
            Returned::AndroidHardwareBuffer,
            Command::GetMemoryAndroidHardwareBuffer,
        ),
    ][usize::from(command) % 6]
}

fn driver_pointer(
    device: &DeviceIn,
    command: u8,
    facts: &FactsIn,
    value: usize,
) -> (Outcome, Expected) {
    let MemoryLookup::Live(record) = live_record(device, facts) else {
        unreachable!("a live record")
    };
    let (returned, command) = returned_by(command);
    // A Zircon handle is 32 bits: the driver wrote only those.
    let value = match returned {
        Returned::ZirconHandle => u64::from(value as u32),
        _ => value as u64,
    };
    let outcome = driver_contract::check_returned(returned, &record, value);
    let ids = model::driver::pointer(command, value);
    (
        outcome,
        Expected {
            ids,
            blocked: false,
        },
    )
}

fn unknown_device_call(command: u8, device: u64) -> (Outcome, Expected) {
    let index = usize::from(command) % Command::ALL.len();
    let (name, id) = [
        ("vkGetMemoryFdKHR", vuid::FD_DEVICE_PARAM),
        ("vkGetMemoryRemoteAddressNV", vuid::RDMA_DEVICE_PARAM),
        ("vkGetMemoryWin32HandleNV", vuid::WIN32_DEVICE_PARAM),
        ("vkGetMemoryMetalHandleEXT", vuid::METAL_DEVICE_PARAM),
        ("vkAllocateMemory", vuid::ALLOC_DEVICE_PARAM),
        ("vkFreeMemory", vuid::FREE_DEVICE_PARAM),
        ("vkGetMemoryWin32HandleKHR", vuid::WIN32_KHR_DEVICE_PARAM),
        ("vkGetMemoryZirconHandleFUCHSIA", vuid::ZIRCON_DEVICE_PARAM),
        (
            "vkGetMemoryAndroidHardwareBufferANDROID",
            vuid::AHB_DEVICE_PARAM,
        ),
    ][index];
    let outcome = unknown_device(name, id, device);
    assert!(
        outcome.findings[0]
            .message
            .contains(&format!("0x{device:x}")),
        "the message names the unknown device"
    );
    let model = Command::ALL[index];
    assert_eq!(model.name(), name, "the model's commands in the same order");
    (outcome, Expected::unknown_device(model))
}

/// Debug names by object, as the layer's `name_of` would give them.
struct Names {
    device: u64,
    by_role: [Option<String>; 3],
}

impl Names {
    fn new(device: u64, names: &NamesIn) -> Self {
        let clean = |n: &Option<String>| n.as_ref().map(|s| s.replace(['x', 'X'], ""));
        Self {
            device,
            by_role: [
                clean(&names.device),
                clean(&names.other_device),
                clean(&names.memory),
            ],
        }
    }

    fn name_of(&self, object: ObjectRef) -> Option<String> {
        match object.ty {
            vk::ObjectType::DEVICE if object.handle == self.device => self.by_role[0].clone(),
            vk::ObjectType::DEVICE => self.by_role[1].clone(),
            vk::ObjectType::DEVICE_MEMORY => self.by_role[2].clone(),
            _ => None,
        }
    }
}

/// The reference rendering: each named object's name after every *whole* mention of its handle
/// (`VkDevice 0xd0` is not a mention inside `VkDevice 0xd00`).
fn reference_render(f: &Finding, names: &Names) -> String {
    let catalog = exportcheck_vuids::catalog();
    let mut message = f.message.clone();
    let mut seen: Vec<ObjectRef> = Vec::new();
    for object in &f.objects {
        if seen.contains(object) {
            continue;
        }
        seen.push(*object);
        let Some(name) = names.name_of(*object) else {
            continue;
        };
        let token = vk_names::handle(object.ty, object.handle);
        let mut out = String::new();
        let mut rest = message.as_str();
        while let Some(at) = rest.find(&token) {
            let end = at + token.len();
            out.push_str(&rest[..end]);
            let whole = !rest[end..].starts_with(|c: char| c.is_ascii_hexdigit());
            if whole {
                out.push_str(&format!(" \"{name}\""));
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
        message = out;
    }
    let kind = match f.severity {
        Severity::Error => "Validation Error",
        Severity::Warning => "Validation Warning",
    };
    format!(
        "{kind}: [ {} ] {message} ({})",
        f.id,
        catalog.spec_link(f.id)
    )
}

/// Whether `entry`, an ID several commands report, catalogued under the first, names `command`
/// among them (`EXPORTCHECK-semaphore-of-other-device`, `-fence-of-other-device`).
fn catalogued_with(entry: &exportcheck_vuids::Entry, command: &str) -> bool {
    entry
        .note
        .as_deref()
        .is_some_and(|note| note.contains("catalogued under the first") && note.contains(command))
}

/// The properties every outcome of `command` must have.
fn check_outcome(command: &str, outcome: &Outcome, expected: &Expected, names: &Names) {
    let mut ids = outcome.ids();
    ids.sort_unstable();
    assert_eq!(
        ids,
        expected.sorted(),
        "{command}: the IDs differ from the model's; outcome: {outcome:#?}"
    );
    assert_eq!(
        outcome.blocked, expected.blocked,
        "{command}: blocked differs from the model's; outcome: {outcome:#?}"
    );
    assert!(
        !outcome.blocked || !outcome.findings.is_empty(),
        "{command}: blocked without a finding"
    );
    let catalog = exportcheck_vuids::catalog();
    for f in &outcome.findings {
        assert!(vuid::ALL.contains(&f.id), "{} is not in vuid::ALL", f.id);
        let entry = catalog
            .get(f.id)
            .unwrap_or_else(|| panic!("{} is not in the catalog", f.id));
        assert_eq!(f.severity, entry.severity, "{}: severity", f.id);
        assert!(
            entry.command == command || entry.command == "*" || catalogued_with(entry, command),
            "{}: catalogued for {}, reported by {command}",
            f.id,
            entry.command
        );
        assert_eq!(f.command, command, "{}", f.id);
        assert!(
            f.message.starts_with(&format!("{command}(): ")),
            "{}: {}",
            f.id,
            f.message
        );
        assert!(!f.field.is_empty(), "{}: no field", f.id);
        assert!(!f.objects.is_empty(), "{}: no object", f.id);
        let text = layer::report::render_text(f, &|o| names.name_of(o));
        assert!(text.contains(&format!("[ {} ]", f.id)), "{text}");
        assert!(
            text.ends_with(&format!("({})", catalog.spec_link(f.id))),
            "{text}"
        );
        assert_eq!(
            text,
            reference_render(f, names),
            "{}: rendering names objects at the wrong places",
            f.id
        );
    }
}

/// Runs every call of `input`; panics when a property does not hold. Returns a label per call
/// (`command:ID` for each finding, `command:silent` for none), for the seed generator.
pub fn run(input: &Input) -> Vec<String> {
    let device = &input.device;
    let names = Names::new(device.handle, &input.names);
    let mut labels = Vec::new();
    for call in input.calls.iter().take(16) {
        let (outcome, expected) = match call {
            CallIn::GetFd(c) => export_call(&FD, device, c),
            CallIn::GetRemoteAddress(c) => export_call(&RDMA, device, c),
            CallIn::GetMetalHandle(c) => export_call(&METAL, device, c),
            CallIn::GetWin32HandleKhr(c) => export_call(&WIN32_KHR, device, c),
            CallIn::GetZirconHandle(c) => export_call(&ZIRCON, device, c),
            CallIn::GetAndroidHardwareBuffer(c) => export_call(&ANDROID_HARDWARE_BUFFER, device, c),
            CallIn::GetWin32Handle {
                memory,
                lookup,
                handle_type,
                output_null,
            } => win32_call(device, *memory, lookup, handle_type.0, *output_null),
            CallIn::Allocate { info, output_null } => allocate_call(device, info, *output_null),
            CallIn::Free { memory, lookup } => free_call(device, *memory, lookup),
            CallIn::UnknownDevice { command, device } => unknown_device_call(*command, *device),
            CallIn::DriverFd { facts, fd, probe } => driver_fd(device, facts, *fd, *probe),
            CallIn::DriverPointer {
                command,
                facts,
                value,
            } => driver_pointer(device, *command, facts, *value),
            CallIn::Query(q) => query_call(&device.to_facts(), &device.to_model(), q),
            CallIn::UnknownQueryDevice { query, device } => unknown_device_query(*query, *device),
            CallIn::Bind(b) => bind_call(device.handle, b),
            CallIn::Sync(c) => sync_call(&device.to_facts(), &device.to_sync_model(), c),
            CallIn::UnknownSyncDevice { command, device } => unknown_sync_device(*command, *device),
        };
        let command = outcome_command(call);
        check_outcome(command, &outcome, &expected, &names);
        if outcome.findings.is_empty() {
            labels.push(format!("{command}:silent"));
        }
        labels.extend(
            outcome
                .findings
                .iter()
                .map(|f| format!("{command}:{}", f.id)),
        );
    }
    labels
}

/// The command a call reports as.
fn outcome_command(call: &CallIn) -> &'static str {
    match call {
        CallIn::GetFd(_) | CallIn::DriverFd { .. } => Command::GetMemoryFd.name(),
        CallIn::GetRemoteAddress(_) => Command::GetMemoryRemoteAddress.name(),
        CallIn::GetMetalHandle(_) => Command::GetMemoryMetalHandle.name(),
        CallIn::GetWin32Handle { .. } => Command::GetMemoryWin32Handle.name(),
        CallIn::GetWin32HandleKhr(_) => Command::GetMemoryWin32HandleKhr.name(),
        CallIn::GetZirconHandle(_) => Command::GetMemoryZirconHandle.name(),
        CallIn::GetAndroidHardwareBuffer(_) => Command::GetMemoryAndroidHardwareBuffer.name(),
        CallIn::Allocate { .. } => Command::AllocateMemory.name(),
        CallIn::Free { .. } => Command::FreeMemory.name(),
        CallIn::UnknownDevice { command, .. } => {
            Command::ALL[usize::from(*command) % Command::ALL.len()].name()
        }
        CallIn::DriverPointer { command, .. } => returned_by(*command).1.name(),
        CallIn::Query(q) => query_of(q.query).name(),
        CallIn::UnknownQueryDevice { query, .. } => query_of(*query).name(),
        CallIn::Bind(b) => bind_of(b.command).name(),
        CallIn::Sync(SyncIn { command, .. }) | CallIn::UnknownSyncDevice { command, .. } => {
            sync_command(*command).name()
        }
    }
}

/// Keeps the metal handle type constants of the layer and the model in step.
pub fn constants_agree() {
    assert_eq!(
        (vk_ext::HANDLE_TYPE_MTLBUFFER
            | vk_ext::HANDLE_TYPE_MTLTEXTURE
            | vk_ext::HANDLE_TYPE_MTLHEAP)
            .as_raw(),
        model::handle_type::METAL
    );
}
