//! vkGetMemoryRemoteAddressNV end to end: the real loader, the layer, and the project's test
//! driver (`tests/icd`), which exposes VK_NV_external_memory_rdma with a DEVICE_LOCAL |
//! RDMA_CAPABLE_NV memory type: valid exports, the value rules (every rule an invalid
//! `handleType` breaks, 04966), the layer's warnings about the memory type and the RDMA feature,
//! and the driver contract. Each bad call yields exactly the IDs of the rules it breaks, is
//! reported and goes down (the driver's call counter moves once). The structural cases (NULL
//! pointers, sType, pNext, bad memory, unknown devices, a device without the extension) are rows
//! of tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{self, exclusive, Calls, Misbehaving};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, SIZE};
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

fn rdma_type(inst: &Instance) -> u32 {
    inst.memory_type(
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
fn memory_type_without_rdma_capable_is_a_warning_and_goes_down() {
    let inst = exclusive(None);
    let dev = rdma_device(&inst);
    let plain_type = inst.memory_type(vk::MemoryPropertyFlags::DEVICE_LOCAL);
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
fn a_call_with_only_a_warning_is_still_held_to_the_driver_contract() {
    // Without the RDMA feature the call gets a warning, not an error: it is valid, so what the
    // driver returns is judged (here a NULL address, which it must not return after VK_SUCCESS).
    let inst = exclusive(Some(ZERO_ADDRESS));
    let dev = inst.device_with(&EXTENSIONS, false);
    let mem = rdma_memory(&inst, &dev, Some(RDMA));
    let (r, address) = call(&dev, &info(mem, RDMA));
    assert_eq!(
        (r, address),
        (vk::Result::SUCCESS, 0),
        "the misbehaving driver"
    );
    expect::one(&inst, CMD, RDMA_FEATURE_NOT_ENABLED);
    expect::driver_only(&inst, CMD, &[DRIVER_NULL_REMOTE_ADDRESS]);
    dev.free(mem);
    drop(dev);
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
