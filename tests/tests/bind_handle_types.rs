//! The handle types of memory bound to a buffer or image against those the resource was created
//! for (`VkExternalMemoryBufferCreateInfo`, `VkExternalMemoryImageCreateInfo`), end to end:
//! exported memory must share at least one type with the resource (`-memory-02726` for buffers,
//! `-memory-02728` for images), imported memory's type must be one of the resource's
//! (`-02985`, `-02989`), and an Android hardware buffer import needs that type there (`-02986`,
//! `-02990`). `vkBind{Buffer,Image}Memory` report the `vkBind*Memory-memory-*` IDs, their `2`
//! variants the `VkBind*MemoryInfo-memory-*` ones under `pBindInfos[i].memory`. Over lavapipe
//! (opaque-fd exports and imports; the Android hardware buffer rules are on the test driver, in
//! test_driver_bind_handle_types.rs), and stacked with the Khronos validation layer, which
//! reports the same IDs for the same calls.
//!
//! Each test imports fds or reads every message of the process: each holds the binary exclusively.

use ash::vk::{self, Handle};
use exportcheck_tests::app::Captured;
use exportcheck_tests::child::{is_child, Child};
use exportcheck_tests::env::{self, Driver, LAYERS_FROM_APP};
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, Device, Instance, Options, OPAQUE_FD, SIZE};
use std::ffi::CStr;

const USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw() | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);
const SAMPLED: vk::ImageUsageFlags = vk::ImageUsageFlags::SAMPLED;
const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";

/// Memory imported from an opaque fd of an exportable allocation, and that allocation; with
/// `export`, the import is itself exportable as those types (`VkExportMemoryAllocateInfo`).
fn imported(
    dev: &Device,
    export: Option<vk::ExternalMemoryHandleTypeFlags>,
) -> (vk::DeviceMemory, vk::DeviceMemory) {
    let exported = dev.allocate(SIZE, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(exported, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(OPAQUE_FD)
        .fd(fd);
    let mut export_info = vk::ExportMemoryAllocateInfo::default();
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut import);
    if let Some(types) = export {
        export_info = export_info.handle_types(types);
        info = info.push_next(&mut export_info);
    }
    let memory = dev.allocate_with(&info).expect("an opaque-fd import");
    (memory, exported)
}

fn free_all(
    dev: &Device,
    buffers: &[vk::Buffer],
    images: &[vk::Image],
    memory: &[vk::DeviceMemory],
) {
    for b in buffers {
        dev.destroy_buffer(*b);
    }
    for i in images {
        dev.destroy_image(*i);
    }
    for m in memory {
        dev.free(*m);
    }
}

#[test]
fn exported_memory_bound_to_a_buffer_of_none_of_its_types_is_02726() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let external = dev.external_buffer(USAGE, OPAQUE_FD);
    let plain = dev.plain_buffer(USAGE);
    let (good, bad) = (
        dev.allocate(SIZE, Some(OPAQUE_FD)),
        dev.allocate(SIZE, Some(OPAQUE_FD)),
    );
    expect::silent(&inst, ALLOCATE);

    assert_eq!(
        dev.bind_buffer(plain, bad),
        vk::Result::SUCCESS,
        "reported, then passed down"
    );
    let m = expect::one(&inst, BIND_BUFFER, BIND_BUFFER_MEMORY_02726);
    expect::mentions(
        &m,
        &[
            &format!("vkBindBufferMemory(): memory: {}", expect::memory_name(bad)),
            &format!("is exported as VkExportMemoryAllocateInfo::handleTypes = {OPAQUE_FD_NAME}"),
            &format!(
                "but VkBuffer 0x{:x} was created with \
                 VkExternalMemoryBufferCreateInfo::handleTypes = 0 (or without that structure)",
                plain.as_raw()
            ),
            "must include at least one of the resource's",
        ],
    );
    expect::object(&m, vk::ObjectType::BUFFER, plain.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, bad.as_raw());
    // The buffer it was made for: silent.
    assert_eq!(dev.bind_buffer(external, good), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER);
    // Memory that exports nothing, to a buffer of no external type: silent.
    let (plain_2, plain_3) = (dev.plain_buffer(USAGE), dev.plain_buffer(USAGE));
    let (unexported, exports_nothing) = (
        dev.allocate(SIZE, None),
        dev.allocate(SIZE, Some(vk::ExternalMemoryHandleTypeFlags::empty())),
    );
    assert_eq!(dev.bind_buffer(plain_2, unexported), vk::Result::SUCCESS);
    assert_eq!(
        dev.bind_buffer(plain_3, exports_nothing),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_BUFFER);
    free_all(
        &dev,
        &[external, plain, plain_2, plain_3],
        &[],
        &[good, bad, unexported, exports_nothing],
    );
}

#[test]
fn in_vk_bind_buffer_memory2_each_element_is_judged_under_its_index() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (external, plain) = (
        dev.external_buffer(USAGE, OPAQUE_FD),
        dev.plain_buffer(USAGE),
    );
    let (good, bad) = (
        dev.allocate(SIZE, Some(OPAQUE_FD)),
        dev.allocate(SIZE, Some(OPAQUE_FD)),
    );
    assert_eq!(
        dev.bind_buffers2(&[(external, good), (plain, bad)]),
        vk::Result::SUCCESS
    );
    let m = expect::one(&inst, BIND_BUFFER2, BIND_BUFFER_INFO_02726);
    expect::mentions(
        &m,
        &[&format!(
            "vkBindBufferMemory2(): pBindInfos[1].memory: {}",
            expect::memory_name(bad)
        )],
    );
    let external_2 = dev.external_buffer(USAGE, OPAQUE_FD);
    let good_2 = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(
        dev.bind_buffers2(&[(external_2, good_2)]),
        vk::Result::SUCCESS
    );
    expect::silent(&inst, BIND_BUFFER2);
    free_all(
        &dev,
        &[external, plain, external_2],
        &[],
        &[good, bad, good_2],
    );
}

#[test]
fn exported_memory_bound_to_an_image_of_none_of_its_types_is_02728() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (external, plain, plain_2) = (
        dev.external_image(SAMPLED, OPAQUE_FD),
        dev.plain_image(SAMPLED),
        dev.plain_image(SAMPLED),
    );
    let memory: Vec<_> = (0..4)
        .map(|_| dev.allocate(SIZE, Some(OPAQUE_FD)))
        .collect();
    assert_eq!(dev.bind_image(plain, memory[0]), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_IMAGE, BIND_IMAGE_MEMORY_02728);
    expect::mentions(
        &m,
        &[
            &format!(
                "vkBindImageMemory(): memory: {}",
                expect::memory_name(memory[0])
            ),
            &format!(
                "VkImage 0x{:x} was created with VkExternalMemoryImageCreateInfo::handleTypes = 0",
                plain.as_raw()
            ),
        ],
    );
    expect::object(&m, vk::ObjectType::IMAGE, plain.as_raw());
    assert_eq!(dev.bind_image(external, memory[1]), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_IMAGE);

    let external_2 = dev.external_image(SAMPLED, OPAQUE_FD);
    assert_eq!(
        dev.bind_images2(&[(external_2, memory[2]), (plain_2, memory[3])]),
        vk::Result::SUCCESS
    );
    let m = expect::one(&inst, BIND_IMAGE2, BIND_IMAGE_INFO_02728);
    expect::mentions(&m, &["vkBindImageMemory2(): pBindInfos[1].memory"]);
    let external_3 = dev.external_image(SAMPLED, OPAQUE_FD);
    let last = dev.allocate(SIZE, Some(OPAQUE_FD));
    assert_eq!(dev.bind_images2(&[(external_3, last)]), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_IMAGE2);
    free_all(
        &dev,
        &[],
        &[external, plain, plain_2, external_2, external_3],
        &memory,
    );
    dev.free(last);
}

#[test]
fn imported_memory_bound_to_a_buffer_without_its_type_is_02985() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (plain, plain_2) = (dev.plain_buffer(USAGE), dev.plain_buffer(USAGE));
    let (external, external_2) = (
        dev.external_buffer(USAGE, OPAQUE_FD),
        dev.external_buffer(USAGE, OPAQUE_FD),
    );
    let (a, a_from) = imported(&dev, None);
    let (b, b_from) = imported(&dev, None);
    let (c, c_from) = imported(&dev, None);
    let (d, d_from) = imported(&dev, None);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);

    assert_eq!(dev.bind_buffer(plain, a), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_BUFFER, BIND_BUFFER_MEMORY_02985);
    expect::mentions(
        &m,
        &[
            &format!("vkBindBufferMemory(): memory: {}", expect::memory_name(a)),
            &format!("imported from {OPAQUE_FD_NAME}"),
            &format!(
                "was imported as {OPAQUE_FD_NAME}, but VkBuffer 0x{:x}",
                plain.as_raw()
            ),
            "the handle type of the imported memory must be one of the resource's",
        ],
    );
    assert_eq!(dev.bind_buffer(external, b), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER);
    assert_eq!(dev.bind_buffers2(&[(plain_2, c)]), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_BUFFER2, BIND_BUFFER_INFO_02985);
    expect::mentions(&m, &["vkBindBufferMemory2(): pBindInfos[0].memory"]);
    assert_eq!(dev.bind_buffers2(&[(external_2, d)]), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER2);
    free_all(
        &dev,
        &[plain, plain_2, external, external_2],
        &[],
        &[a, b, c, d, a_from, b_from, c_from, d_from],
    );
}

#[test]
fn imported_memory_bound_to_an_image_without_its_type_is_02989() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let (plain, plain_2) = (dev.plain_image(SAMPLED), dev.plain_image(SAMPLED));
    let (external, external_2) = (
        dev.external_image(SAMPLED, OPAQUE_FD),
        dev.external_image(SAMPLED, OPAQUE_FD),
    );
    let (a, a_from) = imported(&dev, None);
    let (b, b_from) = imported(&dev, None);
    let (c, c_from) = imported(&dev, None);
    let (d, d_from) = imported(&dev, None);
    assert_eq!(dev.bind_image(plain, a), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_IMAGE, BIND_IMAGE_MEMORY_02989);
    expect::mentions(
        &m,
        &[&format!(
            "was imported as {OPAQUE_FD_NAME}, but VkImage 0x{:x} was created with \
             VkExternalMemoryImageCreateInfo::handleTypes = 0",
            plain.as_raw()
        )],
    );
    assert_eq!(dev.bind_image(external, b), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_IMAGE);
    assert_eq!(dev.bind_images2(&[(plain_2, c)]), vk::Result::SUCCESS);
    let m = expect::one(&inst, BIND_IMAGE2, BIND_IMAGE_INFO_02989);
    expect::mentions(&m, &["vkBindImageMemory2(): pBindInfos[0].memory"]);
    assert_eq!(dev.bind_images2(&[(external_2, d)]), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_IMAGE2);
    free_all(
        &dev,
        &[],
        &[plain, plain_2, external, external_2],
        &[a, b, c, d, a_from, b_from, c_from, d_from],
    );
}

#[test]
fn memory_imported_and_exported_gets_both_rules_in_one_call() {
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    let plain = dev.plain_buffer(USAGE);
    let external = dev.external_buffer(USAGE, OPAQUE_FD);
    let (both, from) = imported(&dev, Some(OPAQUE_FD));
    let (ok, ok_from) = imported(&dev, Some(OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    assert_eq!(dev.bind_buffer(plain, both), vk::Result::SUCCESS);
    expect::only(
        &inst,
        BIND_BUFFER,
        &[BIND_BUFFER_MEMORY_02726, BIND_BUFFER_MEMORY_02985],
    );
    assert_eq!(dev.bind_buffer(external, ok), vk::Result::SUCCESS);
    expect::silent(&inst, BIND_BUFFER);
    free_all(&dev, &[plain, external], &[], &[both, from, ok, ok_from]);
}

const OURS: &CStr = c"VK_LAYER_EXPORTCHECK_validation";
const KHRONOS: &CStr = c"VK_LAYER_KHRONOS_validation";

/// Whether our layer sent `m` (its text names the command right after the ID).
fn is_ours(m: &Captured) -> bool {
    m.text.contains(&format!("[ {} ] vk", m.id))
}

/// The name a Khronos layer of Vulkan 1.3.239 (Debian bookworm's) gives the import rules: their
/// IDs before the Android hardware buffer case was split off (`-02985` and `-02986` were `-02727`
/// for buffers, `-02989` and `-02990` `-02729` for images).
fn older_name(id: &str) -> Option<&'static str> {
    Some(match id {
        BIND_BUFFER_MEMORY_02985 => "VUID-vkBindBufferMemory-memory-02727",
        BIND_BUFFER_INFO_02985 => "VUID-VkBindBufferMemoryInfo-memory-02727",
        BIND_IMAGE_MEMORY_02989 => "VUID-vkBindImageMemory-memory-02729",
        BIND_IMAGE_INFO_02989 => "VUID-VkBindImageMemoryInfo-memory-02729",
        _ => return None,
    })
}

/// The IDs each layer reported since the last read, as `(ours, Khronos')`: errors and warnings
/// only, but the driver-contract ones (lavapipe's fds lack FD_CLOEXEC) and the loader's.
fn heard(inst: &Instance) -> (Vec<String>, Vec<String>) {
    let loud = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
        | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
    let (ours, khronos): (Vec<Captured>, Vec<Captured>) = inst
        .every_message()
        .into_iter()
        .filter(|m| m.severity.intersects(loud) && m.id != "Loader Message")
        .filter(|m| {
            !m.id
                .starts_with(exportcheck_tests::app::DRIVER_CONTRACT_PREFIX)
        })
        .partition(is_ours);
    let ids = |v: Vec<Captured>| v.into_iter().map(|m| m.id).collect::<Vec<_>>();
    (ids(ours), ids(khronos))
}

/// The Khronos layer as the truth: stacked under ours on lavapipe, each bad binding is
/// reported by both layers with the same ID, and each good one by neither.
#[test]
fn the_khronos_layer_reports_the_same_ids() {
    if !is_child() {
        env::khronos_layer_manifest();
        Child::new("stacked").env(LAYERS_FROM_APP, "1").run();
        return;
    }
    let inst = Instance::with(Options {
        driver: Driver::Lavapipe,
        every_message: true,
        layers: &[OURS, KHRONOS],
        ..Options::default()
    });
    let dev = inst.fd_device();
    let check = |what: &str, expected: &[&str]| {
        let (ours, khronos) = heard(&inst);
        assert_eq!(ours, expected, "ours, {what}");
        let same = khronos.len() == expected.len()
            && khronos
                .iter()
                .zip(expected)
                .all(|(k, e)| k == e || Some(k.as_str()) == older_name(e));
        assert!(same, "Khronos', {what}: {khronos:?}, expected {expected:?}");
    };
    let exported: Vec<_> = (0..4)
        .map(|_| dev.allocate(SIZE, Some(OPAQUE_FD)))
        .collect();
    let (plain_buffers, plain_images) = (
        [
            dev.plain_buffer(USAGE),
            dev.plain_buffer(USAGE),
            dev.plain_buffer(USAGE),
        ],
        [
            dev.plain_image(SAMPLED),
            dev.plain_image(SAMPLED),
            dev.plain_image(SAMPLED),
        ],
    );
    let (good_buffer, good_image) = (
        dev.external_buffer(USAGE, OPAQUE_FD),
        dev.external_image(SAMPLED, OPAQUE_FD),
    );
    let (import_a, from_a) = imported(&dev, None);
    let (import_b, from_b) = imported(&dev, None);
    let (import_c, from_c) = imported(&dev, None);
    check("creating and allocating", &[]);

    let _ = dev.bind_buffer(plain_buffers[0], exported[0]);
    check("exported memory, plain buffer", &[BIND_BUFFER_MEMORY_02726]);
    let _ = dev.bind_images2(&[(plain_images[0], exported[1])]);
    check("exported memory, plain image", &[BIND_IMAGE_INFO_02728]);
    let _ = dev.bind_buffers2(&[(plain_buffers[1], import_a)]);
    check("imported memory, plain buffer", &[BIND_BUFFER_INFO_02985]);
    let _ = dev.bind_image(plain_images[1], import_b);
    check("imported memory, plain image", &[BIND_IMAGE_MEMORY_02989]);

    let _ = dev.bind_buffer(good_buffer, exported[2]);
    let _ = dev.bind_image(good_image, exported[3]);
    check("exported memory, resources made for it", &[]);
    let good_buffer_2 = dev.external_buffer(USAGE, OPAQUE_FD);
    let _ = dev.bind_buffers2(&[(good_buffer_2, import_c)]);
    check("imported memory, a buffer made for it", &[]);

    let buffers: Vec<_> = plain_buffers
        .into_iter()
        .chain([good_buffer, good_buffer_2])
        .collect();
    let images: Vec<_> = plain_images.into_iter().chain([good_image]).collect();
    let mut memory = exported;
    memory.extend([import_a, import_b, import_c, from_a, from_b, from_c]);
    free_all(&dev, &buffers, &images, &memory);
}
