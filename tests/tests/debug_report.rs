//! Findings reach `VK_EXT_debug_report` callbacks too: an app with no debug-utils messenger, only
//! a debug-report callback (created with vkCreateDebugReportCallbackEXT), through the real loader.
//! A callback chained to `VkInstanceCreateInfo` hears only what is said during vkCreateInstance
//! (and vkDestroyInstance), as the spec says.

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

/// What the layer reported to one callback of [`on_own_report`] (its `pUserData`).
type Sink = Mutex<Vec<Report>>;

/// A callback that records the layer's reports in the [`Sink`] its `pUserData` points to.
unsafe extern "system" fn on_own_report(
    flags: vk::DebugReportFlagsEXT,
    object_type: vk::DebugReportObjectTypeEXT,
    object: u64,
    _location: usize,
    code: i32,
    prefix: *const c_char,
    message: *const c_char,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes NUL-terminated strings that live for the call; `user` is the
    // test's Sink, which outlives the instance.
    let (text, sink) = (
        |p: *const c_char| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned(),
        unsafe { &*(user as *const Sink) },
    );
    let report = Report {
        flags,
        object_type,
        object,
        code,
        prefix: text(prefix),
        message: text(message),
    };
    // Only the layer's reports: the loader reports through the chained callback too.
    if report.prefix == "exportcheck" {
        sink.lock().unwrap().push(report);
    }
    vk::FALSE
}

#[test]
fn a_chained_debug_report_callback_hears_only_vk_create_instance() {
    exportcheck_tests::env::setup();
    let chained_sink = Sink::default();
    let created_sink = Sink::default();
    // SAFETY: loads the system's Vulkan loader.
    let entry = unsafe { ash::Entry::load() }.expect("libvulkan.so.1");
    let extensions = [ash::ext::debug_report::NAME.as_ptr()];
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
    let all = vk::DebugReportFlagsEXT::ERROR
        | vk::DebugReportFlagsEXT::WARNING
        | vk::DebugReportFlagsEXT::INFORMATION;
    let mut chained = vk::DebugReportCallbackCreateInfoEXT::default()
        .flags(all)
        .pfn_callback(Some(on_own_report));
    chained.p_user_data = &chained_sink as *const Sink as *mut c_void;
    // `report_flags` with `info`: the layer announces its settings during vkCreateInstance.
    let value = c"error,warn,info".as_ptr();
    let setting = [vk::LayerSettingEXT {
        p_layer_name: c"VK_LAYER_EXPORTCHECK_validation".as_ptr(),
        p_setting_name: c"report_flags".as_ptr(),
        ty: vk::LayerSettingTypeEXT::STRING,
        value_count: 1,
        p_values: &value as *const *const c_char as *const c_void,
        ..Default::default()
    }];
    let mut settings = vk::LayerSettingsCreateInfoEXT::default().settings(&setting);
    let create = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_extension_names(&extensions)
        .push_next(&mut chained)
        .push_next(&mut settings);
    // SAFETY: valid create info; the sinks outlive the instance.
    let instance = unsafe { entry.create_instance(&create, None) }.expect("vkCreateInstance");
    let announced = std::mem::take(&mut *chained_sink.lock().unwrap());
    assert_eq!(announced.len(), 1, "{announced:#?}");
    assert_eq!(announced[0].flags, vk::DebugReportFlagsEXT::INFORMATION);
    assert!(
        announced[0]
            .message
            .starts_with("active settings: report_flags = error,warn,info; "),
        "{announced:#?}"
    );

    let report = ash::ext::debug_report::Instance::new(&entry, &instance);
    let mut info = vk::DebugReportCallbackCreateInfoEXT::default()
        .flags(all)
        .pfn_callback(Some(on_own_report));
    info.p_user_data = &created_sink as *const Sink as *mut c_void;
    // SAFETY: valid create info; the sink outlives the callback.
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
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(memory)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let mut fd = -7;
    // SAFETY: valid pointers. 00671: reported, not blocked.
    let result = unsafe { (fd_fns.fp().get_memory_fd_khr)(device.handle(), &info, &mut fd) };
    assert_eq!(result, vk::Result::SUCCESS);
    if fd >= 0 {
        // SAFETY: an fd the driver returned, closed once.
        unsafe { libc::close(fd) };
    }
    // The created callback hears the finding once; the chained one, inactive now, not at all.
    let reports = std::mem::take(&mut *created_sink.lock().unwrap());
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert_eq!(reports[0].flags, vk::DebugReportFlagsEXT::ERROR);
    assert!(
        reports[0]
            .message
            .starts_with("Validation Error: [ VUID-VkMemoryGetFdInfoKHR-handleType-00671 ]"),
        "{reports:#?}"
    );
    let heard = std::mem::take(&mut *chained_sink.lock().unwrap());
    assert!(heard.is_empty(), "{heard:#?}");

    // SAFETY: children first, each destroyed once.
    unsafe {
        device.free_memory(memory, None);
        device.destroy_device(None);
        report.destroy_debug_report_callback(callback, None);
        instance.destroy_instance(None);
    }
}
