//! vkGetAndroidHardwareBufferPropertiesANDROID end to end, on the project's test driver
//! (`tests/icd`), which exposes VK_ANDROID_external_memory_android_hardware_buffer on Linux and
//! answers the query for a buffer it exported whose allocation is live. Each bad call yields
//! exactly the IDs of the rules it breaks; a call whose pointer is known to be bad never reaches
//! the driver (its call counter stays). Format-properties structures chained to the output are
//! valid: the driver fills them.

use ash::vk::{self, Handle};
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, FAILED, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = "vkGetAndroidHardwareBufferPropertiesANDROID";
const COUNTED: &CStr = c"vkGetAndroidHardwareBufferPropertiesANDROID";
const DEVICE_PARAM: &str = "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-device-parameter";
const BUFFER_PARAM: &str = "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-buffer-parameter";
const OUTPUT_PARAM: &str = "VUID-vkGetAndroidHardwareBufferPropertiesANDROID-pProperties-parameter";
const WRONG_STYPE: &str = "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-sType";
const CHAIN_LOOPS: &str = "VUID-VkAndroidHardwareBufferPropertiesANDROID-sType-unique";
const UNWRITTEN: u32 = 0x5e47;
const AHB: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;

type Properties = vk::AndroidHardwareBufferPropertiesANDROID<'static>;

fn properties() -> Properties {
    Properties {
        memory_type_bits: UNWRITTEN,
        ..Default::default()
    }
}

fn android_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
    ])
}

fn query(inst: &Instance, dev: &Device) -> vk::PFN_vkGetAndroidHardwareBufferPropertiesANDROID {
    // SAFETY: the command's own PFN type.
    unsafe { inst.device_fn(dev, COUNTED) }
}

fn call(
    inst: &Instance,
    dev: &Device,
    buffer: *const vk::AHardwareBuffer,
    out: *mut Properties,
) -> vk::Result {
    // SAFETY: `out` is NULL (on purpose) or a live structure (with a live chain); the buffer is
    // the test driver's number, never dereferenced.
    unsafe { query(inst, dev)(dev.handle(), buffer, out) }
}

/// A buffer the test driver exported from new, live memory.
fn exported(dev: &Device) -> *const vk::AHardwareBuffer {
    let memory = dev.allocate_exporting(SIZE, 0, Some(AHB), None);
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
    let mut buffer: *mut c_void = std::ptr::null_mut();
    // SAFETY: a live info structure and output pointer.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut buffer) },
        vk::Result::SUCCESS
    );
    assert!(!buffer.is_null());
    buffer.cast_const().cast()
}

#[test]
fn a_buffer_is_silent_and_answered_with_or_without_format_structures() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let buffer = exported(&dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    assert_eq!(call(&inst, &dev, buffer, &mut out), vk::Result::SUCCESS);
    calls.assert(1, "a valid call goes down once");
    assert_eq!(out.allocation_size, SIZE);
    assert!(out.memory_type_bits != 0 && out.memory_type_bits != UNWRITTEN);
    expect::silent(&inst, CMD);

    let mut resolve = vk::AndroidHardwareBufferFormatResolvePropertiesANDROID::default();
    let mut format2 = vk::AndroidHardwareBufferFormatProperties2ANDROID::default();
    let mut format = vk::AndroidHardwareBufferFormatPropertiesANDROID::default();
    let mut chained = vk::AndroidHardwareBufferPropertiesANDROID::default()
        .push_next(&mut resolve)
        .push_next(&mut format2)
        .push_next(&mut format);
    let p_chained: *mut vk::AndroidHardwareBufferPropertiesANDROID<'_> = &mut chained;
    assert_eq!(
        call(&inst, &dev, buffer, p_chained.cast()),
        vk::Result::SUCCESS
    );
    calls.assert(
        1,
        "a chain of format structures goes down as the app made it",
    );
    assert_eq!(chained.allocation_size, SIZE);
    expect::silent(&inst, CMD);
}

#[test]
fn a_null_buffer_is_the_parameter_rule_and_blocked() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    assert_eq!(call(&inst, &dev, std::ptr::null(), &mut out), FAILED);
    calls.assert(0, "a NULL buffer never reaches the driver");
    assert_eq!(out.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, BUFFER_PARAM);
    expect::mentions(
        &m,
        &[
            "buffer is NULL; it must point to a valid AHardwareBuffer. The call was not passed \
           to the driver.",
        ],
    );
}

#[test]
fn the_output_structure_is_checked() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let buffer = exported(&dev);
    let mut calls = Calls::of(COUNTED);
    assert_eq!(call(&inst, &dev, buffer, std::ptr::null_mut()), FAILED);
    calls.assert(0, "a NULL output never reaches the driver");
    let m = expect::one(&inst, CMD, OUTPUT_PARAM);
    expect::mentions(&m, &["pProperties is NULL"]);

    let mut wrong = properties();
    wrong.s_type = vk::StructureType::MEMORY_FD_PROPERTIES_KHR;
    assert_eq!(call(&inst, &dev, buffer, &mut wrong), FAILED);
    calls.assert(0, "the wrong structure never reaches the driver");
    assert_eq!(wrong.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, WRONG_STYPE);
    expect::mentions(
        &m,
        &[
            "pProperties->sType is VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR; it must be \
           VK_STRUCTURE_TYPE_ANDROID_HARDWARE_BUFFER_PROPERTIES_ANDROID",
        ],
    );
}

#[test]
fn a_looping_output_chain_is_blocked() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let buffer = exported(&dev);
    let mut calls = Calls::of(COUNTED);
    let mut first = vk::AndroidHardwareBufferFormatPropertiesANDROID::default();
    let p_first: *mut vk::AndroidHardwareBufferFormatPropertiesANDROID<'_> = &mut first;
    let mut second = vk::AndroidHardwareBufferFormatProperties2ANDROID {
        p_next: p_first.cast(),
        ..Default::default()
    };
    let p_second: *mut vk::AndroidHardwareBufferFormatProperties2ANDROID<'_> = &mut second;
    // first -> second -> first -> ...
    // SAFETY: `p_first` points to `first`, alive and otherwise unborrowed.
    unsafe { (*p_first).p_next = p_second.cast() };
    let mut out = Properties {
        p_next: p_first.cast(),
        ..properties()
    };
    assert_eq!(call(&inst, &dev, buffer, &mut out), FAILED);
    calls.assert(0, "a looping chain never reaches the driver");
    assert_eq!(out.memory_type_bits, UNWRITTEN);
    let m = expect::one(&inst, CMD, CHAIN_LOOPS);
    expect::mentions(&m, &["the pNext chain of pProperties loops back on itself"]);
}

#[test]
fn an_unknown_device_is_blocked() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let f = query(&inst, &dev);
    let mut calls = Calls::of(COUNTED);
    let mut out = properties();
    let buffer = 0x4100_0000_010b_usize as *const vk::AHardwareBuffer;
    // SAFETY: the layer's own entry point; it never dereferences the made-up device.
    let r = unsafe { f(vk::Device::from_raw(0x1234), buffer, &mut out) };
    assert_eq!(r, FAILED);
    calls.assert(0, "never reaches the driver");
    expect::unknown_device(
        &[&inst],
        CMD,
        DEVICE_PARAM,
        &[
            "vkGetAndroidHardwareBufferPropertiesANDROID(): device (0x1234) is not a VkDevice \
           created through this layer",
        ],
    );
    drop(dev);
}

#[test]
fn without_the_extension_only_the_extension_is_reported() {
    // A device without the extension: the command is not the layer's there, but a pointer
    // fetched for another device reaches it. The query has no handleType, so the handle type it
    // is about being unknown to that device is no -parameter finding.
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let plain_dev = inst.device(&[ash::khr::external_memory::NAME]);
    let buffer = exported(&dev);
    let mut out = properties();
    let r = call_on(&inst, &dev, &plain_dev, buffer, &mut out);
    // Reported and passed on, but the next layer has no such command on this device.
    assert_eq!(r, vk::Result::ERROR_EXTENSION_NOT_PRESENT);
    assert_eq!(out.memory_type_bits, UNWRITTEN, "nothing written");
    let m = expect::one(&inst, CMD, "EXPORTCHECK-extension-not-enabled");
    expect::mentions(
        &m,
        &["which was created without VK_ANDROID_external_memory_android_hardware_buffer"],
    );
    drop(plain_dev);
    drop(dev);
}

/// The query fetched for `fetched_for`, called on `called_on`.
fn call_on(
    inst: &Instance,
    fetched_for: &Device,
    called_on: &Device,
    buffer: *const vk::AHardwareBuffer,
    out: *mut Properties,
) -> vk::Result {
    // SAFETY: a live output structure; the device lacks the extension (the point of the test).
    unsafe { query(inst, fetched_for)(called_on.handle(), buffer, out) }
}
