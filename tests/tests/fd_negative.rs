//! vkGetMemoryFdKHR's value rules, through the real loader over lavapipe: each invalid
//! `handleType` gets every rule it breaks (-parameter, 00672, 00671), and a callback that returns
//! VK_TRUE skips a call that would go down. Each test asserts the exact list of IDs the app's
//! messenger received, the return code, whether the driver saw the call (the fd slot is
//! pre-filled with SENTINEL) and what the message says. The structural cases (NULL pointers, a
//! wrong sType, pNext, NULL, garbage, freed and another device's memory, unknown and destroyed
//! devices, a device without the extension) are rows of tests/tests/structural.rs, which runs
//! them on lavapipe too.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::{
    expect, fds, Instance, DMA_BUF, FAILED, OPAQUE_FD, OPAQUE_WIN32, SENTINEL, SIZE,
};

#[test]
fn invalid_handle_type_values_get_every_rule_they_break() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    let not_fd_or_dma_buf =
        "vkGetMemoryFdKHR exports only VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT \
                             or VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT";
    let every_rule = [
        FD_HANDLE_TYPE_PARAM,
        FD_HANDLE_TYPE_00672,
        FD_HANDLE_TYPE_00671,
    ];
    // (value, the IDs it gets, how the value is named, why it is not a valid value)
    let cases: [(u32, &[&str], &str, &str); 5] = [
        // 0 is no single fd type (00672), but trivially "included" in the export types.
        (
            0,
            &[FD_HANDLE_TYPE_PARAM, FD_HANDLE_TYPE_00672],
            "0",
            "0 is no VkExternalMemoryHandleTypeFlagBits value",
        ),
        (
            (OPAQUE_FD | OPAQUE_WIN32).as_raw(),
            &every_rule,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "it has more than one bit, and must be a single value",
        ),
        // Lavapipe has no VK_EXT_external_memory_dma_buf: the DMA_BUF bit is not valid here.
        (
            (OPAQUE_FD | DMA_BUF).as_raw(),
            &every_rule,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
             VK_EXT_external_memory_dma_buf, which the device was created without; it has more \
             than one bit, and must be a single value",
        ),
        (
            1 << 13,
            &every_rule,
            "0x2000 (unknown bits)",
            "0x2000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
        (
            1 << 31,
            &every_rule,
            "0x80000000 (unknown bits)",
            "0x80000000 is not a VkExternalMemoryHandleTypeFlagBits value",
        ),
    ];
    for (raw, ids, named, why) in cases {
        let (r, fd) = dev.get_fd(mem, vk::ExternalMemoryHandleTypeFlags::from_raw(raw));
        // Not a bad pointer or handle: reported, and the call goes down (the driver writes pFd;
        // lavapipe does not validate and exports anyway).
        assert_eq!(r, vk::Result::SUCCESS, "{raw:#x}");
        assert_ne!(fd, SENTINEL, "{raw:#x}: the call must reach the driver");
        fds::close_if_open(fd);
        // Every rule the value breaks, each said once, in this order.
        let m = expect::only(&inst, GET_FD, ids);
        expect::mentions(
            &m[0],
            &[&format!(
                "pGetFdInfo->handleType is {named}, which is not a valid \
                     VkExternalMemoryHandleTypeFlagBits value on {}: {why}.",
                device_name(&dev)
            )],
        );
        expect::mentions(
            &m[1],
            &[&format!(
                "pGetFdInfo->handleType is {named}; {not_fd_or_dma_buf}"
            )],
        );
        if let Some(m) = m.get(2) {
            expect::mentions(
                m,
                &[
                    &format!(
                        "pGetFdInfo->handleType is {named}, which was not included in \
                         VkExportMemoryAllocateInfo::handleTypes \
                         (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)"
                    ),
                    &memory_name(mem),
                ],
            );
        }
    }
    dev.free(mem);
    drop(dev);
}

#[test]
fn non_fd_handle_type_is_00672() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD | OPAQUE_WIN32));
    // OPAQUE_WIN32 is a core bit, valid on any device. Whether lavapipe can export it
    // (VUID-VkExportMemoryAllocateInfo-handleTypes-09860) is judged against the buffer or image
    // the memory is bound to, not at a plain allocation: nothing to say yet.
    expect::silent(&inst, ALLOCATE);
    let (r, fd) = dev.get_fd(mem, OPAQUE_WIN32);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    // Exported with OPAQUE_WIN32, so 00671 holds: only 00672.
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00672);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
            "exports only VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT or \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn export_of_memory_allocated_without_export_info_is_00671() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    // Reported, then passed to lavapipe, which "exports" a non-exportable allocation as fd -1.
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(
        &m,
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
            &format!("{} (allocated on {}", memory_name(mem), device_name(&dev)),
            "allocated without a VkExportMemoryAllocateInfo",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    dev.free(mem);
    drop(dev);
}

#[test]
fn dma_buf_on_a_device_without_its_extension_is_handle_type_parameter() {
    // Lavapipe has no VK_EXT_external_memory_dma_buf, so no device of it can be created with it:
    // the DMA_BUF bit is not a valid value on the device.
    let dma_buf_not_enabled = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT belongs to \
                               VK_EXT_external_memory_dma_buf, which the device was created without";
    let inst = Instance::new();
    let dev = inst.fd_device();

    // On memory exported with OPAQUE_FD only: the bit is invalid and was not exported either.
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::only(&inst, GET_FD, &[FD_HANDLE_TYPE_PARAM, FD_HANDLE_TYPE_00671]);
    expect::mentions(
        &m[0],
        &[&format!(
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which \
                 is not a valid VkExternalMemoryHandleTypeFlagBits value on {}: \
                 {dma_buf_not_enabled}.",
            device_name(&dev)
        )],
    );
    expect::object(&m[0], vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::mentions(
        &m[1],
        &[
            "pGetFdInfo->handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, which was \
             not included in VkExportMemoryAllocateInfo::handleTypes \
             (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)",
            &memory_name(mem),
        ],
    );
    dev.free(mem);

    // On memory exported with DMA_BUF: the allocation already breaks the -parameter rule of
    // VkExportMemoryAllocateInfo, and the export only the -parameter rule of handleType.
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD | DMA_BUF));
    let m = expect::one(&inst, ALLOCATE, EXPORT_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkExportMemoryAllocateInfo>.handleTypes is \
             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, \
             which is not a valid combination of VkExternalMemoryHandleTypeFlagBits values",
            &format!("on {}: {dma_buf_not_enabled}.", device_name(&dev)),
        ],
    );
    let (r, fd) = dev.get_fd(mem, DMA_BUF);
    assert_eq!(r, vk::Result::SUCCESS, "reported, then passed to lavapipe");
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    fds::close_if_open(fd);
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_PARAM);
    expect::mentions(&m, &[dma_buf_not_enabled]);
    dev.free(mem);
    drop(dev);
}

#[test]
fn callback_returning_true_skips_a_non_blocking_call() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    // Not exported: exporting it breaks exactly one rule (00671), which does not block the call.
    let mem = dev.allocate(SIZE, None);

    inst.answer(true);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL, "a skipped call writes no fd");
    let m = expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    expect::mentions(&m, &["allocated without a VkExportMemoryAllocateInfo"]);

    inst.answer(false);
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(fd, SENTINEL, "the call must reach the driver");
    // Lavapipe "exports" a non-exportable allocation as fd -1.
    fds::close_if_open(fd);
    expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);

    dev.free(mem);
    drop(dev);
}
