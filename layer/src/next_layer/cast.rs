//! The one cast of the next layer's `PFN_vkVoidFunction`s to their commands' types.

use ash::vk;

/// Reinterprets a `PFN_vkVoidFunction` as the typed pointer the caller asked for by name.
///
/// # Safety
/// `T` must be the function-pointer type of the command the pointer was looked up by.
pub unsafe fn cast<T: Copy>(f: vk::PFN_vkVoidFunction) -> Option<T> {
    debug_assert_eq!(size_of::<T>(), size_of::<unsafe extern "system" fn()>());
    // SAFETY: the caller names the right type; fn pointers of any signature share one size.
    f.map(|f| unsafe { std::mem::transmute_copy::<unsafe extern "system" fn(), T>(&f) })
}
