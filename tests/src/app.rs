//! A small Vulkan app for the tests: an instance with a debug-utils messenger that records every
//! validation message, and devices on lavapipe with helpers for allocating and exporting memory.

use ash::vk::{self, Handle};
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A validation message as the app's messenger received it.
#[derive(Clone, Debug)]
pub struct Captured {
    pub id: String,
    pub id_number: i32,
    pub severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    pub text: String,
    /// `(type, handle, name)` of each object in `pObjects`.
    pub objects: Vec<(vk::ObjectType, u64, Option<String>)>,
}

#[derive(Default)]
struct Sink {
    messages: Mutex<Vec<Captured>>,
    answer: AtomicBool,
}

unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: `user` is the Sink the Instance owns; the loader passes valid callback data.
    let (sink, data) = unsafe { (&*(user as *const Sink), &*data) };
    if !types.contains(vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION) {
        return vk::FALSE;
    }
    let text = |p: *const std::ffi::c_char| {
        // SAFETY: NULL or a NUL-terminated string from the layer.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    };
    let objects = if data.p_objects.is_null() {
        Vec::new()
    } else {
        // SAFETY: object_count entries, per the callback contract.
        unsafe { std::slice::from_raw_parts(data.p_objects, data.object_count as usize) }
            .iter()
            .map(|o| (o.object_type, o.object_handle, text(o.p_object_name)))
            .collect()
    };
    sink.messages.lock().unwrap().push(Captured {
        id: text(data.p_message_id_name).unwrap_or_default(),
        id_number: data.message_id_number,
        severity,
        text: text(data.p_message).unwrap_or_default(),
        objects,
    });
    if sink.answer.load(Ordering::SeqCst) {
        vk::TRUE
    } else {
        vk::FALSE
    }
}

/// How to build the test instance.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Register a debug-utils messenger with vkCreateDebugUtilsMessengerEXT.
    pub messenger: bool,
    /// Chain the messenger to VkInstanceCreateInfo instead.
    pub messenger_in_create_info: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            messenger: true,
            messenger_in_create_info: false,
        }
    }
}

/// A Vulkan instance through the real loader, with the layer enabled by `VK_INSTANCE_LAYERS`.
pub struct Instance {
    pub entry: ash::Entry,
    pub instance: ash::Instance,
    pub physical_device: vk::PhysicalDevice,
    debug_utils: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    sink: Box<Sink>,
}

impl Instance {
    pub fn new() -> Self {
        Self::with(Options::default())
    }

    pub fn with(options: Options) -> Self {
        crate::env::setup();
        // SAFETY: loads libvulkan.so.1, the system's Khronos loader.
        let entry = unsafe { ash::Entry::load() }.expect("load libvulkan.so.1");
        let sink = Box::<Sink>::default();
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::ERROR
                    | vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                    | vk::DebugUtilsMessageSeverityFlagsEXT::INFO,
            )
            .message_type(
                vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                    | vk::DebugUtilsMessageTypeFlagsEXT::GENERAL,
            )
            .pfn_user_callback(Some(on_message));
        messenger_info.p_user_data = &*sink as *const Sink as *mut c_void;
        let app = vk::ApplicationInfo::default()
            .application_name(c"exportcheck-tests")
            .api_version(vk::API_VERSION_1_1);
        let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
        let mut create = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_extension_names(&extensions);
        if options.messenger_in_create_info {
            create = create.push_next(&mut messenger_info);
        }
        // SAFETY: valid create info.
        let instance = unsafe { entry.create_instance(&create, None) }.expect("vkCreateInstance");
        let debug_utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
        let messenger = if options.messenger {
            // SAFETY: valid create info; the sink outlives the messenger.
            unsafe { debug_utils.create_debug_utils_messenger(&messenger_info, None) }
                .expect("vkCreateDebugUtilsMessengerEXT")
        } else {
            vk::DebugUtilsMessengerEXT::null()
        };
        // SAFETY: a live instance.
        let physical_device = unsafe { instance.enumerate_physical_devices() }
            .expect("vkEnumeratePhysicalDevices")
            .into_iter()
            .next()
            .expect("a physical device (lavapipe)");
        Self {
            entry,
            instance,
            physical_device,
            debug_utils,
            messenger,
            sink,
        }
    }

    /// Takes the validation messages received so far.
    pub fn messages(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.sink.messages.lock().unwrap())
    }

    /// Takes the IDs of the validation messages received so far.
    pub fn ids(&self) -> Vec<String> {
        self.messages().into_iter().map(|m| m.id).collect()
    }

    /// What the messenger callback returns from now on (VK_TRUE asks to skip the call).
    pub fn answer(&self, skip: bool) {
        self.sink.answer.store(skip, Ordering::SeqCst);
    }

    /// Destroys the messenger now (later findings go to stderr).
    pub fn drop_messenger(&mut self) {
        if self.messenger != vk::DebugUtilsMessengerEXT::null() {
            // SAFETY: our messenger, destroyed once.
            unsafe {
                self.debug_utils
                    .destroy_debug_utils_messenger(self.messenger, None)
            };
            self.messenger = vk::DebugUtilsMessengerEXT::null();
        }
    }

    /// A device with the given extensions (e.g. `VK_KHR_external_memory_fd`).
    pub fn device(&self, extensions: &[&CStr]) -> Device {
        let priorities = [1.0f32];
        let queue = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        let create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue)
            .enabled_extension_names(&names);
        // SAFETY: valid create info on a live physical device.
        let device = unsafe {
            self.instance
                .create_device(self.physical_device, &create, None)
        }
        .expect("vkCreateDevice");
        let fd = ash::khr::external_memory_fd::Device::new(&self.instance, &device);
        let names = ash::ext::debug_utils::Device::new(&self.instance, &device);
        Device { device, fd, names }
    }

    /// The `vkGetMemoryFdKHR` pointer that `vkGetDeviceProcAddr` returns for `device`.
    pub fn device_proc_addr(&self, device: &Device, name: &CStr) -> vk::PFN_vkVoidFunction {
        // SAFETY: a live device and a NUL-terminated name.
        unsafe { (self.instance.fp_v1_0().get_device_proc_addr)(device.handle(), name.as_ptr()) }
    }
}

impl Default for Instance {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.drop_messenger();
        // SAFETY: every device was dropped before (they borrow nothing, but tests drop them first).
        unsafe { self.instance.destroy_instance(None) };
    }
}

/// A device on lavapipe.
pub struct Device {
    pub device: ash::Device,
    pub fd: ash::khr::external_memory_fd::Device,
    pub names: ash::ext::debug_utils::Device,
}

pub const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

impl Device {
    pub fn handle(&self) -> vk::Device {
        self.device.handle()
    }

    /// Allocates `size` bytes of memory type 0, exported with `export` handle types if given.
    pub fn allocate(
        &self,
        size: u64,
        export: Option<vk::ExternalMemoryHandleTypeFlags>,
    ) -> vk::DeviceMemory {
        let mut export_info = vk::ExportMemoryAllocateInfo::default();
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(0);
        if let Some(types) = export {
            export_info = export_info.handle_types(types);
            info = info.push_next(&mut export_info);
        }
        self.allocate_with(&info).expect("vkAllocateMemory")
    }

    /// `vkAllocateMemory` with any allocate info.
    pub fn allocate_with(
        &self,
        info: &vk::MemoryAllocateInfo<'_>,
    ) -> Result<vk::DeviceMemory, vk::Result> {
        // SAFETY: the info is a valid Rust reference (its chain may be hostile on purpose).
        unsafe { self.device.allocate_memory(info, None) }
    }

    /// `vkGetMemoryFdKHR` with a well-formed info; returns the result and the fd (-1 if none).
    pub fn get_fd(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> (vk::Result, i32) {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(handle_type);
        let mut fd = -1;
        // SAFETY: valid pointers.
        let result = unsafe { (self.fd.fp().get_memory_fd_khr)(self.handle(), &info, &mut fd) };
        (result, fd)
    }

    /// `vkGetMemoryFdKHR` with raw pointers, for hostile-input tests.
    ///
    /// # Safety
    /// The pointers must be NULL or valid; the layer is expected to stop the NULL ones.
    pub unsafe fn get_fd_raw(
        &self,
        info: *const vk::MemoryGetFdInfoKHR<'_>,
        fd: *mut i32,
    ) -> vk::Result {
        // SAFETY: forwarded per the caller's contract.
        unsafe { (self.fd.fp().get_memory_fd_khr)(self.handle(), info, fd) }
    }

    pub fn free(&self, memory: vk::DeviceMemory) {
        // SAFETY: the test passes handles on purpose; the layer stops the bad ones.
        unsafe { self.device.free_memory(memory, None) }
    }

    /// Names an object with vkSetDebugUtilsObjectNameEXT.
    pub fn name<H: Handle>(&self, object: H, name: &CStr) {
        let info = vk::DebugUtilsObjectNameInfoEXT::default()
            .object_handle(object)
            .object_name(name);
        // SAFETY: valid info on a live device.
        unsafe { self.names.set_debug_utils_object_name(&info) }
            .expect("vkSetDebugUtilsObjectNameEXT");
    }

    /// Imports an opaque fd as new memory (consumes the fd on success).
    pub fn import_fd(&self, fd: i32, size: u64) -> Result<vk::DeviceMemory, vk::Result> {
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(OPAQUE_FD)
            .fd(fd);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(0)
            .push_next(&mut import);
        self.allocate_with(&info)
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: destroyed once, after the test is done with it.
        unsafe { self.device.destroy_device(None) };
    }
}
