//! The intercepted commands, each a descriptor that plugs into `crate::pipeline`: how to read
//! its arguments, call down, and check and record what came back. Their rules are in
//! `crate::rules`.

pub mod allocate;
pub mod create_semaphore_checks;
pub mod device;
pub mod export;
pub mod export_semaphore;
pub mod fences;
pub mod import;
pub mod instance;
pub mod names;
pub mod query;
pub mod queue_waits;
pub mod queues;
pub mod record_after;
pub mod resources;
pub mod semaphores;
pub mod sync_support;
