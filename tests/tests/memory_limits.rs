//! `vkAllocateMemory` against the physical device's memory properties, through the real loader
//! over lavapipe: a memory type the device does not have
//! (`VUID-vkAllocateMemory-pAllocateInfo-01714`, blocked) and an allocation larger than its
//! type's heap (`VUID-vkAllocateMemory-pAllocateInfo-01713`, passed down). The valid allocations of
//! the other tests are the positive side; one here too, at the edge: the last memory type.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, Instance, SIZE};

const TYPE_INDEX_01714: &str = "VUID-vkAllocateMemory-pAllocateInfo-01714";
const SIZE_01713: &str = "VUID-vkAllocateMemory-pAllocateInfo-01713";

#[test]
fn the_last_memory_type_is_silent_and_the_next_index_is_01714_and_blocked() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let count = inst.memory_properties().memory_type_count;
    let last = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(count - 1);
    let memory = dev.allocate_with(&last).expect("the last memory type");
    expect::silent_for(&inst, &[ALLOCATE]);
    dev.free(memory);

    let past = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(count);
    assert_eq!(
        dev.allocate_with(&past),
        Err(vk::Result::ERROR_VALIDATION_FAILED_EXT),
        "blocked: the driver would index its memory types with it"
    );
    let m = expect::only(&inst, ALLOCATE, &[TYPE_INDEX_01714]);
    expect::mentions(
        &m[0],
        &[&format!(
            "pAllocateInfo->memoryTypeIndex is {count}, but the physical device has {count} \
             memory type(s)"
        )],
    );
}

#[test]
fn an_allocation_larger_than_its_heap_is_01713_and_goes_down() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let props = inst.memory_properties();
    let heap = props.memory_heaps[props.memory_types[0].heap_index as usize].size;
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(heap + 1)
        .memory_type_index(0);
    let result = dev.allocate_with(&info);
    let m = expect::only(&inst, ALLOCATE, &[SIZE_01713]);
    expect::mentions(
        &m[0],
        &[&format!(
            "pAllocateInfo->allocationSize is {}, larger than the heap of memory type 0 ({heap} \
             bytes",
            heap + 1
        )],
    );
    // The call went down (lavapipe, which overcommits, even succeeds).
    assert_ne!(result, Err(vk::Result::ERROR_VALIDATION_FAILED_EXT));
    if let Ok(memory) = result {
        dev.free(memory);
    }
}
