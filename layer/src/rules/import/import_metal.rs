//! `VkImportMemoryMetalHandleInfoEXT` at `vkAllocateMemory` (VK_EXT_external_memory_metal), with
//! the `VkMemoryAllocateInfo` rules about an `MTLTexture` import. Called from
//! `import_handles.rs`.
//!
//! - `handleType-parameter`, `10410` (a Metal type) and `10411` (a non-NULL handle): "If
//!   handleType is not 0"; whether a non-NULL handle is a valid Metal object is Metal's to say.
//! - `VUID-VkMemoryAllocateInfo-pNext-10395`: an `MTLTEXTURE` import needs a
//!   `VkMemoryDedicatedAllocateInfo` whose `image` is not `VK_NULL_HANDLE`; `pNext-10397`: with
//!   one, `allocationSize` must be 0.
//! - `VUID-VkMemoryAllocateInfo-pNext-pNext` without the extension.

use crate::finding::{Finding, Outcome};
use crate::rules::common::invalid_import_handle_type;
use crate::rules::export::get_memory_metal_handle::METAL_TYPES;
use crate::rules::export::is_one_of;
use crate::rules::import::import_handles_allocation::Allocation;
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_ext::HANDLE_TYPE_MTLTEXTURE;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkImportMemoryMetalHandleInfoEXT` at `vkAllocateMemory`.
    pub struct ImportMetalRules {
        /// `VUID-VkImportMemoryMetalHandleInfoEXT-handleType-parameter`.
        TYPE_VALUE,
        /// `VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10410`.
        NOT_A_METAL_TYPE,
        /// `VUID-VkImportMemoryMetalHandleInfoEXT-handleType-10411`.
        NULL_HANDLE,
        /// `VUID-VkMemoryAllocateInfo-pNext-10395`.
        TEXTURE_NOT_DEDICATED,
        /// `VUID-VkMemoryAllocateInfo-pNext-10397`.
        TEXTURE_SIZE,
    }
}

const STRUCTURE: &str = "pAllocateInfo->pNext<VkImportMemoryMetalHandleInfoEXT>";

/// The rules a chained `VkImportMemoryMetalHandleInfoEXT` (`handleType`, `handle` not NULL)
/// breaks.
pub fn evaluate(
    device: &DeviceFacts,
    allocation: &Allocation,
    (handle_type, handle): (vk::ExternalMemoryHandleTypeFlags, bool),
) -> ImportMetalRules {
    let imports = !handle_type.is_empty();
    let texture = handle_type == HANDLE_TYPE_MTLTEXTURE;
    let image = allocation.dedicated_image != 0;
    ImportMetalRules::NONE
        .with(
            ImportMetalRules::TYPE_VALUE,
            imports && !is_one_of(handle_type, device.handle_types),
        )
        .with(
            ImportMetalRules::NOT_A_METAL_TYPE,
            imports && !is_one_of(handle_type, METAL_TYPES),
        )
        .with(ImportMetalRules::NULL_HANDLE, imports && !handle)
        .with(ImportMetalRules::TEXTURE_NOT_DEDICATED, texture && !image)
        .with(
            ImportMetalRules::TEXTURE_SIZE,
            texture && image && allocation.size != 0,
        )
}

/// The findings of the rules in `broken` ([`evaluate`]'s).
pub fn describe(
    device: &DeviceFacts,
    allocation: &Allocation,
    (handle_type, _): (vk::ExternalMemoryHandleTypeFlags, bool),
    broken: ImportMetalRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let types = vk_names::handle_types(handle_type);
    let type_field = "pAllocateInfo->pNext<VkImportMemoryMetalHandleInfoEXT>.handleType";
    if broken.has(ImportMetalRules::TYPE_VALUE) {
        outcome.push(finding(
            vuid::IMPORT_METAL_HANDLE_TYPE_PARAM,
            type_field,
            invalid_import_handle_type(device, STRUCTURE, handle_type),
        ));
    }
    if broken.has(ImportMetalRules::NOT_A_METAL_TYPE) {
        outcome.push(finding(
            vuid::IMPORT_METAL_HANDLE_TYPE_10410,
            type_field,
            format!(
                "vkAllocateMemory(): {STRUCTURE}.handleType is {types}; it must be \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT, _MTLTEXTURE_BIT_EXT or \
                 _MTLHEAP_BIT_EXT (or 0, to import nothing)."
            ),
        ));
    }
    if broken.has(ImportMetalRules::NULL_HANDLE) {
        outcome.push(finding(
            vuid::IMPORT_METAL_HANDLE_TYPE_10411,
            "pAllocateInfo->pNext<VkImportMemoryMetalHandleInfoEXT>.handle",
            format!(
                "vkAllocateMemory(): {STRUCTURE}.handle is NULL, but handleType is {types}: it \
                 must be a valid non-NULL handle of that type."
            ),
        ));
    }
    if broken.has(ImportMetalRules::TEXTURE_NOT_DEDICATED) {
        outcome.push(finding(
            vuid::ALLOC_PNEXT_10395,
            "pAllocateInfo->pNext",
            "vkAllocateMemory(): the allocation imports an MTLTexture \
             (VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT), but the pNext chain has no \
             VkMemoryDedicatedAllocateInfo whose image is not VK_NULL_HANDLE; an MTLTexture is \
             imported as a dedicated allocation of an image."
                .to_owned(),
        ));
    }
    if broken.has(ImportMetalRules::TEXTURE_SIZE) {
        outcome.push(finding(
            vuid::ALLOC_PNEXT_10397,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is {}, but the allocation \
                 imports an MTLTexture dedicated to an image; it must be 0.",
                allocation.size
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::HandleImports;
    use crate::rules::fixtures::fd_device;
    use crate::rules::import::import_handles::check;
    use crate::vk_ext::HANDLE_TYPE_MTLBUFFER;

    fn device(enabled: bool) -> DeviceFacts {
        let mut d = fd_device();
        d.extensions.ext_external_memory_metal = enabled;
        d.handle_types = d.extensions.handle_types();
        d
    }

    fn ids(
        d: &DeviceFacts,
        size: u64,
        metal: (vk::ExternalMemoryHandleTypeFlags, bool),
        dedicated: Option<(u64, u64)>,
    ) -> Vec<&'static str> {
        let handles = HandleImports {
            metal: Some(metal),
            ..HandleImports::NONE
        };
        let allocation = Allocation {
            size,
            dedicated_image: dedicated.map_or(0, |(image, _)| image),
        };
        let outcome = check(d, &allocation, &handles);
        assert!(!outcome.blocked);
        outcome.ids()
    }

    #[test]
    fn good_metal_imports_are_silent() {
        let d = device(true);
        assert!(ids(&d, 64, (HANDLE_TYPE_MTLBUFFER, true), None).is_empty());
        assert!(ids(&d, 0, (HANDLE_TYPE_MTLTEXTURE, true), Some((0x10, 0))).is_empty());
        assert!(ids(
            &d,
            64,
            (vk::ExternalMemoryHandleTypeFlags::empty(), false),
            None
        )
        .is_empty());
    }

    #[test]
    fn the_metal_import_rules() {
        let d = device(true);
        assert_eq!(
            ids(
                &d,
                64,
                (vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD, true),
                None
            ),
            [vuid::IMPORT_METAL_HANDLE_TYPE_10410]
        );
        assert_eq!(
            ids(&d, 64, (HANDLE_TYPE_MTLBUFFER, false), None),
            [vuid::IMPORT_METAL_HANDLE_TYPE_10411]
        );
        assert_eq!(
            ids(&d, 64, (HANDLE_TYPE_MTLTEXTURE, true), Some((0, 0x20))),
            [vuid::ALLOC_PNEXT_10395]
        );
        assert_eq!(
            ids(&d, 64, (HANDLE_TYPE_MTLTEXTURE, true), Some((0x10, 0))),
            [vuid::ALLOC_PNEXT_10397]
        );
        assert_eq!(
            // Without the extension, the type is no valid value (the structure itself,
            // pNext-pNext, is `alloc.rs`'s).
            ids(&device(false), 64, (HANDLE_TYPE_MTLBUFFER, true), None),
            [vuid::IMPORT_METAL_HANDLE_TYPE_PARAM]
        );
    }
}
