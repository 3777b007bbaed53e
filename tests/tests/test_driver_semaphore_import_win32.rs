//! vkImportSemaphoreWin32HandleKHR end to end: the real loader, the layer, and the project's test
//! driver (`tests/icd`), whose semaphores export made-up Win32 handles (`OPAQUE_WIN32`,
//! `OPAQUE_WIN32_KMT`, stable per payload) and take them back in imports (docs/test-driver.md,
//! "Semaphores and fences"). Valid imports are silent; each bad call yields exactly the IDs of the
//! rules it breaks: the shared rules (pointers, sType, pNext, the semaphore handle, the device),
//! the import's own (01140, flags, 01469, 01466), and, for a global share (KMT) handle exported in
//! this process from a semaphore that still holds that payload, the import against that
//! semaphore (03261, 03262, 03322). An import known to be unusable that way (03262, 03322) never
//! reaches the driver. NT handles are not matched to their exports.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{destroy, semaphore, semaphore_device, semaphore_name, Types};
use exportcheck_tests::test_driver::{call_count, exclusive};
use exportcheck_tests::{Device, Instance};

const CMD: &str = IMPORT_SEMAPHORE_WIN32;
const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const D3D12: Types = Types::D3D12_FENCE;
const NONE: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::empty();
const TEMPORARY: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::TEMPORARY;
/// A name (`LPCWSTR`): "fence-a".
const NAME: [u16; 8] = [102, 101, 110, 99, 101, 45, 97, 0];

fn win32_device(inst: &Instance) -> Device {
    semaphore_device(inst, &[ash::khr::external_semaphore_win32::NAME])
}

fn loader(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_win32::Device {
    ash::khr::external_semaphore_win32::Device::new(&inst.instance, &dev.device)
}

/// A binary semaphore of VkSemaphoreCreateInfo::flags `flags` (reserved bits: the test driver
/// accepts them, as drivers ignore them).
fn semaphore_with_flags(dev: &Device, flags: u32) -> vk::Semaphore {
    let info = vk::SemaphoreCreateInfo::default().flags(vk::SemaphoreCreateFlags::from_raw(flags));
    // SAFETY: a live device and a readable create info.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

/// A handle of `semaphore` exported as `t` (valid: the test's setup).
fn export(inst: &Instance, dev: &Device, semaphore: vk::Semaphore, t: Types) -> vk::HANDLE {
    let info = vk::SemaphoreGetWin32HandleInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(t);
    // SAFETY: a live info structure.
    let handle = unsafe { loader(inst, dev).get_semaphore_win32_handle(&info) }
        .expect("vkGetSemaphoreWin32HandleKHR");
    expect::silent(inst, GET_SEMAPHORE_WIN32_HANDLE);
    handle
}

fn info(
    semaphore: vk::Semaphore,
    t: Types,
    flags: vk::SemaphoreImportFlags,
    handle: vk::HANDLE,
) -> vk::ImportSemaphoreWin32HandleInfoKHR<'static> {
    vk::ImportSemaphoreWin32HandleInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(t)
        .flags(flags)
        .handle(handle)
}

fn named(
    info: vk::ImportSemaphoreWin32HandleInfoKHR<'static>,
) -> vk::ImportSemaphoreWin32HandleInfoKHR<'static> {
    info.name(NAME.as_ptr())
}

/// The import with `info`, through the `vkGetDeviceProcAddr` pointer.
fn import(
    inst: &Instance,
    dev: &Device,
    info: &vk::ImportSemaphoreWin32HandleInfoKHR<'_>,
) -> vk::Result {
    let f = loader(inst, dev).fp().import_semaphore_win32_handle_khr;
    // SAFETY: a live info structure (or the deliberately bad one a test passes).
    unsafe { f(dev.handle(), info) }
}

#[test]
fn valid_imports_are_silent() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let binary = semaphore(&dev, false, Some(WIN32 | KMT));
    let timeline = semaphore(&dev, true, Some(WIN32 | KMT));
    let into_binary = semaphore(&dev, false, None);
    let into_timeline = semaphore(&dev, true, None);
    // An NT handle is exported once (01127); the test driver's imports do not consume it.
    let handles = [WIN32, KMT].map(|t| (t, export(&inst, &dev, binary, t)));
    for flags in [NONE, TEMPORARY] {
        for (t, handle) in handles {
            let r = import(&inst, &dev, &info(into_binary, t, flags, handle));
            assert_eq!(r, vk::Result::SUCCESS);
            expect::silent(&inst, CMD);
        }
    }
    let handle = export(&inst, &dev, timeline, KMT);
    let r = import(&inst, &dev, &info(into_timeline, KMT, NONE, handle));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    // A name with an NT handle type, and a D3D12 fence: valid calls the test driver refuses.
    let by_name = named(info(into_binary, WIN32, NONE, 0));
    assert_eq!(
        import(&inst, &dev, &by_name),
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
    );
    expect::silent(&inst, CMD);
    let fence = named(info(into_binary, D3D12, NONE, 0));
    assert_eq!(
        import(&inst, &dev, &fence),
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE
    );
    expect::silent(&inst, CMD);
    let _ = import(&inst, &dev, &info(into_binary, D3D12, NONE, 0x40));
    expect::silent(&inst, CMD);
    for s in [binary, timeline, into_binary, into_timeline] {
        destroy(&dev, s);
    }
}

#[test]
fn a_binary_semaphores_kmt_handle_into_a_timeline_semaphore_is_03262_and_kept_from_the_driver() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let binary = semaphore(&dev, false, Some(KMT));
    let timeline = semaphore(&dev, true, None);
    dev.name(timeline, c"frame-counter");
    let handle = export(&inst, &dev, binary, KMT);
    let before = call_count(c"vkImportSemaphoreWin32HandleKHR");
    let r = import(&inst, &dev, &info(timeline, KMT, NONE, handle));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    assert_eq!(
        call_count(c"vkImportSemaphoreWin32HandleKHR"),
        before,
        "never reached the driver"
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_HANDLE_TYPE_03262);
    expect::mentions(
        &m,
        &[
            &format!(
                "handle ({:#x}) is a global share handle exported from {}",
                handle as usize,
                semaphore_name(binary)
            ),
            &format!("(a binary semaphore of {}", device_name(&dev)),
            &format!("is imported into {}", semaphore_name(timeline)),
            "as a timeline semaphore",
            "The call was not passed to the driver.",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, timeline.as_raw());
    assert_eq!(name.as_deref(), Some("frame-counter"));
    // The other way round, a timeline semaphore's handle into a binary semaphore.
    let exporter = semaphore(&dev, true, Some(KMT));
    let into_binary = semaphore(&dev, false, None);
    let handle = export(&inst, &dev, exporter, KMT);
    let r = import(&inst, &dev, &info(into_binary, KMT, NONE, handle));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    expect::one(&inst, CMD, SEM_IMPORT_WIN32_HANDLE_TYPE_03262);
    for s in [binary, timeline, exporter, into_binary] {
        destroy(&dev, s);
    }
}

#[test]
fn a_timeline_semaphores_kmt_handle_imported_temporarily_is_03322() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let exporter = semaphore(&dev, true, Some(KMT));
    let importer = semaphore(&dev, true, None);
    let handle = export(&inst, &dev, exporter, KMT);
    let before = call_count(c"vkImportSemaphoreWin32HandleKHR");
    let r = import(&inst, &dev, &info(importer, KMT, TEMPORARY, handle));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    assert_eq!(call_count(c"vkImportSemaphoreWin32HandleKHR"), before);
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_FLAGS_03322);
    expect::mentions(
        &m,
        &[
            "pImportSemaphoreWin32HandleInfo->flags is VK_SEMAPHORE_IMPORT_TEMPORARY_BIT",
            "(a timeline semaphore of",
            "cannot be imported temporarily",
        ],
    );
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

/// Where the layer did not see the export (an NT handle, which it never matches), the importing
/// semaphore's type decides: an opaque Win32 handle imported into a timeline semaphore came from
/// a timeline semaphore (03262), whose payload cannot be imported temporarily. Kept from the
/// driver; permanently, or a D3D12 fence (no Vulkan semaphore's), it is silent.
#[test]
fn an_unseen_export_imported_temporarily_into_a_timeline_semaphore_is_03322() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let exporter = semaphore(&dev, true, Some(WIN32));
    let importer = semaphore(&dev, true, None);
    let nt = export(&inst, &dev, exporter, WIN32);
    let before = call_count(c"vkImportSemaphoreWin32HandleKHR");
    let r = import(&inst, &dev, &info(importer, WIN32, TEMPORARY, nt));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    assert_eq!(call_count(c"vkImportSemaphoreWin32HandleKHR"), before);
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_FLAGS_03322);
    expect::mentions(
        &m,
        &[
            "pImportSemaphoreWin32HandleInfo->flags is VK_SEMAPHORE_IMPORT_TEMPORARY_BIT, but",
            "but the semaphore imported into is a timeline semaphore",
            &format!("({} (created on", semaphore_name(importer)),
            "VUID-VkImportSemaphoreWin32HandleInfoKHR-handleType-03262",
            "The call was not passed to the driver.",
        ],
    );
    let r = import(&inst, &dev, &info(importer, WIN32, NONE, nt));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    // A D3D12 fence handle (a made-up one: the driver refuses it) is no Vulkan semaphore's.
    let _ = import(&inst, &dev, &info(importer, D3D12, TEMPORARY, 0x1234));
    expect::silent(&inst, CMD);
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn other_create_flags_than_the_exporters_are_03261() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let exporter = semaphore(&dev, false, Some(KMT));
    let importer = semaphore_with_flags(&dev, 1);
    let handle = export(&inst, &dev, exporter, KMT);
    let _ = import(&inst, &dev, &info(importer, KMT, NONE, handle));
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_HANDLE_TYPE_03261);
    expect::mentions(
        &m,
        &["created with VkSemaphoreCreateInfo::flags 0x0", "flags 0x1"],
    );
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

/// What the layer does not match: an NT handle (its value may be reused), a KMT handle whose
/// exporting semaphore is gone or took another payload since. The imports are invalid (the
/// test driver refuses them); the layer says nothing of their exporters.
#[test]
fn nt_handles_and_kmt_handles_of_gone_payloads_are_not_matched() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let timeline = semaphore(&dev, true, None);
    let binary = semaphore(&dev, false, Some(WIN32 | KMT));
    let nt = export(&inst, &dev, binary, WIN32);
    let _ = import(&inst, &dev, &info(timeline, WIN32, NONE, nt));
    expect::silent(&inst, CMD);
    // The exporter took another payload: its created one may be gone, and its name with it.
    let kmt = export(&inst, &dev, binary, KMT);
    let other = semaphore(&dev, false, Some(KMT));
    let theirs = export(&inst, &dev, other, KMT);
    let r = import(&inst, &dev, &info(binary, KMT, NONE, theirs));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    let _ = import(&inst, &dev, &info(timeline, KMT, NONE, kmt));
    expect::silent(&inst, CMD);
    // The exporter is destroyed.
    destroy(&dev, other);
    let _ = import(&inst, &dev, &info(timeline, KMT, NONE, theirs));
    expect::silent(&inst, CMD);
    destroy(&dev, binary);
    destroy(&dev, timeline);
}

#[test]
fn flags_handle_types_handles_and_names_of_the_import_itself() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let s = semaphore(&dev, false, Some(WIN32 | KMT));
    let importer = semaphore(&dev, false, None);
    let handle = export(&inst, &dev, s, WIN32);
    let odd = vk::SemaphoreImportFlags::from_raw(0x2);
    let _ = import(&inst, &dev, &info(importer, WIN32, odd, handle));
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_FLAGS_PARAM);
    expect::mentions(&m, &["pImportSemaphoreWin32HandleInfo->flags is 0x2"]);
    let _ = import(&inst, &dev, &named(info(importer, WIN32, NONE, handle)));
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_HANDLE_01469);
    expect::mentions(
        &m,
        &[&format!(
            "pImportSemaphoreWin32HandleInfo->handle is {:#x} and pImportSemaphoreWin32HandleInfo->name is not NULL",
            handle as usize
        )],
    );
    let _ = import(&inst, &dev, &named(info(importer, KMT, NONE, 0)));
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_HANDLE_TYPE_01466);
    expect::mentions(
        &m,
        &["pImportSemaphoreWin32HandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT"],
    );
    let _ = import(&inst, &dev, &info(importer, Types::OPAQUE_FD, NONE, handle));
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_HANDLE_TYPE_01140);
    expect::mentions(
        &m,
        &["pImportSemaphoreWin32HandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT"],
    );
    // Every rule of the call at once.
    let _ = import(
        &inst,
        &dev,
        &named(info(importer, Types::SYNC_FD, odd, handle)),
    );
    expect::only(
        &inst,
        CMD,
        &[
            SEM_IMPORT_WIN32_HANDLE_TYPE_01140,
            SEM_IMPORT_WIN32_FLAGS_PARAM,
            SEM_IMPORT_WIN32_HANDLE_01469,
            SEM_IMPORT_WIN32_HANDLE_TYPE_01466,
        ],
    );
    destroy(&dev, s);
    destroy(&dev, importer);
}

#[test]
fn bad_pointers_structures_and_handles_are_reported() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let f = loader(&inst, &dev).fp().import_semaphore_win32_handle_khr;
    let s = semaphore(&dev, false, None);
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { f(dev.handle(), std::ptr::null()) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, CMD, SEM_IMPORT_WIN32_INFO_PARAM);
    let mut wrong = info(s, KMT, NONE, 0x40);
    wrong.s_type = vk::StructureType::SEMAPHORE_GET_WIN32_HANDLE_INFO_KHR;
    assert_eq!(
        import(&inst, &dev, &wrong),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_STYPE);
    expect::mentions(
        &m,
        &["VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_WIN32_HANDLE_INFO_KHR"],
    );
    let chained = vk::ExportSemaphoreCreateInfo::default();
    let mut with_next = info(s, KMT, NONE, 0x40);
    with_next.p_next = (&chained as *const vk::ExportSemaphoreCreateInfo).cast();
    assert_eq!(
        import(&inst, &dev, &with_next),
        vk::Result::ERROR_INVALID_EXTERNAL_HANDLE,
        "goes down"
    );
    expect::one(&inst, CMD, SEM_IMPORT_WIN32_PNEXT);
    let r = import(&inst, &dev, &info(vk::Semaphore::null(), KMT, NONE, 0x40));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_SEMAPHORE_PARAM);
    expect::mentions(
        &m,
        &["pImportSemaphoreWin32HandleInfo->semaphore is VK_NULL_HANDLE"],
    );
    destroy(&dev, s);
    let r = import(&inst, &dev, &info(s, KMT, NONE, 0x40));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEM_IMPORT_WIN32_SEMAPHORE_PARAM);
    expect::mentions(&m, &["already destroyed with vkDestroySemaphore"]);
    let other = win32_device(&inst);
    let theirs = semaphore(&other, false, None);
    let r = import(&inst, &dev, &info(theirs, KMT, NONE, 0x40));
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
    let r = unsafe { f(vk::Device::from_raw(0x1234), &info(theirs, KMT, NONE, 0x40)) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::unknown_device(&[&inst], CMD, SEM_IMPORT_WIN32_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, theirs);
}
