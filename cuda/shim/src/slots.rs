//! Which real function each of the shim's wrappers calls.
//!
//! Every entry point has [`SLOTS`] wrappers, each with its own real function: the exported
//! symbol ([`LINKED`]: the function after the shim in the global scope, what a linked call of the
//! app would reach without it), one more for a different function `dlsym` found under that name
//! (another handle), and two for the pointers `cuGetProcAddress` returned (the legacy and the
//! per-thread default stream variants of the stream-ordered calls differ). A slot remembers the
//! first function handed to it and keeps it; when both slots of a kind hold other functions the
//! caller hands out the real function itself (that caller's calls go unseen rather than to
//! another function).

use core::ffi::{c_void, CStr};
use core::sync::atomic::{AtomicUsize, Ordering};

use exportcheck_cuda_abi::hooks::ReachedThrough;

use crate::real;

/// The wrappers (and real functions) of one entry point.
pub(crate) const SLOTS: usize = 4;
/// The slot of the exported symbol.
pub(crate) const LINKED: usize = 0;

/// An entry point the shim wraps: the eight of `hooks::INTERCEPTED`, in its order, and
/// `cuGetProcAddress` and `cuGetProcAddress_v2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    ImportMemory,
    MappedBuffer,
    MappedMipmappedArray,
    DestroyMemory,
    ImportSemaphore,
    SignalSemaphores,
    WaitSemaphores,
    DestroySemaphore,
    GetProcAddress,
    GetProcAddressV2,
}

const ENTRIES: usize = 10;

impl Entry {
    const ALL: [Entry; ENTRIES] = [
        Entry::ImportMemory,
        Entry::MappedBuffer,
        Entry::MappedMipmappedArray,
        Entry::DestroyMemory,
        Entry::ImportSemaphore,
        Entry::SignalSemaphores,
        Entry::WaitSemaphores,
        Entry::DestroySemaphore,
        Entry::GetProcAddress,
        Entry::GetProcAddressV2,
    ];

    /// The C names, in the order of [`Entry::ALL`].
    const NAMES: [&'static CStr; ENTRIES] = [
        c"cuImportExternalMemory",
        c"cuExternalMemoryGetMappedBuffer",
        c"cuExternalMemoryGetMappedMipmappedArray",
        c"cuDestroyExternalMemory",
        c"cuImportExternalSemaphore",
        c"cuSignalExternalSemaphoresAsync",
        c"cuWaitExternalSemaphoresAsync",
        c"cuDestroyExternalSemaphore",
        c"cuGetProcAddress",
        c"cuGetProcAddress_v2",
    ];

    /// The entry point named `name`.
    pub(crate) fn named(name: &CStr) -> Option<Entry> {
        let name = name.to_bytes();
        Self::NAMES
            .iter()
            .position(|n| n.to_bytes() == name)
            .map(|i| Self::ALL[i])
    }

    /// Its C name.
    pub(crate) fn name(self) -> &'static CStr {
        Self::NAMES[self as usize]
    }
}

/// The real function of each slot of each entry point (0: none yet).
static REAL: [[AtomicUsize; SLOTS]; ENTRIES] =
    [const { [const { AtomicUsize::new(0) }; SLOTS] }; ENTRIES];

/// How the app reached the wrapper of `slot`.
pub(crate) const fn through(slot: usize) -> ReachedThrough {
    if slot < 2 {
        ReachedThrough::Symbol
    } else {
        ReachedThrough::ProcAddress
    }
}

/// The real function the wrapper of `slot` calls (0: none, only for [`LINKED`] when no object
/// defines the name). [`LINKED`]'s is looked up at its first use: the definition after the shim
/// in the global scope, else `libcuda.so.1`'s (loaded `RTLD_LOCAL`, as the CUDA runtime loads
/// it: its own references to its exported functions bind to the shim's, which come first).
pub(crate) fn real(entry: Entry, slot: usize) -> usize {
    let known = REAL[entry as usize][slot].load(Ordering::Acquire);
    if known != 0 || slot != LINKED {
        return known;
    }
    let mut next = real::next_after_shim(entry.name());
    if next.is_null() {
        next = real::Loaded::named(c"libcuda.so.1")
            .map_or(core::ptr::null_mut(), |driver| driver.lookup(entry.name()));
    }
    if next.is_null() || real::is_own(next) {
        return 0;
    }
    REAL[entry as usize][LINKED].store(next as usize, Ordering::Release);
    next as usize
}

/// The slot whose wrapper calls `function` (`entry`'s real function, reached `through`), taking
/// a free one if none does yet; `None` when both slots of that kind hold other functions.
pub(crate) fn slot_for(entry: Entry, through: ReachedThrough, function: usize) -> Option<usize> {
    let candidates = match through {
        ReachedThrough::Symbol => [LINKED, 1],
        ReachedThrough::ProcAddress => [2, 3],
    };
    candidates.into_iter().find(|&slot| {
        if slot == LINKED {
            return real(entry, LINKED) == function;
        }
        match REAL[entry as usize][slot].compare_exchange(
            0,
            function,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => true,
            Err(held) => held == function,
        }
    })
}

/// The wrapper to hand out for `function` (see [`slot_for`]), or `function` itself.
pub(crate) fn wrap(entry: Entry, through: ReachedThrough, function: *mut c_void) -> *mut c_void {
    match slot_for(entry, through, function as usize) {
        Some(slot) => crate::entries::wrapper(entry, slot),
        None => function,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use exportcheck_cuda_abi::hooks::INTERCEPTED;

    #[test]
    fn names_are_the_hook_tables() {
        for (i, name) in INTERCEPTED.iter().enumerate() {
            assert_eq!(Entry::NAMES[i].to_str().unwrap(), *name);
            assert_eq!(Entry::named(Entry::NAMES[i]), Some(Entry::ALL[i]));
            assert_eq!(Entry::ALL[i] as usize, i);
        }
        assert_eq!(
            Entry::named(c"cuGetProcAddress_v2"),
            Some(Entry::GetProcAddressV2)
        );
        assert_eq!(Entry::named(c"cuMemAlloc"), None);
    }

    #[test]
    fn slots_remember_their_first_function() {
        // No driver in this process: the linked slot has no real function.
        let entry = Entry::DestroySemaphore;
        assert_eq!(real(entry, LINKED), 0);
        let symbol = ReachedThrough::Symbol;
        let proc_address = ReachedThrough::ProcAddress;
        assert_eq!(slot_for(entry, symbol, 0x1000), Some(1));
        assert_eq!(slot_for(entry, symbol, 0x1000), Some(1));
        assert_eq!(
            slot_for(entry, symbol, 0x2000),
            None,
            "both Symbol slots taken"
        );
        assert_eq!(slot_for(entry, proc_address, 0x1000), Some(2));
        assert_eq!(slot_for(entry, proc_address, 0x3000), Some(3));
        assert_eq!(slot_for(entry, proc_address, 0x3000), Some(3));
        assert_eq!(slot_for(entry, proc_address, 0x4000), None);
        assert_eq!(real(entry, 3), 0x3000);
        assert_eq!(through(1), ReachedThrough::Symbol);
        assert_eq!(through(3), ReachedThrough::ProcAddress);
        assert_eq!(
            wrap(entry, proc_address, 0x4000 as *mut c_void) as usize,
            0x4000
        );
    }
}
