//! Synthetic state for the checks' unit tests.

use crate::args::StructArg;
use crate::rules::export::{ExportCall, InfoFields};
use crate::state::sync_payload::{Import, Permanent, SyncPayload, Temporary};
use crate::state::{
    AllocationFacts, DeviceFacts, EnabledExtensions, EnabledFeatures, MemoryLookup, MemoryRecord,
    MemoryTypeFacts,
};
use ash::vk;

/// The payload of a semaphore or fence into which a payload of handle type 0x1 was imported
/// permanently.
pub const PERMANENTLY_IMPORTED: SyncPayload = SyncPayload {
    permanent: Permanent::Imported(Import::of_unknown_export(0x1)),
    temporary: Temporary::None,
};

pub const DEVICE: u64 = 0xd000;
pub const OTHER_DEVICE: u64 = 0xd001;
pub const MEMORY: u64 = 0x3000;
pub const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
pub const DMA_BUF: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;
pub const RDMA: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV;
pub const RDMA_TYPE: u32 = 1;
/// The fixture device's `minImportedHostPointerAlignment`.
pub const HOST_POINTER_ALIGNMENT: u64 = 4096;

/// A device with every export extension enabled, the RDMA feature on, and memory types
/// 0 = DEVICE_LOCAL, 1 = DEVICE_LOCAL|RDMA_CAPABLE_NV.
/// Every extension of a handle type is enabled too, so every defined handle type is valid on it;
/// its API version is 1.1.
pub fn fd_device() -> DeviceFacts {
    let extensions = EnabledExtensions {
        khr_external_memory: true,
        khr_external_memory_fd: true,
        ext_external_memory_dma_buf: true,
        nv_external_memory_rdma: true,
        nv_external_memory: true,
        nv_external_memory_win32: true,
        khr_external_memory_win32: true,
        ext_external_memory_metal: true,
        ext_external_memory_host: true,
        android_external_memory_android_hardware_buffer: true,
        fuchsia_external_memory: true,
        qnx_external_memory_screen_buffer: true,
        ohos_external_memory: true,
        khr_swapchain: false,
        khr_dedicated_allocation: false,
        nv_dedicated_allocation: true,
        khr_buffer_device_address: false,
        khr_device_group: false,
        khr_external_semaphore_fd: true,
        fuchsia_external_semaphore: true,
        khr_external_semaphore_win32: true,
        khr_external_fence_fd: true,
        khr_external_fence_win32: true,
    };
    DeviceFacts {
        handle: DEVICE,
        extensions,
        handle_types: extensions.handle_types(),
        unavailable_structures: extensions.unavailable_structures(vk::API_VERSION_1_1),
        api_version: vk::API_VERSION_1_1,
        rdma_feature: true,
        memory_types: Some(vec![
            MemoryTypeFacts {
                flags: vk::MemoryPropertyFlags::DEVICE_LOCAL,
                heap_size: 1 << 30,
                heap_flags: vk::MemoryHeapFlags::DEVICE_LOCAL,
            },
            MemoryTypeFacts {
                flags: vk::MemoryPropertyFlags::DEVICE_LOCAL
                    | vk::MemoryPropertyFlags::RDMA_CAPABLE_NV,
                heap_size: 1 << 34,
                heap_flags: vk::MemoryHeapFlags::DEVICE_LOCAL,
            },
        ]),
        features: EnabledFeatures::default(),
        queue_create_info_count: 1,
        max_memory_allocation_count: Some(4096),
        host_pointer_alignment: Some(HOST_POINTER_ALIGNMENT),
    }
}

pub fn exported(types: vk::ExternalMemoryHandleTypeFlags) -> AllocationFacts {
    AllocationFacts {
        size: 65536,
        export: Some(types),
        ..Default::default()
    }
}

pub fn not_exported() -> AllocationFacts {
    AllocationFacts {
        size: 65536,
        ..Default::default()
    }
}

pub fn record_on(device: u64, facts: AllocationFacts) -> MemoryRecord {
    let type_flags = fd_device().type_flags(facts.memory_type_index);
    MemoryRecord::new(MEMORY, device, &facts, type_flags)
}

/// A well-formed call on `MEMORY` of `DEVICE`, allocated with `facts`.
pub fn good_args(
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    facts: AllocationFacts,
) -> ExportCall {
    good_call(handle_type.as_raw(), facts)
}

/// [`good_args`] with a handle type of any kind (the Win32 NV command's are
/// `VkExternalMemoryHandleTypeFlagsNV`).
pub fn good_call(handle_type: u32, facts: AllocationFacts) -> ExportCall {
    ExportCall {
        info: StructArg::Valid(InfoFields {
            has_p_next: false,
            object: MEMORY,
            handle_type,
        }),
        output_null: false,
        object: MemoryLookup::Live(record_on(DEVICE, facts)),
    }
}
