//! `vkGetMemoryMetalHandlePropertiesEXT` (VK_EXT_external_memory_metal): its names, IDs and own
//! rules.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::export::get_memory_metal_handle::METAL_TYPES;
use crate::rules::export::is_one_of;
use crate::rules::query::{OutputStructure, QueryCall, QueryCommand};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_ext;
use crate::vk_names;
use crate::vuid;

pub const COMMAND: QueryCommand<GetMemoryMetalHandlePropertiesRules> = QueryCommand {
    name: "vkGetMemoryMetalHandlePropertiesEXT",
    extension: vk_ext::EXT_EXTERNAL_MEMORY_METAL_NAME,
    is_enabled: |e| e.ext_external_memory_metal,
    handle_param: "pHandle",
    output: OutputStructure {
        param: "pMemoryMetalHandleProperties",
        type_name: "VkMemoryMetalHandlePropertiesEXT",
        s_type: vk_ext::STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT,
        param_vuid: vuid::METAL_PROPS_OUTPUT_PARAM,
        s_type_vuid: vuid::METAL_PROPS_STYPE,
        p_next_vuid: Some(vuid::METAL_PROPS_PNEXT),
    },
    device_vuid: vuid::METAL_PROPS_DEVICE_PARAM,
    handle_type_vuid: Some(vuid::METAL_PROPS_HANDLE_TYPE_PARAM),
    blocking: GetMemoryMetalHandlePropertiesRules::NULL_HANDLE,
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryMetalHandlePropertiesEXT` of its own (the shared ones are
    /// `QueryRules`).
    pub struct GetMemoryMetalHandlePropertiesRules {
        /// `VUID-vkGetMemoryMetalHandlePropertiesEXT-handle-10416`, in the one case the layer can
        /// be sure of: `pHandle` is NULL, which is no Metal object (whether a non-NULL value is one
        /// only the driver can tell). Blocks: the handle is known to be bad.
        NULL_HANDLE,
        /// `VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-10417`: a Metal type.
        NOT_A_METAL_TYPE,
    }
}

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, call: &QueryCall) -> GetMemoryMetalHandlePropertiesRules {
    GetMemoryMetalHandlePropertiesRules::NONE
        .with(
            GetMemoryMetalHandlePropertiesRules::NULL_HANDLE,
            call.handle == 0,
        )
        .with(
            GetMemoryMetalHandlePropertiesRules::NOT_A_METAL_TYPE,
            !is_one_of(call.handle_type(), METAL_TYPES),
        )
}

fn describe_values(
    cmd: &QueryCommand<GetMemoryMetalHandlePropertiesRules>,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: GetMemoryMetalHandlePropertiesRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(GetMemoryMetalHandlePropertiesRules::NULL_HANDLE) {
        outcome.push(
            Finding::new(
                vuid::METAL_PROPS_HANDLE_10416,
                name,
                cmd.handle_param,
                format!(
                    "{name}(): pHandle is NULL; it must be a valid id<MTLBuffer>, id<MTLTexture> \
                     or id<MTLDevice>. The call was not passed to the driver."
                ),
            )
            .with(device_ref),
        );
    }
    if broken.has(GetMemoryMetalHandlePropertiesRules::NOT_A_METAL_TYPE) {
        outcome.push(
            Finding::new(
                vuid::METAL_PROPS_HANDLE_TYPE_10417,
                name,
                "handleType",
                format!(
                    "{name}(): handleType is {}; it must be \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT, \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT or \
                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT.",
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
    use crate::rules::fixtures::OPAQUE_FD;
    use crate::rules::query::{checked, handle_call};
    use crate::vk_ext::{HANDLE_TYPE_MTLBUFFER, HANDLE_TYPE_MTLHEAP, HANDLE_TYPE_MTLTEXTURE};
    use ash::vk;

    fn call(handle_type: vk::ExternalMemoryHandleTypeFlags, handle: i64) -> QueryCall {
        handle_call(handle_type, handle)
    }

    fn ids(call: QueryCall) -> (Vec<&'static str>, bool) {
        checked(&COMMAND, &call)
    }

    #[test]
    fn a_metal_handle_of_each_type_is_silent() {
        for t in [
            HANDLE_TYPE_MTLBUFFER,
            HANDLE_TYPE_MTLTEXTURE,
            HANDLE_TYPE_MTLHEAP,
        ] {
            assert_eq!(ids(call(t, 0x4d00)), (vec![], false));
        }
    }

    #[test]
    fn a_null_handle_is_10416_and_blocks() {
        assert_eq!(
            ids(call(HANDLE_TYPE_MTLBUFFER, 0)),
            (vec![vuid::METAL_PROPS_HANDLE_10416], true)
        );
    }

    #[test]
    fn another_type_is_10417_and_goes_down() {
        assert_eq!(
            ids(call(OPAQUE_FD, 0x4d00)),
            (vec![vuid::METAL_PROPS_HANDLE_TYPE_10417], false)
        );
        assert_eq!(
            ids(call(HANDLE_TYPE_MTLBUFFER | HANDLE_TYPE_MTLHEAP, 0)),
            (
                vec![
                    vuid::METAL_PROPS_HANDLE_TYPE_PARAM,
                    vuid::METAL_PROPS_HANDLE_10416,
                    vuid::METAL_PROPS_HANDLE_TYPE_10417
                ],
                true
            )
        );
    }
}
