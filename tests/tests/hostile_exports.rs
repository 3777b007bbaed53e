//! The hostile-input matrix of the four export commands, end to end: the real loader, the layer
//! and the project's test driver (`tests/icd`). For every argument of `vkGetMemoryFdKHR`,
//! `vkGetMemoryRemoteAddressNV`, `vkGetMemoryMetalHandleEXT` and `vkGetMemoryWin32HandleNV`, the
//! tables of `exportcheck_tests::hostile` are tried: NULL pointers, `VkDevice` values that are no
//! device, garbage, freed and foreign `VkDeviceMemory`, every other `VkStructureType` of the
//! registry and garbage ones, every handle-type bit and mixes of them, and hostile pNext chains
//! (cycles, 10,000 structures, unknown structures, unreadable addresses). Each case must yield
//! exactly its IDs; a blocked call returns VK_ERROR_VALIDATION_FAILED_EXT, writes nothing and never
//! reaches the driver (its call counter does not move); any other call reaches it exactly once.
//! Each table also has a valid call, first and last, so it cannot pass vacuously.
//! See docs/reliability.md.

use ash::vk::{self, Handle};
use exportcheck_tests::app::{MemoryGetMetalHandleInfo, METAL_INFO_STYPE};
use exportcheck_tests::hostile::{
    self, dead_memory_cases, is_one_defined_bit, Called, Chain, Expected, Fixture, Matrix,
    DEFINED_HANDLE_TYPES, DEFINED_HANDLE_TYPES_NV, DEVICE_HANDLE_TYPES, GARBAGE_S_TYPES,
    STRUCTURE_TYPES,
};
use exportcheck_tests::ids::*;
use exportcheck_tests::{fds, Device, POINTER_SENTINEL, SENTINEL, SIZE};
use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};

const SUCCESS: vk::Result = vk::Result::SUCCESS;
const OPAQUE_FD: u32 = 1;
const DMA_BUF: u32 = 1 << 9;
const RDMA: u32 = 1 << 12;
const MTLBUFFER: u32 = 1 << 16;
const METAL_TYPES: u32 = 0x7 << 16;
const OPAQUE_WIN32_NV: u32 = 1;

/// The test driver's memory types (its defaults): plain DEVICE_LOCAL, and RDMA-capable.
const PLAIN_TYPE: u32 = 0;
const RDMA_TYPE: u32 = 2;

/// The layout the info structures of three commands share: `VkMemoryGetFdInfoKHR`,
/// `VkMemoryGetRemoteAddressInfoNV`, `VkMemoryGetMetalHandleInfoEXT`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct RawInfo {
    s_type: vk::StructureType,
    p_next: *const c_void,
    memory: vk::DeviceMemory,
    handle_type: u32,
}

/// The structural IDs of one command with an info structure.
struct Ids {
    device: &'static str,
    info: &'static str,
    output: &'static str,
    s_type: &'static str,
    p_next: &'static str,
    memory: &'static str,
    handle_type: &'static str,
}

/// An export command with an info structure, and what its table needs to know about it.
struct Command {
    name: &'static str,
    counted: &'static CStr,
    s_type: vk::StructureType,
    info_param: &'static str,
    output_param: &'static str,
    ids: Ids,
    /// The table's memory: its type, and the handle types it is exported with.
    memory_type: u32,
    export: u32,
    /// The handle type of the valid call.
    good: u32,
    /// The IDs of the command's value rules that `bits` breaks on the table's memory (besides
    /// `-parameter`): every rule a call breaks is reported.
    value_ids: fn(bits: u32, export: u32) -> Vec<&'static str>,
    /// What the test driver returns for `handleType` on live memory.
    driver_result: fn(bits: u32) -> vk::Result,
    /// The call through the layer's own function pointer (from `vkGetDeviceProcAddr` for `dev`)
    /// on `device`, with `info` and a valid output pointer, or NULL with `null_output`.
    call: unsafe fn(
        dev: &Device,
        device: vk::Device,
        info: *const RawInfo,
        null_output: bool,
    ) -> Called,
}

const FD: Command = Command {
    name: GET_FD,
    counted: c"vkGetMemoryFdKHR",
    s_type: vk::StructureType::MEMORY_GET_FD_INFO_KHR,
    info_param: "pGetFdInfo",
    output_param: "pFd",
    ids: Ids {
        device: FD_DEVICE_PARAM,
        info: FD_INFO_PARAM,
        output: FD_PFD_PARAM,
        s_type: FD_STYPE,
        p_next: FD_PNEXT,
        memory: FD_MEMORY_PARAM,
        handle_type: FD_HANDLE_TYPE_PARAM,
    },
    memory_type: PLAIN_TYPE,
    export: OPAQUE_FD,
    good: OPAQUE_FD,
    value_ids: |bits, export| {
        let mut ids = Vec::new();
        if !is_one_defined_bit(bits, OPAQUE_FD | DMA_BUF) {
            ids.push(FD_HANDLE_TYPE_00672);
        }
        if bits & !export != 0 {
            ids.push(FD_HANDLE_TYPE_00671);
        }
        ids
    },
    driver_result: |bits| {
        if bits.is_power_of_two() && bits & (OPAQUE_FD | DMA_BUF) != 0 {
            SUCCESS
        } else {
            vk::Result::ERROR_UNKNOWN
        }
    },
    call: call_fd,
};

const REMOTE_ADDRESS: Command = Command {
    name: GET_REMOTE_ADDRESS,
    counted: c"vkGetMemoryRemoteAddressNV",
    s_type: vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
    info_param: "pMemoryGetRemoteAddressInfo",
    output_param: "pAddress",
    ids: Ids {
        device: RDMA_DEVICE_PARAM,
        info: RDMA_INFO_PARAM,
        output: RDMA_PADDRESS_PARAM,
        s_type: RDMA_STYPE,
        p_next: RDMA_PNEXT,
        memory: RDMA_MEMORY_PARAM,
        handle_type: RDMA_HANDLE_TYPE_PARAM,
    },
    memory_type: RDMA_TYPE,
    export: RDMA,
    good: RDMA,
    value_ids: |bits, export| {
        if bits & !export != 0 {
            vec![RDMA_HANDLE_TYPE_04966]
        } else {
            Vec::new()
        }
    },
    driver_result: |_| SUCCESS,
    call: call_remote_address,
};

const METAL: Command = Command {
    name: GET_METAL_HANDLE,
    counted: c"vkGetMemoryMetalHandleEXT",
    s_type: METAL_INFO_STYPE,
    info_param: "pGetMetalHandleInfo",
    output_param: "pHandle",
    ids: Ids {
        device: METAL_DEVICE_PARAM,
        info: METAL_INFO_PARAM,
        output: METAL_PHANDLE_PARAM,
        s_type: METAL_STYPE,
        p_next: METAL_PNEXT,
        memory: METAL_MEMORY_PARAM,
        handle_type: METAL_HANDLE_TYPE_PARAM,
    },
    memory_type: PLAIN_TYPE,
    export: MTLBUFFER,
    good: MTLBUFFER,
    value_ids: |bits, export| {
        let mut ids = Vec::new();
        if !is_one_defined_bit(bits, METAL_TYPES) {
            ids.push(METAL_HANDLE_TYPE_10415);
        }
        if bits & !export != 0 {
            ids.push(METAL_HANDLE_TYPE_10414);
        }
        ids
    },
    driver_result: |_| SUCCESS,
    call: call_metal,
};

/// # Safety
/// `info` is NULL or points to a live structure (its pNext may be hostile on purpose).
unsafe fn call_fd(
    dev: &Device,
    device: vk::Device,
    info: *const RawInfo,
    null_output: bool,
) -> Called {
    let mut fd = SENTINEL;
    let out: *mut i32 = if null_output { null_mut() } else { &mut fd };
    // SAFETY: the caller's contract; the layer is expected to stop every bad argument.
    let result = unsafe { (dev.fd.fp().get_memory_fd_khr)(device, info.cast(), out) };
    if result == SUCCESS {
        fds::close_if_open(fd);
    }
    Called {
        result: Some(result),
        written: fd != SENTINEL,
    }
}

/// # Safety
/// As [`call_fd`].
unsafe fn call_remote_address(
    dev: &Device,
    device: vk::Device,
    info: *const RawInfo,
    null_output: bool,
) -> Called {
    let get = dev.remote_address.expect("vkGetMemoryRemoteAddressNV");
    let mut address = POINTER_SENTINEL as *mut c_void;
    let out: *mut *mut c_void = if null_output {
        null_mut()
    } else {
        &mut address
    };
    // SAFETY: as call_fd; ash spells `VkRemoteAddressNV*` as `*mut c_void`.
    let result = unsafe { get(device, info.cast(), out.cast()) };
    Called {
        result: Some(result),
        written: address as usize != POINTER_SENTINEL,
    }
}

/// # Safety
/// As [`call_fd`].
unsafe fn call_metal(
    dev: &Device,
    device: vk::Device,
    info: *const RawInfo,
    null_output: bool,
) -> Called {
    let get = dev.metal_handle.expect("vkGetMemoryMetalHandleEXT");
    let mut handle = POINTER_SENTINEL as *mut c_void;
    let out: *mut *mut c_void = if null_output { null_mut() } else { &mut handle };
    // SAFETY: as call_fd.
    let result = unsafe { get(device, info.cast::<MemoryGetMetalHandleInfo>(), out) };
    Called {
        result: Some(result),
        written: handle as usize != POINTER_SENTINEL,
    }
}

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

/// The whole table of one command with an info structure; returns how many cases ran.
fn info_command_table(cmd: &Command) -> usize {
    let f = Fixture::new();
    let (inst, dev, other) = (&f.inst, &f.dev, &f.other);
    let allocate =
        |on: &Device| on.allocate_exporting(SIZE, cmd.memory_type, Some(flags(cmd.export)), None);
    let live = allocate(dev);
    let foreign = allocate(other);
    let freed = allocate(dev);
    dev.free(freed);
    let freed_elsewhere = allocate(other);
    other.free(freed_elsewhere);
    assert!(
        inst.messages().is_empty(),
        "the table's allocations are valid"
    );
    let forged = Box::new(f.dispatch_key());
    let here = dev.handle();
    let good = RawInfo {
        s_type: cmd.s_type,
        p_next: null(),
        memory: live,
        handle_type: cmd.good,
    };
    let with_memory = |memory: vk::DeviceMemory| RawInfo { memory, ..good };
    // SAFETY (every call below): the info is NULL or a live local; hostile values are the point.
    let call = |device: vk::Device, info: *const RawInfo, null_output: bool| unsafe {
        (cmd.call)(dev, device, info, null_output)
    };
    let ids = &cmd.ids;
    let mut m = Matrix::new(inst, cmd.name, cmd.counted);
    let valid = Expected::down(&[], SUCCESS);
    m.case("a valid call", valid.clone(), || call(here, &good, false));

    // NULL pointers.
    let null_info = format!("{} is NULL", cmd.info_param);
    let null_output = format!("{} is NULL", cmd.output_param);
    m.case(
        "NULL info",
        Expected::blocked(&[ids.info]).mentioning(&null_info),
        || call(here, null(), false),
    );
    m.case(
        "NULL output",
        Expected::blocked(&[ids.output]).mentioning(&null_output),
        || call(here, &good, true),
    );
    m.case(
        "NULL info and NULL output",
        Expected::blocked(&[ids.output, ids.info]),
        || call(here, null(), true),
    );

    // VkDevice values that are no device: looked up by value, never dereferenced.
    for (what, raw) in f.garbage_devices(live, &forged) {
        let device = vk::Device::from_raw(raw);
        let expected = Expected::blocked(&[ids.device]).mentioning(format!("device ({raw:#x})"));
        m.case(format!("device = {what}"), expected.clone(), || {
            call(device, &good, false)
        });
        m.case(
            format!("device = {what}, NULL info and output"),
            expected,
            || call(device, null(), true),
        );
    }

    // VkDeviceMemory values that are not live memory of this device.
    let field = format!("{}->memory is", cmd.info_param);
    let mut memories: Vec<(String, vk::DeviceMemory, Expected)> = vec![(
        "VK_NULL_HANDLE".to_owned(),
        vk::DeviceMemory::null(),
        Expected::blocked(&[ids.memory]).mentioning(format!("{field} VK_NULL_HANDLE")),
    )];
    let other_device =
        Expected::blocked(&[MEMORY_OF_OTHER_DEVICE]).mentioning("which belongs to another device");
    memories.extend(dead_memory_cases(
        here,
        &field,
        freed,
        freed_elsewhere,
        (foreign, other_device),
        |says| Expected::blocked(&[ids.memory]).mentioning(says),
    ));
    for (what, memory, expected) in memories {
        let info = with_memory(memory);
        m.case(format!("memory = {what}"), expected, || {
            call(here, &info, false)
        });
    }

    // Every other sType of the registry, and garbage ones: only the sType is wrong.
    let wrong_s_type = format!("{}->sType is ", cmd.info_param);
    for s_type in hostile::wrong_s_types(cmd.s_type) {
        let info = RawInfo { s_type, ..good };
        let expected = Expected::blocked(&[ids.s_type]).mentioning(&wrong_s_type);
        m.case(format!("sType = {}", s_type.as_raw()), expected, || {
            call(here, &info, false)
        });
    }

    // Every handle-type bit, no bit, and mixes: reported (not a bad pointer), then passed down.
    for bits in hostile::handle_type_values(DEFINED_HANDLE_TYPES) {
        // -parameter: not exactly one handle type valid on the device (defined, and of an
        // extension it enabled); then every value rule the bits break.
        let mut expected_ids = Vec::new();
        if !is_one_defined_bit(bits, DEVICE_HANDLE_TYPES) {
            expected_ids.push(ids.handle_type);
        }
        expected_ids.extend((cmd.value_ids)(bits, cmd.export));
        let info = RawInfo {
            handle_type: bits,
            ..good
        };
        let expected = Expected::down(&expected_ids, (cmd.driver_result)(bits));
        m.case(format!("handleType = {bits:#x}"), expected, || {
            call(here, &info, false)
        });
    }

    // pNext: reported, and passed down as the app made it (the layer never reads the chain, and
    // the test driver does not either); the app's structure is left as it was.
    let chains = HostileChains::new();
    let p_next = Expected::down(&[ids.p_next], SUCCESS)
        .mentioning(format!("{}->pNext is not NULL", cmd.info_param));
    for (what, head) in &chains.cases {
        let info = RawInfo {
            p_next: *head,
            ..good
        };
        m.prompt_case(format!("pNext = {what}"), p_next.clone(), || {
            let called = call(here, &info, false);
            assert_eq!(info.p_next, *head, "the app's structure must not change");
            called
        });
    }
    let mut own = good;
    let own_ptr: *mut RawInfo = &mut own;
    // SAFETY: `own` is a live local, used only through `own_ptr` from here on.
    unsafe { (*own_ptr).p_next = own_ptr.cast_const().cast() };
    m.prompt_case("pNext = the structure itself", p_next.clone(), || {
        call(here, own_ptr, false)
    });
    let mut back = Chain::same(1, null());
    let mut looped = good;
    let looped_ptr: *mut RawInfo = &mut looped;
    back.link_last_to(looped_ptr.cast_const().cast());
    // SAFETY: as above.
    unsafe { (*looped_ptr).p_next = back.head() };
    m.prompt_case(
        "pNext = a structure pointing back to the info",
        p_next,
        || call(here, looped_ptr, false),
    );

    // Several faults at once: the gate reports each bad argument it reaches, and nothing after
    // a bad pointer or handle is read.
    let garbage = with_memory(vk::DeviceMemory::from_raw(0xdead_beef));
    let wrong = RawInfo {
        s_type: vk::StructureType::MEMORY_ALLOCATE_INFO,
        p_next: own_ptr.cast_const().cast(),
        ..good
    };
    let undefined_bit = 1 << 13;
    let next_and = |memory: vk::DeviceMemory, handle_type: u32| RawInfo {
        p_next: chains.cases[0].1,
        memory,
        handle_type,
        ..good
    };
    let combos = [
        (
            "NULL output and garbage memory",
            garbage,
            true,
            Expected::blocked(&[ids.output, ids.memory]),
        ),
        (
            "NULL output and a wrong sType",
            wrong,
            true,
            Expected::blocked(&[ids.output, ids.s_type]),
        ),
        (
            "a wrong sType and a cyclic pNext",
            wrong,
            false,
            Expected::blocked(&[ids.s_type]),
        ),
        (
            "pNext and garbage memory",
            next_and(garbage.memory, cmd.good),
            false,
            Expected::blocked(&[ids.p_next, ids.memory]),
        ),
        (
            "pNext and freed memory",
            next_and(freed, cmd.good),
            false,
            Expected::blocked(&[ids.p_next, ids.memory]),
        ),
        (
            "pNext and memory of another device",
            next_and(foreign, cmd.good),
            false,
            Expected::blocked(&[ids.p_next, MEMORY_OF_OTHER_DEVICE]),
        ),
        (
            "garbage memory and an undefined handleType",
            RawInfo {
                handle_type: undefined_bit,
                ..garbage
            },
            false,
            Expected::blocked(&[ids.memory]),
        ),
        (
            "pNext and an undefined handleType",
            next_and(live, undefined_bit),
            false,
            Expected::down(
                &[
                    &[ids.p_next, ids.handle_type][..],
                    &(cmd.value_ids)(undefined_bit, cmd.export),
                ]
                .concat(),
                (cmd.driver_result)(undefined_bit),
            ),
        ),
    ];
    for (what, info, null_output, expected) in combos {
        m.prompt_case(what, expected, || call(here, &info, null_output));
    }

    // The memory is still live and exports after all of it.
    m.case("a valid call, after the hostile ones", valid, || {
        call(here, &good, false)
    });
    let cases = m.finish();
    dev.free(live);
    other.free(foreign);
    drop(chains);
    drop(back);
    cases
}

fn flags(bits: u32) -> vk::ExternalMemoryHandleTypeFlags {
    vk::ExternalMemoryHandleTypeFlags::from_raw(bits)
}

#[test]
fn vk_get_memory_fd_khr_hostile_matrix() {
    let cases = info_command_table(&FD);
    eprintln!("{}: {cases} cases", FD.name);
}

#[test]
fn vk_get_memory_remote_address_nv_hostile_matrix() {
    let cases = info_command_table(&REMOTE_ADDRESS);
    eprintln!("{}: {cases} cases", REMOTE_ADDRESS.name);
}

#[test]
fn vk_get_memory_metal_handle_ext_hostile_matrix() {
    let cases = info_command_table(&METAL);
    eprintln!("{}: {cases} cases", METAL.name);
}

/// The IDs `vkGetMemoryWin32HandleNV` gives `handleType` on memory exported with `export` (NV).
fn win32_handle_type_ids(bits: u32, export: u32) -> Vec<&'static str> {
    // Every rule the value breaks: 0 is required-bitmask, undefined bits -parameter, more than
    // one bit the layer's warning, and bits not exported 01326.
    let mut ids = Vec::new();
    if bits == 0 {
        ids.push(WIN32_HANDLE_TYPE_REQUIRED);
    }
    if bits & !DEFINED_HANDLE_TYPES_NV != 0 {
        ids.push(WIN32_HANDLE_TYPE_PARAM);
    }
    if bits.count_ones() > 1 {
        ids.push(WIN32_MULTIPLE_BITS);
    }
    if bits & !export != 0 {
        ids.push(WIN32_HANDLE_TYPE_01326);
    }
    ids
}

/// `vkGetMemoryWin32HandleNV` has no info structure: its memory and handleType are arguments.
#[test]
fn vk_get_memory_win32_handle_nv_hostile_matrix() {
    let f = Fixture::new();
    let (inst, dev, other) = (&f.inst, &f.dev, &f.other);
    let nv = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(OPAQUE_WIN32_NV);
    let allocate = |on: &Device| on.allocate_exporting(SIZE, PLAIN_TYPE, None, Some(nv));
    let live = allocate(dev);
    let foreign = allocate(other);
    let freed = allocate(dev);
    dev.free(freed);
    let freed_elsewhere = allocate(other);
    other.free(freed_elsewhere);
    assert!(
        inst.messages().is_empty(),
        "the table's allocations are valid"
    );
    let forged = Box::new(f.dispatch_key());
    let here = dev.handle();
    let get = dev.win32_handle.expect("vkGetMemoryWin32HandleNV");
    let call = |device: vk::Device, memory: vk::DeviceMemory, bits: u32, null_output: bool| {
        let mut handle = POINTER_SENTINEL as vk::HANDLE;
        let out: *mut vk::HANDLE = if null_output { null_mut() } else { &mut handle };
        let handle_type = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(bits);
        // SAFETY: the layer's own function; hostile values are the point.
        let result = unsafe { get(device, memory, handle_type, out) };
        Called {
            result: Some(result),
            written: handle as usize != POINTER_SENTINEL,
        }
    };
    let good = OPAQUE_WIN32_NV;
    let mut m = Matrix::new(inst, GET_WIN32_HANDLE, c"vkGetMemoryWin32HandleNV");
    let valid = Expected::down(&[], SUCCESS);
    m.case("a valid call", valid.clone(), || {
        call(here, live, good, false)
    });

    m.case(
        "NULL pHandle",
        Expected::blocked(&[WIN32_PHANDLE_PARAM]).mentioning("pHandle is NULL"),
        || call(here, live, good, true),
    );

    for (what, raw) in f.garbage_devices(live, &forged) {
        let device = vk::Device::from_raw(raw);
        let expected =
            Expected::blocked(&[WIN32_DEVICE_PARAM]).mentioning(format!("device ({raw:#x})"));
        m.case(format!("device = {what}"), expected.clone(), || {
            call(device, live, good, false)
        });
        m.case(
            format!("device = {what}, garbage memory and NULL pHandle"),
            expected,
            || call(device, vk::DeviceMemory::from_raw(1), 0, true),
        );
    }

    let mut memories: Vec<(String, vk::DeviceMemory, Expected)> = vec![(
        "VK_NULL_HANDLE".to_owned(),
        vk::DeviceMemory::null(),
        Expected::blocked(&[WIN32_MEMORY_PARAM]).mentioning("memory is VK_NULL_HANDLE"),
    )];
    let other_device =
        Expected::blocked(&[WIN32_MEMORY_PARENT]).mentioning("which was not allocated from device");
    memories.extend(dead_memory_cases(
        here,
        "memory is",
        freed,
        freed_elsewhere,
        (foreign, other_device),
        |says| Expected::blocked(&[WIN32_MEMORY_PARAM]).mentioning(says),
    ));
    for (what, memory, expected) in memories {
        m.case(format!("memory = {what}"), expected, || {
            call(here, memory, good, false)
        });
    }

    // The NV handle types: every bit, no bit, and mixes.
    for bits in hostile::handle_type_values(DEFINED_HANDLE_TYPES_NV) {
        let expected = Expected::down(&win32_handle_type_ids(bits, OPAQUE_WIN32_NV), SUCCESS);
        m.case(format!("handleType = {bits:#x}"), expected, || {
            call(here, live, bits, false)
        });
    }

    let garbage = vk::DeviceMemory::from_raw(0xdead_beef);
    let combos = [
        (
            "NULL pHandle and garbage memory",
            garbage,
            good,
            true,
            Expected::blocked(&[WIN32_PHANDLE_PARAM, WIN32_MEMORY_PARAM]),
        ),
        (
            "NULL pHandle and freed memory",
            freed,
            good,
            true,
            Expected::blocked(&[WIN32_PHANDLE_PARAM, WIN32_MEMORY_PARAM]),
        ),
        (
            "NULL pHandle and handleType 0",
            live,
            0,
            true,
            Expected::blocked(&[WIN32_PHANDLE_PARAM, WIN32_HANDLE_TYPE_REQUIRED]),
        ),
        (
            "garbage memory and an undefined handleType",
            garbage,
            1 << 4,
            false,
            Expected::blocked(&[WIN32_MEMORY_PARAM]),
        ),
        (
            "memory of another device and handleType 0",
            foreign,
            0,
            false,
            Expected::blocked(&[WIN32_MEMORY_PARENT]),
        ),
    ];
    for (what, memory, bits, null_output, expected) in combos {
        m.case(what, expected, || call(here, memory, bits, null_output));
    }

    m.case("a valid call, after the hostile ones", valid, || {
        call(here, live, good, false)
    });
    let cases = m.finish();
    eprintln!("{GET_WIN32_HANDLE}: {cases} cases");
    dev.free(live);
    other.free(foreign);
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
