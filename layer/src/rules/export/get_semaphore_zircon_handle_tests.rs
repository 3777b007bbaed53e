use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::{Lookup, SemaphoreFacts};

type Types = vk::ExternalSemaphoreHandleTypeFlags;
const EVENT: Types = Types::ZIRCON_EVENT_FUCHSIA;
const OPAQUE_FD: Types = Types::OPAQUE_FD;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.fuchsia_external_semaphore = true;
    facts
}

fn semaphore(timeline: bool, export: Option<Types>) -> SemaphoreFacts {
    SemaphoreFacts {
        timeline,
        export,
        known: true,
        ..SemaphoreFacts::default()
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
        object: Lookup::Live(SemaphoreRecord {
            semaphore: 0x5e,
            device: 0xd1,
            facts,
        }),
    }
}

fn ids(handle_type: Types, facts: SemaphoreFacts) -> Vec<&'static str> {
    check(&COMMAND, &device(), &call(handle_type, facts)).ids()
}

#[test]
fn an_export_as_created_is_silent() {
    assert!(ids(EVENT, semaphore(false, Some(EVENT))).is_empty());
    assert!(ids(EVENT, semaphore(false, Some(EVENT | OPAQUE_FD))).is_empty());
}

#[test]
fn not_exportable_is_04758_with_its_cause() {
    let outcome = check(
        &COMMAND,
        &device(),
        &call(EVENT, semaphore(false, Some(OPAQUE_FD))),
    );
    assert_eq!(outcome.ids(), [vuid::SEM_ZIRCON_HANDLE_TYPE_04758]);
    let message = &outcome.findings[0].message;
    assert!(
        message.starts_with(
            "vkGetSemaphoreZirconHandleFUCHSIA(): pGetZirconHandleInfo->handleType is \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA, which was not included"
        ),
        "{message}"
    );
    assert_eq!(
        ids(EVENT, semaphore(false, None)),
        [vuid::SEM_ZIRCON_HANDLE_TYPE_04758]
    );
    let imported = SemaphoreFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..semaphore(false, None)
    };
    assert!(ids(EVENT, imported).is_empty(), "another payload now");
    assert!(ids(EVENT, SemaphoreFacts::default()).is_empty(), "unread");
}

#[test]
fn other_types_are_04762() {
    assert_eq!(
        ids(OPAQUE_FD, semaphore(false, Some(OPAQUE_FD))),
        [vuid::SEM_ZIRCON_HANDLE_TYPE_04762]
    );
    assert_eq!(
        ids(OPAQUE_FD, semaphore(false, Some(EVENT))),
        [
            vuid::SEM_ZIRCON_HANDLE_TYPE_04762,
            vuid::SEM_ZIRCON_HANDLE_TYPE_04758
        ]
    );
    let two = EVENT | OPAQUE_FD;
    assert_eq!(
        ids(two, semaphore(false, Some(two))),
        [
            vuid::SEM_ZIRCON_HANDLE_TYPE_PARAM,
            vuid::SEM_ZIRCON_HANDLE_TYPE_04762
        ]
    );
}

#[test]
fn a_timeline_semaphore_is_04763_whatever_was_imported() {
    let outcome = check(
        &COMMAND,
        &device(),
        &call(EVENT, semaphore(true, Some(EVENT))),
    );
    assert_eq!(outcome.ids(), [vuid::SEM_ZIRCON_SEMAPHORE_04763]);
    assert_eq!(outcome.findings[0].field, "pGetZirconHandleInfo->semaphore");
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("VkSemaphore 0x5e") && message.contains("a timeline semaphore"),
        "{message}"
    );
    let imported = SemaphoreFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..semaphore(true, None)
    };
    assert_eq!(ids(EVENT, imported), [vuid::SEM_ZIRCON_SEMAPHORE_04763]);
    assert!(
        ids(EVENT, SemaphoreFacts::default()).is_empty(),
        "type unknown"
    );
}
