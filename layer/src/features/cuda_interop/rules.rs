//! The CUDA side's rules (pure): a CUDA import against the Vulkan export its fd came from, and a
//! mapped range against the import. IDs `EXPORTCHECK-cuda-*` (vuids/catalog.json); each message
//! quotes CUDA's documentation and names both sides.

use crate::features::import_matching::state::opaque_exports::ExportOrigin;
use crate::features::import_matching::state::semaphore_exports::SemaphoreOrigin;
use crate::finding::Finding;
use crate::state::device_groups::DeviceSet;
use crate::vuid;
use exportcheck_cuda_abi::CUDA_EXTERNAL_MEMORY_DEDICATED;

pub const IMPORT_MEMORY: &str = "cuImportExternalMemory";
pub const IMPORT_SEMAPHORE: &str = "cuImportExternalSemaphore";
pub const MAPPED_BUFFER: &str = "cuExternalMemoryGetMappedBuffer";
pub const MAPPED_ARRAY: &str = "cuExternalMemoryGetMappedMipmappedArray";

/// A `cuImportExternalMemory` of an OPAQUE_FD, as the app described it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryImport {
    pub fd: i32,
    pub size: u64,
    pub flags: u32,
    /// The CUDA device of the current context: its ordinal and UUID, if the interposer read them.
    pub device: Option<(i32, [u8; 16])>,
}

/// A `cuImportExternalSemaphore` of an fd, as the app described it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemaphoreImport {
    pub fd: i32,
    /// `CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD` rather than `..._OPAQUE_FD`.
    pub timeline: bool,
    pub device: Option<(i32, [u8; 16])>,
}

/// How the messages name the Vulkan side (computed by the hooks, which know the debug names and
/// the processes).
pub struct VulkanSide<'a> {
    /// e.g. `VkDeviceMemory 0x51 "staging" of VkDevice 0xd0, exported by vkGetMemoryFdKHR in this
    /// process`.
    pub described: &'a str,
}

fn uuid_text(uuid: &[u8; 16]) -> String {
    uuid.iter().map(|b| format!("{b:02x}")).collect()
}

/// The findings of a memory import of an fd whose Vulkan export is `origin` (an allocation that
/// created its payload).
pub fn memory_import(
    import: &MemoryImport,
    origin: &ExportOrigin,
    side: &VulkanSide,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let fd = import.fd;
    let vulkan = side.described;
    if import.size != origin.size {
        findings.push(Finding::new(
            vuid::CUDA_MEMORY_SIZE,
            IMPORT_MEMORY,
            "memHandleDesc->size",
            format!(
                "{IMPORT_MEMORY}(): memHandleDesc->size is {}, but fd {fd} is the OPAQUE_FD \
                 export of {vulkan}, whose allocationSize is {}. CUDA's documentation: \"The \
                 size of the memory object must be specified in \
                 CUDA_EXTERNAL_MEMORY_HANDLE_DESC::size.\" NVIDIA's driver accepts another size \
                 without an error and fails later, or maps what the allocation does not have: \
                 pass the Vulkan allocation's allocationSize ({}).",
                import.size, origin.size, origin.size
            ),
        ));
    }
    let flagged = import.flags & CUDA_EXTERNAL_MEMORY_DEDICATED != 0;
    let dedicated = origin.dedicated_to.is_some();
    if flagged != dedicated {
        let (set, is) = if flagged {
            (
                "sets CUDA_EXTERNAL_MEMORY_DEDICATED",
                "is not a dedicated allocation",
            )
        } else {
            (
                "does not set CUDA_EXTERNAL_MEMORY_DEDICATED",
                "is a dedicated allocation (VkMemoryDedicatedAllocateInfo)",
            )
        };
        findings.push(Finding::new(
            vuid::CUDA_MEMORY_DEDICATED,
            IMPORT_MEMORY,
            "memHandleDesc->flags",
            format!(
                "{IMPORT_MEMORY}(): memHandleDesc->flags (0x{:x}) {set}, but fd {fd} is the \
                 OPAQUE_FD export of {vulkan}, which {is}. CUDA's documentation: \
                 CUDA_EXTERNAL_MEMORY_DEDICATED \"indicates that the external memory object is \
                 a dedicated resource\"; set it exactly when the Vulkan memory was allocated \
                 dedicated to an image or buffer. NVIDIA's driver accepts either without an \
                 error (undefined behaviour).",
                import.flags
            ),
        ));
    }
    if let Some(f) = device_mismatch(
        IMPORT_MEMORY,
        "memory",
        fd,
        import.device,
        origin.physical_devices.set(),
        vulkan,
    ) {
        findings.push(f);
    }
    findings
}

/// `EXPORTCHECK-cuda-device-mismatch`, when both UUIDs are known and differ.
fn device_mismatch(
    command: &'static str,
    what: &str,
    fd: i32,
    cuda: Option<(i32, [u8; 16])>,
    exporter: DeviceSet,
    vulkan: &str,
) -> Option<Finding> {
    // The exporting device's physical devices (all of a device group's, whichever member
    // vkCreateDevice was called on), every deviceUUID known: the CUDA device is none of them.
    let ((ordinal, cuda_uuid), uuids) = (cuda?, exporter.uuids()?);
    (!uuids.contains(&cuda_uuid)).then(|| {
        let on = match uuids.as_slice() {
            [one] => format!("on the physical device of deviceUUID {}", uuid_text(one)),
            all => format!(
                "on the physical devices of deviceUUIDs {}",
                all.iter().map(uuid_text).collect::<Vec<_>>().join(", ")
            ),
        };
        Finding::new(
            vuid::CUDA_DEVICE_MISMATCH,
            command,
            "the current context's device",
            format!(
                "{command}(): the current CUDA context's device ({ordinal}, UUID {}) is not the \
                 Vulkan physical device that exported the {what} of fd {fd}: {vulkan}, {on}. \
                 CUDA's Vulkan interoperability guide: objects \
                 exported by Vulkan must be imported and mapped on the same device as they were \
                 created on, the CUDA device whose UUID (cuDeviceGetUuid) equals the Vulkan \
                 physical device's deviceUUID (VkPhysicalDeviceIDProperties).",
                uuid_text(&cuda_uuid),
            ),
        )
    })
}

/// `EXPORTCHECK-cuda-handle-type`: a CUDA import (`command`, of `what`) of an fd the layer knows
/// as the Vulkan export `exported` (e.g. "the OPAQUE_FD export of a semaphore, VkSemaphore 0x5").
pub fn wrong_kind(
    command: &'static str,
    field: &'static str,
    fd: i32,
    what: &str,
    exported: &str,
) -> Finding {
    Finding::new(
        vuid::CUDA_HANDLE_TYPE,
        command,
        field,
        format!(
            "{command}(): fd {fd} is imported as {what}, but it is {exported}. CUDA imports \
             Vulkan's OPAQUE_FD exports of memory with cuImportExternalMemory \
             (CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD) and of semaphores with \
             cuImportExternalSemaphore (CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD or \
             TIMELINE_SEMAPHORE_FD)."
        ),
    )
}

/// The findings of a semaphore import of an fd whose Vulkan export is `origin`.
pub fn semaphore_import(
    import: &SemaphoreImport,
    origin: &SemaphoreOrigin,
    side: &VulkanSide,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let vulkan = side.described;
    let fd = import.fd;
    if import.timeline != origin.timeline {
        let (as_type, is) = if import.timeline {
            (
                "CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD",
                "a binary semaphore",
            )
        } else {
            (
                "CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD",
                "a timeline semaphore",
            )
        };
        findings.push(Finding::new(
            vuid::CUDA_SEMAPHORE_TYPE,
            IMPORT_SEMAPHORE,
            "semHandleDesc->type",
            format!(
                "{IMPORT_SEMAPHORE}(): semHandleDesc->type is {as_type}, but fd {fd} is the \
                 OPAQUE_FD export of {vulkan}, {is}. CUDA's documentation: \
                 CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD is an opaque file descriptor \
                 referencing a (binary) semaphore, TIMELINE_SEMAPHORE_FD one referencing a \
                 timeline semaphore: import the fd as the type the Vulkan semaphore was created \
                 with (VkSemaphoreTypeCreateInfo::semaphoreType)."
            ),
        ));
    }
    if let Some(f) = device_mismatch(
        IMPORT_SEMAPHORE,
        "semaphore",
        fd,
        import.device,
        origin.devices,
        vulkan,
    ) {
        findings.push(f);
    }
    findings
}

/// What a mapping is judged against: the import's declared size and, where known, the Vulkan
/// allocation's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mapped {
    pub declared: u64,
    pub allocation: Option<u64>,
}

/// `EXPORTCHECK-cuda-mapped-range`: a mapping (`command`, `field`) of `[offset, offset + size)`
/// (an array: `size` 0, its offset only) beyond the import.
pub fn mapped_range(
    command: &'static str,
    field: &'static str,
    offset: u64,
    size: u64,
    mapped: Mapped,
    vulkan: Option<&str>,
) -> Option<Finding> {
    let end = offset.checked_add(size);
    let beyond = |limit: u64| match end {
        None => true,
        Some(end) => end > limit || (size == 0 && offset >= limit),
    };
    let range = match end {
        Some(end) if size > 0 => format!("[{offset}, {end})"),
        Some(_) => format!("offset {offset}"),
        None => format!("offset {offset} + size {size} (overflowing)"),
    };
    let why = if beyond(mapped.declared) {
        format!("beyond the import's declared size ({})", mapped.declared)
    } else {
        let allocation = mapped.allocation.filter(|&a| beyond(a))?;
        format!(
            "within the import's declared size ({}) but beyond the exporting Vulkan allocation's \
             allocationSize ({allocation}): the import declared more memory than {} has",
            mapped.declared,
            vulkan.unwrap_or("the allocation")
        )
    };
    Some(Finding::new(
        vuid::CUDA_MAPPED_RANGE,
        command,
        field,
        format!(
            "{command}(): the range {range} is {why}. CUDA's documentation: the offset is \"the \
             offset in the memory object where the buffer's base address is\", and the mapping \
             lies within the memory object."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::device_groups::PhysicalDevices;

    fn origin(size: u64, dedicated: bool) -> ExportOrigin {
        ExportOrigin {
            device: 0xd0,
            memory: 0x51,
            size,
            memory_type_index: 0,
            created_here: true,
            dedicated_to: dedicated.then_some((ash::vk::ObjectType::IMAGE, 0x77)),
            device_uuid: Some(*b"exportcheck-dev1"),
            driver_uuid: None,
            physical_devices: PhysicalDevices::new(Some(1), Some(vec![*b"exportcheck-dev1"])),
            device_mask: None,
            exporter: None,
        }
    }

    fn import(size: u64, flags: u32, uuid: &[u8; 16]) -> MemoryImport {
        MemoryImport {
            fd: 7,
            size,
            flags,
            device: Some((0, *uuid)),
        }
    }

    const SIDE: VulkanSide = VulkanSide {
        described: "VkDeviceMemory 0x51",
    };

    #[test]
    fn a_device_of_a_group_is_on_every_member_and_unknown_members_are_not_judged() {
        let group = ExportOrigin {
            physical_devices: PhysicalDevices::new(
                Some(2),
                Some(vec![*b"exportcheck-dev1", *b"exportcheck-dev2"]),
            ),
            ..origin(65536, false)
        };
        assert!(memory_import(&import(65536, 0, b"exportcheck-dev2"), &group, &SIDE).is_empty());
        let found = memory_import(&import(65536, 0, b"exportcheck-dev3"), &group, &SIDE);
        assert_eq!(found.len(), 1);
        assert!(found[0]
            .message
            .contains("on the physical devices of deviceUUIDs"));
        let unknown = ExportOrigin {
            physical_devices: PhysicalDevices::new(Some(2), None),
            ..origin(65536, false)
        };
        assert!(memory_import(&import(65536, 0, b"exportcheck-dev3"), &unknown, &SIDE).is_empty());
    }

    #[test]
    fn a_matching_import_is_silent() {
        let i = import(65536, 0, b"exportcheck-dev1");
        assert!(memory_import(&i, &origin(65536, false), &SIDE).is_empty());
        let i = import(65536, CUDA_EXTERNAL_MEMORY_DEDICATED, b"exportcheck-dev1");
        assert!(memory_import(&i, &origin(65536, true), &SIDE).is_empty());
    }

    #[test]
    fn size_dedicated_and_device_are_each_a_finding() {
        let i = import(131072, CUDA_EXTERNAL_MEMORY_DEDICATED, b"exportcheck-dev2");
        let found = memory_import(&i, &origin(65536, false), &SIDE);
        let ids: Vec<_> = found.iter().map(|f| f.id).collect();
        assert_eq!(
            ids,
            [
                vuid::CUDA_MEMORY_SIZE,
                vuid::CUDA_MEMORY_DEDICATED,
                vuid::CUDA_DEVICE_MISMATCH
            ]
        );
        assert!(found[0].message.contains("memHandleDesc->size is 131072"));
        assert!(found[1]
            .message
            .contains("sets CUDA_EXTERNAL_MEMORY_DEDICATED"));
        let i = import(65536, 0, b"exportcheck-dev1");
        let found = memory_import(&i, &origin(65536, true), &SIDE);
        assert!(found[0]
            .message
            .contains("does not set CUDA_EXTERNAL_MEMORY_DEDICATED"));
    }

    #[test]
    fn an_unknown_device_is_not_judged() {
        let mut i = import(65536, 0, b"exportcheck-dev2");
        i.device = None;
        assert!(memory_import(&i, &origin(65536, false), &SIDE).is_empty());
    }

    #[test]
    fn ranges_are_judged_against_the_declared_size_then_the_allocation() {
        let m = Mapped {
            declared: 65536,
            allocation: Some(65536),
        };
        assert!(mapped_range(MAPPED_BUFFER, "f", 0, 65536, m, None).is_none());
        assert!(mapped_range(MAPPED_BUFFER, "f", 4096, 61440, m, None).is_none());
        let f = mapped_range(MAPPED_BUFFER, "f", 4096, 65536, m, None).expect("beyond");
        assert!(
            f.message.contains("beyond the import's declared size"),
            "{}",
            f.message
        );
        let m = Mapped {
            declared: 131072,
            allocation: Some(65536),
        };
        let f = mapped_range(MAPPED_BUFFER, "f", 0, 131072, m, None).expect("beyond");
        assert!(
            f.message.contains("beyond the exporting Vulkan allocation"),
            "{}",
            f.message
        );
        assert!(mapped_range(MAPPED_BUFFER, "f", u64::MAX, 2, m, None).is_some());
        assert!(mapped_range(MAPPED_ARRAY, "f", 131072, 0, m, None).is_some());
        assert!(mapped_range(MAPPED_ARRAY, "f", 0, 0, m, None).is_none());
    }
}
