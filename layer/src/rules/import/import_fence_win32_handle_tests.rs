use super::*;
use crate::args::StructArg;
use crate::rules::export::{check, ExportCall};
use crate::state::{FenceFacts, Lookup};

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.khr_external_fence_win32 = true;
    facts
}

fn record() -> FenceRecord {
    FenceRecord {
        fence: 0xfe,
        device: 0xd1,
        facts: FenceFacts::default(),
    }
}

fn fields(handle_type: u32) -> InfoFields {
    InfoFields {
        has_p_next: false,
        object: 0xfe,
        handle_type,
    }
}

/// The IDs of the argument rules, in the order `describe_arguments` writes them.
fn argument_ids(handle_type: u32, flags: u32, handle: bool, name: bool) -> Vec<&'static str> {
    let info = fields(handle_type);
    let args = ImportArguments {
        flags,
        has_handle: handle,
        has_name: name,
    };
    let broken = evaluate_arguments(&info, &args);
    let mut outcome = Outcome::default();
    describe_arguments(&info, &args, &record(), broken, &mut outcome);
    outcome.ids()
}

#[test]
fn the_handle_type_table_is_01457_and_undefined_values_are_01457_alone() {
    let call = |t: u32| ExportCall::<Fence> {
        info: StructArg::Valid(fields(t)),
        output_null: false,
        object: Lookup::Live(record()),
    };
    let ids = |t| check(&COMMAND, &device(), &call(t)).ids();
    assert!(ids(OPAQUE_WIN32).is_empty());
    assert!(ids(OPAQUE_WIN32_KMT).is_empty());
    let sync = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();
    for t in [sync, 1 << 9, 0] {
        assert_eq!(
            ids(t),
            [vuid::FENCE_IMPORT_WIN32_HANDLE_TYPE_01457],
            "{t:#x}"
        );
    }
}

#[test]
fn flags_handle_and_name() {
    assert!(argument_ids(OPAQUE_WIN32, 0, true, false).is_empty());
    assert!(argument_ids(OPAQUE_WIN32, TEMPORARY, false, true).is_empty());
    assert!(argument_ids(OPAQUE_WIN32_KMT, TEMPORARY, true, false).is_empty());
    assert_eq!(
        argument_ids(OPAQUE_WIN32, 4, true, false),
        [vuid::FENCE_IMPORT_WIN32_FLAGS_PARAM]
    );
    assert_eq!(
        argument_ids(OPAQUE_WIN32, 0, true, true),
        [vuid::FENCE_IMPORT_WIN32_HANDLE_01462]
    );
    assert_eq!(
        argument_ids(OPAQUE_WIN32_KMT, 0, false, true),
        [vuid::FENCE_IMPORT_WIN32_HANDLE_TYPE_01459]
    );
    assert_eq!(
        argument_ids(OPAQUE_WIN32_KMT, 0, true, true),
        [
            vuid::FENCE_IMPORT_WIN32_HANDLE_01462,
            vuid::FENCE_IMPORT_WIN32_HANDLE_TYPE_01459
        ]
    );
    assert!(
        argument_ids(OPAQUE_WIN32, 0, false, false).is_empty(),
        "both NULL: what the handle is, is the OS's to say"
    );
}
