//! vkGetSemaphoreZirconHandleFUCHSIA end to end: the real loader, the layer, and the project's
//! test driver (`tests/icd`), which exports binary semaphores as made-up Zircon event handles and
//! imports them back (docs/test-driver.md, "Semaphores and fences"). Valid exports are silent;
//! each bad call yields exactly the IDs of the rules it breaks: the shared export rules
//! (pointers, sType, pNext, the semaphore handle, the handle-type value, the device) and the
//! rules of the semaphore as it was created (04758, 04762, 04763). 04758 is not judged after an
//! import (the layer does not follow imported payloads yet).

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device, semaphore_name, Types};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};

const CMD: &str = GET_SEMAPHORE_ZIRCON_HANDLE;
const EVENT: Types = Types::ZIRCON_EVENT_FUCHSIA;
const OPAQUE_FD: Types = Types::OPAQUE_FD;

fn zircon_device(inst: &Instance) -> Device {
    semaphore_device(inst, &[ash::fuchsia::external_semaphore::NAME])
}

fn loader(inst: &Instance, dev: &Device) -> ash::fuchsia::external_semaphore::Device {
    ash::fuchsia::external_semaphore::Device::new(&inst.instance, &dev.device)
}

fn info(
    semaphore: vk::Semaphore,
    handle_type: Types,
) -> vk::SemaphoreGetZirconHandleInfoFUCHSIA<'static> {
    vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
        .semaphore(semaphore)
        .handle_type(handle_type)
}

/// The call with `info`; `*pZirconHandle` is pre-filled with a sentinel.
fn call(
    inst: &Instance,
    dev: &Device,
    info: &vk::SemaphoreGetZirconHandleInfoFUCHSIA<'_>,
) -> (vk::Result, vk::zx_handle_t) {
    let mut handle: vk::zx_handle_t = 7;
    let get = loader(inst, dev).fp().get_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), info, &mut handle) };
    (result, handle)
}

/// A semaphore created exportable as `export`. The test driver reports a Zircon event compatible
/// with no other handle type, and not exportable from a timeline semaphore, so such a create is
/// `VUID-VkExportSemaphoreCreateInfo-handleTypes-01124` (taken here: these tests judge the export).
fn made(inst: &Instance, dev: &Device, timeline: bool, export: Types) -> vk::Semaphore {
    let s = semaphore(dev, timeline, Some(export));
    if timeline || export != EVENT {
        expect::one(inst, "vkCreateSemaphore", EXPORT_SEM_HANDLE_TYPES_01124);
    }
    s
}

#[test]
fn exports_as_created_are_silent_and_return_events() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    for export in [EVENT, EVENT | OPAQUE_FD] {
        let s = made(&inst, &dev, false, export);
        let (r, handle) = call(&inst, &dev, &info(s, EVENT));
        assert_eq!(r, vk::Result::SUCCESS);
        assert_ne!(handle, 7, "written");
        expect::silent(&inst, CMD);
        destroy(&dev, s);
    }
}

#[test]
fn a_semaphore_not_created_exportable_as_an_event_is_04758() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE_FD));
    dev.name(s, c"present-done");
    let _ = call(&inst, &dev, &info(s, EVENT));
    let m = expect::one(&inst, CMD, SEM_ZIRCON_HANDLE_TYPE_04758);
    expect::mentions(
        &m,
        &[
            "pGetZirconHandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA, which was not included",
            &semaphore_name(s),
            &format!("created on {} as a binary semaphore", device_name(&dev)),
            "VkExportSemaphoreCreateInfo::handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("present-done"));
    let plain = semaphore(&dev, false, None);
    let _ = call(&inst, &dev, &info(plain, EVENT));
    let m = expect::one(&inst, CMD, SEM_ZIRCON_HANDLE_TYPE_04758);
    expect::mentions(
        &m,
        &["as a binary semaphore, no VkExportSemaphoreCreateInfo"],
    );
    destroy(&dev, s);
    destroy(&dev, plain);
}

#[test]
fn after_an_import_04758_is_not_judged() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let exporter = semaphore(&dev, false, Some(EVENT));
    let importer = semaphore(&dev, false, None);
    let (r, handle) = call(&inst, &dev, &info(exporter, EVENT));
    assert_eq!(r, vk::Result::SUCCESS);
    let import = vk::ImportSemaphoreZirconHandleInfoFUCHSIA::default()
        .semaphore(importer)
        .handle_type(EVENT)
        .zircon_handle(handle);
    let import_fn = loader(&inst, &dev)
        .fp()
        .import_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure naming an event the driver exported.
    let r = unsafe { import_fn(dev.handle(), &import) };
    assert_eq!(
        r,
        vk::Result::SUCCESS,
        "vkImportSemaphoreZirconHandleFUCHSIA"
    );
    expect::silent(&inst, CMD);
    // Its payload is now the exporter's, created exportable as an event.
    let (r, _) = call(&inst, &dev, &info(importer, EVENT));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn a_type_that_is_no_zircon_event_is_04762() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let s = made(&inst, &dev, false, EVENT | OPAQUE_FD);
    let _ = call(&inst, &dev, &info(s, OPAQUE_FD));
    let m = expect::one(&inst, CMD, SEM_ZIRCON_HANDLE_TYPE_04762);
    expect::mentions(
        &m,
        &["pGetZirconHandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT"],
    );
    let other = semaphore(&dev, false, Some(EVENT));
    let _ = call(&inst, &dev, &info(other, OPAQUE_FD));
    expect::only(
        &inst,
        CMD,
        &[SEM_ZIRCON_HANDLE_TYPE_04762, SEM_ZIRCON_HANDLE_TYPE_04758],
    );
    destroy(&dev, s);
    destroy(&dev, other);
}

#[test]
fn a_timeline_semaphore_is_04763() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let s = made(&inst, &dev, true, EVENT);
    let _ = call(&inst, &dev, &info(s, EVENT));
    let m = expect::one(&inst, CMD, SEM_ZIRCON_SEMAPHORE_04763);
    expect::mentions(
        &m,
        &[
            "pGetZirconHandleInfo->semaphore is",
            &semaphore_name(s),
            "a timeline semaphore",
        ],
    );
    destroy(&dev, s);
}

#[test]
fn bad_pointers_structures_and_values_are_reported() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let get = loader(&inst, &dev).fp().get_semaphore_zircon_handle_fuchsia;
    let s = semaphore(&dev, false, Some(EVENT));
    let mut handle: vk::zx_handle_t = 7;
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { get(dev.handle(), std::ptr::null(), &mut handle) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, SEM_ZIRCON_INFO_PARAM);
    // SAFETY: NULL output: the layer blocks the call.
    let r = unsafe { get(dev.handle(), &info(s, EVENT), std::ptr::null_mut()) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, SEM_ZIRCON_PHANDLE_PARAM);
    let mut wrong = info(s, EVENT);
    wrong.s_type = vk::StructureType::SEMAPHORE_GET_FD_INFO_KHR;
    let (r, _) = call(&inst, &dev, &wrong);
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_ZIRCON_STYPE);
    expect::mentions(
        &m,
        &["VK_STRUCTURE_TYPE_SEMAPHORE_GET_ZIRCON_HANDLE_INFO_FUCHSIA"],
    );
    let chained = vk::ExportSemaphoreCreateInfo::default();
    let mut with_next = info(s, EVENT);
    with_next.p_next = (&chained as *const vk::ExportSemaphoreCreateInfo).cast();
    let _ = call(&inst, &dev, &with_next);
    expect::one(&inst, CMD, SEM_ZIRCON_PNEXT);
    let _ = call(&inst, &dev, &info(s, Types::empty()));
    expect::only(
        &inst,
        CMD,
        &[SEM_ZIRCON_HANDLE_TYPE_PARAM, SEM_ZIRCON_HANDLE_TYPE_04762],
    );
    let (r, _) = call(&inst, &dev, &info(vk::Semaphore::null(), EVENT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_ZIRCON_SEMAPHORE_PARAM);
    expect::mentions(&m, &["pGetZirconHandleInfo->semaphore is VK_NULL_HANDLE"]);
    destroy(&dev, s);
    let (r, _) = call(&inst, &dev, &info(s, EVENT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_ZIRCON_SEMAPHORE_PARAM);
    expect::mentions(
        &m,
        &[
            "already destroyed with vkDestroySemaphore",
            &semaphore_name(s),
        ],
    );
}

#[test]
fn a_semaphore_of_another_device_and_an_unknown_device_are_reported() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let other = zircon_device(&inst);
    let s = semaphore(&other, false, Some(EVENT));
    let (r, _) = call(&inst, &dev, &info(s, EVENT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEMAPHORE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[
            "vkGetSemaphoreZirconHandleFUCHSIA(): pGetZirconHandleInfo->semaphore",
            &format!("created on {}", device_name(&other)),
            &format!("which belongs to another device than {}", device_name(&dev)),
        ],
    );
    let get = loader(&inst, &dev).fp().get_semaphore_zircon_handle_fuchsia;
    let mut handle: vk::zx_handle_t = 7;
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { get(vk::Device::from_raw(0x1234), &info(s, EVENT), &mut handle) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::unknown_device(&[&inst], CMD, SEM_ZIRCON_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, s);
}
