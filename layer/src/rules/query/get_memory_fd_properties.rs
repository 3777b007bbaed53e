//! `vkGetMemoryFdPropertiesKHR` (VK_KHR_external_memory_fd): its names, IDs and own rules.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::query::{OutputStructure, QueryCall, QueryCommand};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: QueryCommand<GetMemoryFdPropertiesRules> = QueryCommand {
    name: "vkGetMemoryFdPropertiesKHR",
    extension: "VK_KHR_external_memory_fd",
    is_enabled: |e| e.khr_external_memory_fd,
    handle_param: "fd",
    output: OutputStructure {
        param: "pMemoryFdProperties",
        type_name: "VkMemoryFdPropertiesKHR",
        s_type: vk::StructureType::MEMORY_FD_PROPERTIES_KHR,
        param_vuid: vuid::FD_PROPS_OUTPUT_PARAM,
        s_type_vuid: vuid::FD_PROPS_STYPE,
        p_next_vuid: Some(vuid::FD_PROPS_PNEXT),
    },
    device_vuid: vuid::FD_PROPS_DEVICE_PARAM,
    handle_type_vuid: Some(vuid::FD_PROPS_HANDLE_TYPE_PARAM),
    blocking: GetMemoryFdPropertiesRules::FD_NOT_OPEN,
    evaluate_values,
    describe_values,
};

rule_set! {
    /// The rules of `vkGetMemoryFdPropertiesKHR` of its own (the shared ones are `QueryRules`).
    pub struct GetMemoryFdPropertiesRules {
        /// `VUID-vkGetMemoryFdPropertiesKHR-fd-00673`, in the one case the layer can be sure of:
        /// the number is not an open file descriptor of the process (`fcntl(F_GETFD)` fails;
        /// negative numbers included). Whether an open fd is a memory handle of the right type only
        /// the driver can tell. Blocks: the handle is known to be bad.
        FD_NOT_OPEN,
        /// `VUID-vkGetMemoryFdPropertiesKHR-handleType-00674`: not `OPAQUE_FD`.
        OPAQUE_FD,
    }
}

#[inline(always)]
fn evaluate_values(_: &DeviceFacts, call: &QueryCall) -> GetMemoryFdPropertiesRules {
    GetMemoryFdPropertiesRules::NONE
        .with(
            GetMemoryFdPropertiesRules::FD_NOT_OPEN,
            call.handle_open == Some(false),
        )
        .with(
            GetMemoryFdPropertiesRules::OPAQUE_FD,
            call.handle_type() == vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        )
}

fn describe_values(
    cmd: &QueryCommand<GetMemoryFdPropertiesRules>,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: GetMemoryFdPropertiesRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(GetMemoryFdPropertiesRules::FD_NOT_OPEN) {
        outcome.push(
            Finding::new(
                vuid::FD_PROPS_FD_00673,
                name,
                cmd.handle_param,
                format!(
                    "{name}(): fd is {}, which is not an open file descriptor of the process \
                     (fcntl(F_GETFD) fails), so it cannot be a POSIX file descriptor memory \
                     handle. The call was not passed to the driver.",
                    call.handle
                ),
            )
            .with(device_ref),
        );
    }
    if broken.has(GetMemoryFdPropertiesRules::OPAQUE_FD) {
        outcome.push(
            Finding::new(
                vuid::FD_PROPS_HANDLE_TYPE_00674,
                name,
                "handleType",
                format!(
                    "{name}(): handleType is {}; it must not be: the properties of an opaque fd \
                     cannot be queried (memory imported from one must use the memory type it \
                     was exported from).",
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
    use crate::args::StructArg;
    use crate::rules::fixtures::{fd_device, DMA_BUF};
    use crate::rules::query::{check, checked, handle_call};

    fn call(handle_type: vk::ExternalMemoryHandleTypeFlags, open: Option<bool>) -> QueryCall {
        QueryCall {
            handle_open: open,
            ..handle_call(handle_type, 5)
        }
    }

    fn ids(call: QueryCall) -> (Vec<&'static str>, bool) {
        checked(&COMMAND, &call)
    }

    #[test]
    fn a_dma_buf_query_of_an_open_fd_is_silent() {
        assert_eq!(ids(call(DMA_BUF, Some(true))), (vec![], false));
        // Where the OS cannot tell, nothing is said about the fd.
        assert_eq!(ids(call(DMA_BUF, None)), (vec![], false));
    }

    #[test]
    fn a_closed_fd_is_00673_and_blocks() {
        assert_eq!(
            ids(call(DMA_BUF, Some(false))),
            (vec![vuid::FD_PROPS_FD_00673], true)
        );
    }

    #[test]
    fn opaque_fd_is_00674_and_goes_down() {
        let opaque = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        assert_eq!(
            ids(call(opaque, Some(true))),
            (vec![vuid::FD_PROPS_HANDLE_TYPE_00674], false)
        );
    }

    #[test]
    fn every_broken_rule_is_reported() {
        let two = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD | DMA_BUF;
        let mut c = call(two, Some(false));
        c.output = StructArg::WrongSType(vk::StructureType::MEMORY_ALLOCATE_INFO);
        assert_eq!(
            ids(c),
            (
                vec![
                    vuid::FD_PROPS_HANDLE_TYPE_PARAM,
                    vuid::FD_PROPS_FD_00673,
                    vuid::FD_PROPS_STYPE
                ],
                true
            )
        );
        let mut c = call(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD, Some(true));
        c.output = StructArg::Null;
        assert_eq!(
            ids(c),
            (
                vec![
                    vuid::FD_PROPS_HANDLE_TYPE_00674,
                    vuid::FD_PROPS_OUTPUT_PARAM
                ],
                true
            )
        );
        c.output = StructArg::Valid(true);
        assert_eq!(
            ids(c),
            (
                vec![vuid::FD_PROPS_HANDLE_TYPE_00674, vuid::FD_PROPS_PNEXT],
                false
            )
        );
    }

    #[test]
    fn without_the_extension_the_warning_comes_first() {
        let mut device = fd_device();
        device.extensions.khr_external_memory_fd = false;
        let outcome = check(&COMMAND, &device, &call(DMA_BUF, Some(true)));
        assert_eq!(outcome.ids(), [vuid::EXTENSION_NOT_ENABLED]);
        assert!(!outcome.blocked);
    }
}
