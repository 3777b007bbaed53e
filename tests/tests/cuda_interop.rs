//! The CUDA side of interop (docs/cuda.md), end to end: a Vulkan allocation or semaphore of the
//! test driver, exported as an opaque fd through the real loader with the layer, imported into
//! CUDA through the interposer (`libexportcheck_cuda.so`, preloaded as `exportcheck run` does)
//! and the test CUDA library (`libcuda.so.1`, which accepts what NVIDIA's driver 580 accepts and
//! takes the fd). Each test runs in a child process (the preload and `LD_LIBRARY_PATH` are read
//! at its start); the app's messenger hears the CUDA side's findings, as it hears the Vulkan
//! side's. Both ways of reaching CUDA are used: by symbol, and through `cuGetProcAddress_v2`
//! (the CUDA runtime's way).

#![cfg(target_os = "linux")]

use ash::vk::{self, Handle};
use exportcheck_cuda_abi::{
    CUDA_ERROR_INVALID_VALUE, CUDA_EXTERNAL_MEMORY_DEDICATED, CUDA_SUCCESS,
};
use exportcheck_tests::child::{is_child, Child};
use exportcheck_tests::cuda_client::{self, interposed, Cuda, Through};
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::semaphores::{semaphore, semaphore_device, Types};
use exportcheck_tests::test_driver;
use exportcheck_tests::{Device, Instance, OPAQUE_FD, SIZE};

const IMPORT: &str = "cuImportExternalMemory";
const IMPORT_SEMAPHORE: &str = "cuImportExternalSemaphore";
const MAP: &str = "cuExternalMemoryGetMappedBuffer";
const DESTROY: &str = "cuDestroyExternalMemory";
const CUDA_MEMORY_SIZE: &str = "EXPORTCHECK-cuda-memory-size";
const CUDA_MEMORY_DEDICATED: &str = "EXPORTCHECK-cuda-memory-dedicated";
const CUDA_DEVICE_MISMATCH: &str = "EXPORTCHECK-cuda-device-mismatch";
const CUDA_HANDLE_TYPE: &str = "EXPORTCHECK-cuda-handle-type";
const CUDA_MAPPED_RANGE: &str = "EXPORTCHECK-cuda-mapped-range";
const CUDA_FD_IMPORTED_TWICE: &str = "EXPORTCHECK-cuda-fd-imported-twice";
const CUDA_FD_CLOSED_AFTER_IMPORT: &str = "EXPORTCHECK-cuda-fd-closed-after-import";
const CUDA_SEMAPHORE_TYPE: &str = "EXPORTCHECK-cuda-semaphore-type";

/// Runs the current test again in a child with the interposer and the test CUDA library.
fn in_child(env: &[(&str, &str)]) {
    if cuda_client::unavailable() {
        return;
    }
    let mut child = interposed(Child::new("cuda"), false);
    for (name, value) in env {
        child = child.env(name, value);
    }
    child.run();
}

/// An opaque fd of `memory`.
fn fd_of(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fd
}

/// The usual start of a test: an instance of the test driver, a device with fd exports and
/// `SIZE` bytes of memory exportable as OPAQUE_FD (freed by the test).
struct Exported {
    inst: Instance,
    dev: Device,
    memory: vk::DeviceMemory,
}

impl Exported {
    fn new() -> Self {
        let inst = test_driver::instance(None);
        let dev = inst.fd_device();
        let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
        Exported { inst, dev, memory }
    }
}

fn memory_name(memory: vk::DeviceMemory) -> String {
    format!("VkDeviceMemory {:#x}", memory.as_raw())
}

#[test]
fn an_import_of_another_size_than_the_allocation_is_cuda_memory_size() {
    if !is_child() {
        return in_child(&[]);
    }
    let Exported { inst, dev, memory } = Exported::new();
    for through in [Through::Symbol, Through::ProcAddress] {
        let cuda = Cuda::open(through);
        let (r, imported) = cuda.import_memory(fd_of(&dev, memory), 2 * SIZE, 0);
        assert_eq!(r, CUDA_SUCCESS, "the driver accepts it, as NVIDIA's does");
        let m = expect::one(&inst, IMPORT, CUDA_MEMORY_SIZE);
        expect::mentions(
            &m,
            &[
                "memHandleDesc->size is 131072",
                &memory_name(memory),
                "whose allocationSize is 65536",
                "exported by vkGetMemoryFdKHR in this process",
                "The size of the memory object must be specified",
            ],
        );
        assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
        let (r, imported) = cuda.import_memory(fd_of(&dev, memory), SIZE, 0);
        assert_eq!(r, CUDA_SUCCESS);
        expect::silent(&inst, IMPORT);
        assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
        expect::silent(&inst, DESTROY);
    }
    dev.free(memory);
}

#[test]
fn the_dedicated_flag_must_say_what_the_allocation_is_cuda_memory_dedicated() {
    if !is_child() {
        return in_child(&[]);
    }
    let inst = test_driver::instance(None);
    let dev = inst.fd_device();
    let image = dev.external_image(vk::ImageUsageFlags::SAMPLED, OPAQUE_FD);
    let dedicated = dev
        .allocate_dedicated(SIZE, OPAQUE_FD, image, vk::Buffer::null())
        .expect("a dedicated allocation");
    let plain = dev.allocate(SIZE, Some(OPAQUE_FD));
    let cuda = Cuda::open(Through::ProcAddress);
    let import = |memory, flags| {
        let (r, imported) = cuda.import_memory(fd_of(&dev, memory), SIZE, flags);
        assert_eq!(r, CUDA_SUCCESS);
        imported
    };
    let a = import(plain, CUDA_EXTERNAL_MEMORY_DEDICATED);
    let m = expect::one(&inst, IMPORT, CUDA_MEMORY_DEDICATED);
    expect::mentions(
        &m,
        &[
            "sets CUDA_EXTERNAL_MEMORY_DEDICATED",
            "is not a dedicated allocation",
        ],
    );
    let b = import(dedicated, 0);
    let m = expect::one(&inst, IMPORT, CUDA_MEMORY_DEDICATED);
    expect::mentions(
        &m,
        &[
            "does not set CUDA_EXTERNAL_MEMORY_DEDICATED",
            &format!("dedicated to VkImage {:#x}", image.as_raw()),
        ],
    );
    let c = import(dedicated, CUDA_EXTERNAL_MEMORY_DEDICATED);
    let d = import(plain, 0);
    expect::silent(&inst, IMPORT);
    for imported in [a, b, c, d] {
        assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
    }
    dev.free(dedicated);
    dev.free(plain);
    dev.destroy_image(image);
}

#[test]
fn another_cuda_device_than_the_exporter_is_cuda_device_mismatch() {
    if !is_child() {
        in_child(&[(
            "EXPORTCHECK_TEST_CUDA_DEVICE_UUID",
            "6f746865722d6465766963652d757569",
        )]);
        return in_child(&[]);
    }
    let Exported { inst, dev, memory } = Exported::new();
    let cuda = Cuda::open(Through::Symbol);
    let (r, imported) = cuda.import_memory(fd_of(&dev, memory), SIZE, 0);
    assert_eq!(r, CUDA_SUCCESS);
    if std::env::var_os("EXPORTCHECK_TEST_CUDA_DEVICE_UUID").is_some() {
        let m = expect::one(&inst, IMPORT, CUDA_DEVICE_MISMATCH);
        expect::mentions(
            &m,
            &[
                "UUID 6f746865722d6465766963652d757569",
                // b"exportcheck-dev1", the test driver's first physical device.
                "deviceUUID 6578706f7274636865636b2d64657631",
            ],
        );
    } else {
        expect::silent(&inst, IMPORT);
    }
    assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
    dev.free(memory);
}

#[test]
fn a_semaphore_fd_as_memory_and_memory_as_a_semaphore_are_cuda_handle_type() {
    if !is_child() {
        return in_child(&[]);
    }
    let inst = test_driver::instance(None);
    let dev = semaphore_device(
        &inst,
        &[
            ash::khr::external_memory_fd::NAME,
            ash::khr::external_semaphore_fd::NAME,
        ],
    );
    let sem = semaphore(&dev, false, Some(Types::OPAQUE_FD));
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let cuda = Cuda::open(Through::Symbol);
    let loader = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(sem)
        .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
    // SAFETY: a semaphore of this device, exportable as OPAQUE_FD.
    let sem_fd = unsafe { loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    let (_, imported) = cuda.import_memory(sem_fd, SIZE, 0);
    let m = expect::one(&inst, IMPORT, CUDA_HANDLE_TYPE);
    expect::mentions(
        &m,
        &[
            "is imported as memory",
            "the OPAQUE_FD export of a semaphore",
        ],
    );
    cuda.destroy_memory(imported);
    let (_, imported) = cuda.import_semaphore(fd_of(&dev, memory), false);
    let m = expect::one(&inst, IMPORT_SEMAPHORE, CUDA_HANDLE_TYPE);
    expect::mentions(
        &m,
        &[
            "is imported as a semaphore",
            "the OPAQUE_FD export of memory",
        ],
    );
    cuda.destroy_semaphore(imported);
    // Each where it belongs: silent.
    // SAFETY: as above.
    let sem_fd = unsafe { loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    let (r, imported_sem) = cuda.import_semaphore(sem_fd, false);
    assert_eq!(r, CUDA_SUCCESS);
    let (r, imported) = cuda.import_memory(fd_of(&dev, memory), SIZE, 0);
    assert_eq!(r, CUDA_SUCCESS);
    expect::silent_for(&inst, &[IMPORT, IMPORT_SEMAPHORE]);
    cuda.destroy_memory(imported);
    cuda.destroy_semaphore(imported_sem);
    dev.free(memory);
}

#[test]
fn a_semaphore_imported_as_the_other_type_is_cuda_semaphore_type() {
    if !is_child() {
        return in_child(&[]);
    }
    let inst = test_driver::instance(None);
    let dev = semaphore_device(&inst, &[ash::khr::external_semaphore_fd::NAME]);
    let loader = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let cuda = Cuda::open(Through::ProcAddress);
    for timeline in [false, true] {
        let sem = semaphore(&dev, timeline, Some(Types::OPAQUE_FD));
        let info = vk::SemaphoreGetFdInfoKHR::default()
            .semaphore(sem)
            .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
        // SAFETY: a semaphore of this device, exportable as OPAQUE_FD.
        let fd = unsafe { loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
        let (r, imported) = cuda.import_semaphore(fd, !timeline);
        assert_eq!(r, CUDA_SUCCESS);
        let m = expect::one(&inst, IMPORT_SEMAPHORE, CUDA_SEMAPHORE_TYPE);
        let (as_type, is) = if timeline {
            ("OPAQUE_FD", "a timeline semaphore")
        } else {
            ("TIMELINE_SEMAPHORE_FD", "a binary semaphore")
        };
        expect::mentions(
            &m,
            &[as_type, is, &format!("VkSemaphore {:#x}", sem.as_raw())],
        );
        cuda.destroy_semaphore(imported);
        // SAFETY: as above.
        let fd = unsafe { loader.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
        let (r, imported) = cuda.import_semaphore(fd, timeline);
        assert_eq!(r, CUDA_SUCCESS);
        expect::silent(&inst, IMPORT_SEMAPHORE);
        cuda.destroy_semaphore(imported);
        exportcheck_tests::semaphores::destroy(&dev, sem);
    }
}

#[test]
fn a_mapping_beyond_the_import_or_the_allocation_is_cuda_mapped_range() {
    if !is_child() {
        return in_child(&[]);
    }
    let Exported { inst, dev, memory } = Exported::new();
    let cuda = Cuda::open(Through::Symbol);
    let (_, exact) = cuda.import_memory(fd_of(&dev, memory), SIZE, 0);
    expect::silent(&inst, IMPORT);
    assert_eq!(cuda.map_buffer(exact, 0, SIZE), CUDA_SUCCESS);
    assert_eq!(cuda.map_buffer(exact, 4096, 4096), CUDA_SUCCESS);
    expect::silent(&inst, MAP);
    // Beyond the declared size: the driver refuses it too.
    assert_eq!(cuda.map_buffer(exact, 4096, SIZE), CUDA_ERROR_INVALID_VALUE);
    let m = expect::one(&inst, MAP, CUDA_MAPPED_RANGE);
    expect::mentions(
        &m,
        &["[4096, 69632)", "beyond the import's declared size (65536)"],
    );
    // Declared twice the allocation: the driver maps what the allocation does not have.
    let (_, twice) = cuda.import_memory(fd_of(&dev, memory), 2 * SIZE, 0);
    expect::one(&inst, IMPORT, CUDA_MEMORY_SIZE);
    assert_eq!(cuda.map_buffer(twice, 0, 2 * SIZE), CUDA_SUCCESS);
    let m = expect::one(&inst, MAP, CUDA_MAPPED_RANGE);
    expect::mentions(
        &m,
        &[
            "within the import's declared size (131072)",
            "beyond the exporting Vulkan allocation's allocationSize (65536)",
            &memory_name(memory),
        ],
    );
    cuda.destroy_memory(exact);
    cuda.destroy_memory(twice);
    dev.free(memory);
}

#[test]
fn a_cuda_import_of_an_fd_vulkan_took_is_cuda_fd_imported_twice_and_back() {
    if !is_child() {
        return in_child(&[]);
    }
    let Exported { inst, dev, memory } = Exported::new();
    let cuda = Cuda::open(Through::Symbol);
    // CUDA takes an fd; the app imports it into Vulkan: blocked, naming the CUDA import.
    let fd = fd_of(&dev, memory);
    let (r, imported) = cuda.import_memory(fd, SIZE, 0);
    assert_eq!(r, CUDA_SUCCESS);
    expect::silent(&inst, IMPORT);
    let refused = dev.import_fd(fd, SIZE);
    assert!(refused.is_err(), "the layer keeps the call from the driver");
    let m = expect::one(&inst, "vkAllocateMemory", FD_IMPORTED_TWICE);
    expect::mentions(
        &m,
        &[
            "CUexternalMemory",
            "(cuImportExternalMemory)",
            "the CUDA driver",
        ],
    );
    assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
    expect::silent(&inst, DESTROY);
    // Vulkan takes an fd (the test driver keeps it); the app imports it into CUDA.
    let fd = fd_of(&dev, memory);
    let vulkan = dev.import_fd(fd, SIZE).expect("an opaque-fd import");
    expect::silent(&inst, "vkAllocateMemory");
    let _ = cuda.import_memory(fd, SIZE, 0);
    let m = expect::one(&inst, IMPORT, CUDA_FD_IMPORTED_TWICE);
    expect::mentions(
        &m,
        &[
            &format!("memHandleDesc->handle.fd is {fd}"),
            &memory_name(vulkan),
            "Ownership of the file descriptor",
        ],
    );
    dev.free(vulkan);
    dev.free(memory);
}

#[test]
fn the_apps_close_of_an_fd_cuda_took_is_cuda_fd_closed_after_import() {
    if !is_child() {
        return in_child(&[]);
    }
    let Exported { inst, dev, memory } = Exported::new();
    let cuda = Cuda::open(Through::ProcAddress);
    let fd = fd_of(&dev, memory);
    let (_, imported) = cuda.import_memory(fd, SIZE, 0);
    // SAFETY: the number the app handed CUDA (a misuse: the test's point).
    unsafe { libc::close(fd) };
    assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
    let m = expect::one(&inst, DESTROY, CUDA_FD_CLOSED_AFTER_IMPORT);
    expect::mentions(
        &m,
        &[
            &format!("fd {fd}"),
            "cuImportExternalMemory",
            "the CUDA driver",
        ],
    );
    let (_, imported) = cuda.import_memory(fd_of(&dev, memory), SIZE, 0);
    assert_eq!(cuda.destroy_memory(imported), CUDA_SUCCESS);
    expect::silent_for(&inst, &[IMPORT, DESTROY]);
    dev.free(memory);
}

#[test]
fn a_second_cuda_import_of_an_fd_cuda_took_is_one_finding() {
    if !is_child() {
        return in_child(&[]);
    }
    let Exported { inst, dev, memory } = Exported::new();
    let cuda = Cuda::open(Through::ProcAddress);
    let fd = fd_of(&dev, memory);
    let (r, first) = cuda.import_memory(fd, SIZE, 0);
    assert_eq!(r, CUDA_SUCCESS);
    expect::silent(&inst, IMPORT);
    // The driver closed the fd; the number is the layer's now, and the second import names it.
    let (r, second) = cuda.import_memory(fd, SIZE, 0);
    let m = expect::one(&inst, IMPORT, CUDA_FD_IMPORTED_TWICE);
    expect::mentions(
        &m,
        &[
            "CUexternalMemory",
            "the layer has held the number since",
            "Ownership of the file descriptor",
        ],
    );
    if r == CUDA_SUCCESS {
        assert_eq!(cuda.destroy_memory(second), CUDA_SUCCESS);
    }
    // That one misuse is one finding: not also a close after the first import.
    assert_eq!(cuda.destroy_memory(first), CUDA_SUCCESS);
    expect::silent(&inst, DESTROY);
    dev.free(memory);
}
