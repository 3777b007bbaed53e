//! `vkGetMemoryAndroidHardwareBufferANDROID` (VK_ANDROID_external_memory_android_hardware_buffer):
//! its names, IDs and own rules. Its info structure has no `handleType`: the handle type is
//! always `ANDROID_HARDWARE_BUFFER_BIT_ANDROID` (the descriptor reads it so).

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::common::{describe_allocation, FindingExt};
use crate::rules::export::{exported_with, ExportCommand, InfoFields, InfoStructure};
use crate::rules::rule_set::rule_set;
use crate::state::{DeviceFacts, MemoryRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: ExportCommand<GetMemoryAndroidHardwareBufferRules> = ExportCommand {
    name: "vkGetMemoryAndroidHardwareBufferANDROID",
    extension: "VK_ANDROID_external_memory_android_hardware_buffer",
    is_enabled: |e| e.android_external_memory_android_hardware_buffer,
    info: Some(InfoStructure {
        param: "pInfo",
        type_name: "VkMemoryGetAndroidHardwareBufferInfoANDROID",
        s_type: vk::StructureType::MEMORY_GET_ANDROID_HARDWARE_BUFFER_INFO_ANDROID,
        info_vuid: vuid::AHB_INFO_PARAM,
        s_type_vuid: vuid::AHB_STYPE,
        p_next_vuid: vuid::AHB_PNEXT,
    }),
    output_param: "pBuffer",
    device_vuid: vuid::AHB_DEVICE_PARAM,
    output_vuid: vuid::AHB_PBUFFER_PARAM,
    object_vuid: vuid::AHB_MEMORY_PARAM,
    other_device_vuid: vuid::MEMORY_OF_OTHER_DEVICE,
    handle_type_vuid: None,
    evaluate_values,
    describe_values,
};

/// The handle type the command exports (what its info structure stands for).
pub const HANDLE_TYPE: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;

rule_set! {
    /// The rules of `vkGetMemoryAndroidHardwareBufferANDROID` of its own (the shared ones are
    /// `ExportRules`).
    pub struct GetMemoryAndroidHardwareBufferRules {
        /// `VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-handleTypes-01882`: exported as an
        /// Android hardware buffer.
        NOT_EXPORTED,
        /// `VUID-VkMemoryGetAndroidHardwareBufferInfoANDROID-pNext-01883`: the memory's dedicated
        /// image is bound to it (an earlier call's doing: evaluated with what the device
        /// remembers).
        DEDICATED_IMAGE_NOT_BOUND,
    }
}

/// 01883 of a call, given the memory's dedicated image if it is known not to be bound to it.
#[inline(always)]
pub fn evaluate_history(
    unbound_dedicated_image: Option<u64>,
) -> GetMemoryAndroidHardwareBufferRules {
    GetMemoryAndroidHardwareBufferRules::NONE.with(
        GetMemoryAndroidHardwareBufferRules::DEDICATED_IMAGE_NOT_BOUND,
        unbound_dedicated_image.is_some(),
    )
}

/// The finding of 01883, when `broken` has it: `record` was allocated dedicated to `image`,
/// which is not bound to it.
pub fn describe_history(
    record: &MemoryRecord,
    image: Option<u64>,
    broken: GetMemoryAndroidHardwareBufferRules,
    outcome: &mut Outcome,
) {
    let (true, Some(image)) = (
        broken.has(GetMemoryAndroidHardwareBufferRules::DEDICATED_IMAGE_NOT_BOUND),
        image,
    ) else {
        return;
    };
    let field = "pInfo->memory";
    let image_name = vk_names::handle(vk::ObjectType::IMAGE, image);
    outcome.push(
        Finding::new(
            vuid::AHB_PNEXT_01883,
            COMMAND.name,
            field,
            format!(
                "vkGetMemoryAndroidHardwareBufferANDROID(): {field} is {}, allocated with a \
                 VkMemoryDedicatedAllocateInfo whose image is {image_name}, and that image is \
                 not bound to it yet; bind it (vkBindImageMemory or vkBindImageMemory2) before \
                 exporting the memory as an Android hardware buffer.",
                describe_allocation(record)
            ),
        )
        .with_memory(record)
        .with(ObjectRef {
            ty: vk::ObjectType::IMAGE,
            handle: image,
        }),
    );
}

#[inline(always)]
fn evaluate_values(
    _: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
) -> GetMemoryAndroidHardwareBufferRules {
    GetMemoryAndroidHardwareBufferRules::NONE.with(
        GetMemoryAndroidHardwareBufferRules::NOT_EXPORTED,
        !exported_with(info, record),
    )
}

fn describe_values(
    cmd: &ExportCommand<GetMemoryAndroidHardwareBufferRules>,
    _: &DeviceFacts,
    _: &InfoFields,
    record: &MemoryRecord,
    broken: GetMemoryAndroidHardwareBufferRules,
    outcome: &mut Outcome,
) {
    if !broken.has(GetMemoryAndroidHardwareBufferRules::NOT_EXPORTED) {
        return;
    }
    let field = "pInfo->memory";
    let cause = match record.export() {
        Some(types) => format!(
            "VkExportMemoryAllocateInfo::handleTypes ({}) did not include \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID",
            vk_names::handle_types(types)
        ),
        None => "its VkMemoryAllocateInfo had no VkExportMemoryAllocateInfo in the pNext chain, \
                 so it cannot be exported"
            .to_owned(),
    };
    outcome.push(
        Finding::new(
            vuid::AHB_HANDLE_TYPES_01882,
            cmd.name,
            field,
            format!(
                "vkGetMemoryAndroidHardwareBufferANDROID(): {field} is {}, and when it was \
                 allocated {cause}.",
                describe_allocation(record)
            ),
        )
        .with_memory(record),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::export::ExportCall;
    use crate::rules::fixtures::*;

    fn ids(args: ExportCall) -> Vec<&'static str> {
        crate::rules::export::check(&COMMAND, &fd_device(), &args).ids()
    }

    #[test]
    fn memory_exported_as_a_hardware_buffer_is_silent() {
        assert!(ids(good_args(HANDLE_TYPE, exported(HANDLE_TYPE))).is_empty());
        assert!(ids(good_args(HANDLE_TYPE, exported(HANDLE_TYPE | OPAQUE_FD))).is_empty());
    }

    #[test]
    fn memory_not_exported_as_a_hardware_buffer_is_01882_with_either_cause() {
        for facts in [exported(OPAQUE_FD), not_exported()] {
            let outcome =
                crate::rules::export::check(&COMMAND, &fd_device(), &good_args(HANDLE_TYPE, facts));
            assert_eq!(outcome.ids(), [vuid::AHB_HANDLE_TYPES_01882]);
            assert!(!outcome.blocked);
            let message = &outcome.findings[0].message;
            assert!(message.starts_with("vkGetMemoryAndroidHardwareBufferANDROID(): pInfo->memory is VkDeviceMemory 0x3000"), "{message}");
        }
    }
}

#[cfg(test)]
mod history_tests {
    use super::*;
    use crate::rules::fixtures::*;

    #[test]
    fn an_unbound_dedicated_image_is_01883_and_named() {
        assert!(evaluate_history(None).is_empty());
        let broken = evaluate_history(Some(0x1e));
        assert_eq!(
            broken,
            GetMemoryAndroidHardwareBufferRules::DEDICATED_IMAGE_NOT_BOUND
        );
        let record = record_on(DEVICE, exported(HANDLE_TYPE));
        let mut outcome = Outcome::default();
        describe_history(&record, Some(0x1e), broken, &mut outcome);
        assert_eq!(outcome.ids(), [vuid::AHB_PNEXT_01883]);
        assert!(!outcome.blocked);
        let finding = &outcome.findings[0];
        assert!(
            finding.message.contains("whose image is VkImage 0x1e"),
            "{}",
            finding.message
        );
        assert!(finding
            .objects
            .iter()
            .any(|o| o.ty == vk::ObjectType::IMAGE && o.handle == 0x1e));
        // Bound meanwhile (another thread): nothing to name, nothing said.
        let mut outcome = Outcome::default();
        describe_history(&record, None, broken, &mut outcome);
        assert!(outcome.findings.is_empty());
    }
}
