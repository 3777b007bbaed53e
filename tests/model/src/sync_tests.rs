//! The sync model's own tests: each rule from the spec's text, and the catalog's IDs.

use super::ids::*;
use super::sync::*;
use super::{Expected, Info};
use std::collections::BTreeSet;

use fence_type as f;
use semaphore_type as s;

fn live(facts: SyncFacts) -> SyncObject {
    SyncObject::Live(facts)
}

fn exported(export: u32) -> SyncObject {
    live(SyncFacts::created(Some(export)))
}

fn ids(call: SyncCall) -> (Vec<&'static str>, bool) {
    let e = expected_sync(&SyncDevice::ALL, &call);
    (e.sorted(), e.blocked)
}

fn sorted(mut ids: Vec<&'static str>) -> Vec<&'static str> {
    ids.sort_unstable();
    ids
}

fn export(command: SyncCommand, object: SyncObject, handle_type: u32) -> Vec<&'static str> {
    let (ids, blocked) = ids(SyncCall::export(command, object, handle_type));
    assert!(!blocked, "{command:?} of a live object is not blocked");
    ids
}

fn import(
    command: SyncCommand,
    object: SyncObject,
    flags: u32,
    handle_type: u32,
    handle: ImportedHandle,
) -> (Vec<&'static str>, bool) {
    ids(SyncCall::import(
        command,
        object,
        flags,
        handle_type,
        handle,
    ))
}

fn matched(exporter: Exporter) -> ImportedHandle {
    ImportedHandle {
        exporter: Some(exporter),
        ..ImportedHandle::default()
    }
}

const BINARY_EXPORTER: Exporter = Exporter {
    timeline: false,
    create_flags: 0,
    same_device_and_driver: Some(true),
};

#[test]
fn valid_types_are_the_core_bits_and_zircon_with_its_extension() {
    let bare = SyncDevice::default();
    assert_eq!(bare.valid_types(Kind::Semaphore), s::CORE);
    assert_eq!(SyncDevice::ALL.valid_types(Kind::Semaphore), s::DEFINED);
    assert_eq!(bare.valid_types(Kind::Fence), f::DEFINED);
    assert_eq!(s::DEFINED & s::SCI_SYNC_OBJ, 0, "SC only");
    assert_eq!(f::DEFINED & f::SCI_SYNC, 0, "SC only");
}

#[test]
fn a_valid_call_of_each_command_is_silent() {
    use SyncCommand::*;
    let none = ImportedHandle::default();
    let handle = ImportedHandle {
        win32_handle: true,
        ..none
    };
    let calls = [
        SyncCall::export(GetSemaphoreFd, exported(s::OPAQUE_FD), s::OPAQUE_FD),
        SyncCall::export(GetSemaphoreFd, exported(s::SYNC_FD), s::SYNC_FD),
        SyncCall::export(GetSemaphoreWin32Handle, exported(s::WIN32), s::D3D12_FENCE),
        SyncCall::export(
            GetSemaphoreZirconHandle,
            exported(s::ZIRCON_EVENT),
            s::ZIRCON_EVENT,
        ),
        SyncCall::export(GetFenceFd, exported(f::FD), f::SYNC_FD),
        SyncCall::export(GetFenceWin32Handle, exported(f::WIN32), f::OPAQUE_WIN32),
        SyncCall::import(ImportSemaphoreFd, exported(0), 0, s::OPAQUE_FD, none),
        SyncCall::import(ImportSemaphoreFd, exported(0), 1, s::SYNC_FD, none),
        SyncCall::import(
            ImportSemaphoreWin32Handle,
            exported(0),
            0,
            s::D3D12_FENCE,
            handle,
        ),
        SyncCall::import(
            ImportSemaphoreZirconHandle,
            exported(0),
            1,
            s::ZIRCON_EVENT,
            none,
        ),
        SyncCall::import(ImportFenceFd, exported(0), 1, f::SYNC_FD, none),
        SyncCall::import(
            ImportFenceWin32Handle,
            exported(0),
            0,
            f::OPAQUE_WIN32_KMT,
            handle,
        ),
    ];
    for call in calls {
        assert_eq!(
            expected_sync(&SyncDevice::ALL, &call),
            Expected::default(),
            "{call:?}"
        );
    }
}

#[test]
fn bad_pointers_and_handles_block_and_hide_what_is_behind_them() {
    for command in SyncCommand::ALL {
        let i = command.ids();
        for (object, id) in [
            (SyncObject::Null, i.object),
            (SyncObject::Unknown, i.object),
            (SyncObject::Destroyed, i.object),
            (SyncObject::OtherDevice, i.object_parent),
        ] {
            // A value every command's rules reject, and flags no import takes: hidden.
            let call = if command.is_import() {
                SyncCall::import(command, object, 6, 0x8000_0000, ImportedHandle::default())
            } else {
                SyncCall::export(command, object, 0x8000_0000)
            };
            assert_eq!(ids(call), (vec![id], true), "{command:?} {object:?}");
        }
        let (null, wrong) = if command.is_import() {
            (
                SyncCall::Import {
                    command,
                    info: Info::Null,
                },
                SyncCall::Import {
                    command,
                    info: Info::WrongSType,
                },
            )
        } else {
            (
                SyncCall::Export {
                    command,
                    info: Info::Null,
                    output_null: false,
                },
                SyncCall::Export {
                    command,
                    info: Info::WrongSType,
                    output_null: true,
                },
            )
        };
        assert_eq!(ids(null), (vec![i.info], true));
        let mut both = vec![i.s_type];
        both.extend(i.output);
        assert_eq!(ids(wrong), (sorted(both), true), "{command:?}");
    }
}

#[test]
fn an_export_gets_every_rule_its_handle_type_breaks() {
    use SyncCommand::*;
    let sem = exported(s::OPAQUE_FD);
    assert_eq!(
        export(GetSemaphoreFd, sem, s::OPAQUE_WIN32),
        sorted(vec![SEM_FD_HANDLE_TYPE_01136, SEM_FD_HANDLE_TYPE_01132])
    );
    assert_eq!(
        export(GetSemaphoreFd, sem, s::OPAQUE_FD | s::SYNC_FD),
        sorted(vec![
            SEM_FD_HANDLE_TYPE_PARAM,
            SEM_FD_HANDLE_TYPE_01136,
            SEM_FD_HANDLE_TYPE_01132
        ])
    );
    assert_eq!(
        export(GetSemaphoreFd, sem, 0),
        sorted(vec![SEM_FD_HANDLE_TYPE_PARAM, SEM_FD_HANDLE_TYPE_01136]),
        "0 is in every handleTypes"
    );
    assert_eq!(
        export(GetSemaphoreFd, live(SyncFacts::created(None)), 0),
        sorted(vec![SEM_FD_HANDLE_TYPE_PARAM, SEM_FD_HANDLE_TYPE_01136]),
        "even without the export structure"
    );
    assert_eq!(
        export(GetSemaphoreWin32Handle, sem, s::SCI_SYNC_OBJ),
        sorted(vec![
            SEM_WIN32_HANDLE_TYPE_PARAM,
            SEM_WIN32_HANDLE_TYPE_01131,
            SEM_WIN32_HANDLE_TYPE_01126
        ])
    );
    assert_eq!(
        export(GetSemaphoreZirconHandle, sem, s::OPAQUE_FD),
        [SEM_ZIRCON_HANDLE_TYPE_04762]
    );
    assert_eq!(
        export(GetFenceFd, exported(f::OPAQUE_FD), f::OPAQUE_WIN32_KMT),
        sorted(vec![FENCE_FD_HANDLE_TYPE_01456, FENCE_FD_HANDLE_TYPE_01453])
    );
    assert_eq!(
        export(GetFenceWin32Handle, exported(f::WIN32), 1 << 4),
        sorted(vec![
            FENCE_WIN32_HANDLE_TYPE_PARAM,
            FENCE_WIN32_HANDLE_TYPE_01452,
            FENCE_WIN32_HANDLE_TYPE_01448
        ])
    );
}

#[test]
fn zircon_events_are_valid_only_with_their_extension() {
    let device = SyncDevice {
        fuchsia_external_semaphore: false,
        ..SyncDevice::ALL
    };
    let call = SyncCall::export(
        SyncCommand::GetSemaphoreZirconHandle,
        exported(s::ZIRCON_EVENT),
        s::ZIRCON_EVENT,
    );
    assert_eq!(
        expected_sync(&device, &call).sorted(),
        sorted(vec![EXTENSION_NOT_ENABLED, SEM_ZIRCON_HANDLE_TYPE_PARAM])
    );
    assert!(
        !expected_sync(&device, &call).blocked,
        "a warning and a value"
    );
}

#[test]
fn the_export_types_are_judged_only_against_a_payload_the_layer_is_sure_of() {
    use SyncCommand::GetSemaphoreFd as Fd;
    let t = s::OPAQUE_FD;
    let with = |payload, export| {
        live(SyncFacts {
            payload,
            ..SyncFacts::created(export)
        })
    };
    let imported = |exportable| {
        Payload::Imported(ImportedPayload {
            handle_type: s::OPAQUE_FD,
            temporary: false,
            exportable,
        })
    };
    assert_eq!(
        export(Fd, with(Payload::Created, None), t),
        [SEM_FD_HANDLE_TYPE_01132]
    );
    assert!(export(Fd, with(Payload::Created, Some(t)), t).is_empty());
    assert!(export(Fd, with(Payload::NotKnown, None), t).is_empty());
    assert!(
        export(Fd, with(imported(None), None), t).is_empty(),
        "not matched"
    );
    assert!(
        export(Fd, with(imported(Some(t)), None), t).is_empty(),
        "the exporter's types count, not the importer's"
    );
    assert_eq!(
        export(Fd, with(imported(Some(s::SYNC_FD)), Some(t)), t),
        [SEM_FD_HANDLE_TYPE_01132]
    );
    let unread = SyncFacts {
        known: false,
        ..SyncFacts::timeline(None)
    };
    assert!(export(Fd, live(unread), t).is_empty(), "no create info");
    assert!(export(Fd, live(unread), s::SYNC_FD).is_empty());
    // A permanent import into it: the payload is certainly the exporter's, whose types count.
    let unread_import = SyncFacts {
        payload: imported(Some(s::SYNC_FD)),
        ..unread
    };
    assert_eq!(
        export(Fd, live(unread_import), t),
        [SEM_FD_HANDLE_TYPE_01132]
    );
}

#[test]
fn a_sync_file_of_nothing_submitted_breaks_both_signal_rules() {
    use SyncCommand::*;
    let unsignaled = |facts: SyncFacts| {
        live(SyncFacts {
            signal: Signal::NothingSubmitted,
            ..facts
        })
    };
    let binary = unsignaled(SyncFacts::created(Some(s::SYNC_FD)));
    assert_eq!(
        export(GetSemaphoreFd, binary, s::SYNC_FD),
        sorted(vec![SEM_FD_HANDLE_TYPE_01135, SEM_FD_HANDLE_TYPE_03254])
    );
    assert!(
        export(GetSemaphoreFd, binary, s::OPAQUE_FD).len() == 1,
        "01132 alone"
    );
    // A timeline semaphore's signal state is not followed; it cannot be exported as a sync file.
    let timeline = unsignaled(SyncFacts::timeline(Some(s::SYNC_FD)));
    assert_eq!(
        export(GetSemaphoreFd, timeline, s::SYNC_FD),
        [SEM_FD_HANDLE_TYPE_03253]
    );
    assert_eq!(
        export(GetSemaphoreWin32Handle, binary, s::SYNC_FD),
        sorted(vec![
            SEM_WIN32_HANDLE_TYPE_01131,
            SEM_WIN32_HANDLE_TYPE_01130
        ])
    );
    assert_eq!(
        export(GetSemaphoreZirconHandle, binary, s::SYNC_FD),
        sorted(vec![
            SEM_ZIRCON_HANDLE_TYPE_04762,
            SEM_ZIRCON_HANDLE_TYPE_04761
        ])
    );
    assert_eq!(
        export(GetSemaphoreZirconHandle, timeline, s::ZIRCON_EVENT),
        sorted(vec![
            SEM_ZIRCON_HANDLE_TYPE_04758,
            SEM_ZIRCON_SEMAPHORE_04763
        ])
    );
    // A fence is followed from an import on, whatever the layer read of its creation.
    let imported_fence = unsignaled(SyncFacts {
        known: false,
        payload: Payload::NotKnown,
        ..SyncFacts::created(None)
    });
    assert_eq!(
        export(GetFenceFd, imported_fence, f::SYNC_FD),
        [FENCE_FD_HANDLE_TYPE_01454]
    );
    let fence = unsignaled(SyncFacts::created(Some(f::FD)));
    assert_eq!(
        export(GetFenceFd, fence, f::SYNC_FD),
        [FENCE_FD_HANDLE_TYPE_01454]
    );
    assert!(export(GetFenceFd, fence, f::OPAQUE_FD).is_empty());
    assert_eq!(
        export(GetFenceWin32Handle, fence, f::SYNC_FD),
        sorted(vec![
            FENCE_WIN32_HANDLE_TYPE_01452,
            FENCE_WIN32_HANDLE_TYPE_01451
        ])
    );
}

#[test]
fn an_nt_handle_of_the_created_payload_is_exported_once() {
    use SyncCommand::*;
    let facts = |nt: u32, payload| {
        live(SyncFacts {
            nt_handles_exported: nt,
            payload,
            ..SyncFacts::created(Some(s::WIN32))
        })
    };
    let once = facts(s::OPAQUE_WIN32, Payload::Created);
    assert_eq!(
        export(GetSemaphoreWin32Handle, once, s::OPAQUE_WIN32),
        [SEM_WIN32_HANDLE_TYPE_01127]
    );
    assert!(export(GetSemaphoreWin32Handle, once, s::D3D12_FENCE).is_empty());
    assert!(export(GetSemaphoreWin32Handle, once, s::OPAQUE_WIN32_KMT).is_empty());
    let imported = facts(s::OPAQUE_WIN32, Payload::NotKnown);
    assert!(export(GetSemaphoreWin32Handle, imported, s::OPAQUE_WIN32).is_empty());
    assert_eq!(
        export(
            GetFenceWin32Handle,
            facts(f::OPAQUE_WIN32, Payload::Created),
            f::OPAQUE_WIN32
        ),
        [FENCE_WIN32_HANDLE_TYPE_01449]
    );
}

#[test]
fn import_members() {
    use SyncCommand::*;
    let none = ImportedHandle::default();
    let sem = exported(0);
    assert_eq!(
        import(ImportSemaphoreFd, sem, 2, s::SYNC_FD, none),
        (
            sorted(vec![
                SEM_IMPORT_FD_FLAGS_PARAM,
                SEM_IMPORT_FD_HANDLE_TYPE_07307
            ]),
            false
        )
    );
    assert_eq!(
        import(ImportSemaphoreFd, sem, 0, 0, none),
        (
            sorted(vec![
                SEM_IMPORT_FD_HANDLE_TYPE_PARAM,
                SEM_IMPORT_FD_HANDLE_TYPE_01143
            ]),
            false
        )
    );
    assert_eq!(
        import(ImportFenceFd, sem, 0, f::SYNC_FD, none),
        (vec![FENCE_IMPORT_FD_HANDLE_TYPE_07306], false)
    );
    assert_eq!(
        import(ImportFenceFd, sem, 1, 0x8000_0000, none),
        (
            sorted(vec![
                FENCE_IMPORT_FD_HANDLE_TYPE_PARAM,
                FENCE_IMPORT_FD_HANDLE_TYPE_01464
            ]),
            false
        )
    );
    assert_eq!(
        import(
            ImportSemaphoreZirconHandle,
            live(SyncFacts::timeline(None)),
            0,
            0,
            none
        ),
        (
            sorted(vec![
                SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
                SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765,
                SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768
            ]),
            false
        )
    );
    let named = ImportedHandle {
        win32_handle: true,
        win32_name: true,
        ..none
    };
    assert_eq!(
        import(
            ImportSemaphoreWin32Handle,
            sem,
            0,
            s::OPAQUE_WIN32_KMT,
            named
        ),
        (
            sorted(vec![
                SEM_IMPORT_WIN32_HANDLE_01469,
                SEM_IMPORT_WIN32_HANDLE_TYPE_01466
            ]),
            false
        )
    );
    assert_eq!(
        import(ImportSemaphoreWin32Handle, sem, 0, 0, none),
        (vec![SEM_IMPORT_WIN32_HANDLE_TYPE_01140], false),
        "no -parameter ID"
    );
    assert_eq!(
        import(ImportFenceWin32Handle, sem, 4, f::SYNC_FD, named),
        (
            sorted(vec![
                FENCE_IMPORT_WIN32_FLAGS_PARAM,
                FENCE_IMPORT_WIN32_HANDLE_TYPE_01457,
                FENCE_IMPORT_WIN32_HANDLE_01462,
                FENCE_IMPORT_WIN32_HANDLE_TYPE_01459
            ]),
            false
        )
    );
}

#[test]
fn an_import_is_judged_against_the_export_it_was_matched_to() {
    use SyncCommand::*;
    let binary = exported(0);
    let timeline = live(SyncFacts::timeline(None));
    let timeline_exporter = Exporter {
        timeline: true,
        ..BINARY_EXPORTER
    };
    let opaque = |object, flags, exporter| {
        import(
            ImportSemaphoreFd,
            object,
            flags,
            s::OPAQUE_FD,
            matched(exporter),
        )
    };
    assert_eq!(opaque(binary, 0, BINARY_EXPORTER), (vec![], false));
    assert_eq!(
        opaque(timeline, 0, BINARY_EXPORTER),
        (vec![SEM_IMPORT_FD_HANDLE_TYPE_03264], true)
    );
    assert_eq!(
        opaque(timeline, 1, BINARY_EXPORTER),
        (vec![SEM_IMPORT_FD_HANDLE_TYPE_03264], true),
        "a known binary exporter: 03264 alone"
    );
    assert_eq!(
        opaque(timeline, 1, timeline_exporter),
        (vec![SEM_IMPORT_FD_FLAGS_03323], true)
    );
    assert_eq!(
        opaque(binary, 1, timeline_exporter),
        (
            sorted(vec![
                SEM_IMPORT_FD_HANDLE_TYPE_03264,
                SEM_IMPORT_FD_FLAGS_03323
            ]),
            true
        )
    );
    let other = Exporter {
        create_flags: 0x10,
        same_device_and_driver: Some(false),
        ..BINARY_EXPORTER
    };
    assert_eq!(
        opaque(binary, 0, other),
        (
            sorted(vec![
                SEM_IMPORT_FD_HANDLE_TYPE_03263,
                SEM_IMPORT_FD_FD_01544
            ]),
            false
        )
    );
    // Unmatched: the importer's type decides 03323, for the opaque types only.
    let none = ImportedHandle::default();
    assert_eq!(
        import(ImportSemaphoreFd, timeline, 1, s::OPAQUE_FD, none),
        (vec![SEM_IMPORT_FD_FLAGS_03323], true)
    );
    assert_eq!(
        import(
            ImportSemaphoreWin32Handle,
            timeline,
            1,
            s::OPAQUE_WIN32,
            none
        ),
        (vec![SEM_IMPORT_WIN32_FLAGS_03322], true)
    );
    assert_eq!(
        import(
            ImportSemaphoreWin32Handle,
            timeline,
            1,
            s::D3D12_FENCE,
            none
        ),
        (vec![], false)
    );
    assert_eq!(
        import(
            ImportSemaphoreWin32Handle,
            timeline,
            0,
            s::OPAQUE_WIN32_KMT,
            matched(BINARY_EXPORTER)
        ),
        (vec![SEM_IMPORT_WIN32_HANDLE_TYPE_03262], true)
    );
    let unread = live(SyncFacts {
        known: false,
        ..SyncFacts::timeline(None)
    });
    assert_eq!(
        opaque(unread, 0, BINARY_EXPORTER),
        (vec![], false),
        "no create info"
    );
    // Another kind's fd, and a fence's opaque fd of another device.
    let another = ImportedHandle {
        another_kind: true,
        ..none
    };
    assert_eq!(
        import(ImportFenceFd, binary, 0, f::OPAQUE_FD, another),
        (vec![FD_OF_ANOTHER_KIND], true)
    );
    assert_eq!(
        import(ImportFenceFd, binary, 1, f::SYNC_FD, another),
        (vec![], false),
        "a sync file is no other kind's"
    );
    assert_eq!(
        import(ImportFenceFd, binary, 0, f::OPAQUE_FD, matched(other)),
        (vec![FENCE_IMPORT_FD_FD_01541], false)
    );
}

/// Every ID the sync model gives is catalogued under the command that reports it (or `*`) and,
/// for a spec ID, in the registry; and the model reaches every ID the catalog lists for these
/// commands but those it leaves out (the module's documentation says why).
#[test]
fn the_sync_model_speaks_the_catalogs_ids_and_reaches_all_of_them() {
    use SyncCommand::*;
    let catalog = exportcheck_vuids::catalog();
    let registry = exportcheck_vuids::registry();
    let mut reached = BTreeSet::new();
    let devices = [SyncDevice::ALL, SyncDevice::default()];
    let mut objects = vec![
        SyncObject::Null,
        SyncObject::Unknown,
        SyncObject::Destroyed,
        SyncObject::OtherDevice,
    ];
    for facts in [
        SyncFacts::created(None),
        SyncFacts::timeline(Some(s::DEFINED)),
        SyncFacts {
            signal: Signal::NothingSubmitted,
            nt_handles_exported: s::NT_HANDLE | f::OPAQUE_WIN32,
            ..SyncFacts::created(Some(0))
        },
    ] {
        objects.push(live(facts));
    }
    let values = [0, 1, 2, 4, 8, 0x10, 0x20, 0x80, 0x3, 0x8000_0000];
    let handles = [
        ImportedHandle::default(),
        ImportedHandle {
            another_kind: true,
            win32_handle: true,
            win32_name: true,
            ..ImportedHandle::default()
        },
        matched(Exporter {
            timeline: true,
            create_flags: 1,
            same_device_and_driver: Some(false),
        }),
    ];
    for device in &devices {
        for command in SyncCommand::ALL {
            let mut calls = if command.is_import() {
                vec![
                    SyncCall::Import {
                        command,
                        info: Info::Null,
                    },
                    SyncCall::Import {
                        command,
                        info: Info::WrongSType,
                    },
                ]
            } else {
                vec![SyncCall::Export {
                    command,
                    info: Info::Null,
                    output_null: false,
                }]
            };
            for object in &objects {
                for t in values {
                    if command.is_import() {
                        for flags in [0, 1, 2] {
                            for handle in handles {
                                calls.push(SyncCall::import(command, *object, flags, t, handle));
                            }
                        }
                    } else {
                        calls.push(SyncCall::export(command, *object, t));
                        calls.push(SyncCall::Export {
                            command,
                            info: Info::Valid(SyncExportInfo {
                                p_next: true,
                                object: *object,
                                handle_type: t,
                            }),
                            output_null: true,
                        });
                        calls.push(SyncCall::Export {
                            command,
                            info: Info::WrongSType,
                            output_null: false,
                        });
                    }
                }
            }
            calls.push(SyncCall::Import {
                command: if command.is_import() {
                    command
                } else {
                    ImportSemaphoreFd
                },
                info: Info::Valid(SyncImportInfo {
                    p_next: true,
                    object: exported(0),
                    flags: 0,
                    handle_type: 1,
                    handle: ImportedHandle::default(),
                }),
            });
            let unknown = unknown_device(command);
            let outcomes = calls
                .iter()
                .map(|call| (call.command(), expected_sync(device, call)))
                .chain([(command, unknown)]);
            for (command, expected) in outcomes {
                let name = command.name();
                for id in expected.ids {
                    let entry = catalog
                        .get(id)
                        .unwrap_or_else(|| panic!("{id} is not in the catalog"));
                    assert!(
                        entry.command == name || entry.command == "*" || shared_id(id),
                        "{id}: catalogued for {}, modelled for {name}",
                        entry.command
                    );
                    if id.starts_with("VUID-") {
                        assert!(registry.contains_key(id), "{id} is not in the registry");
                    }
                    reached.insert(id);
                }
            }
        }
    }
    let names: BTreeSet<&str> = SyncCommand::ALL.iter().map(|c| c.name()).collect();
    for entry in catalog.entries() {
        let id = entry.id.as_str();
        if entry.is_checked() && names.contains(entry.command.as_str()) && !left_out(id) {
            assert!(reached.contains(id), "the sync model never gives {id}");
        }
    }
}

/// The layer's IDs one entry catalogues for several commands (under the first).
fn shared_id(id: &str) -> bool {
    [
        SEMAPHORE_OF_OTHER_DEVICE,
        FENCE_OF_OTHER_DEVICE,
        FD_OF_ANOTHER_KIND,
    ]
    .contains(&id)
}

/// What the sync model leaves out (its module documentation says why): the driver's answers,
/// queue work in flight, the history of another semaphore, the process's file table.
fn left_out(id: &str) -> bool {
    [
        SEM_FD_SEMAPHORE_01133,
        SEM_WIN32_SEMAPHORE_01128,
        SEM_ZIRCON_SEMAPHORE_04759,
        FENCE_FD_FENCE_01455,
        FENCE_WIN32_FENCE_01450,
        IMPORT_SEMAPHORE_FD_SEMAPHORE_01142,
        IMPORT_SEMAPHORE_ZIRCON_SEMAPHORE_04764,
        IMPORT_FENCE_FD_FENCE_01463,
        IMPORT_FENCE_WIN32_FENCE_04448,
        FD_IMPORTED_TWICE,
    ]
    .contains(&id)
}
