//! The rules. Each command's rules are pure functions of tracked state and the call's
//! arguments: `evaluate` says which are broken (cheap, no allocation), `describe` builds the
//! findings of those (cold). None reports, locks or calls down.

pub mod alloc;
pub mod alloc_capture_address;
pub mod alloc_count;
pub mod alloc_features;
pub mod alloc_limits;
pub mod alloc_zero_size;
pub mod android_export_size;
pub mod bind_handle_types;
pub mod common;
pub mod dedicated;
pub mod export;
pub mod export_win32;
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
pub mod import_android_properties;
pub mod import_fd;
pub mod import_fd_type;
pub mod import_handles;
pub mod import_handles_allocation;
pub mod import_host;
pub mod import_metal;
pub mod import_type_bits;
pub mod import_win32;
pub mod import_zircon;
pub mod query;
pub mod resource_export;
pub mod resource_import;
pub mod rule_set;

#[cfg(test)]
mod evaluate_tests;
#[cfg(test)]
pub(crate) mod fixtures;
