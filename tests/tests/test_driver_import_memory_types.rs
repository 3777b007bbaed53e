//! An import's memoryTypeIndex against the driver's answer for the imported handle, which the
//! layer asks itself, on the test driver: a host pointer (`vkGetMemoryHostPointerPropertiesEXT`
//! gives the host-visible memory type 1: `VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744`) and a
//! Zircon VMO (`vkGetMemoryZirconHandlePropertiesFUCHSIA` gives the memory type of the allocation
//! the handle was exported from: `VUID-VkMemoryAllocateInfo-None-04749`). The layer asks only
//! for such an import, and only where its call is valid (an aligned, non-NULL pointer).
//!
//! Each test reads the driver's call counters, so holds the binary exclusively.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, SIZE};
use std::ffi::c_void;

type Types = vk::ExternalMemoryHandleTypeFlags;
const HOST: Types = Types::HOST_ALLOCATION_EXT;
const VMO: Types = Types::ZIRCON_VMO_FUCHSIA;
const IMPORT_HOST_POINTER_01749: &str = "VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749";
/// The test driver's minImportedHostPointerAlignment.
const ALIGNMENT: u64 = 4096;

/// Allocates `SIZE` bytes of `memory_type` with `import` chained; frees what the driver made.
fn allocate(dev: &Device, memory_type: u32, import: *const c_void) {
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(memory_type);
    info.p_next = import;
    if let Ok(memory) = dev.allocate_with(&info) {
        dev.free(memory);
    }
}

#[test]
fn a_host_pointer_import_of_a_type_the_pointer_lacks_is_01744() {
    let inst = exclusive(None);
    let dev = inst.device(&[
        ash::khr::external_memory::NAME,
        ash::ext::external_memory_host::NAME,
    ]);
    // The test driver never reads the pointer.
    let aligned = (0x6000_0000 * ALIGNMENT) as usize as *mut c_void;
    let import = |pointer| {
        vk::ImportMemoryHostPointerInfoEXT::default()
            .handle_type(HOST)
            .host_pointer(pointer)
    };
    let mut asked = Calls::of(c"vkGetMemoryHostPointerPropertiesEXT");
    let good = import(aligned);
    allocate(&dev, 0, std::ptr::from_ref(&good).cast());
    asked.assert(1, "the layer asks the driver about the pointer");
    let m = expect::one(&inst, ALLOCATE, ALLOC_TYPE_INDEX_01744);
    expect::mentions(
        &m,
        &[
            &format!("imports host pointer {aligned:p} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT with memoryTypeIndex 0"),
            "vkGetMemoryHostPointerPropertiesEXT returns memoryTypeBits 0x2",
            "does not include memory type 0",
        ],
    );
    // One of the pointer's types: silent.
    allocate(&dev, 1, std::ptr::from_ref(&good).cast());
    asked.assert(1, "asked again");
    expect::silent(&inst, ALLOCATE);
    // A misaligned pointer is 01749, and not asked about (the query would be invalid).
    let misaligned = import(aligned.wrapping_byte_add(16));
    allocate(&dev, 0, std::ptr::from_ref(&misaligned).cast());
    asked.assert(0, "a misaligned pointer is not asked about");
    expect::one(&inst, ALLOCATE, IMPORT_HOST_POINTER_01749);
    // Allocations that import nothing ask nothing.
    allocate(&dev, 0, std::ptr::null());
    asked.assert(0, "a plain allocation asks nothing");
    expect::silent(&inst, ALLOCATE);
}

#[test]
fn a_vmo_import_of_a_type_the_vmo_lacks_is_04749() {
    let inst = exclusive(None);
    let dev = inst.device(&[
        ash::fuchsia::external_memory::NAME,
        ash::khr::external_memory::NAME,
    ]);
    let exported = dev.allocate_exporting(SIZE, 0, Some(VMO), None);
    let get = dev.zircon_handle.expect("vkGetMemoryZirconHandleFUCHSIA");
    let info = vk::MemoryGetZirconHandleInfoFUCHSIA::default()
        .memory(exported)
        .handle_type(VMO);
    let mut handle = 0u32;
    // SAFETY: a live info structure and output.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut handle) },
        vk::Result::SUCCESS
    );
    let mut asked = Calls::of(c"vkGetMemoryZirconHandlePropertiesFUCHSIA");
    let import = vk::ImportMemoryZirconHandleInfoFUCHSIA {
        handle_type: VMO,
        handle,
        ..Default::default()
    };
    allocate(&dev, 1, std::ptr::from_ref(&import).cast());
    asked.assert(1, "the layer asks the driver about the handle");
    let m = expect::one(&inst, ALLOCATE, ALLOC_NONE_04749);
    expect::mentions(
        &m,
        &[
            &format!("imports Zircon VMO handle {handle:#x} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA with memoryTypeIndex 1"),
            "vkGetMemoryZirconHandlePropertiesFUCHSIA returns memoryTypeBits 0x1",
        ],
    );
    // The exporting allocation's type: silent.
    allocate(&dev, 0, std::ptr::from_ref(&import).cast());
    asked.assert(1, "asked again");
    expect::silent(&inst, ALLOCATE);
    // ZX_HANDLE_INVALID is 04772, and not asked about.
    let invalid = vk::ImportMemoryZirconHandleInfoFUCHSIA {
        handle_type: VMO,
        ..Default::default()
    };
    allocate(&dev, 1, std::ptr::from_ref(&invalid).cast());
    asked.assert(0, "ZX_HANDLE_INVALID is not asked about");
    expect::one(&inst, ALLOCATE, IMPORT_ZIRCON_HANDLE_04772);
    dev.free(exported);
}
