//! Opaque-fd imports checked against the export they came from, in one process, through the
//! real loader over lavapipe: `VUID-VkMemoryAllocateInfo-allocationSize-01742` (the size; the
//! memory type is on the test driver, in test_driver_fd.rs, since lavapipe has one memory type),
//! `VUID-VkMemoryDedicatedAllocateInfo-image-01878` and `-buffer-01879`. The layer knows an fd by
//! the open file description vkGetMemoryFdKHR returned, so a duplicate is matched and a closed
//! and reused number is not.
//!
//! Each scenario runs on lavapipe (an export is a `dup` of the allocation's memfd), on
//! SwiftShader (the same, but it keeps an imported fd open) and on the test driver exporting as
//! NVIDIA's driver does (every export a new open file description of one device file, which the
//! driver's own descriptors share): the tests `<scenario>::lavapipe`, `<scenario>::swiftshader`
//! and `<scenario>::device_files` (the last two each in a child process: one driver per
//! process).
//!
//! Every test reasons about fd numbers, so each holds the binary exclusively (the parent side of
//! a child-process test too: its pipes to the child are fd numbers).

use ash::vk::{self, Handle};
use exportcheck_tests::fd_export::FdExport;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, OPAQUE_FD, SIZE};
use exportcheck_tests::{swiftshader, test_driver};

/// The driver a scenario runs on.
#[derive(Clone, Copy)]
enum On {
    Lavapipe,
    DeviceFiles,
    SwiftShader,
}

impl On {
    /// An instance alone in the binary.
    fn exclusive(self) -> Instance {
        match self {
            On::Lavapipe => Instance::exclusive(),
            On::DeviceFiles => test_driver::exclusive(FdExport::DeviceFile.config()),
            On::SwiftShader => swiftshader::exclusive(),
        }
    }
}

macro_rules! on_both_drivers {
    ($($scenario:ident),* $(,)?) => {
        $(
            mod $scenario {
                #[test]
                fn lavapipe() {
                    super::$scenario(super::On::Lavapipe)
                }
                /// In a child process of its own: one driver per process.
                #[test]
                fn device_files() {
                    if exportcheck_tests::child::is_child() {
                        return super::$scenario(super::On::DeviceFiles);
                    }
                    exportcheck_tests::app::exclusively(|| {
                        exportcheck_tests::child::Child::new("device_files").run()
                    });
                }
                /// In a child process of its own: one driver per process.
                #[test]
                fn swiftshader() {
                    if exportcheck_tests::child::is_child() {
                        return super::$scenario(super::On::SwiftShader);
                    }
                    exportcheck_tests::app::exclusively(|| {
                        exportcheck_tests::child::Child::new("swiftshader").run()
                    });
                }
            }
        )*
    };
}

on_both_drivers!(
    an_import_of_another_size_than_the_export_is_01742,
    an_import_of_the_export_s_size_and_type_is_silent_also_through_a_duplicate,
    a_duplicate_of_the_exported_fd_is_recognised,
    a_closed_and_reused_fd_number_is_not_taken_for_the_export,
    a_dedicated_import_of_memory_not_dedicated_is_01878_or_01879,
    a_dedicated_import_of_memory_dedicated_alike_is_silent,
    importing_a_duplicate_made_before_the_first_import_or_a_new_export_is_silent,
    every_export_of_an_allocation_is_known
);

/// Exports `memory` as an opaque fd the test now owns.
#[track_caller]
fn export(dev: &Device, memory: vk::DeviceMemory) -> i32 {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::assert_open(fd);
    fd
}

/// After an import went down: frees the memory if the driver made some (it owns the fd then),
/// else closes the fd, which is still the test's.
fn clean_up(dev: &Device, result: Result<vk::DeviceMemory, vk::Result>, fd: i32) {
    match result {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }
}

fn an_import_of_another_size_than_the_export_is_01742(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    let result = dev.import_fd(fd, SIZE / 2);
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
    expect::mentions(
        &m,
        &[
            &format!(
                "imports fd {fd} as VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT; \
                 vkGetMemoryFdKHR exported it from {}",
                expect::memory_name(memory)
            ),
            &format!("with allocationSize {SIZE}, memoryTypeIndex 0, not dedicated"),
            &format!(
                "pAllocateInfo->allocationSize is {}; an import of an opaque fd must give the \
                 allocationSize the payload was created with ({SIZE})",
                SIZE / 2
            ),
        ],
    );
    assert_eq!(
        expect::object(&m, vk::ObjectType::DEVICE_MEMORY, memory.as_raw()),
        None
    );
    clean_up(&dev, result, fd);
    dev.free(memory);
}

fn an_import_of_the_export_s_size_and_type_is_silent_also_through_a_duplicate(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let copy = fds::dup(fd);
    fds::close(fd);
    let imported = dev
        .import_fd(copy, SIZE)
        .expect("import of a duplicate of the exported fd");
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    dev.free(imported);
    dev.free(memory);
}

fn a_duplicate_of_the_exported_fd_is_recognised(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let copy = fds::dup(fd);
    fds::close(fd);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    let result = dev.import_fd(copy, 2 * SIZE);
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
    expect::mentions(&m, &[&format!("imports fd {copy}")]);
    clean_up(&dev, result, copy);
    dev.free(memory);
}

fn a_closed_and_reused_fd_number_is_not_taken_for_the_export(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let small = dev.allocate(SIZE, Some(OPAQUE_FD));
    let big = dev.allocate(2 * SIZE, Some(OPAQUE_FD));
    let number = export(&dev, small);
    let big_fd = export(&dev, big);
    fds::close(number);
    // The number reused for an export of another allocation: that one is what it is checked
    // against (the sizes match: silent).
    fds::dup2(big_fd, number);
    fds::close(big_fd);
    let imported = dev
        .import_fd(number, 2 * SIZE)
        .expect("import of the second export");
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    // An export's number reused for a file that is no export at all (/dev/null, which no
    // driver exports: 00670): no export to check it against (the driver refuses the import).
    let small_fd = export(&dev, small);
    let other = std::fs::File::open("/dev/null").expect("open /dev/null");
    fds::dup2(std::os::fd::AsRawFd::as_raw_fd(&other), small_fd);
    let result = dev.import_fd(small_fd, 3 * SIZE);
    let m = expect::one(&inst, ALLOCATE, IMPORT_FD_HANDLE_TYPE_00670);
    expect::mentions(&m, &[&format!("fd ({small_fd}) is a character device")]);
    clean_up(&dev, result, small_fd);
    dev.free(imported);
    dev.free(big);
    dev.free(small);
}

fn a_dedicated_import_of_memory_not_dedicated_is_01878_or_01879(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let image = dev.external_image(vk::ImageUsageFlags::SAMPLED, OPAQUE_FD);
    let buffer = dev.external_buffer(vk::BufferUsageFlags::TRANSFER_SRC, OPAQUE_FD);
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    for (image, buffer, id, field) in [
        (
            image,
            vk::Buffer::null(),
            DEDICATED_IMAGE_01878,
            "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.image is",
        ),
        (
            vk::Image::null(),
            buffer,
            DEDICATED_BUFFER_01879,
            "pAllocateInfo->pNext<VkMemoryDedicatedAllocateInfo>.buffer is",
        ),
    ] {
        let fd = export(&dev, memory);
        expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
        let result = dev.import_fd_dedicated(fd, SIZE, image, buffer);
        let m = expect::one(&inst, ALLOCATE, id);
        expect::mentions(&m, &[field, "but the imported memory is not a dedicated"]);
        clean_up(&dev, result, fd);
    }
    dev.free(memory);
    dev.destroy_image(image);
    dev.destroy_buffer(buffer);
}

fn a_dedicated_import_of_memory_dedicated_alike_is_silent(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let usage = vk::ImageUsageFlags::SAMPLED;
    let (first, second) = (
        dev.external_image(usage, OPAQUE_FD),
        dev.external_image(usage, OPAQUE_FD),
    );
    let memory = dev
        .allocate_dedicated(SIZE, OPAQUE_FD, first, vk::Buffer::null())
        .expect("dedicated allocation");
    let fd = export(&dev, memory);
    let imported = dev
        .import_fd_dedicated(fd, SIZE, second, vk::Buffer::null())
        .expect("dedicated import");
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    dev.free(imported);
    dev.free(memory);
    dev.destroy_image(first);
    dev.destroy_image(second);
}

fn importing_a_duplicate_made_before_the_first_import_or_a_new_export_is_silent(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let copy = fds::dup(fd);
    let first = dev.import_fd(fd, SIZE).expect("first import");
    let second = dev
        .import_fd(copy, SIZE)
        .expect("import of the app's duplicate");
    expect::silent(&inst, ALLOCATE);
    // After the imported memory is freed, its number may be anyone's: a new export.
    dev.free(first);
    let fresh = export(&dev, memory);
    let third = dev.import_fd(fresh, SIZE).expect("import of a new export");
    expect::silent_for(&inst, &[ALLOCATE, GET_FD, FREE]);
    dev.free(third);
    dev.free(second);
    dev.free(memory);
}

/// A driver may make every export of an allocation a new open file description (NVIDIA's
/// does): an import of a later one is checked as the first is.
fn every_export_of_an_allocation_is_known(on: On) {
    let inst = on.exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let first = export(&dev, memory);
    let second = export(&dev, memory);
    let result = dev.import_fd(second, SIZE / 2);
    let m = expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
    expect::mentions(&m, &[&format!("imports fd {second}")]);
    clean_up(&dev, result, second);
    let imported = dev
        .import_fd(first, SIZE)
        .expect("import of the first export");
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    dev.free(imported);
    dev.free(memory);
}

/// Where the kernel refuses kcmp (a container's seccomp profile), the layer says so once, at the
/// first export, and matches no import with an export: nothing is judged on a guess.
#[test]
fn kcmp_refused_is_said_once_and_no_import_is_matched() {
    if !exportcheck_tests::child::is_child() {
        exportcheck_tests::child::Child::new("refuses kcmp").run();
        return;
    }
    fds::refuse_kcmp();
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
    let fd = export(&dev, memory);
    let m = expect::one(&inst, GET_FD, KCMP_REFUSED);
    expect::mentions(
        &m,
        &[
            "kcmp(KCMP_FILE) is refused in this process (EPERM",
            "imports of opaque fds are not checked against the exports they came from",
        ],
    );
    let again = export(&dev, memory);
    expect::silent(&inst, GET_FD);
    let result = dev.import_fd(fd, SIZE / 2);
    expect::silent(&inst, ALLOCATE);
    clean_up(&dev, result, fd);
    fds::close(again);
    dev.free(memory);
}
