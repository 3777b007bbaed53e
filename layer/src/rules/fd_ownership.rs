//! Who owns an fd: a successful import hands it to the driver, and the app must not use it
//! again ("The application must not perform any operations on the file descriptor after a
//! successful import"; the spec gives the rule no VUID: `EXPORTCHECK-fd-imported-twice`).
//! Which fds are consumed is `state::consumed_fds`.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::consumed_fds::ImportedInto;
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// The finding for an import of `fd`, which an earlier successful import (`into`) handed to the
/// driver. It blocks the call: the fd is the driver's, and a driver that took it again would
/// close it twice.
#[cold]
#[inline(never)]
pub fn imported_twice(device: u64, fd: i32, into: ImportedInto) -> Outcome {
    let mut outcome = Outcome::default();
    outcome.block(
        Finding::new(
            vuid::FD_IMPORTED_TWICE,
            "vkAllocateMemory",
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
            format!(
                "vkAllocateMemory(): pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd is {fd}, \
                 which a successful import into {} (on {}) already handed to the driver, and \
                 the driver still holds it: after a successful import the app must not use the \
                 fd again. To import the memory again, export it anew (vkGetMemoryFdKHR) or \
                 import a duplicate made before the first import. The call was not passed to \
                 the driver.",
                vk_names::handle(vk::ObjectType::DEVICE_MEMORY, into.memory),
                vk_names::handle(vk::ObjectType::DEVICE, into.device),
            ),
        )
        .with(ObjectRef::device(device))
        .with(ObjectRef::memory(into.memory)),
    );
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_import_is_one_blocking_finding_naming_the_first() {
        let into = ImportedInto {
            device: 0xd000,
            memory: 0x3000,
        };
        let out = imported_twice(0xd000, 9, into);
        assert!(out.blocked);
        assert_eq!(out.ids(), [vuid::FD_IMPORTED_TWICE]);
        let message = &out.findings[0].message;
        assert!(
            message.contains("fd is 9, which a successful import into VkDeviceMemory 0x3000"),
            "{message}"
        );
    }
}
