//! What the loaded layer tracks, and what the process holds in memory: for the tests that check
//! that the layer's maps and the process do not grow (`tests/tests/stress.rs`).
//!
//! The layer exports a diagnostic C function besides the loader interface (see
//! `layer/src/introspect.rs`):
//!
//! ```c
//! VkResult exportcheck_tracked_counts(TrackedCounts* pCounts); // twelve uint64_t
//! ```
//!
//! It is read from the copy of `libVkLayer_exportcheck.so` that the loader loaded into this
//! process (`dlopen` with `RTLD_NOLOAD`, as [`crate::test_driver`] reads the driver's counters).
//! The handle is kept open for the life of the process: the layer then stays loaded, and its
//! maps with it, even when the loader unloads it after the last instance.

use crate::env;
use ash::vk;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;

/// How many objects the layer tracks, as `exportcheck_tracked_counts` writes them (the layer's
/// `introspect::TrackedCounts`, restated here so that a change there breaks this test, not the
/// meaning of its figures).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrackedCounts {
    pub instances: u64,
    pub devices: u64,
    /// Live `VkDeviceMemory` records, over all devices.
    pub memory_objects: u64,
    /// Debug names set with `vkSetDebugUtilsObjectNameEXT`, over all devices.
    pub debug_names: u64,
    /// Per-memory entries of the driver-contract probes, over all devices.
    pub probe_entries: u64,
    /// Per-memory entries of the rules about earlier calls (NT handle exports, memory waiting
    /// for its dedicated image), over all devices.
    pub history_entries: u64,
    /// Live buffers and images, over all devices.
    pub resources: u64,
    /// Buffers and images made for external memory and the driver's answers about them, over
    /// all devices.
    pub resource_entries: u64,
    /// Exports the fd-leak check watches, over all devices.
    pub fd_export_entries: u64,
    /// The process-wide tables (held exports, global share handles, consumed fds, dedicated
    /// allocations, device masks, driver dma-buf payloads).
    pub process_entries: u64,
    /// Live semaphores, over all devices.
    pub semaphores: u64,
    /// Live fences, over all devices.
    pub fences: u64,
}

type TrackedCountsFn = unsafe extern "C" fn(*mut TrackedCounts) -> vk::Result;

/// The layer library this test binary's manifest names, as a C string.
fn layer_path() -> CString {
    CString::new(env::layer_library().as_os_str().as_bytes()).expect("library path without NUL")
}

/// Whether the layer library is loaded in this process right now (the loader loads it with the
/// first instance that enables it).
pub fn layer_loaded() -> bool {
    // SAFETY: RTLD_NOLOAD only looks up a library that is already loaded; nothing is run.
    let lib = unsafe { libc::dlopen(layer_path().as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
    if lib.is_null() {
        return false;
    }
    // SAFETY: the reference the successful dlopen just added, released once.
    unsafe { libc::dlclose(lib) };
    true
}

/// The layer's `exportcheck_tracked_counts`; panics if the layer is not loaded yet (make an
/// `Instance` first) or does not export it.
fn tracked_counts_fn() -> TrackedCountsFn {
    static FN: OnceLock<usize> = OnceLock::new();
    let f = *FN.get_or_init(|| {
        let path = layer_path();
        // SAFETY: RTLD_NOLOAD only looks up a library that is already loaded; nothing is run.
        let lib = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
        assert!(
            !lib.is_null(),
            "{} is not loaded: create an Instance with the layer first",
            path.to_string_lossy()
        );
        // SAFETY: a live handle and a NUL-terminated symbol name. The handle is never
        // dlclose'd, so the symbol stays valid for the life of the process.
        let sym = unsafe { libc::dlsym(lib, c"exportcheck_tracked_counts".as_ptr()) };
        assert!(
            !sym.is_null(),
            "the layer exports no exportcheck_tracked_counts"
        );
        sym as usize
    });
    // SAFETY: the symbol is the layer's `extern "C" fn(*mut TrackedCounts) -> VkResult` (see
    // layer/src/lib.rs); a data pointer and a function pointer share one size here.
    unsafe { std::mem::transmute::<usize, TrackedCountsFn>(f) }
}

/// What the layer tracks right now, over every instance and device of the process.
#[track_caller]
pub fn tracked_counts() -> TrackedCounts {
    let mut counts = TrackedCounts::default();
    // SAFETY: a valid, writable TrackedCounts.
    let result = unsafe { tracked_counts_fn()(&mut counts) };
    assert_eq!(result, vk::Result::SUCCESS, "exportcheck_tracked_counts");
    counts
}

/// The process's memory, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryUse {
    /// Resident set size (`/proc/self/statm`, second field, in pages).
    pub resident: u64,
    /// Bytes the C heap has handed out and not taken back (glibc `mallinfo2`: `uordblks` of
    /// every arena plus `hblkhd`, the large blocks it maps one by one). The layer, the test
    /// driver, the loader and the test itself all allocate from it.
    pub heap_in_use: u64,
}

impl MemoryUse {
    /// The process's memory now, after giving the heap's free pages back to the system
    /// (`malloc_trim(0)`), so that the resident size counts what is used, not what the allocator
    /// keeps cached.
    pub fn now() -> Self {
        // SAFETY: no arguments to get wrong; the allocator's own locks make it thread-safe.
        let heap = unsafe {
            libc::malloc_trim(0);
            libc::mallinfo2()
        };
        let statm = std::fs::read_to_string("/proc/self/statm").expect("read /proc/self/statm");
        let pages: u64 = statm
            .split_whitespace()
            .nth(1)
            .and_then(|f| f.parse().ok())
            .unwrap_or_else(|| panic!("unexpected /proc/self/statm: {statm}"));
        // SAFETY: sysconf only reads a constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as u64;
        Self {
            resident: pages * page,
            heap_in_use: (heap.uordblks + heap.hblkhd) as u64,
        }
    }

    /// How much each figure grew from `before` to `self` (negative: shrank).
    pub fn growth_since(&self, before: &Self) -> (i64, i64) {
        (
            self.resident as i64 - before.resident as i64,
            self.heap_in_use as i64 - before.heap_in_use as i64,
        )
    }
}
