//! The hostile-input matrix of the four export commands, end to end: the real loader, the layer
//! and the project's test driver (`tests/icd`). For every argument of `vkGetMemoryFdKHR`,
//! `vkGetMemoryRemoteAddressNV`, `vkGetMemoryMetalHandleEXT` and `vkGetMemoryWin32HandleNV`, the
//! tables of `exportcheck_tests::hostile` are tried: NULL pointers, `VkDevice` values that are no
//! device, garbage, freed and foreign `VkDeviceMemory`, every other `VkStructureType` of the
//! registry and garbage ones, every handle-type bit and mixes of them, and hostile pNext chains
//! (cycles, 10,000 structures, unknown structures, unreadable addresses). Each case must yield
//! exactly the IDs the model of the rules (`tests/model`) gives it; a blocked call returns
//! VK_ERROR_VALIDATION_FAILED_EXT, writes nothing and never reaches the driver (its call counter
//! does not move); any other call reaches it exactly once. Each table also has a valid call,
//! first and last, so it cannot pass vacuously. One table serves the four commands:
//! `vkGetMemoryWin32HandleNV` has no info structure, so its table skips the info structure's
//! cases. See docs/reliability.md.

use ash::vk::{self, Handle};
use exportcheck_tests::app::METAL_INFO_STYPE;
use exportcheck_tests::calls::{self, info_s_type, Args, RawInfo};
use exportcheck_tests::hostile::{
    self, dead_memory_cases, Chain, Fixture, Matrix, GARBAGE_S_TYPES, STRUCTURE_TYPES,
};
use exportcheck_tests::model::handle_type::{self as ht, DMA_BUF, OPAQUE_FD, RDMA_ADDRESS};
use exportcheck_tests::model::{Allocation, Command};
use exportcheck_tests::{Device, SIZE};
use std::ffi::c_void;
use std::ptr::null;

const SUCCESS: vk::Result = vk::Result::SUCCESS;

/// The test driver's memory types (its defaults): plain DEVICE_LOCAL, and RDMA-capable.
const PLAIN_TYPE: u32 = 0;
const RDMA_TYPE: u32 = 2;

/// An export command, and what its table needs to know about it.
struct Export {
    command: Command,
    /// The info structure's parameter (`None`: the command has none) and the output's, as the
    /// messages name them.
    info_param: Option<&'static str>,
    output_param: &'static str,
    /// What the message about another device's memory says.
    other_device_says: &'static str,
    /// The table's memory: its type, and the handle types it is exported with (KHR or NV).
    memory_type: u32,
    export: Option<u32>,
    export_nv: Option<u32>,
    /// The handle type of the valid call.
    good: u32,
    /// The handle-type values defined for `handleType` (KHR or NV flags).
    defined: u32,
    /// What the test driver returns for `handleType` on live memory.
    driver_result: fn(bits: u32) -> vk::Result,
}

const FD: Export = Export {
    command: Command::GetMemoryFd,
    info_param: Some("pGetFdInfo"),
    output_param: "pFd",
    other_device_says: "which belongs to another device",
    memory_type: PLAIN_TYPE,
    export: Some(OPAQUE_FD),
    export_nv: None,
    good: OPAQUE_FD,
    defined: ht::DEFINED,
    driver_result: |bits| {
        if bits.is_power_of_two() && bits & (OPAQUE_FD | DMA_BUF) != 0 {
            SUCCESS
        } else {
            vk::Result::ERROR_UNKNOWN
        }
    },
};

const REMOTE_ADDRESS: Export = Export {
    command: Command::GetMemoryRemoteAddress,
    info_param: Some("pMemoryGetRemoteAddressInfo"),
    output_param: "pAddress",
    memory_type: RDMA_TYPE,
    export: Some(RDMA_ADDRESS),
    good: RDMA_ADDRESS,
    driver_result: |_| SUCCESS,
    ..FD
};

const METAL_HANDLE: Export = Export {
    command: Command::GetMemoryMetalHandle,
    info_param: Some("pGetMetalHandleInfo"),
    output_param: "pHandle",
    export: Some(ht::MTLBUFFER),
    good: ht::MTLBUFFER,
    driver_result: |_| SUCCESS,
    ..FD
};

/// Exported as a global share handle, which may be exported again and again (an NT handle type
/// would be `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663` after the first success; the
/// other types are not in the export, so no call counts as an NT export).
const WIN32_HANDLE_KHR: Export = Export {
    command: Command::GetMemoryWin32HandleKhr,
    info_param: Some("pGetWin32HandleInfo"),
    output_param: "pHandle",
    export: Some(ht::OPAQUE_WIN32_KMT),
    good: ht::OPAQUE_WIN32_KMT,
    driver_result: |_| SUCCESS,
    ..FD
};

const ZIRCON_HANDLE: Export = Export {
    command: Command::GetMemoryZirconHandle,
    info_param: Some("pGetZirconHandleInfo"),
    output_param: "pZirconHandle",
    export: Some(ht::ZIRCON_VMO),
    good: ht::ZIRCON_VMO,
    driver_result: |_| SUCCESS,
    ..FD
};

/// Its info structure has no handleType: the swept values are never read.
const ANDROID_HARDWARE_BUFFER: Export = Export {
    command: Command::GetMemoryAndroidHardwareBuffer,
    info_param: Some("pInfo"),
    output_param: "pBuffer",
    export: Some(ht::ANDROID_HARDWARE_BUFFER),
    good: ht::ANDROID_HARDWARE_BUFFER,
    driver_result: |_| SUCCESS,
    ..FD
};

const WIN32_HANDLE: Export = Export {
    command: Command::GetMemoryWin32Handle,
    info_param: None,
    output_param: "pHandle",
    other_device_says: "which was not allocated from device",
    export: None,
    export_nv: Some(ht::NV_OPAQUE_WIN32),
    good: ht::NV_OPAQUE_WIN32,
    defined: ht::NV_DEFINED,
    driver_result: |_| SUCCESS,
    ..FD
};

/// The pNext values the tables try on an info structure that no structure extends: each is
/// reported, and the call goes down as the app made it. Owns the chains it points into.
struct HostileChains {
    _export: Box<vk::ExportMemoryAllocateInfo<'static>>,
    _chains: Vec<Chain>,
    cases: Vec<(String, *const c_void)>,
}

impl HostileChains {
    fn new() -> Self {
        let export = Box::new(
            vk::ExportMemoryAllocateInfo::default()
                .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD),
        );
        let mut chains = Vec::new();
        let mut cases: Vec<(String, *const c_void)> = vec![(
            "a real structure that does not extend it (VkExportMemoryAllocateInfo)".to_owned(),
            (&*export as *const vk::ExportMemoryAllocateInfo).cast(),
        )];
        let mut add = |what: String, chain: Chain| {
            cases.push((what, chain.head()));
            chains.push(chain);
        };
        for s_type in GARBAGE_S_TYPES {
            add(
                format!("an unknown structure (sType {s_type})"),
                Chain::new(1, |_| vk::StructureType::from_raw(s_type), null()),
            );
        }
        add("a structure pointing to itself".to_owned(), Chain::cycle(1));
        add("a 2-cycle (a -> b -> a)".to_owned(), Chain::cycle(2));
        add(
            "10,000 unknown structures of distinct sTypes".to_owned(),
            Chain::distinct(10_000, null()),
        );
        add(
            "10,000 unknown structures of one sType".to_owned(),
            Chain::same(10_000, null()),
        );
        add(
            "a cycle of 10,000 structures".to_owned(),
            Chain::cycle(10_000),
        );
        let tail = Chain::cycle(2);
        let mut long_then_cycle = Chain::distinct(10_000, null());
        long_then_cycle.link_last_to(tail.head());
        add(
            "10,000 structures, then a 2-cycle".to_owned(),
            long_then_cycle,
        );
        chains.push(tail);
        for address in [1usize, 0xdead_beef] {
            cases.push((
                format!("an unreadable address ({address:#x})"),
                address as *const c_void,
            ));
        }
        Self {
            _export: export,
            _chains: chains,
            cases,
        }
    }
}

/// The whole table of one export command; returns how many cases ran.
fn export_table(cmd: &Export) -> usize {
    let mut f = Fixture::new();
    let command = cmd.command;
    let allocation = Allocation::new(SIZE, cmd.memory_type, cmd.export, cmd.export_nv);
    let allocate = |on: &Device| {
        on.allocate_exporting(
            SIZE,
            cmd.memory_type,
            cmd.export.map(vk::ExternalMemoryHandleTypeFlags::from_raw),
            cmd.export_nv
                .map(vk::ExternalMemoryHandleTypeFlagsNV::from_raw),
        )
    };
    let live = allocate(&f.dev);
    let foreign = allocate(&f.other);
    let freed = allocate(&f.dev);
    f.dev.free(freed);
    let freed_elsewhere = allocate(&f.other);
    f.other.free(freed_elsewhere);
    assert!(
        f.inst.messages().is_empty(),
        "the table's allocations are valid"
    );
    f.memories.live(live, allocation);
    f.memories.foreign(foreign);
    f.memories.freed(freed);
    let forged = Box::new(f.dispatch_key());
    let (inst, dev, other) = (&f.inst, &f.dev, &f.other);
    let here = dev.handle();
    let good = Args::new(command, here, live, cmd.good);
    // SAFETY (every call below): the info is NULL, built, or a live local; hostile values are
    // the point.
    let call = |args: Args| unsafe {
        let called = calls::call(command, dev, &args);
        calls::release(command, dev, called);
        called
    };
    // What the model says of a call, which goes down with the driver's answer to its
    // handleType.
    let expect = |args: &Args| f.expect(command, args, Some((cmd.driver_result)(args.handle_type)));
    let mut m = Matrix::new(inst, command.name(), calls::counted(command));
    let valid = expect(&good);
    assert!(valid.ids.is_empty() && !valid.blocked, "{valid:?}");
    m.case("a valid call", valid.clone(), || call(good));

    // NULL pointers.
    let null_output = format!("{} is NULL", cmd.output_param);
    let output = good.null_output();
    m.case(
        "NULL output",
        expect(&output).mentioning(&null_output),
        || call(output),
    );
    if let Some(info_param) = cmd.info_param {
        let null_info = good.null_info();
        let expected = expect(&null_info).mentioning(format!("{info_param} is NULL"));
        m.case("NULL info", expected, || call(null_info));
        let both = null_info.null_output();
        m.case("NULL info and NULL output", expect(&both), || call(both));
    }

    // VkDevice values that are no device: looked up by value, never dereferenced. Alone, and
    // with every other argument bad too.
    for (what, raw) in f.garbage_devices(live, &forged) {
        let device = vk::Device::from_raw(raw);
        let alone = good.on(device);
        let says = format!("device ({raw:#x})");
        m.case(
            format!("device = {what}"),
            expect(&alone).mentioning(&says),
            || call(alone),
        );
        let all_bad = alone
            .null_info()
            .memory(vk::DeviceMemory::from_raw(1))
            .handle_type(0)
            .null_output();
        m.case(
            format!("device = {what}, and every other argument bad"),
            expect(&all_bad).mentioning(&says),
            || call(all_bad),
        );
    }

    // VkDeviceMemory values that are not live memory of this device.
    let field = match cmd.info_param {
        Some(info) => format!("{info}->memory is"),
        None => "memory is".to_owned(),
    };
    let mut memories = vec![(
        "VK_NULL_HANDLE".to_owned(),
        vk::DeviceMemory::null(),
        format!("{field} VK_NULL_HANDLE"),
    )];
    memories.extend(dead_memory_cases(
        here,
        &field,
        freed,
        freed_elsewhere,
        (foreign, cmd.other_device_says),
    ));
    for (what, memory, says) in memories {
        let args = good.memory(memory);
        m.case(
            format!("memory = {what}"),
            expect(&args).mentioning(says),
            || call(args),
        );
    }

    // Every handle-type bit, no bit, and mixes: reported (not a bad pointer), then passed down.
    for bits in hostile::handle_type_values(cmd.defined) {
        let args = good.handle_type(bits);
        m.case(format!("handleType = {bits:#x}"), expect(&args), || {
            call(args)
        });
    }

    // Several faults at once: the gate reports each bad argument it reaches, and nothing after a
    // bad pointer or handle is read.
    let garbage = vk::DeviceMemory::from_raw(0xdead_beef);
    let undefined = 1 << (!cmd.defined).trailing_zeros();
    let mut combos = vec![
        ("NULL output and garbage memory", output.memory(garbage)),
        ("NULL output and freed memory", output.memory(freed)),
        ("NULL output and handleType 0", output.handle_type(0)),
        (
            "garbage memory and an undefined handleType",
            good.memory(garbage).handle_type(undefined),
        ),
        (
            "memory of another device and handleType 0",
            good.memory(foreign).handle_type(0),
        ),
    ];

    // The info structure: every other sType of the registry and garbage ones (only the sType is
    // wrong), and pNext, reported and passed down as the app made it (the layer never reads the
    // chain, and the test driver does not either); the app's structure is left as it was.
    let chains = HostileChains::new();
    let right = info_s_type(command);
    let mut own = RawInfo {
        s_type: right.unwrap_or(vk::StructureType::from_raw(0)),
        p_next: null(),
        memory: live,
        handle_type: cmd.good,
    };
    let own_ptr: *mut RawInfo = &mut own;
    // SAFETY: `own` is a live local, used only through `own_ptr` from here on.
    unsafe { (*own_ptr).p_next = own_ptr.cast_const().cast() };
    let mut back = Chain::same(1, null());
    let mut looped = RawInfo {
        p_next: back.head(),
        // SAFETY: read once, before `own` is used through `own_ptr` again.
        ..unsafe { *own_ptr }
    };
    let looped_ptr: *mut RawInfo = &mut looped;
    back.link_last_to(looped_ptr.cast_const().cast());
    if let (Some(info_param), Some(right)) = (cmd.info_param, right) {
        let wrong_s_type = format!("{info_param}->sType is ");
        for s_type in hostile::wrong_s_types(right) {
            let args = good.s_type(s_type);
            m.case(
                format!("sType = {}", s_type.as_raw()),
                expect(&args).mentioning(&wrong_s_type),
                || call(args),
            );
        }
        let p_next = format!("{info_param}->pNext is not NULL");
        let mut cases: Vec<(String, RawInfo)> = chains
            .cases
            .iter()
            .map(|(what, head)| {
                (
                    what.clone(),
                    RawInfo {
                        p_next: *head,
                        ..looped
                    },
                )
            })
            .collect();
        // The structure itself, and a structure pointing back to it, as raw pointers.
        let own_case = ("the structure itself".to_owned(), own_ptr);
        let back_case = (
            "a structure pointing back to the info".to_owned(),
            looped_ptr,
        );
        let mut raw: Vec<(String, *mut RawInfo)> = cases
            .iter_mut()
            .map(|(what, info)| (what.clone(), info as *mut RawInfo))
            .collect();
        raw.extend([own_case, back_case]);
        for (what, info) in raw {
            // SAFETY: a live local, read before the call.
            let before = unsafe { (*info).p_next };
            let args = good.raw_info(info.cast_const().cast());
            m.prompt_case(
                format!("pNext = {what}"),
                expect(&args).mentioning(&p_next),
                || {
                    let called = call(args);
                    // SAFETY: as above, after the call.
                    let after = unsafe { (*info).p_next };
                    assert_eq!(after, before, "the app's structure must not change");
                    called
                },
            );
        }
        let wrong = good.s_type(vk::StructureType::MEMORY_ALLOCATE_INFO);
        let next = good.p_next(chains.cases[0].1);
        combos.extend([
            ("NULL output and a wrong sType", wrong.null_output()),
            (
                "a wrong sType and a cyclic pNext",
                wrong.p_next(own_ptr.cast_const().cast()),
            ),
            ("pNext and garbage memory", next.memory(garbage)),
            ("pNext and freed memory", next.memory(freed)),
            ("pNext and memory of another device", next.memory(foreign)),
            (
                "pNext and an undefined handleType",
                next.handle_type(undefined),
            ),
        ]);
    }
    for (what, args) in combos {
        m.prompt_case(what, expect(&args), || call(args));
    }

    // The memory is still live and exports after all of it.
    m.case("a valid call, after the hostile ones", valid, || call(good));
    let cases = m.finish();
    dev.free(live);
    other.free(foreign);
    drop(chains);
    drop(back);
    cases
}

#[test]
fn vk_get_memory_fd_khr_hostile_matrix() {
    let cases = export_table(&FD);
    eprintln!("vkGetMemoryFdKHR: {cases} cases");
}

#[test]
fn vk_get_memory_remote_address_nv_hostile_matrix() {
    let cases = export_table(&REMOTE_ADDRESS);
    eprintln!("vkGetMemoryRemoteAddressNV: {cases} cases");
}

#[test]
fn vk_get_memory_metal_handle_ext_hostile_matrix() {
    let cases = export_table(&METAL_HANDLE);
    eprintln!("vkGetMemoryMetalHandleEXT: {cases} cases");
}

#[test]
fn vk_get_memory_win32_handle_nv_hostile_matrix() {
    let cases = export_table(&WIN32_HANDLE);
    eprintln!("vkGetMemoryWin32HandleNV: {cases} cases");
}

#[test]
fn vk_get_memory_win32_handle_khr_hostile_matrix() {
    let cases = export_table(&WIN32_HANDLE_KHR);
    eprintln!("vkGetMemoryWin32HandleKHR: {cases} cases");
}

#[test]
fn vk_get_memory_zircon_handle_fuchsia_hostile_matrix() {
    let cases = export_table(&ZIRCON_HANDLE);
    eprintln!("vkGetMemoryZirconHandleFUCHSIA: {cases} cases");
}

#[test]
fn vk_get_memory_android_hardware_buffer_android_hostile_matrix() {
    let cases = export_table(&ANDROID_HARDWARE_BUFFER);
    eprintln!("vkGetMemoryAndroidHardwareBufferANDROID: {cases} cases");
}

// ---- The registry's structure types ----

#[test]
fn the_structure_type_table_is_the_registrys() {
    assert!(
        STRUCTURE_TYPES.windows(2).all(|w| w[0] < w[1]),
        "sorted, without duplicates"
    );
    assert!(STRUCTURE_TYPES.len() > 1200, "{}", STRUCTURE_TYPES.len());
    for known in [
        vk::StructureType::APPLICATION_INFO,
        vk::StructureType::MEMORY_ALLOCATE_INFO,
        vk::StructureType::MEMORY_GET_FD_INFO_KHR,
        vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
        vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO_NV,
        METAL_INFO_STYPE,
        vk::StructureType::from_raw(1_000_602_000), // IMPORT_MEMORY_METAL_HANDLE_INFO_EXT
    ] {
        assert!(STRUCTURE_TYPES.contains(&known.as_raw()), "{known:?}");
    }
    // The made-up values are made up.
    for raw in GARBAGE_S_TYPES {
        assert!(!STRUCTURE_TYPES.contains(&raw), "{raw}");
    }
    let unknown = hostile::FIRST_UNKNOWN_S_TYPE..hostile::FIRST_UNKNOWN_S_TYPE + 10_000;
    assert!(!STRUCTURE_TYPES.iter().any(|v| unknown.contains(v)));
    // Each wrong-sType sweep is the whole table but the right value, plus the garbage.
    assert_eq!(
        hostile::wrong_s_types(vk::StructureType::MEMORY_GET_FD_INFO_KHR).len(),
        STRUCTURE_TYPES.len() - 1 + GARBAGE_S_TYPES.len()
    );
}

#[test]
fn the_registry_parser_reads_values_offsets_and_aliases() {
    let xml = r#"
        <enums name="VkStructureType" type="enum">
            <enum value="0" name="VK_STRUCTURE_TYPE_APPLICATION_INFO"/>
            <enum value="5" name="VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO"/>
        </enums>
        <feature name="VK_VERSION_1_1">
            <require><enum extends="VkStructureType" extnumber="128" offset="1" name="VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO"/></require>
        </feature>
        <extension name="VK_KHR_external_memory_fd" number="75">
            <require>
                <enum offset="2" extends="VkStructureType" name="VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR"/>
                <enum extends="VkStructureType" name="VK_STRUCTURE_TYPE_X_KHR" alias="VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO"/>
                <enum name="VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO"/>
                <enum offset="3" dir="-" extends="VkResult" name="VK_ERROR_SOMETHING"/>
            </require>
        </extension>"#;
    assert_eq!(
        hostile::parse_structure_types(xml),
        [0, 5, 1_000_074_002, 1_000_127_001]
    );
}

/// Rewrites `tests/src/hostile/structure_types.rs` from the registry at `$EXPORTCHECK_VK_XML`:
/// `EXPORTCHECK_VK_XML=/path/to/vk.xml cargo test -p exportcheck-tests --test hostile_exports --
/// --ignored regenerate_structure_types`.
#[test]
#[ignore = "rewrites a source file from $EXPORTCHECK_VK_XML"]
fn regenerate_structure_types() {
    let path = std::env::var("EXPORTCHECK_VK_XML").expect("EXPORTCHECK_VK_XML=/path/to/vk.xml");
    let xml = std::fs::read_to_string(&path).expect("read vk.xml");
    let version = hostile::parse_registry_version(&xml).expect("the registry's version");
    let values = hostile::parse_structure_types(&xml);
    let mut out = format!(
        "//! Every `VkStructureType` value of the Vulkan registry {version} (`vk.xml`), aliases \
         folded:\n//! generated by `hostile::parse_structure_types`; do not edit. To regenerate:\n//! \
         `EXPORTCHECK_VK_XML=/path/to/vk.xml cargo test -p exportcheck-tests --test hostile_exports \
         --\n//! --ignored regenerate_structure_types`.\n\n/// The registry the table was generated \
         from.\npub const REGISTRY_VERSION: &str = \"{version}\";\n\n/// Every value, sorted \
         ({} values).\n#[rustfmt::skip]\npub const STRUCTURE_TYPES: &[i32] = &[\n",
        values.len()
    );
    for line in values.chunks(8) {
        let line: Vec<String> = line.iter().map(i32::to_string).collect();
        out += &format!("    {},\n", line.join(", "));
    }
    out += "];\n";
    let target =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/hostile/structure_types.rs");
    std::fs::write(&target, out).expect("write the table");
    eprintln!("{}: {} values of {version}", target.display(), values.len());
}
