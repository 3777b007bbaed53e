//! vkGetMemoryWin32HandlePropertiesKHR end to end, on the project's test driver (`tests/icd`),
//! which exposes VK_KHR_external_memory_win32 on Linux and answers the query for a handle it
//! exported, of the handle type asked about. Each bad call yields exactly the IDs of the rules it
//! breaks; a call whose pointer or handle is known to be bad never reaches the driver (its call
//! counter stays), the others are reported and go down.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::device_name;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, FAILED, OPAQUE_WIN32, SIZE};
use std::ffi::CStr;

const CMD: &str = "vkGetMemoryWin32HandlePropertiesKHR";
const COUNTED: &CStr = c"vkGetMemoryWin32HandlePropertiesKHR";
const DEVICE_PARAM: &str = "VUID-vkGetMemoryWin32HandlePropertiesKHR-device-parameter";
const HANDLE_00665: &str = "VUID-vkGetMemoryWin32HandlePropertiesKHR-handle-00665";
const HANDLE_TYPE_00666: &str = "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-00666";
const HANDLE_TYPE_PARAM: &str = "VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-parameter";
const OUTPUT_PARAM: &str =
    "VUID-vkGetMemoryWin32HandlePropertiesKHR-pMemoryWin32HandleProperties-parameter";
const STYPE: &str = "VUID-VkMemoryWin32HandlePropertiesKHR-sType-sType";
const PNEXT: &str = "VUID-VkMemoryWin32HandlePropertiesKHR-pNext-pNext";
const UNWRITTEN: u32 = 0x5e47;
/// `INVALID_HANDLE_VALUE`.
const INVALID_HANDLE_VALUE: vk::HANDLE = -1;

type Types = vk::ExternalMemoryHandleTypeFlags;
const OPAQUE_WIN32_KMT: Types = Types::OPAQUE_WIN32_KMT;
const D3D11_TEXTURE_KMT: Types = Types::D3D11_TEXTURE_KMT;
const D3D12_HEAP: Types = Types::D3D12_HEAP;
const D3D12_RESOURCE: Types = Types::D3D12_RESOURCE;
const NON_OPAQUE: [Types; 3] = [D3D11_TEXTURE_KMT, D3D12_HEAP, D3D12_RESOURCE];

type Properties = vk::MemoryWin32HandlePropertiesKHR<'static>;

fn properties() -> Properties {
    Properties {
        memory_type_bits: UNWRITTEN,
        ..Default::default()
    }
}

fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory_win32::NAME,
        ash::khr::external_memory::NAME,
    ])
}

fn query(inst: &Instance, dev: &Device) -> vk::PFN_vkGetMemoryWin32HandlePropertiesKHR {
    // SAFETY: the command's own PFN type.
    unsafe { inst.device_fn(dev, COUNTED) }
}

fn call(
    inst: &Instance,
    dev: &Device,
    handle_type: Types,
    handle: vk::HANDLE,
    out: *mut Properties,
) -> vk::Result {
    // SAFETY: `out` is NULL (on purpose) or a live structure; the handle is never dereferenced.
    unsafe { query(inst, dev)(dev.handle(), handle_type, handle, out) }
}

/// A handle of `handle_type` the test driver exported from new memory exportable as `types`.
fn exported(dev: &Device, types: Types, handle_type: Types) -> vk::HANDLE {
    let memory = dev.allocate_exporting(SIZE, 0, Some(types), None);
    let get = dev.win32_handle_khr.expect("vkGetMemoryWin32HandleKHR");
    let info = vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(handle_type);
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
fn a_handle_of_each_non_opaque_type_is_silent_and_answered() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let all = D3D11_TEXTURE_KMT | D3D12_HEAP | D3D12_RESOURCE;
    for t in NON_OPAQUE {
        let handle = exported(&dev, all, t);
        let mut calls = Calls::of(COUNTED);
        let mut out = properties();
        assert_eq!(call(&inst, &dev, t, handle, &mut out), vk::Result::SUCCESS);
        calls.assert(1, "a valid call goes down once");
        assert!(out.memory_type_bits != 0 && out.memory_type_bits != UNWRITTEN);
        expect::silent(&inst, CMD);
    }
}

#[test]
fn null_and_invalid_handle_value_are_00665_and_blocked() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mut calls = Calls::of(COUNTED);
    for (handle, name) in [(0, "NULL"), (INVALID_HANDLE_VALUE, "INVALID_HANDLE_VALUE")] {
        let mut out = properties();
        assert_eq!(call(&inst, &dev, D3D12_HEAP, handle, &mut out), FAILED);
        calls.assert(0, "a handle known to be bad never reaches the driver");
        assert_eq!(out.memory_type_bits, UNWRITTEN);
        let m = expect::one(&inst, CMD, HANDLE_00665);
        expect::mentions(
            &m,
            &[&format!(
                "handle is {name}, which is no Windows memory handle; it must be a handle of \
                 type VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP_BIT. The call was not passed to \
                 the driver."
            )],
        );
    }
}

#[test]
fn an_opaque_type_is_00666_and_goes_down() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    for (t, name) in [
        (
            OPAQUE_WIN32,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
        ),
        (
            OPAQUE_WIN32_KMT,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        ),
    ] {
        let handle = exported(&dev, OPAQUE_WIN32 | OPAQUE_WIN32_KMT, t);
        let mut calls = Calls::of(COUNTED);
        let mut out = properties();
        let r = call(&inst, &dev, t, handle, &mut out);
        assert_eq!(r, vk::Result::SUCCESS, "the driver's own answer");
        calls.assert(1, "reported, then passed down");
        let m = expect::one(&inst, CMD, HANDLE_TYPE_00666);
        expect::mentions(
            &m,
            &[&format!(
                "handleType is {name}; it must not be one of the opaque handle types"
            )],
        );
    }
}

#[test]
fn several_bits_are_only_the_parameter_rule_and_go_down() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let handle = exported(&dev, D3D12_HEAP, D3D12_HEAP);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    let r = call(&inst, &dev, OPAQUE_WIN32 | D3D12_HEAP, handle, &mut out);
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

#[test]
fn the_output_structure_is_checked() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let handle = exported(&dev, D3D12_HEAP, D3D12_HEAP);
    let mut calls = Calls::of(COUNTED);
    assert_eq!(
        call(&inst, &dev, D3D12_HEAP, handle, std::ptr::null_mut()),
        FAILED
    );
    calls.assert(0, "a NULL output never reaches the driver");
    let m = expect::one(&inst, CMD, OUTPUT_PARAM);
    expect::mentions(&m, &["pMemoryWin32HandleProperties is NULL"]);

    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_FD_PROPERTIES_KHR;
    assert_eq!(call(&inst, &dev, D3D12_HEAP, handle, &mut wrong), FAILED);
    calls.assert(0, "the wrong structure never reaches the driver");
    assert_eq!(wrong.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, STYPE);
    expect::mentions(
        &m,
        &[
            "pMemoryWin32HandleProperties->sType is VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR; \
           it must be VK_STRUCTURE_TYPE_MEMORY_WIN32_HANDLE_PROPERTIES_KHR",
        ],
    );

    let mut extension = vk::BaseOutStructure::default();
    let mut chained = properties();
    chained.p_next = (&mut extension as *mut vk::BaseOutStructure<'_>).cast();
    assert_eq!(
        call(&inst, &dev, D3D12_HEAP, handle, &mut chained),
        vk::Result::SUCCESS
    );
    calls.assert(1, "reported, then passed down as the app made it");
    let m = expect::one(&inst, CMD, PNEXT);
    expect::mentions(&m, &["pMemoryWin32HandleProperties->pNext is not NULL"]);
}

#[test]
fn an_unknown_device_is_blocked() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let f = query(&inst, &dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    let handle: vk::HANDLE = 0x5800_0000_0100;
    // SAFETY: the layer's own entry point; it never dereferences the made-up device.
    let r = unsafe { f(vk::Device::from_raw(0x1234), D3D12_HEAP, handle, &mut out) };
    assert_eq!(r, FAILED);
    calls.assert(0, "never reaches the driver");
    expect::unknown_device(
        &[&inst],
        CMD,
        DEVICE_PARAM,
        &[
            "vkGetMemoryWin32HandlePropertiesKHR(): device (0x1234) is not a VkDevice created \
           through this layer",
        ],
    );
    drop(dev);
}
