//! The hostile-input matrix of `vkAllocateMemory` and `vkFreeMemory`, end to end: the real loader,
//! the layer and the project's test driver (`tests/icd`). For every argument, the tables of
//! `exportcheck_tests::hostile` are tried: NULL `pAllocateInfo` and `pMemory`, `VkDevice` values
//! that are no device, every other `VkStructureType` of the registry and garbage ones, every
//! handle-type bit of `VkExportMemoryAllocateInfo` and `VkExportMemoryAllocateInfoNV`, hostile
//! pNext chains (cycles through the info or its structures, 10,000 structures, unknown and
//! duplicated structures), and garbage, freed and foreign `VkDeviceMemory` to free. Each case must
//! yield exactly its IDs; a blocked call writes nothing and never reaches the driver (its call
//! counter does not move); any other call reaches it exactly once. The IDs each case must yield
//! come from the model of the rules (`tests/model`), told what the call's chain holds. See
//! docs/reliability.md.

use ash::vk::{self, Handle};
use exportcheck_tests::calls::{self, Args, Memories};
use exportcheck_tests::hostile::{
    self, dead_memory_cases, Called, Chain, Expected, Fixture, Matrix, GARBAGE_S_TYPES,
};
use exportcheck_tests::ids::*;
use exportcheck_tests::model::handle_type::{DEFINED, NV_DEFINED, NV_OPAQUE_WIN32, OPAQUE_FD};
use exportcheck_tests::model::{
    self, AllocateInfo, Allocation, Call, ChainEnd, Command, Imports, Info,
};
use exportcheck_tests::{fds, Device, SIZE};
use std::ffi::c_void;
use std::ptr::{null, null_mut};

const SUCCESS: vk::Result = vk::Result::SUCCESS;
/// What the pMemory slot is pre-filled with, to see whether anything was written.
const MEMORY_SENTINEL: u64 = 0x5e5e_5e5e;
/// The most structures the layer walks (`MAX_CHAIN_LENGTH`); longer chains are a warning.
const WALK_LIMIT: usize = 1 << 16;

/// `VkMemoryAllocateInfo` for `SIZE` bytes of memory type 0, with `s_type` and `p_next`.
fn allocate_info(
    s_type: vk::StructureType,
    p_next: *const c_void,
) -> vk::MemoryAllocateInfo<'static> {
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0);
    info.s_type = s_type;
    info.p_next = p_next;
    info
}

fn good_info(p_next: *const c_void) -> vk::MemoryAllocateInfo<'static> {
    allocate_info(vk::StructureType::MEMORY_ALLOCATE_INFO, p_next)
}

/// `vkAllocateMemory` through the layer's own pointer (from `vkGetDeviceProcAddr` for `dev`) on
/// `device`, with pMemory pre-filled (or NULL with `null_output`). Memory it allocates is handed
/// to `then`, then freed on `dev` (silently, when the layer tracked the allocation).
///
/// # Safety
/// `info` is NULL or a live structure whose chain is made of live structures (it may loop).
unsafe fn allocate_then(
    dev: &Device,
    device: vk::Device,
    info: *const vk::MemoryAllocateInfo<'_>,
    null_output: bool,
    then: impl FnOnce(vk::DeviceMemory),
) -> Called {
    let mut memory = vk::DeviceMemory::from_raw(MEMORY_SENTINEL);
    let out: *mut vk::DeviceMemory = if null_output { null_mut() } else { &mut memory };
    // SAFETY: the caller's contract; the layer is expected to stop every bad argument.
    let result = unsafe { (dev.device.fp_v1_0().allocate_memory)(device, info, null(), out) };
    let written = memory.as_raw() != MEMORY_SENTINEL;
    if result == SUCCESS && written {
        then(memory);
        dev.free(memory);
    }
    Called {
        result: Some(result),
        written,
        output: memory.as_raw(),
    }
}

/// [`allocate_then`] with nothing to do in between.
///
/// # Safety
/// As [`allocate_then`].
unsafe fn allocate(
    dev: &Device,
    device: vk::Device,
    info: *const vk::MemoryAllocateInfo<'_>,
    null_output: bool,
) -> Called {
    // SAFETY: the caller's contract.
    unsafe { allocate_then(dev, device, info, null_output, |_| {}) }
}

/// `SIZE` bytes of memory type 0, exported with `export` and `export_nv` if given.
fn allocation(export: Option<u32>, export_nv: Option<u32>) -> Allocation {
    Allocation::new(SIZE, 0, export, export_nv)
}

/// `vkAllocateMemory` of `allocation`, whose chain ends as `end` and has a structure the layer
/// reads twice if `repeated`.
fn chained(allocation: Allocation, end: ChainEnd, repeated: bool) -> Call {
    Call::Allocate {
        info: Info::Valid(AllocateInfo {
            allocation,
            end,
            repeated,
            imports: Imports::NONE,
        }),
        output_null: false,
    }
}

#[test]
fn vk_allocate_memory_hostile_matrix() {
    let f = Fixture::new();
    let (inst, dev) = (&f.inst, &f.dev);
    let kept = dev.allocate_exporting(SIZE, 0, None, None);
    let forged = Box::new(f.dispatch_key());
    let here = dev.handle();
    let plain = good_info(null());
    let device = inst.model_device(dev);
    // What the model says of a call on the table's device, which goes down with `down`.
    let expect_down = |call: Call, down: vk::Result| {
        Expected::from_model(model::expected(&device, &call), Some(down))
    };
    let expect = |call: Call| expect_down(call, SUCCESS);
    let mut m = Matrix::new(inst, ALLOCATE, c"vkAllocateMemory");
    let plain_call = Call::allocate(allocation(None, None));
    let valid = expect(plain_call);
    assert!(valid.ids.is_empty() && !valid.blocked);
    // SAFETY (every call below): the info is NULL or a live local whose chain is made of live
    // structures; hostile values are the point.
    let call = |device: vk::Device, info: *const vk::MemoryAllocateInfo<'_>, null_output: bool| unsafe {
        allocate(dev, device, info, null_output)
    };
    // An allocation exported as OPAQUE_FD must export silently: the layer read the export
    // structure, wherever it was in the chain.
    let exports_fd = |memory: vk::DeviceMemory| {
        let (r, fd) = dev.get_fd(memory, vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        assert_eq!(r, SUCCESS, "the OPAQUE_FD export of the allocation");
        fds::close(fd);
    };
    m.case("a valid call", valid.clone(), || call(here, &plain, false));

    // NULL pointers.
    let null_info = Call::Allocate {
        info: Info::Null,
        output_null: false,
    };
    let wrong_s_type = Call::Allocate {
        info: Info::WrongSType,
        output_null: false,
    };
    m.case(
        "NULL pAllocateInfo",
        expect(null_info).mentioning("pAllocateInfo is NULL"),
        || call(here, null(), false),
    );
    m.case(
        "NULL pMemory",
        expect(plain_call.with_null_output()).mentioning("pMemory is NULL"),
        || call(here, &plain, true),
    );
    m.case(
        "NULL pAllocateInfo and NULL pMemory",
        expect(null_info.with_null_output()),
        || call(here, null(), true),
    );

    // VkDevice values that are no device.
    let unknown = Expected::from_model(
        model::Expected::unknown_device(Command::AllocateMemory),
        Some(SUCCESS),
    );
    for (what, raw) in f.garbage_devices(kept, &forged) {
        let device = vk::Device::from_raw(raw);
        let expected = unknown.clone().mentioning(format!("device ({raw:#x})"));
        m.case(format!("device = {what}"), expected.clone(), || {
            call(device, &plain, false)
        });
        m.case(
            format!("device = {what}, NULL pAllocateInfo and pMemory"),
            expected,
            || call(device, null(), true),
        );
    }

    // Every other sType of the registry, and garbage ones: only the sType is wrong.
    for s_type in hostile::wrong_s_types(vk::StructureType::MEMORY_ALLOCATE_INFO) {
        let info = allocate_info(s_type, null());
        let expected = expect(wrong_s_type).mentioning("pAllocateInfo->sType is ");
        m.case(format!("sType = {}", s_type.as_raw()), expected, || {
            call(here, &info, false)
        });
    }

    // Every handle-type bit, no bit, and mixes, in each export structure: reported, then passed
    // down (the test driver records export structures but does not enforce them).
    for bits in hostile::handle_type_values(DEFINED) {
        let export = vk::ExportMemoryAllocateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::from_raw(bits));
        let info = good_info((&raw const export).cast());
        let expected = expect(Call::allocate(allocation(Some(bits), None)));
        m.case(
            format!("VkExportMemoryAllocateInfo::handleTypes = {bits:#x}"),
            expected,
            || call(here, &info, false),
        );
    }
    for bits in hostile::handle_type_values(NV_DEFINED) {
        let export = vk::ExportMemoryAllocateInfoNV::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlagsNV::from_raw(bits));
        let info = good_info((&raw const export).cast());
        m.case(
            format!("VkExportMemoryAllocateInfoNV::handleTypes = {bits:#x}"),
            expect(Call::allocate(allocation(None, Some(bits)))),
            || call(here, &info, false),
        );
    }

    // The other members: a memory type the device does not have is 01714 (blocked: the model
    // says so); a size past its type's heap is 01713, judged against the heap sizes the model
    // does not describe (added here); both go down otherwise and the driver refuses them.
    let type_count = {
        // SAFETY: the instance's own physical device.
        let props = unsafe {
            inst.instance
                .get_physical_device_memory_properties(inst.physical_device)
        };
        props.memory_type_count
    };
    for (what, size, index) in [
        ("allocationSize = 0", 0, 0),
        ("allocationSize = u64::MAX", u64::MAX, 0),
        ("memoryTypeIndex = memoryTypeCount", SIZE, type_count),
        ("memoryTypeIndex = u32::MAX", SIZE, u32::MAX),
    ] {
        let info = good_info(null())
            .allocation_size(size)
            .memory_type_index(index);
        let members = Call::allocate(Allocation::new(size, index, None, None));
        let mut refused = expect_down(members, vk::Result::ERROR_OUT_OF_DEVICE_MEMORY);
        if size == u64::MAX {
            refused
                .ids
                .push("VUID-vkAllocateMemory-pAllocateInfo-01713");
        }
        m.case(what, refused, || call(here, &info, false));
    }

    // pNext chains the layer walks (bounded, cycle-detecting): a cycle is blocked, since the
    // driver would walk it forever; anything else is checked to its end and goes down.
    let export_fd = vk::ExportMemoryAllocateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let export_ptr: *const c_void = (&raw const export_fd).cast();
    // Unknown structures in a cycle: an allocation without export structures; real export
    // structures in a cycle: exported as OPAQUE_FD.
    let fd = allocation(Some(OPAQUE_FD), None);
    let cycle = expect(chained(allocation(None, None), ChainEnd::Cycle, false))
        .mentioning("loops back on itself");
    let fd_cycle = expect(chained(fd, ChainEnd::Cycle, false)).mentioning("loops back on itself");
    let mut chains: Vec<Chain> = Vec::new();
    let mut cyclic: Vec<(String, *const c_void)> = Vec::new();
    let mut add = |what: &str, chain: Chain, into: &mut Vec<(String, *const c_void)>| {
        into.push((what.to_owned(), chain.head()));
        chains.push(chain);
    };
    add(
        "a structure pointing to itself",
        Chain::cycle(1),
        &mut cyclic,
    );
    add("a 2-cycle (a -> b -> a)", Chain::cycle(2), &mut cyclic);
    add(
        "a cycle of 10,000 structures",
        Chain::cycle(10_000),
        &mut cyclic,
    );
    let tail = Chain::cycle(2);
    let mut long_then_cycle = Chain::distinct(10_000, null());
    long_then_cycle.link_last_to(tail.head());
    add(
        "10,000 structures, then a 2-cycle",
        long_then_cycle,
        &mut cyclic,
    );
    add("the 2-cycle's tail", tail, &mut Vec::new());
    // Past the layer's walk limit: a cycle there is still a cycle, and the driver would still walk
    // it forever.
    let far_tail = Chain::cycle(2);
    let mut past_limit_then_cycle = Chain::distinct(WALK_LIMIT, null());
    past_limit_then_cycle.link_last_to(far_tail.head());
    add(
        "65,536 structures (the walk limit), then a 2-cycle",
        past_limit_then_cycle,
        &mut cyclic,
    );
    add("the far 2-cycle", far_tail, &mut Vec::new());
    add(
        "a cycle of 70,000 structures (longer than the walk limit)",
        Chain::cycle(70_000),
        &mut cyclic,
    );
    for (what, head) in &cyclic {
        let info = good_info(*head);
        m.prompt_case(format!("pNext = {what}"), cycle.clone(), || {
            call(here, &info, false)
        });
    }
    // Real structures in a cycle: VkExportMemoryAllocateInfo <-> VkMemoryPriorityAllocateInfoEXT,
    // and VkExportMemoryAllocateInfo pointing to itself.
    let mut export_a = export_fd;
    let mut priority = vk::MemoryPriorityAllocateInfoEXT::default().priority(0.5);
    let (a, b): (
        *mut vk::ExportMemoryAllocateInfo,
        *mut vk::MemoryPriorityAllocateInfoEXT,
    ) = (&raw mut export_a, &raw mut priority);
    // SAFETY: both are live locals, used only through `a` and `b` from here on.
    unsafe {
        (*a).p_next = b.cast_const().cast();
        (*b).p_next = a.cast_const().cast();
    }
    let info = good_info(a.cast_const().cast());
    m.prompt_case(
        "pNext = export <-> priority structures",
        fd_cycle.clone(),
        || call(here, &info, false),
    );
    let mut export_self = export_fd;
    let self_ptr: *mut vk::ExportMemoryAllocateInfo = &raw mut export_self;
    // SAFETY: a live local, used only through `self_ptr` from here on.
    unsafe { (*self_ptr).p_next = self_ptr.cast_const().cast() };
    let info = good_info(self_ptr.cast_const().cast());
    m.prompt_case(
        "pNext = an export structure pointing to itself",
        fd_cycle,
        || call(here, &info, false),
    );
    // The info itself in the cycle: info.pNext = &info, and info -> node -> info.
    let mut own = plain;
    let own_ptr: *mut vk::MemoryAllocateInfo = &raw mut own;
    // SAFETY: a live local, used only through `own_ptr` from here on.
    unsafe { (*own_ptr).p_next = own_ptr.cast_const().cast() };
    m.prompt_case("pNext = the info itself", cycle.clone(), || {
        call(here, own_ptr, false)
    });
    let mut back = Chain::same(1, null());
    let mut looped = plain;
    let looped_ptr: *mut vk::MemoryAllocateInfo = &raw mut looped;
    back.link_last_to(looped_ptr.cast_const().cast());
    // SAFETY: as above.
    unsafe { (*looped_ptr).p_next = back.head() };
    m.prompt_case(
        "pNext = a structure pointing back to the info",
        cycle,
        || call(here, looped_ptr, false),
    );

    // Long chains and unknown structures, ending in the export structure: silent, passed down,
    // and the export structure at the end was read (the memory exports as OPAQUE_FD silently).
    let mut ending_in_export: Vec<(String, Chain)> = vec![
        (
            "10,000 unknown structures of distinct sTypes".to_owned(),
            Chain::distinct(10_000, export_ptr),
        ),
        (
            "10,000 unknown structures of one sType".to_owned(),
            Chain::same(10_000, export_ptr),
        ),
    ];
    for s_type in GARBAGE_S_TYPES {
        ending_in_export.push((
            format!("an unknown structure (sType {s_type})"),
            Chain::new(1, |_| vk::StructureType::from_raw(s_type), export_ptr),
        ));
    }
    for (what, chain) in &ending_in_export {
        let info = good_info(chain.head());
        m.prompt_case(
            format!("pNext = {what}, then export"),
            expect(Call::allocate(fd)),
            || {
                // SAFETY: as `call`.
                unsafe { allocate_then(dev, here, &info, false, exports_fd) }
            },
        );
    }

    // Longer than the walk limit, and acyclic: a warning, and the call goes down.
    let too_long = Chain::distinct(WALK_LIMIT + 1, null());
    let info = good_info(too_long.head());
    m.prompt_case(
        "pNext = 65,537 unknown structures (past the walk limit)",
        expect(chained(allocation(None, None), ChainEnd::TooLong, false)),
        || call(here, &info, false),
    );

    // Structures that may appear once: each twice (VUID-VkMemoryAllocateInfo-sType-unique), and
    // the KHR and NV export structures together (00640). Not a bad pointer: reported, passed down.
    let mut export_twice = export_fd;
    export_twice.p_next = export_ptr;
    let info = good_info((&raw const export_twice).cast());
    m.case(
        "pNext = VkExportMemoryAllocateInfo twice",
        expect(chained(fd, ChainEnd::Complete, true)),
        || call(here, &info, false),
    );
    let nv = vk::ExportMemoryAllocateInfoNV::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32);
    let mut nv_twice = nv;
    nv_twice.p_next = (&raw const nv).cast();
    let info = good_info((&raw const nv_twice).cast());
    m.case(
        "pNext = VkExportMemoryAllocateInfoNV twice",
        expect(chained(
            allocation(None, Some(NV_OPAQUE_WIN32)),
            ChainEnd::Complete,
            true,
        )),
        || call(here, &info, false),
    );
    let mut khr_and_nv = export_fd;
    khr_and_nv.p_next = (&raw const nv).cast();
    let info = good_info((&raw const khr_and_nv).cast());
    m.case(
        "pNext = VkExportMemoryAllocateInfo and VkExportMemoryAllocateInfoNV",
        expect(Call::allocate(allocation(
            Some(OPAQUE_FD),
            Some(NV_OPAQUE_WIN32),
        ))),
        || call(here, &info, false),
    );

    // Several faults at once: nothing after a bad pointer or handle is read. An unreadable pNext
    // proves that the chain of a structure that is not read is never walked.
    // Address 1: never mapped.
    let unreadable = std::ptr::dangling::<c_void>();
    let wrong_unreadable = allocate_info(vk::StructureType::MEMORY_GET_FD_INFO_KHR, unreadable);
    let good_unreadable = good_info(unreadable);
    let cyclic_info = good_info(cyclic[1].1);
    let undefined = vk::ExportMemoryAllocateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 13));
    let undefined_info = good_info((&raw const undefined).cast());
    let combos = [
        (
            "a wrong sType and an unreadable pNext",
            here,
            &wrong_unreadable,
            false,
            expect(wrong_s_type),
        ),
        (
            "a garbage device and an unreadable pNext",
            vk::Device::from_raw(0xdead_beef),
            &good_unreadable,
            false,
            unknown.clone(),
        ),
        (
            "NULL pMemory and a cyclic pNext",
            here,
            &cyclic_info,
            true,
            expect(chained(allocation(None, None), ChainEnd::Cycle, false).with_null_output()),
        ),
        (
            "NULL pMemory and an undefined handle type",
            here,
            &undefined_info,
            true,
            expect(Call::allocate(allocation(Some(1 << 13), None)).with_null_output()),
        ),
        (
            "NULL pMemory and a wrong sType",
            here,
            &wrong_unreadable,
            true,
            expect(wrong_s_type.with_null_output()),
        ),
    ];
    for (what, device, info, null_output, expected) in combos {
        let info: *const vk::MemoryAllocateInfo = info;
        m.prompt_case(what, expected, || call(device, info, null_output));
    }

    m.case("a valid call, after the hostile ones", valid, || {
        call(here, &plain, false)
    });
    let cases = m.finish();
    eprintln!("{ALLOCATE}: {cases} cases");
    dev.free(kept);
    drop(chains);
    drop(ending_in_export);
    drop(back);
}

#[test]
fn vk_free_memory_hostile_matrix() {
    let f = Fixture::new();
    let (inst, dev, other) = (&f.inst, &f.dev, &f.other);
    let allocate = |on: &Device| on.allocate_exporting(SIZE, 0, None, None);
    // Kept through every blocked free; freed last, which must work (it was never forgotten).
    let kept = allocate(dev);
    let foreign = allocate(other);
    let freed = allocate(dev);
    dev.free(freed);
    let freed_elsewhere = allocate(other);
    other.free(freed_elsewhere);
    assert!(
        inst.messages().is_empty(),
        "the table's allocations are valid"
    );
    let live = allocate(dev);
    let mut memories = Memories::default();
    memories.live(kept, allocation(None, None));
    memories.live(live, allocation(None, None));
    memories.foreign(foreign);
    memories.freed(freed);
    let forged = Box::new(f.dispatch_key());
    let here = dev.handle();
    let device = inst.model_device(dev);
    let free = Command::FreeMemory;
    // What the model says of freeing `memory` on the table's device, or on a device that is none.
    let expect = |memories: &Memories, args: &Args| {
        let model = if args.device == here {
            model::expected(&device, &memories.model_call(free, args))
        } else {
            model::Expected::unknown_device(free)
        };
        Expected::from_model(model, None)
    };
    let call = |args: Args| {
        // SAFETY: the layer's own function; hostile values are the point.
        unsafe { calls::call(free, dev, &args) }
    };
    let mut m = Matrix::new(inst, FREE, c"vkFreeMemory");
    let valid = Args::new(free, here, live, 0);
    m.case("a valid call", expect(&memories, &valid), || call(valid));
    memories.freed(live);
    let null = valid.memory(vk::DeviceMemory::null());
    m.case(
        "memory = VK_NULL_HANDLE (valid: nothing is freed)",
        expect(&memories, &null),
        || call(null),
    );

    for (what, raw) in f.garbage_devices(kept, &forged) {
        let args = Args::new(free, vk::Device::from_raw(raw), kept, 0);
        let expected = expect(&memories, &args).mentioning(format!("device ({raw:#x})"));
        m.case(format!("device = {what}"), expected.clone(), || call(args));
        let null = args.memory(vk::DeviceMemory::null());
        m.case(
            format!("device = {what}, memory = VK_NULL_HANDLE"),
            expected,
            || call(null),
        );
    }

    // The freed memory is a double free here.
    let mut dead = dead_memory_cases(
        here,
        "memory is",
        freed,
        freed_elsewhere,
        (foreign, "which was not allocated from device"),
    );
    dead.push((
        "the valid call's memory, freed again".to_owned(),
        live,
        "which was already freed with vkFreeMemory".to_owned(),
    ));
    for (what, memory, says) in dead {
        let args = Args::new(free, here, memory, 0);
        m.case(
            format!("memory = {what}"),
            expect(&memories, &args).mentioning(says),
            || call(args),
        );
    }

    // Nothing blocked was freed: both allocations are still live, and free as they should.
    let theirs = Args::new(free, other.handle(), foreign, 0);
    m.case(
        "the other device frees its memory",
        Expected::down_void(&[]),
        // SAFETY: the other device's own memory, through the layer.
        || unsafe { calls::call(free, other, &theirs) },
    );
    let last = Args::new(free, here, kept, 0);
    m.case(
        "a valid call, after the hostile ones",
        expect(&memories, &last),
        || call(last),
    );
    let cases = m.finish();
    eprintln!("{FREE}: {cases} cases");
}
