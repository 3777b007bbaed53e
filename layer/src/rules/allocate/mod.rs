//! `vkAllocateMemory`'s rules: the call and its chain's structures (export, dedication, limits, features, the capture address, zero size, the Android export size, the Win32 export info).

pub mod alloc;
pub mod alloc_capture_address;
pub mod alloc_count;
pub mod alloc_features;
pub mod alloc_limits;
pub mod alloc_zero_size;
pub mod android_export_size;
pub mod dedicated;
pub mod export_win32;
