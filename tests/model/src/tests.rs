use super::handle_type::*;
use super::*;
use std::collections::BTreeSet;

const SIZE: u64 = 65536;

/// A device with every export command's extension and the RDMA feature; memory type 0 is plain,
/// type 1 RDMA-capable.
fn full() -> Device {
    Device {
        // The first seven: the export commands' and those they need.
        extensions: Extensions::of(&Extension::ALL[..7]),
        version_1_1: true,
        rdma_feature: true,
        memory_types: vec![0x1, 0x1 | MEMORY_PROPERTY_RDMA_CAPABLE],
        protected_memory: false,
        device_coherent_memory: false,
    }
}

fn exported(export: u32) -> Memory {
    Memory::Live(Allocation::new(SIZE, 0, Some(export), None))
}

fn ids(device: &Device, call: Call) -> (Vec<&'static str>, bool) {
    let e = expected(device, &call);
    (e.ids, e.blocked)
}

#[test]
fn valid_handle_types_are_the_core_bits_and_those_of_enabled_extensions() {
    let bare = Device::default();
    assert_eq!(bare.valid_handle_types(), CORE);
    assert_eq!(
        full().valid_handle_types(),
        CORE | DMA_BUF | RDMA_ADDRESS | METAL
    );
    let every = Device {
        extensions: Extensions::from_flags([true; 13]),
        ..Device::default()
    };
    assert_eq!(
        every.valid_handle_types(),
        DEFINED,
        "SCI_BUF is never valid"
    );
    assert!(Extensions::from_flags([true; 13]).contains(Extension::OhosExternalMemory));
    assert!(!Extensions::of(&[Extension::KhrExternalMemory])
        .with(Extension::ExtExternalMemoryMetal)
        .without(Extension::ExtExternalMemoryMetal)
        .contains(Extension::ExtExternalMemoryMetal));
}

#[test]
fn a_valid_export_of_each_command_is_silent() {
    let d = full();
    let rdma_memory = Memory::Live(Allocation::new(SIZE, 1, Some(RDMA_ADDRESS), None));
    let nv_memory = Memory::Live(Allocation::new(SIZE, 0, None, Some(NV_OPAQUE_WIN32)));
    for call in [
        Call::with_memory(Command::GetMemoryFd, exported(OPAQUE_FD), OPAQUE_FD),
        Call::with_memory(Command::GetMemoryFd, exported(FD), DMA_BUF),
        Call::with_memory(Command::GetMemoryRemoteAddress, rdma_memory, RDMA_ADDRESS),
        Call::with_memory(Command::GetMemoryMetalHandle, exported(METAL), MTLHEAP),
        Call::with_memory(Command::GetMemoryWin32Handle, nv_memory, NV_OPAQUE_WIN32),
        Call::allocate(Allocation::new(SIZE, 0, Some(OPAQUE_FD), None)),
        Call::allocate(Allocation::new(SIZE, 0, None, Some(NV_DEFINED))),
        Call::with_memory(Command::FreeMemory, exported(OPAQUE_FD), 0),
        Call::with_memory(Command::FreeMemory, Memory::Null, 0),
    ] {
        assert_eq!(expected(&d, &call), Expected::default(), "{call:?}");
    }
}

#[test]
fn bad_pointers_and_handles_block_and_hide_what_is_behind_them() {
    let d = full();
    let fd = Command::GetMemoryFd;
    let null_info = Call::Export {
        command: fd,
        info: Info::Null,
        output_null: true,
    };
    assert_eq!(
        ids(&d, null_info),
        (vec![FD_PFD_PARAM, FD_INFO_PARAM], true)
    );
    let wrong = Call::Export {
        command: Command::GetMemoryMetalHandle,
        info: Info::WrongSType,
        output_null: false,
    };
    assert_eq!(ids(&d, wrong), (vec![METAL_STYPE], true));
    // Bad memory hides the value rules, but not pNext.
    let info = ExportInfo {
        p_next: true,
        memory: Memory::Unknown,
        handle_type: 1 << 13,
    };
    let call = Call::Export {
        command: Command::GetMemoryRemoteAddress,
        info: Info::Valid(info),
        output_null: false,
    };
    assert_eq!(ids(&d, call), (vec![RDMA_PNEXT, RDMA_MEMORY_PARAM], true));
    for (memory, id) in [
        (Memory::Null, FD_MEMORY_PARAM),
        (Memory::Freed, FD_MEMORY_PARAM),
        (Memory::OtherDevice, MEMORY_OF_OTHER_DEVICE),
    ] {
        assert_eq!(ids(&d, Call::with_memory(fd, memory, 0)), (vec![id], true));
    }
    let win32 = Command::GetMemoryWin32Handle;
    assert_eq!(
        ids(&d, Call::with_memory(win32, Memory::OtherDevice, 0)),
        (vec![WIN32_MEMORY_PARENT], true)
    );
    // A NULL output does not hide the value rules.
    let call = Call::with_memory(win32, exported(OPAQUE_FD), 0).with_null_output();
    assert_eq!(
        ids(&d, call),
        (
            vec![
                WIN32_PHANDLE_PARAM,
                WIN32_HANDLE_TYPE_REQUIRED,
                WIN32_HANDLE_TYPE_01326
            ],
            true
        )
    );
    for command in Command::ALL {
        assert_eq!(
            Expected::unknown_device(command),
            Expected {
                ids: vec![command.ids().device],
                blocked: true
            }
        );
    }
}

#[test]
fn an_invalid_handle_type_gets_every_rule_it_breaks() {
    let d = full();
    let fd = |memory, bits| ids(&d, Call::with_memory(Command::GetMemoryFd, memory, bits)).0;
    assert_eq!(
        fd(exported(OPAQUE_FD), 0),
        [FD_HANDLE_TYPE_PARAM, FD_HANDLE_TYPE_00672]
    );
    assert_eq!(
        fd(exported(OPAQUE_FD), OPAQUE_FD | OPAQUE_WIN32),
        [
            FD_HANDLE_TYPE_PARAM,
            FD_HANDLE_TYPE_00672,
            FD_HANDLE_TYPE_00671
        ]
    );
    assert_eq!(fd(exported(OPAQUE_FD), DMA_BUF), [FD_HANDLE_TYPE_00671]);
    assert_eq!(
        fd(Memory::Live(Allocation::default()), OPAQUE_FD),
        [FD_HANDLE_TYPE_00671]
    );
    // DMA_BUF without its extension is no valid value.
    let no_dma_buf = Device {
        extensions: Extensions::of(&[Extension::KhrExternalMemoryFd]),
        ..full()
    };
    assert_eq!(
        ids(
            &no_dma_buf,
            Call::with_memory(Command::GetMemoryFd, exported(FD), DMA_BUF)
        )
        .0,
        [FD_HANDLE_TYPE_PARAM]
    );

    let metal = |memory, bits| {
        ids(
            &d,
            Call::with_memory(Command::GetMemoryMetalHandle, memory, bits),
        )
        .0
    };
    assert_eq!(
        metal(Memory::Live(Allocation::default()), OPAQUE_FD),
        [METAL_MEMORY_10413, METAL_HANDLE_TYPE_10415],
        "10413 says it for 10414"
    );
    assert_eq!(
        metal(exported(METAL), 1 << 19),
        [
            METAL_HANDLE_TYPE_PARAM,
            METAL_HANDLE_TYPE_10415,
            METAL_HANDLE_TYPE_10414
        ]
    );

    // RDMA: the layer's warnings come first, from the device and the memory type.
    let plain_type = Memory::Live(Allocation::new(SIZE, 0, Some(RDMA_ADDRESS), None));
    let without_feature = Device {
        rdma_feature: false,
        ..full()
    };
    assert_eq!(
        ids(
            &without_feature,
            Call::with_memory(Command::GetMemoryRemoteAddress, plain_type, 1 << 13)
        )
        .0,
        [
            RDMA_FEATURE_NOT_ENABLED,
            RDMA_TYPE_NOT_CAPABLE,
            RDMA_HANDLE_TYPE_PARAM,
            RDMA_HANDLE_TYPE_04966
        ]
    );

    // Win32 NV: the KHR export structure does not count.
    let win32 = |memory, bits| {
        ids(
            &d,
            Call::with_memory(Command::GetMemoryWin32Handle, memory, bits),
        )
        .0
    };
    assert_eq!(
        win32(exported(OPAQUE_WIN32), NV_OPAQUE_WIN32),
        [WIN32_HANDLE_TYPE_01326]
    );
    let nv = Memory::Live(Allocation::new(SIZE, 0, None, Some(0x100)));
    assert_eq!(win32(nv, 0x100), [WIN32_HANDLE_TYPE_PARAM]);
    let nv = Memory::Live(Allocation::new(SIZE, 0, None, Some(NV_DEFINED)));
    assert_eq!(win32(nv, 0x3), [WIN32_MULTIPLE_BITS]);
}

#[test]
fn a_call_on_a_device_without_the_extension_is_a_warning_and_its_bits_are_invalid() {
    let d = full();
    let without = |e| Device {
        extensions: d.extensions.without(e),
        ..d.clone()
    };
    let rdma = Memory::Live(Allocation::new(SIZE, 1, Some(RDMA_ADDRESS), None));
    assert_eq!(
        ids(
            &without(Extension::NvExternalMemoryRdma),
            Call::with_memory(Command::GetMemoryRemoteAddress, rdma, RDMA_ADDRESS)
        ),
        (vec![EXTENSION_NOT_ENABLED, RDMA_HANDLE_TYPE_PARAM], false)
    );
    assert_eq!(
        ids(
            &without(Extension::KhrExternalMemoryFd),
            Call::with_memory(Command::GetMemoryFd, exported(OPAQUE_FD), OPAQUE_FD)
        ),
        (vec![EXTENSION_NOT_ENABLED], false)
    );
    assert_eq!(
        ids(
            &without(Extension::ExtExternalMemoryMetal),
            Call::allocate(Allocation::new(SIZE, 0, Some(MTLBUFFER), None))
        ),
        (vec![EXPORT_HANDLE_TYPES_PARAM], false)
    );
}

#[test]
fn allocation_rules() {
    let d = full();
    let alloc = |device: &Device, info: AllocateInfo| {
        ids(
            device,
            Call::Allocate {
                info: Info::Valid(info),
                output_null: false,
            },
        )
    };
    let fd = Allocation::new(SIZE, 0, Some(OPAQUE_FD), None);
    let cycle = AllocateInfo {
        end: ChainEnd::Cycle,
        ..AllocateInfo::of(fd)
    };
    assert_eq!(alloc(&d, cycle), (vec![ALLOC_STYPE_UNIQUE], true));
    let twice = AllocateInfo {
        repeated: true,
        ..AllocateInfo::of(fd)
    };
    assert_eq!(alloc(&d, twice), (vec![ALLOC_STYPE_UNIQUE], false));
    let long = AllocateInfo {
        end: ChainEnd::TooLong,
        ..AllocateInfo::of(fd)
    };
    assert_eq!(alloc(&d, long), (vec![PNEXT_CHAIN_TOO_LONG], false));
    // Vulkan 1.0 without VK_KHR_external_memory, and with neither NV extension: each structure
    // is pNext-pNext; the KHR and NV structures together are 00640; undefined NV bits.
    let bare = Device::default();
    let both = Allocation {
        export_win32_nv: true,
        ..Allocation::new(SIZE, 0, Some(OPAQUE_FD), Some(0x10))
    };
    assert_eq!(
        alloc(&bare, AllocateInfo::of(both)),
        (
            vec![
                ALLOC_PNEXT_00640,
                ALLOC_PNEXT_PNEXT,
                ALLOC_PNEXT_PNEXT,
                ALLOC_PNEXT_PNEXT,
                EXPORT_NV_HANDLE_TYPES_PARAM
            ],
            false
        )
    );
    // An export of size 0 (but not an Android hardware buffer), and undefined bits.
    let empty = Allocation::new(0, 0, Some(OPAQUE_FD | 1 << 13), None);
    assert_eq!(
        alloc(&d, AllocateInfo::of(empty)),
        (vec![EXPORT_HANDLE_TYPES_PARAM, ALLOC_SIZE_07899], false)
    );
    // An export structure without handle types exports nothing: 0 bytes of plain memory (07897).
    let no_types = Allocation::new(0, 0, Some(0), None);
    assert_eq!(
        alloc(&d, AllocateInfo::of(no_types)),
        (vec![ALLOC_SIZE_07897], false)
    );
    // A protected and device-coherent type without the features: 01872 and 02790; with them,
    // nothing.
    let special = Device {
        memory_types: vec![
            0x1,
            MEMORY_PROPERTY_PROTECTED | MEMORY_PROPERTY_DEVICE_COHERENT_AMD,
        ],
        ..d.clone()
    };
    let in_type_1 = Allocation::new(SIZE, 1, None, None);
    assert_eq!(
        alloc(&special, AllocateInfo::of(in_type_1)),
        (
            vec![ALLOC_TYPE_INDEX_01872, ALLOC_DEVICE_COHERENT_02790],
            false
        )
    );
    let enabled = Device {
        protected_memory: true,
        device_coherent_memory: true,
        ..special
    };
    assert_eq!(
        alloc(&enabled, AllocateInfo::of(in_type_1)),
        (vec![], false)
    );
    // NULL pointers and a wrong sType: nothing behind them is read.
    let null = Call::Allocate {
        info: Info::Null,
        output_null: true,
    };
    assert_eq!(
        ids(&d, null),
        (vec![ALLOC_PMEMORY_PARAM, ALLOC_INFO_PARAM], true)
    );
    let free = |memory| ids(&d, Call::Free { memory });
    assert_eq!(free(Memory::Freed), (vec![FREE_MEMORY_PARAM], true));
    assert_eq!(free(Memory::OtherDevice), (vec![FREE_MEMORY_PARENT], true));
}

#[test]
fn driver_contract() {
    use driver::{fd, pointer, FdProbe};
    let probe = |open, cloexec, open_before_call| {
        Some(FdProbe {
            open,
            cloexec,
            open_before_call,
        })
    };
    assert_eq!(fd(-1, None), [DRIVER_INVALID_FD]);
    assert_eq!(
        fd(5, probe(Some(false), Some(false), true)),
        [DRIVER_INVALID_FD]
    );
    assert_eq!(
        fd(5, probe(Some(true), Some(false), true)),
        [DRIVER_FD_NOT_NEW, DRIVER_FD_NOT_CLOEXEC]
    );
    assert!(fd(5, probe(None, None, false)).is_empty());
    assert!(fd(5, None).is_empty());
    assert_eq!(
        pointer(Command::GetMemoryMetalHandle, 0),
        [DRIVER_NULL_METAL_HANDLE]
    );
    assert!(pointer(Command::GetMemoryRemoteAddress, 1).is_empty());
    assert_eq!(
        pointer(Command::GetMemoryZirconHandle, 0),
        [DRIVER_INVALID_ZIRCON_HANDLE]
    );
    assert!(pointer(Command::GetMemoryAndroidHardwareBuffer, 0x40).is_empty());
}

/// Every ID the model gives, over a sweep of devices, memory and arguments, is in the catalog
/// under the command that reports it (or `*`), and every spec ID in the registry of 1.4.360; and
/// the model reaches every ID the catalog lists for these commands, but those judged elsewhere
/// (against a buffer or image, at a leak, on a layer defect) and the unit-only ones.
#[test]
fn the_model_speaks_the_catalogs_ids_and_reaches_all_of_them() {
    let catalog = exportcheck_vuids::catalog();
    let registry = exportcheck_vuids::registry();
    let mut reached = BTreeSet::new();
    let mut check = |device: &Device, call: Call| {
        let command = call.command().name();
        for id in expected(device, &call).ids {
            let entry = catalog
                .get(id)
                .unwrap_or_else(|| panic!("{id} is not in the catalog"));
            assert!(
                entry.command == command || entry.command == "*",
                "{id}: catalogued for {}, modelled for {command}",
                entry.command
            );
            if id.starts_with("VUID-") {
                assert!(registry.contains_key(id), "{id} is not in the registry");
            }
            reached.insert(id);
        }
    };
    let devices = [
        full(),
        Device::default(),
        Device {
            rdma_feature: false,
            ..full()
        },
        Device {
            memory_types: vec![
                0x1,
                MEMORY_PROPERTY_PROTECTED | MEMORY_PROPERTY_DEVICE_COHERENT_AMD,
            ],
            ..full()
        },
    ];
    let allocations = [
        Allocation::default(),
        Allocation::new(SIZE, 1, Some(OPAQUE_FD | RDMA_ADDRESS | MTLBUFFER), None),
        Allocation::new(SIZE, 0, Some(OPAQUE_WIN32), None),
        Allocation::new(SIZE, 0, Some(ZIRCON_VMO), None),
        Allocation::new(0, 0, Some(ANDROID_HARDWARE_BUFFER), None),
        Allocation {
            export_win32_khr: true,
            ..Allocation::new(SIZE, 0, Some(OPAQUE_FD), None)
        },
        Allocation::new(0, 0, Some(1 << 13), Some(0x13)),
        Allocation {
            export_win32_nv: true,
            ..Allocation::new(SIZE, 0, Some(0), None)
        },
        // A memory type the device does not have (01714).
        Allocation::new(SIZE, 7, None, None),
        Allocation {
            dedicated: true,
            ..Allocation::new(SIZE, 0, None, None)
        },
        Allocation {
            dedicated: true,
            dedicated_image: true,
            ..Allocation::new(SIZE, 0, Some(ANDROID_HARDWARE_BUFFER), None)
        },
    ];
    let mut memories = vec![
        Memory::Null,
        Memory::Unknown,
        Memory::Freed,
        Memory::OtherDevice,
    ];
    memories.extend(allocations.map(Memory::Live));
    let values = [
        0,
        1,
        2,
        3,
        1 << 9,
        1 << 11,
        1 << 12,
        1 << 13,
        1 << 16,
        0x100,
    ];
    for d in &devices {
        for &memory in &memories {
            for handle_type in values {
                for output_null in [false, true] {
                    for p_next in [false, true] {
                        for command in [
                            Command::GetMemoryFd,
                            Command::GetMemoryRemoteAddress,
                            Command::GetMemoryMetalHandle,
                            Command::GetMemoryWin32HandleKhr,
                            Command::GetMemoryZirconHandle,
                            Command::GetMemoryAndroidHardwareBuffer,
                        ] {
                            for info in [
                                Info::Null,
                                Info::WrongSType,
                                Info::Valid(ExportInfo {
                                    p_next,
                                    memory,
                                    handle_type,
                                }),
                            ] {
                                check(
                                    d,
                                    Call::Export {
                                        command,
                                        info,
                                        output_null,
                                    },
                                );
                            }
                        }
                    }
                    check(
                        d,
                        Call::Win32Handle {
                            memory,
                            handle_type,
                            output_null,
                        },
                    );
                }
            }
            check(d, Call::Free { memory });
        }
        let imports = [
            Imports::NONE,
            Imports::fd(OPAQUE_FD, 3, true),
            Imports::fd(OPAQUE_FD | DMA_BUF, -1, false),
            Imports::fd(OPAQUE_WIN32, 3, false),
            Imports {
                operations: 2,
                ..Imports::fd(0, 3, true)
            },
            Imports {
                win32: Some(Win32Import {
                    handle_type: OPAQUE_FD,
                    handle: true,
                    name: true,
                }),
                win32_nv: Some((0b11, false)),
                ..Imports::NONE
            },
            Imports {
                win32: Some(Win32Import {
                    handle_type: OPAQUE_WIN32 | OPAQUE_WIN32_KMT,
                    handle: false,
                    name: false,
                }),
                win32_nv: Some((1 << 9, true)),
                ..Imports::NONE
            },
            Imports {
                zircon: Some((ZIRCON_VMO | OPAQUE_FD, 0)),
                metal: Some(MetalImport {
                    handle_type: OPAQUE_FD,
                    handle: false,
                    dedicated_image: false,
                }),
                android: true,
                ..Imports::NONE
            },
            Imports {
                zircon: Some((ZIRCON_VMO, 5)),
                metal: Some(MetalImport {
                    handle_type: MTLTEXTURE,
                    handle: true,
                    dedicated_image: false,
                }),
                ..Imports::NONE
            },
            Imports {
                metal: Some(MetalImport {
                    handle_type: MTLTEXTURE,
                    handle: true,
                    dedicated_image: true,
                }),
                ..Imports::NONE
            },
            host(HOST_ALLOCATION, 0x1000),
            Imports {
                host: Some(HostImport {
                    handle_type: OPAQUE_FD,
                    pointer: 0x1010,
                    alignment: Some(0x1000),
                    dedicated_nv: true,
                }),
                ..Imports::NONE
            },
            Imports {
                host: Some(HostImport {
                    handle_type: HOST_MAPPED_FOREIGN_MEMORY,
                    pointer: 0x30000,
                    alignment: Some(0x30000),
                    dedicated_nv: true,
                }),
                ..Imports::NONE
            },
        ];
        for (allocation, imports) in allocations
            .into_iter()
            .flat_map(|a| imports.map(|i| (a, i)))
        {
            for end in [ChainEnd::Complete, ChainEnd::Cycle, ChainEnd::TooLong] {
                for info in [
                    Info::Null,
                    Info::WrongSType,
                    Info::Valid(AllocateInfo {
                        allocation,
                        end,
                        repeated: false,
                        imports,
                    }),
                ] {
                    check(
                        d,
                        Call::Allocate {
                            info,
                            output_null: true,
                        },
                    );
                }
            }
        }
    }
    for command in Command::ALL {
        reached.insert(Expected::unknown_device(command).ids[0]);
    }
    for query in Query::ALL {
        reached.insert(Expected::unknown_query_device(query).ids[0]);
        for d in &devices {
            for call in query_sweep(query) {
                for id in expected_query(d, &call).ids {
                    let entry = catalog
                        .get(id)
                        .unwrap_or_else(|| panic!("{id} is not in the catalog"));
                    assert!(
                        entry.command == query.name() || entry.command == "*",
                        "{id}: catalogued for {}, modelled for {}",
                        entry.command,
                        query.name()
                    );
                    if id.starts_with("VUID-") {
                        assert!(registry.contains_key(id), "{id} is not in the registry");
                    }
                    reached.insert(id);
                }
            }
        }
    }
    for binding in bind_sweep() {
        for id in expected_bind(&binding).ids {
            let entry = catalog
                .get(id)
                .unwrap_or_else(|| panic!("{id} is not in the catalog"));
            assert_eq!(entry.command, binding.bind.name(), "{id}");
            assert!(registry.contains_key(id), "{id} is not in the registry");
            reached.insert(id);
        }
    }
    // Depend on earlier calls: `win32_exported_before`, tested below; 01883 (the dedicated image
    // bound to the memory first) is judged end to end (tests/tests/test_driver_android_*.rs).
    reached.insert(WIN32_KHR_HANDLE_TYPE_00663);
    reached.insert(AHB_PNEXT_01883);
    let elsewhere = [
        // Against an export the layer saw (tracked fds and global share handles, not the call
        // alone).
        ALLOC_SIZE_01742,
        ALLOC_SIZE_01743,
        DEDICATED_IMAGE_01876,
        DEDICATED_BUFFER_01877,
        IMPORT_FD_00668,
        IMPORT_FD_01746,
        IMPORT_FD_01520,
        ALLOC_NONE_00643,
        ALLOC_NONE_00644,
        // Against the driver's answer for the imported host pointer or Zircon VMO.
        ALLOC_TYPE_INDEX_01744,
        ALLOC_NONE_04749,
        FD_IMPORTED_TWICE,
        FD_CLOSED_AFTER_IMPORT,
        // The shared directory of cross-process checking (tests/tests/cross_process.rs).
        SHARED_EXPORTS_IGNORED,
        // What the kernel allows (kcmp refused under a seccomp filter: cross_process.rs,
        // import_against_export.rs).
        KCMP_REFUSED,
        // Against the buffer or image the allocation is dedicated to.
        DEDICATED_IMAGE_01432,
        DEDICATED_IMAGE_01434,
        DEDICATED_IMAGE_01797,
        DEDICATED_BUFFER_01436,
        DEDICATED_IMAGE_01878,
        DEDICATED_BUFFER_01879,
        DEDICATED_IMAGE_PARAM,
        DEDICATED_BUFFER_PARAM,
        DEDICATED_COMMONPARENT,
        DEDICATED_IMAGE_02964,
        DEDICATED_BUFFER_02965,
        ALLOC_PNEXT_07901,
        // Against the driver's answer for the imported Android hardware buffer.
        ALLOC_SIZE_02383,
        ALLOC_TYPE_INDEX_02385,
        ALLOC_PNEXT_02387,
        // Against the driver's answer for the buffer or image the memory is for.
        EXPORT_HANDLE_TYPES_09860,
        ALLOC_PNEXT_00639,
        IMPORT_FD_HANDLE_TYPE_09862,
        IMPORT_WIN32_HANDLE_TYPE_09861,
        EXPORTED_FD_LEAKED,
        INTERNAL_ERROR,
    ];
    let not_modelled_yet = |id: &str| {
        [
            // The capture address is not in the model (alloc_capture_address.rs).
            "VUID-VkMemoryAllocateInfo-pNext-03332",
            // The heap sizes are not in the model (alloc_limits.rs, memory_limits.rs).
            ALLOC_SIZE_01713,
            // Nor the heap flags, the address flags, the capture address, the device's
            // queues or its live allocations (alloc_features.rs, alloc_capture_address.rs,
            // alloc_count.rs, tests/tests/memory_features.rs).
            "VUID-vkAllocateMemory-tileMemoryHeap-10976",
            "VUID-VkMemoryAllocateInfo-flags-03330",
            "VUID-VkMemoryAllocateInfo-flags-03331",
            "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329",
            "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333",
            "VUID-vkAllocateMemory-device-queuecount",
            "VUID-vkAllocateMemory-maxMemoryAllocationCount-04101",
        ]
        .contains(&id)
    };
    let commands: Vec<&str> = Command::ALL
        .iter()
        .map(|c| c.name())
        .chain(Query::ALL.iter().map(|q| q.name()))
        .chain(Bind::ALL.iter().map(|b| b.name()))
        .collect();
    for entry in catalog.entries() {
        let id = entry.id.as_str();
        let ours = commands.contains(&entry.command.as_str()) || entry.command == "*";
        let unit_only = entry.e2e == exportcheck_vuids::E2e::UnitOnly;
        if entry.is_checked()
            && ours
            && !unit_only
            && !elsewhere.contains(&id)
            && !not_modelled_yet(id)
            && !id.starts_with("EXPORTCHECK-driver-")
        {
            assert!(reached.contains(id), "the model never gives {id}");
        }
    }
}

#[test]
fn only_a_repeated_nt_handle_export_is_00663() {
    use super::handle_type::*;
    assert!(win32_exported_before(OPAQUE_WIN32, OPAQUE_WIN32));
    assert!(win32_exported_before(
        D3D12_RESOURCE,
        D3D12_RESOURCE | OPAQUE_WIN32
    ));
    assert!(!win32_exported_before(OPAQUE_WIN32, D3D12_HEAP));
    assert!(!win32_exported_before(OPAQUE_WIN32_KMT, OPAQUE_WIN32_KMT));
    assert!(!win32_exported_before(
        OPAQUE_WIN32 | D3D12_HEAP,
        OPAQUE_WIN32 | D3D12_HEAP
    ));
}

#[test]
fn fd_imports_and_import_operations() {
    let d = full();
    let ids = |imports| {
        let call = Call::Allocate {
            info: Info::Valid(AllocateInfo {
                imports,
                ..AllocateInfo::of(Allocation::new(SIZE, 0, None, None))
            }),
            output_null: false,
        };
        expected(&d, &call).ids
    };
    assert!(ids(Imports::fd(OPAQUE_FD, 3, true)).is_empty());
    assert!(
        ids(Imports::fd(0, -1, false)).is_empty(),
        "handleType 0 is ignored"
    );
    assert_eq!(
        ids(Imports::fd(OPAQUE_WIN32, 3, true)),
        [IMPORT_FD_HANDLE_TYPE_00669]
    );
    assert_eq!(
        ids(Imports::fd(OPAQUE_FD | DMA_BUF, -1, false)),
        [
            IMPORT_FD_HANDLE_TYPE_PARAM,
            IMPORT_FD_HANDLE_TYPE_00669,
            IMPORT_FD_HANDLE_TYPE_00670
        ]
    );
    let two = Imports {
        operations: 2,
        ..Imports::fd(DMA_BUF, 3, true)
    };
    assert_eq!(ids(two), [ALLOC_NONE_06657]);
    // DMA_BUF without VK_EXT_external_memory_dma_buf: an fd type, but no valid value there; and
    // a device without VK_KHR_external_memory_fd may not be given the structure at all.
    assert_eq!(
        expected(
            &Device::default(),
            &Call::Allocate {
                info: Info::Valid(AllocateInfo {
                    imports: Imports::fd(DMA_BUF, 3, true),
                    ..AllocateInfo::of(Allocation::default())
                }),
                output_null: false,
            }
        )
        .ids,
        [ALLOC_PNEXT_PNEXT, IMPORT_FD_HANDLE_TYPE_PARAM]
    );
}

#[test]
fn win32_imports_type_and_null_rules() {
    let d = Device {
        extensions: Extensions::of(&Extension::ALL),
        ..full()
    };
    let ids = |win32: Option<Win32Import>, win32_nv| {
        let call = Call::Allocate {
            info: Info::Valid(AllocateInfo {
                imports: Imports {
                    win32,
                    win32_nv,
                    ..Imports::NONE
                },
                ..AllocateInfo::of(Allocation::new(SIZE, 0, None, None))
            }),
            output_null: false,
        };
        expected(&d, &call).ids
    };
    let khr = |handle_type, handle, name| {
        Some(Win32Import {
            handle_type,
            handle,
            name,
        })
    };
    assert!(ids(khr(OPAQUE_WIN32, true, false), None).is_empty());
    assert!(ids(khr(OPAQUE_WIN32, false, true), None).is_empty());
    assert!(ids(khr(0, false, false), None).is_empty());
    assert!(ids(None, Some((0, false))).is_empty());
    assert_eq!(
        ids(khr(OPAQUE_WIN32_KMT, false, true), None),
        [IMPORT_WIN32_HANDLE_TYPE_01439]
    );
    assert_eq!(ids(khr(0, true, true), None), [IMPORT_WIN32_HANDLE_01441]);
    assert_eq!(
        ids(khr(OPAQUE_WIN32, false, false), None),
        [
            IMPORT_WIN32_HANDLE_TYPE_00661,
            IMPORT_WIN32_HANDLE_TYPE_01440
        ]
    );
    assert_eq!(
        ids(khr(OPAQUE_WIN32, true, false), Some((1, true))),
        [ALLOC_PNEXT_00641]
    );
    assert_eq!(ids(None, Some((1, false))), [IMPORT_WIN32_NV_HANDLE_01328]);
}

#[test]
fn zircon_and_metal_imports() {
    let all = Device {
        extensions: Extensions::of(&Extension::ALL),
        ..full()
    };
    let ids = |d: &Device, size, imports| {
        let call = Call::Allocate {
            info: Info::Valid(AllocateInfo {
                imports,
                ..AllocateInfo::of(Allocation::new(size, 0, None, None))
            }),
            output_null: false,
        };
        expected(d, &call).ids
    };
    let zircon = |t, handle| Imports {
        zircon: Some((t, handle)),
        ..Imports::NONE
    };
    let metal = |handle_type, handle, dedicated_image| Imports {
        metal: Some(MetalImport {
            handle_type,
            handle,
            dedicated_image,
        }),
        ..Imports::NONE
    };
    assert!(ids(&all, SIZE, zircon(ZIRCON_VMO, 3)).is_empty());
    assert!(ids(&all, 0, zircon(0, 0)).is_empty());
    assert_eq!(
        ids(&all, 0, zircon(ZIRCON_VMO, 0)),
        [IMPORT_ZIRCON_HANDLE_04772, ALLOC_SIZE_07902]
    );
    assert_eq!(
        ids(&all, SIZE, zircon(OPAQUE_FD, 3)),
        [IMPORT_ZIRCON_HANDLE_TYPE_04771]
    );
    assert!(ids(&all, SIZE, metal(MTLBUFFER, true, false)).is_empty());
    assert!(ids(&all, 0, metal(MTLTEXTURE, true, true)).is_empty());
    assert_eq!(
        ids(&all, SIZE, metal(MTLTEXTURE, true, true)),
        [ALLOC_PNEXT_10397]
    );
    assert_eq!(
        ids(&all, 0, metal(MTLTEXTURE, false, false)),
        [IMPORT_METAL_HANDLE_TYPE_10411, ALLOC_PNEXT_10395]
    );
    // Without VK_EXT_external_memory_metal: pNext-pNext, and the type is no valid value.
    let without = Device {
        extensions: Extensions::of(&Extension::ALL[..6]),
        ..full()
    };
    assert_eq!(
        ids(&without, SIZE, metal(MTLBUFFER, true, false)),
        [ALLOC_PNEXT_PNEXT, IMPORT_METAL_HANDLE_TYPE_PARAM]
    );
}

/// Calls of `query` over handle types, handles, fd states, alignments and output structures.
fn query_sweep(query: Query) -> Vec<QueryCall> {
    let mut calls = Vec::new();
    let outputs = [
        Output::Null,
        Output::WrongSType,
        Output::Valid {
            p_next: false,
            loops: false,
        },
        Output::Valid {
            p_next: true,
            loops: false,
        },
        Output::Valid {
            p_next: true,
            loops: true,
        },
    ];
    for handle_type in [
        0,
        OPAQUE_FD,
        DMA_BUF,
        OPAQUE_WIN32,
        OPAQUE_WIN32_KMT,
        D3D11_TEXTURE,
        HOST_ALLOCATION,
        HOST_MAPPED_FOREIGN_MEMORY,
        ZIRCON_VMO,
        MTLBUFFER,
        MTLHEAP,
        OPAQUE_FD | DMA_BUF,
        1 << 13,
    ] {
        for handle in [0, -1, 3, 0x1000, 0x1001] {
            for fd_open in [None, Some(false), Some(true)] {
                for host_pointer_alignment in [None, Some(0x1000)] {
                    for output in outputs {
                        calls.push(QueryCall {
                            query,
                            handle_type,
                            handle,
                            fd_open,
                            host_pointer_alignment,
                            output,
                        });
                    }
                }
            }
        }
    }
    calls
}

/// A device with every extension.
fn every_extension() -> Device {
    Device {
        extensions: Extensions::of(&Extension::ALL),
        ..full()
    }
}

#[test]
fn a_valid_query_of_each_kind_is_silent() {
    let d = every_extension();
    for (query, handle_type, handle) in [
        (Query::FdProperties, DMA_BUF, 3),
        (Query::HostPointerProperties, HOST_ALLOCATION, 0x1000),
        (
            Query::HostPointerProperties,
            HOST_MAPPED_FOREIGN_MEMORY,
            0x2000,
        ),
        (Query::MetalHandleProperties, MTLTEXTURE, 0x40),
        (Query::Win32HandleProperties, D3D12_RESOURCE, 0x40),
        (Query::ZirconHandleProperties, ZIRCON_VMO, 7),
        (Query::AndroidHardwareBufferProperties, 0, 0x40),
    ] {
        let call = QueryCall {
            host_pointer_alignment: Some(0x1000),
            ..QueryCall::new(query, handle_type, handle)
        };
        assert!(expected_query(&d, &call).is_silent(), "{call:?}");
    }
    // The Android query has no handleType: any value is not read.
    let call = QueryCall::new(Query::AndroidHardwareBufferProperties, 1 << 13, 0x40);
    assert!(expected_query(&d, &call).is_silent());
    // Its output structure is extended: a chain that ends is the driver's to fill.
    let call = QueryCall {
        output: Output::Valid {
            p_next: true,
            loops: false,
        },
        ..call
    };
    assert!(expected_query(&d, &call).is_silent());
}

#[test]
fn query_handle_and_type_rules() {
    let d = every_extension();
    let ids = |call: QueryCall| {
        let e = expected_query(&d, &call);
        (e.ids, e.blocked)
    };
    assert_eq!(
        ids(QueryCall::new(Query::FdProperties, OPAQUE_FD, -1)),
        (vec![FD_PROPS_HANDLE_TYPE_00674, FD_PROPS_FD_00673], true)
    );
    assert_eq!(
        ids(QueryCall {
            fd_open: Some(false),
            ..QueryCall::new(Query::FdProperties, DMA_BUF, 9)
        }),
        (vec![FD_PROPS_FD_00673], true)
    );
    assert_eq!(
        ids(QueryCall {
            fd_open: None,
            ..QueryCall::new(Query::FdProperties, DMA_BUF, 9)
        }),
        (vec![], false),
        "the OS could not tell: not judged"
    );
    assert_eq!(
        ids(QueryCall::new(Query::FdProperties, OPAQUE_FD | DMA_BUF, 3)),
        (vec![FD_PROPS_HANDLE_TYPE_PARAM], false),
        "several bits are no OPAQUE_FD"
    );
    assert_eq!(
        ids(QueryCall {
            host_pointer_alignment: Some(0x1000),
            ..QueryCall::new(Query::HostPointerProperties, DMA_BUF, 0x1010)
        }),
        (
            vec![HOST_PROPS_HANDLE_TYPE_01752, HOST_PROPS_POINTER_01753],
            false
        )
    );
    assert_eq!(
        ids(QueryCall::new(
            Query::HostPointerProperties,
            HOST_ALLOCATION,
            0x1010
        )),
        (vec![], false),
        "the alignment unknown: not judged"
    );
    assert_eq!(
        ids(QueryCall::new(Query::MetalHandleProperties, OPAQUE_FD, 0)),
        (
            vec![METAL_PROPS_HANDLE_TYPE_10417, METAL_PROPS_HANDLE_10416],
            true
        )
    );
    for opaque in [OPAQUE_WIN32, OPAQUE_WIN32_KMT] {
        assert_eq!(
            ids(QueryCall::new(Query::Win32HandleProperties, opaque, -1)),
            (
                vec![WIN32_PROPS_HANDLE_TYPE_00666, WIN32_PROPS_HANDLE_00665],
                true
            )
        );
    }
    assert_eq!(
        ids(QueryCall::new(Query::ZirconHandleProperties, 0, 0)),
        (
            vec![
                ZIRCON_PROPS_HANDLE_TYPE_PARAM,
                ZIRCON_PROPS_HANDLE_TYPE_04773,
                ZIRCON_PROPS_HANDLE_04774
            ],
            true
        )
    );
    assert_eq!(
        ids(QueryCall::new(Query::AndroidHardwareBufferProperties, 0, 0)),
        (vec![AHB_PROPS_BUFFER_PARAM], true)
    );
}

#[test]
fn query_output_rules_and_extensions() {
    let d = every_extension();
    for query in Query::ALL {
        let ids = query.ids();
        let valid = |output| QueryCall {
            output,
            ..QueryCall::new(query, 0, 0x40)
        };
        let e = expected_query(&d, &valid(Output::Null));
        assert!(e.blocked && e.ids.contains(&ids.output), "{query:?}");
        let e = expected_query(&d, &valid(Output::WrongSType));
        assert!(e.blocked && e.ids.contains(&ids.s_type), "{query:?}");
        let p_next = valid(Output::Valid {
            p_next: true,
            loops: false,
        });
        assert_eq!(
            expected_query(&d, &p_next).ids.contains(&FD_PROPS_PNEXT),
            query == Query::FdProperties
        );
        let loops = expected_query(
            &d,
            &valid(Output::Valid {
                p_next: true,
                loops: true,
            }),
        );
        assert_eq!(
            loops.ids.contains(&AHB_PROPS_STYPE_UNIQUE),
            query == Query::AndroidHardwareBufferProperties
        );
        // Without its extension: the warning, and the call goes on.
        let without = Device {
            extensions: Extensions::of(&Extension::ALL).without(query.extension()),
            ..full()
        };
        let e = expected_query(&without, &QueryCall::new(query, 0, 0x40));
        assert_eq!(e.ids.first(), Some(&EXTENSION_NOT_ENABLED), "{query:?}");
        assert_eq!(Expected::unknown_query_device(query).ids, [ids.device]);
    }
}

/// A host-pointer import of `pointer` as `handle_type`, on a device whose alignment is 0x1000.
fn host(handle_type: u32, pointer: u64) -> Imports {
    Imports {
        operations: u32::from(handle_type != 0),
        host: Some(HostImport {
            handle_type,
            pointer,
            alignment: Some(0x1000),
            dedicated_nv: false,
        }),
        ..Imports::NONE
    }
}

#[test]
fn host_pointer_imports() {
    let d = Device {
        extensions: Extensions::of(&[
            Extension::KhrExternalMemory,
            Extension::ExtExternalMemoryHost,
        ]),
        ..full()
    };
    let ids = |allocation: Allocation, imports| {
        let call = Call::Allocate {
            info: Info::Valid(AllocateInfo {
                imports,
                ..AllocateInfo::of(allocation)
            }),
            output_null: false,
        };
        expected(&d, &call).ids
    };
    let plain = Allocation::new(0x2000, 0, None, None);
    assert!(ids(plain, host(HOST_ALLOCATION, 0x1000)).is_empty());
    assert!(ids(plain, host(HOST_MAPPED_FOREIGN_MEMORY, 0x3000)).is_empty());
    assert_eq!(
        ids(plain, host(HOST_ALLOCATION, 0x1010)),
        [IMPORT_HOST_POINTER_01749]
    );
    assert_eq!(
        ids(
            Allocation::new(0x1800, 0, None, None),
            host(HOST_ALLOCATION, 0x1000)
        ),
        [ALLOC_SIZE_01745]
    );
    // handleType 0 is no valid value (the member is not optional) and imports nothing.
    assert_eq!(ids(plain, host(0, 0x1000)), [IMPORT_HOST_HANDLE_TYPE_PARAM]);
    assert_eq!(
        ids(plain, host(DMA_BUF, 0x1000)),
        [IMPORT_HOST_HANDLE_TYPE_PARAM, IMPORT_HOST_HANDLE_TYPE_01748]
    );
    let dedicated = Allocation {
        dedicated: true,
        ..plain
    };
    let with_nv = Imports {
        host: Some(HostImport {
            dedicated_nv: true,
            ..host(HOST_ALLOCATION, 0x1000).host.unwrap()
        }),
        ..host(HOST_ALLOCATION, 0x1000)
    };
    assert_eq!(
        ids(dedicated, with_nv),
        [ALLOC_PNEXT_02806, ALLOC_PNEXT_02805]
    );
    // The alignment unknown: neither the pointer nor the size is judged.
    let unknown = Imports {
        host: Some(HostImport {
            alignment: None,
            ..host(HOST_ALLOCATION, 0x1010).host.unwrap()
        }),
        ..host(HOST_ALLOCATION, 0x1010)
    };
    assert!(ids(Allocation::new(0x1801, 0, None, None), unknown).is_empty());
}

// ---- The bind commands ----

/// Every binding of the sweep: each command, memory exported as none, nothing, OPAQUE_FD or
/// OPAQUE_FD | DMA_BUF and imported as each kind, to resources of no type, OPAQUE_FD, DMA_BUF or
/// the Android type; and the unknown sides.
fn bind_sweep() -> Vec<Binding> {
    let exports = [None, Some(0), Some(OPAQUE_FD), Some(OPAQUE_FD | DMA_BUF)];
    let imports = [
        MemoryImport::None,
        MemoryImport::Handle(OPAQUE_FD),
        MemoryImport::Handle(DMA_BUF),
        MemoryImport::Handle(OPAQUE_FD | DMA_BUF),
        MemoryImport::Handle(ANDROID_HARDWARE_BUFFER),
        MemoryImport::AndroidHardwareBuffer,
        MemoryImport::Several,
    ];
    let resources = [0, OPAQUE_FD, DMA_BUF, ANDROID_HARDWARE_BUFFER];
    let mut all = Vec::new();
    for bind in Bind::ALL {
        for export in exports {
            for import in imports {
                let memory = Bound::Known(BoundMemory { export, import });
                for resource in resources {
                    all.push(Binding {
                        bind,
                        memory,
                        resource: Bound::Known(resource),
                    });
                }
                all.push(Binding {
                    bind,
                    memory,
                    resource: Bound::Unknown,
                });
            }
        }
    }
    all
}

fn bound(export: Option<u32>, import: MemoryImport) -> Bound<BoundMemory> {
    Bound::Known(BoundMemory { export, import })
}

fn bind_ids(bind: Bind, memory: Bound<BoundMemory>, resource: u32) -> Vec<&'static str> {
    let e = expected_bind(&Binding {
        bind,
        memory,
        resource: Bound::Known(resource),
    });
    assert!(!e.blocked, "the bind rules never block");
    e.ids
}

#[test]
fn each_bind_command_has_its_own_form_of_the_three_rules() {
    let forms: Vec<BindIds> = Bind::ALL.iter().map(|b| b.ids()).collect();
    assert_eq!(
        forms[0],
        BindIds {
            export: "VUID-vkBindBufferMemory-memory-02726",
            import: "VUID-vkBindBufferMemory-memory-02985",
            android: "VUID-vkBindBufferMemory-memory-02986",
        }
    );
    assert_eq!(forms[1].export, "VUID-VkBindBufferMemoryInfo-memory-02726");
    assert_eq!(forms[2].import, "VUID-vkBindImageMemory-memory-02989");
    assert_eq!(forms[3].android, "VUID-VkBindImageMemoryInfo-memory-02990");
    let distinct: BTreeSet<_> = forms
        .iter()
        .flat_map(|f| [f.export, f.import, f.android])
        .collect();
    assert_eq!(distinct.len(), 12);
    assert!(Bind::ALL
        .iter()
        .all(|b| b.is_image() == b.name().contains("Image")));
    assert!(Bind::ALL
        .iter()
        .all(|b| b.takes_infos() == b.name().ends_with('2')));
}

#[test]
fn an_export_sharing_no_type_with_the_resource_is_02726_or_02728() {
    let fd = bound(Some(OPAQUE_FD), MemoryImport::None);
    for bind in Bind::ALL {
        assert_eq!(bind_ids(bind, fd, 0), [bind.ids().export], "{bind:?}");
        assert_eq!(bind_ids(bind, fd, DMA_BUF), [bind.ids().export]);
        assert!(bind_ids(bind, fd, OPAQUE_FD).is_empty());
        // At least one in common is enough.
        let both = bound(Some(OPAQUE_FD | DMA_BUF), MemoryImport::None);
        assert!(bind_ids(bind, both, DMA_BUF).is_empty());
        // No export structure, or handleTypes 0: not judged, whatever the resource.
        for export in [None, Some(0)] {
            let plain = bound(export, MemoryImport::None);
            assert!(bind_ids(bind, plain, 0).is_empty());
            assert!(bind_ids(bind, plain, OPAQUE_FD).is_empty());
        }
    }
}

#[test]
fn an_import_of_a_type_the_resource_lacks_is_02985_or_02989() {
    let fd = bound(None, MemoryImport::Handle(OPAQUE_FD));
    for bind in Bind::ALL {
        assert_eq!(bind_ids(bind, fd, 0), [bind.ids().import], "{bind:?}");
        assert_eq!(bind_ids(bind, fd, DMA_BUF), [bind.ids().import]);
        assert_eq!(
            bind_ids(bind, fd, ANDROID_HARDWARE_BUFFER),
            [bind.ids().import]
        );
        assert!(bind_ids(bind, fd, OPAQUE_FD).is_empty());
        assert!(bind_ids(bind, fd, OPAQUE_FD | DMA_BUF).is_empty());
        // An invalid several-bit handleType: reported only when none of its bits is set.
        let two = bound(None, MemoryImport::Handle(OPAQUE_FD | DMA_BUF));
        assert_eq!(bind_ids(bind, two, 0), [bind.ids().import]);
        assert!(bind_ids(bind, two, DMA_BUF).is_empty());
    }
}

#[test]
fn an_android_hardware_buffer_import_is_02986_or_02990_only() {
    let ahb = bound(None, MemoryImport::AndroidHardwareBuffer);
    for bind in Bind::ALL {
        assert_eq!(bind_ids(bind, ahb, 0), [bind.ids().android], "{bind:?}");
        assert_eq!(bind_ids(bind, ahb, OPAQUE_FD), [bind.ids().android]);
        assert!(bind_ids(bind, ahb, ANDROID_HARDWARE_BUFFER).is_empty());
        assert!(bind_ids(bind, ahb, ANDROID_HARDWARE_BUFFER | OPAQUE_FD).is_empty());
        // The Android type named by another import structure imports nothing of that kind.
        let named = bound(None, MemoryImport::Handle(ANDROID_HARDWARE_BUFFER));
        assert!(bind_ids(bind, named, 0).is_empty());
    }
}

#[test]
fn memory_both_imported_and_exported_gets_each_rule_it_breaks() {
    for bind in Bind::ALL {
        let ids = bind.ids();
        let m = bound(Some(DMA_BUF), MemoryImport::Handle(OPAQUE_FD));
        assert_eq!(bind_ids(bind, m, 0), [ids.export, ids.import]);
        assert_eq!(bind_ids(bind, m, DMA_BUF), [ids.import]);
        assert_eq!(bind_ids(bind, m, OPAQUE_FD), [ids.export]);
        assert!(bind_ids(bind, m, OPAQUE_FD | DMA_BUF).is_empty());
        let a = bound(Some(OPAQUE_FD), MemoryImport::AndroidHardwareBuffer);
        assert_eq!(bind_ids(bind, a, 0), [ids.export, ids.android]);
    }
}

#[test]
fn several_imports_and_unknown_sides_are_not_judged() {
    for bind in Bind::ALL {
        let several = bound(None, MemoryImport::Several);
        assert!(bind_ids(bind, several, 0).is_empty());
        // The export is still judged beside several imports.
        let exported = bound(Some(OPAQUE_FD), MemoryImport::Several);
        assert_eq!(bind_ids(bind, exported, 0), [bind.ids().export]);
        let bad = bound(Some(OPAQUE_FD), MemoryImport::Handle(OPAQUE_FD));
        for (memory, resource) in [
            (Bound::Unknown, Bound::Known(0)),
            (bad, Bound::Unknown),
            (Bound::Unknown, Bound::Unknown),
        ] {
            let e = expected_bind(&Binding {
                bind,
                memory,
                resource,
            });
            assert!(e.is_silent(), "{bind:?} {memory:?} {resource:?}");
        }
    }
}
