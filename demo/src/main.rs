//! The bundled demo: a small Vulkan app that exports memory correctly and incorrectly on Mesa
//! lavapipe. Run it under the layer (`scripts/demo.sh` does) and the layer's report appears on
//! stderr between the steps; run it with `--correct-only` and there is nothing to report.
//!
//! It is an ordinary app: it knows nothing of the layer and registers no debug messenger, so
//! the layer writes its findings to stderr, as it would for any app.

use ash::vk;
use std::ffi::CStr;
use std::io::Write;

const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
const DMA_BUF: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT;

struct Demo {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    fd: ash::khr::external_memory_fd::Device,
    names: ash::ext::debug_utils::Device,
}

impl Demo {
    fn new() -> Result<Self, String> {
        // SAFETY: loads the system's Vulkan loader.
        let entry = unsafe { ash::Entry::load() }
            .map_err(|e| format!("cannot load libvulkan.so.1: {e}"))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"exportcheck-demo")
            .api_version(vk::API_VERSION_1_1);
        let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
        let create = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_extension_names(&extensions);
        // SAFETY: valid create info.
        let instance = unsafe { entry.create_instance(&create, None) }
            .map_err(|e| format!("vkCreateInstance failed: {e}"))?;
        // SAFETY: a live instance.
        let physical = unsafe { instance.enumerate_physical_devices() }
            .map_err(|e| format!("vkEnumeratePhysicalDevices failed: {e}"))?
            .into_iter()
            .next()
            .ok_or("no Vulkan device (is mesa-vulkan-drivers installed?)")?;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let device_extensions = [ash::khr::external_memory_fd::NAME.as_ptr()];
        let create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&device_extensions);
        // SAFETY: valid create info on a live physical device.
        let device = unsafe { instance.create_device(physical, &create, None) }
            .map_err(|e| format!("vkCreateDevice with VK_KHR_external_memory_fd failed: {e}"))?;
        let fd = ash::khr::external_memory_fd::Device::new(&instance, &device);
        let names = ash::ext::debug_utils::Device::new(&instance, &device);
        Ok(Self {
            _entry: entry,
            instance,
            device,
            fd,
            names,
        })
    }

    fn allocate(
        &self,
        name: &CStr,
        export: Option<vk::ExternalMemoryHandleTypeFlags>,
    ) -> vk::DeviceMemory {
        let mut export_info = vk::ExportMemoryAllocateInfo::default();
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(1 << 20)
            .memory_type_index(0);
        if let Some(types) = export {
            export_info = export_info.handle_types(types);
            info = info.push_next(&mut export_info);
        }
        // SAFETY: valid allocate info on a live device.
        let memory = unsafe { self.device.allocate_memory(&info, None) }.expect("vkAllocateMemory");
        let name_info = vk::DebugUtilsObjectNameInfoEXT::default()
            .object_handle(memory)
            .object_name(name);
        // SAFETY: valid name info.
        let _ = unsafe { self.names.set_debug_utils_object_name(&name_info) };
        memory
    }

    fn export(
        &self,
        memory: vk::DeviceMemory,
        handle_type: vk::ExternalMemoryHandleTypeFlags,
    ) -> (vk::Result, i32) {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(handle_type);
        let mut fd = -1;
        // SAFETY: valid pointers.
        let result =
            unsafe { (self.fd.fp().get_memory_fd_khr)(self.device.handle(), &info, &mut fd) };
        (result, fd)
    }

    fn free(&self, memory: vk::DeviceMemory) {
        // SAFETY: the demo frees some handles twice on purpose; the layer stops the second.
        unsafe { self.device.free_memory(memory, None) }
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        // SAFETY: destroyed once, children first.
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn step(n: u32, what: &str) {
    println!("\n[{n}] {what}");
    let _ = std::io::stdout().flush();
}

fn outcome(result: vk::Result, fd: i32) {
    println!("    -> {result:?}, fd = {fd}");
    if fd >= 0 {
        // SAFETY: an fd the driver gave us; closed once.
        unsafe { libc_close(fd) };
    }
    let _ = std::io::stdout().flush();
}

extern "C" {
    #[link_name = "close"]
    fn libc_close(fd: i32) -> i32;
}

fn main() {
    let correct_only = std::env::args().any(|a| a == "--correct-only");
    let demo = match Demo::new() {
        Ok(demo) => demo,
        Err(e) => {
            eprintln!("exportcheck-demo: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "exportcheck demo: memory exports on {}",
        if correct_only {
            "the correct path only"
        } else {
            "correct and incorrect paths"
        }
    );

    step(
        1,
        "correct: export OPAQUE_FD from memory allocated with VkExportMemoryAllocateInfo(OPAQUE_FD)\n    \
         (on lavapipe the layer also warns about the driver: its fds lack FD_CLOEXEC)",
    );
    let shared = demo.allocate(c"shared-with-cuda", Some(OPAQUE_FD));
    let (r, fd) = demo.export(shared, OPAQUE_FD);
    outcome(r, fd);

    if !correct_only {
        step(
            2,
            "wrong handle type: export DMA_BUF from memory exported only as OPAQUE_FD",
        );
        let (r, fd) = demo.export(shared, DMA_BUF);
        outcome(r, fd);

        step(
            3,
            "not exportable: export from memory allocated without VkExportMemoryAllocateInfo",
        );
        let plain = demo.allocate(c"plain-staging", None);
        let (r, fd) = demo.export(plain, OPAQUE_FD);
        outcome(r, fd);
        demo.free(plain);

        step(
            4,
            "use after free: export from memory that was already freed",
        );
        let (r, fd) = demo.export(plain, OPAQUE_FD);
        outcome(r, fd);

        step(5, "double free");
        demo.free(plain);
        println!("    -> returned (the layer kept the second vkFreeMemory from the driver)");
    }

    demo.free(shared);
    println!("\ndone");
}
