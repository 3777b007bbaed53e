//! What the app passed, as plain values: the raw module reads them from the app's pointers
//! (unsafe), the rules judge them (pure). Nothing here touches a pointer.

use crate::state::AllocationFacts;
use ash::vk;

/// The most structures of a pNext chain a walk hands to its visitor (and the layer checks).
/// Past them the walk only follows `pNext` to learn whether the chain ends or loops, which it
/// always does: a chain in finite memory that does not end loops, and the loop is found in time
/// linear in the chain's length.
#[cfg(not(miri))]
pub const MAX_CHAIN_LENGTH: usize = 1 << 16;
/// Under Miri (scripts/sanitize.sh miri) the walker is the same code with a smaller bound, so its
/// tests build chains past the limit in seconds instead of the many minutes 65,536 nodes take.
#[cfg(miri)]
pub const MAX_CHAIN_LENGTH: usize = 1 << 8;

/// A pointer-to-structure argument as the layer found it.
#[derive(Clone, Copy, Debug)]
pub enum StructArg<T> {
    Null,
    /// The structure's `sType` is not the one the command takes; nothing else was read.
    WrongSType(vk::StructureType),
    Valid(T),
}

impl<T> StructArg<T> {
    /// The same argument, its structure's members turned into `U`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> StructArg<U> {
        match self {
            Self::Null => StructArg::Null,
            Self::WrongSType(found) => StructArg::WrongSType(found),
            Self::Valid(t) => StructArg::Valid(f(t)),
        }
    }
}

/// How a pNext walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainEnd {
    Complete,
    /// The chain loops back on itself (found with Brent's algorithm, in constant memory),
    /// wherever the loop starts, also past [`MAX_CHAIN_LENGTH`].
    Cycle,
    /// The chain ends, but is longer than [`MAX_CHAIN_LENGTH`]: only the first structures were
    /// visited.
    TooLong,
}

/// What the layer read from a `VkMemoryAllocateInfo`.
pub enum AllocateInfoRead {
    Null,
    WrongSType(vk::StructureType),
    Valid(AllocationFacts, ChainRead),
}

/// What the walk of a `VkMemoryAllocateInfo` chain found besides the [`AllocationFacts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainRead {
    pub end: ChainEnd,
    /// The first structure type the layer reads that appeared twice in the chain
    /// (`VUID-VkMemoryAllocateInfo-sType-unique`).
    pub repeated: Option<vk::StructureType>,
    /// The structures of `vk_names::ALLOCATE_CHAIN` the chain has, bit `i` for entry `i`.
    pub structures: u32,
    /// The chain's `VkImportMemoryFdInfoKHR`, when it has one (whatever its `handleType`).
    pub import_fd: Option<FdImport>,
    /// How many structures of the chain define an import operation (an import structure with a
    /// non-zero `handleType`, or a `VkImportAndroidHardwareBufferInfoANDROID` with a buffer):
    /// `VUID-VkMemoryAllocateInfo-None-06657`.
    pub import_operations: u32,
    /// The image (`IMAGE`) or buffer (`BUFFER`) a `VkMemoryDedicatedAllocateInfo` (or the NV
    /// structure) dedicates the allocation to, when it names one.
    pub dedicated_to: Option<(vk::ObjectType, u64)>,
    /// `VkMemoryDedicatedAllocateInfo::image` and `::buffer` as chained (either may be null),
    /// when the chain has one.
    pub dedicated_info: Option<(u64, u64)>,
    /// The chain has a `VkExportMemoryWin32HandleInfoKHR`.
    pub export_win32: bool,
    /// What the host-pointer import rules read (`rules::import::import_host`).
    pub host: HostPointerChain,
    /// The chain has a Win32 (KHR or NV), Zircon, Metal or Android hardware buffer import
    /// structure: the command reads them in full ([`HandleImports`], a second walk) and judges
    /// them out of line (`rules::import::import_handles`), so an allocation without them pays one test.
    pub handle_imports: bool,
    /// `VkMemoryAllocateFlagsInfo::deviceMask`, when the chain has one whose `flags` has
    /// `VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT` (else the memory is on all the device's physical
    /// devices).
    pub device_mask: Option<u32>,
    /// `VkMemoryAllocateFlagsInfo::flags`, empty without that structure.
    pub allocate_flags: vk::MemoryAllocateFlags,
    /// The chain has an import or export structure the layer does not read (NvSciBuf, a QNX
    /// screen buffer, an OHOS native buffer, a Fuchsia buffer collection, a Metal buffer of
    /// `VK_EXT_metal_objects`): whether the parameters define an import or export operation is
    /// then not known for certain. Asked by the command (a second walk) only of an allocation of
    /// size 0, before the rules run; `false` otherwise.
    pub unread_sharing: bool,
}

/// The chain's import structures of handles the layer cannot open (Win32, Zircon, Metal,
/// Android hardware buffers): what their rules (`rules::import::import_handles`) read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandleImports {
    /// `VkImportMemoryWin32HandleInfoKHR`.
    pub win32: Option<Win32Import>,
    /// `VkImportMemoryWin32HandleInfoNV`: its `handleType`, and whether `handle` is not NULL.
    pub win32_nv: Option<(vk::ExternalMemoryHandleTypeFlagsNV, bool)>,
    /// `VkImportMemoryZirconHandleInfoFUCHSIA`: its `handleType` and `handle`.
    pub zircon: Option<(vk::ExternalMemoryHandleTypeFlags, u32)>,
    /// `VkImportMemoryMetalHandleInfoEXT`: its `handleType`, and whether `handle` is not NULL.
    pub metal: Option<(vk::ExternalMemoryHandleTypeFlags, bool)>,
    /// A `VkImportAndroidHardwareBufferInfoANDROID` is chained.
    pub android: bool,
    /// Its `buffer`, as an address (0: NULL, or no such structure).
    pub android_buffer: u64,
}

impl HandleImports {
    pub const NONE: Self = Self {
        win32: None,
        win32_nv: None,
        zircon: None,
        metal: None,
        android: false,
        android_buffer: 0,
    };
}

/// A `VkImportMemoryWin32HandleInfoKHR` as chained: its `handleType`, which of `handle` and
/// `name` are not NULL, and `handle`'s value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Win32Import {
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
    pub handle: bool,
    pub name: bool,
    pub handle_value: u64,
}

/// What a `VkMemoryAllocateInfo` chain says that the host-pointer import rules judge (16 bytes:
/// it is part of every allocation's read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostPointerChain {
    /// `VkImportMemoryHostPointerInfoEXT::pHostPointer`'s address, when one is chained.
    pub pointer: u64,
    /// `VkImportMemoryHostPointerInfoEXT::handleType`, when one is chained.
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
    /// A `VkImportMemoryHostPointerInfoEXT` is chained.
    pub imported: bool,
    /// A `VkMemoryDedicatedAllocateInfo` names an image or a buffer.
    pub dedicated_khr: bool,
    /// A `VkDedicatedAllocationMemoryAllocateInfoNV` names an image or a buffer.
    pub dedicated_nv: bool,
    /// `VkMemoryOpaqueCaptureAddressAllocateInfo::opaqueCaptureAddress` is not 0.
    pub capture_address: bool,
}

impl HostPointerChain {
    pub const NONE: Self = Self {
        pointer: 0,
        handle_type: vk::ExternalMemoryHandleTypeFlags::empty(),
        imported: false,
        dedicated_khr: false,
        dedicated_nv: false,
        capture_address: false,
    };

    /// The import structure's `handleType` and `pHostPointer`, when one is chained.
    pub fn import(&self) -> Option<(vk::ExternalMemoryHandleTypeFlags, u64)> {
        self.imported.then_some((self.handle_type, self.pointer))
    }

    /// A chain importing `pHostPointer` as `handle_type`, and nothing else.
    pub fn importing(handle_type: vk::ExternalMemoryHandleTypeFlags, pointer: u64) -> Self {
        Self {
            pointer,
            handle_type,
            imported: true,
            ..Self::NONE
        }
    }
}

impl ChainRead {
    /// A chain that ended, with no repeat and no import.
    pub const COMPLETE: ChainRead = ChainRead {
        end: ChainEnd::Complete,
        repeated: None,
        structures: 0,
        import_fd: None,
        import_operations: 0,
        dedicated_to: None,
        host: HostPointerChain::NONE,
        export_win32: false,
        dedicated_info: None,
        handle_imports: false,
        device_mask: None,
        allocate_flags: vk::MemoryAllocateFlags::empty(),
        unread_sharing: false,
    };
}

/// A `VkImportMemoryFdInfoKHR` as the app chained it, and what the OS says of its fd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FdImport {
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
    pub fd: i32,
    /// Whether `fd` is open in this process (`fcntl(F_GETFD)`), asked by the command before the
    /// rules run; `None` where the layer cannot tell (not POSIX, or not asked).
    pub open: Option<bool>,
    /// For a `DMA_BUF` or `OPAQUE_FD` import of an open fd: what its file is when it certainly is
    /// no handle of that type (`os::payload::certainly_not_dma_buf`,
    /// `os::payload::certainly_no_opaque_fd`); `None` otherwise.
    pub not_of_type: Option<crate::os::payload::FileKind>,
}

impl FdImport {
    /// Whether the structure defines an import operation (`handleType` 0: it is ignored).
    pub fn imports(&self) -> bool {
        !self.handle_type.is_empty()
    }
}

/// What the layer read of the info structure of a physical-device sync query
/// (`VkPhysicalDeviceExternalSemaphoreInfo`, `VkPhysicalDeviceExternalFenceInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncQueryInfo {
    /// `handleType`, a `VkExternalSemaphoreHandleTypeFlagBits` / `VkExternalFenceHandleTypeFlagBits`.
    pub handle_type: u32,
    /// The first chained structure that does not extend the info structure.
    pub foreign: Option<vk::StructureType>,
    /// A structure that extends it, chained twice.
    pub repeated: Option<vk::StructureType>,
    /// The chain names a timeline semaphore (`VkSemaphoreTypeCreateInfo`).
    pub timeline: bool,
    pub end: ChainEnd,
}
