//! vkGetMemoryHostPointerPropertiesEXT end to end on lavapipe, which has VK_EXT_external_memory_host
//! (minImportedHostPointerAlignment 4096, learned by the layer at vkCreateDevice). Each bad call
//! yields exactly the IDs of the rules it breaks; a NULL output or one of the wrong sType never
//! reaches the driver (nothing is written), the others are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::device_name;
use exportcheck_tests::{expect, Device, Instance, FAILED};
use std::ffi::c_void;

const CMD: &str = "vkGetMemoryHostPointerPropertiesEXT";
const DEVICE_PARAM: &str = "VUID-vkGetMemoryHostPointerPropertiesEXT-device-parameter";
const HANDLE_TYPE_01752: &str = "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-01752";
const POINTER_01753: &str = "VUID-vkGetMemoryHostPointerPropertiesEXT-pHostPointer-01753";
const HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryHostPointerPropertiesEXT-handleType-parameter";
const OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryHostPointerPropertiesEXT-pMemoryHostPointerProperties-parameter";
const STYPE: &str = "VUID-VkMemoryHostPointerPropertiesEXT-sType-sType";
const PNEXT: &str = "VUID-VkMemoryHostPointerPropertiesEXT-pNext-pNext";
const HOST_ALLOCATION: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
const UNWRITTEN: u32 = 0x5e47;

fn host_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::ext::external_memory_host::NAME,
    ])
}

/// The physical device's minImportedHostPointerAlignment, as the app asks it.
fn alignment(inst: &Instance) -> usize {
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
    // SAFETY: the instance's own physical device and valid output structures.
    unsafe {
        inst.instance
            .get_physical_device_properties2(inst.physical_device, &mut properties)
    };
    let a = host.min_imported_host_pointer_alignment as usize;
    assert!(a.is_power_of_two(), "{a}");
    a
}

/// Host memory with at least `2 * alignment` bytes past its first aligned address, and that address.
fn host_memory(alignment: usize) -> (Vec<u8>, *const c_void) {
    let buffer = vec![0u8; 3 * alignment];
    let aligned = (buffer.as_ptr() as usize).next_multiple_of(alignment);
    (buffer, aligned as *const c_void)
}

fn properties() -> vk::MemoryHostPointerPropertiesEXT<'static> {
    vk::MemoryHostPointerPropertiesEXT {
        memory_type_bits: UNWRITTEN,
        ..Default::default()
    }
}

fn query_fn(inst: &Instance, dev: &Device) -> vk::PFN_vkGetMemoryHostPointerPropertiesEXT {
    // SAFETY: the command's own PFN type.
    unsafe { inst.device_fn(dev, c"vkGetMemoryHostPointerPropertiesEXT") }
}

fn call(
    inst: &Instance,
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    pointer: *const c_void,
    out: *mut vk::MemoryHostPointerPropertiesEXT<'_>,
) -> vk::Result {
    // SAFETY: `out` is NULL (on purpose) or a live structure; `pointer` is live host memory or a
    // value the layer must judge without reading it.
    unsafe { query_fn(inst, dev)(dev.handle(), handle_type, pointer, out) }
}

#[test]
fn an_aligned_host_allocation_is_silent_and_answered() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let (_buffer, pointer) = host_memory(alignment(&inst));
    let mut out = properties();
    assert_eq!(
        call(&inst, &dev, HOST_ALLOCATION, pointer, &mut out),
        vk::Result::SUCCESS
    );
    assert!(out.memory_type_bits != 0 && out.memory_type_bits != UNWRITTEN);
    expect::silent(&inst, CMD);
}

#[test]
fn another_handle_type_is_01752() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let (_buffer, pointer) = host_memory(alignment(&inst));
    let mut out = properties();
    let r = call(
        &inst,
        &dev,
        vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        pointer,
        &mut out,
    );
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "lavapipe's own answer"
    );
    let m = expect::one(&inst, CMD, HANDLE_TYPE_01752);
    expect::mentions(
        &m,
        &[
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; it must be \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT or",
        ],
    );
    // Not a single defined bit: both rules.
    let r = call(
        &inst,
        &dev,
        vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 30),
        pointer,
        &mut out,
    );
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "lavapipe's own answer"
    );
    let both = expect::only(&inst, CMD, &[HANDLE_TYPE_PARAM, HANDLE_TYPE_01752]);
    expect::mentions(
        &both[0],
        &[&format!(
            "which is not a valid VkExternalMemoryHandleTypeFlagBits value on {}",
            device_name(&dev)
        )],
    );
}

#[test]
fn a_misaligned_pointer_is_01753_and_goes_down() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let a = alignment(&inst);
    let (_buffer, pointer) = host_memory(a);
    let odd = pointer.wrapping_byte_add(64);
    let mut out = properties();
    // Lavapipe answers it anyway: the driver's result reaches the app.
    assert_eq!(
        call(&inst, &dev, HOST_ALLOCATION, odd, &mut out),
        vk::Result::SUCCESS
    );
    let m = expect::one(&inst, CMD, POINTER_01753);
    expect::mentions(
        &m,
        &[&format!(
            "pHostPointer is {odd:p}, which is not a multiple of \
             VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment \
             ({a}) of the physical device of {} (it is 64 bytes past a multiple).",
            device_name(&dev)
        )],
    );
}

#[test]
fn the_output_structure_is_checked() {
    let inst = Instance::new();
    let dev = host_device(&inst);
    let (_buffer, pointer) = host_memory(alignment(&inst));
    assert_eq!(
        call(&inst, &dev, HOST_ALLOCATION, pointer, std::ptr::null_mut()),
        FAILED
    );
    let m = expect::one(&inst, CMD, OUTPUT_PARAM);
    expect::mentions(
        &m,
        &[
            "pMemoryHostPointerProperties is NULL",
            "not passed to the driver",
        ],
    );

    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_FD_PROPERTIES_KHR;
    assert_eq!(
        call(&inst, &dev, HOST_ALLOCATION, pointer, &mut wrong),
        FAILED
    );
    assert_eq!(
        wrong.memory_type_bits, UNWRITTEN,
        "never reached the driver"
    );
    let m = expect::one(&inst, CMD, STYPE);
    expect::mentions(
        &m,
        &[
            "pMemoryHostPointerProperties->sType is VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR; \
           it must be VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT",
        ],
    );

    let mut extension = vk::BaseOutStructure::default();
    let mut chained = properties();
    chained.p_next = (&mut extension as *mut vk::BaseOutStructure<'_>).cast::<c_void>();
    assert_eq!(
        call(&inst, &dev, HOST_ALLOCATION, pointer, &mut chained),
        vk::Result::SUCCESS
    );
    let m = expect::one(&inst, CMD, PNEXT);
    expect::mentions(&m, &["pMemoryHostPointerProperties->pNext is not NULL"]);
}

#[test]
fn an_unknown_device_is_blocked() {
    let inst = Instance::exclusive();
    let dev = host_device(&inst);
    let f = query_fn(&inst, &dev);
    let mut out = properties();
    // SAFETY: the layer's own entry point; it never dereferences the made-up device.
    let r = unsafe {
        f(
            vk::Device::from_raw(0x1234),
            HOST_ALLOCATION,
            std::ptr::null(),
            &mut out,
        )
    };
    assert_eq!(r, FAILED);
    assert_eq!(out.memory_type_bits, UNWRITTEN);
    expect::unknown_device(
        &[&inst],
        CMD,
        DEVICE_PARAM,
        &[
            "vkGetMemoryHostPointerPropertiesEXT(): device (0x1234) is not a VkDevice created \
           through this layer",
        ],
    );
    drop(dev);
}

#[test]
fn a_device_without_the_extension_gets_the_warning() {
    let inst = Instance::new();
    let host = host_device(&inst);
    let plain = inst.fd_device();
    let (_buffer, pointer) = host_memory(alignment(&inst));
    // The layer's function, fetched from the device with the extension, called on the other.
    let f = query_fn(&inst, &host);
    let mut out = properties();
    // SAFETY: the layer's own entry point with live arguments.
    let r = unsafe { f(plain.handle(), HOST_ALLOCATION, pointer, &mut out) };
    assert_ne!(r, FAILED, "a warning does not block the call");
    // HOST_ALLOCATION is a value of the extension the device lacks: -parameter too.
    let both = expect::only(
        &inst,
        CMD,
        &["EXPORTCHECK-extension-not-enabled", HANDLE_TYPE_PARAM],
    );
    expect::mentions(
        &both[0],
        &[&format!(
            "device is {}, which was created without VK_EXT_external_memory_host",
            device_name(&plain)
        )],
    );
}
