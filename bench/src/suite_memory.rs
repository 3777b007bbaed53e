//! The memory suite, run in a child on the test driver: the resident set with 10, N₁ and N₂ live
//! exportable allocations, and the export costs at each of those counts.

use ash::vk;

use crate::model::{keys, ChildResult, Config, Mode, ScalePoint, ALLOCATION_SIZE};
use crate::suite_context::Ctx;
use crate::timing::{measure, Plan};
use crate::vkctx::{ExportKind, Vk};

/// Live allocations at the first point.
pub const FEW: u64 = 10;

/// The live-allocation counts measured after [`FEW`]. The Khronos layer keeps several hundred
/// bytes and microseconds per allocation, so it stops at the first count.
pub fn levels(mode: Mode, config: Config) -> Vec<u64> {
    let all: &[u64] = match mode {
        Mode::Quick => &[10_000, 100_000],
        Mode::Full => &[100_000, 1_000_000],
    };
    match config {
        Config::Khronos => all[..1].to_vec(),
        _ => all.to_vec(),
    }
}

/// Resident set size of this process, in bytes (`/proc/self/statm`).
pub fn rss_bytes() -> Result<u64, String> {
    let statm = std::fs::read_to_string("/proc/self/statm").map_err(|e| format!("statm: {e}"))?;
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("statm: unexpected {statm:?}"))?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Ok(pages * page.max(1) as u64)
}

pub fn run(ctx: &Ctx, out: &mut ChildResult) -> Result<(), String> {
    let plan = Plan::for_mode(ctx.mode);
    let vk = Vk::new(&ctx.entry, ctx.driver, ctx.config)?;
    let rdma = vk
        .get_remote_address
        .ok_or("the memory suite needs VK_NV_external_memory_rdma (the test driver)")?;
    let levels = levels(ctx.mode, ctx.config);
    let max = levels.iter().copied().max().unwrap_or(FEW).max(FEW) as usize;
    // Written through once now, so that its pages are resident before the first RSS reading.
    let mut live = vec![vk::DeviceMemory::null(); max];
    let mut count = 0usize;
    for target in std::iter::once(FEW).chain(levels) {
        while (count as u64) < target {
            live[count] = vk
                .allocate(ExportKind::FdAndRdma, ALLOCATION_SIZE)
                .map_err(|e| format!("allocation {count}: {e:?}"))?;
            count += 1;
        }
        let rss = rss_bytes()?;
        let mut point = ScalePoint {
            live: target,
            rss_bytes: rss,
            exports: Default::default(),
        };
        let first = live[0];
        let mut failed = None;
        let mut check = |r: vk::Result| {
            if r != vk::Result::SUCCESS {
                failed = failed.or(Some(r));
            }
        };
        point.exports.insert(
            keys::SCALE_FD_SAME.into(),
            measure(&plan, || check(vk.export_fd_and_close(first))),
        );
        point.exports.insert(
            keys::SCALE_RDMA_SAME.into(),
            measure(&plan, || check(vk.export_rdma(rdma, first))),
        );
        let mut i = 0;
        let cycle = &live[..count];
        point.exports.insert(
            keys::SCALE_RDMA_CYCLE.into(),
            measure(&plan, || {
                check(vk.export_rdma(rdma, cycle[i]));
                i += 1;
                if i == cycle.len() {
                    i = 0;
                }
            }),
        );
        if let Some(e) = failed {
            return Err(format!(
                "export with {target} live allocations failed: {e:?}"
            ));
        }
        out.scale.push(point);
    }
    for m in &live[..count] {
        vk.free(*m);
    }
    Ok(())
}
