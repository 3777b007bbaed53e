use super::*;
use crate::state::SemaphoreFacts;

const OPAQUE: u32 = OPAQUE_WIN32;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_semaphore_win32 = true;
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
        driver_uuid: None,
        devices: Default::default(),
        process: None,
    }
}

fn args(flags: u32, handle: u64, has_name: bool) -> ImportArguments {
    ImportArguments {
        flags,
        handle,
        has_name,
    }
}

/// The IDs of the handle-type rule and the argument rules, in the order they are written.
fn ids(
    handle_type: u32,
    args: ImportArguments,
    importing: &SemaphoreRecord,
    from: Option<&SemaphoreOrigin>,
) -> Vec<&'static str> {
    let info = fields(handle_type);
    let mut outcome = Outcome::default();
    let values = evaluate_values(&device(), &info, importing);
    describe_values(&COMMAND, &device(), &info, importing, values, &mut outcome);
    let broken = evaluate_arguments(&info, &args, importing, from);
    describe_arguments(&info, &args, importing, from, broken, &mut outcome);
    assert_eq!(
        outcome.blocked,
        broken.has(ImportSemaphoreWin32Rules::BLOCKING)
    );
    outcome.findings.iter().map(|f| f.id).collect()
}

#[test]
fn valid_imports_break_nothing() {
    let binary = record(false);
    for t in [OPAQUE, KMT, D3D12_FENCE] {
        for flags in [0, TEMPORARY] {
            assert!(ids(t, args(flags, 0x40, false), &binary, None).is_empty());
        }
    }
    assert!(ids(OPAQUE, args(0, 0, true), &binary, None).is_empty());
    assert!(ids(D3D12_FENCE, args(0, 0, true), &binary, None).is_empty());
    let from = exporter(false);
    assert!(ids(KMT, args(TEMPORARY, 0x40, false), &binary, Some(&from)).is_empty());
    let from = exporter(true);
    assert!(ids(KMT, args(0, 0x40, false), &record(true), Some(&from)).is_empty());
}

#[test]
fn handle_types_flags_handles_and_names() {
    let s = record(false);
    assert_eq!(
        ids(Types::OPAQUE_FD.as_raw(), args(0, 0x40, false), &s, None),
        [vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_01140]
    );
    assert_eq!(
        ids(0, args(0, 0x40, false), &s, None),
        [vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_01140]
    );
    assert_eq!(
        ids(OPAQUE | KMT, args(0, 0x40, false), &s, None),
        [vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_01140]
    );
    assert_eq!(
        ids(OPAQUE, args(0x2, 0x40, false), &s, None),
        [vuid::SEM_IMPORT_WIN32_FLAGS_PARAM]
    );
    assert_eq!(
        ids(OPAQUE, args(0, 0x40, true), &s, None),
        [vuid::SEM_IMPORT_WIN32_HANDLE_01469]
    );
    assert_eq!(
        ids(KMT, args(0x4, 0x40, true), &s, None),
        [
            vuid::SEM_IMPORT_WIN32_FLAGS_PARAM,
            vuid::SEM_IMPORT_WIN32_HANDLE_01469,
            vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_01466
        ]
    );
}

#[test]
fn an_import_against_its_exporter() {
    let binary = record(false);
    let timeline = record(true);
    assert_eq!(
        ids(KMT, args(0, 0x40, false), &timeline, Some(&exporter(false))),
        [vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_03262]
    );
    assert_eq!(
        ids(KMT, args(0, 0x40, false), &binary, Some(&exporter(true))),
        [vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_03262]
    );
    assert_eq!(
        ids(
            KMT,
            args(TEMPORARY, 0x40, false),
            &timeline,
            Some(&exporter(true))
        ),
        [vuid::SEM_IMPORT_WIN32_FLAGS_03322]
    );
    let mut flagged = record(false);
    flagged.facts.create_flags = vk::SemaphoreCreateFlags::from_raw(1);
    assert_eq!(
        ids(KMT, args(0, 0x40, false), &flagged, Some(&exporter(false))),
        [vuid::SEM_IMPORT_WIN32_HANDLE_TYPE_03261]
    );
    // Create infos the layer could not read: only the exporter's type is judged.
    let mut unknown = record(false);
    unknown.facts.known = false;
    assert!(ids(KMT, args(0, 0x40, false), &unknown, Some(&exporter(true))).is_empty());
}

#[test]
fn only_a_global_share_handle_alone_is_looked_up() {
    let a = args(0, 0x40, false);
    assert_eq!(a.global_share_handle(KMT), Some(0x40));
    assert_eq!(a.global_share_handle(OPAQUE), None, "NT handles are not");
    assert_eq!(a.global_share_handle(D3D12_FENCE), None);
    assert_eq!(args(0, 0x40, true).global_share_handle(KMT), None);
    assert_eq!(args(0, 0, false).global_share_handle(KMT), None);
}

#[test]
fn messages_name_both_sides() {
    let timeline = record(true);
    let info = fields(KMT);
    let a = args(0, 0x40, false);
    let from = exporter(false);
    let broken = evaluate_arguments(&info, &a, &timeline, Some(&from));
    let mut outcome = Outcome::default();
    describe_arguments(&info, &a, &timeline, Some(&from), broken, &mut outcome);
    let m = &outcome.findings[0].message;
    assert!(m.contains("handle (0x40) is a global share handle exported from VkSemaphore 0x5f"));
    assert!(m.contains("(a binary semaphore of VkDevice 0xd0"));
    assert!(m.contains("The call was not passed to the driver."));
}
