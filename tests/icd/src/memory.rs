//! Device memory: every allocation is a `memfd` of its size (made at allocation, or at first
//! use with `"memory_backing": "none"`); fds are imported by taking
//! ownership and exported as new descriptors of that memfd; imported host memory is the app's
//! own (mapped, it is the app's pointer); RDMA addresses, Win32 handles and
//! Metal handles are made-up values, distinct per allocation and handle type.

use ash::vk;
use std::ffi::c_void;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::config::{
    FdExport, MemoryBacking, HANDLE_TYPE_MTLBUFFER, HANDLE_TYPE_MTLHEAP, HANDLE_TYPE_MTLTEXTURE,
};
use crate::device::{self, Device};
use crate::device_file;
use crate::ffi::{self, entry};
use crate::objects::{lock, Set};

/// `VkImportMemoryMetalHandleInfoEXT` (not in ash 0.38).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ImportMemoryMetalHandleInfoEXT {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
    pub handle: *mut c_void,
}

/// `VkMemoryGetMetalHandleInfoEXT`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemoryGetMetalHandleInfoEXT {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub memory: vk::DeviceMemory,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
}

/// `VkMemoryMetalHandlePropertiesEXT`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemoryMetalHandlePropertiesEXT {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub memory_type_bits: u32,
}

pub const STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_000);
pub const STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_001);
pub const STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_002);

const METAL_TYPES: u32 = HANDLE_TYPE_MTLBUFFER | HANDLE_TYPE_MTLTEXTURE | HANDLE_TYPE_MTLHEAP;
const FD_TYPES: u32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD.as_raw()
    | vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT.as_raw();

/// High bits of every `VkDeviceMemory` handle value (the low bits are the allocation id).
pub const MEMORY_HANDLE_TAG: u64 = 0xEC00_0000_0000_0000;
/// Base of the values returned by `vkGetMemoryRemoteAddressNV`.
pub const REMOTE_ADDRESS_BASE: u64 = 0x7D00_0000_0000;
/// Base of the values returned by `vkGetMemoryWin32HandleNV`.
pub const WIN32_HANDLE_BASE: u64 = 0x5700_0000_0000;
/// Base of the values returned by `vkGetMemoryMetalHandleEXT`.
pub const METAL_HANDLE_BASE: u64 = 0x4D00_0000_0000;
/// Base of the values returned by `vkGetMemoryWin32HandleKHR`.
pub const WIN32_KHR_HANDLE_BASE: u64 = 0x5800_0000_0000;
/// Base of the pointers returned by `vkGetMemoryAndroidHardwareBufferANDROID`.
pub const ANDROID_HARDWARE_BUFFER_BASE: u64 = 0x4100_0000_0000;
/// Base of the `zx_handle_t` values returned by `vkGetMemoryZirconHandleFUCHSIA` (32 bits: the
/// allocation's number wraps at 2^21).
pub const ZIRCON_HANDLE_BASE: u32 = 0x2000_0000;

/// The `zx_handle_t` for allocation `id` and handle type `bits`: non-zero, stable, distinct per
/// allocation (below 2^21 of them) and handle type.
pub fn zircon_handle_value(id: u64, bits: u32) -> u32 {
    ZIRCON_HANDLE_BASE | (((id & 0x1f_ffff) as u32) << 8) | type_index(bits) as u32
}

/// Which handle type, as a number below 0x100: bit index + 1 for one bit, else `0x80 | low bits`.
pub(crate) fn type_index(bits: u32) -> u64 {
    if bits.is_power_of_two() {
        u64::from(bits.trailing_zeros()) + 1
    } else {
        0x80 | u64::from(bits & 0x7f)
    }
}

/// The exported value for (`base` kind, allocation `id`, handle type `bits`): non-zero, stable
/// and distinct per allocation, handle type and kind.
pub fn handle_value(base: u64, id: u64, bits: u32) -> u64 {
    base + id * 0x100 + type_index(bits)
}

/// File descriptors the driver owns (memfds and imported fds), so that importing one of them
/// again is refused instead of ending with a double close.
fn owned_fds() -> &'static Mutex<Set<RawFd>> {
    static FDS: OnceLock<Mutex<Set<RawFd>>> = OnceLock::new();
    FDS.get_or_init(|| Mutex::new(Set::default()))
}

/// One `VkDeviceMemory`.
pub struct Allocation {
    pub id: u64,
    pub size: u64,
    pub memory_type_index: u32,
    /// The memfd or imported fd. `None` until first needed with `"memory_backing": "none"`
    /// (see [`Allocation::backing_fd`]); taken out to be closed under the owned-fd lock.
    fd: Option<OwnedFd>,
    /// `VkExportMemoryAllocateInfo::handleTypes`
    pub export_types: u32,
    /// `VkExportMemoryAllocateInfoNV::handleTypes`
    pub export_types_nv: u32,
    /// Handle type it was imported from, if any.
    pub imported_type: Option<u32>,
    /// `VkMemoryDedicatedAllocateInfo`: the image and buffer handle values (0 for NULL).
    pub dedicated_to: Option<(u64, u64)>,
    /// The handle a Metal, Win32, Zircon or Android hardware buffer import gave: (its handle
    /// type, its value). Exporting the memory as that type returns it.
    imported_handle: Option<(u32, u64)>,
    /// `VkImportMemoryHostPointerInfoEXT::pHostPointer`: the app's memory, which this allocation
    /// is (a mapping of it is the pointer itself; the driver never frees or unmaps it).
    host_pointer: Option<usize>,
    mapping: Option<Mapping>,
    /// `same_fd_twice`: the one descriptor handed out for every export (owned by the app).
    cached_fd: Option<RawFd>,
}

/// A live `vkMapMemory` of an allocation.
enum Mapping {
    /// `(address, length)` of the allocation's memfd, mapped by the driver, which unmaps it.
    Own(usize, usize),
    /// The app's host memory (an imported host pointer): nothing to unmap.
    Host,
}

impl Mapping {
    /// Ends the mapping: unmaps what the driver mapped, never the app's memory.
    fn end(self) {
        if let Mapping::Own(addr, len) = self {
            // SAFETY: (addr, len) is a mapping the allocation made with mmap and owned until now.
            unsafe { libc::munmap(addr as *mut c_void, len) };
        }
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        if let Some(mapping) = self.mapping.take() {
            mapping.end();
        }
        let mut owned = lock(owned_fds());
        if let Some(fd) = self.fd.take() {
            owned.remove(&fd.as_raw_fd());
            // Closed while the set is locked: no import can claim the number in between.
            drop(fd);
        }
    }
}

impl Allocation {
    /// The memfd (or imported fd) backing the allocation, made now if it has none yet.
    fn backing_fd(&mut self) -> Result<RawFd, vk::Result> {
        if let Some(fd) = &self.fd {
            return Ok(fd.as_raw_fd());
        }
        let fd = new_memfd(self.size).ok_or(vk::Result::ERROR_OUT_OF_HOST_MEMORY)?;
        let raw = fd.as_raw_fd();
        lock(owned_fds()).insert(raw);
        self.fd = Some(fd);
        Ok(raw)
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn new_memfd(size: u64) -> Option<OwnedFd> {
    // SAFETY: a NUL-terminated name and valid flags.
    let fd = unsafe { libc::memfd_create(c"exportcheck-icd-memory".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    // SAFETY: `fd` was just created and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let size = libc::off_t::try_from(size).ok()?;
    // SAFETY: `fd` is a valid memfd.
    if unsafe { libc::ftruncate(fd.as_raw_fd(), size) } != 0 {
        return None;
    }
    Some(fd)
}

/// Takes ownership of an fd given in `VkImportMemoryFdInfoKHR`, if it is usable.
fn import_fd(handle_type: u32, fd: RawFd, size: u64) -> Result<OwnedFd, vk::Result> {
    if handle_type & FD_TYPES == 0 || !handle_type.is_power_of_two() || fd < 0 {
        return Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE);
    }
    let mut owned = lock(owned_fds());
    if owned.contains(&fd) {
        return Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE);
    }
    // SAFETY: fstat only writes to the local buffer; a bad fd makes it fail with EBADF.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE);
    }
    if st.st_mode & libc::S_IFMT == libc::S_IFREG && (st.st_size as u64) < size {
        return Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE);
    }
    owned.insert(fd);
    // SAFETY: a successful import transfers ownership of `fd` to the driver (Vulkan contract),
    // and the driver owns no other OwnedFd for this number (checked above).
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The handle types of `VK_KHR_external_memory_win32` (NT and global share handles).
const WIN32_TYPES: u32 = 0x7e;
const ZIRCON_VMO: u32 = vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA.as_raw();
const ANDROID_HARDWARE_BUFFER: u32 =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID.as_raw();

/// Whether `value` is one the driver made with [`handle_value`] from `base` for `handle_type`.
fn made_from(base: u64, value: u64, handle_type: u32) -> bool {
    let Some(offset) = value.checked_sub(base) else {
        return false;
    };
    offset < 1 << 40 && offset >> 8 != 0 && offset & 0xff == type_index(handle_type)
}

/// Whether `handle` is a Win32 handle of `handle_type` this driver exported.
pub fn is_own_win32_handle(handle_type: u32, handle: u64) -> bool {
    handle_type.is_power_of_two()
        && handle_type & WIN32_TYPES != 0
        && made_from(WIN32_KHR_HANDLE_BASE, handle, handle_type)
}

/// Whether `handle` is a Zircon VMO handle this driver exported.
pub fn is_own_zircon_handle(handle_type: u32, handle: u32) -> bool {
    handle_type == ZIRCON_VMO
        && handle & 0xe000_0000 == ZIRCON_HANDLE_BASE
        && u64::from(handle & 0xff) == type_index(ZIRCON_VMO)
        && handle & 0x1fff_ff00 != 0
}

/// Whether `buffer` is an `AHardwareBuffer*` this driver exported.
pub fn is_own_android_hardware_buffer(buffer: u64) -> bool {
    made_from(
        ANDROID_HARDWARE_BUFFER_BASE,
        buffer,
        ANDROID_HARDWARE_BUFFER,
    )
}

/// The import of a Win32 handle, Zircon VMO or Android hardware buffer in a chain, if any (a
/// `handleType` of 0 imports nothing): `(handle type, handle)`; one the driver did not export
/// (or a Win32 import by name) is `VK_ERROR_INVALID_EXTERNAL_HANDLE`.
///
/// # Safety
/// `p_next` heads a valid chain.
unsafe fn foreign_import(p_next: *const c_void) -> Result<Option<(u32, u64)>, vk::Result> {
    let invalid = Err(vk::Result::ERROR_INVALID_EXTERNAL_HANDLE);
    // SAFETY: the caller's contract; each structure is read as the type its sType names.
    let find = |s| unsafe { ffi::find_in_chain(p_next, s) };
    if let Some(p) = find(vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR) {
        // SAFETY: as above.
        let i = unsafe { &*p.cast::<vk::ImportMemoryWin32HandleInfoKHR<'_>>() };
        let (ty, handle) = (i.handle_type.as_raw(), i.handle as u64);
        if ty != 0 {
            if !i.name.is_null() || !is_own_win32_handle(ty, handle) {
                return invalid;
            }
            return Ok(Some((ty, handle)));
        }
    }
    if let Some(p) = find(vk::StructureType::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA) {
        // SAFETY: as above.
        let i = unsafe { &*p.cast::<vk::ImportMemoryZirconHandleInfoFUCHSIA<'_>>() };
        let ty = i.handle_type.as_raw();
        if ty != 0 {
            if !is_own_zircon_handle(ty, i.handle) {
                return invalid;
            }
            return Ok(Some((ty, u64::from(i.handle))));
        }
    }
    if let Some(p) = find(vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID) {
        // SAFETY: as above.
        let i = unsafe { &*p.cast::<vk::ImportAndroidHardwareBufferInfoANDROID<'_>>() };
        let buffer = i.buffer as u64;
        if !is_own_android_hardware_buffer(buffer) {
            return invalid;
        }
        return Ok(Some((ANDROID_HARDWARE_BUFFER, buffer)));
    }
    Ok(None)
}

/// # Safety
/// Vulkan's contract for `vkAllocateMemory`.
unsafe fn allocate(
    device: vk::Device,
    p_info: *const vk::MemoryAllocateInfo<'_>,
    p_memory: *mut vk::DeviceMemory,
) -> vk::Result {
    // SAFETY: valid or NULL pointers (Vulkan contract).
    let (Some(info), Some(out)) = (unsafe { p_info.as_ref() }, unsafe { p_memory.as_mut() }) else {
        return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
    };
    let Some(dev) = device::lookup(device) else {
        return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
    };
    let Some(ty) = dev.config.memory_types.get(info.memory_type_index as usize) else {
        return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
    };
    let heap_size = dev.config.memory_heaps[ty.heap as usize].size;
    // SAFETY: `p_next` heads a valid chain; each structure is read as the type its sType names.
    let (export, export_nv, import_fd_info, import_metal, dedicated_to, foreign, host) = unsafe {
        let find = |s| ffi::find_in_chain(info.p_next, s);
        (
            find(vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO).map(|p| {
                (*p.cast::<vk::ExportMemoryAllocateInfo<'_>>())
                    .handle_types
                    .as_raw()
            }),
            find(vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO_NV).map(|p| {
                (*p.cast::<vk::ExportMemoryAllocateInfoNV<'_>>())
                    .handle_types
                    .as_raw()
            }),
            find(vk::StructureType::IMPORT_MEMORY_FD_INFO_KHR)
                .map(|p| *p.cast::<vk::ImportMemoryFdInfoKHR<'_>>()),
            find(STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT)
                .map(|p| *p.cast::<ImportMemoryMetalHandleInfoEXT>()),
            find(vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO).map(|p| {
                let d = &*p.cast::<vk::MemoryDedicatedAllocateInfo<'_>>();
                (vk::Handle::as_raw(d.image), vk::Handle::as_raw(d.buffer))
            }),
            foreign_import(info.p_next),
            find(vk::StructureType::IMPORT_MEMORY_HOST_POINTER_INFO_EXT)
                .map(|p| *p.cast::<vk::ImportMemoryHostPointerInfoEXT<'_>>()),
        )
    };
    // Memory exported as an Android hardware buffer and dedicated to an image has the image's
    // size, with an allocationSize of 0 (VUID-VkMemoryAllocateInfo-pNext-01874).
    let size = match (info.allocation_size, export, dedicated_to) {
        (0, Some(types), Some((image, _)))
            if types & ANDROID_HARDWARE_BUFFER != 0 && image != 0 =>
        {
            crate::image::image_requirements(device, vk::Handle::from_raw(image))
                .0
                .size
        }
        (size, ..) => size,
    };
    if size == 0 || size > heap_size {
        return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
    }
    let mut imported_type = None;
    // Checked before an fd import, which must not take the fd when the call fails.
    let imported_metal = match import_metal.filter(|i| !i.handle_type.is_empty()) {
        Some(i) if i.handle.is_null() || i.handle_type.as_raw() & METAL_TYPES == 0 => {
            return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
        }
        Some(i) => Some((i.handle_type.as_raw(), i.handle as u64)),
        None => None,
    };
    let imported_handle = match foreign {
        Err(e) => return e,
        Ok(Some(imported)) => Some(imported),
        Ok(None) => imported_metal,
    };
    if let Some((ty, _)) = imported_handle {
        imported_type = Some(ty);
    }
    let host_pointer = match host.filter(|i| !i.handle_type.is_empty()) {
        Some(i) => {
            let ty = i.handle_type.as_raw();
            if !is_importable_host_pointer(i.handle_type, i.p_host_pointer) {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            imported_type = Some(ty);
            Some(i.p_host_pointer as usize)
        }
        None => None,
    };
    let fd = match import_fd_info.filter(|i| !i.handle_type.is_empty()) {
        Some(i)
            if dev.config.fd_export == FdExport::DeviceFile
                && i.handle_type == vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD =>
        {
            let backing = match device_file::import(i.fd, size) {
                Ok(Some(backing)) => backing,
                // An export of another process: new memory.
                Ok(None) => match new_memfd(size) {
                    Some(fd) => fd,
                    None => return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
                },
                Err(e) => return e,
            };
            imported_type = Some(i.handle_type.as_raw());
            lock(owned_fds()).insert(backing.as_raw_fd());
            Some(backing)
        }
        Some(i) => match import_fd(i.handle_type.as_raw(), i.fd, size) {
            Ok(fd) => {
                imported_type = Some(i.handle_type.as_raw());
                Some(fd)
            }
            Err(e) => return e,
        },
        None if host_pointer.is_some() || dev.config.memory_backing == MemoryBacking::None => None,
        None => {
            let Some(fd) = new_memfd(size) else {
                return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
            };
            lock(owned_fds()).insert(fd.as_raw_fd());
            Some(fd)
        }
    };
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let handle = MEMORY_HANDLE_TAG | id;
    let allocation = Allocation {
        id,
        size,
        memory_type_index: info.memory_type_index,
        fd,
        export_types: export.unwrap_or(0),
        export_types_nv: export_nv.unwrap_or(0),
        imported_type,
        dedicated_to,
        imported_handle,
        host_pointer,
        mapping: None,
        cached_fd: None,
    };
    lock(&dev.memory).insert(handle, allocation);
    *out = vk::Handle::from_raw(handle);
    vk::Result::SUCCESS
}

pub(crate) unsafe extern "system" fn allocate_memory(
    device: vk::Device,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_memory: *mut vk::DeviceMemory,
) -> vk::Result {
    entry(
        "vkAllocateMemory",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: forwarded under vkAllocateMemory's contract.
            unsafe { allocate(device, p_allocate_info, p_memory) }
        },
    )
}

pub(crate) unsafe extern "system" fn free_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkFreeMemory", (), || {
        if let Some(dev) = device::lookup(device) {
            let freed = lock(&dev.memory).remove(&vk::Handle::as_raw(memory));
            drop(freed);
        }
    })
}

pub(crate) unsafe extern "system" fn map_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    _flags: vk::MemoryMapFlags,
    pp_data: *mut *mut c_void,
) -> vk::Result {
    entry("vkMapMemory", vk::Result::ERROR_MEMORY_MAP_FAILED, || {
        const FAILED: vk::Result = vk::Result::ERROR_MEMORY_MAP_FAILED;
        // SAFETY: valid or NULL output pointer (Vulkan contract).
        let (Some(dev), Some(out)) = (device::lookup(device), unsafe { pp_data.as_mut() }) else {
            return FAILED;
        };
        let mut mem = lock(&dev.memory);
        let Some(a) = mem.get_mut(&vk::Handle::as_raw(memory)) else {
            return FAILED;
        };
        let in_range = offset < a.size && (size == vk::WHOLE_SIZE || size <= a.size - offset);
        if a.mapping.is_some() || !in_range {
            return FAILED;
        }
        if let Some(pointer) = a.host_pointer {
            // The app's own memory: the mapping is its pointer (VK_EXT_external_memory_host).
            a.mapping = Some(Mapping::Host);
            *out = (pointer + offset as usize) as *mut c_void;
            return vk::Result::SUCCESS;
        }
        let Ok(len) = usize::try_from(a.size) else {
            return FAILED;
        };
        let Ok(fd) = a.backing_fd() else {
            return FAILED;
        };
        // SAFETY: maps `len` bytes of the allocation's own memfd; the result is checked.
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            return FAILED;
        }
        a.mapping = Some(Mapping::Own(addr as usize, len));
        *out = (addr as usize + offset as usize) as *mut c_void;
        vk::Result::SUCCESS
    })
}

pub(crate) unsafe extern "system" fn unmap_memory(device: vk::Device, memory: vk::DeviceMemory) {
    entry("vkUnmapMemory", (), || {
        let Some(dev) = device::lookup(device) else {
            return;
        };
        let mut mem = lock(&dev.memory);
        if let Some(mapping) = mem
            .get_mut(&vk::Handle::as_raw(memory))
            .and_then(|a| a.mapping.take())
        {
            mapping.end();
        }
    })
}

pub(crate) unsafe extern "system" fn flush_mapped_memory_ranges(
    _device: vk::Device,
    _count: u32,
    _p_ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    // Mappings are coherent (MAP_SHARED of the memfd).
    entry("vkFlushMappedMemoryRanges", vk::Result::SUCCESS, || {
        vk::Result::SUCCESS
    })
}

pub(crate) unsafe extern "system" fn invalidate_mapped_memory_ranges(
    _device: vk::Device,
    _count: u32,
    _p_ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    entry(
        "vkInvalidateMappedMemoryRanges",
        vk::Result::SUCCESS,
        || vk::Result::SUCCESS,
    )
}

/// Runs `f` on the allocation `memory` of `device`; `None` if either is unknown.
fn with_allocation<R>(
    device: vk::Device,
    memory: vk::DeviceMemory,
    f: impl FnOnce(&Device, &mut Allocation) -> R,
) -> Option<R> {
    let dev = device::lookup(device)?;
    let mut mem = lock(&dev.memory);
    let a = mem.get_mut(&vk::Handle::as_raw(memory))?;
    Some(f(&dev, a))
}

/// A new descriptor of the allocation's memfd, close-on-exec unless `cloexec` is false.
fn dup_fd(fd: RawFd, cloexec: bool) -> Result<RawFd, vk::Result> {
    let cmd = if cloexec {
        libc::F_DUPFD_CLOEXEC
    } else {
        libc::F_DUPFD
    };
    // SAFETY: fcntl on a descriptor this allocation owns.
    let new = unsafe { libc::fcntl(fd, cmd, 0) };
    if new >= 0 {
        Ok(new)
    } else if std::io::Error::last_os_error().raw_os_error() == Some(libc::EMFILE) {
        Err(vk::Result::ERROR_TOO_MANY_OBJECTS)
    } else {
        Err(vk::Result::ERROR_OUT_OF_HOST_MEMORY)
    }
}

pub(crate) unsafe extern "system" fn get_memory_fd(
    device: vk::Device,
    p_get_fd_info: *const vk::MemoryGetFdInfoKHR<'_>,
    p_fd: *mut i32,
) -> vk::Result {
    entry("vkGetMemoryFdKHR", vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: valid or NULL pointers (Vulkan contract).
        let (Some(info), Some(out)) = (unsafe { p_get_fd_info.as_ref() }, unsafe { p_fd.as_mut() })
        else {
            return vk::Result::ERROR_UNKNOWN;
        };
        crate::counters::record_p_next("vkGetMemoryFdKHR", info.p_next);
        let handle_type = info.handle_type.as_raw();
        if !handle_type.is_power_of_two() || handle_type & FD_TYPES == 0 {
            return vk::Result::ERROR_UNKNOWN;
        }
        let result = with_allocation(device, info.memory, |dev, a| {
            let m = dev.config.misbehave;
            if m.invalid_fd {
                return Ok(-1);
            }
            if m.same_fd_twice {
                if let Some(fd) = a.cached_fd {
                    return Ok(fd);
                }
            }
            let device_file = dev.config.fd_export == FdExport::DeviceFile
                && handle_type == vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD.as_raw();
            let fd = if device_file {
                let size = a.size;
                device_file::export(a.backing_fd()?, size, !m.fd_without_cloexec)?
            } else {
                dup_fd(a.backing_fd()?, !m.fd_without_cloexec)?
            };
            if m.same_fd_twice {
                a.cached_fd = Some(fd);
            }
            Ok(fd)
        });
        match result {
            Some(Ok(fd)) => {
                *out = fd;
                vk::Result::SUCCESS
            }
            Some(Err(e)) => e,
            None => vk::Result::ERROR_UNKNOWN,
        }
    })
}

pub(crate) unsafe extern "system" fn get_memory_fd_properties(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    fd: i32,
    p_properties: *mut vk::MemoryFdPropertiesKHR<'_>,
) -> vk::Result {
    entry(
        "vkGetMemoryFdPropertiesKHR",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let (Some(dev), Some(out)) = (device::lookup(device), unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            // OPAQUE_FD is not allowed here (the spec gives its properties no meaning).
            if handle_type != vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            // SAFETY: F_GETFD only queries the descriptor; a bad one fails with EBADF.
            if fd < 0 || unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            out.memory_type_bits = all_types(&dev);
            vk::Result::SUCCESS
        },
    )
}

fn all_types(dev: &Device) -> u32 {
    let n = dev.config.memory_types.len() as u32;
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

pub(crate) unsafe extern "system" fn get_memory_remote_address(
    device: vk::Device,
    p_info: *const vk::MemoryGetRemoteAddressInfoNV<'_>,
    p_address: *mut *mut c_void,
) -> vk::Result {
    entry(
        "vkGetMemoryRemoteAddressNV",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) =
                (unsafe { p_info.as_ref() }, unsafe { p_address.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            crate::counters::record_p_next("vkGetMemoryRemoteAddressNV", info.p_next);
            let bits = info.handle_type.as_raw();
            match with_allocation(device, info.memory, |dev, a| {
                if dev.config.misbehave.zero_remote_address {
                    0
                } else {
                    handle_value(REMOTE_ADDRESS_BASE, a.id, bits)
                }
            }) {
                Some(addr) => {
                    *out = addr as usize as *mut c_void;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_win32_handle(
    device: vk::Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    p_handle: *mut *mut c_void,
) -> vk::Result {
    entry(
        "vkGetMemoryWin32HandleNV",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let Some(out) = (unsafe { p_handle.as_mut() }) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            match with_allocation(device, memory, |dev, a| {
                if dev.config.misbehave.null_win32_handle {
                    0
                } else {
                    handle_value(WIN32_HANDLE_BASE, a.id, handle_type.as_raw())
                }
            }) {
                Some(h) => {
                    *out = h as usize as *mut c_void;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_UNKNOWN,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_metal_handle(
    device: vk::Device,
    p_info: *const MemoryGetMetalHandleInfoEXT,
    p_handle: *mut *mut c_void,
) -> vk::Result {
    entry(
        "vkGetMemoryMetalHandleEXT",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) =
                (unsafe { p_info.as_ref() }, unsafe { p_handle.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            crate::counters::record_p_next("vkGetMemoryMetalHandleEXT", info.p_next);
            let bits = info.handle_type.as_raw();
            match with_allocation(device, info.memory, |dev, a| {
                if dev.config.misbehave.null_metal_handle {
                    return 0;
                }
                match a.imported_handle {
                    // Memory imported from a Metal object exports that same object.
                    Some((ty, handle)) if ty == bits => handle,
                    _ => handle_value(METAL_HANDLE_BASE, a.id, bits),
                }
            }) {
                Some(h) => {
                    *out = h as usize as *mut c_void;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_UNKNOWN,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_win32_handle_khr(
    device: vk::Device,
    p_info: *const vk::MemoryGetWin32HandleInfoKHR<'_>,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    entry(
        "vkGetMemoryWin32HandleKHR",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) =
                (unsafe { p_info.as_ref() }, unsafe { p_handle.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            crate::counters::record_p_next("vkGetMemoryWin32HandleKHR", info.p_next);
            let bits = info.handle_type.as_raw();
            match with_allocation(device, info.memory, |dev, a| match a.imported_handle {
                _ if dev.config.misbehave.null_win32_handle_khr => 0,
                Some((ty, handle)) if ty == bits => handle,
                _ => handle_value(WIN32_KHR_HANDLE_BASE, a.id, bits),
            }) {
                Some(h) => {
                    *out = h as vk::HANDLE;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_UNKNOWN,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_zircon_handle(
    device: vk::Device,
    p_info: *const vk::MemoryGetZirconHandleInfoFUCHSIA<'_>,
    p_handle: *mut vk::zx_handle_t,
) -> vk::Result {
    entry(
        "vkGetMemoryZirconHandleFUCHSIA",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) =
                (unsafe { p_info.as_ref() }, unsafe { p_handle.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            crate::counters::record_p_next("vkGetMemoryZirconHandleFUCHSIA", info.p_next);
            let bits = info.handle_type.as_raw();
            match with_allocation(device, info.memory, |dev, a| match a.imported_handle {
                _ if dev.config.misbehave.invalid_zircon_handle => 0,
                Some((ty, handle)) if ty == bits => handle as u32,
                _ => zircon_handle_value(a.id, bits),
            }) {
                Some(h) => {
                    *out = h;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_UNKNOWN,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_android_hardware_buffer(
    device: vk::Device,
    p_info: *const vk::MemoryGetAndroidHardwareBufferInfoANDROID<'_>,
    p_buffer: *mut *mut vk::AHardwareBuffer,
) -> vk::Result {
    entry(
        "vkGetMemoryAndroidHardwareBufferANDROID",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) =
                (unsafe { p_info.as_ref() }, unsafe { p_buffer.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            crate::counters::record_p_next("vkGetMemoryAndroidHardwareBufferANDROID", info.p_next);
            let bits = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID.as_raw();
            match with_allocation(device, info.memory, |dev, a| match a.imported_handle {
                _ if dev.config.misbehave.null_android_hardware_buffer => 0,
                Some((ty, handle)) if ty == bits => handle,
                _ => handle_value(ANDROID_HARDWARE_BUFFER_BASE, a.id, bits),
            }) {
                Some(h) => {
                    *out = h as usize as *mut vk::AHardwareBuffer;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_UNKNOWN,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_metal_handle_properties(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    p_handle: *const c_void,
    p_properties: *mut MemoryMetalHandlePropertiesEXT,
) -> vk::Result {
    entry(
        "vkGetMemoryMetalHandlePropertiesEXT",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let (Some(dev), Some(out)) = (device::lookup(device), unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let bits = handle_type.as_raw();
            if p_handle.is_null() || !bits.is_power_of_two() || bits & METAL_TYPES == 0 {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            out.memory_type_bits = all_types(&dev);
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_win32_handle_properties(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: vk::HANDLE,
    p_properties: *mut vk::MemoryWin32HandlePropertiesKHR<'_>,
) -> vk::Result {
    entry(
        "vkGetMemoryWin32HandlePropertiesKHR",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let (Some(dev), Some(out)) = (device::lookup(device), unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            if !is_own_win32_handle(handle_type.as_raw(), handle as u64) {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            out.memory_type_bits = all_types(&dev);
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn get_memory_zircon_handle_properties(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: vk::zx_handle_t,
    p_properties: *mut vk::MemoryZirconHandlePropertiesFUCHSIA<'_>,
) -> vk::Result {
    entry(
        "vkGetMemoryZirconHandlePropertiesFUCHSIA",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let (Some(dev), Some(out)) = (device::lookup(device), unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            if !is_own_zircon_handle(handle_type.as_raw(), handle) {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            // The memory type of the allocation the handle was exported from, while that
            // allocation is live; every type otherwise.
            let id = u64::from((handle >> 8) & 0x1f_ffff);
            let exported_from = lock(&dev.memory)
                .values()
                .find(|a| a.id & 0x1f_ffff == id)
                .map(|a| a.memory_type_index);
            out.memory_type_bits = match exported_from {
                Some(index) => 1u32.checked_shl(index).unwrap_or(0),
                None => all_types(&dev),
            };
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn get_android_hardware_buffer_properties(
    device: vk::Device,
    buffer: *const vk::AHardwareBuffer,
    p_properties: *mut vk::AndroidHardwareBufferPropertiesANDROID<'_>,
) -> vk::Result {
    entry(
        "vkGetAndroidHardwareBufferPropertiesANDROID",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let (Some(dev), Some(out)) = (device::lookup(device), unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let value = buffer as u64;
            if !is_own_android_hardware_buffer(value) {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            // The buffer's size is its allocation's, while that allocation is live.
            let id = (value - ANDROID_HARDWARE_BUFFER_BASE) >> 8;
            let found = lock(&dev.memory)
                .values()
                .find(|a| a.id == id)
                .map(|a| (a.size, a.memory_type_index));
            let Some((size, memory_type_index)) = found else {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            };
            out.allocation_size = size;
            // The memory type of the allocation the buffer was exported from.
            out.memory_type_bits = 1u32.checked_shl(memory_type_index).unwrap_or(0);
            // Every buffer is R8G8B8A8_UNORM to a chained format structure; other structures
            // are left as they are.
            // SAFETY: the output chain the app made (Vulkan contract); the structure is read
            // and written as the type its sType names.
            unsafe {
                let format = ffi::find_in_chain(
                    out.p_next.cast_const(),
                    vk::StructureType::ANDROID_HARDWARE_BUFFER_FORMAT_PROPERTIES_ANDROID,
                );
                if let Some(p) = format {
                    let f = &mut *p
                        .cast_mut()
                        .cast::<vk::AndroidHardwareBufferFormatPropertiesANDROID<'_>>();
                    f.format = vk::Format::R8G8B8A8_UNORM;
                }
            }
            vk::Result::SUCCESS
        },
    )
}

/// `VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment`.
pub const MIN_IMPORTED_HOST_POINTER_ALIGNMENT: u64 = 4096;

/// `vkGetMemoryHostPointerPropertiesEXT`: a non-NULL pointer aligned to
/// [`MIN_IMPORTED_HOST_POINTER_ALIGNMENT`], of a host handle type, gives the host-visible memory
/// types; otherwise `VK_ERROR_INVALID_EXTERNAL_HANDLE`. The pointer is never read.
pub(crate) unsafe extern "system" fn get_memory_host_pointer_properties(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    p_host_pointer: *const c_void,
    p_properties: *mut vk::MemoryHostPointerPropertiesEXT<'_>,
) -> vk::Result {
    entry(
        "vkGetMemoryHostPointerPropertiesEXT",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let (Some(dev), Some(out)) = (device::lookup(device), unsafe { p_properties.as_mut() })
            else {
                return vk::Result::ERROR_UNKNOWN;
            };
            if !is_importable_host_pointer(handle_type, p_host_pointer) {
                return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
            }
            out.memory_type_bits = host_visible_types(&dev);
            vk::Result::SUCCESS
        },
    )
}

/// Whether the driver takes `pointer` as host memory of `handle_type`: non-NULL, aligned to
/// [`MIN_IMPORTED_HOST_POINTER_ALIGNMENT`], of one host handle type. The pointer is not read.
fn is_importable_host_pointer(
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    pointer: *const c_void,
) -> bool {
    let host_types = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT
        | vk::ExternalMemoryHandleTypeFlags::HOST_MAPPED_FOREIGN_MEMORY_EXT;
    let address = pointer as u64;
    address != 0
        && address.is_multiple_of(MIN_IMPORTED_HOST_POINTER_ALIGNMENT)
        && handle_type.as_raw().is_power_of_two()
        && host_types.contains(handle_type)
}

fn host_visible_types(dev: &Device) -> u32 {
    let host_visible = vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw();
    dev.config
        .memory_types
        .iter()
        .take(32)
        .enumerate()
        .filter(|(_, t)| t.flags & host_visible != 0)
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_values_are_distinct_stable_and_non_zero() {
        let kinds = [
            REMOTE_ADDRESS_BASE,
            WIN32_HANDLE_BASE,
            METAL_HANDLE_BASE,
            WIN32_KHR_HANDLE_BASE,
            ANDROID_HARDWARE_BUFFER_BASE,
        ];
        let types: Vec<u32> = (0..32).map(|b| 1u32 << b).chain([0, 3]).collect();
        let mut seen = std::collections::HashSet::new();
        for base in kinds {
            for id in 1..200 {
                for &t in &types {
                    let v = handle_value(base, id, t);
                    assert_ne!(v, 0);
                    assert_eq!(v, handle_value(base, id, t), "stable");
                    assert!(seen.insert(v), "{base:#x} {id} {t:#x} repeats {v:#x}");
                }
            }
        }
    }

    #[test]
    fn zircon_handles_are_distinct_stable_and_non_zero() {
        let mut seen = std::collections::HashSet::new();
        for id in 1..2000 {
            for t in [1u32 << 11, 1, 0] {
                let v = zircon_handle_value(id, t);
                assert_ne!(v, 0);
                assert_eq!(v, zircon_handle_value(id, t), "stable");
                assert!(seen.insert(v), "{id} {t:#x} repeats {v:#x}");
            }
        }
    }

    #[test]
    fn own_handles_are_recognised_and_others_are_not() {
        let opaque_win32 = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32.as_raw();
        let kmt = vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw();
        let win32 = handle_value(WIN32_KHR_HANDLE_BASE, 7, opaque_win32);
        assert!(is_own_win32_handle(opaque_win32, win32));
        assert!(!is_own_win32_handle(kmt, win32), "another type's");
        assert!(!is_own_win32_handle(opaque_win32, win32 + 0x1000_0000_0000));
        assert!(!is_own_win32_handle(
            1,
            handle_value(WIN32_KHR_HANDLE_BASE, 7, 1)
        ));
        assert!(!is_own_win32_handle(
            opaque_win32,
            handle_value(WIN32_HANDLE_BASE, 7, opaque_win32)
        ));
        assert!(!is_own_win32_handle(opaque_win32, 0));
        let vmo = zircon_handle_value(9, ZIRCON_VMO);
        assert!(is_own_zircon_handle(ZIRCON_VMO, vmo));
        assert!(!is_own_zircon_handle(ZIRCON_VMO, zircon_handle_value(9, 1)));
        assert!(!is_own_zircon_handle(1, vmo));
        assert!(!is_own_zircon_handle(ZIRCON_VMO, 0));
        let ahb = handle_value(ANDROID_HARDWARE_BUFFER_BASE, 3, ANDROID_HARDWARE_BUFFER);
        assert!(is_own_android_hardware_buffer(ahb));
        assert!(!is_own_android_hardware_buffer(ahb + 1));
        assert!(!is_own_android_hardware_buffer(0));
    }

    #[test]
    fn type_index_fits_below_the_stride() {
        for t in (0..32).map(|b| 1u32 << b).chain([0, u32::MAX, 0x3]) {
            assert!(type_index(t) < 0x100);
        }
    }

    #[test]
    fn memfds_have_their_size_and_imports_are_checked() {
        let fd = new_memfd(8192).unwrap();
        // SAFETY: valid descriptor and stat buffer.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        assert_eq!(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) }, 0);
        assert_eq!(st.st_size, 8192);
        let raw = dup_fd(fd.as_raw_fd(), true).unwrap();
        // SAFETY: F_GETFD on our descriptor.
        let flags = unsafe { libc::fcntl(raw, libc::F_GETFD) };
        assert_ne!(flags & libc::FD_CLOEXEC, 0);
        assert_eq!(
            import_fd(1, raw, 16384).unwrap_err(),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );
        assert_eq!(
            import_fd(0x2, raw, 16).unwrap_err(),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );
        let owned = import_fd(1, raw, 4096).unwrap();
        assert_eq!(
            import_fd(1, raw, 4096).unwrap_err(),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );
        lock(owned_fds()).remove(&raw);
        drop(owned);
        assert_eq!(
            import_fd(1, -1, 1).unwrap_err(),
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
        );
    }
}
