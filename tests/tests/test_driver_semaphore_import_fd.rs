//! vkImportSemaphoreFdKHR end to end: the real loader, the layer, and the project's test driver
//! (`tests/icd`), whose semaphores export real opaque fds (a memfd per payload) and sync files,
//! and take them back in imports (docs/test-driver.md, "Semaphores and fences"). Valid imports
//! are silent; each bad call yields exactly the IDs of the rules it breaks: the shared rules
//! (pointers, sType, pNext, the semaphore handle, the handle-type value, the device), the
//! import's own (01143, flags, 07307), and, for an opaque fd exported in this process, the
//! import against the semaphore it came from (03263, 03264, 03323, 01544). An import known to
//! be unusable that way (03264, 03323) never reaches the driver: with the driver's SwiftShader
//! quirk (`abort_on_binary_fd_into_timeline`) the process would abort.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::fds;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{call_count, exclusive};
use exportcheck_tests::{Device, Instance};
use std::ffi::c_int;

const CMD: &str = IMPORT_SEMAPHORE_FD;
type Types = vk::ExternalSemaphoreHandleTypeFlags;
const OPAQUE: Types = Types::OPAQUE_FD;
const SYNC: Types = Types::SYNC_FD;
const TEMPORARY: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::TEMPORARY;
const NONE_FLAGS: vk::SemaphoreImportFlags = vk::SemaphoreImportFlags::empty();
/// The test driver aborts, as SwiftShader crashes, on a binary semaphore's fd imported into a
/// timeline semaphore.
const SWIFTSHADER_QUIRK: &str = r#"{"sync_quirks": {"abort_on_binary_fd_into_timeline": true}}"#;

const EXTENSIONS: [&std::ffi::CStr; 3] = [
    ash::khr::external_semaphore::NAME,
    ash::khr::external_semaphore_fd::NAME,
    ash::khr::timeline_semaphore::NAME,
];

/// A device with VK_KHR_external_semaphore_fd and timeline semaphores (the feature enabled).
fn semaphore_device(inst: &Instance) -> Device {
    let mut timeline =
        vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
    let features = (&mut timeline as *mut vk::PhysicalDeviceTimelineSemaphoreFeatures).cast();
    inst.device_with_features(&EXTENSIONS, Some(features))
}

/// A semaphore of `flags` (0 but in one test), binary or timeline, exportable as `export`.
fn semaphore_with(
    dev: &Device,
    flags: u32,
    timeline: bool,
    export: Option<Types>,
) -> vk::Semaphore {
    let mut ty = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    let mut exportable = vk::ExportSemaphoreCreateInfo::default();
    let mut info =
        vk::SemaphoreCreateInfo::default().flags(vk::SemaphoreCreateFlags::from_raw(flags));
    if timeline {
        info = info.push_next(&mut ty);
    }
    if let Some(types) = export {
        exportable = exportable.handle_types(types);
        info = info.push_next(&mut exportable);
    }
    // SAFETY: a live device and a readable create info.
    unsafe { dev.device.create_semaphore(&info, None) }.expect("vkCreateSemaphore")
}

fn semaphore(dev: &Device, timeline: bool, export: Option<Types>) -> vk::Semaphore {
    semaphore_with(dev, 0, timeline, export)
}

fn destroy(dev: &Device, semaphore: vk::Semaphore) {
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(semaphore, None) };
}

/// Submits a batch that only signals the binary `semaphore` (the test driver completes it at once).
fn signal(dev: &Device, semaphore: vk::Semaphore) {
    let signals = [semaphore];
    let submit = [vk::SubmitInfo::default().signal_semaphores(&signals)];
    // SAFETY: queue 0 of family 0 exists (the device was made with it); a valid submission.
    unsafe {
        let queue = dev.device.get_device_queue(0, 0);
        dev.device
            .queue_submit(queue, &submit, vk::Fence::null())
            .expect("vkQueueSubmit");
        dev.device.queue_wait_idle(queue).expect("vkQueueWaitIdle");
    }
}

fn loader(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_fd::Device {
    ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device)
}

/// An fd of `semaphore` exported as `handle_type` (valid: the test's setup).
fn export(inst: &Instance, dev: &Device, semaphore: vk::Semaphore, handle_type: Types) -> c_int {
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type);
    // SAFETY: a live info structure.
    let fd = unsafe { loader(inst, dev).get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    expect::silent(inst, GET_SEMAPHORE_FD);
    fd
}

fn info(
    semaphore: vk::Semaphore,
    handle_type: Types,
    flags: vk::SemaphoreImportFlags,
    fd: c_int,
) -> vk::ImportSemaphoreFdInfoKHR<'static> {
    vk::ImportSemaphoreFdInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type)
        .flags(flags)
        .fd(fd)
}

/// The import with `info`, through the `vkGetDeviceProcAddr` pointer. An fd the call did not
/// take (it failed, or the layer blocked it) is closed.
fn import(inst: &Instance, dev: &Device, info: &vk::ImportSemaphoreFdInfoKHR<'_>) -> vk::Result {
    let f = loader(inst, dev).fp().import_semaphore_fd_khr;
    // SAFETY: a live info structure (or the deliberately bad one a test passes).
    let result = unsafe { f(dev.handle(), info) };
    if result != vk::Result::SUCCESS && info.fd >= 0 {
        // SAFETY: the fd was not taken; the test owns it.
        unsafe { libc::close(info.fd) };
    }
    result
}

fn semaphore_name(semaphore: vk::Semaphore) -> String {
    format!("VkSemaphore 0x{:x}", semaphore.as_raw())
}

#[test]
fn valid_imports_are_silent() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let binary = semaphore(&dev, false, Some(OPAQUE | SYNC));
    let timeline = semaphore(&dev, true, Some(OPAQUE));
    let into_binary = semaphore(&dev, false, None);
    let into_timeline = semaphore(&dev, true, None);
    for flags in [vk::SemaphoreImportFlags::empty(), TEMPORARY] {
        let fd = export(&inst, &dev, binary, OPAQUE);
        let r = import(&inst, &dev, &info(into_binary, OPAQUE, flags, fd));
        assert_eq!(r, vk::Result::SUCCESS);
        expect::silent(&inst, CMD);
    }
    let fd = export(&inst, &dev, timeline, OPAQUE);
    let r = import(
        &inst,
        &dev,
        &info(into_timeline, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    signal(&dev, binary);
    let fd = export(&inst, &dev, binary, SYNC);
    let r = import(&inst, &dev, &info(into_binary, SYNC, TEMPORARY, fd));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    for s in [binary, timeline, into_binary, into_timeline] {
        destroy(&dev, s);
    }
}

#[test]
fn a_binary_semaphores_fd_into_a_timeline_semaphore_is_03264_and_kept_from_the_driver() {
    let inst = exclusive(Some(SWIFTSHADER_QUIRK));
    let dev = semaphore_device(&inst);
    let binary = semaphore(&dev, false, Some(OPAQUE));
    let timeline = semaphore(&dev, true, None);
    dev.name(timeline, c"frame-counter");
    let fd = export(&inst, &dev, binary, OPAQUE);
    let before = call_count(c"vkImportSemaphoreFdKHR");
    let r = import(
        &inst,
        &dev,
        &info(timeline, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    assert_eq!(
        call_count(c"vkImportSemaphoreFdKHR"),
        before,
        "never reached the driver"
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_HANDLE_TYPE_03264);
    expect::mentions(
        &m,
        &[
            &format!("is an opaque fd exported from {}", semaphore_name(binary)),
            &format!("(a binary semaphore of {}", device_name(&dev)),
            &format!("is imported into {}", semaphore_name(timeline)),
            "as a timeline semaphore",
            "The call was not passed to the driver.",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, timeline.as_raw());
    assert_eq!(name.as_deref(), Some("frame-counter"));
    // The other way round, a timeline semaphore's fd into a binary semaphore.
    let exporter = semaphore(&dev, true, Some(OPAQUE));
    let into_binary = semaphore(&dev, false, None);
    let fd = export(&inst, &dev, exporter, OPAQUE);
    let r = import(
        &inst,
        &dev,
        &info(into_binary, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    expect::one(&inst, CMD, SEM_IMPORT_FD_HANDLE_TYPE_03264);
    for s in [binary, timeline, exporter, into_binary] {
        destroy(&dev, s);
    }
}

/// The test driver exporting as NVIDIA's driver does (`"fd_export": "device_file"`: every
/// opaque fd a new open file description of one device), with its SwiftShader quirk.
const DEVICE_FILE_QUIRK: &str = r#"{"fd_export": "device_file",
    "sync_quirks": {"abort_on_binary_fd_into_timeline": true}}"#;

#[test]
fn on_device_files_an_export_is_found_by_its_open_file_description_and_03264_kept_from_the_driver()
{
    let inst = exclusive(Some(DEVICE_FILE_QUIRK));
    let dev = semaphore_device(&inst);
    let binary = semaphore(&dev, false, Some(OPAQUE));
    let timeline = semaphore(&dev, true, None);
    let into_binary = semaphore(&dev, false, None);
    // Two exports of one semaphore: two open file descriptions of one device file.
    let (fd, other) = (
        export(&inst, &dev, binary, OPAQUE),
        export(&inst, &dev, binary, OPAQUE),
    );
    let (a, b) = (fds::identity(fd), fds::identity(other));
    assert_eq!(a, b, "one device and inode for every export");
    let before = call_count(c"vkImportSemaphoreFdKHR");
    let r = import(
        &inst,
        &dev,
        &info(timeline, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    assert_eq!(call_count(c"vkImportSemaphoreFdKHR"), before);
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_HANDLE_TYPE_03264);
    expect::mentions(
        &m,
        &[
            &format!("is an opaque fd exported from {}", semaphore_name(binary)),
            "exported with vkGetSemaphoreFdKHR in this process",
        ],
    );
    // A valid import of the other export is silent (the driver resolves it to the payload).
    let r = import(
        &inst,
        &dev,
        &info(
            into_binary,
            OPAQUE,
            vk::SemaphoreImportFlags::empty(),
            other,
        ),
    );
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    for s in [binary, timeline, into_binary] {
        destroy(&dev, s);
    }
}

#[test]
fn a_timeline_semaphores_fd_imported_temporarily_is_03323() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let exporter = semaphore(&dev, true, Some(OPAQUE));
    let importer = semaphore(&dev, true, None);
    let fd = export(&inst, &dev, exporter, OPAQUE);
    let r = import(&inst, &dev, &info(importer, OPAQUE, TEMPORARY, fd));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_FLAGS_03323);
    expect::mentions(
        &m,
        &[
            "pImportSemaphoreFdInfo->flags is VK_SEMAPHORE_IMPORT_TEMPORARY_BIT",
            "(a timeline semaphore of",
            "cannot be imported temporarily",
        ],
    );
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

/// Where the layer did not see the export (its semaphore destroyed, another program, another
/// driver), the importing semaphore's type decides: an opaque fd imported into a timeline
/// semaphore came from a timeline semaphore (03264), whose payload cannot be imported
/// temporarily. The call is kept from the driver; the permanent import is silent.
#[test]
fn an_unseen_export_imported_temporarily_into_a_timeline_semaphore_is_03323() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let exporter = semaphore(&dev, true, Some(OPAQUE));
    let importer = semaphore(&dev, true, None);
    let (fd, again) = (
        export(&inst, &dev, exporter, OPAQUE),
        export(&inst, &dev, exporter, OPAQUE),
    );
    destroy(&dev, exporter);
    let before = call_count(c"vkImportSemaphoreFdKHR");
    let r = import(&inst, &dev, &info(importer, OPAQUE, TEMPORARY, fd));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT, "blocked");
    assert_eq!(call_count(c"vkImportSemaphoreFdKHR"), before);
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_FLAGS_03323);
    expect::mentions(
        &m,
        &[
            "pImportSemaphoreFdInfo->flags is VK_SEMAPHORE_IMPORT_TEMPORARY_BIT, but",
            "but the semaphore imported into is a timeline semaphore",
            &format!("({} (created on", semaphore_name(importer)),
            "VUID-VkImportSemaphoreFdInfoKHR-handleType-03264",
            "cannot be imported temporarily",
            "The call was not passed to the driver.",
        ],
    );
    let r = import(&inst, &dev, &info(importer, OPAQUE, NONE_FLAGS, again));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    // A binary semaphore takes a binary one's unseen payload temporarily: silent.
    let binary_exporter = semaphore(&dev, false, Some(OPAQUE));
    let binary = semaphore(&dev, false, None);
    let fd = export(&inst, &dev, binary_exporter, OPAQUE);
    destroy(&dev, binary_exporter);
    let r = import(&inst, &dev, &info(binary, OPAQUE, TEMPORARY, fd));
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&dev, importer);
    destroy(&dev, binary);
}

#[test]
fn other_create_flags_than_the_exporters_are_03263() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let exporter = semaphore(&dev, false, Some(OPAQUE));
    // Reserved flags: the test driver accepts them, as drivers ignore them.
    let importer = semaphore_with(&dev, 1, false, None);
    let fd = export(&inst, &dev, exporter, OPAQUE);
    let _ = import(
        &inst,
        &dev,
        &info(importer, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_HANDLE_TYPE_03263);
    expect::mentions(
        &m,
        &["created with VkSemaphoreCreateInfo::flags 0x0", "flags 0x1"],
    );
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

#[test]
fn an_fd_of_another_physical_device_is_01544() {
    let inst = exclusive(Some(r#"{"physical_device_count": 2}"#));
    let devices = inst.physical_devices();
    let first = inst.device_on(devices[0].0, &EXTENSIONS[..2], false);
    let second = inst.device_on(devices[1].0, &EXTENSIONS[..2], false);
    let exporter = semaphore(&first, false, Some(OPAQUE));
    let importer = semaphore(&second, false, None);
    let fd = export(&inst, &first, exporter, OPAQUE);
    let _ = import(
        &inst,
        &second,
        &info(importer, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_FD_01544);
    expect::mentions(
        &m,
        &[
            &format!("exported from {}", semaphore_name(exporter)),
            "other deviceUUIDs, or another driverUUID",
        ],
    );
    // The same import on the exporting physical device is silent.
    let same = semaphore(&first, false, None);
    let fd = export(&inst, &first, exporter, OPAQUE);
    let r = import(
        &inst,
        &first,
        &info(same, OPAQUE, vk::SemaphoreImportFlags::empty(), fd),
    );
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    destroy(&first, exporter);
    destroy(&first, same);
    destroy(&second, importer);
}

#[test]
fn flags_and_handle_types_of_the_import_itself() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let s = semaphore(&dev, false, Some(OPAQUE | SYNC));
    let importer = semaphore(&dev, false, None);
    signal(&dev, s);
    let fd = export(&inst, &dev, s, SYNC);
    let _ = import(
        &inst,
        &dev,
        &info(importer, SYNC, vk::SemaphoreImportFlags::empty(), fd),
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_HANDLE_TYPE_07307);
    expect::mentions(
        &m,
        &[
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT",
            "lacks VK_SEMAPHORE_IMPORT_TEMPORARY_BIT",
        ],
    );
    let fd = export(&inst, &dev, s, OPAQUE);
    let odd = vk::SemaphoreImportFlags::from_raw(0x2);
    let _ = import(&inst, &dev, &info(importer, OPAQUE, odd, fd));
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_FLAGS_PARAM);
    expect::mentions(&m, &["pImportSemaphoreFdInfo->flags is 0x2"]);
    let _ = import(
        &inst,
        &dev,
        &info(importer, Types::OPAQUE_WIN32, TEMPORARY, -1),
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_HANDLE_TYPE_01143);
    expect::mentions(
        &m,
        &["pImportSemaphoreFdInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT"],
    );
    let _ = import(
        &inst,
        &dev,
        &info(importer, Types::from_raw(1 << 7), TEMPORARY, -1),
    );
    expect::only(
        &inst,
        CMD,
        &[
            SEM_IMPORT_FD_HANDLE_TYPE_PARAM,
            SEM_IMPORT_FD_HANDLE_TYPE_01143,
        ],
    );
    destroy(&dev, s);
    destroy(&dev, importer);
}

#[test]
fn bad_pointers_structures_and_handles_are_reported() {
    let inst = exclusive(None);
    let dev = semaphore_device(&inst);
    let f = loader(&inst, &dev).fp().import_semaphore_fd_khr;
    let s = semaphore(&dev, false, None);
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { f(dev.handle(), std::ptr::null()) };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, CMD, SEM_IMPORT_FD_INFO_PARAM);
    let mut wrong = info(s, SYNC, TEMPORARY, -1);
    wrong.s_type = vk::StructureType::SEMAPHORE_GET_FD_INFO_KHR;
    assert_eq!(
        import(&inst, &dev, &wrong),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_STYPE);
    expect::mentions(&m, &["VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR"]);
    let chained = vk::ExportSemaphoreCreateInfo::default();
    let mut with_next = info(s, SYNC, TEMPORARY, -1);
    with_next.p_next = (&chained as *const vk::ExportSemaphoreCreateInfo).cast();
    assert_eq!(
        import(&inst, &dev, &with_next),
        vk::Result::SUCCESS,
        "goes down"
    );
    expect::one(&inst, CMD, SEM_IMPORT_FD_PNEXT);
    let r = import(
        &inst,
        &dev,
        &info(vk::Semaphore::null(), SYNC, TEMPORARY, -1),
    );
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_SEMAPHORE_PARAM);
    expect::mentions(&m, &["pImportSemaphoreFdInfo->semaphore is VK_NULL_HANDLE"]);
    destroy(&dev, s);
    let r = import(&inst, &dev, &info(s, SYNC, TEMPORARY, -1));
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, CMD, SEM_IMPORT_FD_SEMAPHORE_PARAM);
    expect::mentions(&m, &["already destroyed with vkDestroySemaphore"]);
    let other = semaphore_device(&inst);
    let theirs = semaphore(&other, false, None);
    let r = import(&inst, &dev, &info(theirs, SYNC, TEMPORARY, -1));
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
    let r = unsafe {
        f(
            vk::Device::from_raw(0x1234),
            &info(theirs, SYNC, TEMPORARY, -1),
        )
    };
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::unknown_device(&[&inst], CMD, SEM_IMPORT_FD_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, theirs);
}
