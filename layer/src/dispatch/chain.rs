//! Typed casts of the loader's `PFN_vkVoidFunction`s, and the layer's own functions as
//! `PFN_vkVoidFunction`s for `vkGet*ProcAddr`.

/// Any `extern "system"` function as the `PFN_vkVoidFunction` the loader expects.
macro_rules! void_fn {
    ($f:expr) => {{
        let f: *const () = $f as *const ();
        // SAFETY: a function pointer cast to the loader's generic function-pointer type; the
        // loader casts it back to the command's own type before calling it.
        Some(unsafe { std::mem::transmute::<*const (), unsafe extern "system" fn()>(f) })
            as vk::PFN_vkVoidFunction
    }};
}
pub(crate) use void_fn;
