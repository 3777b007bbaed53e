//! The Khronos validation layer and ours stacked, in both orders, over lavapipe, over SwiftShader
//! and over the test driver: a valid app that exports memory every way its driver offers (and asks the import-side
//! queries, imports host memory where the driver has VK_EXT_external_memory_host, and creates
//! semaphores exportable as the driver reports) hears
//! nothing from either layer. Ours must not make calls of its own that the Khronos layer below it finds invalid (it
//! queries the driver at vkCreateDevice), nor report anything about the app's valid calls.
//!
//! The app enables both layers itself (`ppEnabledLayerNames`, the first nearest the app): the
//! loader here (1.3.239) builds the same chain for `VK_INSTANCE_LAYERS=A:B` and `B:A`. The driver
//! is process-wide, so each test runs its scenario in a child process ([`LAYERS_FROM_APP`]). A
//! positive control at the end of each scenario proves both layers are live, in the stated
//! order, and reach the app's messenger.

use ash::vk;
use exportcheck_tests::app::{Captured, DRIVER_CONTRACT_PREFIX, MTLBUFFER};
use exportcheck_tests::child::{is_child, Child};
use exportcheck_tests::env::{self, Driver, LAYERS_FROM_APP};
use exportcheck_tests::ids::{DRIVER_FD_NOT_CLOEXEC, EXPORT_HANDLE_TYPES_PARAM};
use exportcheck_tests::{fds, Device, Instance, Options, DMA_BUF, OPAQUE_FD, SIZE};
use std::ffi::CStr;

const OURS: &CStr = c"VK_LAYER_EXPORTCHECK_validation";
const KHRONOS: &CStr = c"VK_LAYER_KHRONOS_validation";
const NV_OPAQUE_WIN32: vk::ExternalMemoryHandleTypeFlagsNV =
    vk::ExternalMemoryHandleTypeFlagsNV::OPAQUE_WIN32;
const METAL: &CStr = c"VK_EXT_external_memory_metal";

/// The export extensions (and what they need) the app enables when the driver has them.
const WANTED: [&CStr; 9] = [
    ash::khr::external_memory::NAME,
    ash::khr::external_memory_fd::NAME,
    ash::ext::external_memory_dma_buf::NAME,
    ash::nv::external_memory_rdma::NAME,
    ash::nv::external_memory::NAME,
    ash::nv::external_memory_win32::NAME,
    METAL,
    ash::khr::dedicated_allocation::NAME,
    ash::ext::external_memory_host::NAME,
];

#[test]
fn ours_above_khronos_on_lavapipe() {
    stacked(&[OURS, KHRONOS], Driver::Lavapipe);
}

#[test]
fn khronos_above_ours_on_lavapipe() {
    stacked(&[KHRONOS, OURS], Driver::Lavapipe);
}

#[test]
fn ours_above_khronos_on_swiftshader() {
    stacked(&[OURS, KHRONOS], Driver::SwiftShader);
}

#[test]
fn khronos_above_ours_on_swiftshader() {
    stacked(&[KHRONOS, OURS], Driver::SwiftShader);
}

#[test]
fn ours_above_khronos_on_the_test_driver() {
    stacked(&[OURS, KHRONOS], Driver::TestDriver);
}

#[test]
fn khronos_above_ours_on_the_test_driver() {
    stacked(&[KHRONOS, OURS], Driver::TestDriver);
}

/// In the parent: runs this test again in a child with `layers` (nearest the app first). In the
/// child: the valid app, then the positive control.
fn stacked(layers: &'static [&'static CStr], driver: Driver) {
    if !is_child() {
        env::khronos_layer_manifest();
        let mut child = Child::new("stacked").env(LAYERS_FROM_APP, "1");
        if driver == Driver::TestDriver {
            // Configured through the environment: the structure the harness would chain to
            // VkInstanceCreateInfo is unknown to the Khronos layer (VUID-...-pNext-pNext).
            child = child.env(TEST_DRIVER_CONFIG, test_driver_config());
        }
        child.run();
        return;
    }
    if driver == Driver::TestDriver && !khronos_knows_metal() {
        eprintln!(
            "note: the Khronos layer here is {}, which does not know VK_EXT_external_memory_metal: \
             the Metal export is left out of this run",
            version(khronos_spec_version())
        );
    }
    let instance_extensions: &'static [&'static CStr] = match driver {
        // VK_NV_external_memory requires it.
        Driver::TestDriver => &[ash::nv::external_memory_capabilities::NAME],
        Driver::Lavapipe | Driver::SwiftShader | Driver::Real => &[],
        Driver::LavapipeAndTestDriver => unreachable!("each driver is stacked alone"),
    };
    let inst = Instance::with(Options {
        driver,
        messenger_in_create_info: true,
        every_message: true,
        instance_extensions,
        layers,
        ..Options::default()
    });
    let has = driver_extensions(&inst);
    let enabled: Vec<&CStr> = WANTED.into_iter().filter(|e| has(e)).collect();
    let rdma = has(ash::nv::external_memory_rdma::NAME);
    let dev = inst.device_with(&enabled, rdma);

    export_every_way(&inst, &dev, &has);
    bind_exportable_memory(&inst, &dev);
    bind_exportable_image_memory(&inst, &dev);
    create_exportable_semaphores(&inst, &dev);

    let heard = warnings_and_errors(inst.every_message());
    let (about_driver, about_app): (Vec<_>, Vec<_>) = heard
        .into_iter()
        .partition(|m| m.id.starts_with(DRIVER_CONTRACT_PREFIX));
    assert!(
        about_app.is_empty(),
        "a valid app got messages ({layers:?}): {about_app:#?}"
    );
    // Lavapipe's fds lack FD_CLOEXEC: our one driver-contract warning (about the driver, not the
    // app), asserted exactly; SwiftShader and the test driver are well-behaved.
    let driver_ids: Vec<&str> = about_driver.iter().map(|m| m.id.as_str()).collect();
    let expected_driver_ids: &[&str] = match driver {
        Driver::Lavapipe => &[DRIVER_FD_NOT_CLOEXEC],
        Driver::TestDriver | Driver::SwiftShader | Driver::Real => &[],
        Driver::LavapipeAndTestDriver => unreachable!("each driver is stacked alone"),
    };
    assert_eq!(driver_ids, expected_driver_ids, "{about_driver:#?}");

    positive_control(&inst, &dev, layers);
    drop(dev);
}

/// Binary semaphores created exportable as each fd type the driver reports exportable (asked
/// with vkGetPhysicalDeviceExternalSemaphoreProperties): the layer asks the driver the same at
/// vkCreateSemaphore, a call of its own the layer below must find valid.
fn create_exportable_semaphores(inst: &Instance, dev: &Device) {
    type Types = vk::ExternalSemaphoreHandleTypeFlags;
    for t in [Types::OPAQUE_FD, Types::SYNC_FD] {
        let info = vk::PhysicalDeviceExternalSemaphoreInfo::default().handle_type(t);
        let mut out = vk::ExternalSemaphoreProperties::default();
        // SAFETY: a live physical device and structures.
        unsafe {
            inst.instance
                .get_physical_device_external_semaphore_properties(
                    inst.physical_device,
                    &info,
                    &mut out,
                )
        };
        if !out
            .external_semaphore_features
            .contains(vk::ExternalSemaphoreFeatureFlags::EXPORTABLE)
        {
            continue;
        }
        let mut export = vk::ExportSemaphoreCreateInfo::default().handle_types(t);
        let create = vk::SemaphoreCreateInfo::default().push_next(&mut export);
        // SAFETY: a live device and a valid create info.
        let s = unsafe { dev.device.create_semaphore(&create, None) }.expect("vkCreateSemaphore");
        // SAFETY: a semaphore of the device that no queue uses.
        unsafe { dev.device.destroy_semaphore(s, None) };
    }
}

/// The environment variable the test driver reads its configuration from.
const TEST_DRIVER_CONFIG: &str = "EXPORTCHECK_TEST_ICD_CONFIG";

/// Whether the Khronos layer knows VK_EXT_external_memory_metal (Vulkan 1.4).
fn khronos_knows_metal() -> bool {
    khronos_spec_version() >= vk::make_api_version(0, 1, 4, 0)
}

/// The test driver's device extensions for this run: its defaults, except two.
/// - The Khronos layer of Debian bookworm (1.3.239) predates VK_EXT_external_memory_metal: it
///   calls the Metal handle-type bits unknown values, in the app's valid calls and in the
///   queries of a layer above it. Under such a layer the driver does not advertise the
///   extension, so only the Metal part of the scenario is left out (the child says so).
/// - A Linux build of the Khronos layer does not support VK_NV_external_memory_win32 (it warns
///   that the extension "is not supported by this layer", and gives no pointer for
///   vkGetMemoryWin32HandleNV): the driver does not advertise it. VK_NV_external_memory stays,
///   so the app still allocates with VkExportMemoryAllocateInfoNV.
///
/// For the same reason the Win32, Fuchsia and Android extensions (VK_KHR_external_memory_win32,
/// VK_FUCHSIA_external_memory, VK_ANDROID_external_memory_android_hardware_buffer) are not in the
/// scenario: a Linux build of the Khronos layer compiles their commands out (exports and the
/// handle-property queries alike), so it does not know them.
fn test_driver_config() -> String {
    let mut extensions = vec![
        "VK_KHR_external_memory",
        "VK_KHR_external_memory_fd",
        "VK_EXT_external_memory_dma_buf",
        "VK_NV_external_memory_rdma",
        "VK_NV_external_memory",
        "VK_KHR_dedicated_allocation",
    ];
    if khronos_knows_metal() {
        extensions.push("VK_EXT_external_memory_metal");
    }
    let quoted: Vec<String> = extensions.iter().map(|e| format!("\"{e}\"")).collect();
    format!(r#"{{"device_extensions": [{}]}}"#, quoted.join(", "))
}

/// The Khronos layer's `specVersion`, as the loader lists it.
fn khronos_spec_version() -> u32 {
    // SAFETY: loads libvulkan.so.1, the system's Khronos loader.
    let entry = unsafe { ash::Entry::load() }.expect("load libvulkan.so.1");
    // SAFETY: a global command with no arguments of ours.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }.expect("layers");
    layers
        .iter()
        .find(|l| l.layer_name_as_c_str().ok() == Some(c"VK_LAYER_KHRONOS_validation"))
        .expect("the loader lists VK_LAYER_KHRONOS_validation")
        .spec_version
}

fn version(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

/// Whether the driver advertises a device extension.
fn driver_extensions(inst: &Instance) -> impl Fn(&CStr) -> bool {
    // SAFETY: the instance's own physical device.
    let props = unsafe {
        inst.instance
            .enumerate_device_extension_properties(inst.physical_device)
    }
    .expect("vkEnumerateDeviceExtensionProperties");
    let names: Vec<Vec<u8>> = props
        .iter()
        .filter_map(|p| p.extension_name_as_c_str().ok())
        .map(|n| n.to_bytes().to_vec())
        .collect();
    move |name: &CStr| names.iter().any(|n| n == name.to_bytes())
}

/// Allocates, exports and frees memory with every export the device has, validly.
fn export_every_way(inst: &Instance, dev: &Device, has: &dyn Fn(&CStr) -> bool) {
    let mut fd_types = vec![OPAQUE_FD];
    if has(ash::ext::external_memory_dma_buf::NAME) {
        fd_types.push(DMA_BUF);
    }
    for handle_type in fd_types {
        assert!(exportable(inst, handle_type), "{handle_type:?}");
        let memory = dev.allocate(SIZE, Some(handle_type));
        let (r, fd) = dev.get_fd(memory, handle_type);
        assert_eq!(r, vk::Result::SUCCESS, "{handle_type:?}");
        if handle_type == DMA_BUF {
            // The import side's query (OPAQUE_FD has none).
            let mut properties = vk::MemoryFdPropertiesKHR::default();
            // SAFETY: an open dma-buf fd and a valid output structure.
            let r = unsafe {
                (dev.fd.fp().get_memory_fd_properties_khr)(
                    dev.handle(),
                    DMA_BUF,
                    fd,
                    &mut properties,
                )
            };
            assert_eq!(r, vk::Result::SUCCESS);
        }
        fds::close_if_open(fd);
        dev.free(memory);
    }
    if has(ash::nv::external_memory_rdma::NAME) {
        let rdma = vk::ExternalMemoryHandleTypeFlags::RDMA_ADDRESS_NV;
        let memory = dev.allocate_exporting(SIZE, rdma_capable_type(inst), Some(rdma), None);
        let (r, address) = dev.get_remote_address(memory, rdma);
        assert_eq!(r, vk::Result::SUCCESS);
        assert_ne!(address, 0);
        dev.free(memory);
    }
    if has(ash::nv::external_memory::NAME) {
        let memory = dev.allocate_exporting(SIZE, 0, None, Some(NV_OPAQUE_WIN32));
        if has(ash::nv::external_memory_win32::NAME) {
            let (r, handle) = dev.get_win32_handle(memory, NV_OPAQUE_WIN32);
            assert_eq!(r, vk::Result::SUCCESS);
            assert_ne!(handle, 0);
        }
        dev.free(memory);
    }
    if has(ash::ext::external_memory_host::NAME) {
        import_host_pointer(inst, dev);
    }
    if has(METAL) {
        let memory = dev.allocate(SIZE, Some(MTLBUFFER));
        let (r, handle) = dev.get_metal_handle(memory, MTLBUFFER);
        assert_eq!(r, vk::Result::SUCCESS);
        assert_ne!(handle, 0);
        dev.free(memory);
    }
}

/// Queries the memory types of aligned host memory and imports it with the first of them (the
/// layer learned minImportedHostPointerAlignment at vkCreateDevice with a call of its own).
fn import_host_pointer(inst: &Instance, dev: &Device) {
    let host = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
    let mut limits = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut properties2 = vk::PhysicalDeviceProperties2::default().push_next(&mut limits);
    // SAFETY: the instance's own physical device and valid output structures.
    unsafe {
        inst.instance
            .get_physical_device_properties2(inst.physical_device, &mut properties2)
    };
    let alignment = limits.min_imported_host_pointer_alignment as usize;
    let mut buffer = vec![0u8; 3 * alignment];
    let offset = buffer.as_ptr().align_offset(alignment);
    let pointer = buffer[offset..].as_mut_ptr().cast::<std::ffi::c_void>();
    let ext = ash::ext::external_memory_host::Device::new(&inst.instance, &dev.device);
    let mut answer = vk::MemoryHostPointerPropertiesEXT::default();
    // SAFETY: live, aligned host memory and a valid output structure.
    let r = unsafe {
        (ext.fp().get_memory_host_pointer_properties_ext)(dev.handle(), host, pointer, &mut answer)
    };
    assert_eq!(r, vk::Result::SUCCESS);
    let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
        .handle_type(host)
        .host_pointer(pointer);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(alignment as u64)
        .memory_type_index(answer.memory_type_bits.trailing_zeros())
        .push_next(&mut import);
    let memory = dev.allocate_with(&info).expect("a host-pointer import");
    dev.free(memory);
    drop(buffer);
}

/// Whether the driver can export `handle_type` for transfer buffers (what the app checks before
/// asking for it).
fn exportable(inst: &Instance, handle_type: vk::ExternalMemoryHandleTypeFlags) -> bool {
    let info = vk::PhysicalDeviceExternalBufferInfo::default()
        .usage(vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST)
        .handle_type(handle_type);
    let mut properties = vk::ExternalBufferProperties::default();
    // SAFETY: the instance's own physical device; input and output structures of ours.
    unsafe {
        inst.instance
            .get_physical_device_external_buffer_properties(
                inst.physical_device,
                &info,
                &mut properties,
            )
    };
    let p = properties.external_memory_properties;
    p.external_memory_features
        .contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE)
        && !p
            .external_memory_features
            .contains(vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY)
}

/// The first memory type with RDMA_CAPABLE_NV.
fn rdma_capable_type(inst: &Instance) -> u32 {
    // SAFETY: the instance's own physical device.
    let props = unsafe {
        inst.instance
            .get_physical_device_memory_properties(inst.physical_device)
    };
    props.memory_types[..props.memory_type_count as usize]
        .iter()
        .position(|t| {
            t.property_flags
                .contains(vk::MemoryPropertyFlags::RDMA_CAPABLE_NV)
        })
        .expect("an RDMA-capable memory type") as u32
}

/// A transfer buffer whose memory may be exported as an opaque fd, bound to exportable memory:
/// once to memory of its own, once to a dedicated allocation (which is exported too).
fn bind_exportable_memory(inst: &Instance, dev: &Device) {
    assert!(exportable(inst, OPAQUE_FD));
    for dedicated in [false, true] {
        let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(OPAQUE_FD);
        let info = vk::BufferCreateInfo::default()
            .size(SIZE)
            .usage(vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .push_next(&mut external);
        // SAFETY: a valid create info on a live device.
        let buffer = unsafe { dev.device.create_buffer(&info, None) }.expect("vkCreateBuffer");
        // SAFETY: a live buffer of the device.
        let needs = unsafe { dev.device.get_buffer_memory_requirements(buffer) };
        let memory_type = needs.memory_type_bits.trailing_zeros();
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
        let mut dedicate = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
        let mut allocate = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(memory_type)
            .push_next(&mut export);
        if dedicated {
            allocate = allocate.push_next(&mut dedicate);
        }
        let memory = dev.allocate_with(&allocate).expect("vkAllocateMemory");
        // SAFETY: a live buffer and memory of the device, never bound before.
        unsafe { dev.device.bind_buffer_memory(buffer, memory, 0) }.expect("vkBindBufferMemory");
        if dedicated {
            let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
            assert_eq!(r, vk::Result::SUCCESS);
            fds::close_if_open(fd);
        }
        // SAFETY: the buffer is no longer used; destroyed before its memory is freed.
        unsafe { dev.device.destroy_buffer(buffer, None) };
        dev.free(memory);
    }
}

/// An image whose memory may be exported as an opaque fd, bound to exportable memory of its own
/// and to a dedicated allocation: our layer asks vkGetPhysicalDeviceImageFormatProperties2 about
/// it, and that call must be valid too.
fn bind_exportable_image_memory(inst: &Instance, dev: &Device) {
    let usage = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST;
    let mut external_info =
        vk::PhysicalDeviceExternalImageFormatInfo::default().handle_type(OPAQUE_FD);
    let format_info = vk::PhysicalDeviceImageFormatInfo2::default()
        .format(vk::Format::R8G8B8A8_UNORM)
        .ty(vk::ImageType::TYPE_2D)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .push_next(&mut external_info);
    let mut external = vk::ExternalImageFormatProperties::default();
    let mut properties = vk::ImageFormatProperties2::default().push_next(&mut external);
    // SAFETY: the instance's own physical device; input and output chains of ours.
    let supported = unsafe {
        inst.instance.get_physical_device_image_format_properties2(
            inst.physical_device,
            &format_info,
            &mut properties,
        )
    }
    .is_ok();
    let features = external.external_memory_properties.external_memory_features;
    assert!(
        supported && features.contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE),
        "the driver exports OPAQUE_FD for this image"
    );
    for dedicated in [
        features.contains(vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY),
        true,
    ] {
        let image = dev.external_image(usage, OPAQUE_FD);
        // SAFETY: a live image of the device.
        let needs = unsafe { dev.device.get_image_memory_requirements(image) };
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
        let mut dedicate = vk::MemoryDedicatedAllocateInfo::default().image(image);
        let mut allocate = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(needs.memory_type_bits.trailing_zeros())
            .push_next(&mut export);
        if dedicated {
            allocate = allocate.push_next(&mut dedicate);
        }
        let memory = dev.allocate_with(&allocate).expect("vkAllocateMemory");
        // SAFETY: a live image and memory of the device, never bound before.
        unsafe { dev.device.bind_image_memory(image, memory, 0) }.expect("vkBindImageMemory");
        dev.destroy_image(image);
        dev.free(memory);
    }
}

/// The `pMessageIdName` of the loader's own messages (about its environment, e.g. a manifest it
/// skipped): not from either layer.
const LOADER_MESSAGE: &str = "Loader Message";

/// The warnings and errors among `messages` from any layer (all but the loader's).
fn warnings_and_errors(messages: Vec<Captured>) -> Vec<Captured> {
    let loud = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
        | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
    messages
        .into_iter()
        .filter(|m| m.severity.intersects(loud) && m.id != LOADER_MESSAGE)
        .collect()
}

/// Whether our layer sent `m` (its text names the command right after the ID; the Khronos
/// layer's starts with the objects).
fn is_ours(m: &Captured) -> bool {
    m.text.contains(&format!("[ {} ] vk", m.id))
}

/// An invalid allocation (an undefined handle-type bit) that both layers report: each layer's
/// message reaches the app, the nearer layer's first.
fn positive_control(inst: &Instance, dev: &Device, layers: &[&CStr]) {
    let undefined = vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 31);
    let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(undefined);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut export);
    // Lavapipe and the test driver allocate; SwiftShader refuses the bit
    // (VK_ERROR_INVALID_EXTERNAL_HANDLE): both are the driver's right after an invalid call.
    if let Ok(memory) = dev.allocate_with(&info) {
        dev.free(memory);
    }
    let heard = warnings_and_errors(inst.every_message());
    assert!(
        heard.iter().all(|m| m.id == EXPORT_HANDLE_TYPES_PARAM),
        "{heard:#?}"
    );
    let senders: Vec<&CStr> = heard
        .iter()
        .map(|m| if is_ours(m) { OURS } else { KHRONOS })
        .collect();
    assert_eq!(senders, layers, "{heard:#?}");
}
