//! The four export entry points.

use super::policy::{decide, reject_unknown_device, report_driver_contract, Decision};
use crate::boundary;
use crate::checks::driver_contract::{self, FdProbe};
use crate::checks::export::{ExportArgs, ExportCommand, InfoFields};
use crate::checks::win32_nv::{self, Win32Args};
use crate::checks::{fd, metal, rdma};
use crate::finding::Outcome;
use crate::os;
use crate::raw::{self, StructArg};
use crate::state::registry::lookup_memory;
use crate::state::this_thread::with_device;
use crate::state::{DeviceFacts, DeviceState, LiveMemory, MemoryLookup, PackedAllocation};
use crate::vk_ext::MemoryGetMetalHandleInfoEXT;
use ash::vk::{self, Handle};
use std::ffi::{c_int, c_void};

/// The info structures of the export commands share one layout: sType, pNext, memory, handleType.
trait ExportInfo: Copy {
    fn fields(&self) -> InfoFields;
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
        }
    )*};
}
export_info!(
    vk::MemoryGetFdInfoKHR<'static>,
    vk::MemoryGetRemoteAddressInfoNV<'static>,
    MemoryGetMetalHandleInfoEXT
);

/// What the call-down step knows about a call that passed the gate.
struct Judged {
    memory: LiveMemory,
    /// No error was found: the driver's result is held to the driver contract. After an
    /// invalid call the driver's behaviour is undefined, so nothing is said about it.
    valid_call: bool,
}

/// The shared body of the three commands with an info structure: read, validate, decide, and
/// hand the app's own structure to `call_down`, as the app made it. `is_clean` is the command's fast test of the common call (see `checks::fd::is_clean`),
/// `check` its full check.
///
/// # Safety
/// `p_info` is what the app passed: NULL or a pointer to a structure starting with `sType`.
#[inline(always)]
unsafe fn export_call<I: ExportInfo>(
    cmd: &ExportCommand,
    is_clean: impl FnOnce(&DeviceFacts, &PackedAllocation, vk::ExternalMemoryHandleTypeFlags) -> bool,
    check: impl FnOnce(&DeviceFacts, &ExportArgs) -> Outcome,
    device: vk::Device,
    p_info: *const I,
    output_null: bool,
    call_down: impl FnOnce(&DeviceState, &Judged, *const I) -> Option<vk::Result>,
) -> vk::Result {
    with_device(
        device.as_raw(),
        #[inline(always)]
        |state, memo| {
            let Some(state) = state else {
                return reject_unknown_device(cmd.name, cmd.device_vuid, device.as_raw());
            };
            // SAFETY: NULL and sType are checked before anything else is read.
            let info = unsafe { raw::read_struct(p_info, cmd.s_type) };
            // The common call: well formed, on live memory of this device, nothing to report. It
            // goes down without building the checks' arguments.
            if let StructArg::Valid(valid) = &info {
                let fields = valid.fields();
                if !output_null && !fields.has_p_next && !boundary::injecting_panics() {
                    if let Some(allocation) = state.memories.get(fields.memory, memo) {
                        if is_clean(&state.facts, &allocation, fields.handle_type) {
                            let judged = Judged {
                                memory: LiveMemory {
                                    memory: fields.memory,
                                    device: state.handle(),
                                    allocation,
                                },
                                valid_call: true,
                            };
                            // The app's own structure goes down: it is what was checked.
                            return call_down(state, &judged, p_info)
                                .unwrap_or(vk::Result::ERROR_EXTENSION_NOT_PRESENT);
                        }
                    }
                }
            }
            export_call_checked(cmd, check, state, p_info, info, output_null, call_down)
        },
    )
}

/// [`export_call`] for every call but the common one: the full check, its findings reported,
/// and the call down unless the policy skips it.
fn export_call_checked<I: ExportInfo>(
    cmd: &ExportCommand,
    check: impl FnOnce(&DeviceFacts, &ExportArgs) -> Outcome,
    state: &DeviceState,
    p_info: *const I,
    info: StructArg<I>,
    output_null: bool,
    call_down: impl FnOnce(&DeviceState, &Judged, *const I) -> Option<vk::Result>,
) -> vk::Result {
    let fields = match info {
        StructArg::Null => StructArg::Null,
        StructArg::WrongSType(t) => StructArg::WrongSType(t),
        StructArg::Valid(i) => StructArg::Valid(i.fields()),
    };
    let memory = match fields {
        StructArg::Valid(f) => lookup_memory(state, f.memory),
        _ => MemoryLookup::Null,
    };
    let args = ExportArgs {
        info: fields,
        output_null,
        memory,
    };
    let outcome = boundary::contain(cmd.name, || check(&state.facts, &args));
    if decide(state, cmd.name, &outcome) == Decision::Skip {
        return Decision::SKIPPED_RESULT;
    }
    let (StructArg::Valid(_), MemoryLookup::Live(record)) = (info, &args.memory) else {
        // Unreachable: a NULL or mistyped structure, or memory that is not live, blocks the call.
        return Decision::SKIPPED_RESULT;
    };
    let judged = Judged {
        memory: LiveMemory::from(record),
        valid_call: !outcome.has_errors(),
    };
    // The app's own structure, pNext and all: the layer never rewrites a call.
    call_down(state, &judged, p_info).unwrap_or(vk::Result::ERROR_EXTENSION_NOT_PRESENT)
}

pub unsafe extern "system" fn get_memory_fd_khr(
    device: vk::Device,
    p_get_fd_info: *const vk::MemoryGetFdInfoKHR<'static>,
    p_fd: *mut c_int,
) -> vk::Result {
    let cmd = &fd::COMMAND;
    boundary::ffi_down(cmd.name, vk::Result::ERROR_UNKNOWN, |down| {
        // SAFETY: app arguments, forwarded as the Vulkan contract allows.
        unsafe {
            export_call(
                cmd,
                fd::is_clean,
                fd::check_get_memory_fd,
                device,
                p_get_fd_info,
                p_fd.is_null(),
                #[inline(always)]
                |s, judged, info| {
                    let next = s.next.get_memory_fd?;
                    let memory = &judged.memory;
                    // Probe (a few valid exports per device): was the last export's fd still open?
                    let probing = judged.valid_call && s.contract.take_probe();
                    let previous = probing
                        .then(|| s.contract.last_fd(memory.memory))
                        .flatten()
                        .filter(|&fd| os::is_open(fd) == Some(true));
                    let result = down.went(next(device, info, p_fd));
                    if result == vk::Result::SUCCESS && judged.valid_call {
                        let fd = raw::read_out(p_fd).unwrap_or(-1);
                        let probe = probing.then(|| FdProbe {
                            open: os::is_open(fd),
                            cloexec: os::is_cloexec(fd),
                            open_before_call: previous == Some(fd),
                        });
                        if probing && fd >= 0 {
                            s.contract.set_last_fd(memory.memory, fd);
                        }
                        super::fd_leaks::record_export(s, memory.memory, fd);
                        boundary::inject_panic(boundary::Site::After, cmd.name);
                        report_driver_contract(
                            s,
                            cmd.name,
                            driver_contract::check_fd(memory, fd, probe),
                        );
                    }
                    Some(result)
                },
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
    boundary::ffi_down(cmd.name, vk::Result::ERROR_UNKNOWN, |down| {
        // SAFETY: app arguments, forwarded as the Vulkan contract allows.
        unsafe {
            export_call(
                cmd,
                rdma::is_clean,
                rdma::check_get_memory_remote_address,
                device,
                p_info,
                p_address.is_null(),
                #[inline(always)]
                |s, judged, info| {
                    let next = s.next.get_memory_remote_address?;
                    let result = down.went(next(device, info, p_address));
                    if result == vk::Result::SUCCESS && judged.valid_call {
                        let address = raw::read_out(p_address.cast::<usize>()).unwrap_or(0);
                        let outcome =
                            driver_contract::check_remote_address(&judged.memory, address);
                        report_driver_contract(s, cmd.name, outcome);
                    }
                    Some(result)
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
    boundary::ffi_down(cmd.name, vk::Result::ERROR_UNKNOWN, |down| {
        // SAFETY: app arguments, forwarded as the Vulkan contract allows.
        unsafe {
            export_call(
                cmd,
                metal::is_clean,
                metal::check_get_memory_metal_handle,
                device,
                p_info,
                p_handle.is_null(),
                #[inline(always)]
                |s, judged, info| {
                    let next = s.next.get_memory_metal_handle?;
                    let result = down.went(next(device, info, p_handle));
                    if result == vk::Result::SUCCESS && judged.valid_call {
                        let handle = raw::read_out(p_handle).map_or(0, |h| h as usize);
                        let outcome = driver_contract::check_metal_handle(&judged.memory, handle);
                        report_driver_contract(s, cmd.name, outcome);
                    }
                    Some(result)
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
    boundary::ffi_down(name, vk::Result::ERROR_UNKNOWN, |down| {
        with_device(
            device.as_raw(),
            #[inline(always)]
            |state, memo| {
                let Some(state) = state else {
                    let vuid = crate::vuid::WIN32_DEVICE_PARAM;
                    return reject_unknown_device(name, vuid, device.as_raw());
                };
                // The common call: nothing to report (see `export_call`).
                let clean = (!p_handle.is_null() && !boundary::injecting_panics())
                    .then(|| state.memories.get(memory.as_raw(), memo))
                    .flatten()
                    .filter(|allocation| win32_nv::is_clean(&state.facts, allocation, handle_type));
                let (live, valid_call) = match clean {
                    Some(allocation) => (
                        Some(LiveMemory {
                            memory: memory.as_raw(),
                            device: state.handle(),
                            allocation,
                        }),
                        true,
                    ),
                    None => {
                        let args = Win32Args {
                            memory_handle: memory.as_raw(),
                            memory: lookup_memory(state, memory.as_raw()),
                            handle_type,
                            output_null: p_handle.is_null(),
                        };
                        let outcome = boundary::contain(name, || {
                            win32_nv::check_get_memory_win32_handle(&state.facts, &args)
                        });
                        if decide(state, name, &outcome) == Decision::Skip {
                            return Decision::SKIPPED_RESULT;
                        }
                        match args.memory {
                            MemoryLookup::Live(record) => {
                                (Some(LiveMemory::from(&record)), !outcome.has_errors())
                            }
                            _ => (None, false),
                        }
                    }
                };
                let Some(next) = state.next.get_memory_win32_handle_nv else {
                    return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
                };
                // SAFETY: validated arguments, passed to the next layer's own entry point.
                let result = down.went(unsafe { next(device, memory, handle_type, p_handle) });
                if let (vk::Result::SUCCESS, Some(live), true) = (result, live, valid_call) {
                    // SAFETY: checked non-NULL above; the driver wrote it.
                    let handle = unsafe { raw::read_out(p_handle) }.unwrap_or(0);
                    report_driver_contract(
                        state,
                        name,
                        driver_contract::check_win32_handle(&live, handle),
                    );
                }
                result
            },
        )
    })
}
