//! What the benchmark measures, as data: the drivers and configurations, and what a child process
//! reports (serialised as JSON between child and parent, and into `results.json`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The Vulkan driver a child runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Driver {
    /// The project's test driver (`tests/icd`): near-zero cost, every export extension.
    TestDriver,
    /// Mesa lavapipe: a real driver, `VK_KHR_external_memory_fd` only.
    Lavapipe,
}

impl Driver {
    pub const ALL: [Driver; 2] = [Driver::TestDriver, Driver::Lavapipe];

    pub fn name(self) -> &'static str {
        match self {
            Driver::TestDriver => "test-driver",
            Driver::Lavapipe => "lavapipe",
        }
    }

    pub fn parse(s: &str) -> Option<Driver> {
        Driver::ALL
            .into_iter()
            .find(|d| d.name() == s || (s == "test" && *d == Driver::TestDriver))
    }
}

impl fmt::Display for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which layer is enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Config {
    /// No layer at all (implicit layers are disabled too).
    None,
    /// `VK_LAYER_EXPORTCHECK_validation`, from `target/release`.
    Exportcheck,
    /// `VK_LAYER_KHRONOS_validation` with its default settings.
    Khronos,
}

impl Config {
    pub const ALL: [Config; 3] = [Config::None, Config::Exportcheck, Config::Khronos];

    pub fn name(self) -> &'static str {
        match self {
            Config::None => "none",
            Config::Exportcheck => "exportcheck",
            Config::Khronos => "khronos",
        }
    }

    pub fn parse(s: &str) -> Option<Config> {
        Config::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The layer the application enables (`ppEnabledLayerNames`).
    pub fn layer_name(self) -> Option<&'static std::ffi::CStr> {
        match self {
            Config::None => None,
            Config::Exportcheck => Some(c"VK_LAYER_EXPORTCHECK_validation"),
            Config::Khronos => Some(c"VK_LAYER_KHRONOS_validation"),
        }
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The group of measurements a child runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suite {
    /// Creation, per-call costs, throughput.
    Calls,
    /// Memory per live allocation and export cost with many live allocations (test driver).
    Memory,
}

impl Suite {
    pub fn name(self) -> &'static str {
        match self {
            Suite::Calls => "calls",
            Suite::Memory => "memory",
        }
    }

    pub fn parse(s: &str) -> Option<Suite> {
        [Suite::Calls, Suite::Memory]
            .into_iter()
            .find(|x| x.name() == s)
    }
}

/// Quick (CI smoke, seconds) or full (the published figures, minutes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Quick,
    Full,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        [Mode::Quick, Mode::Full]
            .into_iter()
            .find(|m| m.name() == s)
    }
}

/// One timed operation: per-batch ns/op and their median.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Timing {
    /// Median over the batches.
    pub ns_per_op: f64,
    /// Operations per batch.
    pub batch: u64,
    /// ns/op of each batch, in the order measured.
    pub samples: Vec<f64>,
}

/// Where a function pointer returned by `vkGetDeviceProcAddr` lives (`dladdr`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcInfo {
    /// File name of the library that holds the function (no directory).
    pub library: String,
    /// Address minus the library's load address: equal across processes for the same function.
    pub offset: u64,
    /// Nearest exported symbol, when `dladdr` finds one.
    pub symbol: Option<String>,
    /// Whether the library is the driver's (not a layer's, not the loader's).
    pub in_driver: bool,
}

/// The export in a throughput cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CycleExport {
    /// `vkGetMemoryFdKHR`, and `close` of the fd: system calls in the driver and the app.
    Fd,
    /// `vkGetMemoryRemoteAddressNV` (test driver): no system call, so the cycle is the driver's
    /// and the layer's own work and locking.
    Rdma,
}

impl CycleExport {
    pub fn name(self) -> &'static str {
        match self {
            CycleExport::Fd => "fd",
            CycleExport::Rdma => "rdma",
        }
    }
}

/// Operations per second with `threads` threads allocating, exporting and freeing at once.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ThroughputPoint {
    pub export: CycleExport,
    pub threads: usize,
    pub ops_per_s: f64,
    /// Completed allocate + export + close + free cycles.
    pub ops: u64,
    pub seconds: f64,
}

/// Export costs with `live` allocations alive.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScalePoint {
    pub live: u64,
    /// The process's resident set when `live` allocations were alive.
    pub rss_bytes: u64,
    /// Export costs by measurement key (see [`keys`]).
    pub exports: BTreeMap<String, Timing>,
}

/// What a child measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChildResult {
    pub driver: Driver,
    pub config: Config,
    pub suite: Suite,
    pub mode: Mode,
    pub round: usize,
    /// Per-call timings by measurement key (see [`keys`]).
    #[serde(default)]
    pub calls: BTreeMap<String, Timing>,
    /// `vkGetDeviceProcAddr` results by command name.
    #[serde(default)]
    pub procs: BTreeMap<String, ProcInfo>,
    #[serde(default)]
    pub throughput: Vec<ThroughputPoint>,
    #[serde(default)]
    pub scale: Vec<ScalePoint>,
    /// Measurements not made, by key, with why.
    #[serde(default)]
    pub skipped: BTreeMap<String, String>,
    /// Lines the layers wrote to their log file during the run (0 for a valid app); set by the
    /// parent.
    #[serde(default)]
    pub layer_log_lines: usize,
    /// Seconds the child ran, set by the parent.
    #[serde(default)]
    pub wall_seconds: f64,
}

/// Measurement keys.
pub mod keys {
    pub const CREATE: &str = "create";
    pub const UNCHECKED: &str = "unchecked";
    pub const EXPORT_FD: &str = "export_fd";
    pub const EXPORT_RDMA: &str = "export_rdma";
    pub const EXPORT_WIN32: &str = "export_win32";
    pub const EXPORT_METAL: &str = "export_metal";
    /// `vkGetMemoryWin32HandleKHR` (OPAQUE_WIN32_KMT).
    pub const EXPORT_WIN32_KHR: &str = "export_win32_khr";
    pub const EXPORT_ZIRCON: &str = "export_zircon";
    /// `vkGetMemoryFdPropertiesKHR` (DMA_BUF) of an fd the driver exported.
    pub const QUERY_FD_PROPERTIES: &str = "query_fd_properties";
    /// `vkGetMemoryHostPointerPropertiesEXT` (HOST_ALLOCATION) of an aligned host pointer.
    pub const QUERY_HOST_POINTER_PROPERTIES: &str = "query_host_pointer_properties";
    /// `vkGetMemoryAndroidHardwareBufferANDROID`.
    pub const EXPORT_AHB: &str = "export_ahb";
    /// `vkGetMemoryWin32HandlePropertiesKHR` (D3D12_RESOURCE) of a handle the driver exported.
    pub const QUERY_WIN32_PROPERTIES: &str = "query_win32_properties";
    /// `vkGetMemoryZirconHandlePropertiesFUCHSIA` of a VMO the driver exported.
    pub const QUERY_ZIRCON_PROPERTIES: &str = "query_zircon_properties";
    /// `vkGetAndroidHardwareBufferPropertiesANDROID` of a buffer the driver exported.
    pub const QUERY_AHB_PROPERTIES: &str = "query_ahb_properties";
    /// An opaque fd exported, imported as new memory, the import freed (instruction counts
    /// only: their `Op`'s serde name, which a test compares with this key).
    #[cfg_attr(not(test), allow(dead_code))]
    pub const IMPORT_FD: &str = "import_fd";
    /// Host memory imported, the import freed (instruction counts only).
    #[cfg_attr(not(test), allow(dead_code))]
    pub const IMPORT_HOST_POINTER: &str = "import_host_pointer";
    /// `vkCreateSemaphore` + `vkDestroySemaphore` of a plain binary semaphore (instruction counts
    /// only, as the semaphore keys below).
    #[cfg_attr(not(test), allow(dead_code))]
    pub const CREATE_DESTROY_SEMAPHORE: &str = "create_destroy_semaphore";
    /// `vkQueueSubmit` waiting on and signaling a plain binary semaphore, no semaphore of the
    /// device shared.
    #[cfg_attr(not(test), allow(dead_code))]
    pub const SUBMIT_PLAIN_SEMAPHORE: &str = "submit_plain_semaphore";
    /// `vkGetSemaphoreFdKHR` (OPAQUE_FD) of a binary semaphore, and `close` of the fd.
    #[cfg_attr(not(test), allow(dead_code))]
    pub const EXPORT_SEMAPHORE_FD: &str = "export_semaphore_fd";
    /// A semaphore's opaque fd exported and imported into another binary semaphore.
    #[cfg_attr(not(test), allow(dead_code))]
    pub const IMPORT_SEMAPHORE_FD: &str = "import_semaphore_fd";
    /// `vkQueueSubmit` waiting on and signaling a binary semaphore exportable as OPAQUE_FD.
    #[cfg_attr(not(test), allow(dead_code))]
    pub const SUBMIT_SHARED_SEMAPHORE: &str = "submit_shared_semaphore";
    pub const ALLOC_FREE: &str = "alloc_free";
    /// Allocate + free exportable as OPAQUE_FD and RDMA_ADDRESS_NV, in the RDMA-capable type.
    pub const ALLOC_FREE_RDMA: &str = "alloc_free_rdma";
    /// Allocate + RDMA export + free: one throughput cycle, single-threaded.
    pub const CYCLE_RDMA: &str = "cycle_rdma";
    /// The same, measured after the multi-threaded throughput runs.
    pub const CYCLE_RDMA_AFTER: &str = "cycle_rdma_after_threads";
    /// Scale suite: fd export of one allocation, again and again.
    pub const SCALE_FD_SAME: &str = "fd_same";
    /// Scale suite: RDMA export of one allocation, again and again.
    pub const SCALE_RDMA_SAME: &str = "rdma_same";
    /// Scale suite: RDMA export of every live allocation in turn.
    pub const SCALE_RDMA_CYCLE: &str = "rdma_cycle";

    /// The command measured by an export key.
    pub fn command(key: &str) -> Option<&'static str> {
        Some(match key {
            UNCHECKED => "vkGetBufferMemoryRequirements",
            EXPORT_FD => "vkGetMemoryFdKHR",
            EXPORT_RDMA => "vkGetMemoryRemoteAddressNV",
            EXPORT_WIN32 => "vkGetMemoryWin32HandleNV",
            EXPORT_METAL => "vkGetMemoryMetalHandleEXT",
            EXPORT_WIN32_KHR => "vkGetMemoryWin32HandleKHR",
            EXPORT_ZIRCON => "vkGetMemoryZirconHandleFUCHSIA",
            QUERY_FD_PROPERTIES => "vkGetMemoryFdPropertiesKHR",
            QUERY_HOST_POINTER_PROPERTIES => "vkGetMemoryHostPointerPropertiesEXT",
            EXPORT_AHB => "vkGetMemoryAndroidHardwareBufferANDROID",
            QUERY_WIN32_PROPERTIES => "vkGetMemoryWin32HandlePropertiesKHR",
            QUERY_ZIRCON_PROPERTIES => "vkGetMemoryZirconHandlePropertiesFUCHSIA",
            QUERY_AHB_PROPERTIES => "vkGetAndroidHardwareBufferPropertiesANDROID",
            _ => return None,
        })
    }
}

/// Size of every allocation the timing suites make.
pub const ALLOCATION_SIZE: u64 = 4096;

/// The line prefix a child prints before its JSON result on stdout.
pub const RESULT_MARKER: &str = "EXPORTCHECK_BENCH_RESULT ";
