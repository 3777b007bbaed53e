//! vkGetMemoryWin32HandleNV end to end: the real loader, the layer, and the project's test driver
//! (`tests/icd`), which exposes VK_NV_external_memory_win32 on Linux with made-up HANDLE values.
//! Each bad call yields exactly its ID; blocked calls return VK_ERROR_VALIDATION_FAILED_EXT,
//! leave `*pHandle` alone and never reach the driver (its call counter does not move); the others
//! are reported and go down. Also the NV export structure's own rules in vkAllocateMemory.

use ash::vk::{self, Handle};
use exportcheck_tests::env::Driver;
use exportcheck_tests::test_driver::Calls;
use exportcheck_tests::{expect, Device, Instance, Options, OPAQUE_FD};
use std::ffi::{c_void, CStr};

const CMD: &str = "vkGetMemoryWin32HandleNV";
const COUNTED: &CStr = c"vkGetMemoryWin32HandleNV";
const ALLOCATE: &str = "vkAllocateMemory";
const FREE: &str = "vkFreeMemory";

const HANDLE_TYPE_01326: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-01326";
const DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-device-parameter";
const MEMORY_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parameter";
const HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-parameter";
const HANDLE_TYPE_REQUIRED: &str = "VUID-vkGetMemoryWin32HandleNV-handleType-requiredbitmask";
const PHANDLE_PARAM: &str = "VUID-vkGetMemoryWin32HandleNV-pHandle-parameter";
const MEMORY_PARENT: &str = "VUID-vkGetMemoryWin32HandleNV-memory-parent";
const MULTIPLE_BITS: &str = "EXPORTCHECK-win32nv-handle-type-multiple-bits";
const EXTENSION_NOT_ENABLED: &str = "EXPORTCHECK-extension-not-enabled";
const ALLOC_PNEXT_00640: &str = "VUID-VkMemoryAllocateInfo-pNext-00640";
const EXPORT_NV_HANDLE_TYPES_PARAM: &str =
    "VUID-VkExportMemoryAllocateInfoNV-handleTypes-parameter";
const DRIVER_NULL_HANDLE: &str = "EXPORTCHECK-driver-null-win32-handle";

const OPAQUE: vk::ExternalMemoryHandleTypeFlagsNV =
    vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
const KMT: vk::ExternalMemoryHandleTypeFlagsNV =
    vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT;
const OPAQUE_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT_NV";
const KMT_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT_NV";
const FAILED: vk::Result = vk::Result::ERROR_VALIDATION_FAILED_EXT;
const SIZE: u64 = 65536;
/// What `*pHandle` is pre-filled with, to see whether anything was written.
const SENTINEL: vk::HANDLE = -7;
const NULL_HANDLE: &str = r#"{"misbehave":{"null_win32_handle":true}}"#;

fn options(driver_config: Option<&'static str>) -> Options {
    Options {
        driver: Driver::TestDriver,
        driver_config,
        ..Options::default()
    }
}

fn instance() -> Instance {
    Instance::with(options(None))
}

fn instance_with(config: &'static str) -> Instance {
    Instance::with(options(Some(config)))
}

/// For tests that read the driver's call counter or use freed or made-up handles.
fn exclusive() -> Instance {
    Instance::exclusive_with(options(None))
}

/// A device with VK_NV_external_memory and VK_NV_external_memory_win32.
fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::nv::external_memory::NAME,
        ash::nv::external_memory_win32::NAME,
    ])
}

/// Memory of type 0 with `VkExportMemoryAllocateInfoNV { handleTypes: export_nv }` if given.
fn nv_memory(
    dev: &Device,
    export_nv: Option<vk::ExternalMemoryHandleTypeFlagsNV>,
) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, None, export_nv)
}

/// `vkGetMemoryWin32HandleNV`; `*pHandle` is pre-filled with [`SENTINEL`].
fn call(
    dev: &Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
) -> (vk::Result, vk::HANDLE) {
    let mut handle = SENTINEL;
    // SAFETY: a valid output pointer; the memory and type may be bad on purpose.
    let result = unsafe { dev.get_win32_handle_raw(memory, handle_type, &mut handle) };
    (result, handle)
}

fn device_name(dev: &Device) -> String {
    format!("VkDevice 0x{:x}", dev.handle().as_raw())
}

fn memory_name(memory: vk::DeviceMemory) -> String {
    format!("VkDeviceMemory 0x{:x}", memory.as_raw())
}

/// After a blocked call: the memory still exports, silently.
fn still_exports(inst: &Instance, dev: &Device, memory: vk::DeviceMemory) {
    let (r, handle) = call(dev, memory, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle != 0 && handle != SENTINEL, "{handle:#x}");
    expect::silent(inst, CMD);
}

#[test]
fn handles_are_non_zero_distinct_per_allocation_and_type_and_silent() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let a = nv_memory(&dev, Some(OPAQUE | KMT));
    let b = nv_memory(&dev, Some(OPAQUE | KMT));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut handles = Vec::new();
    for memory in [a, b] {
        for handle_type in [OPAQUE, KMT] {
            let (r, handle) = call(&dev, memory, handle_type);
            assert_eq!(r, vk::Result::SUCCESS);
            calls.assert(1, "a valid call goes down once");
            assert!(
                handle != 0 && handle != SENTINEL,
                "the driver wrote no handle: {handle:#x}"
            );
            assert!(!handles.contains(&handle), "{handle:#x} handed out twice");
            handles.push(handle);
        }
    }
    expect::silent(&inst, CMD);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(a);
    dev.free(b);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn handle_type_not_in_the_nv_export_info_is_01326() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, mem, KMT);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_01326);
    expect::mentions(
        &m,
        &[
            &format!(
                "vkGetMemoryWin32HandleNV(): handleType is {KMT_NAME}, which was not in \
                 VkExportMemoryAllocateInfoNV::handleTypes ({OPAQUE_NAME}) when {} (allocated on {}",
                memory_name(mem),
                device_name(&dev)
            ),
            &format!("VkExportMemoryAllocateInfoNV::handleTypes = {OPAQUE_NAME}) was allocated."),
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn memory_without_nv_export_info_is_01326() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let plain = nv_memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, plain, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_01326);
    expect::mentions(
        &m,
        &[
            &format!(
                "handleType is {OPAQUE_NAME}, but {} (allocated on {}",
                memory_name(plain),
                device_name(&dev)
            ),
            "no VkExportMemoryAllocateInfo) was allocated without a VkExportMemoryAllocateInfoNV \
             in the pNext chain of VkMemoryAllocateInfo.",
        ],
    );
    assert!(!m.text.contains("which was not in"), "{}", m.text);
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, plain.as_raw());

    // The KHR structure does not count: vkGetMemoryWin32HandleNV needs the NV one.
    let khr = dev.allocate_exporting(
        SIZE,
        0,
        Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32),
        None,
    );
    // The test driver does not offer KHR OPAQUE_WIN32 export (only the NV path): 00656.
    expect::one(
        &inst,
        ALLOCATE,
        "VUID-VkExportMemoryAllocateInfo-handleTypes-00656",
    );
    let (r, _) = call(&dev, khr, OPAQUE);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_01326);
    expect::mentions(
        &m,
        &[
            "VkExportMemoryAllocateInfo::handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT)",
            "was allocated without a VkExportMemoryAllocateInfoNV",
        ],
    );
    dev.free(plain);
    dev.free(khr);
    drop(dev);
}

#[test]
fn unknown_device_is_blocked_and_reported_to_every_instance() {
    let inst = exclusive();
    let other = inst.another(options(None));
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    // The layer's own function, as vkGetDeviceProcAddr handed it out for `dev`.
    let get = dev.win32_handle.expect("vkGetMemoryWin32HandleNV");
    let calls = Calls::of(COUNTED);
    let mut handle = SENTINEL;
    // SAFETY: a made-up VkDevice on purpose; the layer must not dereference it or pass it down.
    let r = unsafe { get(vk::Device::from_raw(0x1234), mem, OPAQUE, &mut handle) };
    assert_eq!(r, FAILED);
    assert_eq!(handle, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    for instance in [&inst, &other] {
        let m = expect::one(instance, CMD, DEVICE_PARAM);
        expect::mentions(
            &m,
            &[
                "vkGetMemoryWin32HandleNV(): device (0x1234) is not a VkDevice created through \
                 this layer",
                "not passed to the driver",
            ],
        );
        expect::object(&m, vk::ObjectType::DEVICE, 0x1234);
    }
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
    drop(other);
}

#[test]
fn null_memory_is_blocked() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let calls = Calls::of(COUNTED);
    let (r, handle) = call(&dev, vk::DeviceMemory::null(), OPAQUE);
    assert_eq!(r, FAILED);
    assert_eq!(handle, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARAM);
    expect::mentions(
        &m,
        &["memory is VK_NULL_HANDLE", "not passed to the driver"],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    drop(dev);
}

#[test]
fn freed_memory_is_blocked_and_described() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE | KMT));
    dev.name(mem, c"shared-with-d3d");
    dev.free(mem);
    expect::silent(&inst, FREE);
    let calls = Calls::of(COUNTED);
    let (r, handle) = call(&dev, mem, OPAQUE);
    assert_eq!(r, FAILED);
    assert_eq!(handle, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARAM);
    expect::mentions(
        &m,
        &[
            &format!(
                "memory is {} \"shared-with-d3d\", which was already freed with vkFreeMemory (it \
                 had been allocated on {} with allocationSize {SIZE}",
                memory_name(mem),
                device_name(&dev)
            ),
            &format!("VkExportMemoryAllocateInfoNV::handleTypes = {OPAQUE_NAME}|{KMT_NAME}"),
            "not passed to the driver",
        ],
    );
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw()).as_deref(),
        Some("shared-with-d3d")
    );
    drop(dev);
}

#[test]
fn garbage_memory_is_blocked() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let garbage = vk::DeviceMemory::from_raw(0xdead_0000);
    let calls = Calls::of(COUNTED);
    let (r, handle) = call(&dev, garbage, OPAQUE);
    assert_eq!(r, FAILED);
    assert_eq!(handle, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARAM);
    expect::mentions(
        &m,
        &["memory is VkDeviceMemory 0xdead0000, which is not a live VkDeviceMemory"],
    );
    assert!(!m.text.contains("already freed"), "{}", m.text);
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, 0xdead_0000);
    drop(dev);
}

#[test]
fn undefined_handle_type_bits_are_handle_type_parameter_only() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let garbage = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x100);
    // Even on memory whose NV export structure claimed the same undefined bit.
    for export in [OPAQUE | KMT, garbage] {
        let mem = nv_memory(&dev, Some(export));
        if export == garbage {
            expect::one(&inst, ALLOCATE, EXPORT_NV_HANDLE_TYPES_PARAM);
        } else {
            expect::silent(&inst, ALLOCATE);
        }
        let mut calls = Calls::of(COUNTED);
        let (r, handle) = call(&dev, mem, garbage);
        calls.assert(1, "reported, then passed down");
        assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
        assert_ne!(handle, SENTINEL);
        let m = expect::one(&inst, CMD, HANDLE_TYPE_PARAM);
        expect::mentions(
            &m,
            &[
                "handleType is 0x100 (unknown bits), which is not a combination of \
               VkExternalMemoryHandleTypeFlagBitsNV values",
            ],
        );
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        dev.free(mem);
    }
    expect::driver_only(&inst, CMD, &[]);
    drop(dev);
}

#[test]
fn zero_handle_type_is_requiredbitmask() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, mem, vk::ExternalMemoryHandleTypeFlagsNV::empty());
    calls.assert(1, "reported, then passed down");
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_REQUIRED);
    expect::mentions(
        &m,
        &["vkGetMemoryWin32HandleNV(): handleType is 0; it must name the handle type to export."],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn null_p_handle_is_blocked() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    let calls = Calls::of(COUNTED);
    // SAFETY: NULL pHandle on purpose; the other arguments are valid.
    let r = unsafe { dev.get_win32_handle_raw(mem, OPAQUE, std::ptr::null_mut()) };
    assert_eq!(r, FAILED);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, PHANDLE_PARAM);
    expect::mentions(&m, &["pHandle is NULL", "not passed to the driver"]);
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
}

#[test]
fn memory_of_another_device_is_memory_parent_and_blocked() {
    let inst = exclusive();
    let a = win32_device(&inst);
    let b = win32_device(&inst);
    let mem_b = nv_memory(&b, Some(OPAQUE));
    let calls = Calls::of(COUNTED);
    let (r, handle) = call(&a, mem_b, OPAQUE);
    assert_eq!(r, FAILED);
    assert_eq!(handle, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARENT);
    expect::mentions(
        &m,
        &[
            &format!(
                "memory is {} (allocated on {}",
                memory_name(mem_b),
                device_name(&b)
            ),
            &format!("which was not allocated from device ({})", device_name(&a)),
            "not passed to the driver",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, a.handle().as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, b.handle().as_raw());
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem_b.as_raw());
    still_exports(&inst, &b, mem_b);
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn two_handle_types_at_once_is_a_warning_and_goes_down() {
    let inst = exclusive();
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE | KMT));
    let calls = Calls::of(COUNTED);
    let (r, handle) = call(&dev, mem, OPAQUE | KMT);
    assert_eq!(calls.since(), 1, "a warning does not stop the call");
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(handle != 0 && handle != SENTINEL, "{handle:#x}");
    let m = expect::one(&inst, CMD, MULTIPLE_BITS);
    expect::mentions(
        &m,
        &[&format!(
            "handleType is {OPAQUE_NAME}|{KMT_NAME}: more than one bit, but the command returns a \
             single HANDLE of one type; pass one bit."
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn call_on_a_device_without_the_extension_is_a_warning() {
    let inst = exclusive();
    let a = win32_device(&inst);
    let b = inst.device(&[ash::nv::external_memory::NAME]);
    assert!(
        inst.device_proc_addr(&b, COUNTED).is_none(),
        "no vkGetMemoryWin32HandleNV for a device without the extension"
    );
    let mem_b = nv_memory(&b, Some(OPAQUE));
    let get = a.win32_handle.expect("vkGetMemoryWin32HandleNV");
    let calls = Calls::of(COUNTED);
    let mut handle = SENTINEL;
    // SAFETY: valid arguments; B has no vkGetMemoryWin32HandleNV, which is what is tested.
    let r = unsafe { get(b.handle(), mem_b, OPAQUE, &mut handle) };
    assert_eq!(r, vk::Result::ERROR_EXTENSION_NOT_PRESENT);
    assert_eq!(handle, SENTINEL);
    assert_eq!(calls.since(), 0, "B's driver has no such command");
    let m = expect::one(&inst, CMD, EXTENSION_NOT_ENABLED);
    expect::mentions(
        &m,
        &[&format!(
            "device is {}, which was created without VK_NV_external_memory_win32",
            device_name(&b)
        )],
    );
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn khr_and_nv_export_structures_together_are_00640() {
    let inst = instance();
    let dev = win32_device(&inst);
    let mut khr = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut nv = vk::ExportMemoryAllocateInfoNV::default().handle_types(OPAQUE);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut khr)
        .push_next(&mut nv);
    let mem = dev
        .allocate_with(&info)
        .expect("reported, then passed down to the test driver, which allocates");
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_00640);
    expect::mentions(
        &m,
        &[
            "the pNext chain of pAllocateInfo has a VkExportMemoryAllocateInfo together with \
             VkExportMemoryAllocateInfoNV",
            "the KHR and NV export structures cannot be mixed",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);

    // The Win32 NV structure counts as an NV export structure too.
    let mut khr = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut win32 = vk::ExportMemoryWin32HandleInfoNV::default();
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut khr)
        .push_next(&mut win32);
    let mem = dev.allocate_with(&info).expect("passed down");
    let m = expect::one(&inst, ALLOCATE, ALLOC_PNEXT_00640);
    expect::mentions(
        &m,
        &["VkExportMemoryAllocateInfo together with VkExportMemoryWin32HandleInfoNV"],
    );
    dev.free(mem);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn undefined_bits_in_the_nv_export_structure_are_handle_types_parameter() {
    let inst = instance();
    let dev = win32_device(&inst);
    let mem = nv_memory(
        &dev,
        Some(vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0x10)),
    );
    let m = expect::one(&inst, ALLOCATE, EXPORT_NV_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkExportMemoryAllocateInfoNV>.handleTypes is 0x10 (unknown bits), which is not a \
           combination of VkExternalMemoryHandleTypeFlagBitsNV values",
        ],
    );
    dev.free(mem);
    // Every defined NV bit is accepted.
    let all = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(0xf);
    let mem = nv_memory(&dev, Some(all));
    dev.free(mem);
    expect::silent_for(&inst, &[ALLOCATE, FREE]);
    drop(dev);
}

#[test]
fn driver_returning_a_null_handle_is_reported_once_per_device() {
    let inst = instance_with(NULL_HANDLE);
    let first = win32_device(&inst);
    let second = win32_device(&inst);
    for dev in [&first, &second] {
        let mem = nv_memory(dev, Some(OPAQUE | KMT));
        for handle_type in [OPAQUE, KMT, OPAQUE] {
            let (r, handle) = call(dev, mem, handle_type);
            assert_eq!(
                (r, handle),
                (vk::Result::SUCCESS, 0),
                "the misbehaving driver"
            );
        }
        let warnings = expect::driver_only(&inst, CMD, &[DRIVER_NULL_HANDLE]);
        expect::mentions(
            &warnings[0],
            &[
                &format!(
                    "the driver returned VK_SUCCESS for {} (allocated on {}",
                    memory_name(mem),
                    device_name(dev)
                ),
                "but *pHandle is NULL",
                "a driver defect, not an error of the app",
            ],
        );
        expect::object(&warnings[0], vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        expect::silent(&inst, CMD);
        dev.free(mem);
    }
    drop((first, second));
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    let inst = instance_with(NULL_HANDLE);
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE));
    let (r, handle) = call(&dev, mem, KMT);
    assert_eq!((r, handle), (vk::Result::SUCCESS, 0));
    expect::one(&inst, CMD, HANDLE_TYPE_01326);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn well_behaved_driver_gets_no_warning() {
    let inst = instance();
    let dev = win32_device(&inst);
    let mem = nv_memory(&dev, Some(OPAQUE | KMT));
    for handle_type in [OPAQUE, KMT, OPAQUE] {
        let (r, handle) = call(&dev, mem, handle_type);
        assert_eq!(r, vk::Result::SUCCESS);
        assert!(handle != 0 && handle != SENTINEL);
    }
    dev.free(mem);
    expect::silent_for(&inst, &[CMD, ALLOCATE, FREE]);
    expect::driver_only(&inst, CMD, &[]);
    drop(dev);
}

// The driver writes a `void*` through `pHandle`: ash's HANDLE must be that size.
const _: () = assert!(size_of::<vk::HANDLE>() == size_of::<*mut c_void>());
