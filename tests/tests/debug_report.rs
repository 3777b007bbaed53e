//! Findings reach `VK_EXT_debug_report` callbacks too: an app with no debug-utils messenger, only
//! a debug-report callback (created with vkCreateDebugReportCallbackEXT), through the real loader.

// VK_EXT_debug_report is deprecated in favour of debug utils, but apps still use it and the layer
// supports it: testing it is the point of this file.
#![allow(deprecated)]

use ash::vk::{self, Handle};
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[derive(Debug, Clone)]
struct Report {
    flags: vk::DebugReportFlagsEXT,
    object_type: vk::DebugReportObjectTypeEXT,
    object: u64,
    code: i32,
    prefix: String,
    message: String,
}

static REPORTS: Mutex<Vec<Report>> = Mutex::new(Vec::new());
static SKIP: AtomicBool = AtomicBool::new(false);

unsafe extern "system" fn on_report(
    flags: vk::DebugReportFlagsEXT,
    object_type: vk::DebugReportObjectTypeEXT,
    object: u64,
    _location: usize,
    code: i32,
    prefix: *const c_char,
    message: *const c_char,
    _user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes NUL-terminated strings that live for the call.
    let text = |p: *const c_char| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    let report = Report {
        flags,
        object_type,
        object,
        code,
        prefix: text(prefix),
        message: text(message),
    };
    // Only the layer's reports: the loader reports through the same callback.
    if report.prefix == "exportcheck" {
        REPORTS.lock().unwrap().push(report);
    }
    if SKIP.load(Ordering::SeqCst) {
        vk::TRUE
    } else {
        vk::FALSE
    }
}

#[test]
fn findings_reach_debug_report_callbacks_which_can_skip_the_call() {
    exportcheck_tests::env::setup();
    // SAFETY: loads the system's Vulkan loader.
    let entry = unsafe { ash::Entry::load() }.expect("libvulkan.so.1");
    let extensions = [ash::ext::debug_report::NAME.as_ptr()];
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
    let create = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_extension_names(&extensions);
    // SAFETY: valid create info.
    let instance = unsafe { entry.create_instance(&create, None) }.expect("vkCreateInstance");
    let report = ash::ext::debug_report::Instance::new(&entry, &instance);
    let info = vk::DebugReportCallbackCreateInfoEXT::default()
        .flags(vk::DebugReportFlagsEXT::ERROR | vk::DebugReportFlagsEXT::WARNING)
        .pfn_callback(Some(on_report));
    // SAFETY: valid create info; the callback is a static function.
    let callback = unsafe { report.create_debug_report_callback(&info, None) }.expect("callback");

    // SAFETY: a live instance.
    let physical = unsafe { instance.enumerate_physical_devices() }.expect("devices")[0];
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let device_extensions = [ash::khr::external_memory_fd::NAME.as_ptr()];
    let create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&device_extensions);
    // SAFETY: valid create info.
    let device =
        unsafe { instance.create_device(physical, &create, None) }.expect("vkCreateDevice");
    let fd_fns = ash::khr::external_memory_fd::Device::new(&instance, &device);
    let alloc = vk::MemoryAllocateInfo::default()
        .allocation_size(4096)
        .memory_type_index(0);
    // SAFETY: valid allocate info; memory without any export structure.
    let memory = unsafe { device.allocate_memory(&alloc, None) }.expect("vkAllocateMemory");
    let export = |fd: &mut i32| {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        // SAFETY: valid pointers.
        unsafe { (fd_fns.fp().get_memory_fd_khr)(device.handle(), &info, fd) }
    };

    // 00671 does not block by itself: with the callback answering VK_FALSE the call goes down.
    let mut fd = -7;
    let result = export(&mut fd);
    assert_eq!(result, vk::Result::SUCCESS);
    let reports = std::mem::take(&mut *REPORTS.lock().unwrap());
    assert_eq!(reports.len(), 1, "{reports:#?}");
    let r = &reports[0];
    assert_eq!(r.flags, vk::DebugReportFlagsEXT::ERROR);
    assert_eq!(r.object_type, vk::DebugReportObjectTypeEXT::DEVICE);
    assert_eq!(r.object, device.handle().as_raw());
    assert!(
        r.message.starts_with(
            "Validation Error: [ VUID-VkMemoryGetFdInfoKHR-handleType-00671 ] vkGetMemoryFdKHR(): "
        ),
        "{r:#?}"
    );
    let code = r.code;
    if fd >= 0 {
        // SAFETY: an fd the driver returned, closed once.
        unsafe { libc::close(fd) };
    }

    // Answering VK_TRUE skips the call: no fd is written.
    SKIP.store(true, Ordering::SeqCst);
    let mut fd = -7;
    assert_eq!(export(&mut fd), vk::Result::ERROR_VALIDATION_FAILED_EXT);
    assert_eq!(fd, -7);
    let reports = std::mem::take(&mut *REPORTS.lock().unwrap());
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert_eq!(reports[0].code, code, "the message code is stable per ID");
    SKIP.store(false, Ordering::SeqCst);

    // After the callback is destroyed, nothing more reaches it.
    // SAFETY: our callback, destroyed once.
    unsafe { report.destroy_debug_report_callback(callback, None) };
    let mut fd = -7;
    let _ = export(&mut fd);
    if fd >= 0 {
        // SAFETY: as above.
        unsafe { libc::close(fd) };
    }
    assert!(REPORTS.lock().unwrap().is_empty());

    // SAFETY: children first, each destroyed once.
    unsafe {
        device.free_memory(memory, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
}
