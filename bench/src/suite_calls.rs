//! The calls suite, run in a child: instance + device creation, the unchecked call and the
//! `vkGetDeviceProcAddr` pointers, the export calls, allocate + free, throughput.

use ash::vk;
use std::time::{Duration, Instant};

use crate::model::{keys, ChildResult, Config, CycleExport, Driver, Mode, Timing, ALLOCATION_SIZE};
use crate::suite_context::Ctx;
use crate::timing::{measure, median, Plan};
use crate::vkctx::{self, ExportKind, Vk};
use crate::{procinfo, throughput};

/// Commands whose `vkGetDeviceProcAddr` pointer is recorded.
const RECORDED_PROCS: [&std::ffi::CStr; 7] = [
    c"vkGetBufferMemoryRequirements",
    c"vkGetMemoryFdKHR",
    c"vkGetMemoryRemoteAddressNV",
    c"vkGetMemoryWin32HandleNV",
    c"vkGetMemoryMetalHandleEXT",
    c"vkAllocateMemory",
    c"vkFreeMemory",
];

/// Thread counts of the throughput measurement.
pub const THREADS: [usize; 4] = [1, 2, 4, 8];

/// Times `op`, which returns a Vulkan result; any result but `VK_SUCCESS` fails the measurement.
fn measure_ok(
    plan: &Plan,
    what: &str,
    mut op: impl FnMut() -> vk::Result,
) -> Result<Timing, String> {
    let mut failed = None;
    let timing = measure(plan, || {
        let r = op();
        if r != vk::Result::SUCCESS && failed.is_none() {
            failed = Some(r);
        }
    });
    match failed {
        None => Ok(timing),
        Some(r) => Err(format!("{what} failed: {r:?}")),
    }
}

pub fn run(ctx: &Ctx, out: &mut ChildResult) -> Result<(), String> {
    let plan = Plan::for_mode(ctx.mode);
    out.calls.insert(keys::CREATE.into(), creation(ctx)?);

    let vk = Vk::new(&ctx.entry, ctx.driver, ctx.config)?;
    for name in RECORDED_PROCS {
        if let Some(info) = vk
            .device_proc(name)
            .and_then(|f| procinfo::resolve(f, &ctx.driver_library))
        {
            out.procs.insert(name.to_string_lossy().into_owned(), info);
        }
    }
    out.calls
        .insert(keys::UNCHECKED.into(), unchecked(&vk, &plan)?);
    exports(ctx, &vk, &plan, out)?;
    let mut pairs = vec![(keys::ALLOC_FREE, ExportKind::Fd)];
    if vk.rdma_type.is_some() {
        pairs.push((keys::ALLOC_FREE_RDMA, ExportKind::FdAndRdma));
    }
    for (key, kind) in pairs {
        let t = measure_ok(&plan, "vkAllocateMemory", || {
            match vk.allocate(kind, ALLOCATION_SIZE) {
                Ok(m) => {
                    vk.free(m);
                    vk::Result::SUCCESS
                }
                Err(e) => e,
            }
        })?;
        out.calls.insert(key.into(), t);
    }
    cycle(&vk, &plan, keys::CYCLE_RDMA, out)?;
    let seconds = match ctx.mode {
        Mode::Quick => 0.15,
        Mode::Full => 1.0,
    };
    let exports: &[CycleExport] = match ctx.driver {
        Driver::TestDriver => &[CycleExport::Fd, CycleExport::Rdma],
        Driver::Lavapipe => &[CycleExport::Fd],
    };
    for &export in exports {
        for threads in THREADS {
            let duration = Duration::from_secs_f64(seconds);
            out.throughput
                .push(throughput::run(&vk, export, threads, duration)?);
        }
    }
    // The same cycle again, now that up to 8 threads have called the layer at once.
    cycle(&vk, &plan, keys::CYCLE_RDMA_AFTER, out)
}

/// One throughput cycle, timed on the main thread: allocate (exportable as an RDMA address),
/// export, free. Compared with the allocate + free pair and the export of a long-lived
/// allocation, it shows what a fresh allocation's first export costs.
fn cycle(vk: &Vk, plan: &Plan, key: &str, out: &mut ChildResult) -> Result<(), String> {
    let (Some(f), Some(_)) = (vk.get_remote_address, vk.rdma_type) else {
        return Ok(());
    };
    let t = measure_ok(plan, "allocate + export + free", || {
        match vk.allocate(ExportKind::FdAndRdma, ALLOCATION_SIZE) {
            Ok(m) => {
                let r = vk.export_rdma(f, m);
                vk.free(m);
                r
            }
            Err(e) => e,
        }
    })?;
    out.calls.insert(key.into(), t);
    Ok(())
}

/// Instance + device creation, one at a time with no other instance alive (as an application
/// starting: the loader loads the layer and driver libraries each time); destruction untimed.
fn creation(ctx: &Ctx) -> Result<Timing, String> {
    let (warmup, count) = match ctx.mode {
        Mode::Quick => (1, 5),
        Mode::Full => (2, 21),
    };
    let mut samples = Vec::with_capacity(count);
    for i in 0..warmup + count {
        let start = Instant::now();
        let (instance, device, _) =
            vkctx::create_instance_and_device(&ctx.entry, ctx.driver, ctx.config)?;
        let ns = start.elapsed().as_nanos() as f64;
        vkctx::destroy(&instance, &device);
        if i >= warmup {
            samples.push(ns);
        }
    }
    Ok(Timing {
        ns_per_op: median(&samples),
        batch: 1,
        samples,
    })
}

/// A call the layer does not intercept: `vkGetBufferMemoryRequirements`.
fn unchecked(vk: &Vk, plan: &Plan) -> Result<Timing, String> {
    let info = vk::BufferCreateInfo::default()
        .size(65536)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST);
    // SAFETY: valid device and create info.
    let buffer = unsafe { vk.device.create_buffer(&info, None) }
        .map_err(|e| format!("vkCreateBuffer: {e:?}"))?;
    let f = vk.device.fp_v1_0().get_buffer_memory_requirements;
    let device = vk.device.handle();
    let timing = measure(plan, || {
        let mut r = vk::MemoryRequirements::default();
        // SAFETY: valid device, buffer and output.
        unsafe { f(device, buffer, &mut r) };
        std::hint::black_box(&r);
    });
    // SAFETY: the buffer is no longer used.
    unsafe { vk.device.destroy_buffer(buffer, None) };
    Ok(timing)
}

/// The export calls, each on one allocation made for it.
fn exports(ctx: &Ctx, vk: &Vk, plan: &Plan, out: &mut ChildResult) -> Result<(), String> {
    export(ctx, vk, plan, out, keys::EXPORT_FD, ExportKind::Fd, |m| {
        vk.export_fd_and_close(m)
    })?;
    if ctx.driver != Driver::TestDriver {
        // Lavapipe has only the fd export.
        return Ok(());
    }
    let mut missing = |key: &str| {
        let command = keys::command(key).unwrap_or(key);
        let why = format!("vkGetDeviceProcAddr({command}) returns NULL under this configuration");
        out.skipped.insert(key.to_string(), why);
    };
    let (rdma, win32, metal) = (
        vk.get_remote_address,
        vk.get_win32_handle,
        vk.get_metal_handle,
    );
    if rdma.is_none() {
        missing(keys::EXPORT_RDMA);
    }
    if win32.is_none() {
        missing(keys::EXPORT_WIN32);
    }
    if metal.is_none() {
        missing(keys::EXPORT_METAL);
    }
    if let Some(f) = rdma {
        export(
            ctx,
            vk,
            plan,
            out,
            keys::EXPORT_RDMA,
            ExportKind::FdAndRdma,
            |m| vk.export_rdma(f, m),
        )?;
    }
    if let Some(f) = win32 {
        export(
            ctx,
            vk,
            plan,
            out,
            keys::EXPORT_WIN32,
            ExportKind::Win32,
            |m| vk.export_win32(f, m),
        )?;
    }
    if let Some(f) = metal {
        export(
            ctx,
            vk,
            plan,
            out,
            keys::EXPORT_METAL,
            ExportKind::Metal,
            |m| vk.export_metal(f, m),
        )?;
    }
    Ok(())
}

/// Measures one export command on an allocation made for it. Under the Khronos layer, a command
/// that fails outright is recorded as skipped (with why) rather than failing the run: the
/// Khronos layer here (1.3.239) predates VK_EXT_external_memory_metal, and passes the command
/// through with its own wrapped `VkDeviceMemory` handle, which the driver does not know.
fn export(
    ctx: &Ctx,
    vk: &Vk,
    plan: &Plan,
    out: &mut ChildResult,
    key: &str,
    kind: ExportKind,
    mut op: impl FnMut(vk::DeviceMemory) -> vk::Result,
) -> Result<(), String> {
    let command = keys::command(key).unwrap_or(key);
    let memory = vk
        .allocate(kind, ALLOCATION_SIZE)
        .map_err(|e| format!("vkAllocateMemory ({kind:?}): {e:?}"))?;
    let first = op(memory);
    let result = if first != vk::Result::SUCCESS && ctx.config == Config::Khronos {
        let passed_through = out.procs.get(command).is_some_and(|p| p.in_driver);
        let why = if passed_through {
            format!(
                "{command} returns {first:?} under the Khronos layer: the layer does not \
                 intercept it, so the driver receives the layer's wrapped VkDeviceMemory handle"
            )
        } else {
            format!("{command} returns {first:?} under the Khronos layer")
        };
        out.skipped.insert(key.to_string(), why);
        Ok(())
    } else {
        measure_ok(plan, command, || op(memory)).map(|t| {
            out.calls.insert(key.to_string(), t);
        })
    };
    vk.free(memory);
    result
}
