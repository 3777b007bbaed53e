//! Readers of the create-info and allocate-info structures the layer tracks state from.

use super::read::{c_string_array, read_node, read_struct, walk_chain};
use crate::args::StructArg;
use crate::args::{
    AllocateInfoRead, ChainRead, FdImport, HandleImports, HostPointerChain, Win32Import,
};
use crate::state::{AllocationFacts, EnabledExtensions, EnabledFeatures, Messenger};
use crate::vk_ext;
use ash::vk::{self, Handle};
use std::ffi::c_void;

/// `sType`, `pNext`, `handleType`: the head that every memory-import structure shares.
#[repr(C)]
#[derive(Clone, Copy)]
struct ImportHead {
    s_type: vk::StructureType,
    p_next: *const c_void,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
}

/// Records an import structure's handle type as the allocation's import (`facts.import`): the
/// type of a structure that defines an import operation (`defines`: a non-zero type, an Android
/// hardware buffer import with a buffer) is kept over a later structure's that defines none, so
/// the record names the import the chain makes whatever the structures' order. Out of line: the
/// chain reader's loop stays smaller (the allocate + free pair, which imports nothing, 928 → 905
/// instructions; inlined, 935).
#[inline(never)]
fn note_import(
    facts: &mut AllocationFacts,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    defines: bool,
) {
    if defines || facts.import.is_none() {
        facts.import = Some(handle_type);
    }
}

/// Reads `VkMemoryAllocateInfo` and the export, import and dedicated structures of its chain.
///
/// # Safety
/// `p` is NULL or points to a `VkMemoryAllocateInfo` whose chain is readable.
pub unsafe fn read_allocate_info(p: *const vk::MemoryAllocateInfo<'_>) -> AllocateInfoRead {
    // SAFETY: the caller's contract; NULL and sType are checked first.
    let info = match unsafe { read_struct(p, vk::StructureType::MEMORY_ALLOCATE_INFO) } {
        StructArg::Null => return AllocateInfoRead::Null,
        StructArg::WrongSType(t) => return AllocateInfoRead::WrongSType(t),
        StructArg::Valid(info) => info,
    };
    let mut facts = AllocationFacts {
        size: info.allocation_size,
        memory_type_index: info.memory_type_index,
        ..Default::default()
    };
    // The structure types read, as bits of `vk_names::ALLOCATE_CHAIN`, to find the first one
    // repeated and to say which the device may take.
    let mut seen = 0u32;
    let mut repeated = None;
    let mut import_fd = None;
    let mut import_operations = 0u32;
    let mut dedicated_to = None;
    let mut host = HostPointerChain::NONE;
    let mut export_win32 = false;
    let mut dedicated_info = None;
    let mut handle_imports = false;
    let mut device_mask = None;
    let mut allocate_flags = vk::MemoryAllocateFlags::empty();
    // SAFETY: each node is read as the structure its sType names.
    let end = unsafe {
        walk_chain(info.p_next, |s_type, node| {
            // One match per node: it reads the structure and names its bit (0: not read).
            let bit = match s_type {
                vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO => {
                    let e: vk::ExportMemoryAllocateInfo = read_node(node);
                    facts.export = Some(facts.export.unwrap_or_default() | e.handle_types);
                    1 << 0
                }
                vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO_NV => {
                    let e: vk::ExportMemoryAllocateInfoNV = read_node(node);
                    facts.export_nv = Some(facts.export_nv.unwrap_or_default() | e.handle_types);
                    1 << 1
                }
                vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV => {
                    facts.export_win32_nv = true;
                    1 << 2
                }
                vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_KHR => {
                    export_win32 = true;
                    1 << 12
                }
                vk::StructureType::IMPORT_MEMORY_FD_INFO_KHR => {
                    let import: vk::ImportMemoryFdInfoKHR = read_node(node);
                    note_import(
                        &mut facts,
                        import.handle_type,
                        !import.handle_type.is_empty(),
                    );
                    import_fd = Some(FdImport {
                        handle_type: import.handle_type,
                        fd: import.fd,
                        open: None,
                        not_of_type: None,
                    });
                    import_operations += defines_import(import.handle_type);
                    1 << 3
                }
                vk::StructureType::IMPORT_MEMORY_HOST_POINTER_INFO_EXT => {
                    let import: vk::ImportMemoryHostPointerInfoEXT = read_node(node);
                    note_import(
                        &mut facts,
                        import.handle_type,
                        !import.handle_type.is_empty(),
                    );
                    import_operations += defines_import(import.handle_type);
                    host.imported = true;
                    host.handle_type = import.handle_type;
                    host.pointer = import.p_host_pointer as usize as u64;
                    1 << 4
                }
                vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR => {
                    let handle_type = read_node::<ImportHead>(node).handle_type;
                    note_import(&mut facts, handle_type, !handle_type.is_empty());
                    import_operations += defines_import(handle_type);
                    handle_imports = true;
                    1 << 5
                }
                vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_NV => {
                    // Not an import operation of VkMemoryAllocateInfo's definition (its list
                    // names the KHR structure only); read by `read_handle_imports`.
                    handle_imports = true;
                    1 << 13
                }
                vk::StructureType::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA => {
                    let handle_type = read_node::<ImportHead>(node).handle_type;
                    note_import(&mut facts, handle_type, !handle_type.is_empty());
                    import_operations += defines_import(handle_type);
                    handle_imports = true;
                    1 << 6
                }
                vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT => {
                    let handle_type = read_node::<ImportHead>(node).handle_type;
                    note_import(&mut facts, handle_type, !handle_type.is_empty());
                    import_operations += defines_import(handle_type);
                    handle_imports = true;
                    1 << 7
                }
                vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID => {
                    let a: vk::ImportAndroidHardwareBufferInfoANDROID = read_node(node);
                    import_operations += u32::from(!a.buffer.is_null());
                    let ahb = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
                    note_import(&mut facts, ahb, !a.buffer.is_null());
                    handle_imports = true;
                    1 << 8
                }
                vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO => {
                    let d: vk::MemoryDedicatedAllocateInfo = read_node(node);
                    dedicate(&mut dedicated_to, d.image.as_raw(), d.buffer.as_raw());
                    host.dedicated_khr = d.image.as_raw() != 0 || d.buffer.as_raw() != 0;
                    dedicated_info = Some((d.image.as_raw(), d.buffer.as_raw()));
                    1 << 9
                }
                vk::StructureType::DEDICATED_ALLOCATION_MEMORY_ALLOCATE_INFO_NV => {
                    let d: vk::DedicatedAllocationMemoryAllocateInfoNV = read_node(node);
                    dedicate(&mut dedicated_to, d.image.as_raw(), d.buffer.as_raw());
                    host.dedicated_nv = d.image.as_raw() != 0 || d.buffer.as_raw() != 0;
                    1 << 10
                }
                vk::StructureType::MEMORY_ALLOCATE_FLAGS_INFO => {
                    let f: vk::MemoryAllocateFlagsInfo = read_node(node);
                    allocate_flags = f.flags;
                    device_mask = f
                        .flags
                        .contains(vk::MemoryAllocateFlags::DEVICE_MASK)
                        .then_some(f.device_mask);
                    1 << 14
                }
                vk::StructureType::MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO => {
                    let c: vk::MemoryOpaqueCaptureAddressAllocateInfo = read_node(node);
                    host.capture_address = c.opaque_capture_address != 0;
                    1 << 11
                }
                _ => 0u32,
            };
            if seen & bit != 0 && repeated.is_none() {
                repeated = Some(s_type);
            }
            seen |= bit;
        })
    };
    // VUID-VkMemoryAllocateInfo-pNext-00639 counts a dedicated structure that names a resource.
    facts.dedicated = dedicated_to.is_some();
    let chain = ChainRead {
        end,
        repeated,
        structures: seen,
        import_fd,
        import_operations,
        dedicated_to,
        host,
        export_win32,
        dedicated_info,
        handle_imports,
        device_mask,
        allocate_flags,
        unread_sharing: false,
    };
    AllocateInfoRead::Valid(facts, chain)
}

/// Reads the Win32 (KHR and NV), Zircon, Metal and Android hardware buffer import structures of
/// a `VkMemoryAllocateInfo` chain: a second walk, only for a chain [`read_allocate_info`] found
/// one in (`ChainRead::handle_imports`). A structure twice: the last one's values.
///
/// # Safety
/// `p` points to a `VkMemoryAllocateInfo` that [`read_allocate_info`] read as valid, whose chain
/// is readable.
pub unsafe fn read_handle_imports(p: *const vk::MemoryAllocateInfo<'_>) -> HandleImports {
    let mut handles = HandleImports::NONE;
    // SAFETY: the caller's contract; NULL and sType are checked again.
    let StructArg::Valid(info) =
        (unsafe { read_struct(p, vk::StructureType::MEMORY_ALLOCATE_INFO) })
    else {
        return handles;
    };
    // SAFETY: each node is read as the structure its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR => {
                let w: vk::ImportMemoryWin32HandleInfoKHR = read_node(node);
                handles.win32 = Some(Win32Import {
                    handle_type: w.handle_type,
                    handle: w.handle != 0,
                    name: !w.name.is_null(),
                    handle_value: w.handle as u64,
                });
            }
            vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_NV => {
                let w: vk::ImportMemoryWin32HandleInfoNV = read_node(node);
                handles.win32_nv = Some((w.handle_type, w.handle != 0));
            }
            vk::StructureType::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA => {
                let z: vk::ImportMemoryZirconHandleInfoFUCHSIA = read_node(node);
                handles.zircon = Some((z.handle_type, z.handle));
            }
            vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT => {
                let m: vk_ext::ImportMemoryMetalHandleInfoEXT = read_node(node);
                handles.metal = Some((m.handle_type, !m.handle.is_null()));
            }
            vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID => {
                let a: vk::ImportAndroidHardwareBufferInfoANDROID = read_node(node);
                handles.android = true;
                handles.android_buffer = a.buffer as usize as u64;
            }
            _ => {}
        });
    }
    handles
}

/// Whether a `VkMemoryAllocateInfo` chain has an import or export structure the layer does not
/// read (NvSciBuf, a QNX screen buffer, an OHOS native buffer, a Fuchsia buffer collection, a
/// Metal buffer of `VK_EXT_metal_objects`): a second walk, asked only of a zero-size allocation
/// (`ChainRead::unread_sharing`, for `VUID-VkMemoryAllocateInfo-allocationSize-07897`).
///
/// # Safety
/// `p` points to a `VkMemoryAllocateInfo` that [`read_allocate_info`] read as valid, whose chain
/// is readable.
pub unsafe fn has_unread_sharing(p: *const vk::MemoryAllocateInfo<'_>) -> bool {
    let mut found = false;
    // SAFETY: the caller's contract; only sTypes are read.
    unsafe {
        let head = (*p).p_next;
        walk_chain(head, |s_type, _| {
            found |= matches!(
                s_type,
                vk::StructureType::IMPORT_MEMORY_BUFFER_COLLECTION_FUCHSIA
                    | vk::StructureType::IMPORT_METAL_BUFFER_INFO_EXT
                    | vk::StructureType::IMPORT_SCREEN_BUFFER_INFO_QNX
                    | vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_SCI_BUF_INFO_NV
                    | vk_ext::STRUCTURE_TYPE_EXPORT_MEMORY_SCI_BUF_INFO_NV
                    | vk_ext::STRUCTURE_TYPE_IMPORT_NATIVE_BUFFER_INFO_OHOS
            );
        });
    }
    found
}

/// Whether a `VkMemoryAllocateInfo` chain has an Android hardware buffer or a QNX Screen buffer
/// import structure: memory `VUID-VkMemoryDedicatedAllocateInfo-image-02964` and `-buffer-02965`
/// exclude ("an imported Android Hardware Buffer or an imported QNX Screen buffer"). A second
/// walk, asked only of an allocation those rules would report.
///
/// # Safety
/// As [`has_unread_sharing`].
pub unsafe fn has_platform_buffer_import(p: *const vk::MemoryAllocateInfo<'_>) -> bool {
    let mut found = false;
    // SAFETY: the caller's contract; only sTypes are read.
    unsafe {
        walk_chain((*p).p_next, |s_type, _| {
            found |= matches!(
                s_type,
                vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID
                    | vk::StructureType::IMPORT_SCREEN_BUFFER_INFO_QNX
            );
        });
    }
    found
}

/// 1 when an import structure of `handle_type` defines an import operation (not 0), else 0.
fn defines_import(handle_type: vk::ExternalMemoryHandleTypeFlags) -> u32 {
    u32::from(!handle_type.is_empty())
}

/// A dedicated-allocation structure's image, else its buffer, when it names one.
fn dedicate(to: &mut Option<(vk::ObjectType, u64)>, image: u64, buffer: u64) {
    if image != 0 {
        *to = Some((vk::ObjectType::IMAGE, image));
    } else if buffer != 0 {
        *to = Some((vk::ObjectType::BUFFER, buffer));
    }
}

/// What the layer reads from `VkDeviceCreateInfo`.
#[derive(Default)]
pub struct DeviceCreateRead {
    pub extensions: EnabledExtensions,
    pub rdma_feature: bool,
    /// The physical devices of a chained `VkDeviceGroupDeviceCreateInfo`.
    pub group: DeviceGroupRead,
    pub features: EnabledFeatures,
    pub queue_create_info_count: u32,
}

/// A chained `VkDeviceGroupDeviceCreateInfo`, as far as the layer reads it.
#[derive(Debug, Default, PartialEq, Eq)]
pub enum DeviceGroupRead {
    /// None chained, or one with `physicalDeviceCount` 0: the device is made of the physical
    /// device `vkCreateDevice` was called on.
    #[default]
    Absent,
    /// Its `pPhysicalDevices`.
    Members(Vec<vk::PhysicalDevice>),
    /// A count above `VK_MAX_DEVICE_GROUP_SIZE` or a NULL array (an invalid structure): which
    /// physical devices the device is made of is not known.
    Unreadable,
}

/// Reads the enabled extensions, the queue create info count, the externalMemoryRDMA feature and
/// the features of [`EnabledFeatures`] (each chained directly, or next to a
/// `VkPhysicalDeviceFeatures2`: both sit in the same pNext chain).
///
/// # Safety
/// `info` came from the loader's `vkCreateDevice` call; its arrays and chain are readable.
pub unsafe fn read_device_create_info(info: &vk::DeviceCreateInfo<'_>) -> DeviceCreateRead {
    let mut read = DeviceCreateRead::default();
    // SAFETY: count and array as the app gave them to vkCreateDevice.
    let names = unsafe {
        c_string_array(
            info.pp_enabled_extension_names,
            info.enabled_extension_count,
        )
    };
    for name in names {
        read.extensions.enable(&name);
    }
    read.queue_create_info_count = info.queue_create_info_count;
    let features = &mut read.features;
    let on = |b: vk::Bool32| b == vk::TRUE;
    // SAFETY: each node is read as the structure its sType names; a device group's array is the
    // app's, `physicalDeviceCount` handles or NULL (the structure's contract).
    unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_MEMORY_RDMA_FEATURES_NV => {
                let f: vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV = read_node(node);
                read.rdma_feature |= on(f.external_memory_rdma);
            }
            vk::StructureType::DEVICE_GROUP_DEVICE_CREATE_INFO => {
                let g: vk::DeviceGroupDeviceCreateInfo = read_node(node);
                read.group = read_group(&g);
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES => {
                let f: vk::PhysicalDeviceVulkan11Features = read_node(node);
                features.protected_memory |= on(f.protected_memory);
            }
            vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES => {
                let f: vk::PhysicalDeviceProtectedMemoryFeatures = read_node(node);
                features.protected_memory |= on(f.protected_memory);
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_2_FEATURES => {
                let f: vk::PhysicalDeviceVulkan12Features = read_node(node);
                features.buffer_device_address |= on(f.buffer_device_address);
                features.buffer_device_address_capture_replay |=
                    on(f.buffer_device_address_capture_replay);
            }
            vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES => {
                let f: vk::PhysicalDeviceBufferDeviceAddressFeatures = read_node(node);
                features.buffer_device_address |= on(f.buffer_device_address);
                features.buffer_device_address_capture_replay |=
                    on(f.buffer_device_address_capture_replay);
            }
            vk::StructureType::PHYSICAL_DEVICE_COHERENT_MEMORY_FEATURES_AMD => {
                let f: vk::PhysicalDeviceCoherentMemoryFeaturesAMD = read_node(node);
                features.device_coherent_memory |= on(f.device_coherent_memory);
            }
            vk_ext::STRUCTURE_TYPE_PHYSICAL_DEVICE_TILE_MEMORY_HEAP_FEATURES_QCOM => {
                let f: vk_ext::PhysicalDeviceTileMemoryHeapFeaturesQCOM = read_node(node);
                features.tile_memory_heap |= on(f.tile_memory_heap);
            }
            _ => {}
        });
    }
    read
}

/// The physical devices of a `VkDeviceGroupDeviceCreateInfo`.
///
/// # Safety
/// `g` came from a `vkCreateDevice` chain: `pPhysicalDevices` is NULL or holds
/// `physicalDeviceCount` handles.
unsafe fn read_group(g: &vk::DeviceGroupDeviceCreateInfo) -> DeviceGroupRead {
    let count = g.physical_device_count as usize;
    if count == 0 {
        return DeviceGroupRead::Absent;
    }
    if count > vk::MAX_DEVICE_GROUP_SIZE || g.p_physical_devices.is_null() {
        return DeviceGroupRead::Unreadable;
    }
    // SAFETY: a non-NULL array of `count` handles, by the caller's contract.
    let members = unsafe { std::slice::from_raw_parts(g.p_physical_devices, count) };
    DeviceGroupRead::Members(members.to_vec())
}

/// What the layer reads from `VkInstanceCreateInfo`.
#[derive(Default)]
pub struct InstanceCreateRead {
    pub debug_utils_enabled: bool,
    /// `VK_KHR_external_memory_capabilities` is enabled.
    pub khr_external_memory_capabilities: bool,
    /// `VK_KHR_external_semaphore_capabilities` and `VK_KHR_external_fence_capabilities` are
    /// enabled.
    pub khr_external_semaphore_capabilities: bool,
    pub khr_external_fence_capabilities: bool,
    /// `pApplicationInfo->apiVersion`, `VK_API_VERSION_1_0` when absent or 0.
    pub api_version: u32,
    pub messengers: Vec<Messenger>,
}

/// Reads the debug messengers and debug-report callbacks chained to `VkInstanceCreateInfo`.
///
/// # Safety
/// `info` came from the loader's `vkCreateInstance` call; its arrays and chain are readable.
pub unsafe fn read_instance_create_info(info: &vk::InstanceCreateInfo<'_>) -> InstanceCreateRead {
    let mut read = InstanceCreateRead::default();
    // SAFETY: count and array as the app gave them to vkCreateInstance.
    let names = unsafe {
        c_string_array(
            info.pp_enabled_extension_names,
            info.enabled_extension_count,
        )
    };
    read.debug_utils_enabled = names.iter().any(|n| n == b"VK_EXT_debug_utils");
    read.khr_external_memory_capabilities = names
        .iter()
        .any(|n| n == b"VK_KHR_external_memory_capabilities");
    read.khr_external_semaphore_capabilities = names
        .iter()
        .any(|n| n == b"VK_KHR_external_semaphore_capabilities");
    read.khr_external_fence_capabilities = names
        .iter()
        .any(|n| n == b"VK_KHR_external_fence_capabilities");
    // SAFETY: NULL or the application info the app gave vkCreateInstance.
    let declared = unsafe { info.p_application_info.as_ref() }.map_or(0, |app| app.api_version);
    read.api_version = if declared == 0 {
        vk::API_VERSION_1_0
    } else {
        declared
    };
    // SAFETY: each node is read as the structure its sType names.
    unsafe {
        walk_chain(info.p_next, |s_type, node| match s_type {
            vk::StructureType::DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT => {
                let m: vk::DebugUtilsMessengerCreateInfoEXT = read_node(node);
                read.messengers.push(Messenger::Utils {
                    handle: 0,
                    severities: m.message_severity,
                    types: m.message_type,
                    callback: m.pfn_user_callback,
                    user_data: m.p_user_data as usize,
                });
            }
            vk::StructureType::DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT => {
                let c: vk::DebugReportCallbackCreateInfoEXT = read_node(node);
                read.messengers.push(Messenger::Report {
                    handle: 0,
                    flags: c.flags,
                    callback: c.pfn_callback,
                    user_data: c.p_user_data as usize,
                });
            }
            _ => {}
        });
    }
    read
}

/// Reads this layer's settings from every `VkLayerSettingsCreateInfoEXT` in a pNext chain, each
/// value turned into text (lists joined with commas).
///
/// # Safety
/// `head` is a pNext chain the loader passed to `vkCreateInstance`; each settings structure's
/// arrays are as the app described them.
pub unsafe fn read_layer_settings(head: *const c_void) -> Vec<crate::settings::RawSetting> {
    use crate::settings::{sources::LAYER_NAME, RawSetting};
    let mut out = Vec::new();
    // SAFETY: nodes are read as the structure their sType names; arrays by their counts.
    unsafe {
        walk_chain(head, |s_type, node| {
            if s_type != vk::StructureType::LAYER_SETTINGS_CREATE_INFO_EXT {
                return;
            }
            let info: vk::LayerSettingsCreateInfoEXT = read_node(node);
            if info.p_settings.is_null() {
                return;
            }
            for i in 0..info.setting_count as usize {
                let setting = info.p_settings.add(i).read_unaligned();
                if super::read::c_string(setting.p_layer_name).as_deref() != Some(LAYER_NAME) {
                    continue;
                }
                let Some(name) = super::read::c_string(setting.p_setting_name) else {
                    continue;
                };
                out.push(RawSetting {
                    name,
                    value: setting_values(&setting).join(","),
                    source: "VkLayerSettingsCreateInfoEXT".to_owned(),
                });
            }
        });
    }
    out
}

/// The values of one `VkLayerSettingEXT`, as text.
///
/// # Safety
/// `pValues` points to `valueCount` values of `type` (or is NULL).
unsafe fn setting_values(setting: &vk::LayerSettingEXT<'_>) -> Vec<String> {
    let n = setting.value_count as usize;
    let p = setting.p_values;
    if p.is_null() {
        return Vec::new();
    }
    // SAFETY: the caller's contract: n values of the named type.
    unsafe {
        match setting.ty {
            vk::LayerSettingTypeEXT::BOOL32 => (0..n)
                .map(|i| (p.cast::<vk::Bool32>().add(i).read_unaligned() != 0).to_string())
                .collect(),
            vk::LayerSettingTypeEXT::INT32 => (0..n)
                .map(|i| p.cast::<i32>().add(i).read_unaligned().to_string())
                .collect(),
            vk::LayerSettingTypeEXT::INT64 => (0..n)
                .map(|i| p.cast::<i64>().add(i).read_unaligned().to_string())
                .collect(),
            vk::LayerSettingTypeEXT::UINT32 => (0..n)
                .map(|i| p.cast::<u32>().add(i).read_unaligned().to_string())
                .collect(),
            vk::LayerSettingTypeEXT::UINT64 => (0..n)
                .map(|i| p.cast::<u64>().add(i).read_unaligned().to_string())
                .collect(),
            vk::LayerSettingTypeEXT::FLOAT32 => (0..n)
                .map(|i| p.cast::<f32>().add(i).read_unaligned().to_string())
                .collect(),
            vk::LayerSettingTypeEXT::FLOAT64 => (0..n)
                .map(|i| p.cast::<f64>().add(i).read_unaligned().to_string())
                .collect(),
            vk::LayerSettingTypeEXT::STRING => (0..n)
                .filter_map(|i| {
                    super::read::c_string(
                        p.cast::<*const std::ffi::c_char>().add(i).read_unaligned(),
                    )
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads an allocate info whose chain is an export structure and an NV export structure with
    /// the given sTypes.
    fn read_with(export: vk::StructureType, export_nv: vk::StructureType) -> AllocationFacts {
        let mut nv = vk::ExportMemoryAllocateInfoNV::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32);
        nv.s_type = export_nv;
        let mut khr = vk::ExportMemoryAllocateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        khr.s_type = export;
        khr.p_next = &nv as *const _ as *const c_void;
        let mut info = vk::MemoryAllocateInfo::default().allocation_size(64);
        info.p_next = &khr as *const _ as *const c_void;
        // SAFETY: a valid chain of live structures.
        match unsafe { read_allocate_info(&info) } {
            AllocateInfoRead::Valid(facts, chain)
                if chain
                    == (ChainRead {
                        structures: chain.structures,
                        ..ChainRead::COMPLETE
                    }) =>
            {
                facts
            }
            _ => panic!("a valid VkMemoryAllocateInfo with a complete chain"),
        }
    }

    /// Reads an allocate info whose chain is an fd import of `s_type`, then a host-pointer
    /// import of `host_type`.
    fn read_imports(
        s_type: vk::StructureType,
        host_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> ChainRead {
        let host = vk::ImportMemoryHostPointerInfoEXT::default().handle_type(host_type);
        let mut fd = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
            .fd(7);
        fd.s_type = s_type;
        fd.p_next = &host as *const _ as *const c_void;
        let mut info = vk::MemoryAllocateInfo::default().allocation_size(64);
        info.p_next = &fd as *const _ as *const c_void;
        // SAFETY: a valid chain of live structures.
        match unsafe { read_allocate_info(&info) } {
            AllocateInfoRead::Valid(_, chain) => chain,
            _ => panic!("a valid VkMemoryAllocateInfo"),
        }
    }

    #[test]
    fn fd_imports_are_read_by_s_type_and_import_operations_counted() {
        let none = vk::ExternalMemoryHandleTypeFlags::empty();
        let host = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        let chain = read_imports(vk::StructureType::IMPORT_MEMORY_FD_INFO_KHR, none);
        let expected = FdImport {
            handle_type: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
            fd: 7,
            open: None,
            not_of_type: None,
        };
        assert_eq!(
            (chain.import_fd, chain.import_operations),
            (Some(expected), 1)
        );
        let chain = read_imports(vk::StructureType::IMPORT_MEMORY_FD_INFO_KHR, host);
        assert_eq!(chain.import_operations, 2);
        // `vuid::IMPORT_FD_STYPE` holds by construction: another sType is
        // another structure, not an fd import.
        let chain = read_imports(vk::StructureType::from_raw(1_000_999_991), host);
        assert_eq!((chain.import_fd, chain.import_operations), (None, 1));
    }

    #[test]
    fn a_dedicated_allocation_is_read_only_by_its_s_type() {
        // `vuid::DEDICATED_STYPE` holds by construction.
        let read = |s_type| {
            let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
                .image(vk::Image::from_raw(0x1a))
                .buffer(vk::Buffer::from_raw(0x2b));
            dedicated.s_type = s_type;
            let mut info = vk::MemoryAllocateInfo::default().allocation_size(64);
            info.p_next = &dedicated as *const _ as *const c_void;
            // SAFETY: a valid chain of live structures.
            match unsafe { read_allocate_info(&info) } {
                AllocateInfoRead::Valid(_, chain) => chain.dedicated_info,
                _ => panic!("a valid VkMemoryAllocateInfo"),
            }
        };
        assert_eq!(
            read(vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO),
            Some((0x1a, 0x2b))
        );
        assert_eq!(read(vk::StructureType::from_raw(1_000_999_992)), None);
    }

    #[test]
    fn a_chained_structure_is_recognised_only_by_its_s_type() {
        // An export structure whose sType says something else is not export info: the rule
        // `vuid::EXPORT_STYPE` and `vuid::EXPORT_NV_STYPE` hold by construction.
        let other = |n| vk::StructureType::from_raw(1_000_999_990 + n);
        let facts = read_with(other(1), other(2));
        assert_eq!((facts.export, facts.export_nv), (None, None));
        // Typed correctly, the same structures are read.
        let facts = read_with(
            vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO,
            vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO_NV,
        );
        assert_eq!(
            facts.export,
            Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
        );
        assert_eq!(
            facts.export_nv,
            Some(vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32)
        );
    }

    /// The host-pointer part of the chain read of an allocate info whose chain is `node`.
    fn host_read(node: *const c_void) -> HostPointerChain {
        let mut info = vk::MemoryAllocateInfo::default().allocation_size(64);
        info.p_next = node;
        // SAFETY: a valid chain of live structures.
        match unsafe { read_allocate_info(&info) } {
            AllocateInfoRead::Valid(_, chain) => chain.host,
            _ => panic!("a valid VkMemoryAllocateInfo"),
        }
    }

    #[test]
    fn sharing_structures_the_layer_does_not_read_are_found_by_a_second_walk() {
        // An export structure, then a structure of `s_type`.
        let found = |s_type| {
            let screen = vk::ImportScreenBufferInfoQNX {
                s_type,
                ..Default::default()
            };
            let export = vk::ExportMemoryAllocateInfo {
                p_next: &screen as *const _ as *const c_void,
                ..Default::default()
            };
            let info = vk::MemoryAllocateInfo {
                p_next: &export as *const _ as *const c_void,
                ..Default::default()
            };
            // SAFETY: a valid chain of live structures.
            unsafe { (has_unread_sharing(&info), has_platform_buffer_import(&info)) }
        };
        assert_eq!(
            found(vk::StructureType::IMPORT_SCREEN_BUFFER_INFO_QNX),
            (true, true)
        );
        assert_eq!(
            found(vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID),
            (false, true)
        );
        assert_eq!(
            found(vk::StructureType::MEMORY_PRIORITY_ALLOCATE_INFO_EXT),
            (false, false)
        );
    }

    #[test]
    fn a_host_pointer_import_is_recognised_only_by_its_s_type() {
        // `vuid::IMPORT_HOST_STYPE` holds by construction too.
        let pointer = 0x7000 as *mut c_void;
        let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT)
            .host_pointer(pointer);
        let capture =
            vk::MemoryOpaqueCaptureAddressAllocateInfo::default().opaque_capture_address(0x99);
        let dedicated = vk::MemoryDedicatedAllocateInfo {
            p_next: &capture as *const _ as *const c_void,
            buffer: vk::Buffer::from_raw(0x55),
            ..Default::default()
        };
        import.p_next = &dedicated as *const _ as *const c_void;
        assert_eq!(
            host_read(&import as *const _ as *const c_void),
            HostPointerChain {
                dedicated_khr: true,
                capture_address: true,
                ..HostPointerChain::importing(
                    vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
                    0x7000,
                )
            }
        );
        import.s_type = vk::StructureType::from_raw(1_000_999_990);
        assert_eq!(
            host_read(&import as *const _ as *const c_void).import(),
            None
        );
    }
}
