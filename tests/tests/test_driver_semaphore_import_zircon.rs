//! vkImportSemaphoreZirconHandleFUCHSIA end to end: the real loader, the layer, and the project's
//! test driver (`tests/icd`), which exports binary semaphores as made-up Zircon event handles and
//! takes them back in imports (docs/test-driver.md, "Semaphores and fences"). Valid imports are
//! silent; each bad call yields exactly the IDs of the rules it breaks: the shared rules
//! (pointers, sType, pNext, the semaphore handle, the handle-type value, the device) and the
//! import's own (04765, 04768, flags).

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device, semaphore_name, Types};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};

const CMD: &str = IMPORT_SEMAPHORE_ZIRCON;
const EVENT: Types = Types::ZIRCON_EVENT_FUCHSIA;
const NONE: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::empty();
const TEMPORARY: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::TEMPORARY;

fn zircon_device(inst: &Instance) -> Device {
    semaphore_device(inst, &[ash::fuchsia::external_semaphore::NAME])
}

fn loader(inst: &Instance, dev: &Device) -> ash::fuchsia::external_semaphore::Device {
    ash::fuchsia::external_semaphore::Device::new(&inst.instance, &dev.device)
}

/// An event of the binary `semaphore` (valid: the test's setup).
fn export(inst: &Instance, dev: &Device, semaphore: vk::Semaphore) -> vk::zx_handle_t {
    let info = vk::SemaphoreGetZirconHandleInfoFUCHSIA::default()
        .semaphore(semaphore)
        .handle_type(EVENT);
    let mut handle: vk::zx_handle_t = 0;
    let get = loader(inst, dev).fp().get_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get(dev.handle(), &info, &mut handle) };
    assert_eq!(r, vk::Result::SUCCESS, "vkGetSemaphoreZirconHandleFUCHSIA");
    expect::silent(inst, GET_SEMAPHORE_ZIRCON_HANDLE);
    handle
}

fn info(
    semaphore: vk::Semaphore,
    t: Types,
    flags: vk::SemaphoreImportFlags,
    handle: vk::zx_handle_t,
) -> vk::ImportSemaphoreZirconHandleInfoFUCHSIA<'static> {
    vk::ImportSemaphoreZirconHandleInfoFUCHSIA::default()
        .semaphore(semaphore)
        .handle_type(t)
        .flags(flags)
        .zircon_handle(handle)
}

/// The import with `info`, through the `vkGetDeviceProcAddr` pointer.
fn import(
    inst: &Instance,
    dev: &Device,
    info: &vk::ImportSemaphoreZirconHandleInfoFUCHSIA<'_>,
) -> vk::Result {
    let f = loader(inst, dev)
        .fp()
        .import_semaphore_zircon_handle_fuchsia;
    // SAFETY: a live info structure (or the deliberately bad one a test passes).
    unsafe { f(dev.handle(), info) }
}

#[test]
fn events_imported_into_binary_semaphores_are_silent() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let exporter = semaphore(&dev, false, Some(EVENT));
    let importer = semaphore(&dev, false, None);
    for flags in [NONE, TEMPORARY] {
        let event = export(&inst, &dev, exporter);
        let r = import(&inst, &dev, &info(importer, EVENT, flags, event));
        assert_eq!(r, vk::Result::SUCCESS);
        expect::silent(&inst, CMD);
    }
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn an_event_into_a_timeline_semaphore_is_04768() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let exporter = semaphore(&dev, false, Some(EVENT));
    let timeline = semaphore(&dev, true, None);
    dev.name(timeline, c"frame-counter");
    let event = export(&inst, &dev, exporter);
    let _ = import(&inst, &dev, &info(timeline, EVENT, NONE, event));
    let m = expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_SEMAPHORE_TYPE_04768);
    expect::mentions(
        &m,
        &[
            &format!(
                "pImportSemaphoreZirconHandleInfo->semaphore is {}",
                semaphore_name(timeline)
            ),
            "VK_SEMAPHORE_TYPE_TIMELINE",
            "only into a binary semaphore",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, timeline.as_raw());
    assert_eq!(name.as_deref(), Some("frame-counter"));
    destroy(&dev, exporter);
    destroy(&dev, timeline);
}

#[test]
fn handle_types_and_flags_of_the_import_itself() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let exporter = semaphore(&dev, false, Some(EVENT));
    let importer = semaphore(&dev, false, None);
    let event = export(&inst, &dev, exporter);
    let _ = import(&inst, &dev, &info(importer, Types::OPAQUE_FD, NONE, event));
    let m = expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765);
    expect::mentions(
        &m,
        &["pImportSemaphoreZirconHandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT"],
    );
    let odd = vk::SemaphoreImportFlags::from_raw(0x2);
    let _ = import(&inst, &dev, &info(importer, EVENT, odd, event));
    let m = expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_FLAGS_PARAM);
    expect::mentions(&m, &["pImportSemaphoreZirconHandleInfo->flags is 0x2"]);
    let _ = import(
        &inst,
        &dev,
        &info(importer, Types::from_raw(1 << 9), odd, event),
    );
    expect::only(
        &inst,
        CMD,
        &[
            SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
            SEM_IMPORT_ZIRCON_HANDLE_TYPE_04765,
            SEM_IMPORT_ZIRCON_FLAGS_PARAM,
        ],
    );
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn bad_pointers_structures_and_handles_are_reported() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let f = loader(&inst, &dev)
        .fp()
        .import_semaphore_zircon_handle_fuchsia;
    let s = semaphore(&dev, false, None);
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { f(dev.handle(), std::ptr::null()) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_INFO_PARAM);
    let mut wrong = info(s, EVENT, NONE, 9);
    wrong.s_type = vk::StructureType::SEMAPHORE_GET_ZIRCON_HANDLE_INFO_FUCHSIA;
    assert_eq!(
        import(&inst, &dev, &wrong),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_STYPE);
    expect::mentions(
        &m,
        &["VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_ZIRCON_HANDLE_INFO_FUCHSIA"],
    );
    let chained = vk::ExportSemaphoreCreateInfo::default();
    let mut with_next = info(s, EVENT, NONE, 9);
    with_next.p_next = (&chained as *const vk::ExportSemaphoreCreateInfo).cast();
    assert_eq!(
        import(&inst, &dev, &with_next),
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "goes down"
    );
    expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_PNEXT);
    let r = import(&inst, &dev, &info(vk::Semaphore::null(), EVENT, NONE, 9));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM);
    expect::mentions(
        &m,
        &["pImportSemaphoreZirconHandleInfo->semaphore is VK_NULL_HANDLE"],
    );
    destroy(&dev, s);
    let r = import(&inst, &dev, &info(s, EVENT, NONE, 9));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM);
    expect::mentions(&m, &["already destroyed with vkDestroySemaphore"]);
    let other = zircon_device(&inst);
    let theirs = semaphore(&other, false, None);
    let r = import(&inst, &dev, &info(theirs, EVENT, NONE, 9));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEMAPHORE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[&format!(
            "which belongs to another device than {}",
            device_name(&dev)
        )],
    );
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { f(vk::Device::from_raw(0x1234), &info(theirs, EVENT, NONE, 9)) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::unknown_device(&[&inst], CMD, SEM_IMPORT_ZIRCON_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, theirs);
}
