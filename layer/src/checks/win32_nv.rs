//! `vkGetMemoryWin32HandleNV` (VK_NV_external_memory_win32). Compiled and tested on every
//! platform: the check is about the arguments, not about Windows.

use super::export::{check_extension, describe_allocation, describe_dead_memory};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::{DeviceFacts, MemoryLookup, PackedAllocation};
use crate::vk_names;
use crate::vuid;
use ash::vk;

pub const COMMAND: &str = "vkGetMemoryWin32HandleNV";
pub const EXTENSION: &str = "VK_NV_external_memory_win32";

/// The arguments of one call, resolved against tracked state.
#[derive(Clone, Debug)]
pub struct Win32Args {
    pub memory_handle: u64,
    pub memory: MemoryLookup,
    pub handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    pub output_null: bool,
}

/// Whether [`check_get_memory_win32_handle`] finds nothing in a call with `pHandle` set on live
/// memory of the device (see `fd::is_clean`).
#[inline(always)]
pub fn is_clean(
    device: &DeviceFacts,
    allocation: &PackedAllocation,
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
) -> bool {
    device.extensions.nv_external_memory_win32
        && handle_type.as_raw().is_power_of_two()
        && vk_names::valid_handle_type_nv_mask().contains(handle_type)
        && allocation.exported_as_nv(handle_type)
}

/// Every VUID of `vkGetMemoryWin32HandleNV`, plus the layer's single-bit warning.
#[inline]
pub fn check_get_memory_win32_handle(device: &DeviceFacts, args: &Win32Args) -> Outcome {
    let mut outcome = Outcome::default();
    let device_ref = ObjectRef::device(device.handle);
    check_extension(
        COMMAND,
        EXTENSION,
        device.extensions.nv_external_memory_win32,
        device,
        &mut outcome,
    );
    if args.output_null {
        outcome.block(
            Finding::new(
                vuid::WIN32_PHANDLE_PARAM,
                COMMAND,
                "pHandle",
                "vkGetMemoryWin32HandleNV(): pHandle is NULL. The call was not passed to the driver.",
            )
            .with(device_ref),
        );
    }
    let record = match &args.memory {
        MemoryLookup::Live(record) => record,
        MemoryLookup::Null | MemoryLookup::Unknown | MemoryLookup::Freed(_) => {
            let what = if args.memory_handle == 0 {
                "VK_NULL_HANDLE".to_owned()
            } else {
                describe_dead_memory(args.memory_handle, &args.memory)
            };
            outcome.block(
                Finding::new(
                    vuid::WIN32_MEMORY_PARAM,
                    COMMAND,
                    "memory",
                    format!("vkGetMemoryWin32HandleNV(): memory is {what}. The call was not passed to the driver."),
                )
                .with(device_ref)
                .with(ObjectRef::memory(args.memory_handle)),
            );
            return outcome;
        }
        MemoryLookup::OtherDevice(record) => {
            outcome.block(
                Finding::new(
                    vuid::WIN32_MEMORY_PARENT,
                    COMMAND,
                    "memory",
                    format!(
                        "vkGetMemoryWin32HandleNV(): memory is {}, which was not allocated from \
                         device ({}). The call was not passed to the driver.",
                        describe_allocation(record),
                        vk_names::handle(vk::ObjectType::DEVICE, device.handle)
                    ),
                )
                .with(device_ref)
                .with(ObjectRef::memory(record.memory))
                .with(ObjectRef::device(record.device)),
            );
            return outcome;
        }
    };
    let objects = [device_ref, ObjectRef::memory(record.memory)];
    if args.handle_type.is_empty() {
        outcome.push(
            Finding::new(
                vuid::WIN32_HANDLE_TYPE_REQUIRED,
                COMMAND,
                "handleType",
                "vkGetMemoryWin32HandleNV(): handleType is 0; it must name the handle type to export.",
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    if matches!(record.facts.export_nv, Some(types) if types.contains(args.handle_type))
        && args.handle_type.as_raw().is_power_of_two()
        && vk_names::valid_handle_type_nv_mask().contains(args.handle_type)
    {
        return outcome; // The good path: nothing to format.
    }
    let handle_type = vk_names::handle_types_nv(args.handle_type);
    if !vk_names::valid_handle_type_nv_mask().contains(args.handle_type) {
        outcome.push(
            Finding::new(
                vuid::WIN32_HANDLE_TYPE_PARAM,
                COMMAND,
                "handleType",
                format!(
                    "vkGetMemoryWin32HandleNV(): handleType is {handle_type}, which is not a \
                     combination of VkExternalMemoryHandleTypeFlagBitsNV values."
                ),
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    if args.handle_type.as_raw().count_ones() > 1 {
        outcome.push(
            Finding::new(
                vuid::WIN32_MULTIPLE_BITS,
                COMMAND,
                "handleType",
                format!(
                    "vkGetMemoryWin32HandleNV(): handleType is {handle_type}: more than one bit, but \
                     the command returns a single HANDLE of one type; pass one bit."
                ),
            )
            .with(objects[0])
            .with(objects[1]),
        );
    }
    let message = match record.facts.export_nv {
        Some(types) if types.contains(args.handle_type) => return outcome,
        Some(types) => format!(
            "vkGetMemoryWin32HandleNV(): handleType is {handle_type}, which was not in \
             VkExportMemoryAllocateInfoNV::handleTypes ({}) when {} was allocated.",
            vk_names::handle_types_nv(types),
            describe_allocation(record)
        ),
        None => format!(
            "vkGetMemoryWin32HandleNV(): handleType is {handle_type}, but {} was allocated without a \
             VkExportMemoryAllocateInfoNV in the pNext chain of VkMemoryAllocateInfo.",
            describe_allocation(record)
        ),
    };
    outcome.push(
        Finding::new(
            vuid::WIN32_HANDLE_TYPE_01326,
            COMMAND,
            "handleType",
            message,
        )
        .with(objects[0])
        .with(objects[1]),
    );
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::*;
    use crate::state::AllocationFacts;

    const OPAQUE: vk::ExternalMemoryHandleTypeFlagsNV =
        vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
    const KMT: vk::ExternalMemoryHandleTypeFlagsNV =
        vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT;

    fn nv(types: Option<vk::ExternalMemoryHandleTypeFlagsNV>) -> AllocationFacts {
        AllocationFacts {
            size: 4096,
            export_nv: types,
            ..Default::default()
        }
    }

    fn args(handle_type: vk::ExternalMemoryHandleTypeFlagsNV, facts: AllocationFacts) -> Win32Args {
        Win32Args {
            memory_handle: MEMORY,
            memory: MemoryLookup::Live(record_on(DEVICE, facts)),
            handle_type,
            output_null: false,
        }
    }

    fn ids(a: Win32Args) -> Vec<&'static str> {
        check_get_memory_win32_handle(&fd_device(), &a).ids()
    }

    #[test]
    fn good_export_is_silent() {
        assert!(ids(args(OPAQUE, nv(Some(OPAQUE | KMT)))).is_empty());
    }

    #[test]
    fn not_in_export_info_nv_is_01326_with_each_cause() {
        let out = check_get_memory_win32_handle(&fd_device(), &args(KMT, nv(Some(OPAQUE))));
        assert_eq!(out.ids(), [vuid::WIN32_HANDLE_TYPE_01326]);
        assert!(out.findings[0]
            .message
            .contains("was not in VkExportMemoryAllocateInfoNV::handleTypes"));
        let out = check_get_memory_win32_handle(&fd_device(), &args(KMT, nv(None)));
        assert_eq!(out.ids(), [vuid::WIN32_HANDLE_TYPE_01326]);
        assert!(out.findings[0]
            .message
            .contains("without a VkExportMemoryAllocateInfoNV"));
    }

    #[test]
    fn zero_unknown_and_multiple_bits() {
        let zero = vk::ExternalMemoryHandleTypeFlagsNV::empty();
        assert_eq!(
            ids(args(zero, nv(Some(OPAQUE)))),
            [vuid::WIN32_HANDLE_TYPE_REQUIRED]
        );
        let garbage = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x100);
        // Every rule it breaks: not a valid value, and not what the memory was exported with.
        assert_eq!(
            ids(args(garbage, nv(Some(OPAQUE)))),
            [vuid::WIN32_HANDLE_TYPE_PARAM, vuid::WIN32_HANDLE_TYPE_01326]
        );
        assert_eq!(
            ids(args(zero, nv(None))),
            [
                vuid::WIN32_HANDLE_TYPE_REQUIRED,
                vuid::WIN32_HANDLE_TYPE_01326
            ]
        );
        // Even when the allocation itself claimed the undefined bit.
        assert_eq!(
            ids(args(garbage, nv(Some(garbage)))),
            [vuid::WIN32_HANDLE_TYPE_PARAM]
        );
        assert_eq!(
            ids(args(OPAQUE | KMT, nv(Some(OPAQUE | KMT)))),
            [vuid::WIN32_MULTIPLE_BITS]
        );
    }

    #[test]
    fn null_output_unknown_and_foreign_memory_block() {
        let mut a = args(OPAQUE, nv(Some(OPAQUE)));
        a.output_null = true;
        let out = check_get_memory_win32_handle(&fd_device(), &a);
        assert_eq!(out.ids(), [vuid::WIN32_PHANDLE_PARAM]);
        assert!(out.blocked);
        for (memory, id) in [
            (MemoryLookup::Null, vuid::WIN32_MEMORY_PARAM),
            (MemoryLookup::Unknown, vuid::WIN32_MEMORY_PARAM),
            (
                MemoryLookup::OtherDevice(record_on(OTHER_DEVICE, nv(Some(OPAQUE)))),
                vuid::WIN32_MEMORY_PARENT,
            ),
        ] {
            let mut a = args(OPAQUE, nv(Some(OPAQUE)));
            a.memory = memory;
            let out = check_get_memory_win32_handle(&fd_device(), &a);
            assert_eq!(out.ids(), [id]);
            assert!(out.blocked);
        }
    }
}
