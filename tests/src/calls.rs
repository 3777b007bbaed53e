//! Every intercepted command called with raw arguments, through the layer's own function pointers
//! (what `vkGetDeviceProcAddr` handed out for a device), with its output pre-filled with a
//! sentinel to see whether anything was written: what the structural table
//! (`tests/tests/structural.rs`) and the hostile-input matrix (`tests/tests/hostile_*.rs`) make.
//!
//! [`Args`] describes one call of any of the six commands; each command reads the arguments it
//! has (`vkGetMemoryWin32HandleNV` and `vkFreeMemory` have no info structure, `vkAllocateMemory`
//! names no memory, `vkFreeMemory` has no output).

use crate::app::{Device, MemoryGetMetalHandleInfo, METAL_INFO_STYPE, POINTER_SENTINEL, SENTINEL};
use crate::model::{self, AllocateInfo, Allocation, Command, ExportInfo, Info, Memory};
use crate::{fds, SIZE};
use ash::vk::{self, Handle};
use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};

/// What `vkAllocateMemory`'s `pMemory` slot is pre-filled with.
pub const MEMORY_SENTINEL: u64 = 0x5e5e_5e5e;
/// What `vkGetMemoryZirconHandleFUCHSIA`'s `zx_handle_t` slot is pre-filled with.
pub const ZIRCON_SENTINEL: u32 = 0x5e5e_5e5e;

/// The layout `VkMemoryGetFdInfoKHR`, `VkMemoryGetRemoteAddressInfoNV`,
/// `VkMemoryGetMetalHandleInfoEXT`, `VkMemoryGetWin32HandleInfoKHR` and
/// `VkMemoryGetZirconHandleInfoFUCHSIA` share (`VkMemoryGetAndroidHardwareBufferInfoANDROID` is
/// its first three members).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RawInfo {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub memory: vk::DeviceMemory,
    pub handle_type: u32,
}

/// The info structure argument (`pGetFdInfo`, `pMemoryGetRemoteAddressInfo`,
/// `pGetMetalHandleInfo`, `pAllocateInfo`).
#[derive(Clone, Copy, Debug)]
pub enum InfoArg {
    Null,
    /// A structure the call makes: of `s_type`, with `p_next`; an export command's carries the
    /// call's memory and handle type, `VkMemoryAllocateInfo` asks for `SIZE` bytes of memory
    /// type 0.
    Built {
        s_type: vk::StructureType,
        p_next: *const c_void,
    },
    /// A structure the caller made (it may point to itself, or be any other shape).
    Raw(*const c_void),
}

/// One call's arguments.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    pub device: vk::Device,
    pub info: InfoArg,
    /// The memory of the info structure (the `memory` parameter of `vkGetMemoryWin32HandleNV`
    /// and `vkFreeMemory`).
    pub memory: vk::DeviceMemory,
    /// `handleType` (the NV flags for `vkGetMemoryWin32HandleNV`).
    pub handle_type: u32,
    pub output_null: bool,
}

/// The `sType` of `command`'s info structure, if it has one.
pub fn info_s_type(command: Command) -> Option<vk::StructureType> {
    match command {
        Command::GetMemoryFd => Some(vk::StructureType::MEMORY_GET_FD_INFO_KHR),
        Command::GetMemoryRemoteAddress => {
            Some(vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV)
        }
        Command::GetMemoryMetalHandle => Some(METAL_INFO_STYPE),
        Command::GetMemoryWin32HandleKhr => {
            Some(vk::StructureType::MEMORY_GET_WIN32_HANDLE_INFO_KHR)
        }
        Command::GetMemoryZirconHandle => {
            Some(vk::StructureType::MEMORY_GET_ZIRCON_HANDLE_INFO_FUCHSIA)
        }
        Command::GetMemoryAndroidHardwareBuffer => {
            Some(vk::StructureType::MEMORY_GET_ANDROID_HARDWARE_BUFFER_INFO_ANDROID)
        }
        Command::AllocateMemory => Some(vk::StructureType::MEMORY_ALLOCATE_INFO),
        Command::GetMemoryWin32Handle | Command::FreeMemory => None,
    }
}

impl Args {
    /// A well-formed call of `command` on `device` about `memory` and `handle_type`: its info
    /// structure of the right `sType` without pNext, and an output pointer.
    pub fn new(
        command: Command,
        device: vk::Device,
        memory: vk::DeviceMemory,
        handle_type: u32,
    ) -> Self {
        let info = match info_s_type(command) {
            Some(s_type) => InfoArg::Built {
                s_type,
                p_next: null(),
            },
            None => InfoArg::Null,
        };
        Self {
            device,
            info,
            memory,
            handle_type,
            output_null: false,
        }
    }

    pub fn on(self, device: vk::Device) -> Self {
        Self { device, ..self }
    }

    pub fn memory(self, memory: vk::DeviceMemory) -> Self {
        Self { memory, ..self }
    }

    pub fn handle_type(self, handle_type: u32) -> Self {
        Self {
            handle_type,
            ..self
        }
    }

    pub fn null_output(self) -> Self {
        Self {
            output_null: true,
            ..self
        }
    }

    pub fn null_info(self) -> Self {
        Self {
            info: InfoArg::Null,
            ..self
        }
    }

    pub fn raw_info(self, info: *const c_void) -> Self {
        Self {
            info: InfoArg::Raw(info),
            ..self
        }
    }

    /// The built info structure with another `sType`.
    pub fn s_type(self, s_type: vk::StructureType) -> Self {
        let InfoArg::Built { p_next, .. } = self.info else {
            panic!("no built info structure to give an sType")
        };
        Self {
            info: InfoArg::Built { s_type, p_next },
            ..self
        }
    }

    /// The built info structure with a pNext.
    pub fn p_next(self, p_next: *const c_void) -> Self {
        let InfoArg::Built { s_type, .. } = self.info else {
            panic!("no built info structure to give a pNext")
        };
        Self {
            info: InfoArg::Built { s_type, p_next },
            ..self
        }
    }
}

/// What a call did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Called {
    /// The returned result (`None` for `vkFreeMemory`).
    pub result: Option<vk::Result>,
    /// Whether the output parameter changed from its pre-filled sentinel.
    pub written: bool,
    /// What the output holds after the call: the fd, remote address, HANDLE, Metal handle or
    /// `VkDeviceMemory` (the sentinel when nothing was written).
    pub output: u64,
}

impl Called {
    fn of(result: vk::Result, output: u64, sentinel: u64) -> Self {
        Self {
            result: Some(result),
            written: output != sentinel,
            output,
        }
    }
}

/// The name of the driver's entry point of `command`, for its call counter.
pub fn counted(command: Command) -> &'static CStr {
    match command {
        Command::GetMemoryFd => c"vkGetMemoryFdKHR",
        Command::GetMemoryRemoteAddress => c"vkGetMemoryRemoteAddressNV",
        Command::GetMemoryWin32Handle => c"vkGetMemoryWin32HandleNV",
        Command::GetMemoryMetalHandle => c"vkGetMemoryMetalHandleEXT",
        Command::GetMemoryWin32HandleKhr => c"vkGetMemoryWin32HandleKHR",
        Command::GetMemoryZirconHandle => c"vkGetMemoryZirconHandleFUCHSIA",
        Command::GetMemoryAndroidHardwareBuffer => c"vkGetMemoryAndroidHardwareBufferANDROID",
        Command::AllocateMemory => c"vkAllocateMemory",
        Command::FreeMemory => c"vkFreeMemory",
    }
}

/// Calls `command` with `args` through `dev`'s function pointers (the layer's own; `args.device`
/// may be another device, or none). What the call made (an fd, an allocation) is the caller's:
/// see [`release`].
///
/// # Safety
/// A raw info pointer and every pNext must be NULL or point to live structures (a chain may loop
/// on purpose); bad handles are the point.
pub unsafe fn call(command: Command, dev: &Device, args: &Args) -> Called {
    let Args {
        device,
        memory,
        handle_type,
        output_null,
        ..
    } = *args;
    let built = match args.info {
        InfoArg::Built { s_type, p_next } => Some(RawInfo {
            s_type,
            p_next,
            memory,
            handle_type,
        }),
        _ => None,
    };
    let info: *const c_void = match (&args.info, &built) {
        (InfoArg::Null, _) => null(),
        (InfoArg::Raw(p), _) => *p,
        (InfoArg::Built { .. }, Some(info)) => (info as *const RawInfo).cast(),
        (InfoArg::Built { .. }, None) => unreachable!(),
    };
    let pointer_out = |value: &mut *mut c_void| -> *mut *mut c_void {
        if output_null {
            null_mut()
        } else {
            value
        }
    };
    let sentinel = POINTER_SENTINEL as u64;
    // SAFETY (each call below): the caller's contract; the layer is expected to stop every bad
    // argument before the driver.
    match command {
        Command::GetMemoryFd => {
            let mut fd = SENTINEL;
            let out: *mut i32 = if output_null { null_mut() } else { &mut fd };
            let result = unsafe { (dev.fd.fp().get_memory_fd_khr)(device, info.cast(), out) };
            Called::of(result, fd as u64, SENTINEL as u64)
        }
        Command::GetMemoryRemoteAddress => {
            let get = dev.remote_address.expect("vkGetMemoryRemoteAddressNV");
            let mut address = POINTER_SENTINEL as *mut c_void;
            // ash spells `VkRemoteAddressNV*` as `*mut c_void`.
            let result = unsafe { get(device, info.cast(), pointer_out(&mut address).cast()) };
            Called::of(result, address as u64, sentinel)
        }
        Command::GetMemoryMetalHandle => {
            let get = dev.metal_handle.expect("vkGetMemoryMetalHandleEXT");
            let mut handle = POINTER_SENTINEL as *mut c_void;
            let info = info.cast::<MemoryGetMetalHandleInfo>();
            let result = unsafe { get(device, info, pointer_out(&mut handle)) };
            Called::of(result, handle as u64, sentinel)
        }
        Command::GetMemoryWin32HandleKhr => {
            let get = dev.win32_handle_khr.expect("vkGetMemoryWin32HandleKHR");
            let mut handle = POINTER_SENTINEL as vk::HANDLE;
            let out: *mut vk::HANDLE = if output_null { null_mut() } else { &mut handle };
            let result = unsafe { get(device, info.cast(), out) };
            Called::of(result, handle as u64, sentinel)
        }
        Command::GetMemoryAndroidHardwareBuffer => {
            let get = dev
                .android_hardware_buffer
                .expect("vkGetMemoryAndroidHardwareBufferANDROID");
            let mut buffer = POINTER_SENTINEL as *mut c_void;
            // The built structure's `handle_type` member lies past the end of
            // VkMemoryGetAndroidHardwareBufferInfoANDROID: never read.
            let result = unsafe { get(device, info.cast(), pointer_out(&mut buffer)) };
            Called::of(result, buffer as u64, sentinel)
        }
        Command::GetMemoryZirconHandle => {
            let get = dev.zircon_handle.expect("vkGetMemoryZirconHandleFUCHSIA");
            let mut handle = ZIRCON_SENTINEL;
            let out: *mut u32 = if output_null { null_mut() } else { &mut handle };
            let result = unsafe { get(device, info.cast(), out) };
            Called::of(result, u64::from(handle), u64::from(ZIRCON_SENTINEL))
        }
        Command::GetMemoryWin32Handle => {
            let get = dev.win32_handle.expect("vkGetMemoryWin32HandleNV");
            let mut handle = POINTER_SENTINEL as vk::HANDLE;
            let out: *mut vk::HANDLE = if output_null { null_mut() } else { &mut handle };
            let types = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(handle_type);
            let result = unsafe { get(device, memory, types, out) };
            Called::of(result, handle as u64, sentinel)
        }
        Command::AllocateMemory => {
            let made = match args.info {
                InfoArg::Built { s_type, p_next } => {
                    let mut made = vk::MemoryAllocateInfo::default()
                        .allocation_size(SIZE)
                        .memory_type_index(0);
                    made.s_type = s_type;
                    made.p_next = p_next;
                    Some(made)
                }
                _ => None,
            };
            let info: *const vk::MemoryAllocateInfo = match &made {
                Some(made) => made,
                None => info.cast(),
            };
            let mut allocated = vk::DeviceMemory::from_raw(MEMORY_SENTINEL);
            let out: *mut vk::DeviceMemory = if output_null {
                null_mut()
            } else {
                &mut allocated
            };
            let allocate = dev.device.fp_v1_0().allocate_memory;
            let result = unsafe { allocate(device, info, null(), out) };
            Called::of(result, allocated.as_raw(), MEMORY_SENTINEL)
        }
        Command::FreeMemory => {
            unsafe { (dev.device.fp_v1_0().free_memory)(device, memory, null()) };
            Called {
                result: None,
                written: false,
                output: 0,
            }
        }
    }
}

/// Gives back what a successful call of `command` made: closes the fd (if it is one),
/// frees the allocation on `dev`.
pub fn release(command: Command, dev: &Device, called: Called) {
    if called.result != Some(vk::Result::SUCCESS) || !called.written {
        return;
    }
    match command {
        Command::GetMemoryFd => fds::close_if_open(called.output as i32),
        Command::AllocateMemory => dev.free(vk::DeviceMemory::from_raw(called.output)),
        _ => {}
    }
}

/// What the layer knows of the `VkDeviceMemory` handles a test uses, to describe a call to the
/// model: live memory of the device the calls are made on (with what it was allocated with),
/// memory it freed, another device's memory. Any other non-NULL value is unknown to the layer.
#[derive(Debug, Default)]
pub struct Memories {
    known: Vec<(vk::DeviceMemory, Memory)>,
}

impl Memories {
    /// `memory` is live memory of the calls' device, allocated as `allocation` says.
    pub fn live(&mut self, memory: vk::DeviceMemory, allocation: Allocation) {
        self.set(memory, Memory::Live(allocation));
    }

    /// `memory` was freed on the calls' device.
    pub fn freed(&mut self, memory: vk::DeviceMemory) {
        self.set(memory, Memory::Freed);
    }

    /// `memory` is live memory of another device.
    pub fn foreign(&mut self, memory: vk::DeviceMemory) {
        self.set(memory, Memory::OtherDevice);
    }

    fn set(&mut self, memory: vk::DeviceMemory, kind: Memory) {
        self.known.retain(|(m, _)| *m != memory);
        self.known.push((memory, kind));
    }

    /// What `memory` is, to the layer.
    pub fn of(&self, memory: vk::DeviceMemory) -> Memory {
        if memory == vk::DeviceMemory::null() {
            return Memory::Null;
        }
        self.known
            .iter()
            .find(|(m, _)| *m == memory)
            .map_or(Memory::Unknown, |(_, kind)| *kind)
    }

    /// The model's view of `args`, a call of `command` on a device the layer knows. A raw info
    /// structure is taken for one of the right `sType` with a pNext (the tables make no other),
    /// and `VkMemoryAllocateInfo` with a pNext has no model here: describe its chain with a
    /// [`model::Call`] of your own.
    pub fn model_call(&self, command: Command, args: &Args) -> model::Call {
        let memory = self.of(args.memory);
        let info = |p_next: bool| ExportInfo {
            p_next,
            memory,
            handle_type: args.handle_type,
        };
        let info = match args.info {
            InfoArg::Null => Info::Null,
            InfoArg::Built { s_type, p_next } if Some(s_type) == info_s_type(command) => {
                Info::Valid(info(!p_next.is_null()))
            }
            InfoArg::Built { .. } => Info::WrongSType,
            InfoArg::Raw(_) => Info::Valid(info(true)),
        };
        let output_null = args.output_null;
        match command {
            Command::GetMemoryWin32Handle => model::Call::Win32Handle {
                memory,
                handle_type: args.handle_type,
                output_null,
            },
            Command::FreeMemory => model::Call::Free { memory },
            Command::AllocateMemory => {
                let info = match info {
                    Info::Null => Info::Null,
                    Info::WrongSType => Info::WrongSType,
                    Info::Valid(ExportInfo { p_next: false, .. }) => {
                        Info::Valid(AllocateInfo::of(Allocation::new(SIZE, 0, None, None)))
                    }
                    Info::Valid(_) => panic!("describe the chain of VkMemoryAllocateInfo"),
                };
                model::Call::Allocate { info, output_null }
            }
            command => model::Call::Export {
                command,
                info,
                output_null,
            },
        }
    }
}
