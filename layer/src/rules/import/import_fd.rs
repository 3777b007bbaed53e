//! Imports at `vkAllocateMemory`: how many import operations the chain defines, and the
//! `VkImportMemoryFdInfoKHR` rules that a layer can know for certain from the call alone.
//!
//! `VUID-VkImportMemoryFdInfoKHR-handleType-00670` ("fd must be a valid handle of the type") is
//! judged only where it is certain: a negative fd, or an fd number that is not open in the
//! process when the call is made. Whether an open fd is a dma-buf or an opaque fd of a Vulkan
//! export cannot be known in general (an opaque fd may come from another process or driver).

use crate::args::{ChainRead, FdImport};
use crate::finding::Finding;
use crate::rules::common::invalid_import_handle_type;
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkImportMemoryFdInfoKHR` (and of the import operations) at `vkAllocateMemory`.
    pub struct ImportFdRules {
        /// `VUID-VkMemoryAllocateInfo-None-06657`: more than one import operation.
        MORE_THAN_ONE_IMPORT,
        /// `VUID-VkImportMemoryFdInfoKHR-handleType-parameter`.
        HANDLE_TYPE_VALUE,
        /// `VUID-VkImportMemoryFdInfoKHR-handleType-00669`: not OPAQUE_FD or DMA_BUF.
        NOT_AN_FD_TYPE,
        /// `VUID-VkImportMemoryFdInfoKHR-handleType-00670`: the fd is negative or not open.
        FD_NOT_OPEN,
    }
}

const FD_TYPES: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::from_raw(
    vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD.as_raw()
        | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT.as_raw(),
);

const COMMAND: &str = "vkAllocateMemory";
const STRUCTURE: &str = "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>";

/// The import rules the chain breaks.
#[inline(always)]
pub fn evaluate(device: &DeviceFacts, chain: &ChainRead) -> ImportFdRules {
    let broken = ImportFdRules::NONE.with(
        ImportFdRules::MORE_THAN_ONE_IMPORT,
        chain.import_operations > 1,
    );
    match &chain.import_fd {
        Some(import) if import.imports() => broken.and(evaluate_fd(device, import)),
        _ => broken,
    }
}

/// The rules of a `VkImportMemoryFdInfoKHR` whose `handleType` is not 0.
#[inline(never)]
fn evaluate_fd(device: &DeviceFacts, import: &FdImport) -> ImportFdRules {
    let t = import.handle_type;
    let single_valid = t.as_raw().is_power_of_two() && device.handle_types.contains(t);
    let single_fd_type = t.as_raw().is_power_of_two() && FD_TYPES.contains(t);
    ImportFdRules::NONE
        .with(ImportFdRules::HANDLE_TYPE_VALUE, !single_valid)
        .with(ImportFdRules::NOT_AN_FD_TYPE, !single_fd_type)
        .with(
            ImportFdRules::FD_NOT_OPEN,
            import.fd < 0 || import.open == Some(false),
        )
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `chain`), each made by
/// `finding(id, field, message)`.
#[cold]
#[inline(never)]
pub fn describe(
    device: &DeviceFacts,
    chain: &ChainRead,
    broken: ImportFdRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if broken.has(ImportFdRules::MORE_THAN_ONE_IMPORT) {
        out.push(finding(
            vuid::ALLOC_NONE_06657,
            "pAllocateInfo->pNext",
            format!(
                "vkAllocateMemory(): the pNext chain of pAllocateInfo defines {} import \
                 operations (import structures with a non-zero handleType, or a \
                 VkImportAndroidHardwareBufferInfoANDROID with a buffer); an allocation can \
                 import at most one.",
                chain.import_operations
            ),
        ));
    }
    let Some(import) = chain.import_fd.filter(FdImport::imports) else {
        return out;
    };
    let handle_type = vk_names::handle_types(import.handle_type);
    if broken.has(ImportFdRules::HANDLE_TYPE_VALUE) {
        out.push(finding(
            vuid::IMPORT_FD_HANDLE_TYPE_PARAM,
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.handleType",
            invalid_import_handle_type(device, STRUCTURE, import.handle_type),
        ));
    }
    if broken.has(ImportFdRules::NOT_AN_FD_TYPE) {
        out.push(finding(
            vuid::IMPORT_FD_HANDLE_TYPE_00669,
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.handleType",
            format!(
                "{COMMAND}(): {STRUCTURE}.handleType is {handle_type}; an fd import must be \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT or \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT (or 0, to import nothing)."
            ),
        ));
    }
    if broken.has(ImportFdRules::FD_NOT_OPEN) {
        let why = if import.fd < 0 {
            "is negative, so it is no file descriptor"
        } else {
            "is not an open file descriptor in this process (never opened, or already closed)"
        };
        out.push(finding(
            vuid::IMPORT_FD_HANDLE_TYPE_00670,
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
            format!(
                "{COMMAND}(): {STRUCTURE}.fd ({}) {why}; with handleType {handle_type} it must \
                 be a valid handle of that type.",
                import.fd
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Finding;
    use crate::rules::fixtures::*;

    fn ids(chain: &ChainRead) -> Vec<&'static str> {
        let device = fd_device();
        let broken = evaluate(&device, chain);
        let make = |id, field, message| Finding::new(id, COMMAND, field, message);
        let found = describe(&device, chain, broken, &make);
        found.iter().map(|f| f.id).collect()
    }

    fn fd_import(handle_type: vk::ExternalMemoryHandleTypeFlags, fd: i32, open: bool) -> ChainRead {
        ChainRead {
            import_fd: Some(FdImport {
                handle_type,
                fd,
                open: Some(open),
                not_of_type: None,
            }),
            import_operations: u32::from(!handle_type.is_empty()),
            ..ChainRead::COMPLETE
        }
    }

    #[test]
    fn a_good_fd_import_and_an_ignored_one_are_silent() {
        assert!(ids(&fd_import(OPAQUE_FD, 5, true)).is_empty());
        assert!(ids(&fd_import(DMA_BUF, 5, true)).is_empty());
        // handleType 0: the structure is ignored, whatever its fd.
        assert!(ids(&fd_import(
            vk::ExternalMemoryHandleTypeFlags::empty(),
            -1,
            false
        ))
        .is_empty());
        // Not known to be closed: nothing said of the fd.
        let mut unknown = fd_import(OPAQUE_FD, 5, true);
        unknown.import_fd.as_mut().unwrap().open = None;
        assert!(ids(&unknown).is_empty());
    }

    #[test]
    fn handle_types_that_are_not_fd_types() {
        let win32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32;
        assert_eq!(
            ids(&fd_import(win32, 5, true)),
            [vuid::IMPORT_FD_HANDLE_TYPE_00669]
        );
        // Two bits: no single value, and not one of the fd types.
        assert_eq!(
            ids(&fd_import(OPAQUE_FD | DMA_BUF, 5, true)),
            [
                vuid::IMPORT_FD_HANDLE_TYPE_PARAM,
                vuid::IMPORT_FD_HANDLE_TYPE_00669
            ]
        );
        let undefined = vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 30);
        assert_eq!(
            ids(&fd_import(undefined, 5, true)),
            [
                vuid::IMPORT_FD_HANDLE_TYPE_PARAM,
                vuid::IMPORT_FD_HANDLE_TYPE_00669
            ]
        );
    }

    #[test]
    fn dma_buf_without_its_extension_is_parameter_only() {
        let mut device = fd_device();
        device.extensions.ext_external_memory_dma_buf = false;
        device.handle_types = device.extensions.handle_types();
        let chain = fd_import(DMA_BUF, 5, true);
        assert_eq!(evaluate(&device, &chain), ImportFdRules::HANDLE_TYPE_VALUE);
    }

    #[test]
    fn a_negative_or_closed_fd_is_00670() {
        assert_eq!(
            ids(&fd_import(OPAQUE_FD, -1, false)),
            [vuid::IMPORT_FD_HANDLE_TYPE_00670]
        );
        assert_eq!(
            ids(&fd_import(OPAQUE_FD, 900, false)),
            [vuid::IMPORT_FD_HANDLE_TYPE_00670]
        );
    }

    #[test]
    fn two_import_operations_are_06657() {
        let chain = ChainRead {
            import_operations: 2,
            ..fd_import(OPAQUE_FD, 5, true)
        };
        assert_eq!(ids(&chain), [vuid::ALLOC_NONE_06657]);
    }
}
