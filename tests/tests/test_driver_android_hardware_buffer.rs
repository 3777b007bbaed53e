//! vkGetMemoryAndroidHardwareBufferANDROID end to end: the real loader, the layer, and the
//! project's test driver (`tests/icd`), which exposes
//! VK_ANDROID_external_memory_android_hardware_buffer on Linux with made-up `AHardwareBuffer*`
//! values: valid exports and 01882 (the memory was not exported as an Android hardware buffer).
//! Each bad call yields exactly the IDs of the rules it breaks, is reported and goes down (the
//! driver's call counter moves once). The structural cases (NULL pointers, sType, pNext, bad
//! memory, unknown devices, a device without the extension) are rows of
//! tests/tests/structural.rs.

use ash::vk::{self, Handle};
use exportcheck_tests::expect::{device_name, memory_name};
use exportcheck_tests::ids::*;
use exportcheck_tests::layer_stats;
use exportcheck_tests::test_driver::{exclusive, Calls};
use exportcheck_tests::{expect, Device, Instance, OPAQUE_FD, SIZE};
use std::ffi::{c_void, CStr};

const CMD: &str = GET_ANDROID_HARDWARE_BUFFER;
const COUNTED: &CStr = c"vkGetMemoryAndroidHardwareBufferANDROID";

type Types = vk::ExternalMemoryHandleTypeFlags;
const AHB: Types = Types::ANDROID_HARDWARE_BUFFER_ANDROID;
const OPAQUE_FD_NAME: &str = "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT";
/// What `*pBuffer` is pre-filled with, to see whether anything was written.
const SENTINEL: usize = exportcheck_tests::POINTER_SENTINEL;

/// A device with VK_ANDROID_external_memory_android_hardware_buffer and VK_KHR_external_memory.
fn android_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
    ])
}

/// Memory of type 0, exported with `export` if given.
fn memory(dev: &Device, export: Option<Types>) -> vk::DeviceMemory {
    dev.allocate_exporting(SIZE, 0, export, None)
}

/// `vkGetMemoryAndroidHardwareBufferANDROID` of `memory`; `*pBuffer` is pre-filled with
/// [`SENTINEL`].
fn call(dev: &Device, memory: vk::DeviceMemory) -> (vk::Result, usize) {
    let get = dev
        .android_hardware_buffer
        .expect("vkGetMemoryAndroidHardwareBufferANDROID is enabled");
    let info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(memory);
    let mut buffer = SENTINEL as *mut c_void;
    // SAFETY: a live info structure and output pointer.
    let result = unsafe { get(dev.handle(), &info, &mut buffer) };
    (result, buffer as usize)
}

#[test]
fn memory_exported_as_a_hardware_buffer_exports_one_silently() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let mem = memory(&dev, Some(AHB));
    let both = memory(&dev, Some(AHB | OPAQUE_FD));
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let mut buffers = Vec::new();
    for m in [mem, both, mem] {
        let (r, buffer) = call(&dev, m);
        assert_eq!(r, vk::Result::SUCCESS);
        calls.assert(1, "a valid call goes down once");
        assert!(buffer != 0 && buffer != SENTINEL, "{buffer:#x}");
        buffers.push(buffer);
        expect::silent(&inst, CMD);
    }
    assert_ne!(buffers[0], buffers[1], "distinct per allocation");
    assert_eq!(buffers[0], buffers[2], "stable");
    dev.free(mem);
    dev.free(both);
    expect::silent(&inst, FREE);
    drop(dev);
}

#[test]
fn memory_not_exported_as_a_hardware_buffer_is_01882_with_either_cause() {
    let inst = exclusive(None);
    let dev = android_device(&inst);
    let fd_only = memory(&dev, Some(OPAQUE_FD));
    let plain = memory(&dev, None);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, fd_only);
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, AHB_HANDLE_TYPES_01882);
    expect::mentions(
        &m,
        &[
            &format!(
                "pInfo->memory is {} (allocated on {}",
                memory_name(fd_only),
                device_name(&dev)
            ),
            &format!(
                "and when it was allocated VkExportMemoryAllocateInfo::handleTypes \
                 ({OPAQUE_FD_NAME}) did not include \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID."
            ),
        ],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, fd_only.as_raw());
    expect::object(&m, vk::ObjectType::DEVICE, dev.handle().as_raw());

    let (r, _) = call(&dev, plain);
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, AHB_HANDLE_TYPES_01882);
    expect::mentions(
        &m,
        &["its VkMemoryAllocateInfo had no VkExportMemoryAllocateInfo in the pNext chain"],
    );
    dev.free(fd_only);
    dev.free(plain);
    drop(dev);
}

/// A device that can make dedicated allocations too.
fn dedicated_device(inst: &Instance) -> Device {
    inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
    ])
}

/// An image made for Android hardware buffer memory, and memory exported as one and dedicated
/// to it (not bound yet; allocationSize 0: the image gives the size, VUID-VkMemoryAllocateInfo-pNext-01874).
fn dedicated_pair(dev: &Device) -> (vk::Image, vk::DeviceMemory) {
    let image = dev.external_image(vk::ImageUsageFlags::SAMPLED, AHB);
    let memory = dev
        .allocate_dedicated(0, AHB, image, vk::Buffer::null())
        .expect("dedicated allocation");
    (image, memory)
}

#[test]
fn a_dedicated_image_not_yet_bound_to_the_memory_is_01883() {
    let inst = exclusive(None);
    let dev = dedicated_device(&inst);
    let waiting = layer_stats::tracked_counts().history_entries;
    let (image, mem) = dedicated_pair(&dev);
    expect::silent(&inst, ALLOCATE);
    assert_eq!(
        layer_stats::tracked_counts().history_entries,
        waiting + 1,
        "the memory waits for its image"
    );
    let mut calls = Calls::of(COUNTED);
    let (r, buffer) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS, "the test driver does not validate");
    assert_ne!(buffer, SENTINEL);
    calls.assert(1, "reported, then passed down");
    let m = expect::one(&inst, CMD, AHB_PNEXT_01883);
    expect::mentions(
        &m,
        &[&format!(
            "pInfo->memory is {} (allocated on {}",
            memory_name(mem),
            device_name(&dev)
        )],
    );
    expect::mentions(
        &m,
        &[&format!(
            "allocated with a VkMemoryDedicatedAllocateInfo whose image is VkImage {:#x}, and \
             that image is not bound to it yet",
            image.as_raw()
        )],
    );
    expect::object(&m, vk::ObjectType::DEVICE_MEMORY, mem.as_raw());
    expect::object(&m, vk::ObjectType::IMAGE, image.as_raw());

    // Another pair, exported as OPAQUE_FD too: 01883 alone.
    let fd_image = dev.external_image(vk::ImageUsageFlags::SAMPLED, AHB | OPAQUE_FD);
    let both = dev
        .allocate_dedicated(0, AHB | OPAQUE_FD, fd_image, vk::Buffer::null())
        .expect("dedicated allocation");
    let (r, _) = call(&dev, both);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, AHB_PNEXT_01883);

    // Bound (vkBindImageMemory): silent from then on.
    assert_eq!(dev.bind_image(image, mem), vk::Result::SUCCESS);
    expect::silent(&inst, "vkBindImageMemory");
    let (r, _) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    // Bound with vkBindImageMemory2: silent too.
    assert_eq!(dev.bind_images2(&[(fd_image, both)]), vk::Result::SUCCESS);
    let (r, _) = call(&dev, both);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    assert_eq!(layer_stats::tracked_counts().history_entries, waiting);
    dev.free(mem);
    dev.free(both);
    dev.destroy_image(image);
    dev.destroy_image(fd_image);
    expect::silent_for(&inst, &[FREE, CMD]);
    drop(dev);
}

#[test]
fn an_image_dedicated_with_the_nv_structure_is_no_01883() {
    // The rule names VkMemoryDedicatedAllocateInfo only: memory dedicated to an image with
    // VkDedicatedAllocationMemoryAllocateInfoNV may be exported before the image is bound.
    let inst = exclusive(None);
    // The NV structure extends VkMemoryAllocateInfo with its extension only (pNext-pNext).
    let dev = inst.device(&[
        ash::android::external_memory_android_hardware_buffer::NAME,
        ash::khr::external_memory::NAME,
        ash::khr::dedicated_allocation::NAME,
        ash::khr::get_memory_requirements2::NAME,
        ash::nv::dedicated_allocation::NAME,
    ]);
    let image = dev.external_image(vk::ImageUsageFlags::SAMPLED, AHB);
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(AHB);
    let mut nv = vk::DedicatedAllocationMemoryAllocateInfoNV::default().image(image);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export)
        .push_next(&mut nv);
    let mem = dev.allocate_with(&info).expect("dedicated allocation");
    expect::silent(&inst, ALLOCATE);
    let mut calls = Calls::of(COUNTED);
    let (r, _) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS);
    calls.assert(1, "passed down");
    expect::silent(&inst, CMD);
    // The same image dedicated with VkMemoryDedicatedAllocateInfo: 01883 (the negative).
    let dedicated = dev
        .allocate_dedicated(0, AHB, image, vk::Buffer::null())
        .expect("dedicated allocation");
    let (r, _) = call(&dev, dedicated);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, AHB_PNEXT_01883);
    dev.free(mem);
    dev.free(dedicated);
    dev.destroy_image(image);
    drop(dev);
}

#[test]
fn a_bound_to_another_memory_image_is_not_bound_to_this_one() {
    let inst = exclusive(None);
    let dev = dedicated_device(&inst);
    let (image, mem) = dedicated_pair(&dev);
    let other = memory(&dev, Some(AHB));
    // An invalid bind for a dedicated image, but it goes down: the image is bound to `other`.
    let _ = dev.bind_image(image, other);
    let _ = inst.messages();
    let (r, _) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::one(&inst, CMD, AHB_PNEXT_01883);
    dev.free(mem);
    dev.free(other);
    dev.destroy_image(image);
    drop(dev);
}

#[test]
fn what_the_layer_cannot_be_sure_of_is_not_reported() {
    let inst = exclusive(None);
    let dev = dedicated_device(&inst);
    // The dedicated image was destroyed: forgotten.
    let (image, mem) = dedicated_pair(&dev);
    dev.destroy_image(image);
    let (r, _) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    dev.free(mem);
    // An image made without VkExternalMemoryImageCreateInfo is not tracked: not judged.
    let untracked = dev.external_image(vk::ImageUsageFlags::SAMPLED, Types::empty());
    let mem = dev
        .allocate_dedicated(0, AHB, untracked, vk::Buffer::null())
        .expect("dedicated allocation");
    let _ = inst.messages();
    let (r, _) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    dev.free(mem);
    dev.destroy_image(untracked);
    // A vkBindImageMemory2 the layer cannot read in full (a NULL array with a count) went down:
    // every pending dedicated image of the device is forgotten.
    let (image, mem) = dedicated_pair(&dev);
    // SAFETY: a NULL array with a count is the point; the test driver reads nothing.
    let _ = unsafe { (dev.device.fp_v1_1().bind_image_memory2)(dev.handle(), 1, std::ptr::null()) };
    let _ = inst.messages();
    let (r, _) = call(&dev, mem);
    assert_eq!(r, vk::Result::SUCCESS);
    expect::silent(&inst, CMD);
    dev.free(mem);
    dev.destroy_image(image);
    drop(dev);
}
