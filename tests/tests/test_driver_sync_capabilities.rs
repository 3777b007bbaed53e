//! The external semaphore and fence capability queries end to end: the real loader, the layer,
//! and the project's test driver (`tests/icd`, whose compatibility table is
//! `tests/icd/src/sync_properties.rs`, docs/test-driver.md): `vkGetPhysicalDeviceExternal
//! {Semaphore,Fence}Properties` (and their `KHR` names) judged for their structures, a bad pointer
//! kept from the driver; and `vkCreateSemaphore`'s `VkExportSemaphoreCreateInfo::handleTypes`
//! judged against the device's valid bits and against the driver's answers, which the layer asks
//! itself, once per handle type and semaphore type (01124).

use ash::vk;
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{self, exclusive, Calls};
use exportcheck_tests::{Device, Instance, Options};
use std::ffi::CStr;

type Types = vk::ExternalSemaphoreHandleTypeFlags;
type FenceTypes = vk::ExternalFenceHandleTypeFlags;
const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;
const ZIRCON: Types = Types::ZIRCON_EVENT_FUCHSIA;
const D3D12: Types = Types::D3D12_FENCE;
const COUNTED: &CStr = c"vkGetPhysicalDeviceExternalSemaphoreProperties";
const FIELD: &str = "pCreateInfo->pNext<VkExportSemaphoreCreateInfo>.handleTypes";

/// The core 1.1 entry points, as the loader gives them (its trampolines, then the layer).
fn semaphore_fn(inst: &Instance) -> vk::PFN_vkGetPhysicalDeviceExternalSemaphoreProperties {
    inst.instance
        .fp_v1_1()
        .get_physical_device_external_semaphore_properties
}

fn fence_fn(inst: &Instance) -> vk::PFN_vkGetPhysicalDeviceExternalFenceProperties {
    inst.instance
        .fp_v1_1()
        .get_physical_device_external_fence_properties
}

/// The semaphore query with `info`, or NULL pointers; the features the driver wrote (0x7f when
/// it wrote nothing).
fn query_semaphore(
    inst: &Instance,
    info: Option<&vk::PhysicalDeviceExternalSemaphoreInfo<'_>>,
    out: Option<&mut vk::ExternalSemaphoreProperties<'_>>,
) {
    let info = info.map_or(std::ptr::null(), |i| i as *const _);
    let out = out.map_or(std::ptr::null_mut(), |o| o as *mut _);
    // SAFETY: NULL or live structures; the layer keeps NULL from the driver.
    unsafe { semaphore_fn(inst)(inst.physical_device, info, out) };
}

fn query_fence(
    inst: &Instance,
    info: Option<&vk::PhysicalDeviceExternalFenceInfo<'_>>,
    out: Option<&mut vk::ExternalFenceProperties<'_>>,
) {
    let info = info.map_or(std::ptr::null(), |i| i as *const _);
    let out = out.map_or(std::ptr::null_mut(), |o| o as *mut _);
    // SAFETY: NULL or live structures; the layer keeps NULL from the driver.
    unsafe { fence_fn(inst)(inst.physical_device, info, out) };
}

fn semaphore_info(t: Types) -> vk::PhysicalDeviceExternalSemaphoreInfo<'static> {
    vk::PhysicalDeviceExternalSemaphoreInfo::default().handle_type(t)
}

/// Output structures pre-filled with features the driver never reports, to see whether it wrote.
fn semaphore_out() -> vk::ExternalSemaphoreProperties<'static> {
    vk::ExternalSemaphoreProperties {
        external_semaphore_features: vk::ExternalSemaphoreFeatureFlags::from_raw(0x70),
        ..Default::default()
    }
}

fn fence_out() -> vk::ExternalFenceProperties<'static> {
    vk::ExternalFenceProperties {
        external_fence_features: vk::ExternalFenceFeatureFlags::from_raw(0x70),
        ..Default::default()
    }
}

const BOTH: u32 = 0x3;
const UNWRITTEN: u32 = 0x70;

#[test]
fn valid_queries_are_silent_and_reach_the_driver() {
    let inst = test_driver::instance(None);
    let mut timeline =
        vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    for (t, is_timeline, features) in [
        (OPAQUE, false, BOTH),
        (SYNC, false, BOTH),
        (ZIRCON, false, BOTH),
        (OPAQUE, true, BOTH),
        (SYNC, true, 0),
        (D3D12, false, 0),
    ] {
        let mut info = semaphore_info(t);
        if is_timeline {
            info = info.push_next(&mut timeline);
        }
        let mut out = semaphore_out();
        query_semaphore(&inst, Some(&info), Some(&mut out));
        assert_eq!(out.external_semaphore_features.as_raw(), features, "{t:?}");
    }
    expect::silent(&inst, SEM_CAPS);
    for t in [FenceTypes::OPAQUE_FD, FenceTypes::SYNC_FD] {
        let info = vk::PhysicalDeviceExternalFenceInfo::default().handle_type(t);
        let mut out = fence_out();
        query_fence(&inst, Some(&info), Some(&mut out));
        assert_eq!(out.external_fence_features.as_raw(), BOTH, "{t:?}");
    }
    expect::silent(&inst, FENCE_CAPS);
}

/// An instance of Vulkan 1.0 with the `KHR` capability extensions.
fn khr_instance() -> Instance {
    Instance::with(Options {
        api_version: vk::API_VERSION_1_0,
        instance_extensions: &[
            ash::khr::get_physical_device_properties2::NAME,
            ash::khr::external_semaphore_capabilities::NAME,
            ash::khr::external_fence_capabilities::NAME,
        ],
        ..test_driver::options(None)
    })
}

#[test]
fn the_khr_names_are_checked_and_named_as_called() {
    let inst = khr_instance();
    let semaphores =
        ash::khr::external_semaphore_capabilities::Instance::new(&inst.entry, &inst.instance);
    let fences = ash::khr::external_fence_capabilities::Instance::new(&inst.entry, &inst.instance);
    let mut out = semaphore_out();
    // SAFETY: live structures.
    unsafe {
        (semaphores
            .fp()
            .get_physical_device_external_semaphore_properties_khr)(
            inst.physical_device,
            &semaphore_info(OPAQUE),
            &mut out,
        )
    };
    assert_eq!(out.external_semaphore_features.as_raw(), BOTH);
    let mut fence = fence_out();
    let info = vk::PhysicalDeviceExternalFenceInfo::default().handle_type(FenceTypes::OPAQUE_FD);
    // SAFETY: live structures.
    unsafe {
        (fences
            .fp()
            .get_physical_device_external_fence_properties_khr)(
            inst.physical_device,
            &info,
            &mut fence,
        )
    };
    assert_eq!(fence.external_fence_features.as_raw(), BOTH);
    expect::silent_for(&inst, &[SEM_CAPS, FENCE_CAPS]);
    // SAFETY: a live output structure; the info is NULL, which the layer keeps from the driver.
    unsafe {
        (semaphores
            .fp()
            .get_physical_device_external_semaphore_properties_khr)(
            inst.physical_device,
            std::ptr::null(),
            &mut out,
        )
    };
    let khr = "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR";
    let m = expect::one(&inst, khr, SEM_CAPS_INFO_PARAM);
    expect::mentions(&m, &[&format!("{khr}(): pExternalSemaphoreInfo is NULL")]);
    // SAFETY: a live info structure; the output is NULL, which the layer keeps from the driver.
    unsafe {
        (fences
            .fp()
            .get_physical_device_external_fence_properties_khr)(
            inst.physical_device,
            &info,
            std::ptr::null_mut(),
        )
    };
    let khr = "vkGetPhysicalDeviceExternalFencePropertiesKHR";
    let m = expect::one(&inst, khr, FENCE_CAPS_PROPS_PARAM);
    expect::mentions(&m, &[&format!("{khr}(): pExternalFenceProperties is NULL")]);
}

#[test]
fn null_pointers_and_wrong_stypes_are_kept_from_the_driver() {
    let inst = exclusive(None);
    let mut calls = Calls::of(COUNTED);
    let mut out = semaphore_out();
    query_semaphore(&inst, None, Some(&mut out));
    let m = expect::one(&inst, SEM_CAPS, SEM_CAPS_INFO_PARAM);
    expect::mentions(
        &m,
        &[
            "pExternalSemaphoreInfo is NULL; it must point to a VkPhysicalDeviceExternalSemaphoreInfo",
            "The call was not passed to the driver.",
        ],
    );
    query_semaphore(&inst, Some(&semaphore_info(OPAQUE)), None);
    let m = expect::one(&inst, SEM_CAPS, SEM_CAPS_PROPS_PARAM);
    expect::mentions(&m, &["pExternalSemaphoreProperties is NULL"]);
    let mut wrong = semaphore_info(OPAQUE);
    wrong.s_type = vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO;
    let mut wrong_out = semaphore_out();
    wrong_out.s_type = vk::StructureType::EXTERNAL_FENCE_PROPERTIES;
    query_semaphore(&inst, Some(&wrong), Some(&mut wrong_out));
    let m = expect::only(
        &inst,
        SEM_CAPS,
        &[SEM_CAPS_INFO_STYPE, SEM_CAPS_PROPS_STYPE],
    );
    expect::mentions(
        &m[0],
        &[
            "pExternalSemaphoreInfo->sType is VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO; \
             it must be VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO",
        ],
    );
    expect::mentions(
        &m[1],
        &["pExternalSemaphoreProperties->sType is VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES"],
    );
    assert_eq!(out.external_semaphore_features.as_raw(), UNWRITTEN);
    assert_eq!(wrong_out.external_semaphore_features.as_raw(), UNWRITTEN);
    calls.assert(0, "NULL and wrong-sType pointers are kept from the driver");

    let mut fence_calls = Calls::of(c"vkGetPhysicalDeviceExternalFenceProperties");
    let info = vk::PhysicalDeviceExternalFenceInfo::default().handle_type(FenceTypes::OPAQUE_FD);
    query_fence(&inst, None, None);
    expect::only(
        &inst,
        FENCE_CAPS,
        &[FENCE_CAPS_INFO_PARAM, FENCE_CAPS_PROPS_PARAM],
    );
    let mut wrong = info;
    wrong.s_type = vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO;
    let mut out = fence_out();
    out.s_type = vk::StructureType::EXTERNAL_SEMAPHORE_PROPERTIES;
    query_fence(&inst, Some(&wrong), Some(&mut out));
    expect::only(
        &inst,
        FENCE_CAPS,
        &[FENCE_CAPS_INFO_STYPE, FENCE_CAPS_PROPS_STYPE],
    );
    fence_calls.assert(0, "NULL and wrong-sType pointers are kept from the driver");
}

#[test]
fn chains_and_handle_types_are_judged_and_the_call_goes_down() {
    let inst = exclusive(None);
    let mut calls = Calls::of(COUNTED);
    // A structure that extends nothing here, and VkSemaphoreTypeCreateInfo twice.
    let mut second = vk::SemaphoreTypeCreateInfo::default();
    let mut first = vk::SemaphoreTypeCreateInfo {
        p_next: (&mut second as *mut vk::SemaphoreTypeCreateInfo).cast(),
        ..Default::default()
    };
    let mut foreign = vk::ExportSemaphoreCreateInfo {
        p_next: (&mut first as *mut vk::SemaphoreTypeCreateInfo).cast(),
        ..Default::default()
    };
    let mut info = semaphore_info(OPAQUE | SYNC);
    info.p_next = (&mut foreign as *mut vk::ExportSemaphoreCreateInfo).cast();
    let mut next_out = vk::ExportSemaphoreCreateInfo::default();
    let mut out = semaphore_out();
    out.p_next = (&mut next_out as *mut vk::ExportSemaphoreCreateInfo).cast();
    query_semaphore(&inst, Some(&info), Some(&mut out));
    let m = expect::only(
        &inst,
        SEM_CAPS,
        &[
            SEM_CAPS_INFO_PNEXT,
            SEM_CAPS_INFO_UNIQUE,
            SEM_CAPS_HANDLE_TYPE_PARAM,
            SEM_CAPS_PROPS_PNEXT,
        ],
    );
    expect::mentions(
        &m[0],
        &[
            "pExternalSemaphoreInfo->pNext chains a structure of sType",
            "only VkSemaphoreTypeCreateInfo extends VkPhysicalDeviceExternalSemaphoreInfo",
        ],
    );
    expect::mentions(
        &m[1],
        &["more than one structure of sType VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO"],
    );
    expect::mentions(
        &m[2],
        &[
            "pExternalSemaphoreInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT|\
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, which is not a valid \
             VkExternalSemaphoreHandleTypeFlagBits value: it has more than one bit",
        ],
    );
    expect::mentions(&m[3], &["pExternalSemaphoreProperties->pNext is not NULL"]);
    calls.assert(1, "values and chains are reported; the call goes down");
    for bad in [0, 0x200] {
        query_semaphore(
            &inst,
            Some(&semaphore_info(Types::from_raw(bad))),
            Some(&mut semaphore_out()),
        );
        let m = expect::one(&inst, SEM_CAPS, SEM_CAPS_HANDLE_TYPE_PARAM);
        let why = if bad == 0 {
            "0 is no VkExternalSemaphoreHandleTypeFlagBits value"
        } else {
            "0x200 is not a VkExternalSemaphoreHandleTypeFlagBits value"
        };
        expect::mentions(&m, &[why]);
    }

    // The fence query: nothing may be chained, ZIRCON_EVENT is no fence type.
    let mut chained = vk::SemaphoreTypeCreateInfo::default();
    let mut info = vk::PhysicalDeviceExternalFenceInfo::default()
        .handle_type(FenceTypes::from_raw(ZIRCON.as_raw()));
    info.p_next = (&mut chained as *mut vk::SemaphoreTypeCreateInfo).cast();
    let mut out = fence_out();
    out.p_next = (&mut next_out as *mut vk::ExportSemaphoreCreateInfo).cast();
    query_fence(&inst, Some(&info), Some(&mut out));
    let m = expect::only(
        &inst,
        FENCE_CAPS,
        &[
            FENCE_CAPS_INFO_PNEXT,
            FENCE_CAPS_HANDLE_TYPE_PARAM,
            FENCE_CAPS_PROPS_PNEXT,
        ],
    );
    expect::mentions(
        &m[0],
        &["chains a structure of sType VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO; no structure \
           extends VkPhysicalDeviceExternalFenceInfo"],
    );
    expect::mentions(
        &m[1],
        &[
            "pExternalFenceInfo->handleType is 0x80 (unknown bits), which is not a valid \
           VkExternalFenceHandleTypeFlagBits value",
        ],
    );
}

#[test]
fn a_chain_that_loops_is_kept_from_the_driver() {
    let inst = exclusive(None);
    let mut calls = Calls::of(COUNTED);
    let mut a = vk::SemaphoreTypeCreateInfo::default();
    let a_ptr: *mut vk::SemaphoreTypeCreateInfo = &mut a;
    // SAFETY: `a` is live; it now points to itself.
    unsafe { (*a_ptr).p_next = a_ptr.cast() };
    let mut info = semaphore_info(OPAQUE);
    info.p_next = a_ptr.cast();
    query_semaphore(&inst, Some(&info), Some(&mut semaphore_out()));
    let m = expect::one(&inst, SEM_CAPS, SEM_CAPS_INFO_UNIQUE);
    expect::mentions(
        &m,
        &[
            "pExternalSemaphoreInfo->pNext chain loops back on itself",
            "not passed to the driver",
        ],
    );
    calls.assert(0, "a looping chain is kept from the driver");
    let mut fence_calls = Calls::of(c"vkGetPhysicalDeviceExternalFenceProperties");
    let mut info =
        vk::PhysicalDeviceExternalFenceInfo::default().handle_type(FenceTypes::OPAQUE_FD);
    info.p_next = a_ptr.cast();
    query_fence(&inst, Some(&info), Some(&mut fence_out()));
    let m = expect::one(&inst, FENCE_CAPS, FENCE_CAPS_INFO_PNEXT);
    expect::mentions(&m, &["loops back on itself"]);
    fence_calls.assert(0, "a looping chain is kept from the driver");
}

/// A device with the semaphore fd extension and timeline semaphores, and with
/// VK_FUCHSIA_external_semaphore when `zircon`.
fn semaphore_device(inst: &Instance, zircon: bool) -> Device {
    let mut timeline =
        vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
    let features = (&mut timeline as *mut vk::PhysicalDeviceTimelineSemaphoreFeatures).cast();
    let mut extensions = vec![
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
        ash::khr::timeline_semaphore::NAME,
    ];
    if zircon {
        extensions.push(ash::fuchsia::external_semaphore::NAME);
    }
    inst.device_with_features(&extensions, Some(features))
}

/// `vkCreateSemaphore` of a binary (or timeline) semaphore exportable as `types`; a semaphore the
/// driver made is destroyed.
fn create(dev: &Device, timeline: bool, types: Types) -> vk::Result {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut export = vk::ExportSemaphoreCreateInfo::default().handle_types(types);
    let mut info = vk::SemaphoreCreateInfo::default().push_next(&mut export);
    if timeline {
        info = info.push_next(&mut ty);
    }
    // SAFETY: a live device and create info.
    match unsafe { dev.device.create_semaphore(&info, None) } {
        Ok(s) => {
            // SAFETY: a semaphore of the device that no queue uses.
            unsafe { dev.device.destroy_semaphore(s, None) };
            vk::Result::SUCCESS
        }
        Err(e) => e,
    }
}

#[test]
fn supported_compatible_exports_are_silent_and_asked_once() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, true);
    let mut calls = Calls::of(COUNTED);
    assert_eq!(create(&dev, false, OPAQUE | SYNC), vk::Result::SUCCESS);
    calls.assert(2, "one query per handle type");
    assert_eq!(create(&dev, false, OPAQUE | SYNC), vk::Result::SUCCESS);
    calls.assert(0, "the answers are kept");
    assert_eq!(create(&dev, true, OPAQUE), vk::Result::SUCCESS);
    calls.assert(1, "a timeline semaphore is asked about on its own");
    assert_eq!(create(&dev, false, ZIRCON), vk::Result::SUCCESS);
    expect::silent(&inst, CREATE_SEMAPHORE);
    // No export structure, or an empty one: nothing asked.
    // SAFETY: a live device and create info.
    let plain = unsafe {
        dev.device
            .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
    }
    .expect("vkCreateSemaphore");
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(plain, None) };
    assert_eq!(create(&dev, false, Types::empty()), vk::Result::SUCCESS);
    calls.assert(1, "ZIRCON_EVENT only");
    expect::silent(&inst, CREATE_SEMAPHORE);
}

#[test]
fn a_type_not_exportable_from_the_semaphore_is_01124() {
    let inst = test_driver::instance(None);
    let dev = semaphore_device(&inst, false);
    let _ = create(&dev, true, OPAQUE | SYNC);
    let m = expect::one(&inst, CREATE_SEMAPHORE, EXPORT_SEM_HANDLE_TYPES_01124);
    expect::mentions(
        &m,
        &[
            &format!(
                "{FIELD} is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT|\
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, but \
                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT (externalSemaphoreFeatures = 0) \
                 cannot be exported from a timeline semaphore"
            ),
            "no VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT",
            &format!(
                "vkGetPhysicalDeviceExternalSemaphoreProperties reports for a timeline semaphore \
                 of the physical device of {}",
                device_name(&dev)
            ),
        ],
    );
    let _ = create(&dev, false, D3D12);
    let m = expect::one(&inst, CREATE_SEMAPHORE, EXPORT_SEM_HANDLE_TYPES_01124);
    expect::mentions(
        &m,
        &[
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT (externalSemaphoreFeatures = 0) \
           cannot be exported from a binary semaphore",
        ],
    );
}

#[test]
fn types_that_cannot_be_exported_together_are_01124() {
    let inst = test_driver::instance(None);
    let dev = semaphore_device(&inst, true);
    let _ = create(&dev, false, OPAQUE | ZIRCON);
    let m = expect::one(&inst, CREATE_SEMAPHORE, EXPORT_SEM_HANDLE_TYPES_01124);
    expect::mentions(
        &m,
        &[
            "cannot be exported from one binary semaphore together",
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT is not compatible with \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA",
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA is not compatible with \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT (its compatibleHandleTypes = \
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA)",
        ],
    );
}

#[test]
fn bits_not_valid_on_the_device_are_the_parameter_rule_and_not_asked() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst, false);
    let mut calls = Calls::of(COUNTED);
    let _ = create(&dev, false, ZIRCON | Types::from_raw(0x200));
    let m = expect::one(&inst, CREATE_SEMAPHORE, EXPORT_SEM_HANDLE_TYPES_PARAM);
    expect::mentions(
        &m,
        &[
            "which is not a valid combination of VkExternalSemaphoreHandleTypeFlagBits values on",
            "0x200 is not a VkExternalSemaphoreHandleTypeFlagBits value",
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA belongs to \
             VK_FUCHSIA_external_semaphore, which the device was created without",
        ],
    );
    calls.assert(0, "only valid handle types are asked about");
    // Both rules at once.
    let _ = create(&dev, true, SYNC | Types::from_raw(0x200));
    expect::only(
        &inst,
        CREATE_SEMAPHORE,
        &[EXPORT_SEM_HANDLE_TYPES_PARAM, EXPORT_SEM_HANDLE_TYPES_01124],
    );
}

#[test]
fn nothing_is_asked_where_no_query_may_be_called() {
    // Vulkan 1.0 without VK_KHR_external_semaphore_capabilities: the layer may call neither name.
    let inst = Instance::exclusive_with(Options {
        api_version: vk::API_VERSION_1_0,
        ..test_driver::options(None)
    });
    let dev = inst.device(&[
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
    ]);
    let mut calls = Calls::of(COUNTED);
    let _ = create_binary(&dev, D3D12);
    calls.assert(0, "no valid entry point");
    expect::silent(&inst, CREATE_SEMAPHORE);
}

fn create_binary(dev: &Device, types: Types) -> vk::Result {
    create(dev, false, types)
}
