//! The device extensions the layer tracks (re-exported by `state/device.rs`, which reads them).
//!
//! Generated from `vuids/commands.json` and `vuids/registry/vk.xml`: do not edit. Edit the
//! table, then `cargo run -p exportcheck-vuids --bin render-dispatch` (a test of
//! `vuids/tests/dispatch_rs.rs` fails until the two agree).

/// The device extensions whose commands or structures the layer checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnabledExtensions {
    /// `VK_KHR_external_memory`.
    pub khr_external_memory: bool,
    /// `VK_KHR_external_memory_fd`.
    pub khr_external_memory_fd: bool,
    /// `VK_EXT_external_memory_dma_buf`.
    pub ext_external_memory_dma_buf: bool,
    /// `VK_NV_external_memory_rdma`.
    pub nv_external_memory_rdma: bool,
    /// `VK_NV_external_memory`.
    pub nv_external_memory: bool,
    /// `VK_NV_external_memory_win32`.
    pub nv_external_memory_win32: bool,
    /// `VK_KHR_external_memory_win32`.
    pub khr_external_memory_win32: bool,
    /// `VK_EXT_external_memory_metal`.
    pub ext_external_memory_metal: bool,
    /// `VK_EXT_external_memory_host`.
    pub ext_external_memory_host: bool,
    /// `VK_ANDROID_external_memory_android_hardware_buffer`.
    pub android_external_memory_android_hardware_buffer: bool,
    /// `VK_FUCHSIA_external_memory`.
    pub fuchsia_external_memory: bool,
    /// `VK_QNX_external_memory_screen_buffer`.
    pub qnx_external_memory_screen_buffer: bool,
    /// `VK_OHOS_external_memory`.
    pub ohos_external_memory: bool,
    /// `VK_KHR_swapchain`.
    ///
    /// `VK_KHR_swapchain`: images come from `vkGetSwapchainImagesKHR` too.
    pub khr_swapchain: bool,
    /// `VK_KHR_dedicated_allocation`.
    ///
    /// The extensions of the other structures of a `VkMemoryAllocateInfo` chain
    /// (`vk_names::ALLOCATE_CHAIN`).
    pub khr_dedicated_allocation: bool,
    /// `VK_NV_dedicated_allocation`.
    pub nv_dedicated_allocation: bool,
    /// `VK_KHR_buffer_device_address`.
    pub khr_buffer_device_address: bool,
    /// `VK_KHR_device_group`.
    pub khr_device_group: bool,
    /// `VK_KHR_external_semaphore_fd`.
    ///
    /// The semaphore extensions: `VK_KHR_external_semaphore_fd` (`vkGetSemaphoreFdKHR`), and the
    /// one of a `VkExternalSemaphoreHandleTypeFlagBits` bit (`handle_kinds::Semaphore`).
    pub khr_external_semaphore_fd: bool,
    /// `VK_FUCHSIA_external_semaphore`.
    pub fuchsia_external_semaphore: bool,
    /// `VK_KHR_external_semaphore_win32`.
    ///
    /// Semaphores as Win32 handles: `vkGetSemaphoreWin32HandleKHR`, and
    /// `VkExportSemaphoreWin32HandleInfoKHR` at `vkCreateSemaphore`.
    pub khr_external_semaphore_win32: bool,
    /// `VK_KHR_external_fence_fd`.
    ///
    /// The fence extensions: `VK_KHR_external_fence_fd` (`vkGetFenceFdKHR`),
    /// `VK_KHR_external_fence_win32` (`vkGetFenceWin32HandleKHR`).
    pub khr_external_fence_fd: bool,
    /// `VK_KHR_external_fence_win32`.
    pub khr_external_fence_win32: bool,
}

impl EnabledExtensions {
    /// The flag of the extension named `name`, for the ones this type tracks: the one place
    /// names meet fields.
    pub(super) fn flag(&mut self, name: &[u8]) -> Option<&mut bool> {
        Some(match name {
            b"VK_KHR_external_memory" => &mut self.khr_external_memory,
            b"VK_KHR_external_memory_fd" => &mut self.khr_external_memory_fd,
            b"VK_EXT_external_memory_dma_buf" => &mut self.ext_external_memory_dma_buf,
            b"VK_NV_external_memory_rdma" => &mut self.nv_external_memory_rdma,
            b"VK_NV_external_memory" => &mut self.nv_external_memory,
            b"VK_NV_external_memory_win32" => &mut self.nv_external_memory_win32,
            b"VK_KHR_external_memory_win32" => &mut self.khr_external_memory_win32,
            b"VK_EXT_external_memory_metal" => &mut self.ext_external_memory_metal,
            b"VK_EXT_external_memory_host" => &mut self.ext_external_memory_host,
            b"VK_ANDROID_external_memory_android_hardware_buffer" => &mut self.android_external_memory_android_hardware_buffer,
            b"VK_FUCHSIA_external_memory" => &mut self.fuchsia_external_memory,
            b"VK_QNX_external_memory_screen_buffer" => &mut self.qnx_external_memory_screen_buffer,
            b"VK_OHOS_external_memory" => &mut self.ohos_external_memory,
            b"VK_KHR_swapchain" => &mut self.khr_swapchain,
            b"VK_KHR_dedicated_allocation" => &mut self.khr_dedicated_allocation,
            b"VK_NV_dedicated_allocation" => &mut self.nv_dedicated_allocation,
            b"VK_KHR_buffer_device_address" => &mut self.khr_buffer_device_address,
            b"VK_KHR_device_group" => &mut self.khr_device_group,
            b"VK_KHR_external_semaphore_fd" => &mut self.khr_external_semaphore_fd,
            b"VK_FUCHSIA_external_semaphore" => &mut self.fuchsia_external_semaphore,
            b"VK_KHR_external_semaphore_win32" => &mut self.khr_external_semaphore_win32,
            b"VK_KHR_external_fence_fd" => &mut self.khr_external_fence_fd,
            b"VK_KHR_external_fence_win32" => &mut self.khr_external_fence_win32,
            _ => return None,
        })
    }
}
