//! `vkGetMemoryWin32HandleNV` (VK_NV_external_memory_win32): its names, IDs and own rules.
//! Compiled and tested on every platform: the rules are about the arguments, not about Windows.

use crate::finding::{Finding, Outcome};
use crate::rules::common::{describe_allocation, FindingExt};
use crate::rules::export::{ExportCommand, InfoFields};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, MemoryRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand<GetMemoryWin32HandleNvRules> = ExportCommand {
    name: "vkGetMemoryWin32HandleNV",
    extension: "VK_NV_external_memory_win32",
    is_enabled: |e| e.nv_external_memory_win32,
    info: None,
    output_param: "pHandle",
    device_vuid: vuid::WIN32_DEVICE_PARAM,
    output_vuid: vuid::WIN32_PHANDLE_PARAM,
    object_vuid: vuid::WIN32_MEMORY_PARAM,
    other_device_vuid: vuid::WIN32_MEMORY_PARENT,
    handle_type_vuid: None,
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryWin32HandleNV` of its own (the shared ones are `ExportRules`).
    pub struct GetMemoryWin32HandleNvRules {
        /// `VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask`: not 0.
        ZERO,
        /// `VUID-vkGetMemoryWin32HandleNV-handleType-parameter`: only defined bits.
        UNDEFINED_BITS,
        /// The layer's warning: more than one bit, for a command that returns one handle.
        SEVERAL_BITS,
        /// `VUID-vkGetMemoryWin32HandleNV-handleType-01326`: in `VkExportMemoryAllocateInfoNV`.
        NOT_EXPORTED,
    }
}

fn handle_type(info: &InfoFields) -> vk::ExternalMemoryHandleTypeFlagsNV {
    vk::ExternalMemoryHandleTypeFlagsNV::from_raw(info.handle_type)
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
) -> GetMemoryWin32HandleNvRules {
    let handle_type = handle_type(info);
    GetMemoryWin32HandleNvRules::NONE
        .with(GetMemoryWin32HandleNvRules::ZERO, handle_type.is_empty())
        .with(
            GetMemoryWin32HandleNvRules::UNDEFINED_BITS,
            !vk_names::valid_handle_type_nv_mask().contains(handle_type),
        )
        .with(
            GetMemoryWin32HandleNvRules::SEVERAL_BITS,
            handle_type.as_raw().count_ones() > 1,
        )
        .with(
            GetMemoryWin32HandleNvRules::NOT_EXPORTED,
            !matches!(record.export_nv(), Some(types) if types.contains(handle_type)),
        )
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryWin32HandleNvRules>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryWin32HandleNvRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let types = vk_names::handle_types_nv(handle_type(info));
    let finding =
        |id, message: String| Finding::new(id, name, "handleType", message).with_memory(record);
    if broken.has(GetMemoryWin32HandleNvRules::ZERO) {
        outcome.push(finding(
            vuid::WIN32_HANDLE_TYPE_REQUIRED,
            format!("{name}(): handleType is 0; it must name the handle type to export."),
        ));
    }
    if broken.has(GetMemoryWin32HandleNvRules::UNDEFINED_BITS) {
        outcome.push(finding(
            vuid::WIN32_HANDLE_TYPE_PARAM,
            format!(
                "{name}(): handleType is {types}, which is not a combination of \
                 VkExternalMemoryHandleTypeFlagBitsNV values."
            ),
        ));
    }
    if broken.has(GetMemoryWin32HandleNvRules::SEVERAL_BITS) {
        outcome.push(finding(
            vuid::WIN32_MULTIPLE_BITS,
            format!(
                "{name}(): handleType is {types}: more than one bit, but the command returns a \
                 single HANDLE of one type; pass one bit."
            ),
        ));
    }
    if broken.has(GetMemoryWin32HandleNvRules::NOT_EXPORTED) {
        let message = match record.export_nv() {
            Some(exported) => format!(
                "{name}(): handleType is {types}, which was not in \
                 VkExportMemoryAllocateInfoNV::handleTypes ({}) when {} was allocated.",
                vk_names::handle_types_nv(exported),
                describe_allocation(record)
            ),
            None => format!(
                "{name}(): handleType is {types}, but {} was allocated without a \
                 VkExportMemoryAllocateInfoNV in the pNext chain of VkMemoryAllocateInfo.",
                describe_allocation(record)
            ),
        };
        outcome.push(finding(vuid::WIN32_HANDLE_TYPE_01326, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::export::ExportCall;
    use crate::rules::fixtures::*;
    use crate::state::{AllocationFacts, MemoryLookup};

    const OPAQUE: vk::ExternalMemoryHandleTypeFlagsNV =
        vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
    const KMT: vk::ExternalMemoryHandleTypeFlagsNV =
        vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT;

    fn nv(types: Option<vk::ExternalMemoryHandleTypeFlagsNV>) -> AllocationFacts {
        AllocationFacts {
            size: 4096,
            export_nv: types,
            ..Default::default()
        }
    }

    fn args(
        handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
        facts: AllocationFacts,
    ) -> ExportCall {
        good_call(handle_type.as_raw(), facts)
    }

    fn check_get_memory_win32_handle(device: &DeviceFacts, call: &ExportCall) -> Outcome {
        crate::rules::export::check(&COMMAND, device, call)
    }

    fn ids(a: ExportCall) -> Vec<&'static str> {
        check_get_memory_win32_handle(&fd_device(), &a).ids()
    }

    #[test]
    fn good_export_is_silent() {
        assert!(ids(args(OPAQUE, nv(Some(OPAQUE | KMT)))).is_empty());
    }

    #[test]
    fn not_in_export_info_nv_is_01326_with_each_cause() {
        let out = check_get_memory_win32_handle(&fd_device(), &args(KMT, nv(Some(OPAQUE))));
        assert_eq!(out.ids(), [vuid::WIN32_HANDLE_TYPE_01326]);
        assert!(out.findings[0]
            .message
            .contains("was not in VkExportMemoryAllocateInfoNV::handleTypes"));
        let out = check_get_memory_win32_handle(&fd_device(), &args(KMT, nv(None)));
        assert_eq!(out.ids(), [vuid::WIN32_HANDLE_TYPE_01326]);
        assert!(out.findings[0]
            .message
            .contains("without a VkExportMemoryAllocateInfoNV"));
    }

    #[test]
    fn zero_unknown_and_multiple_bits() {
        let zero = vk::ExternalMemoryHandleTypeFlagsNV::empty();
        assert_eq!(
            ids(args(zero, nv(Some(OPAQUE)))),
            [vuid::WIN32_HANDLE_TYPE_REQUIRED]
        );
        let garbage = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x100);
        // Every rule it breaks: not a valid value, and not what the memory was exported with.
        assert_eq!(
            ids(args(garbage, nv(Some(OPAQUE)))),
            [vuid::WIN32_HANDLE_TYPE_PARAM, vuid::WIN32_HANDLE_TYPE_01326]
        );
        assert_eq!(
            ids(args(zero, nv(None))),
            [
                vuid::WIN32_HANDLE_TYPE_REQUIRED,
                vuid::WIN32_HANDLE_TYPE_01326
            ]
        );
        // Even when the allocation itself claimed the undefined bit.
        assert_eq!(
            ids(args(garbage, nv(Some(garbage)))),
            [vuid::WIN32_HANDLE_TYPE_PARAM]
        );
        assert_eq!(
            ids(args(OPAQUE | KMT, nv(Some(OPAQUE | KMT)))),
            [vuid::WIN32_MULTIPLE_BITS]
        );
    }

    #[test]
    fn null_output_unknown_and_foreign_memory_block() {
        let mut a = args(OPAQUE, nv(Some(OPAQUE)));
        a.output_null = true;
        let out = check_get_memory_win32_handle(&fd_device(), &a);
        assert_eq!(out.ids(), [vuid::WIN32_PHANDLE_PARAM]);
        assert!(out.blocked);
        for (memory, id) in [
            (MemoryLookup::Null, vuid::WIN32_MEMORY_PARAM),
            (MemoryLookup::Unknown, vuid::WIN32_MEMORY_PARAM),
            (
                MemoryLookup::OtherDevice(record_on(OTHER_DEVICE, nv(Some(OPAQUE)))),
                vuid::WIN32_MEMORY_PARENT,
            ),
        ] {
            let mut a = args(OPAQUE, nv(Some(OPAQUE)));
            a.object = memory;
            let out = check_get_memory_win32_handle(&fd_device(), &a);
            assert_eq!(out.ids(), [id]);
            assert!(out.blocked);
        }
    }
}
