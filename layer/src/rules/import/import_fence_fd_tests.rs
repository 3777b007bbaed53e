use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
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
        device: 0xd0,
        fence: 0xff,
        device_uuid: Some([1; 16]),
        driver_uuid: Some([2; 16]),
    }
}

const HERE: Importer = Importer {
    device_uuid: Some([1; 16]),
    driver_uuid: Some([2; 16]),
};

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
    assert!(argument_ids(OPAQUE_FD, 0, &HERE, None).is_empty());
    assert!(argument_ids(OPAQUE_FD, TEMPORARY, &HERE, None).is_empty());
    assert!(argument_ids(SYNC_FD, TEMPORARY, &HERE, None).is_empty());
    assert_eq!(
        argument_ids(SYNC_FD, 0, &HERE, None),
        [vuid::FENCE_IMPORT_FD_HANDLE_TYPE_07306]
    );
    assert_eq!(
        argument_ids(SYNC_FD, 2, &HERE, None),
        [
            vuid::FENCE_IMPORT_FD_FLAGS_PARAM,
            vuid::FENCE_IMPORT_FD_HANDLE_TYPE_07306
        ]
    );
}

#[test]
fn an_opaque_fd_of_another_device_or_driver_is_01541() {
    let from = exporter();
    assert!(argument_ids(OPAQUE_FD, 0, &HERE, Some(&from)).is_empty());
    let other_device = Importer {
        device_uuid: Some([3; 16]),
        ..HERE
    };
    let other_driver = Importer {
        driver_uuid: Some([3; 16]),
        ..HERE
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
fn the_01541_message_names_the_export() {
    let info = fields(OPAQUE_FD);
    let args = ImportArguments { flags: 0, fd: 9 };
    let from = exporter();
    let elsewhere = Importer {
        device_uuid: Some([3; 16]),
        ..HERE
    };
    let broken = evaluate_arguments(&info, &args, &elsewhere, Some(&from));
    let mut outcome = Outcome::default();
    describe_arguments(&info, &args, &record(), Some(&from), broken, &mut outcome);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains(
            "fd (9) is an opaque fd exported from VkFence 0xff (a fence of VkDevice 0xd0"
        ) && message.contains("another deviceUUID or driverUUID"),
        "{message}"
    );
}
