use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::device_groups::{DeviceSet, PhysicalDevices};
use crate::state::{FenceFacts, Lookup};

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_fence_fd = true;
    facts
}

fn record() -> FenceRecord {
    FenceRecord {
        fence: 0xfe,
        device: 0xd1,
        facts: FenceFacts {
            known: true,
            ..FenceFacts::default()
        },
    }
}

fn fields(handle_type: u32) -> InfoFields {
    InfoFields {
        has_p_next: false,
        object: 0xfe,
        handle_type,
    }
}

fn exporter() -> FenceOrigin {
    FenceOrigin {
        exportable: None,
        device: 0xd0,
        fence: 0xff,
        devices: one([1; 16]),
        driver_uuid: Some([2; 16]),
    }
}

/// A device of the one physical device of `deviceUUID` `uuid`.
fn one(uuid: [u8; 16]) -> DeviceSet {
    PhysicalDevices::new(Some(1), Some(vec![uuid])).set()
}

fn here() -> Importer {
    Importer {
        devices: one([1; 16]),
        driver_uuid: Some([2; 16]),
    }
}

/// The IDs of the argument rules, in the order `describe_arguments` writes them.
fn argument_ids(
    handle_type: u32,
    flags: u32,
    importer: &Importer,
    from: Option<&FenceOrigin>,
) -> Vec<&'static str> {
    let info = fields(handle_type);
    let args = ImportArguments { flags, fd: -1 };
    let broken = evaluate_arguments(&info, &args, importer, from);
    let mut outcome = Outcome::default();
    describe_arguments(&info, &args, &record(), from, broken, &mut outcome);
    assert!(!outcome.blocked, "no fence import rule blocks");
    outcome.ids()
}

#[test]
fn the_handle_type_table_is_01464() {
    let call = |t: vk::ExternalFenceHandleTypeFlags| ExportCall::<Fence> {
        info: StructArg::Valid(fields(t.as_raw())),
        output_null: false,
        object: Lookup::Live(record()),
    };
    let ids = |t| check(&COMMAND, &device(), &call(t)).ids();
    assert!(ids(vk::ExternalFenceHandleTypeFlags::OPAQUE_FD).is_empty());
    assert!(ids(vk::ExternalFenceHandleTypeFlags::SYNC_FD).is_empty());
    assert_eq!(
        ids(vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32),
        [vuid::FENCE_IMPORT_FD_HANDLE_TYPE_01464]
    );
}

#[test]
fn flags_are_judged_alone_and_a_sync_fd_of_minus_one_is_valid() {
    assert!(argument_ids(OPAQUE_FD, 0, &here(), None).is_empty());
    assert!(argument_ids(OPAQUE_FD, TEMPORARY, &here(), None).is_empty());
    assert!(argument_ids(SYNC_FD, TEMPORARY, &here(), None).is_empty());
    assert_eq!(
        argument_ids(SYNC_FD, 0, &here(), None),
        [vuid::FENCE_IMPORT_FD_HANDLE_TYPE_07306]
    );
    assert_eq!(
        argument_ids(SYNC_FD, 2, &here(), None),
        [
            vuid::FENCE_IMPORT_FD_FLAGS_PARAM,
            vuid::FENCE_IMPORT_FD_HANDLE_TYPE_07306
        ]
    );
}

#[test]
fn an_opaque_fd_of_another_device_or_driver_is_01541() {
    let from = exporter();
    assert!(argument_ids(OPAQUE_FD, 0, &here(), Some(&from)).is_empty());
    let other_device = Importer {
        devices: one([3; 16]),
        ..here()
    };
    let other_driver = Importer {
        driver_uuid: Some([3; 16]),
        ..here()
    };
    for importer in [other_device, other_driver] {
        assert_eq!(
            argument_ids(OPAQUE_FD, 0, &importer, Some(&from)),
            [vuid::FENCE_IMPORT_FD_FD_01541]
        );
    }
    assert!(
        argument_ids(OPAQUE_FD, 0, &Importer::default(), Some(&from)).is_empty(),
        "UUIDs unknown"
    );
    assert!(
        argument_ids(SYNC_FD, TEMPORARY, &other_device, Some(&from)).is_empty(),
        "a sync file has no device requirement"
    );
}

#[test]
fn devices_of_one_device_group_share_their_physical_devices() {
    // Made of physical devices {1, 3}, whichever member vkCreateDevice was called on.
    let group = PhysicalDevices::new(Some(2), Some(vec![[1; 16], [3; 16]])).set();
    let in_group = Importer {
        devices: group,
        ..here()
    };
    let from_group = FenceOrigin {
        exportable: None,
        devices: group,
        ..exporter()
    };
    // The group against itself, against one of its members, and a member against it: silent.
    assert!(argument_ids(OPAQUE_FD, 0, &in_group, Some(&from_group)).is_empty());
    assert!(argument_ids(OPAQUE_FD, 0, &in_group, Some(&exporter())).is_empty());
    assert!(argument_ids(OPAQUE_FD, 0, &here(), Some(&from_group)).is_empty());
    // A device on none of the group's physical devices: 01541.
    let elsewhere = Importer {
        devices: one([4; 16]),
        ..here()
    };
    assert_eq!(
        argument_ids(OPAQUE_FD, 0, &elsewhere, Some(&from_group)),
        [vuid::FENCE_IMPORT_FD_FD_01541]
    );
}

#[test]
fn the_01541_message_names_the_export() {
    let info = fields(OPAQUE_FD);
    let args = ImportArguments { flags: 0, fd: 9 };
    let from = exporter();
    let elsewhere = Importer {
        devices: one([3; 16]),
        ..here()
    };
    let broken = evaluate_arguments(&info, &args, &elsewhere, Some(&from));
    let mut outcome = Outcome::default();
    describe_arguments(&info, &args, &record(), Some(&from), broken, &mut outcome);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains(
            "fd (9) is an opaque fd exported from VkFence 0xff (a fence of VkDevice 0xd0"
        ) && message.contains("other deviceUUIDs, or another driverUUID"),
        "{message}"
    );
}
