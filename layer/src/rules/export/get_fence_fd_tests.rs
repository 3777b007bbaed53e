use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::{FenceFacts, Lookup};

type Types = vk::ExternalFenceHandleTypeFlags;
const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_fence_fd = true;
    facts
}

pub(super) fn fence(export: Option<Types>) -> FenceFacts {
    FenceFacts {
        export,
        known: true,
        ..FenceFacts::default()
    }
}

pub(super) fn record(facts: FenceFacts) -> FenceRecord {
    FenceRecord {
        fence: 0xfe,
        device: 0xd1,
        facts,
    }
}

fn call(handle_type: Types, facts: FenceFacts) -> ExportCall<Fence> {
    ExportCall {
        info: StructArg::Valid(InfoFields {
            has_p_next: false,
            object: 0xfe,
            handle_type: handle_type.as_raw(),
        }),
        output_null: false,
        object: Lookup::Live(record(facts)),
    }
}

fn ids(handle_type: Types, facts: FenceFacts) -> Vec<&'static str> {
    check(&COMMAND, &device(), &call(handle_type, facts)).ids()
}

#[test]
fn exports_as_created_are_silent() {
    assert!(ids(OPAQUE, fence(Some(OPAQUE))).is_empty());
    assert!(ids(SYNC, fence(Some(SYNC | OPAQUE))).is_empty());
}

#[test]
fn not_exportable_is_01453_with_its_cause() {
    let outcome = check(&COMMAND, &device(), &call(SYNC, fence(Some(OPAQUE))));
    assert_eq!(outcome.ids(), [vuid::FENCE_FD_HANDLE_TYPE_01453]);
    assert!(!outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT, which was not included"),
        "{message}"
    );
    assert!(
        message.contains(
            "VkExportFenceCreateInfo::handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT"
        ),
        "{message}"
    );
    let outcome = check(&COMMAND, &device(), &call(OPAQUE, fence(None)));
    assert_eq!(outcome.ids(), [vuid::FENCE_FD_HANDLE_TYPE_01453]);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("without VkExportFenceCreateInfo")
            && message.contains("exported only as a handle type that a"),
        "{message}"
    );
}

#[test]
fn after_an_import_or_an_unread_create_info_01453_is_not_judged() {
    let imported = FenceFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..fence(None)
    };
    assert!(ids(OPAQUE, imported).is_empty());
    assert!(ids(SYNC, FenceFacts::default()).is_empty());
}

#[test]
fn other_types_are_01456() {
    let win32 = Types::OPAQUE_WIN32;
    assert_eq!(
        ids(win32, fence(Some(win32))),
        [vuid::FENCE_FD_HANDLE_TYPE_01456]
    );
    assert_eq!(
        ids(win32, fence(Some(OPAQUE))),
        [
            vuid::FENCE_FD_HANDLE_TYPE_01456,
            vuid::FENCE_FD_HANDLE_TYPE_01453
        ]
    );
}

#[test]
fn invalid_values_get_every_rule_they_break() {
    let two = OPAQUE | SYNC;
    assert_eq!(
        ids(two, fence(Some(two))),
        [
            vuid::FENCE_FD_HANDLE_TYPE_PARAM,
            vuid::FENCE_FD_HANDLE_TYPE_01456
        ]
    );
    assert_eq!(
        ids(Types::from_raw(0x10), fence(Some(OPAQUE))),
        [
            vuid::FENCE_FD_HANDLE_TYPE_PARAM,
            vuid::FENCE_FD_HANDLE_TYPE_01456,
            vuid::FENCE_FD_HANDLE_TYPE_01453
        ]
    );
}

#[test]
fn a_destroyed_fence_is_named_as_destroyed() {
    let mut args = call(OPAQUE, fence(Some(OPAQUE)));
    args.object = Lookup::Gone(Box::new(crate::state::DestroyedFence {
        record: record(fence(Some(SYNC))),
        name: None,
    }));
    let outcome = check(&COMMAND, &device(), &args);
    assert_eq!(outcome.ids(), [vuid::FENCE_FD_FENCE_PARAM]);
    assert!(outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("already destroyed with vkDestroyFence"),
        "{message}"
    );
    assert!(
        message.contains("VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT"),
        "{message}"
    );
}

#[test]
fn without_the_extension_it_is_reported() {
    let mut d = device();
    d.extensions.khr_external_fence_fd = false;
    let outcome = check(&COMMAND, &d, &call(OPAQUE, fence(Some(OPAQUE))));
    assert_eq!(outcome.ids(), [vuid::EXTENSION_NOT_ENABLED]);
}
