//! Exports and imports matched across the processes of a run, through the shared exports
//! directory (docs/cross-process.md).

pub mod rules;
pub mod state;
