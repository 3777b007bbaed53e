//! `vkGetMemoryRemoteAddressNV` (VK_NV_external_memory_rdma): its names, IDs and own rules.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::common::{describe_allocation, FindingExt};
use crate::rules::export::{
    exported_with, not_exported_with, ExportCommand, InfoFields, InfoStructure,
};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, MemoryRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand<GetMemoryRemoteAddressRules> = ExportCommand {
    name: "vkGetMemoryRemoteAddressNV",
    extension: "VK_NV_external_memory_rdma",
    is_enabled: |e| e.nv_external_memory_rdma,
    info: Some(InfoStructure {
        param: "pMemoryGetRemoteAddressInfo",
        type_name: "VkMemoryGetRemoteAddressInfoNV",
        s_type: vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
        info_vuid: vuid::RDMA_INFO_PARAM,
        s_type_vuid: vuid::RDMA_STYPE,
        p_next_vuid: vuid::RDMA_PNEXT,
    }),
    output_param: "pAddress",
    device_vuid: vuid::RDMA_DEVICE_PARAM,
    output_vuid: vuid::RDMA_PADDRESS_PARAM,
    object_vuid: vuid::RDMA_MEMORY_PARAM,
    other_device_vuid: vuid::MEMORY_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::RDMA_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryRemoteAddressNV` of its own (the shared ones are `ExportRules`).
    pub struct GetMemoryRemoteAddressRules {
        /// The layer's warning: the device was created without the `externalMemoryRDMA` feature.
        FEATURE_NOT_ENABLED,
        /// The layer's warning: the memory type is not `RDMA_CAPABLE`.
        TYPE_NOT_RDMA_CAPABLE,
        /// `VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966`: exported with it.
        NOT_EXPORTED,
    }
}

#[inline(always)]
fn evaluate_values(
    device: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
) -> GetMemoryRemoteAddressRules {
    let capable = record
        .type_flags()
        .contains(vk::MemoryPropertyFlags::RDMA_CAPABLE_NV);
    GetMemoryRemoteAddressRules::NONE
        .with(
            GetMemoryRemoteAddressRules::FEATURE_NOT_ENABLED,
            !device.rdma_feature,
        )
        .with(GetMemoryRemoteAddressRules::TYPE_NOT_RDMA_CAPABLE, !capable)
        .with(
            GetMemoryRemoteAddressRules::NOT_EXPORTED,
            !exported_with(info, record),
        )
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryRemoteAddressRules>,
    device: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryRemoteAddressRules,
    outcome: &mut Outcome,
) {
    if broken.has(GetMemoryRemoteAddressRules::FEATURE_NOT_ENABLED) {
        outcome.push(
            Finding::new(
                vuid::RDMA_FEATURE_NOT_ENABLED,
                cmd.name,
                "device",
                format!(
                    "vkGetMemoryRemoteAddressNV(): {} was created without enabling \
                     VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA, so no memory \
                     of it can be accessed by remote devices.",
                    vk_names::handle(vk::ObjectType::DEVICE, device.handle)
                ),
            )
            .with(ObjectRef::device(record.device)),
        );
    }
    if broken.has(GetMemoryRemoteAddressRules::TYPE_NOT_RDMA_CAPABLE) {
        outcome.push(
            Finding::new(
                vuid::RDMA_TYPE_NOT_CAPABLE,
                cmd.name,
                "pMemoryGetRemoteAddressInfo->memory",
                format!(
                    "vkGetMemoryRemoteAddressNV(): {} has a memory type without \
                     VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV; remote devices cannot access it.",
                    describe_allocation(record)
                ),
            )
            .with_memory(record),
        );
    }
    if broken.has(GetMemoryRemoteAddressRules::NOT_EXPORTED) {
        outcome.push(not_exported_with(
            cmd,
            vuid::RDMA_HANDLE_TYPE_04966,
            info,
            record,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::export::ExportCall;
    use crate::rules::fixtures::*;
    use crate::state::AllocationFacts;

    fn check_get_memory_remote_address(device: &DeviceFacts, call: &ExportCall) -> Outcome {
        crate::rules::export::check(&COMMAND, device, call)
    }

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
        args.object = crate::state::MemoryLookup::Unknown;
        assert_eq!(
            check_get_memory_remote_address(&fd_device(), &args).ids(),
            [vuid::RDMA_MEMORY_PARAM]
        );
    }
}
