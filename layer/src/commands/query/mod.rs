//! The handle-property queries' descriptors, one file per query, named as its rules in `rules/query/`.

pub mod external_sync_properties;
pub mod get_android_hardware_buffer_properties;
pub mod get_memory_fd_properties;
pub mod get_memory_host_pointer_properties;
pub mod get_memory_metal_handle_properties;
pub mod get_memory_win32_handle_properties;
pub mod get_memory_zircon_handle_properties;
