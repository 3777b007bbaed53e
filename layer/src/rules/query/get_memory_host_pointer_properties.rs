//! `vkGetMemoryHostPointerPropertiesEXT` (VK_EXT_external_memory_host): its names, IDs and own
//! rules.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::query::{OutputStructure, QueryCall, QueryCommand};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: QueryCommand<GetMemoryHostPointerPropertiesRules> = QueryCommand {
    name: "vkGetMemoryHostPointerPropertiesEXT",
    extension: "VK_EXT_external_memory_host",
    is_enabled: |e| e.ext_external_memory_host,
    handle_param: "pHostPointer",
    output: OutputStructure {
        param: "pMemoryHostPointerProperties",
        type_name: "VkMemoryHostPointerPropertiesEXT",
        s_type: vk::StructureType::MEMORY_HOST_POINTER_PROPERTIES_EXT,
        param_vuid: vuid::HOST_PROPS_OUTPUT_PARAM,
        s_type_vuid: vuid::HOST_PROPS_STYPE,
        p_next_vuid: Some(vuid::HOST_PROPS_PNEXT),
    },
    device_vuid: vuid::HOST_PROPS_DEVICE_PARAM,
    handle_type_vuid: Some(vuid::HOST_PROPS_HANDLE_TYPE_PARAM),
    blocking: GetMemoryHostPointerPropertiesRules::NONE,
    evaluate_values,
    describe_values,
};

/// The handle types of a host pointer.
pub const HOST_TYPES: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(
        vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT.as_raw()
            | vk::ExternalMemoryHandleTypeFlags::HOST_MAPPED_FOREIGN_MEMORY_EXT.as_raw(),
    );

rule_set! {
    /// The rules of `vkGetMemoryHostPointerPropertiesEXT` of its own (the shared ones are
    /// `QueryRules`).
    pub struct GetMemoryHostPointerPropertiesRules {
        /// `VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-01752`: a host-pointer type.
        NOT_A_HOST_TYPE,
        /// `VUID-vkGetMemoryHostPointerPropertiesEXT-pHostPointer-01753`: aligned to
        /// `minImportedHostPointerAlignment` (judged only when the layer learned it).
        MISALIGNED,
    }
}

/// Whether `address` is not a multiple of `alignment` (when it is known).
#[inline(always)]
pub fn misaligned(address: u64, alignment: Option<u64>) -> bool {
    matches!(alignment, Some(a) if address % a != 0)
}

#[inline(always)]
fn evaluate_values(device: &DeviceFacts, call: &QueryCall) -> GetMemoryHostPointerPropertiesRules {
    GetMemoryHostPointerPropertiesRules::NONE
        .with(
            GetMemoryHostPointerPropertiesRules::NOT_A_HOST_TYPE,
            !crate::rules::export::is_one_of(call.handle_type(), HOST_TYPES),
        )
        .with(
            GetMemoryHostPointerPropertiesRules::MISALIGNED,
            misaligned(call.handle as u64, device.host_pointer_alignment),
        )
}

fn describe_values(
    cmd: &QueryCommand<GetMemoryHostPointerPropertiesRules>,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: GetMemoryHostPointerPropertiesRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(GetMemoryHostPointerPropertiesRules::NOT_A_HOST_TYPE) {
        outcome.push(
            Finding::new(
                vuid::HOST_PROPS_HANDLE_TYPE_01752,
                name,
                "handleType",
                format!(
                    "{name}(): handleType is {}; it must be \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT or \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT.",
                    vk_names::handle_types(call.handle_type())
                ),
            )
            .with(device_ref),
        );
    }
    if let (true, Some(alignment)) = (
        broken.has(GetMemoryHostPointerPropertiesRules::MISALIGNED),
        device.host_pointer_alignment,
    ) {
        outcome.push(
            Finding::new(
                vuid::HOST_PROPS_POINTER_01753,
                name,
                cmd.handle_param,
                format!(
                    "{name}(): pHostPointer is 0x{:x}, which is not a multiple of \
                     VkPhysicalDeviceExternalMemoryHostPropertiesEXT::\
                     minImportedHostPointerAlignment ({alignment}) of the physical device of {} \
                     (it is {} bytes past a multiple).",
                    call.handle as u64,
                    vk_names::handle(vk::ObjectType::DEVICE, device.handle),
                    call.handle as u64 % alignment
                ),
            )
            .with(device_ref),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::StructArg;
    use crate::rules::fixtures::{fd_device, HOST_POINTER_ALIGNMENT, OPAQUE_FD};
    use crate::rules::query::{check, handle_call};

    const HOST_ALLOCATION: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
    const FOREIGN: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::HOST_MAPPED_FOREIGN_MEMORY_EXT;

    fn call(handle_type: vk::ExternalMemoryHandleTypeFlags, address: u64) -> QueryCall {
        handle_call(handle_type, address as i64)
    }

    fn ids(device: &DeviceFacts, call: QueryCall) -> Vec<&'static str> {
        let outcome = check(&COMMAND, device, &call);
        assert!(!outcome.blocked || matches!(call.output, StructArg::Null));
        outcome.ids()
    }

    #[test]
    fn aligned_host_pointers_of_either_type_are_silent() {
        for t in [HOST_ALLOCATION, FOREIGN] {
            assert!(ids(&fd_device(), call(t, 3 * HOST_POINTER_ALIGNMENT)).is_empty());
        }
    }

    #[test]
    fn another_type_is_01752() {
        assert_eq!(
            ids(&fd_device(), call(OPAQUE_FD, HOST_POINTER_ALIGNMENT)),
            [vuid::HOST_PROPS_HANDLE_TYPE_01752]
        );
        assert_eq!(
            ids(&fd_device(), call(HOST_ALLOCATION | FOREIGN, 0)),
            [
                vuid::HOST_PROPS_HANDLE_TYPE_PARAM,
                vuid::HOST_PROPS_HANDLE_TYPE_01752
            ]
        );
    }

    #[test]
    fn a_misaligned_pointer_is_01753_only_when_the_alignment_is_known() {
        let odd = HOST_POINTER_ALIGNMENT + 8;
        assert_eq!(
            ids(&fd_device(), call(HOST_ALLOCATION, odd)),
            [vuid::HOST_PROPS_POINTER_01753]
        );
        let mut unknown = fd_device();
        unknown.host_pointer_alignment = None;
        assert!(ids(&unknown, call(HOST_ALLOCATION, odd)).is_empty());
    }

    #[test]
    fn the_output_structure_rules_are_the_host_pointer_ones() {
        let mut c = call(HOST_ALLOCATION, 0);
        c.output = StructArg::Null;
        assert_eq!(ids(&fd_device(), c), [vuid::HOST_PROPS_OUTPUT_PARAM]);
        c.output = StructArg::Valid(true);
        assert_eq!(ids(&fd_device(), c), [vuid::HOST_PROPS_PNEXT]);
    }
}
