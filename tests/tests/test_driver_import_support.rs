//! Dedicated imports against the import support the driver reports for their resource, on the
//! test driver (whose `external_memory` configuration makes a handle type exportable but not
//! importable): `VUID-VkImportMemoryFdInfoKHR-handleType-09862` and
//! `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-09861`, judged at `vkAllocateMemory` for an
//! allocation whose `VkMemoryDedicatedAllocateInfo` names a buffer or image made for external
//! memory. An import that names no resource, and a resource whose image query fails, are not
//! judged.
//!
//! Every test holds the binary exclusively: opaque-fd imports are matched to their exports.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, fds, Device, Instance, DMA_BUF, OPAQUE_FD, OPAQUE_WIN32, SIZE};

/// OPAQUE_FD exportable, not importable, for buffers and images alike.
const FD_NOT_IMPORTABLE: &str =
    r#"{"external_memory": {"OPAQUE_FD": {"features": ["EXPORTABLE"]}}}"#;
/// DMA_BUF exportable, not importable; for images of STORAGE usage, neither (their image query
/// fails).
const DMA_BUF_NOT_IMPORTABLE: &str = r#"{"external_memory": {"DMA_BUF_EXT": {"features": ["EXPORTABLE"], "image_usage_not_exportable": ["STORAGE"]}}}"#;
/// OPAQUE_WIN32 exportable, not importable.
const WIN32_NOT_IMPORTABLE: &str =
    r#"{"external_memory": {"OPAQUE_WIN32": {"features": ["EXPORTABLE"]}}}"#;

const SAMPLED: vk::ImageUsageFlags = vk::ImageUsageFlags::SAMPLED;
const STORAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::STORAGE;
const TRANSFER: vk::BufferUsageFlags = vk::BufferUsageFlags::TRANSFER_SRC;
const NO_IMAGE: vk::Image = vk::Image::null();
const NO_BUFFER: vk::Buffer = vk::Buffer::null();

fn fd_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::khr::external_memory_fd::NAME,
        ash::ext::external_memory_dma_buf::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ])
}

fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory::NAME,
        ash::khr::external_memory_win32::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ])
}

/// Imports an fd of `memory` exported as `handle_type` as [`SIZE`] bytes of memory type 0,
/// dedicated to `image` or `buffer` unless both are null; frees what the driver made, else
/// closes the fd.
fn import_fd(
    dev: &Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    (image, buffer): (vk::Image, vk::Buffer),
) {
    let (r, fd) = dev.get_fd(memory, handle_type);
    assert_eq!(r, vk::Result::SUCCESS);
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(handle_type)
        .fd(fd);
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .image(image)
        .buffer(buffer);
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import);
    if image != NO_IMAGE || buffer != NO_BUFFER {
        info = info.push_next(&mut dedicated);
    }
    match dev.allocate_with(&info) {
        Ok(imported) => dev.free(imported),
        Err(_) => fds::close_if_open(fd),
    }
}

/// [`SIZE`] bytes of memory type 0 exported as `handle_type`, dedicated to `image` or `buffer`
/// unless both are null.
fn exported(
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    (image, buffer): (vk::Image, vk::Buffer),
) -> vk::DeviceMemory {
    if image == NO_IMAGE && buffer == NO_BUFFER {
        return dev.allocate(SIZE, Some(handle_type));
    }
    dev.allocate_dedicated(SIZE, handle_type, image, buffer)
        .expect("dedicated exportable allocation")
}

#[test]
fn a_dedicated_opaque_fd_import_not_importable_for_its_resource_is_09862() {
    let inst = exclusive(Some(FD_NOT_IMPORTABLE));
    let dev = fd_device(&inst);
    let image = dev.external_image(SAMPLED, OPAQUE_FD);
    let buffer = dev.external_buffer(TRANSFER, OPAQUE_FD);
    for (to, member, resource, described, query) in [
        (
            (image, NO_BUFFER),
            "image",
            format!("VkImage 0x{:x}", image.as_raw()),
            "format R8G8B8A8_UNORM, imageType TYPE_2D, tiling OPTIMAL, usage SAMPLED",
            "vkGetPhysicalDeviceImageFormatProperties2",
        ),
        (
            (NO_IMAGE, buffer),
            "buffer",
            format!("VkBuffer 0x{:x}", buffer.as_raw()),
            "flags 0, usage TRANSFER_SRC",
            "vkGetPhysicalDeviceExternalBufferProperties",
        ),
    ] {
        // Exporting for the resource is supported: silent.
        let memory = exported(&dev, OPAQUE_FD, to);
        expect::silent(&inst, ALLOCATE);
        import_fd(&dev, memory, OPAQUE_FD, to);
        let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_09862);
        expect::mentions(
            &m,
            &[
                "vkAllocateMemory(): pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.handleType is \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, but the allocation is dedicated \
                 to",
                &format!("{resource} ({described}"),
                &format!("(VkMemoryDedicatedAllocateInfo::{member}), for which that handle type"),
                "not supported for import: externalMemoryFeatures = EXPORTABLE, without \
                 VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT",
                &format!("as {query} reports"),
            ],
        );
        let (ty, handle) = if member == "image" {
            (vk::ObjectType::IMAGE, image.as_raw())
        } else {
            (vk::ObjectType::BUFFER, buffer.as_raw())
        };
        expect::object(&m, ty, handle);
        expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());
        dev.free(memory);
    }
    dev.destroy_image(image);
    dev.destroy_buffer(buffer);
}

#[test]
fn an_import_naming_no_resource_is_not_judged() {
    let inst = exclusive(Some(FD_NOT_IMPORTABLE));
    let dev = fd_device(&inst);
    let memory = exported(&dev, OPAQUE_FD, (NO_IMAGE, NO_BUFFER));
    import_fd(&dev, memory, OPAQUE_FD, (NO_IMAGE, NO_BUFFER));
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
}

#[test]
fn a_dedicated_import_the_driver_reports_importable_is_silent() {
    let inst = exclusive(None);
    let dev = fd_device(&inst);
    let types = vk::ExternalMemoryHandleTypeFlags::from_raw(OPAQUE_FD.as_raw() | DMA_BUF.as_raw());
    let image = dev.external_image(SAMPLED, types);
    let buffer = dev.external_buffer(TRANSFER, types);
    for to in [(image, NO_BUFFER), (NO_IMAGE, buffer)] {
        let memory = exported(&dev, types, to);
        for handle_type in [OPAQUE_FD, DMA_BUF] {
            import_fd(&dev, memory, handle_type, to);
        }
        expect::silent(&inst, ALLOCATE);
        dev.free(memory);
    }
    dev.destroy_image(image);
    dev.destroy_buffer(buffer);
}

#[test]
fn a_dma_buf_import_is_judged_too_and_a_failed_image_query_is_not() {
    let inst = exclusive(Some(DMA_BUF_NOT_IMPORTABLE));
    let dev = fd_device(&inst);
    let sampled = dev.external_image(SAMPLED, DMA_BUF);
    // DMA_BUF is neither exportable nor importable for it: the image query fails.
    let storage = dev.external_image(STORAGE, DMA_BUF);
    let memory = exported(&dev, DMA_BUF, (NO_IMAGE, NO_BUFFER));
    import_fd(&dev, memory, DMA_BUF, (sampled, NO_BUFFER));
    let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_09862);
    expect::mentions(
        &m,
        &[
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
            "usage SAMPLED",
            "externalMemoryFeatures = EXPORTABLE, without",
        ],
    );
    import_fd(&dev, memory, DMA_BUF, (storage, NO_BUFFER));
    expect::silent(&inst, ALLOCATE);
    dev.free(memory);
    dev.destroy_image(sampled);
    dev.destroy_image(storage);
}

/// `vkGetMemoryWin32HandleKHR` of `memory` as `handle_type`.
fn win32_handle(
    dev: &Device,
    memory: vk::DeviceMemory,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
) -> vk::HANDLE {
    let get = dev.win32_handle_khr.expect("vkGetMemoryWin32HandleKHR");
    let info = vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(handle_type);
    let mut handle: vk::HANDLE = 0;
    // SAFETY: a live info structure and output.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut handle) },
        vk::Result::SUCCESS
    );
    handle
}

/// Imports `handle` as `handle_type`, [`SIZE`] bytes of memory type 0 dedicated to `image` or
/// `buffer`; frees what the driver made.
fn import_win32(
    dev: &Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: vk::HANDLE,
    (image, buffer): (vk::Image, vk::Buffer),
) {
    let mut win32 = vk::ImportMemoryWin32HandleInfoKHR::default()
        .handle_type(handle_type)
        .handle(handle);
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .image(image)
        .buffer(buffer);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut win32)
        .push_next(&mut dedicated);
    if let Ok(imported) = dev.allocate_with(&info) {
        dev.free(imported);
    }
}

#[test]
fn a_dedicated_win32_import_not_importable_for_its_resource_is_09861() {
    let inst = exclusive(Some(WIN32_NOT_IMPORTABLE));
    let dev = win32_device(&inst);
    let image = dev.external_image(SAMPLED, OPAQUE_WIN32);
    let buffer = dev.external_buffer(TRANSFER, OPAQUE_WIN32);
    for (to, what) in [
        ((image, NO_BUFFER), "(VkMemoryDedicatedAllocateInfo::image)"),
        (
            (NO_IMAGE, buffer),
            "(VkMemoryDedicatedAllocateInfo::buffer)",
        ),
    ] {
        let memory = exported(&dev, OPAQUE_WIN32, to);
        let handle = win32_handle(&dev, memory, OPAQUE_WIN32);
        expect::silent(&inst, ALLOCATE);
        import_win32(&dev, OPAQUE_WIN32, handle, to);
        let m = expect::one(&inst, ALLOCATE, IMPORT_WIN32_HANDLE_TYPE_09861);
        expect::mentions(
            &m,
            &[
                "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.handleType is \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT",
                what,
                "externalMemoryFeatures = EXPORTABLE, without \
                 VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT",
            ],
        );
        dev.free(memory);
    }
    dev.destroy_image(image);
    dev.destroy_buffer(buffer);
}

#[test]
fn a_dedicated_win32_import_the_driver_reports_importable_is_silent() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let image = dev.external_image(SAMPLED, OPAQUE_WIN32);
    let buffer = dev.external_buffer(TRANSFER, OPAQUE_WIN32);
    for to in [(image, NO_BUFFER), (NO_IMAGE, buffer)] {
        let memory = exported(&dev, OPAQUE_WIN32, to);
        let handle = win32_handle(&dev, memory, OPAQUE_WIN32);
        import_win32(&dev, OPAQUE_WIN32, handle, to);
        expect::silent(&inst, ALLOCATE);
        dev.free(memory);
    }
    dev.destroy_image(image);
    dev.destroy_buffer(buffer);
}
