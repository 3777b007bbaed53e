//! End-to-end test harness: loads the built layer through the real Vulkan loader
//! (`libvulkan.so.1`) over a real driver (Mesa lavapipe; SwiftShader in its own test files), with
//! the app's own debug-utils messenger capturing what a user would see.
//!
//! Environment: the harness writes a layer manifest pointing at the `libVkLayer_exportcheck.so`
//! of the profile the tests were built with, and points the loader at it and at the driver
//! (`VK_LAYER_PATH`, `VK_INSTANCE_LAYERS`, `VK_DRIVER_FILES`) before the loader is loaded.

pub mod app;
pub mod built;
pub mod calls;
pub mod child;
pub mod cuda_client;
pub mod env;
pub mod expect;
pub mod fd_export;
pub mod fds;
pub mod fences;
pub mod hostile;
pub mod layer_stats;
pub mod panic_layer;
pub mod semaphores;
pub mod swiftshader;
pub mod sync_capabilities;
pub mod test_cuda;
pub mod test_driver;

/// The model of the rules (`tests/model`): which IDs a call must produce.
pub use exportcheck_spec_model as model;
/// The IDs the end-to-end tests expect, as users see them: the model's own spelling.
pub use exportcheck_spec_model::ids;

pub use app::{
    Captured, Device, Instance, Options, SettingValues, DMA_BUF, FAILED, OPAQUE_FD, OPAQUE_WIN32,
    POINTER_SENTINEL, SENTINEL, SIZE,
};
