use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::{Lookup, SemaphoreFacts};

const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const D3D12: Types = Types::D3D12_FENCE;
const OPAQUE_FD: Types = Types::OPAQUE_FD;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_semaphore_win32 = true;
    facts
}

fn semaphore(export: Option<Types>) -> SemaphoreFacts {
    SemaphoreFacts {
        export,
        known: true,
        ..SemaphoreFacts::default()
    }
}

fn record(facts: SemaphoreFacts) -> SemaphoreRecord {
    SemaphoreRecord {
        semaphore: 0x5e,
        device: 0xd1,
        facts,
    }
}

fn call(handle_type: Types, facts: SemaphoreFacts) -> ExportCall<Semaphore> {
    ExportCall {
        info: StructArg::Valid(InfoFields {
            has_p_next: false,
            object: 0x5e,
            handle_type: handle_type.as_raw(),
        }),
        output_null: false,
        object: Lookup::Live(record(facts)),
    }
}

fn ids(handle_type: Types, facts: SemaphoreFacts) -> Vec<&'static str> {
    check(&COMMAND, &device(), &call(handle_type, facts)).ids()
}

#[test]
fn exports_as_created_are_silent() {
    let all = WIN32 | KMT | D3D12;
    for t in [WIN32, KMT, D3D12] {
        assert!(ids(t, semaphore(Some(all))).is_empty(), "{t:?}");
        assert!(ids(t, semaphore(Some(t))).is_empty(), "{t:?}");
    }
    let timeline = SemaphoreFacts {
        timeline: true,
        ..semaphore(Some(WIN32))
    };
    assert!(ids(WIN32, timeline).is_empty());
}

#[test]
fn not_exportable_is_01126_with_its_cause() {
    let outcome = check(&COMMAND, &device(), &call(WIN32, semaphore(Some(KMT))));
    assert_eq!(outcome.ids(), [vuid::SEM_WIN32_HANDLE_TYPE_01126]);
    assert!(!outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.starts_with(
            "vkGetSemaphoreWin32HandleKHR(): pGetWin32HandleInfo->handleType is \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT, which was not included"
        ),
        "{message}"
    );
    let outcome = check(&COMMAND, &device(), &call(KMT, semaphore(None)));
    assert_eq!(outcome.ids(), [vuid::SEM_WIN32_HANDLE_TYPE_01126]);
    assert!(
        outcome.findings[0]
            .message
            .contains("no VkExportSemaphoreCreateInfo"),
        "{}",
        outcome.findings[0].message
    );
}

#[test]
fn after_an_import_or_an_unread_create_info_01126_is_not_judged() {
    let imported = SemaphoreFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..semaphore(None)
    };
    assert!(ids(WIN32, imported).is_empty());
    assert!(ids(WIN32, SemaphoreFacts::default()).is_empty());
}

#[test]
fn other_types_are_01131() {
    assert_eq!(
        ids(OPAQUE_FD, semaphore(Some(OPAQUE_FD))),
        [vuid::SEM_WIN32_HANDLE_TYPE_01131]
    );
    assert_eq!(
        ids(Types::SYNC_FD, semaphore(Some(WIN32))),
        [
            vuid::SEM_WIN32_HANDLE_TYPE_01131,
            vuid::SEM_WIN32_HANDLE_TYPE_01126
        ]
    );
}

#[test]
fn invalid_values_get_every_rule_they_break() {
    let two = WIN32 | KMT;
    assert_eq!(
        ids(two, semaphore(Some(two))),
        [
            vuid::SEM_WIN32_HANDLE_TYPE_PARAM,
            vuid::SEM_WIN32_HANDLE_TYPE_01131
        ]
    );
    // Zircon events belong to an extension the device lacks.
    let zircon = Types::ZIRCON_EVENT_FUCHSIA;
    assert_eq!(
        ids(zircon, semaphore(Some(WIN32))),
        [
            vuid::SEM_WIN32_HANDLE_TYPE_PARAM,
            vuid::SEM_WIN32_HANDLE_TYPE_01131,
            vuid::SEM_WIN32_HANDLE_TYPE_01126
        ]
    );
}

#[test]
fn a_second_nt_export_is_01127_a_global_share_one_is_not() {
    let exported_before = |types: Types| SemaphoreFacts {
        nt_handle_exports: types,
        ..semaphore(Some(WIN32 | KMT | D3D12))
    };
    assert_eq!(
        ids(WIN32, exported_before(WIN32)),
        [vuid::SEM_WIN32_HANDLE_TYPE_01127]
    );
    assert_eq!(
        ids(D3D12, exported_before(WIN32 | D3D12)),
        [vuid::SEM_WIN32_HANDLE_TYPE_01127]
    );
    assert!(ids(D3D12, exported_before(WIN32)).is_empty());
    assert!(ids(KMT, exported_before(WIN32 | D3D12)).is_empty());
    let imported_since = SemaphoreFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..exported_before(WIN32)
    };
    assert!(ids(WIN32, imported_since).is_empty(), "another payload now");
}

#[test]
fn only_nt_exports_of_the_created_payload_as_created_are_counted() {
    let r = record(semaphore(Some(WIN32 | KMT)));
    assert!(is_counted_nt_export(WIN32.as_raw(), &r));
    assert!(!is_counted_nt_export(KMT.as_raw(), &r), "global share");
    assert!(!is_counted_nt_export(D3D12.as_raw(), &r), "not exportable");
    assert!(!is_counted_nt_export((WIN32 | KMT).as_raw(), &r));
    let imported = record(SemaphoreFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..semaphore(Some(WIN32))
    });
    assert!(!is_counted_nt_export(WIN32.as_raw(), &imported));
    let unread = record(SemaphoreFacts::default());
    assert!(!is_counted_nt_export(WIN32.as_raw(), &unread));
}

#[test]
fn the_01127_finding_names_the_type_and_the_semaphore() {
    let facts = SemaphoreFacts {
        nt_handle_exports: WIN32,
        ..semaphore(Some(WIN32))
    };
    let outcome = check(&COMMAND, &device(), &call(WIN32, facts));
    assert_eq!(outcome.ids(), [vuid::SEM_WIN32_HANDLE_TYPE_01127]);
    assert!(!outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT, an NT handle type"),
        "{message}"
    );
    assert!(message.contains("VkSemaphore 0x5e"), "{message}");
}
