//! Who owns an fd: a successful import hands it to the driver, and the app must not use it
//! again ("The application must not perform any operations on the file descriptor after a
//! successful import"; the spec gives the rule no VUID: `EXPORTCHECK-fd-imported-twice`,
//! `EXPORTCHECK-fd-closed-after-import`). Which fds are consumed is `features::fd_ownership::state`.

use crate::features::fd_ownership::state::{HeldBy, ImportKind, ImportedInto, Lost};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::vk_names;
use crate::vuid;
use ash::vk;
use std::borrow::Cow;

/// The import that names a consumed fd again.
#[derive(Clone, Debug)]
pub struct Reimport {
    /// The finding's ID: `EXPORTCHECK-fd-imported-twice` for a Vulkan import,
    /// `EXPORTCHECK-cuda-fd-imported-twice` for a CUDA one.
    pub id: &'static str,
    pub command: &'static str,
    /// The member that holds the fd.
    pub field: Cow<'static, str>,
    /// The semaphore or fence it imports into, and how it is described (none for
    /// `vkAllocateMemory`: its memory does not exist yet).
    pub object: Option<(ObjectRef, String)>,
}

impl Reimport {
    /// `vkAllocateMemory` with `VkImportMemoryFdInfoKHR`.
    pub const ALLOCATE: Reimport = Reimport {
        id: vuid::FD_IMPORTED_TWICE,
        command: "vkAllocateMemory",
        field: Cow::Borrowed("pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd"),
        object: None,
    };
}

/// What `into` is called in a hint, and the command that exports it anew.
fn export_hint(into: ImportKind) -> (&'static str, &'static str) {
    match into {
        ImportKind::Memory | ImportKind::CudaMemory => ("memory", "vkGetMemoryFdKHR"),
        ImportKind::Semaphore | ImportKind::CudaSemaphore => {
            ("semaphore's payload", "vkGetSemaphoreFdKHR")
        }
        ImportKind::Fence => ("fence's payload", "vkGetFenceFdKHR"),
    }
}

/// The Vulkan object a consumed fd was imported into (none for a CUDA import).
fn imported_object(into: ImportedInto) -> Option<ObjectRef> {
    (!into.kind.is_cuda()).then_some(ObjectRef {
        ty: into.kind.object_type(),
        handle: into.object,
    })
}

/// The object a consumed fd was imported into, as a message names it (a Vulkan object with its
/// device if `with_device`).
fn describe_import(into: ImportedInto, with_device: bool) -> String {
    let object = vk_names::handle(into.kind.object_type(), into.object);
    match into.kind {
        ImportKind::CudaMemory => format!(
            "CUexternalMemory {:#x} (cuImportExternalMemory)",
            into.object
        ),
        ImportKind::CudaSemaphore => {
            format!(
                "CUexternalSemaphore {:#x} (cuImportExternalSemaphore)",
                into.object
            )
        }
        _ if with_device => format!(
            "{object} (on {})",
            vk_names::handle(vk::ObjectType::DEVICE, into.device)
        ),
        _ => object,
    }
}

/// CUDA's documentation on an imported fd, quoted in the CUDA side's findings.
const CUDA_OWNERSHIP: &str = " CUDA's documentation: \"Ownership of the file descriptor is \
     transferred to the CUDA driver when the handle is imported successfully. Performing any \
     operations on the file descriptor after it is imported results in undefined behavior.\"";

/// The driver that took a consumed fd.
fn taker(into: ImportKind) -> &'static str {
    if into.is_cuda() {
        "the CUDA driver"
    } else {
        "the driver"
    }
}

/// The finding for an import (`at`) of `fd`, which an earlier successful import (`into`) handed
/// to the driver. It blocks the call: the fd is the driver's, and a driver that took it again
/// would close it twice.
#[cold]
#[inline(never)]
pub fn imported_twice(
    device: u64,
    at: &Reimport,
    fd: i32,
    into: ImportedInto,
    by: HeldBy,
) -> Outcome {
    let held = match by {
        HeldBy::Driver => "the driver still holds it",
        HeldBy::Layer => {
            "the driver closed it then, and the layer has held the number since, so that no \
             other file takes it"
        }
    };
    let (what, export) = export_hint(into.kind);
    let (command, field) = (at.command, &*at.field);
    let importing = match &at.object {
        Some((_, described)) => format!(" (importing into {described})"),
        None => String::new(),
    };
    let passed = if at.id == vuid::FD_IMPORTED_TWICE {
        " The call was not passed to the driver."
    } else {
        CUDA_OWNERSHIP
    };
    let mut finding = Finding::new(
        at.id,
        command,
        field,
        format!(
            "{command}(): {field} is {fd}{importing}, which a successful import into {} already \
             handed to {}, and {held}: after a successful import the app must not use the fd \
             again. To import the {what} again, export it anew ({export}) or import a duplicate \
             made before the first import.{passed}",
            describe_import(into, true),
            taker(into.kind),
        ),
    );
    if device != 0 {
        finding = finding.with(ObjectRef::device(device));
    }
    if let Some((object, _)) = &at.object {
        finding = finding.with(*object);
    }
    if let Some(object) = imported_object(into) {
        finding = finding.with(object);
    }
    let mut outcome = Outcome::default();
    if at.id == vuid::FD_IMPORTED_TWICE {
        outcome.block(finding);
    } else {
        outcome.push(finding);
    }
    outcome
}

/// The findings for the numbers of imported fds the process closed or replaced (`lost`), found
/// at `command` (`vkFreeMemory` of the imported memory, `vkDestroySemaphore` or
/// `vkDestroyFence` of the importing object or its next import, `vkDestroyDevice` of its
/// device).
#[cold]
#[inline(never)]
pub fn closed_after_import(device: u64, command: &'static str, lost: &[Lost]) -> Outcome {
    let mut outcome = Outcome::default();
    for l in lost {
        let id = if l.into.kind.is_cuda() {
            vuid::CUDA_FD_CLOSED_AFTER_IMPORT
        } else {
            vuid::FD_CLOSED_AFTER_IMPORT
        };
        let mut finding = Finding::new(
            id,
            command,
            "fd",
            format!(
                "{command}(): fd {number}, which a successful {} import into {} handed to {}, \
                 was closed or replaced (close, dup2) by the process afterwards. The driver \
                 closed the fd at the import and the layer held the number since; without the \
                 layer, that close would have closed whatever file got the number in between. \
                 After a successful import the app must not use the fd again: not even close \
                 it.{}",
                l.into.kind.command(),
                describe_import(l.into, false),
                taker(l.into.kind),
                if l.into.kind.is_cuda() {
                    CUDA_OWNERSHIP
                } else {
                    ""
                },
                number = l.number,
            ),
        );
        if device != 0 {
            finding = finding.with(ObjectRef::device(device));
        }
        if let Some(object) = imported_object(l.into) {
            finding = finding.with(object);
        }
        outcome.push(finding);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_import_is_one_blocking_finding_naming_the_first() {
        let into = ImportedInto::memory(0xd000, 0x3000);
        let out = imported_twice(0xd000, &Reimport::ALLOCATE, 9, into, HeldBy::Driver);
        assert!(out.blocked);
        assert_eq!(out.ids(), [vuid::FD_IMPORTED_TWICE]);
        let message = &out.findings[0].message;
        assert!(
            message.contains("fd is 9, which a successful import into VkDeviceMemory 0x3000"),
            "{message}"
        );
        let out = imported_twice(0xd000, &Reimport::ALLOCATE, 9, into, HeldBy::Layer);
        assert!(out.findings[0]
            .message
            .contains("the layer has held the number"));
    }

    #[test]
    fn each_lost_number_is_one_finding_on_the_command_that_found_it() {
        let into = ImportedInto::memory(0xd000, 0x3000);
        let lost = [Lost { number: 7, into }, Lost { number: 8, into }];
        let out = closed_after_import(0xd000, "vkFreeMemory", &lost);
        assert!(!out.blocked);
        assert_eq!(
            out.ids(),
            [vuid::FD_CLOSED_AFTER_IMPORT, vuid::FD_CLOSED_AFTER_IMPORT]
        );
        assert!(out.findings[1].message.starts_with(
            "vkFreeMemory(): fd 8, which a successful vkAllocateMemory import into \
             VkDeviceMemory 0x3000"
        ));
        assert!(closed_after_import(0xd000, "vkFreeMemory", &[])
            .findings
            .is_empty());
    }
}
