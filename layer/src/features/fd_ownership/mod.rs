//! Who owns an fd after an import: fds imported twice, or closed after an import took them
//! (memory's imports: `features::import_matching::hooks`; semaphores' and fences':
//! `hooks`).

pub mod hooks;
pub mod rules;
pub mod state;
