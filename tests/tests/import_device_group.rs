//! Opaque-fd imports checked against the device group and device mask of the allocation they
//! were exported from, end to end on the project's test driver configured with two physical
//! devices in one device group (`physical_device_count`, see docs/test-driver.md):
//! `VUID-VkMemoryAllocateInfo-None-00643` (the import's device mask, from
//! `VkMemoryAllocateFlagsInfo` or all the device's physical devices, against the mask the payload
//! was allocated with) and `VUID-VkMemoryAllocateInfo-None-00644` (the importing device made of
//! other physical devices than the exporting one).
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, fds, Device, Instance, OPAQUE_FD, SIZE};

const GROUP_OF_TWO: &str = r#"{"physical_device_count": 2}"#;
const FD: [&std::ffi::CStr; 1] = [ash::khr::external_memory_fd::NAME];

/// The instance's two physical devices (one group).
fn both(inst: &Instance) -> Vec<vk::PhysicalDevice> {
    let all: Vec<_> = inst
        .physical_devices()
        .into_iter()
        .map(|(pd, _)| pd)
        .collect();
    assert_eq!(all.len(), 2, "the test driver's group of two");
    all
}

/// `SIZE` bytes of memory type 0 exportable as an opaque fd, on the physical devices of
/// `mask` (`VkMemoryAllocateFlagsInfo`) when given, else on all of the device's.
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

#[test]
fn an_import_with_another_device_mask_is_00643() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = both(&inst);
    let dev = inst.device_of_group(&group, &FD);
    let other = inst.device_of_group(&group, &FD);
    let memory = allocate(&dev, Some(0b01));
    expect::silent(&inst, ALLOCATE);
    // Without a mask, the import is on both physical devices: not the export's mask.
    for (importer, mask) in [(&dev, None), (&other, Some(0b10))] {
        let fd = export(&dev, memory);
        expect::silent(&inst, GET_FD);
        import(importer, fd, mask);
        let m = expect::one(&inst, ALLOCATE, ALLOC_NONE_00643);
        let import_mask = match mask {
            None => "The import has device mask 0x3 (no VkMemoryAllocateFlagsInfo with \
                     VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT: all 2 physical devices (deviceUUID"
                .to_owned(),
            Some(mask) => format!(
                "The import has device mask 0x{mask:x} (VkMemoryAllocateFlagsInfo::deviceMask)"
            ),
        };
        expect::mentions(
            &m,
            &[
                &format!(
                    "vkGetMemoryFdKHR exported it from {}",
                    expect::memory_name(memory)
                ),
                &import_mask,
                "but the payload was allocated with device mask 0x1 \
                 (VkMemoryAllocateFlagsInfo::deviceMask)",
            ],
        );
    }
    // The same mask, on the exporting device or another of the same physical devices: silent.
    for importer in [&dev, &other] {
        let fd = export(&dev, memory);
        import(importer, fd, Some(0b01));
        expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    }
    // Memory allocated without a mask is on both: an import without one matches it.
    let everywhere = allocate(&dev, None);
    let fd = export(&dev, everywhere);
    import(&other, fd, None);
    let fd = export(&dev, everywhere);
    import(&other, fd, Some(0b11));
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    dev.free(everywhere);
    dev.free(memory);
}

#[test]
fn an_import_on_other_physical_devices_is_00644() {
    let inst = exclusive(Some(GROUP_OF_TWO));
    let group = both(&inst);
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
