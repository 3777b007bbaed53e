//! An opaque fd imported as another kind of object than the one it was exported from, end to end
//! on the project's test driver: a memory object's fd imported into a semaphore or fence, a
//! semaphore's into memory or a fence, a fence's into a semaphore. The layer knows each export
//! (by its open file description), so the import is reported, and kept from the driver:
//! `EXPORTCHECK-fd-of-another-kind` for the semaphore and fence imports, and
//! `VUID-VkImportMemoryFdInfoKHR-handleType-00670` ("fd must be a valid handle of the type
//! specified by handleType") for memory's. NVIDIA's driver and SwiftShader accept a memory fd
//! imported into a semaphore with `VK_SUCCESS` (issue #33). Each fd imported as its own kind is
//! silent.
//!
//! Every test reads the driver's call counts, so each holds the binary exclusively.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::test_driver::{call_count, exclusive};
use exportcheck_tests::{expect, fences, semaphores, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::{c_int, CStr};

const EXTENSIONS: [&CStr; 5] = [
    ash::khr::external_memory_fd::NAME,
    ash::khr::external_semaphore::NAME,
    ash::khr::external_semaphore_fd::NAME,
    ash::khr::external_fence::NAME,
    ash::khr::external_fence_fd::NAME,
];
const SEMAPHORE_FD: vk::ExternalSemaphoreHandleTypeFlags =
    vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;
const FENCE_FD: vk::ExternalFenceHandleTypeFlags = vk::ExternalFenceHandleTypeFlags::OPAQUE_FD;

/// The three exports: memory, a semaphore, a fence, each exportable as an opaque fd.
struct Exporters {
    memory: vk::DeviceMemory,
    semaphore: vk::Semaphore,
    fence: vk::Fence,
}

impl Exporters {
    fn new(dev: &Device) -> Self {
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(SIZE)
            .memory_type_index(0)
            .push_next(&mut export);
        Self {
            memory: dev.allocate_with(&info).expect("exportable allocation"),
            semaphore: semaphores::semaphore(dev, false, Some(SEMAPHORE_FD)),
            fence: fences::fence(dev, false, Some(FENCE_FD)),
        }
    }

    fn memory_fd(&self, dev: &Device) -> c_int {
        let (r, fd) = dev.get_fd(self.memory, OPAQUE_FD);
        assert_eq!(r, vk::Result::SUCCESS);
        fd
    }

    fn semaphore_fd(&self, inst: &Instance, dev: &Device) -> c_int {
        semaphores::export_opaque_fd(inst, dev, self.semaphore)
    }

    fn fence_fd(&self, inst: &Instance, dev: &Device) -> c_int {
        fences::export_fd(inst, dev, self.fence, FENCE_FD)
    }

    fn destroy(self, dev: &Device) {
        dev.free(self.memory);
        semaphores::destroy(dev, self.semaphore);
        fences::destroy(dev, self.fence);
    }
}

/// `vkImportSemaphoreFdKHR` of `fd` (opaque, permanent) into a new binary semaphore: the result
/// and the semaphore. An fd the call did not take is closed.
fn import_semaphore(inst: &Instance, dev: &Device, fd: c_int) -> (vk::Result, vk::Semaphore) {
    let into = semaphores::semaphore(dev, false, None);
    (semaphores::import_opaque_fd(inst, dev, into, fd), into)
}

/// [`import_semaphore`] for a fence.
fn import_fence(inst: &Instance, dev: &Device, fd: c_int) -> (vk::Result, vk::Fence) {
    let into = fences::fence(dev, false, None);
    (fences::import_opaque_fd(inst, dev, into, fd), into)
}

#[test]
fn a_memory_fd_imported_into_a_semaphore_or_fence_is_reported_and_kept_from_the_driver() {
    let inst = exclusive(None);
    let dev = inst.device(&EXTENSIONS);
    let made = Exporters::new(&dev);
    let semaphore_imports = call_count(c"vkImportSemaphoreFdKHR");
    let fd = made.memory_fd(&dev);
    let (r, into) = import_semaphore(&inst, &dev, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    assert_eq!(call_count(c"vkImportSemaphoreFdKHR"), semaphore_imports);
    let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, FD_OF_ANOTHER_KIND);
    expect::mentions(
        &m,
        &[
            &format!(
                "pImportSemaphoreFdInfo->fd ({fd}) is an opaque fd vkGetMemoryFdKHR exported \
                 from {} (on {}): memory, not a semaphore's payload",
                expect::memory_name(made.memory),
                expect::device_name(&dev)
            ),
            &format!("imported into VkSemaphore 0x{:x}", into.as_raw()),
            "The call was not passed to the driver",
        ],
    );
    let fence_imports = call_count(c"vkImportFenceFdKHR");
    let fd = made.memory_fd(&dev);
    let (r, fence) = import_fence(&inst, &dev, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    assert_eq!(call_count(c"vkImportFenceFdKHR"), fence_imports);
    let m = expect::one(&inst, IMPORT_FENCE_FD, FD_OF_ANOTHER_KIND);
    expect::mentions(
        &m,
        &["memory, not a fence's payload", "vkGetFenceFdKHR returned"],
    );
    semaphores::destroy(&dev, into);
    fences::destroy(&dev, fence);
    made.destroy(&dev);
}

#[test]
fn a_semaphore_or_fence_fd_imported_as_another_kind_is_reported_and_kept_from_the_driver() {
    let inst = exclusive(None);
    let dev = inst.device(&EXTENSIONS);
    let made = Exporters::new(&dev);
    // A semaphore's fd imported as memory: 00670, blocked.
    let allocations = call_count(c"vkAllocateMemory");
    let fd = made.semaphore_fd(&inst, &dev);
    assert_eq!(
        dev.import_opaque_fd_and_free(fd),
        vk::Result::ERROR_VALIDATION_FAILED_EXT
    );
    assert_eq!(call_count(c"vkAllocateMemory"), allocations);
    let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00670);
    expect::mentions(
        &m,
        &[
            &format!(
                "pAllocateInfo->pNext<VkImportMemoryFdInfoKHR>.fd ({fd}) is an opaque fd \
                 vkGetSemaphoreFdKHR exported from VkSemaphore 0x{:x}",
                made.semaphore.as_raw()
            ),
            "a semaphore's payload, not memory",
        ],
    );
    // A fence's fd imported as a semaphore, a semaphore's as a fence.
    let fd = made.fence_fd(&inst, &dev);
    let (r, into) = import_semaphore(&inst, &dev, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    let m = expect::one(&inst, IMPORT_SEMAPHORE_FD, FD_OF_ANOTHER_KIND);
    expect::mentions(
        &m,
        &[
            "vkGetFenceFdKHR exported from",
            "a fence's payload, not a semaphore's payload",
        ],
    );
    let fd = made.semaphore_fd(&inst, &dev);
    let (r, fence) = import_fence(&inst, &dev, fd);
    assert_eq!(r, vk::Result::ERROR_VALIDATION_FAILED_EXT);
    expect::one(&inst, IMPORT_FENCE_FD, FD_OF_ANOTHER_KIND);
    semaphores::destroy(&dev, into);
    fences::destroy(&dev, fence);
    made.destroy(&dev);
}

#[test]
fn each_fd_imported_as_its_own_kind_is_silent() {
    let inst = exclusive(None);
    let dev = inst.device(&EXTENSIONS);
    let made = Exporters::new(&dev);
    let fd = made.memory_fd(&dev);
    assert_eq!(dev.import_opaque_fd_and_free(fd), vk::Result::SUCCESS);
    let fd = made.semaphore_fd(&inst, &dev);
    let (r, into) = import_semaphore(&inst, &dev, fd);
    assert_eq!(r, vk::Result::SUCCESS);
    let fd = made.fence_fd(&inst, &dev);
    let (r, fence) = import_fence(&inst, &dev, fd);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent_for(
        &inst,
        &[
            ALLOCATE,
            GET_FD,
            GET_SEMAPHORE_FD,
            IMPORT_SEMAPHORE_FD,
            GET_FENCE_FD,
            IMPORT_FENCE_FD,
        ],
    );
    semaphores::destroy(&dev, into);
    fences::destroy(&dev, fence);
    made.destroy(&dev);
}
