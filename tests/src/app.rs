//! A small Vulkan app for the tests: an instance with a debug-utils messenger that records every
//! validation message, and devices on lavapipe with helpers for allocating and exporting memory.

use crate::env::Driver;
use crate::model;
use ash::vk::{self, Handle};
use std::ffi::{c_void, CStr, CString};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// What `vkGetMemoryFdKHR` output slots are pre-filled with, to see whether anything was written.
pub const SENTINEL: i32 = -7;

/// What pointer-sized output slots (`*pAddress`, a Metal `*pHandle`) are pre-filled with, to see
/// whether anything was written.
pub const POINTER_SENTINEL: usize = 0x5e47;

/// What a call the layer blocks returns.
pub const FAILED: vk::Result = vk::Result::ERROR_VALIDATION_FAILED_EXT;

/// The size of the allocations most tests export.
pub const SIZE: u64 = 65536;

/// Tests of one binary run on parallel threads in one process, and the layer's state is
/// process-wide. Findings about an unknown `VkDevice` go to every live instance, and a freed
/// memory handle may be reused by another test's allocation, so the tests that rely on either take
/// this lock exclusively ([`Instance::exclusive`]); every other instance holds it shared.
static ISOLATION: RwLock<()> = RwLock::new(());

/// Holds the binary exclusively, as [`Instance::exclusive`] does, without an instance: for a
/// test whose parent side only runs a child process while other tests of the binary close and
/// reuse fd numbers (its pipes to the child must not be closed under it).
pub fn exclusively<R>(f: impl FnOnce() -> R) -> R {
    let _guard = ISOLATION.write().unwrap_or_else(PoisonError::into_inner);
    f()
}

#[allow(dead_code)] // The guards are held, never read.
enum Isolation {
    Shared(RwLockReadGuard<'static, ()>),
    Exclusive(RwLockWriteGuard<'static, ()>),
    /// A second instance of a test that already holds the lock.
    Inherited,
}

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

/// The `pMessageIdName` of the layer's GENERAL messages about its settings.
pub const SETTINGS_MESSAGE_ID: &str = "exportcheck-settings";

/// The ID prefix of the layer's driver-contract warnings.
pub const DRIVER_CONTRACT_PREFIX: &str = "EXPORTCHECK-driver-";

#[derive(Default)]
struct Sink {
    messages: Mutex<Vec<Captured>>,
    /// Driver-contract warnings (`EXPORTCHECK-driver-*`): about the driver, not the app. Kept
    /// apart so the app-facing assertions stay exact on a driver with a known defect (lavapipe
    /// returns fds without FD_CLOEXEC); tests of the driver contract read them explicitly.
    driver: Mutex<Vec<Captured>>,
    /// The layer's notes about its settings: GENERAL messages with the ID [`SETTINGS_MESSAGE_ID`]
    /// (bad values, and the active configuration with `report_flags` including `info`).
    settings: Mutex<Vec<Captured>>,
    /// Every message of any type and severity, from any layer or the loader, unfiltered: kept
    /// only with [`Options::every_message`].
    every: Mutex<Vec<Captured>>,
    keep_every: AtomicBool,
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
    let general = types.contains(vk::DebugUtilsMessageTypeFlagsEXT::GENERAL)
        && !data.p_message_id_name.is_null()
        // SAFETY: a non-NULL pMessageIdName is a NUL-terminated string, per the callback contract.
        && unsafe { CStr::from_ptr(data.p_message_id_name) }.to_bytes()
            == SETTINGS_MESSAGE_ID.as_bytes();
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
    let captured = Captured {
        id: text(data.p_message_id_name).unwrap_or_default(),
        id_number: data.message_id_number,
        severity,
        text: text(data.p_message).unwrap_or_default(),
        objects,
    };
    if sink.keep_every.load(Ordering::SeqCst) {
        sink.every.lock().unwrap().push(captured.clone());
    }
    if !general && !types.contains(vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION) {
        return vk::FALSE;
    }
    let bucket = if general {
        &sink.settings
    } else if captured.id.starts_with(DRIVER_CONTRACT_PREFIX) {
        &sink.driver
    } else {
        &sink.messages
    };
    bucket.lock().unwrap().push(captured);
    if sink.answer.load(Ordering::SeqCst) {
        vk::TRUE
    } else {
        vk::FALSE
    }
}

/// Serializes what the Vulkan loader 1.3.239 does not make thread-safe: its
/// `vkGetDeviceProcAddr` walks every instance's device list without a lock, reading each driver
/// device object, so a device or instance destroyed on another thread at that moment can crash
/// inside libvulkan. Instance and device creation (which loads function pointers) and
/// destruction, and the harness's own `vkGetDeviceProcAddr` calls, take this lock.
fn loader_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOADER: Mutex<()> = Mutex::new(());
    LOADER.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The test driver's per-instance configuration structure (a made-up sType the loader passes
/// through to the driver unchanged; see docs/test-driver.md).
#[repr(C)]
struct TestDriverConfig {
    s_type: vk::StructureType,
    p_next: *const c_void,
    json: *const std::ffi::c_char,
}

const TEST_DRIVER_CONFIG: vk::StructureType = vk::StructureType::from_raw(1_000_999_000);

/// How to build the test instance.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Register a debug-utils messenger with vkCreateDebugUtilsMessengerEXT.
    pub messenger: bool,
    /// Chain the messenger (the same callback and sink) to VkInstanceCreateInfo too. By the
    /// spec it is active only during vkCreateInstance and vkDestroyInstance: with `messenger`
    /// as well, each message still arrives once.
    pub messenger_in_create_info: bool,
    /// The driver: one per test binary (the first instance of a process chooses).
    pub driver: Driver,
    /// The test driver's configuration (JSON, see docs/test-driver.md) for this instance,
    /// chained to VkInstanceCreateInfo; `None` for the driver's defaults.
    pub driver_config: Option<&'static str>,
    /// Layer settings `(name, value)` for VK_LAYER_EXPORTCHECK_validation, chained to
    /// VkInstanceCreateInfo as a VkLayerSettingsCreateInfoEXT (string values).
    pub layer_settings: &'static [(&'static str, &'static str)],
    /// More layer settings for VK_LAYER_EXPORTCHECK_validation, with typed values (after
    /// `layer_settings`, in the same VkLayerSettingsCreateInfoEXT).
    pub typed_layer_settings: &'static [(&'static str, SettingValues)],
    /// Layers the app enables in `ppEnabledLayerNames` (the first nearest the app), besides
    /// those of `VK_INSTANCE_LAYERS` (see [`crate::env::LAYERS_FROM_APP`]).
    pub layers: &'static [&'static CStr],
    /// Instance extensions to enable besides VK_EXT_debug_utils.
    pub instance_extensions: &'static [&'static CStr],
    /// Keep every message the messenger receives ([`Instance::every_message`]): all types
    /// (GENERAL, VALIDATION, PERFORMANCE) and severities, from any layer or the loader.
    pub every_message: bool,
    /// `VkApplicationInfo::apiVersion` (Vulkan 1.1 by default).
    pub api_version: u32,
}

/// The values of one VkLayerSettingEXT, of one VkLayerSettingTypeEXT.
#[derive(Clone, Copy, Debug)]
pub enum SettingValues {
    Bool32(&'static [bool]),
    Int32(&'static [i32]),
    Uint32(&'static [u32]),
    Strings(&'static [&'static str]),
}

impl Default for Options {
    fn default() -> Self {
        Self {
            messenger: true,
            messenger_in_create_info: false,
            driver: Driver::Lavapipe,
            driver_config: None,
            layer_settings: &[],
            typed_layer_settings: &[],
            layers: &[],
            instance_extensions: &[],
            every_message: false,
            api_version: vk::API_VERSION_1_1,
        }
    }
}

/// The memory of one typed VkLayerSettingEXT's values.
enum TypedStorage {
    Bool32(Vec<vk::Bool32>),
    Int32(Vec<i32>),
    Uint32(Vec<u32>),
    /// The strings (only kept alive: the pointers point into them) and the pointers.
    Strings(
        #[allow(dead_code)] Vec<CString>,
        Vec<*const std::ffi::c_char>,
    ),
}

impl TypedStorage {
    fn new(values: &SettingValues) -> Self {
        match *values {
            SettingValues::Bool32(v) => Self::Bool32(v.iter().map(|&b| b.into()).collect()),
            SettingValues::Int32(v) => Self::Int32(v.to_vec()),
            SettingValues::Uint32(v) => Self::Uint32(v.to_vec()),
            SettingValues::Strings(v) => {
                let strings: Vec<CString> = v.iter().map(|s| CString::new(*s).unwrap()).collect();
                let ptrs = strings.iter().map(|s| s.as_ptr()).collect();
                Self::Strings(strings, ptrs)
            }
        }
    }

    /// `(type, valueCount, pValues)`.
    fn raw(&self) -> (vk::LayerSettingTypeEXT, u32, *const c_void) {
        match self {
            Self::Bool32(v) => (
                vk::LayerSettingTypeEXT::BOOL32,
                v.len() as u32,
                v.as_ptr().cast(),
            ),
            Self::Int32(v) => (
                vk::LayerSettingTypeEXT::INT32,
                v.len() as u32,
                v.as_ptr().cast(),
            ),
            Self::Uint32(v) => (
                vk::LayerSettingTypeEXT::UINT32,
                v.len() as u32,
                v.as_ptr().cast(),
            ),
            Self::Strings(_, ptrs) => (
                vk::LayerSettingTypeEXT::STRING,
                ptrs.len() as u32,
                ptrs.as_ptr().cast(),
            ),
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
    /// `VkApplicationInfo::apiVersion` ([`Options::api_version`]).
    pub api_version: u32,
    /// Last field: released after Drop has destroyed the instance.
    _isolation: Isolation,
}

impl Instance {
    /// An instance with a messenger, sharing the process with other tests.
    pub fn new() -> Self {
        Self::with(Options::default())
    }

    /// An instance built with `options`, sharing the process with other tests.
    pub fn with(options: Options) -> Self {
        let guard = ISOLATION.read().unwrap_or_else(PoisonError::into_inner);
        Self::build(options, Isolation::Shared(guard))
    }

    /// An instance for a test that no other test of this binary may run alongside: calls with an
    /// unknown `VkDevice` (reported to every live instance) or with freed memory handles.
    pub fn exclusive() -> Self {
        Self::exclusive_with(Options::default())
    }

    /// Like [`Instance::exclusive`], built with `options`.
    pub fn exclusive_with(options: Options) -> Self {
        let guard = ISOLATION.write().unwrap_or_else(PoisonError::into_inner);
        Self::build(options, Isolation::Exclusive(guard))
    }

    /// Another instance in the same test, covered by the lock `self` holds. Drop it before `self`.
    pub fn another(&self, options: Options) -> Self {
        Self::build(options, Isolation::Inherited)
    }

    fn build(options: Options, isolation: Isolation) -> Self {
        crate::env::setup_with(options.driver);
        // SAFETY: loads libvulkan.so.1, the system's Khronos loader.
        let entry = unsafe { ash::Entry::load() }.expect("load libvulkan.so.1");
        let sink = Box::<Sink>::default();
        sink.keep_every
            .store(options.every_message, Ordering::SeqCst);
        let mut types = vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
            | vk::DebugUtilsMessageTypeFlagsEXT::GENERAL;
        if options.every_message {
            types |= vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE;
        }
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::ERROR
                    | vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                    | vk::DebugUtilsMessageSeverityFlagsEXT::INFO,
            )
            .message_type(types)
            .pfn_user_callback(Some(on_message));
        messenger_info.p_user_data = &*sink as *const Sink as *mut c_void;
        let app = vk::ApplicationInfo::default()
            .application_name(c"exportcheck-tests")
            .api_version(options.api_version);
        let extensions: Vec<_> = [ash::ext::debug_utils::NAME]
            .iter()
            .chain(options.instance_extensions)
            .map(|e| e.as_ptr())
            .collect();
        let layers: Vec<_> = options.layers.iter().map(|l| l.as_ptr()).collect();
        let mut create = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions);
        if options.messenger_in_create_info {
            create = create.push_next(&mut messenger_info);
        }
        let json = options
            .driver_config
            .map(|c| CString::new(c).expect("config without NUL"));
        let mut config = TestDriverConfig {
            s_type: TEST_DRIVER_CONFIG,
            p_next: create.p_next,
            json: json.as_ref().map_or(std::ptr::null(), |j| j.as_ptr()),
        };
        if json.is_some() {
            create.p_next = &mut config as *mut TestDriverConfig as *const c_void;
        }
        let setting_strings: Vec<(CString, CString)> = options
            .layer_settings
            .iter()
            .map(|(n, v)| (CString::new(*n).unwrap(), CString::new(*v).unwrap()))
            .collect();
        let value_ptrs: Vec<*const std::ffi::c_char> =
            setting_strings.iter().map(|(_, v)| v.as_ptr()).collect();
        let mut layer_settings: Vec<vk::LayerSettingEXT> = setting_strings
            .iter()
            .zip(&value_ptrs)
            .map(|((name, _), value)| vk::LayerSettingEXT {
                p_layer_name: c"VK_LAYER_EXPORTCHECK_validation".as_ptr(),
                p_setting_name: name.as_ptr(),
                ty: vk::LayerSettingTypeEXT::STRING,
                value_count: 1,
                p_values: value as *const *const std::ffi::c_char as *const c_void,
                ..Default::default()
            })
            .collect();
        // The typed values, kept alive (and unmoved: each Vec's buffer) until vkCreateInstance.
        let typed: Vec<(CString, TypedStorage)> = options
            .typed_layer_settings
            .iter()
            .map(|(name, values)| (CString::new(*name).unwrap(), TypedStorage::new(values)))
            .collect();
        for (name, storage) in &typed {
            let (ty, value_count, p_values) = storage.raw();
            layer_settings.push(vk::LayerSettingEXT {
                p_layer_name: c"VK_LAYER_EXPORTCHECK_validation".as_ptr(),
                p_setting_name: name.as_ptr(),
                ty,
                value_count,
                p_values,
                ..Default::default()
            });
        }
        let mut settings_info = vk::LayerSettingsCreateInfoEXT::default().settings(&layer_settings);
        if !layer_settings.is_empty() {
            settings_info.p_next = create.p_next;
            create.p_next = &mut settings_info as *mut _ as *const c_void;
        }
        let instance = {
            let _loader = loader_lock();
            // SAFETY: valid create info.
            unsafe { entry.create_instance(&create, None) }.expect("vkCreateInstance")
        };
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
            api_version: options.api_version,
            _isolation: isolation,
        }
    }

    /// Takes the validation messages received so far.
    pub fn messages(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.sink.messages.lock().unwrap())
    }

    /// Takes every message received so far, unfiltered (with [`Options::every_message`]).
    pub fn every_message(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.sink.every.lock().unwrap())
    }

    /// Takes the driver-contract warnings received so far (see [`DRIVER_CONTRACT_PREFIX`]).
    pub fn driver_messages(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.sink.driver.lock().unwrap())
    }

    /// Takes the layer's GENERAL messages about its settings received so far (ID
    /// [`SETTINGS_MESSAGE_ID`]): warnings about bad values, and the active configuration. They
    /// are sent during vkCreateInstance, so only a messenger chained to VkInstanceCreateInfo
    /// ([`Options::messenger_in_create_info`]) sees them; later findings reach only a created
    /// one ([`Options::messenger`]).
    pub fn settings_messages(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.sink.settings.lock().unwrap())
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
        self.device_with(extensions, false)
    }

    /// A device with VK_KHR_external_memory_fd (lavapipe's export extension).
    pub fn fd_device(&self) -> Device {
        self.device(&[ash::khr::external_memory_fd::NAME])
    }

    /// A device with the given extensions; `rdma_feature` enables
    /// `VkPhysicalDeviceExternalMemoryRDMAFeaturesNV::externalMemoryRDMA`.
    pub fn device_with(&self, extensions: &[&CStr], rdma_feature: bool) -> Device {
        self.device_on(self.physical_device, extensions, rdma_feature)
    }

    /// Every physical device of the instance, with its `deviceName`.
    pub fn physical_devices(&self) -> Vec<(vk::PhysicalDevice, String)> {
        // SAFETY: a live instance.
        let all = unsafe { self.instance.enumerate_physical_devices() }
            .expect("vkEnumeratePhysicalDevices");
        all.into_iter()
            .map(|pd| {
                // SAFETY: a physical device of this instance.
                let properties = unsafe { self.instance.get_physical_device_properties(pd) };
                let name = properties
                    .device_name_as_c_str()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (pd, name)
            })
            .collect()
    }

    /// Like [`Instance::device_with`], on `physical_device`.
    pub fn device_on(
        &self,
        physical_device: vk::PhysicalDevice,
        extensions: &[&CStr],
        rdma_feature: bool,
    ) -> Device {
        self.device_of(physical_device, &[], extensions, rdma_feature)
    }

    /// A device of the physical devices `group` (`VkDeviceGroupDeviceCreateInfo`; created on the
    /// first of them) with `extensions`.
    pub fn device_of_group(&self, group: &[vk::PhysicalDevice], extensions: &[&CStr]) -> Device {
        self.device_of(group[0], group, extensions, false)
    }

    /// A device of the physical devices `group`, created on `physical_device` (`vkCreateDevice`'s
    /// `physicalDevice`, one of them) with `extensions`.
    pub fn device_of_group_on(
        &self,
        physical_device: vk::PhysicalDevice,
        group: &[vk::PhysicalDevice],
        extensions: &[&CStr],
    ) -> Device {
        self.device_of(physical_device, group, extensions, false)
    }

    /// [`Instance::device_on`], with a `VkDeviceGroupDeviceCreateInfo` of `group` when it is not
    /// empty.
    fn device_of(
        &self,
        physical_device: vk::PhysicalDevice,
        group: &[vk::PhysicalDevice],
        extensions: &[&CStr],
        rdma_feature: bool,
    ) -> Device {
        let priorities = [1.0f32];
        let queue = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        let mut rdma =
            vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV::default().external_memory_rdma(true);
        let mut create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue)
            .enabled_extension_names(&names);
        if rdma_feature {
            create = create.push_next(&mut rdma);
        }
        let mut members = vk::DeviceGroupDeviceCreateInfo::default().physical_devices(group);
        if !group.is_empty() {
            create = create.push_next(&mut members);
        }
        self.device_from(physical_device, &create, extensions, rdma_feature)
            .expect("vkCreateDevice")
    }

    /// A device of `extensions` with the feature structures `features` chained (or nothing),
    /// one queue, on the instance's physical device.
    pub fn device_with_features(
        &self,
        extensions: &[&CStr],
        features: Option<*mut std::ffi::c_void>,
    ) -> Device {
        let priorities = [1.0f32];
        let queue = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        let mut create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue)
            .enabled_extension_names(&names);
        if let Some(features) = features {
            create.p_next = features.cast_const();
        }
        self.device_from(self.physical_device, &create, extensions, false)
            .expect("vkCreateDevice")
    }

    /// A device made with the app's own `create` info (its features, queues, chain), on
    /// `physical_device`; `extensions` and `rdma_feature` say what `create` enables.
    pub fn device_from(
        &self,
        physical_device: vk::PhysicalDevice,
        create: &vk::DeviceCreateInfo<'_>,
        extensions: &[&CStr],
        rdma_feature: bool,
    ) -> Result<Device, vk::Result> {
        // Held until every function pointer is loaded (vkGetDeviceProcAddr): see loader_lock.
        let _loader = loader_lock();
        // SAFETY: valid create info on a live physical device.
        let device = unsafe { self.instance.create_device(physical_device, create, None) }?;
        let fd = ash::khr::external_memory_fd::Device::new(&self.instance, &device);
        let names = ash::ext::debug_utils::Device::new(&self.instance, &device);
        let gdpa = self.instance.fp_v1_0().get_device_proc_addr;
        // SAFETY: a live device and NUL-terminated names; each pointer is cast to its own type.
        let (
            remote_address,
            win32_handle,
            metal_handle,
            win32_handle_khr,
            zircon_handle,
            android_hardware_buffer,
        ) = unsafe {
            let get = |name: &CStr| gdpa(device.handle(), name.as_ptr());
            (
                get(c"vkGetMemoryRemoteAddressNV")
                    .map(|f| std::mem::transmute::<_, vk::PFN_vkGetMemoryRemoteAddressNV>(f)),
                get(c"vkGetMemoryWin32HandleNV")
                    .map(|f| std::mem::transmute::<_, vk::PFN_vkGetMemoryWin32HandleNV>(f)),
                get(c"vkGetMemoryMetalHandleEXT")
                    .map(|f| std::mem::transmute::<_, PfnGetMemoryMetalHandle>(f)),
                get(c"vkGetMemoryWin32HandleKHR")
                    .map(|f| std::mem::transmute::<_, vk::PFN_vkGetMemoryWin32HandleKHR>(f)),
                get(c"vkGetMemoryZirconHandleFUCHSIA")
                    .map(|f| std::mem::transmute::<_, vk::PFN_vkGetMemoryZirconHandleFUCHSIA>(f)),
                get(c"vkGetMemoryAndroidHardwareBufferANDROID").map(|f| {
                    std::mem::transmute::<_, vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID>(f)
                }),
            )
        };
        Ok(Device {
            device,
            fd,
            names,
            remote_address,
            win32_handle,
            metal_handle,
            win32_handle_khr,
            zircon_handle,
            android_hardware_buffer,
            extensions: extensions.iter().map(|&e| e.to_owned()).collect(),
            rdma_feature,
        })
    }

    /// What the model of the rules (`tests/model`) needs to know of `device`: its extensions,
    /// whether its API version (the app's and the physical device's) is 1.1 or later, the RDMA
    /// feature, and the physical device's memory types.
    pub fn model_device(&self, device: &Device) -> model::Device {
        let extensions = model::Extension::ALL
            .into_iter()
            .filter(|e| {
                device
                    .extensions
                    .iter()
                    .any(|n| n.to_bytes() == e.name().as_bytes())
            })
            .collect::<Vec<_>>();
        // SAFETY: the instance's own physical device.
        let (properties, memory) = unsafe {
            (
                self.instance
                    .get_physical_device_properties(self.physical_device),
                self.instance
                    .get_physical_device_memory_properties(self.physical_device),
            )
        };
        let at_least_1_1 = |v: u32| (vk::api_version_major(v), vk::api_version_minor(v)) >= (1, 1);
        model::Device {
            extensions: model::Extensions::of(&extensions),
            version_1_1: at_least_1_1(self.api_version) && at_least_1_1(properties.api_version),
            rdma_feature: device.rdma_feature,
            memory_types: memory.memory_types[..memory.memory_type_count as usize]
                .iter()
                .map(|t| t.property_flags.as_raw())
                .collect(),
            // The test app's devices enable neither feature.
            protected_memory: false,
            device_coherent_memory: false,
        }
    }

    /// The physical device's memory types and heaps, as the driver reports them.
    pub fn memory_properties(&self) -> vk::PhysicalDeviceMemoryProperties {
        // SAFETY: the instance's own physical device.
        unsafe {
            self.instance
                .get_physical_device_memory_properties(self.physical_device)
        }
    }

    /// The index of the first memory type whose flags are exactly `flags`; panics if there is
    /// none.
    pub fn memory_type(&self, flags: vk::MemoryPropertyFlags) -> u32 {
        // SAFETY: the instance's own physical device.
        let props = unsafe {
            self.instance
                .get_physical_device_memory_properties(self.physical_device)
        };
        props.memory_types[..props.memory_type_count as usize]
            .iter()
            .position(|t| t.property_flags == flags)
            .unwrap_or_else(|| panic!("the driver has no memory type {flags:?}")) as u32
    }

    /// The pointer that `vkGetDeviceProcAddr` returns for `name` on `device`.
    pub fn device_proc_addr(&self, device: &Device, name: &CStr) -> vk::PFN_vkVoidFunction {
        let _loader = loader_lock();
        // SAFETY: a live device and a NUL-terminated name.
        unsafe { (self.instance.fp_v1_0().get_device_proc_addr)(device.handle(), name.as_ptr()) }
    }

    /// `vkGetDeviceProcAddr(device, name)` as the typed pointer `F`; panics if it is NULL.
    ///
    /// # Safety
    /// `F` must be the `PFN_` type of the command `name`.
    pub unsafe fn device_fn<F: Copy>(&self, device: &Device, name: &CStr) -> F {
        let f = self
            .device_proc_addr(device, name)
            .unwrap_or_else(|| panic!("vkGetDeviceProcAddr({name:?}) returned NULL"));
        assert_eq!(size_of::<F>(), size_of::<unsafe extern "system" fn()>());
        // SAFETY: the caller names the command's own PFN type; fn pointers share one size.
        unsafe { std::mem::transmute_copy::<unsafe extern "system" fn(), F>(&f) }
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
        let _loader = loader_lock();
        // SAFETY: every device was dropped before (they borrow nothing, but tests drop them first).
        unsafe { self.instance.destroy_instance(None) };
    }
}

/// A device on lavapipe.
pub struct Device {
    pub device: ash::Device,
    pub fd: ash::khr::external_memory_fd::Device,
    pub names: ash::ext::debug_utils::Device,
    /// What `vkGetDeviceProcAddr` gave for the other export commands (NULL when not enabled).
    pub remote_address: Option<vk::PFN_vkGetMemoryRemoteAddressNV>,
    pub win32_handle: Option<vk::PFN_vkGetMemoryWin32HandleNV>,
    pub metal_handle: Option<PfnGetMemoryMetalHandle>,
    pub win32_handle_khr: Option<vk::PFN_vkGetMemoryWin32HandleKHR>,
    pub zircon_handle: Option<vk::PFN_vkGetMemoryZirconHandleFUCHSIA>,
    pub android_hardware_buffer: Option<vk::PFN_vkGetMemoryAndroidHardwareBufferANDROID>,
    /// The extensions it was created with, and whether the RDMA feature was enabled.
    pub extensions: Vec<CString>,
    pub rdma_feature: bool,
}

/// `VkMemoryGetMetalHandleInfoEXT` (not in ash 0.38; values from the registry, extension 603).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemoryGetMetalHandleInfo {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub memory: vk::DeviceMemory,
    pub handle_type: vk::ExternalMemoryHandleTypeFlags,
}

/// `VK_STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT`
pub const METAL_INFO_STYPE: vk::StructureType = vk::StructureType::from_raw(1_000_602_002);
/// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT` and its siblings.
pub const MTLBUFFER: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 16);
pub const MTLTEXTURE: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 17);
pub const MTLHEAP: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::from_raw(1 << 18);

/// `PFN_vkGetMemoryMetalHandleEXT`
pub type PfnGetMemoryMetalHandle = unsafe extern "system" fn(
    vk::Device,
    *const MemoryGetMetalHandleInfo,
    *mut *mut c_void,
) -> vk::Result;

type HandleTypes = vk::ExternalMemoryHandleTypeFlags;
pub const OPAQUE_FD: HandleTypes = HandleTypes::OPAQUE_FD;
pub const DMA_BUF: HandleTypes = HandleTypes::DMA_BUF_EXT;
pub const OPAQUE_WIN32: HandleTypes = HandleTypes::OPAQUE_WIN32;

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

    /// `vkAllocateMemory` of `SIZE` bytes of `memory_type` with `VkMemoryAllocateFlagsInfo::flags`
    /// and a `VkMemoryOpaqueCaptureAddressAllocateInfo` of `capture_address` (0: none chained).
    pub fn allocate_flagged(
        &self,
        memory_type: u32,
        flags: vk::MemoryAllocateFlags,
        capture_address: u64,
    ) -> Result<vk::DeviceMemory, vk::Result> {
        let mut flags_info = vk::MemoryAllocateFlagsInfo::default().flags(flags);
        let mut capture = vk::MemoryOpaqueCaptureAddressAllocateInfo::default()
            .opaque_capture_address(capture_address);
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(SIZE)
            .memory_type_index(memory_type)
            .push_next(&mut flags_info);
        if capture_address != 0 {
            info = info.push_next(&mut capture);
        }
        self.allocate_with(&info)
    }

    /// After a reported allocation that must have gone down (the layer did not block it): frees
    /// what the driver made, if anything.
    #[track_caller]
    pub fn free_if_made(&self, result: Result<vk::DeviceMemory, vk::Result>) {
        assert_ne!(
            result,
            Err(vk::Result::ERROR_VALIDATION_FAILED_EXT),
            "the call goes down"
        );
        if let Ok(memory) = result {
            self.free(memory);
        }
    }

    /// `vkAllocateMemory` with any allocate info.
    pub fn allocate_with(
        &self,
        info: &vk::MemoryAllocateInfo<'_>,
    ) -> Result<vk::DeviceMemory, vk::Result> {
        // SAFETY: the info is a valid Rust reference (its chain may be hostile on purpose).
        unsafe { self.device.allocate_memory(info, None) }
    }

    /// `vkAllocateMemory` with raw pointers, for hostile-input tests.
    ///
    /// # Safety
    /// The pointers must be NULL or valid (a pNext chain may loop on purpose); the layer is
    /// expected to stop the bad ones.
    pub unsafe fn allocate_raw(
        &self,
        info: *const vk::MemoryAllocateInfo<'_>,
        memory: *mut vk::DeviceMemory,
    ) -> vk::Result {
        // SAFETY: forwarded per the caller's contract.
        unsafe {
            (self.device.fp_v1_0().allocate_memory)(self.handle(), info, std::ptr::null(), memory)
        }
    }

    /// `vkGetMemoryFdKHR` with a well-formed info; returns the result and the fd slot, which is
    /// pre-filled with [`SENTINEL`].
    pub fn get_fd(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> (vk::Result, i32) {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(handle_type);
        self.get_fd_with(&info)
    }

    /// `vkGetMemoryFdKHR` with any info; returns the result and the fd slot (pre-filled with
    /// [`SENTINEL`]).
    pub fn get_fd_with(&self, info: &vk::MemoryGetFdInfoKHR<'_>) -> (vk::Result, i32) {
        let mut fd = SENTINEL;
        // SAFETY: valid pointers (the info's pNext, if any, points to a live structure).
        let result = unsafe { (self.fd.fp().get_memory_fd_khr)(self.handle(), info, &mut fd) };
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

    /// `vkGetMemoryRemoteAddressNV` with a well-formed info; the address (0 if none written).
    pub fn get_remote_address(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> (vk::Result, usize) {
        let info = vk::MemoryGetRemoteAddressInfoNV::default()
            .memory(memory)
            .handle_type(handle_type);
        let mut address: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid pointers.
        let result = unsafe { self.get_remote_address_raw(&info, &mut address) };
        (result, address as usize)
    }

    /// `vkGetMemoryRemoteAddressNV` with raw pointers, for hostile-input tests.
    ///
    /// # Safety
    /// The pointers must be NULL or valid; the layer is expected to stop the NULL ones.
    pub unsafe fn get_remote_address_raw(
        &self,
        info: *const vk::MemoryGetRemoteAddressInfoNV<'_>,
        address: *mut *mut c_void,
    ) -> vk::Result {
        let f = self
            .remote_address
            .expect("vkGetMemoryRemoteAddressNV is not enabled on this device");
        // SAFETY: forwarded per the caller's contract.
        unsafe { f(self.handle(), info, address.cast()) }
    }

    /// `vkGetMemoryWin32HandleNV`; the HANDLE (0 if none written).
    pub fn get_win32_handle(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    ) -> (vk::Result, vk::HANDLE) {
        let mut handle: vk::HANDLE = 0;
        // SAFETY: valid output pointer.
        let result = unsafe { self.get_win32_handle_raw(memory, handle_type, &mut handle) };
        (result, handle)
    }

    /// `vkGetMemoryWin32HandleNV` with a raw output pointer.
    ///
    /// # Safety
    /// `handle` must be NULL or valid; the layer is expected to stop NULL.
    pub unsafe fn get_win32_handle_raw(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
        handle: *mut vk::HANDLE,
    ) -> vk::Result {
        let f = self
            .win32_handle
            .expect("vkGetMemoryWin32HandleNV is not enabled on this device");
        // SAFETY: forwarded per the caller's contract.
        unsafe { f(self.handle(), memory, handle_type, handle) }
    }

    /// `vkGetMemoryMetalHandleEXT` with a well-formed info; the handle (0 if none written).
    pub fn get_metal_handle(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> (vk::Result, usize) {
        let info = MemoryGetMetalHandleInfo {
            s_type: METAL_INFO_STYPE,
            p_next: std::ptr::null(),
            memory,
            handle_type,
        };
        let mut handle: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid pointers.
        let result = unsafe { self.get_metal_handle_raw(&info, &mut handle) };
        (result, handle as usize)
    }

    /// `vkGetMemoryMetalHandleEXT` with raw pointers, for hostile-input tests.
    ///
    /// # Safety
    /// The pointers must be NULL or valid; the layer is expected to stop the NULL ones.
    pub unsafe fn get_metal_handle_raw(
        &self,
        info: *const MemoryGetMetalHandleInfo,
        handle: *mut *mut c_void,
    ) -> vk::Result {
        let f = self
            .metal_handle
            .expect("vkGetMemoryMetalHandleEXT is not enabled on this device");
        // SAFETY: forwarded per the caller's contract.
        unsafe { f(self.handle(), info, handle) }
    }

    /// A 4 KiB buffer of `usage` made for external memory of `handle_types`
    /// (`VkExternalMemoryBufferCreateInfo`).
    pub fn external_buffer(
        &self,
        usage: vk::BufferUsageFlags,
        handle_types: vk::ExternalMemoryHandleTypeFlags,
    ) -> vk::Buffer {
        self.buffer_with(usage, Some(handle_types))
    }

    /// A 4 KiB buffer of `usage` made without a `VkExternalMemoryBufferCreateInfo`.
    pub fn plain_buffer(&self, usage: vk::BufferUsageFlags) -> vk::Buffer {
        self.buffer_with(usage, None)
    }

    fn buffer_with(
        &self,
        usage: vk::BufferUsageFlags,
        handle_types: Option<vk::ExternalMemoryHandleTypeFlags>,
    ) -> vk::Buffer {
        let mut external = vk::ExternalMemoryBufferCreateInfo::default();
        let mut info = vk::BufferCreateInfo::default().size(4096).usage(usage);
        if let Some(types) = handle_types {
            external = external.handle_types(types);
            info = info.push_next(&mut external);
        }
        // SAFETY: a valid create info.
        unsafe { self.device.create_buffer(&info, None) }.expect("vkCreateBuffer")
    }

    /// A 16x16 `R8G8B8A8_UNORM` 2D image with optimal tiling, of `usage`, made for external
    /// memory of `handle_types` (`VkExternalMemoryImageCreateInfo`).
    pub fn external_image(
        &self,
        usage: vk::ImageUsageFlags,
        handle_types: vk::ExternalMemoryHandleTypeFlags,
    ) -> vk::Image {
        self.image_with(usage, Some(handle_types))
    }

    /// [`Device::external_image`] made without a `VkExternalMemoryImageCreateInfo`.
    pub fn plain_image(&self, usage: vk::ImageUsageFlags) -> vk::Image {
        self.image_with(usage, None)
    }

    fn image_with(
        &self,
        usage: vk::ImageUsageFlags,
        handle_types: Option<vk::ExternalMemoryHandleTypeFlags>,
    ) -> vk::Image {
        let mut external = vk::ExternalMemoryImageCreateInfo::default();
        let mut info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D {
                width: 16,
                height: 16,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage);
        if let Some(types) = handle_types {
            external = external.handle_types(types);
            info = info.push_next(&mut external);
        }
        // SAFETY: a valid create info.
        unsafe { self.device.create_image(&info, None) }.expect("vkCreateImage")
    }

    pub fn destroy_buffer(&self, buffer: vk::Buffer) {
        // SAFETY: a buffer of this device, destroyed once.
        unsafe { self.device.destroy_buffer(buffer, None) }
    }

    pub fn destroy_image(&self, image: vk::Image) {
        // SAFETY: an image of this device, destroyed once.
        unsafe { self.device.destroy_image(image, None) }
    }

    /// `vkBindBufferMemory` at offset 0.
    pub fn bind_buffer(&self, buffer: vk::Buffer, memory: vk::DeviceMemory) -> vk::Result {
        // SAFETY: handles of this device (or bad on purpose); the call goes down as made.
        let r =
            unsafe { (self.device.fp_v1_0().bind_buffer_memory)(self.handle(), buffer, memory, 0) };
        r
    }

    /// `vkBindImageMemory` at offset 0.
    pub fn bind_image(&self, image: vk::Image, memory: vk::DeviceMemory) -> vk::Result {
        // SAFETY: as `bind_buffer`.
        let r =
            unsafe { (self.device.fp_v1_0().bind_image_memory)(self.handle(), image, memory, 0) };
        r
    }

    /// `vkBindBufferMemory2` with one `VkBindBufferMemoryInfo` per `(buffer, memory)`.
    pub fn bind_buffers2(&self, bindings: &[(vk::Buffer, vk::DeviceMemory)]) -> vk::Result {
        let infos: Vec<_> = bindings
            .iter()
            .map(|&(buffer, memory)| {
                vk::BindBufferMemoryInfo::default()
                    .buffer(buffer)
                    .memory(memory)
            })
            .collect();
        // SAFETY: an array of valid structures.
        let r = unsafe {
            (self.device.fp_v1_1().bind_buffer_memory2)(
                self.handle(),
                infos.len() as u32,
                infos.as_ptr(),
            )
        };
        r
    }

    /// `vkBindImageMemory2` with one `VkBindImageMemoryInfo` per `(image, memory)`.
    pub fn bind_images2(&self, bindings: &[(vk::Image, vk::DeviceMemory)]) -> vk::Result {
        let infos: Vec<_> = bindings
            .iter()
            .map(|&(image, memory)| {
                vk::BindImageMemoryInfo::default()
                    .image(image)
                    .memory(memory)
            })
            .collect();
        // SAFETY: an array of valid structures.
        let r = unsafe {
            (self.device.fp_v1_1().bind_image_memory2)(
                self.handle(),
                infos.len() as u32,
                infos.as_ptr(),
            )
        };
        r
    }

    /// Allocates `size` bytes of memory type 0 exported as `export`, dedicated
    /// (`VkMemoryDedicatedAllocateInfo`) to `image` or `buffer` (the other one null).
    pub fn allocate_dedicated(
        &self,
        size: u64,
        export: vk::ExternalMemoryHandleTypeFlags,
        image: vk::Image,
        buffer: vk::Buffer,
    ) -> Result<vk::DeviceMemory, vk::Result> {
        let mut export_info = vk::ExportMemoryAllocateInfo::default().handle_types(export);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
            .image(image)
            .buffer(buffer);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(0)
            .push_next(&mut export_info)
            .push_next(&mut dedicated);
        self.allocate_with(&info)
    }

    /// Allocates `size` bytes of `memory_type`, with optional KHR and NV export structures.
    pub fn allocate_exporting(
        &self,
        size: u64,
        memory_type: u32,
        export: Option<vk::ExternalMemoryHandleTypeFlags>,
        export_nv: Option<vk::ExternalMemoryHandleTypeFlagsNV>,
    ) -> vk::DeviceMemory {
        let mut export_info = vk::ExportMemoryAllocateInfo::default();
        let mut export_nv_info = vk::ExportMemoryAllocateInfoNV::default();
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(memory_type);
        if let Some(types) = export {
            export_info = export_info.handle_types(types);
            info = info.push_next(&mut export_info);
        }
        if let Some(types) = export_nv {
            export_nv_info = export_nv_info.handle_types(types);
            info = info.push_next(&mut export_nv_info);
        }
        self.allocate_with(&info).expect("vkAllocateMemory")
    }

    /// `vkAllocateMemory` importing `fd` as `SIZE` bytes of memory type 0 (an `OPAQUE_FD`): the
    /// result; the memory it made freed again, an fd the call did not take closed.
    pub fn import_opaque_fd_and_free(&self, fd: i32) -> vk::Result {
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD)
            .fd(fd);
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(crate::SIZE)
            .memory_type_index(0)
            .push_next(&mut import);
        match self.allocate_with(&info) {
            Ok(memory) => {
                self.free(memory);
                vk::Result::SUCCESS
            }
            Err(e) => {
                crate::fds::close_if_open(fd);
                e
            }
        }
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

    /// Imports an opaque fd as `size` bytes of memory type 0 (consumes the fd on success).
    pub fn import_fd(&self, fd: i32, size: u64) -> Result<vk::DeviceMemory, vk::Result> {
        self.import_fd_dedicated(fd, size, vk::Image::null(), vk::Buffer::null())
    }

    /// [`Device::import_fd`] dedicated (`VkMemoryDedicatedAllocateInfo`) to `image` or `buffer`
    /// when either is not null.
    pub fn import_fd_dedicated(
        &self,
        fd: i32,
        size: u64,
        image: vk::Image,
        buffer: vk::Buffer,
    ) -> Result<vk::DeviceMemory, vk::Result> {
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(OPAQUE_FD)
            .fd(fd);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default()
            .image(image)
            .buffer(buffer);
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(0)
            .push_next(&mut import);
        if image != vk::Image::null() || buffer != vk::Buffer::null() {
            info = info.push_next(&mut dedicated);
        }
        self.allocate_with(&info)
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        let _loader = loader_lock();
        // SAFETY: destroyed once, after the test is done with it.
        unsafe { self.device.destroy_device(None) };
    }
}
