//! A table of the opaque fds exported in this process from one kind of synchronisation object
//! (semaphores: `semaphore_exports`; fences: `fence_exports`), each with what its import is
//! checked against ([`ExportOrigin`]), written once for every kind.
//!
//! An fd is recognised as memory's are (`opaque_exports`): by its open file description, never
//! by its number. The table holds a descriptor of each export's open file description
//! ([`os::hold_open_file`], within the layer's descriptor budget) and an imported fd is the
//! export's when both name the same payload file ([`Identity::Payload`]: the file is the
//! payload's own, and the held descriptor keeps its identity from being reused) or, for a file
//! shared with other payloads ([`Identity::OpenFile`], a driver's device file), when
//! `kcmp(KCMP_FILE)` says they are the same open file description.
//!
//! At most [`LIMIT`] exports are held per table (the oldest let go first); an object's go when it
//! is destroyed and a device's when it is destroyed. An import of an fd the table does not hold
//! is not checked against an export.
//!
//! With a shared directory, an export of a file shared with other payloads is recorded there by
//! the held descriptor's number (`features::cross_process::state`; semaphores only), as memory's
//! are (`opaque_exports`): the command asks for the number ([`SyncExports::record_shared`]),
//! passing in how to retire the record, which is done before the descriptor is let go
//! ([`opaque_exports::retire_held`]). Exports nobody records pay nothing for it.

use super::opaque_exports;
use crate::os::payload::{self, Identity};
use crate::os::{self, FileId, HeldFile};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most exports one table holds at once in the process.
pub const LIMIT: usize = 64;

/// How a record of the shared directory is retired (`features::cross_process::state::retire`,
/// which the commands pass in: this module knows nothing of the directory); see
/// `opaque_exports::Shared::retire`.
pub type RetireFn = fn(FileId, i32) -> bool;

/// What an export remembers of the object it came from: at least its device and handle.
pub trait ExportOrigin: Copy {
    /// The exporting `VkDevice`.
    fn device(&self) -> u64;
    /// The exported object (`VkSemaphore`, `VkFence`).
    fn object(&self) -> u64;
}

struct Held<O> {
    identity: Identity,
    held: HeldFile,
    origin: O,
    /// The shared directory records this export by the held descriptor's number: how to retire
    /// that record before the descriptor goes (in its `Drop`).
    shared_record: Option<RetireFn>,
}

impl<O> Drop for Held<O> {
    /// Lets the export go (the layer's descriptor closed as `held` drops), its record in the
    /// shared directory retired first, or the number sealed where that cannot be recorded.
    fn drop(&mut self) {
        if let (Some(retire), Identity::OpenFile(file)) = (self.shared_record, self.identity) {
            let file = FileId {
                dev: file.dev,
                ino: file.ino,
            };
            opaque_exports::retire_held(&mut self.held, file, true, &retire);
        }
    }
}

impl<O> Held<O> {
    /// Whether `fd`, of `identity`, is this export.
    fn is(&self, fd: i32, identity: Identity) -> bool {
        match identity {
            Identity::Payload(_) => self.identity == identity,
            Identity::OpenFile(_) => {
                self.identity == identity
                    && self.held.same_open_file_as(fd, os::held_generation()) == Some(true)
            }
        }
    }
}

/// The exports of one kind of object.
pub struct SyncExports<O> {
    exports: Mutex<Vec<Held<O>>>,
    /// How many are held, written under the lock: while none is, a destroy or an import pays
    /// one atomic load and no lock or system call.
    held: AtomicUsize,
}

impl<O: ExportOrigin> Default for SyncExports<O> {
    fn default() -> Self {
        Self::new()
    }
}

impl<O: ExportOrigin> SyncExports<O> {
    pub const fn new() -> Self {
        Self {
            exports: Mutex::new(Vec::new()),
            held: AtomicUsize::new(0),
        }
    }

    /// After an export returned the opaque fd `fd` for the object `origin` names: held, unless
    /// an export of the same payload from that object is held already.
    pub fn remember(&self, origin: O, fd: i32) {
        let Some(identity) = payload::identity(fd) else {
            return;
        };
        let mut exports = self.exports.lock();
        if exports
            .iter()
            .any(|e| e.origin.object() == origin.object() && e.is(fd, identity))
        {
            return;
        }
        // Before a new one is held: exports of an older generation of held descriptors are not
        // the layer's any more (the program closed or replaced descriptors in bulk): let go,
        // records retired, nothing closed.
        let generation = os::held_generation();
        exports.retain(|e| e.held.generation() == generation);
        if exports.len() == LIMIT {
            exports.remove(0);
        }
        if let Some(held) = os::hold_open_file(fd) {
            exports.push(Held {
                identity,
                held,
                origin,
                shared_record: None,
            });
        }
        self.held.store(exports.len(), Ordering::Relaxed);
    }

    /// For the shared directory, of an export of a file shared with other payloads (a driver's
    /// device file) that the table holds, from `object` of `device`, whose open file description
    /// `fd` refers to: the number of the layer's descriptor of it, by which the directory records
    /// it; `retire` is called with it before that descriptor is let go. `None` where the table
    /// holds no such export (the fd names a payload file of its own, or was not held).
    pub fn record_shared(
        &self,
        (device, object): (u64, u64),
        fd: i32,
        retire: RetireFn,
    ) -> Option<i32> {
        let identity @ Identity::OpenFile(_) = payload::identity(fd)? else {
            return None;
        };
        let mut exports = self.exports.lock();
        let e = exports.iter_mut().rev().find(|e| {
            (e.origin.device(), e.origin.object()) == (device, object) && e.is(fd, identity)
        })?;
        e.shared_record = Some(retire);
        Some(e.held.number())
    }

    fn none_held(&self) -> bool {
        self.held.load(Ordering::Relaxed) == 0
    }

    /// The object the opaque fd `fd` was exported from, if the table holds that export (the
    /// latest export of its payload).
    pub fn origin_of(&self, fd: i32) -> Option<O> {
        if self.none_held() {
            return None;
        }
        let identity = payload::identity(fd)?;
        let exports = self.exports.lock();
        exports
            .iter()
            .rev()
            .find(|e| e.is(fd, identity))
            .map(|e| e.origin)
    }

    /// When the object is destroyed: its exports are let go.
    pub fn forget_object(&self, device: u64, object: u64) {
        if self.none_held() {
            return;
        }
        let mut exports = self.exports.lock();
        exports.retain(|e| (e.origin.device(), e.origin.object()) != (device, object));
        self.held.store(exports.len(), Ordering::Relaxed);
    }

    /// At `vkDestroyDevice`: the device's exports are let go.
    pub fn forget_device(&self, device: u64) {
        if self.none_held() {
            return;
        }
        let mut exports = self.exports.lock();
        exports.retain(|e| e.origin.device() != device);
        self.held.store(exports.len(), Ordering::Relaxed);
    }

    /// How many exports are held (introspection).
    pub fn count(&self) -> usize {
        self.exports.lock().len()
    }
}
