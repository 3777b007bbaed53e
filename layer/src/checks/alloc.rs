//! `vkAllocateMemory` and `vkFreeMemory`: the rules the memory map depends on.

use super::export::{describe_allocation, describe_dead_memory};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::raw::{AllocateInfoRead, ChainEnd, ChainRead, MAX_CHAIN_LENGTH};
use crate::state::{AllocationFacts, DeviceFacts, MemoryLookup};
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
                && device.handle_types.contains(types)
                && !is_zero_size_export(facts)
        }
    };
    let export_nv_ok = facts.export_nv.map_or(true, |types| {
        vk_names::valid_handle_type_nv_mask().contains(types)
    });
    chain.end == ChainEnd::Complete
        && chain.repeated.is_none()
        && export_ok
        && export_nv_ok
        && unavailable_export_structures(device, facts) == 0
}

/// The export structures of a `VkMemoryAllocateInfo` chain, each with what makes it available
/// on a device (`VUID-VkMemoryAllocateInfo-pNext-pNext`); bit `i` of
/// [`unavailable_export_structures`] is entry `i`.
const EXPORT_STRUCTURES: [(&str, &str); 3] = [
    (
        "VkExportMemoryAllocateInfo",
        "VK_KHR_external_memory in VkDeviceCreateInfo::ppEnabledExtensionNames, nor is its API \
         version 1.1 or later",
    ),
    (
        "VkExportMemoryAllocateInfoNV",
        "VK_NV_external_memory in VkDeviceCreateInfo::ppEnabledExtensionNames",
    ),
    (
        "VkExportMemoryWin32HandleInfoNV",
        "VK_NV_external_memory_win32 in VkDeviceCreateInfo::ppEnabledExtensionNames",
    ),
];

/// Which export structures of the chain the device cannot take, as bits of [`EXPORT_STRUCTURES`]:
/// neither their extension is enabled nor their version core.
#[inline(always)]
fn unavailable_export_structures(device: &DeviceFacts, facts: &AllocationFacts) -> u8 {
    let e = &device.extensions;
    let khr = facts.export.is_some()
        && !e.khr_external_memory
        && device.api_version < vk::API_VERSION_1_1;
    let nv = facts.export_nv.is_some() && !e.nv_external_memory;
    let win32_nv = facts.export_win32_nv && !e.nv_external_memory_win32;
    u8::from(khr) | u8::from(nv) << 1 | u8::from(win32_nv) << 2
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
    let unavailable = unavailable_export_structures(device, facts);
    for (i, (structure, needs)) in EXPORT_STRUCTURES.iter().enumerate() {
        if unavailable & (1 << i) != 0 {
            outcome.push(
                Finding::new(
                    vuid::ALLOC_PNEXT_PNEXT,
                    ALLOCATE,
                    "pAllocateInfo->pNext",
                    format!(
                        "vkAllocateMemory(): the pNext chain of pAllocateInfo has a {structure}, \
                         but {} was created without {needs}.",
                        vk_names::handle(vk::ObjectType::DEVICE, device.handle)
                    ),
                )
                .with(device_ref),
            );
        }
    }
    if let Some(types) = facts.export {
        if !device.handle_types.contains(types) {
            outcome.push(
                Finding::new(
                    vuid::EXPORT_HANDLE_TYPES_PARAM,
                    ALLOCATE,
                    "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes",
                    format!(
                        "vkAllocateMemory(): pAllocateInfo->pNext<VkExportMemoryAllocateInfo>\
                         .handleTypes is {}, which is not a valid combination of \
                         VkExternalMemoryHandleTypeFlagBits values on {}: {}.",
                        vk_names::handle_types(types),
                        vk_names::handle(vk::ObjectType::DEVICE, device.handle),
                        vk_names::invalid_handle_types(
                            types & !device.handle_types,
                            device.handle_types,
                            false
                        )
                    ),
                )
                .with(device_ref),
            );
        }
    }
    if is_zero_size_export(facts) {
        outcome.push(
            Finding::new(
                vuid::ALLOC_SIZE_07899,
                ALLOCATE,
                "pAllocateInfo->allocationSize",
                format!(
                    "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, but the allocation is \
                     exported (VkExportMemoryAllocateInfo::handleTypes = {}); an exported \
                     allocation must have a size greater than 0.",
                    vk_names::handle_types(facts.export.unwrap_or_default())
                ),
            )
            .with(device_ref),
        );
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
    fn export_structures_need_their_extension_or_version() {
        let mut device = fd_device();
        device.extensions.khr_external_memory = false;
        device.extensions.nv_external_memory = false;
        device.extensions.nv_external_memory_win32 = false;
        // Vulkan 1.1 makes VkExportMemoryAllocateInfo core.
        let info = AllocateInfoRead::Valid(exported(OPAQUE_FD), ChainRead::COMPLETE);
        assert!(check_allocate(&device, &info, false).ids().is_empty());
        device.api_version = vk::API_VERSION_1_0;
        let out = check_allocate(&device, &info, false);
        assert_eq!(out.ids(), [vuid::ALLOC_PNEXT_PNEXT]);
        let msg = &out.findings[0].message;
        assert!(msg.contains("has a VkExportMemoryAllocateInfo, but VkDevice 0xd000 was created without VK_KHR_external_memory"), "{msg}");
        let facts = AllocationFacts {
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32),
            export_win32_nv: true,
            ..not_exported()
        };
        let out = check_allocate(
            &device,
            &AllocateInfoRead::Valid(facts, ChainRead::COMPLETE),
            false,
        );
        assert_eq!(
            out.ids(),
            [vuid::ALLOC_PNEXT_PNEXT, vuid::ALLOC_PNEXT_PNEXT]
        );
        assert!(out.findings[1]
            .message
            .contains("VkExportMemoryWin32HandleInfoNV"));
        assert!(!is_clean(&device, &facts, &ChainRead::COMPLETE));
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
            assert!(!is_clean(&device, &facts, &ChainRead::COMPLETE));
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
