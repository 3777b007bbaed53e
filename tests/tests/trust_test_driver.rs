//! On the test driver: what reaches the driver is what the app made (a reported `pNext` on an
//! export's info structure goes down unchanged, the driver sees the app's own address), and an
//! exported allocation of size 0 (`VUID-VkMemoryAllocateInfo-allocationSize-07899`).

use ash::vk;
use exportcheck_tests::hostile::Node;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, instance, last_p_next};
use exportcheck_tests::{expect, fds, OPAQUE_FD, SIZE};
use std::ffi::c_void;

#[test]
fn a_reported_p_next_reaches_the_driver_as_the_app_made_it() {
    // Exclusive: the driver remembers the last pNext process-wide.
    let inst = exclusive(None);
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let stray = Node {
        s_type: vk::StructureType::from_raw(1_000_999_123),
        p_next: std::ptr::null(),
        room: [0; 8],
    };
    let p_next = (&raw const stray).cast::<c_void>();
    let mut info = vk::MemoryGetFdInfoKHR::default()
        .memory(memory)
        .handle_type(OPAQUE_FD);
    info.p_next = p_next;
    let (r, fd) = dev.get_fd_with(&info);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed down");
    fds::close_if_open(fd);
    assert_eq!(
        last_p_next(c"vkGetMemoryFdKHR"),
        p_next as usize,
        "the driver got the app's own structure, pNext and all"
    );
    let m = expect::one(&inst, GET_FD, FD_PNEXT);
    expect::mentions(&m, &["The call goes down as the app made it."]);
    // A clean call: the driver sees its NULL pNext.
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close_if_open(fd);
    assert_eq!(last_p_next(c"vkGetMemoryFdKHR"), 0);
    expect::silent(&inst, GET_FD);
    dev.free(memory);
}

#[test]
fn an_exported_allocation_of_size_0_is_07899() {
    let inst = instance(None);
    let dev = inst.fd_device();
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(0)
        .memory_type_index(0)
        .push_next(&mut export);
    // Reported, then passed down: what the driver does with it is the driver's.
    if let Ok(memory) = dev.allocate_with(&info) {
        dev.free(memory);
    }
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_07899);
    expect::mentions(
        &m,
        &[
            "vkAllocateMemory(): pAllocateInfo->allocationSize is 0, but the allocation is \
             exported (VkExportMemoryAllocateInfo::handleTypes = \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)",
        ],
    );
    // The same export with a size: silent.
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
}
