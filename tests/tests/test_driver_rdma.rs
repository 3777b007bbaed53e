//! vkGetMemoryRemoteAddressNV end to end: the real loader, the layer, and the project's test
//! driver (`tests/icd`), which exposes VK_NV_external_memory_rdma with a DEVICE_LOCAL |
//! RDMA_CAPABLE_NV memory type. Each bad call yields exactly its ID; blocked calls return
//! VK_ERROR_VALIDATION_FAILED_EXT, leave `*pAddress` alone and never reach the driver (its call
//! counter does not move); the others are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::env::Driver;
use exportcheck_tests::test_driver::Calls;
use exportcheck_tests::{expect, Device, Instance, Options, OPAQUE_FD};
use std::ffi::{c_void, CStr};

const CMD: &str = "vkGetMemoryRemoteAddressNV";
const COUNTED: &CStr = c"vkGetMemoryRemoteAddressNV";

const DEVICE_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-device-parameter";
const INFO_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-pMemoryGetRemoteAddressInfo-parameter";
const PADDRESS_PARAM: &str = "VUID-vkGetMemoryRemoteAddressNV-pAddress-parameter";
const HANDLE_TYPE_04966: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-04966";
const STYPE: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-sType-sType";
const PNEXT: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-pNext-pNext";
const MEMORY_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-memory-parameter";
const HANDLE_TYPE_PARAM: &str = "VUID-VkMemoryGetRemoteAddressInfoNV-handleType-parameter";
const MEMORY_OF_OTHER_DEVICE: &str = "EXPORTCHECK-memory-of-other-device";
const TYPE_NOT_CAPABLE: &str = "EXPORTCHECK-rdma-memory-type-not-rdma-capable";
const FEATURE_NOT_ENABLED: &str = "EXPORTCHECK-rdma-feature-not-enabled";
const EXTENSION_NOT_ENABLED: &str = "EXPORTCHECK-extension-not-enabled";
const DRIVER_NULL_ADDRESS: &str = "EXPORTCHECK-driver-null-remote-address";

const RDMA: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV;
const RDMA_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV";
const FAILED: vk::Result = vk::Result::ERROR_VALIDATION_FAILED_EXT;
const SIZE: u64 = 65536;
/// What `*pAddress` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = 0x5e47;
const ZERO_ADDRESS: &str = r#"{"misbehave":{"zero_remote_address":true}}"#;

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

const EXTENSIONS: [&CStr; 2] = [
    ash::nv::external_memory_rdma::NAME,
    ash::khr::external_memory::NAME,
];

/// A device with VK_NV_external_memory_rdma and the externalMemoryRDMA feature.
fn rdma_device(inst: &Instance) -> Device {
    inst.device_with(&EXTENSIONS, true)
}

/// The index of the first memory type whose flags are exactly `flags`.
fn memory_type(inst: &Instance, flags: vk::MemoryPropertyFlags) -> u32 {
    // SAFETY: the instance's own physical device.
    let props = unsafe {
        inst.instance
            .get_physical_device_memory_properties(inst.physical_device)
    };
    props.memory_types[..props.memory_type_count as usize]
        .iter()
        .position(|t| t.property_flags == flags)
        .unwrap_or_else(|| panic!("the test driver has no memory type {flags:?}")) as u32
}

fn rdma_type(inst: &Instance) -> u32 {
    memory_type(
        inst,
        vk::MemoryPropertyFlags::DEVICE_LOCAL | vk::MemoryPropertyFlags::RDMA_CAPABLE_NV,
    )
}

/// RDMA-capable memory exported with `export` (if given).
fn rdma_memory(
    inst: &Instance,
    dev: &Device,
    export: Option<vk::ExternalMemoryHandleTypeFlags>,
) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, rdma_type(inst), export, None)
}

fn info(
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
) -> vk::MemoryGetRemoteAddressInfoNV<'static> {
    vk::MemoryGetRemoteAddressInfoNV::default()
        .memory(memory)
        .handle_type(handle_type)
}

/// `vkGetMemoryRemoteAddressNV` with `info`; `*pAddress` is pre-filled with [`SENTINEL`].
fn call(dev: &Device, info: *const vk::MemoryGetRemoteAddressInfoNV<'_>) -> (vk::Result, usize) {
    let mut address = SENTINEL as *mut c_void;
    // SAFETY: `info` is NULL or points to a live structure (the tests pass NULL on purpose);
    // the output pointer is valid.
    let result = unsafe { dev.get_remote_address_raw(info, &mut address) };
    (result, address as usize)
}

fn device_name(dev: &Device) -> String {
    format!("VkDevice 0x{:x}", dev.handle().as_raw())
}

fn memory_name(memory: vk::DeviceMemory) -> String {
    format!("VkDeviceMemory 0x{:x}", memory.as_raw())
}

/// After a blocked call: the memory still exports, silently.
fn still_exports(inst: &Instance, dev: &Device, memory: vk::DeviceMemory) {
    let (r, address) = call(dev, &info(memory, RDMA));
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    expect::silent(inst, CMD);
}

#[test]
fn remote_addresses_are_non_zero_distinct_per_allocation_and_silent() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let a = rdma_memory(&inst, &dev, Some(RDMA));
    let b = rdma_memory(&inst, &dev, Some(RDMA));
    expect::silent(&inst, "vkAllocateMemory");
    let mut calls = Calls::of(COUNTED);
    let (r, address_a) = call(&dev, &info(a, RDMA));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "a valid call goes down once");
    let (r, address_b) = call(&dev, &info(b, RDMA));
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "a valid call goes down once");
    for address in [address_a, address_b] {
        assert!(
            address != 0 && address != SENTINEL,
            "the driver wrote no address: {address:#x}"
        );
    }
    assert_ne!(address_a, address_b, "one remote address per allocation");
    // The same allocation exports the same address again.
    assert_eq!(call(&dev, &info(a, RDMA)), (vk::Result::SUCCESS, address_a));
    calls.assert(1, "a valid call goes down once");
    expect::silent(&inst, CMD);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(a);
    dev.free(b);
    expect::silent(&inst, "vkFreeMemory");
    drop(dev);
}

#[test]
fn null_info_is_blocked() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, std::ptr::null());
    assert_eq!(r, FAILED);
    assert_eq!(address, SENTINEL, "*pAddress must not be written");
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, INFO_PARAM);
    expect::mentions(
        &m,
        &[
            "pMemoryGetRemoteAddressInfo is NULL",
            "it must point to a valid VkMemoryGetRemoteAddressInfoNV",
            "not passed to the driver",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    drop(dev);
}

#[test]
fn null_p_address_is_blocked() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    let calls = Calls::of(COUNTED);
    // SAFETY: a valid info and a NULL pAddress on purpose.
    let r = unsafe { dev.get_remote_address_raw(&info(mem, RDMA), std::ptr::null_mut()) };
    assert_eq!(r, FAILED);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, PADDRESS_PARAM);
    expect::mentions(&m, &["pAddress is NULL", "not passed to the driver"]);
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
}

#[test]
fn unknown_device_is_blocked_and_reported_to_every_instance() {
    let inst = exclusive();
    let other = inst.another(options(None));
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    // The layer's own function, as vkGetDeviceProcAddr handed it out for `dev`.
    let get = dev.remote_address.expect("vkGetMemoryRemoteAddressNV");
    let calls = Calls::of(COUNTED);
    let mut address = SENTINEL as *mut c_void;
    // SAFETY: a made-up VkDevice on purpose; the layer must not dereference it or pass it
    // down. The other pointers are valid.
    let r = unsafe {
        get(
            vk::Device::from_raw(0x1234),
            &info(mem, RDMA),
            address_out(&mut address),
        )
    };
    assert_eq!(r, FAILED);
    assert_eq!(address as usize, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    for instance in [&inst, &other] {
        let m = expect::one(instance, CMD, DEVICE_PARAM);
        expect::mentions(
            &m,
            &[
                "vkGetMemoryRemoteAddressNV(): device (0x1234) is not a VkDevice created through \
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

/// `&mut *mut c_void` as the `*mut VkRemoteAddressNV` that ash's PFN type takes (ash spells
/// `VkRemoteAddressNV*` as `*mut c_void`).
fn address_out(address: &mut *mut c_void) -> *mut vk::RemoteAddressNV {
    (address as *mut *mut c_void).cast()
}

#[test]
fn wrong_s_type_is_blocked() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    // Otherwise a good request: only the sType is wrong.
    let mut bad = info(mem, RDMA);
    bad.s_type = vk::StructureType::MEMORY_ALLOCATE_INFO;
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &bad);
    assert_eq!(r, FAILED);
    assert_eq!(address, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, STYPE);
    expect::mentions(
        &m,
        &[
            "pMemoryGetRemoteAddressInfo->sType is VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO",
            "it must be VK_STRUCTURE_TYPE_MEMORY_GET_REMOTE_ADDRESS_INFO_NV",
            "not passed to the driver",
        ],
    );
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
}

#[test]
fn p_next_is_reported_and_the_call_goes_down_without_it() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    // A valid structure, but none extends VkMemoryGetRemoteAddressInfoNV.
    let stray = vk::ExportMemoryAllocateInfo::default().handle_types(RDMA);
    let mut with_next = info(mem, RDMA);
    with_next.p_next = (&raw const stray).cast::<c_void>();
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &with_next);
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(calls.since(), 1, "reported, then passed down");
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    assert_eq!(
        with_next.p_next,
        (&raw const stray).cast::<c_void>(),
        "the layer strips pNext from its own copy, never from the app's structure"
    );
    let m = expect::one(&inst, CMD, PNEXT);
    expect::mentions(
        &m,
        &[
            "pMemoryGetRemoteAddressInfo->pNext is not NULL",
            "no structure extends VkMemoryGetRemoteAddressInfoNV",
            "pNext set to NULL",
        ],
    );
    // The address is the memory's own: the same as a clean call returns.
    assert_eq!(call(&dev, &info(mem, RDMA)), (vk::Result::SUCCESS, address));
    expect::silent(&inst, CMD);
    dev.free(mem);
    drop(dev);
}

#[test]
fn null_memory_is_blocked() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(vk::DeviceMemory::null(), RDMA));
    assert_eq!(r, FAILED);
    assert_eq!(address, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARAM);
    expect::mentions(
        &m,
        &[
            "pMemoryGetRemoteAddressInfo->memory is VK_NULL_HANDLE",
            "not passed to the driver",
        ],
    );
    drop(dev);
}

#[test]
fn freed_memory_is_blocked_and_described() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    dev.free(mem);
    expect::silent(&inst, "vkFreeMemory");
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!(r, FAILED);
    assert_eq!(address, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARAM);
    expect::mentions(
        &m,
        &[
            &format!(
                "pMemoryGetRemoteAddressInfo->memory is {}, which was already freed with \
                 vkFreeMemory",
                memory_name(mem)
            ),
            &format!(
                "allocated on {} with allocationSize {SIZE}, memoryTypeIndex {} \
                 [DEVICE_LOCAL|RDMA_CAPABLE_NV], VkExportMemoryAllocateInfo::handleTypes = \
                 {RDMA_NAME}",
                device_name(&dev),
                rdma_type(&inst)
            ),
            "not passed to the driver",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    drop(dev);
}

#[test]
fn garbage_memory_is_blocked() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let garbage = vk::DeviceMemory::from_raw(0xdead_0000);
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(garbage, RDMA));
    assert_eq!(r, FAILED);
    assert_eq!(address, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_PARAM);
    expect::mentions(
        &m,
        &["pMemoryGetRemoteAddressInfo->memory is VkDeviceMemory 0xdead0000, which is not a live \
           VkDeviceMemory"],
    );
    assert!(!m.text.contains("already freed"), "{}", m.text);
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, 0xdead_0000);
    drop(dev);
}

#[test]
fn invalid_handle_type_values_are_handle_type_parameter_only() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA | OPAQUE_FD));
    let cases: [(u32, &str); 3] = [
        (
            0,
            "handleType is 0 (0, which is not a VkExternalMemoryHandleTypeFlagBits value)",
        ),
        (
            (RDMA | OPAQUE_FD).as_raw(),
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|\
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV (more than one bit; it must be a \
             single VkExternalMemoryHandleTypeFlagBits value)",
        ),
        (
            1 << 13,
            "handleType is 0x2000 (unknown bits) (not a VkExternalMemoryHandleTypeFlagBits value)",
        ),
    ];
    for (raw, says) in cases {
        let mut calls = Calls::of(COUNTED);
        let (r, address) = call(
            &dev,
            &info(mem, vk::ExternalMemoryHandleTypeFlags::from_raw(raw)),
        );
        // Not a bad pointer or handle: reported, and the call goes down (the test driver does
        // not validate, and answers).
        calls.assert(1, &format!("{raw:#x}: reported, then passed down"));
        assert_eq!(r, vk::Result::SUCCESS, "{raw:#x}");
        assert_ne!(address, SENTINEL, "{raw:#x}");
        // Only this ID: 04966 is not evaluated on a value that is not a single valid bit.
        let m = expect::one(&inst, CMD, HANDLE_TYPE_PARAM);
        expect::mentions(&m, &[&format!("pMemoryGetRemoteAddressInfo->{says}")]);
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    }
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn memory_exported_without_rdma_is_04966() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(OPAQUE_FD));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(mem, RDMA));
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_04966);
    expect::mentions(
        &m,
        &[
            &format!(
                "pMemoryGetRemoteAddressInfo->handleType is {RDMA_NAME}, which was not included in \
                 VkExportMemoryAllocateInfo::handleTypes \
                 (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) when {} (allocated on {}",
                memory_name(mem),
                device_name(&dev)
            ),
            "was allocated.",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());

    // The other cause: no VkExportMemoryAllocateInfo at all.
    let plain = rdma_memory(&inst, &dev, None);
    let (r, _) = call(&dev, &info(plain, RDMA));
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_04966);
    expect::mentions(
        &m,
        &[
            &format!(
                "pMemoryGetRemoteAddressInfo->handleType is {RDMA_NAME}, but {} (allocated on {}",
                memory_name(plain),
                device_name(&dev)
            ),
            "no VkExportMemoryAllocateInfo) was allocated without a VkExportMemoryAllocateInfo in \
             the pNext chain of VkMemoryAllocateInfo, so it cannot be exported",
        ],
    );
    assert!(!m.text.contains("was not included"), "{}", m.text);
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, plain.as_raw());
    dev.free(mem);
    dev.free(plain);
    drop(dev);
}

#[test]
fn memory_of_another_device_is_blocked() {
    let inst = exclusive();
    let a = rdma_device(&inst);
    let b = rdma_device(&inst);
    let mem_b = rdma_memory(&inst, &b, Some(RDMA));
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&a, &info(mem_b, RDMA));
    assert_eq!(r, FAILED);
    assert_eq!(address, SENTINEL);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, MEMORY_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[
            &format!(
                "pMemoryGetRemoteAddressInfo->memory is {} (allocated on {}",
                memory_name(mem_b),
                device_name(&b)
            ),
            &format!("which belongs to another device than {}", device_name(&a)),
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
fn memory_type_without_rdma_capable_is_a_warning_and_goes_down() {
    let inst = exclusive();
    let dev = rdma_device(&inst);
    let plain_type = memory_type(&inst, vk::MemoryPropertyFlags::DEVICE_LOCAL);
    let mem = dev.allocate_exporting(SIZE, plain_type, Some(RDMA), None);
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!(calls.since(), 1, "a warning does not stop the call");
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    let m = expect::one(&inst, CMD, TYPE_NOT_CAPABLE);
    expect::mentions(
        &m,
        &[
            &format!(
                "{} (allocated on {} with allocationSize {SIZE}, memoryTypeIndex {plain_type} \
                 [DEVICE_LOCAL]",
                memory_name(mem),
                device_name(&dev)
            ),
            "has a memory type without VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn device_without_the_rdma_feature_is_a_warning_and_goes_down() {
    let inst = exclusive();
    let dev = inst.device_with(&EXTENSIONS, false);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!(calls.since(), 1, "a warning does not stop the call");
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    let m = expect::one(&inst, CMD, FEATURE_NOT_ENABLED);
    expect::mentions(
        &m,
        &[&format!(
            "{} was created without enabling \
             VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA",
            device_name(&dev)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn call_on_a_device_without_the_extension_is_a_warning() {
    let inst = exclusive();
    let a = rdma_device(&inst);
    // The feature is chained so that the extension is the one thing B lacks.
    let b = inst.device_with(&[ash::khr::external_memory::NAME], true);
    assert!(
        inst.device_proc_addr(&b, COUNTED).is_none(),
        "no vkGetMemoryRemoteAddressNV for a device without the extension"
    );
    let mem_b = rdma_memory(&inst, &b, Some(RDMA));
    let get = a.remote_address.expect("vkGetMemoryRemoteAddressNV");
    let calls = Calls::of(COUNTED);
    let mut address = SENTINEL as *mut c_void;
    // SAFETY: valid pointers; B has no vkGetMemoryRemoteAddressNV, which is what is tested.
    let r = unsafe { get(b.handle(), &info(mem_b, RDMA), address_out(&mut address)) };
    // Not blocked, but B's driver has no vkGetMemoryRemoteAddressNV to call down to.
    assert_eq!(r, vk::Result::ERROR_EXTENSION_NOT_PRESENT);
    assert_eq!(address as usize, SENTINEL);
    assert_eq!(calls.since(), 0, "B's driver has no such command");
    let m = expect::one(&inst, CMD, EXTENSION_NOT_ENABLED);
    expect::mentions(
        &m,
        &[&format!(
            "device is {}, which was created without VK_NV_external_memory_rdma in \
             VkDeviceCreateInfo::ppEnabledExtensionNames",
            device_name(&b)
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE, b.handle().as_raw());
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn driver_returning_a_null_address_is_reported_once_per_device() {
    let inst = instance_with(ZERO_ADDRESS);
    let first = rdma_device(&inst);
    let second = rdma_device(&inst);
    for dev in [&first, &second] {
        let mem = rdma_memory(&inst, dev, Some(RDMA));
        for _ in 0..3 {
            let (r, address) = call(dev, &info(mem, RDMA));
            assert_eq!(
                (r, address),
                (vk::Result::SUCCESS, 0),
                "the misbehaving driver"
            );
        }
        let warnings = expect::driver_only(&inst, CMD, &[DRIVER_NULL_ADDRESS]);
        expect::mentions(
            &warnings[0],
            &[
                &format!(
                    "the driver returned VK_SUCCESS for {} (allocated on {}",
                    memory_name(mem),
                    device_name(dev)
                ),
                "but *pAddress is NULL",
                "a driver defect, not an error of the app",
            ],
        );
        expect::object(&warnings[0], vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        // The app did nothing wrong.
        expect::silent(&inst, CMD);
        dev.free(mem);
    }
    drop((first, second));
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    let inst = instance_with(ZERO_ADDRESS);
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(OPAQUE_FD));
    // After an invalid call the driver's answer is undefined: only the app's error is said.
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!((r, address), (vk::Result::SUCCESS, 0));
    expect::one(&inst, CMD, HANDLE_TYPE_04966);
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn well_behaved_driver_gets_no_warning() {
    let inst = instance();
    let dev = rdma_device(&inst);
    for _ in 0..3 {
        let mem = rdma_memory(&inst, &dev, Some(RDMA));
        let (r, address) = call(&dev, &info(mem, RDMA));
        assert_eq!(r, vk::Result::SUCCESS);
        assert!(address != 0 && address != SENTINEL);
        dev.free(mem);
    }
    expect::silent_for(&inst, &[CMD, "vkAllocateMemory", "vkFreeMemory"]);
    expect::driver_only(&inst, CMD, &[]);
    drop(dev);
}
