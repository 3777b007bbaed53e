//! `vkAllocateMemory` at its limits, through the real loader over the test driver: an allocation
//! of 0 bytes that neither imports nor exports (`VUID-VkMemoryAllocateInfo-allocationSize-07897`;
//! the test driver refuses it, where a real driver may not survive it) and one allocation more
//! than `VkPhysicalDeviceLimits::maxMemoryAllocationCount`
//! (`VUID-vkAllocateMemory-maxMemoryAllocationCount-04101`; the test driver's limit is
//! configurable and not enforced, so the call goes down and succeeds). Each is reported and goes
//! down; the valid neighbours are silent.

use ash::vk;
use exportcheck_tests::expect::device_name;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, test_driver, Device, OPAQUE_FD};

const SIZE_07897: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07897";
const SIZE_07899: &str = "VUID-VkMemoryAllocateInfo-allocationSize-07899";
const COUNT_04101: &str = "VUID-vkAllocateMemory-maxMemoryAllocationCount-04101";

fn allocate(dev: &Device, size: u64) -> Result<vk::DeviceMemory, vk::Result> {
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(0);
    dev.allocate_with(&info)
}

#[test]
fn zero_bytes_of_plain_memory_is_07897_and_goes_down() {
    let inst = test_driver::instance(None);
    let dev = inst.fd_device();
    let result = allocate(&dev, 0);
    let m = expect::one(&inst, ALLOCATE, SIZE_07897);
    expect::mentions(
        &m,
        &["pAllocateInfo->allocationSize is 0, and the allocation neither imports"],
    );
    assert_eq!(
        result,
        Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY),
        "the call went down, and the test driver refused it"
    );
    // An export structure with no handle types exports nothing: the same rule.
    let mut export = vk::ExportMemoryAllocateInfo::default();
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(0)
        .memory_type_index(0)
        .push_next(&mut export);
    let _ = dev.allocate_with(&info);
    expect::one(&inst, ALLOCATE, SIZE_07897);
}

#[test]
fn zero_bytes_beside_an_import_structure_the_layer_does_not_read_is_not_judged() {
    let inst = test_driver::instance(None);
    let dev = inst.fd_device();
    // A QNX screen buffer import may define an import whose size is the buffer's: not certain,
    // so not 07897 (the test driver ignores the structure and refuses the size).
    let mut screen = vk::ImportScreenBufferInfoQNX {
        buffer: std::ptr::NonNull::dangling().as_ptr(),
        ..Default::default()
    };
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(0)
        .memory_type_index(0)
        .push_next(&mut screen);
    assert_eq!(
        dev.allocate_with(&info),
        Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
    );
    expect::silent(&inst, ALLOCATE);
}

#[test]
fn one_byte_is_silent_and_a_zero_size_export_is_07899_alone() {
    let inst = test_driver::instance(None);
    let dev = inst.fd_device();
    let memory = allocate(&dev, 1).expect("one byte");
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
    // An export of 0 bytes is the export's own rule, not 07897 as well.
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(0)
        .memory_type_index(0)
        .push_next(&mut export);
    let _ = dev.allocate_with(&info);
    expect::one(&inst, ALLOCATE, SIZE_07899);
}

#[test]
fn the_allocation_past_max_memory_allocation_count_is_04101() {
    let inst = test_driver::instance(Some(r#"{"max_memory_allocation_count": 3}"#));
    let dev = inst.fd_device();
    let mut live: Vec<_> = (0..3)
        .map(|_| allocate(&dev, 4096).expect("below the limit"))
        .collect();
    expect::silent(&inst, ALLOCATE);
    let fourth = allocate(&dev, 4096).expect("the test driver does not enforce the limit");
    let m = expect::one(&inst, ALLOCATE, COUNT_04101);
    expect::mentions(
        &m,
        &[&format!(
            "3 device memory allocations are live on {} (allocated and not yet freed), and \
             VkPhysicalDeviceLimits::maxMemoryAllocationCount is 3",
            device_name(&dev)
        )],
    );
    live.push(fourth);
    // Freed ones make room again: two freed of four live leaves two, below the limit.
    dev.free(live.pop().unwrap());
    dev.free(live.pop().unwrap());
    live.push(allocate(&dev, 4096).expect("room again"));
    expect::silent_for(&inst, &[ALLOCATE, FREE]);
    // The count is per device: another device of the same instance starts at 0.
    let other = inst.fd_device();
    let memory = allocate(&other, 4096).expect("another device");
    expect::silent(&inst, ALLOCATE);
    other.free(memory);
    for memory in live {
        dev.free(memory);
    }
}
