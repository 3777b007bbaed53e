//! `vkGetMemoryWin32HandleKHR` (VK_KHR_external_memory_win32): its names, IDs and own rules,
//! including the one about earlier calls (00663: an NT handle is exported at most once per
//! memory and handle type), which the descriptor evaluates with what the device remembers.

use crate::finding::{Finding, Outcome};
use crate::rules::common::{describe_allocation, FindingExt};
use crate::rules::export::{
    exported_with, is_one_of, not_exported_with, ExportCommand, InfoFields, InfoStructure,
};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, MemoryRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand<GetMemoryWin32HandleRules> = ExportCommand {
    name: "vkGetMemoryWin32HandleKHR",
    extension: "VK_KHR_external_memory_win32",
    is_enabled: |e| e.khr_external_memory_win32,
    info: Some(InfoStructure {
        param: "pGetWin32HandleInfo",
        type_name: "VkMemoryGetWin32HandleInfoKHR",
        s_type: vk::StructureType::MEMORY_GET_WIN32_HANDLE_INFO_KHR,
        info_vuid: vuid::WIN32_KHR_INFO_PARAM,
        s_type_vuid: vuid::WIN32_KHR_STYPE,
        p_next_vuid: vuid::WIN32_KHR_PNEXT,
    }),
    output_param: "pHandle",
    device_vuid: vuid::WIN32_KHR_DEVICE_PARAM,
    output_vuid: vuid::WIN32_KHR_PHANDLE_PARAM,
    object_vuid: vuid::WIN32_KHR_MEMORY_PARAM,
    other_device_vuid: vuid::MEMORY_OF_OTHER_DEVICE,
    handle_type_vuid: Some(vuid::WIN32_KHR_HANDLE_TYPE_PARAM),
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryWin32HandleKHR` of its own (the shared ones are `ExportRules`).
    pub struct GetMemoryWin32HandleRules {
        /// `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00664`: an NT handle or global share
        /// handle type.
        NOT_A_WIN32_TYPE,
        /// `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00662`: exported with it.
        NOT_EXPORTED,
        /// `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663`: an NT handle of this memory and
        /// type was already exported (by a call that succeeded).
        NT_HANDLE_EXPORTED_BEFORE,
    }
}

/// The handle types the spec defines as NT handles (the compatibility table of "External Memory
/// Handle Types").
pub const NT_HANDLE_TYPES: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32.as_raw()
            | vk::ExternalMemoryHandleTypeFlags::D3D11_TEXTURE.as_raw()
            | vk::ExternalMemoryHandleTypeFlags::D3D12_HEAP.as_raw()
            | vk::ExternalMemoryHandleTypeFlags::D3D12_RESOURCE.as_raw(),
    );

/// The handle types the spec defines as global share (KMT) handles.
pub const GLOBAL_SHARE_HANDLE_TYPES: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw()
            | vk::ExternalMemoryHandleTypeFlags::D3D11_TEXTURE_KMT.as_raw(),
    );

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
) -> GetMemoryWin32HandleRules {
    let win32_types = NT_HANDLE_TYPES | GLOBAL_SHARE_HANDLE_TYPES;
    GetMemoryWin32HandleRules::NONE
        .with(
            GetMemoryWin32HandleRules::NOT_A_WIN32_TYPE,
            !is_one_of(info.handle_type(), win32_types),
        )
        .with(
            GetMemoryWin32HandleRules::NOT_EXPORTED,
            !exported_with(info, record),
        )
}

/// Whether a successful export of `handle_type` from its memory is one 00663 counts: an NT
/// handle type the memory was exported with (a "valid unique combination").
pub fn is_counted_nt_export(
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    record: &MemoryRecord,
) -> bool {
    is_one_of(handle_type, NT_HANDLE_TYPES)
        && matches!(record.export(), Some(types) if types.contains(handle_type))
}

/// 00663 of a call, given the NT handle types of its memory that earlier calls exported
/// successfully.
#[inline(always)]
pub fn evaluate_history(
    info: &InfoFields,
    exported_before: vk::ExternalMemoryHandleTypeFlags,
) -> GetMemoryWin32HandleRules {
    let again = is_one_of(info.handle_type(), NT_HANDLE_TYPES)
        && exported_before.contains(info.handle_type());
    GetMemoryWin32HandleRules::NONE
        .with(GetMemoryWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE, again)
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryWin32HandleRules>,
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryWin32HandleRules,
    outcome: &mut Outcome,
) {
    let field = "pGetWin32HandleInfo->handleType";
    let handle_type = || vk_names::handle_types(info.handle_type());
    if broken.has(GetMemoryWin32HandleRules::NOT_A_WIN32_TYPE) {
        outcome.push(
            Finding::new(
                vuid::WIN32_KHR_HANDLE_TYPE_00664,
                cmd.name,
                field,
                format!(
                    "vkGetMemoryWin32HandleKHR(): {field} is {}; it must be a handle type defined \
                     as an NT handle (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_TEXTURE_BIT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP_BIT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE_BIT) or a global share handle \
                     (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_TEXTURE_KMT_BIT).",
                    handle_type()
                ),
            )
            .with_memory(record),
        );
    }
    if broken.has(GetMemoryWin32HandleRules::NOT_EXPORTED) {
        outcome.push(not_exported_with(
            cmd,
            vuid::WIN32_KHR_HANDLE_TYPE_00662,
            info,
            record,
        ));
    }
    if broken.has(GetMemoryWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE) {
        outcome.push(
            Finding::new(
                vuid::WIN32_KHR_HANDLE_TYPE_00663,
                cmd.name,
                field,
                format!(
                    "vkGetMemoryWin32HandleKHR(): {field} is {}, an NT handle type, and an NT \
                     handle of this type was already exported from {} by an earlier \
                     vkGetMemoryWin32HandleKHR call that succeeded; the command may be called at \
                     most once for each memory and NT handle type (the app owns the first handle \
                     and may duplicate it with DuplicateHandle).",
                    handle_type(),
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

    const OPAQUE_WIN32: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
    const OPAQUE_WIN32_KMT: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT;

    fn ids(args: ExportCall) -> Vec<&'static str> {
        crate::rules::export::check(&COMMAND, &fd_device(), &args).ids()
    }

    fn fields(handle_type: vk::ExternalMemoryHandleTypeFlags) -> InfoFields {
        InfoFields {
            has_p_next: false,
            object: MEMORY,
            handle_type: handle_type.as_raw(),
        }
    }

    #[test]
    fn good_win32_exports_are_silent() {
        let all = NT_HANDLE_TYPES | GLOBAL_SHARE_HANDLE_TYPES;
        for bit in 0..7 {
            let t = vk::ExternalMemoryHandleTypeFlags::from_raw(1 << bit);
            if all.contains(t) {
                assert!(ids(good_args(t, exported(all))).is_empty(), "{t:?}");
            }
        }
    }

    #[test]
    fn not_exported_is_00662_with_either_cause() {
        assert_eq!(
            ids(good_args(OPAQUE_WIN32, exported(OPAQUE_WIN32_KMT))),
            [vuid::WIN32_KHR_HANDLE_TYPE_00662]
        );
        assert_eq!(
            ids(good_args(OPAQUE_WIN32, not_exported())),
            [vuid::WIN32_KHR_HANDLE_TYPE_00662]
        );
    }

    #[test]
    fn non_win32_type_is_00664_and_00662_when_not_exported() {
        assert_eq!(
            ids(good_args(OPAQUE_FD, exported(OPAQUE_FD))),
            [vuid::WIN32_KHR_HANDLE_TYPE_00664]
        );
        assert_eq!(
            ids(good_args(OPAQUE_FD, exported(OPAQUE_WIN32))),
            [
                vuid::WIN32_KHR_HANDLE_TYPE_00664,
                vuid::WIN32_KHR_HANDLE_TYPE_00662
            ]
        );
    }

    #[test]
    fn invalid_handle_type_gets_every_rule_it_breaks() {
        let t = OPAQUE_WIN32 | OPAQUE_WIN32_KMT;
        assert_eq!(
            ids(good_args(t, exported(t))),
            [
                vuid::WIN32_KHR_HANDLE_TYPE_PARAM,
                vuid::WIN32_KHR_HANDLE_TYPE_00664
            ]
        );
    }

    #[test]
    fn a_second_nt_export_is_00663_a_global_share_one_is_not() {
        let before = OPAQUE_WIN32 | OPAQUE_WIN32_KMT;
        assert_eq!(
            evaluate_history(&fields(OPAQUE_WIN32), before),
            GetMemoryWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE
        );
        assert!(evaluate_history(&fields(OPAQUE_WIN32), OPAQUE_WIN32_KMT).is_empty());
        assert!(evaluate_history(&fields(OPAQUE_WIN32_KMT), before).is_empty());
        let d3d12 = vk::ExternalMemoryHandleTypeFlags::D3D12_HEAP;
        assert!(evaluate_history(&fields(d3d12), OPAQUE_WIN32).is_empty());
        assert!(evaluate_history(&fields(before), before).is_empty());
    }

    #[test]
    fn only_valid_nt_exports_are_counted() {
        let record = record_on(DEVICE, exported(OPAQUE_WIN32 | OPAQUE_WIN32_KMT));
        assert!(is_counted_nt_export(
            fields(OPAQUE_WIN32).handle_type(),
            &record
        ));
        assert!(!is_counted_nt_export(
            fields(OPAQUE_WIN32_KMT).handle_type(),
            &record
        ));
        let d3d12 = vk::ExternalMemoryHandleTypeFlags::D3D12_HEAP;
        assert!(!is_counted_nt_export(fields(d3d12).handle_type(), &record));
    }

    #[test]
    fn the_00663_finding_names_the_type_and_the_memory() {
        let args = good_args(OPAQUE_WIN32, exported(OPAQUE_WIN32));
        let crate::state::MemoryLookup::Live(record) = &args.object else {
            unreachable!()
        };
        let mut outcome = Outcome::default();
        describe_values(
            &COMMAND,
            &fd_device(),
            &fields(OPAQUE_WIN32),
            record,
            GetMemoryWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE,
            &mut outcome,
        );
        assert_eq!(outcome.ids(), [vuid::WIN32_KHR_HANDLE_TYPE_00663]);
        assert!(!outcome.blocked);
        let message = &outcome.findings[0].message;
        assert!(
            message.contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, an NT handle type"),
            "{message}"
        );
        assert!(message.contains("VkDeviceMemory 0x3000"), "{message}");
    }
}
