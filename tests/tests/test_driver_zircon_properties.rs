//! vkGetMemoryZirconHandlePropertiesFUCHSIA end to end, on the project's test driver
//! (`tests/icd`), which exposes VK_FUCHSIA_external_memory on Linux and answers the query for a
//! VMO handle it exported. Each bad call yields exactly the IDs of the rules it breaks; a call
//! whose handle is known to be bad never reaches the driver (its call counter stays), the others
//! are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::device_name;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, FAILED, OPAQUE_FD, SIZE};
use std::ffi::CStr;

const CMD: &str = "vkGetMemoryZirconHandlePropertiesFUCHSIA";
const COUNTED: &CStr = c"vkGetMemoryZirconHandlePropertiesFUCHSIA";
const DEVICE_PARAM: &str = "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-device-parameter";
const HANDLE_TYPE_04773: &str = "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-04773";
const HANDLE_04774: &str = "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-zirconHandle-04774";
const HANDLE_TYPE_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-handleType-parameter";
const OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryZirconHandlePropertiesFUCHSIA-pMemoryZirconHandleProperties-parameter";
const STYPE: &str = "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-sType-sType";
const PNEXT: &str = "VUID-VkMemoryZirconHandlePropertiesFUCHSIA-pNext-pNext";
const UNWRITTEN: u32 = 0x5e47;

type Types = vk::ExternalMemoryHandleTypeFlags;
const VMO: Types = Types::ZIRCON_VMO_FUCHSIA;

type Properties = vk::MemoryZirconHandlePropertiesFUCHSIA<'static>;

fn properties() -> Properties {
    Properties {
        memory_type_bits: UNWRITTEN,
        ..Default::default()
    }
}

fn fuchsia_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::fuchsia::external_memory::NAME,
        ash::khr::external_memory::NAME,
    ])
}

fn query(inst: &Instance, dev: &Device) -> vk::PFN_vkGetMemoryZirconHandlePropertiesFUCHSIA {
    // SAFETY: the command's own PFN type.
    unsafe { inst.device_fn(dev, COUNTED) }
}

fn call(
    inst: &Instance,
    dev: &Device,
    handle_type: Types,
    handle: vk::zx_handle_t,
    out: *mut Properties,
) -> vk::Result {
    // SAFETY: `out` is NULL (on purpose) or a live structure; the handle is a number.
    unsafe { query(inst, dev)(dev.handle(), handle_type, handle, out) }
}

/// A VMO handle the test driver exported from new memory.
fn exported(dev: &Device) -> vk::zx_handle_t {
    let memory = dev.allocate_exporting(SIZE, 0, Some(VMO), None);
    let get = dev.zircon_handle.expect("vkGetMemoryZirconHandleFUCHSIA");
    let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
        .memory(memory)
        .handle_type(VMO);
    let mut handle = 0;
    // SAFETY: a live info structure and output pointer.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut handle) },
        vk::Result::SUCCESS
    );
    assert_ne!(handle, 0);
    handle
}

#[test]
fn a_vmo_is_silent_and_answered() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let handle = exported(&dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    assert_eq!(
        call(&inst, &dev, VMO, handle, &mut out),
        vk::Result::SUCCESS
    );
    calls.assert(1, "a valid call goes down once");
    assert!(out.memory_type_bits != 0 && out.memory_type_bits != UNWRITTEN);
    expect::silent(&inst, CMD);
}

#[test]
fn zx_handle_invalid_is_04774_and_blocked() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    assert_eq!(call(&inst, &dev, VMO, 0, &mut out), FAILED);
    calls.assert(0, "ZX_HANDLE_INVALID never reaches the driver");
    assert_eq!(out.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, HANDLE_04774);
    expect::mentions(
        &m,
        &[
            "zirconHandle is ZX_HANDLE_INVALID (0), which references no VMO. The call was not \
           passed to the driver.",
        ],
    );
}

#[test]
fn another_handle_type_is_04773_and_goes_down() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let handle = exported(&dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    let r = call(&inst, &dev, OPAQUE_FD, handle, &mut out);
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "the driver's own answer"
    );
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, HANDLE_TYPE_04773);
    expect::mentions(
        &m,
        &[
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; it must be \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.",
        ],
    );
    let r = call(&inst, &dev, VMO | OPAQUE_FD, handle, &mut out);
    assert_eq!(
        r,
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "the driver's own answer"
    );
    calls.assert(1, "reported, then passed down");
    let both = expect::only(&inst, CMD, &[HANDLE_TYPE_PARAM, HANDLE_TYPE_04773]);
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
    let dev = fuchsia_device(&inst);
    let handle = exported(&dev);
    let mut calls = Calls::of(COUNTED);
    assert_eq!(call(&inst, &dev, VMO, handle, std::ptr::null_mut()), FAILED);
    calls.assert(0, "a NULL output never reaches the driver");
    let m = expect::one(&inst, CMD, OUTPUT_PARAM);
    expect::mentions(&m, &["pMemoryZirconHandleProperties is NULL"]);

    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_FD_PROPERTIES_KHR;
    assert_eq!(call(&inst, &dev, VMO, handle, &mut wrong), FAILED);
    calls.assert(0, "the wrong structure never reaches the driver");
    assert_eq!(wrong.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, STYPE);
    expect::mentions(
        &m,
        &[
            "pMemoryZirconHandleProperties->sType is VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR; \
           it must be VK_STRUCTURE_TYPE_MEMORY_ZIRCON_HANDLE_PROPERTIES_FUCHSIA",
        ],
    );

    let mut extension = vk::BaseOutStructure::default();
    let mut chained = properties();
    chained.p_next = (&mut extension as *mut vk::BaseOutStructure<'_>).cast();
    assert_eq!(
        call(&inst, &dev, VMO, handle, &mut chained),
        vk::Result::SUCCESS
    );
    calls.assert(1, "reported, then passed down as the app made it");
    let m = expect::one(&inst, CMD, PNEXT);
    expect::mentions(&m, &["pMemoryZirconHandleProperties->pNext is not NULL"]);
}

#[test]
fn an_unknown_device_is_blocked() {
    let inst = exclusive(None);
    let dev = fuchsia_device(&inst);
    let f = query(&inst, &dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    // SAFETY: the layer's own entry point; it never dereferences the made-up device.
    let r = unsafe { f(vk::Device::from_raw(0x1234), VMO, 0x2000_0101, &mut out) };
    assert_eq!(r, FAILED);
    calls.assert(0, "never reaches the driver");
    expect::unknown_device(
        &[&inst],
        CMD,
        DEVICE_PARAM,
        &[
            "vkGetMemoryZirconHandlePropertiesFUCHSIA(): device (0x1234) is not a VkDevice \
           created through this layer",
        ],
    );
    drop(dev);
}
