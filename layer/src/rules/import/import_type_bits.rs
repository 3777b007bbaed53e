//! An import's `memoryTypeIndex` against the memory types the driver says the imported handle
//! can be imported as, which the layer asks itself (`commands/allocate/import_queries.rs`, as the Khronos
//! layer does): `VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744` (a host pointer,
//! `vkGetMemoryHostPointerPropertiesEXT`) and `VUID-VkMemoryAllocateInfo-None-04749` (a Zircon
//! VMO, `vkGetMemoryZirconHandlePropertiesFUCHSIA`).

use crate::finding::{Finding, ObjectRef};
use crate::vuid;
use ash::vk;

/// The handle an import names, that the driver was asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// `VkImportMemoryHostPointerInfoEXT`: its handle type and `pHostPointer`.
    HostPointer(vk::ExternalMemoryHandleTypeFlags, u64),
    /// `VkImportMemoryZirconHandleInfoFUCHSIA::handle`.
    ZirconVmo(u32),
}

/// Whether `memory_type_index` is not one of `memory_type_bits`.
#[inline]
pub fn evaluate(memory_type_index: u32, memory_type_bits: u32) -> bool {
    memory_type_bits
        .checked_shr(memory_type_index)
        .map_or(true, |b| b & 1 == 0)
}

/// The finding of an import of `asked` whose `memory_type_index` is not in `memory_type_bits`.
#[cold]
#[inline(never)]
pub fn describe(
    device: u64,
    asked: Asked,
    memory_type_index: u32,
    memory_type_bits: u32,
) -> Finding {
    let (id, import, query) = match asked {
        Asked::HostPointer(handle_type, pointer) => (
            vuid::ALLOC_TYPE_INDEX_01744,
            format!(
                "host pointer 0x{pointer:x} as {}",
                crate::vk_names::handle_types(handle_type)
            ),
            "vkGetMemoryHostPointerPropertiesEXT",
        ),
        Asked::ZirconVmo(handle) => (
            vuid::ALLOC_NONE_04749,
            format!(
                "Zircon VMO handle 0x{handle:x} as \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA"
            ),
            "vkGetMemoryZirconHandlePropertiesFUCHSIA",
        ),
    };
    Finding::new(
        id,
        "vkAllocateMemory",
        "pAllocateInfo->memoryTypeIndex",
        format!(
            "vkAllocateMemory(): pAllocateInfo imports {import} with memoryTypeIndex \
             {memory_type_index}, but {query} returns memoryTypeBits 0x{memory_type_bits:x} for \
             that handle (asked by the layer), which does not include memory type \
             {memory_type_index}; an import must use one of the memory types the handle can be \
             imported as."
        ),
    )
    .with(ObjectRef::device(device))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_outside_the_bits_is_reported_with_its_query() {
        assert!(!evaluate(1, 0b10));
        assert!(evaluate(0, 0b10));
        assert!(evaluate(2, 0b11));
        assert!(evaluate(40, u32::MAX));
        let host = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        let f = describe(0xd0, Asked::HostPointer(host, 0x7000), 0, 0b10);
        assert_eq!(f.id, vuid::ALLOC_TYPE_INDEX_01744);
        assert!(f.message.contains("host pointer 0x7000"), "{}", f.message);
        assert!(f
            .message
            .contains("vkGetMemoryHostPointerPropertiesEXT returns memoryTypeBits 0x2"));
        let f = describe(0xd0, Asked::ZirconVmo(0x2000_0101), 1, 0b1);
        assert_eq!(f.id, vuid::ALLOC_NONE_04749);
        assert!(f
            .message
            .contains("vkGetMemoryZirconHandlePropertiesFUCHSIA"));
    }
}
