//! Throughput: threads of one device each looping allocate + export + free for a fixed time.
//! The export is an fd (closed at once) or, on the test driver, an RDMA address.

use ash::vk;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use crate::model::{CycleExport, ThroughputPoint, ALLOCATION_SIZE};
use crate::vkctx::{ExportKind, Vk};

/// One allocate + export (+ close) + free cycle.
fn cycle(vk: &Vk, export: CycleExport) -> Result<(), vk::Result> {
    let r = match (export, vk.get_remote_address) {
        (CycleExport::Fd, _) => {
            let memory = vk.allocate(ExportKind::Fd, ALLOCATION_SIZE)?;
            let r = vk.export_fd_and_close(memory);
            vk.free(memory);
            r
        }
        (CycleExport::Rdma, Some(f)) => {
            let memory = vk.allocate(ExportKind::FdAndRdma, ALLOCATION_SIZE)?;
            let r = vk.export_rdma(f, memory);
            vk.free(memory);
            r
        }
        (CycleExport::Rdma, None) => vk::Result::ERROR_EXTENSION_NOT_PRESENT,
    };
    if r == vk::Result::SUCCESS {
        Ok(())
    } else {
        Err(r)
    }
}

/// Runs `threads` threads for `duration` and counts their completed cycles.
pub fn run(
    vk: &Vk,
    export: CycleExport,
    threads: usize,
    duration: Duration,
) -> Result<ThroughputPoint, String> {
    let stop = AtomicBool::new(false);
    let start = Barrier::new(threads + 1);
    let (ops, seconds, failure) = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        if let Err(e) = cycle(vk, export) {
                            return (n, Some(e));
                        }
                        n += 1;
                    }
                    (n, None)
                })
            })
            .collect();
        start.wait();
        let t0 = Instant::now();
        std::thread::sleep(duration);
        stop.store(true, Ordering::Relaxed);
        let mut ops = 0;
        let mut failure = None;
        for w in workers {
            let (n, e) = w.join().unwrap_or((0, Some(vk::Result::ERROR_UNKNOWN)));
            ops += n;
            failure = failure.or(e);
        }
        (ops, t0.elapsed().as_secs_f64(), failure)
    });
    if let Some(e) = failure {
        return Err(format!(
            "throughput ({}) with {threads} threads: a cycle failed: {e:?}",
            export.name()
        ));
    }
    Ok(ThroughputPoint {
        export,
        threads,
        ops_per_s: ops as f64 / seconds,
        ops,
        seconds,
    })
}
