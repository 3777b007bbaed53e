//! What each thread keeps so that a call finds its state without touching shared memory: its
//! snapshot of the device registry, the device it last called on, and its memos of tracked
//! objects ([`ThreadMemos`]).

use super::device::DeviceState;
use super::live_memory::AllocationMemo;
use super::registry::{DeviceMap, DEVICES};
use std::cell::{Cell, RefCell};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A thread's view of the device registry: the map of one version, and the device it last found
/// in it (threads usually call on one device); and its memos.
/// What a thread remembers of tracked objects it looked up lately, to find them again without
/// their table's lock: allocations (see [`super::live_memory`]); a tracked kind that has no memo
/// looks in its table.
pub struct ThreadMemos {
    pub allocations: AllocationMemo,
}

impl ThreadMemos {
    pub const fn new() -> Self {
        Self {
            allocations: AllocationMemo::new(),
        }
    }
}

impl Default for ThreadMemos {
    fn default() -> Self {
        Self::new()
    }
}

struct ThreadDevices {
    /// The registry version `map` is of (0: no map yet).
    version: Cell<u64>,
    /// The handle of the device last looked up, and its state in `map` (NULL: no such device).
    last: Cell<(u64, *const DeviceState)>,
    /// Calls of this thread under way (a debug callback may call Vulkan from inside one): `map`
    /// is only replaced when there are none, so no state a call borrowed from it is freed.
    depth: Cell<u32>,
    map: RefCell<Option<Arc<DeviceMap>>>,
    memos: ThreadMemos,
}

impl ThreadDevices {
    /// The state of `device` (NULL if it is no device) in this thread's map of registry version
    /// `current`; `None` when the map is older and a call of this thread is using it.
    #[inline(always)]
    fn find(&self, device: u64, current: u64) -> Option<*const DeviceState> {
        let (handle, state) = self.last.get();
        if handle == device && self.version.get() == current {
            return Some(state);
        }
        self.find_again(device, current)
    }

    /// [`Self::find`] for another device than the last one, or a newer registry.
    fn find_again(&self, device: u64, current: u64) -> Option<*const DeviceState> {
        if self.version.get() != current {
            if self.depth.get() != 0 {
                return None;
            }
            let (version, map) = DEVICES.snapshot();
            // No call of this thread borrows from the old map (depth is 0): it may go.
            *self.map.try_borrow_mut().ok()? = Some(map);
            self.version.set(version);
        }
        let map = self.map.try_borrow().ok()?;
        let state = map
            .as_ref()
            .and_then(|map| map.get(&device))
            .map_or(std::ptr::null(), Arc::as_ptr);
        self.last.set((device, state));
        Some(state)
    }
}

/// Marks a call of this thread under way for as long as it lives (also when the call panics).
struct CallDepth<'a>(&'a Cell<u32>);

impl<'a> CallDepth<'a> {
    fn enter(depth: &'a Cell<u32>) -> Self {
        depth.set(depth.get() + 1);
        Self(depth)
    }
}

impl Drop for CallDepth<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

thread_local! {
    /// The device map this thread last used.
    static THREAD_DEVICES: ThreadDevices = const {
        ThreadDevices {
            version: Cell::new(0),
            last: Cell::new((0, std::ptr::null())),
            depth: Cell::new(0),
            map: RefCell::new(None),
            memos: ThreadMemos::new(),
        }
    };
}

/// Runs `f` with the state of `device`, borrowed, and the thread's memos: the hot
/// path of every intercepted device command. The thread's snapshot of the device map is reused
/// while no device was created or destroyed since it was taken, so no reference count is
/// touched: one shared atomic load and a thread-local compare.
#[inline(always)]
pub fn with_device<R>(device: u64, f: impl FnOnce(Option<&DeviceState>, &ThreadMemos) -> R) -> R {
    let current = DEVICES.version.load(Ordering::Acquire);
    let mut f = Some(f);
    let done = THREAD_DEVICES.try_with(|thread| {
        let state = thread.find(device, current)?;
        let _depth = CallDepth::enter(&thread.depth);
        // SAFETY: NULL or a state in `thread.map`, which is not replaced while `_depth` lives.
        let state = unsafe { state.as_ref() };
        f.take().map(|f| f(state, &thread.memos))
    });
    match (done, f) {
        (Ok(Some(result)), _) => result,
        // The thread is exiting (its thread-locals are gone) or an outer call on this thread
        // holds a stale snapshot: read the registry directly.
        (_, Some(f)) => with_device_from_registry(device, f),
        (_, None) => unreachable!("f is taken only to be called, and then the result is Some"),
    }
}

/// [`with_device`] without the thread's snapshot (out of line, so the command's body is inlined
/// once, on the common path).
#[cold]
#[inline(never)]
fn with_device_from_registry<R>(
    device: u64,
    f: impl FnOnce(Option<&DeviceState>, &ThreadMemos) -> R,
) -> R {
    let memos = ThreadMemos::new(); // Used for this call only.
    DEVICES.with(device, |state| f(state, &memos))
}
