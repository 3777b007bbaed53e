//! vkGetSemaphoreWin32HandleKHR and VkExportSemaphoreWin32HandleInfoKHR at vkCreateSemaphore end
//! to end: the real loader, the layer, and the project's test driver (`tests/icd`), which exports
//! binary and timeline semaphores as made-up Win32 handles (`OPAQUE_WIN32`, `OPAQUE_WIN32_KMT`,
//! stable per payload) and imports them back (docs/test-driver.md, "Semaphores and fences").
//! Valid exports are silent; each bad call yields exactly the IDs of the rules it breaks: the
//! shared export rules (pointers, sType, pNext, the semaphore handle, the handle-type value, the
//! device), the rules of the semaphore as it was created (01126, 01131), an NT handle exported
//! twice (01127), and at creation the Win32 info without an NT handle type (01125). Neither
//! 01126 nor 01127 is judged while an imported payload is the semaphore's; 01127 is again once
//! a wait restored the created payload after a temporary import.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{self, device_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{
    self, destroy, semaphore, semaphore_device, semaphore_name, try_create, Made, Types,
};
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{Device, Instance};

const CMD: &str = GET_SEMAPHORE_WIN32_HANDLE;
const CREATE: &str = "vkCreateSemaphore";
const WIN32: Types = Types::OPAQUE_WIN32;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const D3D12: Types = Types::D3D12_FENCE;

fn win32_device(inst: &Instance) -> Device {
    semaphore_device(inst, &[ash::khr::external_semaphore_win32::NAME])
}

fn loader(inst: &Instance, dev: &Device) -> ash::khr::external_semaphore_win32::Device {
    ash::khr::external_semaphore_win32::Device::new(&inst.instance, &dev.device)
}

fn info(
    semaphore: vk::Semaphore,
    handle_type: Types,
) -> vk::SemaphoreGetWin32HandleInfoKHR<'static> {
    vk::SemaphoreGetWin32HandleInfoKHR::default()
        .semaphore(semaphore)
        .handle_type(handle_type)
}

/// The call with `info`; `*pHandle` is pre-filled with a sentinel.
fn call(
    inst: &Instance,
    dev: &Device,
    info: &vk::SemaphoreGetWin32HandleInfoKHR<'_>,
) -> (vk::Result, vk::HANDLE) {
    let mut handle = 0x7usize as vk::HANDLE;
    let get = loader(inst, dev).fp().get_semaphore_win32_handle_khr;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), info, &mut handle) };
    (result, handle)
}

/// A valid export: `VK_SUCCESS` and a handle written.
fn export(inst: &Instance, dev: &Device, s: vk::Semaphore, t: Types) -> vk::HANDLE {
    let (r, handle) = call(inst, dev, &info(s, t));
    assert_eq!(r, vk::Result::SUCCESS);
    assert_ne!(handle as usize, 0x7, "written");
    handle
}

#[test]
fn exports_as_created_are_silent_and_kmt_handles_may_be_exported_again() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let binary = semaphore(&dev, false, Some(WIN32 | KMT));
    let timeline = semaphore(&dev, true, Some(WIN32 | KMT));
    for s in [binary, timeline] {
        export(&inst, &dev, s, WIN32);
        expect::silent(&inst, CMD);
        for _ in 0..2 {
            export(&inst, &dev, s, KMT);
            expect::silent(&inst, CMD);
        }
    }
    destroy(&dev, binary);
    destroy(&dev, timeline);
}

#[test]
fn an_nt_handle_exported_twice_is_01127() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let s = semaphore(&dev, false, Some(WIN32 | KMT));
    dev.name(s, c"frame-done");
    export(&inst, &dev, s, WIN32);
    expect::silent(&inst, CMD);
    let (r, _) = call(&inst, &dev, &info(s, WIN32));
    assert_eq!(r, vk::Result::SUCCESS, "reported, not blocked");
    let m = expect::one(&inst, CMD, SEM_WIN32_HANDLE_TYPE_01127);
    expect::mentions(
        &m,
        &[
            "pGetWin32HandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT, an NT handle type",
            "already exported from",
            &semaphore_name(s),
            "DuplicateHandle",
        ],
    );
    let name = expect::object(&m, vk::ObjectType::SEMAPHORE, s.as_raw());
    assert_eq!(name.as_deref(), Some("frame-done"));
    // Each semaphore's NT handle is its own.
    let other = semaphore(&dev, false, Some(WIN32));
    export(&inst, &dev, other, WIN32);
    expect::silent(&inst, CMD);
    destroy(&dev, s);
    destroy(&dev, other);
}

#[test]
fn a_type_the_semaphore_was_not_created_exportable_as_is_01126() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let s = semaphore(&dev, false, Some(KMT));
    let _ = call(&inst, &dev, &info(s, WIN32));
    let m = expect::one(&inst, CMD, SEM_WIN32_HANDLE_TYPE_01126);
    expect::mentions(
        &m,
        &[
            "pGetWin32HandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT, which was not included",
            &semaphore_name(s),
            &format!("created on {} as a binary semaphore", device_name(&dev)),
            "VkExportSemaphoreCreateInfo::handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        ],
    );
    let plain = semaphore(&dev, false, None);
    let _ = call(&inst, &dev, &info(plain, KMT));
    let m = expect::one(&inst, CMD, SEM_WIN32_HANDLE_TYPE_01126);
    expect::mentions(
        &m,
        &["as a binary semaphore, no VkExportSemaphoreCreateInfo"],
    );
    destroy(&dev, s);
    destroy(&dev, plain);
}

#[test]
fn after_an_import_neither_01126_nor_01127_is_judged() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let exporter = semaphore(&dev, false, Some(WIN32 | KMT));
    let importer = semaphore(&dev, false, Some(WIN32));
    export(&inst, &dev, importer, WIN32);
    let handle = export(&inst, &dev, exporter, KMT);
    expect::silent(&inst, CMD);
    let import = vk::ImportSemaphoreWin32HandleInfoKHR::default()
        .semaphore(importer)
        .handle_type(KMT)
        .handle(handle);
    // SAFETY: a live info structure naming a handle the driver exported.
    unsafe { loader(&inst, &dev).import_semaphore_win32_handle(&import) }
        .expect("vkImportSemaphoreWin32HandleKHR");
    // Its payload is now the exporter's, exportable as the exporter was created exportable
    // (01126 judges those: test_driver_semaphore_imported_payload.rs); an NT handle of it was
    // never exported.
    export(&inst, &dev, importer, KMT);
    export(&inst, &dev, importer, WIN32);
    expect::silent(&inst, CMD);
    destroy(&dev, exporter);
    destroy(&dev, importer);
}

/// A temporary import replaces the payload until the next wait: meanwhile an NT handle of the
/// imported payload is another combination (silent); once a wait restored the created payload,
/// its second NT handle is 01127 again (issue #33: the layer stopped counting after any import).
#[test]
fn after_a_wait_restored_the_created_payload_01127_is_judged_again() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let exporter = semaphore(&dev, false, Some(WIN32 | KMT));
    let s = semaphore(&dev, false, Some(WIN32 | KMT));
    export(&inst, &dev, s, WIN32);
    let handle = export(&inst, &dev, exporter, KMT);
    let import = vk::ImportSemaphoreWin32HandleInfoKHR::default()
        .semaphore(s)
        .handle_type(KMT)
        .flags(vk::SemaphoreImportFlags::TEMPORARY)
        .handle(handle);
    // SAFETY: a live info structure naming a handle the driver exported.
    unsafe { loader(&inst, &dev).import_semaphore_win32_handle(&import) }
        .expect("vkImportSemaphoreWin32HandleKHR");
    // The imported payload's NT handle: not the created payload's second.
    export(&inst, &dev, s, WIN32);
    expect::silent(&inst, CMD);
    // A signal, then a wait: the temporary payload is consumed, the created one restored.
    semaphores::submit_and_idle(&dev, &[], &[s]);
    semaphores::submit_and_idle(&dev, &[s], &[]);
    let _ = call(&inst, &dev, &info(s, WIN32));
    let m = expect::one(&inst, CMD, SEM_WIN32_HANDLE_TYPE_01127);
    expect::mentions(&m, &[&semaphore_name(s)]);
    destroy(&dev, exporter);
    destroy(&dev, s);
}

#[test]
fn a_type_that_is_no_win32_handle_is_01131() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let fd = Types::OPAQUE_FD;
    let s = semaphore(&dev, false, Some(fd | WIN32));
    let _ = call(&inst, &dev, &info(s, fd));
    let m = expect::one(&inst, CMD, SEM_WIN32_HANDLE_TYPE_01131);
    expect::mentions(
        &m,
        &[
            "pGetWin32HandleInfo->handleType is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT",
        ],
    );
    let other = semaphore(&dev, false, Some(WIN32));
    let _ = call(&inst, &dev, &info(other, fd));
    expect::only(
        &inst,
        CMD,
        &[SEM_WIN32_HANDLE_TYPE_01131, SEM_WIN32_HANDLE_TYPE_01126],
    );
    destroy(&dev, s);
    destroy(&dev, other);
}

#[test]
fn bad_pointers_structures_and_values_are_reported() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let get = loader(&inst, &dev).fp().get_semaphore_win32_handle_khr;
    let s = semaphore(&dev, false, Some(KMT));
    let mut handle: vk::HANDLE = 0;
    // SAFETY: NULL info: the layer blocks the call.
    let r = unsafe { get(dev.handle(), std::ptr::null(), &mut handle) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, SEM_WIN32_INFO_PARAM);
    // SAFETY: NULL output: the layer blocks the call.
    let r = unsafe { get(dev.handle(), &info(s, KMT), std::ptr::null_mut()) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, SEM_WIN32_PHANDLE_PARAM);
    let mut wrong = info(s, KMT);
    wrong.s_type = vk::StructureType::SEMAPHORE_GET_FD_INFO_KHR;
    let (r, _) = call(&inst, &dev, &wrong);
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_WIN32_STYPE);
    expect::mentions(
        &m,
        &["VK_STRUCTURE_TYPE_SEMAPHORE_GET_WIN32_HANDLE_INFO_KHR"],
    );
    let chained = vk::ExportSemaphoreCreateInfo::default();
    let mut with_next = info(s, KMT);
    with_next.p_next = (&chained as *const vk::ExportSemaphoreCreateInfo).cast();
    let _ = call(&inst, &dev, &with_next);
    expect::one(&inst, CMD, SEM_WIN32_PNEXT);
    let _ = call(&inst, &dev, &info(s, Types::empty()));
    expect::only(
        &inst,
        CMD,
        &[SEM_WIN32_HANDLE_TYPE_PARAM, SEM_WIN32_HANDLE_TYPE_01131],
    );
    let (r, _) = call(&inst, &dev, &info(vk::Semaphore::null(), KMT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_WIN32_SEMAPHORE_PARAM);
    expect::mentions(&m, &["pGetWin32HandleInfo->semaphore is VK_NULL_HANDLE"]);
    destroy(&dev, s);
    let (r, _) = call(&inst, &dev, &info(s, KMT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEM_WIN32_SEMAPHORE_PARAM);
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
    let dev = win32_device(&inst);
    let other = win32_device(&inst);
    let s = semaphore(&other, false, Some(KMT));
    let (r, _) = call(&inst, &dev, &info(s, KMT));
    assert_ne!(r, vk::Result::SUCCESS, "blocked");
    let m = expect::one(&inst, CMD, SEMAPHORE_OF_OTHER_DEVICE);
    expect::mentions(
        &m,
        &[
            "vkGetSemaphoreWin32HandleKHR(): pGetWin32HandleInfo->semaphore",
            &format!("created on {}", device_name(&other)),
            &format!("which belongs to another device than {}", device_name(&dev)),
        ],
    );
    let get = loader(&inst, &dev).fp().get_semaphore_win32_handle_khr;
    let mut handle: vk::HANDLE = 0;
    // SAFETY: a made-up device through a vkGetDeviceProcAddr pointer: the layer blocks it.
    let r = unsafe { get(vk::Device::from_raw(0x1234), &info(s, KMT), &mut handle) };
    assert_ne!(r, vk::Result::SUCCESS);
    expect::unknown_device(&[&inst], CMD, SEM_WIN32_DEVICE_PARAM, &["0x1234"]);
    destroy(&other, s);
}

#[test]
fn the_win32_info_without_an_nt_handle_type_is_01125_and_the_semaphore_is_made() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let made = Made {
        export: Some(Types::OPAQUE_FD | KMT),
        win32_info: true,
        ..Made::default()
    };
    let s = try_create(&dev, made).expect("reported, not blocked: the driver made it");
    let m = expect::one(&inst, CREATE, EXPORT_SEM_WIN32_HANDLE_TYPES_01125);
    expect::mentions(
        &m,
        &[
            "vkCreateSemaphore(): the pNext chain of pCreateInfo has a VkExportSemaphoreWin32HandleInfoKHR",
            "(VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT|VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT) includes neither",
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
    // Made, and tracked as created.
    export(&inst, &dev, s, KMT);
    expect::silent(&inst, CMD);
    destroy(&dev, s);
}

#[test]
fn the_win32_info_with_an_nt_handle_type_or_without_an_export_info_is_silent() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    for export in [Some(WIN32), Some(WIN32 | KMT), None] {
        let made = Made {
            export,
            win32_info: true,
            ..Made::default()
        };
        let s = try_create(&dev, made).expect("vkCreateSemaphore");
        expect::silent(&inst, CREATE);
        destroy(&dev, s);
    }
    // D3D12_FENCE is an NT handle type too: no 01125. The test driver cannot export it, which
    // the layer's own capability query learns (01124), as it would on any driver without it.
    let made = Made {
        export: Some(D3D12),
        win32_info: true,
        ..Made::default()
    };
    let s = try_create(&dev, made).expect("vkCreateSemaphore");
    expect::only(&inst, CREATE, &[EXPORT_SEM_HANDLE_TYPES_01124]);
    destroy(&dev, s);
    // A timeline semaphore, and one without the Win32 info.
    for (timeline, win32_info) in [(true, true), (false, false)] {
        let made = Made {
            timeline,
            export: Some(KMT),
            win32_info,
        };
        let s = try_create(&dev, made);
        if win32_info {
            expect::one(&inst, CREATE, EXPORT_SEM_WIN32_HANDLE_TYPES_01125);
        } else {
            expect::silent(&inst, CREATE);
        }
        destroy(&dev, s.expect("vkCreateSemaphore"));
    }
}
