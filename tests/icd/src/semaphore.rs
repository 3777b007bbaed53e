//! Semaphores, binary and timeline: creation (`VkSemaphoreTypeCreateInfo`,
//! `VkExportSemaphoreCreateInfo`), the timeline commands, and the export and import commands of
//! `VK_KHR_external_semaphore_fd`, `_win32` and `VK_FUCHSIA_external_semaphore`.
//!
//! A semaphore has a permanent payload and, after a temporary import, a temporary one that the
//! next wait (a queue wait or a `SYNC_FD` export) consumes, restoring the permanent one.

use ash::vk;
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::device::{self, Device};
use crate::ffi::{self, entry};
use crate::objects::lock;
use crate::sync_payload::{self as payload, device_file, ImportError, Kind, Payload};

/// High bits of every `VkSemaphore` handle value (the low bits are the semaphore's number).
pub const SEMAPHORE_HANDLE_TAG: u64 = 0xE500_0000_0000_0000;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

const OPAQUE_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw();
const SYNC_FD: u32 = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();
const OPAQUE_WIN32: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32.as_raw();
const OPAQUE_WIN32_KMT: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw();
const ZIRCON_EVENT: u32 = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();

/// One `VkSemaphore`.
pub struct Semaphore {
    pub timeline: bool,
    /// `VkExportSemaphoreCreateInfo::handleTypes`
    pub export_types: u32,
    permanent: Arc<Payload>,
    temporary: Option<Arc<Payload>>,
    /// The imported `OPAQUE_FD`s the driver keeps open while their payload is in use
    /// (`sync_quirks.imported_semaphore_fd_kept`, as SwiftShader does): the permanent import's,
    /// and the temporary one's, closed when the payload they imported is let go.
    kept_fds: KeptFds,
}

/// See [`Semaphore::kept_fds`].
#[derive(Default)]
struct KeptFds {
    /// Never read: held for the close its drop makes.
    #[allow(dead_code)]
    permanent: Option<OwnedFd>,
    temporary: Option<OwnedFd>,
}

impl Semaphore {
    /// The payload in use: the temporary one while there is one.
    pub fn payload(&self) -> &Arc<Payload> {
        self.temporary.as_ref().unwrap_or(&self.permanent)
    }

    /// Whether a temporary import is in place.
    pub fn has_temporary_payload(&self) -> bool {
        self.temporary.is_some()
    }

    fn kind(&self) -> Kind {
        if self.timeline {
            Kind::TimelineSemaphore
        } else {
            Kind::BinarySemaphore
        }
    }

    /// A wait operation: a binary payload is unsignalled, and a temporary payload is consumed
    /// (the permanent one is restored).
    pub fn wait(&mut self) {
        if !self.timeline {
            self.payload().set(0);
        }
        self.temporary = None;
        self.kept_fds.temporary = None;
    }

    /// A signal operation (`value` for a timeline semaphore).
    pub fn signal(&self, value: u64) {
        self.payload().set(if self.timeline { value } else { 1 });
    }

    fn import(&mut self, payload: Arc<Payload>, temporary: bool) {
        self.import_keeping(payload, temporary, None);
    }

    /// An import whose fd the driver keeps (`kept`) while the payload is in use.
    fn import_keeping(&mut self, payload: Arc<Payload>, temporary: bool, kept: Option<OwnedFd>) {
        if temporary {
            self.temporary = Some(payload);
            self.kept_fds.temporary = kept;
        } else {
            self.permanent = payload;
            self.temporary = None;
            self.kept_fds = KeptFds {
                permanent: kept,
                temporary: None,
            };
        }
    }
}

/// Runs `f` on the semaphore `semaphore` of `device`; `None` if either is unknown.
pub fn with_semaphore<R>(
    device: vk::Device,
    semaphore: vk::Semaphore,
    f: impl FnOnce(&Device, &mut Semaphore) -> R,
) -> Option<R> {
    let dev = device::lookup(device)?;
    let mut semaphores = lock(&dev.semaphores);
    let s = semaphores.get_mut(&vk::Handle::as_raw(semaphore))?;
    Some(f(&dev, s))
}

pub(crate) unsafe extern "system" fn create_semaphore(
    device: vk::Device,
    p_create_info: *const vk::SemaphoreCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_semaphore: *mut vk::Semaphore,
) -> vk::Result {
    entry(
        "vkCreateSemaphore",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_create_info.as_ref() }, unsafe {
                p_semaphore.as_mut()
            }) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            let Some(dev) = device::lookup(device) else {
                return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
            };
            // SAFETY: `p_next` heads the caller's valid chain; structures are read as the type
            // their sType names.
            let (ty, export) = unsafe {
                (
                    ffi::find_in_chain(info.p_next, vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO)
                        .map(|p| *p.cast::<vk::SemaphoreTypeCreateInfo<'_>>()),
                    ffi::find_in_chain(
                        info.p_next,
                        vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO,
                    )
                    .map(|p| (*p.cast::<vk::ExportSemaphoreCreateInfo<'_>>()).handle_types),
                )
            };
            let timeline = ty.is_some_and(|t| t.semaphore_type == vk::SemaphoreType::TIMELINE);
            let (kind, value) = match ty {
                Some(t) if timeline => (Kind::TimelineSemaphore, t.initial_value),
                _ => (Kind::BinarySemaphore, 0),
            };
            let handle = SEMAPHORE_HANDLE_TAG | NEXT_ID.fetch_add(1, Ordering::Relaxed);
            let semaphore = Semaphore {
                timeline,
                export_types: export.map_or(0, |t| t.as_raw()),
                permanent: Payload::new(kind, value),
                temporary: None,
                kept_fds: KeptFds::default(),
            };
            lock(&dev.semaphores).insert(handle, semaphore);
            *out = vk::Handle::from_raw(handle);
            vk::Result::SUCCESS
        },
    )
}

pub(crate) unsafe extern "system" fn destroy_semaphore(
    device: vk::Device,
    semaphore: vk::Semaphore,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    entry("vkDestroySemaphore", (), || {
        if let Some(dev) = device::lookup(device) {
            lock(&dev.semaphores).remove(&vk::Handle::as_raw(semaphore));
        }
    })
}

pub(crate) unsafe extern "system" fn get_semaphore_counter_value(
    device: vk::Device,
    semaphore: vk::Semaphore,
    p_value: *mut u64,
) -> vk::Result {
    entry(
        "vkGetSemaphoreCounterValue",
        vk::Result::ERROR_DEVICE_LOST,
        || {
            // SAFETY: valid or NULL output pointer (Vulkan contract).
            let Some(out) = (unsafe { p_value.as_mut() }) else {
                return vk::Result::ERROR_DEVICE_LOST;
            };
            match with_semaphore(device, semaphore, |_, s| s.payload().value()) {
                Some(v) => {
                    *out = v;
                    vk::Result::SUCCESS
                }
                None => vk::Result::ERROR_DEVICE_LOST,
            }
        },
    )
}

pub(crate) unsafe extern "system" fn signal_semaphore(
    device: vk::Device,
    p_signal_info: *const vk::SemaphoreSignalInfo<'_>,
) -> vk::Result {
    entry("vkSignalSemaphore", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_signal_info.as_ref() }) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        match with_semaphore(device, info.semaphore, |_, s| s.signal(info.value)) {
            Some(()) => vk::Result::SUCCESS,
            None => vk::Result::ERROR_DEVICE_LOST,
        }
    })
}

pub(crate) unsafe extern "system" fn wait_semaphores(
    device: vk::Device,
    p_wait_info: *const vk::SemaphoreWaitInfo<'_>,
    timeout: u64,
) -> vk::Result {
    entry("vkWaitSemaphores", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_wait_info.as_ref() }) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let n = info.semaphore_count as usize;
        if n > 0 && (info.p_semaphores.is_null() || info.p_values.is_null()) {
            return vk::Result::ERROR_DEVICE_LOST;
        }
        let mut waits = Vec::with_capacity(n);
        for i in 0..n {
            // SAFETY: both arrays hold `semaphoreCount` elements (Vulkan contract).
            let (semaphore, value) = unsafe { (*info.p_semaphores.add(i), *info.p_values.add(i)) };
            match with_semaphore(device, semaphore, |_, s| s.payload().clone()) {
                Some(p) => waits.push((p, value)),
                None => return vk::Result::ERROR_DEVICE_LOST,
            }
        }
        let any = info.flags.contains(vk::SemaphoreWaitFlags::ANY);
        let reached = || {
            let mut done = waits.iter().map(|(p, v)| p.value() >= *v);
            if any {
                done.any(|d| d)
            } else {
                done.all(|d| d)
            }
        };
        if crate::sync_wait::wait_until(timeout, reached) {
            vk::Result::SUCCESS
        } else {
            vk::Result::TIMEOUT
        }
    })
}

pub(crate) unsafe extern "system" fn get_semaphore_fd(
    device: vk::Device,
    p_get_fd_info: *const vk::SemaphoreGetFdInfoKHR<'_>,
    p_fd: *mut i32,
) -> vk::Result {
    entry("vkGetSemaphoreFdKHR", vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: valid or NULL pointers (Vulkan contract).
        let (Some(info), Some(out)) = (unsafe { p_get_fd_info.as_ref() }, unsafe { p_fd.as_mut() })
        else {
            return vk::Result::ERROR_UNKNOWN;
        };
        let handle_type = info.handle_type.as_raw();
        let result = with_semaphore(device, info.semaphore, |dev, s| match handle_type {
            OPAQUE_FD => payload::export_opaque_fd(s.payload(), device_file(dev)),
            // Copy transference: a binary semaphore with its signal completed (the driver
            // completes work at submission, so none is ever pending); the export is a wait.
            SYNC_FD if !s.timeline && s.payload().signaled() => {
                let fd =
                    payload::export_sync_file(dev.config.sync_quirks.signaled_sync_fd_minus_one)?;
                s.wait();
                Ok(fd)
            }
            _ => Err(vk::Result::ERROR_UNKNOWN),
        });
        payload::finish_export(result, out)
    })
}

/// An `OPAQUE_FD` import's payload, and the fd if the driver keeps it
/// (`sync_quirks.imported_semaphore_fd_kept`: the number stays open, the driver's, until the
/// payload is let go); otherwise the fd is closed at the import.
fn import_opaque_fd(
    dev: &Device,
    fd: i32,
    kind: Kind,
) -> Result<(Arc<Payload>, Option<OwnedFd>), ImportError> {
    if !dev.config.sync_quirks.imported_semaphore_fd_kept {
        return payload::import_opaque_fd(fd, kind, device_file(dev)).map(|p| (p, None));
    }
    let p = payload::resolve_opaque_fd(fd, kind, device_file(dev))?;
    // SAFETY: a successful import hands the fd to the driver (Vulkan contract): it owns it now.
    Ok((p, Some(unsafe { OwnedFd::from_raw_fd(fd) })))
}

pub(crate) unsafe extern "system" fn import_semaphore_fd(
    device: vk::Device,
    p_import_info: *const vk::ImportSemaphoreFdInfoKHR<'_>,
) -> vk::Result {
    const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
    entry("vkImportSemaphoreFdKHR", INVALID, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_import_info.as_ref() }) else {
            return INVALID;
        };
        let temporary = info.flags.contains(vk::SemaphoreImportFlags::TEMPORARY);
        let result = with_semaphore(device, info.semaphore, |dev, s| {
            match info.handle_type.as_raw() {
                OPAQUE_FD => match import_opaque_fd(dev, info.fd, s.kind()) {
                    Ok((p, kept)) => {
                        s.import_keeping(p, temporary, kept);
                        vk::Result::SUCCESS
                    }
                    Err(ImportError::OtherKind(Kind::BinarySemaphore))
                        if s.timeline
                            && dev.config.sync_quirks.abort_on_binary_fd_into_timeline =>
                    {
                        eprintln!(
                            "exportcheck-test-icd: vkImportSemaphoreFdKHR: the OPAQUE_FD of a \
                             binary semaphore imported into a timeline semaphore: aborting \
                             (sync_quirks.abort_on_binary_fd_into_timeline, as SwiftShader \
                             crashes)"
                        );
                        std::process::abort()
                    }
                    Err(_) => INVALID,
                },
                // Copy transference: always temporary, binary semaphores only.
                SYNC_FD if !s.timeline => match payload::import_sync_file(info.fd) {
                    Some(signaled) => {
                        s.import(Payload::new(Kind::BinarySemaphore, signaled.into()), true);
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

pub(crate) unsafe extern "system" fn get_semaphore_win32_handle(
    device: vk::Device,
    p_get_win32_handle_info: *const vk::SemaphoreGetWin32HandleInfoKHR<'_>,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    entry(
        "vkGetSemaphoreWin32HandleKHR",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_get_win32_handle_info.as_ref() }, unsafe {
                p_handle.as_mut()
            }) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let handle_type = info.handle_type.as_raw();
            let result = with_semaphore(device, info.semaphore, |_, s| match handle_type {
                OPAQUE_WIN32 | OPAQUE_WIN32_KMT => Ok(payload::export_win32(
                    payload::SEMAPHORE_WIN32_BASE,
                    s.payload(),
                    handle_type,
                ) as vk::HANDLE),
                _ => Err(vk::Result::ERROR_UNKNOWN),
            });
            payload::finish_export(result, out)
        },
    )
}

pub(crate) unsafe extern "system" fn import_semaphore_win32_handle(
    device: vk::Device,
    p_import_info: *const vk::ImportSemaphoreWin32HandleInfoKHR<'_>,
) -> vk::Result {
    const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
    entry("vkImportSemaphoreWin32HandleKHR", INVALID, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_import_info.as_ref() }) else {
            return INVALID;
        };
        let handle_type = info.handle_type.as_raw();
        let temporary = info.flags.contains(vk::SemaphoreImportFlags::TEMPORARY);
        let result = with_semaphore(device, info.semaphore, |_, s| {
            if !matches!(handle_type, OPAQUE_WIN32 | OPAQUE_WIN32_KMT) || !info.name.is_null() {
                return INVALID;
            }
            let base = payload::SEMAPHORE_WIN32_BASE;
            match payload::import_win32(base, info.handle as u64, handle_type, s.kind()) {
                Some(p) => {
                    s.import(p, temporary);
                    vk::Result::SUCCESS
                }
                None => INVALID,
            }
        });
        result.unwrap_or(INVALID)
    })
}

pub(crate) unsafe extern "system" fn get_semaphore_zircon_handle(
    device: vk::Device,
    p_get_zircon_handle_info: *const vk::SemaphoreGetZirconHandleInfoFUCHSIA<'_>,
    p_zircon_handle: *mut vk::zx_handle_t,
) -> vk::Result {
    entry(
        "vkGetSemaphoreZirconHandleFUCHSIA",
        vk::Result::ERROR_UNKNOWN,
        || {
            // SAFETY: valid or NULL pointers (Vulkan contract).
            let (Some(info), Some(out)) = (unsafe { p_get_zircon_handle_info.as_ref() }, unsafe {
                p_zircon_handle.as_mut()
            }) else {
                return vk::Result::ERROR_UNKNOWN;
            };
            let handle_type = info.handle_type.as_raw();
            let result = with_semaphore(device, info.semaphore, |_, s| {
                if handle_type == ZIRCON_EVENT && !s.timeline {
                    Ok(payload::export_zircon(s.payload(), handle_type))
                } else {
                    Err(vk::Result::ERROR_UNKNOWN)
                }
            });
            payload::finish_export(result, out)
        },
    )
}

pub(crate) unsafe extern "system" fn import_semaphore_zircon_handle(
    device: vk::Device,
    p_import_info: *const vk::ImportSemaphoreZirconHandleInfoFUCHSIA<'_>,
) -> vk::Result {
    const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
    entry("vkImportSemaphoreZirconHandleFUCHSIA", INVALID, || {
        // SAFETY: valid or NULL pointer (Vulkan contract).
        let Some(info) = (unsafe { p_import_info.as_ref() }) else {
            return INVALID;
        };
        let handle_type = info.handle_type.as_raw();
        let temporary = info.flags.contains(vk::SemaphoreImportFlags::TEMPORARY);
        let result = with_semaphore(device, info.semaphore, |_, s| {
            if handle_type != ZIRCON_EVENT {
                return INVALID;
            }
            match payload::import_zircon(info.zircon_handle, handle_type, s.kind()) {
                Some(p) => {
                    s.import(p, temporary);
                    vk::Result::SUCCESS
                }
                None => INVALID,
            }
        });
        result.unwrap_or(INVALID)
    })
}
