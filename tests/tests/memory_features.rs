//! `vkAllocateMemory` against what the device was created with, through the real loader: the
//! capture-replay flag of `VkMemoryAllocateFlagsInfo` and its feature
//! (`VUID-VkMemoryAllocateInfo-flags-03330`, which lavapipe cannot enable; `-flags-03331` is in
//! memory_address_flags.rs, on lavapipe), an opaque capture address without the capture-replay flag or in
//! an import (`-opaqueCaptureAddress-03329`, `-03333`), memory types that need a feature
//! (`-memoryTypeIndex-01872` protected, `VUID-vkAllocateMemory-deviceCoherentMemory-02790`,
//! `VUID-vkAllocateMemory-tileMemoryHeap-10976`) and a device without queues
//! (`VUID-vkAllocateMemory-device-queuecount`) on the test driver, whose memory types, heaps and
//! features are configurable. Each bad call gets exactly its IDs and goes down; the same call with
//! the feature enabled is silent.

use ash::vk;
use exportcheck_tests::expect::device_name;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, test_driver, Device, Instance, OPAQUE_FD, SIZE};

const FLAGS_03330: &str = "VUID-VkMemoryAllocateInfo-flags-03330";
const CAPTURE_03329: &str = "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03329";
const CAPTURE_03333: &str = "VUID-VkMemoryAllocateInfo-opaqueCaptureAddress-03333";
const PROTECTED_01872: &str = "VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872";
const COHERENT_02790: &str = "VUID-vkAllocateMemory-deviceCoherentMemory-02790";
const TILE_10976: &str = "VUID-vkAllocateMemory-tileMemoryHeap-10976";
const QUEUECOUNT: &str = "VUID-vkAllocateMemory-device-queuecount";

const ADDRESS: vk::MemoryAllocateFlags = vk::MemoryAllocateFlags::DEVICE_ADDRESS;
const REPLAY: vk::MemoryAllocateFlags = vk::MemoryAllocateFlags::from_raw(
    vk::MemoryAllocateFlags::DEVICE_ADDRESS.as_raw()
        | vk::MemoryAllocateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY.as_raw(),
);

/// `VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TILE_MEMORY_HEAP_FEATURES_QCOM` (newer than `ash`).
const TILE_FEATURES: vk::StructureType = vk::StructureType::from_raw(1_000_547_000);

/// `VkPhysicalDeviceTileMemoryHeapFeaturesQCOM`
#[repr(C)]
struct TileMemoryHeapFeatures {
    s_type: vk::StructureType,
    p_next: *mut std::ffi::c_void,
    tile_memory_heap: vk::Bool32,
}

/// The test driver with buffer device address (and, when `replay`, its capture replay) supported.
fn address_driver(replay: bool) -> Instance {
    test_driver::instance(Some(if replay {
        r#"{"device_extensions": ["VK_KHR_external_memory", "VK_KHR_external_memory_fd",
            "VK_KHR_buffer_device_address"],
            "features": {"buffer_device_address": true, "buffer_device_address_capture_replay": true}}"#
    } else {
        r#"{"device_extensions": ["VK_KHR_external_memory", "VK_KHR_external_memory_fd",
            "VK_KHR_buffer_device_address"],
            "features": {"buffer_device_address": true}}"#
    }))
}

/// A device with `bufferDeviceAddress` and, when `replay`, `bufferDeviceAddressCaptureReplay`.
fn address_device(inst: &Instance, replay: bool) -> Device {
    let mut bda = vk::PhysicalDeviceBufferDeviceAddressFeatures::default()
        .buffer_device_address(true)
        .buffer_device_address_capture_replay(replay);
    inst.device_with_features(
        &[
            ash::khr::external_memory_fd::NAME,
            ash::khr::buffer_device_address::NAME,
        ],
        Some((&mut bda as *mut vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>).cast()),
    )
}

#[test]
fn capture_replay_flag_needs_its_feature_03330() {
    let inst = address_driver(true);
    let without = address_device(&inst, false);
    let result = without.allocate_flagged(0, REPLAY, 0);
    let m = expect::one(&inst, ALLOCATE, FLAGS_03330);
    expect::mentions(
        &m,
        &[
            "flags is DEVICE_ADDRESS|DEVICE_ADDRESS_CAPTURE_REPLAY, which includes \
             VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT",
            "bufferDeviceAddressCaptureReplay feature was not enabled",
        ],
    );
    without.free_if_made(result);

    let with = address_device(&inst, true);
    let memory = with
        .allocate_flagged(0, REPLAY, 0)
        .expect("a replayable allocation");
    expect::silent(&inst, ALLOCATE);
    with.free(memory);
}

#[test]
fn a_capture_address_needs_the_capture_replay_flag_03329() {
    let inst = address_driver(true);
    let dev = address_device(&inst, true);
    let result = dev.allocate_flagged(0, ADDRESS, 0x1000_0000);
    let m = expect::one(&inst, ALLOCATE, CAPTURE_03329);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkMemoryOpaqueCaptureAddressAllocateInfo>.opaqueCaptureAddress \
             is not 0, but VkMemoryAllocateFlagsInfo::flags is DEVICE_ADDRESS",
        ],
    );
    dev.free_if_made(result);

    let memory = dev
        .allocate_flagged(0, REPLAY, 0x1000_0000)
        .expect("a replayed allocation");
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
}

#[test]
fn a_capture_address_in_an_import_is_03333() {
    let inst = address_driver(true);
    let dev = address_device(&inst, true);
    let exported = dev.allocate(SIZE, Some(OPAQUE_FD));
    let import = |dev: &Device, capture_address: u64| {
        let (result, fd) = dev.get_fd(exported, OPAQUE_FD);
        assert_eq!(result, vk::Result::SUCCESS);
        let mut fd_import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(OPAQUE_FD)
            .fd(fd);
        let mut flags_info = vk::MemoryAllocateFlagsInfo::default().flags(REPLAY);
        let mut capture = vk::MemoryOpaqueCaptureAddressAllocateInfo::default()
            .opaque_capture_address(capture_address);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(SIZE)
            .memory_type_index(0)
            .push_next(&mut fd_import)
            .push_next(&mut flags_info)
            .push_next(&mut capture);
        let result = dev.allocate_with(&info);
        if result.is_err() {
            // SAFETY: the driver did not take the fd: it is ours to close.
            unsafe { libc::close(fd) };
        }
        result
    };
    let result = import(&dev, 0x2000_0000);
    let m = expect::one(&inst, ALLOCATE, CAPTURE_03333);
    expect::mentions(
        &m,
        &["opaqueCaptureAddress is not 0, but the allocation imports memory"],
    );
    dev.free_if_made(result);

    let memory = import(&dev, 0).expect("an import without a capture address");
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
    dev.free(exported);
}

// The test driver with a third memory type that needs a feature, the feature supported.
const PROTECTED_CONFIG: &str = r#"{
    "memory_types": [{"flags": ["DEVICE_LOCAL"], "heap": 0}, {"flags": ["HOST_VISIBLE", "HOST_COHERENT"], "heap": 1},
                     {"flags": ["DEVICE_LOCAL", "PROTECTED"], "heap": 0}],
    "features": {"protected_memory": true}}"#;
const COHERENT_CONFIG: &str = r#"{
    "device_extensions": ["VK_KHR_external_memory", "VK_KHR_external_memory_fd", "VK_AMD_device_coherent_memory"],
    "memory_types": [{"flags": ["DEVICE_LOCAL"], "heap": 0}, {"flags": ["HOST_VISIBLE", "HOST_COHERENT"], "heap": 1},
                     {"flags": ["DEVICE_LOCAL", "HOST_VISIBLE", "HOST_COHERENT", "DEVICE_COHERENT_AMD"], "heap": 0}],
    "features": {"device_coherent_memory": true}}"#;
const TILE_CONFIG: &str = r#"{
    "device_extensions": ["VK_KHR_external_memory", "VK_KHR_external_memory_fd", "VK_KHR_get_memory_requirements2",
                          "VK_QCOM_tile_memory_heap"],
    "memory_types": [{"flags": ["DEVICE_LOCAL"], "heap": 0}, {"flags": ["HOST_VISIBLE", "HOST_COHERENT"], "heap": 1},
                     {"flags": ["DEVICE_LOCAL"], "heap": 2}],
    "memory_heaps": [{"size": 1073741824, "flags": ["DEVICE_LOCAL"]}, {"size": 1073741824},
                     {"size": 1048576, "flags": ["DEVICE_LOCAL", "TILE_MEMORY_QCOM"]}],
    "features": {"tile_memory_heap": true}}"#;

fn allocate_in(dev: &Device, memory_type: u32) -> Result<vk::DeviceMemory, vk::Result> {
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(4096)
        .memory_type_index(memory_type);
    dev.allocate_with(&info)
}

/// A memory type that needs a feature: without it, exactly `id` naming the type and the feature;
/// with it, silence; the other types are silent either way.
fn a_type_needs_its_feature(
    inst: &Instance,
    without: &Device,
    with: &Device,
    id: &str,
    says: &[&str],
) {
    let other = allocate_in(without, 0).expect("an ordinary type");
    expect::silent(inst, ALLOCATE);
    without.free(other);
    let result = allocate_in(without, 2);
    let m = expect::one(inst, ALLOCATE, id);
    expect::mentions(&m, says);
    expect::mentions(&m, &["pAllocateInfo->memoryTypeIndex is 2"]);
    without.free_if_made(result);
    let memory = allocate_in(with, 2).expect("the type, with its feature");
    expect::silent(inst, ALLOCATE);
    with.free(memory);
}

#[test]
fn a_protected_type_needs_protected_memory_01872() {
    let inst = test_driver::instance(Some(PROTECTED_CONFIG));
    let without = inst.fd_device();
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default().protected_memory(true);
    let with = inst.device_with_features(
        &[ash::khr::external_memory_fd::NAME],
        Some((&mut v11 as *mut vk::PhysicalDeviceVulkan11Features<'_>).cast()),
    );
    a_type_needs_its_feature(
        &inst,
        &without,
        &with,
        PROTECTED_01872,
        &[
            "VK_MEMORY_PROPERTY_PROTECTED_BIT [DEVICE_LOCAL|PROTECTED]",
            "protectedMemory feature",
        ],
    );
    // The structure of its own counts too.
    let mut protected = vk::PhysicalDeviceProtectedMemoryFeatures::default().protected_memory(true);
    let with = inst.device_with_features(
        &[ash::khr::external_memory_fd::NAME],
        Some((&mut protected as *mut vk::PhysicalDeviceProtectedMemoryFeatures<'_>).cast()),
    );
    let memory = allocate_in(&with, 2).expect("protected memory");
    expect::silent(&inst, ALLOCATE);
    with.free(memory);
}

#[test]
fn a_device_coherent_type_needs_device_coherent_memory_02790() {
    let inst = test_driver::instance(Some(COHERENT_CONFIG));
    let extensions = [
        ash::khr::external_memory_fd::NAME,
        ash::amd::device_coherent_memory::NAME,
    ];
    let without = inst.device(&extensions);
    let mut coherent =
        vk::PhysicalDeviceCoherentMemoryFeaturesAMD::default().device_coherent_memory(true);
    let with = inst.device_with_features(
        &extensions,
        Some((&mut coherent as *mut vk::PhysicalDeviceCoherentMemoryFeaturesAMD<'_>).cast()),
    );
    a_type_needs_its_feature(
        &inst,
        &without,
        &with,
        COHERENT_02790,
        &[
            "VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD",
            "deviceCoherentMemory feature was not enabled",
        ],
    );
}

#[test]
fn a_type_of_a_tile_memory_heap_needs_tile_memory_heap_10976() {
    let inst = test_driver::instance(Some(TILE_CONFIG));
    let extensions = [
        ash::khr::external_memory_fd::NAME,
        ash::khr::get_memory_requirements2::NAME,
        c"VK_QCOM_tile_memory_heap",
    ];
    let without = inst.device(&extensions);
    let mut tile = TileMemoryHeapFeatures {
        s_type: TILE_FEATURES,
        p_next: std::ptr::null_mut(),
        tile_memory_heap: vk::TRUE,
    };
    let with = inst.device_with_features(
        &extensions,
        Some((&mut tile as *mut TileMemoryHeapFeatures).cast()),
    );
    a_type_needs_its_feature(
        &inst,
        &without,
        &with,
        TILE_10976,
        &[
            "a heap with VK_MEMORY_HEAP_TILE_MEMORY_BIT_QCOM",
            "tileMemoryHeap feature was not enabled",
        ],
    );
}

#[test]
fn a_device_without_queues_is_queuecount() {
    let inst = test_driver::instance(None);
    let names = [ash::khr::external_memory_fd::NAME.as_ptr()];
    let create = vk::DeviceCreateInfo::default().enabled_extension_names(&names);
    let empty = inst
        .device_from(
            inst.physical_device,
            &create,
            &[ash::khr::external_memory_fd::NAME],
            false,
        )
        .expect("the test driver takes a device without queues");
    let result = allocate_in(&empty, 0);
    let m = expect::one(&inst, ALLOCATE, QUEUECOUNT);
    expect::mentions(
        &m,
        &[&format!(
            "device is {}, which was created with VkDeviceCreateInfo::queueCreateInfoCount 0",
            device_name(&empty)
        )],
    );
    empty.free_if_made(result);

    let with_queue = inst.fd_device();
    let memory = allocate_in(&with_queue, 0).expect("an allocation");
    expect::silent(&inst, ALLOCATE);
    with_queue.free(memory);
}
