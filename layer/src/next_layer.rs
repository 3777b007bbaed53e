//! Next-layer function pointers, fetched once at instance or device creation.
//! Every entry is an `Option`: a missing function is a reported condition, never a panic.
//! The dispatch structures and their loading (`next_layer/dispatch.rs`) are generated from
//! `vuids/commands.json` by `cargo run -p exportcheck-vuids --bin render-dispatch`.

mod cast;
#[rustfmt::skip]
mod dispatch;

pub use cast::cast;
pub use dispatch::{DeviceDispatch, InstanceDispatch};
