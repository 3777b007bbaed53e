//! Helpers at the C boundary: the guard around every entry point, `pNext` chains, the
//! two-call enumeration idiom, fixed-size C strings.

use ash::vk;
use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs an entry point's body: counts the call and keeps any panic from crossing the C ABI
/// (`on_panic` is returned instead).
pub fn entry<R>(name: &'static str, on_panic: R, body: impl FnOnce() -> R) -> R {
    crate::counters::bump(name);
    guard(name, on_panic, body)
}

/// Like [`entry`] without counting the call (for the counter functions themselves).
pub fn guard<R>(name: &'static str, on_panic: R, body: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(r) => r,
        Err(_) => {
            eprintln!("exportcheck-test-icd: internal error (panic) in {name}");
            on_panic
        }
    }
}

/// Longest `pNext` chain walked: a cycle in a broken chain must not hang the driver.
const MAX_CHAIN: usize = 256;

/// Finds the first structure of type `s_type` in an input `pNext` chain.
///
/// # Safety
/// `p_next` is NULL or the head of a valid chain of Vulkan structures.
pub unsafe fn find_in_chain(
    p_next: *const c_void,
    s_type: vk::StructureType,
) -> Option<*const c_void> {
    let mut p = p_next.cast::<vk::BaseInStructure<'_>>();
    for _ in 0..MAX_CHAIN {
        // SAFETY: `p` is NULL or a structure of the chain, which starts with sType and pNext.
        let base = unsafe { p.as_ref() }?;
        if base.s_type == s_type {
            return Some(p.cast());
        }
        p = base.p_next;
    }
    None
}

/// Calls `f` with every structure (type, pointer) of an output `pNext` chain.
///
/// # Safety
/// `p_next` is NULL or the head of a valid chain of writable Vulkan structures.
pub unsafe fn for_each_out(p_next: *mut c_void, mut f: impl FnMut(vk::StructureType, *mut c_void)) {
    let mut p = p_next.cast::<vk::BaseOutStructure<'_>>();
    for _ in 0..MAX_CHAIN {
        // SAFETY: `p` is NULL or a structure of the chain, which starts with sType and pNext.
        let Some(base) = (unsafe { p.as_ref() }) else {
            return;
        };
        let next = base.p_next;
        f(base.s_type, p.cast());
        p = next;
    }
}

/// The two-call idiom: with `out` NULL, reports the count; else writes up to `*count` items and
/// returns `VK_INCOMPLETE` when that was not all of them.
///
/// # Safety
/// `count` is NULL or valid; `out` is NULL or valid for `*count` writes.
pub unsafe fn enumerate<T: Copy>(items: &[T], count: *mut u32, out: *mut T) -> vk::Result {
    // SAFETY: the caller passes a valid `count` pointer or NULL.
    let Some(count) = (unsafe { count.as_mut() }) else {
        return vk::Result::ERROR_UNKNOWN;
    };
    if out.is_null() {
        *count = items.len() as u32;
        return vk::Result::SUCCESS;
    }
    let n = (*count as usize).min(items.len());
    // SAFETY: `out` has room for `*count` >= `n` items (Vulkan's contract for this idiom).
    unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), out, n) };
    *count = n as u32;
    if n < items.len() {
        vk::Result::INCOMPLETE
    } else {
        vk::Result::SUCCESS
    }
}

/// Reads a NUL-terminated name; `None` for NULL or non-UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub unsafe fn c_str<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL and NUL-terminated (caller's contract).
    unsafe { CStr::from_ptr(p) }.to_str().ok()
}

/// Copies `s` into a fixed-size C string field, truncating and always NUL-terminating.
pub fn write_c_str<const N: usize>(dst: &mut [c_char; N], s: &str) {
    dst.fill(0);
    for (d, b) in dst.iter_mut().zip(s.bytes().take(N - 1)) {
        *d = b as c_char;
    }
}

/// A dispatchable handle's value as a registry key.
pub fn key<H: vk::Handle>(h: H) -> usize {
    h.as_raw() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerate_reports_incomplete() {
        let items = [1u32, 2, 3];
        let mut n = 0;
        // SAFETY: valid pointers.
        let r = unsafe { enumerate(&items, &mut n, std::ptr::null_mut()) };
        assert_eq!(r, vk::Result::SUCCESS);
        assert_eq!(n, 3);
        let mut out = [0u32; 2];
        n = 2;
        // SAFETY: `out` has room for 2.
        let r = unsafe { enumerate(&items, &mut n, out.as_mut_ptr()) };
        assert_eq!((r, n, out), (vk::Result::INCOMPLETE, 2, [1, 2]));
    }

    #[test]
    fn chains_with_cycles_end() {
        let mut a = vk::BaseOutStructure {
            s_type: vk::StructureType::from_raw(7),
            ..Default::default()
        };
        let pa: *mut vk::BaseOutStructure<'_> = &mut a;
        // SAFETY: `pa` points to `a`, alive for the whole test.
        unsafe { (*pa).p_next = pa };
        let mut seen = 0;
        // SAFETY: a (cyclic) chain of valid structures.
        unsafe { for_each_out(pa.cast(), |_, _| seen += 1) };
        assert_eq!(seen, MAX_CHAIN);
        // SAFETY: as above.
        let found = unsafe { find_in_chain(pa.cast(), vk::StructureType::from_raw(8)) };
        assert!(found.is_none());
    }

    #[test]
    fn c_strings_are_truncated_and_terminated() {
        let mut buf = [1 as c_char; 4];
        write_c_str(&mut buf, "abcdef");
        assert_eq!(buf, [b'a' as c_char, b'b' as c_char, b'c' as c_char, 0]);
    }

    #[test]
    fn panics_do_not_escape() {
        let r = entry("test-panic", 7, || -> i32 { panic!("boom") });
        assert_eq!(r, 7);
    }
}
