//! `vkAllocateMemory` and `vkFreeMemory`: the rules the memory map depends on.

use super::export::{describe_allocation, describe_dead_memory};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::raw::{AllocateInfoRead, ChainEnd, ChainRead, MAX_CHAIN_LENGTH};
use crate::state::queryable;
use crate::state::{AllocationFacts, DeviceFacts, ExternalMemorySupport, MemoryLookup};
use crate::vk_names;
use crate::vuid;
use ash::vk;

const ALLOCATE: &str = "vkAllocateMemory";
const FREE: &str = "vkFreeMemory";

/// Whether [`check_allocate`] finds nothing in a call with `pMemory` set whose
/// `VkMemoryAllocateInfo` was read into `facts` and `chain`: the command's fast path.
/// `checks::fast_path_tests` holds the two together.
#[inline(always)]
pub fn is_clean(device: &DeviceFacts, facts: &AllocationFacts, chain: &ChainRead) -> bool {
    let export_ok = match facts.export {
        None => true,
        Some(types) => {
            facts.export_nv.is_none()
                && !facts.export_win32_nv
                && vk_names::valid_handle_type_mask().contains(types)
                && device
                    .external_memory
                    .as_ref()
                    .map_or(true, |support| export_is_supported(types, support))
        }
    };
    let export_nv_ok = facts.export_nv.map_or(true, |types| {
        vk_names::valid_handle_type_nv_mask().contains(types)
    });
    chain.end == ChainEnd::Complete && chain.repeated.is_none() && export_ok && export_nv_ok
}

/// Checks the arguments of `vkAllocateMemory`: the pointers, then the `VkMemoryAllocateInfo`
/// whose pNext chain was walked into `AllocationFacts`.
#[inline]
pub fn check_allocate(device: &DeviceFacts, info: &AllocateInfoRead, output_null: bool) -> Outcome {
    let mut outcome = Outcome::default();
    let device_ref = ObjectRef::device(device.handle);
    if output_null {
        outcome.block(
            Finding::new(
                vuid::ALLOC_PMEMORY_PARAM,
                ALLOCATE,
                "pMemory",
                "vkAllocateMemory(): pMemory is NULL. The call was not passed to the driver.",
            )
            .with(device_ref),
        );
    }
    let (facts, chain, repeated) = match info {
        AllocateInfoRead::Valid(facts, read) => (facts, read.end, read.repeated),
        AllocateInfoRead::Null => {
            outcome.block(
                Finding::new(
                    vuid::ALLOC_INFO_PARAM,
                    ALLOCATE,
                    "pAllocateInfo",
                    "vkAllocateMemory(): pAllocateInfo is NULL; it must point to a valid \
                     VkMemoryAllocateInfo. The call was not passed to the driver.",
                )
                .with(device_ref),
            );
            return outcome;
        }
        AllocateInfoRead::WrongSType(found) => {
            outcome.block(
                Finding::new(
                    vuid::ALLOC_STYPE,
                    ALLOCATE,
                    "pAllocateInfo->sType",
                    format!(
                        "vkAllocateMemory(): pAllocateInfo->sType is {}; it must be \
                         VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO. The call was not passed to the \
                         driver.",
                        vk_names::structure_type(*found)
                    ),
                )
                .with(device_ref),
            );
            return outcome;
        }
    };
    match chain {
        ChainEnd::Complete => {}
        ChainEnd::Cycle => outcome.block(
            Finding::new(
                vuid::ALLOC_STYPE_UNIQUE,
                ALLOCATE,
                "pAllocateInfo->pNext",
                "vkAllocateMemory(): the pNext chain of pAllocateInfo loops back on itself, so \
                 structures repeat in it. The call was not passed to the driver, which would walk \
                 the chain forever.",
            )
            .with(device_ref),
        ),
        ChainEnd::TooLong => outcome.push(
            Finding::new(
                vuid::PNEXT_CHAIN_TOO_LONG,
                ALLOCATE,
                "pAllocateInfo->pNext",
                format!(
                    "vkAllocateMemory(): the pNext chain of pAllocateInfo has more than \
                     {MAX_CHAIN_LENGTH} structures; the layer checked only the first \
                     {MAX_CHAIN_LENGTH}."
                ),
            )
            .with(device_ref),
        ),
    }
    if let Some(s_type) = repeated {
        outcome.push(
            Finding::new(
                vuid::ALLOC_STYPE_UNIQUE,
                ALLOCATE,
                "pAllocateInfo->pNext",
                format!(
                    "vkAllocateMemory(): the pNext chain of pAllocateInfo has more than one \
                     structure of type {}; each sType in the chain must be unique. The layer \
                     merged what they say; the driver may read only one of them.",
                    vk_names::structure_type(s_type)
                ),
            )
            .with(device_ref),
        );
    }
    if facts.export.is_some() && (facts.export_nv.is_some() || facts.export_win32_nv) {
        let mut others = Vec::new();
        if facts.export_nv.is_some() {
            others.push("VkExportMemoryAllocateInfoNV");
        }
        if facts.export_win32_nv {
            others.push("VkExportMemoryWin32HandleInfoNV");
        }
        outcome.push(
            Finding::new(
                vuid::ALLOC_PNEXT_00640,
                ALLOCATE,
                "pAllocateInfo->pNext",
                format!(
                    "vkAllocateMemory(): the pNext chain of pAllocateInfo has a \
                     VkExportMemoryAllocateInfo together with {}; the KHR and NV export structures \
                     cannot be mixed.",
                    others.join(" and ")
                ),
            )
            .with(device_ref),
        );
    }
    if let Some(types) = facts.export {
        if !vk_names::valid_handle_type_mask().contains(types) {
            outcome.push(
                Finding::new(
                    vuid::EXPORT_HANDLE_TYPES_PARAM,
                    ALLOCATE,
                    "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes",
                    format!(
                        "vkAllocateMemory(): pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes is {}, which is \
                         not a combination of VkExternalMemoryHandleTypeFlagBits values.",
                        vk_names::handle_types(types)
                    ),
                )
                .with(device_ref),
            );
        }
    }
    if let (Some(types), Some(support)) = (facts.export, &device.external_memory) {
        if let Some(problems) = unsupported_export(types, support) {
            outcome.push(
                Finding::new(
                    vuid::EXPORT_HANDLE_TYPES_00656,
                    ALLOCATE,
                    "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes",
                    format!(
                        "vkAllocateMemory(): pAllocateInfo->pNext<VkExportMemoryAllocateInfo>\
                         .handleTypes is {}, but {}.",
                        vk_names::handle_types(types),
                        problems.join("; ")
                    ),
                )
                .with(device_ref),
            );
        }
    }
    if let Some(types) = facts.export_nv {
        if !vk_names::valid_handle_type_nv_mask().contains(types) {
            outcome.push(
                Finding::new(
                    vuid::EXPORT_NV_HANDLE_TYPES_PARAM,
                    ALLOCATE,
                    "pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes",
                    format!(
                        "vkAllocateMemory(): pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes is {}, which \
                         is not a combination of VkExternalMemoryHandleTypeFlagBitsNV values.",
                        vk_names::handle_types_nv(types)
                    ),
                )
                .with(device_ref),
            );
        }
    }
    outcome
}

/// What is wrong with exporting `types` (VUID 00656): each bit must be exportable and compatible
/// with the others. Undefined bits are left to the handleTypes-parameter check.
fn unsupported_export(
    types: vk::ExternalMemoryHandleTypeFlags,
    support: &ExternalMemorySupport,
) -> Option<Vec<String>> {
    if export_is_supported(types, support) {
        return None; // The path of every valid allocation: no iterator, no string.
    }
    let bits = || {
        (0..32)
            .map(|b| vk::ExternalMemoryHandleTypeFlags::from_raw(1 << b))
            .filter(|bit| (types & vk_names::valid_handle_type_mask()).contains(*bit))
    };
    let exportable = |bit| {
        support
            .of(bit)
            .0
            .contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE)
    };
    let mut problems: Vec<String> = bits()
        .filter(|bit| !exportable(*bit))
        .map(|bit| match queryable::defining_extension(bit) {
            Some(extension) if !support.asked(bit) => format!(
                "{} is not exportable (this physical device does not support {extension}, \
                 which defines it)",
                vk_names::handle_types(bit),
            ),
            _ => format!(
                "{} is not exportable (externalMemoryFeatures = {}, as \
                 vkGetPhysicalDeviceExternalBufferProperties reports)",
                vk_names::handle_types(bit),
                vk_names::memory_features(support.of(bit).0)
            ),
        })
        .collect();
    // Compatibility matters among the types that can be exported at all.
    let exported = bits()
        .filter(|bit| exportable(*bit))
        .fold(vk::ExternalMemoryHandleTypeFlags::empty(), |all, bit| {
            all | bit
        });
    problems.extend(bits().filter(|bit| exportable(*bit)).filter_map(|bit| {
        let compatible = support.of(bit).1;
        (!compatible.contains(exported)).then(|| {
            format!(
                "{} is compatible only with {} (as vkGetPhysicalDeviceExternalBufferProperties \
                 reports)",
                vk_names::handle_types(bit),
                vk_names::handle_types(compatible)
            )
        })
    }));
    (!problems.is_empty()).then_some(problems)
}

/// Whether every defined bit of `types` is exportable and compatible with all the others.
#[inline]
fn export_is_supported(
    types: vk::ExternalMemoryHandleTypeFlags,
    support: &ExternalMemorySupport,
) -> bool {
    let defined = (types & vk_names::valid_handle_type_mask()).as_raw();
    let mut compatible_with_all = u32::MAX;
    let mut rest = defined;
    while rest != 0 {
        let bit = vk::ExternalMemoryHandleTypeFlags::from_raw(rest & rest.wrapping_neg());
        rest &= rest - 1;
        let (features, compatible) = support.of(bit);
        if !features.contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE) {
            return false;
        }
        compatible_with_all &= compatible.as_raw();
    }
    compatible_with_all & defined == defined
}

/// Checks the `memory` argument of `vkFreeMemory`.
#[inline]
pub fn check_free(device: &DeviceFacts, memory: u64, lookup: &MemoryLookup) -> Outcome {
    let mut outcome = Outcome::default();
    let device_ref = ObjectRef::device(device.handle);
    match lookup {
        MemoryLookup::Null | MemoryLookup::Live(_) => {}
        MemoryLookup::Unknown | MemoryLookup::Freed(_) => outcome.block(
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
    use super::*;
    use crate::checks::fixtures::*;
    use crate::raw::ChainRead;
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
    fn unsupported_or_incompatible_export_types_are_00656() {
        let win32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
        let out = check(&exported(OPAQUE_FD | win32), ChainEnd::Complete);
        assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_00656]);
        assert!(!out.blocked);
        let msg = &out.findings[0].message;
        assert!(
            msg.contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT is not exportable"),
            "{msg}"
        );
        assert!(
            msg.contains("as vkGetPhysicalDeviceExternalBufferProperties reports"),
            "{msg}"
        );
        let out = check(&exported(DMA_BUF | RDMA), ChainEnd::Complete);
        assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_00656]);
        assert!(out.findings[0]
            .message
            .contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT is compatible only with"));
        // Without the driver's answer there is nothing to check against.
        let mut device = fd_device();
        device.external_memory = None;
        let info = AllocateInfoRead::Valid(exported(OPAQUE_FD | win32), ChainRead::COMPLETE);
        assert!(check_allocate(&device, &info, false).ids().is_empty());
    }

    #[test]
    fn a_type_whose_extension_the_device_lacks_is_00656_saying_so() {
        // The driver was asked about no extension's bit (none supported): DMA_BUF was not asked.
        let mut support = ExternalMemorySupport::default();
        let exportable = vk::ExternalMemoryFeatureFlags::EXPORTABLE;
        support.set(OPAQUE_FD, exportable, OPAQUE_FD);
        let mut device = fd_device();
        device.external_memory = Some(Box::new(support));
        let info = AllocateInfoRead::Valid(exported(OPAQUE_FD | DMA_BUF), ChainRead::COMPLETE);
        let out = check_allocate(&device, &info, false);
        assert_eq!(out.ids(), [vuid::EXPORT_HANDLE_TYPES_00656]);
        let msg = &out.findings[0].message;
        assert!(
            msg.contains(
                "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT is not exportable (this physical \
                 device does not support VK_EXT_external_memory_dma_buf, which defines it)"
            ),
            "{msg}"
        );
        assert!(
            !msg.contains("reports"),
            "nothing was reported about it: {msg}"
        );
        // The fast path agrees.
        let AllocateInfoRead::Valid(facts, chain) = &info else {
            unreachable!()
        };
        assert!(!is_clean(&device, facts, chain));
        // OPAQUE_FD alone is exportable: nothing to say.
        let info = AllocateInfoRead::Valid(exported(OPAQUE_FD), ChainRead::COMPLETE);
        assert!(check_allocate(&device, &info, false).ids().is_empty());
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
        let out = check_free(&d, MEMORY, &MemoryLookup::Freed(freed));
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
