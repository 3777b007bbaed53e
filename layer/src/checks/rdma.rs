//! `vkGetMemoryRemoteAddressNV` (VK_NV_external_memory_rdma).

use super::export::{
    check_exported_with, check_handle_type_value, check_structure, describe_allocation,
    exports_one_of, ExportArgs, ExportCommand,
};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::{DeviceFacts, PackedAllocation};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand = ExportCommand {
    name: "vkGetMemoryRemoteAddressNV",
    extension: "VK_NV_external_memory_rdma",
    is_enabled: |e| e.nv_external_memory_rdma,
    info_param: "pMemoryGetRemoteAddressInfo",
    output_param: "pAddress",
    info_type: "VkMemoryGetRemoteAddressInfoNV",
    s_type: vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
    device_vuid: vuid::RDMA_DEVICE_PARAM,
    info_vuid: vuid::RDMA_INFO_PARAM,
    output_vuid: vuid::RDMA_PADDRESS_PARAM,
    s_type_vuid: vuid::RDMA_STYPE,
    p_next_vuid: vuid::RDMA_PNEXT,
    memory_vuid: vuid::RDMA_MEMORY_PARAM,
    handle_type_vuid: vuid::RDMA_HANDLE_TYPE_PARAM,
};

/// Whether [`check_get_memory_remote_address`] finds nothing in a well-formed call on live
/// memory of the device (see `fd::is_clean`).
#[inline(always)]
pub fn is_clean(
    device: &DeviceFacts,
    allocation: &PackedAllocation,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
) -> bool {
    device.extensions.nv_external_memory_rdma
        && device.rdma_feature
        && allocation
            .type_flags()
            .contains(vk::MemoryPropertyFlags::RDMA_CAPABLE_NV)
        && exports_one_of(device, allocation, handle_type, device.handle_types)
}

/// Every VUID of `vkGetMemoryRemoteAddressNV`, plus the layer's RDMA warnings.
#[inline]
pub fn check_get_memory_remote_address(device: &DeviceFacts, args: &ExportArgs) -> Outcome {
    let mut outcome = Outcome::default();
    let Some((info, record)) = check_structure(&COMMAND, device, args, &mut outcome) else {
        return outcome;
    };
    let objects = [
        ObjectRef::device(record.device),
        ObjectRef::memory(record.memory),
    ];
    if !device.rdma_feature {
        outcome.push(
            Finding::new(
                vuid::RDMA_FEATURE_NOT_ENABLED,
                COMMAND.name,
                "device",
                format!(
                    "vkGetMemoryRemoteAddressNV(): {} was created without enabling \
                     VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA, so no memory \
                     of it can be accessed by remote devices.",
                    vk_names::handle(vk::ObjectType::DEVICE, device.handle)
                ),
            )
            .with(objects[0]),
        );
    }
    if !record
        .type_flags
        .contains(vk::MemoryPropertyFlags::RDMA_CAPABLE_NV)
    {
        outcome.push(
            Finding::new(
                vuid::RDMA_TYPE_NOT_CAPABLE,
                COMMAND.name,
                "pMemoryGetRemoteAddressInfo->memory",
                format!(
                    "vkGetMemoryRemoteAddressNV(): {} has a memory type without \
                     VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV; remote devices cannot access it.",
                    describe_allocation(record)
                ),
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    check_handle_type_value(&COMMAND, device, info, record, &mut outcome);
    check_exported_with(
        &COMMAND,
        vuid::RDMA_HANDLE_TYPE_04966,
        info,
        record,
        &mut outcome,
    );
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::*;
    use crate::state::AllocationFacts;

    fn rdma_facts() -> AllocationFacts {
        AllocationFacts {
            memory_type_index: RDMA_TYPE,
            ..exported(RDMA)
        }
    }

    #[test]
    fn good_rdma_export_is_silent() {
        let outcome = check_get_memory_remote_address(&fd_device(), &good_args(RDMA, rdma_facts()));
        assert_eq!(outcome, Outcome::default());
    }

    #[test]
    fn not_exported_as_rdma_is_04966() {
        let facts = AllocationFacts {
            memory_type_index: RDMA_TYPE,
            ..exported(OPAQUE_FD)
        };
        let outcome = check_get_memory_remote_address(&fd_device(), &good_args(RDMA, facts));
        assert_eq!(outcome.ids(), [vuid::RDMA_HANDLE_TYPE_04966]);
        let facts = AllocationFacts {
            memory_type_index: RDMA_TYPE,
            ..not_exported()
        };
        let outcome = check_get_memory_remote_address(&fd_device(), &good_args(RDMA, facts));
        assert_eq!(outcome.ids(), [vuid::RDMA_HANDLE_TYPE_04966]);
        assert!(outcome.findings[0]
            .message
            .contains("without a VkExportMemoryAllocateInfo"));
    }

    #[test]
    fn invalid_handle_type_gets_every_rule_it_breaks() {
        let t = vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 25);
        let outcome = check_get_memory_remote_address(&fd_device(), &good_args(t, rdma_facts()));
        assert_eq!(
            outcome.ids(),
            [vuid::RDMA_HANDLE_TYPE_PARAM, vuid::RDMA_HANDLE_TYPE_04966]
        );
    }

    #[test]
    fn memory_type_without_rdma_capable_is_a_warning() {
        let outcome =
            check_get_memory_remote_address(&fd_device(), &good_args(RDMA, exported(RDMA)));
        assert_eq!(outcome.ids(), [vuid::RDMA_TYPE_NOT_CAPABLE]);
        assert!(outcome.findings[0]
            .message
            .contains("memoryTypeIndex 0 [DEVICE_LOCAL]"));
    }

    #[test]
    fn feature_not_enabled_is_a_warning() {
        let mut device = fd_device();
        device.rdma_feature = false;
        let outcome = check_get_memory_remote_address(&device, &good_args(RDMA, rdma_facts()));
        assert_eq!(outcome.ids(), [vuid::RDMA_FEATURE_NOT_ENABLED]);
        assert!(!outcome.blocked);
    }

    #[test]
    fn structural_vuids_are_the_rdma_ones() {
        let mut args = good_args(RDMA, rdma_facts());
        args.output_null = true;
        let outcome = check_get_memory_remote_address(&fd_device(), &args);
        assert_eq!(outcome.ids(), [vuid::RDMA_PADDRESS_PARAM]);
        assert!(outcome.blocked);
        args.output_null = false;
        args.memory = crate::state::MemoryLookup::Unknown;
        assert_eq!(
            check_get_memory_remote_address(&fd_device(), &args).ids(),
            [vuid::RDMA_MEMORY_PARAM]
        );
    }
}
