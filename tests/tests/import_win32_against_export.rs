//! Win32 global share (KMT) imports checked against the export they came from, end to end on the
//! project's test driver (which imports the Win32 handles it exported itself):
//! `VUID-VkMemoryAllocateInfo-allocationSize-01743` (another size or memory type),
//! `VUID-VkMemoryDedicatedAllocateInfo-image-01876` / `-buffer-01877` (a dedicated import of
//! memory not dedicated alike). The layer records a global share handle when
//! vkGetMemoryWin32HandleKHR returns it and forgets it when the exporting memory is freed; an
//! NT handle is never judged (its value may be closed and reused: the catalog's note).

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, Device, Instance, OPAQUE_WIN32, SIZE};

type Types = vk::ExternalMemoryHandleTypeFlags;
const KMT: Types = Types::OPAQUE_WIN32_KMT;
const CMD: &str = ALLOCATE;

fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory_win32::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// New memory of `SIZE` bytes of type 0 exportable as `handle_type`, and the handle
/// vkGetMemoryWin32HandleKHR returns for it.
fn exported(dev: &Device, handle_type: Types) -> (vk::DeviceMemory, vk::HANDLE) {
    let memory = dev.allocate_exporting(SIZE, 0, Some(handle_type), None);
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
    (memory, handle)
}

/// Imports `handle` as `handle_type` with `size` bytes of type `type_index`, dedicated to
/// `image` and/or `buffer` when not null; frees what the driver made.
fn import(
    dev: &Device,
    (size, type_index): (u64, u32),
    handle_type: Types,
    handle: vk::HANDLE,
    (image, buffer): (vk::Image, vk::Buffer),
) -> Result<(), vk::Result> {
    let mut win32 = vk::ImportMemoryWin32HandleInfoKHR::default()
        .handle_type(handle_type)
        .handle(handle);
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
        .image(image)
        .buffer(buffer);
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(type_index)
        .push_next(&mut win32);
    if image != vk::Image::null() || buffer != vk::Buffer::null() {
        info = info.push_next(&mut dedicated);
    }
    let memory = dev.allocate_with(&info)?;
    dev.free(memory);
    Ok(())
}

const PLAIN: (vk::Image, vk::Buffer) = (vk::Image::null(), vk::Buffer::null());

#[test]
fn a_kmt_import_of_another_size_or_type_is_01743() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let (memory, handle) = exported(&dev, KMT);
    assert_eq!(import(&dev, (SIZE, 0), KMT, handle, PLAIN), Ok(()));
    expect::silent(&inst, CMD);
    let _ = import(&dev, (2 * SIZE, 0), KMT, handle, PLAIN);
    let m = expect::one(&inst, CMD, ALLOC_SIZE_01743);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo imports handle 0x",
            "as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT; vkGetMemoryWin32HandleKHR \
             exported it from",
            &format!(
                "pAllocateInfo->allocationSize is {}; an import of a Win32 handle must give the \
                 allocationSize the payload was created with ({SIZE}).",
                2 * SIZE
            ),
        ],
    );
    let _ = import(&dev, (SIZE, 1), KMT, handle, PLAIN);
    let m = expect::one(&inst, CMD, ALLOC_SIZE_01743);
    expect::mentions(&m, &["pAllocateInfo->memoryTypeIndex is 1"]);
    // Once the exporting memory is freed, the handle names nothing the layer knows: not judged.
    dev.free(memory);
    let _ = import(&dev, (2 * SIZE, 0), KMT, handle, PLAIN);
    expect::silent(&inst, CMD);
    drop(dev);
}

#[test]
fn an_nt_handle_import_is_not_judged_against_its_export() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let (memory, handle) = exported(&dev, OPAQUE_WIN32);
    let _ = import(&dev, (2 * SIZE, 0), OPAQUE_WIN32, handle, PLAIN);
    expect::silent(&inst, CMD);
    dev.free(memory);
    drop(dev);
}

#[test]
fn a_dedicated_kmt_import_of_memory_not_dedicated_alike_is_01876_or_01877() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let mut external_image = vk::ExternalMemoryImageCreateInfo::default().handle_types(KMT);
    let image_info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(vk::Format::R8G8B8A8_UNORM)
        .extent(vk::Extent3D {
            width: 16,
            height: 16,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED)
        .push_next(&mut external_image);
    // SAFETY: a valid create info.
    let image = unsafe { dev.device.create_image(&image_info, None) }.expect("vkCreateImage");
    let mut external_buffer = vk::ExternalMemoryBufferCreateInfo::default().handle_types(KMT);
    let buffer_info = vk::BufferCreateInfo::default()
        .size(4096)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC)
        .push_next(&mut external_buffer);
    // SAFETY: a valid create info.
    let buffer = unsafe { dev.device.create_buffer(&buffer_info, None) }.expect("vkCreateBuffer");
    let (memory, handle) = exported(&dev, KMT);
    expect::silent(&inst, CMD);
    let _ = import(&dev, (SIZE, 0), KMT, handle, (image, vk::Buffer::null()));
    let m = expect::one(&inst, CMD, DEDICATED_IMAGE_01876);
    expect::mentions(
        &m,
        &[
            "but the imported memory is not a dedicated image allocation; a dedicated import of \
           a Win32 handle must be of memory allocated dedicated to an identical image.",
        ],
    );
    let _ = import(&dev, (SIZE, 0), KMT, handle, (vk::Image::null(), buffer));
    expect::one(&inst, CMD, DEDICATED_BUFFER_01877);
    dev.free(memory);
    // Memory dedicated to the image, exported and imported dedicated to it: silent.
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(KMT);
    let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export)
        .push_next(&mut dedicated);
    let memory = dev.allocate_with(&info).expect("vkAllocateMemory");
    let get = dev.win32_handle_khr.expect("vkGetMemoryWin32HandleKHR");
    let get_info = vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(KMT);
    let mut handle: vk::HANDLE = 0;
    // SAFETY: a live info structure and output.
    assert_eq!(
        unsafe { get(dev.handle(), &get_info, &mut handle) },
        vk::Result::SUCCESS
    );
    let _ = import(&dev, (SIZE, 0), KMT, handle, (image, vk::Buffer::null()));
    expect::silent(&inst, CMD);
    dev.free(memory);
    // SAFETY: the test's own objects, unbound or their memory freed.
    unsafe {
        dev.device.destroy_image(image, None);
        dev.device.destroy_buffer(buffer, None);
    }
    drop(dev);
}
