//! Semaphores and fences for the tests of `semaphores.rs` and `fences.rs`: a device with every
//! synchronisation extension, and the export and import commands as an app gets them.

use ash::vk;
use std::ffi::c_char;

use super::*;

/// The device extensions of semaphore and fence sharing.
pub const SYNC_EXTENSIONS: [&str; 8] = [
    "VK_KHR_external_semaphore",
    "VK_KHR_external_semaphore_fd",
    "VK_KHR_external_semaphore_win32",
    "VK_FUCHSIA_external_semaphore",
    "VK_KHR_external_fence",
    "VK_KHR_external_fence_fd",
    "VK_KHR_external_fence_win32",
    "VK_KHR_timeline_semaphore",
];

/// An instance (Vulkan 1.3, so that the 1.2 and 1.3 commands are the app's to call) made with
/// `config_json` chained as the driver's configuration.
pub fn create_instance_1_3(config_json: &str) -> ash::Instance {
    let entry = entry();
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let json = std::ffi::CString::new(config_json).unwrap();
    let chained = ConfigCreateInfo {
        s_type: STRUCTURE_TYPE_TEST_ICD_CONFIG,
        p_next: std::ptr::null(),
        json: json.as_ptr(),
    };
    let mut info = vk::InstanceCreateInfo::default().application_info(&app);
    info.p_next = (&chained as *const ConfigCreateInfo).cast();
    let _lock = loader_lock();
    // SAFETY: valid create info; `chained` and `json` outlive the call.
    unsafe { entry.create_instance(&info, None) }.expect("instance")
}

/// A device with [`SYNC_EXTENSIONS`] and, when `timeline` is set, `timelineSemaphore` enabled.
pub fn sync_device(instance: &ash::Instance, timeline: bool) -> Result<ash::Device, vk::Result> {
    let pd = physical_device(instance);
    let names: Vec<std::ffi::CString> = SYNC_EXTENSIONS
        .iter()
        .map(|e| std::ffi::CString::new(*e).unwrap())
        .collect();
    let ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let mut features =
        vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&ptrs);
    if timeline {
        info = info.push_next(&mut features);
    }
    let _lock = loader_lock();
    // SAFETY: valid create info.
    unsafe { instance.create_device(pd, &info, None) }
}

/// A binary semaphore, or a timeline one starting at `initial`.
pub fn semaphore(device: &ash::Device, timeline: Option<u64>) -> vk::Semaphore {
    let mut ty = vk::SemaphoreTypeCreateInfo::default()
        .semaphore_type(vk::SemaphoreType::TIMELINE)
        .initial_value(timeline.unwrap_or(0));
    let mut export = vk::ExportSemaphoreCreateInfo::default().handle_types(
        vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD
            | if timeline.is_some() {
                vk::ExternalSemaphoreHandleTypeFlags::empty()
            } else {
                vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD
            },
    );
    let mut info = vk::SemaphoreCreateInfo::default().push_next(&mut export);
    if timeline.is_some() {
        info = info.push_next(&mut ty);
    }
    // SAFETY: valid create info.
    unsafe { device.create_semaphore(&info, None) }.expect("semaphore")
}

/// A fence, signalled if `signaled`.
pub fn fence(device: &ash::Device, signaled: bool) -> vk::Fence {
    let mut export = vk::ExportFenceCreateInfo::default().handle_types(
        vk::ExternalFenceHandleTypeFlags::OPAQUE_FD | vk::ExternalFenceHandleTypeFlags::SYNC_FD,
    );
    let flags = if signaled {
        vk::FenceCreateFlags::SIGNALED
    } else {
        vk::FenceCreateFlags::empty()
    };
    let info = vk::FenceCreateInfo::default()
        .flags(flags)
        .push_next(&mut export);
    // SAFETY: valid create info.
    unsafe { device.create_fence(&info, None) }.expect("fence")
}

/// One submission that waits on `waits` and signals `signals` (binary semaphores), and `fence`.
pub fn submit(
    device: &ash::Device,
    waits: &[vk::Semaphore],
    signals: &[vk::Semaphore],
    fence: vk::Fence,
) {
    let stages = vec![vk::PipelineStageFlags::ALL_COMMANDS; waits.len()];
    let info = vk::SubmitInfo::default()
        .wait_semaphores(waits)
        .wait_dst_stage_mask(&stages)
        .signal_semaphores(signals);
    // SAFETY: valid submission on the device's queue.
    let r = unsafe { device.queue_submit(queue(device), &[info], fence) };
    assert_eq!(r, Ok(()));
}

/// The device's one queue.
pub fn queue(device: &ash::Device) -> vk::Queue {
    // SAFETY: family 0, index 0 exists.
    unsafe { device.get_device_queue(0, 0) }
}

/// The (device, inode) an fd names, `None` if it is closed.
pub fn inode(fd: i32) -> Option<(u64, u64)> {
    // SAFETY: fstat only writes to the local buffer.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above; a closed fd fails with EBADF.
    (unsafe { libc::fstat(fd, &mut st) } == 0).then_some((st.st_dev, st.st_ino))
}

/// Closes an fd the test owns.
pub fn close(fd: i32) {
    // SAFETY: the test owns `fd`.
    assert_eq!(unsafe { libc::close(fd) }, 0, "fd {fd} was open");
}

/// The semaphore and fence commands of the extensions, as an app gets them.
pub struct SyncFns {
    pub device: vk::Device,
    pub get_semaphore_fd: vk::PFN_vkGetSemaphoreFdKHR,
    pub import_semaphore_fd: vk::PFN_vkImportSemaphoreFdKHR,
    pub get_fence_fd: vk::PFN_vkGetFenceFdKHR,
    pub import_fence_fd: vk::PFN_vkImportFenceFdKHR,
    pub get_semaphore_win32: vk::PFN_vkGetSemaphoreWin32HandleKHR,
    pub import_semaphore_win32: vk::PFN_vkImportSemaphoreWin32HandleKHR,
    pub get_fence_win32: vk::PFN_vkGetFenceWin32HandleKHR,
    pub import_fence_win32: vk::PFN_vkImportFenceWin32HandleKHR,
    pub get_semaphore_zircon: vk::PFN_vkGetSemaphoreZirconHandleFUCHSIA,
    pub import_semaphore_zircon: vk::PFN_vkImportSemaphoreZirconHandleFUCHSIA,
}

impl SyncFns {
    pub fn load(instance: &ash::Instance, device: &ash::Device) -> SyncFns {
        SyncFns {
            device: device.handle(),
            get_semaphore_fd: device_fn!(
                instance,
                device,
                "vkGetSemaphoreFdKHR",
                vk::PFN_vkGetSemaphoreFdKHR
            ),
            import_semaphore_fd: device_fn!(
                instance,
                device,
                "vkImportSemaphoreFdKHR",
                vk::PFN_vkImportSemaphoreFdKHR
            ),
            get_fence_fd: device_fn!(instance, device, "vkGetFenceFdKHR", vk::PFN_vkGetFenceFdKHR),
            import_fence_fd: device_fn!(
                instance,
                device,
                "vkImportFenceFdKHR",
                vk::PFN_vkImportFenceFdKHR
            ),
            get_semaphore_win32: device_fn!(
                instance,
                device,
                "vkGetSemaphoreWin32HandleKHR",
                vk::PFN_vkGetSemaphoreWin32HandleKHR
            ),
            import_semaphore_win32: device_fn!(
                instance,
                device,
                "vkImportSemaphoreWin32HandleKHR",
                vk::PFN_vkImportSemaphoreWin32HandleKHR
            ),
            get_fence_win32: device_fn!(
                instance,
                device,
                "vkGetFenceWin32HandleKHR",
                vk::PFN_vkGetFenceWin32HandleKHR
            ),
            import_fence_win32: device_fn!(
                instance,
                device,
                "vkImportFenceWin32HandleKHR",
                vk::PFN_vkImportFenceWin32HandleKHR
            ),
            get_semaphore_zircon: device_fn!(
                instance,
                device,
                "vkGetSemaphoreZirconHandleFUCHSIA",
                vk::PFN_vkGetSemaphoreZirconHandleFUCHSIA
            ),
            import_semaphore_zircon: device_fn!(
                instance,
                device,
                "vkImportSemaphoreZirconHandleFUCHSIA",
                vk::PFN_vkImportSemaphoreZirconHandleFUCHSIA
            ),
        }
    }

    /// `vkGetSemaphoreFdKHR`: the fd, or the error.
    pub fn semaphore_fd(
        &self,
        semaphore: vk::Semaphore,
        handle_type: vk::ExternalSemaphoreHandleTypeFlags,
    ) -> Result<i32, vk::Result> {
        let info = vk::SemaphoreGetFdInfoKHR::default()
            .semaphore(semaphore)
            .handle_type(handle_type);
        let mut fd = -2;
        // SAFETY: valid arguments.
        let r = unsafe { (self.get_semaphore_fd)(self.device, &info, &mut fd) };
        r.result_with_success(fd)
    }

    /// `vkImportSemaphoreFdKHR`.
    pub fn import_semaphore(
        &self,
        semaphore: vk::Semaphore,
        handle_type: vk::ExternalSemaphoreHandleTypeFlags,
        fd: i32,
        flags: vk::SemaphoreImportFlags,
    ) -> vk::Result {
        let info = vk::ImportSemaphoreFdInfoKHR::default()
            .semaphore(semaphore)
            .handle_type(handle_type)
            .fd(fd)
            .flags(flags);
        // SAFETY: valid arguments.
        unsafe { (self.import_semaphore_fd)(self.device, &info) }
    }

    /// `vkGetFenceFdKHR`: the fd, or the error.
    pub fn fence_fd(
        &self,
        fence: vk::Fence,
        handle_type: vk::ExternalFenceHandleTypeFlags,
    ) -> Result<i32, vk::Result> {
        let info = vk::FenceGetFdInfoKHR::default()
            .fence(fence)
            .handle_type(handle_type);
        let mut fd = -2;
        // SAFETY: valid arguments.
        let r = unsafe { (self.get_fence_fd)(self.device, &info, &mut fd) };
        r.result_with_success(fd)
    }

    /// `vkImportFenceFdKHR`.
    pub fn import_fence(
        &self,
        fence: vk::Fence,
        handle_type: vk::ExternalFenceHandleTypeFlags,
        fd: i32,
        flags: vk::FenceImportFlags,
    ) -> vk::Result {
        let info = vk::ImportFenceFdInfoKHR::default()
            .fence(fence)
            .handle_type(handle_type)
            .fd(fd)
            .flags(flags);
        // SAFETY: valid arguments.
        unsafe { (self.import_fence_fd)(self.device, &info) }
    }
}
