//! The one module that reads and writes through pointers the app or the loader handed us.
//!
//! Everything here turns a raw pointer into owned data (or writes one output value), checks for
//! NULL first, and bounds every walk. The rest of the layer works on the owned values.

pub use crate::args::{
    AllocateInfoRead, ChainEnd, ChainRead, StructArg, SyncQueryInfo, MAX_CHAIN_LENGTH,
};

mod create_info;
mod loader_link;
mod read;
pub mod resources;
mod sync_query;
pub use create_info::{
    has_platform_buffer_import, has_unread_sharing, read_allocate_info, read_device_create_info,
    read_handle_imports, read_instance_create_info, read_layer_settings, DeviceCreateRead,
    DeviceGroupRead, InstanceCreateRead,
};
pub use loader_link::{take_device_link, take_instance_link};
pub use read::{
    c_name, c_string, c_string_array, dispatch_key, read_node, read_out, read_struct, walk_chain,
};
pub use sync_query::read_sync_query_info;
#[cfg(test)]
mod reader_tests;
