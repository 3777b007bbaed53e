//! `vkGetMemoryFdKHR`: the descriptor. Its rules are `rules::export::get_memory_fd`.

use crate::boundary::Down;
use crate::commands::allocate::memory_lifecycle::{self, ExportedHandle};
use crate::fault_injection;
use crate::features::driver_contract::rules::{self as driver_contract, FdProbe};
use crate::handle_kinds::Memory;
use crate::os;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::pipeline::policy::report_driver_contract;
use crate::raw::StructArg;
use crate::rules::export::get_memory_fd;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::DeviceState;
use ash::vk;
use std::ffi::c_int;

pub struct GetMemoryFd;

type Info = vk::MemoryGetFdInfoKHR<'static>;

impl ExportEntry for GetMemoryFd {
    type Args = (*const Info, *mut c_int);
    type Own = get_memory_fd::GetMemoryFdRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_fd::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_fd): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| (i.p_next, i.memory, i.handle_type))
        };
        (info, p_fd.is_null())
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_fd): Self::Args,
        judged: &Judged<'_, Memory>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_fd?;
        let memory = judged.object;
        // A few valid exports per device are probed with system calls.
        let probing = judged.valid_call && s.contract.take_probe();
        let open_before = probing.then(|| open_before_call(s, memory.memory));
        // SAFETY: pFd is not NULL (the gate); the app's own arguments, which passed the gate,
        // to the next layer's entry point.
        let (result, fd) =
            unsafe { export::call_down_fd(down, p_fd, || next(device, p_info, p_fd)) };
        if let (Some(fd), true) = (fd, judged.valid_call) {
            let probe = open_before.map(|previous| probe(s, memory.memory, fd, previous));
            let t = vk::ExternalMemoryHandleTypeFlags::from_raw(judged.handle_type);
            memory_lifecycle::exported(s, memory, t, ExportedHandle::Fd(fd));
            fault_injection::inject_panic(
                fault_injection::Site::After,
                get_memory_fd::COMMAND.name,
            );
            let broken = driver_contract::evaluate_fd(fd, probe);
            if !broken.is_empty() {
                let outcome = driver_contract::describe_fd(memory, fd, broken);
                report_driver_contract(s, get_memory_fd::COMMAND.name, outcome);
            }
        }
        Some(result)
    }
}

/// The fd a probed export of `memory` returned last time, if it is still open: if the driver
/// returns the same number, it made no new fd.
#[cold]
fn open_before_call(s: &DeviceState, memory: u64) -> Option<i32> {
    s.memories
        .rare_from_map(memory)
        .last_probed_fd
        .filter(|&fd| os::is_open(fd) == Some(true))
}

/// What system calls say of the `fd` a probed export of `memory` returned.
#[cold]
fn probe(s: &DeviceState, memory: u64, fd: i32, open_before: Option<i32>) -> FdProbe {
    if fd >= 0 {
        s.memories
            .update_rare(memory, |rare| rare.last_probed_fd = Some(fd));
    }
    FdProbe {
        open: os::is_open(fd),
        cloexec: os::is_cloexec(fd),
        open_before_call: open_before == Some(fd),
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_fd_khr(
    device: vk::Device,
    p_get_fd_info: *const Info,
    p_fd: *mut c_int,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryFd>(device, (p_get_fd_info, p_fd)) }
}
