//! The export commands' descriptors, one file per command, named as its rules in `rules/export/`.

pub mod get_fence_fd;
pub mod get_fence_win32_handle;
pub mod get_memory_android_hardware_buffer;
pub mod get_memory_fd;
pub mod get_memory_metal_handle;
pub mod get_memory_remote_address;
pub mod get_memory_win32_handle;
pub mod get_memory_win32_handle_nv;
pub mod get_memory_zircon_handle;
pub mod get_semaphore_fd;
pub mod get_semaphore_win32_handle;
pub mod get_semaphore_zircon_handle;
