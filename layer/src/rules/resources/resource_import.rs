//! A dedicated import against the buffer or image it is for: the handle type of an import
//! structure must be supported for import, as `VkExternalBufferProperties` or
//! `VkExternalImageFormatProperties` reports (`VUID-VkImportMemoryFdInfoKHR-handleType-09862`,
//! `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-09861`).
//!
//! Judged only for an allocation whose `VkMemoryDedicatedAllocateInfo` names a buffer or image
//! the layer tracks (`rules::resources::resource_export`'s resources): the driver's answer for that
//! resource's own create info (`vkGetPhysicalDeviceExternalBufferProperties`,
//! `vkGetPhysicalDeviceImageFormatProperties2` with `VkPhysicalDeviceExternalImageFormatInfo`)
//! must have `VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT`, as the Khronos layer judges it. A query
//! that failed is not judged: the layer's query may lack a structure of the create info that the
//! driver needs. An import that names no resource is not judged: support is reported per
//! resource description, and no single answer covers it.

use crate::finding::{Finding, ObjectRef};
use crate::state::HandleTypeSupport;
use crate::vk_names;
use ash::vk;

/// One import structure of a dedicated allocation, and the driver's answer for its handle type
/// and the resource the allocation is dedicated to.
pub struct DedicatedImport<'a> {
    /// The rule of the import structure (`VUID-...-09862` or `-09861`).
    pub id: &'static str,
    /// The import structure's name, e.g. `VkImportMemoryFdInfoKHR`.
    pub structure: &'static str,
    pub device: u64,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
    /// The buffer or image of `VkMemoryDedicatedAllocateInfo`, its object type and handle.
    pub resource: ObjectRef,
    /// How messages describe the resource's create info (`flags ..., usage ...`).
    pub resource_info: &'a str,
    /// The query that answered for it, by name.
    pub query: &'static str,
    pub answer: HandleTypeSupport,
}

/// Whether the driver answered, and said the handle type is not importable for the resource.
#[inline]
pub fn evaluate(answer: HandleTypeSupport) -> bool {
    answer.result == vk::Result::SUCCESS
        && !answer
            .features
            .contains(vk::ExternalMemoryFeatureFlags::IMPORTABLE)
}

/// The finding of an import [`evaluate`] found broken.
#[cold]
pub fn describe(import: &DedicatedImport) -> Finding {
    let member = if import.resource.ty == vk::ObjectType::IMAGE {
        "image"
    } else {
        "buffer"
    };
    let field = format!("pAllocateInfo->pNext<{}>.handleType", import.structure);
    let message = format!(
        "vkAllocateMemory(): {field} is {}, but the allocation is dedicated to {} ({}) \
         (VkMemoryDedicatedAllocateInfo::{member}), for which that handle type is not supported \
         for import: externalMemoryFeatures = {}, without \
         VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT (as {} reports for this physical device and \
         the {member}'s create info).",
        vk_names::handle_types(import.handle_type),
        vk_names::handle(import.resource.ty, import.resource.handle),
        import.resource_info,
        vk_names::memory_features(import.answer.features),
        import.query,
    );
    Finding::new(import.id, "vkAllocateMemory", field, message)
        .with(ObjectRef::device(import.device))
        .with(import.resource)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vuid;

    fn answer(result: vk::Result, features: vk::ExternalMemoryFeatureFlags) -> HandleTypeSupport {
        HandleTypeSupport {
            result,
            features,
            compatible: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        }
    }

    #[test]
    fn only_an_answer_without_importable_is_broken() {
        let ok = vk::Result::SUCCESS;
        let features = vk::ExternalMemoryFeatureFlags::EXPORTABLE;
        assert!(evaluate(answer(ok, features)));
        assert!(evaluate(answer(
            ok,
            vk::ExternalMemoryFeatureFlags::empty()
        )));
        let importable = features | vk::ExternalMemoryFeatureFlags::IMPORTABLE;
        assert!(!evaluate(answer(ok, importable)));
        // A query that failed is not judged.
        let failed = vk::Result::ERROR_FORMAT_NOT_SUPPORTED;
        assert!(!evaluate(answer(
            failed,
            vk::ExternalMemoryFeatureFlags::empty()
        )));
    }

    #[test]
    fn the_finding_names_the_handle_type_the_resource_and_the_features() {
        let import = DedicatedImport {
            id: vuid::IMPORT_FD_HANDLE_TYPE_09862,
            structure: "VkImportMemoryFdInfoKHR",
            device: 0xd,
            handle_type: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
            resource: ObjectRef {
                ty: vk::ObjectType::BUFFER,
                handle: 0xb,
            },
            resource_info: "flags 0, usage TRANSFER_SRC",
            query: "vkGetPhysicalDeviceExternalBufferProperties",
            answer: answer(
                vk::Result::SUCCESS,
                vk::ExternalMemoryFeatureFlags::EXPORTABLE,
            ),
        };
        let f = describe(&import);
        assert_eq!(f.id, vuid::IMPORT_FD_HANDLE_TYPE_09862);
        assert_eq!(
            f.field,
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.handleType"
        );
        for part in [
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            "dedicated to VkBuffer 0xb (flags 0, usage TRANSFER_SRC) \
             (VkMemoryDedicatedAllocateInfo::buffer)",
            "externalMemoryFeatures = EXPORTABLE, without VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT",
            "as vkGetPhysicalDeviceExternalBufferProperties reports",
        ] {
            assert!(f.message.contains(part), "{part}: {}", f.message);
        }
    }
}
