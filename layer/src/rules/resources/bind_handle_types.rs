//! The handle types of memory bound to a buffer or image, against those the resource was created
//! for (`VkExternalMemoryBufferCreateInfo::handleTypes`, `VkExternalMemoryImageCreateInfo::handleTypes`;
//! 0 when the resource was created without one):
//!
//! - `-memory-02726` (buffers) / `-memory-02728` (images): "If the value of
//!   `VkExportMemoryAllocateInfo::handleTypes` used to allocate memory is not 0, it must include
//!   at least one of the handles set in" the resource's handle types. Memory allocated without a
//!   `VkExportMemoryAllocateInfo`, or with `handleTypes` 0, is not judged.
//! - `-memory-02985` / `-memory-02989`: memory made by an import operation other than an Android
//!   hardware buffer import: "the external handle type of the imported memory must also have been
//!   set" in the resource's handle types.
//! - `-memory-02986` / `-memory-02990`: memory imported with a
//!   `VkImportAndroidHardwareBufferInfoANDROID` with a buffer:
//!   `VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID` must have been set there.
//!
//! `vkBindBufferMemory` and `vkBindImageMemory` report the `vkBind*Memory-memory-*` IDs; their `2`
//! variants the `VkBind*MemoryInfo-memory-*` ones, for each element of `pBindInfos`. As the
//! Khronos layer reads them (`cc_device_memory.cpp`): the export's types and the resource's share
//! no bit; the import's type is not among the resource's.
//!
//! Judged only where the layer knows both sides: live memory of the device, exported or imported
//! by one import operation whose handle type it recorded (`PackedAllocation::import_operation`:
//! not two import structures, nor an Android hardware buffer type named by another structure than
//! the Android one), and a live buffer or image of the device whose create info it read to the
//! end. A NULL, freed, unknown or foreign memory or resource is other rules' (`-parameter`,
//! `-commonparent`) and not judged here.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::rule_set::rule_set;
use crate::vk_names;
use crate::vuid;
use ash::vk;

const AHB: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;

rule_set! {
    /// The rules of the handle types of memory bound to a resource.
    pub struct BindHandleTypesRules {
        /// `-memory-02726` / `-memory-02728`: exported as none of the resource's handle types.
        EXPORT_NOT_FOR_RESOURCE,
        /// `-memory-02985` / `-memory-02989`: imported as a type the resource was not created for.
        IMPORT_NOT_FOR_RESOURCE,
        /// `-memory-02986` / `-memory-02990`: an Android hardware buffer import, and the resource
        /// was not created for Android hardware buffers.
        ANDROID_IMPORT_NOT_FOR_RESOURCE,
    }
}

/// The rules one binding breaks: `export` is the memory's `VkExportMemoryAllocateInfo::handleTypes`
/// (0 without one), `import` the handle type of its import operation, `resource` the handle types
/// the buffer or image was created for.
#[inline]
pub fn evaluate(
    export: vk::ExternalMemoryHandleTypeFlags,
    import: Option<vk::ExternalMemoryHandleTypeFlags>,
    resource: vk::ExternalMemoryHandleTypeFlags,
) -> BindHandleTypesRules {
    let import_missing = import.is_some_and(|t| !resource.intersects(t));
    let android = import == Some(AHB);
    BindHandleTypesRules::NONE
        .with(
            BindHandleTypesRules::EXPORT_NOT_FOR_RESOURCE,
            !export.is_empty() && !export.intersects(resource),
        )
        .with(
            BindHandleTypesRules::IMPORT_NOT_FOR_RESOURCE,
            import_missing && !android,
        )
        .with(
            BindHandleTypesRules::ANDROID_IMPORT_NOT_FOR_RESOURCE,
            import_missing && android,
        )
}

/// One binding, as messages describe it.
pub struct Binding {
    /// `vkBindBufferMemory`, `vkBindBufferMemory2`, `vkBindImageMemory` or `vkBindImageMemory2`.
    pub command: &'static str,
    /// `memory` or `pBindInfos[i].memory`.
    pub field: String,
    pub device: u64,
    pub memory: u64,
    /// How messages describe the memory and what it was allocated with.
    pub memory_info: String,
    pub export: vk::ExternalMemoryHandleTypeFlags,
    pub import: Option<vk::ExternalMemoryHandleTypeFlags>,
    /// The buffer (`BUFFER`) or image (`IMAGE`).
    pub resource: ObjectRef,
    /// The handle types it was created for.
    pub resource_types: vk::ExternalMemoryHandleTypeFlags,
}

/// The command's IDs of the three rules, in bit order.
fn ids(command: &str) -> [&'static str; 3] {
    match command {
        "vkBindBufferMemory" => [
            vuid::BIND_BUFFER_MEMORY_02726,
            vuid::BIND_BUFFER_MEMORY_02985,
            vuid::BIND_BUFFER_MEMORY_02986,
        ],
        "vkBindBufferMemory2" => [
            vuid::BIND_BUFFER_INFO_02726,
            vuid::BIND_BUFFER_INFO_02985,
            vuid::BIND_BUFFER_INFO_02986,
        ],
        "vkBindImageMemory" => [
            vuid::BIND_IMAGE_MEMORY_02728,
            vuid::BIND_IMAGE_MEMORY_02989,
            vuid::BIND_IMAGE_MEMORY_02990,
        ],
        _ => [
            vuid::BIND_IMAGE_INFO_02728,
            vuid::BIND_IMAGE_INFO_02989,
            vuid::BIND_IMAGE_INFO_02990,
        ],
    }
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `binding`).
#[cold]
pub fn describe(binding: &Binding, broken: BindHandleTypesRules) -> Outcome {
    let mut outcome = Outcome::default();
    let [exported_id, imported_id, android_id] = ids(binding.command);
    let structure = if binding.resource.ty == vk::ObjectType::BUFFER {
        "VkExternalMemoryBufferCreateInfo"
    } else {
        "VkExternalMemoryImageCreateInfo"
    };
    let resource = format!(
        "{} was created with {structure}::handleTypes = {}{}",
        vk_names::handle(binding.resource.ty, binding.resource.handle),
        vk_names::handle_types(binding.resource_types),
        if binding.resource_types.is_empty() {
            " (or without that structure)"
        } else {
            ""
        }
    );
    let head = format!(
        "{}(): {}: {}",
        binding.command, binding.field, binding.memory_info
    );
    let mut push = |id: &'static str, message: String| {
        outcome.push(
            Finding::new(id, binding.command, binding.field.clone(), message)
                .with(ObjectRef::device(binding.device))
                .with(ObjectRef::memory(binding.memory))
                .with(binding.resource),
        );
    };
    if broken.has(BindHandleTypesRules::EXPORT_NOT_FOR_RESOURCE) {
        push(
            exported_id,
            format!(
                "{head} is exported as VkExportMemoryAllocateInfo::handleTypes = {}, but {resource}: \
                 the export's handle types must include at least one of the resource's.",
                vk_names::handle_types(binding.export)
            ),
        );
    }
    let import = vk_names::handle_types(binding.import.unwrap_or_default());
    if broken.has(BindHandleTypesRules::IMPORT_NOT_FOR_RESOURCE) {
        push(
            imported_id,
            format!(
                "{head} was imported as {import}, but {resource}: the handle type of the imported \
                 memory must be one of the resource's."
            ),
        );
    }
    if broken.has(BindHandleTypesRules::ANDROID_IMPORT_NOT_FOR_RESOURCE) {
        push(
            android_id,
            format!(
                "{head} was imported from an Android hardware buffer \
                 (VkImportAndroidHardwareBufferInfoANDROID with a buffer), but {resource}: it must \
                 include {import}."
            ),
        );
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    const FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
    const DMA_BUF: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
    const NONE: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::empty();

    fn binding(
        command: &'static str,
        export: vk::ExternalMemoryHandleTypeFlags,
        import: Option<vk::ExternalMemoryHandleTypeFlags>,
        resource_types: vk::ExternalMemoryHandleTypeFlags,
    ) -> Binding {
        let ty = if command.contains("Buffer") {
            vk::ObjectType::BUFFER
        } else {
            vk::ObjectType::IMAGE
        };
        Binding {
            command,
            field: "memory".into(),
            device: 0xd,
            memory: 0x5,
            memory_info: "VkDeviceMemory 0x5".into(),
            export,
            import,
            resource: ObjectRef { ty, handle: 0xb },
            resource_types,
        }
    }

    fn ids_of(b: &Binding) -> Vec<&'static str> {
        describe(b, evaluate(b.export, b.import, b.resource_types)).ids()
    }

    #[test]
    fn an_export_sharing_no_type_with_the_resource_is_02726_or_02728() {
        let b = binding("vkBindBufferMemory", FD, None, DMA_BUF);
        assert_eq!(ids_of(&b), [vuid::BIND_BUFFER_MEMORY_02726]);
        let b = binding("vkBindImageMemory2", FD | DMA_BUF, None, NONE);
        assert_eq!(ids_of(&b), [vuid::BIND_IMAGE_INFO_02728]);
        // At least one in common: silent.
        let b = binding("vkBindBufferMemory2", FD | DMA_BUF, None, DMA_BUF);
        assert!(ids_of(&b).is_empty());
        // No export (no structure, or handleTypes 0): not judged.
        let b = binding("vkBindImageMemory", NONE, None, NONE);
        assert!(ids_of(&b).is_empty());
    }

    #[test]
    fn an_import_of_a_type_the_resource_lacks_is_02985_or_02989() {
        let b = binding("vkBindBufferMemory2", NONE, Some(FD), DMA_BUF);
        assert_eq!(ids_of(&b), [vuid::BIND_BUFFER_INFO_02985]);
        let b = binding("vkBindImageMemory", NONE, Some(FD), NONE);
        assert_eq!(ids_of(&b), [vuid::BIND_IMAGE_MEMORY_02989]);
        let b = binding("vkBindImageMemory", NONE, Some(FD), FD | DMA_BUF);
        assert!(ids_of(&b).is_empty());
    }

    #[test]
    fn an_android_hardware_buffer_import_is_02986_or_02990_only() {
        let b = binding("vkBindBufferMemory", NONE, Some(AHB), FD);
        assert_eq!(ids_of(&b), [vuid::BIND_BUFFER_MEMORY_02986]);
        let b = binding("vkBindImageMemory2", NONE, Some(AHB), NONE);
        let out = describe(&b, evaluate(b.export, b.import, b.resource_types));
        assert_eq!(out.ids(), [vuid::BIND_IMAGE_INFO_02990]);
        let message = &out.findings[0].message;
        assert!(
            message.contains("VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID"),
            "{message}"
        );
        let b = binding("vkBindImageMemory2", NONE, Some(AHB), AHB);
        assert!(ids_of(&b).is_empty());
    }

    #[test]
    fn memory_both_imported_and_exported_gets_each_rule_it_breaks() {
        let b = binding("vkBindBufferMemory", DMA_BUF, Some(FD), NONE);
        assert_eq!(
            ids_of(&b),
            [
                vuid::BIND_BUFFER_MEMORY_02726,
                vuid::BIND_BUFFER_MEMORY_02985
            ]
        );
        let b = binding("vkBindBufferMemory", DMA_BUF, Some(FD), DMA_BUF);
        assert_eq!(ids_of(&b), [vuid::BIND_BUFFER_MEMORY_02985]);
    }

    #[test]
    fn messages_name_the_command_field_types_and_objects() {
        let b = binding("vkBindBufferMemory", FD, None, NONE);
        let out = describe(&b, evaluate(b.export, b.import, b.resource_types));
        let f = &out.findings[0];
        for part in [
            "vkBindBufferMemory(): memory: VkDeviceMemory 0x5 is exported as \
             VkExportMemoryAllocateInfo::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            "VkBuffer 0xb was created with VkExternalMemoryBufferCreateInfo::handleTypes = 0 \
             (or without that structure)",
        ] {
            assert!(f.message.contains(part), "{}", f.message);
        }
        assert_eq!(f.objects.len(), 3);
    }
}
