//! `vkGetPhysicalDeviceExternalSemaphoreProperties` and `...FenceProperties`: which handle types
//! a semaphore or fence may be exported as and imported from, as the specification's
//! compatibility tables and real drivers have it.
//!
//! | handle type | binary semaphore | timeline semaphore | fence |
//! | --- | --- | --- | --- |
//! | `OPAQUE_FD`, `OPAQUE_WIN32`, `OPAQUE_WIN32_KMT` | export, import | export, import | export, import |
//! | `SYNC_FD` | export, import | none | export, import |
//! | `ZIRCON_EVENT_FUCHSIA` | export, import | none | (no such fence type) |
//! | any other (`D3D12_FENCE`, several bits, 0) | none | none | none |
//!
//! The types a semaphore (or fence) supports are compatible with each other (one object may be
//! exported as any mix of them) and may be exported from an imported payload, except
//! `ZIRCON_EVENT_FUCHSIA`, compatible only with itself (a Zircon event is Fuchsia's own kind of
//! payload): an app that asks for it with another type is told so. With
//! `sync_quirks.no_export_from_sync_fd_imports`, `exportFromImportedHandleTypes` leaves out
//! `SYNC_FD` in every answer (a payload imported from a sync file is exportable as nothing).

use ash::vk;

use crate::ffi::{self, entry};
use crate::physical_device::{lookup, PhysicalDevice};

/// `exportFromImportedHandleTypes` as the device's configuration makes it from `types` (the
/// compatible ones), `sync_fd` being the kind's `SYNC_FD` bit.
fn export_from_imported(device: &PhysicalDevice, types: u32, sync_fd: u32) -> u32 {
    if device.config.sync_quirks.no_export_from_sync_fd_imports {
        types & !sync_fd
    } else {
        types
    }
}

const SEMAPHORE_OPAQUE: u32 = vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD.as_raw()
    | vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32.as_raw()
    | vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw();
/// The handle types of binary semaphores.
pub const BINARY_SEMAPHORE_TYPES: u32 = SEMAPHORE_OPAQUE
    | vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw()
    | vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();
/// The one Fuchsia type, compatible only with itself.
const SEMAPHORE_ZIRCON: u32 = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();

/// The handle types of timeline semaphores.
pub const TIMELINE_SEMAPHORE_TYPES: u32 = SEMAPHORE_OPAQUE;
/// The handle types of fences.
pub const FENCE_TYPES: u32 = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD.as_raw()
    | vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32.as_raw()
    | vk::ExternalFenceHandleTypeFlags::OPAQUE_WIN32_KMT.as_raw()
    | vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();

/// `(features, compatible and export-from-imported types)` of `handle_type` among `supported`:
/// exportable and importable if it is one of them, else all zeros.
fn properties(handle_type: u32, supported: u32) -> (u32, u32) {
    if handle_type.is_power_of_two() && handle_type & supported != 0 {
        (0x3, supported)
    } else {
        (0, 0)
    }
}

/// What the driver reports for a semaphore of that type and `handle_type`.
pub fn semaphore_properties(handle_type: u32, timeline: bool) -> (u32, u32) {
    let supported = if timeline {
        TIMELINE_SEMAPHORE_TYPES
    } else {
        BINARY_SEMAPHORE_TYPES
    };
    let (features, compatible) = properties(handle_type, supported);
    if handle_type == SEMAPHORE_ZIRCON {
        (features, compatible & SEMAPHORE_ZIRCON)
    } else {
        (features, compatible & !SEMAPHORE_ZIRCON)
    }
}

/// What the driver reports for a fence and `handle_type`.
pub fn fence_properties(handle_type: u32) -> (u32, u32) {
    properties(handle_type, FENCE_TYPES)
}

pub(crate) unsafe extern "system" fn get_external_semaphore_properties(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalSemaphoreInfo<'_>,
    p_properties: *mut vk::ExternalSemaphoreProperties<'_>,
) {
    entry("vkGetPhysicalDeviceExternalSemaphoreProperties", (), || {
        // SAFETY: valid or NULL input/output pointers (Vulkan contract).
        let (Some(device), Some(info), Some(out)) = (
            lookup(physical_device),
            unsafe { p_info.as_ref() },
            unsafe { p_properties.as_mut() },
        ) else {
            return;
        };
        // SAFETY: `p_next` heads the caller's valid chain; the structure is read as the type
        // its sType names.
        let timeline = unsafe {
            ffi::find_in_chain(info.p_next, vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO)
                .map(|p| (*p.cast::<vk::SemaphoreTypeCreateInfo<'_>>()).semaphore_type)
        } == Some(vk::SemaphoreType::TIMELINE);
        let (features, types) = semaphore_properties(info.handle_type.as_raw(), timeline);
        out.external_semaphore_features = vk::ExternalSemaphoreFeatureFlags::from_raw(features);
        out.compatible_handle_types = vk::ExternalSemaphoreHandleTypeFlags::from_raw(types);
        out.export_from_imported_handle_types =
            vk::ExternalSemaphoreHandleTypeFlags::from_raw(export_from_imported(
                &device,
                types,
                vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw(),
            ));
    })
}

pub(crate) unsafe extern "system" fn get_external_fence_properties(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalFenceInfo<'_>,
    p_properties: *mut vk::ExternalFenceProperties<'_>,
) {
    entry("vkGetPhysicalDeviceExternalFenceProperties", (), || {
        // SAFETY: valid or NULL input/output pointers (Vulkan contract).
        let (Some(pd), Some(info), Some(out)) = (
            lookup(physical_device),
            unsafe { p_info.as_ref() },
            unsafe { p_properties.as_mut() },
        ) else {
            return;
        };
        let handle_type = info.handle_type.as_raw();
        let (mut features, mut types) = fence_properties(handle_type);
        if pd.config.sync_quirks.fence_sync_fd_import_only {
            let sync = vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw();
            if handle_type == sync {
                features &= !vk::ExternalFenceFeatureFlags::EXPORTABLE.as_raw();
                types = 0;
            } else {
                types &= !sync;
            }
        }
        out.external_fence_features = vk::ExternalFenceFeatureFlags::from_raw(features);
        out.compatible_handle_types = vk::ExternalFenceHandleTypeFlags::from_raw(types);
        out.export_from_imported_handle_types =
            vk::ExternalFenceHandleTypeFlags::from_raw(export_from_imported(
                &pd,
                types,
                vk::ExternalFenceHandleTypeFlags::SYNC_FD.as_raw(),
            ));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_fd_and_zircon_are_for_binary_semaphores_only() {
        let sync_fd = vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD.as_raw();
        let zircon = vk::ExternalSemaphoreHandleTypeFlags::ZIRCON_EVENT_FUCHSIA.as_raw();
        assert_eq!(semaphore_properties(sync_fd, false).0, 0x3);
        assert_eq!(semaphore_properties(sync_fd, true), (0, 0));
        assert_eq!(semaphore_properties(zircon, true), (0, 0));
        assert_eq!(semaphore_properties(zircon, false), (0x3, zircon), "alone");
        assert_eq!(
            semaphore_properties(sync_fd, false).1,
            BINARY_SEMAPHORE_TYPES & !zircon
        );
        assert_eq!(
            semaphore_properties(1, true),
            (0x3, TIMELINE_SEMAPHORE_TYPES)
        );
        assert_eq!(semaphore_properties(0x8, false), (0, 0), "D3D12_FENCE");
        assert_eq!(semaphore_properties(0x3, false), (0, 0), "two bits");
        assert_eq!(semaphore_properties(0, false), (0, 0));
        assert_eq!(fence_properties(0x8), (0x3, FENCE_TYPES));
        assert_eq!(fence_properties(0x10), (0, 0));
    }

    #[test]
    fn the_quirk_takes_each_kinds_sync_fd_out_of_export_from_imported() {
        use crate::config::Config;
        let quirk = r#"{"sync_quirks": {"no_export_from_sync_fd_imports": true}}"#;
        let device = |config: &str| {
            let config = Config::from_json(config).expect("config");
            PhysicalDevice::new(std::sync::Arc::new(config), 0)
        };
        let (plain, quirky) = (device("{}"), device(quirk));
        assert_eq!(export_from_imported(&plain, FENCE_TYPES, 0x8), FENCE_TYPES);
        assert_eq!(
            export_from_imported(&quirky, FENCE_TYPES, 0x8),
            FENCE_TYPES & !0x8
        );
        assert_eq!(
            export_from_imported(&quirky, BINARY_SEMAPHORE_TYPES, 0x10),
            BINARY_SEMAPHORE_TYPES & !0x10
        );
    }
}
