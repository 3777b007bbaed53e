//! The host-pointer import rules of `vkAllocateMemory` (`VK_EXT_external_memory_host`):
//! `VkImportMemoryHostPointerInfoEXT` and the `VkMemoryAllocateInfo` rules about importing a host
//! pointer. Called from the allocate rules (`alloc.rs`).
//!
//! "The external handle is a host pointer" is taken to hold when the import structure's
//! `handleType` is `HOST_ALLOCATION` or `HOST_MAPPED_FOREIGN_MEMORY`: with another type the import
//! is of no host pointer (and 01748 says so).

use crate::args::HostPointerChain;
use crate::finding::{Finding, Outcome};
use crate::rules::common::invalid_import_handle_type;
use crate::rules::export::is_one_of;
use crate::rules::query::get_memory_host_pointer_properties::{misaligned, HOST_TYPES};
use crate::rules::rule_set::rule_set;
use crate::state::{AllocationFacts, DeviceFacts};
use crate::vk_names;
use crate::vuid;

rule_set! {
    /// The rules of `VkImportMemoryHostPointerInfoEXT` at `vkAllocateMemory`.
    pub struct ImportHostRules {
        /// `VUID-VkImportMemoryHostPointerInfoEXT-handleType-parameter`.
        TYPE_VALUE,
        /// `VUID-VkImportMemoryHostPointerInfoEXT-handleType-01748`.
        NOT_A_HOST_TYPE,
        /// `VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749`.
        POINTER_MISALIGNED,
        /// `VUID-VkMemoryAllocateInfo-allocationSize-01745`.
        SIZE_MISALIGNED,
        /// `VUID-VkMemoryAllocateInfo-pNext-02806`.
        DEDICATED,
        /// `VUID-VkMemoryAllocateInfo-pNext-02805`.
        DEDICATED_NV,
        /// `VUID-VkMemoryAllocateInfo-pNext-03332`.
        CAPTURE_ADDRESS,
    }
}

const STRUCTURE: &str = "pAllocateInfo->pNext<VkImportMemoryHostPointerInfoEXT>";

/// Every host-pointer import rule the allocation breaks (none without the import structure).
#[inline(always)]
pub fn evaluate(
    device: &DeviceFacts,
    facts: &AllocationFacts,
    host: &HostPointerChain,
) -> ImportHostRules {
    let Some((handle_type, pointer)) = host.import() else {
        return ImportHostRules::NONE;
    };
    let alignment = device.host_pointer_alignment;
    let host_pointer = is_one_of(handle_type, HOST_TYPES);
    ImportHostRules::NONE
        .with(
            ImportHostRules::TYPE_VALUE,
            !is_one_of(handle_type, device.handle_types),
        )
        .with(
            ImportHostRules::NOT_A_HOST_TYPE,
            !handle_type.is_empty() && !host_pointer,
        )
        .with(
            ImportHostRules::POINTER_MISALIGNED,
            misaligned(pointer, alignment),
        )
        .with(
            ImportHostRules::SIZE_MISALIGNED,
            host_pointer && misaligned(facts.size, alignment),
        )
        .with(
            ImportHostRules::DEDICATED,
            host_pointer && host.dedicated_khr,
        )
        .with(
            ImportHostRules::DEDICATED_NV,
            host_pointer && host.dedicated_nv,
        )
        .with(ImportHostRules::CAPTURE_ADDRESS, host.capture_address)
}

/// The findings of the rules in `broken` ([`evaluate`]'s).
pub fn describe(
    device: &DeviceFacts,
    facts: &AllocationFacts,
    host: &HostPointerChain,
    broken: ImportHostRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let Some((handle_type, pointer)) = host.import() else {
        return;
    };
    let types = || vk_names::handle_types(handle_type);
    let alignment = device.host_pointer_alignment.unwrap_or(1);
    let limit = format!(
        "VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment \
         ({alignment})"
    );
    if broken.has(ImportHostRules::TYPE_VALUE) {
        outcome.push(finding(
            vuid::IMPORT_HOST_HANDLE_TYPE_PARAM,
            "pAllocateInfo->pNext<VkImportMemoryHostPointerInfoEXT>.handleType",
            invalid_import_handle_type(device, STRUCTURE, handle_type),
        ));
    }
    if broken.has(ImportHostRules::NOT_A_HOST_TYPE) {
        outcome.push(finding(
            vuid::IMPORT_HOST_HANDLE_TYPE_01748,
            "pAllocateInfo->pNext<VkImportMemoryHostPointerInfoEXT>.handleType",
            format!(
                "vkAllocateMemory(): {STRUCTURE}.handleType is {}; it must be \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT or \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT.",
                types()
            ),
        ));
    }
    if broken.has(ImportHostRules::POINTER_MISALIGNED) {
        outcome.push(finding(
            vuid::IMPORT_HOST_POINTER_01749,
            "pAllocateInfo->pNext<VkImportMemoryHostPointerInfoEXT>.pHostPointer",
            format!(
                "vkAllocateMemory(): {STRUCTURE}.pHostPointer is 0x{pointer:x}, which is not a \
                 multiple of {limit} (it is {} bytes past a multiple).",
                pointer % alignment
            ),
        ));
    }
    if broken.has(ImportHostRules::SIZE_MISALIGNED) {
        outcome.push(finding(
            vuid::ALLOC_SIZE_01745,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is {}, which is not a \
                 multiple of {limit}, but the allocation imports a host pointer ({} of \
                 {STRUCTURE}).",
                facts.size,
                types()
            ),
        ));
    }
    let dedicated = |id, structure: &str| {
        finding(
            id,
            "pAllocateInfo->pNext",
            format!(
                "vkAllocateMemory(): the pNext chain has a {structure} that names an image or a \
                 buffer, but the allocation imports a host pointer ({} of {STRUCTURE}); host \
                 pointer imports cannot be dedicated allocations.",
                types()
            ),
        )
    };
    if broken.has(ImportHostRules::DEDICATED) {
        outcome.push(dedicated(
            vuid::ALLOC_PNEXT_02806,
            "VkMemoryDedicatedAllocateInfo",
        ));
    }
    if broken.has(ImportHostRules::DEDICATED_NV) {
        outcome.push(dedicated(
            vuid::ALLOC_PNEXT_02805,
            "VkDedicatedAllocationMemoryAllocateInfoNV",
        ));
    }
    if broken.has(ImportHostRules::CAPTURE_ADDRESS) {
        outcome.push(finding(
            vuid::ALLOC_PNEXT_03332,
            "pAllocateInfo->pNext<VkMemoryOpaqueCaptureAddressAllocateInfo>.opaqueCaptureAddress",
            "vkAllocateMemory(): \
             pAllocateInfo->pNext<VkMemoryOpaqueCaptureAddressAllocateInfo>.opaqueCaptureAddress \
             is not 0, but the pNext chain has a VkImportMemoryHostPointerInfoEXT: it must be 0."
                .to_owned(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{AllocateInfoRead, ChainRead};
    use crate::rules::allocate::alloc::check_allocate;
    use crate::rules::fixtures::{fd_device, not_exported, HOST_POINTER_ALIGNMENT, OPAQUE_FD};
    use ash::vk;

    const HOST_ALLOCATION: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
    const A: u64 = HOST_POINTER_ALIGNMENT;

    fn ids(device: &DeviceFacts, size: u64, host: HostPointerChain) -> Vec<&'static str> {
        let facts = AllocationFacts {
            size,
            import: host.import().map(|(t, _)| t),
            ..not_exported()
        };
        // As the reader counts it; a capture address always with the flag it needs (03329) and
        // the flag with its feature (03330).
        let import_operations = u32::from(host.import().is_some_and(|(t, _)| !t.is_empty()));
        let chain = ChainRead {
            host,
            import_operations,
            allocate_flags: vk::MemoryAllocateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY,
            ..ChainRead::COMPLETE
        };
        let mut device = device.clone();
        device.features.buffer_device_address_capture_replay = true;
        let outcome = check_allocate(&device, &AllocateInfoRead::Valid(facts, chain), false);
        assert!(!outcome.blocked);
        outcome.ids()
    }

    fn import(t: vk::ExternalMemoryHandleTypeFlags, pointer: u64) -> HostPointerChain {
        HostPointerChain::importing(t, pointer)
    }

    #[test]
    fn an_aligned_host_import_is_silent() {
        assert!(ids(&fd_device(), 2 * A, import(HOST_ALLOCATION, 3 * A)).is_empty());
        let foreign = vk::ExternalMemoryHandleTypeFlags::HOST_MAPPED_FOREIGN_MEMORY_EXT;
        assert!(ids(&fd_device(), A, import(foreign, A)).is_empty());
        // A dedicated structure naming nothing, a zero capture address: allowed.
        let mut host = import(HOST_ALLOCATION, A);
        host.capture_address = false;
        assert!(ids(&fd_device(), A, host).is_empty());
    }

    #[test]
    fn another_type_is_01748_and_no_host_pointer_rule() {
        assert_eq!(
            ids(&fd_device(), A + 1, import(OPAQUE_FD, A)),
            [vuid::IMPORT_HOST_HANDLE_TYPE_01748]
        );
        assert_eq!(
            ids(&fd_device(), A, import(HOST_ALLOCATION | OPAQUE_FD, A)),
            [
                vuid::IMPORT_HOST_HANDLE_TYPE_PARAM,
                vuid::IMPORT_HOST_HANDLE_TYPE_01748
            ]
        );
        // 0 is no defined bit, but 01748 is only for a non-zero type.
        assert_eq!(
            ids(
                &fd_device(),
                A,
                import(vk::ExternalMemoryHandleTypeFlags::empty(), A)
            ),
            [vuid::IMPORT_HOST_HANDLE_TYPE_PARAM]
        );
    }

    #[test]
    fn misalignment_is_judged_only_with_a_known_alignment() {
        assert_eq!(
            ids(&fd_device(), A + 4, import(HOST_ALLOCATION, A + 8)),
            [vuid::IMPORT_HOST_POINTER_01749, vuid::ALLOC_SIZE_01745]
        );
        let mut unknown = fd_device();
        unknown.host_pointer_alignment = None;
        assert!(ids(&unknown, A + 4, import(HOST_ALLOCATION, A + 8)).is_empty());
    }

    #[test]
    fn dedicated_and_capture_address_rules() {
        let mut host = import(HOST_ALLOCATION, A);
        host.dedicated_khr = true;
        host.dedicated_nv = true;
        host.capture_address = true;
        assert_eq!(
            ids(&fd_device(), A, host),
            [
                vuid::ALLOC_PNEXT_02806,
                vuid::ALLOC_PNEXT_02805,
                vuid::ALLOC_PNEXT_03332,
                // The import operation's own capture-address rule, another rule: reported too.
                vuid::ALLOC_CAPTURE_ADDRESS_03333
            ]
        );
        // A host-pointer structure with handleType 0 imports nothing: 03332 alone.
        let mut empty = import(vk::ExternalMemoryHandleTypeFlags::empty(), A);
        empty.capture_address = true;
        assert_eq!(
            ids(&fd_device(), A, empty),
            [vuid::IMPORT_HOST_HANDLE_TYPE_PARAM, vuid::ALLOC_PNEXT_03332]
        );
        // Without a host-pointer import, a dedicated structure is not these rules' business;
        // the capture-address rule holds for any VkImportMemoryHostPointerInfoEXT.
        let mut other = import(OPAQUE_FD, A);
        other.dedicated_khr = true;
        other.capture_address = true;
        assert_eq!(
            ids(&fd_device(), A, other),
            [
                vuid::IMPORT_HOST_HANDLE_TYPE_01748,
                vuid::ALLOC_PNEXT_03332,
                vuid::ALLOC_CAPTURE_ADDRESS_03333
            ]
        );
        let mut none = HostPointerChain::NONE;
        none.dedicated_khr = true;
        none.capture_address = true;
        assert!(ids(&fd_device(), A, none).is_empty());
    }
}
