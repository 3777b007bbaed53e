//! `vkAllocateMemory` and `vkFreeMemory`: the rules the memory map depends on.

use crate::args::{AllocateInfoRead, ChainEnd, MAX_CHAIN_LENGTH};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::allocate::alloc_capture_address;
use crate::rules::allocate::alloc_capture_address::CaptureAddressRules;
use crate::rules::allocate::alloc_count::AllocationCountRules;
use crate::rules::allocate::alloc_features;
use crate::rules::allocate::alloc_features::FeatureRules;
use crate::rules::allocate::alloc_limits;
use crate::rules::allocate::alloc_limits::MemoryLimitsRules;
use crate::rules::allocate::alloc_zero_size;
use crate::rules::allocate::alloc_zero_size::ZeroSizeRules;
use crate::rules::allocate::android_export_size;
use crate::rules::allocate::android_export_size::AndroidExportSizeRules;
use crate::rules::allocate::export_win32;
use crate::rules::allocate::export_win32::ExportWin32Rules;
use crate::rules::common::{describe_allocation, describe_dead_memory};
use crate::rules::import::import_fd;
use crate::rules::import::import_fd::ImportFdRules;
use crate::rules::import::import_host::ImportHostRules;
use crate::rules::rule_set::{composed_rules, mask, rule_set, RuleSet};
use crate::state::{AllocationFacts, DeviceFacts, MemoryLookup};
use crate::vk_names;
use crate::vuid;
use ash::vk;

const ALLOCATE: &str = "vkAllocateMemory";
const FREE: &str = "vkFreeMemory";

rule_set! {
    /// The rules of `vkAllocateMemory`'s parameters, of `VkMemoryAllocateInfo` and its pNext
    /// chain, and of the export structures.
    pub struct AllocateArgsRules {
        /// `pMemory` is NULL.
        OUTPUT_NULL,
        /// `pAllocateInfo` is NULL.
        INFO_NULL,
        S_TYPE,
        /// The pNext chain loops (`VUID-VkMemoryAllocateInfo-sType-unique`).
        CHAIN_CYCLE,
        /// The layer's warning: more structures than it walks.
        CHAIN_TOO_LONG,
        /// A structure twice (`VUID-VkMemoryAllocateInfo-sType-unique`).
        REPEATED,
        /// `VUID-VkMemoryAllocateInfo-pNext-00640`: KHR and NV export structures mixed.
        KHR_WITH_NV,
        /// `VUID-VkExportMemoryAllocateInfo-handleTypes-parameter`.
        HANDLE_TYPES_VALUE,
        /// `VUID-VkMemoryAllocateInfo-allocationSize-07899`.
        ZERO_SIZE_EXPORT,
        /// `VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter`.
        NV_HANDLE_TYPES_VALUE,
    }
}

impl AllocateArgsRules {
    /// The rules of the parameters that block the call.
    const BLOCKING: Self = Self::OUTPUT_NULL
        .and(Self::INFO_NULL)
        .and(Self::S_TYPE)
        .and(Self::CHAIN_CYCLE);
}

/// `VUID-VkMemoryAllocateInfo-pNext-pNext`: the chained structures the device may not be given,
/// one rule per entry of `vk_names::ALLOCATE_CHAIN` (the bits of `ChainRead::structures`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnavailableStructures(u32);

impl RuleSet for UnavailableStructures {
    const COUNT: u32 = vk_names::ALLOCATE_CHAIN.len() as u32;
    const NONE: Self = Self(0);

    #[inline(always)]
    fn bits(self) -> u64 {
        u64::from(self.0)
    }

    #[inline(always)]
    fn from_bits(bits: u64) -> Self {
        Self((bits & mask(Self::COUNT)) as u32)
    }

    #[inline(always)]
    fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl UnavailableStructures {
    /// Whether the structure `vk_names::ALLOCATE_CHAIN[index]` is in the set.
    fn has_entry(self, index: usize) -> bool {
        self.0 >> index & 1 == 1
    }
}

composed_rules! {
    /// Every rule of a `vkAllocateMemory` call: its parameters' and each structure's of the
    /// pNext chain (those of the handle imports the layer cannot open are
    /// `import_handles::HandleImportRules`).
    pub struct AllocateRules {
        args: AllocateArgsRules,
        unavailable: UnavailableStructures,
        import_fd: ImportFdRules,
        import_host: ImportHostRules,
        export_win32: ExportWin32Rules,
        limits: MemoryLimitsRules,
        android_export_size: AndroidExportSizeRules,
        features: FeatureRules,
        capture_address: CaptureAddressRules,
        zero_size: ZeroSizeRules,
        count: AllocationCountRules,
    }
}

/// `VUID-VkMemoryAllocateInfo-allocationSize-07899`: an export (a `VkExportMemoryAllocateInfo`
/// with handle types, none of them an Android hardware buffer, whose size the driver decides)
/// of 0 bytes.
#[inline(always)]
fn is_zero_size_export(facts: &AllocationFacts) -> bool {
    let android = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
    facts.size == 0
        && facts
            .export
            .is_some_and(|t| !t.is_empty() && !t.intersects(android))
}

/// Every rule of `vkAllocateMemory` the arguments break: the pointers, then the
/// `VkMemoryAllocateInfo` whose pNext chain was walked into `AllocationFacts`.
#[inline(always)]
pub fn evaluate_allocate(
    device: &DeviceFacts,
    info: &AllocateInfoRead,
    output_null: bool,
) -> AllocateRules {
    let args = AllocateArgsRules::NONE.with(AllocateArgsRules::OUTPUT_NULL, output_null);
    let (facts, chain) = match info {
        AllocateInfoRead::Valid(facts, chain) => (facts, chain),
        AllocateInfoRead::Null => {
            return AllocateRules::NONE.and(args.with(AllocateArgsRules::INFO_NULL, true))
        }
        AllocateInfoRead::WrongSType(_) => {
            return AllocateRules::NONE.and(args.with(AllocateArgsRules::S_TYPE, true))
        }
    };
    let nv_mask = vk_names::valid_handle_type_nv_mask();
    let args = args
        .with(AllocateArgsRules::CHAIN_CYCLE, chain.end == ChainEnd::Cycle)
        .with(
            AllocateArgsRules::CHAIN_TOO_LONG,
            chain.end == ChainEnd::TooLong,
        )
        .with(AllocateArgsRules::REPEATED, chain.repeated.is_some())
        .with(
            AllocateArgsRules::KHR_WITH_NV,
            facts.export.is_some() & (facts.export_nv.is_some() | facts.export_win32_nv),
        )
        .with(
            AllocateArgsRules::HANDLE_TYPES_VALUE,
            facts
                .export
                .is_some_and(|t| !device.handle_types.contains(t)),
        )
        .with(
            AllocateArgsRules::ZERO_SIZE_EXPORT,
            is_zero_size_export(facts),
        )
        .with(
            AllocateArgsRules::NV_HANDLE_TYPES_VALUE,
            facts.export_nv.is_some_and(|t| !nv_mask.contains(t)),
        );
    AllocateRules::NONE
        .and(args)
        .and(UnavailableStructures(
            chain.structures & device.unavailable_structures,
        ))
        .and(crate::rules::import::import_host::evaluate(
            device,
            facts,
            &chain.host,
        ))
        .and(export_win32::evaluate(facts, chain))
        .and(import_fd::evaluate(device, chain))
        .and(alloc_limits::evaluate(device, facts))
        .and(android_export_size::evaluate(facts, chain))
        .and(alloc_features::evaluate(device, facts, chain))
        .and(alloc_capture_address::evaluate(chain))
        .and(alloc_zero_size::evaluate(facts, chain))
}

/// Every finding of `vkAllocateMemory` (what the pipeline does, in one step: for the unit tests
/// and the fuzz target).
pub fn check_allocate(device: &DeviceFacts, info: &AllocateInfoRead, output_null: bool) -> Outcome {
    describe_allocate(device, info, evaluate_allocate(device, info, output_null))
}

/// The findings of the rules in `broken` (what [`evaluate_allocate`] returned for `info`).
#[cold]
#[inline(never)]
pub fn describe_allocate(
    device: &DeviceFacts,
    info: &AllocateInfoRead,
    broken: AllocateRules,
) -> Outcome {
    let mut outcome = Outcome::default();
    if broken.is_empty() {
        return outcome;
    }
    let device_ref = ObjectRef::device(device.handle);
    let finding = |id, field: &'static str, message: String| {
        Finding::new(id, ALLOCATE, field, message).with(device_ref)
    };
    if broken.has(AllocateArgsRules::OUTPUT_NULL) {
        outcome.block(finding(
            vuid::ALLOC_PMEMORY_PARAM,
            "pMemory",
            "vkAllocateMemory(): pMemory is NULL. The call was not passed to the driver.".into(),
        ));
    }
    let (facts, chain) = match info {
        AllocateInfoRead::Valid(facts, chain) => (facts, chain),
        AllocateInfoRead::Null => {
            outcome.block(finding(
                vuid::ALLOC_INFO_PARAM,
                "pAllocateInfo",
                "vkAllocateMemory(): pAllocateInfo is NULL; it must point to a valid \
                 VkMemoryAllocateInfo. The call was not passed to the driver."
                    .into(),
            ));
            return outcome;
        }
        AllocateInfoRead::WrongSType(found) => {
            outcome.block(finding(
                vuid::ALLOC_STYPE,
                "pAllocateInfo->sType",
                format!(
                    "vkAllocateMemory(): pAllocateInfo->sType is {}; it must be \
                     VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO. The call was not passed to the \
                     driver.",
                    vk_names::structure_type(*found)
                ),
            ));
            return outcome;
        }
    };
    describe_chain(info, broken, &finding, &mut outcome);
    describe_export_structures(device, facts, broken, &finding, &mut outcome);
    crate::rules::import::import_host::describe(
        device,
        facts,
        &chain.host,
        broken.import_host(),
        &finding,
        &mut outcome,
    );
    export_win32::describe(facts, broken.export_win32(), &finding, &mut outcome);
    alloc_limits::describe(device, facts, broken.limits(), &finding, &mut outcome);
    android_export_size::describe(
        facts,
        chain,
        broken.android_export_size(),
        &finding,
        &mut outcome,
    );
    alloc_features::describe(
        device,
        facts,
        chain,
        broken.features(),
        &finding,
        &mut outcome,
    );
    alloc_capture_address::describe(chain, broken.capture_address(), &finding, &mut outcome);
    alloc_zero_size::describe(broken.zero_size(), &finding, &mut outcome);
    if let AllocateInfoRead::Valid(_, chain) = info {
        let imports = broken.import_fd();
        if !imports.is_empty() {
            let found = import_fd::describe(device, chain, imports, &finding);
            found.into_iter().for_each(|f| outcome.push(f));
        }
    }
    debug_assert_eq!(outcome.blocked, blocks(broken));
    outcome
}

/// The message of `VUID-VkMemoryAllocateInfo-pNext-pNext` for `structure` in the chain of an
/// allocation on the device `device_name`, which may not be given it.
#[cold]
fn structure_unavailable(device_name: &str, structure: &vk_names::ChainStructure) -> String {
    let core = match structure.core {
        0 => String::new(),
        v => format!(
            ", nor is its API version {}.{} or later",
            vk::api_version_major(v),
            vk::api_version_minor(v)
        ),
    };
    format!(
        "vkAllocateMemory(): the pNext chain of pAllocateInfo has a {}, but {device_name} was \
         created without {} in VkDeviceCreateInfo::ppEnabledExtensionNames{core}.",
        structure.name, structure.extension
    )
}

type MakeFinding<'a> = &'a dyn Fn(&'static str, &'static str, String) -> Finding;

/// The pNext chain itself: a loop, too long, a structure twice.
fn describe_chain(
    info: &AllocateInfoRead,
    broken: AllocateRules,
    finding: MakeFinding,
    outcome: &mut Outcome,
) {
    let field = "pAllocateInfo->pNext";
    if broken.has(AllocateArgsRules::CHAIN_CYCLE) {
        outcome.block(finding(
            vuid::ALLOC_STYPE_UNIQUE,
            field,
            "vkAllocateMemory(): the pNext chain of pAllocateInfo loops back on itself, so \
             structures repeat in it. The call was not passed to the driver, which would walk \
             the chain forever."
                .into(),
        ));
    }
    if broken.has(AllocateArgsRules::CHAIN_TOO_LONG) {
        outcome.push(finding(
            vuid::PNEXT_CHAIN_TOO_LONG,
            field,
            format!(
                "vkAllocateMemory(): the pNext chain of pAllocateInfo has more than \
                 {MAX_CHAIN_LENGTH} structures; the layer checked only the first \
                 {MAX_CHAIN_LENGTH}."
            ),
        ));
    }
    if let (true, AllocateInfoRead::Valid(_, chain)) =
        (broken.has(AllocateArgsRules::REPEATED), info)
    {
        let s_type = chain.repeated.unwrap_or_default();
        outcome.push(finding(
            vuid::ALLOC_STYPE_UNIQUE,
            field,
            format!(
                "vkAllocateMemory(): the pNext chain of pAllocateInfo has more than one \
                 structure of type {}; each sType in the chain must be unique. The layer \
                 merged what they say; the driver may read only one of them.",
                vk_names::structure_type(s_type)
            ),
        ));
    }
}

/// The export structures: mixed, unavailable on the device, their handle types, the size.
fn describe_export_structures(
    device: &DeviceFacts,
    facts: &AllocationFacts,
    broken: AllocateRules,
    finding: MakeFinding,
    outcome: &mut Outcome,
) {
    let device_name = vk_names::handle(vk::ObjectType::DEVICE, device.handle);
    if broken.has(AllocateArgsRules::KHR_WITH_NV) {
        let mut others = Vec::new();
        if facts.export_nv.is_some() {
            others.push("VkExportMemoryAllocateInfoNV");
        }
        if facts.export_win32_nv {
            others.push("VkExportMemoryWin32HandleInfoNV");
        }
        outcome.push(finding(
            vuid::ALLOC_PNEXT_00640,
            "pAllocateInfo->pNext",
            format!(
                "vkAllocateMemory(): the pNext chain of pAllocateInfo has a \
                 VkExportMemoryAllocateInfo together with {}; the KHR and NV export structures \
                 cannot be mixed.",
                others.join(" and ")
            ),
        ));
    }
    for (i, structure) in vk_names::ALLOCATE_CHAIN.iter().enumerate() {
        if broken.unavailable().has_entry(i) {
            outcome.push(finding(
                vuid::ALLOC_PNEXT_PNEXT,
                "pAllocateInfo->pNext",
                structure_unavailable(&device_name, structure),
            ));
        }
    }
    if let (true, Some(types)) = (
        broken.has(AllocateArgsRules::HANDLE_TYPES_VALUE),
        facts.export,
    ) {
        outcome.push(finding(
            vuid::EXPORT_HANDLE_TYPES_PARAM,
            "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes",
            format!(
                "vkAllocateMemory(): pAllocateInfo->pNext<VkExportMemoryAllocateInfo>\
                 .handleTypes is {}, which is not a valid combination of \
                 VkExternalMemoryHandleTypeFlagBits values on {device_name}: {}.",
                vk_names::handle_types(types),
                vk_names::invalid_handle_types(
                    types & !device.handle_types,
                    device.handle_types,
                    false
                )
            ),
        ));
    }
    if broken.has(AllocateArgsRules::ZERO_SIZE_EXPORT) {
        outcome.push(finding(
            vuid::ALLOC_SIZE_07899,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, but the allocation is \
                 exported (VkExportMemoryAllocateInfo::handleTypes = {}); an exported \
                 allocation must have a size greater than 0.",
                vk_names::handle_types(facts.export.unwrap_or_default())
            ),
        ));
    }
    if let (true, Some(types)) = (
        broken.has(AllocateArgsRules::NV_HANDLE_TYPES_VALUE),
        facts.export_nv,
    ) {
        outcome.push(finding(
            vuid::EXPORT_NV_HANDLE_TYPES_PARAM,
            "pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes",
            format!(
                "vkAllocateMemory(): pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes \
                 is {}, which is not a combination of VkExternalMemoryHandleTypeFlagBitsNV values.",
                vk_names::handle_types_nv(types)
            ),
        ));
    }
}

/// Whether `broken` blocks the call.
pub fn blocks(broken: AllocateRules) -> bool {
    broken.has(AllocateArgsRules::BLOCKING) || broken.has(MemoryLimitsRules::NO_SUCH_TYPE)
}

/// Checks the `memory` argument of `vkFreeMemory`.
#[inline]
pub fn check_free(device: &DeviceFacts, memory: u64, lookup: &MemoryLookup) -> Outcome {
    let mut outcome = Outcome::default();
    let device_ref = ObjectRef::device(device.handle);
    match lookup {
        MemoryLookup::Null | MemoryLookup::Live(_) => {}
        MemoryLookup::Unknown | MemoryLookup::Gone(_) => outcome.block(
            Finding::new(
                vuid::FREE_MEMORY_PARAM,
                FREE,
                "memory",
                format!(
                    "vkFreeMemory(): memory is {}. The call was not passed to the driver.",
                    describe_dead_memory(memory, lookup)
                ),
            )
            .with(device_ref)
            .with(ObjectRef::memory(memory)),
        ),
        MemoryLookup::OtherDevice(record) => outcome.block(
            Finding::new(
                vuid::FREE_MEMORY_PARENT,
                FREE,
                "memory",
                format!(
                    "vkFreeMemory(): memory is {}, which was not allocated from device ({}). The \
                     call was not passed to the driver.",
                    describe_allocation(record),
                    vk_names::handle(vk::ObjectType::DEVICE, device.handle)
                ),
            )
            .with(device_ref)
            .with(ObjectRef::memory(memory))
            .with(ObjectRef::device(record.device)),
        ),
    }
    outcome
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rule_of_the_allocation_has_its_own_bit() {
        // Each part's rules, put in the call's set, come back as that part's and no other's,
        // and no two parts share a bit.
        let all = [
            AllocateRules::NONE.and(AllocateArgsRules::ALL),
            AllocateRules::NONE.and(UnavailableStructures::from_bits(u64::MAX)),
            AllocateRules::NONE.and(ImportFdRules::ALL),
            AllocateRules::NONE.and(ImportHostRules::ALL),
            AllocateRules::NONE.and(ExportWin32Rules::ALL),
            AllocateRules::NONE.and(MemoryLimitsRules::ALL),
            AllocateRules::NONE.and(AndroidExportSizeRules::ALL),
            AllocateRules::NONE.and(FeatureRules::ALL),
            AllocateRules::NONE.and(CaptureAddressRules::ALL),
            AllocateRules::NONE.and(ZeroSizeRules::ALL),
            AllocateRules::NONE.and(AllocationCountRules::ALL),
        ];
        let mut union = AllocateRules::NONE;
        for part in all {
            assert_eq!(
                union.and_all(part).len(),
                union.len() + part.len(),
                "{part:?}"
            );
            union = union.and_all(part);
        }
        let unavailable = all[1].unavailable();
        assert_eq!(
            unavailable.bits().count_ones(),
            vk_names::ALLOCATE_CHAIN.len() as u32
        );
        assert!(all[1].args().is_empty() && all[1].import_fd().is_empty());
        assert_eq!(all[2].import_fd(), ImportFdRules::ALL);
        assert_eq!(all[10].count(), AllocationCountRules::ALL);
        assert!(!blocks(all[2]) && blocks(all[5]));
    }

    use super::*;
    use crate::args::ChainRead;
    use crate::rules::fixtures::*;
    use crate::state::AllocationFacts;

    fn check(facts: &AllocationFacts, chain: ChainEnd) -> Outcome {
        check_allocate(
            &fd_device(),
            &AllocateInfoRead::Valid(
                *facts,
                ChainRead {
                    end: chain,
                    ..ChainRead::COMPLETE
                },
            ),
            false,
        )
    }

    #[test]
    fn plain_and_exporting_allocations_are_silent() {
        assert_eq!(
            check(&not_exported(), ChainEnd::Complete),
            Outcome::default()
        );
        assert!(check(&exported(OPAQUE_FD | DMA_BUF), ChainEnd::Complete)
            .ids()
            .is_empty());
    }

    #[test]
    fn khr_with_nv_export_is_00640() {
        let facts = AllocationFacts {
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32),
            ..exported(OPAQUE_FD)
        };
        assert_eq!(
            check(&facts, ChainEnd::Complete).ids(),
            [vuid::ALLOC_PNEXT_00640]
        );
        let facts = AllocationFacts {
            export_win32_nv: true,
            ..exported(OPAQUE_FD)
        };
        let out = check(&facts, ChainEnd::Complete);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_00640]);
        assert!(out.findings[0]
            .message
            .contains("VkExportMemoryWin32HandleInfoNV"));
    }

    #[test]
    fn a_repeated_structure_is_reported_and_goes_down() {
        let chain = ChainRead {
            repeated: Some(vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO),
            ..ChainRead::COMPLETE
        };
        let info = AllocateInfoRead::Valid(exported(OPAQUE_FD), chain);
        let out = check_allocate(&fd_device(), &info, false);
        assert_eq!(out.ids(), [vuid::ALLOC_STYPE_UNIQUE]);
        assert!(!out.blocked);
        let message = &out.findings[0].message;
        assert!(
            message.contains("VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO"),
            "{message}"
        );
    }

    #[test]
    fn unknown_handle_type_bits() {
        let facts = exported(vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 13 | 1));
        assert_eq!(
            check(&facts, ChainEnd::Complete).ids(),
            [vuid::EXPORT_HANDLE_TYPES_PARAM]
        );
        let facts = AllocationFacts {
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x10)),
            ..not_exported()
        };
        assert_eq!(
            check(&facts, ChainEnd::Complete).ids(),
            [vuid::EXPORT_NV_HANDLE_TYPES_PARAM]
        );
    }

    #[test]
    fn cyclic_chain_blocks_long_chain_warns() {
        let out = check(&not_exported(), ChainEnd::Cycle);
        assert_eq!(out.ids(), [vuid::ALLOC_STYPE_UNIQUE]);
        assert!(out.blocked);
        let out = check(&not_exported(), ChainEnd::TooLong);
        assert_eq!(out.ids(), [vuid::PNEXT_CHAIN_TOO_LONG]);
        assert!(!out.blocked);
    }

    #[test]
    fn every_chained_structure_needs_its_extension_or_version() {
        let mut device = fd_device();
        device.extensions.khr_external_memory = false;
        device.extensions.nv_external_memory = false;
        device.extensions.nv_external_memory_win32 = false;
        device.extensions.khr_external_memory_fd = false;
        let check_on = |device: &mut DeviceFacts, structures: u32| {
            device.unavailable_structures =
                device.extensions.unavailable_structures(device.api_version);
            let chain = ChainRead {
                structures,
                ..ChainRead::COMPLETE
            };
            let info = AllocateInfoRead::Valid(not_exported(), chain);
            check_allocate(device, &info, false)
        };
        // The structures' bits in a chain's `structures`.
        use vk::StructureType as S;
        let bit = |s_type| {
            let bit = vk_names::allocate_chain_bit(s_type);
            assert_ne!(bit, 0, "{s_type:?} is read");
            bit
        };
        let export = bit(S::EXPORT_MEMORY_ALLOCATE_INFO);
        let export_nv = bit(S::EXPORT_MEMORY_ALLOCATE_INFO_NV);
        let export_win32_nv = bit(S::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV);
        let import_fd = bit(S::IMPORT_MEMORY_FD_INFO_KHR);
        // Vulkan 1.1 makes VkExportMemoryAllocateInfo and VkMemoryDedicatedAllocateInfo core;
        // VkMemoryOpaqueCaptureAddressAllocateInfo needs 1.2.
        let dedicated = bit(S::MEMORY_DEDICATED_ALLOCATE_INFO);
        assert!(check_on(&mut device, export | dedicated).ids().is_empty());
        let out = check_on(
            &mut device,
            bit(S::MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO),
        );
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_PNEXT]);
        let msg = &out.findings[0].message;
        assert!(msg.contains("has a VkMemoryOpaqueCaptureAddressAllocateInfo, but VkDevice 0xd000 was created without VK_KHR_buffer_device_address in VkDeviceCreateInfo::ppEnabledExtensionNames, nor is its API version 1.2 or later."), "{msg}");
        device.api_version = vk::API_VERSION_1_0;
        let out = check_on(&mut device, export);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_PNEXT]);
        let msg = &out.findings[0].message;
        assert!(msg.contains("has a VkExportMemoryAllocateInfo, but VkDevice 0xd000 was created without VK_KHR_external_memory"), "{msg}");
        // The NV export structures and an fd import, each without its extension: one finding
        // each, in the table's order.
        let out = check_on(&mut device, export_nv | export_win32_nv | import_fd);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_PNEXT; 3]);
        for (finding, structure) in out.findings.iter().zip([
            "VkExportMemoryAllocateInfoNV, but",
            "VkExportMemoryWin32HandleInfoNV, but",
            "VkImportMemoryFdInfoKHR, but VkDevice 0xd000 was created without \
             VK_KHR_external_memory_fd in VkDeviceCreateInfo::ppEnabledExtensionNames.",
        ]) {
            assert!(finding.message.contains(structure), "{}", finding.message);
        }
        // With their extensions enabled, none.
        device.extensions.khr_external_memory = true;
        device.extensions.nv_external_memory = true;
        device.extensions.nv_external_memory_win32 = true;
        device.extensions.khr_external_memory_fd = true;
        let all_four = export | export_nv | export_win32_nv | import_fd;
        assert!(check_on(&mut device, all_four).ids().is_empty());
    }

    #[test]
    fn handle_types_of_extensions_not_enabled_are_parameter() {
        let mut device = fd_device();
        device.extensions.ext_external_memory_dma_buf = false;
        device.extensions.nv_external_memory_rdma = false;
        device.handle_types = device.extensions.handle_types();
        for (facts, says) in [
            (
                exported(OPAQUE_FD | DMA_BUF),
                "DMA_BUF_BIT_EXT belongs to VK_EXT_external_memory_dma_buf",
            ),
            (
                exported(OPAQUE_FD | RDMA),
                "RDMA_ADDRESS_BIT_NV belongs to VK_NV_external_memory_rdma",
            ),
        ] {
            let read = AllocateInfoRead::Valid(facts, ChainRead::COMPLETE);
            let out = check_allocate(&device, &read, false);
            assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_PARAM]);
            let msg = &out.findings[0].message;
            assert!(msg.contains(says), "{msg}");
        }
    }

    #[test]
    fn zero_size_export_is_07899() {
        let zero = |types| AllocationFacts {
            size: 0,
            ..exported(types)
        };
        let out = check(&zero(OPAQUE_FD), ChainEnd::Complete);
        assert_eq!(out.ids(), [vuid::ALLOC_SIZE_07899]);
        assert!(out.findings[0].message.contains("allocationSize is 0"));
        // Not an export: no handle types, or a size the Android buffer decides.
        let android = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
        for facts in [
            zero(vk::ExternalMemoryHandleTypeFlags::empty()),
            zero(android),
        ] {
            let out = check(&facts, ChainEnd::Complete);
            assert!(!out.ids().contains(&vuid::ALLOC_SIZE_07899), "{facts:?}");
        }
    }

    #[test]
    fn null_and_mistyped_pointers_block() {
        let d = fd_device();
        let out = check_allocate(&d, &AllocateInfoRead::Null, false);
        assert_eq!(out.ids(), [vuid::ALLOC_INFO_PARAM]);
        assert!(out.blocked);
        let out = check_allocate(
            &d,
            &AllocateInfoRead::WrongSType(vk::StructureType::MEMORY_GET_FD_INFO_KHR),
            false,
        );
        assert_eq!(out.ids(), [vuid::ALLOC_STYPE]);
        assert!(out.blocked);
        let out = check_allocate(
            &d,
            &AllocateInfoRead::Valid(not_exported(), ChainRead::COMPLETE),
            true,
        );
        assert_eq!(out.ids(), [vuid::ALLOC_PMEMORY_PARAM]);
        assert!(out.blocked);
    }

    #[test]
    fn free_of_null_live_unknown_and_foreign() {
        let d = fd_device();
        assert_eq!(check_free(&d, 0, &MemoryLookup::Null), Outcome::default());
        let live = MemoryLookup::Live(record_on(DEVICE, not_exported()));
        assert_eq!(check_free(&d, MEMORY, &live), Outcome::default());
        let freed = crate::state::FreedMemory {
            record: record_on(DEVICE, exported(OPAQUE_FD)),
            name: Some("staging".into()),
        };
        let out = check_free(&d, MEMORY, &MemoryLookup::Gone(Box::new(freed)));
        assert_eq!(out.ids(), [vuid::FREE_MEMORY_PARAM]);
        let msg = &out.findings[0].message;
        assert!(msg.contains("VkDeviceMemory 0x3000, which was already freed with vkFreeMemory (it had been allocated on VkDevice 0xd000 with allocationSize 65536"), "{msg}");
        let out = check_free(&d, MEMORY, &MemoryLookup::Unknown);
        assert_eq!(out.ids(), [vuid::FREE_MEMORY_PARAM]);
        assert!(out.blocked);
        let foreign = MemoryLookup::OtherDevice(record_on(OTHER_DEVICE, not_exported()));
        let out = check_free(&d, MEMORY, &foreign);
        assert_eq!(out.ids(), [vuid::FREE_MEMORY_PARENT]);
        assert!(out.blocked);
    }
}
