//! What the import-matching checks hold of exports.

pub mod fence_exports;
pub mod kmt_exports;
pub mod known_export;
pub mod opaque_exports;
pub mod semaphore_exports;
pub mod semaphore_kmt_exports;
pub mod sync_exports;
