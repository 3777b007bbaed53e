//! The import structures of a `VkMemoryAllocateInfo` chain: fds, host pointers, the handles the layer cannot open (Win32, Zircon, Metal), an Android hardware buffer against the driver's answer, the memory type bits of an import; and the commands that import into an existing semaphore or fence (`import_semaphore_fd`, `import_fence_fd`, `import_fence_win32_handle`).

pub mod another_kind;
pub mod fence_in_flight;
pub mod import_android_properties;
pub mod import_fd;
pub mod import_fd_type;
pub mod import_fence_fd;
pub mod import_fence_win32_handle;
pub mod import_handles;
pub mod import_handles_allocation;
pub mod import_host;
pub mod import_metal;
pub mod import_semaphore_fd;
pub mod import_semaphore_win32;
pub mod import_semaphore_zircon;
pub mod import_type_bits;
pub mod import_win32;
pub mod import_zircon;
