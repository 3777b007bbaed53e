//! `VkMemoryOpaqueCaptureAddressAllocateInfo` at `vkAllocateMemory`: a non-zero
//! `opaqueCaptureAddress` needs `VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT` in
//! `VkMemoryAllocateFlagsInfo::flags` (`VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329`)
//! and no import operation (`VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333`). The
//! host-pointer rule of the same structure (`VUID-VkMemoryAllocateInfo-pNext-03332`, any
//! `VkImportMemoryHostPointerInfoEXT`) is `import_host.rs`'s: a host-pointer import with a
//! non-zero `handleType` breaks both 03332 and 03333, and gets both, once each.

use crate::args::ChainRead;
use crate::finding::{Finding, Outcome};
use crate::rules::rule_set::rule_set;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkMemoryOpaqueCaptureAddressAllocateInfo` at `vkAllocateMemory`.
    pub struct CaptureAddressRules {
        /// `VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329`.
        WITHOUT_CAPTURE_REPLAY,
        /// `VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333`.
        WITH_IMPORT,
    }
}

const FIELD: &str =
    "pAllocateInfo->pNext<VkMemoryOpaqueCaptureAddressAllocateInfo>.opaqueCaptureAddress";

/// The rules of the opaque capture address the allocation breaks (none when it is 0 or absent).
#[inline(always)]
pub fn evaluate(chain: &ChainRead) -> CaptureAddressRules {
    if !chain.host.capture_address {
        return CaptureAddressRules::NONE;
    }
    let replay = vk::MemoryAllocateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY;
    CaptureAddressRules::NONE
        .with(
            CaptureAddressRules::WITHOUT_CAPTURE_REPLAY,
            !chain.allocate_flags.contains(replay),
        )
        .with(
            CaptureAddressRules::WITH_IMPORT,
            chain.import_operations > 0,
        )
}

/// The findings of the rules of [`evaluate`] in `broken`; `finding` makes one of
/// `vkAllocateMemory` (ID, field, message).
pub fn describe(
    chain: &ChainRead,
    broken: CaptureAddressRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    if broken.has(CaptureAddressRules::WITHOUT_CAPTURE_REPLAY) {
        let flags = if chain.allocate_flags.is_empty() {
            "the pNext chain has no VkMemoryAllocateFlagsInfo".to_owned()
        } else {
            format!(
                "VkMemoryAllocateFlagsInfo::flags is {}",
                vk_names::memory_allocate_flags(chain.allocate_flags)
            )
        };
        outcome.push(finding(
            vuid::ALLOC_CAPTURE_ADDRESS_03329,
            FIELD,
            format!(
                "vkAllocateMemory(): {FIELD} is not 0, but {flags}; a non-zero opaque capture \
                 address needs VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT in \
                 VkMemoryAllocateFlagsInfo::flags."
            ),
        ));
    }
    if broken.has(CaptureAddressRules::WITH_IMPORT) {
        outcome.push(finding(
            vuid::ALLOC_CAPTURE_ADDRESS_03333,
            FIELD,
            format!(
                "vkAllocateMemory(): {FIELD} is not 0, but the allocation imports memory (an \
                 import structure of the pNext chain has a non-zero handleType, or an Android \
                 hardware buffer); an import must have opaqueCaptureAddress 0."
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::HostPointerChain;

    fn ids(
        capture_address: bool,
        flags: vk::MemoryAllocateFlags,
        imports: u32,
    ) -> Vec<&'static str> {
        let chain = ChainRead {
            host: HostPointerChain {
                capture_address,
                ..HostPointerChain::NONE
            },
            allocate_flags: flags,
            import_operations: imports,
            ..ChainRead::COMPLETE
        };
        let mut outcome = Outcome::default();
        let finding = |id, field, message| Finding::new(id, "vkAllocateMemory", field, message);
        describe(&chain, evaluate(&chain), &finding, &mut outcome);
        outcome.ids()
    }

    const REPLAY: vk::MemoryAllocateFlags = vk::MemoryAllocateFlags::from_raw(
        vk::MemoryAllocateFlags::DEVICE_ADDRESS.as_raw()
            | vk::MemoryAllocateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY.as_raw(),
    );

    #[test]
    fn a_zero_or_absent_address_is_silent() {
        let none = vk::MemoryAllocateFlags::empty();
        assert!(ids(false, none, 1).is_empty());
        assert!(ids(false, REPLAY, 0).is_empty());
    }

    #[test]
    fn an_address_needs_capture_replay_and_no_import() {
        assert!(ids(true, REPLAY, 0).is_empty());
        let address = vk::MemoryAllocateFlags::DEVICE_ADDRESS;
        assert_eq!(ids(true, address, 0), [vuid::ALLOC_CAPTURE_ADDRESS_03329]);
        assert_eq!(ids(true, REPLAY, 1), [vuid::ALLOC_CAPTURE_ADDRESS_03333]);
        assert_eq!(
            ids(true, vk::MemoryAllocateFlags::empty(), 2),
            [
                vuid::ALLOC_CAPTURE_ADDRESS_03329,
                vuid::ALLOC_CAPTURE_ADDRESS_03333
            ]
        );
    }
}
