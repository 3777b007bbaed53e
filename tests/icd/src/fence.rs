//! Fences: creation (`VK_FENCE_CREATE_SIGNALED_BIT`, `VkExportFenceCreateInfo`), status, reset,
//! host waits, and the export and import commands of `VK_KHR_external_fence_fd` and `_win32`.
//!
//! A fence has a permanent payload and, after a temporary import, a temporary one that the next
//! reset (`vkResetFences`, or a `SYNC_FD` export) removes, restoring the permanent one.

use ash::vk;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::device::{self, Device};
use crate::ffi::{self, entry};
use crate::objects::lock;
use crate::sync_payload::{self as payload, device_file, Kind, Payload};

/// High bits of every `VkFence` handle value (the low bits are the fence's number).
pub const FENCE_HANDLE_TAG: u64 = 0xEF00_0000_0000_0000;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

const OPAQUE_FD: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();
const OPAQUE_WIN32: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32.as_raw();
const OPAQUE_WIN32_KMT: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw();

/// One `VkFence`.
pub struct Fence {
    /// `VkExportFenceCreateInfo::handleTypes`
    pub export_types: u32,
    permanent: Arc<Payload>,
    temporary: Option<Arc<Payload>>,
}

impl Fence {
    /// The payload in use: the temporary one while there is one.
    pub fn payload(&self) -> &Arc<Payload> {
        self.temporary.as_ref().unwrap_or(&self.permanent)
    }

    /// Whether a temporary import is in place.
    pub fn has_temporary_payload(&self) -> bool {
        self.temporary.is_some()
    }

    /// A reset: the permanent payload is restored first, then unsignalled.
    pub fn reset(&mut self) {
        self.temporary = None;
        self.permanent.set(0);
    }

    fn import(&mut self, payload: Arc<Payload>, temporary: bool) {
        if temporary {
            self.temporary = Some(payload);
        } else {
            self.permanent = payload;
            self.temporary = None;
        }
    }
}

/// Runs `f` on the fence `fence` of `device`; `None` if either is unknown.
pub fn with_fence<R>(
    device: vk::Device,
    fence: vk::Fence,
    f: impl FnOnce(&Device, &mut Fence) -> R,
) -> Option<R> {
    let dev = device::lookup(device)?;
    let mut fences = lock(&dev.fences);
    let s = fences.get_mut(&vk::Handle::as_raw(fence))?;
    Some(f(&dev, s))
}

/// The fences of an array (`count` handles at `p`), each looked up with `f`; `None` if any is
/// unknown.
fn each_fence<R>(
    device: vk::Device,
    count: u32,
    p: *const vk::Fence,
    mut f: impl FnMut(&mut Fence) -> R,
) -> Option<Vec<R>> {
    if count > 0 && p.is_null() {
        return None;
    }
    // Every fence is looked at, also after an unknown one.
    let all: Vec<Option<R>> = (0..count as usize)
        .map(|i| {
            // SAFETY: the array holds `count` fences (Vulkan contract).
            let fence = unsafe { *p.add(i) };
            with_fence(device, fence, |_, x| f(x))
        })
        .collect();
    all.into_iter().collect()
}

pub(crate) unsafe extern "system" fn create_fence(
    device: vk::Device,
    p_create_info: *const vk::FenceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    entry(
        "vkCreateFence",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_create_info.as_ref() }, unsafe {
                p_fence.as_mut()
            }) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            let Some(dev) = device::lookup(device) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            // SAFETY: `p_next` heads the caller's valid chain; the structure is read as the type
            // its sType names.
            let export = unsafe {
                ffi::find_in_chain(info.p_next, vk::StructureType::EXPORT_FENCE_CREATE_INFO)
                    .map(|p| (*p.cast::<vk::ExportFenceCreateInfo<'_>>()).handle_types)
            };
            let signaled = info.flags.contains(vk::FenceCreateFlags::SIGNALED);
            let handle = FENCE_HANDLE_TAG | NEXT_ID.fetch_add(1, Ordering::Relaxed);
            let fence = Fence {
                export_types: export.map_or(0, |t| t.as_raw()),
                permanent: Payload::new(Kind::Fence, signaled.into()),
                temporary: None,
            };
            lock(&dev.fences).insert(handle, fence);
            *out = vk::Handle::from_raw(handle);
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn destroy_fence(
    device: vk::Device,
    fence: vk::Fence,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkDestroyFence", (), || {
        if let Some(dev) = device::lookup(device) {
            lock(&dev.fences).remove(&vk::Handle::as_raw(fence));
        }
    })
}

pub(crate) unsafe extern "system" fn get_fence_status(
    device: vk::Device,
    fence: vk::Fence,
) -> vk::Result {
    entry(
        "vkGetFenceStatus",
        vk::Result::ERROR_DEVICE_LOST,
        || match with_fence(device, fence, |_, f| f.payload().signaled()) {
            Some(true) => vk::Result::SUCCESS,
            Some(false) => vk::Result::NOT_READY,
            None => vk::Result::ERROR_DEVICE_LOST,
        },
    )
}

pub(crate) unsafe extern "system" fn reset_fences(
    device: vk::Device,
    fence_count: u32,
    p_fences: *const vk::Fence,
) -> vk::Result {
    entry(
        "vkResetFences",
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        || match each_fence(device, fence_count, p_fences, Fence::reset) {
            Some(_) => vk::Result::SUCCESS,
            None => vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        },
    )
}

pub(crate) unsafe extern "system" fn wait_for_fences(
    device: vk::Device,
    fence_count: u32,
    p_fences: *const vk::Fence,
    wait_all: vk::Bool32,
    timeout: u64,
) -> vk::Result {
    entry("vkWaitForFences", vk::Result::ERROR_DEVICE_LOST, || {
        if let Some(dev) = device::lookup(device) {
            dev.complete_pending();
        }
        let Some(payloads) = each_fence(device, fence_count, p_fences, |f| f.payload().clone())
        else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let reached = || {
            let mut signaled = payloads.iter().map(|p| p.signaled());
            if wait_all == vk::FALSE {
                signaled.any(|s| s)
            } else {
                signaled.all(|s| s)
            }
        };
        if crate::sync_wait::wait_until(timeout, reached) {
            vk::Result::SUCCESS
        } else {
            vk::Result::TIMEOUT
        }
    })
}

pub(crate) unsafe extern "system" fn get_fence_fd(
    device: vk::Device,
    p_get_fd_info: *const vk::FenceGetFdInfoKHR<'_>,
    p_fd: *mut i32,
) -> vk::Result {
    entry("vkGetFenceFdKHR", vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: valid or NULL pointers (Vulkan contract).
        let (Some(info), Some(out)) = (unsafe { p_get_fd_info.as_ref() }, unsafe { p_fd.as_mut() })
        else {
            return vk::Result::ERROR_UNKNOWN;
        };
        let handle_type = info.handle_type.as_raw();
        let result = with_fence(device, info.fence, |dev, f| match handle_type {
            OPAQUE_FD => payload::export_opaque_fd(f.payload(), device_file(dev)),
            // Copy transference: the fence's signal must have completed (none is ever pending
            // here); the export is a reset.
            SYNC_FD if f.payload().signaled() => {
                let fd =
                    payload::export_sync_file(dev.config.sync_quirks.signaled_sync_fd_minus_one)?;
                f.reset();
                Ok(fd)
            }
            _ => Err(vk::Result::ERROR_UNKNOWN),
        });
        payload::finish_export(result, out)
    })
}

pub(crate) unsafe extern "system" fn import_fence_fd(
    device: vk::Device,
    p_import_info: *const vk::ImportFenceFdInfoKHR<'_>,
) -> vk::Result {
    const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
    entry("vkImportFenceFdKHR", INVALID, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_import_info.as_ref() }) else {
            return INVALID;
        };
        let temporary = info.flags.contains(vk::FenceImportFlags::TEMPORARY);
        let result = with_fence(device, info.fence, |dev, f| {
            match info.handle_type.as_raw() {
                OPAQUE_FD => {
                    match payload::import_opaque_fd(info.fd, Kind::Fence, device_file(dev)) {
                        Ok(p) => {
                            f.import(p, temporary);
                            vk::Result::SUCCESS
                        }
                        Err(_) => INVALID,
                    }
                }
                // Copy transference: always temporary.
                SYNC_FD => match payload::import_sync_file(info.fd) {
                    Some(signaled) => {
                        f.import(Payload::new(Kind::Fence, signaled.into()), true);
                        vk::Result::SUCCESS
                    }
                    None => INVALID,
                },
                _ => INVALID,
            }
        });
        result.unwrap_or(INVALID)
    })
}

pub(crate) unsafe extern "system" fn get_fence_win32_handle(
    device: vk::Device,
    p_get_win32_handle_info: *const vk::FenceGetWin32HandleInfoKHR<'_>,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    entry(
        "vkGetFenceWin32HandleKHR",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_get_win32_handle_info.as_ref() }, unsafe {
                p_handle.as_mut()
            }) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let handle_type = info.handle_type.as_raw();
            let result = with_fence(device, info.fence, |_, f| match handle_type {
                OPAQUE_WIN32 | OPAQUE_WIN32_KMT => Ok(payload::export_win32(
                    payload::FENCE_WIN32_BASE,
                    f.payload(),
                    handle_type,
                ) as vk::HANDLE),
                _ => Err(vk::Result::ERROR_UNKNOWN),
            });
            payload::finish_export(result, out)
        },
    )
}

pub(crate) unsafe extern "system" fn import_fence_win32_handle(
    device: vk::Device,
    p_import_info: *const vk::ImportFenceWin32HandleInfoKHR<'_>,
) -> vk::Result {
    const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
    entry("vkImportFenceWin32HandleKHR", INVALID, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_import_info.as_ref() }) else {
            return INVALID;
        };
        let handle_type = info.handle_type.as_raw();
        let temporary = info.flags.contains(vk::FenceImportFlags::TEMPORARY);
        let result = with_fence(device, info.fence, |_, f| {
            if !matches!(handle_type, OPAQUE_WIN32 | OPAQUE_WIN32_KMT) || !info.name.is_null() {
                return INVALID;
            }
            let base = payload::FENCE_WIN32_BASE;
            match payload::import_win32(base, info.handle as u64, handle_type, Kind::Fence) {
                Some(p) => {
                    f.import(p, temporary);
                    vk::Result::SUCCESS
                }
                None => INVALID,
            }
        });
        result.unwrap_or(INVALID)
    })
}
