//! Driver-contract checks: after a successful export, is what the driver returned usable?
//! The spec says each `vkGetMemoryFdKHR` call creates a new file descriptor, with close-on-exec
//! set where the OS supports it; a successful export returns a valid fd, a non-NULL address or
//! handle. These are warnings about the driver, not the app.

use crate::finding::{Finding, Outcome};
use crate::handle_kinds::Memory;
use crate::rules::export::{with_object, ExportedObject};
use crate::rules::rule_set::rule_set;
use crate::state::MemoryRecord;
use crate::vuid;
use ash::vk;

/// What the layer learned about a returned fd with system calls (only on probed exports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FdProbe {
    /// The returned fd is an open file descriptor; `None` when unknown (not POSIX).
    pub open: Option<bool>,
    /// `FD_CLOEXEC` of the returned fd; `None` when unknown (not POSIX, or not open).
    pub cloexec: Option<bool>,
    /// The returned fd number was already open before the call: the driver made no new fd.
    pub open_before_call: bool,
}

/// A finding about what the driver returned from a successful export of the object `record`
/// (`K`: memory now; semaphores and fences share the shape).
#[cold]
fn driver_finding<K: ExportedObject>(
    id: &'static str,
    command: &'static str,
    field: &'static str,
    record: &K::Record,
    what: String,
) -> Finding {
    let finding = Finding::new(
        id,
        command,
        field,
        format!(
            "{command}(): the driver returned VK_SUCCESS for {}, but {what}. This is a driver \
             defect, not an error of the app.",
            K::describe(record)
        ),
    );
    with_object::<K>(finding, record)
}

rule_set! {
    /// The rules of the fd a driver returned from `vkGetMemoryFdKHR`.
    pub struct ReturnedFdRules {
        /// `*pFd` is not a file descriptor (below 0).
        FD_INVALID,
        /// `*pFd` is not open (probed).
        FD_NOT_OPEN,
        /// `*pFd` was open before the call (probed).
        FD_NOT_NEW,
        /// `*pFd` lacks `FD_CLOEXEC` (probed).
        FD_NOT_CLOEXEC,
    }
}

/// The rules `vkGetMemoryFdKHR`'s driver broke by returning `fd`; those that need system calls
/// are judged only on a probed export (`probe`).
#[inline(always)]
pub fn evaluate_fd(fd: i32, probe: Option<FdProbe>) -> ReturnedFdRules {
    if fd < 0 {
        return ReturnedFdRules::FD_INVALID;
    }
    match probe {
        None => ReturnedFdRules::NONE,
        Some(probe) if probe.open == Some(false) => ReturnedFdRules::FD_NOT_OPEN,
        Some(probe) => ReturnedFdRules::NONE
            .with(ReturnedFdRules::FD_NOT_NEW, probe.open_before_call)
            .with(
                ReturnedFdRules::FD_NOT_CLOEXEC,
                probe.cloexec == Some(false),
            ),
    }
}

/// The findings of the rules in `broken` (what [`evaluate_fd`] returned for `fd`).
#[cold]
#[inline(never)]
pub fn describe_fd(record: &MemoryRecord, fd: i32, broken: ReturnedFdRules) -> Outcome {
    const CMD: &str = "vkGetMemoryFdKHR";
    let mut outcome = Outcome::default();
    let mut say = |id, what: String| {
        outcome.push(driver_finding::<Memory>(id, CMD, "*pFd", record, what));
    };
    if broken.has(ReturnedFdRules::FD_INVALID) {
        say(
            vuid::DRIVER_INVALID_FD,
            format!("*pFd is {fd}, not a file descriptor"),
        );
    }
    if broken.has(ReturnedFdRules::FD_NOT_OPEN) {
        say(
            vuid::DRIVER_INVALID_FD,
            format!("*pFd is {fd}, which is not an open file descriptor"),
        );
    }
    if broken.has(ReturnedFdRules::FD_NOT_NEW) {
        say(
            vuid::DRIVER_FD_NOT_NEW,
            format!(
                "*pFd is {fd}, which was already open before the call (the fd it returned on an \
                 earlier export): each vkGetMemoryFdKHR must create a new file descriptor, which \
                 the app owns and closes"
            ),
        );
    }
    if broken.has(ReturnedFdRules::FD_NOT_CLOEXEC) {
        say(
            vuid::DRIVER_FD_NOT_CLOEXEC,
            format!(
                "*pFd ({fd}) does not have FD_CLOEXEC set: the spec requires close-on-exec on \
                 exported fds where the OS supports it, or child processes inherit the memory"
            ),
        );
    }
    outcome
}

/// Every finding about `fd` (for the tests: the command evaluates, then describes).
pub fn check_fd(record: &MemoryRecord, fd: i32, probe: Option<FdProbe>) -> Outcome {
    describe_fd(record, fd, evaluate_fd(fd, probe))
}

/// A handle-like result that must not be NULL after `VK_SUCCESS`: which command returned it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returned {
    /// `*pAddress` of `vkGetMemoryRemoteAddressNV`.
    RemoteAddress,
    /// `*pHandle` of `vkGetMemoryWin32HandleNV`.
    Win32Handle,
    /// `*pHandle` of `vkGetMemoryMetalHandleEXT`.
    MetalHandle,
    /// `*pHandle` of `vkGetMemoryWin32HandleKHR`.
    Win32HandleKhr,
    /// `*pZirconHandle` of `vkGetMemoryZirconHandleFUCHSIA` (`ZX_HANDLE_INVALID` is 0).
    ZirconHandle,
    /// `*pBuffer` of `vkGetMemoryAndroidHardwareBufferANDROID`.
    AndroidHardwareBuffer,
}

rule_set! {
    /// The rules of a handle-like value a driver returned (an address, a `HANDLE`, ...).
    pub struct ReturnedValueRules {
        /// The returned value is NULL.
        NULL_RESULT,
    }
}

/// The rule a handle-like result breaks: NULL after `VK_SUCCESS`.
#[inline(always)]
pub fn evaluate_returned(value: u64) -> ReturnedValueRules {
    ReturnedValueRules::NONE.with(ReturnedValueRules::NULL_RESULT, value == 0)
}

/// The finding of the rule in `broken` (what [`evaluate_returned`] said) for `returned`.
#[cold]
#[inline(never)]
pub fn describe_returned<K: ExportedObject>(
    returned: Returned,
    record: &K::Record,
    broken: ReturnedValueRules,
) -> Outcome {
    let (id, command, field) = match returned {
        Returned::RemoteAddress => (
            vuid::DRIVER_NULL_REMOTE_ADDRESS,
            "vkGetMemoryRemoteAddressNV",
            "*pAddress",
        ),
        Returned::Win32Handle => (
            vuid::DRIVER_NULL_WIN32_HANDLE,
            "vkGetMemoryWin32HandleNV",
            "*pHandle",
        ),
        Returned::MetalHandle => (
            vuid::DRIVER_NULL_METAL_HANDLE,
            "vkGetMemoryMetalHandleEXT",
            "*pHandle",
        ),
        Returned::Win32HandleKhr => (
            vuid::DRIVER_NULL_WIN32_HANDLE_KHR,
            "vkGetMemoryWin32HandleKHR",
            "*pHandle",
        ),
        Returned::ZirconHandle => (
            vuid::DRIVER_INVALID_ZIRCON_HANDLE,
            "vkGetMemoryZirconHandleFUCHSIA",
            "*pZirconHandle",
        ),
        Returned::AndroidHardwareBuffer => (
            vuid::DRIVER_NULL_ANDROID_HARDWARE_BUFFER,
            "vkGetMemoryAndroidHardwareBufferANDROID",
            "*pBuffer",
        ),
    };
    let mut outcome = Outcome::default();
    if broken.has(ReturnedValueRules::NULL_RESULT) {
        let what = match returned {
            Returned::ZirconHandle => format!("{field} is ZX_HANDLE_INVALID"),
            _ => format!("{field} is NULL"),
        };
        outcome.push(driver_finding::<K>(id, command, field, record, what));
    }
    outcome
}

/// Every finding about a returned `value` (for the tests: the command evaluates, then
/// describes).
pub fn check_returned(returned: Returned, record: &MemoryRecord, value: u64) -> Outcome {
    describe_returned::<Memory>(returned, record, evaluate_returned(value))
}

/// `vkGetMemoryRemoteAddressNV` returned `address`.
pub fn check_remote_address(record: &MemoryRecord, address: usize) -> Outcome {
    check_returned(Returned::RemoteAddress, record, address as u64)
}

/// `vkGetMemoryWin32HandleNV` returned `handle`.
pub fn check_win32_handle(record: &MemoryRecord, handle: vk::HANDLE) -> Outcome {
    check_returned(Returned::Win32Handle, record, handle as usize as u64)
}

/// `vkGetMemoryMetalHandleEXT` returned `handle`.
pub fn check_metal_handle(record: &MemoryRecord, handle: usize) -> Outcome {
    check_returned(Returned::MetalHandle, record, handle as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixtures::*;

    fn rec() -> MemoryRecord {
        record_on(DEVICE, exported(OPAQUE_FD))
    }

    #[test]
    fn a_good_fd_is_silent() {
        let probe = FdProbe {
            open: Some(true),
            cloexec: Some(true),
            open_before_call: false,
        };
        assert_eq!(check_fd(&rec(), 7, Some(probe)), Outcome::default());
        assert_eq!(check_fd(&rec(), 7, None), Outcome::default());
        let unknown = FdProbe {
            open: None,
            cloexec: None,
            open_before_call: false,
        };
        assert_eq!(check_fd(&rec(), 7, Some(unknown)), Outcome::default());
    }

    #[test]
    fn each_fd_defect() {
        assert_eq!(check_fd(&rec(), -1, None).ids(), [vuid::DRIVER_INVALID_FD]);
        let closed = FdProbe {
            open: Some(false),
            cloexec: None,
            open_before_call: false,
        };
        let out = check_fd(&rec(), 9, Some(closed));
        assert_eq!(out.ids(), [vuid::DRIVER_INVALID_FD]);
        assert!(out.findings[0]
            .message
            .contains("*pFd is 9, which is not an open file descriptor"));
        let p = FdProbe {
            open: Some(true),
            cloexec: Some(false),
            open_before_call: false,
        };
        let out = check_fd(&rec(), 7, Some(p));
        assert_eq!(out.ids(), [vuid::DRIVER_FD_NOT_CLOEXEC]);
        assert_eq!(out.findings[0].severity, crate::finding::Severity::Warning);
        assert!(!out.blocked);
        let p = FdProbe {
            open: Some(true),
            cloexec: Some(true),
            open_before_call: true,
        };
        assert_eq!(
            check_fd(&rec(), 7, Some(p)).ids(),
            [vuid::DRIVER_FD_NOT_NEW]
        );
        let p = FdProbe {
            open: Some(true),
            cloexec: Some(false),
            open_before_call: true,
        };
        assert_eq!(
            check_fd(&rec(), 7, Some(p)).ids(),
            [vuid::DRIVER_FD_NOT_NEW, vuid::DRIVER_FD_NOT_CLOEXEC]
        );
    }

    #[test]
    fn null_address_and_handles() {
        assert!(check_remote_address(&rec(), 0x1000).findings.is_empty());
        assert_eq!(
            check_remote_address(&rec(), 0).ids(),
            [vuid::DRIVER_NULL_REMOTE_ADDRESS]
        );
        assert!(check_win32_handle(&rec(), 4).findings.is_empty());
        assert_eq!(
            check_win32_handle(&rec(), 0).ids(),
            [vuid::DRIVER_NULL_WIN32_HANDLE]
        );
        assert!(check_metal_handle(&rec(), 0x10).findings.is_empty());
        assert_eq!(
            check_metal_handle(&rec(), 0).ids(),
            [vuid::DRIVER_NULL_METAL_HANDLE]
        );
        for (returned, id) in [
            (Returned::Win32HandleKhr, vuid::DRIVER_NULL_WIN32_HANDLE_KHR),
            (Returned::ZirconHandle, vuid::DRIVER_INVALID_ZIRCON_HANDLE),
            (
                Returned::AndroidHardwareBuffer,
                vuid::DRIVER_NULL_ANDROID_HARDWARE_BUFFER,
            ),
        ] {
            assert!(check_returned(returned, &rec(), 0x24).findings.is_empty());
            assert_eq!(check_returned(returned, &rec(), 0).ids(), [id]);
        }
        let zircon = check_returned(Returned::ZirconHandle, &rec(), 0);
        assert!(zircon.findings[0]
            .message
            .contains("*pZirconHandle is ZX_HANDLE_INVALID"));
    }
}
