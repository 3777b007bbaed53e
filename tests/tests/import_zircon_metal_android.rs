//! Zircon, Metal and Android hardware buffer imports at vkAllocateMemory end to end, on the
//! project's test driver (which exposes VK_FUCHSIA_external_memory,
//! VK_EXT_external_memory_metal and VK_ANDROID_external_memory_android_hardware_buffer on Linux,
//! imports the VMO and Metal handles it exported itself and refuses others with
//! VK_ERROR_INVALID_EXTERNAL_HANDLE, the driver's answer, not a finding):
//! `VkImportMemoryZirconHandleInfoFUCHSIA` (handleType-parameter, 04771, 04772),
//! `VkMemoryAllocateInfo-allocationSize-07902`, `VkImportMemoryMetalHandleInfoEXT`
//! (handleType-parameter, 10410, 10411), `VkMemoryAllocateInfo-pNext-10395` and `-10397`, and
//! pNext-pNext for each structure without its extension. Each bad call yields exactly the IDs
//! of the rules it breaks and still goes down; each good one is silent.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, Device, Instance, SIZE};
use std::ffi::c_void;

type Types = vk::ExternalMemoryHandleTypeFlags;
const VMO: Types = Types::ZIRCON_VMO_FUCHSIA;
const MTLBUFFER: Types = Types::from_raw(1 << 16);
const MTLTEXTURE: Types = Types::from_raw(1 << 17);
const METAL: &std::ffi::CStr = c"VK_EXT_external_memory_metal";
/// `VK_STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT` (vk.xml 1.4.359; not in ash 0.38).
const IMPORT_METAL_S_TYPE: vk::StructureType = vk::StructureType::from_raw(1_000_602_000);

/// `VkImportMemoryMetalHandleInfoEXT` (not in ash 0.38).
#[repr(C)]
struct ImportMetal {
    s_type: vk::StructureType,
    p_next: *const c_void,
    handle_type: Types,
    handle: *mut c_void,
}

const CMD: &str = ALLOCATE;

/// `vkAllocateMemory` of `size` bytes of type 0 whose chain is `head`; frees what the driver
/// made.
fn allocate(dev: &Device, size: u64, head: *const c_void) -> Result<(), vk::Result> {
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(0);
    info.p_next = head;
    let memory = dev.allocate_with(&info)?;
    dev.free(memory);
    Ok(())
}

fn zircon(handle_type: Types, handle: u32) -> vk::ImportMemoryZirconHandleInfoFUCHSIA<'static> {
    vk::ImportMemoryZirconHandleInfoFUCHSIA {
        handle_type,
        handle,
        ..Default::default()
    }
}

fn metal(handle_type: Types, handle: usize, next: *const c_void) -> ImportMetal {
    ImportMetal {
        s_type: IMPORT_METAL_S_TYPE,
        p_next: next,
        handle_type,
        handle: handle as *mut c_void,
    }
}

fn ptr<T>(s: &T) -> *const c_void {
    (s as *const T).cast()
}

fn zircon_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::fuchsia::external_memory::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// A VMO handle the test driver exported from new memory, and that memory.
fn exported_vmo(dev: &Device) -> (vk::DeviceMemory, u32) {
    let memory = dev.allocate_exporting(SIZE, 0, Some(VMO), None);
    let get = dev.zircon_handle.expect("vkGetMemoryZirconHandleFUCHSIA");
    let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
        .memory(memory)
        .handle_type(VMO);
    let mut handle = 0u32;
    // SAFETY: a live info structure and output.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut handle) },
        vk::Result::SUCCESS
    );
    (memory, handle)
}

#[test]
fn a_vmo_import_is_silent_and_imports() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let (exported, handle) = exported_vmo(&dev);
    expect::silent(&inst, CMD);
    let import = zircon(VMO, handle);
    assert_eq!(allocate(&dev, SIZE, ptr(&import)), Ok(()));
    // handleType 0: nothing imported, nothing asked of the handle.
    let ignored = zircon(Types::empty(), 0);
    assert_eq!(allocate(&dev, SIZE, ptr(&ignored)), Ok(()));
    expect::silent(&inst, CMD);
    dev.free(exported);
    drop(dev);
}

#[test]
fn zircon_import_rules() {
    let inst = exclusive(None);
    let dev = zircon_device(&inst);
    let invalid = zircon(VMO, 0);
    let _ = allocate(&dev, 0, ptr(&invalid));
    let found = expect::only(&inst, CMD, &[IMPORT_ZIRCON_HANDLE_04772, ALLOC_SIZE_07902]);
    expect::mentions(
        &found[0],
        &["VkImportMemoryZirconHandleInfoFUCHSIA>.handle is 0 (ZX_HANDLE_INVALID)"],
    );
    expect::mentions(&found[1], &["pAllocateInfo->allocationSize is 0"]);
    let fd = zircon(Types::OPAQUE_FD, 7);
    let _ = allocate(&dev, SIZE, ptr(&fd));
    let m = expect::one(&inst, CMD, IMPORT_ZIRCON_HANDLE_TYPE_04771);
    expect::mentions(
        &m,
        &[
            "handleType is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; it must be \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA.",
        ],
    );
    let two = zircon(VMO | Types::OPAQUE_FD, 7);
    let _ = allocate(&dev, SIZE, ptr(&two));
    expect::only(
        &inst,
        CMD,
        &[
            IMPORT_ZIRCON_HANDLE_TYPE_PARAM,
            IMPORT_ZIRCON_HANDLE_TYPE_04771,
        ],
    );
    drop(dev);
}

/// A 16x16 image for external MTLTexture memory.
fn texture_image(dev: &Device) -> vk::Image {
    let mut external = vk::ExternalMemoryImageCreateInfo::default().handle_types(MTLTEXTURE);
    let info = vk::ImageCreateInfo::default()
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
        .push_next(&mut external);
    // SAFETY: a valid create info.
    unsafe { dev.device.create_image(&info, None) }.expect("vkCreateImage")
}

#[test]
fn metal_import_rules() {
    let inst = exclusive(None);
    let dev = inst.device(&[METAL, ash::khr::external_memory::NAME]);
    let image = texture_image(&dev);
    let dedicated = vk::MemoryDedicatedAllocateInfo::default().image(image);
    // Good: a buffer, a texture dedicated to an image with size 0, handleType 0.
    let buffer = metal(MTLBUFFER, 0x40, std::ptr::null());
    let _ = allocate(&dev, SIZE, ptr(&buffer));
    let texture = metal(MTLTEXTURE, 0x40, ptr(&dedicated));
    let _ = allocate(&dev, 0, ptr(&texture));
    let ignored = metal(Types::empty(), 0, std::ptr::null());
    let _ = allocate(&dev, SIZE, ptr(&ignored));
    expect::silent(&inst, CMD);
    // 10410, 10411.
    let fd = metal(Types::OPAQUE_FD, 0x40, std::ptr::null());
    let _ = allocate(&dev, SIZE, ptr(&fd));
    expect::one(&inst, CMD, IMPORT_METAL_HANDLE_TYPE_10410);
    let null = metal(MTLBUFFER, 0, std::ptr::null());
    let _ = allocate(&dev, SIZE, ptr(&null));
    let m = expect::one(&inst, CMD, IMPORT_METAL_HANDLE_TYPE_10411);
    expect::mentions(&m, &["VkImportMemoryMetalHandleInfoEXT>.handle is NULL"]);
    // 10397: a texture dedicated to an image, of a non-zero size.
    let _ = allocate(&dev, SIZE, ptr(&texture));
    let m = expect::one(&inst, CMD, ALLOC_PNEXT_10397);
    expect::mentions(&m, &["pAllocateInfo->allocationSize is 65536"]);
    // 10395: a texture without a dedicated image (no structure, or one naming no image).
    let alone = metal(MTLTEXTURE, 0x40, std::ptr::null());
    let _ = allocate(&dev, 0, ptr(&alone));
    expect::one(&inst, CMD, ALLOC_PNEXT_10395);
    let no_image = vk::MemoryDedicatedAllocateInfo::default();
    let without_image = metal(MTLTEXTURE, 0x40, ptr(&no_image));
    let _ = allocate(&dev, 0, ptr(&without_image));
    expect::one(&inst, CMD, ALLOC_PNEXT_10395);
    // SAFETY: the image is the test's, unbound.
    unsafe { dev.device.destroy_image(image, None) };
    drop(dev);
}

#[test]
fn import_structures_without_their_extensions_are_pnext_pnext() {
    let inst = exclusive(None);
    let dev = inst.device(&[ash::khr::external_memory::NAME]);
    let vmo = zircon(VMO, 7);
    let _ = allocate(&dev, SIZE, ptr(&vmo));
    let found = expect::only(
        &inst,
        CMD,
        &[ALLOC_PNEXT_PNEXT, IMPORT_ZIRCON_HANDLE_TYPE_PARAM],
    );
    expect::mentions(&found[0], &["VK_FUCHSIA_external_memory"]);
    let buffer = metal(MTLBUFFER, 0x40, std::ptr::null());
    let _ = allocate(&dev, SIZE, ptr(&buffer));
    let found = expect::only(
        &inst,
        CMD,
        &[ALLOC_PNEXT_PNEXT, IMPORT_METAL_HANDLE_TYPE_PARAM],
    );
    expect::mentions(&found[0], &["VK_EXT_external_memory_metal"]);
    let android = vk::ImportAndroidHardwareBufferInfoANDROID::default();
    let _ = allocate(&dev, SIZE, ptr(&android));
    let m = expect::one(&inst, CMD, ALLOC_PNEXT_PNEXT);
    expect::mentions(
        &m,
        &[
            "has a VkImportAndroidHardwareBufferInfoANDROID, but",
            "VK_ANDROID_external_memory_android_hardware_buffer",
        ],
    );
    drop(dev);
    // With the extension, the same NULL buffer is not judged (see the catalog's note on
    // VUID-VkImportAndroidHardwareBufferInfoANDROID-buffer-parameter).
    let dev = inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
    ]);
    let _ = allocate(&dev, SIZE, ptr(&android));
    expect::silent(&inst, CMD);
    drop(dev);
}
