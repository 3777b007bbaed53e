//! `vkGetMemoryZirconHandleFUCHSIA` (VK_FUCHSIA_external_memory): its names, IDs and own rules.

use crate::finding::{Finding, Outcome};
use crate::rules::common::FindingExt;
use crate::rules::export::{
    exported_with, is_one_of, not_exported_with, ExportCommand, InfoFields, InfoStructure,
};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, MemoryRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand<GetMemoryZirconHandleRules> = ExportCommand {
    name: "vkGetMemoryZirconHandleFUCHSIA",
    extension: "VK_FUCHSIA_external_memory",
    is_enabled: |e| e.fuchsia_external_memory,
    info: Some(InfoStructure {
        param: "pGetZirconHandleInfo",
        type_name: "VkMemoryGetZirconHandleInfoFUCHSIA",
        s_type: vk::StructureType::MEMORY_GET_ZIRCON_HANDLE_INFO_FUCHSIA,
        info_vuid: vuid::ZIRCON_INFO_PARAM,
        s_type_vuid: vuid::ZIRCON_STYPE,
        p_next_vuid: vuid::ZIRCON_PNEXT,
    }),
    output_param: "pZirconHandle",
    device_vuid: vuid::ZIRCON_DEVICE_PARAM,
    output_vuid: vuid::ZIRCON_PHANDLE_PARAM,
    object_vuid: vuid::ZIRCON_MEMORY_PARAM,
    other_device_vuid: vuid::MEMORY_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::ZIRCON_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryZirconHandleFUCHSIA` of its own (the shared ones are
    /// `ExportRules`).
    pub struct GetMemoryZirconHandleRules {
        /// `VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04775`: `ZIRCON_VMO_BIT_FUCHSIA`.
        NOT_A_VMO,
        /// `VUID-VkMemoryGetZirconHandleInfoFUCHSIA-handleType-04776`: exported with it.
        NOT_EXPORTED,
    }
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
) -> GetMemoryZirconHandleRules {
    let vmo = vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA;
    GetMemoryZirconHandleRules::NONE
        .with(
            GetMemoryZirconHandleRules::NOT_A_VMO,
            !is_one_of(info.handle_type(), vmo),
        )
        .with(
            GetMemoryZirconHandleRules::NOT_EXPORTED,
            !exported_with(info, record),
        )
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryZirconHandleRules>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryZirconHandleRules,
    outcome: &mut Outcome,
) {
    if broken.has(GetMemoryZirconHandleRules::NOT_A_VMO) {
        let field = "pGetZirconHandleInfo->handleType";
        outcome.push(
            Finding::new(
                vuid::ZIRCON_HANDLE_TYPE_04775,
                cmd.name,
                field,
                format!(
                    "vkGetMemoryZirconHandleFUCHSIA(): {field} is {}; it must be \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.",
                    vk_names::handle_types(info.handle_type())
                ),
            )
            .with_memory(record),
        );
    }
    if broken.has(GetMemoryZirconHandleRules::NOT_EXPORTED) {
        outcome.push(not_exported_with(
            cmd,
            vuid::ZIRCON_HANDLE_TYPE_04776,
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

    const VMO: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA;

    fn ids(args: ExportCall) -> Vec<&'static str> {
        crate::rules::export::check(&COMMAND, &fd_device(), &args).ids()
    }

    #[test]
    fn good_vmo_export_is_silent() {
        assert!(ids(good_args(VMO, exported(VMO))).is_empty());
        assert!(ids(good_args(VMO, exported(VMO | OPAQUE_FD))).is_empty());
    }

    #[test]
    fn not_exported_is_04776() {
        assert_eq!(
            ids(good_args(VMO, exported(OPAQUE_FD))),
            [vuid::ZIRCON_HANDLE_TYPE_04776]
        );
        assert_eq!(
            ids(good_args(VMO, not_exported())),
            [vuid::ZIRCON_HANDLE_TYPE_04776]
        );
    }

    #[test]
    fn other_type_is_04775_and_04776_when_not_exported() {
        assert_eq!(
            ids(good_args(OPAQUE_FD, exported(OPAQUE_FD | VMO))),
            [vuid::ZIRCON_HANDLE_TYPE_04775]
        );
        assert_eq!(
            ids(good_args(OPAQUE_FD, exported(VMO))),
            [
                vuid::ZIRCON_HANDLE_TYPE_04775,
                vuid::ZIRCON_HANDLE_TYPE_04776
            ]
        );
    }

    #[test]
    fn invalid_handle_type_gets_every_rule_it_breaks() {
        let t = VMO | OPAQUE_FD;
        assert_eq!(
            ids(good_args(t, exported(t))),
            [
                vuid::ZIRCON_HANDLE_TYPE_PARAM,
                vuid::ZIRCON_HANDLE_TYPE_04775
            ]
        );
    }
}
