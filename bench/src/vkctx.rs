//! The application side of the benchmark: an instance and a device made through the real Vulkan
//! loader (with the configuration's layer enabled by the app), the export commands, and exportable
//! allocations.

use ash::vk;
use std::ffi::{c_char, c_void, CStr};

use crate::model::{Config, Driver};

/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT` (VK_EXT_external_memory_metal, not in ash
/// 0.38).
pub const HANDLE_TYPE_MTLBUFFER: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 16);
/// `VK_STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT`
const STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT: vk::StructureType =
    vk::StructureType::from_raw(1_000_602_002);

/// `VkMemoryGetMetalHandleInfoEXT`
#[repr(C)]
pub struct MemoryGetMetalHandleInfoEXT {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub memory: vk::DeviceMemory,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
}

impl MemoryGetMetalHandleInfoEXT {
    pub fn new(memory: vk::DeviceMemory) -> Self {
        MemoryGetMetalHandleInfoEXT {
            s_type: STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
            p_next: std::ptr::null(),
            memory,
            handle_type: HANDLE_TYPE_MTLBUFFER,
        }
    }
}

pub type GetMemoryFd = unsafe extern "system" fn(
    vk::Device,
    *const vk::MemoryGetFdInfoKHR<'_>,
    *mut i32,
) -> vk::Result;
pub type GetRemoteAddress = unsafe extern "system" fn(
    vk::Device,
    *const vk::MemoryGetRemoteAddressInfoNV<'_>,
    *mut *mut c_void,
) -> vk::Result;
pub type GetWin32Handle = unsafe extern "system" fn(
    vk::Device,
    vk::DeviceMemory,
    vk::ExternalMemoryHandleTypeFlagsNV,
    *mut *mut c_void,
) -> vk::Result;
pub type GetMetalHandle = unsafe extern "system" fn(
    vk::Device,
    *const MemoryGetMetalHandleInfoEXT,
    *mut *mut c_void,
) -> vk::Result;

/// What kind of export an allocation is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// `VkExportMemoryAllocateInfo(OPAQUE_FD)`
    Fd,
    /// `VkExportMemoryAllocateInfo(OPAQUE_FD | RDMA_ADDRESS_NV)` in an RDMA-capable type.
    FdAndRdma,
    /// `VkExportMemoryAllocateInfoNV(OPAQUE_WIN32)`
    Win32,
    /// `VkExportMemoryAllocateInfo(MTLBUFFER)`
    Metal,
    /// `VkExportMemoryAllocateInfo(OPAQUE_WIN32_KMT)`: a handle type that is not NT, so exporting
    /// it again and again is valid (an NT handle type may be exported once per memory,
    /// VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663).
    Win32Kmt,
    /// `VkExportMemoryAllocateInfo(ZIRCON_VMO_FUCHSIA)`
    Zircon,
    /// `VkExportMemoryAllocateInfo(DMA_BUF_EXT)`
    DmaBuf,
}

/// Instance extensions enabled per driver: VK_NV_external_memory (for the Win32 NV export)
/// requires VK_NV_external_memory_capabilities.
fn instance_extensions(driver: Driver) -> &'static [&'static CStr] {
    match driver {
        Driver::TestDriver => &[c"VK_NV_external_memory_capabilities"],
        Driver::Lavapipe => &[],
    }
}

/// Device extensions enabled per driver (lavapipe 22.3 has no semaphore fds: the semaphore
/// export and import are counted on the test driver only, as every instruction count is).
fn device_extensions(driver: Driver) -> &'static [&'static CStr] {
    match driver {
        Driver::TestDriver => &[
            c"VK_KHR_external_memory",
            c"VK_KHR_external_memory_fd",
            c"VK_NV_external_memory_rdma",
            c"VK_NV_external_memory",
            c"VK_NV_external_memory_win32",
            c"VK_EXT_external_memory_metal",
            c"VK_EXT_external_memory_dma_buf",
            c"VK_KHR_external_memory_win32",
            c"VK_FUCHSIA_external_memory",
            c"VK_EXT_external_memory_host",
            c"VK_ANDROID_external_memory_android_hardware_buffer",
            c"VK_KHR_external_semaphore",
            c"VK_KHR_external_semaphore_fd",
        ],
        Driver::Lavapipe => &[c"VK_KHR_external_memory", c"VK_KHR_external_memory_fd"],
    }
}

/// An instance and a device, destroyed on drop.
pub struct Vk {
    pub instance: ash::Instance,
    pub device: ash::Device,
    pub get_memory_fd: GetMemoryFd,
    pub get_remote_address: Option<GetRemoteAddress>,
    pub get_win32_handle: Option<GetWin32Handle>,
    pub get_metal_handle: Option<GetMetalHandle>,
    pub get_win32_handle_khr: Option<vk::PFN_vkGetMemoryWin32HandleKHR>,
    pub get_zircon_handle: Option<vk::PFN_vkGetMemoryZirconHandleFUCHSIA>,
    pub get_fd_properties: Option<vk::PFN_vkGetMemoryFdPropertiesKHR>,
    pub get_host_pointer_properties: Option<vk::PFN_vkGetMemoryHostPointerPropertiesEXT>,
    pub physical_device: vk::PhysicalDevice,
    /// Memory type for plain exportable allocations.
    pub plain_type: u32,
    /// An RDMA-capable memory type, if the driver has one.
    pub rdma_type: Option<u32>,
}

/// Creates an instance (with `config`'s layer enabled by the application) and a device with the
/// export extensions of `driver`. Only the Vulkan calls; no function lookup besides ash's own.
pub fn create_instance_and_device(
    entry: &ash::Entry,
    driver: Driver,
    config: Config,
) -> Result<(ash::Instance, ash::Device, vk::PhysicalDevice), String> {
    let app = vk::ApplicationInfo::default()
        .application_name(c"exportcheck-bench")
        .api_version(vk::API_VERSION_1_3);
    let layers: Vec<*const c_char> = config.layer_name().map(CStr::as_ptr).into_iter().collect();
    let extensions: Vec<*const c_char> = instance_extensions(driver)
        .iter()
        .map(|e| e.as_ptr())
        .collect();
    let info = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_layer_names(&layers)
        .enabled_extension_names(&extensions);
    // SAFETY: valid create info; `app` and `layers` outlive the call.
    let instance = unsafe { entry.create_instance(&info, None) }
        .map_err(|e| format!("vkCreateInstance: {e:?}"))?;
    let destroy_instance = |instance: &ash::Instance| {
        // SAFETY: nothing was made from the instance yet.
        unsafe { instance.destroy_instance(None) }
    };
    // SAFETY: valid instance.
    let physical = match unsafe { instance.enumerate_physical_devices() } {
        Ok(list) if !list.is_empty() => list[0],
        other => {
            destroy_instance(&instance);
            return Err(format!("no physical device ({other:?})"));
        }
    };
    let names: Vec<*const c_char> = device_extensions(driver)
        .iter()
        .map(|e| e.as_ptr())
        .collect();
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let mut rdma =
        vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV::default().external_memory_rdma(true);
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&names);
    if driver == Driver::TestDriver {
        info = info.push_next(&mut rdma);
    }
    // SAFETY: valid physical device and create info; the arrays outlive the call.
    match unsafe { instance.create_device(physical, &info, None) } {
        Ok(device) => Ok((instance, device, physical)),
        Err(e) => {
            destroy_instance(&instance);
            Err(format!("vkCreateDevice: {e:?}"))
        }
    }
}

/// Destroys a device and its instance.
pub fn destroy(instance: &ash::Instance, device: &ash::Device) {
    // SAFETY: nothing made from them is used any more.
    unsafe {
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
}

impl Vk {
    pub fn new(entry: &ash::Entry, driver: Driver, config: Config) -> Result<Vk, String> {
        let (instance, device, physical) = create_instance_and_device(entry, driver, config)?;
        Vk::from_parts(instance, device, physical)
    }

    /// Takes ownership of `instance` and `device` (destroyed on failure too).
    fn from_parts(
        instance: ash::Instance,
        device: ash::Device,
        physical: vk::PhysicalDevice,
    ) -> Result<Vk, String> {
        // SAFETY: valid instance and physical device.
        let props = unsafe { instance.get_physical_device_memory_properties(physical) };
        let types = &props.memory_types[..props.memory_type_count as usize];
        let rdma_type = types
            .iter()
            .position(|t| {
                t.property_flags
                    .contains(vk::MemoryPropertyFlags::RDMA_CAPABLE_NV)
            })
            .map(|i| i as u32);
        let plain_type = 0;
        let proc = |name: &CStr| {
            // SAFETY: valid device and NUL-terminated name.
            unsafe { (instance.fp_v1_0().get_device_proc_addr)(device.handle(), name.as_ptr()) }
        };
        let Some(fd) = proc(c"vkGetMemoryFdKHR") else {
            destroy(&instance, &device);
            return Err("vkGetDeviceProcAddr(vkGetMemoryFdKHR) is NULL".into());
        };
        // SAFETY: each pointer comes from vkGetDeviceProcAddr for the command whose signature it
        // is cast to.
        let vk = unsafe {
            Vk {
                get_memory_fd: std::mem::transmute::<unsafe extern "system" fn(), GetMemoryFd>(fd),
                get_remote_address: proc(c"vkGetMemoryRemoteAddressNV").map(|f| {
                    std::mem::transmute::<unsafe extern "system" fn(), GetRemoteAddress>(f)
                }),
                get_win32_handle: proc(c"vkGetMemoryWin32HandleNV")
                    .map(|f| std::mem::transmute::<unsafe extern "system" fn(), GetWin32Handle>(f)),
                get_metal_handle: proc(c"vkGetMemoryMetalHandleEXT")
                    .map(|f| std::mem::transmute::<unsafe extern "system" fn(), GetMetalHandle>(f)),
                get_win32_handle_khr: proc(c"vkGetMemoryWin32HandleKHR").map(|f| {
                    std::mem::transmute::<
                        unsafe extern "system" fn(),
                        vk::PFN_vkGetMemoryWin32HandleKHR,
                    >(f)
                }),
                get_zircon_handle: proc(c"vkGetMemoryZirconHandleFUCHSIA").map(|f| {
                    std::mem::transmute::<
                        unsafe extern "system" fn(),
                        vk::PFN_vkGetMemoryZirconHandleFUCHSIA,
                    >(f)
                }),
                get_fd_properties: proc(c"vkGetMemoryFdPropertiesKHR").map(|f| {
                    std::mem::transmute::<
                        unsafe extern "system" fn(),
                        vk::PFN_vkGetMemoryFdPropertiesKHR,
                    >(f)
                }),
                get_host_pointer_properties: proc(c"vkGetMemoryHostPointerPropertiesEXT").map(
                    |f| {
                        std::mem::transmute::<
                            unsafe extern "system" fn(),
                            vk::PFN_vkGetMemoryHostPointerPropertiesEXT,
                        >(f)
                    },
                ),
                physical_device: physical,
                instance,
                device,
                plain_type,
                rdma_type,
            }
        };
        Ok(vk)
    }

    /// `vkGetDeviceProcAddr(device, name)`, as the application gets it.
    pub fn device_proc(&self, name: &CStr) -> vk::PFN_vkVoidFunction {
        // SAFETY: valid device and NUL-terminated name.
        unsafe {
            (self.instance.fp_v1_0().get_device_proc_addr)(self.device.handle(), name.as_ptr())
        }
    }

    /// Allocates `size` bytes exportable as `kind`.
    pub fn allocate(&self, kind: ExportKind, size: u64) -> Result<vk::DeviceMemory, vk::Result> {
        let (handle_types, type_index) = match kind {
            ExportKind::Fd => (
                vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
                self.plain_type,
            ),
            ExportKind::FdAndRdma => (
                vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD
                    | vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV,
                self.rdma_type
                    .ok_or(vk::Result::ERROR_FEATURE_NOT_PRESENT)?,
            ),
            ExportKind::Metal => (HANDLE_TYPE_MTLBUFFER, self.plain_type),
            ExportKind::Win32Kmt => (
                vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT,
                self.plain_type,
            ),
            ExportKind::Zircon => (
                vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA,
                self.plain_type,
            ),
            ExportKind::DmaBuf => (
                vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
                self.plain_type,
            ),
            ExportKind::Win32 => {
                let mut nv = vk::ExportMemoryAllocateInfoNV::default()
                    .handle_types(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32);
                let info = vk::MemoryAllocateInfo::default()
                    .allocation_size(size)
                    .memory_type_index(self.plain_type)
                    .push_next(&mut nv);
                // SAFETY: valid device and allocate info; the chain outlives the call.
                return unsafe { self.device.allocate_memory(&info, None) };
            }
        };
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(handle_types);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(type_index)
            .push_next(&mut export);
        // SAFETY: valid device and allocate info; the chain outlives the call.
        unsafe { self.device.allocate_memory(&info, None) }
    }

    pub fn free(&self, memory: vk::DeviceMemory) {
        // SAFETY: `memory` was allocated from this device and is no longer used.
        unsafe { self.device.free_memory(memory, None) }
    }

    /// Exports `memory` as an opaque fd and closes the fd.
    #[inline]
    pub fn export_fd_and_close(&self, memory: vk::DeviceMemory) -> vk::Result {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        let mut fd = -1;
        // SAFETY: valid device, info and output.
        let r = unsafe { (self.get_memory_fd)(self.device.handle(), &info, &mut fd) };
        if fd >= 0 {
            // SAFETY: the exported fd belongs to the application.
            unsafe { libc::close(fd) };
        }
        r
    }

    /// Exports `memory`'s RDMA address.
    #[inline]
    pub fn export_rdma(&self, f: GetRemoteAddress, memory: vk::DeviceMemory) -> vk::Result {
        let info = vk::MemoryGetRemoteAddressInfoNV::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV);
        let mut address = std::ptr::null_mut();
        // SAFETY: valid device, info and output.
        let r = unsafe { f(self.device.handle(), &info, &mut address) };
        std::hint::black_box(address);
        r
    }

    /// Exports `memory` as a Win32 handle (NV).
    #[inline]
    pub fn export_win32(&self, f: GetWin32Handle, memory: vk::DeviceMemory) -> vk::Result {
        let mut handle = std::ptr::null_mut();
        // SAFETY: valid device, memory and output.
        let r = unsafe {
            f(
                self.device.handle(),
                memory,
                vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32,
                &mut handle,
            )
        };
        std::hint::black_box(handle);
        r
    }

    /// Exports `memory` as a Metal buffer handle.
    #[inline]
    pub fn export_metal(&self, f: GetMetalHandle, memory: vk::DeviceMemory) -> vk::Result {
        let info = MemoryGetMetalHandleInfoEXT::new(memory);
        let mut handle = std::ptr::null_mut();
        // SAFETY: valid device, info and output.
        let r = unsafe { f(self.device.handle(), &info, &mut handle) };
        std::hint::black_box(handle);
        r
    }

    /// Exports `memory` as an `OPAQUE_WIN32_KMT` handle (KHR).
    #[inline]
    pub fn export_win32_kmt(
        &self,
        f: vk::PFN_vkGetMemoryWin32HandleKHR,
        memory: vk::DeviceMemory,
    ) -> vk::Result {
        let info = vk::MemoryGetWin32HandleInfoKHR::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32_KMT);
        let mut handle: vk::HANDLE = 0;
        // SAFETY: valid device, info and output.
        let r = unsafe { f(self.device.handle(), &info, &mut handle) };
        std::hint::black_box(handle);
        r
    }

    /// Exports `memory` as a Zircon VMO handle.
    #[inline]
    pub fn export_zircon(
        &self,
        f: vk::PFN_vkGetMemoryZirconHandleFUCHSIA,
        memory: vk::DeviceMemory,
    ) -> vk::Result {
        let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA);
        let mut handle: vk::zx_handle_t = 0;
        // SAFETY: valid device, info and output.
        let r = unsafe { f(self.device.handle(), &info, &mut handle) };
        std::hint::black_box(handle);
        r
    }

    /// Exports `memory` as a dma-buf fd (the fd belongs to the caller).
    pub fn export_dma_buf(&self, memory: vk::DeviceMemory) -> Result<i32, vk::Result> {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT);
        let mut fd = -1;
        // SAFETY: valid device, info and output.
        match unsafe { (self.get_memory_fd)(self.device.handle(), &info, &mut fd) } {
            vk::Result::SUCCESS => Ok(fd),
            e => Err(e),
        }
    }

    /// Asks the memory types a dma-buf fd can be imported into.
    #[inline]
    pub fn query_fd_properties(
        &self,
        f: vk::PFN_vkGetMemoryFdPropertiesKHR,
        fd: i32,
    ) -> vk::Result {
        let mut properties = vk::MemoryFdPropertiesKHR::default();
        // SAFETY: valid device and output; `fd` is open.
        let r = unsafe {
            f(
                self.device.handle(),
                vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
                fd,
                &mut properties,
            )
        };
        std::hint::black_box(properties.memory_type_bits);
        r
    }

    /// The physical device's `minImportedHostPointerAlignment` (VK_EXT_external_memory_host).
    pub fn min_imported_host_pointer_alignment(&self) -> u64 {
        let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
        // SAFETY: valid physical device and output chain.
        unsafe {
            self.instance
                .get_physical_device_properties2(self.physical_device, &mut properties)
        };
        host.min_imported_host_pointer_alignment
    }

    /// Asks the memory types host memory at `pointer` can be imported into.
    #[inline]
    pub fn query_host_pointer_properties(
        &self,
        f: vk::PFN_vkGetMemoryHostPointerPropertiesEXT,
        pointer: *const std::ffi::c_void,
    ) -> vk::Result {
        let mut properties = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: valid device and output; `pointer` is live host memory of the caller.
        let r = unsafe {
            f(
                self.device.handle(),
                vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
                pointer,
                &mut properties,
            )
        };
        std::hint::black_box(properties.memory_type_bits);
        r
    }
}

impl Drop for Vk {
    fn drop(&mut self) {
        destroy(&self.instance, &self.device);
    }
}
