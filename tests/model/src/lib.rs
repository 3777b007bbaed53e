//! The one independent model of the rules exportcheck enforces: given a device, the memory a call
//! names and the call's arguments, which IDs must be reported and whether the call must be kept
//! from the driver.
//!
//! It is written from the spec's text (`vuids/registry/validusage-memory-sharing-1.4.360.json`,
//! the registry's `vk.xml` for the bit values) and from [docs/checks.md](../../docs/checks.md) for
//! the layer's own IDs and for what the layer promises on top of the spec, never from the
//! layer's code. Its users:
//!
//! - the fuzz target `checks` (`fuzz/src/checks.rs`) compares every outcome of the layer's check
//!   functions with it, over arbitrary devices, memory and arguments;
//! - the hostile-input matrix (`tests/tests/hostile_*.rs`) and the structural table
//!   (`tests/tests/structural.rs`) take the IDs each end-to-end call must produce from it.
//!
//! It covers every command the layer checks on its own arguments: the export commands,
//! `vkAllocateMemory` (with the import structures of its chain) and `vkFreeMemory` ([`Command`],
//! [`expected`]), the handle-property queries ([`Query`], [`expected_query`], in `queries.rs`),
//! and the bind commands, judged against what the memory was allocated with and the buffer or
//! image was created with ([`Bind`], [`expected_bind`], in `binds.rs`). The sync side, the
//! semaphore and fence export and import commands, is [`sync`] ([`expected_sync`]; the exports'
//! value rules in `sync_exports.rs`, the imports' in `sync_imports.rs`).
//!
//! Each rule is written here once. Plain integers throughout (handle types, memory property
//! flags): the model shares no type with the layer or with `ash`.
//!
//! What the layer promises beyond the spec, as docs/checks.md and docs/architecture.md say it:
//!
//! - **Every rule a call breaks is reported**, each once: an invalid `handleType` gets its
//!   `-parameter` ID and every value rule it breaks too.
//! - **A bad pointer or handle blocks the call** (`VK_ERROR_VALIDATION_FAILED_EXT`, nothing
//!   reaches the driver): a NULL pointer, a wrong `sType`, a `VkDevice` or `VkDeviceMemory` the
//!   layer does not know as live (unknown, freed, another device's), and a cyclic pNext chain of
//!   `VkMemoryAllocateInfo` (the driver would walk it forever). Nothing behind a bad pointer or
//!   handle is read: a NULL or mistyped info structure hides its members, bad memory hides the
//!   rules about what it was allocated with. Every other finding is reported and the call goes
//!   down.
//! - An unknown `VkDevice` is the one finding of its call: the layer knows nothing else about it.

mod binds;
pub mod ids;
mod queries;
pub mod sync;
mod sync_exports;
mod sync_imports;

pub use binds::{expected_bind, Bind, BindIds, Binding, Bound, BoundMemory, MemoryImport};
use ids::*;
pub use queries::{expected_query, Output, Query, QueryCall, QueryIds};
pub use sync::{expected_sync, SyncCall, SyncCommand, SyncDevice, SyncObject};

/// `VkExternalMemoryHandleTypeFlagBits` (vk.xml, `bitpos`), and `...FlagBitsNV`.
pub mod handle_type {
    pub const OPAQUE_FD: u32 = 1 << 0;
    pub const OPAQUE_WIN32: u32 = 1 << 1;
    pub const OPAQUE_WIN32_KMT: u32 = 1 << 2;
    pub const D3D11_TEXTURE: u32 = 1 << 3;
    pub const D3D11_TEXTURE_KMT: u32 = 1 << 4;
    pub const D3D12_HEAP: u32 = 1 << 5;
    pub const D3D12_RESOURCE: u32 = 1 << 6;
    pub const HOST_ALLOCATION: u32 = 1 << 7;
    pub const HOST_MAPPED_FOREIGN_MEMORY: u32 = 1 << 8;
    pub const DMA_BUF: u32 = 1 << 9;
    pub const ANDROID_HARDWARE_BUFFER: u32 = 1 << 10;
    pub const ZIRCON_VMO: u32 = 1 << 11;
    pub const RDMA_ADDRESS: u32 = 1 << 12;
    /// `SCI_BUF_BIT_NV`: Vulkan SC only, never a valid value in Vulkan.
    pub const SCI_BUF: u32 = 1 << 13;
    pub const SCREEN_BUFFER: u32 = 1 << 14;
    pub const OH_NATIVE_BUFFER: u32 = 1 << 15;
    pub const MTLBUFFER: u32 = 1 << 16;
    pub const MTLTEXTURE: u32 = 1 << 17;
    pub const MTLHEAP: u32 = 1 << 18;

    /// The bits of Vulkan 1.1 (no extension needed): OPAQUE_FD to D3D12_RESOURCE.
    pub const CORE: u32 = 0x7f;
    /// Every bit Vulkan defines (bits 0-12 and 14-18).
    pub const DEFINED: u32 = 0x7_ffff & !SCI_BUF;
    /// The three Metal types (`VUID-VkMemoryGetMetalHandleInfoEXT-handleType-10415`).
    pub const METAL: u32 = MTLBUFFER | MTLTEXTURE | MTLHEAP;
    /// What `vkGetMemoryFdKHR` exports (`VUID-VkMemoryGetFdInfoKHR-handleType-00672`).
    pub const FD: u32 = OPAQUE_FD | DMA_BUF;
    /// The types the spec defines as NT handles (the compatibility table of "External Memory
    /// Handle Types"), and as global share handles: what `vkGetMemoryWin32HandleKHR` exports
    /// (`VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00664`).
    pub const NT_HANDLE: u32 = OPAQUE_WIN32 | D3D11_TEXTURE | D3D12_HEAP | D3D12_RESOURCE;
    pub const GLOBAL_SHARE_HANDLE: u32 = OPAQUE_WIN32_KMT | D3D11_TEXTURE_KMT;

    /// `VkExternalMemoryHandleTypeFlagBitsNV`: OPAQUE_WIN32, OPAQUE_WIN32_KMT, D3D11_IMAGE,
    /// D3D11_IMAGE_KMT (bits 0-3).
    pub const NV_OPAQUE_WIN32: u32 = 1 << 0;
    pub const NV_OPAQUE_WIN32_KMT: u32 = 1 << 1;
    pub const NV_DEFINED: u32 = 0xf;

    /// Whether `bits` is exactly one bit of `set`.
    pub fn one_of(bits: u32, set: u32) -> bool {
        bits.is_power_of_two() && bits & !set == 0
    }
}

/// `VK_MEMORY_PROPERTY_PROTECTED_BIT`.
pub const MEMORY_PROPERTY_PROTECTED: u32 = 0x20;
/// `VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD`.
pub const MEMORY_PROPERTY_DEVICE_COHERENT_AMD: u32 = 0x40;
/// `VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV`.
pub const MEMORY_PROPERTY_RDMA_CAPABLE: u32 = 0x100;

/// The device extensions the rules depend on: each export command's own, and those that add
/// handle-type bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    KhrExternalMemory,
    KhrExternalMemoryFd,
    ExtExternalMemoryDmaBuf,
    NvExternalMemoryRdma,
    NvExternalMemory,
    NvExternalMemoryWin32,
    ExtExternalMemoryMetal,
    ExtExternalMemoryHost,
    AndroidExternalMemoryAndroidHardwareBuffer,
    FuchsiaExternalMemory,
    QnxExternalMemoryScreenBuffer,
    OhosExternalMemory,
    KhrExternalMemoryWin32,
}

impl Extension {
    pub const ALL: [Extension; 13] = [
        Extension::KhrExternalMemory,
        Extension::KhrExternalMemoryFd,
        Extension::ExtExternalMemoryDmaBuf,
        Extension::NvExternalMemoryRdma,
        Extension::NvExternalMemory,
        Extension::NvExternalMemoryWin32,
        Extension::ExtExternalMemoryMetal,
        Extension::ExtExternalMemoryHost,
        Extension::AndroidExternalMemoryAndroidHardwareBuffer,
        Extension::FuchsiaExternalMemory,
        Extension::QnxExternalMemoryScreenBuffer,
        Extension::OhosExternalMemory,
        Extension::KhrExternalMemoryWin32,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Extension::KhrExternalMemory => "VK_KHR_external_memory",
            Extension::KhrExternalMemoryFd => "VK_KHR_external_memory_fd",
            Extension::ExtExternalMemoryDmaBuf => "VK_EXT_external_memory_dma_buf",
            Extension::NvExternalMemoryRdma => "VK_NV_external_memory_rdma",
            Extension::NvExternalMemory => "VK_NV_external_memory",
            Extension::NvExternalMemoryWin32 => "VK_NV_external_memory_win32",
            Extension::ExtExternalMemoryMetal => "VK_EXT_external_memory_metal",
            Extension::ExtExternalMemoryHost => "VK_EXT_external_memory_host",
            Extension::AndroidExternalMemoryAndroidHardwareBuffer => {
                "VK_ANDROID_external_memory_android_hardware_buffer"
            }
            Extension::FuchsiaExternalMemory => "VK_FUCHSIA_external_memory",
            Extension::QnxExternalMemoryScreenBuffer => "VK_QNX_external_memory_screen_buffer",
            Extension::OhosExternalMemory => "VK_OHOS_external_memory",
            Extension::KhrExternalMemoryWin32 => "VK_KHR_external_memory_win32",
        }
    }

    /// The `VkExternalMemoryHandleTypeFlagBits` the extension adds (vk.xml: the `<enum
    /// extends="VkExternalMemoryHandleTypeFlagBits">` of its `<require>`).
    pub fn handle_types(self) -> u32 {
        use handle_type::*;
        match self {
            Extension::ExtExternalMemoryDmaBuf => DMA_BUF,
            Extension::NvExternalMemoryRdma => RDMA_ADDRESS,
            Extension::ExtExternalMemoryMetal => METAL,
            Extension::ExtExternalMemoryHost => HOST_ALLOCATION | HOST_MAPPED_FOREIGN_MEMORY,
            Extension::AndroidExternalMemoryAndroidHardwareBuffer => ANDROID_HARDWARE_BUFFER,
            Extension::FuchsiaExternalMemory => ZIRCON_VMO,
            Extension::QnxExternalMemoryScreenBuffer => SCREEN_BUFFER,
            Extension::OhosExternalMemory => OH_NATIVE_BUFFER,
            Extension::KhrExternalMemory
            | Extension::KhrExternalMemoryFd
            | Extension::NvExternalMemory
            | Extension::NvExternalMemoryWin32
            | Extension::KhrExternalMemoryWin32 => 0,
        }
    }
}

/// A set of [`Extension`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extensions(u16);

impl Extensions {
    pub const NONE: Extensions = Extensions(0);

    pub fn of(list: &[Extension]) -> Self {
        list.iter().fold(Self::NONE, |set, &e| set.with(e))
    }

    /// The set of `flags[i]` for [`Extension::ALL`]`[i]`.
    pub fn from_flags(flags: [bool; 13]) -> Self {
        let on: Vec<Extension> = Extension::ALL
            .into_iter()
            .zip(flags)
            .filter_map(|(e, on)| on.then_some(e))
            .collect();
        Self::of(&on)
    }

    pub fn with(self, e: Extension) -> Self {
        Extensions(self.0 | 1 << e as u16)
    }

    pub fn without(self, e: Extension) -> Self {
        Extensions(self.0 & !(1 << e as u16))
    }

    pub fn contains(self, e: Extension) -> bool {
        self.0 & 1 << e as u16 != 0
    }
}

/// What the layer knows of the `VkDevice` a call is made on (from `vkCreateDevice` and the
/// physical device).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Device {
    /// `VkDeviceCreateInfo::ppEnabledExtensionNames`.
    pub extensions: Extensions,
    /// The device's API version is 1.1 or later, where `VkExportMemoryAllocateInfo` is core.
    pub version_1_1: bool,
    /// `VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA` was enabled.
    pub rdma_feature: bool,
    /// Each memory type's `VkMemoryPropertyFlags`, by index.
    pub memory_types: Vec<u32>,
    /// The `protectedMemory` feature was enabled.
    pub protected_memory: bool,
    /// `VkPhysicalDeviceCoherentMemoryFeaturesAMD::deviceCoherentMemory` was enabled.
    pub device_coherent_memory: bool,
}

impl Device {
    pub fn has(&self, e: Extension) -> bool {
        self.extensions.contains(e)
    }

    /// The handle types valid on the device: the core bits and those of each enabled extension
    /// (a bit of an extension the device was created without is not a valid value on it).
    pub fn valid_handle_types(&self) -> u32 {
        Extension::ALL
            .into_iter()
            .filter(|&e| self.has(e))
            .fold(handle_type::CORE, |all, e| all | e.handle_types())
    }

    /// The property flags of memory type `index` (none for an index the device does not have).
    pub fn type_flags(&self, index: u32) -> u32 {
        self.memory_types.get(index as usize).copied().unwrap_or(0)
    }
}

/// What `vkAllocateMemory` was given for an allocation: the facts the export rules ask about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allocation {
    pub size: u64,
    pub memory_type_index: u32,
    /// `VkExportMemoryAllocateInfo::handleTypes`, if the chain had one.
    pub export: Option<u32>,
    /// `VkExportMemoryAllocateInfoNV::handleTypes`, if the chain had one.
    pub export_nv: Option<u32>,
    /// The chain had a `VkExportMemoryWin32HandleInfoNV`.
    pub export_win32_nv: bool,
    /// The chain had a `VkExportMemoryWin32HandleInfoKHR`.
    pub export_win32_khr: bool,
    /// The handle type of an import structure, if the chain had one.
    pub import: Option<u32>,
    /// The chain had a `VkMemoryDedicatedAllocateInfo` naming an image or a buffer.
    pub dedicated: bool,
    /// That structure's `image` is not `VK_NULL_HANDLE` (implies `dedicated`).
    pub dedicated_image: bool,
}

impl Allocation {
    /// `size` bytes of memory type `memory_type_index`, exported with `export` (KHR) and
    /// `export_nv` (NV) if given.
    pub fn new(
        size: u64,
        memory_type_index: u32,
        export: Option<u32>,
        export_nv: Option<u32>,
    ) -> Self {
        Self {
            size,
            memory_type_index,
            export,
            export_nv,
            ..Self::default()
        }
    }

    /// Whether every bit of `handle_type` was in `VkExportMemoryAllocateInfo::handleTypes`
    /// (never, without the structure).
    fn exported(&self, handle_type: u32) -> bool {
        self.export.is_some_and(|e| e & handle_type == handle_type)
    }
}

/// What a `VkDeviceMemory` argument is, to the layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// `VK_NULL_HANDLE`.
    Null,
    /// A value that is no allocation the layer has seen.
    Unknown,
    /// An allocation already freed with `vkFreeMemory`.
    Freed,
    /// A live allocation of the device the call is made on.
    Live(Allocation),
    /// A live allocation of another device.
    OtherDevice,
}

/// A pointer to an info structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Info<T> {
    Null,
    /// A structure whose `sType` is not the one the parameter needs.
    WrongSType,
    Valid(T),
}

/// The members of `VkMemoryGetFdInfoKHR`, `VkMemoryGetRemoteAddressInfoNV` and
/// `VkMemoryGetMetalHandleInfoEXT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportInfo {
    /// `pNext` is not NULL (no structure extends these).
    pub p_next: bool,
    pub memory: Memory,
    pub handle_type: u32,
}

/// How the layer's walk of a pNext chain ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainEnd {
    /// At a NULL `pNext`.
    Complete,
    /// The chain loops back on itself.
    Cycle,
    /// More structures than the layer walks (65,536), without a loop.
    TooLong,
}

/// `VkMemoryAllocateInfo`: the allocation its members and chain describe, and the chain's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocateInfo {
    pub allocation: Allocation,
    pub end: ChainEnd,
    /// A structure the layer reads (export, import, dedicated) appears more than once.
    pub repeated: bool,
    /// The chain's import structures.
    pub imports: Imports,
}

/// The import structures of a `VkMemoryAllocateInfo` chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imports {
    /// How many import operations the chain defines (import structures with a non-zero
    /// `handleType`, a `VkImportAndroidHardwareBufferInfoANDROID` with a buffer).
    pub operations: u32,
    /// The chain's `VkImportMemoryFdInfoKHR`, if it has one.
    pub fd: Option<FdImport>,
    /// The chain's `VkImportMemoryWin32HandleInfoKHR`, if it has one.
    pub win32: Option<Win32Import>,
    /// The chain's `VkImportMemoryWin32HandleInfoNV` (`handleType`, `handle` not NULL), if it
    /// has one.
    pub win32_nv: Option<(u32, bool)>,
    /// The chain's `VkImportMemoryZirconHandleInfoFUCHSIA` (`handleType`, `handle`), if it has
    /// one.
    pub zircon: Option<(u32, u32)>,
    /// The chain's `VkImportMemoryMetalHandleInfoEXT`, if it has one.
    pub metal: Option<MetalImport>,
    /// The chain has a `VkImportAndroidHardwareBufferInfoANDROID`.
    pub android: bool,
    /// The chain's `VkImportMemoryHostPointerInfoEXT`, if it has one.
    pub host: Option<HostImport>,
}

/// `VkImportMemoryHostPointerInfoEXT`, and what its rules read besides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostImport {
    pub handle_type: u32,
    /// `pHostPointer`, as an address.
    pub pointer: u64,
    /// The device's `minImportedHostPointerAlignment`, as the layer learned it at
    /// `vkCreateDevice` (`None`: not known; a power of two otherwise).
    pub alignment: Option<u64>,
    /// The chain has a `VkDedicatedAllocationMemoryAllocateInfoNV` naming an image or a buffer
    /// (the KHR structure is [`Allocation::dedicated`]).
    pub dedicated_nv: bool,
}

/// `VkImportMemoryMetalHandleInfoEXT`: its `handleType`, whether `handle` is not NULL, and
/// whether the chain's `VkMemoryDedicatedAllocateInfo` names an image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MetalImport {
    pub handle_type: u32,
    pub handle: bool,
    pub dedicated_image: bool,
}

/// `VkImportMemoryWin32HandleInfoKHR`: its `handleType`, and which of `handle` and `name` are
/// not NULL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Win32Import {
    pub handle_type: u32,
    pub handle: bool,
    pub name: bool,
}

impl Imports {
    pub const NONE: Self = Self {
        operations: 0,
        fd: None,
        win32: None,
        win32_nv: None,
        zircon: None,
        metal: None,
        android: false,
        host: None,
    };

    /// One `VkImportMemoryFdInfoKHR` (an import operation unless `handle_type` is 0).
    pub fn fd(handle_type: u32, fd: i32, open: bool) -> Self {
        Self {
            operations: u32::from(handle_type != 0),
            fd: Some(FdImport {
                handle_type,
                fd,
                open,
            }),
            ..Self::NONE
        }
    }
}

/// `VkImportMemoryFdInfoKHR`, and whether its fd is open in the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FdImport {
    pub handle_type: u32,
    pub fd: i32,
    pub open: bool,
}

impl AllocateInfo {
    /// A chain that ends, with no structure twice.
    pub fn of(allocation: Allocation) -> Self {
        Self {
            allocation,
            end: ChainEnd::Complete,
            repeated: false,
            imports: Imports::NONE,
        }
    }
}

/// The commands the layer intercepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    GetMemoryFd,
    GetMemoryRemoteAddress,
    GetMemoryWin32Handle,
    GetMemoryMetalHandle,
    AllocateMemory,
    FreeMemory,
    GetMemoryWin32HandleKhr,
    GetMemoryZirconHandle,
    GetMemoryAndroidHardwareBuffer,
}

/// The IDs of a command's structural rules: the `-parameter`, `sType`, `pNext` and `-parent`
/// rules of its arguments (`None` where the command has no such argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandIds {
    pub device: &'static str,
    /// The info structure pointer is NULL.
    pub info: Option<&'static str>,
    /// The output pointer is NULL.
    pub output: Option<&'static str>,
    /// The info structure's `sType` is wrong.
    pub s_type: Option<&'static str>,
    /// The info structure's `pNext` is not NULL (for the structures no structure extends).
    pub p_next: Option<&'static str>,
    /// The memory is not a live `VkDeviceMemory` (unknown, freed; NULL too where it must be a
    /// handle).
    pub memory: Option<&'static str>,
    /// The memory is another device's.
    pub memory_parent: Option<&'static str>,
    /// `handleType` is not a valid value on the device.
    pub handle_type: Option<&'static str>,
}

impl Command {
    pub const ALL: [Command; 9] = [
        Command::GetMemoryFd,
        Command::GetMemoryRemoteAddress,
        Command::GetMemoryWin32Handle,
        Command::GetMemoryMetalHandle,
        Command::AllocateMemory,
        Command::FreeMemory,
        Command::GetMemoryWin32HandleKhr,
        Command::GetMemoryZirconHandle,
        Command::GetMemoryAndroidHardwareBuffer,
    ];

    /// The command's name, as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Command::GetMemoryFd => GET_FD,
            Command::GetMemoryRemoteAddress => GET_REMOTE_ADDRESS,
            Command::GetMemoryWin32Handle => GET_WIN32_HANDLE,
            Command::GetMemoryMetalHandle => GET_METAL_HANDLE,
            Command::AllocateMemory => ALLOCATE,
            Command::FreeMemory => FREE,
            Command::GetMemoryWin32HandleKhr => GET_WIN32_HANDLE_KHR,
            Command::GetMemoryZirconHandle => GET_ZIRCON_HANDLE,
            Command::GetMemoryAndroidHardwareBuffer => GET_ANDROID_HARDWARE_BUFFER,
        }
    }

    /// The extension that adds the command (`None` for the core ones).
    pub fn extension(self) -> Option<Extension> {
        match self {
            Command::GetMemoryFd => Some(Extension::KhrExternalMemoryFd),
            Command::GetMemoryRemoteAddress => Some(Extension::NvExternalMemoryRdma),
            Command::GetMemoryWin32Handle => Some(Extension::NvExternalMemoryWin32),
            Command::GetMemoryMetalHandle => Some(Extension::ExtExternalMemoryMetal),
            Command::GetMemoryWin32HandleKhr => Some(Extension::KhrExternalMemoryWin32),
            Command::GetMemoryZirconHandle => Some(Extension::FuchsiaExternalMemory),
            Command::GetMemoryAndroidHardwareBuffer => {
                Some(Extension::AndroidExternalMemoryAndroidHardwareBuffer)
            }
            Command::AllocateMemory | Command::FreeMemory => None,
        }
    }

    pub fn ids(self) -> CommandIds {
        let none = CommandIds {
            device: "",
            info: None,
            output: None,
            s_type: None,
            p_next: None,
            memory: None,
            memory_parent: None,
            handle_type: None,
        };
        match self {
            Command::GetMemoryFd => CommandIds {
                device: FD_DEVICE_PARAM,
                info: Some(FD_INFO_PARAM),
                output: Some(FD_PFD_PARAM),
                s_type: Some(FD_STYPE),
                p_next: Some(FD_PNEXT),
                memory: Some(FD_MEMORY_PARAM),
                memory_parent: Some(MEMORY_OF_OTHER_DEVICE),
                handle_type: Some(FD_HANDLE_TYPE_PARAM),
            },
            Command::GetMemoryRemoteAddress => CommandIds {
                device: RDMA_DEVICE_PARAM,
                info: Some(RDMA_INFO_PARAM),
                output: Some(RDMA_PADDRESS_PARAM),
                s_type: Some(RDMA_STYPE),
                p_next: Some(RDMA_PNEXT),
                memory: Some(RDMA_MEMORY_PARAM),
                memory_parent: Some(MEMORY_OF_OTHER_DEVICE),
                handle_type: Some(RDMA_HANDLE_TYPE_PARAM),
            },
            Command::GetMemoryMetalHandle => CommandIds {
                device: METAL_DEVICE_PARAM,
                info: Some(METAL_INFO_PARAM),
                output: Some(METAL_PHANDLE_PARAM),
                s_type: Some(METAL_STYPE),
                p_next: Some(METAL_PNEXT),
                memory: Some(METAL_MEMORY_PARAM),
                memory_parent: Some(MEMORY_OF_OTHER_DEVICE),
                handle_type: Some(METAL_HANDLE_TYPE_PARAM),
            },
            Command::GetMemoryWin32HandleKhr => CommandIds {
                device: WIN32_KHR_DEVICE_PARAM,
                info: Some(WIN32_KHR_INFO_PARAM),
                output: Some(WIN32_KHR_PHANDLE_PARAM),
                s_type: Some(WIN32_KHR_STYPE),
                p_next: Some(WIN32_KHR_PNEXT),
                memory: Some(WIN32_KHR_MEMORY_PARAM),
                memory_parent: Some(MEMORY_OF_OTHER_DEVICE),
                handle_type: Some(WIN32_KHR_HANDLE_TYPE_PARAM),
            },
            Command::GetMemoryZirconHandle => CommandIds {
                device: ZIRCON_DEVICE_PARAM,
                info: Some(ZIRCON_INFO_PARAM),
                output: Some(ZIRCON_PHANDLE_PARAM),
                s_type: Some(ZIRCON_STYPE),
                p_next: Some(ZIRCON_PNEXT),
                memory: Some(ZIRCON_MEMORY_PARAM),
                memory_parent: Some(MEMORY_OF_OTHER_DEVICE),
                handle_type: Some(ZIRCON_HANDLE_TYPE_PARAM),
            },
            // VkMemoryGetAndroidHardwareBufferInfoANDROID has no handleType.
            Command::GetMemoryAndroidHardwareBuffer => CommandIds {
                device: AHB_DEVICE_PARAM,
                info: Some(AHB_INFO_PARAM),
                output: Some(AHB_PBUFFER_PARAM),
                s_type: Some(AHB_STYPE),
                p_next: Some(AHB_PNEXT),
                memory: Some(AHB_MEMORY_PARAM),
                memory_parent: Some(MEMORY_OF_OTHER_DEVICE),
                handle_type: None,
            },
            // No info structure: memory and handleType are parameters, and the spec has a
            // -parent rule for the memory.
            Command::GetMemoryWin32Handle => CommandIds {
                device: WIN32_DEVICE_PARAM,
                output: Some(WIN32_PHANDLE_PARAM),
                memory: Some(WIN32_MEMORY_PARAM),
                memory_parent: Some(WIN32_MEMORY_PARENT),
                handle_type: Some(WIN32_HANDLE_TYPE_PARAM),
                ..none
            },
            // The chain of VkMemoryAllocateInfo is read: its rules are the allocation's own.
            Command::AllocateMemory => CommandIds {
                device: ALLOC_DEVICE_PARAM,
                info: Some(ALLOC_INFO_PARAM),
                output: Some(ALLOC_PMEMORY_PARAM),
                s_type: Some(ALLOC_STYPE),
                ..none
            },
            Command::FreeMemory => CommandIds {
                device: FREE_DEVICE_PARAM,
                memory: Some(FREE_MEMORY_PARAM),
                memory_parent: Some(FREE_MEMORY_PARENT),
                ..none
            },
        }
    }
}

/// One call's arguments, as the layer sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// `vkGetMemoryFdKHR`, `vkGetMemoryRemoteAddressNV` or `vkGetMemoryMetalHandleEXT`: an info
    /// structure, and a pointer to write the export to.
    Export {
        command: Command,
        info: Info<ExportInfo>,
        output_null: bool,
    },
    /// `vkGetMemoryWin32HandleNV(device, memory, handleType, pHandle)`.
    Win32Handle {
        memory: Memory,
        handle_type: u32,
        output_null: bool,
    },
    /// `vkAllocateMemory(device, pAllocateInfo, pAllocator, pMemory)`.
    Allocate {
        info: Info<AllocateInfo>,
        output_null: bool,
    },
    /// `vkFreeMemory(device, memory, pAllocator)`.
    Free { memory: Memory },
}

impl Call {
    /// A call of `command` as an app makes it when all is well but `memory` and `handle_type`:
    /// a valid info structure without pNext (or none, for `vkGetMemoryWin32HandleNV`) and a valid
    /// output pointer. `handle_type` is the NV flags for `vkGetMemoryWin32HandleNV`. Panics for
    /// `vkAllocateMemory`, which names no memory.
    pub fn with_memory(command: Command, memory: Memory, handle_type: u32) -> Self {
        match command {
            Command::GetMemoryWin32Handle => Call::Win32Handle {
                memory,
                handle_type,
                output_null: false,
            },
            Command::FreeMemory => Call::Free { memory },
            Command::AllocateMemory => panic!("vkAllocateMemory names no memory"),
            command => Call::Export {
                command,
                info: Info::Valid(ExportInfo {
                    p_next: false,
                    memory,
                    handle_type,
                }),
                output_null: false,
            },
        }
    }

    /// A valid `vkAllocateMemory` of `allocation`.
    pub fn allocate(allocation: Allocation) -> Self {
        Call::Allocate {
            info: Info::Valid(AllocateInfo::of(allocation)),
            output_null: false,
        }
    }

    pub fn command(&self) -> Command {
        match self {
            Call::Export { command, .. } => *command,
            Call::Win32Handle { .. } => Command::GetMemoryWin32Handle,
            Call::Allocate { .. } => Command::AllocateMemory,
            Call::Free { .. } => Command::FreeMemory,
        }
    }

    /// Whether the call has an info structure, and it is NULL or of a wrong `sType`.
    fn info_is_bad(&self) -> bool {
        matches!(
            self,
            Call::Export {
                info: Info::Null | Info::WrongSType,
                ..
            } | Call::Allocate {
                info: Info::Null | Info::WrongSType,
                ..
            }
        )
    }

    /// Whether the call has an output pointer, and it is NULL.
    fn output_is_null(&self) -> bool {
        match self {
            Call::Export { output_null, .. }
            | Call::Win32Handle { output_null, .. }
            | Call::Allocate { output_null, .. } => *output_null,
            Call::Free { .. } => false,
        }
    }

    /// The same call with the output pointer NULL (`vkFreeMemory` has none).
    pub fn with_null_output(mut self) -> Self {
        match &mut self {
            Call::Export { output_null, .. }
            | Call::Win32Handle { output_null, .. }
            | Call::Allocate { output_null, .. } => *output_null = true,
            Call::Free { .. } => panic!("vkFreeMemory has no output pointer"),
        }
        self
    }
}

/// What a call must produce.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    /// The IDs, each once (but `VUID-VkMemoryAllocateInfo-pNext-pNext`, once per structure
    /// that breaks it), in the order the model applies its rules: the device, the output
    /// pointer, the info pointer and its `sType`, `pNext`, the memory, then the value rules. The
    /// spec gives no order: compare them as a multiset ([`Expected::sorted`]) unless a test
    /// pins the layer's order.
    pub ids: Vec<&'static str>,
    /// Kept from the driver: an argument is a pointer or handle known to be bad.
    pub blocked: bool,
}

impl Expected {
    fn push(&mut self, id: &'static str) {
        debug_assert!(!self.ids.contains(&id), "{id} twice");
        self.ids.push(id);
    }

    fn block(&mut self, id: &'static str) {
        self.push(id);
        self.blocked = true;
    }

    /// A call on a `VkDevice` the layer does not know (never created through it, destroyed, or
    /// no device at all): its `device-parameter` ID alone, blocked.
    pub fn unknown_device(command: Command) -> Self {
        let mut e = Expected::default();
        e.block(command.ids().device);
        e
    }

    /// The IDs, sorted.
    pub fn sorted(&self) -> Vec<&'static str> {
        let mut ids = self.ids.clone();
        ids.sort_unstable();
        ids
    }

    /// No finding at all.
    pub fn is_silent(&self) -> bool {
        self.ids.is_empty()
    }
}

/// What `call` on `device` (a device the layer knows) must produce.
pub fn expected(device: &Device, call: &Call) -> Expected {
    let command = call.command();
    let ids = command.ids();
    let mut e = Expected::default();
    // EXPORTCHECK-extension-not-enabled: an export command on a device without its extension
    // (a pointer fetched for another device). A warning: the call goes on.
    if command.extension().is_some_and(|ext| !device.has(ext)) {
        e.push(EXTENSION_NOT_ENABLED);
    }
    // -parameter of the output pointer: "must be a valid pointer".
    if call.output_is_null() {
        e.block(ids.output.expect("an output pointer"));
    }
    match *call {
        Call::Export { info, .. } => match info {
            // -parameter of the info pointer, and sType-sType: nothing behind it is read.
            Info::Null => e.block(ids.info.expect("an info pointer")),
            Info::WrongSType => e.block(ids.s_type.expect("an info structure")),
            Info::Valid(info) => {
                // pNext-pNext: "pNext must be NULL". Reported; the chain is never read, and the
                // call goes down as the app made it.
                if info.p_next {
                    e.push(ids.p_next.expect("a pNext"));
                }
                if let Some(allocation) = memory_rules(&ids, info.memory, &mut e) {
                    export_value_rules(command, device, &allocation, info.handle_type, &mut e);
                }
            }
        },
        Call::Win32Handle {
            memory,
            handle_type,
            ..
        } => {
            if let Some(allocation) = memory_rules(&ids, memory, &mut e) {
                win32_value_rules(&allocation, handle_type, &mut e);
            }
        }
        Call::Allocate { info, .. } => match info {
            Info::Null => e.block(ALLOC_INFO_PARAM),
            Info::WrongSType => e.block(ALLOC_STYPE),
            Info::Valid(info) => allocate_rules(device, &info, &mut e),
        },
        // vkFreeMemory: "If memory is not VK_NULL_HANDLE, memory must be a valid VkDeviceMemory
        // handle" (-parameter); "it must have been ... allocated ... from device" (-parent).
        Call::Free { memory } => match memory {
            Memory::Null | Memory::Live(_) => {}
            Memory::Unknown | Memory::Freed => e.block(FREE_MEMORY_PARAM),
            Memory::OtherDevice => e.block(FREE_MEMORY_PARENT),
        },
    }
    debug_assert!(!call.info_is_bad() || e.blocked);
    e
}

/// The memory of an export command: "memory must be a valid VkDeviceMemory handle"
/// (`-parameter`; NULL is no handle), and of the device (`vkGetMemoryWin32HandleNV-memory-parent`;
/// the info structures have no VUID for it: `EXPORTCHECK-memory-of-other-device`). Both block.
/// Returns the allocation when the memory is live memory of the device.
fn memory_rules(ids: &CommandIds, memory: Memory, e: &mut Expected) -> Option<Allocation> {
    match memory {
        Memory::Null | Memory::Unknown | Memory::Freed => {
            e.block(ids.memory.expect("a memory argument"));
            None
        }
        Memory::OtherDevice => {
            e.block(ids.memory_parent.expect("a memory argument"));
            None
        }
        Memory::Live(allocation) => Some(allocation),
    }
}

/// The value rules of the info-structure commands on live memory. Every rule the value
/// breaks is reported: `-parameter` (not exactly one handle type valid on the device), then the
/// command's own.
fn export_value_rules(
    command: Command,
    device: &Device,
    allocation: &Allocation,
    handle_type: u32,
    e: &mut Expected,
) {
    if command == Command::GetMemoryAndroidHardwareBuffer {
        // No handleType member (the call's `handle_type` is not read). 01882:
        // "ANDROID_HARDWARE_BUFFER_BIT_ANDROID must have been included in
        // VkExportMemoryAllocateInfo::handleTypes when memory was created".
        if !allocation.exported(handle_type::ANDROID_HARDWARE_BUFFER) {
            e.push(AHB_HANDLE_TYPES_01882);
        }
        return;
    }
    let parameter = command.ids().handle_type.expect("a handleType");
    let valid_value = handle_type::one_of(handle_type, device.valid_handle_types());
    match command {
        Command::GetMemoryFd => {
            if !valid_value {
                e.push(parameter);
            }
            // 00672: "must be OPAQUE_FD or DMA_BUF".
            if !handle_type::one_of(handle_type, handle_type::FD) {
                e.push(FD_HANDLE_TYPE_00672);
            }
            // 00671: "must have been included in VkExportMemoryAllocateInfo::handleTypes".
            if !allocation.exported(handle_type) {
                e.push(FD_HANDLE_TYPE_00671);
            }
        }
        Command::GetMemoryRemoteAddress => {
            // The layer's own warnings (docs/checks.md): the device did not enable the RDMA
            // feature; the memory's type is not RDMA-capable.
            if !device.rdma_feature {
                e.push(RDMA_FEATURE_NOT_ENABLED);
            }
            if device.type_flags(allocation.memory_type_index) & MEMORY_PROPERTY_RDMA_CAPABLE == 0 {
                e.push(RDMA_TYPE_NOT_CAPABLE);
            }
            if !valid_value {
                e.push(parameter);
            }
            // 04966: "must have been included in VkExportMemoryAllocateInfo::handleTypes".
            if !allocation.exported(handle_type) {
                e.push(RDMA_HANDLE_TYPE_04966);
            }
        }
        Command::GetMemoryMetalHandle => {
            if !valid_value {
                e.push(parameter);
            }
            // 10413: "memory must have been created with a valid VkExportMemoryAllocateInfo".
            // Without one, 10413 says it all: 10414 is not said again.
            if allocation.export.is_none() {
                e.push(METAL_MEMORY_10413);
            }
            // 10415: "must be MTLBUFFER, MTLTEXTURE or MTLHEAP".
            if !handle_type::one_of(handle_type, handle_type::METAL) {
                e.push(METAL_HANDLE_TYPE_10415);
            }
            // 10414: "must have been included in VkExportMemoryAllocateInfo::handleTypes".
            if allocation.export.is_some() && !allocation.exported(handle_type) {
                e.push(METAL_HANDLE_TYPE_10414);
            }
        }
        Command::GetMemoryWin32HandleKhr => {
            if !valid_value {
                e.push(parameter);
            }
            // 00664: "must be defined as an NT handle or a global share handle".
            let win32 = handle_type::NT_HANDLE | handle_type::GLOBAL_SHARE_HANDLE;
            if !handle_type::one_of(handle_type, win32) {
                e.push(WIN32_KHR_HANDLE_TYPE_00664);
            }
            // 00662: "must have been included in VkExportMemoryAllocateInfo::handleTypes".
            if !allocation.exported(handle_type) {
                e.push(WIN32_KHR_HANDLE_TYPE_00662);
            }
            // 00663 (an NT handle exported at most once per memory and type) depends on earlier
            // calls, not on this one's arguments: see `win32_exported_before`.
        }
        Command::GetMemoryZirconHandle => {
            if !valid_value {
                e.push(parameter);
            }
            // 04775: "handleType must be VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA".
            if handle_type != handle_type::ZIRCON_VMO {
                e.push(ZIRCON_HANDLE_TYPE_04775);
            }
            // 04776: "must have been included in the handleTypes field of the
            // VkExportMemoryAllocateInfo structure when the external memory was allocated".
            if !allocation.exported(handle_type) {
                e.push(ZIRCON_HANDLE_TYPE_04776);
            }
        }
        other => unreachable!("{other:?} has no info structure with a handleType"),
    }
}

/// `VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663`: "If handleType is defined as an NT
/// handle, vkGetMemoryWin32HandleKHR must be called no more than once for each valid unique
/// combination of memory and handleType". The layer counts the calls that succeeded with a
/// valid combination (an NT type the memory was exported with) since the memory was allocated;
/// given those types (`exported_before`), whether this call breaks it.
pub fn win32_exported_before(handle_type: u32, exported_before: u32) -> bool {
    handle_type::one_of(handle_type, handle_type::NT_HANDLE) && exported_before & handle_type != 0
}

/// `vkGetMemoryWin32HandleNV`'s value rules on live memory: every rule the value breaks.
fn win32_value_rules(allocation: &Allocation, handle_type: u32, e: &mut Expected) {
    // requiredbitmask: "handleType must not be 0".
    if handle_type == 0 {
        e.push(WIN32_HANDLE_TYPE_REQUIRED);
    }
    // -parameter: "a valid combination of VkExternalMemoryHandleTypeFlagBitsNV values".
    if handle_type & !handle_type::NV_DEFINED != 0 {
        e.push(WIN32_HANDLE_TYPE_PARAM);
    }
    // The layer's warning: the command returns one HANDLE, of one type.
    if handle_type.count_ones() > 1 {
        e.push(WIN32_MULTIPLE_BITS);
    }
    // 01326: "handleType must be a flag specified in VkExportMemoryAllocateInfoNV::handleTypes"
    // (never, without the NV structure; the KHR one does not count).
    let exported = allocation
        .export_nv
        .is_some_and(|nv| nv & handle_type == handle_type);
    if !exported {
        e.push(WIN32_HANDLE_TYPE_01326);
    }
}

/// `VkMemoryAllocateInfo` and the export structures of its chain.
fn allocate_rules(device: &Device, info: &AllocateInfo, e: &mut Expected) {
    let a = &info.allocation;
    // 01714: "pAllocateInfo->memoryTypeIndex must be less than
    // VkPhysicalDeviceMemoryProperties::memoryTypeCount". Blocked: the driver would index its
    // memory types with it. (A device listing no memory types is one whose types are not known:
    // not judged. 01713, the size against the type's heap, needs the heaps, which the model does
    // not describe.)
    if !device.memory_types.is_empty() && a.memory_type_index as usize >= device.memory_types.len()
    {
        e.block(ALLOC_TYPE_INDEX_01714);
    }
    // 01872: "If the protectedMemory feature is not enabled, the memoryTypeIndex must not
    // indicate a memory type that reports VK_MEMORY_PROPERTY_PROTECTED_BIT"; 02790 likewise for
    // DEVICE_COHERENT_BIT_AMD and deviceCoherentMemory. (10976, a tile memory heap, needs the
    // heaps, which the model does not describe.)
    let flags = device.type_flags(a.memory_type_index);
    if flags & MEMORY_PROPERTY_PROTECTED != 0 && !device.protected_memory {
        e.push(ALLOC_TYPE_INDEX_01872);
    }
    if flags & MEMORY_PROPERTY_DEVICE_COHERENT_AMD != 0 && !device.device_coherent_memory {
        e.push(ALLOC_DEVICE_COHERENT_02790);
    }
    // sType-unique: "The sType value of each structure in the pNext chain must be unique". A
    // chain that loops repeats a structure forever: blocked, since the driver would walk it
    // forever. A structure the layer reads twice: reported, the call goes down.
    match info.end {
        ChainEnd::Cycle => e.block(ALLOC_STYPE_UNIQUE),
        ChainEnd::Complete | ChainEnd::TooLong if info.repeated => e.push(ALLOC_STYPE_UNIQUE),
        ChainEnd::Complete | ChainEnd::TooLong => {}
    }
    // The layer's warning: it walked 65,536 structures and stopped.
    if info.end == ChainEnd::TooLong {
        e.push(PNEXT_CHAIN_TOO_LONG);
    }
    // 00640: "If the pNext chain includes a VkExportMemoryAllocateInfo structure, it must not
    // include a VkExportMemoryAllocateInfoNV or VkExportMemoryWin32HandleInfoNV structure".
    if a.export.is_some() && (a.export_nv.is_some() || a.export_win32_nv) {
        e.push(ALLOC_PNEXT_00640);
    }
    // pNext-pNext: a structure in the chain must be one that extends VkMemoryAllocateInfo on
    // this device: its extension enabled, or (VkExportMemoryAllocateInfo) Vulkan 1.1. Once per
    // structure that is not.
    let khr_available = device.has(Extension::KhrExternalMemory) || device.version_1_1;
    for (present, available) in [
        (a.export.is_some(), khr_available),
        (
            a.export_nv.is_some(),
            device.has(Extension::NvExternalMemory),
        ),
        (
            a.export_win32_nv,
            device.has(Extension::NvExternalMemoryWin32),
        ),
    ] {
        if present && !available {
            e.ids.push(ALLOC_PNEXT_PNEXT);
        }
    }
    if let Some(types) = a.export {
        // -parameter: "a valid combination of VkExternalMemoryHandleTypeFlagBits values" (on
        // this device: a bit of an extension it was created without is no valid value).
        if types & !device.valid_handle_types() != 0 {
            e.push(EXPORT_HANDLE_TYPES_PARAM);
        }
        // 07899: "If the parameters define an export operation and the handle type is not
        // ANDROID_HARDWARE_BUFFER, allocationSize must be greater than 0". Whether the types
        // are exportable (09860) and need a dedicated allocation (00639) is judged against the
        // buffer or image the memory is for, not here.
        if a.size == 0 && types != 0 && types & handle_type::ANDROID_HARDWARE_BUFFER == 0 {
            e.push(ALLOC_SIZE_07899);
        }
        // 07900: "If the parameters define an export operation, the handle type is
        // ANDROID_HARDWARE_BUFFER, and the pNext does not include a VkMemoryDedicatedAllocateInfo
        // structure, allocationSize must be greater than 0" (`dedicated`: the model's chain has
        // such a structure, naming an image or a buffer). 07901 (a valid buffer: size > 0) needs
        // the buffer to be live: tested end to end.
        if a.size == 0 && types & handle_type::ANDROID_HARDWARE_BUFFER != 0 && !a.dedicated {
            e.push(ALLOC_PNEXT_07900);
        }
        // 01874: "If the parameters do not define an import operation, and the pNext chain
        // includes a VkExportMemoryAllocateInfo structure with ANDROID_HARDWARE_BUFFER included
        // in its handleTypes member, and the pNext chain includes a VkMemoryDedicatedAllocateInfo
        // structure with image not equal to VK_NULL_HANDLE, then allocationSize must be 0".
        if a.size != 0
            && types & handle_type::ANDROID_HARDWARE_BUFFER != 0
            && a.dedicated_image
            && info.imports.operations == 0
        {
            e.push(ALLOC_PNEXT_01874);
        }
    }
    // VkExportMemoryAllocateInfoNV -parameter.
    if a.export_nv
        .is_some_and(|t| t & !handle_type::NV_DEFINED != 0)
    {
        e.push(EXPORT_NV_HANDLE_TYPES_PARAM);
    }
    // VkExportMemoryWin32HandleInfoKHR extends VkMemoryAllocateInfo only with its extension
    // (pNext-pNext), and 00657: "If VkExportMemoryAllocateInfo::handleTypes does not include
    // VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, a VkExportMemoryWin32HandleInfoKHR
    // structure must not be included" (judged against a VkExportMemoryAllocateInfo's handleTypes;
    // without one there are none: docs/checks.md).
    if a.export_win32_khr {
        if !device.has(Extension::KhrExternalMemoryWin32) {
            e.ids.push(ALLOC_PNEXT_PNEXT);
        }
        if a.export.is_some_and(|t| t & handle_type::OPAQUE_WIN32 == 0) {
            e.push(EXPORT_WIN32_HANDLE_TYPES_00657);
        }
    }
    // 07897: "If the parameters do not define an import or export operation, allocationSize
    // must be greater than 0". Export: a KHR or NV export structure with handle types. Not
    // judged beside a Win32, Zircon, Metal or Android import structure that imports nothing by
    // the spec's list (the Khronos layer counts some by other members), as there.
    let exports = a.export.is_some_and(|t| t != 0) || a.export_nv.is_some_and(|t| t != 0);
    let i = &info.imports;
    let handle_structures = i.win32.is_some()
        || i.win32_nv.is_some()
        || i.zircon.is_some()
        || i.metal.is_some()
        || i.android;
    if a.size == 0 && !exports && i.operations == 0 && !handle_structures {
        e.push(ALLOC_SIZE_07897);
    }
    import_rules(device, a.size, &info.imports, e);
    if let Some(host) = info.imports.host {
        host_import_rules(device, a, &host, e);
    }
}

/// `VkImportMemoryHostPointerInfoEXT`, and the allocation's rules for a host-pointer import.
fn host_import_rules(device: &Device, a: &Allocation, host: &HostImport, e: &mut Expected) {
    use handle_type::{HOST_ALLOCATION, HOST_MAPPED_FOREIGN_MEMORY};
    // pNext-pNext: the structure extends VkMemoryAllocateInfo only with its extension.
    if !device.has(Extension::ExtExternalMemoryHost) {
        e.ids.push(ALLOC_PNEXT_PNEXT);
    }
    let t = host.handle_type;
    // -parameter: "handleType must be a valid VkExternalMemoryHandleTypeFlagBits value" (vk.xml:
    // the member is not optional, so 0 is no valid value either).
    if !handle_type::one_of(t, device.valid_handle_types()) {
        e.push(IMPORT_HOST_HANDLE_TYPE_PARAM);
    }
    // 01748: "If handleType is not 0, it must be HOST_ALLOCATION or HOST_MAPPED_FOREIGN_MEMORY".
    let host_type = handle_type::one_of(t, HOST_ALLOCATION | HOST_MAPPED_FOREIGN_MEMORY);
    if t != 0 && !host_type {
        e.push(IMPORT_HOST_HANDLE_TYPE_01748);
    }
    // 01749: "pHostPointer must be a pointer aligned to an integer multiple of
    // minImportedHostPointerAlignment" (judged where the alignment is known).
    let misaligned = |value: u64| host.alignment.is_some_and(|al| al != 0 && value % al != 0);
    if misaligned(host.pointer) {
        e.push(IMPORT_HOST_POINTER_01749);
    }
    // "If the parameters define an import operation and the external handle is a host pointer"
    // (docs/checks.md: a host-pointer handleType): 01745, allocationSize a multiple of the
    // alignment; 02806 and 02805, no dedicated structure (KHR, NV) naming an image or a buffer.
    if host_type {
        if misaligned(a.size) {
            e.push(ALLOC_SIZE_01745);
        }
        if a.dedicated {
            e.push(ALLOC_PNEXT_02806);
        }
        if host.dedicated_nv {
            e.push(ALLOC_PNEXT_02805);
        }
    }
}

/// The import structures of the chain.
fn import_rules(device: &Device, size: u64, imports: &Imports, e: &mut Expected) {
    // 06657: "The parameters must not define more than one import operation".
    if imports.operations > 1 {
        e.push(ALLOC_NONE_06657);
    }
    win32_import_rules(device, imports, e);
    zircon_metal_android_import_rules(device, size, imports, e);
    // pNext-pNext: VkImportMemoryFdInfoKHR extends VkMemoryAllocateInfo only with its
    // extension, whatever its handleType.
    if imports.fd.is_some() && !device.has(Extension::KhrExternalMemoryFd) {
        e.ids.push(ALLOC_PNEXT_PNEXT);
    }
    // VkImportMemoryFdInfoKHR: "If handleType is not 0, ..." (handleType 0: it is ignored).
    let Some(fd) = imports.fd.filter(|i| i.handle_type != 0) else {
        return;
    };
    let single = fd.handle_type.is_power_of_two();
    // -parameter: "handleType must be a valid VkExternalMemoryHandleTypeFlagBits value".
    if !single || fd.handle_type & !device.valid_handle_types() != 0 {
        e.push(IMPORT_FD_HANDLE_TYPE_PARAM);
    }
    // 00669: "it must be VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT or
    // VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT".
    if !single || fd.handle_type & handle_type::FD == 0 {
        e.push(IMPORT_FD_HANDLE_TYPE_00669);
    }
    // 00670: "fd must be a valid handle of the type specified by handleType": a negative or
    // closed fd is no handle at all.
    if fd.fd < 0 || !fd.open {
        e.push(IMPORT_FD_HANDLE_TYPE_00670);
    }
}

/// The Win32 import structures (KHR and NV). Only NULL-ness of a handle or name is modelled: what
/// a non-NULL one refers to is the OS's to say.
fn win32_import_rules(device: &Device, imports: &Imports, e: &mut Expected) {
    // pNext-00641: "If the pNext chain includes a VkImportMemoryWin32HandleInfoKHR structure, it
    // must not include a VkImportMemoryWin32HandleInfoNV structure".
    if imports.win32.is_some() && imports.win32_nv.is_some() {
        e.push(ALLOC_PNEXT_00641);
    }
    if let Some(w) = imports.win32 {
        let t = w.handle_type;
        let single = t.is_power_of_two();
        if !device.has(Extension::KhrExternalMemoryWin32) {
            e.ids.push(ALLOC_PNEXT_PNEXT);
        }
        // -parameter: "If handleType is not 0, handleType must be a valid ... value".
        if t != 0 && (!single || t & !device.valid_handle_types() != 0) {
            e.push(IMPORT_WIN32_HANDLE_TYPE_PARAM);
        }
        // 00660: "If handleType is not 0, it must be defined as an NT handle or a global share
        // handle".
        let win32 = handle_type::NT_HANDLE | handle_type::GLOBAL_SHARE_HANDLE;
        if t != 0 && (!single || t & win32 == 0) {
            e.push(IMPORT_WIN32_HANDLE_TYPE_00660);
        }
        // 01439: a name only with OPAQUE_WIN32, D3D11_TEXTURE, D3D12_HEAP or D3D12_RESOURCE
        // (judged for a non-zero handleType: with 0 the structure is ignored).
        if t != 0 && w.name && (!single || t & handle_type::NT_HANDLE == 0) {
            e.push(IMPORT_WIN32_HANDLE_TYPE_01439);
        }
        // 01441: "If handle is not NULL, name must be NULL".
        if w.handle && w.name {
            e.push(IMPORT_WIN32_HANDLE_01441);
        }
        // 00661 and 01440: with a non-zero handleType, a NULL name needs a valid handle and a
        // NULL handle a valid name: both NULL breaks both.
        if t != 0 && !w.handle && !w.name {
            e.push(IMPORT_WIN32_HANDLE_TYPE_00661);
            e.push(IMPORT_WIN32_HANDLE_TYPE_01440);
        }
    }
    if let Some((t, handle)) = imports.win32_nv {
        if !device.has(Extension::NvExternalMemoryWin32) {
            e.ids.push(ALLOC_PNEXT_PNEXT);
        }
        // -parameter: "a valid combination of VkExternalMemoryHandleTypeFlagBitsNV values".
        if t & !handle_type::NV_DEFINED != 0 {
            e.push(IMPORT_WIN32_NV_HANDLE_TYPE_PARAM);
        }
        // 01327: "handleType must not have more than one bit set".
        if t.count_ones() > 1 {
            e.push(IMPORT_WIN32_NV_HANDLE_TYPE_01327);
        }
        // 01328: "handle must be a valid handle to memory": NULL is none (handleType 0: the
        // structure is ignored).
        if t != 0 && !handle {
            e.push(IMPORT_WIN32_NV_HANDLE_01328);
        }
    }
}

/// The Zircon, Metal and Android hardware buffer import structures. Only what the call shows is
/// modelled: NULL (or ZX_HANDLE_INVALID) handles, the types, the size, the dedicated image.
fn zircon_metal_android_import_rules(
    device: &Device,
    size: u64,
    imports: &Imports,
    e: &mut Expected,
) {
    if let Some((t, handle)) = imports.zircon {
        if !device.has(Extension::FuchsiaExternalMemory) {
            e.ids.push(ALLOC_PNEXT_PNEXT);
        }
        // -parameter: "If handleType is not 0, ... a valid VkExternalMemoryHandleTypeFlagBits
        // value".
        if t != 0 && !handle_type::one_of(t, device.valid_handle_types()) {
            e.push(IMPORT_ZIRCON_HANDLE_TYPE_PARAM);
        }
        // 04771: "handleType must be VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA"
        // (judged for a non-zero handleType: with 0 the structure is ignored).
        if t != 0 && t != handle_type::ZIRCON_VMO {
            e.push(IMPORT_ZIRCON_HANDLE_TYPE_04771);
        }
        // 04772: "handle must be a valid VMO handle": ZX_HANDLE_INVALID (0) is none.
        if t != 0 && handle == 0 {
            e.push(IMPORT_ZIRCON_HANDLE_04772);
        }
        // 07902: a VMO import of 0 bytes.
        if t == handle_type::ZIRCON_VMO && size == 0 {
            e.push(ALLOC_SIZE_07902);
        }
    }
    if let Some(m) = imports.metal {
        let t = m.handle_type;
        if !device.has(Extension::ExtExternalMemoryMetal) {
            e.ids.push(ALLOC_PNEXT_PNEXT);
        }
        if t != 0 && !handle_type::one_of(t, device.valid_handle_types()) {
            e.push(IMPORT_METAL_HANDLE_TYPE_PARAM);
        }
        // 10410: "If handleType is not 0, it must be MTLBUFFER, MTLTEXTURE or MTLHEAP".
        if t != 0 && !handle_type::one_of(t, handle_type::METAL) {
            e.push(IMPORT_METAL_HANDLE_TYPE_10410);
        }
        // 10411: "If handleType is not 0, handle must be a valid non-NULL handle".
        if t != 0 && !m.handle {
            e.push(IMPORT_METAL_HANDLE_TYPE_10411);
        }
        // 10395: an MTLTEXTURE import needs a dedicated image; 10397: with one, size 0.
        if t == handle_type::MTLTEXTURE && !m.dedicated_image {
            e.push(ALLOC_PNEXT_10395);
        }
        if t == handle_type::MTLTEXTURE && m.dedicated_image && size != 0 {
            e.push(ALLOC_PNEXT_10397);
        }
    }
    if imports.android && !device.has(Extension::AndroidExternalMemoryAndroidHardwareBuffer) {
        e.ids.push(ALLOC_PNEXT_PNEXT);
    }
}

/// The layer's driver-contract warnings (docs/checks.md): what a driver returned with
/// `VK_SUCCESS` from a valid call. Not spec rules: a driver defect, never the app's.
pub mod driver {
    use super::ids::*;
    use super::Command;

    /// What the layer could find out about an fd the driver returned.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct FdProbe {
        /// Whether it is an open descriptor (`None`: could not tell).
        pub open: Option<bool>,
        /// Whether it has `FD_CLOEXEC` (`None`: could not tell).
        pub cloexec: Option<bool>,
        /// It was already open before the call (not a new descriptor).
        pub open_before_call: bool,
    }

    /// The warnings about the fd `vkGetMemoryFdKHR` returned.
    pub fn fd(fd: i32, probe: Option<FdProbe>) -> Vec<&'static str> {
        let mut ids = Vec::new();
        match probe {
            // A negative fd, or a number that is not open: not a valid fd, nothing more to say.
            _ if fd < 0 => ids.push(DRIVER_INVALID_FD),
            Some(p) if p.open == Some(false) => ids.push(DRIVER_INVALID_FD),
            Some(p) => {
                if p.open_before_call {
                    ids.push(DRIVER_FD_NOT_NEW);
                }
                if p.cloexec == Some(false) {
                    ids.push(DRIVER_FD_NOT_CLOEXEC);
                }
            }
            None => {}
        }
        ids
    }

    /// The warning about the handle-like value an export command returned: 0 is no remote
    /// address, HANDLE, Metal object, Zircon handle (`ZX_HANDLE_INVALID`) or Android hardware
    /// buffer. Panics for a command that returns no such value.
    pub fn pointer(command: Command, value: u64) -> Vec<&'static str> {
        let id = match command {
            Command::GetMemoryRemoteAddress => DRIVER_NULL_REMOTE_ADDRESS,
            Command::GetMemoryWin32Handle => DRIVER_NULL_WIN32_HANDLE,
            Command::GetMemoryMetalHandle => DRIVER_NULL_METAL_HANDLE,
            Command::GetMemoryWin32HandleKhr => DRIVER_NULL_WIN32_HANDLE_KHR,
            Command::GetMemoryZirconHandle => DRIVER_INVALID_ZIRCON_HANDLE,
            Command::GetMemoryAndroidHardwareBuffer => DRIVER_NULL_ANDROID_HARDWARE_BUFFER,
            other => panic!("{other:?} returns no pointer"),
        };
        if value == 0 {
            vec![id]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod sync_tests;
#[cfg(test)]
mod tests;
