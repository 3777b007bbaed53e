//! The `checks` target: arbitrary device facts and arbitrary arguments for every check function,
//! each outcome compared with a model of the rules written from the spec and docs/checks.md.
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

use crate::{layer, Bits};
use arbitrary::Arbitrary;
use ash::vk;
use layer::checks::driver_contract::{self, FdProbe};
use layer::checks::export::{unknown_device, ExportArgs, ExportCommand, InfoFields};
use layer::checks::win32_nv::{self, Win32Args};
use layer::checks::{alloc, fd, metal, rdma};
use layer::finding::{Finding, ObjectRef, Outcome, Severity};
use layer::raw::{AllocateInfoRead, ChainEnd, StructArg};
use layer::state::{
    AllocationFacts, DeviceFacts, EnabledExtensions, FreedMemory,
    LiveMemory, MemoryLookup, MemoryRecord, PackedAllocation,
};
use layer::{vk_ext, vk_names, vuid};

/// Defined `VkExternalMemoryHandleTypeFlagBitsNV`: bits 0-3.
const HANDLE_TYPES_NV: u32 = 0xf;
const OPAQUE_FD: u32 = 1 << 0;
const DMA_BUF: u32 = 1 << 9;
const MTL_TYPES: u32 = (1 << 16) | (1 << 17) | (1 << 18);
/// The handle-type bits each device extension adds (vk.xml; written here from the spec, not
/// taken from the layer; bit 13, SCI_BUF, is Vulkan SC only and never valid), by
/// `DeviceIn::extensions` index
/// from 7 on: host (7, 8), Android hardware buffer (10), Fuchsia (11), QNX (14), OHOS (15); and
/// dma-buf (9), RDMA (12), Metal (16-18) for indices 2, 3 and 6. Core bits 0-6 are always valid.
const EXTENSION_BITS: [(usize, u32); 8] = [
    (2, 1 << 9),
    (3, 1 << 12),
    (6, MTL_TYPES),
    (7, (1 << 7) | (1 << 8)),
    (8, 1 << 10),
    (9, 1 << 11),
    (10, 1 << 14),
    (11, 1 << 15),
];
const RDMA_CAPABLE: u32 = 0x100; // VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV

/// One input: a device, debug names, and up to 16 calls on it.
#[derive(Arbitrary, Debug)]
pub struct Input {
    pub device: DeviceIn,
    pub names: NamesIn,
    pub calls: Vec<Call>,
}

#[derive(Arbitrary, Debug)]
pub struct DeviceIn {
    pub handle: u64,
    /// khr_external_memory, khr_external_memory_fd, ext_external_memory_dma_buf,
    /// nv_external_memory_rdma, nv_external_memory, nv_external_memory_win32,
    /// ext_external_memory_metal, ext_external_memory_host,
    /// android_external_memory_android_hardware_buffer, fuchsia_external_memory,
    /// qnx_external_memory_screen_buffer, ohos_external_memory.
    pub extensions: [bool; 12],
    /// The device offers Vulkan 1.1 (else 1.0).
    pub version_1_1: bool,
    pub rdma_feature: bool,
    pub memory_types: Vec<Bits>,
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
    Valid(FactsIn, ChainEndIn),
}

#[derive(Arbitrary, Debug)]
pub enum Call {
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
}

/// What the model says a call must produce.
struct Expected {
    command: &'static str,
    ids: Vec<&'static str>,
    blocked: bool,
}

impl Expected {
    fn new(command: &'static str) -> Self {
        Self {
            command,
            ids: Vec::new(),
            blocked: false,
        }
    }
    fn push(&mut self, id: &'static str) {
        self.ids.push(id);
    }
    fn block(&mut self, id: &'static str) {
        self.ids.push(id);
        self.blocked = true;
    }
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
        };
        DeviceFacts {
            handle: self.handle,
            extensions,
            handle_types: extensions.handle_types(),
            api_version: if self.version_1_1 {
                vk::API_VERSION_1_1
            } else {
                vk::API_VERSION_1_0
            },
            rdma_feature: self.rdma_feature,
            memory_types: self
                .memory_types
                .iter()
                .take(32)
                .map(|b| vk::MemoryPropertyFlags::from_raw(b.0))
                .collect(),
        }
    }

    /// The model's handle types valid on the device: the core bits and those of each enabled
    /// extension.
    fn valid_types(&self) -> u32 {
        EXTENSION_BITS
            .iter()
            .filter(|(i, _)| self.extensions[*i])
            .fold(0x7f, |all, (_, bits)| all | bits)
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
    let record = |owner: u64, type_flags: vk::MemoryPropertyFlags| MemoryRecord {
        memory,
        device: owner,
        facts: l.facts.to_facts(),
        type_flags,
    };
    if memory == 0 {
        return MemoryLookup::Null;
    }
    match l.kind {
        LookupKind::Null | LookupKind::Unknown => MemoryLookup::Unknown,
        LookupKind::Freed => MemoryLookup::Freed(FreedMemory {
            record: record(device.handle, own_flags),
            name: l.freed_name.clone(),
        }),
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

/// The kind of lookup `memory_lookup` made (the model decides from this, not from the layer's
/// types).
fn kind_of(memory: u64, l: &LookupIn) -> LookupKind {
    match l.kind {
        _ if memory == 0 => LookupKind::Null,
        LookupKind::Null => LookupKind::Unknown,
        k => k,
    }
}

/// Whether `handle_type` is exactly one bit of `set`.
fn one_of(handle_type: u32, set: u32) -> bool {
    handle_type.is_power_of_two() && handle_type & !set == 0
}

fn export_contains(facts: &FactsIn, handle_type: u32) -> bool {
    facts
        .export
        .is_some_and(|e| e.0 & handle_type == handle_type)
}

/// The three commands with an info structure, with the model of their own rules.
struct InfoCommand {
    cmd: &'static ExportCommand,
    check: fn(&DeviceFacts, &ExportArgs) -> Outcome,
    /// The fast path's test of a well-formed call on live memory.
    is_clean: fn(&DeviceFacts, &PackedAllocation, vk::ExternalMemoryHandleTypeFlags) -> bool,
    enabled: fn(&DeviceIn) -> bool,
    /// The command's value rules on live memory: (device, handleType, allocation, expected).
    model: fn(&DeviceIn, u32, &FactsIn, &mut Expected),
}

// Every rule a call breaks is reported: -parameter (not one handle type valid on the device),
// then the command's value rules, whatever the value.
fn model_fd(device: &DeviceIn, ht: u32, facts: &FactsIn, e: &mut Expected) {
    if !one_of(ht, device.valid_types()) {
        e.push(vuid::FD_HANDLE_TYPE_PARAM);
    }
    if ht != OPAQUE_FD && ht != DMA_BUF {
        e.push(vuid::FD_HANDLE_TYPE_00672);
    }
    if !export_contains(facts, ht) {
        e.push(vuid::FD_HANDLE_TYPE_00671);
    }
}

fn model_rdma(device: &DeviceIn, ht: u32, facts: &FactsIn, e: &mut Expected) {
    if !device.rdma_feature {
        e.push(vuid::RDMA_FEATURE_NOT_ENABLED);
    }
    if device.type_flags(facts.memory_type_index) & RDMA_CAPABLE == 0 {
        e.push(vuid::RDMA_TYPE_NOT_CAPABLE);
    }
    if !one_of(ht, device.valid_types()) {
        e.push(vuid::RDMA_HANDLE_TYPE_PARAM);
    }
    if !export_contains(facts, ht) {
        e.push(vuid::RDMA_HANDLE_TYPE_04966);
    }
}

fn model_metal(device: &DeviceIn, ht: u32, facts: &FactsIn, e: &mut Expected) {
    if !one_of(ht, device.valid_types()) {
        e.push(vuid::METAL_HANDLE_TYPE_PARAM);
    }
    // Memory without VkExportMemoryAllocateInfo is 10413, which says it for 10414 too.
    if facts.export.is_none() {
        e.push(vuid::METAL_MEMORY_10413);
    }
    if !one_of(ht, MTL_TYPES) {
        e.push(vuid::METAL_HANDLE_TYPE_10415);
    }
    if facts.export.is_some() && !export_contains(facts, ht) {
        e.push(vuid::METAL_HANDLE_TYPE_10414);
    }
}

const FD: InfoCommand = InfoCommand {
    cmd: &fd::COMMAND,
    is_clean: fd::is_clean,
    check: fd::check_get_memory_fd,
    enabled: |d| d.extensions[1],
    model: model_fd,
};
const RDMA: InfoCommand = InfoCommand {
    cmd: &rdma::COMMAND,
    is_clean: rdma::is_clean,
    check: rdma::check_get_memory_remote_address,
    enabled: |d| d.extensions[3],
    model: model_rdma,
};
const METAL: InfoCommand = InfoCommand {
    cmd: &metal::COMMAND,
    is_clean: metal::is_clean,
    check: metal::check_get_memory_metal_handle,
    enabled: |d| d.extensions[6],
    model: model_metal,
};

/// Runs one info-structure export command through the layer and through the model.
fn export_call(ic: &InfoCommand, device: &DeviceIn, call: &ExportCall) -> (Outcome, Expected) {
    let cmd = ic.cmd;
    let (info, memory) = match call.info {
        InfoIn::Null => (StructArg::Null, MemoryLookup::Null),
        InfoIn::WrongSType(t) => {
            // read_struct never reports the expected sType as wrong.
            let t = if t == cmd.s_type.as_raw() { t ^ 1 } else { t };
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
                memory,
                handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type.0),
            }),
            memory_lookup(device, memory, &call.lookup),
        ),
    };
    let args = ExportArgs {
        info,
        output_null: call.output_null,
        memory,
    };
    let facts = device.to_facts();
    let outcome = (ic.check)(&facts, &args);
    // The fast path agrees with the full check on every well-formed call on live memory.
    if let (StructArg::Valid(info), MemoryLookup::Live(record), false) =
        (&args.info, &args.memory, args.output_null)
    {
        if !info.has_p_next {
            let clean = (ic.is_clean)(&facts, &record.packed(), info.handle_type);
            assert_eq!(clean, outcome.findings.is_empty(), "{}: is_clean", cmd.name);
        }
    }

    let mut e = Expected::new(cmd.name);
    if !(ic.enabled)(device) {
        e.push(vuid::EXTENSION_NOT_ENABLED);
    }
    if call.output_null {
        e.block(cmd.output_vuid);
    }
    match call.info {
        InfoIn::Null => e.block(cmd.info_vuid),
        InfoIn::WrongSType(_) => e.block(cmd.s_type_vuid),
        InfoIn::Valid {
            has_p_next,
            memory,
            handle_type,
        } => {
            if has_p_next {
                e.push(cmd.p_next_vuid);
            }
            match kind_of(memory, &call.lookup) {
                LookupKind::Null | LookupKind::Unknown | LookupKind::Freed => {
                    e.block(cmd.memory_vuid)
                }
                LookupKind::OtherDevice => e.block(vuid::MEMORY_OF_OTHER_DEVICE),
                LookupKind::Live => (ic.model)(device, handle_type.0, &call.lookup.facts, &mut e),
            }
        }
    }
    (outcome, e)
}

fn win32_call(
    device: &DeviceIn,
    memory: u64,
    lookup: &LookupIn,
    handle_type: u32,
    output_null: bool,
) -> (Outcome, Expected) {
    let args = Win32Args {
        memory_handle: memory,
        memory: memory_lookup(device, memory, lookup),
        handle_type: vk::ExternalMemoryHandleTypeFlagsNV::from_raw(handle_type),
        output_null,
    };
    let facts = device.to_facts();
    let outcome = win32_nv::check_get_memory_win32_handle(&facts, &args);
    if let (MemoryLookup::Live(record), false) = (&args.memory, output_null) {
        let clean = win32_nv::is_clean(&facts, &record.packed(), args.handle_type);
        assert_eq!(clean, outcome.findings.is_empty(), "win32: is_clean");
    }

    let mut e = Expected::new(win32_nv::COMMAND);
    if !device.extensions[5] {
        e.push(vuid::EXTENSION_NOT_ENABLED);
    }
    if output_null {
        e.block(vuid::WIN32_PHANDLE_PARAM);
    }
    match kind_of(memory, lookup) {
        LookupKind::Null | LookupKind::Unknown | LookupKind::Freed => {
            e.block(vuid::WIN32_MEMORY_PARAM)
        }
        LookupKind::OtherDevice => e.block(vuid::WIN32_MEMORY_PARENT),
        LookupKind::Live => {
            if handle_type == 0 {
                e.push(vuid::WIN32_HANDLE_TYPE_REQUIRED);
            }
            if handle_type & !HANDLE_TYPES_NV != 0 {
                e.push(vuid::WIN32_HANDLE_TYPE_PARAM);
            }
            if handle_type.count_ones() > 1 {
                e.push(vuid::WIN32_MULTIPLE_BITS);
            }
            let exported = lookup
                .facts
                .export_nv
                .is_some_and(|t| t.0 & handle_type == handle_type);
            if !exported {
                e.push(vuid::WIN32_HANDLE_TYPE_01326);
            }
        }
    }
    (outcome, e)
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
        AllocInfoIn::Valid(facts, end) => AllocateInfoRead::Valid(
            facts.to_facts(),
            layer::raw::ChainRead {
                end: match end {
                    ChainEndIn::Complete => ChainEnd::Complete,
                    ChainEndIn::Cycle => ChainEnd::Cycle,
                    ChainEndIn::TooLong => ChainEnd::TooLong,
                },
                ..layer::raw::ChainRead::COMPLETE
            },
        ),
    };
    let device_facts = device.to_facts();
    let outcome = alloc::check_allocate(&device_facts, &read, output_null);
    // The fast path agrees with the full check.
    if let (AllocateInfoRead::Valid(facts, chain), false) = (&read, output_null) {
        let clean = alloc::is_clean(&device_facts, facts, chain);
        assert_eq!(clean, outcome.findings.is_empty(), "vkAllocateMemory: is_clean");
    }

    let mut e = Expected::new("vkAllocateMemory");
    if output_null {
        e.block(vuid::ALLOC_PMEMORY_PARAM);
    }
    let (facts, end) = match info {
        AllocInfoIn::Null => {
            e.block(vuid::ALLOC_INFO_PARAM);
            return (outcome, e);
        }
        AllocInfoIn::WrongSType(_) => {
            e.block(vuid::ALLOC_STYPE);
            return (outcome, e);
        }
        AllocInfoIn::Valid(facts, end) => (facts, end),
    };
    match end {
        ChainEndIn::Complete => {}
        ChainEndIn::Cycle => e.block(vuid::ALLOC_STYPE_UNIQUE),
        ChainEndIn::TooLong => e.push(vuid::PNEXT_CHAIN_TOO_LONG),
    }
    if facts.export.is_some() && (facts.export_nv.is_some() || facts.export_win32_nv) {
        e.push(vuid::ALLOC_PNEXT_00640);
    }
    // pNext-pNext: each export structure needs its extension (or, for the KHR one, 1.1).
    let khr_available = device.extensions[0] || device.version_1_1;
    for (present, available) in [
        (facts.export.is_some(), khr_available),
        (facts.export_nv.is_some(), device.extensions[4]),
        (facts.export_win32_nv, device.extensions[5]),
    ] {
        if present && !available {
            e.push(vuid::ALLOC_PNEXT_PNEXT);
        }
    }
    if let Some(types) = facts.export {
        if types.0 & !device.valid_types() != 0 {
            e.push(vuid::EXPORT_HANDLE_TYPES_PARAM);
        }
        // 07899: an export (some handle type, no Android hardware buffer) of size 0. Whether
        // the types are exportable (09860) is judged against a buffer or image, not here.
        if facts.size == 0 && types.0 != 0 && types.0 & (1 << 10) == 0 {
            e.push(vuid::ALLOC_SIZE_07899);
        }
    }
    if facts.export_nv.is_some_and(|t| t.0 & !HANDLE_TYPES_NV != 0) {
        e.push(vuid::EXPORT_NV_HANDLE_TYPES_PARAM);
    }
    (outcome, e)
}

fn free_call(device: &DeviceIn, memory: u64, lookup: &LookupIn) -> (Outcome, Expected) {
    let outcome = alloc::check_free(
        &device.to_facts(),
        memory,
        &memory_lookup(device, memory, lookup),
    );
    let mut e = Expected::new("vkFreeMemory");
    match kind_of(memory, lookup) {
        LookupKind::Null | LookupKind::Live => {}
        LookupKind::Unknown | LookupKind::Freed => e.block(vuid::FREE_MEMORY_PARAM),
        LookupKind::OtherDevice => e.block(vuid::FREE_MEMORY_PARENT),
    }
    (outcome, e)
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
    let outcome = driver_contract::check_fd(&LiveMemory::from(&record), fd, probe);
    let mut e = Expected::new("vkGetMemoryFdKHR");
    if fd < 0 {
        e.push(vuid::DRIVER_INVALID_FD);
    } else if let Some(p) = probe {
        if p.open == Some(false) {
            e.push(vuid::DRIVER_INVALID_FD);
        } else {
            if p.open_before_call {
                e.push(vuid::DRIVER_FD_NOT_NEW);
            }
            if p.cloexec == Some(false) {
                e.push(vuid::DRIVER_FD_NOT_CLOEXEC);
            }
        }
    }
    (outcome, e)
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
    let record = LiveMemory::from(&record);
    let (outcome, name, id) = match command % 3 {
        0 => (
            driver_contract::check_remote_address(&record, value),
            "vkGetMemoryRemoteAddressNV",
            vuid::DRIVER_NULL_REMOTE_ADDRESS,
        ),
        1 => (
            driver_contract::check_win32_handle(&record, value as vk::HANDLE),
            "vkGetMemoryWin32HandleNV",
            vuid::DRIVER_NULL_WIN32_HANDLE,
        ),
        _ => (
            driver_contract::check_metal_handle(&record, value),
            "vkGetMemoryMetalHandleEXT",
            vuid::DRIVER_NULL_METAL_HANDLE,
        ),
    };
    let mut e = Expected::new(name);
    if value == 0 {
        e.push(id);
    }
    (outcome, e)
}

fn unknown_device_call(command: u8, device: u64) -> (Outcome, Expected) {
    let (name, id) = [
        ("vkGetMemoryFdKHR", vuid::FD_DEVICE_PARAM),
        ("vkGetMemoryRemoteAddressNV", vuid::RDMA_DEVICE_PARAM),
        ("vkGetMemoryWin32HandleNV", vuid::WIN32_DEVICE_PARAM),
        ("vkGetMemoryMetalHandleEXT", vuid::METAL_DEVICE_PARAM),
        ("vkAllocateMemory", vuid::ALLOC_DEVICE_PARAM),
        ("vkFreeMemory", vuid::FREE_DEVICE_PARAM),
    ][usize::from(command % 6)];
    let outcome = unknown_device(name, id, device);
    assert!(
        outcome.findings[0]
            .message
            .contains(&format!("0x{device:x}")),
        "the message names the unknown device"
    );
    let mut e = Expected::new(name);
    e.block(id);
    (outcome, e)
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

fn sorted(mut ids: Vec<&'static str>) -> Vec<&'static str> {
    ids.sort_unstable();
    ids
}

/// The properties every outcome must have.
fn check_outcome(outcome: &Outcome, expected: &Expected, names: &Names) {
    let command = expected.command;
    assert_eq!(
        sorted(outcome.ids()),
        sorted(expected.ids.clone()),
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
            entry.command == command || entry.command == "*",
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
            Call::GetFd(c) => export_call(&FD, device, c),
            Call::GetRemoteAddress(c) => export_call(&RDMA, device, c),
            Call::GetMetalHandle(c) => export_call(&METAL, device, c),
            Call::GetWin32Handle {
                memory,
                lookup,
                handle_type,
                output_null,
            } => win32_call(device, *memory, lookup, handle_type.0, *output_null),
            Call::Allocate { info, output_null } => allocate_call(device, info, *output_null),
            Call::Free { memory, lookup } => free_call(device, *memory, lookup),
            Call::UnknownDevice { command, device } => unknown_device_call(*command, *device),
            Call::DriverFd { facts, fd, probe } => driver_fd(device, facts, *fd, *probe),
            Call::DriverPointer {
                command,
                facts,
                value,
            } => driver_pointer(device, *command, facts, *value),
        };
        check_outcome(&outcome, &expected, &names);
        if outcome.findings.is_empty() {
            labels.push(format!("{}:silent", expected.command));
        }
        labels.extend(
            outcome
                .findings
                .iter()
                .map(|f| format!("{}:{}", expected.command, f.id)),
        );
    }
    labels
}

/// Keeps the metal handle type constants of the layer and the model in step.
pub fn constants_agree() {
    assert_eq!(
        (vk_ext::HANDLE_TYPE_MTLBUFFER
            | vk_ext::HANDLE_TYPE_MTLTEXTURE
            | vk_ext::HANDLE_TYPE_MTLHEAP)
            .as_raw(),
        MTL_TYPES
    );
}
