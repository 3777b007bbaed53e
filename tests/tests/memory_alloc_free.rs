//! vkAllocateMemory's own rules, through the real loader over lavapipe: the pNext chain (cycles,
//! long chains, structures together), the export structures' handle types, pNext-pNext, and a
//! callback that skips an allocation. The structural cases of vkAllocateMemory and vkFreeMemory
//! (NULL pointers, a wrong sType, unknown devices, NULL, garbage, freed and another device's
//! memory) are rows of tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name, still_exports_fd as still_exports};
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, Device, Instance, DMA_BUF, FAILED, OPAQUE_FD, OPAQUE_WIN32, SIZE};
use std::ffi::c_void;
use std::time::Duration;

/// What the pMemory slot is pre-filled with, to see whether anything was written.
const MEMORY_SENTINEL: u64 = 0x5e5e_5e5e;
/// A `VkStructureType` no driver knows: lavapipe skips it in a pNext chain.
const UNKNOWN_STYPE: vk::StructureType = vk::StructureType::from_raw(1_000_999_999);
/// The layer walks at most this many structures of a chain (`MAX_CHAIN_LENGTH`).
const CHAIN_LIMIT: usize = 1 << 16;
/// A hostile chain must be refused without the driver ever walking it.
const PROMPT: Duration = Duration::from_secs(20);

fn allocate_info() -> vk::MemoryAllocateInfo<'static> {
    vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
}

/// `vkAllocateMemory` with a raw (possibly hostile) chain; the pMemory slot is pre-filled.
///
/// # Safety
/// `info`'s pNext chain is made of live structures (it may loop on purpose).
unsafe fn allocate_raw(dev: &Device, info: &vk::MemoryAllocateInfo<'_>) -> (vk::Result, u64) {
    let mut memory = vk::DeviceMemory::from_raw(MEMORY_SENTINEL);
    // SAFETY: the caller's contract; pMemory is valid.
    let r = unsafe { dev.allocate_raw(info, &mut memory) };
    (r, memory.as_raw())
}

/// `count` structures of a type lavapipe ignores, linked in order, the last pointing to `tail`.
fn ignored_chain(count: usize, tail: *const c_void) -> Vec<vk::BaseInStructure<'static>> {
    let mut chain = vec![
        vk::BaseInStructure {
            s_type: UNKNOWN_STYPE,
            p_next: std::ptr::null(),
            ..Default::default()
        };
        count
    ];
    // Linked through one raw pointer, so no reference to the elements outlives the links; the
    // vector is not resized while the chain is in use.
    let base = chain.as_mut_ptr();
    for i in 0..count {
        let next = if i + 1 < count {
            base.wrapping_add(i + 1).cast_const()
        } else {
            tail.cast()
        };
        // SAFETY: i < count, so `base + i` is an element of the vector.
        unsafe { (*base.add(i)).p_next = next };
    }
    chain
}

// ---- vkFreeMemory ----

// ---- vkAllocateMemory: pointers ----

// ---- vkAllocateMemory: the pNext chain ----

#[test]
fn self_referencing_chain_is_blocked_promptly() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let node: *mut vk::ExportMemoryAllocateInfo = &raw mut export;
    // SAFETY: `node` points to `export`, which outlives the call and is only used through `node`.
    unsafe { (*node).p_next = node.cast_const().cast() };
    let mut info = allocate_info();
    info.p_next = node.cast_const().cast();
    let (r, memory) = expect::promptly("vkAllocateMemory with a 1-cycle", PROMPT, || {
        // SAFETY: a chain of one live structure that points to itself, on purpose.
        unsafe { allocate_raw(&dev, &info) }
    });
    assert_eq!(r, FAILED);
    assert_eq!(memory, MEMORY_SENTINEL);
    let m = expect::one(&inst, ALLOCATE, ALLOC_STYPE_UNIQUE);
    expect::mentions(
        &m,
        &[
            "the pNext chain of pAllocateInfo loops back on itself",
            "not passed to the driver",
        ],
    );
    drop(dev);
}

#[test]
fn two_structure_cycle_is_blocked_promptly() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut priority = vk::MemoryPriorityAllocateInfoEXT::default().priority(0.5);
    let first: *mut vk::ExportMemoryAllocateInfo = &raw mut export;
    let second: *mut vk::MemoryPriorityAllocateInfoEXT = &raw mut priority;
    // SAFETY: both point to live locals that outlive the call and are only used through them.
    unsafe {
        (*first).p_next = second.cast_const().cast();
        (*second).p_next = first.cast_const().cast();
    }
    let mut info = allocate_info();
    info.p_next = first.cast_const().cast();
    let (r, memory) = expect::promptly("vkAllocateMemory with a 2-cycle", PROMPT, || {
        // SAFETY: a chain of two live structures pointing to each other, on purpose.
        unsafe { allocate_raw(&dev, &info) }
    });
    assert_eq!(r, FAILED);
    assert_eq!(memory, MEMORY_SENTINEL);
    expect::one(&inst, ALLOCATE, ALLOC_STYPE_UNIQUE);
    drop(dev);
}

#[test]
fn long_valid_chain_is_silent_and_read_to_its_end() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    // 10,000 structures lavapipe ignores, then the export structure: the layer must see it.
    let export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let chain = ignored_chain(10_000, (&raw const export).cast());
    let mut info = allocate_info();
    info.p_next = chain.as_ptr().cast();
    let (r, memory) = expect::promptly("vkAllocateMemory with 10,001 structures", PROMPT, || {
        // SAFETY: a long chain of live structures, ending in NULL.
        unsafe { allocate_raw(&dev, &info) }
    });
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, ALLOCATE);
    let memory = vk::DeviceMemory::from_raw(memory);
    // Exported with OPAQUE_FD as far as the layer knows: no 00671.
    still_exports(&inst, &dev, memory);
    dev.free(memory);
    drop(chain);
    drop(dev);
}

#[test]
fn chain_of_exactly_the_walk_limit_is_silent() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let chain = ignored_chain(CHAIN_LIMIT, std::ptr::null());
    let mut info = allocate_info();
    info.p_next = chain.as_ptr().cast();
    let (r, memory) = expect::promptly("vkAllocateMemory at the walk limit", PROMPT, || {
        // SAFETY: a long chain of live structures, ending in NULL.
        unsafe { allocate_raw(&dev, &info) }
    });
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, ALLOCATE);
    dev.free(vk::DeviceMemory::from_raw(memory));
    drop(dev);
}

#[test]
fn chain_longer_than_the_walk_limit_is_a_warning_and_goes_down() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let chain = ignored_chain(CHAIN_LIMIT + 1, std::ptr::null());
    let mut info = allocate_info();
    info.p_next = chain.as_ptr().cast();
    let (r, memory) = expect::promptly("vkAllocateMemory past the walk limit", PROMPT, || {
        // SAFETY: a long chain of live structures, ending in NULL.
        unsafe { allocate_raw(&dev, &info) }
    });
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(memory, MEMORY_SENTINEL);
    let m = expect::one(&inst, ALLOCATE, PNEXT_CHAIN_TOO_LONG);
    assert_eq!(m.severity, vk::DebugUtilsMessageSeverityFlagsEXT::WARNING);
    expect::mentions(
        &m,
        &[&format!(
            "more than {CHAIN_LIMIT} structures; the layer checked only the first {CHAIN_LIMIT}"
        )],
    );
    dev.free(vk::DeviceMemory::from_raw(memory));
    drop(dev);
}

#[test]
fn khr_and_nv_export_structures_together_are_00640() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut export_nv = vk::ExportMemoryAllocateInfoNV::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32);
    let info = allocate_info()
        .push_next(&mut export)
        .push_next(&mut export_nv);
    // Reported, not blocked: lavapipe ignores the NV structure and allocates. Lavapipe has no
    // VK_NV_external_memory, so the NV structure is not valid in the chain either.
    let memory = dev.allocate_with(&info).expect("the allocation goes down");
    let m = expect::only(&inst, ALLOCATE, &[ALLOC_PNEXT_00640, ALLOC_PNEXT_PNEXT]);
    expect::mentions(
        &m[0],
        &[
            "pNext chain of pAllocateInfo has a VkExportMemoryAllocateInfo together with \
             VkExportMemoryAllocateInfoNV",
        ],
    );
    expect::mentions(
        &m[1],
        &[&format!(
            "the pNext chain of pAllocateInfo has a VkExportMemoryAllocateInfoNV, but {} was \
             created without VK_NV_external_memory",
            device_name(&dev)
        )],
    );
    dev.free(memory);
    drop(dev);
}

#[test]
fn undefined_export_handle_type_bits_are_reported() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let cases: [(u32, &str); 2] = [
        (1 << 13, "handleTypes is 0x2000 (unknown bits)"),
        (
            OPAQUE_FD.as_raw() | 1 << 30,
            "handleTypes is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|0x40000000 (unknown bits)",
        ),
    ];
    for (raw, says) in cases {
        let mut export = vk::ExportMemoryAllocateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::from_raw(raw));
        let info = allocate_info().push_next(&mut export);
        let memory = dev.allocate_with(&info).expect("the allocation goes down");
        let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
        expect::mentions(
            &m,
            &[&format!(
                "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.{says}"
            )],
        );
        dev.free(memory);
    }
    drop(dev);
}

#[test]
fn callback_returning_true_skips_an_allocation_with_a_finding() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mut export = vk::ExportMemoryAllocateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 13));
    let info = allocate_info().push_next(&mut export);

    inst.answer(true);
    // SAFETY: a valid info and pMemory.
    let (r, memory) = unsafe { allocate_raw(&dev, &info) };
    assert_eq!(r, FAILED);
    assert_eq!(memory, MEMORY_SENTINEL, "a skipped call allocates nothing");
    expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);

    inst.answer(false);
    // SAFETY: as above.
    let (r, memory) = unsafe { allocate_raw(&dev, &info) };
    assert_eq!(r, vk::Result::SUCCESS);
    expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
    dev.free(vk::DeviceMemory::from_raw(memory));
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn undefined_nv_export_handle_type_bit_is_reported() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mut export_nv = vk::ExportMemoryAllocateInfoNV::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x10));
    let info = allocate_info().push_next(&mut export_nv);
    let memory = dev.allocate_with(&info).expect("the allocation goes down");
    // Every rule it breaks: lavapipe has no VK_NV_external_memory, and the bit is undefined.
    let m = expect::only(
        &inst,
        ALLOCATE,
        &[ALLOC_PNEXT_PNEXT, EXPORT_NV_HANDLE_TYPES_PARAM],
    );
    expect::mentions(
        &m[1],
        &["pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes is 0x10 (unknown bits)"],
    );
    dev.free(memory);
    drop(dev);
}

#[test]
fn exporting_and_plain_allocations_are_silent() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    // (The NV export structure needs VK_NV_external_memory, which lavapipe lacks: its silent
    // case is on the test driver, tests/tests/test_driver_win32.rs.)
    for export in [None, Some(OPAQUE_FD)] {
        let memory = dev.allocate(SIZE, export);
        dev.free(memory);
    }
    expect::silent_for(&inst, &[ALLOCATE, FREE]);
    drop(dev);
}

#[test]
fn export_types_are_judged_against_the_buffer_the_memory_is_bound_to() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    // Lavapipe reports OPAQUE_FD exportable for buffers and OPAQUE_WIN32 not. Memory is not judged
    // at vkAllocateMemory (nothing says yet what it is for)...
    let win32 = dev.allocate(SIZE, Some(OPAQUE_WIN32));
    let fd = dev.allocate(SIZE, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    // ...but against the buffer it is bound to, with that buffer's usage.
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let buffer = dev.external_buffer(usage, OPAQUE_WIN32);
    assert_eq!(dev.bind_buffer(buffer, win32), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_BUFFER, EXPORT_HANDLE_TYPES_09860);
    expect::mentions(
        &m,
        &[
            &format!("vkBindBufferMemory(): memory: {}", memory_name(win32)),
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT is not exportable for it",
            "as vkGetPhysicalDeviceExternalBufferProperties reports for this physical device",
        ],
    );
    let fd_buffer = dev.external_buffer(usage, OPAQUE_FD);
    assert_eq!(dev.bind_buffer(fd_buffer, fd), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER);
    dev.destroy_buffer(buffer);
    dev.destroy_buffer(fd_buffer);
    dev.free(win32);
    dev.free(fd);

    // DMA_BUF belongs to VK_EXT_external_memory_dma_buf, which lavapipe does not support: not a
    // valid value on this device at all.
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD | DMA_BUF));
    let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &["VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
           VK_EXT_external_memory_dma_buf, which the device was created without"],
    );
    dev.free(memory);
    drop(dev);
}

#[test]
fn an_export_structure_on_a_vulkan_1_0_device_without_its_extension_is_pnext_pnext() {
    // An app of Vulkan 1.0: VkExportMemoryAllocateInfo needs VK_KHR_external_memory.
    let inst = Instance::with(exportcheck_tests::Options {
        api_version: vk::API_VERSION_1_0,
        instance_extensions: &[ash::khr::external_memory_capabilities::NAME],
        ..Default::default()
    });
    let bare = inst.device(&[]);
    let memory = bare.allocate(SIZE, Some(OPAQUE_FD));
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_PNEXT);
    expect::mentions(
        &m,
        &[&format!(
            "the pNext chain of pAllocateInfo has a VkExportMemoryAllocateInfo, but {} was created \
             without VK_KHR_external_memory in VkDeviceCreateInfo::ppEnabledExtensionNames, nor is \
             its API version 1.1 or later",
            device_name(&bare)
        )],
    );
    bare.free(memory);
    drop(bare);
    // With the extension enabled: silent.
    let dev = inst.device(&[ash::khr::external_memory::NAME]);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
    drop(dev);
}
