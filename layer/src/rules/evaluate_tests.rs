//! Each rule is evaluated once (`evaluate`) and described once (`describe`, only for what
//! `evaluate` said is broken). These tests hold the two together over every combination of
//! device, allocation and handle type below: each broken rule gets exactly one finding, a call
//! with nothing broken gets none, and the call is blocked exactly when a blocking rule is
//! broken. (The `checks` fuzz target checks the outcomes against an independent model of the
//! spec on arbitrary input.)
//!
//! The three grids (`each_broken_export_rule_is_described_once`,
//! `each_broken_allocate_rule_is_described_once`, `freeing_live_memory_finds_nothing`) are pure
//! logic without `unsafe` code: Miri ignores them, and `scripts/sanitize.sh` skips them under
//! ASan, TSan and valgrind (its `grid_tests`), where instrumented allocation made them minutes.

use super::fixtures::*;
use super::rule_set::RuleSet;
use crate::args::{AllocateInfoRead, ChainEnd, ChainRead};
use crate::finding::Outcome;
use crate::rules::allocate::alloc;
use crate::rules::export::get_memory_android_hardware_buffer;
use crate::rules::export::get_memory_fd;
use crate::rules::export::get_memory_metal_handle;
use crate::rules::export::get_memory_remote_address;
use crate::rules::export::get_memory_win32_handle;
use crate::rules::export::get_memory_win32_handle_nv;
use crate::rules::export::get_memory_zircon_handle;
use crate::rules::export::{blocks, check, describe, evaluate, ExportCall, ExportCommand};
use crate::state::{AllocationFacts, DeviceFacts, EnabledExtensions, MemoryLookup, MemoryRecord};
use ash::vk;

/// The fully enabled device, and each variant with one thing missing.
fn devices() -> Vec<DeviceFacts> {
    let full = fd_device();
    let mut devices = vec![full.clone()];
    let toggles: [fn(&mut EnabledExtensions); 10] = [
        |e| e.khr_external_memory = false,
        |e| e.khr_external_memory_fd = false,
        |e| e.ext_external_memory_dma_buf = false,
        |e| e.nv_external_memory_rdma = false,
        |e| e.nv_external_memory = false,
        |e| e.nv_external_memory_win32 = false,
        |e| e.ext_external_memory_metal = false,
        |e| e.khr_external_memory_win32 = false,
        |e| e.fuchsia_external_memory = false,
        |e| e.android_external_memory_android_hardware_buffer = false,
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

/// Asserts that `outcome` has one finding per rule of `broken` (`count` of them; `what` names the
/// case); 1 for a call with nothing broken, to count them.
fn one_finding_per_rule(
    (broken, count): (&impl std::fmt::Debug, u32),
    outcome: &Outcome,
    what: impl FnOnce() -> String,
) -> usize {
    assert_eq!(
        count as usize,
        outcome.findings.len(),
        "{}: {broken:?} {:?}",
        what(),
        outcome.ids()
    );
    usize::from(count == 0)
}

/// `[$f(&COMMAND), ...]` of every export command's descriptor (each of its own rules' type: `$f`
/// is expanded once for each).
macro_rules! each_export_command {
    ($f:expr) => {
        [
            $f(&get_memory_fd::COMMAND),
            $f(&get_memory_remote_address::COMMAND),
            $f(&get_memory_metal_handle::COMMAND),
            $f(&get_memory_win32_handle_nv::COMMAND),
            $f(&get_memory_win32_handle::COMMAND),
            $f(&get_memory_zircon_handle::COMMAND),
            $f(&get_memory_android_hardware_buffer::COMMAND),
        ]
    };
}

/// The export rules `call` breaks, each described once, blocking exactly when a blocking rule is
/// broken: 1 for a call with nothing broken, to count them.
fn export_described_once<R: RuleSet>(
    cmd: &ExportCommand<R>,
    device: &DeviceFacts,
    call: &ExportCall,
    what: impl FnOnce() -> String,
) -> usize {
    let broken = evaluate(cmd, device, call);
    let outcome = describe(cmd, device, call, broken);
    assert_eq!(outcome.blocked, blocks(broken));
    one_finding_per_rule((&broken, broken.len()), &outcome, what)
}

fn record(device: &DeviceFacts, facts: AllocationFacts) -> MemoryRecord {
    MemoryRecord::new(
        MEMORY,
        device.handle,
        &facts,
        device.type_flags(facts.memory_type_index),
    )
}

#[test]
#[cfg_attr(
    miri,
    ignore = "pure logic over a large grid, no unsafe code: Miri adds nothing but hours"
)]
fn each_broken_export_rule_is_described_once() {
    let mut clean_calls = [0usize; 7];
    for device in devices() {
        for facts in allocations() {
            let record = record(&device, facts);
            for handle_type in masks(u32::MAX) {
                let mut call = good_args(
                    vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type),
                    facts,
                );
                call.object = MemoryLookup::Live(record);
                let clean = each_export_command!(|cmd: &ExportCommand<_>| {
                    export_described_once(cmd, &device, &call, || {
                        format!(
                            "{}: {handle_type:#x} on {facts:?}, device {:?}, rdma feature {}",
                            cmd.name, device.extensions, device.rdma_feature
                        )
                    })
                });
                for (total, clean) in clean_calls.iter_mut().zip(clean) {
                    *total += clean;
                }
            }
        }
    }
    assert!(clean_calls.iter().all(|&n| n > 0), "{clean_calls:?}");
}

#[test]
fn structural_rules_are_described_once_and_block() {
    let device = fd_device();
    let calls = [
        ExportCall {
            info: crate::args::StructArg::Null,
            output_null: true,
            object: MemoryLookup::Null,
        },
        ExportCall {
            info: crate::args::StructArg::WrongSType(vk::StructureType::APPLICATION_INFO),
            output_null: false,
            object: MemoryLookup::Null,
        },
        ExportCall {
            object: MemoryLookup::Unknown,
            ..good_args(OPAQUE_FD, exported(OPAQUE_FD))
        },
    ];
    each_export_command!(|cmd: &ExportCommand<_>| {
        // The Win32 NV command has no info structure: it is never NULL nor mistyped.
        let calls = if cmd.info.is_some() {
            &calls[..]
        } else {
            &calls[2..]
        };
        for call in calls {
            let broken = evaluate(cmd, &device, call);
            let outcome = check(cmd, &device, call);
            assert!(outcome.blocked, "{}", cmd.name);
            one_finding_per_rule((&broken, broken.len()), &outcome, || cmd.name.to_owned());
        }
    });
}

#[test]
#[cfg_attr(
    miri,
    ignore = "pure logic over a large grid, no unsafe code: Miri adds nothing but hours"
)]
fn each_broken_allocate_rule_is_described_once() {
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
    ];
    // Fd imports: every handle type value of interest, with open, closed and negative fds, alone
    // and with a second import operation.
    let import = |handle_type: u32, fd, open, operations| ChainRead {
        import_fd: Some(crate::args::FdImport {
            handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type),
            fd,
            open,
            not_of_type: None,
        }),
        import_operations: operations,
        ..ChainRead::COMPLETE
    };
    let mut chains = chains.to_vec();
    for handle_type in [0, 1, 2, 3, 1 << 9, 1 << 30] {
        for (fd, open) in [(3, Some(true)), (3, Some(false)), (-1, None), (3, None)] {
            for operations in [1, 2] {
                chains.push(import(handle_type, fd, open, operations));
            }
        }
    }
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
                let broken = alloc::evaluate_allocate(&device, &read, false);
                let outcome = alloc::describe_allocate(&device, &read, broken);
                assert_eq!(outcome.blocked, alloc::blocks(broken));
                clean_calls += one_finding_per_rule((&broken, broken.len()), &outcome, || {
                    format!("{facts:?} {chain:?}, device {:?}", device.extensions)
                });
            }
        }
    }
    assert!(clean_calls > 0);
}

/// `vkFreeMemory` of live memory of the device has nothing to evaluate: it must find nothing
/// there.
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
