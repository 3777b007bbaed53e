//! The four export entry points.

use super::policy::{decide, decide_without_device, Decision};
use crate::boundary;
use crate::checks::export::{unknown_device, ExportArgs, ExportCommand, InfoFields};
use crate::checks::win32_nv::{self, Win32Args};
use crate::checks::{fd, metal, rdma};
use crate::finding::Outcome;
use crate::raw::{self, StructArg};
use crate::state::registry::{lookup_memory, DEVICES};
use crate::state::{DeviceFacts, DeviceState, MemoryLookup};
use crate::vk_ext::MemoryGetMetalHandleInfoEXT;
use ash::vk::{self, Handle};
use std::ffi::{c_int, c_void};

/// The info structures of the export commands share one layout: sType, pNext, memory, handleType.
trait ExportInfo: Copy {
    fn fields(&self) -> InfoFields;
    /// The copy passed down: the validated values, with pNext cleared if it had to be reported.
    fn with_null_p_next(self) -> Self;
}

macro_rules! export_info {
    ($($t:ty),*) => {$(
        impl ExportInfo for $t {
            fn fields(&self) -> InfoFields {
                InfoFields {
                    has_p_next: !self.p_next.is_null(),
                    memory: self.memory.as_raw(),
                    handle_type: self.handle_type,
                }
            }
            fn with_null_p_next(mut self) -> Self {
                self.p_next = std::ptr::null();
                self
            }
        }
    )*};
}
export_info!(
    vk::MemoryGetFdInfoKHR<'static>,
    vk::MemoryGetRemoteAddressInfoNV<'static>,
    MemoryGetMetalHandleInfoEXT
);

/// The shared body of the three commands with an info structure: read, validate, decide, and
/// hand the validated copy of the structure to `call_down`.
///
/// # Safety
/// `p_info` is what the app passed: NULL or a pointer to a structure starting with `sType`.
unsafe fn export_call<I: ExportInfo>(
    cmd: &ExportCommand,
    check: fn(&DeviceFacts, &ExportArgs) -> Outcome,
    device: vk::Device,
    p_info: *const I,
    output_null: bool,
    call_down: impl FnOnce(&DeviceState, *const I) -> Option<vk::Result>,
) -> vk::Result {
    let Some(state) = DEVICES.get(device.as_raw()) else {
        let outcome = unknown_device(cmd.name, cmd.device_vuid, device.as_raw());
        decide_without_device(cmd.name, &outcome);
        return Decision::SKIPPED_RESULT;
    };
    // SAFETY: NULL and sType are checked before anything else is read.
    let info = unsafe { raw::read_struct(p_info, cmd.s_type) };
    let fields = match info {
        StructArg::Null => StructArg::Null,
        StructArg::WrongSType(t) => StructArg::WrongSType(t),
        StructArg::Valid(i) => StructArg::Valid(i.fields()),
    };
    let memory = match fields {
        StructArg::Valid(f) => lookup_memory(&state, f.memory),
        _ => MemoryLookup::Null,
    };
    let args = ExportArgs {
        info: fields,
        output_null,
        memory,
    };
    let outcome = boundary::contain(cmd.name, || check(&state.facts, &args));
    if decide(&state, cmd.name, &outcome) == Decision::Skip {
        return Decision::SKIPPED_RESULT;
    }
    let StructArg::Valid(info) = info else {
        // Unreachable: a NULL or mistyped structure blocks the call.
        return Decision::SKIPPED_RESULT;
    };
    call_down(&state, &info.with_null_p_next()).unwrap_or(vk::Result::ERROR_EXTENSION_NOT_PRESENT)
}

pub unsafe extern "system" fn get_memory_fd_khr(
    device: vk::Device,
    p_get_fd_info: *const vk::MemoryGetFdInfoKHR<'static>,
    p_fd: *mut c_int,
) -> vk::Result {
    boundary::ffi(fd::COMMAND.name, vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: app arguments, forwarded as the Vulkan contract allows.
        unsafe {
            export_call(
                &fd::COMMAND,
                fd::check_get_memory_fd,
                device,
                p_get_fd_info,
                p_fd.is_null(),
                |s, info| s.next.get_memory_fd.map(|next| next(device, info, p_fd)),
            )
        }
    })
}

pub unsafe extern "system" fn get_memory_remote_address_nv(
    device: vk::Device,
    p_info: *const vk::MemoryGetRemoteAddressInfoNV<'static>,
    p_address: *mut vk::RemoteAddressNV,
) -> vk::Result {
    let cmd = &rdma::COMMAND;
    boundary::ffi(cmd.name, vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: app arguments, forwarded as the Vulkan contract allows.
        unsafe {
            export_call(
                cmd,
                rdma::check_get_memory_remote_address,
                device,
                p_info,
                p_address.is_null(),
                |s, info| {
                    s.next
                        .get_memory_remote_address
                        .map(|next| next(device, info, p_address))
                },
            )
        }
    })
}

pub unsafe extern "system" fn get_memory_metal_handle_ext(
    device: vk::Device,
    p_info: *const MemoryGetMetalHandleInfoEXT,
    p_handle: *mut *mut c_void,
) -> vk::Result {
    let cmd = &metal::COMMAND;
    boundary::ffi(cmd.name, vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: app arguments, forwarded as the Vulkan contract allows.
        unsafe {
            export_call(
                cmd,
                metal::check_get_memory_metal_handle,
                device,
                p_info,
                p_handle.is_null(),
                |s, info| {
                    s.next
                        .get_memory_metal_handle
                        .map(|next| next(device, info, p_handle))
                },
            )
        }
    })
}

pub unsafe extern "system" fn get_memory_win32_handle_nv(
    device: vk::Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    p_handle: *mut vk::HANDLE,
) -> vk::Result {
    let name = win32_nv::COMMAND;
    boundary::ffi(name, vk::Result::ERROR_UNKNOWN, || {
        let Some(state) = DEVICES.get(device.as_raw()) else {
            let outcome = unknown_device(name, crate::vuid::WIN32_DEVICE_PARAM, device.as_raw());
            decide_without_device(name, &outcome);
            return Decision::SKIPPED_RESULT;
        };
        let args = Win32Args {
            memory_handle: memory.as_raw(),
            memory: lookup_memory(&state, memory.as_raw()),
            handle_type,
            output_null: p_handle.is_null(),
        };
        let outcome = boundary::contain(name, || {
            win32_nv::check_get_memory_win32_handle(&state.facts, &args)
        });
        if decide(&state, name, &outcome) == Decision::Skip {
            return Decision::SKIPPED_RESULT;
        }
        match state.next.get_memory_win32_handle_nv {
            // SAFETY: validated arguments, passed to the next layer's own entry point.
            Some(next) => unsafe { next(device, memory, handle_type, p_handle) },
            None => vk::Result::ERROR_EXTENSION_NOT_PRESENT,
        }
    })
}
