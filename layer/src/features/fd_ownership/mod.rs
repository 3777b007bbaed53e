//! Who owns an fd after an import: fds imported twice, or closed after an import took them.

pub mod rules;
pub mod state;
