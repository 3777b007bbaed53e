//! `exportcheck-bench profile OP COUNT [CONFIG]`: runs one operation COUNT times in a loop,
//! untimed, for a profiler (`valgrind --tool=callgrind`, `perf record`); `scripts/profile.sh`
//! sets the loader's environment as the benchmark does.

use crate::model::{Config, Driver, ALLOCATION_SIZE};
use crate::vkctx::{ExportKind, Vk};
use ash::vk;

pub const USAGE: &str = "usage: exportcheck-bench profile rdma|win32|metal|fd|alloc-free COUNT \
                         [none|exportcheck|khronos]";

pub fn main(args: &[String]) -> Result<(), String> {
    let (Some(op), Some(count)) = (args.first(), args.get(1)) else {
        return Err(USAGE.into());
    };
    let count: u64 = count.parse().map_err(|_| format!("bad COUNT {count:?}"))?;
    let config = match args.get(2) {
        Some(c) => Config::parse(c).ok_or_else(|| format!("bad CONFIG {c:?}\n{USAGE}"))?,
        None => Config::Exportcheck,
    };
    // SAFETY: loads the system's Vulkan loader (libvulkan.so.1).
    let entry =
        unsafe { ash::Entry::load() }.map_err(|e| format!("loading libvulkan.so.1: {e}"))?;
    let vk = Vk::new(&entry, Driver::TestDriver, config)?;
    let missing = |name: &str| format!("{name} is not available");
    let kind = match op.as_str() {
        "rdma" => ExportKind::FdAndRdma,
        "win32" => ExportKind::Win32,
        "metal" => ExportKind::Metal,
        "fd" | "alloc-free" => ExportKind::Fd,
        _ => return Err(USAGE.into()),
    };
    let memory = vk
        .allocate(kind, ALLOCATION_SIZE)
        .map_err(|e| e.to_string())?;
    for _ in 0..count {
        let r = match op.as_str() {
            "rdma" => vk.export_rdma(
                vk.get_remote_address.ok_or_else(|| missing("RDMA"))?,
                memory,
            ),
            "win32" => {
                vk.export_win32(vk.get_win32_handle.ok_or_else(|| missing("Win32"))?, memory)
            }
            "metal" => {
                vk.export_metal(vk.get_metal_handle.ok_or_else(|| missing("Metal"))?, memory)
            }
            "fd" => vk.export_fd_and_close(memory),
            _ => match vk.allocate(ExportKind::Fd, ALLOCATION_SIZE) {
                Ok(m) => {
                    vk.free(m);
                    vk::Result::SUCCESS
                }
                Err(e) => e,
            },
        };
        if r != vk::Result::SUCCESS {
            return Err(format!("{op} failed: {r:?}"));
        }
    }
    vk.free(memory);
    Ok(())
}
