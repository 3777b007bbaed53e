//! An opaque fd imported on another physical device and driver than the one that exported it,
//! end to end with two drivers in one instance: lavapipe and the project's test driver, two
//! physical devices with different `deviceUUID`s and `driverUUID`s.
//! `VUID-VkImportMemoryFdInfoKHR-fd-00668` ("The memory from which fd was exported must have
//! been created on the same underlying physical device as device"), `-fd-01746` (a physical
//! device and driver compatible per the external memory handle types compatibility table: for
//! OPAQUE_FD, the same driverUUID and deviceUUID) and `-fd-01520` (the fd obeys that table's
//! requirements), and `VUID-VkMemoryAllocateInfo-None-00644` (the importing device made of other
//! physical devices than the one the payload was allocated on): an opaque fd exported from
//! lavapipe memory and imported on the test driver's device breaks all four; imported on a
//! lavapipe device it is silent.

use ash::vk;
use exportcheck_tests::env::Driver;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Device, Instance, Options, OPAQUE_FD, SIZE};

/// An instance over both drivers, and a device with VK_KHR_external_memory_fd on each:
/// (lavapipe, test driver).
fn two_devices(inst: &Instance) -> (Device, Device) {
    let all = inst.physical_devices();
    let find = |test_driver: bool| {
        all.iter()
            .find(|(_, name)| (name == "exportcheck test driver") == test_driver)
            .unwrap_or_else(|| panic!("both drivers' physical devices: {all:?}"))
            .0
    };
    let fd = [ash::khr::external_memory_fd::NAME];
    (
        inst.device_on(find(false), &fd, false),
        inst.device_on(find(true), &fd, false),
    )
}

#[test]
fn an_opaque_fd_imported_on_another_physical_device_and_driver_is_00668_01746_01520_00644() {
    let inst = Instance::exclusive_with(Options {
        driver: Driver::LavapipeAndTestDriver,
        ..Options::default()
    });
    let (lavapipe, test_driver) = two_devices(&inst);
    let memory = lavapipe.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = lavapipe.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    // The test driver takes any memfd: the import goes down as the app made it, and succeeds.
    let copy = fds::dup(fd);
    let imported = test_driver
        .import_fd(copy, SIZE)
        .expect("the test driver imports a memfd");
    let found = expect::only(
        &inst,
        ALLOCATE,
        &[
            IMPORT_FD_00668,
            IMPORT_FD_01746,
            IMPORT_FD_01520,
            ALLOC_NONE_00644,
        ],
    );
    let exported = format!(
        "vkGetMemoryFdKHR exported it from {} (allocated on {}",
        expect::memory_name(memory),
        expect::device_name(&lavapipe)
    );
    let importer = format!(
        "but {} is made of 1 physical device (deviceUUID",
        expect::device_name(&test_driver)
    );
    expect::mentions(
        &found[0],
        &[
            &exported,
            "That memory was created on 1 physical device (deviceUUID",
            &importer,
            "an opaque fd must be imported on the same physical device it was exported from",
        ],
    );
    for m in &found[1..3] {
        expect::mentions(
            m,
            &[
                &exported,
                &importer,
                "(the deviceUUIDs and driverUUIDs differ)",
                "compatibility table",
                "the same driverUUID and deviceUUID",
            ],
        );
    }
    expect::mentions(
        &found[3],
        &[
            &exported,
            &format!(
                "{} is made of 1 physical device (deviceUUID",
                expect::device_name(&test_driver)
            ),
            "on which the payload was allocated, is made of 1 physical device (deviceUUID",
        ],
    );
    test_driver.free(imported);
    // On the physical device it came from: silent.
    let same = lavapipe
        .import_fd(fd, SIZE)
        .expect("lavapipe imports its own export");
    expect::silent(&inst, ALLOCATE);
    lavapipe.free(same);
    lavapipe.free(memory);
}
