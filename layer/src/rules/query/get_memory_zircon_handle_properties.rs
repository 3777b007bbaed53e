//! `vkGetMemoryZirconHandlePropertiesFUCHSIA` (VK_FUCHSIA_external_memory): its names, IDs and
//! own rules.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::query::{OutputStructure, QueryCall, QueryCommand};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: QueryCommand<GetMemoryZirconHandlePropertiesRules> = QueryCommand {
    name: "vkGetMemoryZirconHandlePropertiesFUCHSIA",
    extension: "VK_FUCHSIA_external_memory",
    is_enabled: |e| e.fuchsia_external_memory,
    handle_param: "zirconHandle",
    output: OutputStructure {
        param: "pMemoryZirconHandleProperties",
        type_name: "VkMemoryZirconHandlePropertiesFUCHSIA",
        s_type: vk::StructureType::MEMORY_ZIRCON_HANDLE_PROPERTIES_FUCHSIA,
        param_vuid: vuid::ZIRCON_PROPS_OUTPUT_PARAM,
        s_type_vuid: vuid::ZIRCON_PROPS_STYPE,
        p_next_vuid: Some(vuid::ZIRCON_PROPS_PNEXT),
    },
    device_vuid: vuid::ZIRCON_PROPS_DEVICE_PARAM,
    handle_type_vuid: Some(vuid::ZIRCON_PROPS_HANDLE_TYPE_PARAM),
    blocking: GetMemoryZirconHandlePropertiesRules::INVALID_HANDLE,
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryZirconHandlePropertiesFUCHSIA` of its own (the shared ones are
    /// `QueryRules`).
    pub struct GetMemoryZirconHandlePropertiesRules {
        /// `VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-04773`:
        /// `ZIRCON_VMO_BIT_FUCHSIA`.
        NOT_A_VMO_TYPE,
        /// `VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-zirconHandle-04774`, in the one case the
        /// layer can be sure of: `zirconHandle` is `ZX_HANDLE_INVALID` (0), which references
        /// nothing (whether another value is a handle to a VMO only the kernel can tell). Blocks:
        /// the handle is known to be bad.
        INVALID_HANDLE,
    }
}

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, call: &QueryCall) -> GetMemoryZirconHandlePropertiesRules {
    GetMemoryZirconHandlePropertiesRules::NONE
        .with(
            GetMemoryZirconHandlePropertiesRules::NOT_A_VMO_TYPE,
            call.handle_type() != vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA,
        )
        .with(
            GetMemoryZirconHandlePropertiesRules::INVALID_HANDLE,
            call.handle == 0,
        )
}

fn describe_values(
    cmd: &QueryCommand<GetMemoryZirconHandlePropertiesRules>,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: GetMemoryZirconHandlePropertiesRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(GetMemoryZirconHandlePropertiesRules::NOT_A_VMO_TYPE) {
        outcome.push(
            Finding::new(
                vuid::ZIRCON_PROPS_HANDLE_TYPE_04773,
                name,
                "handleType",
                format!(
                    "{name}(): handleType is {}; it must be \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.",
                    vk_names::handle_types(call.handle_type())
                ),
            )
            .with(device_ref),
        );
    }
    if broken.has(GetMemoryZirconHandlePropertiesRules::INVALID_HANDLE) {
        outcome.push(
            Finding::new(
                vuid::ZIRCON_PROPS_HANDLE_04774,
                name,
                cmd.handle_param,
                format!(
                    "{name}(): zirconHandle is ZX_HANDLE_INVALID (0), which references no VMO. \
                     The call was not passed to the driver."
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
    fn a_vmo_is_silent() {
        assert_eq!(
            ids(call(T::ZIRCON_VMO_FUCHSIA, 0x2000_0101)),
            (vec![], false)
        );
    }

    #[test]
    fn another_type_is_04773_and_goes_down() {
        assert_eq!(
            ids(call(T::OPAQUE_FD, 0x2000_0101)),
            (vec![vuid::ZIRCON_PROPS_HANDLE_TYPE_04773], false)
        );
        assert_eq!(
            ids(call(T::ZIRCON_VMO_FUCHSIA | T::OPAQUE_FD, 0x2000_0101)),
            (
                vec![
                    vuid::ZIRCON_PROPS_HANDLE_TYPE_PARAM,
                    vuid::ZIRCON_PROPS_HANDLE_TYPE_04773
                ],
                false
            )
        );
    }

    #[test]
    fn an_invalid_handle_is_04774_and_blocks() {
        assert_eq!(
            ids(call(T::ZIRCON_VMO_FUCHSIA, 0)),
            (vec![vuid::ZIRCON_PROPS_HANDLE_04774], true)
        );
    }
}
