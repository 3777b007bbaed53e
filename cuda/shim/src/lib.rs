//! `libexportcheck_cuda.so`: exportcheck's CUDA interposer. `exportcheck run` puts it in
//! `LD_PRELOAD`, so it is loaded into every process of the run, before the CUDA driver library.
//!
//! It intercepts the driver's external-resource entry points ([`INTERCEPTED`]) however the app
//! reaches them, and hands each call to the layer's hooks ([`exportcheck_cuda_abi::hooks`])
//! around passing it down unchanged:
//!
//! * **linked**: it exports the eight symbols ([`entries`]); the dynamic linker binds the app's
//!   references to them, since a preloaded library comes before the driver;
//! * **`dlsym`**: it exports `dlsym` ([`dlsym`]); for the intercepted names it hands out its own
//!   wrapper of the function the real `dlsym` found, for every other name it jumps to the real
//!   one, which sees the app's return address (so `RTLD_NEXT` and `RTLD_DEFAULT` stay relative
//!   to the caller);
//! * **`cuGetProcAddress`** (how the CUDA runtime reaches the driver): it wraps
//!   `cuGetProcAddress` and `cuGetProcAddress_v2` ([`proc_address`]) and puts its own wrapper
//!   in the pointer they return for the intercepted names.
//!
//! A process that never calls these pays nothing: no constructor, nothing resolved before it is
//! needed, and `dlsym` pays one name comparison. The layer is loaded ([`layer`]) at the first
//! intercepted call, from the path in [`LAYER_PATH_ENV`]. No lock is held across a call (the
//! state is atomics), so a `fork` at any time leaves the child usable; no panic crosses the C
//! boundary ([`boundary`]).
//!
//! [`INTERCEPTED`]: exportcheck_cuda_abi::hooks::INTERCEPTED
//! [`LAYER_PATH_ENV`]: exportcheck_cuda_abi::hooks::LAYER_PATH_ENV

#![cfg(target_os = "linux")]

/// Exports `$generic::<LINKED>` (the wrapper whose real function is the one after the shim) as
/// the C symbol `$symbol`.
macro_rules! export {
    ($symbol:ident => $generic:ident ($($arg:ident: $ty:ty),*)) => {
        #[doc = concat!("`", stringify!($symbol), "`, intercepted.")]
        ///
        /// # Safety
        /// The driver's contract for this entry point.
        #[no_mangle]
        pub unsafe extern "C" fn $symbol($($arg: $ty),*) -> CUresult {
            // SAFETY: the caller's contract, passed on.
            unsafe { $generic::<{ $crate::slots::LINKED }>($($arg),*) }
        }
    };
}

mod boundary;
mod device;
#[cfg(target_arch = "x86_64")]
pub mod dlsym;
pub mod entries;
mod layer;
pub mod proc_address;
mod real;
mod slots;
