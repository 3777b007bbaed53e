//! The driver's configuration: which extensions, memory types, features and external-memory
//! capabilities it reports, and which driver-contract violations it commits on purpose.
//!
//! Read at `vkCreateInstance` from a `ConfigCreateInfo` chained to `VkInstanceCreateInfo::pNext`
//! or else from the `EXPORTCHECK_TEST_ICD_CONFIG` environment variable (JSON text or a path to a
//! JSON file). Every instance keeps its own snapshot. The schema is in `docs/test-driver.md`.

use ash::vk;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void};

mod external;
pub use external::{ExternalMemory, HandleTypeSupport};

/// Environment variable holding the configuration (JSON text starting with `{`, or a file path).
pub const CONFIG_ENV: &str = "EXPORTCHECK_TEST_ICD_CONFIG";

/// `sType` of [`ConfigCreateInfo`]: a made-up value (the slot of a 1000th extension), known only
/// to this driver.
pub const STRUCTURE_TYPE_TEST_ICD_CONFIG: vk::StructureType =
    vk::StructureType::from_raw(1_000_999_000);

/// Chained to `VkInstanceCreateInfo::pNext`: this instance's configuration as JSON text, which
/// takes the place of `EXPORTCHECK_TEST_ICD_CONFIG` for that instance.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ConfigCreateInfo {
    /// [`STRUCTURE_TYPE_TEST_ICD_CONFIG`]
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    /// NUL-terminated JSON text, same schema as the environment variable.
    pub json: *const c_char,
}

/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT` (not in ash 0.38).
pub const HANDLE_TYPE_MTLBUFFER: u32 = 1 << 16;
/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT`
pub const HANDLE_TYPE_MTLTEXTURE: u32 = 1 << 17;
/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT`
pub const HANDLE_TYPE_MTLHEAP: u32 = 1 << 18;

/// One memory type: property flags and heap index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryType {
    pub flags: u32,
    pub heap: u32,
}

/// One memory heap: size in bytes and heap flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryHeap {
    pub size: u64,
    pub flags: u32,
}

/// Deliberate violations of the driver's side of the export contract.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Misbehave {
    /// `vkGetMemoryFdKHR` returns a descriptor without `FD_CLOEXEC`.
    pub fd_without_cloexec: bool,
    /// `vkGetMemoryFdKHR` returns the same descriptor number for every export of an allocation.
    pub same_fd_twice: bool,
    /// `vkGetMemoryFdKHR` returns `VK_SUCCESS` with fd -1.
    pub invalid_fd: bool,
    /// `vkGetMemoryRemoteAddressNV` returns `VK_SUCCESS` with address 0.
    pub zero_remote_address: bool,
    /// `vkGetMemoryWin32HandleNV` returns `VK_SUCCESS` with a NULL handle.
    pub null_win32_handle: bool,
    /// `vkGetMemoryMetalHandleEXT` returns `VK_SUCCESS` with a NULL handle.
    pub null_metal_handle: bool,
    /// `vkGetMemoryWin32HandleKHR` returns `VK_SUCCESS` with a NULL handle.
    pub null_win32_handle_khr: bool,
    /// `vkGetMemoryZirconHandleFUCHSIA` returns `VK_SUCCESS` with `ZX_HANDLE_INVALID` (0).
    pub invalid_zircon_handle: bool,
    /// `vkGetMemoryAndroidHardwareBufferANDROID` returns `VK_SUCCESS` with a NULL buffer.
    pub null_android_hardware_buffer: bool,
}

/// What backs a new (not imported) allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryBacking {
    /// A `memfd` of the allocation's size, made by `vkAllocateMemory`.
    #[default]
    Memfd,
    /// Nothing until needed: the memfd is made by the first `vkMapMemory` or `vkGetMemoryFdKHR`
    /// of the allocation. Allocations cost no file descriptor (a million of them fit under the
    /// usual open-file limit) and no system call.
    None,
}

/// What `vkGetMemoryFdKHR` returns for an `OPAQUE_FD` export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FdExport {
    /// A new descriptor of the allocation's own memfd (what lavapipe does): one inode per
    /// payload.
    #[default]
    Memfd,
    /// As NVIDIA's driver does: every export a new open file description of one character
    /// device shared by all exports and by descriptors the driver keeps open itself (here
    /// `/dev/ptmx`, every open of which is a new pseudo-terminal: its number tells the driver
    /// which export an imported fd is, as NVIDIA's tells its memory object); a successful
    /// import closes the app's fd. See `crate::device_file`.
    DeviceFile,
}

/// Physical-device features the driver reports (and accepts in `vkCreateDevice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Features {
    /// `VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA`
    pub external_memory_rdma: bool,
    /// `bufferDeviceAddress` (`VkPhysicalDeviceVulkan12Features`,
    /// `VkPhysicalDeviceBufferDeviceAddressFeatures`)
    pub buffer_device_address: bool,
    /// `bufferDeviceAddressCaptureReplay` (the same structures)
    pub buffer_device_address_capture_replay: bool,
    /// `protectedMemory` (`VkPhysicalDeviceVulkan11Features`,
    /// `VkPhysicalDeviceProtectedMemoryFeatures`)
    pub protected_memory: bool,
    /// `VkPhysicalDeviceCoherentMemoryFeaturesAMD::deviceCoherentMemory`
    pub device_coherent_memory: bool,
    /// `VkPhysicalDeviceTileMemoryHeapFeaturesQCOM::tileMemoryHeap`
    pub tile_memory_heap: bool,
    /// `timelineSemaphore` (`VkPhysicalDeviceVulkan12Features`,
    /// `VkPhysicalDeviceTimelineSemaphoreFeatures`)
    pub timeline_semaphore: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            external_memory_rdma: true,
            buffer_device_address: false,
            buffer_device_address_capture_replay: false,
            protected_memory: false,
            device_coherent_memory: false,
            tile_memory_heap: false,
            timeline_semaphore: true,
        }
    }
}

/// Behaviours of real drivers on semaphores and fences, each off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyncQuirks {
    /// As SwiftShader does: `vkImportSemaphoreFdKHR` of a binary semaphore's `OPAQUE_FD` into a
    /// timeline semaphore aborts the process (a message on stderr, then `abort()`), where the
    /// driver otherwise returns `VK_ERROR_INVALID_EXTERNAL_HANDLE`.
    pub abort_on_binary_fd_into_timeline: bool,
    /// A `SYNC_FD` export of a payload already signalled returns -1 (a valid, signalled sync
    /// file: Vulkan-Docs #2452) instead of a new sync file descriptor.
    pub signaled_sync_fd_minus_one: bool,
    /// `vkGetPhysicalDeviceExternalFenceProperties` reports `SYNC_FD` importable only (not
    /// exportable, compatible with nothing), as a driver that takes sync files in but cannot
    /// make them from a fence would.
    pub fence_sync_fd_import_only: bool,
    /// A fence a queue submission signals stays unsignaled (`vkGetFenceStatus`:
    /// `VK_NOT_READY`) until the app waits: `vkWaitForFences`, `vkQueueWaitIdle` or
    /// `vkDeviceWaitIdle` completes the device's pending work first, as a GPU still busy with it.
    pub pending_fence_signals: bool,
    /// `exportFromImportedHandleTypes` leaves out `SYNC_FD` in every answer (semaphores and
    /// fences): a payload imported from a sync file can be exported as no handle type, as on a
    /// driver whose imported sync files are not re-exportable.
    pub no_export_from_sync_fd_imports: bool,
    /// As SwiftShader does: `vkImportSemaphoreFdKHR` keeps the imported `OPAQUE_FD` open (the
    /// number stays the driver's) until the payload it imported is let go (the wait that
    /// consumes a temporary import, the semaphore's next import, its destruction), and closes it
    /// then; a later export can get the number again, of the same open file description.
    pub imported_semaphore_fd_kept: bool,
}

/// The whole configuration of one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub device_extensions: Vec<String>,
    pub memory_types: Vec<MemoryType>,
    pub memory_heaps: Vec<MemoryHeap>,
    pub features: Features,
    /// External-memory support for buffers and images, keyed by a single handle-type bit.
    pub external_memory: BTreeMap<u32, HandleTypeSupport>,
    pub misbehave: Misbehave,
    /// Real drivers' behaviours on semaphores and fences (see [`SyncQuirks`]).
    pub sync_quirks: SyncQuirks,
    pub memory_backing: MemoryBacking,
    /// What an `OPAQUE_FD` export returns.
    pub fd_export: FdExport,
    /// `VkPhysicalDeviceLimits::maxMemoryAllocationCount` (reported, not enforced).
    pub max_memory_allocation_count: u32,
    /// How many physical devices each instance has, all in one device group (1 to
    /// [`MAX_PHYSICAL_DEVICES`]).
    pub physical_device_count: u8,
}

/// The most physical devices an instance may be configured with.
pub const MAX_PHYSICAL_DEVICES: u8 = 4;

/// The device extensions exposed by default.
pub const DEFAULT_DEVICE_EXTENSIONS: [&str; 23] = [
    "VK_KHR_external_memory",
    "VK_KHR_external_memory_fd",
    "VK_EXT_external_memory_dma_buf",
    "VK_NV_external_memory_rdma",
    "VK_NV_external_memory",
    "VK_NV_external_memory_win32",
    "VK_EXT_external_memory_metal",
    "VK_KHR_external_memory_win32",
    "VK_FUCHSIA_external_memory",
    "VK_ANDROID_external_memory_android_hardware_buffer",
    "VK_EXT_external_memory_host",
    "VK_KHR_dedicated_allocation",
    "VK_NV_dedicated_allocation",
    "VK_KHR_get_memory_requirements2",
    "VK_KHR_bind_memory2",
    "VK_KHR_external_semaphore",
    "VK_KHR_external_semaphore_fd",
    "VK_KHR_external_semaphore_win32",
    "VK_FUCHSIA_external_semaphore",
    "VK_KHR_external_fence",
    "VK_KHR_external_fence_fd",
    "VK_KHR_external_fence_win32",
    "VK_KHR_timeline_semaphore",
];

const GIB: u64 = 1 << 30;
/// `maxMemoryAllocationCount` by default (the minimum the spec allows).
pub const DEFAULT_MAX_MEMORY_ALLOCATION_COUNT: u32 = 4096;

impl Default for Config {
    fn default() -> Self {
        let mp = vk::MemoryPropertyFlags::empty();
        let device_local = vk::MemoryPropertyFlags::DEVICE_LOCAL.as_raw();
        let host =
            (mp | vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT)
                .as_raw();
        let rdma = device_local | vk::MemoryPropertyFlags::RDMA_CAPABLE_NV.as_raw();
        Config {
            device_extensions: DEFAULT_DEVICE_EXTENSIONS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            memory_types: vec![
                MemoryType {
                    flags: device_local,
                    heap: 0,
                },
                MemoryType {
                    flags: host,
                    heap: 1,
                },
                MemoryType {
                    flags: rdma,
                    heap: 0,
                },
            ],
            memory_heaps: vec![
                MemoryHeap {
                    size: GIB,
                    flags: vk::MemoryHeapFlags::DEVICE_LOCAL.as_raw(),
                },
                MemoryHeap {
                    size: GIB,
                    flags: 0,
                },
            ],
            features: Features::default(),
            external_memory: default_external_memory(),
            misbehave: Misbehave::default(),
            sync_quirks: SyncQuirks::default(),
            memory_backing: MemoryBacking::default(),
            fd_export: FdExport::default(),
            max_memory_allocation_count: DEFAULT_MAX_MEMORY_ALLOCATION_COUNT,
            physical_device_count: 1,
        }
    }
}

/// The handle types of `VK_KHR_external_memory_win32` (the opaque NT and global share handles),
/// `VK_FUCHSIA_external_memory` and `VK_ANDROID_external_memory_android_hardware_buffer` that
/// the driver supports by default.
const WIN32_ZIRCON_AHB_TYPES: u32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32.as_raw()
    | vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw()
    | vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA.as_raw()
    | vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID.as_raw();

/// The same properties for buffers and images, whatever the usage.
fn default_external_memory() -> BTreeMap<u32, HandleTypeSupport> {
    let export_import = (vk::ExternalMemoryFeatureFlags::EXPORTABLE
        | vk::ExternalMemoryFeatureFlags::IMPORTABLE)
        .as_raw();
    let export_only = vk::ExternalMemoryFeatureFlags::EXPORTABLE.as_raw();
    // Every default type is compatible with every other: one allocation may be exported as any
    // mix of them (VUID-VkExportMemoryAllocateInfo-handleTypes-09860 is then met).
    let all = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD.as_raw()
        | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT.as_raw()
        | vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV.as_raw()
        | HANDLE_TYPE_MTLBUFFER
        | HANDLE_TYPE_MTLTEXTURE
        | HANDLE_TYPE_MTLHEAP
        | WIN32_ZIRCON_AHB_TYPES;
    let same = |bit: u32, features: u32| {
        (
            bit,
            HandleTypeSupport::same(ExternalMemory {
                features,
                compatible: all,
                export_from_imported: all,
            }),
        )
    };
    [
        same(
            vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD.as_raw(),
            export_import,
        ),
        same(
            vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT.as_raw(),
            export_import,
        ),
        same(
            vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV.as_raw(),
            export_only,
        ),
        same(HANDLE_TYPE_MTLBUFFER, export_import),
        same(HANDLE_TYPE_MTLTEXTURE, export_import),
        same(HANDLE_TYPE_MTLHEAP, export_import),
        same(
            vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32.as_raw(),
            export_import,
        ),
        same(
            vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw(),
            export_import,
        ),
        same(
            vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA.as_raw(),
            export_import,
        ),
        same(
            vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID.as_raw(),
            export_import,
        ),
    ]
    .into_iter()
    .collect()
}

/// A flag value in JSON: a name, a number, or a list of either.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawFlags {
    Number(u64),
    Name(String),
    List(Vec<RawFlag>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawFlag {
    Number(u64),
    Name(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemoryType {
    flags: RawFlags,
    heap: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemoryHeap {
    size: u64,
    #[serde(default)]
    flags: Option<RawFlags>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    device_extensions: Option<Vec<String>>,
    #[serde(default)]
    memory_types: Option<Vec<RawMemoryType>>,
    #[serde(default)]
    memory_heaps: Option<Vec<RawMemoryHeap>>,
    #[serde(default)]
    features: Features,
    #[serde(default)]
    external_memory: Option<BTreeMap<String, external::RawHandleType>>,
    /// The older name of `external_memory`.
    #[serde(default)]
    external_buffer: Option<BTreeMap<String, external::RawHandleType>>,
    #[serde(default)]
    misbehave: Misbehave,
    #[serde(default)]
    sync_quirks: SyncQuirks,
    #[serde(default)]
    memory_backing: MemoryBacking,
    #[serde(default)]
    fd_export: FdExport,
    #[serde(default)]
    max_memory_allocation_count: Option<u32>,
    #[serde(default)]
    physical_device_count: Option<u8>,
}

/// Names of the bits of one Vulkan flags type, without the `VK_..._` prefix and `_BIT`.
struct FlagNames {
    what: &'static str,
    prefix: &'static str,
    names: &'static [(&'static str, u32)],
}

const MEMORY_PROPERTY: FlagNames = FlagNames {
    what: "memory property flag",
    prefix: "VK_MEMORY_PROPERTY_",
    names: &[
        ("DEVICE_LOCAL", 0x1),
        ("HOST_VISIBLE", 0x2),
        ("HOST_COHERENT", 0x4),
        ("HOST_CACHED", 0x8),
        ("LAZILY_ALLOCATED", 0x10),
        ("PROTECTED", 0x20),
        ("DEVICE_COHERENT_AMD", 0x40),
        ("DEVICE_UNCACHED_AMD", 0x80),
        ("RDMA_CAPABLE_NV", 0x100),
    ],
};

const MEMORY_HEAP: FlagNames = FlagNames {
    what: "memory heap flag",
    prefix: "VK_MEMORY_HEAP_",
    names: &[
        ("DEVICE_LOCAL", 0x1),
        ("MULTI_INSTANCE", 0x2),
        ("TILE_MEMORY_QCOM", 0x8),
    ],
};

const EXTERNAL_MEMORY_FEATURE: FlagNames = FlagNames {
    what: "external memory feature",
    prefix: "VK_EXTERNAL_MEMORY_FEATURE_",
    names: &[
        ("DEDICATED_ONLY", 0x1),
        ("EXPORTABLE", 0x2),
        ("IMPORTABLE", 0x4),
    ],
};

/// Vendor suffixes may be left out (`DMA_BUF` = `DMA_BUF_EXT`, `MTLBUFFER` = `MTLBUFFER_EXT`).
const HANDLE_TYPE: FlagNames = FlagNames {
    what: "external memory handle type",
    prefix: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_",
    names: &[
        ("OPAQUE_FD", 0x1),
        ("OPAQUE_WIN32", 0x2),
        ("OPAQUE_WIN32_KMT", 0x4),
        ("D3D11_TEXTURE", 0x8),
        ("D3D11_TEXTURE_KMT", 0x10),
        ("D3D12_HEAP", 0x20),
        ("D3D12_RESOURCE", 0x40),
        ("HOST_ALLOCATION_EXT", 0x80),
        ("HOST_MAPPED_FOREIGN_MEMORY_EXT", 0x100),
        ("DMA_BUF_EXT", 0x200),
        ("ANDROID_HARDWARE_BUFFER_ANDROID", 0x400),
        ("ZIRCON_VMO_FUCHSIA", 0x800),
        ("RDMA_ADDRESS_NV", 0x1000),
        ("SCREEN_BUFFER_QNX", 0x4000),
        ("MTLBUFFER_EXT", HANDLE_TYPE_MTLBUFFER),
        ("MTLTEXTURE_EXT", HANDLE_TYPE_MTLTEXTURE),
        ("MTLHEAP_EXT", HANDLE_TYPE_MTLHEAP),
    ],
};

const VENDOR_SUFFIXES: [&str; 7] = [
    "_EXT", "_NV", "_AMD", "_ANDROID", "_FUCHSIA", "_QNX", "_QCOM",
];

fn strip_vendor(name: &str) -> &str {
    VENDOR_SUFFIXES
        .iter()
        .find_map(|s| name.strip_suffix(s))
        .unwrap_or(name)
}

impl FlagNames {
    /// Accepts `DEVICE_LOCAL`, `VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT`, and names without the
    /// vendor suffix.
    fn bit(&self, name: &str) -> Result<u32, String> {
        let upper = name.trim().to_ascii_uppercase();
        let short = upper.strip_prefix(self.prefix).unwrap_or(&upper);
        let short = short.replacen("_BIT", "", 1);
        self.names
            .iter()
            .find(|(n, _)| *n == short || strip_vendor(n) == strip_vendor(&short))
            .map(|&(_, bit)| bit)
            .ok_or_else(|| format!("unknown {} {name:?}", self.what))
    }

    fn number(&self, n: u64) -> Result<u32, String> {
        u32::try_from(n).map_err(|_| format!("{} {n} does not fit in 32 bits", self.what))
    }

    fn parse(&self, raw: &RawFlags) -> Result<u32, String> {
        let one = |flag: &RawFlag| match flag {
            RawFlag::Number(n) => self.number(*n),
            RawFlag::Name(s) => self.bit(s),
        };
        match raw {
            RawFlags::Number(n) => self.number(*n),
            RawFlags::Name(s) => self.bit(s),
            RawFlags::List(list) => list.iter().try_fold(0, |acc, f| Ok(acc | one(f)?)),
        }
    }

    /// A single bit, by name or number (as in the keys of `external_memory`).
    fn single(&self, key: &str) -> Result<u32, String> {
        let bit = match key.trim().parse::<u64>() {
            Ok(n) => self.number(n)?,
            Err(_) => self.bit(key)?,
        };
        if bit.is_power_of_two() {
            Ok(bit)
        } else {
            Err(format!("{} {key:?} is not a single bit", self.what))
        }
    }
}

impl Config {
    /// Parses configuration JSON; fields that are left out keep their defaults.
    pub fn from_json(text: &str) -> Result<Config, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if !value.is_object() {
            return Err("the configuration must be a JSON object".to_string());
        }
        let raw: RawConfig = serde_json::from_value(value).map_err(|e| e.to_string())?;
        let mut config = Config {
            features: raw.features,
            misbehave: raw.misbehave,
            sync_quirks: raw.sync_quirks,
            memory_backing: raw.memory_backing,
            fd_export: raw.fd_export,
            max_memory_allocation_count: raw
                .max_memory_allocation_count
                .unwrap_or(DEFAULT_MAX_MEMORY_ALLOCATION_COUNT),
            ..Config::default()
        };
        if let Some(count) = raw.physical_device_count {
            if !(1..=MAX_PHYSICAL_DEVICES).contains(&count) {
                return Err(format!(
                    "physical_device_count {count} is not between 1 and {MAX_PHYSICAL_DEVICES}"
                ));
            }
            config.physical_device_count = count;
        }
        if let Some(extensions) = raw.device_extensions {
            config.device_extensions = extensions;
        }
        if let Some(heaps) = raw.memory_heaps {
            config.memory_heaps = heaps
                .iter()
                .map(|h| {
                    let flags = match &h.flags {
                        Some(f) => MEMORY_HEAP.parse(f)?,
                        None => 0,
                    };
                    Ok(MemoryHeap {
                        size: h.size,
                        flags,
                    })
                })
                .collect::<Result<_, String>>()?;
        }
        if let Some(types) = raw.memory_types {
            config.memory_types = types
                .iter()
                .map(|t| {
                    Ok(MemoryType {
                        flags: MEMORY_PROPERTY.parse(&t.flags)?,
                        heap: t.heap,
                    })
                })
                .collect::<Result<_, String>>()?;
        }
        let external = match (&raw.external_memory, &raw.external_buffer) {
            (Some(_), Some(_)) => {
                return Err(
                    "give external_memory or its older name external_buffer, not both".to_string(),
                )
            }
            (Some(table), None) | (None, Some(table)) => Some(table),
            (None, None) => None,
        };
        if let Some(table) = external {
            external::apply(&mut config.external_memory, table)?;
        }
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> Result<(), String> {
        if self.memory_heaps.is_empty() || self.memory_heaps.len() > vk::MAX_MEMORY_HEAPS {
            return Err(format!(
                "memory_heaps: {} heaps (1 to {} allowed)",
                self.memory_heaps.len(),
                vk::MAX_MEMORY_HEAPS
            ));
        }
        if self.memory_types.is_empty() || self.memory_types.len() > vk::MAX_MEMORY_TYPES {
            return Err(format!(
                "memory_types: {} types (1 to {} allowed)",
                self.memory_types.len(),
                vk::MAX_MEMORY_TYPES
            ));
        }
        if let Some((i, t)) = self
            .memory_types
            .iter()
            .enumerate()
            .find(|(_, t)| t.heap as usize >= self.memory_heaps.len())
        {
            return Err(format!("memory_types[{i}]: heap {} does not exist", t.heap));
        }
        if let Some(name) = self
            .device_extensions
            .iter()
            .find(|n| n.is_empty() || n.len() >= vk::MAX_EXTENSION_NAME_SIZE)
        {
            return Err(format!("device_extensions: bad extension name {name:?}"));
        }
        Ok(())
    }

    /// The configuration of a new instance: `chained` (from the pNext structure) if given, else
    /// `env` (the environment variable's value: JSON text if it starts with `{`, else a path).
    pub fn resolve(chained: Option<&str>, env: Option<&str>) -> Result<Config, String> {
        if let Some(json) = chained {
            return Config::from_json(json).map_err(|e| format!("chained configuration: {e}"));
        }
        match env.map(str::trim) {
            None | Some("") => Ok(Config::default()),
            Some(text) if text.starts_with('{') => {
                Config::from_json(text).map_err(|e| format!("{CONFIG_ENV} (inline JSON): {e}"))
            }
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{CONFIG_ENV}: cannot read {path}: {e}"))?;
                Config::from_json(&text).map_err(|e| format!("{CONFIG_ENV} ({path}): {e}"))
            }
        }
    }

    /// Spec version reported for a device extension.
    pub fn extension_spec_version(name: &str) -> u32 {
        match name {
            "VK_KHR_dedicated_allocation" => 3,
            "VK_KHR_timeline_semaphore" => 2,
            _ => 1,
        }
    }

    /// What the driver reports for the handle type `bit`; `None` (all zeros) without an entry.
    pub fn handle_type(&self, bit: u32) -> Option<&HandleTypeSupport> {
        self.external_memory.get(&bit)
    }

    /// Whether memory of a resource exported or imported as any of `handle_types` must be a
    /// dedicated allocation (`DEDICATED_ONLY` for that kind of resource and usage).
    pub fn requires_dedicated(&self, handle_types: u32, image: bool, usage: u32) -> bool {
        (0..32)
            .map(|b| 1u32 << b)
            .filter(|bit| handle_types & bit != 0)
            .filter_map(|bit| self.handle_type(bit))
            .any(|s| {
                let p = if image {
                    s.for_image(usage)
                } else {
                    s.for_buffer(usage)
                };
                p.is_dedicated_only()
            })
    }

    /// Whether the device exposes `name`.
    pub fn has_device_extension(&self, name: &str) -> bool {
        self.device_extensions.iter().any(|e| e == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_object_is_the_default() {
        assert_eq!(Config::from_json("{}").unwrap(), Config::default());
        assert_eq!(Config::resolve(None, None).unwrap(), Config::default());
        assert_eq!(
            Config::resolve(None, Some("  ")).unwrap(),
            Config::default()
        );
    }

    #[test]
    fn defaults_expose_every_export_extension_and_an_rdma_type() {
        let c = Config::default();
        for ext in DEFAULT_DEVICE_EXTENSIONS {
            assert!(c.has_device_extension(ext), "{ext}");
        }
        assert!(c.features.external_memory_rdma);
        assert!(c.memory_types.iter().any(|t| t.flags == 0x101));
        assert!(c.memory_types.iter().any(|t| t.flags & 0x6 == 0x6));
        let opaque = c.external_memory[&1].buffers;
        assert_eq!(opaque.features, 0x6);
        assert_eq!(c.external_memory[&0x1000].buffers.features, 0x2);
        assert_eq!(
            c.external_memory[&HANDLE_TYPE_MTLHEAP].buffers.compatible,
            0x1 | 0x200
                | 0x1000
                | WIN32_ZIRCON_AHB_TYPES
                | HANDLE_TYPE_MTLBUFFER
                | HANDLE_TYPE_MTLTEXTURE
                | HANDLE_TYPE_MTLHEAP
        );
        assert_eq!(c.misbehave, Misbehave::default());
        for (bit, s) in &c.external_memory {
            assert_eq!(
                s.buffers, s.images,
                "{bit:#x}: buffers and images alike by default"
            );
            assert_eq!(
                (s.buffer_usage_not_exportable, s.image_usage_not_exportable),
                (0, 0)
            );
        }
    }

    #[test]
    fn external_buffer_is_the_older_name_of_external_memory() {
        let entry = r#"{"OPAQUE_FD": {"features": ["IMPORTABLE"]}}"#;
        let old = Config::from_json(&format!(r#"{{"external_buffer": {entry}}}"#)).unwrap();
        let new = Config::from_json(&format!(r#"{{"external_memory": {entry}}}"#)).unwrap();
        assert_eq!(old, new);
        assert_eq!(new.external_memory[&1].images.features, 4);
        let both = format!(r#"{{"external_buffer": {entry}, "external_memory": {entry}}}"#);
        let e = Config::from_json(&both).unwrap_err();
        assert!(e.contains("not both"), "{e}");
    }

    #[test]
    fn dedicated_requirement_follows_dedicated_only_per_kind_and_usage() {
        let c = Config::from_json(
            r#"{"external_memory": {
                "OPAQUE_FD": {"features": ["EXPORTABLE"], "images": {"features": ["EXPORTABLE", "DEDICATED_ONLY"]}},
                "DMA_BUF": {"features": ["EXPORTABLE", "DEDICATED_ONLY"], "buffer_usage_not_exportable": "STORAGE_BUFFER"}
            }}"#,
        )
        .unwrap();
        assert!(c.requires_dedicated(0x1, true, 0x4));
        assert!(!c.requires_dedicated(0x1, false, 0x1));
        assert!(c.requires_dedicated(0x201, false, 0x20));
        assert!(!c.requires_dedicated(0, true, 0x4));
        assert!(!c.requires_dedicated(0x1000, true, 0x4));
    }

    #[test]
    fn names_numbers_and_long_names_are_accepted() {
        let c = Config::from_json(
            r#"{
                "memory_types": [
                    {"flags": ["DEVICE_LOCAL", "VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV"], "heap": 0},
                    {"flags": 6, "heap": 0},
                    {"flags": "host_visible", "heap": 0},
                    {"flags": [], "heap": 0}
                ],
                "memory_heaps": [{"size": 4096, "flags": ["DEVICE_LOCAL"]}],
                "external_buffer": {
                    "DMA_BUF": {"features": ["EXPORTABLE"], "compatible": ["DMA_BUF_EXT", 1]},
                    "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT": {"features": []},
                    "1": {"features": 4}
                }
            }"#,
        )
        .unwrap();
        let flags: Vec<u32> = c.memory_types.iter().map(|t| t.flags).collect();
        assert_eq!(flags, [0x101, 6, 2, 0]);
        assert_eq!(
            c.memory_heaps,
            [MemoryHeap {
                size: 4096,
                flags: 1
            }]
        );
        let dma = c.external_memory[&0x200].buffers;
        assert_eq!(
            (dma.features, dma.compatible, dma.export_from_imported),
            (2, 0x201, 0x201)
        );
        assert_eq!(
            c.external_memory[&HANDLE_TYPE_MTLBUFFER].buffers.features,
            0
        );
        assert_eq!(c.external_memory[&1].buffers.features, 4);
        // Entries not named keep their defaults.
        assert_eq!(c.external_memory[&0x1000].buffers.features, 2);
    }

    #[test]
    fn memory_features_and_the_tile_memory_heap_flag() {
        let c = Config::from_json(
            r#"{"features": {"protected_memory": true, "tile_memory_heap": true},
                "memory_heaps": [{"size": 4096, "flags": ["TILE_MEMORY_QCOM"]},
                                 {"size": 4096, "flags": "VK_MEMORY_HEAP_TILE_MEMORY_BIT_QCOM"}],
                "memory_types": [{"flags": [], "heap": 0}]}"#,
        )
        .unwrap();
        assert!(c.features.protected_memory && c.features.tile_memory_heap);
        assert!(
            c.features.external_memory_rdma,
            "the others keep their defaults"
        );
        assert!(!c.features.buffer_device_address && !c.features.device_coherent_memory);
        assert_eq!(c.memory_heaps[0].flags, 0x8);
        assert_eq!(c.memory_heaps[1].flags, 0x8);
    }

    #[test]
    fn misbehave_and_features_fields_default_individually() {
        let c = Config::from_json(
            r#"{"misbehave": {"same_fd_twice": true}, "features": {"external_memory_rdma": false},
                "device_extensions": ["VK_KHR_external_memory"]}"#,
        )
        .unwrap();
        assert!(c.misbehave.same_fd_twice);
        assert!(!c.misbehave.fd_without_cloexec && !c.misbehave.invalid_fd);
        assert!(!c.features.external_memory_rdma);
        assert_eq!(c.device_extensions, ["VK_KHR_external_memory"]);
        assert_eq!(c.memory_types, Config::default().memory_types);
    }

    #[test]
    fn sync_quirks_are_off_unless_asked_for() {
        let c = Config::default();
        assert_eq!(c.sync_quirks, SyncQuirks::default());
        assert!(c.features.timeline_semaphore);
        let c = Config::from_json(
            r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true},
                "features": {"timeline_semaphore": false}}"#,
        )
        .unwrap();
        assert!(c.sync_quirks.abort_on_binary_fd_into_timeline);
        assert!(!c.sync_quirks.signaled_sync_fd_minus_one);
        assert!(!c.sync_quirks.no_export_from_sync_fd_imports);
        assert!(!c.sync_quirks.imported_semaphore_fd_kept);
        assert!(!c.features.timeline_semaphore);
        assert!(Config::from_json(r#"{"sync_quirks": {"segfault": true}}"#).is_err());
    }

    #[test]
    fn memory_backing_is_memfd_unless_none_is_asked_for() {
        assert_eq!(Config::default().memory_backing, MemoryBacking::Memfd);
        let c = Config::from_json(r#"{"memory_backing": "none"}"#).unwrap();
        assert_eq!(c.memory_backing, MemoryBacking::None);
        let c = Config::from_json(r#"{"memory_backing": "memfd"}"#).unwrap();
        assert_eq!(c.memory_backing, MemoryBacking::Memfd);
        assert!(Config::from_json(r#"{"memory_backing": "file"}"#).is_err());
    }

    #[test]
    fn fd_exports_are_memfds_unless_device_files_are_asked_for() {
        assert_eq!(Config::default().fd_export, FdExport::Memfd);
        let c = Config::from_json(r#"{"fd_export": "device_file"}"#).unwrap();
        assert_eq!(c.fd_export, FdExport::DeviceFile);
        assert!(Config::from_json(r#"{"fd_export": "pipe"}"#).is_err());
    }

    #[test]
    fn physical_device_count_defaults_to_one_and_is_bounded() {
        assert_eq!(Config::default().physical_device_count, 1);
        let c = Config::from_json(r#"{"physical_device_count": 2}"#).unwrap();
        assert_eq!(c.physical_device_count, 2);
        assert!(Config::from_json(r#"{"physical_device_count": 0}"#).is_err());
        assert!(Config::from_json(r#"{"physical_device_count": 5}"#).is_err());
    }

    #[test]
    fn max_memory_allocation_count_defaults_to_the_spec_minimum() {
        assert_eq!(Config::default().max_memory_allocation_count, 4096);
        let c = Config::from_json(r#"{"max_memory_allocation_count": 4294967295}"#).unwrap();
        assert_eq!(c.max_memory_allocation_count, u32::MAX);
        assert!(Config::from_json(r#"{"max_memory_allocation_count": -1}"#).is_err());
    }

    #[test]
    fn bad_json_is_an_error_naming_its_source() {
        let e = Config::resolve(None, Some("{not json")).unwrap_err();
        assert!(e.contains(CONFIG_ENV) && e.contains("inline"), "{e}");
        let e = Config::resolve(Some("[]"), Some("{}")).unwrap_err();
        assert!(e.starts_with("chained"), "{e}");
        for bad in [
            r#"{"misbehave": {"no_such_mode": true}}"#,
            r#"{"unknown_field": 1}"#,
            r#"{"memory_types": [{"flags": ["SHINY"], "heap": 0}]}"#,
            r#"{"memory_types": [{"flags": [], "heap": 5}]}"#,
            r#"{"memory_types": []}"#,
            r#"{"external_buffer": {"OPAQUE_FD|DMA_BUF": {}}}"#,
            r#"{"external_buffer": {"3": {}}}"#,
            r#"{"memory_heaps": [{"size": -1}]}"#,
        ] {
            assert!(Config::from_json(bad).is_err(), "{bad} was accepted");
        }
        assert!(!e.contains('\n'));
    }

    #[test]
    fn file_and_inline_give_the_same_config() {
        let json = r#"{"misbehave": {"invalid_fd": true}}"#;
        let path = std::env::temp_dir().join(format!(
            "exportcheck-icd-config-{}.json",
            std::process::id()
        ));
        std::fs::write(&path, json).unwrap();
        let from_file = Config::resolve(None, Some(path.to_str().unwrap())).unwrap();
        let inline = Config::resolve(None, Some(json)).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(from_file, inline);
        assert!(from_file.misbehave.invalid_fd);
        let e = Config::resolve(None, Some("/nonexistent/exportcheck.json")).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }

    #[test]
    fn chained_configuration_wins_over_the_environment() {
        let c = Config::resolve(
            Some(r#"{"misbehave": {"null_win32_handle": true}}"#),
            Some(r#"{"misbehave": {"null_metal_handle": true}}"#),
        )
        .unwrap();
        assert!(c.misbehave.null_win32_handle && !c.misbehave.null_metal_handle);
    }
}
