//! `vkGetAndroidHardwareBufferPropertiesANDROID`
//! (VK_ANDROID_external_memory_android_hardware_buffer): its names, IDs and own rules.
//!
//! The query has no `handleType` (it is always about an Android hardware buffer), and its output
//! structure, `VkAndroidHardwareBufferPropertiesANDROID`, is extended: the app may chain
//! `VkAndroidHardwareBufferFormatPropertiesANDROID`, `...FormatProperties2ANDROID` and
//! `...FormatResolvePropertiesANDROID` for the driver to fill, so a `pNext` is no finding. The
//! driver walks that chain, so one that loops is blocked.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::query::{OutputStructure, QueryCall, QueryCommand};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vuid;
use ash::vk;

pub const COMMAND: QueryCommand<GetAndroidHardwareBufferPropertiesRules> = QueryCommand {
    name: "vkGetAndroidHardwareBufferPropertiesANDROID",
    extension: "VK_ANDROID_external_memory_android_hardware_buffer",
    is_enabled: |e| e.android_external_memory_android_hardware_buffer,
    handle_param: "buffer",
    output: OutputStructure {
        param: "pProperties",
        type_name: "VkAndroidHardwareBufferPropertiesANDROID",
        s_type: vk::StructureType::ANDROID_HARDWARE_BUFFER_PROPERTIES_ANDROID,
        param_vuid: vuid::AHB_PROPS_OUTPUT_PARAM,
        s_type_vuid: vuid::AHB_PROPS_WRONG_STYPE,
        p_next_vuid: None,
    },
    device_vuid: vuid::AHB_PROPS_DEVICE_PARAM,
    handle_type_vuid: None,
    blocking: GetAndroidHardwareBufferPropertiesRules::NULL_BUFFER
        .and(GetAndroidHardwareBufferPropertiesRules::CHAIN_LOOPS),
    evaluate_values,
    describe_values,
};

/// The handle type the query is about (what its descriptor reads as `handleType`).
pub const HANDLE_TYPE: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;

rule_set! {
    /// The rules of `vkGetAndroidHardwareBufferPropertiesANDROID` of its own (the shared ones are
    /// `QueryRules`).
    pub struct GetAndroidHardwareBufferPropertiesRules {
        /// `VUID-vkGetAndroidHardwareBufferPropertiesANDROID-buffer-parameter`, in the one case the
        /// layer can be sure of: `buffer` is NULL (whether another value points to a valid
        /// `AHardwareBuffer` only the Android runtime can tell). Blocks: the pointer is known to be
        /// bad.
        NULL_BUFFER,
        /// `VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-unique`, where it is certain: the
        /// output structure's `pNext` chain loops back on itself, so its structures and their
        /// `sType`s repeat. Blocks: the driver would walk it forever.
        CHAIN_LOOPS,
    }
}

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, call: &QueryCall) -> GetAndroidHardwareBufferPropertiesRules {
    GetAndroidHardwareBufferPropertiesRules::NONE
        .with(
            GetAndroidHardwareBufferPropertiesRules::NULL_BUFFER,
            call.handle == 0,
        )
        .with(
            GetAndroidHardwareBufferPropertiesRules::CHAIN_LOOPS,
            call.output_loops,
        )
}

fn describe_values(
    cmd: &QueryCommand<GetAndroidHardwareBufferPropertiesRules>,
    device: &DeviceFacts,
    _: &QueryCall,
    broken: GetAndroidHardwareBufferPropertiesRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(GetAndroidHardwareBufferPropertiesRules::NULL_BUFFER) {
        outcome.push(
            Finding::new(
                vuid::AHB_PROPS_BUFFER_PARAM,
                name,
                cmd.handle_param,
                format!(
                    "{name}(): buffer is NULL; it must point to a valid AHardwareBuffer. The \
                     call was not passed to the driver."
                ),
            )
            .with(device_ref),
        );
    }
    if broken.has(GetAndroidHardwareBufferPropertiesRules::CHAIN_LOOPS) {
        outcome.push(
            Finding::new(
                vuid::AHB_PROPS_CHAIN_LOOPS,
                name,
                "pProperties->pNext",
                format!(
                    "{name}(): the pNext chain of pProperties loops back on itself, so \
                     structures repeat in it, and with them their sType values, which must be \
                     unique in the chain. The call was not passed to the driver, which would \
                     walk the chain forever."
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
    use crate::rules::fixtures::fd_device;
    use crate::rules::query::check;
    use crate::state::DeviceFacts;

    /// The fixture device has every extension, this one's included.
    fn android_device() -> DeviceFacts {
        fd_device()
    }

    fn call(buffer: i64, output: StructArg<bool>, output_loops: bool) -> QueryCall {
        QueryCall {
            handle_type: HANDLE_TYPE.as_raw(),
            handle: buffer,
            handle_open: None,
            output,
            output_loops,
        }
    }

    fn ids(device: &DeviceFacts, call: QueryCall) -> (Vec<&'static str>, bool) {
        let outcome = check(&COMMAND, device, &call);
        (outcome.ids(), outcome.blocked)
    }

    #[test]
    fn a_buffer_is_silent_with_or_without_chained_format_structures() {
        for has_p_next in [false, true] {
            let good = call(0x4100, StructArg::Valid(has_p_next), false);
            assert_eq!(ids(&android_device(), good), (vec![], false));
        }
    }

    #[test]
    fn a_null_buffer_is_the_parameter_rule_and_blocks() {
        assert_eq!(
            ids(&android_device(), call(0, StructArg::Valid(false), false)),
            (vec![vuid::AHB_PROPS_BUFFER_PARAM], true)
        );
    }

    #[test]
    fn the_output_structure_null_wrong_or_looping_blocks() {
        let device = android_device();
        assert_eq!(
            ids(&device, call(0x4100, StructArg::Null, false)),
            (vec![vuid::AHB_PROPS_OUTPUT_PARAM], true)
        );
        let wrong = StructArg::WrongSType(vk::StructureType::MEMORY_FD_PROPERTIES_KHR);
        assert_eq!(
            ids(&device, call(0x4100, wrong, false)),
            (vec![vuid::AHB_PROPS_WRONG_STYPE], true)
        );
        assert_eq!(
            ids(&device, call(0x4100, StructArg::Valid(true), true)),
            (vec![vuid::AHB_PROPS_CHAIN_LOOPS], true)
        );
    }

    #[test]
    fn without_the_extension_only_the_extension_is_reported() {
        // The handle type is the query's own: no -parameter rule, even on a device that does
        // not know it.
        let mut device = fd_device();
        device
            .extensions
            .android_external_memory_android_hardware_buffer = false;
        device.handle_types = device.extensions.handle_types();
        assert_eq!(
            ids(&device, call(0x4100, StructArg::Valid(false), false)),
            (vec![vuid::EXTENSION_NOT_ENABLED], false)
        );
    }
}
