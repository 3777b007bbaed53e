use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::{Lookup, SemaphoreFacts, SignalState};

const OPAQUE: vk::ExternalSemaphoreHandleTypeFlags =
    vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;
const SYNC: vk::ExternalSemaphoreHandleTypeFlags = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_semaphore_fd = true;
    facts
}

fn semaphore(
    timeline: bool,
    export: Option<vk::ExternalSemaphoreHandleTypeFlags>,
) -> SemaphoreFacts {
    SemaphoreFacts {
        timeline,
        export,
        known: true,
        ..SemaphoreFacts::default()
    }
}

fn call(
    handle_type: vk::ExternalSemaphoreHandleTypeFlags,
    facts: SemaphoreFacts,
) -> ExportCall<Semaphore> {
    ExportCall {
        info: StructArg::Valid(InfoFields {
            has_p_next: false,
            object: 0x5e,
            handle_type: handle_type.as_raw(),
        }),
        output_null: false,
        object: Lookup::Live(SemaphoreRecord {
            semaphore: 0x5e,
            device: 0xd1,
            facts,
        }),
    }
}

fn ids(
    handle_type: vk::ExternalSemaphoreHandleTypeFlags,
    facts: SemaphoreFacts,
) -> Vec<&'static str> {
    check(&COMMAND, &device(), &call(handle_type, facts)).ids()
}

#[test]
fn exports_as_created_are_silent() {
    assert!(ids(OPAQUE, semaphore(false, Some(OPAQUE))).is_empty());
    assert!(ids(SYNC, semaphore(false, Some(SYNC | OPAQUE))).is_empty());
    assert!(ids(OPAQUE, semaphore(true, Some(OPAQUE))).is_empty());
}

#[test]
fn not_exportable_is_01132_with_its_cause() {
    let outcome = check(
        &COMMAND,
        &device(),
        &call(SYNC, semaphore(false, Some(OPAQUE))),
    );
    assert_eq!(outcome.ids(), [vuid::SEM_FD_HANDLE_TYPE_01132]);
    assert!(!outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, which was not included"),
        "{message}"
    );
    assert!(message.contains("binary semaphore"), "{message}");
    let outcome = check(&COMMAND, &device(), &call(OPAQUE, semaphore(false, None)));
    assert_eq!(outcome.ids(), [vuid::SEM_FD_HANDLE_TYPE_01132]);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("binary semaphore, no VkExportSemaphoreCreateInfo")
            && message.contains("exported only as a handle type that a"),
        "{message}"
    );
}

#[test]
fn after_an_import_or_an_unread_create_info_01132_is_not_judged() {
    let imported = SemaphoreFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..semaphore(false, None)
    };
    assert!(ids(OPAQUE, imported).is_empty());
    assert!(ids(OPAQUE, SemaphoreFacts::default()).is_empty());
    assert!(
        ids(SYNC, SemaphoreFacts::default()).is_empty(),
        "type unknown: no 03253"
    );
}

#[test]
fn other_types_are_01136() {
    let win32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32;
    assert_eq!(
        ids(win32, semaphore(false, Some(win32))),
        [vuid::SEM_FD_HANDLE_TYPE_01136]
    );
    assert_eq!(
        ids(win32, semaphore(false, Some(OPAQUE))),
        [
            vuid::SEM_FD_HANDLE_TYPE_01136,
            vuid::SEM_FD_HANDLE_TYPE_01132
        ]
    );
}

#[test]
fn sync_fd_of_a_timeline_semaphore_is_03253() {
    assert_eq!(
        ids(SYNC, semaphore(true, Some(SYNC))),
        [vuid::SEM_FD_HANDLE_TYPE_03253]
    );
}

#[test]
fn invalid_values_get_every_rule_they_break() {
    let two = OPAQUE | SYNC;
    assert_eq!(
        ids(two, semaphore(false, Some(two))),
        [
            vuid::SEM_FD_HANDLE_TYPE_PARAM,
            vuid::SEM_FD_HANDLE_TYPE_01136
        ]
    );
    let zircon = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA;
    assert_eq!(
        ids(zircon, semaphore(false, Some(OPAQUE))),
        [
            vuid::SEM_FD_HANDLE_TYPE_PARAM,
            vuid::SEM_FD_HANDLE_TYPE_01136,
            vuid::SEM_FD_HANDLE_TYPE_01132
        ]
    );
}

#[test]
fn a_destroyed_semaphore_is_named_as_destroyed() {
    let mut args = call(OPAQUE, semaphore(false, Some(OPAQUE)));
    args.object = Lookup::Gone(Box::new(crate::state::DestroyedSemaphore {
        record: SemaphoreRecord {
            semaphore: 0x5e,
            device: 0xd1,
            facts: semaphore(true, Some(OPAQUE)),
        },
        name: None,
    }));
    let outcome = check(&COMMAND, &device(), &args);
    assert_eq!(outcome.ids(), [vuid::SEM_FD_SEMAPHORE_PARAM]);
    assert!(outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("already destroyed with vkDestroySemaphore"),
        "{message}"
    );
    assert!(message.contains("timeline semaphore"), "{message}");
}

#[test]
fn a_sync_fd_with_no_signal_submitted_is_01135_and_03254() {
    let shared = |signal| SemaphoreFacts {
        shared: true,
        signal,
        ..semaphore(false, Some(SYNC | OPAQUE))
    };
    for unsignaled in [
        SignalState::UnsignaledSinceCreation,
        SignalState::UnsignaledSinceSyncFdExport,
        SignalState::UnsignaledSinceWaitCompleted,
    ] {
        assert_eq!(
            ids(SYNC, shared(unsignaled)),
            [
                vuid::SEM_FD_HANDLE_TYPE_01135,
                vuid::SEM_FD_HANDLE_TYPE_03254
            ]
        );
        assert!(ids(OPAQUE, shared(unsignaled)).is_empty(), "reference");
    }
    for unsure in [
        SignalState::Waited,
        SignalState::SignalSubmitted,
        SignalState::Unknown,
    ] {
        assert!(ids(SYNC, shared(unsure)).is_empty(), "{unsure:?}");
    }
    let not_followed = SemaphoreFacts {
        shared: false,
        ..shared(SignalState::UnsignaledSinceCreation)
    };
    assert!(ids(SYNC, not_followed).is_empty());
}
