//! vkGetMemoryMetalHandlePropertiesEXT end to end, on the project's test driver (`tests/icd`),
//! which exposes VK_EXT_external_memory_metal on Linux and answers the query for any non-NULL
//! handle of a Metal type. Each bad call yields exactly the IDs of the rules it breaks; a call
//! whose pointer or handle is known to be bad never reaches the driver (its call counter stays),
//! the others are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::app::{MTLBUFFER, MTLHEAP, MTLTEXTURE};
use exportcheck_tests::expect::device_name;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, FAILED, OPAQUE_FD};
use std::ffi::{c_void, CStr};

const CMD: &str = "vkGetMemoryMetalHandlePropertiesEXT";
const COUNTED: &CStr = c"vkGetMemoryMetalHandlePropertiesEXT";
const DEVICE_PARAM: &str = "VUID-vkGetMemoryMetalHandlePropertiesEXT-device-parameter";
const HANDLE_10416: &str = "VUID-vkGetMemoryMetalHandlePropertiesEXT-handle-10416";
const HANDLE_TYPE_10417: &str = "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-10417";
const HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryMetalHandlePropertiesEXT-handleType-parameter";
const OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryMetalHandlePropertiesEXT-pMemoryMetalHandleProperties-parameter";
const STYPE: &str = "VUID-VkMemoryMetalHandlePropertiesEXT-sType-sType";
const PNEXT: &str = "VUID-VkMemoryMetalHandlePropertiesEXT-pNext-pNext";
/// `VK_STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT`
const PROPERTIES_STYPE: vk::StructureType = vk::StructureType::from_raw(1_000_602_001);
const UNWRITTEN: u32 = 0x5e47;
/// A made-up Metal object: the test driver's handles are numbers, never dereferenced.
const HANDLE: *const c_void = 0x4d00_0000_0101 as *const c_void;

/// `VkMemoryMetalHandlePropertiesEXT` (not in ash 0.38).
#[repr(C)]
struct Properties {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    memory_type_bits: u32,
}

type Pfn = unsafe extern "system" fn(
    vk::Device,
    vk::ExternalMemoryHandleTypeFlags,
    *const c_void,
    *mut Properties,
) -> vk::Result;

fn properties() -> Properties {
    Properties {
        s_type: PROPERTIES_STYPE,
        p_next: std::ptr::null_mut(),
        memory_type_bits: UNWRITTEN,
    }
}

fn metal_device(inst: &Instance) -> Device {
    inst.device(&[
        c"VK_EXT_external_memory_metal",
        ash::khr::external_memory::NAME,
    ])
}

fn query(inst: &Instance, dev: &Device) -> Pfn {
    // SAFETY: the command's own PFN type.
    unsafe { inst.device_fn(dev, COUNTED) }
}

fn call(
    inst: &Instance,
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: *const c_void,
    out: *mut Properties,
) -> vk::Result {
    // SAFETY: `out` is NULL (on purpose) or a live structure; the handle is never dereferenced.
    unsafe { query(inst, dev)(dev.handle(), handle_type, handle, out) }
}

#[test]
fn a_metal_handle_of_each_type_is_silent_and_answered() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mut calls = Calls::of(COUNTED);
    for t in [MTLBUFFER, MTLTEXTURE, MTLHEAP] {
        let mut out = properties();
        assert_eq!(call(&inst, &dev, t, HANDLE, &mut out), vk::Result::SUCCESS);
        calls.assert(1, "a valid call goes down once");
        assert!(out.memory_type_bits != 0 && out.memory_type_bits != UNWRITTEN);
        expect::silent(&inst, CMD);
    }
}

#[test]
fn a_null_handle_is_10416_and_blocked() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    assert_eq!(
        call(&inst, &dev, MTLBUFFER, std::ptr::null(), &mut out),
        FAILED
    );
    calls.assert(0, "a NULL handle never reaches the driver");
    assert_eq!(out.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, HANDLE_10416);
    expect::mentions(
        &m,
        &[
            "pHandle is NULL; it must be a valid id<MTLBuffer>, id<MTLTexture> or id<MTLDevice>. \
           The call was not passed to the driver.",
        ],
    );
}

#[test]
fn another_handle_type_is_10417_and_goes_down() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    let r = call(&inst, &dev, OPAQUE_FD, HANDLE, &mut out);
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "the driver's own answer"
    );
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_10417);
    expect::mentions(
        &m,
        &[
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; it must be \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT",
        ],
    );
    let r = call(&inst, &dev, MTLBUFFER | MTLHEAP, HANDLE, &mut out);
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "the driver's own answer"
    );
    calls.assert(1, "reported, then passed down");
    let both = expect::only(&inst, CMD, &[HANDLE_TYPE_PARAM, HANDLE_TYPE_10417]);
    expect::mentions(
        &both[0],
        &[&format!(
            "which is not a valid VkExternalMemoryHandleTypeFlagBits value on {}",
            device_name(&dev)
        )],
    );
}

#[test]
fn the_output_structure_is_checked() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let mut calls = Calls::of(COUNTED);
    assert_eq!(
        call(&inst, &dev, MTLBUFFER, HANDLE, std::ptr::null_mut()),
        FAILED
    );
    calls.assert(0, "a NULL output never reaches the driver");
    let m = expect::one(&inst, CMD, OUTPUT_PARAM);
    expect::mentions(&m, &["pMemoryMetalHandleProperties is NULL"]);

    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_FD_PROPERTIES_KHR;
    assert_eq!(call(&inst, &dev, MTLBUFFER, HANDLE, &mut wrong), FAILED);
    calls.assert(0, "the wrong structure never reaches the driver");
    assert_eq!(wrong.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, STYPE);
    expect::mentions(
        &m,
        &["pMemoryMetalHandleProperties->sType is VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR; it \
           must be VK_STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT"],
    );

    let mut extension = vk::BaseOutStructure::default();
    let mut chained = properties();
    chained.p_next = (&mut extension as *mut vk::BaseOutStructure<'_>).cast();
    assert_eq!(
        call(&inst, &dev, MTLBUFFER, HANDLE, &mut chained),
        vk::Result::SUCCESS
    );
    calls.assert(1, "reported, then passed down as the app made it");
    let m = expect::one(&inst, CMD, PNEXT);
    expect::mentions(&m, &["pMemoryMetalHandleProperties->pNext is not NULL"]);
}

#[test]
fn an_unknown_device_is_blocked() {
    let inst = exclusive(None);
    let dev = metal_device(&inst);
    let f = query(&inst, &dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    // SAFETY: the layer's own entry point; it never dereferences the made-up device.
    let r = unsafe { f(vk::Device::from_raw(0x1234), MTLBUFFER, HANDLE, &mut out) };
    assert_eq!(r, FAILED);
    calls.assert(0, "never reaches the driver");
    expect::unknown_device(
        &[&inst],
        CMD,
        DEVICE_PARAM,
        &[
            "vkGetMemoryMetalHandlePropertiesEXT(): device (0x1234) is not a VkDevice created \
           through this layer",
        ],
    );
    drop(dev);
}
