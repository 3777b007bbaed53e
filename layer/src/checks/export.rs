//! Structural checks shared by the export commands that take an info structure
//! (`vkGetMemoryFdKHR`, `vkGetMemoryRemoteAddressNV`, `vkGetMemoryMetalHandleEXT`): pointers,
//! `sType`, `pNext`, the memory handle and whether the extension is enabled.

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::raw::StructArg;
use crate::state::{DeviceFacts, EnabledExtensions, MemoryLookup, MemoryRecord, PackedAllocation};
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// The IDs and names that differ between the export commands.
pub struct ExportCommand {
    pub name: &'static str,
    pub extension: &'static str,
    pub is_enabled: fn(&EnabledExtensions) -> bool,
    pub info_param: &'static str,
    pub output_param: &'static str,
    pub info_type: &'static str,
    pub s_type: vk::StructureType,
    pub device_vuid: &'static str,
    pub info_vuid: &'static str,
    pub output_vuid: &'static str,
    pub s_type_vuid: &'static str,
    pub p_next_vuid: &'static str,
    pub memory_vuid: &'static str,
    pub handle_type_vuid: &'static str,
}

/// The members of an info structure the checks look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InfoFields {
    pub has_p_next: bool,
    pub memory: u64,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
}

/// A call's arguments, as read by the command and resolved against tracked state.
#[derive(Clone, Debug)]
pub struct ExportArgs {
    pub info: StructArg<InfoFields>,
    pub output_null: bool,
    /// What `info.memory` is; `Null` when the info structure could not be read.
    pub memory: MemoryLookup,
}

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
    let f = &record.facts;
    let mut s = format!(
        "allocated on {} with allocationSize {}, memoryTypeIndex {} [{}]",
        vk_names::handle(vk::ObjectType::DEVICE, record.device),
        f.size,
        f.memory_type_index,
        vk_names::memory_properties(record.type_flags),
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
        MemoryLookup::Freed(freed) => format!(
            "{handle}, which was already freed with vkFreeMemory (it had been {})",
            allocation_details(&freed.record)
        ),
        _ => format!(
            "{handle}, which is not a live VkDeviceMemory: it was never allocated, or was freed \
             long ago"
        ),
    }
}

/// Warns when the command's extension was not enabled on the device it was called on.
#[inline]
pub fn check_extension(
    name: &'static str,
    extension: &'static str,
    enabled: bool,
    device: &DeviceFacts,
    outcome: &mut Outcome,
) {
    if !enabled {
        outcome.push(
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
            .with(ObjectRef::device(device.handle)),
        );
    }
}

/// Pointers, `sType`, `pNext` and the memory handle. Returns the info members and the memory's
/// record when the value checks can go on.
#[inline]
pub fn check_structure<'a>(
    cmd: &ExportCommand,
    device: &DeviceFacts,
    args: &'a ExportArgs,
    outcome: &mut Outcome,
) -> Option<(&'a InfoFields, &'a MemoryRecord)> {
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    check_extension(
        name,
        cmd.extension,
        (cmd.is_enabled)(&device.extensions),
        device,
        outcome,
    );
    if args.output_null {
        outcome.block(
            Finding::new(
                cmd.output_vuid,
                name,
                cmd.output_param,
                format!(
                    "{name}(): {} is NULL. The call was not passed to the driver.",
                    cmd.output_param
                ),
            )
            .with(device_ref),
        );
    }
    let info = match &args.info {
        StructArg::Null => {
            outcome.block(
                Finding::new(
                    cmd.info_vuid,
                    name,
                    cmd.info_param,
                    format!(
                        "{name}(): {} is NULL; it must point to a valid {}. The call was not passed \
                         to the driver.",
                        cmd.info_param, cmd.info_type
                    ),
                )
                .with(device_ref),
            );
            return None;
        }
        StructArg::WrongSType(found) => {
            outcome.block(
                Finding::new(
                    cmd.s_type_vuid,
                    name,
                    format!("{}->sType", cmd.info_param),
                    format!(
                        "{name}(): {}->sType is {}; it must be {}. The structure's other members \
                         were not read and the call was not passed to the driver.",
                        cmd.info_param,
                        vk_names::structure_type(*found),
                        vk_names::structure_type(cmd.s_type)
                    ),
                )
                .with(device_ref),
            );
            return None;
        }
        StructArg::Valid(info) => info,
    };
    if info.has_p_next {
        outcome.push(
            Finding::new(
                cmd.p_next_vuid,
                name,
                format!("{}->pNext", cmd.info_param),
                format!(
                    "{name}(): {}->pNext is not NULL; no structure extends {}. The call goes \
                     down as the app made it.",
                    cmd.info_param, cmd.info_type
                ),
            )
            .with(device_ref),
        );
    }
    if let MemoryLookup::Live(record) = &args.memory {
        return Some((info, record));
    }
    let field = format!("{}->memory", cmd.info_param);
    match &args.memory {
        MemoryLookup::Live(_) => None,
        MemoryLookup::Null => {
            outcome.block(
                Finding::new(
                    cmd.memory_vuid,
                    name,
                    field.clone(),
                    format!("{name}(): {field} is VK_NULL_HANDLE. The call was not passed to the driver."),
                )
                .with(device_ref),
            );
            None
        }
        MemoryLookup::Unknown | MemoryLookup::Freed(_) => {
            outcome.block(
                Finding::new(
                    cmd.memory_vuid,
                    name,
                    field.clone(),
                    format!(
                        "{name}(): {field} is {}. The call was not passed to the driver.",
                        describe_dead_memory(info.memory, &args.memory)
                    ),
                )
                .with(device_ref)
                .with(ObjectRef::memory(info.memory)),
            );
            None
        }
        MemoryLookup::OtherDevice(record) => {
            outcome.block(
                Finding::new(
                    vuid::MEMORY_OF_OTHER_DEVICE,
                    name,
                    field.clone(),
                    format!(
                        "{name}(): {field} is {}, which belongs to another device than {}. The call \
                         was not passed to the driver.",
                        describe_allocation(record),
                        vk_names::handle(vk::ObjectType::DEVICE, device.handle)
                    ),
                )
                .with(device_ref)
                .with(ObjectRef::memory(record.memory))
                .with(ObjectRef::device(record.device)),
            );
            None
        }
    }
}

/// Whether `handle_type` is exactly one of the bits of `set`.
#[inline(always)]
pub fn is_one_of(
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    set: vk::ExternalMemoryHandleTypeFlags,
) -> bool {
    handle_type.as_raw().is_power_of_two() && set.contains(handle_type)
}

/// The fast paths' common rule (see `fd::is_clean`): `handle_type` is one bit of `allowed` that
/// is valid on the device, and the allocation was exported with it.
#[inline(always)]
pub fn exports_one_of(
    device: &DeviceFacts,
    allocation: &PackedAllocation,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    allowed: vk::ExternalMemoryHandleTypeFlags,
) -> bool {
    is_one_of(handle_type, allowed & device.handle_types) && allocation.exported_as(handle_type)
}

/// `handleType` must be exactly one `VkExternalMemoryHandleTypeFlagBits` value valid on the
/// device: defined, and of an extension the device was created with (the `-parameter` rule).
/// The value rules are checked after it all the same: a call gets every rule it breaks.
#[inline]
pub fn check_handle_type_value(
    cmd: &ExportCommand,
    device: &DeviceFacts,
    info: &InfoFields,
    record: &MemoryRecord,
    outcome: &mut Outcome,
) {
    if is_one_of(info.handle_type, device.handle_types) {
        return;
    }
    outcome.push(
        Finding::new(
            cmd.handle_type_vuid,
            cmd.name,
            format!("{}->handleType", cmd.info_param),
            format!(
                "{}(): {}->handleType is {}, which is not a valid VkExternalMemoryHandleTypeFlagBits \
                 value on {}: {}.",
                cmd.name,
                cmd.info_param,
                vk_names::handle_types(info.handle_type),
                vk_names::handle(vk::ObjectType::DEVICE, device.handle),
                vk_names::invalid_handle_types(info.handle_type, device.handle_types, true)
            ),
        )
        .with(ObjectRef::device(record.device))
        .with(ObjectRef::memory(record.memory)),
    );
}

/// `handleType` must have been in `VkExportMemoryAllocateInfo::handleTypes` at allocation.
/// The two causes (no export structure; bit missing from it) get their own message.
#[inline]
pub fn check_exported_with(
    cmd: &ExportCommand,
    id: &'static str,
    info: &InfoFields,
    record: &MemoryRecord,
    outcome: &mut Outcome,
) {
    if matches!(record.facts.export, Some(types) if types.contains(info.handle_type)) {
        return;
    }
    let field = format!("{}->handleType", cmd.info_param);
    let handle_type = vk_names::handle_types(info.handle_type);
    let message = match record.facts.export {
        Some(types) if types.contains(info.handle_type) => return,
        Some(types) => format!(
            "{}(): {field} is {handle_type}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({}) when {} was allocated.",
            cmd.name,
            vk_names::handle_types(types),
            describe_allocation(record)
        ),
        None => format!(
            "{}(): {field} is {handle_type}, but {} was allocated without a \
             VkExportMemoryAllocateInfo in the pNext chain of VkMemoryAllocateInfo, so it cannot be \
             exported.",
            cmd.name,
            describe_allocation(record)
        ),
    };
    outcome.push(
        Finding::new(id, cmd.name, field, message)
            .with(ObjectRef::device(record.device))
            .with(ObjectRef::memory(record.memory)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::*;
    use crate::checks::{fd, metal, rdma};
    use crate::state::AllocationFacts;
    use crate::vk_ext::HANDLE_TYPE_MTLBUFFER;

    type Check = fn(&DeviceFacts, &ExportArgs) -> Outcome;

    /// Each command with a good (handle type, allocation) for it.
    fn commands() -> Vec<(
        &'static ExportCommand,
        Check,
        vk::ExternalMemoryHandleTypeFlags,
        AllocationFacts,
    )> {
        let rdma_facts = AllocationFacts {
            memory_type_index: RDMA_TYPE,
            ..exported(RDMA)
        };
        vec![
            (
                &fd::COMMAND,
                fd::check_get_memory_fd,
                OPAQUE_FD,
                exported(OPAQUE_FD),
            ),
            (
                &rdma::COMMAND,
                rdma::check_get_memory_remote_address,
                RDMA,
                rdma_facts,
            ),
            (
                &metal::COMMAND,
                metal::check_get_memory_metal_handle,
                HANDLE_TYPE_MTLBUFFER,
                exported(HANDLE_TYPE_MTLBUFFER),
            ),
        ]
    }

    fn expect(outcome: Outcome, id: &str, blocked: bool, cmd: &ExportCommand) {
        assert_eq!(outcome.ids(), [id], "{}", cmd.name);
        assert_eq!(outcome.blocked, blocked, "{}: {id}", cmd.name);
        let finding = &outcome.findings[0];
        assert_eq!(finding.command, cmd.name);
        assert!(
            finding.message.starts_with(&format!("{}(): ", cmd.name)),
            "{}",
            finding.message
        );
    }

    #[test]
    fn every_structural_vuid_of_every_info_command() {
        let device = fd_device();
        for (cmd, check, handle_type, facts) in commands() {
            assert_eq!(
                check(&device, &good_args(handle_type, facts)),
                Outcome::default(),
                "{}",
                cmd.name
            );

            let null_info = ExportArgs {
                info: StructArg::Null,
                output_null: false,
                memory: MemoryLookup::Null,
            };
            expect(check(&device, &null_info), cmd.info_vuid, true, cmd);

            let mut args = good_args(handle_type, facts);
            args.output_null = true;
            expect(check(&device, &args), cmd.output_vuid, true, cmd);

            let wrong = ExportArgs {
                info: StructArg::WrongSType(vk::StructureType::APPLICATION_INFO),
                output_null: false,
                memory: MemoryLookup::Null,
            };
            expect(check(&device, &wrong), cmd.s_type_vuid, true, cmd);

            let mut args = good_args(handle_type, facts);
            if let StructArg::Valid(info) = &mut args.info {
                info.has_p_next = true;
            }
            let outcome = check(&device, &args);
            assert!(outcome.findings[0].field.ends_with("->pNext"));
            expect(outcome, cmd.p_next_vuid, false, cmd);

            for memory in [MemoryLookup::Null, MemoryLookup::Unknown] {
                let mut args = good_args(handle_type, facts);
                args.memory = memory;
                expect(check(&device, &args), cmd.memory_vuid, true, cmd);
            }

            let mut args = good_args(handle_type, facts);
            args.memory = MemoryLookup::OtherDevice(record_on(OTHER_DEVICE, facts));
            let outcome = check(&device, &args);
            assert_eq!(
                outcome.findings[0].objects.len(),
                3,
                "device, memory, owning device"
            );
            expect(outcome, vuid::MEMORY_OF_OTHER_DEVICE, true, cmd);

            expect(
                unknown_device(cmd.name, cmd.device_vuid, 0x1234),
                cmd.device_vuid,
                true,
                cmd,
            );
        }
    }

    #[test]
    fn extension_not_enabled_for_each_command() {
        for (cmd, check, handle_type, facts) in commands() {
            let mut device = fd_device();
            device.extensions = EnabledExtensions::default();
            let outcome = check(&device, &good_args(handle_type, facts));
            expect(outcome, vuid::EXTENSION_NOT_ENABLED, false, cmd);
        }
    }

    #[test]
    fn unknown_device_for_win32_and_memory_commands() {
        for (command, id) in [
            ("vkGetMemoryWin32HandleNV", vuid::WIN32_DEVICE_PARAM),
            ("vkAllocateMemory", vuid::ALLOC_DEVICE_PARAM),
            ("vkFreeMemory", vuid::FREE_DEVICE_PARAM),
        ] {
            let outcome = unknown_device(command, id, 0xbad);
            assert_eq!(outcome.ids(), [id]);
            assert!(outcome.blocked);
            assert!(outcome.findings[0].message.contains("0xbad"));
        }
    }

    #[test]
    fn allocation_description_names_everything() {
        let facts = AllocationFacts {
            size: 4096,
            memory_type_index: RDMA_TYPE,
            export: Some(OPAQUE_FD | DMA_BUF),
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32),
            export_win32_nv: false,
            import: Some(OPAQUE_FD),
            dedicated: true,
        };
        let text = describe_allocation(&record_on(DEVICE, facts));
        for part in [
            "VkDeviceMemory 0x3000",
            "VkDevice 0xd000",
            "allocationSize 4096",
            "memoryTypeIndex 1 [DEVICE_LOCAL|RDMA_CAPABLE_NV]",
            "VkExportMemoryAllocateInfo::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
            "VkExportMemoryAllocateInfoNV::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT_NV",
            "imported from VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            "dedicated",
        ] {
            assert!(text.contains(part), "{part} missing from {text}");
        }
    }
}
