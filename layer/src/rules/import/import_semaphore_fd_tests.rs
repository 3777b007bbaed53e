use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::device_groups::{DeviceSet, PhysicalDevices};
use crate::state::{Lookup, SemaphoreFacts};

const OPAQUE: u32 = OPAQUE_FD;
const SYNC: u32 = SYNC_FD;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_semaphore_fd = true;
    facts
}

fn record(timeline: bool) -> SemaphoreRecord {
    SemaphoreRecord {
        semaphore: 0x5e,
        device: 0xd1,
        facts: SemaphoreFacts {
            timeline,
            known: true,
            ..SemaphoreFacts::default()
        },
    }
}

fn fields(handle_type: u32) -> InfoFields {
    InfoFields {
        has_p_next: false,
        object: 0x5e,
        handle_type,
    }
}

fn exporter(timeline: bool) -> SemaphoreOrigin {
    SemaphoreOrigin {
        exportable: None,
        device: 0xd0,
        semaphore: 0x5f,
        timeline,
        create_flags: vk::SemaphoreCreateFlags::empty(),
        driver_uuid: Some([2; 16]),
        devices: one([1; 16]),
        process: None,
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
    importing: &SemaphoreRecord,
    importer: &Importer,
    from: Option<&SemaphoreOrigin>,
) -> Vec<&'static str> {
    let info = fields(handle_type);
    let args = ImportArguments { flags, fd: 9 };
    let broken = evaluate_arguments(&info, &args, importing, importer, from);
    let mut outcome = Outcome::default();
    describe_arguments(&info, &args, importing, from, broken, &mut outcome);
    assert_eq!(
        outcome.blocked,
        broken.has(ImportSemaphoreFdRules::BLOCKING)
    );
    outcome.ids()
}

#[test]
fn the_handle_type_table_is_01143() {
    let call = |t: vk::ExternalSemaphoreHandleTypeFlags| ExportCall::<Semaphore> {
        info: StructArg::Valid(fields(t.as_raw())),
        output_null: false,
        object: Lookup::Live(record(false)),
    };
    let ids = |t| check(&COMMAND, &device(), &call(t)).ids();
    assert!(ids(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD).is_empty());
    assert!(ids(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD).is_empty());
    assert_eq!(
        ids(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32),
        [vuid::SEM_IMPORT_FD_HANDLE_TYPE_01143]
    );
}

#[test]
fn flags_are_judged_alone() {
    let binary = record(false);
    assert!(argument_ids(OPAQUE, 0, &binary, &here(), None).is_empty());
    assert!(argument_ids(SYNC, TEMPORARY, &binary, &here(), None).is_empty());
    assert_eq!(
        argument_ids(SYNC, 0, &binary, &here(), None),
        [vuid::SEM_IMPORT_FD_HANDLE_TYPE_07307]
    );
    assert_eq!(
        argument_ids(SYNC, 2, &binary, &here(), None),
        [
            vuid::SEM_IMPORT_FD_FLAGS_PARAM,
            vuid::SEM_IMPORT_FD_HANDLE_TYPE_07307
        ]
    );
}

#[test]
fn an_unseen_export_imported_temporarily_into_a_timeline_semaphore_is_03323() {
    let (binary, timeline) = (record(false), record(true));
    assert_eq!(
        argument_ids(OPAQUE, TEMPORARY, &timeline, &here(), None),
        [vuid::SEM_IMPORT_FD_FLAGS_03323]
    );
    assert!(argument_ids(OPAQUE, 0, &timeline, &here(), None).is_empty());
    assert!(argument_ids(OPAQUE, TEMPORARY, &binary, &here(), None).is_empty());
    // A timeline semaphore of a create info the layer could not read: not judged.
    let unknown = SemaphoreRecord {
        facts: SemaphoreFacts {
            known: false,
            ..timeline.facts
        },
        ..timeline
    };
    assert!(argument_ids(OPAQUE, TEMPORARY, &unknown, &here(), None).is_empty());
    // A known binary exporter: 03264 alone (03323 speaks of the exporter's type).
    assert_eq!(
        argument_ids(
            OPAQUE,
            TEMPORARY,
            &timeline,
            &here(),
            Some(&exporter(false))
        ),
        [vuid::SEM_IMPORT_FD_HANDLE_TYPE_03264]
    );
}

#[test]
fn an_import_of_a_known_export_is_judged_against_it() {
    let (binary, timeline) = (record(false), record(true));
    let from_binary = exporter(false);
    let from_timeline = exporter(true);
    let same = |r, e| argument_ids(OPAQUE, 0, r, &here(), Some(e));
    assert!(same(&binary, &from_binary).is_empty());
    assert!(same(&timeline, &from_timeline).is_empty());
    assert_eq!(
        same(&timeline, &from_binary),
        [vuid::SEM_IMPORT_FD_HANDLE_TYPE_03264]
    );
    assert_eq!(
        same(&binary, &from_timeline),
        [vuid::SEM_IMPORT_FD_HANDLE_TYPE_03264]
    );
    assert_eq!(
        argument_ids(OPAQUE, TEMPORARY, &timeline, &here(), Some(&from_timeline)),
        [vuid::SEM_IMPORT_FD_FLAGS_03323]
    );
    assert!(argument_ids(OPAQUE, TEMPORARY, &binary, &here(), Some(&from_binary)).is_empty());
    let flagged = SemaphoreRecord {
        facts: SemaphoreFacts {
            create_flags: vk::SemaphoreCreateFlags::from_raw(1),
            ..binary.facts
        },
        ..binary
    };
    assert_eq!(
        same(&flagged, &from_binary),
        [vuid::SEM_IMPORT_FD_HANDLE_TYPE_03263]
    );
    let elsewhere = Importer {
        devices: one([3; 16]),
        ..here()
    };
    assert_eq!(
        argument_ids(OPAQUE, 0, &binary, &elsewhere, Some(&from_binary)),
        [vuid::SEM_IMPORT_FD_FD_01544]
    );
    assert!(
        argument_ids(OPAQUE, 0, &binary, &Importer::default(), Some(&from_binary)).is_empty(),
        "UUIDs unknown"
    );
}

#[test]
fn what_the_layer_cannot_know_is_not_judged() {
    let unknown = SemaphoreRecord {
        facts: SemaphoreFacts::default(),
        ..record(false)
    };
    assert!(argument_ids(OPAQUE, 0, &unknown, &here(), Some(&exporter(true))).is_empty());
}

#[test]
fn messages_name_both_sides() {
    let info = fields(OPAQUE);
    let args = ImportArguments { flags: 0, fd: 9 };
    let from = exporter(false);
    let broken = evaluate_arguments(&info, &args, &record(true), &here(), Some(&from));
    let mut outcome = Outcome::default();
    describe_arguments(
        &info,
        &args,
        &record(true),
        Some(&from),
        broken,
        &mut outcome,
    );
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("exported from VkSemaphore 0x5f (a binary semaphore of VkDevice 0xd0")
            && message.contains("timeline semaphore")
            && message.contains("not passed to the driver"),
        "{message}"
    );
}
