use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::{FenceFacts, Lookup};

type Types = vk::ExternalFenceHandleTypeFlags;
const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_fence_win32 = true;
    facts
}

fn fence(export: Option<Types>, nt_exported: Types) -> FenceFacts {
    FenceFacts {
        export,
        known: true,
        nt_exported,
        ..FenceFacts::default()
    }
}

fn record(facts: FenceFacts) -> FenceRecord {
    FenceRecord {
        fence: 0xfe,
        device: 0xd1,
        facts,
    }
}

fn ids(handle_type: Types, facts: FenceFacts) -> Vec<&'static str> {
    let call = ExportCall {
        info: StructArg::Valid(InfoFields {
            has_p_next: false,
            object: 0xfe,
            handle_type: handle_type.as_raw(),
        }),
        output_null: false,
        object: Lookup::Live(record(facts)),
    };
    check(&COMMAND, &device(), &call).ids()
}

#[test]
fn exports_as_created_are_silent() {
    let both = WIN32 | KMT;
    assert!(ids(WIN32, fence(Some(both), Types::empty())).is_empty());
    assert!(
        ids(KMT, fence(Some(both), WIN32)).is_empty(),
        "KMT: no 01449"
    );
}

#[test]
fn other_types_are_01452_and_01448_when_not_exportable() {
    let fd = Types::OPAQUE_FD;
    assert_eq!(
        ids(fd, fence(Some(fd), Types::empty())),
        [vuid::FENCE_WIN32_HANDLE_TYPE_01452]
    );
    assert_eq!(
        ids(Types::SYNC_FD, fence(Some(WIN32), Types::empty())),
        [
            vuid::FENCE_WIN32_HANDLE_TYPE_01452,
            vuid::FENCE_WIN32_HANDLE_TYPE_01448
        ]
    );
    assert_eq!(
        ids(WIN32 | KMT, fence(Some(WIN32 | KMT), Types::empty())),
        [
            vuid::FENCE_WIN32_HANDLE_TYPE_PARAM,
            vuid::FENCE_WIN32_HANDLE_TYPE_01452
        ]
    );
}

#[test]
fn not_exportable_is_01448_unless_imported() {
    assert_eq!(
        ids(KMT, fence(Some(WIN32), Types::empty())),
        [vuid::FENCE_WIN32_HANDLE_TYPE_01448]
    );
    assert_eq!(
        ids(WIN32, fence(None, Types::empty())),
        [vuid::FENCE_WIN32_HANDLE_TYPE_01448]
    );
    let imported = FenceFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..fence(None, Types::empty())
    };
    assert!(ids(WIN32, imported).is_empty());
}

#[test]
fn a_second_nt_export_is_01449_while_the_payload_is_the_created_one() {
    let facts = fence(Some(WIN32 | KMT), WIN32);
    let call_ids = ids(WIN32, facts);
    assert_eq!(call_ids, [vuid::FENCE_WIN32_HANDLE_TYPE_01449]);
    let imported = FenceFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..facts
    };
    assert!(ids(WIN32, imported).is_empty());
}

#[test]
fn only_nt_exports_of_the_created_payload_are_counted() {
    let exportable = record(fence(Some(WIN32 | KMT), Types::empty()));
    assert!(is_counted_nt_export(&exportable, WIN32.as_raw()));
    assert!(!is_counted_nt_export(&exportable, KMT.as_raw()));
    let not_exportable = record(fence(Some(KMT), Types::empty()));
    assert!(!is_counted_nt_export(&not_exportable, WIN32.as_raw()));
    let imported = record(FenceFacts {
        imported: true,
        payload: crate::rules::fixtures::PERMANENTLY_IMPORTED,
        ..fence(Some(WIN32), Types::empty())
    });
    assert!(!is_counted_nt_export(&imported, WIN32.as_raw()));
}

#[test]
fn the_01449_finding_names_the_type_and_the_fence() {
    let mut outcome = Outcome::default();
    let info = InfoFields {
        has_p_next: false,
        object: 0xfe,
        handle_type: WIN32.as_raw(),
    };
    describe_values(
        &COMMAND,
        &device(),
        &info,
        &record(fence(Some(WIN32), WIN32)),
        GetFenceWin32HandleRules::NT_HANDLE_EXPORTED_BEFORE,
        &mut outcome,
    );
    assert_eq!(outcome.ids(), [vuid::FENCE_WIN32_HANDLE_TYPE_01449]);
    assert!(!outcome.blocked);
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT, an NT handle type"),
        "{message}"
    );
    assert!(message.contains("VkFence 0xfe"), "{message}");
}
