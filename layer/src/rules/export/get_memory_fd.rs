//! `vkGetMemoryFdKHR` (VK_KHR_external_memory_fd): its names, IDs and own rules.

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

pub const COMMAND: ExportCommand<GetMemoryFdRules> = ExportCommand {
    name: "vkGetMemoryFdKHR",
    extension: "VK_KHR_external_memory_fd",
    is_enabled: |e| e.khr_external_memory_fd,
    info: Some(InfoStructure {
        param: "pGetFdInfo",
        type_name: "VkMemoryGetFdInfoKHR",
        s_type: vk::StructureType::MEMORY_GET_FD_INFO_KHR,
        info_vuid: vuid::FD_INFO_PARAM,
        s_type_vuid: vuid::FD_STYPE,
        p_next_vuid: vuid::FD_PNEXT,
    }),
    output_param: "pFd",
    device_vuid: vuid::FD_DEVICE_PARAM,
    output_vuid: vuid::FD_PFD_PARAM,
    object_vuid: vuid::FD_MEMORY_PARAM,
    other_device_vuid: vuid::MEMORY_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::FD_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryFdKHR` of its own (the shared ones are `ExportRules`).
    pub struct GetMemoryFdRules {
        /// `VUID-VkMemoryGetFdInfoKHR-handleType-00672`: an fd type.
        NOT_AN_FD_TYPE,
        /// `VUID-VkMemoryGetFdInfoKHR-handleType-00671`: exported with it.
        NOT_EXPORTED,
    }
}

const FD_TYPES: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::from_raw(
    vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD.as_raw()
        | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT.as_raw(),
);

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, info: &InfoFields, record: &MemoryRecord) -> GetMemoryFdRules {
    GetMemoryFdRules::NONE
        .with(
            GetMemoryFdRules::NOT_AN_FD_TYPE,
            !is_one_of(info.handle_type(), FD_TYPES),
        )
        .with(GetMemoryFdRules::NOT_EXPORTED, !exported_with(info, record))
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryFdRules>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryFdRules,
    outcome: &mut Outcome,
) {
    if broken.has(GetMemoryFdRules::NOT_AN_FD_TYPE) {
        outcome.push(
            Finding::new(
                vuid::FD_HANDLE_TYPE_00672,
                cmd.name,
                "pGetFdInfo->handleType",
                format!(
                    "vkGetMemoryFdKHR(): pGetFdInfo->handleType is {}; vkGetMemoryFdKHR exports only \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT or \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT.",
                    vk_names::handle_types(info.handle_type())
                ),
            )
            .with_memory(record),
        );
    }
    if broken.has(GetMemoryFdRules::NOT_EXPORTED) {
        outcome.push(not_exported_with(
            cmd,
            vuid::FD_HANDLE_TYPE_00671,
            info,
            record,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::StructArg;
    use crate::rules::export::ExportCall;
    use crate::rules::fixtures::*;
    use crate::state::MemoryLookup;

    fn check_get_memory_fd(device: &DeviceFacts, call: &ExportCall) -> Outcome {
        crate::rules::export::check(&COMMAND, device, call)
    }

    fn check(args: ExportCall) -> Vec<&'static str> {
        check_get_memory_fd(&fd_device(), &args).ids()
    }

    #[test]
    fn good_opaque_fd_export_is_silent() {
        let outcome = check_get_memory_fd(&fd_device(), &good_args(OPAQUE_FD, exported(OPAQUE_FD)));
        assert_eq!(outcome, Outcome::default());
    }

    #[test]
    fn good_dma_buf_export_is_silent() {
        let both = OPAQUE_FD | DMA_BUF;
        assert!(check(good_args(DMA_BUF, exported(both))).is_empty());
    }

    #[test]
    fn handle_type_not_exported_is_00671_with_the_bit_cause() {
        let outcome = check_get_memory_fd(&fd_device(), &good_args(DMA_BUF, exported(OPAQUE_FD)));
        assert_eq!(outcome.ids(), [vuid::FD_HANDLE_TYPE_00671]);
        assert!(!outcome.blocked);
        let msg = &outcome.findings[0].message;
        assert!(
            msg.contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which was not included"),
            "{msg}"
        );
        assert!(
            msg.contains("handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT"),
            "{msg}"
        );
    }

    #[test]
    fn no_export_info_is_00671_with_the_missing_structure_cause() {
        let outcome = check_get_memory_fd(&fd_device(), &good_args(OPAQUE_FD, not_exported()));
        assert_eq!(outcome.ids(), [vuid::FD_HANDLE_TYPE_00671]);
        assert!(outcome.findings[0]
            .message
            .contains("without a VkExportMemoryAllocateInfo"));
    }

    #[test]
    fn non_fd_handle_type_is_00672() {
        let win32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
        assert_eq!(
            check(good_args(win32, exported(OPAQUE_FD | win32))),
            [vuid::FD_HANDLE_TYPE_00672]
        );
        // Not exported either: both rules are broken, and both are said.
        assert_eq!(
            check(good_args(win32, exported(OPAQUE_FD))),
            [vuid::FD_HANDLE_TYPE_00672, vuid::FD_HANDLE_TYPE_00671]
        );
    }

    #[test]
    fn invalid_handle_type_values_get_every_rule_they_break() {
        // 0 and OPAQUE_FD|DMA_BUF are no single fd type (00672); 0 is trivially "included".
        for raw in [0u32, 0x201] {
            let t = vk::ExternalMemoryHandleTypeFlags::from_raw(raw);
            assert_eq!(
                check(good_args(t, exported(OPAQUE_FD | DMA_BUF))),
                [vuid::FD_HANDLE_TYPE_PARAM, vuid::FD_HANDLE_TYPE_00672],
                "{raw:#x}"
            );
        }
        for raw in [0x3, 1 << 13, 1 << 31] {
            let t = vk::ExternalMemoryHandleTypeFlags::from_raw(raw);
            assert_eq!(
                check(good_args(t, exported(OPAQUE_FD))),
                [
                    vuid::FD_HANDLE_TYPE_PARAM,
                    vuid::FD_HANDLE_TYPE_00672,
                    vuid::FD_HANDLE_TYPE_00671
                ],
                "{raw:#x}"
            );
        }
    }

    #[test]
    fn dma_buf_without_its_extension_is_handle_type_parameter() {
        let mut device = fd_device();
        device.extensions.ext_external_memory_dma_buf = false;
        device.handle_types = device.extensions.handle_types();
        let outcome =
            check_get_memory_fd(&device, &good_args(DMA_BUF, exported(OPAQUE_FD | DMA_BUF)));
        assert_eq!(outcome.ids(), [vuid::FD_HANDLE_TYPE_PARAM]);
        let msg = &outcome.findings[0].message;
        assert!(
            msg.contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to VK_EXT_external_memory_dma_buf, which the device was created without"),
            "{msg}"
        );
    }

    #[test]
    fn null_pointers_block_the_call() {
        let mut args = good_args(OPAQUE_FD, exported(OPAQUE_FD));
        args.output_null = true;
        let outcome = check_get_memory_fd(&fd_device(), &args);
        assert_eq!(outcome.ids(), [vuid::FD_PFD_PARAM]);
        assert!(outcome.blocked);

        let args = ExportCall {
            info: StructArg::Null,
            output_null: false,
            object: MemoryLookup::Null,
        };
        let outcome = check_get_memory_fd(&fd_device(), &args);
        assert_eq!(outcome.ids(), [vuid::FD_INFO_PARAM]);
        assert!(outcome.blocked);
    }

    #[test]
    fn wrong_s_type_blocks_and_reads_nothing_else() {
        let args = ExportCall {
            info: StructArg::WrongSType(vk::StructureType::MEMORY_ALLOCATE_INFO),
            output_null: false,
            object: MemoryLookup::Null,
        };
        let outcome = check_get_memory_fd(&fd_device(), &args);
        assert_eq!(outcome.ids(), [vuid::FD_STYPE]);
        assert!(outcome.blocked);
        assert!(outcome.findings[0]
            .message
            .contains("VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO"));
    }

    #[test]
    fn p_next_is_reported_but_not_blocking() {
        let mut args = good_args(OPAQUE_FD, exported(OPAQUE_FD));
        if let StructArg::Valid(info) = &mut args.info {
            info.has_p_next = true;
        }
        let outcome = check_get_memory_fd(&fd_device(), &args);
        assert_eq!(outcome.ids(), [vuid::FD_PNEXT]);
        assert!(!outcome.blocked);
    }

    #[test]
    fn null_unknown_and_foreign_memory_block_the_call() {
        for (memory, id) in [
            (MemoryLookup::Null, vuid::FD_MEMORY_PARAM),
            (MemoryLookup::Unknown, vuid::FD_MEMORY_PARAM),
            (
                MemoryLookup::OtherDevice(record_on(OTHER_DEVICE, exported(OPAQUE_FD))),
                vuid::MEMORY_OF_OTHER_DEVICE,
            ),
        ] {
            let mut args = good_args(OPAQUE_FD, exported(OPAQUE_FD));
            args.object = memory;
            let outcome = check_get_memory_fd(&fd_device(), &args);
            assert_eq!(outcome.ids(), [id]);
            assert!(outcome.blocked);
        }
    }

    #[test]
    fn extension_not_enabled_is_a_warning() {
        let mut device = fd_device();
        device.extensions.khr_external_memory_fd = false;
        let outcome = check_get_memory_fd(&device, &good_args(OPAQUE_FD, exported(OPAQUE_FD)));
        assert_eq!(outcome.ids(), [vuid::EXTENSION_NOT_ENABLED]);
        assert_eq!(
            outcome.findings[0].severity,
            crate::finding::Severity::Warning
        );
        assert!(!outcome.blocked);
    }
}
