//! The import matrix of `vkAllocateMemory`, end to end: the real loader, the layer and the
//! project's test driver (`tests/icd`). Every handle-type value of the hostile tables in a
//! `VkImportMemoryFdInfoKHR` (with an fd the device exported, -1, and a closed number) and in a
//! `VkImportMemoryHostPointerInfoEXT` (with an aligned, a misaligned and a NULL pointer, and an
//! allocation size that is not a multiple of the alignment), and two import operations in one
//! chain. Each case must yield exactly the IDs the model of the rules (`tests/model`) gives for
//! the chain, blocked or not as it says; the driver's own answer (the test driver takes what a
//! real one would, refuses the rest) is the call's result. See docs/reliability.md.
//!
//! Not here: a `DMA_BUF` import of an open fd, which the layer also judges by the kind of file
//! (`VUID-VkImportMemoryFdInfoKHR-handleType-00670` for a file that certainly is no dma-buf, a
//! fact the model does not describe: tests/tests/import_fd.rs, test_driver_fd.rs).

use ash::vk;
use exportcheck_tests::calls::Called;
use exportcheck_tests::hostile::{self, Expected, Fixture, Matrix};
use exportcheck_tests::ids::ALLOCATE;
use exportcheck_tests::model::handle_type::{
    DEFINED, DMA_BUF, HOST_ALLOCATION, HOST_MAPPED_FOREIGN_MEMORY, OPAQUE_FD,
};
use exportcheck_tests::model::{self, AllocateInfo, Allocation, Call, HostImport, Imports, Info};
use exportcheck_tests::{fds, Device, Instance, SIZE};
use std::ffi::c_void;

const SUCCESS: vk::Result = vk::Result::SUCCESS;
const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;

/// `vkAllocateMemory` of `size` bytes of memory type `index` with `p_next` chained, through the
/// layer's pointer; memory it makes is freed.
fn allocate(dev: &Device, size: u64, index: u32, p_next: *const c_void) -> Called {
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(index);
    info.p_next = p_next;
    let result = dev.allocate_with(&info);
    if let Ok(memory) = result {
        dev.free(memory);
    }
    Called {
        result: Some(result.err().unwrap_or(SUCCESS)),
        written: result.is_ok(),
        output: 0,
    }
}

/// The model's call: `size` bytes of memory type `index`, importing as `imports` says.
fn importing(size: u64, index: u32, imports: Imports) -> Call {
    Call::Allocate {
        info: Info::Valid(AllocateInfo {
            imports,
            ..AllocateInfo::of(Allocation::new(size, index, None, None))
        }),
        output_null: false,
    }
}

/// A fresh OPAQUE_FD export of new memory of the device (the memory is freed: the fd keeps the
/// payload).
fn exported_fd(dev: &Device) -> i32 {
    let memory = dev.allocate_exporting(
        SIZE,
        0,
        Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD),
        None,
    );
    let (r, fd) = dev.get_fd(memory, vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    assert_eq!(r, SUCCESS, "the export");
    dev.free(memory);
    fd
}

/// A number that is no open fd: a file opened and closed again.
fn closed_fd() -> i32 {
    let file = std::fs::File::open("/dev/null").expect("open /dev/null");
    let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    drop(file);
    assert!(!fds::is_open(fd), "fd {fd} is closed");
    fd
}

#[test]
fn fd_import_matrix() {
    let f = Fixture::new();
    let (inst, dev) = (&f.inst, &f.dev);
    let device = inst.model_device(dev);
    let mut m = Matrix::new(inst, ALLOCATE, c"vkAllocateMemory");
    inst.messages();
    for handle_type in hostile::handle_type_values(DEFINED) {
        for which in ["an exported fd", "-1", "a closed fd"] {
            if handle_type == DMA_BUF && which == "an exported fd" {
                continue;
            }
            let fd = match which {
                "an exported fd" => exported_fd(dev),
                "-1" => -1,
                _ => closed_fd(),
            };
            inst.messages();
            let open = fds::is_open(fd);
            // The test driver takes an open fd of a single fd type, and ignores handleType 0.
            let fd_type = handle_type == OPAQUE_FD || handle_type == DMA_BUF;
            let down = if handle_type == 0 || (fd_type && open) {
                SUCCESS
            } else {
                INVALID
            };
            let call = importing(SIZE, 0, Imports::fd(handle_type, fd, open));
            let expected = Expected::from_model(model::expected(&device, &call), Some(down));
            let import = vk::ImportMemoryFdInfoKHR::default()
                .handle_type(vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type))
                .fd(fd);
            m.case(
                format!("VkImportMemoryFdInfoKHR {{ handleType: {handle_type:#x}, fd: {which} }}"),
                expected,
                || allocate(dev, SIZE, 0, (&raw const import).cast()),
            );
            // A failed import, or one the driver ignored, leaves the fd the test's.
            if down == INVALID || handle_type == 0 {
                fds::close_if_open(fd);
            }
        }
    }
    // Two import operations in one chain: the same VkImportMemoryFdInfoKHR twice, which is
    // 06657 and sType-unique (a structure the layer reads, repeated). The driver takes the first
    // it finds, and with it the fd.
    let fd = exported_fd(dev);
    inst.messages();
    let second = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
        .fd(fd);
    let mut first = second;
    first.p_next = (&raw const second).cast();
    let call = Call::Allocate {
        info: Info::Valid(AllocateInfo {
            repeated: true,
            imports: Imports {
                operations: 2,
                ..Imports::fd(OPAQUE_FD, fd, true)
            },
            ..AllocateInfo::of(Allocation::new(SIZE, 0, None, None))
        }),
        output_null: false,
    };
    let expected = Expected::from_model(model::expected(&device, &call), Some(SUCCESS));
    assert_eq!(expected.ids.len(), 2, "{:?}", expected.ids);
    m.case("VkImportMemoryFdInfoKHR twice", expected, || {
        allocate(dev, SIZE, 0, (&raw const first).cast())
    });
    assert!(m.finish() > 100);
}

/// A device of the test driver with `VK_EXT_external_memory_host`, and its
/// `minImportedHostPointerAlignment`.
fn host_device(inst: &Instance) -> (Device, u64) {
    let dev = inst.device(&[
        ash::khr::external_memory::NAME,
        ash::ext::external_memory_host::NAME,
    ]);
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
    // SAFETY: the instance's own physical device, and a valid chain.
    unsafe {
        inst.instance
            .get_physical_device_properties2(inst.physical_device, &mut properties)
    };
    let alignment = host.min_imported_host_pointer_alignment;
    assert!(alignment.is_power_of_two(), "{alignment}");
    (dev, alignment)
}

/// Four pages of the test's own anonymous memory (page-aligned, so aligned to any alignment up
/// to a page).
struct HostPages(*mut c_void, usize);

impl HostPages {
    fn new(len: usize) -> Self {
        // SAFETY: a fresh private anonymous mapping; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED, "mmap");
        Self(p, len)
    }
}

impl Drop for HostPages {
    fn drop(&mut self) {
        // SAFETY: the mapping made by `new`, unmapped once.
        unsafe { libc::munmap(self.0, self.1) };
    }
}

#[test]
fn host_pointer_import_matrix() {
    let inst = hostile::instance();
    let (dev, alignment) = host_device(&inst);
    let device = inst.model_device(&dev);
    let pages = HostPages::new(4 * alignment.max(4096) as usize);
    let aligned = pages.0 as u64;
    // The memory type to import with: one the driver offers for the pointer (else 01744).
    let ext = ash::ext::external_memory_host::Device::new(&inst.instance, &dev.device);
    let mut answer = vk::MemoryHostPointerPropertiesEXT::default();
    // SAFETY: live, aligned host memory and a valid output structure.
    let r = unsafe {
        (ext.fp().get_memory_host_pointer_properties_ext)(
            dev.handle(),
            vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
            pages.0,
            &mut answer,
        )
    };
    assert_eq!(r, SUCCESS);
    let index = answer.memory_type_bits.trailing_zeros();
    inst.messages();
    let mut m = Matrix::new(&inst, ALLOCATE, c"vkAllocateMemory");
    let size = 2 * alignment;
    let host_types = [HOST_ALLOCATION, HOST_MAPPED_FOREIGN_MEMORY];
    let mut rows: Vec<(u32, &str, u64, u64)> = Vec::new();
    for handle_type in hostile::handle_type_values(DEFINED) {
        for (what, pointer) in [
            ("aligned", aligned),
            ("misaligned", aligned + 16),
            ("NULL", 0),
        ] {
            rows.push((handle_type, what, pointer, size));
        }
    }
    for handle_type in host_types {
        rows.push((
            handle_type,
            "aligned, size not a multiple",
            aligned,
            size + 16,
        ));
    }
    for (handle_type, what, pointer, size) in rows {
        // The test driver takes a non-NULL, aligned pointer of a single host type, and ignores
        // handleType 0.
        let importable =
            host_types.contains(&handle_type) && pointer != 0 && pointer % alignment == 0;
        let down = if handle_type == 0 || importable {
            SUCCESS
        } else {
            INVALID
        };
        let imports = Imports {
            operations: u32::from(handle_type != 0),
            host: Some(HostImport {
                handle_type,
                pointer,
                alignment: Some(alignment),
                dedicated_nv: false,
            }),
            ..Imports::NONE
        };
        let call = importing(size, index, imports);
        let expected = Expected::from_model(model::expected(&device, &call), Some(down));
        let import = vk::ImportMemoryHostPointerInfoEXT {
            handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type),
            p_host_pointer: pointer as *mut c_void,
            ..Default::default()
        };
        m.case(
            format!("VkImportMemoryHostPointerInfoEXT {{ handleType: {handle_type:#x}, pHostPointer: {what} }}, allocationSize {size}"),
            expected,
            || allocate(&dev, size, index, (&raw const import).cast()),
        );
    }
    assert!(m.finish() > 100);
}
