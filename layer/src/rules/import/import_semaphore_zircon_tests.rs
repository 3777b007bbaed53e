use super::*;
use crate::state::SemaphoreFacts;

fn device() -> DeviceFacts {
    let mut facts = DeviceFacts {
        handle: 0xd1,
        ..DeviceFacts::default()
    };
    facts.extensions.fuchsia_external_semaphore = true;
    facts
}

fn record(timeline: bool, known: bool) -> SemaphoreRecord {
    SemaphoreRecord {
        semaphore: 0x5e,
        device: 0xd1,
        facts: SemaphoreFacts {
            timeline,
            known,
            ..SemaphoreFacts::default()
        },
    }
}

fn ids(handle_type: u32, flags: u32, importing: &SemaphoreRecord) -> Vec<&'static str> {
    let info = InfoFields {
        has_p_next: false,
        object: 0x5e,
        handle_type,
    };
    let mut outcome = Outcome::default();
    let values = evaluate_values(&device(), &info, importing);
    describe_values(&COMMAND, &device(), &info, importing, values, &mut outcome);
    let broken = evaluate_arguments(flags);
    describe_arguments(flags, importing, broken, &mut outcome);
    assert!(!outcome.blocked);
    outcome.findings.iter().map(|f| f.id).collect()
}

#[test]
fn an_event_into_a_binary_semaphore_breaks_nothing() {
    for flags in [0, TEMPORARY] {
        assert!(ids(ZIRCON_EVENT, flags, &record(false, true)).is_empty());
    }
    // A create info the layer could not read: its type is not judged.
    assert!(ids(ZIRCON_EVENT, 0, &record(true, false)).is_empty());
}

#[test]
fn each_rule_alone_and_together() {
    let opaque_fd = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();
    assert_eq!(
        ids(opaque_fd, 0, &record(false, true)),
        [vuid::SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765]
    );
    assert_eq!(
        ids(ZIRCON_EVENT, 0, &record(true, true)),
        [vuid::SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768]
    );
    assert_eq!(
        ids(ZIRCON_EVENT, 0x2, &record(false, true)),
        [vuid::SEM_IMPORT_ZIRCON_FLAGS_PARAM]
    );
    assert_eq!(
        ids(opaque_fd, 0x3, &record(true, true)),
        [
            vuid::SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765,
            vuid::SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768,
            vuid::SEM_IMPORT_ZIRCON_FLAGS_PARAM
        ]
    );
}
