//! The readers of app and loader pointers, over structures of exactly the size the app gives:
//! each reader must read no byte past what the `sType` it checked promises. Miri checks that
//! (scripts/sanitize.sh miri): an out-of-bounds read, a read through the wrong type's size or a
//! write through a read-only pointer is an error there, while these are plain tests elsewhere.

use super::*;
use crate::settings::sources::LAYER_NAME;
use crate::state::Messenger;
use ash::vk::{self, Handle};
use ash_layer::{
    LayerDeviceCreateInfo, LayerDeviceLink, LayerFunction, LayerInstanceCreateInfo,
    LayerInstanceLink,
};
use std::ffi::c_void;

fn ptr<T>(s: &T) -> *const c_void {
    (s as *const T).cast()
}

#[test]
fn a_wrong_s_type_is_all_that_is_read() {
    // Only a VkBaseInStructure's 16 bytes exist behind the pointer; a whole
    // VkMemoryGetFdInfoKHR is 24.
    let base = vk::BaseInStructure {
        s_type: vk::StructureType::APPLICATION_INFO,
        ..Default::default()
    };
    let p = (&base as *const vk::BaseInStructure).cast::<vk::MemoryGetFdInfoKHR>();
    // SAFETY: readable for a VkBaseInStructure, as read_struct's contract asks.
    match unsafe { read_struct(p, vk::StructureType::MEMORY_GET_FD_INFO_KHR) } {
        StructArg::WrongSType(t) => assert_eq!(t, vk::StructureType::APPLICATION_INFO),
        other => panic!("{other:?}"),
    }
    // SAFETY: NULL is allowed.
    let null = unsafe { read_struct::<vk::MemoryGetFdInfoKHR>(std::ptr::null(), base.s_type) };
    assert!(matches!(null, StructArg::Null));
}

#[test]
fn every_allocate_structure_is_read_within_its_own_size() {
    // Unknown structures are bare 16-byte headers: the walk reads nothing more of them.
    let unknown_b = vk::BaseInStructure {
        s_type: vk::StructureType::from_raw(1_000_999_998),
        ..Default::default()
    };
    let dedicated = vk::MemoryDedicatedAllocateInfo {
        p_next: ptr(&unknown_b),
        image: vk::Image::from_raw(0x1234),
        ..Default::default()
    };
    let win32_nv = vk::ExportMemoryWin32HandleInfoNV {
        p_next: ptr(&dedicated),
        ..Default::default()
    };
    let export_nv = vk::ExportMemoryAllocateInfoNV {
        p_next: ptr(&win32_nv),
        handle_types: vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32,
        ..Default::default()
    };
    let unknown_a = vk::BaseInStructure {
        s_type: vk::StructureType::from_raw(1_000_999_999),
        p_next: ptr(&export_nv).cast(),
        ..Default::default()
    };
    let export = vk::ExportMemoryAllocateInfo {
        p_next: ptr(&unknown_a),
        handle_types: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        ..Default::default()
    };
    let info = vk::MemoryAllocateInfo {
        p_next: ptr(&export),
        allocation_size: 4096,
        memory_type_index: 3,
        ..Default::default()
    };
    // SAFETY: a chain of live structures, each of the type its sType names.
    let AllocateInfoRead::Valid(facts, chain) = (unsafe { read_allocate_info(&info) }) else {
        panic!("a valid VkMemoryAllocateInfo");
    };
    assert_eq!(
        chain,
        super::ChainRead {
            dedicated_to: Some((vk::ObjectType::IMAGE, 0x1234)),
            dedicated_info: Some((0x1234, 0)),
            host: crate::args::HostPointerChain {
                dedicated_khr: true,
                ..crate::args::HostPointerChain::NONE
            },
            // VkExportMemoryAllocateInfo, the NV one and its Win32 one, the dedicated one.
            structures: 1 | 1 << 1 | 1 << 2 | 1 << 9,
            ..super::ChainRead::COMPLETE
        }
    );
    assert_eq!((facts.size, facts.memory_type_index), (4096, 3));
    assert_eq!(
        facts.export,
        Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
    );
    assert_eq!(
        facts.export_nv,
        Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32)
    );
    assert!(facts.export_win32_nv && facts.dedicated);
}

#[test]
fn a_win32_export_structure_is_known_by_its_s_type_only() {
    let win32 = vk::ExportMemoryWin32HandleInfoKHR::default();
    let info = vk::MemoryAllocateInfo {
        p_next: ptr(&win32),
        allocation_size: 4096,
        ..Default::default()
    };
    // SAFETY: a chain of live structures, each of the type its sType names.
    let AllocateInfoRead::Valid(_, chain) = (unsafe { read_allocate_info(&info) }) else {
        panic!("a valid VkMemoryAllocateInfo");
    };
    assert!(chain.export_win32);
    // The same structure with another sType is another structure
    // (`vuid::EXPORT_WIN32_STYPE` holds by construction).
    let other = vk::ExportMemoryWin32HandleInfoKHR {
        s_type: vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV,
        ..Default::default()
    };
    let info = vk::MemoryAllocateInfo {
        p_next: ptr(&other),
        ..info
    };
    // SAFETY: as above (the NV structure is no larger than the KHR one).
    let AllocateInfoRead::Valid(facts, chain) = (unsafe { read_allocate_info(&info) }) else {
        panic!("a valid VkMemoryAllocateInfo");
    };
    assert!(!chain.export_win32 && facts.export_win32_nv);
}

#[test]
fn a_win32_nv_export_structure_is_known_by_its_s_type_only() {
    let nv = vk::ExportMemoryWin32HandleInfoNV::default();
    let info = vk::MemoryAllocateInfo {
        p_next: ptr(&nv),
        allocation_size: 4096,
        ..Default::default()
    };
    // SAFETY: a chain of live structures, each of the type its sType names.
    let AllocateInfoRead::Valid(facts, chain) = (unsafe { read_allocate_info(&info) }) else {
        panic!("a valid VkMemoryAllocateInfo");
    };
    assert!(facts.export_win32_nv && !chain.export_win32);
    // The same structure with another sType is another structure
    // (`vuid::EXPORT_WIN32_NV_STYPE` holds by construction).
    for s_type in [
        vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
        vk::StructureType::from_raw(1_000_999_990),
    ] {
        let other = vk::ExportMemoryWin32HandleInfoNV {
            s_type,
            ..Default::default()
        };
        let info = vk::MemoryAllocateInfo {
            p_next: ptr(&other),
            ..info
        };
        // SAFETY: as above; the reader reads no more than the header of either Win32 export
        // structure, which both share.
        let AllocateInfoRead::Valid(facts, chain) = (unsafe { read_allocate_info(&info) }) else {
            panic!("a valid VkMemoryAllocateInfo");
        };
        assert!(!facts.export_win32_nv, "{s_type:?}");
        assert_eq!(
            chain.export_win32,
            s_type == vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR
        );
    }
}

/// `VkImportMemoryMetalHandleInfoEXT` (not in ash 0.38).
#[repr(C)]
struct ImportMemoryMetalHandleInfo {
    s_type: vk::StructureType,
    p_next: *const c_void,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: *mut c_void,
}

#[test]
fn every_import_structure_is_read_within_its_own_size() {
    let fd = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let host = vk::ImportMemoryHostPointerInfoEXT::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT);
    let win32 = vk::ImportMemoryWin32HandleInfoKHR::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32);
    let zircon = vk::ImportMemoryZirconHandleInfoFUCHSIA::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA);
    let metal = ImportMemoryMetalHandleInfo {
        s_type: crate::vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
        p_next: std::ptr::null(),
        handle_type: crate::vk_ext::HANDLE_TYPE_MTLBUFFER,
        handle: std::ptr::null_mut(),
    };
    let android = vk::ImportAndroidHardwareBufferInfoANDROID::default();
    let cases: [(*const c_void, vk::ExternalMemoryHandleTypeFlags); 6] = [
        (ptr(&fd), fd.handle_type),
        (ptr(&host), host.handle_type),
        (ptr(&win32), win32.handle_type),
        (ptr(&zircon), zircon.handle_type),
        (ptr(&metal), metal.handle_type),
        (
            ptr(&android),
            vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID,
        ),
    ];
    for (import, handle_type) in cases {
        let info = vk::MemoryAllocateInfo {
            p_next: import,
            ..Default::default()
        };
        // SAFETY: one live structure of the type its sType names.
        match unsafe { read_allocate_info(&info) } {
            AllocateInfoRead::Valid(facts, chain)
                if chain.end == ChainEnd::Complete && chain.repeated.is_none() =>
            {
                assert_eq!(facts.import, Some(handle_type))
            }
            _ => panic!("a valid chain of one import structure"),
        }
    }
}

#[test]
fn device_create_info_names_and_the_rdma_feature() {
    let names = [
        c"VK_KHR_external_memory_fd".as_ptr(),
        std::ptr::null(),
        c"VK_NV_external_memory_rdma".as_ptr(),
    ];
    let rdma = vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV {
        external_memory_rdma: vk::TRUE,
        ..Default::default()
    };
    let features = vk::PhysicalDeviceFeatures2 {
        p_next: ptr(&rdma).cast_mut(),
        ..Default::default()
    };
    let info = vk::DeviceCreateInfo {
        p_next: ptr(&features),
        enabled_extension_count: names.len() as u32,
        pp_enabled_extension_names: names.as_ptr(),
        ..Default::default()
    };
    // SAFETY: the arrays and the chain are live and as described.
    let read = unsafe { read_device_create_info(&info) };
    assert!(read.rdma_feature);
    assert!(read.extensions.khr_external_memory_fd && read.extensions.nv_external_memory_rdma);
    assert!(!read.extensions.ext_external_memory_dma_buf);
    // SAFETY: a NULL array is allowed.
    assert!(unsafe { c_string_array(std::ptr::null(), 5) }.is_empty());
}

#[test]
fn instance_create_info_messengers() {
    let names = [c"VK_EXT_debug_utils".as_ptr()];
    let report = vk::DebugReportCallbackCreateInfoEXT {
        flags: vk::DebugReportFlagsEXT::ERROR,
        p_user_data: 0x20 as *mut c_void,
        ..Default::default()
    };
    let utils = vk::DebugUtilsMessengerCreateInfoEXT {
        p_next: ptr(&report),
        message_severity: vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        p_user_data: 0x10 as *mut c_void,
        ..Default::default()
    };
    let info = vk::InstanceCreateInfo {
        p_next: ptr(&utils),
        enabled_extension_count: 1,
        pp_enabled_extension_names: names.as_ptr(),
        ..Default::default()
    };
    // SAFETY: the arrays and the chain are live and as described.
    let read = unsafe { read_instance_create_info(&info) };
    assert!(read.debug_utils_enabled);
    match read.messengers.as_slice() {
        [Messenger::Utils {
            user_data: 0x10, ..
        }, Messenger::Report {
            user_data: 0x20, ..
        }] => {}
        _ => panic!("one messenger of each kind, in chain order"),
    }
}

#[test]
fn layer_settings_of_every_type_are_read_by_their_counts() {
    let bools: [vk::Bool32; 2] = [vk::TRUE, vk::FALSE];
    let i32s = [-1i32];
    let i64s = [i64::MIN];
    let u32s = [7u32, 8];
    let u64s = [u64::MAX];
    let f32s = [0.5f32];
    let f64s = [0.25f64];
    let strings = [c"error".as_ptr(), std::ptr::null(), c"warn".as_ptr()];
    let ours = c"VK_LAYER_EXPORTCHECK_validation";
    assert_eq!(ours.to_str(), Ok(LAYER_NAME));
    let setting = |name: &'static std::ffi::CStr, ty, count: usize, values: *const c_void| {
        vk::LayerSettingEXT {
            p_layer_name: ours.as_ptr(),
            p_setting_name: name.as_ptr(),
            ty,
            value_count: count as u32,
            p_values: values,
            ..Default::default()
        }
    };
    use vk::LayerSettingTypeEXT as T;
    let mut settings = vec![
        setting(c"b", T::BOOL32, bools.len(), bools.as_ptr().cast()),
        setting(c"i", T::INT32, 1, i32s.as_ptr().cast()),
        setting(c"l", T::INT64, 1, i64s.as_ptr().cast()),
        setting(c"u", T::UINT32, u32s.len(), u32s.as_ptr().cast()),
        setting(c"q", T::UINT64, 1, u64s.as_ptr().cast()),
        setting(c"f", T::FLOAT32, 1, f32s.as_ptr().cast()),
        setting(c"d", T::FLOAT64, 1, f64s.as_ptr().cast()),
        setting(c"s", T::STRING, strings.len(), strings.as_ptr().cast()),
        setting(c"none", T::UINT32, 3, std::ptr::null()),
    ];
    // Another layer's setting, and one without a name: skipped.
    settings.push(vk::LayerSettingEXT {
        p_layer_name: c"VK_LAYER_KHRONOS_validation".as_ptr(),
        ..settings[0]
    });
    settings.push(vk::LayerSettingEXT {
        p_setting_name: std::ptr::null(),
        ..settings[0]
    });
    let list = vk::LayerSettingsCreateInfoEXT {
        setting_count: settings.len() as u32,
        p_settings: settings.as_ptr(),
        ..Default::default()
    };
    let empty = vk::LayerSettingsCreateInfoEXT {
        p_next: ptr(&list),
        setting_count: 4,
        p_settings: std::ptr::null(),
        ..Default::default()
    };
    // SAFETY: the chain and every array are live and as their counts say.
    let read = unsafe { read_layer_settings(ptr(&empty)) };
    let got: Vec<(&str, &str)> = read
        .iter()
        .map(|s| (s.name.as_str(), s.value.as_str()))
        .collect();
    let max = u64::MAX.to_string();
    let min = i64::MIN.to_string();
    assert_eq!(
        got,
        [
            ("b", "true,false"),
            ("i", "-1"),
            ("l", min.as_str()),
            ("u", "7,8"),
            ("q", max.as_str()),
            ("f", "0.5"),
            ("d", "0.25"),
            ("s", "error,warn"),
            ("none", ""),
        ]
    );
}

extern "system" fn marker() {}

// Function pointers have no reliable identity (Miri gives each use its own address): the next
// layer's functions are recognised by what they answer instead.
const NEXT_INSTANCE: u64 = 0x1234;
const NEXT_DEVICE: u64 = 0x5678;

unsafe extern "system" fn next_gipa(
    instance: vk::Instance,
    _: *const std::ffi::c_char,
) -> vk::PFN_vkVoidFunction {
    (instance.as_raw() == NEXT_INSTANCE).then_some(marker as extern "system" fn())
}

unsafe extern "system" fn next_gdpa(
    device: vk::Device,
    _: *const std::ffi::c_char,
) -> vk::PFN_vkVoidFunction {
    (device.as_raw() == NEXT_DEVICE).then_some(marker as extern "system" fn())
}

/// Whether `gipa` and `gdpa` are [`next_gipa`] and [`next_gdpa`].
fn are_next(
    gipa: vk::PFN_vkGetInstanceProcAddr,
    gdpa: Option<vk::PFN_vkGetDeviceProcAddr>,
) -> bool {
    let name = c"vkCreateDevice".as_ptr();
    // SAFETY: test functions that only compare their handle argument.
    unsafe {
        gipa(vk::Instance::from_raw(NEXT_INSTANCE), name).is_some()
            && gipa(vk::Instance::null(), name).is_none()
            && match gdpa {
                None => true,
                Some(gdpa) => {
                    gdpa(vk::Device::from_raw(NEXT_DEVICE), name).is_some()
                        && gdpa(vk::Device::null(), name).is_none()
                }
            }
    }
}

#[test]
fn the_instance_link_is_found_and_advanced() {
    let mut below = LayerInstanceLink {
        p_next: std::ptr::null_mut(),
        pfn_next_get_instance_proc_addr: None,
        pfn_next_get_physical_device_proc_addr: None,
    };
    let mut ours = LayerInstanceLink {
        p_next: &mut below,
        pfn_next_get_instance_proc_addr: Some(next_gipa),
        pfn_next_get_physical_device_proc_addr: None,
    };
    // The loader's link node, after another of its nodes of the same sType.
    let mut link = LayerInstanceCreateInfo {
        function: LayerFunction::LAYER_LINK_INFO,
        ..Default::default()
    };
    link.u.p_layer_info = &mut ours;
    let other = LayerInstanceCreateInfo {
        p_next: (&mut link as *mut LayerInstanceCreateInfo)
            .cast_const()
            .cast(),
        function: LayerFunction::LOADER_DATA_CALLBACK,
        ..Default::default()
    };
    let info = vk::InstanceCreateInfo {
        p_next: ptr(&other),
        ..Default::default()
    };
    // SAFETY: a loader-shaped chain; the link node is writable.
    let gipa = unsafe { take_instance_link(&info) };
    assert!(are_next(gipa.expect("the link"), None));
    // SAFETY: the union member the loader set.
    assert_eq!(unsafe { link.u.p_layer_info }, &mut below as *mut _);
}

#[test]
fn the_device_link_is_found_and_advanced() {
    let mut ours = LayerDeviceLink {
        p_next: std::ptr::null_mut(),
        pfn_next_get_instance_proc_addr: Some(next_gipa),
        pfn_next_get_device_proc_addr: Some(next_gdpa),
    };
    let mut link = LayerDeviceCreateInfo {
        function: LayerFunction::LAYER_LINK_INFO,
        ..Default::default()
    };
    link.u.p_layer_info = &mut ours;
    let info = vk::DeviceCreateInfo {
        p_next: (&mut link as *mut LayerDeviceCreateInfo)
            .cast_const()
            .cast(),
        ..Default::default()
    };
    // SAFETY: a loader-shaped chain; the link node is writable.
    let (gipa, gdpa) = unsafe { take_device_link(&info) }.expect("the link");
    assert!(are_next(gipa, Some(gdpa)));
    // SAFETY: the union member the loader set.
    assert!(unsafe { link.u.p_layer_info }.is_null());
    // Nothing left below: no link.
    // SAFETY: as above.
    assert!(unsafe { take_device_link(&info) }.is_none());
}

#[test]
fn out_values_and_names() {
    let fd = 7i32;
    // SAFETY: NULL or a live value.
    assert_eq!(unsafe { read_out(&fd) }, Some(7));
    // SAFETY: NULL is allowed.
    assert_eq!(unsafe { read_out::<i32>(std::ptr::null()) }, None);
    assert_eq!(
        // SAFETY: a NUL-terminated literal, which lives for the whole program.
        unsafe { c_name(c"vkGetMemoryFdKHR".as_ptr()) },
        Some(&b"vkGetMemoryFdKHR"[..])
    );
    // SAFETY: NULL is allowed.
    assert_eq!(unsafe { c_string(std::ptr::null()) }, None);
}

#[test]
fn each_structure_the_reader_knows_counts_alone_for_s_type_unique() {
    // Every structure the allocate reader recognises, once each: none may share another's bit
    // in the repeated-structure set, or the chain would be reported as repeating one.
    let android = vk::ImportAndroidHardwareBufferInfoANDROID::default();
    let metal = ImportMemoryMetalHandleInfo {
        s_type: crate::vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
        p_next: ptr(&android),
        handle_type: vk::ExternalMemoryHandleTypeFlags::empty(),
        handle: std::ptr::null_mut(),
    };
    let zircon = vk::ImportMemoryZirconHandleInfoFUCHSIA {
        p_next: ptr(&metal),
        ..Default::default()
    };
    let import_win32_nv = vk::ImportMemoryWin32HandleInfoNV {
        p_next: ptr(&zircon),
        ..Default::default()
    };
    let import_win32 = vk::ImportMemoryWin32HandleInfoKHR {
        p_next: ptr(&import_win32_nv),
        ..Default::default()
    };
    let capture = vk::MemoryOpaqueCaptureAddressAllocateInfo {
        p_next: ptr(&import_win32),
        ..Default::default()
    };
    let dedicated_nv = vk::DedicatedAllocationMemoryAllocateInfoNV {
        p_next: ptr(&capture),
        ..Default::default()
    };
    let dedicated = vk::MemoryDedicatedAllocateInfo {
        p_next: ptr(&dedicated_nv),
        ..Default::default()
    };
    let host = vk::ImportMemoryHostPointerInfoEXT {
        p_next: ptr(&dedicated),
        ..Default::default()
    };
    let fd = vk::ImportMemoryFdInfoKHR {
        p_next: ptr(&host),
        ..Default::default()
    };
    let win32_khr = vk::ExportMemoryWin32HandleInfoKHR {
        p_next: ptr(&fd),
        ..Default::default()
    };
    let win32_nv = vk::ExportMemoryWin32HandleInfoNV {
        p_next: ptr(&win32_khr),
        ..Default::default()
    };
    let export_nv = vk::ExportMemoryAllocateInfoNV {
        p_next: ptr(&win32_nv),
        ..Default::default()
    };
    let export = vk::ExportMemoryAllocateInfo {
        p_next: ptr(&export_nv),
        ..Default::default()
    };
    let info = vk::MemoryAllocateInfo {
        p_next: ptr(&export),
        ..Default::default()
    };
    // SAFETY: a chain of live structures, each of the type its sType names.
    let AllocateInfoRead::Valid(_, chain) = (unsafe { read_allocate_info(&info) }) else {
        panic!("a valid VkMemoryAllocateInfo");
    };
    assert_eq!(chain.repeated, None);
    assert_eq!(chain.end, ChainEnd::Complete);
    assert!(chain.handle_imports);
    // SAFETY: as above.
    let h = unsafe { read_handle_imports(&info) };
    assert!(h.win32.is_some() && h.win32_nv.is_some() && h.zircon.is_some());
    assert!(h.metal.is_some() && h.android);
}

#[test]
fn win32_import_structures_are_read_by_their_s_type_only() {
    let nv = vk::ImportMemoryWin32HandleInfoNV {
        handle_type: vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT,
        handle: 0x44,
        ..Default::default()
    };
    let khr = vk::ImportMemoryWin32HandleInfoKHR {
        p_next: ptr(&nv),
        handle_type: vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32,
        name: [0u16; 2].as_ptr(),
        ..Default::default()
    };
    let read = |head: *const c_void| {
        let info = vk::MemoryAllocateInfo {
            p_next: head,
            ..Default::default()
        };
        // SAFETY: a chain of live structures, each of the type its sType names (or unknown).
        let AllocateInfoRead::Valid(_, chain) = (unsafe { read_allocate_info(&info) }) else {
            panic!("a valid VkMemoryAllocateInfo");
        };
        // SAFETY: as above.
        let handles = unsafe { read_handle_imports(&info) };
        // The first read notes the structures; the second reads them.
        assert_eq!(
            chain.handle_imports,
            handles != crate::args::HandleImports::NONE
        );
        handles
    };
    let handles = read(ptr(&khr));
    assert_eq!(
        handles.win32,
        Some(crate::args::Win32Import {
            handle_type: vk::ExternalMemoryHandleTypeFlags::OPAQUE_WIN32,
            handle: false,
            name: true,
            handle_value: 0,
        })
    );
    assert_eq!(
        handles.win32_nv,
        Some((vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32_KMT, true))
    );
    // `vuid::IMPORT_WIN32_STYPE` and `vuid::IMPORT_WIN32_NV_STYPE` hold by
    // construction: with another sType the nodes are other structures.
    let other_nv = vk::ImportMemoryWin32HandleInfoNV {
        s_type: vk::StructureType::from_raw(1_000_999_993),
        ..nv
    };
    let other_khr = vk::ImportMemoryWin32HandleInfoKHR {
        s_type: vk::StructureType::from_raw(1_000_999_994),
        p_next: ptr(&other_nv),
        ..khr
    };
    assert_eq!(read(ptr(&other_khr)), crate::args::HandleImports::NONE);
}

#[test]
fn zircon_metal_and_android_imports_are_read_by_their_s_type_only() {
    let android = vk::ImportAndroidHardwareBufferInfoANDROID::default();
    let metal = ImportMemoryMetalHandleInfo {
        s_type: crate::vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
        p_next: ptr(&android),
        handle_type: crate::vk_ext::HANDLE_TYPE_MTLTEXTURE,
        handle: 0x10 as *mut c_void,
    };
    let zircon = vk::ImportMemoryZirconHandleInfoFUCHSIA {
        p_next: ptr(&metal),
        handle_type: vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA,
        handle: 9,
        ..Default::default()
    };
    let read = |head: *const c_void| {
        let info = vk::MemoryAllocateInfo {
            p_next: head,
            ..Default::default()
        };
        // SAFETY: a chain of live structures, each of the type its sType names (or unknown).
        let AllocateInfoRead::Valid(_, chain) = (unsafe { read_allocate_info(&info) }) else {
            panic!("a valid VkMemoryAllocateInfo");
        };
        // SAFETY: as above.
        let handles = unsafe { read_handle_imports(&info) };
        // The first read notes the structures; the second reads them.
        assert_eq!(
            chain.handle_imports,
            handles != crate::args::HandleImports::NONE
        );
        handles
    };
    let handles = read(ptr(&zircon));
    assert_eq!(
        handles.zircon,
        Some((vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA, 9))
    );
    assert_eq!(
        handles.metal,
        Some((crate::vk_ext::HANDLE_TYPE_MTLTEXTURE, true))
    );
    assert!(handles.android);
    // `vuid::IMPORT_ZIRCON_STYPE`, `vuid::IMPORT_METAL_STYPE` and `vuid::IMPORT_AHB_STYPE` hold by
    // construction: with another sType the nodes are other structures.
    let other_android = vk::ImportAndroidHardwareBufferInfoANDROID {
        s_type: vk::StructureType::from_raw(1_000_999_995),
        ..android
    };
    let other_metal = ImportMemoryMetalHandleInfo {
        s_type: vk::StructureType::from_raw(1_000_999_996),
        p_next: ptr(&other_android),
        ..metal
    };
    let other_zircon = vk::ImportMemoryZirconHandleInfoFUCHSIA {
        s_type: vk::StructureType::from_raw(1_000_999_997),
        p_next: ptr(&other_metal),
        ..zircon
    };
    assert_eq!(read(ptr(&other_zircon)), crate::args::HandleImports::NONE);
}

#[test]
fn a_device_mask_is_read_only_with_its_flag() {
    let read_mask = |flags: vk::MemoryAllocateFlags| {
        let f = vk::MemoryAllocateFlagsInfo::default()
            .flags(flags)
            .device_mask(0b10);
        let info = vk::MemoryAllocateInfo {
            p_next: ptr(&f),
            allocation_size: 4096,
            ..Default::default()
        };
        // SAFETY: a chain of live structures, each of the type its sType names.
        let AllocateInfoRead::Valid(_, chain) = (unsafe { read_allocate_info(&info) }) else {
            panic!("a valid VkMemoryAllocateInfo");
        };
        chain.device_mask
    };
    assert_eq!(read_mask(vk::MemoryAllocateFlags::DEVICE_MASK), Some(0b10));
    assert_eq!(read_mask(vk::MemoryAllocateFlags::DEVICE_ADDRESS), None);
}

#[test]
fn a_device_group_is_read_within_its_bounds() {
    use super::create_info::DeviceGroupRead;
    let members = [
        vk::PhysicalDevice::from_raw(0x10),
        vk::PhysicalDevice::from_raw(0x20),
    ];
    let read = |group: &vk::DeviceGroupDeviceCreateInfo| {
        let info = vk::DeviceCreateInfo {
            p_next: ptr(group),
            ..Default::default()
        };
        // SAFETY: a create info whose chain and arrays are live.
        unsafe { read_device_create_info(&info) }.group
    };
    let group = vk::DeviceGroupDeviceCreateInfo::default().physical_devices(&members);
    assert_eq!(read(&group), DeviceGroupRead::Members(members.to_vec()));
    let empty = vk::DeviceGroupDeviceCreateInfo::default();
    assert_eq!(read(&empty), DeviceGroupRead::Absent);
    // A count beyond VK_MAX_DEVICE_GROUP_SIZE, or a NULL array, is not read.
    let too_many = vk::DeviceGroupDeviceCreateInfo {
        physical_device_count: vk::MAX_DEVICE_GROUP_SIZE as u32 + 1,
        p_physical_devices: members.as_ptr(),
        ..Default::default()
    };
    assert_eq!(read(&too_many), DeviceGroupRead::Unreadable);
    let null = vk::DeviceGroupDeviceCreateInfo {
        physical_device_count: 2,
        ..Default::default()
    };
    assert_eq!(read(&null), DeviceGroupRead::Unreadable);
}

/// Each structure of `vk_names::ALLOCATE_CHAIN` is read as its entry's bit of
/// `ChainRead::structures` (the bit `VUID-VkMemoryAllocateInfo-pNext-pNext` is judged by).
#[test]
fn each_chained_structure_sets_its_table_bit() {
    for (i, structure) in crate::vk_names::ALLOCATE_CHAIN.iter().enumerate() {
        // A zeroed node larger than any of these structures, with the entry's sType.
        let mut node = [0u64; 16];
        node[0] = structure.s_type.as_raw() as u32 as u64;
        let info = vk::MemoryAllocateInfo {
            p_next: node.as_ptr().cast(),
            allocation_size: 4096,
            ..Default::default()
        };
        // SAFETY: the node is live, zeroed past its sType (pNext NULL, handles NULL), and as
        // large as every structure of the table.
        let AllocateInfoRead::Valid(_, chain) = (unsafe { read_allocate_info(&info) }) else {
            panic!("a valid VkMemoryAllocateInfo");
        };
        assert_eq!(chain.structures, 1 << i, "{}", structure.name);
    }
}
