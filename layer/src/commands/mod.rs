//! The intercepted commands, each a descriptor that plugs into `crate::pipeline`: how to read
//! its arguments, call down, and check and record what came back. Their rules are in
//! `crate::rules`.

pub mod android_imports;
pub mod dedicated;
pub mod device;
pub mod get_android_hardware_buffer_properties;
pub mod get_memory_android_hardware_buffer;
pub mod get_memory_fd;
pub mod get_memory_fd_properties;
pub mod get_memory_host_pointer_properties;
pub mod get_memory_metal_handle;
pub mod get_memory_metal_handle_properties;
pub mod get_memory_remote_address;
pub mod get_memory_win32_handle;
pub mod get_memory_win32_handle_nv;
pub mod get_memory_win32_handle_properties;
pub mod get_memory_zircon_handle;
pub mod get_memory_zircon_handle_properties;
pub mod import_queries;
pub mod import_support;
pub mod instance;
pub mod memory;
pub mod memory_lifecycle;
pub mod names;
pub mod resources;
