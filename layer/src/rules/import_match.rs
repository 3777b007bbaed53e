//! An opaque-fd import checked against the export it came from, when the layer saw that export
//! in this process (`state::opaque_exports`: the fd refers to the open file description
//! `vkGetMemoryFdKHR` returned). An fd the layer did not see exported gets none of these.
//!
//! Judged only when the exporting allocation created the payload (it imported nothing): the
//! rules speak of what was "specified when the payload being imported was created".

use super::common::Broken;
use crate::finding::{Finding, ObjectRef};
use crate::state::opaque_exports::ExportOrigin;
use crate::state::AllocationFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// `VUID-VkMemoryAllocateInfo-allocationSize-01742`: allocationSize differs.
pub const SIZE_DIFFERS: Broken = Broken::bit(0);
/// `VUID-VkMemoryAllocateInfo-allocationSize-01742`: memoryTypeIndex differs.
pub const TYPE_DIFFERS: Broken = Broken::bit(1);
/// `VUID-VkMemoryDedicatedAllocateInfo-image-01878`: the exported memory was no dedicated image
/// allocation.
pub const IMAGE_NOT_DEDICATED: Broken = Broken::bit(2);
/// `VUID-VkMemoryDedicatedAllocateInfo-buffer-01879`: likewise for a buffer.
pub const BUFFER_NOT_DEDICATED: Broken = Broken::bit(3);

/// `VUID-VkImportMemoryFdInfoKHR-fd-00668`: exported on another physical device (their
/// `deviceUUID`s differ).
pub const OTHER_PHYSICAL_DEVICE: Broken = Broken::bit(4);

/// The import as the app made it: the allocation's facts and its
/// `VkMemoryDedicatedAllocateInfo` (image, buffer), if chained.
pub struct OpaqueImport<'a> {
    pub fd: i32,
    pub facts: &'a AllocationFacts,
    pub dedicated_info: Option<(u64, u64)>,
    /// The `deviceUUID` of the importing device's physical device, if the layer knows it.
    pub device_uuid: Option<[u8; vk::UUID_SIZE]>,
}

/// The rules the import breaks against `origin`.
pub fn evaluate(import: &OpaqueImport, origin: &ExportOrigin) -> Broken {
    // Two physical devices whose deviceUUIDs differ are two devices, whatever the instances.
    let other_device = matches!(
        (import.device_uuid, origin.device_uuid),
        (Some(a), Some(b)) if a != b
    );
    let broken = Broken::NONE.with(OTHER_PHYSICAL_DEVICE, other_device);
    if !origin.created_here {
        return broken;
    }
    let (image, buffer) = import.dedicated_info.unwrap_or((0, 0));
    let exported_to = |ty| matches!(origin.dedicated_to, Some((t, _)) if t == ty);
    broken
        .with(SIZE_DIFFERS, import.facts.size != origin.size)
        .with(
            TYPE_DIFFERS,
            import.facts.memory_type_index != origin.memory_type_index,
        )
        .with(
            IMAGE_NOT_DEDICATED,
            image != 0 && !exported_to(vk::ObjectType::IMAGE),
        )
        .with(
            BUFFER_NOT_DEDICATED,
            buffer != 0 && !exported_to(vk::ObjectType::BUFFER),
        )
}

/// The findings of the rules in `broken`.
#[cold]
#[inline(never)]
pub fn describe(
    device: u64,
    import: &OpaqueImport,
    origin: &ExportOrigin,
    broken: Broken,
) -> Vec<Finding> {
    let exported = format!(
        "pAllocateInfo imports fd {} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; \
         vkGetMemoryFdKHR exported it from {} (allocated on {} with allocationSize {}, \
         memoryTypeIndex {}{})",
        import.fd,
        vk_names::handle(vk::ObjectType::DEVICE_MEMORY, origin.memory),
        vk_names::handle(vk::ObjectType::DEVICE, origin.device),
        origin.size,
        origin.memory_type_index,
        match origin.dedicated_to {
            Some((ty, handle)) => format!(", dedicated to {}", vk_names::handle(ty, handle)),
            None => ", not dedicated".to_owned(),
        }
    );
    let finding = |id, field: &'static str, message: String| {
        Finding::new(id, "vkAllocateMemory", field, message)
            .with(ObjectRef::device(device))
            .with(ObjectRef::memory(origin.memory))
    };
    let mut out = Vec::new();
    if broken.has(OTHER_PHYSICAL_DEVICE) {
        let uuid = |u: Option<[u8; vk::UUID_SIZE]>| {
            u.unwrap_or_default()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        };
        out.push(finding(
            vuid::IMPORT_FD_00668,
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
            format!(
                "vkAllocateMemory(): {exported}. That memory was created on a physical device \
                 with deviceUUID {}, but {} is of a physical device with deviceUUID {}: an \
                 opaque fd must be imported on the same physical device it was exported from.",
                uuid(origin.device_uuid),
                vk_names::handle(vk::ObjectType::DEVICE, device),
                uuid(import.device_uuid)
            ),
        ));
    }
    let f = import.facts;
    if broken.has(SIZE_DIFFERS) {
        out.push(finding(
            vuid::ALLOC_SIZE_01742,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): {exported}. pAllocateInfo->allocationSize is {}; an \
                 import of an opaque fd must give the allocationSize the payload was created \
                 with ({}).",
                f.size, origin.size
            ),
        ));
    }
    if broken.has(TYPE_DIFFERS) {
        out.push(finding(
            vuid::ALLOC_SIZE_01742,
            "pAllocateInfo->memoryTypeIndex",
            format!(
                "vkAllocateMemory(): {exported}. pAllocateInfo->memoryTypeIndex is {}; an \
                 import of an opaque fd must give the memoryTypeIndex the payload was created \
                 with ({}).",
                f.memory_type_index, origin.memory_type_index
            ),
        ));
    }
    let (image, buffer) = import.dedicated_info.unwrap_or((0, 0));
    for (rule, id, ty, handle, field) in [
        (
            IMAGE_NOT_DEDICATED,
            vuid::DEDICATED_IMAGE_01878,
            vk::ObjectType::IMAGE,
            image,
            "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image",
        ),
        (
            BUFFER_NOT_DEDICATED,
            vuid::DEDICATED_BUFFER_01879,
            vk::ObjectType::BUFFER,
            buffer,
            "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.buffer",
        ),
    ] {
        if broken.has(rule) {
            let kind = if ty == vk::ObjectType::IMAGE {
                "image"
            } else {
                "buffer"
            };
            out.push(
                finding(
                    id,
                    field,
                    format!(
                        "vkAllocateMemory(): {exported}. {field} is {}, but the imported \
                         memory is not a dedicated {kind} allocation; a dedicated import of an \
                         opaque fd must be of memory allocated dedicated to an identical {kind}.",
                        vk_names::handle(ty, handle)
                    ),
                )
                .with(ObjectRef { ty, handle }),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORIGIN: ExportOrigin = ExportOrigin {
        device: 0xd000,
        memory: 0x3000,
        size: 65536,
        memory_type_index: 1,
        created_here: true,
        dedicated_to: Some((vk::ObjectType::IMAGE, 0x1a)),
        device_uuid: Some([1; 16]),
    };

    fn ids(
        facts: AllocationFacts,
        dedicated_info: Option<(u64, u64)>,
        origin: &ExportOrigin,
    ) -> Vec<&'static str> {
        let import = OpaqueImport {
            fd: 9,
            facts: &facts,
            dedicated_info,
            device_uuid: Some([1; 16]),
        };
        let broken = evaluate(&import, origin);
        let found = describe(0xd000, &import, origin, broken);
        assert_eq!(found.len() as u32, broken.0.count_ones());
        found.iter().map(|f| f.id).collect()
    }

    fn facts(size: u64, memory_type_index: u32) -> AllocationFacts {
        AllocationFacts {
            size,
            memory_type_index,
            ..Default::default()
        }
    }

    #[test]
    fn the_export_s_size_and_type_are_silent() {
        assert!(ids(facts(65536, 1), None, &ORIGIN).is_empty());
        assert!(ids(facts(65536, 1), Some((0x2b, 0)), &ORIGIN).is_empty());
    }

    #[test]
    fn another_size_or_type_is_01742_once_per_member() {
        assert_eq!(ids(facts(4096, 1), None, &ORIGIN), [vuid::ALLOC_SIZE_01742]);
        assert_eq!(
            ids(facts(4096, 0), None, &ORIGIN),
            [vuid::ALLOC_SIZE_01742, vuid::ALLOC_SIZE_01742]
        );
    }

    #[test]
    fn a_dedicated_import_of_memory_not_dedicated_alike() {
        let plain = ExportOrigin {
            dedicated_to: None,
            ..ORIGIN
        };
        assert_eq!(
            ids(facts(65536, 1), Some((0x2b, 0)), &plain),
            [vuid::DEDICATED_IMAGE_01878]
        );
        assert_eq!(
            ids(facts(65536, 1), Some((0, 0x2c)), &ORIGIN),
            [vuid::DEDICATED_BUFFER_01879]
        );
    }

    #[test]
    fn nothing_is_judged_when_the_payload_was_created_elsewhere() {
        let reexport = ExportOrigin {
            created_here: false,
            dedicated_to: None,
            ..ORIGIN
        };
        assert!(ids(facts(1, 7), Some((0x2b, 0)), &reexport).is_empty());
    }

    #[test]
    fn an_export_of_another_physical_device_is_00668_whatever_created_the_payload() {
        for created_here in [true, false] {
            let other = ExportOrigin {
                device_uuid: Some([2; 16]),
                created_here,
                ..ORIGIN
            };
            assert_eq!(ids(facts(65536, 1), None, &other), [vuid::IMPORT_FD_00668]);
        }
        // Not known on one side: not judged.
        let unknown = ExportOrigin {
            device_uuid: None,
            ..ORIGIN
        };
        assert!(ids(facts(65536, 1), None, &unknown).is_empty());
    }
}
