//! The benchmark's calls of the semaphore paths (issue #25): creation and destruction, the
//! opaque-fd export and import, and queue submissions that wait on and signal a binary
//! semaphore. Each a small method of [`Vk`], counted by `semaphore_counts.rs`.

use crate::vkctx::Vk;
use ash::vk;

const OPAQUE_FD: vk::ExternalSemaphoreHandleTypeFlags =
    vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;

/// One batch that waits on `semaphore` (at every stage) and then signals it again: valid again
/// and again once the semaphore is signaled, since the batch's wait unsignals it before its
/// signal operation executes.
pub struct WaitAndSignal {
    semaphores: [vk::Semaphore; 1],
    stages: [vk::PipelineStageFlags; 1],
}

impl WaitAndSignal {
    pub fn new(semaphore: vk::Semaphore) -> Self {
        WaitAndSignal {
            semaphores: [semaphore],
            stages: [vk::PipelineStageFlags::ALL_COMMANDS],
        }
    }

    /// The batch, borrowing the arrays.
    pub fn batch(&self) -> vk::SubmitInfo<'_> {
        vk::SubmitInfo::default()
            .wait_semaphores(&self.semaphores)
            .wait_dst_stage_mask(&self.stages)
            .signal_semaphores(&self.semaphores)
    }

    /// A batch that only signals the semaphore (it must be unsignaled, with no signal pending).
    pub fn signal_only(&self) -> vk::SubmitInfo<'_> {
        vk::SubmitInfo::default().signal_semaphores(&self.semaphores)
    }

    /// A batch that only waits on it (it must be signaled, or have a signal pending).
    pub fn wait_only(&self) -> vk::SubmitInfo<'_> {
        vk::SubmitInfo::default()
            .wait_semaphores(&self.semaphores)
            .wait_dst_stage_mask(&self.stages)
    }
}

impl Vk {
    /// A binary semaphore, exportable as `export` when given (`VkExportSemaphoreCreateInfo`).
    pub fn create_semaphore(
        &self,
        export: Option<vk::ExternalSemaphoreHandleTypeFlags>,
    ) -> Result<vk::Semaphore, String> {
        let mut info = vk::ExportSemaphoreCreateInfo::default();
        let mut create = vk::SemaphoreCreateInfo::default();
        if let Some(types) = export {
            info = info.handle_types(types);
            create = create.push_next(&mut info);
        }
        // SAFETY: valid device and create info; the chain outlives the call.
        unsafe { self.device.create_semaphore(&create, None) }
            .map_err(|e| format!("vkCreateSemaphore (export {export:?}): {e:?}"))
    }

    pub fn destroy_semaphore(&self, semaphore: vk::Semaphore) {
        // SAFETY: made by this device; no queue work uses it any more (the caller waited idle).
        unsafe { self.device.destroy_semaphore(semaphore, None) }
    }

    /// One `vkCreateSemaphore` of a plain binary semaphore and its `vkDestroySemaphore`.
    #[inline]
    pub fn create_destroy_semaphore(&self) -> vk::Result {
        let info = vk::SemaphoreCreateInfo::default();
        // SAFETY: valid device and create info.
        match unsafe { self.device.create_semaphore(&info, None) } {
            Ok(semaphore) => {
                // SAFETY: just made, never used.
                unsafe { self.device.destroy_semaphore(semaphore, None) };
                vk::Result::SUCCESS
            }
            Err(e) => e,
        }
    }

    /// The device's queue (family 0, index 0), through `vkGetDeviceQueue`.
    pub fn queue(&self) -> vk::Queue {
        // SAFETY: the device was made with one queue of family 0.
        unsafe { self.device.get_device_queue(0, 0) }
    }

    /// `vkQueueSubmit` of `batches` with no fence.
    #[inline]
    pub fn submit(&self, queue: vk::Queue, batches: &[vk::SubmitInfo<'_>]) -> vk::Result {
        let f = self.device.fp_v1_0().queue_submit;
        // SAFETY: a queue of this device and batches whose arrays outlive the call.
        unsafe {
            f(
                queue,
                batches.len() as u32,
                batches.as_ptr(),
                vk::Fence::null(),
            )
        }
    }

    /// `vkQueueWaitIdle`: nothing of `queue` is pending afterwards.
    pub fn wait_idle(&self, queue: vk::Queue) -> Result<(), String> {
        // SAFETY: a queue of this device.
        unsafe { self.device.queue_wait_idle(queue) }.map_err(|e| format!("vkQueueWaitIdle: {e:?}"))
    }

    /// `semaphore` exported as an opaque fd.
    #[inline]
    pub fn semaphore_fd(
        &self,
        f: vk::PFN_vkGetSemaphoreFdKHR,
        semaphore: vk::Semaphore,
    ) -> Result<i32, vk::Result> {
        let info = vk::SemaphoreGetFdInfoKHR::default()
            .semaphore(semaphore)
            .handle_type(OPAQUE_FD);
        let mut fd = -1;
        // SAFETY: valid device, info and output.
        match unsafe { f(self.device.handle(), &info, &mut fd) } {
            vk::Result::SUCCESS => Ok(fd),
            e => Err(e),
        }
    }

    /// `semaphore` exported as an opaque fd, and the fd closed.
    #[inline]
    pub fn export_semaphore_fd_and_close(
        &self,
        f: vk::PFN_vkGetSemaphoreFdKHR,
        semaphore: vk::Semaphore,
    ) -> vk::Result {
        match self.semaphore_fd(f, semaphore) {
            Ok(fd) => {
                // SAFETY: the exported fd belongs to the application.
                unsafe { libc::close(fd) };
                vk::Result::SUCCESS
            }
            Err(e) => e,
        }
    }

    /// `from` exported as an opaque fd and the fd imported (permanently) into `into`, a binary
    /// semaphore of the same create flags: the driver takes the fd on success.
    #[inline]
    pub fn export_import_semaphore(
        &self,
        get: vk::PFN_vkGetSemaphoreFdKHR,
        import: vk::PFN_vkImportSemaphoreFdKHR,
        from: vk::Semaphore,
        into: vk::Semaphore,
    ) -> vk::Result {
        let fd = match self.semaphore_fd(get, from) {
            Ok(fd) => fd,
            Err(e) => return e,
        };
        let info = vk::ImportSemaphoreFdInfoKHR::default()
            .semaphore(into)
            .handle_type(OPAQUE_FD)
            .fd(fd);
        // SAFETY: valid device and info; the fd is the app's until the import succeeds.
        let r = unsafe { import(self.device.handle(), &info) };
        if r != vk::Result::SUCCESS {
            // SAFETY: a failed import leaves the fd with the app.
            unsafe { libc::close(fd) };
        }
        r
    }
}
