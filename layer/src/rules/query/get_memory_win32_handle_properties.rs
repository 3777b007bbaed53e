//! `vkGetMemoryWin32HandlePropertiesKHR` (VK_KHR_external_memory_win32): its names, IDs and own
//! rules.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::query::{OutputStructure, QueryCall, QueryCommand};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: QueryCommand<GetMemoryWin32HandlePropertiesRules> = QueryCommand {
    name: "vkGetMemoryWin32HandlePropertiesKHR",
    extension: "VK_KHR_external_memory_win32",
    is_enabled: |e| e.khr_external_memory_win32,
    handle_param: "handle",
    output: OutputStructure {
        param: "pMemoryWin32HandleProperties",
        type_name: "VkMemoryWin32HandlePropertiesKHR",
        s_type: vk::StructureType::MEMORY_WIN32_HANDLE_PROPERTIES_KHR,
        param_vuid: vuid::WIN32_PROPS_OUTPUT_PARAM,
        s_type_vuid: vuid::WIN32_PROPS_STYPE,
        p_next_vuid: Some(vuid::WIN32_PROPS_PNEXT),
    },
    device_vuid: vuid::WIN32_PROPS_DEVICE_PARAM,
    handle_type_vuid: Some(vuid::WIN32_PROPS_HANDLE_TYPE_PARAM),
    blocking: GetMemoryWin32HandlePropertiesRules::NO_HANDLE,
    evaluate_values,
    describe_values,
};

/// `INVALID_HANDLE_VALUE`, `(HANDLE)-1`, as the query's `handle` value.
pub const INVALID_HANDLE_VALUE: i64 = -1;

rule_set! {
    /// The rules of `vkGetMemoryWin32HandlePropertiesKHR` of its own (the shared ones are
    /// `QueryRules`).
    pub struct GetMemoryWin32HandlePropertiesRules {
        /// `VUID-vkGetMemoryWin32HandlePropertiesKHR-handle-00665`, in the cases the layer can be
        /// sure of: `handle` is NULL or `INVALID_HANDLE_VALUE`, which are no Windows memory handle
        /// of any type (whether another value is one only the driver and the OS can tell). Blocks:
        /// the handle is known to be bad.
        NO_HANDLE,
        /// `VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-00666`: not one of the opaque Win32
        /// types (`OPAQUE_WIN32`, `OPAQUE_WIN32_KMT`); their properties are those of the memory
        /// they were exported from.
        OPAQUE_TYPE,
    }
}

/// The handle types "defined as opaque" that 00666 names for this query.
const OPAQUE_WIN32_TYPES: [vk::ExternalMemoryHandleTypeFlags; 2] = [
    vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32,
    vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT,
];

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, call: &QueryCall) -> GetMemoryWin32HandlePropertiesRules {
    GetMemoryWin32HandlePropertiesRules::NONE
        .with(
            GetMemoryWin32HandlePropertiesRules::NO_HANDLE,
            call.handle == 0 || call.handle == INVALID_HANDLE_VALUE,
        )
        .with(
            GetMemoryWin32HandlePropertiesRules::OPAQUE_TYPE,
            OPAQUE_WIN32_TYPES.contains(&call.handle_type()),
        )
}

fn describe_values(
    cmd: &QueryCommand<GetMemoryWin32HandlePropertiesRules>,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: GetMemoryWin32HandlePropertiesRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(GetMemoryWin32HandlePropertiesRules::NO_HANDLE) {
        let value = if call.handle == 0 {
            "NULL"
        } else {
            "INVALID_HANDLE_VALUE"
        };
        outcome.push(
            Finding::new(
                vuid::WIN32_PROPS_HANDLE_00665,
                name,
                cmd.handle_param,
                format!(
                    "{name}(): handle is {value}, which is no Windows memory handle; it must be \
                     a handle of type {}. The call was not passed to the driver.",
                    vk_names::handle_types(call.handle_type())
                ),
            )
            .with(device_ref),
        );
    }
    if broken.has(GetMemoryWin32HandlePropertiesRules::OPAQUE_TYPE) {
        outcome.push(
            Finding::new(
                vuid::WIN32_PROPS_HANDLE_TYPE_00666,
                name,
                "handleType",
                format!(
                    "{name}(): handleType is {}; it must not be one of the opaque handle types \
                     (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT): the query is for the \
                     D3D11 and D3D12 handle types.",
                    vk_names::handle_types(call.handle_type())
                ),
            )
            .with(device_ref),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::query::{checked, handle_call};
    use ash::vk::ExternalMemoryHandleTypeFlags as T;

    fn call(handle_type: T, handle: i64) -> QueryCall {
        handle_call(handle_type, handle)
    }

    fn ids(call: QueryCall) -> (Vec<&'static str>, bool) {
        checked(&COMMAND, &call)
    }

    #[test]
    fn a_handle_of_each_non_opaque_win32_type_is_silent() {
        for t in [
            T::D3D11_TEXTURE,
            T::D3D11_TEXTURE_KMT,
            T::D3D12_HEAP,
            T::D3D12_RESOURCE,
        ] {
            assert_eq!(ids(call(t, 0x5800)), (vec![], false));
        }
    }

    #[test]
    fn null_and_invalid_handle_value_are_00665_and_block() {
        for handle in [0, INVALID_HANDLE_VALUE] {
            assert_eq!(
                ids(call(T::D3D12_RESOURCE, handle)),
                (vec![vuid::WIN32_PROPS_HANDLE_00665], true)
            );
        }
    }

    #[test]
    fn an_opaque_type_is_00666_and_goes_down() {
        for t in [T::OPAQUE_WIN32, T::OPAQUE_WIN32_KMT] {
            assert_eq!(
                ids(call(t, 0x5800)),
                (vec![vuid::WIN32_PROPS_HANDLE_TYPE_00666], false)
            );
        }
        // Several bits are no single opaque type: only the -parameter rule.
        assert_eq!(
            ids(call(T::OPAQUE_WIN32 | T::D3D11_TEXTURE, 0x5800)),
            (vec![vuid::WIN32_PROPS_HANDLE_TYPE_PARAM], false)
        );
    }
}
