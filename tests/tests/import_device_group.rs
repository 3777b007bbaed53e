//! Opaque-fd imports checked against the device group and device mask of the allocation they
//! were exported from, end to end on the project's test driver configured with two physical
//! devices in one device group (`physical_device_count`, see docs/test-driver.md):
//! `VUID-VkMemoryAllocateInfo-None-00643` (the import's device mask, from
//! `VkMemoryAllocateFlagsInfo` or its heap's default, all the device's physical devices with
//! `VK_MEMORY_HEAP_MULTI_INSTANCE_BIT` and a single instance without, against the mask the
//! payload was allocated with) and `VUID-VkMemoryAllocateInfo-None-00644` (the importing device made of
//! other physical devices than the exporting one).
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, group_of_two};
use exportcheck_tests::{expect, fds, Device, Instance, OPAQUE_FD, SIZE};

const GROUP_OF_TWO: &str = r#"{"physical_device_count": 2}"#;
const FD: [&std::ffi::CStr; 1] = [ash::khr::external_memory_fd::NAME];

/// `SIZE` bytes of memory type 0 exportable as an opaque fd, on the physical devices of
/// `mask` (`VkMemoryAllocateFlagsInfo`) when given, else as its heap's default.
fn allocate(dev: &Device, mask: Option<u32>) -> vk::DeviceMemory {
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let mut flags = vk::MemoryAllocateFlagsInfo::default()
        .flags(vk::MemoryAllocateFlags::DEVICE_MASK)
        .device_mask(mask.unwrap_or(0));
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export);
    if mask.is_some() {
        info = info.push_next(&mut flags);
    }
    dev.allocate_with(&info).expect("exportable allocation")
}

/// Imports `fd` as `SIZE` bytes of memory type 0, with `mask` as in [`allocate`]; frees what
/// the driver made (it owns the fd then), else closes the fd.
fn import(dev: &Device, fd: i32, mask: Option<u32>) {
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(OPAQUE_FD)
        .fd(fd);
    let mut flags = vk::MemoryAllocateFlagsInfo::default()
        .flags(vk::MemoryAllocateFlags::DEVICE_MASK)
        .device_mask(mask.unwrap_or(0));
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import);
    if mask.is_some() {
        info = info.push_next(&mut flags);
    }
    match dev.allocate_with(&info) {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }
}

/// An opaque fd of `memory` the test now owns.
#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fd
}

/// The test driver's group of two, its heap 0 (of memory type 0) with
/// `VK_MEMORY_HEAP_MULTI_INSTANCE_BIT`.
const GROUP_OF_TWO_MULTI_INSTANCE: &str = r#"{"physical_device_count": 2,
    "memory_heaps": [{"size": 1073741824, "flags": ["DEVICE_LOCAL", "MULTI_INSTANCE"]},
                     {"size": 1073741824, "flags": []}]}"#;

/// What the message says of a mask, as the import or the export gave it.
fn described(mask: Option<u32>, multi_instance: bool) -> String {
    match (mask, multi_instance) {
        (Some(mask), _) => {
            format!("device mask 0x{mask:x} (VkMemoryAllocateFlagsInfo::deviceMask)")
        }
        (None, false) => "device mask 0x1 (no VkMemoryAllocateFlagsInfo with \
                          VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT, of a memory type whose heap lacks \
                          VK_MEMORY_HEAP_MULTI_INSTANCE_BIT: a single instance, as if deviceMask \
                          were 1)"
            .to_owned(),
        (None, true) => "device mask 0x3 (no VkMemoryAllocateFlagsInfo with \
                         VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT, of a memory type whose heap has \
                         VK_MEMORY_HEAP_MULTI_INSTANCE_BIT: all 2 physical devices (deviceUUID"
            .to_owned(),
    }
}

/// Exports memory allocated with `exported` and imports it with each of `imports` on `dev` and
/// on `other` (of the same physical devices), expecting 00643 (naming both masks) when `bad`.
fn judge_masks(
    inst: &Instance,
    devices: [&Device; 2],
    exported: Option<u32>,
    imports: &[Option<u32>],
    bad: bool,
    multi_instance: bool,
) {
    let memory = allocate(devices[0], exported);
    expect::silent(inst, ALLOCATE);
    for &mask in imports {
        for importer in devices {
            let fd = export(devices[0], memory);
            expect::silent(inst, GET_FD);
            import(importer, fd, mask);
            if !bad {
                expect::silent(inst, ALLOCATE);
                continue;
            }
            let m = expect::one(inst, ALLOCATE, ALLOC_NONE_00643);
            expect::mentions(
                &m,
                &[
                    &format!(
                        "vkGetMemoryFdKHR exported it from {}",
                        expect::memory_name(memory)
                    ),
                    &format!("The import has {}", described(mask, multi_instance)),
                    &format!(
                        "but the payload was allocated with {}",
                        described(exported, multi_instance)
                    ),
                ],
            );
        }
    }
    devices[0].free(memory);
}

#[test]
fn an_import_with_another_device_mask_is_00643() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = group_of_two(&inst);
    let dev = inst.device_of_group(&group, &FD);
    let other = inst.device_of_group(&group, &FD);
    let devices = [&dev, &other];
    // Named masks that differ.
    judge_masks(
        &inst,
        devices,
        Some(0b01),
        &[Some(0b10), Some(0b11)],
        true,
        false,
    );
    // Heap 0 lacks MULTI_INSTANCE: without a mask, a single instance, as if the mask were 0x1;
    // an import naming 0x3 (or 0x2) gives another.
    judge_masks(&inst, devices, None, &[Some(0b11), Some(0b10)], true, false);
    // Only named on the other side.
    judge_masks(&inst, devices, Some(0b11), &[None], true, false);
}

#[test]
fn an_import_with_the_same_device_mask_is_silent() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = group_of_two(&inst);
    let dev = inst.device_of_group(&group, &FD);
    let other = inst.device_of_group(&group, &FD);
    let devices = [&dev, &other];
    // A single instance (no mask, heap without MULTI_INSTANCE) is the mask 0x1, either way.
    judge_masks(
        &inst,
        devices,
        Some(0b01),
        &[None, Some(0b01)],
        false,
        false,
    );
    judge_masks(&inst, devices, None, &[None, Some(0b01)], false, false);
    judge_masks(&inst, devices, Some(0b11), &[Some(0b11)], false, false);
}

#[test]
fn without_a_mask_a_multi_instance_heap_is_on_every_physical_device() {
    let inst = exclusive(Some(GROUP_OF_TWO_MULTI_INSTANCE));
    let group = group_of_two(&inst);
    let dev = inst.device_of_group(&group, &FD);
    let other = inst.device_of_group(&group, &FD);
    let devices = [&dev, &other];
    judge_masks(&inst, devices, None, &[Some(0b01)], true, true);
    judge_masks(&inst, devices, Some(0b01), &[None], true, true);
    judge_masks(&inst, devices, None, &[None, Some(0b11)], false, true);
    judge_masks(&inst, devices, Some(0b11), &[None], false, true);
}

#[test]
fn an_import_on_other_physical_devices_is_00644() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = group_of_two(&inst);
    let pair = inst.device_of_group(&group, &FD);
    let first = inst.device_on(group[0], &FD, false);
    let memory = allocate(&pair, None);
    let fd = export(&pair, memory);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    import(&first, fd, None);
    let m = expect::one(&inst, ALLOCATE, ALLOC_NONE_00644);
    expect::mentions(
        &m,
        &[
            &format!(
                "{} is made of 1 physical device (deviceUUID {}), but {}, on which the payload \
                 was allocated, is made of 2 physical devices (deviceUUID {}, {})",
                expect::device_name(&first),
                hex(b"exportcheck-dev1"),
                expect::device_name(&pair),
                hex(b"exportcheck-dev1"),
                hex(b"exportcheck-dev2")
            ),
            "must be on a logical device made of the same physical devices",
        ],
    );
    // The other way round too.
    let single = allocate(&first, None);
    let fd = export(&first, single);
    import(&pair, fd, None);
    expect::one(&inst, ALLOCATE, ALLOC_NONE_00644);
    // A device of the same physical devices: silent.
    let again = inst.device_of_group(&group, &FD);
    let fd = export(&pair, memory);
    import(&again, fd, None);
    let other_first = inst.device_on(group[0], &FD, false);
    let fd = export(&first, single);
    import(&other_first, fd, None);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    first.free(single);
    pair.free(memory);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
