//! Shared by the end-to-end tests: points the real Vulkan loader at the driver built for this
//! profile (and at nothing else), creates instances and devices, reads the driver's counters.

#![allow(dead_code)]

use ash::vk;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

pub use exportcheck_test_icd::{ConfigCreateInfo, STRUCTURE_TYPE_TEST_ICD_CONFIG};

/// `target/<profile>` of the running test binary (`target/<profile>/deps/<test>`).
pub fn target_profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf()
}

/// The driver library built by cargo for this profile: `target/<profile>/` or, newer when only
/// `cargo test` ran (it builds the cdylib into `deps/` without copying it up),
/// `target/<profile>/deps/`. The most recently built one.
pub fn driver_library() -> PathBuf {
    let dir = target_profile_dir();
    let candidates = [
        dir.join("libexportcheck_test_icd.so"),
        dir.join("deps").join("libexportcheck_test_icd.so"),
    ];
    candidates
        .iter()
        .filter_map(|p| Some((std::fs::metadata(p).ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p.clone())
        .unwrap_or_else(|| {
            panic!(
                "{} is missing (cargo builds it with the tests)",
                candidates[0].display()
            )
        })
}

/// Writes a driver manifest for `library` into `dir` (atomically: another test process may be
/// reading it) and returns its path.
pub fn write_manifest(dir: &Path, library: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("manifest dir");
    let manifest = format!(
        "{{\n    \"file_format_version\": \"1.0.1\",\n    \"ICD\": {{\n        \"library_path\": \"{}\",\n        \"api_version\": \"1.3.0\"\n    }}\n}}\n",
        library.display()
    );
    let path = dir.join("exportcheck_test_icd.json");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(manifest.as_str()) {
        let tmp = dir.join(format!(".exportcheck_test_icd.json.{}", std::process::id()));
        std::fs::write(&tmp, manifest).expect("write manifest");
        std::fs::rename(&tmp, &path).expect("install manifest");
    }
    path
}

/// Sets the loader's environment (once, before the loader is loaded) and loads the loader.
pub fn entry() -> &'static ash::Entry {
    static ENTRY: OnceLock<ash::Entry> = OnceLock::new();
    ENTRY.get_or_init(|| {
        let manifest = write_manifest(
            &target_profile_dir().join("exportcheck-test-icd"),
            &driver_library(),
        );
        // Only this driver, and no layer at all (not even implicit ones such as Mesa's
        // device-select layer). Set before any thread uses the loader.
        std::env::set_var("VK_DRIVER_FILES", &manifest);
        std::env::set_var("VK_LOADER_LAYERS_DISABLE", "~all~");
        for var in [
            "VK_ICD_FILENAMES",
            "VK_ADD_DRIVER_FILES",
            "VK_INSTANCE_LAYERS",
            "VK_LOADER_LAYERS_ENABLE",
        ] {
            std::env::remove_var(var);
        }
        // SAFETY: loads the system's Vulkan loader (libvulkan.so.1).
        unsafe { ash::Entry::load() }.expect("load libvulkan.so.1")
    })
}

/// Serialises the loader calls that walk or change the loader's lists of instances and
/// devices. The loader here (1.3.239) walks them without a lock in `vkGetDeviceProcAddr` (ash's
/// `Device::load` makes hundreds of such calls per device), so a `vkDestroyDevice` or
/// `vkDestroyInstance` on another test thread can free a node under its feet (SIGSEGV inside
/// libvulkan; later loaders take a lock there).
pub fn loader_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Destroys `device` (under [`loader_lock`]).
pub fn destroy_device(device: &ash::Device) {
    let _lock = loader_lock();
    // SAFETY: the device and everything made from it are no longer used.
    unsafe { device.destroy_device(None) }
}

/// Destroys `instance` (under [`loader_lock`]).
pub fn destroy_instance(instance: &ash::Instance) {
    let _lock = loader_lock();
    // SAFETY: the instance and everything made from it are no longer used.
    unsafe { instance.destroy_instance(None) }
}

/// An instance made with `config_json` chained as the driver's configuration (or, with `None`,
/// configured by `EXPORTCHECK_TEST_ICD_CONFIG` / the defaults).
pub fn create_instance(config_json: Option<&str>) -> Result<ash::Instance, vk::Result> {
    let entry = entry();
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
    let json = config_json.map(|j| CString::new(j).unwrap());
    let chained = ConfigCreateInfo {
        s_type: STRUCTURE_TYPE_TEST_ICD_CONFIG,
        p_next: std::ptr::null(),
        json: json.as_ref().map_or(std::ptr::null(), |j| j.as_ptr()),
    };
    let mut info = vk::InstanceCreateInfo::default().application_info(&app);
    if json.is_some() {
        info.p_next = (&chained as *const ConfigCreateInfo).cast();
    }
    let _lock = loader_lock();
    // SAFETY: valid create info; `chained` and `json` outlive the call.
    unsafe { entry.create_instance(&info, None) }
}

/// The instance's one physical device.
pub fn physical_device(instance: &ash::Instance) -> vk::PhysicalDevice {
    // SAFETY: valid instance.
    let devices = unsafe { instance.enumerate_physical_devices() }.expect("enumerate");
    assert_eq!(devices.len(), 1, "only the test driver is visible");
    devices[0]
}

/// A device with `extensions` enabled (and `externalMemoryRDMA` when `rdma` is set).
pub fn create_device(
    instance: &ash::Instance,
    extensions: &[&str],
    rdma: bool,
) -> Result<ash::Device, vk::Result> {
    let pd = physical_device(instance);
    let names: Vec<CString> = extensions
        .iter()
        .map(|e| CString::new(*e).unwrap())
        .collect();
    let ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let mut rdma_features =
        vk::PhysicalDeviceExternalMemoryRDMAFeaturesNV::default().external_memory_rdma(true);
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&ptrs);
    if rdma {
        info = info.push_next(&mut rdma_features);
    }
    let _lock = loader_lock();
    // SAFETY: valid create info.
    unsafe { instance.create_device(pd, &info, None) }
}

/// A device command by name through `vkGetDeviceProcAddr`, as an app gets it.
pub fn device_proc(
    instance: &ash::Instance,
    device: &ash::Device,
    name: &str,
) -> vk::PFN_vkVoidFunction {
    let name = CString::new(name).unwrap();
    let _lock = loader_lock();
    // SAFETY: valid device and name.
    unsafe { (instance.fp_v1_0().get_device_proc_addr)(device.handle(), name.as_ptr()) }
}

/// `vkGetDeviceProcAddr(name)` cast to its signature; panics if NULL.
#[allow(unused_macros)]
macro_rules! device_fn {
    ($instance:expr, $device:expr, $name:literal, $ty:ty) => {{
        let f = device_proc($instance, $device, $name).expect(concat!($name, " is NULL"));
        // SAFETY: the driver's command of that name has exactly this signature.
        unsafe { std::mem::transmute::<unsafe extern "system" fn(), $ty>(f) }
    }};
}

/// Allocates `size` bytes of memory type `type_index` with `p_next` chained.
pub fn allocate(
    device: &ash::Device,
    size: u64,
    type_index: u32,
    p_next: *const c_void,
) -> Result<vk::DeviceMemory, vk::Result> {
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(type_index);
    info.p_next = p_next;
    // SAFETY: valid allocate info; the chain outlives the call.
    unsafe { device.allocate_memory(&info, None) }
}

/// The driver's call counters, read through the library the loader loaded (same mapping).
pub struct Counters {
    count: unsafe extern "C" fn(*const c_char) -> u64,
    reset: unsafe extern "C" fn(),
}

impl Counters {
    /// Call while an instance exists (the loader has the driver loaded). The handle is kept for
    /// the process, which also keeps the driver (and its counts) loaded between instances.
    pub fn get() -> &'static Counters {
        static COUNTERS: OnceLock<Counters> = OnceLock::new();
        COUNTERS.get_or_init(|| {
            let path = CString::new(driver_library().to_str().unwrap()).unwrap();
            // SAFETY: RTLD_NOLOAD only looks for an already loaded library.
            let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOLOAD | libc::RTLD_NOW) };
            assert!(
                !handle.is_null(),
                "the loader has not loaded {}",
                path.to_str().unwrap()
            );
            let sym = |name: &CStr| {
                // SAFETY: a live handle and a NUL-terminated name.
                let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
                assert!(!p.is_null(), "{name:?} not exported");
                p
            };
            // SAFETY: the driver exports these with exactly these signatures.
            unsafe {
                Counters {
                    count: std::mem::transmute::<
                        *mut c_void,
                        unsafe extern "C" fn(*const c_char) -> u64,
                    >(sym(c"exportcheck_test_icd_call_count")),
                    reset: std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(sym(
                        c"exportcheck_test_icd_reset_call_counts",
                    )),
                }
            }
        })
    }

    pub fn count(&self, command: &str) -> u64 {
        let name = CString::new(command).unwrap();
        // SAFETY: a NUL-terminated name.
        unsafe { (self.count)(name.as_ptr()) }
    }

    pub fn reset(&self) {
        // SAFETY: no arguments.
        unsafe { (self.reset)() }
    }
}

pub mod sync;
