//! `VUID-VkImportMemoryFdInfoKHR-handleType-00670`, "fd must be a valid handle of the type
//! specified by handleType", for an open fd whose file certainly is none:
//! - `DMA_BUF`: a `DMA_BUF_BIT_EXT` handle "is a file descriptor for a Linux dma_buf". An open fd
//!   whose file lives on a filesystem that is neither the dma-buf one nor the anonymous-inode one
//!   (where dma-bufs lived before Linux 5.3) is certainly none: a memfd (what lavapipe exports
//!   as `OPAQUE_FD`), a pipe, a disk file.
//! - `OPAQUE_FD`: an `OPAQUE_FD_BIT` handle is one "returned by vkGetMemoryFdKHR" (or by another
//!   API's opaque export). The layer is certain only of files no driver exports: a pipe, a
//!   socket, a directory, `/dev/null`, a regular file of procfs or sysfs
//!   (`os::payload::certainly_no_opaque_fd`, which says where the line is drawn and why).
//!
//! The rest of 00670 (a negative or closed fd) is `rules::import::import_fd`'s. When the layer knows the
//! export the fd came from (in this process, or from the shared directory), the finding names
//! it: typically an `OPAQUE_FD` export imported as a dma-buf.

use crate::args::FdImport;
use crate::features::import_matching::rules::import_match::{describe_shared_origin, WithOrigin};
use crate::features::import_matching::state::opaque_exports::ExportOrigin;
use crate::finding::{Finding, ObjectRef};
use crate::os::payload::{FileKind, DMA_BUF_MAGIC};
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// Whether the import is an fd import of an fd that certainly is no handle of its handle type.
#[inline(always)]
pub fn evaluate(import: &FdImport) -> bool {
    import.not_of_type.is_some()
}

/// The finding of an import [`evaluate`] found broken; `origin`: the export the fd came from,
/// if the layer knows it.
#[cold]
pub fn describe(device: u64, import: &FdImport, origin: Option<&ExportOrigin>) -> Finding {
    let file = import.not_of_type.unwrap_or(FileKind {
        magic: 0,
        file_type: 0,
    });
    let exported = match origin {
        Some(o) => match o.exporter {
            Some(e) => format!(
                " It was {}: import it as {}.",
                describe_shared_origin(&e, o),
                vk_names::handle_types(e.handle_type)
            ),
            None => format!(
                " vkGetMemoryFdKHR exported it as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT \
                 from {} (allocated on {} with allocationSize {}, memoryTypeIndex {}): import \
                 it with that handle type.",
                vk_names::handle(vk::ObjectType::DEVICE_MEMORY, o.memory),
                vk_names::handle(vk::ObjectType::DEVICE, o.device),
                o.size,
                o.memory_type_index
            ),
        },
        None => String::new(),
    };
    let what = if import.handle_type == vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD {
        format!(
            "is {}, which no driver exports; with handleType \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT it must be an opaque fd that \
             vkGetMemoryFdKHR (or another API's export of an opaque fd) returned",
            file.describe()
        )
    } else {
        format!(
            "is {} (filesystem magic 0x{:x}), not a Linux dma_buf (a file of the dma-buf \
             filesystem, 0x{DMA_BUF_MAGIC:x}); with handleType \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT it must be a dma_buf",
            file.describe(),
            file.magic
        )
    };
    let finding = Finding::new(
        vuid::IMPORT_FD_HANDLE_TYPE_00670,
        "vkAllocateMemory",
        "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
        format!(
            "vkAllocateMemory(): pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd ({}) \
             {what}.{exported}",
            import.fd,
        ),
    )
    .with(ObjectRef::device(device));
    match origin {
        Some(o) => finding.with_origin(o),
        None => finding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import(handle_type: vk::ExternalMemoryHandleTypeFlags, memfd: bool) -> FdImport {
        FdImport {
            handle_type,
            fd: 7,
            open: Some(true),
            not_of_type: memfd.then_some(FileKind {
                magic: 0x0102_1994,
                file_type: 0o100_000,
            }),
        }
    }

    #[test]
    fn only_an_import_of_a_file_known_to_be_no_handle_of_its_type_is_00670() {
        let dma_buf = vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
        assert!(evaluate(&import(dma_buf, true)));
        assert!(!evaluate(&import(dma_buf, false)));
        let opaque = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        assert!(!evaluate(&import(opaque, false)));
        let mut pipe = import(opaque, false);
        pipe.not_of_type = Some(FileKind {
            magic: 0x5049_5045,
            file_type: 0o010_000,
        });
        assert!(evaluate(&pipe));
        let f = describe(0xd0, &pipe, None);
        assert!(
            f.message.contains(
                "fd (7) is a pipe or FIFO, which no driver exports; with handleType \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT it must be an opaque fd"
            ),
            "{}",
            f.message
        );
        let f = describe(0xd0, &import(dma_buf, true), None);
        assert_eq!(f.id, vuid::IMPORT_FD_HANDLE_TYPE_00670);
        assert!(
            f.message.contains(
                "fd (7) is a memfd or POSIX shared memory file (tmpfs) (filesystem magic \
                 0x1021994), not a Linux dma_buf (a file of the dma-buf filesystem, 0x444d4142)"
            ),
            "{}",
            f.message
        );
    }
}
