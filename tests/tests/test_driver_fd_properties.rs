//! vkGetMemoryFdPropertiesKHR end to end, on the project's test driver (`tests/icd`): lavapipe
//! (Mesa 22.3) has the command but not VK_EXT_external_memory_dma_buf, and answers only the
//! OPAQUE_FD query the spec forbids (00674), so no valid call can be made there. Each bad call
//! yields exactly the IDs of the rules it breaks; a call whose pointer or fd is known to be bad
//! never reaches the driver (its call counter stays), the others are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::device_name;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, fds, Device, Instance, DMA_BUF, FAILED, OPAQUE_FD, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = "vkGetMemoryFdPropertiesKHR";
const COUNTED: &CStr = c"vkGetMemoryFdPropertiesKHR";
const DEVICE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-device-parameter";
const FD_00673: &str = "VUID-vkGetMemoryFdPropertiesKHR-fd-00673";
const HANDLE_TYPE_00674: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-00674";
const HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-handleType-parameter";
const OUTPUT_PARAM: &str = "VUID-vkGetMemoryFdPropertiesKHR-pMemoryFdProperties-parameter";
const STYPE: &str = "VUID-VkMemoryFdPropertiesKHR-sType-sType";
const PNEXT: &str = "VUID-VkMemoryFdPropertiesKHR-pNext-pNext";
/// What `memoryTypeBits` is pre-filled with, to see whether anything was written.
const UNWRITTEN: u32 = 0x5e47;

/// A device with VK_KHR_external_memory_fd and VK_EXT_external_memory_dma_buf.
fn dma_buf_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::khr::external_memory_fd::NAME,
        ash::ext::external_memory_dma_buf::NAME,
    ])
}

/// A dma-buf fd of new memory of `dev` (the memory is returned for freeing).
fn dma_buf_fd(dev: &Device) -> (vk::DeviceMemory, i32) {
    let memory = dev.allocate(SIZE, Some(DMA_BUF));
    let (r, fd) = dev.get_fd(memory, DMA_BUF);
    assert_eq!(r, vk::Result::SUCCESS);
    (memory, fd)
}

fn properties() -> vk::MemoryFdPropertiesKHR<'static> {
    vk::MemoryFdPropertiesKHR {
        memory_type_bits: UNWRITTEN,
        ..Default::default()
    }
}

/// `vkGetMemoryFdPropertiesKHR` through the layer with any output pointer.
fn call(
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    fd: i32,
    out: *mut vk::MemoryFdPropertiesKHR<'_>,
) -> vk::Result {
    // SAFETY: `out` is NULL (on purpose) or points to a live structure.
    unsafe { (dev.fd.fp().get_memory_fd_properties_khr)(dev.handle(), handle_type, fd, out) }
}

/// An fd number that is not open: a descriptor opened and closed again (the test holds the
/// exclusive instance, so no other test of the binary opens one meanwhile).
fn closed_fd() -> i32 {
    // SAFETY: a NUL-terminated path; the fd is closed right away.
    let fd = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    assert!(fd >= 0);
    fds::close(fd);
    fd
}

#[test]
fn a_dma_buf_query_is_silent_and_answered() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let (memory, fd) = dma_buf_fd(&dev);
    expect::silent(&inst, "vkGetMemoryFdKHR");
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    assert_eq!(call(&dev, DMA_BUF, fd, &mut out), vk::Result::SUCCESS);
    calls.assert(1, "a valid call goes down once");
    assert!(
        out.memory_type_bits != 0 && out.memory_type_bits != UNWRITTEN,
        "the driver's answer reaches the app: {:#x}",
        out.memory_type_bits
    );
    expect::silent(&inst, CMD);
    fds::close(fd);
    dev.free(memory);
}

#[test]
fn opaque_fd_is_00674_and_goes_down() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let (memory, fd) = dma_buf_fd(&dev);
    inst.messages();
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    let r = call(&dev, OPAQUE_FD, fd, &mut out);
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "the driver's own answer"
    );
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_00674);
    expect::mentions(
        &m,
        &["handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; it must not be"],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    fds::close(fd);
    dev.free(memory);
}

#[test]
fn an_fd_that_is_not_open_is_00673_and_blocked() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let mut calls = Calls::of(COUNTED);
    for fd in [closed_fd(), -1] {
        let mut out = properties();
        assert_eq!(call(&dev, DMA_BUF, fd, &mut out), FAILED);
        calls.assert(0, "a bad fd never reaches the driver");
        assert_eq!(out.memory_type_bits, UNWRITTEN, "nothing is written");
        let m = expect::one(&inst, CMD, FD_00673);
        expect::mentions(
            &m,
            &[
                &format!("fd is {fd}, which is not an open file descriptor of the process"),
                "The call was not passed to the driver.",
            ],
        );
    }
}

#[test]
fn an_invalid_handle_type_is_the_parameter_rule() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let (memory, fd) = dma_buf_fd(&dev);
    inst.messages();
    let mut calls = Calls::of(COUNTED);
    for handle_type in [
        vk::ExternalMemoryHandleTypeFlags::empty(),
        DMA_BUF | OPAQUE_FD,
        vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 30),
        // Defined, but its extension (VK_ANDROID_external_memory_android_hardware_buffer) is not
        // enabled on the device.
        vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID,
    ] {
        let mut out = properties();
        let r = call(&dev, handle_type, fd, &mut out);
        assert_eq!(
            r,
            vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
            "the driver's own answer"
        );
        calls.assert(1, "reported, then passed down");
        let m = expect::one(&inst, CMD, HANDLE_TYPE_PARAM);
        expect::mentions(
            &m,
            &[&format!(
                "which is not a valid VkExternalMemoryHandleTypeFlagBits value on {}",
                device_name(&dev)
            )],
        );
    }
    fds::close(fd);
    dev.free(memory);
}

#[test]
fn the_output_structure_is_checked() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let (memory, fd) = dma_buf_fd(&dev);
    inst.messages();
    let mut calls = Calls::of(COUNTED);

    assert_eq!(call(&dev, DMA_BUF, fd, std::ptr::null_mut()), FAILED);
    calls.assert(0, "a NULL output never reaches the driver");
    let m = expect::one(&inst, CMD, OUTPUT_PARAM);
    expect::mentions(&m, &["pMemoryFdProperties is NULL"]);

    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_GET_FD_INFO_KHR;
    assert_eq!(call(&dev, DMA_BUF, fd, &mut wrong), FAILED);
    calls.assert(0, "the wrong structure never reaches the driver");
    assert_eq!(wrong.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, STYPE);
    expect::mentions(
        &m,
        &[
            "pMemoryFdProperties->sType is VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR; it must be \
           VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR",
        ],
    );

    let mut extension = vk::BaseOutStructure::default();
    let mut chained = properties();
    chained.p_next = (&mut extension as *mut vk::BaseOutStructure<'_>).cast::<c_void>();
    assert_eq!(call(&dev, DMA_BUF, fd, &mut chained), vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down as the app made it");
    let m = expect::one(&inst, CMD, PNEXT);
    expect::mentions(&m, &["pMemoryFdProperties->pNext is not NULL"]);
    fds::close(fd);
    dev.free(memory);
}

#[test]
fn a_call_that_breaks_several_rules_gets_each() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    let mut calls = Calls::of(COUNTED);
    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_GET_FD_INFO_KHR;
    assert_eq!(call(&dev, OPAQUE_FD, closed_fd(), &mut wrong), FAILED);
    calls.assert(0, "blocked");
    expect::only(&inst, CMD, &[FD_00673, HANDLE_TYPE_00674, STYPE]);
}

#[test]
fn an_unknown_device_is_blocked() {
    let inst = exclusive(None);
    let dev = dma_buf_device(&inst);
    // SAFETY: the command's own PFN type.
    let f: vk::PFN_vkGetMemoryFdPropertiesKHR = unsafe { inst.device_fn(&dev, COUNTED) };
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    // SAFETY: the layer's own entry point; it never dereferences the made-up device.
    let r = unsafe { f(vk::Device::from_raw(0x1234), DMA_BUF, 0, &mut out) };
    assert_eq!(r, FAILED);
    calls.assert(0, "never reaches the driver");
    expect::unknown_device(
        &[&inst],
        CMD,
        DEVICE_PARAM,
        &["vkGetMemoryFdPropertiesKHR(): device (0x1234) is not a VkDevice created through this layer"],
    );
    drop(dev);
}
