//! The commands' fast path asks each command's `is_clean` whether a well-formed call on live
//! memory has nothing to report, and skips the full check when it says so; `vkFreeMemory` skips
//! it for live memory of the device. These tests hold the two together: over every combination
//! of device, allocation and handle type below, `is_clean` is true exactly when the full check
//! finds nothing, and freeing live memory finds nothing. (The `checks` fuzz target checks the
//! same on arbitrary input.)

use super::export::ExportArgs;
use super::fixtures::*;
use super::win32_nv::{self, Win32Args};
use super::{alloc, fd, metal, rdma};
use crate::finding::Outcome;
use crate::raw::{AllocateInfoRead, ChainEnd, ChainRead};
use crate::state::{
    AllocationFacts, DeviceFacts, EnabledExtensions, MemoryLookup, MemoryRecord, PackedAllocation,
};
use ash::vk;

type IsClean = fn(&DeviceFacts, &PackedAllocation, vk::ExternalMemoryHandleTypeFlags) -> bool;
type Check = fn(&DeviceFacts, &ExportArgs) -> Outcome;

/// The fully enabled device, and each variant with one thing missing.
fn devices() -> Vec<DeviceFacts> {
    let full = fd_device();
    let mut devices = vec![full.clone()];
    let toggles: [fn(&mut EnabledExtensions); 7] = [
        |e| e.khr_external_memory = false,
        |e| e.khr_external_memory_fd = false,
        |e| e.ext_external_memory_dma_buf = false,
        |e| e.nv_external_memory_rdma = false,
        |e| e.nv_external_memory = false,
        |e| e.nv_external_memory_win32 = false,
        |e| e.ext_external_memory_metal = false,
    ];
    for toggle in toggles {
        let mut device = full.clone();
        toggle(&mut device.extensions);
        device.handle_types = device.extensions.handle_types();
        devices.push(device);
    }
    // Vulkan 1.0 without VK_KHR_external_memory: VkExportMemoryAllocateInfo is not available.
    let mut version_1_0 = full.clone();
    version_1_0.extensions.khr_external_memory = false;
    version_1_0.api_version = vk::API_VERSION_1_0;
    devices.push(version_1_0);
    let mut no_rdma_feature = full.clone();
    no_rdma_feature.rdma_feature = false;
    devices.push(no_rdma_feature);
    devices
}

/// Masks that matter: none, each single bit, some valid pairs, every valid bit, every bit.
fn masks(valid: u32) -> Vec<u32> {
    let mut masks = vec![
        0,
        valid,
        u32::MAX,
        0x1 | 0x200,
        0x1 | 0x1000,
        0x10000 | 0x20000,
    ];
    masks.extend((0..32).map(|bit| 1u32 << bit));
    masks
}

fn allocations() -> Vec<AllocationFacts> {
    let valid = crate::vk_names::valid_handle_type_mask().as_raw();
    let valid_nv = crate::vk_names::valid_handle_type_nv_mask().as_raw();
    let mut all = Vec::new();
    for (size, memory_type_index) in [(4096, 0), (4096, RDMA_TYPE), (4096, 7), (0, 0)] {
        let base = AllocationFacts {
            size,
            memory_type_index,
            ..Default::default()
        };
        all.push(base);
        for mask in masks(valid) {
            all.push(AllocationFacts {
                export: Some(vk::ExternalMemoryHandleTypeFlags::from_raw(mask)),
                ..base
            });
        }
        for mask in masks(valid_nv) {
            all.push(AllocationFacts {
                export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::from_raw(mask)),
                export_win32_nv: mask & 1 != 0,
                ..base
            });
        }
    }
    all
}

/// Asserts that a fast-path predicate said `clean` exactly when the full check found nothing
/// (`what` names the case); 1 for a clean call, to count them.
fn agree(clean: bool, outcome: &Outcome, what: impl FnOnce() -> String) -> usize {
    assert_eq!(
        clean,
        outcome.findings.is_empty(),
        "{}: {:?}",
        what(),
        outcome.ids()
    );
    usize::from(clean)
}

fn record(device: &DeviceFacts, facts: AllocationFacts) -> MemoryRecord {
    MemoryRecord {
        memory: MEMORY,
        device: device.handle,
        facts,
        type_flags: device.type_flags(facts.memory_type_index),
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "pure logic over a large grid, no unsafe code: Miri adds nothing but hours"
)]
fn is_clean_is_true_exactly_when_the_full_check_finds_nothing() {
    let commands: [(&str, IsClean, Check); 3] = [
        ("fd", fd::is_clean, fd::check_get_memory_fd),
        (
            "rdma",
            rdma::is_clean,
            rdma::check_get_memory_remote_address,
        ),
        (
            "metal",
            metal::is_clean,
            metal::check_get_memory_metal_handle,
        ),
    ];
    let mut clean_calls = [0usize; 3];
    for device in devices() {
        for facts in allocations() {
            let record = record(&device, facts);
            let packed = record.packed();
            for handle_type in masks(u32::MAX) {
                let handle_type = vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type);
                let mut args = good_args(handle_type, facts);
                args.memory = MemoryLookup::Live(record);
                for (i, (name, is_clean, check)) in commands.iter().enumerate() {
                    let outcome = check(&device, &args);
                    let clean = is_clean(&device, &packed, handle_type);
                    clean_calls[i] += agree(clean, &outcome, || {
                        format!(
                            "{name}: {handle_type:?} on {facts:?}, device {:?}, rdma feature {}",
                            device.extensions, device.rdma_feature
                        )
                    });
                }
            }
        }
    }
    assert!(clean_calls.iter().all(|&n| n > 0), "{clean_calls:?}");
}

#[test]
#[cfg_attr(
    miri,
    ignore = "pure logic over a large grid, no unsafe code: Miri adds nothing but hours"
)]
fn win32_is_clean_is_true_exactly_when_the_full_check_finds_nothing() {
    let mut clean_calls = 0;
    for device in devices() {
        for facts in allocations() {
            let record = record(&device, facts);
            let packed = record.packed();
            for handle_type in masks(u32::MAX) {
                let handle_type = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(handle_type);
                let args = Win32Args {
                    memory_handle: MEMORY,
                    memory: MemoryLookup::Live(record),
                    handle_type,
                    output_null: false,
                };
                let outcome = win32_nv::check_get_memory_win32_handle(&device, &args);
                let clean = win32_nv::is_clean(&device, &packed, handle_type);
                clean_calls += agree(clean, &outcome, || {
                    format!(
                        "{handle_type:?} on {facts:?}, device {:?}",
                        device.extensions
                    )
                });
            }
        }
    }
    assert!(clean_calls > 0);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "pure logic over a large grid, no unsafe code: Miri adds nothing but hours"
)]
fn allocate_is_clean_is_true_exactly_when_the_full_check_finds_nothing() {
    let chains = [
        ChainRead::COMPLETE,
        ChainRead {
            end: ChainEnd::Cycle,
            ..ChainRead::COMPLETE
        },
        ChainRead {
            end: ChainEnd::TooLong,
            ..ChainRead::COMPLETE
        },
        ChainRead {
            repeated: Some(vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO),
            ..ChainRead::COMPLETE
        },
        ChainRead {
            import_fd: Some(3),
            ..ChainRead::COMPLETE
        },
    ];
    let mut facts_all = allocations();
    // The KHR and NV export structures together.
    facts_all.push(AllocationFacts {
        export: Some(OPAQUE_FD),
        export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32),
        ..Default::default()
    });
    facts_all.push(AllocationFacts {
        export: Some(OPAQUE_FD),
        export_win32_nv: true,
        ..Default::default()
    });
    let mut clean_calls = 0;
    for device in devices() {
        for facts in &facts_all {
            for chain in &chains {
                let read = AllocateInfoRead::Valid(*facts, *chain);
                let outcome = alloc::check_allocate(&device, &read, false);
                let clean = alloc::is_clean(&device, facts, chain);
                clean_calls += agree(clean, &outcome, || {
                    format!("{facts:?} {chain:?}, device {:?}", device.extensions)
                });
            }
        }
    }
    assert!(clean_calls > 0);
}

/// `vkFreeMemory` of live memory of the device skips the check: it must find nothing there.
#[test]
#[cfg_attr(
    miri,
    ignore = "pure logic over a large grid, no unsafe code: Miri adds nothing but hours"
)]
fn freeing_live_memory_finds_nothing() {
    for device in devices() {
        for facts in allocations() {
            let lookup = MemoryLookup::Live(record(&device, facts));
            let outcome = alloc::check_free(&device, MEMORY, &lookup);
            assert_eq!(outcome, Outcome::default(), "{facts:?}");
        }
    }
}
