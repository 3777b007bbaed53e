//! vkGetMemoryRemoteAddressNV end to end: the real loader, the layer, and the project's test
//! driver (`tests/icd`), which exposes VK_NV_external_memory_rdma with a DEVICE_LOCAL |
//! RDMA_CAPABLE_NV memory type. Each bad call yields exactly the IDs of the rules it breaks; blocked calls return
//! VK_ERROR_VALIDATION_FAILED_EXT, leave `*pAddress` alone and never reach the driver (its call
//! counter does not move); the others are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{
    self, assert_blocked, assert_not_passed_down, exclusive, Calls, Misbehaving,
};
use exportcheck_tests::{expect, Device, Instance, FAILED, OPAQUE_FD, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = GET_REMOTE_ADDRESS;
const COUNTED: &CStr = c"vkGetMemoryRemoteAddressNV";

const RDMA: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV;
const RDMA_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV";
/// What `*pAddress` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = exportcheck_tests::POINTER_SENTINEL;
const ZERO_ADDRESS: &str = r#"{"misbehave":{"zero_remote_address":true}}"#;

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

/// After a blocked call: the memory still exports, silently.
fn still_exports(inst: &Instance, dev: &Device, memory: vk::DeviceMemory) {
    let (r, address) = call(dev, &info(memory, RDMA));
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    expect::silent(inst, CMD);
}

#[test]
fn remote_addresses_are_non_zero_distinct_per_allocation_and_silent() {
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let a = rdma_memory(&inst, &dev, Some(RDMA));
    let b = rdma_memory(&inst, &dev, Some(RDMA));
    expect::silent(&inst, ALLOCATE);
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
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn null_info_is_blocked() {
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    assert_blocked(COUNTED, SENTINEL, || call(&dev, std::ptr::null()));
    let m = expect::one(&inst, CMD, RDMA_INFO_PARAM);
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
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    let calls = Calls::of(COUNTED);
    // SAFETY: a valid info and a NULL pAddress on purpose.
    let r = unsafe { dev.get_remote_address_raw(&info(mem, RDMA), std::ptr::null_mut()) };
    assert_eq!(r, FAILED);
    assert_eq!(calls.since(), 0, "the driver must not be called");
    let m = expect::one(&inst, CMD, RDMA_PADDRESS_PARAM);
    expect::mentions(&m, &["pAddress is NULL", "not passed to the driver"]);
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    still_exports(&inst, &dev, mem);
    dev.free(mem);
    drop(dev);
}

#[test]
fn unknown_device_is_blocked_and_reported_to_every_instance() {
    let inst = exclusive(None);
    let other = inst.another(test_driver::options(None));
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    // The layer's own function, as vkGetDeviceProcAddr handed it out for `dev`.
    let get = dev.remote_address.expect("vkGetMemoryRemoteAddressNV");
    assert_blocked(COUNTED, SENTINEL, || {
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
        (r, address as usize)
    });
    expect::unknown_device(
        &[&inst, &other],
        CMD,
        RDMA_DEVICE_PARAM,
        &[
            "vkGetMemoryRemoteAddressNV(): device (0x1234) is not a VkDevice created through this \
             layer",
            "not passed to the driver",
        ],
    );
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
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    // Otherwise a good request: only the sType is wrong.
    let mut bad = info(mem, RDMA);
    bad.s_type = vk::StructureType::MEMORY_ALLOCATE_INFO;
    assert_blocked(COUNTED, SENTINEL, || call(&dev, &bad));
    let m = expect::one(&inst, CMD, RDMA_STYPE);
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
fn p_next_is_reported_and_the_call_goes_down_as_the_app_made_it() {
    let inst = exclusive(None);
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
        "the layer never rewrites the app's structure"
    );
    assert_eq!(
        test_driver::last_p_next(COUNTED),
        (&raw const stray) as usize,
        "the driver got the app's own structure, pNext and all"
    );
    let m = expect::one(&inst, CMD, RDMA_PNEXT);
    expect::mentions(
        &m,
        &[
            "pMemoryGetRemoteAddressInfo->pNext is not NULL",
            "no structure extends VkMemoryGetRemoteAddressInfoNV",
            "The call goes down as the app made it",
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
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    assert_blocked(COUNTED, SENTINEL, || {
        call(&dev, &info(vk::DeviceMemory::null(), RDMA))
    });
    let m = expect::one(&inst, CMD, RDMA_MEMORY_PARAM);
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
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    dev.free(mem);
    expect::silent(&inst, FREE);
    assert_blocked(COUNTED, SENTINEL, || call(&dev, &info(mem, RDMA)));
    let m = expect::one(&inst, CMD, RDMA_MEMORY_PARAM);
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
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let garbage = vk::DeviceMemory::from_raw(0xdead_0000);
    assert_blocked(COUNTED, SENTINEL, || call(&dev, &info(garbage, RDMA)));
    let m = expect::garbage_memory(
        &inst,
        CMD,
        RDMA_MEMORY_PARAM,
        "pMemoryGetRemoteAddressInfo->memory",
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, 0xdead_0000);
    drop(dev);
}

#[test]
fn invalid_handle_type_values_get_every_rule_they_break() {
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(RDMA | OPAQUE_FD));
    // (value, the IDs it gets, how the value is named, why it is not a valid value)
    let cases: [(u32, &[&str], &str, &str); 3] = [
        // Trivially "included" in the export types: 04966 holds.
        (
            0,
            &[RDMA_HANDLE_TYPE_PARAM],
            "0",
            "0 is no VkExternalMemoryHandleTypeFlagBits value",
        ),
        // Both bits were exported: 04966 holds, but they are two.
        (
            (RDMA | OPAQUE_FD).as_raw(),
            &[RDMA_HANDLE_TYPE_PARAM],
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|\
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV",
            "it has more than one bit, and must be a single value",
        ),
        (
            1 << 13,
            &[RDMA_HANDLE_TYPE_PARAM, RDMA_HANDLE_TYPE_04966],
            "0x2000 (unknown bits)",
            "0x2000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
    ];
    for (raw, ids, named, why) in cases {
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
        // Every rule the value breaks, each said once, in this order.
        let m = expect::only(&inst, CMD, ids);
        expect::mentions(
            &m[0],
            &[&format!(
                "pMemoryGetRemoteAddressInfo->handleType is {named}, which is not a valid \
                 VkExternalMemoryHandleTypeFlagBits value on {}: {why}.",
                device_name(&dev)
            )],
        );
        if let Some(m) = m.get(1) {
            expect::mentions(
                m,
                &[&format!(
                    "pMemoryGetRemoteAddressInfo->handleType is {named}, which was not included \
                     in VkExportMemoryAllocateInfo::handleTypes \
                     (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|{RDMA_NAME})"
                )],
            );
        }
        for m in &m {
            expect::object(m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
        }
    }
    expect::driver_only(&inst, CMD, &[]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn memory_exported_without_rdma_is_04966() {
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let mem = rdma_memory(&inst, &dev, Some(OPAQUE_FD));
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, &info(mem, RDMA));
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, RDMA_HANDLE_TYPE_04966);
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
    let m = expect::one(&inst, CMD, RDMA_HANDLE_TYPE_04966);
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
    let inst = exclusive(None);
    let a = rdma_device(&inst);
    let b = rdma_device(&inst);
    let mem_b = rdma_memory(&inst, &b, Some(RDMA));
    assert_blocked(COUNTED, SENTINEL, || call(&a, &info(mem_b, RDMA)));
    expect::memory_of_another_device(
        &inst,
        CMD,
        MEMORY_OF_OTHER_DEVICE,
        "pMemoryGetRemoteAddressInfo->memory",
        &a,
        (&b, mem_b),
        &[
            &format!("which belongs to another device than {}", device_name(&a)),
            "not passed to the driver",
        ],
    );
    still_exports(&inst, &b, mem_b);
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn memory_type_without_rdma_capable_is_a_warning_and_goes_down() {
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let plain_type = memory_type(&inst, vk::MemoryPropertyFlags::DEVICE_LOCAL);
    let mem = dev.allocate_exporting(SIZE, plain_type, Some(RDMA), None);
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!(calls.since(), 1, "a warning does not stop the call");
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    let m = expect::one(&inst, CMD, RDMA_TYPE_NOT_CAPABLE);
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
    let inst = exclusive(None);
    let dev = inst.device_with(&EXTENSIONS, false);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    let calls = Calls::of(COUNTED);
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!(calls.since(), 1, "a warning does not stop the call");
    assert_eq!(r, vk::Result::SUCCESS);
    assert!(address != 0 && address != SENTINEL, "{address:#x}");
    let m = expect::one(&inst, CMD, RDMA_FEATURE_NOT_ENABLED);
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
    let inst = exclusive(None);
    let a = rdma_device(&inst);
    // The feature is chained so that the extension is the one thing B lacks.
    let b = inst.device_with(&[ash::khr::external_memory::NAME], true);
    assert!(
        inst.device_proc_addr(&b, COUNTED).is_none(),
        "no vkGetMemoryRemoteAddressNV for a device without the extension"
    );
    // Without VK_NV_external_memory_rdma, the RDMA handle type is no valid value on B: its
    // export structure already says so, and so does the export.
    let not_enabled = format!(
        "{RDMA_NAME} belongs to VK_NV_external_memory_rdma, which the device was created without"
    );
    let mem_b = rdma_memory(&inst, &b, Some(RDMA));
    let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
    expect::mentions(&m, &[&not_enabled]);
    let get = a.remote_address.expect("vkGetMemoryRemoteAddressNV");
    // Not blocked, but B's driver has no vkGetMemoryRemoteAddressNV to call down to.
    assert_not_passed_down(
        COUNTED,
        vk::Result::ERROR_EXTENSION_NOT_PRESENT,
        SENTINEL,
        || {
            let mut address = SENTINEL as *mut c_void;
            // SAFETY: valid pointers; B has no vkGetMemoryRemoteAddressNV, which is what is tested.
            let r = unsafe { get(b.handle(), &info(mem_b, RDMA), address_out(&mut address)) };
            (r, address as usize)
        },
    );
    let m = expect::only(&inst, CMD, &[EXTENSION_NOT_ENABLED, RDMA_HANDLE_TYPE_PARAM]);
    expect::mentions(
        &m[0],
        &[&format!(
            "device is {}, which was created without VK_NV_external_memory_rdma in \
             VkDeviceCreateInfo::ppEnabledExtensionNames",
            device_name(&b)
        )],
    );
    expect::object(&m[0], vk::ObjectType::DEVICE, b.handle().as_raw());
    expect::mentions(
        &m[1],
        &[&format!(
            "pMemoryGetRemoteAddressInfo->handleType is {RDMA_NAME}, which is not a valid \
             VkExternalMemoryHandleTypeFlagBits value on {}: {not_enabled}.",
            device_name(&b)
        )],
    );
    b.free(mem_b);
    drop((a, b));
}

#[test]
fn driver_returning_a_null_address_is_reported_once_per_device() {
    test_driver::assert_defect_reported_once_per_device(
        Misbehaving {
            config: ZERO_ADDRESS,
            device: rdma_device,
            memory: |inst, dev| rdma_memory(inst, dev, Some(RDMA)),
            export: |dev, mem| {
                for _ in 0..3 {
                    let (r, address) = call(dev, &info(mem, RDMA));
                    assert_eq!(
                        (r, address),
                        (vk::Result::SUCCESS, 0),
                        "the misbehaving driver"
                    );
                }
            },
        },
        CMD,
        DRIVER_NULL_REMOTE_ADDRESS,
        &["but *pAddress is NULL"],
    );
}

#[test]
fn invalid_calls_are_not_held_against_the_driver() {
    // After an invalid call the driver's answer is undefined: only the app's error is said.
    test_driver::assert_invalid_call_not_held_against_the_driver(
        Misbehaving {
            config: ZERO_ADDRESS,
            device: rdma_device,
            memory: |inst, dev| rdma_memory(inst, dev, Some(OPAQUE_FD)),
            export: |dev, mem| {
                let (r, address) = call(dev, &info(mem, RDMA));
                assert_eq!((r, address), (vk::Result::SUCCESS, 0));
            },
        },
        CMD,
        RDMA_HANDLE_TYPE_04966,
    );
}

#[test]
fn well_behaved_driver_gets_no_warning() {
    test_driver::assert_well_behaved_driver_gets_no_warning(rdma_device, CMD, |inst, dev| {
        for _ in 0..3 {
            let mem = rdma_memory(inst, dev, Some(RDMA));
            let (r, address) = call(dev, &info(mem, RDMA));
            assert_eq!(r, vk::Result::SUCCESS);
            assert!(address != 0 && address != SENTINEL);
            dev.free(mem);
        }
    });
}
