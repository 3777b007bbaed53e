//! The structural end-to-end tests of every intercepted command, as one table: the rows are the
//! arguments every command shares (a NULL info structure, a wrong `sType`, a pNext where none
//! may be, a NULL output pointer, NULL / garbage / freed / another device's memory, an unknown or
//! destroyed `VkDevice`, a device without the command's extension), the columns the six commands
//! (`COMMANDS`); each row runs for every command that has the argument.
//!
//! Each row runs on the project's test driver (`tests/icd`), where the driver's call counter
//! shows whether a call reached it, and again, for the commands lavapipe has
//! (`vkGetMemoryFdKHR`, `vkAllocateMemory`, `vkFreeMemory`), on lavapipe, in a child process (a
//! test binary loads one driver). The IDs each call must produce come from the model of the rules
//! (`tests/model`), and are asserted exactly, in the model's order, each as users see it; a
//! blocked call returns VK_ERROR_VALIDATION_FAILED_EXT, writes no output and never reaches the
//! driver; a call that goes down reaches it once. Each row also asserts what its message says
//! (the field, the value, what the layer remembers of the memory, "not passed to the driver") and
//! the objects it names; after a blocked call, the memory still works (a valid call is silent).
//!
//! Each command's own value rules (handle types, the RDMA feature, the pNext chain of
//! `VkMemoryAllocateInfo`...) are tested in its own file; the hostile-input matrix
//! (`hostile_*.rs`) sweeps the hostile values of each argument.

use ash::vk::{self, Handle};
use exportcheck_tests::calls::{self, counted, info_s_type, Args, Called, Memories, RawInfo};
use exportcheck_tests::child::{self, Child};
use exportcheck_tests::env::Driver;
use exportcheck_tests::expect::{self, device_name, memory_name};
use exportcheck_tests::hostile::export_device;
use exportcheck_tests::ids::FREE;
use exportcheck_tests::model::handle_type::{
    ANDROID_HARDWARE_BUFFER, MTLBUFFER, NV_OPAQUE_WIN32, NV_OPAQUE_WIN32_KMT, OPAQUE_FD,
    OPAQUE_WIN32_KMT, RDMA_ADDRESS, ZIRCON_VMO,
};
use exportcheck_tests::model::{self, Allocation, Command};
use exportcheck_tests::test_driver::{self, Calls};
use exportcheck_tests::{fds, Captured, Device, Instance, Options, FAILED, SIZE};
use std::ffi::{c_void, CStr};

/// A command's info structure, as messages name it.
struct InfoNames {
    param: &'static str,
    structure: &'static str,
    s_type: &'static str,
    /// The wrong `sType` the rows give it, and its name.
    wrong: (vk::StructureType, &'static str),
}

/// What a call writes to its output.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    /// A new fd of the memory.
    Fd,
    /// A non-zero value, the same for the same memory (remote address, HANDLE, Metal handle).
    Stable,
    /// A new `VkDeviceMemory`.
    Memory,
    /// Nothing (`vkFreeMemory`).
    None,
}

/// One column of the table: a command, and what its rows need to know of it.
struct Cmd {
    command: Command,
    info: Option<InfoNames>,
    /// The output pointer, as messages name it.
    output: Option<&'static str>,
    output_kind: Output,
    /// The memory argument, as messages name it.
    memory_field: Option<&'static str>,
    /// What the message about another device's memory says (`{device}`: the calling device).
    other_device_says: &'static str,
    /// The command's memory: exported with these (KHR, NV) handle types, of the RDMA-capable
    /// memory type (else type 0); how a message describes what it was exported with.
    export: Option<u32>,
    export_nv: Option<u32>,
    rdma_type: bool,
    export_says: &'static str,
    /// The handle type of a valid call, and its name.
    good: u32,
    good_name: &'static str,
    /// The extensions a device without the command's extension leaves out (those that need it
    /// too).
    without: &'static [&'static CStr],
    /// Lavapipe has the command (and the row runs there too).
    on_lavapipe: bool,
}

const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";
const EXPORTED_AS_FD: &str =
    "VkExportMemoryAllocateInfo::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";

const FD: Cmd = Cmd {
    command: Command::GetMemoryFd,
    info: Some(InfoNames {
        param: "pGetFdInfo",
        structure: "VkMemoryGetFdInfoKHR",
        s_type: "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
        wrong: (
            vk::StructureType::MEMORY_ALLOCATE_INFO,
            "VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO",
        ),
    }),
    output: Some("pFd"),
    output_kind: Output::Fd,
    memory_field: Some("pGetFdInfo->memory"),
    other_device_says: "which belongs to another device than {device}",
    export: Some(OPAQUE_FD),
    export_nv: None,
    rdma_type: false,
    export_says: EXPORTED_AS_FD,
    good: OPAQUE_FD,
    good_name: OPAQUE_FD_NAME,
    without: &[
        ash::khr::external_memory_fd::NAME,
        ash::ext::external_memory_dma_buf::NAME,
    ],
    on_lavapipe: true,
};

const COMMANDS: [Cmd; 9] = [
    FD,
    Cmd {
        command: Command::GetMemoryRemoteAddress,
        info: Some(InfoNames {
            param: "pMemoryGetRemoteAddressInfo",
            structure: "VkMemoryGetRemoteAddressInfoNV",
            s_type: "VK_STRUCTURE_TYPE_MEMORY_GET_REMOTE_ADDRESS_INFO_NV",
            wrong: (
                vk::StructureType::MEMORY_ALLOCATE_INFO,
                "VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO",
            ),
        }),
        output: Some("pAddress"),
        output_kind: Output::Stable,
        memory_field: Some("pMemoryGetRemoteAddressInfo->memory"),
        export: Some(RDMA_ADDRESS),
        rdma_type: true,
        export_says: "VkExportMemoryAllocateInfo::handleTypes = \
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV",
        good: RDMA_ADDRESS,
        good_name: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV",
        without: &[ash::nv::external_memory_rdma::NAME],
        on_lavapipe: false,
        ..FD
    },
    Cmd {
        command: Command::GetMemoryWin32Handle,
        info: None,
        output: Some("pHandle"),
        output_kind: Output::Stable,
        memory_field: Some("memory"),
        other_device_says: "which was not allocated from device ({device})",
        export: None,
        export_nv: Some(NV_OPAQUE_WIN32 | NV_OPAQUE_WIN32_KMT),
        export_says: "no VkExportMemoryAllocateInfo, VkExportMemoryAllocateInfoNV::handleTypes = \
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT_NV|\
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT_NV",
        good: NV_OPAQUE_WIN32,
        good_name: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT_NV",
        without: &[ash::nv::external_memory_win32::NAME],
        on_lavapipe: false,
        ..FD
    },
    Cmd {
        command: Command::GetMemoryMetalHandle,
        info: Some(InfoNames {
            param: "pGetMetalHandleInfo",
            structure: "VkMemoryGetMetalHandleInfoEXT",
            s_type: "VK_STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT",
            wrong: (
                vk::StructureType::MEMORY_GET_FD_INFO_KHR,
                "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
            ),
        }),
        output: Some("pHandle"),
        output_kind: Output::Stable,
        memory_field: Some("pGetMetalHandleInfo->memory"),
        export: Some(MTLBUFFER),
        export_says: "VkExportMemoryAllocateInfo::handleTypes = \
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT",
        good: MTLBUFFER,
        good_name: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT",
        without: &[c"VK_EXT_external_memory_metal"],
        on_lavapipe: false,
        ..FD
    },
    Cmd {
        command: Command::GetMemoryWin32HandleKhr,
        info: Some(InfoNames {
            param: "pGetWin32HandleInfo",
            structure: "VkMemoryGetWin32HandleInfoKHR",
            s_type: "VK_STRUCTURE_TYPE_MEMORY_GET_WIN32_HANDLE_INFO_KHR",
            wrong: (
                vk::StructureType::MEMORY_GET_FD_INFO_KHR,
                "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
            ),
        }),
        output: Some("pHandle"),
        output_kind: Output::Stable,
        memory_field: Some("pGetWin32HandleInfo->memory"),
        // A global share handle: exporting it again is valid (an NT handle is exported at most
        // once per memory, VUID-VkMemoryGetWin32HandleInfoKHR-handleType-00663).
        export: Some(OPAQUE_WIN32_KMT),
        export_says: "VkExportMemoryAllocateInfo::handleTypes = \
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        good: OPAQUE_WIN32_KMT,
        good_name: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        without: &[ash::khr::external_memory_win32::NAME],
        on_lavapipe: false,
        ..FD
    },
    Cmd {
        command: Command::GetMemoryZirconHandle,
        info: Some(InfoNames {
            param: "pGetZirconHandleInfo",
            structure: "VkMemoryGetZirconHandleInfoFUCHSIA",
            s_type: "VK_STRUCTURE_TYPE_MEMORY_GET_ZIRCON_HANDLE_INFO_FUCHSIA",
            wrong: (
                vk::StructureType::MEMORY_GET_FD_INFO_KHR,
                "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
            ),
        }),
        output: Some("pZirconHandle"),
        output_kind: Output::Stable,
        memory_field: Some("pGetZirconHandleInfo->memory"),
        export: Some(ZIRCON_VMO),
        export_says: "VkExportMemoryAllocateInfo::handleTypes = \
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA",
        good: ZIRCON_VMO,
        good_name: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA",
        without: &[ash::fuchsia::external_memory::NAME],
        on_lavapipe: false,
        ..FD
    },
    Cmd {
        command: Command::GetMemoryAndroidHardwareBuffer,
        info: Some(InfoNames {
            param: "pInfo",
            structure: "VkMemoryGetAndroidHardwareBufferInfoANDROID",
            s_type: "VK_STRUCTURE_TYPE_MEMORY_GET_ANDROID_HARDWARE_BUFFER_INFO_ANDROID",
            wrong: (
                vk::StructureType::MEMORY_GET_FD_INFO_KHR,
                "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
            ),
        }),
        output: Some("pBuffer"),
        output_kind: Output::Stable,
        memory_field: Some("pInfo->memory"),
        export: Some(ANDROID_HARDWARE_BUFFER),
        export_says: "VkExportMemoryAllocateInfo::handleTypes = \
                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID",
        good: ANDROID_HARDWARE_BUFFER,
        good_name: "VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID",
        without: &[ash::android::external_memory_android_hardware_buffer::NAME],
        on_lavapipe: false,
        ..FD
    },
    Cmd {
        command: Command::AllocateMemory,
        info: Some(InfoNames {
            param: "pAllocateInfo",
            structure: "VkMemoryAllocateInfo",
            s_type: "VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO",
            wrong: (
                vk::StructureType::MEMORY_GET_FD_INFO_KHR,
                "VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR",
            ),
        }),
        output: Some("pMemory"),
        output_kind: Output::Memory,
        memory_field: None,
        export: None,
        good: 0,
        without: &[],
        ..FD
    },
    Cmd {
        command: Command::FreeMemory,
        info: None,
        output: None,
        output_kind: Output::None,
        memory_field: Some("memory"),
        other_device_says: "which was not allocated from device ({device})",
        good: 0,
        without: &[],
        ..FD
    },
];

/// The column of `command`.
fn column(command: Command) -> &'static Cmd {
    COMMANDS
        .iter()
        .find(|c| c.command == command)
        .expect("every command has a column")
}

/// Runs `row` for every command `applies` to: here on the test driver, then (in the parent) a
/// child process of this test that runs it on lavapipe for the commands lavapipe has.
fn table(applies: impl Fn(&Cmd) -> bool, row: impl Fn(&World, &Cmd)) {
    let driver = if child::is_child() {
        Driver::Lavapipe
    } else {
        Driver::TestDriver
    };
    let mut ran = 0;
    for cmd in COMMANDS
        .iter()
        .filter(|c| applies(c) && (driver == Driver::TestDriver || c.on_lavapipe))
    {
        eprintln!("{driver:?}: {}", cmd.command.name());
        let world = World::new(driver);
        row(&world, cmd);
        ran += 1;
    }
    assert!(ran > 0, "a row runs for some command on {driver:?}");
    if !child::is_child() && COMMANDS.iter().any(|c| applies(c) && c.on_lavapipe) {
        Child::new("lavapipe").run();
    }
}

/// How a call that is not blocked ends.
#[derive(Clone, Copy)]
enum Down {
    /// It reached the driver once, which returned this.
    Returns(vk::Result),
    /// The device's driver has no entry point for it: VK_ERROR_EXTENSION_NOT_PRESENT, nothing
    /// written, the driver never called.
    NoEntryPoint,
}

const SUCCEEDS: Down = Down::Returns(vk::Result::SUCCESS);

/// `cmd`'s well-formed call on `dev` about `memory`.
fn good(cmd: &Cmd, dev: &Device, memory: vk::DeviceMemory) -> Args {
    Args::new(cmd.command, dev.handle(), memory, cmd.good)
}

/// `cmd`'s live memory on `dev` (none for `vkAllocateMemory`), and what the layer knows of it.
fn live_memory(w: &World, cmd: &Cmd, dev: &Device) -> (vk::DeviceMemory, Memories) {
    let mut memories = Memories::default();
    if cmd.memory_field.is_none() {
        return (vk::DeviceMemory::null(), memories);
    }
    let memory = w.memory(cmd, dev);
    memories.live(memory, w.allocation(cmd));
    (memory, memories)
}

/// Asserts that the message mentions each of `parts` and names `dev` in `pObjects`.
#[track_caller]
fn says(m: &Captured, dev: &Device, parts: &[&str]) {
    expect::mentions(m, parts);
    expect::object(m, vk::ObjectType::DEVICE, dev.handle().as_raw());
}

/// One row's world: an instance of its own (exclusive: the rows use made-up and freed handles,
/// findings about unknown devices go to every instance, and the driver's counters are
/// process-wide), on one driver.
struct World {
    inst: Instance,
    driver: Driver,
}

impl World {
    fn new(driver: Driver) -> Self {
        let inst = match driver {
            Driver::Lavapipe => Instance::exclusive(),
            Driver::TestDriver => test_driver::exclusive(None),
            Driver::LavapipeAndTestDriver | Driver::SwiftShader | Driver::Real => {
                unreachable!("one driver at a time")
            }
        };
        Self { inst, driver }
    }

    fn options(&self) -> Options {
        match self.driver {
            Driver::Lavapipe => Options::default(),
            Driver::TestDriver => test_driver::options(None),
            Driver::LavapipeAndTestDriver | Driver::SwiftShader | Driver::Real => {
                unreachable!("one driver at a time")
            }
        }
    }

    /// A device with every export extension the driver has (the test driver's: and the RDMA
    /// feature).
    fn device(&self) -> Device {
        match self.driver {
            Driver::Lavapipe => self.inst.fd_device(),
            Driver::TestDriver => export_device(&self.inst),
            Driver::LavapipeAndTestDriver | Driver::SwiftShader | Driver::Real => {
                unreachable!("one driver at a time")
            }
        }
    }

    /// The same device without `cmd`'s extension (the RDMA feature still enabled on the test
    /// driver, so that the extension is the one thing it lacks).
    fn device_without(&self, cmd: &Cmd) -> Device {
        let full = self.device();
        let extensions: Vec<&CStr> = full
            .extensions
            .iter()
            .map(|e| e.as_c_str())
            .filter(|e| !cmd.without.contains(e))
            .collect();
        let device = self.inst.device_with(&extensions, full.rdma_feature);
        drop(full);
        device
    }

    /// The memory type of `cmd`'s memory.
    fn memory_type(&self, cmd: &Cmd) -> u32 {
        if cmd.rdma_type {
            let flags =
                vk::MemoryPropertyFlags::DEVICE_LOCAL | vk::MemoryPropertyFlags::RDMA_CAPABLE_NV;
            self.inst.memory_type(flags)
        } else {
            0
        }
    }

    /// What `cmd`'s memory is allocated with.
    fn allocation(&self, cmd: &Cmd) -> Allocation {
        Allocation::new(SIZE, self.memory_type(cmd), cmd.export, cmd.export_nv)
    }

    /// `cmd`'s memory on `dev` (silently allocated).
    fn memory(&self, cmd: &Cmd, dev: &Device) -> vk::DeviceMemory {
        let memory = self.memory_unchecked(cmd, dev);
        expect::silent(&self.inst, model::ids::ALLOCATE);
        memory
    }

    /// `cmd`'s memory on `dev`, leaving what the allocation got reported to the caller.
    fn memory_unchecked(&self, cmd: &Cmd, dev: &Device) -> vk::DeviceMemory {
        dev.allocate_exporting(
            SIZE,
            self.memory_type(cmd),
            cmd.export.map(vk::ExternalMemoryHandleTypeFlags::from_raw),
            cmd.export_nv
                .map(vk::ExternalMemoryHandleTypeFlagsNV::from_raw),
        )
    }

    /// What the model says of `args`, a call of `cmd` on `dev` (a device the layer knows) about
    /// `memories`.
    fn expected(
        &self,
        cmd: &Cmd,
        dev: &Device,
        memories: &Memories,
        args: &Args,
    ) -> model::Expected {
        let device = self.inst.model_device(dev);
        model::expected(&device, &memories.model_call(cmd.command, args))
    }

    /// Makes the call through `via`'s function pointers and asserts what it did: blocked
    /// (VK_ERROR_VALIDATION_FAILED_EXT, nothing written, the driver not called), or not, ending
    /// as `down` says.
    #[track_caller]
    fn call(
        &self,
        cmd: &Cmd,
        via: &Device,
        args: Args,
        expected: &model::Expected,
        down: Down,
    ) -> Called {
        let counter = (self.driver == Driver::TestDriver).then(|| Calls::of(counted(cmd.command)));
        // SAFETY: the rows' pointers are NULL or point to live structures; bad handles are the
        // point.
        let called = unsafe { calls::call(cmd.command, via, &args) };
        let calls = counter.map(|c| c.since());
        let has_result = cmd.command != Command::FreeMemory;
        let (result, driver_calls) = match (expected.blocked, down) {
            (true, _) => (FAILED, 0),
            (false, Down::Returns(result)) => (result, 1),
            (false, Down::NoEntryPoint) => (vk::Result::ERROR_EXTENSION_NOT_PRESENT, 0),
        };
        if has_result {
            assert_eq!(called.result, Some(result), "{args:?}");
        }
        if result != vk::Result::SUCCESS {
            assert!(
                !called.written,
                "the output must not be written: {called:?}"
            );
        }
        if let Some(calls) = calls {
            assert_eq!(
                calls,
                driver_calls,
                "calls of the driver's {}",
                cmd.command.name()
            );
        }
        called
    }

    /// Asserts that `inst` received exactly the model's IDs for `cmd`, in the model's order
    /// (silence for none), each as users see it; returns the messages.
    #[track_caller]
    fn messages(inst: &Instance, cmd: &Cmd, expected: &model::Expected) -> Vec<Captured> {
        if expected.is_silent() {
            expect::silent(inst, cmd.command.name());
            Vec::new()
        } else {
            expect::only(inst, cmd.command.name(), &expected.ids)
        }
    }

    /// [`World::call`], then [`World::messages`] on this world's instance.
    #[track_caller]
    fn check(
        &self,
        cmd: &Cmd,
        via: &Device,
        args: Args,
        expected: &model::Expected,
        down: Down,
    ) -> (Called, Vec<Captured>) {
        let called = self.call(cmd, via, args, expected, down);
        (called, Self::messages(&self.inst, cmd, expected))
    }

    /// The call of `args` on `dev` (whose memory is `memories`), through `dev`'s pointers,
    /// checked against the model ([`World::check`]; a call that goes down succeeds).
    #[track_caller]
    fn run(
        &self,
        cmd: &Cmd,
        dev: &Device,
        memories: &Memories,
        args: Args,
    ) -> (Called, Vec<Captured>) {
        let expected = self.expected(cmd, dev, memories, &args);
        self.check(cmd, dev, args, &expected, SUCCEEDS)
    }

    /// A valid call of `cmd` on `dev` about `memory`: silent, down once, its output valid.
    /// Returns the output; what it made is given back.
    #[track_caller]
    fn valid_call(&self, cmd: &Cmd, dev: &Device, memory: vk::DeviceMemory) -> u64 {
        let mut memories = Memories::default();
        memories.live(memory, self.allocation(cmd));
        let args = good(cmd, dev, memory);
        let expected = self.expected(cmd, dev, &memories, &args);
        assert!(expected.is_silent() && !expected.blocked, "{expected:?}");
        let (called, _) = self.check(cmd, dev, args, &expected, SUCCEEDS);
        match cmd.output_kind {
            Output::Fd => {
                let st = fds::assert_open(called.output as i32);
                assert!(
                    st.st_size >= SIZE as i64,
                    "the fd is the memory: {}",
                    st.st_size
                );
            }
            Output::Stable | Output::Memory => assert!(called.written && called.output != 0),
            Output::None => {}
        }
        calls::release(cmd.command, dev, called);
        called.output
    }

    /// After blocked calls about `memory` of `dev`: it is still live and works (a valid call of
    /// `cmd` is silent; for `vkFreeMemory`, a valid export), and frees silently.
    #[track_caller]
    fn still_works(&self, cmd: &Cmd, dev: &Device, memory: vk::DeviceMemory) {
        match cmd.command {
            Command::AllocateMemory => {
                self.valid_call(cmd, dev, memory);
                expect::silent(&self.inst, FREE);
            }
            Command::FreeMemory => {
                expect::still_exports_fd(&self.inst, dev, memory);
                self.valid_call(cmd, dev, memory);
            }
            _ => {
                self.valid_call(cmd, dev, memory);
                dev.free(memory);
                expect::silent(&self.inst, FREE);
            }
        }
    }

    /// How a freed allocation of `cmd` on `dev` is described: `<memory>[ "<name>"], which was
    /// already freed with vkFreeMemory (it had been allocated on ...)`.
    fn freed_says(&self, cmd: &Cmd, dev: &Device, memory: vk::DeviceMemory, name: &str) -> String {
        let index = self.memory_type(cmd);
        // SAFETY: the instance's own physical device.
        let types = unsafe {
            self.inst
                .instance
                .get_physical_device_memory_properties(self.inst.physical_device)
        };
        let flags =
            format!("{:?}", types.memory_types[index as usize].property_flags).replace(" | ", "|");
        format!(
            "{}{name}, which was already freed with vkFreeMemory (it had been allocated on {} \
             with allocationSize {SIZE}, memoryTypeIndex {index} [{flags}], {})",
            memory_name(memory),
            device_name(dev),
            cmd.export_says
        )
    }
}

#[test]
fn a_null_info_structure_is_blocked() {
    table(
        |c| c.info.is_some(),
        |w, cmd| {
            let info = cmd.info.as_ref().expect("an info structure");
            let dev = w.device();
            let args = good(cmd, &dev, vk::DeviceMemory::null()).null_info();
            let (_, m) = w.run(cmd, &dev, &Memories::default(), args);
            let null = format!("{} is NULL", info.param);
            let structure = format!("it must point to a valid {}", info.structure);
            says(&m[0], &dev, &[&null, &structure, NOT_PASSED]);
        },
    );
}

/// What every message about a blocked call says.
const NOT_PASSED: &str = "not passed to the driver";

#[test]
fn a_null_output_pointer_is_blocked() {
    table(
        |c| c.output.is_some(),
        |w, cmd| {
            let dev = w.device();
            let (memory, memories) = live_memory(w, cmd, &dev);
            let (_, m) = w.run(cmd, &dev, &memories, good(cmd, &dev, memory).null_output());
            let null = format!("{} is NULL", cmd.output.expect("an output"));
            says(&m[0], &dev, &[&null, NOT_PASSED]);
            w.still_works(cmd, &dev, memory);
        },
    );
}

#[test]
fn a_wrong_s_type_is_blocked() {
    table(
        |c| c.info.is_some(),
        |w, cmd| {
            let info = cmd.info.as_ref().expect("an info structure");
            let dev = w.device();
            let (memory, memories) = live_memory(w, cmd, &dev);
            // Otherwise a good call: only the sType is wrong.
            let args = good(cmd, &dev, memory).s_type(info.wrong.0);
            let (_, m) = w.run(cmd, &dev, &memories, args);
            let wrong = format!("{}->sType is {}", info.param, info.wrong.1);
            let right = format!("it must be {}", info.s_type);
            expect::mentions(&m[0], &[&wrong, &right, NOT_PASSED]);
            w.still_works(cmd, &dev, memory);
        },
    );
}

#[test]
fn a_p_next_where_no_structure_extends_the_info_is_reported_and_goes_down_as_made() {
    table(
        |c| c.info.is_some() && c.command != Command::AllocateMemory,
        |w, cmd| {
            let info = cmd.info.as_ref().expect("an info structure");
            let dev = w.device();
            let (memory, memories) = live_memory(w, cmd, &dev);
            // A valid structure, but none extends the info structure.
            let stray = vk::ExportMemoryAllocateInfo::default()
                .handle_types(vk::ExternalMemoryHandleTypeFlags::from_raw(cmd.good));
            let stray_ptr = (&raw const stray).cast::<c_void>();
            let with_next = RawInfo {
                s_type: info_s_type(cmd.command).expect("an sType"),
                p_next: stray_ptr,
                memory,
                handle_type: cmd.good,
            };
            let args = good(cmd, &dev, memory).raw_info((&raw const with_next).cast());
            let (called, m) = w.run(cmd, &dev, &memories, args);
            assert!(called.written, "the driver answered");
            assert_eq!(
                with_next.p_next, stray_ptr,
                "the layer never rewrites the app's structure"
            );
            if w.driver == Driver::TestDriver {
                assert_eq!(
                    test_driver::last_p_next(counted(cmd.command)),
                    stray_ptr as usize,
                    "the driver got the app's own structure, pNext and all"
                );
            }
            expect::mentions(
                &m[0],
                &[
                    &format!("{}->pNext is not NULL", info.param),
                    &format!("no structure extends {}", info.structure),
                    "The call goes down as the app made it",
                ],
            );
            if cmd.output_kind == Output::Fd {
                let st = fds::assert_open(called.output as i32);
                assert!(st.st_size >= SIZE as i64, "the fd is the memory");
                calls::release(cmd.command, &dev, called);
                w.still_works(cmd, &dev, memory);
            } else {
                // The output is the memory's own: the same as a clean call returns.
                assert_eq!(w.valid_call(cmd, &dev, memory), called.output);
                dev.free(memory);
                expect::silent(&w.inst, FREE);
            }
        },
    );
}

#[test]
fn null_memory_is_blocked_but_freeing_it_is_valid() {
    table(
        |c| c.memory_field.is_some(),
        |w, cmd| {
            let dev = w.device();
            let args = good(cmd, &dev, vk::DeviceMemory::null());
            let (_, m) = w.run(cmd, &dev, &Memories::default(), args);
            match cmd.memory_field {
                // "If memory is not VK_NULL_HANDLE...": nothing to free, and nothing to say.
                _ if cmd.command == Command::FreeMemory => assert!(m.is_empty()),
                Some(field) => {
                    let null = format!("{field} is VK_NULL_HANDLE");
                    says(&m[0], &dev, &[&null, NOT_PASSED]);
                }
                None => unreachable!(),
            }
        },
    );
}

#[test]
fn garbage_memory_is_blocked() {
    table(
        |c| c.memory_field.is_some(),
        |w, cmd| {
            let dev = w.device();
            let args = good(cmd, &dev, vk::DeviceMemory::from_raw(0xdead_0000));
            let (_, m) = w.run(cmd, &dev, &Memories::default(), args);
            expect::garbage_memory(&m[0], cmd.memory_field.expect("a memory argument"));
            expect::mentions(&m[0], &[NOT_PASSED]);
        },
    );
}

#[test]
fn freed_memory_is_blocked_and_described_by_what_it_was() {
    table(
        |c| c.memory_field.is_some(),
        |w, cmd| {
            let dev = w.device();
            let plain = w.memory(cmd, &dev);
            let named = w.memory(cmd, &dev);
            dev.name(named, c"staging");
            // Both freed before either is used: the layer remembers its last 64 frees.
            dev.free(plain);
            dev.free(named);
            expect::silent(&w.inst, FREE);
            let mut memories = Memories::default();
            memories.freed(plain);
            memories.freed(named);
            let field = cmd.memory_field.expect("a memory argument");
            for (memory, name) in [(plain, None), (named, Some("staging"))] {
                let (_, m) = w.run(cmd, &dev, &memories, good(cmd, &dev, memory));
                let quoted = name.map_or(String::new(), |n| format!(" \"{n}\""));
                let freed = format!("{field} is {}", w.freed_says(cmd, &dev, memory, &quoted));
                expect::mentions(&m[0], &[&freed, NOT_PASSED]);
                let shown = expect::object(&m[0], vk::ObjectType::DEVICE_MEMORY, memory.as_raw());
                if name.is_some() {
                    assert_eq!(shown.as_deref(), name, "pObjects names the freed memory");
                }
            }
            // The device is fine afterwards.
            let again = w.memory(cmd, &dev);
            w.still_works(cmd, &dev, again);
        },
    );
}

#[test]
fn memory_of_another_device_is_blocked() {
    table(
        |c| c.memory_field.is_some(),
        |w, cmd| {
            let a = w.device();
            let b = w.device();
            let mem_b = w.memory(cmd, &b);
            let mut memories = Memories::default();
            memories.foreign(mem_b);
            let (_, m) = w.run(cmd, &a, &memories, good(cmd, &a, mem_b));
            let other = cmd.other_device_says.replace("{device}", &device_name(&a));
            expect::memory_of_another_device(
                &m[0],
                cmd.memory_field.expect("a memory argument"),
                &a,
                (&b, mem_b),
                &[&other, NOT_PASSED],
            );
            // Not used, nor freed: it is still B's live memory.
            w.still_works(cmd, &b, mem_b);
        },
    );
}

#[test]
fn an_unknown_device_is_blocked_and_reported_to_every_instance() {
    table(
        |_| true,
        |w, cmd| {
            let other = w.inst.another(w.options());
            let dev = w.device();
            let (memory, _) = live_memory(w, cmd, &dev);
            // The layer's own function, as vkGetDeviceProcAddr handed it out for `dev`, with a
            // made-up VkDevice: the layer must not dereference it or pass it down.
            let args = good(cmd, &dev, memory).on(vk::Device::from_raw(0x1234));
            let expected = model::Expected::unknown_device(cmd.command);
            w.call(cmd, &dev, args, &expected, SUCCEEDS);
            let [id] = expected.ids[..] else {
                panic!("one ID: {expected:?}")
            };
            let name = cmd.command.name();
            let unknown =
                format!("{name}(): device (0x1234) is not a VkDevice created through this layer");
            expect::unknown_device(&[&w.inst, &other], name, id, &[&unknown, NOT_PASSED]);
            w.still_works(cmd, &dev, memory);
            drop(dev);
            drop(other);
        },
    );
}

#[test]
fn a_destroyed_device_is_blocked_as_unknown() {
    table(
        |_| true,
        |w, cmd| {
            // Made before the device is destroyed, so that it cannot have the destroyed one's
            // handle: the layer's functions come from it.
            let keeper = w.device();
            let gone = w.device();
            let handle = gone.handle();
            let (memory, _) = live_memory(w, cmd, &gone);
            // Freed first: destroying a device with live memory is itself invalid
            // (VUID-vkDestroyDevice-device-00378), and the driver's record of it would leak.
            if memory != vk::DeviceMemory::null() {
                gone.free(memory);
                expect::silent(&w.inst, FREE);
            }
            drop(gone); // vkDestroyDevice.
            let args = good(cmd, &keeper, memory).on(handle);
            let expected = model::Expected::unknown_device(cmd.command);
            let (_, m) = w.check(cmd, &keeper, args, &expected, SUCCEEDS);
            let destroyed = format!(
                "device (0x{:x}) is not a VkDevice created through this layer (never created, or \
                 already destroyed)",
                handle.as_raw()
            );
            expect::mentions(&m[0], &[&destroyed]);
            drop(keeper);
        },
    );
}

#[test]
fn a_call_on_a_device_without_the_extension_is_a_warning() {
    table(
        |c| c.command.extension().is_some(),
        |w, cmd| {
            let a = w.device();
            let b = w.device_without(cmd);
            let extension = cmd.command.extension().expect("an extension").name();
            assert!(
                w.inst.device_proc_addr(&b, counted(cmd.command)).is_none(),
                "no {} for a device without {extension}",
                cmd.command.name()
            );
            // Without the extension, its handle types are no valid value on B: its export
            // structure already says so (the model tells), and so does the export.
            let not_enabled = format!(
                "{} belongs to {extension}, which the device was created without",
                cmd.good_name
            );
            let allocation = w.allocation(cmd);
            let mem_b = w.memory_unchecked(cmd, &b);
            let allocated =
                model::expected(&w.inst.model_device(&b), &model::Call::allocate(allocation));
            for m in World::messages(&w.inst, column(Command::AllocateMemory), &allocated) {
                expect::mentions(&m, &[&not_enabled]);
            }
            let mut memories = Memories::default();
            memories.live(mem_b, allocation);
            // Through A's function, on B: not blocked, but B's driver has no entry point for it.
            let args = good(cmd, &b, mem_b);
            let expected = w.expected(cmd, &b, &memories, &args);
            let (_, m) = w.check(cmd, &a, args, &expected, Down::NoEntryPoint);
            let without = format!(
                "device is {}, which was created without {extension} in \
                 VkDeviceCreateInfo::ppEnabledExtensionNames",
                device_name(&b)
            );
            says(&m[0], &b, &[&without]);
            if let (Some(m), Some(info)) = (m.get(1), &cmd.info) {
                let invalid = format!(
                    "{}->handleType is {}, which is not a valid VkExternalMemoryHandleTypeFlagBits \
                     value on {}: {not_enabled}.",
                    info.param,
                    cmd.good_name,
                    device_name(&b)
                );
                expect::mentions(m, &[&invalid]);
            }
            b.free(mem_b);
            expect::silent(&w.inst, FREE);
            drop((a, b));
        },
    );
}
