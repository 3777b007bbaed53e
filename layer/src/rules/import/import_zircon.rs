//! `VkImportMemoryZirconHandleInfoFUCHSIA` at `vkAllocateMemory` (VK_FUCHSIA_external_memory),
//! with the `VkMemoryAllocateInfo` rule about its size. Called from `import_handles.rs`.
//!
//! - `handleType-parameter` and `04771` (a VMO): judged for a non-zero `handleType` only (with 0
//!   the structure is ignored, and `-parameter` says 0 is allowed).
//! - `04772` ("a valid VMO handle"): only `ZX_HANDLE_INVALID` (0) with a non-zero `handleType`;
//!   what a non-zero handle refers to is the kernel's to say, and the layer does not run there.
//! - `VUID-VkMemoryAllocateInfo-allocationSize-07902`: a VMO import of 0 bytes.
//! - `VUID-VkMemoryAllocateInfo-pNext-pNext` without the extension.

use crate::finding::{Finding, Outcome};
use crate::rules::common::invalid_import_handle_type;
use crate::rules::export::is_one_of;
use crate::rules::import::import_handles_allocation::Allocation;
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkImportMemoryZirconHandleInfoFUCHSIA` at `vkAllocateMemory`.
    pub struct ImportZirconRules {
        /// `VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-parameter`.
        TYPE_VALUE,
        /// `VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handleType-04771`.
        NOT_A_VMO,
        /// `VUID-VkImportMemoryZirconHandleInfoFUCHSIA-handle-04772`.
        INVALID_HANDLE,
        /// `VUID-VkMemoryAllocateInfo-allocationSize-07902`.
        ZERO_SIZE,
    }
}

const VMO: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA;
const STRUCTURE: &str = "pAllocateInfo->pNext<VkImportMemoryZirconHandleInfoFUCHSIA>";

/// The rules a chained `VkImportMemoryZirconHandleInfoFUCHSIA` (`handleType`, `handle`) breaks.
pub fn evaluate(
    device: &DeviceFacts,
    allocation: &Allocation,
    (handle_type, handle): (vk::ExternalMemoryHandleTypeFlags, u32),
) -> ImportZirconRules {
    let imports = !handle_type.is_empty();
    ImportZirconRules::NONE
        .with(
            ImportZirconRules::TYPE_VALUE,
            imports && !is_one_of(handle_type, device.handle_types),
        )
        .with(ImportZirconRules::NOT_A_VMO, imports && handle_type != VMO)
        .with(ImportZirconRules::INVALID_HANDLE, imports && handle == 0)
        .with(
            ImportZirconRules::ZERO_SIZE,
            handle_type == VMO && allocation.size == 0,
        )
}

/// The findings of the rules in `broken` ([`evaluate`]'s).
pub fn describe(
    device: &DeviceFacts,
    (handle_type, _): (vk::ExternalMemoryHandleTypeFlags, u32),
    broken: ImportZirconRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let types = vk_names::handle_types(handle_type);
    let type_field = "pAllocateInfo->pNext<VkImportMemoryZirconHandleInfoFUCHSIA>.handleType";
    if broken.has(ImportZirconRules::TYPE_VALUE) {
        outcome.push(finding(
            vuid::IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
            type_field,
            invalid_import_handle_type(device, STRUCTURE, handle_type),
        ));
    }
    if broken.has(ImportZirconRules::NOT_A_VMO) {
        outcome.push(finding(
            vuid::IMPORT_ZIRCON_HANDLE_TYPE_04771,
            type_field,
            format!(
                "vkAllocateMemory(): {STRUCTURE}.handleType is {types}; it must be \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA."
            ),
        ));
    }
    if broken.has(ImportZirconRules::INVALID_HANDLE) {
        outcome.push(finding(
            vuid::IMPORT_ZIRCON_HANDLE_04772,
            "pAllocateInfo->pNext<VkImportMemoryZirconHandleInfoFUCHSIA>.handle",
            format!(
                "vkAllocateMemory(): {STRUCTURE}.handle is 0 (ZX_HANDLE_INVALID) with \
                 handleType {types}; it must be a valid VMO handle."
            ),
        ));
    }
    if broken.has(ImportZirconRules::ZERO_SIZE) {
        outcome.push(finding(
            vuid::ALLOC_SIZE_07902,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, but the allocation \
                 imports a Zircon VMO ({STRUCTURE}.handleType is {types}); it must be greater \
                 than 0."
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

    fn device(enabled: bool) -> DeviceFacts {
        let mut d = fd_device();
        d.extensions.fuchsia_external_memory = enabled;
        d.handle_types = d.extensions.handle_types();
        d
    }

    fn ids(
        d: &DeviceFacts,
        size: u64,
        t: vk::ExternalMemoryHandleTypeFlags,
        handle: u32,
    ) -> Vec<&'static str> {
        let handles = HandleImports {
            zircon: Some((t, handle)),
            ..HandleImports::NONE
        };
        let allocation = Allocation {
            size,
            dedicated_image: 0,
        };
        let outcome = check(d, &allocation, &handles);
        assert!(!outcome.blocked);
        outcome.ids()
    }

    #[test]
    fn a_vmo_import_is_silent() {
        assert!(ids(&device(true), 64, VMO, 7).is_empty());
        assert!(ids(
            &device(true),
            0,
            vk::ExternalMemoryHandleTypeFlags::empty(),
            0
        )
        .is_empty());
    }

    #[test]
    fn the_zircon_import_rules() {
        let d = device(true);
        assert_eq!(
            ids(&d, 64, vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD, 7),
            [vuid::IMPORT_ZIRCON_HANDLE_TYPE_04771]
        );
        assert_eq!(
            ids(
                &d,
                64,
                VMO | vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
                7
            ),
            [
                vuid::IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
                vuid::IMPORT_ZIRCON_HANDLE_TYPE_04771
            ]
        );
        assert_eq!(
            ids(&d, 0, VMO, 0),
            [vuid::IMPORT_ZIRCON_HANDLE_04772, vuid::ALLOC_SIZE_07902]
        );
        let off = device(false);
        assert_eq!(
            // Without the extension, the type is no valid value (the structure itself,
            // pNext-pNext, is `alloc.rs`'s).
            ids(&off, 64, VMO, 7),
            [vuid::IMPORT_ZIRCON_HANDLE_TYPE_PARAM]
        );
    }
}
