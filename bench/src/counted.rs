//! What the instruction-counting child counts (`instructions`, `sharing_counts`): the counted
//! function callgrind is told of, the operations and their targets, and [`count`], which counts
//! one. Below both files, which use it.

use ash::vk;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::model::Config;

/// The counted function's symbol, as callgrind is told it.
pub const SYMBOL: &str = "exportcheck_bench_counted";
/// Size of every allocation of this mode: 64 KiB.
pub const ALLOCATION_SIZE: u64 = 64 * 1024;
/// N: the counted calls run N and 2N iterations. A multiple of the layer's ring sizes (its freed
/// ring has 64 slots), so that a measurement holds whole turns of anything periodic.
pub const ITERATIONS: u64 = 256;
/// Uncounted iterations of each operation before its counted ones: more than any per-thread
/// ring or memo of the layer holds, so the counted calls see its steady state.
pub const WARMUP: u64 = 128;

/// Runs `op` `iterations` times: the only code callgrind counts. Returns the first result that
/// is not `VK_SUCCESS`, else `VK_SUCCESS`.
#[no_mangle]
#[inline(never)]
pub fn exportcheck_bench_counted(
    iterations: u64,
    op: &mut dyn FnMut() -> vk::Result,
) -> vk::Result {
    let mut result = vk::Result::SUCCESS;
    for _ in 0..iterations {
        let r = op();
        if r != vk::Result::SUCCESS && result == vk::Result::SUCCESS {
            result = r;
        }
    }
    result
}

/// An operation whose instructions are counted. Its name in results.json is the timing
/// suite's key of the same measurement (`export_fd`, `alloc_free`, `unchecked`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    ExportFd,
    AllocFree,
    Unchecked,
    ExportRdma,
    ExportWin32,
    ExportMetal,
    ExportWin32Khr,
    ExportZircon,
    QueryFdProperties,
    QueryHostPointerProperties,
    ExportAhb,
    QueryWin32Properties,
    QueryZirconProperties,
    QueryAhbProperties,
    ImportFd,
    ImportHostPointer,
    CreateDestroySemaphore,
    SubmitPlainSemaphore,
    ExportSemaphoreFd,
    ImportSemaphoreFd,
    SubmitSharedSemaphore,
}

impl Op {
    /// In the order counted: the plain semaphore's submission comes before any shared semaphore
    /// was made (each operation destroys its semaphores, so the device has none either way).
    pub const ALL: [Op; 21] = [
        Op::ExportFd,
        Op::AllocFree,
        Op::Unchecked,
        Op::ExportRdma,
        Op::ExportWin32,
        Op::ExportMetal,
        Op::ExportWin32Khr,
        Op::ExportZircon,
        Op::QueryFdProperties,
        Op::QueryHostPointerProperties,
        Op::ExportAhb,
        Op::QueryWin32Properties,
        Op::QueryZirconProperties,
        Op::QueryAhbProperties,
        Op::ImportFd,
        Op::ImportHostPointer,
        Op::CreateDestroySemaphore,
        Op::SubmitPlainSemaphore,
        Op::ExportSemaphoreFd,
        Op::ImportSemaphoreFd,
        Op::SubmitSharedSemaphore,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Op::ExportFd => "vkGetMemoryFdKHR + close (OPAQUE_FD)",
            Op::AllocFree => "vkAllocateMemory + vkFreeMemory (64 KiB, export OPAQUE_FD)",
            Op::Unchecked => "vkGetBufferMemoryRequirements (not checked)",
            Op::ExportRdma => "vkGetMemoryRemoteAddressNV",
            Op::ExportWin32 => "vkGetMemoryWin32HandleNV",
            Op::ExportMetal => "vkGetMemoryMetalHandleEXT",
            Op::ExportWin32Khr => "vkGetMemoryWin32HandleKHR (OPAQUE_WIN32_KMT)",
            Op::ExportZircon => "vkGetMemoryZirconHandleFUCHSIA",
            Op::QueryFdProperties => "vkGetMemoryFdPropertiesKHR (DMA_BUF, an exported fd)",
            Op::QueryHostPointerProperties => {
                "vkGetMemoryHostPointerPropertiesEXT (HOST_ALLOCATION, aligned)"
            }
            Op::ExportAhb => "vkGetMemoryAndroidHardwareBufferANDROID",
            Op::QueryWin32Properties => {
                "vkGetMemoryWin32HandlePropertiesKHR (D3D12_RESOURCE, an exported handle)"
            }
            Op::QueryZirconProperties => {
                "vkGetMemoryZirconHandlePropertiesFUCHSIA (an exported VMO)"
            }
            Op::QueryAhbProperties => {
                "vkGetAndroidHardwareBufferPropertiesANDROID (an exported buffer)"
            }
            Op::ImportFd => {
                "vkGetMemoryFdKHR + vkAllocateMemory importing it + vkFreeMemory (OPAQUE_FD)"
            }
            Op::ImportHostPointer => "vkAllocateMemory importing host memory + vkFreeMemory",
            Op::CreateDestroySemaphore => "vkCreateSemaphore + vkDestroySemaphore (binary, plain)",
            Op::SubmitPlainSemaphore => {
                "vkQueueSubmit waiting on + signaling a plain semaphore (none shared)"
            }
            Op::ExportSemaphoreFd => "vkGetSemaphoreFdKHR + close (OPAQUE_FD, binary)",
            Op::ImportSemaphoreFd => {
                "vkGetSemaphoreFdKHR + vkImportSemaphoreFdKHR into another semaphore (OPAQUE_FD)"
            }
            Op::SubmitSharedSemaphore => {
                "vkQueueSubmit waiting on + signaling a semaphore exportable as OPAQUE_FD"
            }
        }
    }

    /// The most instructions per call the layer may add.
    pub fn target(self) -> u64 {
        match self {
            Op::Unchecked => UNCHECKED_ADDED_MAX,
            Op::AllocFree => ALLOC_FREE_ADDED_MAX,
            Op::ExportFd
            | Op::ExportRdma
            | Op::ExportWin32
            | Op::ExportMetal
            | Op::ExportWin32Khr
            | Op::ExportZircon
            | Op::ExportAhb
            | Op::ExportSemaphoreFd => EXPORT_ADDED_MAX,
            // A query is checked like an export (one device lookup, the structural rules, a
            // few value rules, the call down), so it has the same budget.
            Op::QueryFdProperties
            | Op::QueryHostPointerProperties
            | Op::QueryWin32Properties
            | Op::QueryZirconProperties
            | Op::QueryAhbProperties => QUERY_ADDED_MAX,
            // An export, an allocation and a free.
            Op::ImportFd => EXPORT_ADDED_MAX + ALLOC_FREE_ADDED_MAX,
            Op::ImportHostPointer => ALLOC_FREE_ADDED_MAX,
            // An object's creation and destruction recorded, as the allocation pair's are.
            Op::CreateDestroySemaphore => ALLOC_FREE_ADDED_MAX,
            // An export and an import checked like one.
            Op::ImportSemaphoreFd => 2 * EXPORT_ADDED_MAX,
            Op::SubmitPlainSemaphore | Op::SubmitSharedSemaphore => SUBMIT_ADDED_MAX,
        }
    }
}

/// Targets, in instructions the layer adds per call.
pub const EXPORT_ADDED_MAX: u64 = 120;
pub const QUERY_ADDED_MAX: u64 = EXPORT_ADDED_MAX;
pub const ALLOC_FREE_ADDED_MAX: u64 = 600;
pub const UNCHECKED_ADDED_MAX: u64 = 0;
/// A submission judges nothing: the queue's lookup, and for a shared semaphore one map lookup
/// and write per semaphore, within an export's budget.
pub const SUBMIT_ADDED_MAX: u64 = EXPORT_ADDED_MAX;

/// One call of the counted function: which operation, how many iterations, and (filled in by
/// the parent from callgrind's profile) the instructions counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub op: Op,
    pub iterations: u64,
    #[serde(default)]
    pub ir: u64,
}

/// What a counting child did, in the order it called the counted function.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ChildCounts {
    /// Whether the child ran with address-space randomisation off (see `instructions::no_randomization`).
    pub fixed_addresses: bool,
    pub counts: Vec<Count>,
    /// Operations not counted, with why.
    pub skipped: BTreeMap<Op, String>,
}

/// Warms `op` up, then counts it with `n` and `2n` iterations. Under the Khronos layer, an
/// operation that fails outright is recorded as skipped (the timing suite's rule: its 1.3.239
/// passes vkGetMemoryMetalHandleEXT down with its own wrapped handle).
pub(crate) fn count(
    config: Config,
    op: Op,
    n: u64,
    out: &mut ChildCounts,
    f: &mut dyn FnMut() -> vk::Result,
) -> Result<(), String> {
    let first = f();
    if first != vk::Result::SUCCESS {
        if config == Config::Khronos {
            out.skipped.insert(
                op,
                format!("returns {first:?} under the Khronos layer (not counted)"),
            );
            return Ok(());
        }
        return Err(format!("{}: {first:?}", op.label()));
    }
    for _ in 1..WARMUP {
        let r = f();
        if r != vk::Result::SUCCESS {
            return Err(format!("{} (warm-up): {r:?}", op.label()));
        }
    }
    for iterations in [n, 2 * n] {
        let r = exportcheck_bench_counted(iterations, f);
        if r != vk::Result::SUCCESS {
            return Err(format!("{} (counted): {r:?}", op.label()));
        }
        out.counts.push(Count {
            op,
            iterations,
            ir: 0,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counted_function_runs_exactly_n_iterations() {
        let mut calls = 0u64;
        let r = exportcheck_bench_counted(7, &mut || {
            calls += 1;
            vk::Result::SUCCESS
        });
        assert_eq!((r, calls), (vk::Result::SUCCESS, 7));
        let mut k = 0;
        let r = exportcheck_bench_counted(3, &mut || {
            k += 1;
            if k == 2 {
                vk::Result::ERROR_UNKNOWN
            } else {
                vk::Result::SUCCESS
            }
        });
        assert_eq!(r, vk::Result::ERROR_UNKNOWN);
    }
}
