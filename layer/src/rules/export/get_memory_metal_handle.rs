//! `vkGetMemoryMetalHandleEXT` (VK_EXT_external_memory_metal): its names, IDs and own rules.

use crate::finding::{Finding, Outcome};
use crate::rules::common::{describe_allocation, FindingExt};
use crate::rules::export::{is_one_of, ExportCommand, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, MemoryRecord};
use crate::vk_ext;
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand<GetMemoryMetalHandleRules> = ExportCommand {
    name: "vkGetMemoryMetalHandleEXT",
    extension: vk_ext::EXT_EXTERNAL_MEMORY_METAL_NAME,
    is_enabled: |e| e.ext_external_memory_metal,
    info: Some(InfoStructure {
        param: "pGetMetalHandleInfo",
        type_name: "VkMemoryGetMetalHandleInfoEXT",
        s_type: vk_ext::STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
        info_vuid: vuid::METAL_INFO_PARAM,
        s_type_vuid: vuid::METAL_STYPE,
        p_next_vuid: vuid::METAL_PNEXT,
    }),
    output_param: "pHandle",
    device_vuid: vuid::METAL_DEVICE_PARAM,
    output_vuid: vuid::METAL_PHANDLE_PARAM,
    object_vuid: vuid::METAL_MEMORY_PARAM,
    other_device_vuid: vuid::MEMORY_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::METAL_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryMetalHandleEXT` of its own (the shared ones are `ExportRules`).
    pub struct GetMemoryMetalHandleRules {
        /// `VUID-VkMemoryGetMetalHandleInfoEXT-memory-10413`: allocated with a
        /// `VkExportMemoryAllocateInfo`.
        NO_EXPORT_INFO,
        /// `VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415`: a Metal type.
        NOT_A_METAL_TYPE,
        /// `VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10414`: in the export's handle types
        /// (said only when the allocation had a `VkExportMemoryAllocateInfo`; without one, 10413
        /// says it, as the Khronos layer does).
        NOT_EXPORTED,
    }
}

/// The handle types `vkGetMemoryMetalHandleEXT` exports.
pub const METAL_TYPES: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(
        vk_ext::HANDLE_TYPE_MTLBUFFER.as_raw()
            | vk_ext::HANDLE_TYPE_MTLTEXTURE.as_raw()
            | vk_ext::HANDLE_TYPE_MTLHEAP.as_raw(),
    );

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
) -> GetMemoryMetalHandleRules {
    let export = record.export();
    GetMemoryMetalHandleRules::NONE
        .with(GetMemoryMetalHandleRules::NO_EXPORT_INFO, export.is_none())
        .with(
            GetMemoryMetalHandleRules::NOT_A_METAL_TYPE,
            !is_one_of(info.handle_type(), METAL_TYPES),
        )
        .with(
            GetMemoryMetalHandleRules::NOT_EXPORTED,
            matches!(export, Some(types) if !types.contains(info.handle_type())),
        )
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryMetalHandleRules>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryMetalHandleRules,
    outcome: &mut Outcome,
) {
    let field = "pGetMetalHandleInfo->handleType";
    let handle_type = || vk_names::handle_types(info.handle_type());
    if broken.has(GetMemoryMetalHandleRules::NO_EXPORT_INFO) {
        outcome.push(
            Finding::new(
                vuid::METAL_MEMORY_10413,
                cmd.name,
                "pGetMetalHandleInfo->memory",
                format!(
                    "vkGetMemoryMetalHandleEXT(): pGetMetalHandleInfo->memory is {}, which was \
                     allocated without a VkExportMemoryAllocateInfo in the pNext chain of \
                     VkMemoryAllocateInfo, so it cannot be exported.",
                    describe_allocation(record)
                ),
            )
            .with_memory(record),
        );
    }
    if broken.has(GetMemoryMetalHandleRules::NOT_A_METAL_TYPE) {
        outcome.push(
            Finding::new(
                vuid::METAL_HANDLE_TYPE_10415,
                cmd.name,
                field,
                format!(
                    "vkGetMemoryMetalHandleEXT(): {field} is {}; it must be \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT or \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT.",
                    handle_type()
                ),
            )
            .with_memory(record),
        );
    }
    if let (true, Some(exported)) = (
        broken.has(GetMemoryMetalHandleRules::NOT_EXPORTED),
        record.export(),
    ) {
        outcome.push(
            Finding::new(
                vuid::METAL_HANDLE_TYPE_10414,
                cmd.name,
                field,
                format!(
                    "vkGetMemoryMetalHandleEXT(): {field} is {}, which was not included \
                     in VkExportMemoryAllocateInfo::handleTypes ({}) when {} was allocated.",
                    handle_type(),
                    vk_names::handle_types(exported),
                    describe_allocation(record)
                ),
            )
            .with_memory(record),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::export::ExportCall;
    use crate::rules::fixtures::*;
    use crate::vk_ext::{HANDLE_TYPE_MTLBUFFER, HANDLE_TYPE_MTLHEAP, HANDLE_TYPE_MTLTEXTURE};

    fn check_get_memory_metal_handle(device: &DeviceFacts, call: &ExportCall) -> Outcome {
        crate::rules::export::check(&COMMAND, device, call)
    }

    fn ids(args: ExportCall) -> Vec<&'static str> {
        check_get_memory_metal_handle(&fd_device(), &args).ids()
    }

    #[test]
    fn good_metal_exports_are_silent() {
        for t in [
            HANDLE_TYPE_MTLBUFFER,
            HANDLE_TYPE_MTLTEXTURE,
            HANDLE_TYPE_MTLHEAP,
        ] {
            assert!(ids(good_args(t, exported(t))).is_empty());
        }
    }

    #[test]
    fn no_export_info_is_10413_only() {
        assert_eq!(
            ids(good_args(HANDLE_TYPE_MTLBUFFER, not_exported())),
            [vuid::METAL_MEMORY_10413]
        );
    }

    #[test]
    fn not_exported_as_this_type_is_10414() {
        assert_eq!(
            ids(good_args(
                HANDLE_TYPE_MTLHEAP,
                exported(HANDLE_TYPE_MTLBUFFER)
            )),
            [vuid::METAL_HANDLE_TYPE_10414]
        );
    }

    #[test]
    fn non_metal_type_is_10415() {
        assert_eq!(
            ids(good_args(OPAQUE_FD, exported(OPAQUE_FD))),
            [vuid::METAL_HANDLE_TYPE_10415]
        );
        assert_eq!(
            ids(good_args(OPAQUE_FD, exported(HANDLE_TYPE_MTLBUFFER))),
            [vuid::METAL_HANDLE_TYPE_10415, vuid::METAL_HANDLE_TYPE_10414]
        );
    }

    #[test]
    fn invalid_handle_type_gets_every_rule_it_breaks() {
        let t = HANDLE_TYPE_MTLBUFFER | HANDLE_TYPE_MTLHEAP;
        assert_eq!(
            ids(good_args(t, exported(t))),
            [vuid::METAL_HANDLE_TYPE_PARAM, vuid::METAL_HANDLE_TYPE_10415]
        );
    }

    #[test]
    fn memory_not_exported_with_a_non_metal_type_is_10413_and_10415() {
        assert_eq!(
            ids(good_args(OPAQUE_FD, not_exported())),
            [vuid::METAL_MEMORY_10413, vuid::METAL_HANDLE_TYPE_10415]
        );
        assert_eq!(
            ids(good_args(HANDLE_TYPE_MTLBUFFER, not_exported())),
            [vuid::METAL_MEMORY_10413]
        );
    }

    #[test]
    fn structural_vuids_are_the_metal_ones() {
        let mut args = good_args(HANDLE_TYPE_MTLBUFFER, exported(HANDLE_TYPE_MTLBUFFER));
        args.output_null = true;
        assert_eq!(ids(args), [vuid::METAL_PHANDLE_PARAM]);
        let args = ExportCall {
            info: crate::args::StructArg::WrongSType(
                ash::vk::StructureType::MEMORY_GET_FD_INFO_KHR,
            ),
            output_null: false,
            object: crate::state::MemoryLookup::Null,
        };
        assert_eq!(ids(args), [vuid::METAL_STYPE]);
    }
}
