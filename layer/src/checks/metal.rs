//! `vkGetMemoryMetalHandleEXT` (VK_EXT_external_memory_metal).

use super::export::{
    check_handle_type_value, check_structure, describe_allocation, exports_one_of, is_one_of,
    ExportArgs, ExportCommand,
};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::{DeviceFacts, PackedAllocation};
use crate::vk_ext;
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand = ExportCommand {
    name: "vkGetMemoryMetalHandleEXT",
    extension: vk_ext::EXT_EXTERNAL_MEMORY_METAL_NAME,
    is_enabled: |e| e.ext_external_memory_metal,
    info_param: "pGetMetalHandleInfo",
    output_param: "pHandle",
    info_type: "VkMemoryGetMetalHandleInfoEXT",
    s_type: vk_ext::STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
    device_vuid: vuid::METAL_DEVICE_PARAM,
    info_vuid: vuid::METAL_INFO_PARAM,
    output_vuid: vuid::METAL_PHANDLE_PARAM,
    s_type_vuid: vuid::METAL_STYPE,
    p_next_vuid: vuid::METAL_PNEXT,
    memory_vuid: vuid::METAL_MEMORY_PARAM,
    handle_type_vuid: vuid::METAL_HANDLE_TYPE_PARAM,
};

/// The handle types `vkGetMemoryMetalHandleEXT` exports.
const METAL_TYPES: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::from_raw(
    vk_ext::HANDLE_TYPE_MTLBUFFER.as_raw()
        | vk_ext::HANDLE_TYPE_MTLTEXTURE.as_raw()
        | vk_ext::HANDLE_TYPE_MTLHEAP.as_raw(),
);

/// Whether [`check_get_memory_metal_handle`] finds nothing in a well-formed call on live memory
/// of the device (see `fd::is_clean`).
#[inline(always)]
pub fn is_clean(
    device: &DeviceFacts,
    allocation: &PackedAllocation,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
) -> bool {
    device.extensions.ext_external_memory_metal
        && exports_one_of(device, allocation, handle_type, METAL_TYPES)
}

/// Every VUID of `vkGetMemoryMetalHandleEXT`.
#[inline]
pub fn check_get_memory_metal_handle(device: &DeviceFacts, args: &ExportArgs) -> Outcome {
    let mut outcome = Outcome::default();
    let Some((info, record)) = check_structure(&COMMAND, device, args, &mut outcome) else {
        return outcome;
    };
    let objects = [
        ObjectRef::device(record.device),
        ObjectRef::memory(record.memory),
    ];
    let field = "pGetMetalHandleInfo->handleType";
    check_handle_type_value(&COMMAND, device, info, record, &mut outcome);
    if record.facts.export.is_none() {
        outcome.push(
            Finding::new(
                vuid::METAL_MEMORY_10413,
                COMMAND.name,
                "pGetMetalHandleInfo->memory",
                format!(
                    "vkGetMemoryMetalHandleEXT(): pGetMetalHandleInfo->memory is {}, which was \
                     allocated without a VkExportMemoryAllocateInfo in the pNext chain of \
                     VkMemoryAllocateInfo, so it cannot be exported.",
                    describe_allocation(record)
                ),
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    let handle_type = || vk_names::handle_types(info.handle_type);
    if !is_one_of(info.handle_type, METAL_TYPES) {
        outcome.push(
            Finding::new(
                vuid::METAL_HANDLE_TYPE_10415,
                COMMAND.name,
                field,
                format!(
                    "vkGetMemoryMetalHandleEXT(): {field} is {}; it must be \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT or \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT.",
                    handle_type()
                ),
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    // Without any VkExportMemoryAllocateInfo, 10413 above says it (as the Khronos layer does).
    let Some(exported) = record.facts.export else {
        return outcome;
    };
    if !exported.contains(info.handle_type) {
        outcome.push(
            Finding::new(
                vuid::METAL_HANDLE_TYPE_10414,
                COMMAND.name,
                field,
                format!(
                    "vkGetMemoryMetalHandleEXT(): {field} is {}, which was not included \
                     in VkExportMemoryAllocateInfo::handleTypes ({}) when {} was allocated.",
                    handle_type(),
                    vk_names::handle_types(exported),
                    describe_allocation(record)
                ),
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::*;
    use crate::vk_ext::{HANDLE_TYPE_MTLBUFFER, HANDLE_TYPE_MTLHEAP, HANDLE_TYPE_MTLTEXTURE};

    fn ids(args: ExportArgs) -> Vec<&'static str> {
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
        let args = ExportArgs {
            info: crate::raw::StructArg::WrongSType(ash::vk::StructureType::MEMORY_GET_FD_INFO_KHR),
            output_null: false,
            memory: crate::state::MemoryLookup::Null,
        };
        assert_eq!(ids(args), [vuid::METAL_STYPE]);
    }
}
