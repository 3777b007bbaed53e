//! Win32 imports at vkAllocateMemory end to end, on the project's test driver (which exposes
//! VK_KHR_external_memory_win32 and VK_NV_external_memory_win32 on Linux, and imports the
//! HANDLE values it exported itself): `VkImportMemoryWin32HandleInfoKHR` (handleType-parameter,
//! 00660, 01439, 01441, 00661, 01440), `VkImportMemoryWin32HandleInfoNV` (handleType-parameter,
//! 01327, 01328), `VkMemoryAllocateInfo-pNext-00641` (both), and pNext-pNext without the
//! extensions. Each bad call yields exactly the IDs of the rules it breaks and still goes down
//! (the driver answers as it does); each good one is silent.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::exclusive;
use exportcheck_tests::{expect, Device, Instance, OPAQUE_WIN32, SIZE};

type Types = vk::ExternalMemoryHandleTypeFlags;
type Nv = vk::ExternalMemoryHandleTypeFlagsNV;

/// A device with both Win32 extensions (and what they need).
fn win32_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::khr::external_memory_win32::NAME,
        ash::khr::external_memory::NAME,
        ash::nv::external_memory_win32::NAME,
        ash::nv::external_memory::NAME,
    ])
}

/// A HANDLE the test driver exported (OPAQUE_WIN32) from new memory, and that memory.
fn exported_handle(dev: &Device) -> (vk::DeviceMemory, vk::HANDLE) {
    let memory = dev.allocate_exporting(SIZE, 0, Some(OPAQUE_WIN32), None);
    let get = dev.win32_handle_khr.expect("vkGetMemoryWin32HandleKHR");
    let info = vk::MemoryGetWin32HandleInfoKHR::default()
        .memory(memory)
        .handle_type(OPAQUE_WIN32);
    let mut handle: vk::HANDLE = 0;
    // SAFETY: a live info structure and output.
    assert_eq!(
        unsafe { get(dev.handle(), &info, &mut handle) },
        vk::Result::SUCCESS
    );
    (memory, handle)
}

/// `vkAllocateMemory` of `SIZE` bytes of type 0 with the given import structures; frees what
/// the driver made.
fn allocate(
    dev: &Device,
    khr: Option<vk::ImportMemoryWin32HandleInfoKHR<'_>>,
    nv: Option<vk::ImportMemoryWin32HandleInfoNV<'_>>,
) -> Result<(), vk::Result> {
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0);
    let mut khr = khr;
    let mut nv = nv;
    if let Some(k) = khr.as_mut() {
        info = info.push_next(k);
    }
    if let Some(n) = nv.as_mut() {
        info = info.push_next(n);
    }
    let memory = dev.allocate_with(&info)?;
    dev.free(memory);
    Ok(())
}

fn khr(
    handle_type: Types,
    handle: vk::HANDLE,
    name: bool,
) -> vk::ImportMemoryWin32HandleInfoKHR<'static> {
    static NAME: [u16; 4] = [b'm' as u16, b'e' as u16, b'm' as u16, 0];
    vk::ImportMemoryWin32HandleInfoKHR {
        handle_type,
        handle,
        name: if name {
            NAME.as_ptr()
        } else {
            std::ptr::null()
        },
        ..Default::default()
    }
}

fn nv(handle_type: Nv, handle: vk::HANDLE) -> vk::ImportMemoryWin32HandleInfoNV<'static> {
    vk::ImportMemoryWin32HandleInfoNV {
        handle_type,
        handle,
        ..Default::default()
    }
}

const CMD: &str = ALLOCATE;

#[test]
fn a_good_win32_import_is_silent_and_imports() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let (exported, handle) = exported_handle(&dev);
    expect::silent(&inst, CMD);
    assert_eq!(
        allocate(&dev, Some(khr(OPAQUE_WIN32, handle, false)), None),
        Ok(())
    );
    // handleType 0: nothing imported, nothing asked of handle and name.
    assert_eq!(
        allocate(&dev, Some(khr(Types::empty(), 0, false)), None),
        Ok(())
    );
    expect::silent(&inst, CMD);
    dev.free(exported);
    drop(dev);
}

#[test]
fn khr_import_type_rules() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let _ = allocate(&dev, Some(khr(Types::OPAQUE_FD, 0x40, false)), None);
    let m = expect::one(&inst, CMD, IMPORT_WIN32_HANDLE_TYPE_00660);
    expect::mentions(
        &m,
        &[
            "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.handleType is \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, which is defined as neither an NT \
           handle nor a global share handle",
        ],
    );
    let two = OPAQUE_WIN32 | Types::OPAQUE_WIN32_KMT;
    let _ = allocate(&dev, Some(khr(two, 0x40, false)), None);
    expect::only(
        &inst,
        CMD,
        &[
            IMPORT_WIN32_HANDLE_TYPE_PARAM,
            IMPORT_WIN32_HANDLE_TYPE_00660,
        ],
    );
    drop(dev);
}

#[test]
fn khr_import_handle_and_name_rules() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    let (exported, handle) = exported_handle(&dev);
    // A name with a global share (KMT) type: 01439.
    let _ = allocate(&dev, Some(khr(Types::OPAQUE_WIN32_KMT, 0, true)), None);
    let m = expect::one(&inst, CMD, IMPORT_WIN32_HANDLE_TYPE_01439);
    expect::mentions(
        &m,
        &[
            "VkImportMemoryWin32HandleInfoKHR>.name is not NULL, but handleType is \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT",
        ],
    );
    // A name with an NT type that has names: allowed (the test driver refuses names: its
    // answer, not a finding).
    let _ = allocate(&dev, Some(khr(OPAQUE_WIN32, 0, true)), None);
    expect::silent(&inst, CMD);
    // Both a handle and a name: 01441.
    let _ = allocate(&dev, Some(khr(OPAQUE_WIN32, handle, true)), None);
    let m = expect::one(&inst, CMD, IMPORT_WIN32_HANDLE_01441);
    expect::mentions(&m, &[".handle and .name are both not NULL"]);
    // Neither: 00661 and 01440.
    let _ = allocate(&dev, Some(khr(Types::D3D12_HEAP, 0, false)), None);
    let found = expect::only(
        &inst,
        CMD,
        &[
            IMPORT_WIN32_HANDLE_TYPE_00661,
            IMPORT_WIN32_HANDLE_TYPE_01440,
        ],
    );
    expect::mentions(
        &found[0],
        &["handle and .name are both NULL, but handleType is \
           VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP_BIT"],
    );
    dev.free(exported);
    drop(dev);
}

#[test]
fn nv_import_rules_and_both_structures() {
    let inst = exclusive(None);
    let dev = win32_device(&inst);
    // The test driver does not import NV handles: it ignores the structure and allocates.
    assert_eq!(
        allocate(&dev, None, Some(nv(Nv::OPAQUE_WIN32, 0x40))),
        Ok(())
    );
    assert_eq!(allocate(&dev, None, Some(nv(Nv::empty(), 0))), Ok(()));
    expect::silent(&inst, CMD);
    let _ = allocate(
        &dev,
        None,
        Some(nv(Nv::OPAQUE_WIN32 | Nv::D3D11_IMAGE, 0x40)),
    );
    expect::one(&inst, CMD, IMPORT_WIN32_NV_HANDLE_TYPE_01327);
    let _ = allocate(&dev, None, Some(nv(Nv::from_raw(1 << 9), 0x40)));
    expect::one(&inst, CMD, IMPORT_WIN32_NV_HANDLE_TYPE_PARAM);
    let _ = allocate(&dev, None, Some(nv(Nv::OPAQUE_WIN32_KMT, 0)));
    let m = expect::one(&inst, CMD, IMPORT_WIN32_NV_HANDLE_01328);
    expect::mentions(&m, &["VkImportMemoryWin32HandleInfoNV>.handle is NULL"]);
    let (exported, handle) = exported_handle(&dev);
    expect::silent(&inst, CMD);
    let _ = allocate(
        &dev,
        Some(khr(OPAQUE_WIN32, handle, false)),
        Some(nv(Nv::OPAQUE_WIN32, 0x40)),
    );
    expect::one(&inst, CMD, ALLOC_PNEXT_00641);
    dev.free(exported);
    drop(dev);
}

#[test]
fn win32_imports_without_their_extensions_are_pnext_pnext() {
    let inst = exclusive(None);
    let dev = inst.device(&[ash::khr::external_memory::NAME]);
    let _ = allocate(&dev, Some(khr(OPAQUE_WIN32, 0x40, false)), None);
    let m = expect::one(&inst, CMD, ALLOC_PNEXT_PNEXT);
    expect::mentions(
        &m,
        &[
            "has a VkImportMemoryWin32HandleInfoKHR, but",
            "VK_KHR_external_memory_win32",
        ],
    );
    let _ = allocate(&dev, None, Some(nv(Nv::OPAQUE_WIN32, 0x40)));
    let m = expect::one(&inst, CMD, ALLOC_PNEXT_PNEXT);
    expect::mentions(&m, &["VK_NV_external_memory_win32"]);
    drop(dev);
}
