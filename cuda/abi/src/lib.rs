//! The part of the CUDA driver API (`cuda.h`) that exportcheck's CUDA side reads: the
//! external-memory and external-semaphore entry points, their structures and constants, written
//! from NVIDIA's CUDA Driver API reference ("External Resource Interoperability"). No CUDA
//! header or library is needed to build the project; the layouts are checked by tests against
//! the sizes and offsets `cuda.h` gives them on 64-bit Linux.
//!
//! Also the hook table ([`hooks`]) through which the interposer (`cuda/shim`) hands each
//! intercepted call to the layer, which checks it.

#![cfg_attr(not(test), no_std)]

pub mod hooks;
pub mod types;

pub use types::*;
