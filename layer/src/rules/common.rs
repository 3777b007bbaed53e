//! What the rules of every command share: the unknown-device finding, the extension warning, and
//! how messages describe a memory object.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::{DeviceFacts, MemoryLookup, MemoryRecord};
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// The finding for a `VkDevice` the layer does not know.
pub fn unknown_device(command: &'static str, device_vuid: &'static str, device: u64) -> Outcome {
    let mut outcome = Outcome::default();
    outcome.block(
        Finding::new(
            device_vuid,
            command,
            "device",
            format!(
                "{command}(): device (0x{device:x}) is not a VkDevice created through this layer \
                 (never created, or already destroyed). The call was not passed to the driver."
            ),
        )
        .with(ObjectRef::device(device)),
    );
    outcome
}

/// The warning for a command called on a device created without its extension.
pub fn extension_not_enabled(
    name: &'static str,
    extension: &'static str,
    device: &DeviceFacts,
) -> Finding {
    Finding::new(
        vuid::EXTENSION_NOT_ENABLED,
        name,
        "device",
        format!(
            "{name}(): device is {}, which was created without {extension} in \
             VkDeviceCreateInfo::ppEnabledExtensionNames (was the function pointer fetched \
             from another device?).",
            vk_names::handle(vk::ObjectType::DEVICE, device.handle)
        ),
    )
    .with(ObjectRef::device(device.handle))
}

/// Findings about a memory object name it and its device.
pub trait FindingExt {
    fn with_memory(self, record: &MemoryRecord) -> Self;
}

impl FindingExt for Finding {
    fn with_memory(self, record: &MemoryRecord) -> Self {
        self.with(ObjectRef::device(record.device))
            .with(ObjectRef::memory(record.memory))
    }
}

/// How messages describe a memory object and what it was allocated with.
pub fn describe_allocation(record: &MemoryRecord) -> String {
    format!(
        "{} ({})",
        vk_names::handle(vk::ObjectType::DEVICE_MEMORY, record.memory),
        allocation_details(record)
    )
}

/// `allocated on VkDevice 0x.. with allocationSize .., memoryTypeIndex .. [flags], ...`
fn allocation_details(record: &MemoryRecord) -> String {
    let f = record.facts();
    let mut s = format!(
        "allocated on {} with allocationSize {}, memoryTypeIndex {} [{}]",
        vk_names::handle(vk::ObjectType::DEVICE, record.device),
        f.size,
        f.memory_type_index,
        vk_names::memory_properties(record.type_flags()),
    );
    match f.export {
        Some(t) => {
            s += &format!(
                ", VkExportMemoryAllocateInfo::handleTypes = {}",
                vk_names::handle_types(t)
            )
        }
        None => s += ", no VkExportMemoryAllocateInfo",
    }
    if let Some(t) = f.export_nv {
        s += &format!(
            ", VkExportMemoryAllocateInfoNV::handleTypes = {}",
            vk_names::handle_types_nv(t)
        );
    }
    if let Some(t) = f.import {
        s += &format!(", imported from {}", vk_names::handle_types(t));
    }
    if f.dedicated {
        s += ", dedicated";
    }
    s
}

/// Why a `VkDeviceMemory` argument is not usable, for memory that is not live: freed (and still
/// remembered, with its name and allocation) or unknown.
pub fn describe_dead_memory(memory: u64, lookup: &MemoryLookup) -> String {
    let handle = vk_names::handle(vk::ObjectType::DEVICE_MEMORY, memory);
    match lookup {
        MemoryLookup::Gone(freed) => format!(
            "{handle}, which was already freed with vkFreeMemory (it had been {})",
            allocation_details(&freed.record)
        ),
        _ => format!(
            "{handle}, which is not a live VkDeviceMemory: it was never allocated, or was freed \
             long ago"
        ),
    }
}

/// The message of an import structure's `-handleType-parameter` rule: `field` (the structure's
/// path, e.g. `pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>`) has `handle_type`, not a valid
/// value on `device`.
#[cold]
pub fn invalid_import_handle_type(
    device: &DeviceFacts,
    field: &str,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
) -> String {
    format!(
        "vkAllocateMemory(): {field}.handleType is {}, which is not a valid \
         VkExternalMemoryHandleTypeFlagBits value on {}: {}.",
        vk_names::handle_types(handle_type),
        vk_names::handle(vk::ObjectType::DEVICE, device.handle),
        vk_names::invalid_handle_types(handle_type, device.handle_types, true)
    )
}
