//! An opaque-fd import checked against the export it came from, when the layer saw that export
//! in this process (`features::import_matching::state::opaque_exports`: the fd refers to the open file description
//! `vkGetMemoryFdKHR` returned), and likewise a Win32 global share (KMT) handle import
//! (`features::import_matching::state::kmt_exports`: the handle `vkGetMemoryWin32HandleKHR` returned, its memory still
//! live). A handle the layer did not see exported gets none of these.
//!
//! Judged only when the exporting allocation created the payload (it imported nothing): the
//! rules speak of what was "specified when the payload being imported was created".
//!
//! With a shared directory (`features::cross_process::state`), the export may also be another
//! process's (`ExportOrigin::exporter`): judged by the same rules, except that its handles
//! are that process's, never compared with this one's, and the findings name both sides.

use crate::features::import_matching::state::opaque_exports::{DeviceMask, ExportOrigin, Exporter};
use crate::finding::{Finding, ObjectRef};
use crate::rules::rule_set::rule_set;
use crate::state::device_groups::PhysicalDevices;
use crate::state::AllocationFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of an opaque-fd or Win32 global share handle import against the export it came
    /// from.
    pub struct ImportMatchRules {
        /// `VUID-VkMemoryAllocateInfo-allocationSize-01742`: allocationSize differs.
        SIZE_DIFFERS,
        /// `VUID-VkMemoryAllocateInfo-allocationSize-01742`: memoryTypeIndex differs.
        TYPE_DIFFERS,
        /// `VUID-VkMemoryDedicatedAllocateInfo-image-01878`: the exported memory was no dedicated
        /// image allocation.
        IMAGE_NOT_DEDICATED,
        /// `VUID-VkMemoryDedicatedAllocateInfo-buffer-01879`: likewise for a buffer.
        BUFFER_NOT_DEDICATED,
        /// `VUID-VkImportMemoryFdInfoKHR-fd-00668`: exported on another physical device (their
        /// `deviceUUID`s differ).
        OTHER_PHYSICAL_DEVICE,
        /// `VUID-VkImportMemoryFdInfoKHR-fd-01746`: exported by a physical device and driver that
        /// are not compatible with the importing device for `OPAQUE_FD` (their `deviceUUID`s or
        /// `driverUUID`s differ: the external memory handle types compatibility table says both
        /// must match).
        INCOMPATIBLE_EXPORTER,
        /// `VUID-VkImportMemoryFdInfoKHR-fd-01520`: the fd does not obey the requirements that
        /// table lists for `OPAQUE_FD` (the same two UUIDs must match).
        COMPATIBILITY_REQUIREMENTS,
        /// `VUID-VkMemoryAllocateInfo-None-00644`: the importing device is not made of the physical
        /// devices of the device the payload was allocated on (another count, or other
        /// `deviceUUID`s).
        OTHER_PHYSICAL_DEVICES,
        /// `VUID-VkMemoryAllocateInfo-None-00643`: the import's device mask is not the one the
        /// payload was allocated with (judged only when both devices are known to be made of the
        /// same physical devices in the same order, so that the masks mean the same).
        OTHER_DEVICE_MASK,
    }
}

/// The handle an import names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportedHandle {
    /// `VkImportMemoryFdInfoKHR::fd` of an `OPAQUE_FD` import.
    OpaqueFd(i32),
    /// `VkImportMemoryWin32HandleInfoKHR::handle` of a global share handle type
    /// (`OPAQUE_WIN32_KMT`, `D3D11_TEXTURE_KMT`).
    GlobalShare(vk::ExternalMemoryHandleTypeFlags, u64),
}

impl ImportedHandle {
    /// Whether the size and memory type rules (01742, 01743) are about this handle type: every
    /// type but `D3D11_TEXTURE_KMT`.
    fn sized(self) -> bool {
        match self {
            Self::OpaqueFd(_) => true,
            Self::GlobalShare(t, _) => t == vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT,
        }
    }
}

/// The import as the app made it: the allocation's facts and its
/// `VkMemoryDedicatedAllocateInfo` (image, buffer), if chained.
pub struct OpaqueImport<'a> {
    pub handle: ImportedHandle,
    pub facts: &'a AllocationFacts,
    pub dedicated_info: Option<(u64, u64)>,
    /// The importing device.
    pub device: u64,
    /// The `driverUUID` of the importing device's physical device, if the layer knows it.
    pub driver_uuid: Option<[u8; vk::UUID_SIZE]>,
    /// The physical devices of the importing device.
    pub physical_devices: PhysicalDevices,
    /// The import's device mask (`VkMemoryAllocateFlagsInfo`, or its memory type heap's
    /// default: all the device's physical devices or a single instance), if the layer knows it.
    pub device_mask: Option<DeviceMask>,
}

/// Two UUIDs the layer knows, and they differ.
fn known_to_differ(a: Option<[u8; vk::UUID_SIZE]>, b: Option<[u8; vk::UUID_SIZE]>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a != b)
}

/// The rules the import breaks against `origin`.
pub fn evaluate(import: &OpaqueImport, origin: &ExportOrigin) -> ImportMatchRules {
    // Two physical devices whose deviceUUIDs differ are two devices, whatever the instances
    // (judged for fds; for a global share handle, 00659 is not judged yet); a device of a
    // device group is on each of its members, whichever one it was created with.
    let fd = matches!(import.handle, ImportedHandle::OpaqueFd(_));
    let other_device = fd && import.physical_devices.known_apart(origin.physical_devices);
    // The compatibility table: for OPAQUE_FD, driverUUID and deviceUUID must both match.
    let other_driver = fd && known_to_differ(import.driver_uuid, origin.driver_uuid);
    let incompatible = other_device || other_driver;
    let broken = ImportMatchRules::NONE
        .with(ImportMatchRules::OTHER_PHYSICAL_DEVICE, other_device)
        .with(ImportMatchRules::INCOMPATIBLE_EXPORTER, incompatible)
        .with(ImportMatchRules::COMPATIBILITY_REQUIREMENTS, incompatible);
    if !origin.created_here {
        return broken;
    }
    // The payload was allocated by the exporting allocation: its device and mask are the ones
    // 00643 and 00644 speak of.
    let (mine, theirs) = (import.physical_devices, origin.physical_devices);
    let same_device = origin.exporter.is_none() && import.device == origin.device;
    let same_devices = same_device || mine.known_alike(theirs);
    let masks_differ = matches!(
        (import.device_mask, origin.device_mask),
        (Some(a), Some(b)) if a.mask != b.mask
    );
    let broken = broken
        .with(
            ImportMatchRules::OTHER_PHYSICAL_DEVICES,
            mine.known_to_differ(theirs),
        )
        .with(
            ImportMatchRules::OTHER_DEVICE_MASK,
            same_devices && masks_differ,
        );
    let (image, buffer) = import.dedicated_info.unwrap_or((0, 0));
    let exported_to = |ty| matches!(origin.dedicated_to, Some((t, _)) if t == ty);
    let sized = import.handle.sized();
    broken
        .with(
            ImportMatchRules::SIZE_DIFFERS,
            sized && import.facts.size != origin.size,
        )
        .with(
            ImportMatchRules::TYPE_DIFFERS,
            sized && import.facts.memory_type_index != origin.memory_type_index,
        )
        .with(
            ImportMatchRules::IMAGE_NOT_DEDICATED,
            image != 0 && !exported_to(vk::ObjectType::IMAGE),
        )
        .with(
            ImportMatchRules::BUFFER_NOT_DEDICATED,
            buffer != 0 && !exported_to(vk::ObjectType::BUFFER),
        )
}

/// Findings about an import name the exporting memory object when it is this process's.
pub trait WithOrigin {
    fn with_origin(self, origin: &ExportOrigin) -> Self;
}

impl WithOrigin for Finding {
    fn with_origin(self, origin: &ExportOrigin) -> Self {
        match origin.exporter {
            None => self.with(ObjectRef::memory(origin.memory)),
            Some(_) => self,
        }
    }
}

/// Who exported a payload the shared directory recorded: `pid 1234 (`encoder`)` (this process,
/// if the layer no longer holds its own export; the pid alone cannot tell which).
pub fn exporting_process(exporter: &Exporter) -> String {
    format!("pid {} (`{}`)", exporter.pid, exporter.name())
}

/// Where an export the shared directory recorded came from, for a message: the process, the
/// handle type and the allocation, with that process's handles.
pub fn describe_shared_origin(exporter: &Exporter, origin: &ExportOrigin) -> String {
    format!(
        "exported by {} as {} from VkDeviceMemory 0x{:x}{} with allocationSize {}, \
         memoryTypeIndex {}{} (on that process's VkDevice 0x{:x})",
        exporting_process(exporter),
        vk_names::handle_types(exporter.handle_type),
        origin.memory,
        if origin.created_here {
            ""
        } else {
            " (which imported the payload from elsewhere)"
        },
        origin.size,
        origin.memory_type_index,
        match origin.dedicated_to {
            Some((ty, handle)) => format!(
                ", dedicated to {} 0x{handle:x}",
                if ty == vk::ObjectType::IMAGE {
                    "VkImage"
                } else {
                    "VkBuffer"
                }
            ),
            None => ", not dedicated".to_owned(),
        },
        origin.device
    )
}

/// A finding of `vkAllocateMemory` on `device` about an import of `origin`'s export.
fn import_finding(
    device: u64,
    origin: &ExportOrigin,
    id: &'static str,
    field: &'static str,
    message: String,
) -> Finding {
    Finding::new(id, "vkAllocateMemory", field, message)
        .with(ObjectRef::device(device))
        .with_origin(origin)
}

/// A UUID in hexadecimal.
fn uuid(u: Option<[u8; vk::UUID_SIZE]>) -> String {
    u.unwrap_or_default()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The findings of 01746 and 01520 (an `OPAQUE_FD` import from a physical device and driver
/// the compatibility table does not allow), as `broken` has them.
#[cold]
fn describe_compatibility(
    device: u64,
    import: &OpaqueImport,
    origin: &ExportOrigin,
    broken: ImportMatchRules,
    exported: &str,
) -> Vec<Finding> {
    let differ = match (
        import.physical_devices.known_apart(origin.physical_devices),
        known_to_differ(import.driver_uuid, origin.driver_uuid),
    ) {
        (true, true) => "deviceUUIDs and driverUUIDs differ",
        (true, false) => "deviceUUIDs differ",
        _ => "driverUUIDs differ",
    };
    let sides = format!(
        "That memory was created on {} with driverUUID {}, but {} is made of {} with \
         driverUUID {}",
        origin.physical_devices.describe(),
        uuid(origin.driver_uuid),
        vk_names::handle(vk::ObjectType::DEVICE, device),
        import.physical_devices.describe(),
        uuid(import.driver_uuid)
    );
    let field = "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd";
    let finding = |id, message| import_finding(device, origin, id, field, message);
    let mut out = Vec::new();
    if broken.has(ImportMatchRules::INCOMPATIBLE_EXPORTER) {
        out.push(finding(
            vuid::IMPORT_FD_01746,
            format!(
                "vkAllocateMemory(): {exported}. {sides} (the {differ}): memory imported as \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT must come from a physical device \
                 and driver compatible with the importing device, which the external memory \
                 handle types compatibility table defines as the same driverUUID and deviceUUID."
            ),
        ));
    }
    if broken.has(ImportMatchRules::COMPATIBILITY_REQUIREMENTS) {
        out.push(finding(
            vuid::IMPORT_FD_01520,
            format!(
                "vkAllocateMemory(): {exported}. {sides} (the {differ}): fd does not obey the \
                 external memory handle types compatibility table, which requires for \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT the same driverUUID and \
                 deviceUUID on the exporting and the importing side."
            ),
        ));
    }
    out
}

/// A device mask for a message.
fn describe_mask(mask: Option<DeviceMask>, devices: PhysicalDevices) -> String {
    const NONE_NAMED: &str = "no VkMemoryAllocateFlagsInfo with VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT";
    match mask {
        Some(DeviceMask { mask, named: true }) => {
            format!("device mask 0x{mask:x} (VkMemoryAllocateFlagsInfo::deviceMask)")
        }
        Some(DeviceMask { mask, named: false }) if devices.count == Some(1) => {
            format!("device mask 0x{mask:x} ({NONE_NAMED}: its one physical device)")
        }
        Some(DeviceMask {
            mask: 1,
            named: false,
        }) => format!(
            "device mask 0x1 ({NONE_NAMED}, of a memory type whose heap lacks \
             VK_MEMORY_HEAP_MULTI_INSTANCE_BIT: a single instance, as if deviceMask were 1)"
        ),
        Some(DeviceMask { mask, named: false }) => format!(
            "device mask 0x{mask:x} ({NONE_NAMED}, of a memory type whose heap has \
             VK_MEMORY_HEAP_MULTI_INSTANCE_BIT: all {})",
            devices.describe()
        ),
        None => "an unknown device mask".to_owned(),
    }
}

/// The findings of 00644 (other physical devices) and 00643 (another device mask), as `broken`
/// has them.
#[cold]
fn describe_device_group(
    device: u64,
    import: &OpaqueImport,
    origin: &ExportOrigin,
    broken: ImportMatchRules,
    exported: &str,
) -> Vec<Finding> {
    let importer = vk_names::handle(vk::ObjectType::DEVICE, device);
    let exporter = match origin.exporter {
        None => vk_names::handle(vk::ObjectType::DEVICE, origin.device),
        Some(e) => format!(
            "the VkDevice 0x{:x} of {}",
            origin.device,
            exporting_process(&e)
        ),
    };
    let finding = |id, field, message| import_finding(device, origin, id, field, message);
    let mut out = Vec::new();
    if broken.has(ImportMatchRules::OTHER_PHYSICAL_DEVICES) {
        out.push(finding(
            vuid::ALLOC_NONE_00644,
            "device",
            format!(
                "vkAllocateMemory(): {exported}. {importer} is made of {}, but {exporter}, on \
                 which the payload was allocated, is made of {}: an import of a payload the \
                 Vulkan API created must be on a logical device made of the same physical \
                 devices.",
                import.physical_devices.describe(),
                origin.physical_devices.describe()
            ),
        ));
    }
    if broken.has(ImportMatchRules::OTHER_DEVICE_MASK) {
        out.push(finding(
            vuid::ALLOC_NONE_00643,
            "pAllocateInfo->pNext<VkMemoryAllocateFlagsInfo>.deviceMask",
            format!(
                "vkAllocateMemory(): {exported}. The import has {}, but the payload was \
                 allocated with {}: an import of a payload the Vulkan API created must give the \
                 device mask it was allocated with.",
                describe_mask(import.device_mask, import.physical_devices),
                describe_mask(origin.device_mask, origin.physical_devices)
            ),
        ));
    }
    out
}

/// Where an export this process made came from, for a message.
fn describe_local_origin(what: &str, export_command: &str, origin: &ExportOrigin) -> String {
    format!(
        "pAllocateInfo imports {what}; {export_command} exported it from {} (allocated on {} \
         with allocationSize {}, memoryTypeIndex {}{})",
        vk_names::handle(vk::ObjectType::DEVICE_MEMORY, origin.memory),
        vk_names::handle(vk::ObjectType::DEVICE, origin.device),
        origin.size,
        origin.memory_type_index,
        match origin.dedicated_to {
            Some((ty, handle)) => format!(", dedicated to {}", vk_names::handle(ty, handle)),
            None => ", not dedicated".to_owned(),
        }
    )
}

/// The findings of the rules in `broken`.
#[cold]
#[inline(never)]
pub fn describe(
    device: u64,
    import: &OpaqueImport,
    origin: &ExportOrigin,
    broken: ImportMatchRules,
) -> Vec<Finding> {
    let (what, export_command) = match import.handle {
        ImportedHandle::OpaqueFd(fd) => (
            format!("fd {fd} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT"),
            "vkGetMemoryFdKHR",
        ),
        ImportedHandle::GlobalShare(t, handle) => (
            format!("handle 0x{handle:x} as {}", vk_names::handle_types(t)),
            "vkGetMemoryWin32HandleKHR",
        ),
    };
    let exported = match origin.exporter {
        Some(e) => format!(
            "pAllocateInfo imports {what}, {}; imported here with allocationSize {}, \
             memoryTypeIndex {}",
            describe_shared_origin(&e, origin),
            import.facts.size,
            import.facts.memory_type_index
        ),
        None => describe_local_origin(&what, export_command, origin),
    };
    let fd = matches!(import.handle, ImportedHandle::OpaqueFd(_));
    let (size_id, image_id, buffer_id, kind) = if fd {
        (
            vuid::ALLOC_SIZE_01742,
            vuid::DEDICATED_IMAGE_01878,
            vuid::DEDICATED_BUFFER_01879,
            "an opaque fd",
        )
    } else {
        (
            vuid::ALLOC_SIZE_01743,
            vuid::DEDICATED_IMAGE_01876,
            vuid::DEDICATED_BUFFER_01877,
            "a Win32 handle",
        )
    };
    let finding = |id, field, message| import_finding(device, origin, id, field, message);
    let mut out = Vec::new();
    if broken.has(ImportMatchRules::OTHER_PHYSICAL_DEVICE) {
        out.push(finding(
            vuid::IMPORT_FD_00668,
            "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd",
            format!(
                "vkAllocateMemory(): {exported}. That memory was created on {}, but {} is made \
                 of {}: an opaque fd must be imported on the same physical device it was \
                 exported from.",
                origin.physical_devices.describe(),
                vk_names::handle(vk::ObjectType::DEVICE, device),
                import.physical_devices.describe()
            ),
        ));
    }
    if broken.has(
        ImportMatchRules::INCOMPATIBLE_EXPORTER.and(ImportMatchRules::COMPATIBILITY_REQUIREMENTS),
    ) {
        out.extend(describe_compatibility(
            device, import, origin, broken, &exported,
        ));
    }
    if broken.has(ImportMatchRules::OTHER_PHYSICAL_DEVICES.and(ImportMatchRules::OTHER_DEVICE_MASK))
    {
        out.extend(describe_device_group(
            device, import, origin, broken, &exported,
        ));
    }
    let f = import.facts;
    if broken.has(ImportMatchRules::SIZE_DIFFERS) {
        out.push(finding(
            size_id,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): {exported}. pAllocateInfo->allocationSize is {}; an \
                 import of {kind} must give the allocationSize the payload was created with \
                 ({}).",
                f.size, origin.size
            ),
        ));
    }
    if broken.has(ImportMatchRules::TYPE_DIFFERS) {
        out.push(finding(
            size_id,
            "pAllocateInfo->memoryTypeIndex",
            format!(
                "vkAllocateMemory(): {exported}. pAllocateInfo->memoryTypeIndex is {}; an \
                 import of {kind} must give the memoryTypeIndex the payload was created with \
                 ({}).",
                f.memory_type_index, origin.memory_type_index
            ),
        ));
    }
    let (image, buffer) = import.dedicated_info.unwrap_or((0, 0));
    for (rule, id, ty, handle, field) in [
        (
            ImportMatchRules::IMAGE_NOT_DEDICATED,
            image_id,
            vk::ObjectType::IMAGE,
            image,
            "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image",
        ),
        (
            ImportMatchRules::BUFFER_NOT_DEDICATED,
            buffer_id,
            vk::ObjectType::BUFFER,
            buffer,
            "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.buffer",
        ),
    ] {
        if broken.has(rule) {
            let resource = if ty == vk::ObjectType::IMAGE {
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
                         memory is not a dedicated {resource} allocation; a dedicated import of \
                         {kind} must be of memory allocated dedicated to an identical {resource}.",
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

    pub(super) const ONE_DEVICE: PhysicalDevices = PhysicalDevices {
        count: Some(1),
        ordered: None,
        as_set: None,
    };

    /// The one physical device of `deviceUUID` `uuid`.
    pub(super) fn one(uuid: [u8; 16]) -> PhysicalDevices {
        PhysicalDevices::new(Some(1), Some(vec![uuid]))
    }
    pub(super) const ALL: Option<DeviceMask> = Some(DeviceMask {
        mask: 1,
        named: false,
    });

    const ORIGIN: ExportOrigin = ExportOrigin {
        device: 0xd000,
        memory: 0x3000,
        size: 65536,
        memory_type_index: 1,
        created_here: true,
        dedicated_to: Some((vk::ObjectType::IMAGE, 0x1a)),
        device_uuid: Some([1; 16]),
        driver_uuid: Some([3; 16]),
        physical_devices: ONE_DEVICE,
        device_mask: ALL,
        exporter: None,
    };

    fn ids(
        facts: AllocationFacts,
        dedicated_info: Option<(u64, u64)>,
        origin: &ExportOrigin,
    ) -> Vec<&'static str> {
        let import = OpaqueImport {
            handle: ImportedHandle::OpaqueFd(9),
            facts: &facts,
            dedicated_info,
            device: 0xd000,
            driver_uuid: Some([3; 16]),
            physical_devices: one([1; 16]),
            device_mask: ALL,
        };
        let broken = evaluate(&import, origin);
        let found = describe(0xd000, &import, origin, broken);
        assert_eq!(found.len() as u32, broken.len());
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
                physical_devices: one([2; 16]),
                created_here,
                ..ORIGIN
            };
            let mut expected = vec![
                vuid::IMPORT_FD_00668,
                vuid::IMPORT_FD_01746,
                vuid::IMPORT_FD_01520,
            ];
            if created_here {
                // The payload's allocation was made on other physical devices.
                expected.push(vuid::ALLOC_NONE_00644);
            }
            let mut found = ids(facts(65536, 1), None, &other);
            found.sort_unstable();
            expected.sort_unstable();
            assert_eq!(found, expected);
        }
        // Not known on one side: not judged.
        let unknown = ExportOrigin {
            device_uuid: None,
            driver_uuid: None,
            physical_devices: ONE_DEVICE,
            ..ORIGIN
        };
        assert!(ids(facts(65536, 1), None, &unknown).is_empty());
    }

    #[test]
    fn another_driver_of_the_same_physical_device_is_01746_and_01520_not_00668() {
        let other_driver = ExportOrigin {
            driver_uuid: Some([4; 16]),
            ..ORIGIN
        };
        assert_eq!(
            ids(facts(65536, 1), None, &other_driver),
            [vuid::IMPORT_FD_01746, vuid::IMPORT_FD_01520]
        );
        let import = OpaqueImport {
            handle: ImportedHandle::OpaqueFd(9),
            facts: &facts(65536, 1),
            dedicated_info: None,
            device: 0xd000,
            driver_uuid: Some([3; 16]),
            physical_devices: one([1; 16]),
            device_mask: ALL,
        };
        let found = describe(
            0xd000,
            &import,
            &other_driver,
            evaluate(&import, &other_driver),
        );
        for f in &found {
            assert_eq!(f.field, "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd");
            assert!(
                f.message.contains("(the driverUUIDs differ)"),
                "{}",
                f.message
            );
            assert!(f
                .message
                .contains(&format!("driverUUID {}", "04".repeat(16))));
        }
    }
}

#[cfg(test)]
mod global_share_tests {
    use super::tests::{ALL, ONE_DEVICE};
    use super::*;

    const ORIGIN: ExportOrigin = ExportOrigin {
        device: 0xd000,
        memory: 0x3000,
        size: 65536,
        memory_type_index: 1,
        created_here: true,
        dedicated_to: None,
        device_uuid: Some([1; 16]),
        driver_uuid: Some([3; 16]),
        physical_devices: ONE_DEVICE,
        device_mask: ALL,
        exporter: None,
    };

    fn ids(
        t: vk::ExternalMemoryHandleTypeFlags,
        size: u64,
        dedicated_info: Option<(u64, u64)>,
        device_uuid: [u8; 16],
    ) -> Vec<&'static str> {
        let facts = AllocationFacts {
            size,
            memory_type_index: 1,
            ..Default::default()
        };
        let import = OpaqueImport {
            handle: ImportedHandle::GlobalShare(t, 0x4000),
            facts: &facts,
            dedicated_info,
            device: 0xd000,
            driver_uuid: Some([3; 16]),
            physical_devices: super::tests::one(device_uuid),
            device_mask: ALL,
        };
        let broken = evaluate(&import, &ORIGIN);
        let found = describe(0xd000, &import, &ORIGIN, broken);
        assert_eq!(found.len() as u32, broken.len());
        found.iter().map(|f| f.id).collect()
    }

    const KMT: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT;
    const D3D11_KMT: vk::ExternalMemoryHandleTypeFlags =
        vk::ExternalMemoryHandleTypeFlags::D3D11_TEXTURE_KMT;

    #[test]
    fn a_global_share_import_is_checked_with_the_win32_ids() {
        assert!(ids(KMT, 65536, None, [1; 16]).is_empty());
        assert_eq!(ids(KMT, 4096, None, [1; 16]), [vuid::ALLOC_SIZE_01743]);
        assert_eq!(
            ids(KMT, 65536, Some((0x2b, 0)), [1; 16]),
            [vuid::DEDICATED_IMAGE_01876]
        );
        assert_eq!(
            ids(KMT, 65536, Some((0, 0x2c)), [1; 16]),
            [vuid::DEDICATED_BUFFER_01877]
        );
        // D3D11_TEXTURE_KMT: 01743 is not about it; 01876 is.
        assert!(ids(D3D11_KMT, 4096, None, [1; 16]).is_empty());
        assert_eq!(
            ids(D3D11_KMT, 4096, Some((0x2b, 0)), [1; 16]),
            [vuid::DEDICATED_IMAGE_01876]
        );
        // Another physical device: not judged for Win32 handles.
        assert!(ids(KMT, 65536, None, [2; 16]).is_empty());
    }
}

#[cfg(test)]
mod device_group_tests {
    use super::*;

    const A: [u8; 16] = [0xa; 16];
    const B: [u8; 16] = [0xb; 16];

    fn mask(mask: u32, named: bool) -> Option<DeviceMask> {
        Some(DeviceMask { mask, named })
    }

    fn origin(physical_devices: PhysicalDevices, device_mask: Option<DeviceMask>) -> ExportOrigin {
        ExportOrigin {
            device: 0xd000,
            memory: 0x3000,
            size: 65536,
            memory_type_index: 1,
            created_here: true,
            dedicated_to: None,
            device_uuid: Some(A),
            driver_uuid: Some([3; 16]),
            physical_devices,
            device_mask,
            exporter: None,
        }
    }

    /// The IDs an import on `device` (of `physical_devices`, with `device_mask`) of `origin`'s
    /// export gets.
    fn ids(
        device: u64,
        physical_devices: PhysicalDevices,
        device_mask: Option<DeviceMask>,
        origin: &ExportOrigin,
    ) -> Vec<&'static str> {
        let facts = AllocationFacts {
            size: 65536,
            memory_type_index: 1,
            ..Default::default()
        };
        let import = OpaqueImport {
            handle: ImportedHandle::OpaqueFd(9),
            facts: &facts,
            dedicated_info: None,
            device,
            driver_uuid: Some([3; 16]),
            physical_devices,
            device_mask,
        };
        let broken = evaluate(&import, origin);
        let found = describe(device, &import, origin, broken);
        assert_eq!(found.len() as u32, broken.len());
        found.iter().map(|f| f.id).collect()
    }

    #[test]
    fn devices_of_one_group_are_on_the_same_physical_devices_whichever_member_made_them() {
        // Made of {A, B}: exported from one, imported on another (vkCreateDevice on B this
        // time), or on B alone: no 00668 or 01746, which a device on C alone gets.
        let group = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let exported = origin(group, None);
        assert!(ids(0xd001, group, None, &exported).is_empty());
        let b_alone = PhysicalDevices::new(Some(1), Some(vec![B]));
        assert!(!ids(0xd001, b_alone, None, &exported).contains(&vuid::IMPORT_FD_00668));
        let c_alone = PhysicalDevices::new(Some(1), Some(vec![[0xc; 16]]));
        let found = ids(0xd001, c_alone, None, &exported);
        assert!(found.contains(&vuid::IMPORT_FD_00668), "{found:?}");
        assert!(found.contains(&vuid::IMPORT_FD_01746), "{found:?}");
    }

    #[test]
    fn another_device_mask_on_the_same_devices_is_00643() {
        let group = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let exported = origin(group, mask(0b01, true));
        // The same device, or another device of the same physical devices in the same order.
        for device in [0xd000, 0xd001] {
            assert_eq!(
                ids(device, group, mask(0b11, false), &exported),
                [vuid::ALLOC_NONE_00643]
            );
            assert!(ids(device, group, mask(0b01, true), &exported).is_empty());
        }
        // The same device, its physical devices' UUIDs unknown: still the same devices.
        let unknown = PhysicalDevices::new(Some(2), None);
        let exported = origin(unknown, mask(0b10, true));
        assert_eq!(
            ids(0xd000, unknown, mask(0b11, false), &exported),
            [vuid::ALLOC_NONE_00643]
        );
        // Another device whose physical devices are not known alike: the masks are not judged.
        assert!(ids(0xd001, unknown, mask(0b11, false), &exported).is_empty());
        let reordered = PhysicalDevices::new(Some(2), Some(vec![B, A]));
        let exported = origin(group, mask(0b01, true));
        assert!(ids(0xd001, reordered, mask(0b10, true), &exported).is_empty());
    }

    #[test]
    fn without_a_named_mask_the_heap_decides_all_devices_or_one_instance() {
        let group = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let of = |named, multi| DeviceMask::of(named, group, multi);
        assert_eq!(of(None, Some(true)), mask(0b11, false));
        assert_eq!(of(None, Some(false)), mask(0b01, false));
        assert_eq!(of(None, None), None);
        assert_eq!(of(Some(0b10), None), mask(0b10, true));
        // A single instance is the same mask as a named 0x1, either way round; not as 0x3.
        let single = origin(group, of(None, Some(false)));
        assert!(ids(0xd001, group, mask(0b01, true), &single).is_empty());
        assert_eq!(
            ids(0xd001, group, mask(0b11, true), &single),
            [vuid::ALLOC_NONE_00643]
        );
        let named = origin(group, mask(0b01, true));
        assert!(ids(0xd001, group, of(None, Some(false)), &named).is_empty());
    }

    #[test]
    fn other_physical_devices_are_00644_and_their_masks_are_not_judged() {
        let group = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let single = PhysicalDevices::new(Some(1), Some(vec![A]));
        let exported = origin(group, mask(0b11, false));
        assert_eq!(
            ids(0xd001, single, mask(0b1, false), &exported),
            [vuid::ALLOC_NONE_00644]
        );
        // Counts alone are enough.
        let unknown = PhysicalDevices::new(Some(1), None);
        assert_eq!(
            ids(0xd001, unknown, mask(0b1, false), &exported),
            [vuid::ALLOC_NONE_00644]
        );
        // The same devices in another order: not known to differ.
        let reordered = PhysicalDevices::new(Some(2), Some(vec![B, A]));
        assert!(ids(0xd001, reordered, mask(0b11, false), &exported).is_empty());
        // A payload the exporting allocation imported itself: its original device is unknown.
        let reexport = ExportOrigin {
            created_here: false,
            ..exported
        };
        assert!(ids(0xd001, single, mask(0b1, false), &reexport).is_empty());
    }

    #[test]
    fn the_messages_name_the_devices_and_the_masks() {
        let group = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let exported = origin(group, mask(0b01, true));
        let facts = AllocationFacts {
            size: 65536,
            memory_type_index: 1,
            ..Default::default()
        };
        let import = OpaqueImport {
            handle: ImportedHandle::OpaqueFd(9),
            facts: &facts,
            dedicated_info: None,
            device: 0xd000,
            driver_uuid: Some([3; 16]),
            physical_devices: group,
            device_mask: mask(0b11, false),
        };
        let found = describe(0xd000, &import, &exported, evaluate(&import, &exported));
        assert_eq!(
            found[0].field,
            "pAllocateInfo->pNext<VkMemoryAllocateFlagsInfo>.deviceMask"
        );
        let m = &found[0].message;
        assert!(m.contains("The import has device mask 0x3 (no VkMemoryAllocateFlagsInfo with VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT, of a memory type whose heap has VK_MEMORY_HEAP_MULTI_INSTANCE_BIT: all 2 physical devices (deviceUUID"), "{m}");
        assert!(
            m.contains("allocated with device mask 0x1 (VkMemoryAllocateFlagsInfo::deviceMask)"),
            "{m}"
        );
    }
}
