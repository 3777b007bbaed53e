use super::*;
use crate::rules::common::{describe_allocation, unknown_device};
use crate::rules::export::get_memory_android_hardware_buffer;
use crate::rules::export::get_memory_fd;
use crate::rules::export::get_memory_metal_handle;
use crate::rules::export::get_memory_remote_address;
use crate::rules::export::get_memory_win32_handle;
use crate::rules::export::get_memory_win32_handle_nv;
use crate::rules::export::get_memory_zircon_handle;
use crate::rules::fixtures::*;
use crate::state::{AllocationFacts, MemoryLookup};
use crate::vk_ext::HANDLE_TYPE_MTLBUFFER;
use crate::vuid;

/// `$f(cmd, handle_type, facts)` for each command, with a good (handle type, allocation) for it
/// (`$f` is generic: each command's own rules are of its own type).
macro_rules! each_command {
    ($f:expr) => {{
        let rdma_facts = AllocationFacts {
            memory_type_index: RDMA_TYPE,
            ..exported(RDMA)
        };
        let win32 = vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
        let win32_facts = AllocationFacts {
            export_nv: Some(win32),
            ..not_exported()
        };
        $f(
            &get_memory_fd::COMMAND,
            OPAQUE_FD.as_raw(),
            exported(OPAQUE_FD),
        );
        $f(
            &get_memory_remote_address::COMMAND,
            RDMA.as_raw(),
            rdma_facts,
        );
        $f(
            &get_memory_metal_handle::COMMAND,
            HANDLE_TYPE_MTLBUFFER.as_raw(),
            exported(HANDLE_TYPE_MTLBUFFER),
        );
        $f(
            &get_memory_win32_handle_nv::COMMAND,
            win32.as_raw(),
            win32_facts,
        );
        $f(
            &get_memory_win32_handle::COMMAND,
            vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32.as_raw(),
            exported(vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32),
        );
        $f(
            &get_memory_zircon_handle::COMMAND,
            vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA.as_raw(),
            exported(vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA),
        );
        $f(
            &get_memory_android_hardware_buffer::COMMAND,
            get_memory_android_hardware_buffer::HANDLE_TYPE.as_raw(),
            exported(get_memory_android_hardware_buffer::HANDLE_TYPE),
        );
    }};
}

fn expect<R>(outcome: Outcome, id: &str, blocked: bool, cmd: &ExportCommand<R>) {
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
fn every_structural_vuid_of_every_command() {
    each_command!(every_structural_vuid);
}

fn every_structural_vuid<R: RuleSet>(
    cmd: &ExportCommand<R>,
    handle_type: u32,
    facts: AllocationFacts,
) {
    let device = fd_device();
    let run = |call: &ExportCall| check(cmd, &device, call);
    assert_eq!(
        run(&good_call(handle_type, facts)),
        Outcome::default(),
        "{}",
        cmd.name
    );

    let mut call = good_call(handle_type, facts);
    call.output_null = true;
    expect(run(&call), cmd.output_vuid, true, cmd);

    if let Some(info) = &cmd.info {
        let null_info = ExportCall {
            info: StructArg::Null,
            output_null: false,
            object: MemoryLookup::Null,
        };
        expect(run(&null_info), info.info_vuid, true, cmd);

        let wrong = ExportCall {
            info: StructArg::WrongSType(vk::StructureType::APPLICATION_INFO),
            output_null: false,
            object: MemoryLookup::Null,
        };
        expect(run(&wrong), info.s_type_vuid, true, cmd);

        let mut call = good_call(handle_type, facts);
        if let StructArg::Valid(fields) = &mut call.info {
            fields.has_p_next = true;
        }
        let outcome = run(&call);
        assert!(outcome.findings[0].field.ends_with("->pNext"));
        expect(outcome, info.p_next_vuid, false, cmd);
    }

    for memory in [MemoryLookup::Null, MemoryLookup::Unknown] {
        let mut call = good_call(handle_type, facts);
        call.object = memory;
        let outcome = run(&call);
        assert_eq!(outcome.findings[0].field, cmd.field("memory"));
        expect(outcome, cmd.object_vuid, true, cmd);
    }

    let mut call = good_call(handle_type, facts);
    call.object = MemoryLookup::OtherDevice(record_on(OTHER_DEVICE, facts));
    let outcome = run(&call);
    assert_eq!(
        outcome.findings[0].objects.len(),
        3,
        "device, memory, owning device"
    );
    expect(outcome, cmd.other_device_vuid, true, cmd);

    expect(
        unknown_device(cmd.name, cmd.device_vuid, 0x1234),
        cmd.device_vuid,
        true,
        cmd,
    );
}

#[test]
fn extension_not_enabled_for_each_command() {
    each_command!(extension_not_enabled_on);
}

fn extension_not_enabled_on<R: RuleSet>(
    cmd: &ExportCommand<R>,
    handle_type: u32,
    facts: AllocationFacts,
) {
    let mut device = fd_device();
    device.extensions = EnabledExtensions::default();
    device.handle_types = device.extensions.handle_types();
    let outcome = check(cmd, &device, &good_call(handle_type, facts));
    let ids = outcome.ids();
    assert_eq!(ids[0], vuid::EXTENSION_NOT_ENABLED, "{}", cmd.name);
    assert!(!outcome.blocked);
    // A device without the extension has none of its handle types either: only the Win32
    // NV command, whose types are not `VkExternalMemoryHandleTypeFlagBits`, stays valid.
    if cmd.handle_type_vuid.is_none() || handle_type == OPAQUE_FD.as_raw() {
        assert_eq!(ids.len(), 1, "{}: {ids:?}", cmd.name);
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
