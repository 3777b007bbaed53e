//! The benchmark's calls of the import paths and of the export and handle-property commands the
//! first suites did not have: each a small method of [`Vk`], counted by `instructions.rs`.

use crate::vkctx::Vk;
use ash::vk;
use std::ffi::{c_void, CStr};

/// `vkGetDeviceProcAddr(name)` cast to the command's own PFN type `F`; `None` when NULL.
///
/// # Safety
/// `F` is the function pointer type of the command `name`.
pub unsafe fn device_fn<F: Copy>(vk: &Vk, name: &CStr) -> Option<F> {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<usize>());
    // SAFETY: the caller's contract: `F` is the command's signature.
    vk.device_proc(name)
        .map(|f| unsafe { std::mem::transmute_copy::<unsafe extern "system" fn(), F>(&f) })
}

impl Vk {
    /// Allocates `size` bytes of the plain memory type, exportable as `handle_types`.
    pub fn allocate_exportable(
        &self,
        handle_types: vk::ExternalMemoryHandleTypeFlags,
        size: u64,
    ) -> Result<vk::DeviceMemory, vk::Result> {
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(handle_types);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(self.plain_type)
            .push_next(&mut export);
        // SAFETY: valid device and allocate info; the chain outlives the call.
        unsafe { self.device.allocate_memory(&info, None) }
    }

    /// One import cycle: `memory` exported as an opaque fd, the fd imported as new memory of the
    /// same size and type (the driver takes the fd), the import freed.
    #[inline]
    pub fn export_import_free(&self, memory: vk::DeviceMemory, size: u64) -> vk::Result {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        let mut fd = -1;
        // SAFETY: valid device, info and output.
        let r = unsafe { (self.get_memory_fd)(self.device.handle(), &info, &mut fd) };
        if r != vk::Result::SUCCESS {
            return r;
        }
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
            .fd(fd);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(self.plain_type)
            .push_next(&mut import);
        // SAFETY: valid device and allocate info; the fd is the app's until the import succeeds.
        match unsafe { self.device.allocate_memory(&info, None) } {
            Ok(imported) => {
                self.free(imported);
                vk::Result::SUCCESS
            }
            Err(e) => {
                // SAFETY: a failed import leaves the fd with the app.
                unsafe { libc::close(fd) };
                e
            }
        }
    }

    /// The lowest memory type the driver says host memory at `pointer` can be imported as.
    pub fn host_pointer_memory_type(&self, pointer: *mut c_void) -> Result<u32, String> {
        let get = self
            .get_host_pointer_properties
            .ok_or("vkGetMemoryHostPointerPropertiesEXT is NULL")?;
        let mut properties = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: a live device with VK_EXT_external_memory_host, live aligned host memory of the
        // caller, and an output structure of ours.
        let r = unsafe {
            get(
                self.device.handle(),
                vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
                pointer,
                &mut properties,
            )
        };
        match (r, properties.memory_type_bits) {
            (vk::Result::SUCCESS, bits) if bits != 0 => Ok(bits.trailing_zeros()),
            (r, bits) => Err(format!(
                "vkGetMemoryHostPointerPropertiesEXT: {r:?}, memoryTypeBits {bits:#x}"
            )),
        }
    }

    /// One host-memory import cycle: `size` bytes at `pointer` imported as `memory_type`, then
    /// freed.
    #[inline]
    pub fn import_host_and_free(
        &self,
        pointer: *mut c_void,
        size: u64,
        memory_type: u32,
    ) -> vk::Result {
        let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT)
            .host_pointer(pointer);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(memory_type)
            .push_next(&mut import);
        // SAFETY: valid device and allocate info; `pointer` is live host memory of the caller.
        match unsafe { self.device.allocate_memory(&info, None) } {
            Ok(imported) => {
                self.free(imported);
                vk::Result::SUCCESS
            }
            Err(e) => e,
        }
    }

    /// Exports `memory` as an Android hardware buffer (the test driver's number).
    #[inline]
    pub fn export_ahb(
        &self,
        f: vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID,
        memory: vk::DeviceMemory,
    ) -> Result<*mut vk::AHardwareBuffer, vk::Result> {
        let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
        let mut buffer = std::ptr::null_mut();
        // SAFETY: valid device, info and output.
        match unsafe { f(self.device.handle(), &info, &mut buffer) } {
            vk::Result::SUCCESS => Ok(std::hint::black_box(buffer)),
            e => Err(e),
        }
    }

    /// Asks the properties of an Android hardware buffer.
    #[inline]
    pub fn query_ahb_properties(
        &self,
        f: vk::PFN_vkGetAndroidHardwareBufferPropertiesANDROID,
        buffer: *const vk::AHardwareBuffer,
    ) -> vk::Result {
        let mut properties = vk::AndroidHardwareBufferPropertiesANDROID::default();
        // SAFETY: valid device and output; `buffer` is the driver's own export.
        let r = unsafe { f(self.device.handle(), buffer, &mut properties) };
        std::hint::black_box(properties.memory_type_bits);
        r
    }

    /// Exports `memory` as a Win32 handle of `handle_type` (KHR).
    pub fn export_win32_khr(
        &self,
        f: vk::PFN_vkGetMemoryWin32HandleKHR,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> Result<vk::HANDLE, vk::Result> {
        let info = vk::MemoryGetWin32HandleInfoKHR::default()
            .memory(memory)
            .handle_type(handle_type);
        let mut handle: vk::HANDLE = 0;
        // SAFETY: valid device, info and output.
        match unsafe { f(self.device.handle(), &info, &mut handle) } {
            vk::Result::SUCCESS => Ok(handle),
            e => Err(e),
        }
    }

    /// Asks the memory types a Win32 handle of `handle_type` can be imported into.
    #[inline]
    pub fn query_win32_properties(
        &self,
        f: vk::PFN_vkGetMemoryWin32HandlePropertiesKHR,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
        handle: vk::HANDLE,
    ) -> vk::Result {
        let mut properties = vk::MemoryWin32HandlePropertiesKHR::default();
        // SAFETY: valid device and output; the handle is the driver's own export.
        let r = unsafe { f(self.device.handle(), handle_type, handle, &mut properties) };
        std::hint::black_box(properties.memory_type_bits);
        r
    }

    /// Exports `memory` as a Zircon VMO handle.
    pub fn zircon_handle_of(
        &self,
        f: vk::PFN_vkGetMemoryZirconHandleFUCHSIA,
        memory: vk::DeviceMemory,
    ) -> Result<vk::zx_handle_t, vk::Result> {
        let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA);
        let mut handle: vk::zx_handle_t = 0;
        // SAFETY: valid device, info and output.
        match unsafe { f(self.device.handle(), &info, &mut handle) } {
            vk::Result::SUCCESS => Ok(handle),
            e => Err(e),
        }
    }

    /// Asks the memory types a Zircon VMO handle can be imported into.
    #[inline]
    pub fn query_zircon_properties(
        &self,
        f: vk::PFN_vkGetMemoryZirconHandlePropertiesFUCHSIA,
        handle: vk::zx_handle_t,
    ) -> vk::Result {
        let mut properties = vk::MemoryZirconHandlePropertiesFUCHSIA::default();
        // SAFETY: valid device and output; the handle is the driver's own export.
        let r = unsafe {
            f(
                self.device.handle(),
                vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA,
                handle,
                &mut properties,
            )
        };
        std::hint::black_box(properties.memory_type_bits);
        r
    }
}
