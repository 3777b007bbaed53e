//! Buffers and images: made for external memory, and the memory bound to them.

pub mod bind_handle_types;
pub mod resource_export;
pub mod resource_import;
